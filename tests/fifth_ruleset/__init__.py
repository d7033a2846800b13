"""Outpost: the smallest whole ruleset, kept among the tests to prove the contract
(``core.ruleset.Ruleset``) and that every guard test walks the registry.

The book, in full:

* §1 Each turn begins with initiative: each side rolls 1d6, the higher moves and
  fires first (a tie: the first side of the scenario).
* §2 A scout fires at an enemy in sight: 1d6 against the fire table (``data/fire.toml``)
  by range; a hit puts the enemy out of action.
* §3 A scout moves up to 10 cm.
* §4 The side with the last scout in action holds the outpost: the game ends.

docs/architecture.md ("The ruleset interface") shows its essentials to copy.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

import msgspec

from core.language.i18n import CORE_DOMAIN, M
from core.log import events as ev
from core.log.state import GameState
from core.ruleset import CommandSpec, Context, Param, Phase, Refused, Ruleset, Tables
from core.rulesets.common import REFEREE_TOOLS, STATUSES, Loaded, emit_scenario, load_scenarios, scenario_command
from core.scenarios.schema import START_STATUSES, Format

HERE = Path(__file__).parent
TABLES = Tables(HERE / "data")


class Band(msgspec.Struct, frozen=True):
    up_to: int
    need: int


class FireTable(msgspec.Struct, frozen=True):
    bands: tuple[Band, ...]


fire_table = TABLES.table("fire.toml", FireTable)


class OutpostFormat(Format):
    """Its scenario files: the common format, scouts only."""

    ruleset_id = "outpost"
    kinds = {"man": "a scout"}


#: The dice of each command, in order (``CommandSpec.dice``, ``Ruleset.next_dice``).
INITIATIVE = "initiative: 1d6 per side"
TO_HIT = "to hit: 1d6"

PHASES = (
    Phase("setup", "Set-up", "referee", "load a scenario: scenario demo", "§1", commands=("scenario",)),
    Phase("battle", "Battle", "active", "fire and move; next rolls the next turn's initiative", "§1", ("fire", "move")),
)


def _fire(ctx: Context, args: dict[str, Any]) -> None:
    shooter, target = ctx.unit(args["unit"]), ctx.unit(args["target"])
    if not shooter.in_play or not target.in_play:
        raise Refused("both scouts must be in action (§2)")
    band = next((b for b in fire_table().bands if args["range"] <= b.up_to), None)
    if band is None:
        raise Refused(f"out of range: the fire table ends at {fire_table().bands[-1].up_to} cm (§2)")
    (face,) = ctx.roll(
        M("fire at {target}", target=target.name),
        1,
        target=band.need,
        rule="§2",
        unit=shooter.id,
        check=ev.AtLeast(face=band.need),
        step=TO_HIT,
    )
    if face >= band.need:
        ctx.emit(ev.UnitOut(unit=target.id, cause=M("shot by {unit}", unit=shooter.name)))
        _last_side_standing(ctx)


def _move(ctx: Context, args: dict[str, Any]) -> None:
    scout = ctx.unit(args["unit"])
    if not scout.in_play:
        raise Refused(f"{scout.name} is out of action")
    ctx.emit(ev.Moved(unit=scout.id, cm=args["cm"]))


def _last_side_standing(ctx: Context) -> None:
    """§4: one side's scouts all out of action, the other holds the outpost."""
    standing = {u.side for u in ctx.state.units.values() if u.in_play}
    if len(standing) == 1:
        (side,) = standing
        said = M("{side} holds the outpost", side=ctx.state.sides[side].name)
        # §4: each side's score is its scouts out of action
        lost = {s: sum(1 for u in ctx.state.units_of(s) if not u.in_play) for s in ctx.state.sides}
        ctx.emit(ev.GameEnded(result=said, winner=side, scores=lost))


def _initiative(ctx: Context) -> None:
    """§1: each side rolls 1d6; the higher fires and moves first this turn."""
    state = ctx.state
    rolls = {
        side: ctx.roll("initiative", 1, side=side, rule="§1", check=ev.Opposed(), step=INITIATIVE)[0]
        for side in state.sides
    }
    first = max(rolls, key=lambda side: rolls[side])  # max keeps the first of equals: §1's tie
    ctx.emit(ev.PhaseBegan(turn=state.turn + 1, phase="battle", active=first, reacting=state.other_side(first)))


class Outpost(Ruleset):
    # what every ruleset must give
    id = "outpost"
    name = "Outpost"
    version = "1"
    domain = CORE_DOMAIN  # no catalogue of its own: its words are shown as written
    phases = PHASES

    def commands(self) -> list[CommandSpec]:
        return [
            scenario_command(self.scenarios, self._scenario, rolls=True, dice=(INITIATIVE,)),
            CommandSpec(
                "fire",
                "Fire at an enemy scout: 1d6 against the fire table (§2).",
                _fire,
                params=(Param("unit", "own"), Param("target", "enemy"), Param("range", "distance", "cm", lo=1, hi=100)),
                rule="§2",
                phases=("battle",),
                rolls=True,
                dice=(TO_HIT,),
                examples=("fire ash cole 15",),
            ),
            CommandSpec(
                "move",
                "Move a scout up to 10 cm (§3).",
                _move,
                params=(Param("unit", "own"), Param("cm", "distance", lo=1, hi=10)),
                rule="§3",
                phases=("battle",),
            ),
            *REFEREE_TOOLS,
        ]

    # what it may give (core.ruleset.Ruleset has the defaults)
    scenario_format = OutpostFormat()
    next_dice = (INITIATIVE,)

    @cached_property
    def scenarios(self) -> Mapping[str, Loaded]:
        return load_scenarios(self.scenario_format, HERE / "scenarios")

    def _scenario(self, ctx: Context, args: dict[str, Any]) -> None:
        emit_scenario(ctx, args["name"])
        _initiative(ctx)

    def advance(self, ctx: Context) -> None:
        if ctx.state.phase == "setup":
            raise Refused("load a scenario first: scenario demo", rule="ENG-7")
        if ctx.state.result:
            raise Refused("the game is over (§4)", rule="ENG-2")
        _initiative(ctx)

    def check_turn(self, state: GameState, parsed: Any, role: str) -> None:
        # §1: the side with the initiative fires and moves
        if parsed.spec.name in ("fire", "move") and role not in ("referee", state.active_side):
            raise Refused(f"it is {state.active_side}'s turn (§1)", rule="ENG-2")

    def statuses(self) -> frozenset[str]:
        """Only the shared ones: the referee's mark and clear, and a scenario's starting ones."""
        return frozenset({*STATUSES, *START_STATUSES})
