"""Snowball: the sixth ruleset kept among the tests, installed as a plugin is (the entry
point ``snowball`` of the group ``fireteam.rulesets``, ``../snowball-1.dist-info``), and
unlike Outpost wherever the contract (``core.ruleset.Ruleset``) leaves a ruleset free:
no scenario called ``demo``, a ``next`` that rolls nothing, no distance to measure, its
code outside core/.  Every guard test walks it (tests/registry_walk.py).

The book, in full:

* §1 Two sides take turns, the side the scenario names first throwing first; ``next``
  ends a side's turn and the other side throws.  No dice.
* §2 In its side's turn each child may throw once at an enemy child still dry: 1d6
  against the throw table (``data/throw.toml``) by the target's cover; a hit soaks the
  target, who is out of the fight.
* §3 A side whose children are all soaked has lost: the other wins the fight.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

import msgspec

from core.language.i18n import CORE_DOMAIN, M
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import CommandSpec, Context, Param, Phase, Refused, Ruleset, Tables
from core.rulesets.common import REFEREE_TOOLS, STATUSES, Loaded, emit_scenario, load_scenarios, scenario_command
from core.scenarios.files import Problem
from core.scenarios.schema import START_STATUSES, Format

HERE = Path(__file__).parent
TABLES = Tables(HERE / "data")


class Cover(msgspec.Struct, frozen=True):
    id: str
    need: int


class ThrowTable(msgspec.Struct, frozen=True):
    cover: tuple[Cover, ...]


throw_table = TABLES.table("throw.toml", ThrowTable)
#: A child who has thrown this turn (§2: once a turn).
THROWN = "thrown"
#: The dice of ``throw`` (``CommandSpec.dice``); ``next`` has none.
TO_HIT = "to hit: 1d6"


class SnowballFormat(Format):
    """Its scenario files: the common format, children only, two sides (§1)."""

    ruleset_id = "snowball"
    kinds = {"child": "a child with an armful of snowballs"}

    def check_more(self, sc: Any) -> Iterator[Problem]:
        if len(sc.sides) != 2:
            yield Problem(("sides",), f"Snowball is played by two sides, not {len(sc.sides)} (§1)")
        for side in sc.sides:
            if not any(u.side == side.id for u in sc.units):
                yield Problem(("sides",), f"{side.name} has no child (§1)")


PHASES = (
    Phase("setup", "Set-up", "referee", "set up a scenario: scenario schoolyard", "§1", commands=("scenario",)),
    Phase("fight", "Fight", "active", "throw; next hands the turn to the other side", "§1", ("throw",)),
)


def _may_throw(ruleset: Ruleset, state: GameState, child: Unit) -> None:
    """§2: a dry child of the side whose turn it is, who has not thrown this turn."""
    if not child.in_play:
        raise Refused(f"{child.name} is soaked (§2)")
    if child.side != state.active_side:
        raise Refused(f"it is {state.sides[state.active_side].name}'s turn (§1)", rule="ENG-2")
    if child.has(THROWN):
        raise Refused(f"{child.name} has thrown this turn (§2)")


def _throw(ctx: Context, args: dict[str, Any]) -> None:
    thrower, target = ctx.unit(args["unit"]), ctx.unit(args["target"])
    _may_throw(ctx.ruleset, ctx.state, thrower)
    if target.side == thrower.side or not target.in_play:
        raise Refused(f"{thrower.name} throws at a dry child of the other side (§2)")
    need = next(c.need for c in throw_table().cover if c.id == args["cover"])
    (face,) = ctx.roll(
        M("throw at {target}", target=target.name),
        1,
        target=need,
        rule="§2",
        unit=thrower.id,
        check=ev.AtLeast(face=need),
        step=TO_HIT,
    )
    ctx.emit(ev.StatusChanged(unit=thrower.id, add=(THROWN,)))
    if face >= need:
        ctx.emit(ev.UnitOut(unit=target.id, cause=M("soaked by {unit}", unit=thrower.name)))
        if not any(u.in_play for u in ctx.state.units.values() if u.side == target.side):  # §3
            said = M("{side} win the snowball fight", side=ctx.state.sides[thrower.side].name)
            # §3: each side's score is its children soaked
            soaked = {s: sum(1 for u in ctx.state.units_of(s) if not u.in_play) for s in ctx.state.sides}
            ctx.emit(ev.GameEnded(result=said, winner=thrower.side, scores=soaked))


class Snowball(Ruleset):
    # what every ruleset must give
    id = "snowball"
    name = "Snowball"
    version = "1"
    domain = CORE_DOMAIN  # no catalogue of its own: its words are shown as written
    phases = PHASES

    def commands(self) -> list[CommandSpec]:
        return [
            scenario_command(self.scenarios, self._scenario),
            CommandSpec(
                "throw",
                "Throw a snowball at a dry enemy child: 1d6 against the throw table by his cover (§2).",
                _throw,
                params=(
                    Param("unit", "own"),
                    Param("target", "enemy"),
                    Param("cover", "choice", choices=tuple(c.id for c in throw_table().cover)),  # §2
                ),
                rule="§2",
                phases=("fight",),
                rolls=True,
                dice=(TO_HIT,),
                examples=("throw ann cat open",),
                figure_check=_may_throw,
            ),
            *REFEREE_TOOLS,
        ]

    # what it may give (core.ruleset.Ruleset has the defaults)
    scenario_format = SnowballFormat()

    @cached_property
    def scenarios(self) -> Mapping[str, Loaded]:
        return load_scenarios(self.scenario_format, HERE / "scenarios")

    def _scenario(self, ctx: Context, args: dict[str, Any]) -> None:
        emit_scenario(ctx, args["name"])
        first, second = ctx.state.sides
        ctx.emit(ev.PhaseBegan(turn=1, phase="fight", active=first, reacting=second))

    def advance(self, ctx: Context) -> None:
        """§1: the other side's turn; a new turn when the first side's comes round again."""
        state = ctx.state
        if state.phase == "setup":
            raise Refused("set up a scenario first: scenario schoolyard", rule="ENG-7")
        if state.result:
            raise Refused("the fight is over (§3)", rule="ENG-2")
        for child in state.units.values():
            if child.has(THROWN):
                ctx.emit(ev.StatusChanged(unit=child.id, remove=(THROWN,)))
        now, first = state.other_side(state.active_side), next(iter(state.sides))
        turn = state.turn + (1 if now == first else 0)
        ctx.emit(ev.PhaseBegan(turn=turn, phase="fight", active=now, reacting=state.active_side))

    def check_turn(self, state: GameState, parsed: Any, role: str) -> None:
        # §1: a side throws in its own turn (the referee may always act)
        if parsed.spec.name == "throw" and role not in ("referee", state.active_side):
            raise Refused(f"it is {state.sides[state.active_side].name}'s turn (§1)", rule="ENG-2")

    def statuses(self) -> frozenset[str]:
        """The shared ones (the referee's mark and clear, a scenario's starting ones) and its own."""
        return frozenset({*STATUSES, *START_STATUSES, THROWN})
