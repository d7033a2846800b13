"""Ludonet movement: figures walk, run (with the fatigue roll) or crawl (LN-R010,
LN-R012); vehicles move as far as the scenario says (LN-R011); a figure lies down or
stands up where it is (ruling LN-PRONE)."""

from __future__ import annotations

from typing import Any

from core.language.i18n import N_, M
from core.log import events as ev
from core.log.state import Unit
from core.ruleset import MAX_DISTANCE_CM, CommandSpec, Context, Param, Refused
from core.rulesets.ludonet import dice_order
from core.rulesets.ludonet.commands.melee import locked_with
from core.rulesets.ludonet.hits import IMMOBILISED
from core.rulesets.ludonet.phases import MOVE_PHASES, TIRED, tired
from core.rulesets.ludonet.pieces import MAN, is_heavy, is_vehicle, require_in_play, vehicle_move
from core.rulesets.ludonet.tables import movement
from core.rulesets.ludonet.terms import Status
from core.rulesets.ludonet.words import _, owner, pgettext

PRONE = "prone"
#: LN-R010: how a figure moved, as the log says it (``Moved.how``).
MODE_WORDS = {"walk": N_("walk"), "run": N_("run"), "crawl": N_("crawl")}


def _mover(ctx: Context, unit_id: str, doing: str) -> Unit:
    """The unit, if its side is moving; ``doing`` is ``move``, ``lie down`` or ``stand up``."""
    s = ctx.state
    unit = ctx.unit(unit_id)
    require_in_play(unit)
    if unit.side != s.active_side:
        said = {
            "move": _("{unit} cannot move: it is {whose} move (B.2)"),
            "lie down": _("{unit} cannot lie down: it is {whose} move (B.2)"),
            "stand up": _("{unit} cannot stand up: it is {whose} move (B.2)"),
        }[doing]
        raise Refused(said.format(unit=unit.name, whose=owner(s.side_name(s.active_side))), rule=("LN-AMB-01", "ENG-2"))
    return unit


def _move_vehicle(ctx: Context, unit: Unit, mode: str, cm: int) -> None:
    """LN-R011 (ruling LN-VEHICLES): as far as the scenario's ``move``; immobilised, not at all."""
    if mode != "walk":
        raise Refused(
            _("{unit} is a vehicle: it neither runs nor crawls").format(unit=unit.name), rule=("LN-R011", "LN-AMB-04")
        )
    if unit.has(IMMOBILISED):
        raise Refused(_("{unit} is immobilised (LN-R041)").format(unit=unit.name), rule=("LN-R041", "LN-AMB-11"))
    limit = vehicle_move(unit)
    if not 0 < cm <= limit:
        raise Refused(
            _("{unit} moves 1 to {cm} cm (the scenario's move)").format(unit=unit.name, cm=limit),
            rule=("LN-R011", "LN-AMB-04"),
        )
    if unit.has(Status.RETREATING) and cm < limit:
        raise Refused(
            _("{unit} is retreating: it falls back its full {cm} cm (LN-R070)").format(unit=unit.name, cm=limit),
            rule="LN-R070",
        )
    ctx.emit(ev.Moved(unit=unit.id, cm=cm))
    ctx.emit(ev.StatusChanged(unit=unit.id, add=("moved",)))


def _move(ctx: Context, args: dict[str, Any]) -> None:
    """LN-R010/R012: walk 10, run 14, crawl 3 cm; 5 cm with a heavy weapon; a run
    rolls 1d6 for fatigue."""
    unit = _mover(ctx, args["unit"], "move")
    if unit.has(Status.MOVED):
        raise Refused(_("{unit} has already moved this turn").format(unit=unit.name), rule="LN-R010")
    for other in locked_with(ctx.state, unit):
        raise Refused(
            _("{unit} is in a melee with {other}: it leaves it first (leave, LN-R052)").format(
                unit=unit.name, other=other.name
            ),
            rule="LN-R052",
        )
    cm = args["cm"]
    if is_vehicle(unit):
        _move_vehicle(ctx, unit, args["mode"], cm)
        return
    if unit.kind != MAN:
        raise Refused(_("{unit} flies its passes: pass (LN-R060)").format(unit=unit.name), rule="LN-R060")
    table = movement()
    mode = table.mode(args["mode"])
    heavy = is_heavy(ctx.state, unit)
    limit = table.heavy if heavy and mode.id != "crawl" else mode.cm
    running = mode.id == "run"
    if running and heavy:
        raise Refused(
            _("{unit} carries a heavy weapon and cannot run (ruling LN-HEAVY)").format(unit=unit.name),
            rule=("LN-AMB-24", "LN-AMB-07"),
        )
    if running and tired(unit):
        raise Refused(
            _("{unit} is tired and cannot run for {n} more turn(s) (LN-R012)").format(unit=unit.name, n=tired(unit)),
            rule=("LN-R012", "LN-AMB-19"),
        )
    if not 0 < cm <= limit:
        said = _("{unit} moves 1 to {cm} cm running") if running else _("{unit} moves 1 to {cm} cm ({mode})")
        raise Refused(said.format(unit=unit.name, cm=limit, mode=pgettext("choice", mode.id)), rule="LN-R010")
    walk = table.heavy if heavy else table.mode("walk").cm
    if unit.has(Status.RETREATING) and (mode.id == "crawl" or cm < walk):
        # LN-R070 "deve ripiegare" (LN-AMB-16): a full move away, walking or running, never a crawl;
        # one carrying a heavy weapon cannot run (ruling LN-HEAVY): he walks it
        said = (
            _("{unit} is retreating: it falls back its full {cm} cm, walking: it carries a heavy weapon (LN-R070)")
            if heavy
            else _("{unit} is retreating: it falls back its full {cm} cm, walking or running (LN-R070)")
        )
        raise Refused(said.format(unit=unit.name, cm=walk), rule="LN-R070")
    ctx.emit(ev.Moved(unit=unit.id, cm=cm, how=M(MODE_WORDS[mode.id])))
    # A crawling figure is lying down; one that walks or runs stands up (ruling LN-PRONE).
    badges = {"walk": ("moved",), "run": ("moved", "ran"), "crawl": ("moved", PRONE)}[mode.id]
    stands = mode.id != "crawl" and unit.has(PRONE)
    ctx.emit(ev.StatusChanged(unit=unit.id, add=badges, remove=(PRONE,) if stands else ()))
    if running:
        (face,) = ctx.roll(
            M("fatigue"),
            1,
            step=dice_order.RUNNING,
            target=table.tired_on,
            rule="LN-R012",
            unit=unit.id,
            outcome=lambda f: (
                M("tired: no running for {n} turns", n=table.tired_turns) if f[0] >= table.tired_on else M("fresh")
            ),
            check=ev.AtLeast(face=table.tired_on),  # LN-R012 (a success tires him: Ludonet.success_hurts_unit)
        )
        if face >= table.tired_on:
            ctx.emit(ev.StatusChanged(unit=unit.id, add=(TIRED[-1],)))


def _posture(ctx: Context, unit_id: str, down: bool) -> None:
    """Ruling LN-PRONE: lying down or getting up where it stands is not a move."""
    unit = _mover(ctx, unit_id, "lie down" if down else "stand up")
    if unit.kind != MAN:
        raise Refused(_("{unit} is not a figure").format(unit=unit.name), rule=("LN-R031", "LN-AMB-05"))
    if unit.has(PRONE) == down:
        said = _("{unit} is already lying down") if down else _("{unit} is already standing")
        raise Refused(said.format(unit=unit.name), rule=("LN-R031", "LN-AMB-05"))
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
        dice=(dice_order.RUNNING,),
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
