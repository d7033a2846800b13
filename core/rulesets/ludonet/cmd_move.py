"""Ludonet movement: figures walk, run (with the fatigue roll) or crawl (LN-R010,
LN-R012); vehicles move as far as the scenario says (LN-R011); a figure lies down or
stands up where it is (ruling LN-PRONE)."""

from __future__ import annotations

from typing import Any

from core import events as ev
from core.ruleset import MAX_DISTANCE_CM, CommandSpec, Context, Param, Refused, possessive
from core.rulesets.ludonet.hits import IMMOBILISED
from core.rulesets.ludonet.pieces import MAN, is_heavy, is_vehicle, require_in_play, vehicle_move
from core.rulesets.ludonet.tables import movement
from core.rulesets.ludonet.turn import MOVE_PHASES, TIRED, tired
from core.state import Unit

PRONE = "prone"


def _mover(ctx: Context, unit_id: str, doing: str) -> Unit:
    s = ctx.state
    unit = ctx.unit(unit_id)
    require_in_play(unit)
    if unit.side != s.active_side:
        raise Refused(f"{unit.name} cannot {doing}: it is {possessive(s.active_side)} move (B.2)")
    return unit


def _move_vehicle(ctx: Context, unit: Unit, mode: str, cm: int) -> None:
    """LN-R011 (ruling LN-VEHICLES): as far as the scenario's ``move``; immobilised, not at all."""
    if mode != "walk":
        raise Refused(f"{unit.name} is a vehicle: it neither runs nor crawls")
    if unit.has(IMMOBILISED):
        raise Refused(f"{unit.name} is immobilised (LN-R041)")
    limit = vehicle_move(unit)
    if not 0 < cm <= limit:
        raise Refused(f"{unit.name} moves 1 to {limit} cm (the scenario's move)")
    ctx.emit(ev.Moved(unit=unit.id, cm=cm))
    ctx.emit(ev.StatusChanged(unit=unit.id, add=("moved",)))


def _move(ctx: Context, args: dict[str, Any]) -> None:
    """LN-R010/R012: walk 10, run 14, crawl 3 cm; 5 cm with a heavy weapon; a run
    rolls 1d6 for fatigue."""
    unit = _mover(ctx, args["unit"], "move")
    if unit.has("moved"):
        raise Refused(f"{unit.name} has already moved this turn")
    cm = args["cm"]
    if is_vehicle(unit):
        _move_vehicle(ctx, unit, args["mode"], cm)
        return
    if unit.kind != MAN:
        raise Refused(f"{unit.name} flies its passes: pass (LN-R060)")
    table = movement()
    mode = table.mode(args["mode"])
    heavy = is_heavy(ctx.state, unit)
    limit = table.heavy if heavy and mode.id != "crawl" else mode.cm
    if mode.id == "run" and heavy:
        raise Refused(f"{unit.name} carries a heavy weapon and cannot run (ruling LN-HEAVY)")
    if mode.id == "run" and tired(unit):
        raise Refused(f"{unit.name} is tired and cannot run for {tired(unit)} more turn(s) (LN-R012)")
    if not 0 < cm <= limit:
        raise Refused(
            f"{unit.name} moves 1 to {limit} cm {mode.id}ning"
            if mode.id == "run"
            else f"{unit.name} moves 1 to {limit} cm ({mode.id})"
        )
    ctx.emit(ev.Moved(unit=unit.id, cm=cm, how=mode.id))
    # A crawling figure is lying down; one that walks or runs stands up (ruling LN-PRONE).
    badges = {"walk": ("moved",), "run": ("moved", "ran"), "crawl": ("moved", PRONE)}[mode.id]
    stands = mode.id != "crawl" and unit.has(PRONE)
    ctx.emit(ev.StatusChanged(unit=unit.id, add=badges, remove=(PRONE,) if stands else ()))
    if mode.id == "run":
        (face,) = ctx.roll(
            "fatigue",
            1,
            target=table.tired_on,
            rule="LN-R012",
            unit=unit.id,
            outcome=lambda f: f"tired: no running for {table.tired_turns} turns" if f[0] >= table.tired_on else "fresh",
        )
        if face >= table.tired_on:
            ctx.emit(ev.StatusChanged(unit=unit.id, add=(TIRED[-1],)))


def _posture(ctx: Context, unit_id: str, down: bool) -> None:
    """Ruling LN-PRONE: lying down or getting up where it stands is not a move."""
    unit = _mover(ctx, unit_id, "lie down" if down else "stand up")
    if unit.kind != MAN:
        raise Refused(f"{unit.name} is not a figure")
    if unit.has(PRONE) == down:
        raise Refused(f"{unit.name} is already {'lying down' if down else 'standing'}")
    ctx.emit(ev.StatusChanged(unit=unit.id, add=(PRONE,) if down else (), remove=() if down else (PRONE,)))


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "move",
        "Move a figure: walk 10, run 14, crawl 3 cm; 5 cm with a heavy weapon; a vehicle as far as "
        "the scenario says. Dice: a run rolls 1d6 for fatigue (5-6 tired).",
        _move,
        params=(
            Param("unit", "own"),
            Param("cm", "distance", "distance in cm", hi=MAX_DISTANCE_CM),
            Param(
                "mode",
                "choice",
                optional=True,
                default="walk",
                choices=tuple(m.id for m in movement().modes),
                keyword=True,
            ),
        ),
        rule="LN-R010, LN-R011",
        examples=("move smith 10", "move jones 14 run dice=3", "move brown 3 crawl", "move panzer 20"),
        phases=MOVE_PHASES,
        rolls=True,
        dice=("running: fatigue, 1d6",),
    ),
    CommandSpec(
        "prone",
        "A figure lies down where it is, without crawling (-1 to hit it, -1 in melee). No dice.",
        lambda ctx, args: _posture(ctx, args["unit"], down=True),
        params=(Param("unit", "own"),),
        rule="LN-R031, LN-R051",
        examples=("prone wood",),
        phases=MOVE_PHASES,
    ),
    CommandSpec(
        "stand",
        "A figure lying down gets up where it is. No dice.",
        lambda ctx, args: _posture(ctx, args["unit"], down=False),
        params=(Param("unit", "own"),),
        rule="LN-R031, LN-R051",
        examples=("stand wood",),
        phases=MOVE_PHASES,
    ),
)
