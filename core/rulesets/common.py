"""Referee tools every ruleset shares, and scenario loading.

These commands record what happened at the table when the rules engine has
no specific command for it: a free roll, a status badge, a unit taken out, a
defeat-point entry.  They are referee-only: players act through their
ruleset's commands.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Protocol

import msgspec

from core import events as ev
from core.ruleset import CommandSpec, Context, Handler, Param, Refused, Ruleset
from core.state import GameState

#: Status badges the client knows how to draw; rulesets may add others.
STATUSES = ("hidden", "suppressed", "wounded", "down", "retreating", "pinned", "stabilised", "captured", "in-vehicle")


# -------------------------------------------------------------------- scenarios


class ScenarioSecret(msgspec.Struct, frozen=True):
    key: str
    owner: str
    value: str


class Scenario(msgspec.Struct, frozen=True):
    """A ready-to-play set-up, kept as a TOML data file beside its ruleset."""

    id: str
    title: str
    sides: tuple[ev.SideSpec, ...]
    units: tuple[ev.UnitSpec, ...]
    secrets: tuple[ScenarioSecret, ...] = ()
    description: str = ""


def load_scenarios(folder: Path) -> dict[str, Scenario]:
    out: dict[str, Scenario] = {}
    for path in sorted(folder.glob("*.toml")):
        sc = msgspec.toml.decode(path.read_bytes(), type=Scenario)
        side_ids = {s.id for s in sc.sides}
        for u in sc.units:
            if u.side not in side_ids:
                raise ValueError(f"{path.name}: unit {u.id} on unknown side {u.side}")
        out[sc.id] = sc
    return out


def emit_scenario(ctx: Context, sc: Scenario) -> None:
    if ctx.state.sides:
        raise Refused("the game is already set up")
    ctx.emit(ev.GameSetUp(scenario=sc.title, sides=sc.sides))
    for u in sc.units:
        # A unit deployed hidden is known to its own side (and the referee) only.
        vis = (u.side,) if "hidden" in u.status else ()
        ctx.emit(ev.UnitAdded(unit=u, vis=vis))
    for s in sc.secrets:
        ctx.emit(ev.SecretSet(key=s.key, owner=s.owner, value=s.value, vis=(s.owner,)))


def scenario_command(
    scenarios: dict[str, Scenario],
    handler: Handler,
    *,
    help: str = "Set up a ready-made scenario.",
    rolls: bool = False,
) -> CommandSpec:
    """The ``scenario NAME`` command of a ruleset, whose ``handler`` sets the game up.

    Its text is public: it names a scenario, never a secret, even though the
    set-up it makes holds secrets.
    """
    return CommandSpec(
        "scenario",
        help,
        handler,
        params=(Param("name", "choice", choices=tuple(scenarios)),),
        phases=("setup",),
        who="referee",
        examples=tuple(f"scenario {name}" for name in scenarios),
        rolls=rolls,
        public_text=True,
    )


class TurnModule(Protocol):
    def advance(self, ctx: Context) -> None: ...
    def check_turn(self, ruleset: Ruleset, state: GameState, parsed: Any, role: str) -> None: ...


class ScenarioRuleset(Ruleset):
    """A ruleset whose games start from the scenario files in ``scenarios_dir`` and
    whose turn machine is a module with ``advance`` and ``check_turn``.

    ``first_phase`` is the phase a scenario opens on; ``own_commands`` come before
    the shared referee tools.
    """

    scenarios_dir: Path
    turn: TurnModule
    own_commands: tuple[CommandSpec, ...] = ()
    first_phase: ev.PhaseBegan

    def __init__(self, variant: str = "") -> None:
        super().__init__(variant)
        self.scenarios: dict[str, Scenario] = load_scenarios(self.scenarios_dir)

    def commands(self) -> list[CommandSpec]:
        return [scenario_command(self.scenarios, self._scenario), *self.own_commands, *REFEREE_TOOLS]

    def _scenario(self, ctx: Context, args: dict[str, Any]) -> None:
        emit_scenario(ctx, self.scenarios[args["name"]])
        ctx.emit(self.first_phase)

    def check_turn(self, state: GameState, parsed: Any, role: str) -> None:
        self.turn.check_turn(self, state, parsed, role)

    def advance(self, ctx: Context) -> None:
        self.turn.advance(ctx)


# ------------------------------------------------------------------ free commands


#: A free roll: at most this many dice, of 2 to this many sides.
MAX_DICE, MAX_SIDES = 50, 100
#: The most defeat points one ``dp`` adds or removes (a referee's ruling, far
#: beyond any game's total).
DP_MOST = 999
_DICE = re.compile(r"([0-9]{0,4})d([0-9]{1,4})", re.IGNORECASE)


def _roll(ctx: Context, args: dict[str, Any]) -> None:
    m = _DICE.fullmatch(args["dice_spec"])
    if not m:
        raise Refused("write dice as NdS, e.g. 2d6")
    count, sides = int(m.group(1) or 1), int(m.group(2))
    if not (1 <= count <= MAX_DICE and 2 <= sides <= MAX_SIDES):
        raise Refused(f"between 1 and {MAX_DICE} dice of 2 to {MAX_SIDES} sides")
    if args["target"] is not None and args["under"] is not None:
        raise Refused("a roll needs target= (at least) or under= (at most), not both")
    under = args["under"] is not None
    target = args["under"] if under else args["target"]
    purpose = args["purpose"] or f"{count}d{sides}"

    def outcome(faces: tuple[int, ...]) -> str:
        if target is None:
            return f"total {sum(faces)}" if count > 1 else ""
        # Each die is judged on its own, as a quality check per die (Bassa Intensità's d10s).
        hits = sum((f <= target) if under else (f >= target) for f in faces)
        return f"{hits} success" + ("" if hits == 1 else "es")

    ctx.roll(purpose, count, sides=sides, target=target, under=under, outcome=outcome)


def _mark(ctx: Context, args: dict[str, Any]) -> None:
    u = ctx.unit(args["unit"])
    status = args["status"]
    if status in u.status:
        raise Refused(f"{u.name} is already {status}")
    ctx.emit(ev.StatusChanged(unit=u.id, add=(status,)))


def _clear(ctx: Context, args: dict[str, Any]) -> None:
    u = ctx.unit(args["unit"])
    status = args["status"]
    if status not in u.status:
        raise Refused(f"{u.name} is not {status}")
    ctx.emit(ev.StatusChanged(unit=u.id, remove=(status,)))


def _out(ctx: Context, args: dict[str, Any]) -> None:
    u = ctx.unit(args["unit"])
    if u.out:
        raise Refused(f"{u.name} is already out of action ({u.out})")
    ctx.emit(ev.UnitOut(unit=u.id, cause=args["cause"] or "removed by the referee"))


def _back(ctx: Context, args: dict[str, Any]) -> None:
    u = ctx.unit(args["unit"])
    if not u.out:
        raise Refused(f"{u.name} is in play")
    ctx.emit(ev.UnitBack(unit=u.id))


def _dp(ctx: Context, args: dict[str, Any]) -> None:
    points = args["points"]
    if points == 0:
        raise Refused("0 defeat points changes nothing")
    ctx.emit(ev.DefeatPoints(side=args["side"], points=points, reason=args["reason"] or "referee's ruling"))


def _reveal(ctx: Context, args: dict[str, Any]) -> None:
    key = args["key"]
    secret = ctx.state.secrets.get(key)
    if secret is None:
        raise Refused(f"no secret {key!r} (known: {', '.join(sorted(ctx.state.secrets)) or 'none'})")
    if secret.revealed:
        raise Refused(f"{key} is already revealed")
    ctx.emit(ev.Revealed(key=key, value=secret.value))


REFEREE_TOOLS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "roll",
        "Roll free dice and log them (for anything the rules engine has no command for).",
        _roll,
        params=(
            Param("dice_spec", "text", "dice as NdS, e.g. 2d6"),
            Param("target", "int", "count dice at or above this", optional=True, keyword=True, lo=1, hi=MAX_SIDES),
            Param(
                "under",
                "int",
                "count dice at or below this (roll-under checks)",
                optional=True,
                keyword=True,
                lo=1,
                hi=MAX_SIDES,
            ),
            Param("purpose", "text", "what the roll is for", optional=True, keyword=True),
        ),
        examples=("roll 2d6", "roll 3d6 target=4 purpose=smoke", "roll 1d10 under=7 purpose=quality"),
        who="referee",
        rolls=True,
    ),
    CommandSpec(
        "mark",
        "Give a unit a status badge.",
        _mark,
        params=(Param("unit", "unit"), Param("status", "choice", choices=STATUSES)),
        examples=("mark ahmed suppressed",),
        who="referee",
    ),
    CommandSpec(
        "clear",
        "Remove a status badge from a unit.",
        _clear,
        params=(Param("unit", "unit"), Param("status", "choice", choices=STATUSES)),
        examples=("clear ahmed suppressed",),
        who="referee",
    ),
    CommandSpec(
        "out",
        "Take a unit out of action.",
        _out,
        params=(Param("unit", "unit"), Param("cause", "text", optional=True)),
        examples=("out ahmed fled the table",),
        who="referee",
    ),
    CommandSpec(
        "back",
        "Bring a unit back into action.",
        _back,
        params=(Param("unit", "unit"),),
        who="referee",
    ),
    CommandSpec(
        "dp",
        "Add (or with a negative number, remove) defeat points.",
        _dp,
        params=(
            Param("side", "side"),
            Param("points", "int", "defeat points, negative to remove", lo=-DP_MOST, hi=DP_MOST),
            Param("reason", "text", optional=True),
        ),
        examples=("dp regulars 5 building damaged",),
        who="referee",
    ),
    CommandSpec(
        "reveal",
        "Make a secret public (an objective marker, an IED).",
        _reveal,
        params=(Param("key", "text"),),
        examples=("reveal marker.3",),
        who="referee",
    ),
)
