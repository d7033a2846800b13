"""A tiny ruleset for the client's tests: stable while the real rulesets grow.

The client is generic over ``game.commands`` and ``ruleset.phases``; this
ruleset has just enough of everything to drive it: a turn machine with an
initiative roll, a command that rolls against a target with a modifier,
hidden units and a secret.  Its "rules" are made up (sections T1–T4 of nothing).
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import msgspec
import pytest

from core.game import Game
from core.language.i18n import CORE_DOMAIN
from core.log import events as ev
from core.log.views import REFEREE
from core.registry import register
from core.ruleset import CommandSpec, Context, Param, Phase, Refused, Ruleset, SetupChoice
from core.rulesets.common import REFEREE_TOOLS, Scenario, ScenarioSecret, emit_table

PHASES = (
    Phase("setup", "Set-up", "referee", "load a scenario: scenario patrol", "T1"),
    Phase("deployment", "Deployment", "both", "place the figures, then next", "T1"),
    Phase("initiative", "Initiative", "referee", "next rolls initiative", "T2"),
    Phase("activation", "Activation", "active", "the active side shoots; then next", "T2"),
    Phase("end", "End of turn", "referee", "next starts the next turn", "T2"),
)


def _unit(uid: str, name: str, side: str, team: str, **kw: Any) -> ev.UnitSpec:
    return ev.UnitSpec(id=uid, name=name, side=side, team=team, **kw)


PATROL = Scenario(
    id="patrol",
    title="Patrol at the well",
    description="Four soldiers against four fighters, two of them hidden.",
    sides=(ev.SideSpec("blue", "Blue Patrol", "regular"), ev.SideSpec("red", "Red Cell", "irregular")),
    units=(
        _unit("cole", "Sgt Cole", "blue", "Alpha", cls="Vet", weapons=("rifle",), leadership=1, roles=("leader",)),
        _unit("diaz", "Pte Diaz", "blue", "Alpha", cls="Vet", weapons=("LMG",)),
        _unit("park", "Pte Park", "blue", "Bravo", cls="Reg", weapons=("rifle",)),
        _unit("lee", "Ann Lee (press)", "blue", "Press", kind="journalist"),
        _unit("ivan", "Ivan Petrov", "red", "Cell", cls="Mil", weapons=("AK",), leadership=1, roles=("leader",)),
        _unit("kemal", "Kemal Aydin", "red", "Cell", cls="Mil", weapons=("RPG",)),
        _unit("omar", "Omar Haddad", "red", "Well", cls="Mil", weapons=("AK",), status=("hidden",)),
        _unit("yusuf", "Yusuf Demir", "red", "Well", cls="Mil", weapons=("AK",), status=("hidden",)),
    ),
    secrets=(ScenarioSecret("cache", "red", "north well"),),
)


OPEN = Scenario(
    id="open",
    title="Open ground",
    description="Both sides from rosters.",
    sides=PATROL.sides,
    units=(),
)

#: Rosters by name: their figures and their cost against a 100-point limit (T5).
ROSTERS = {
    "scouts": (PATROL.units[:3], 60),
    "horde": (PATROL.units[4:], 200),
}
LIMIT = 100


def _roster(ctx: Context, args: dict[str, Any]) -> None:
    name, _, side = args["what"].partition(" ")
    if name not in ROSTERS or side not in ctx.state.sides:
        raise Refused("roster NAME SIDE: " + ", ".join(ROSTERS))
    units, cost = ROSTERS[name]
    if cost > LIMIT:
        raise Refused(f"{cost} points is {cost - LIMIT} over the limit of {LIMIT}")
    for u in units:
        ctx.emit(ev.UnitAdded(unit=msgspec.structs.replace(u, side=side, id=f"{side}-{u.id}")))


def _shoot(ctx: Context, args: dict[str, Any]) -> None:
    shooter, target, rng = ctx.unit(args["unit"]), ctx.unit(args["target"]), args["range"]
    if rng <= 0:
        raise Refused("range must be more than 0 cm")
    mods = (ev.Mod("long range", 1, "T4"),) if rng > 30 else ()
    need = 4 + sum(m.value for m in mods)

    def outcome(faces: tuple[int, ...]) -> str:
        hits = sum(f >= need for f in faces)
        return f"{hits} hit" + ("" if hits == 1 else "s")

    check = ev.Each(face=need, base=4)  # T4: each die at the number is a hit
    faces = ctx.roll(
        f"fire at {target.name}", 2, target=need, mods=mods, rule="T4", unit=shooter.id, outcome=outcome, check=check
    )
    if any(f >= need for f in faces) and "suppressed" not in target.status:
        ctx.emit(ev.StatusChanged(unit=target.id, add=("suppressed",)))


def _move(ctx: Context, args: dict[str, Any]) -> None:
    if not 0 < args["cm"] <= 20:
        raise Refused("a figure moves 1 to 20 cm (T3)")
    ctx.emit(ev.Moved(unit=args["unit"], cm=args["cm"]))


class Skirmish(Ruleset):
    id = "tui-skirmish"
    name = "Test Skirmish"
    version = "1.0"
    domain = CORE_DOMAIN
    phases = PHASES
    defeat_points = True  # scored as Breaking News scores them: the panes show them
    next_dice = ("initiative: 2d6 + leadership per side",)
    scenarios = {"patrol": PATROL, "open": OPEN}

    def commands(self) -> list[CommandSpec]:
        return [
            CommandSpec(
                "scenario",
                "Set up a ready-made scenario.",
                self._scenario,
                params=(Param("name", "choice", choices=tuple(self.scenarios)),),
                phases=("setup",),
                who=REFEREE,
            ),
            CommandSpec(
                "shoot",
                "Fire at an enemy: 2d6, each 4+ hits (5+ beyond 30 cm).",
                _shoot,
                params=(Param("unit", "own"), Param("target", "enemy"), Param("range", "int", "cm")),
                rule="T4",
                phases=("activation",),
                rolls=True,
                dice=("to hit: 2d6",),
                examples=("shoot cole ivan 20",),
            ),
            CommandSpec(
                "move",
                "Move a figure up to 20 cm.",
                _move,
                params=(Param("unit", "own"), Param("cm", "int")),
                rule="T3",
                phases=("activation",),
            ),
            CommandSpec(
                "roster",
                "Field a roster on a side: roster NAME SIDE.",
                _roster,
                params=(Param("what", "text"),),
                phases=("deployment",),
                who=REFEREE,
            ),
            *REFEREE_TOOLS,
        ]

    def _scenario(self, ctx: Context, args: dict[str, Any]) -> None:
        emit_table(ctx, self.scenarios[args["name"]])
        ctx.emit(ev.PhaseBegan(turn=0, phase="deployment"))

    def setup_choices(self, scenario_id: str) -> tuple[SetupChoice, ...]:
        """Made-up set-up choices (T1), one of each shape, run with the referee's tools."""
        if scenario_id != "patrol":
            return ()
        return (
            SetupChoice("weather", "Weather", ("clear", "dust"), "clear", 'note "weather: {value}"', rule="T1"),
            SetupChoice(
                "wounded",
                "Wounded before the game",
                ("cole", "diaz", "ivan"),
                "",
                "mark {value} wounded",
                multiple=True,
                labels=("Sgt Cole", "Pte Diaz", "Ivan Petrov"),
                rule="T1",
            ),
            SetupChoice("stake", "Stake", ("none", "5"), "none", "dp {side} {value} stake", per_side=True, rule="T1"),
        )

    def check_turn(self, state, parsed, role) -> None:
        if role != REFEREE and parsed.spec.name in ("shoot", "move") and role != state.active_side:
            raise Refused(f"it is {state.active_side}'s activation")

    def advance(self, ctx: Context) -> None:
        s = ctx.state
        if s.phase == "setup":
            raise Refused("load a scenario first: scenario patrol")
        if s.phase == "deployment":
            ctx.emit(ev.PhaseBegan(turn=1, phase="initiative"))
        elif s.phase == "initiative":
            totals = {}
            for side in s.sides:
                leader = max((u.leadership for u in s.units_of(side) if u.in_play), default=0)
                mods = (ev.Mod("leadership", leader, "T2"),)
                faces = ctx.roll(
                    "initiative",
                    2,
                    side=side,
                    mods=mods,
                    total=True,
                    rule="T2",
                    outcome=lambda f, lead=leader: f"total {sum(f) + lead}",
                    check=ev.Opposed(),
                )
                totals[side] = sum(faces) + leader
            first, second = list(s.sides)
            active = first if totals[first] >= totals[second] else second  # ties: the first side (T2)
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase="activation", active=active, reacting=s.other_side(active)))
        elif s.phase == "activation":
            ctx.emit(ev.PhaseBegan(turn=s.turn, phase="end", active=s.active_side, reacting=s.reacting_side))
        else:
            ctx.emit(ev.PhaseBegan(turn=s.turn + 1, phase="initiative"))


register(Skirmish)


def _counted_move(ctx: Context, args: dict[str, Any]) -> None:
    _move(ctx, args)
    unit = ctx.state.units[args["unit"]]
    moves = ctx.state.vars.get(f"moves.{unit.side}", 0)
    ctx.emit(ev.VarSet(key=f"moves.{unit.side}", value=int(moves) + 1))
    ctx.emit(ev.VarSet(key=f"moved.{unit.id}", value=ctx.state.turn))


class Counted(Skirmish):
    """The skirmish whose moves are counted as a real ruleset counts things: by a variable
    it has words for (``moves.<side>``) and by one it has none for (``moved.<unit>``, one of
    the game's inner variables: ``Reading.inner``)."""

    id = "tui-skirmish-counted"

    def commands(self) -> list[CommandSpec]:
        specs = super().commands()
        return [msgspec.structs.replace(s, handler=_counted_move) if s.name == "move" else s for s in specs]

    def describe_var(self, key: str, value: int | str) -> str | None:
        if key.startswith("moves."):
            return f"{key.removeprefix('moves.')} has moved {value} times"
        return None


register(Counted)


def patrol_game(path: Path, seed: int = 7, commands: tuple[str, ...] = (), ruleset: type[Skirmish] = Skirmish) -> Game:
    """The test scenario with a fixed seed and a fixed clock: same dice, same screens."""
    salts = (f"{n:032x}" for n in itertools.count(1))  # fixed salts: the same digests on every run
    game = Game.new(path, ruleset.id, seed=seed, clock=lambda: 0, salt=lambda: next(salts))
    game.execute("scenario patrol", role=REFEREE)
    for text in commands:
        game.execute(text, role=REFEREE)
    return game


@pytest.fixture(name="game")
def game_fixture(tmp_path: Path):
    """A fixture, imported by the test modules: tests/tui keeps no conftest.py, whose
    module name would shadow another folder's ``from conftest import ...``."""
    g = patrol_game(tmp_path / "patrol.ft")
    yield g
    g.close()
