"""Ludonet aircraft and anti-aircraft fire (LN-R060..R062; rulings LN-AIR, LN-AA).

In the fire phase the referee flies an aircraft over the table (``pass``: at most
three passes each, one a turn); it attacks (``strike``: 5+, never modified) and every
figure the referee names inside its area rolls the damage die, every vehicle the
opposed roll against the aircraft's combat value.  Anti-aircraft weapons fire at it
while it is over the table (``aa``, 5+): the fire step is simultaneous (LN-R021), so
before or after its strike was rolled, a hit brings it down before its attack of that
pass.  The strike's results wait on the aircraft (``STRIKE_VAR``) until the
fire phase ends; an aircraft shot down takes them with it.
"""

from __future__ import annotations

from typing import Any

from core.language.i18n import M
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import TYPING, CommandSpec, Context, Param, Refused
from core.rulesets.ludonet import dice_order, hits, rules
from core.rulesets.ludonet.commands.fire import FIRED, damage_die, opposed_roll
from core.rulesets.ludonet.pieces import (
    PASSES,
    audience,
    combat_value,
    is_aircraft,
    is_anti_aircraft,
    is_vehicle,
    require_in_play,
)
from core.rulesets.ludonet.tables import areas
from core.rulesets.ludonet.terms import Status
from core.rulesets.ludonet.words import _, owner

OVERHEAD, STRUCK = "overhead", "struck"


#: What an aircraft's strike did to a piece, held until the fire phase ends (ruling LN-AA):
#: ``secret.strike.AIRCRAFT.PIECE``, a secret so that a hidden piece's id stays with those who see it.
STRIKE_VAR = "secret.strike."


def strike_var(aircraft_id: str, unit_id: str) -> str:
    return f"{STRIKE_VAR}{aircraft_id}.{unit_id}"


def passes_var(unit_id: str) -> str:
    return f"passes.{unit_id}"


def passes_made(state: GameState, unit: Unit) -> int:
    return int(state.vars.get(passes_var(unit.id), 0))


def passes_allowed(unit: Unit) -> int:
    return rules.passes_allowed(unit.stats.get(PASSES))


def _aircraft(ctx: Context, unit_id: str) -> Unit:
    plane = ctx.unit(unit_id)
    if not is_aircraft(plane):
        raise Refused(_("{unit} is not an aircraft").format(unit=plane.name), rule="LN-R060")
    require_in_play(plane)
    return plane


def _pass(ctx: Context, args: dict[str, Any]) -> None:
    """LN-R060: the referee limits air support; each aircraft makes at most three passes."""
    plane = _aircraft(ctx, args["aircraft"])
    if plane.has(OVERHEAD):
        raise Refused(_("{unit} is already over the table this turn").format(unit=plane.name), rule="LN-R060")
    made, allowed = passes_made(ctx.state, plane), passes_allowed(plane)
    if made >= allowed:
        raise Refused(_("{unit} has made its {n} passes (LN-R060)").format(unit=plane.name, n=allowed), rule="LN-R060")
    ctx.emit(ev.VarSet(key=passes_var(plane.id), value=made + 1))
    # An aircraft waiting off the table may be hidden; over the table everyone sees it.
    ctx.emit(ev.StatusChanged(unit=plane.id, add=(OVERHEAD,), remove=("hidden",) if plane.has(Status.HIDDEN) else ()))


def _aa(ctx: Context, args: dict[str, Any]) -> None:
    """LN-R062 (ruling LN-AA): 1d6, 5+ brings the aircraft down before its attack of this
    pass, whether its strike was rolled yet or not (LN-R021: the step is simultaneous)."""
    gun, plane = ctx.unit(args["gun"]), _aircraft(ctx, args["aircraft"])
    require_in_play(gun)
    if not is_anti_aircraft(ctx.state, gun):
        raise Refused(_("{unit} has no anti-aircraft weapon (LN-R062)").format(unit=gun.name), rule="LN-R062")
    if gun.side == plane.side:
        raise Refused(_("{unit} is on {whose} side").format(unit=plane.name, whose=owner(gun.name)), rule="LN-R062")
    if gun.has(FIRED):
        raise Refused(
            _("{unit} has already fired this turn (ruling LN-ONE-SHOT)").format(unit=gun.name),
            rule=("LN-R062", "LN-R030"),
        )
    if not plane.has(OVERHEAD):
        raise Refused(
            _("{unit} is not over the table: the referee flies it with pass first").format(unit=plane.name),
            rule=("LN-R062", "LN-R060"),
        )
    hit_on = areas().anti_aircraft.hit_on
    (face,) = ctx.roll(
        M("anti-aircraft fire at {aircraft}", aircraft=plane.name),
        1,
        step=dice_order.AA,
        target=hit_on,
        rule="LN-R062",
        unit=gun.id,
        outcome=lambda f: M("hit: shot down") if rules.aa_hits(f[0]) else M("miss"),
        check=ev.AtLeast(face=hit_on),  # LN-R062
    )
    ctx.emit(ev.StatusChanged(unit=gun.id, add=(FIRED,)))
    if rules.aa_hits(face):
        ctx.emit(ev.StatusChanged(unit=plane.id, remove=(OVERHEAD,)))
        ctx.emit(ev.UnitOut(unit=plane.id, cause=M("shot down by anti-aircraft fire")))
        if plane.has(STRUCK):
            # LN-R021: its strike was rolled in the same simultaneous step; the hit comes first.
            for u, _result in _strike_results(ctx.state, plane):
                ctx.emit(ev.VarSet(key=strike_var(plane.id, u.id), value="", vis=audience(u)))
            ctx.emit(
                ev.Noted(
                    text=M(
                        "{aircraft} is shot down before its attack: its strike does nothing (ruling LN-AA)",
                        aircraft=plane.name,
                    )
                )
            )


def _strike(ctx: Context, args: dict[str, Any]) -> None:
    """LN-R061 (ruling LN-AIR): 1d6, 5+ hits the area; each figure inside rolls the
    damage die, each vehicle the opposed roll against the aircraft's combat value."""
    plane = _aircraft(ctx, args["aircraft"])
    inside = [ctx.unit(u) for u in args["targets"]]
    across = areas().aircraft.diameter_cm
    if not plane.has(OVERHEAD):
        raise Refused(
            _("{unit} is not over the table: pass {id} first").format(unit=plane.name, id=plane.id),
            rule=("LN-R061", "LN-R060"),
        )
    if plane.has(STRUCK):
        raise Refused(
            _("{unit} has already attacked on this pass").format(unit=plane.name), rule=("LN-R061", "LN-AMB-14")
        )
    if not inside:
        raise Refused(
            _("name the pieces inside the {cm} cm area (LN-R061)").format(cm=across), rule=("LN-R061", "LN-AMB-14")
        )
    if len({u.id for u in inside}) != len(inside):
        raise Refused(_("each piece is named once"), rule=TYPING)
    for u in inside:
        require_in_play(u)
        if is_aircraft(u):
            raise Refused(_("{unit} is in the air, not in the area").format(unit=u.name), rule=("LN-R061", "LN-AMB-14"))
    plane_cv = combat_value(plane) if any(is_vehicle(u) for u in inside) else 0
    hit_on = areas().aircraft.hit_on
    (face,) = ctx.roll(
        M("air strike ({cm} cm across)", cm=across),
        1,
        step=dice_order.AIR_STRIKE,
        target=hit_on,
        rule="LN-R061",
        unit=plane.id,
        outcome=lambda f: M("hit") if rules.air_hits(f[0]) else M("miss"),
        check=ev.AtLeast(face=hit_on),  # LN-R061
    )
    ctx.emit(ev.StatusChanged(unit=plane.id, add=(STRUCK,)))
    if not rules.air_hits(face):
        return
    for u in inside:
        if is_vehicle(u):
            result = opposed_roll(ctx, plane, plane_cv, u, combat_value(u))
        else:
            result = damage_die(ctx, u, False, plane)
        if result != "none":
            # held on the aircraft: anti-aircraft fire of this step may still void it (ruling LN-AA)
            ctx.emit(ev.VarSet(key=strike_var(plane.id, u.id), value=result, vis=audience(u)))


def _strike_results(state: GameState, plane: Unit) -> list[tuple[Unit, str]]:
    """The pieces the aircraft's strike of this pass harmed, with what it did to each."""
    held = ((u, state.vars.get(strike_var(plane.id, u.id))) for u in state.units.values())
    return [(u, str(result)) for u, result in held if result]


def land_strikes(ctx: Context) -> None:
    """LN-R021/R062: as the fire phase ends, the strikes of the aircraft still flying
    join the step's other hits (an aircraft shot down has taken its strike with it)."""
    for plane in list(ctx.state.units.values()):
        if not plane.has(STRUCK):
            continue
        for u, result in _strike_results(ctx.state, plane):
            ctx.emit(ev.VarSet(key=strike_var(plane.id, u.id), value="", vis=audience(u)))
            hits.hold(ctx, u, result)


def end_of_fire(ctx: Context) -> None:
    """The aircraft leave the table when the fire phase ends."""
    for u in list(ctx.state.units.values()):
        gone = tuple(b for b in (OVERHEAD, STRUCK) if u.has(b))
        if gone:
            ctx.emit(ev.StatusChanged(unit=u.id, remove=gone))


def end_of_turn(ctx: Context) -> None:
    """LN-R060: after its last pass an aircraft cannot come back."""
    for u in list(ctx.state.units.values()):
        if is_aircraft(u) and u.in_play and passes_made(ctx.state, u) >= passes_allowed(u):
            ctx.emit(ev.UnitOut(unit=u.id, cause=M("flew its last pass ({n}, LN-R060)", n=passes_allowed(u))))


AIRCRAFT = Param("aircraft", "unit", "the aircraft")

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "pass",
        f"The referee flies an aircraft over the table for one pass (at most {areas().aircraft.passes} "
        "each, one a turn); anti-aircraft weapons may fire at it while it is over the table, before or "
        "after its strike. No dice.",
        _pass,
        params=(AIRCRAFT,),
        rule="LN-R060",
        examples=("pass typhoon",),
        phases=("fire",),
        who="referee",
    ),
    CommandSpec(
        "aa",
        "An anti-aircraft weapon fires at an aircraft on its pass, before or after its strike (fire is "
        f"simultaneous): 1d6, {areas().anti_aircraft.hit_on}+ brings it down and its strike does nothing. "
        "Dice: 1d6.",
        _aa,
        params=(Param("gun", "own", "the anti-aircraft weapon"), Param("aircraft", "enemy", "the aircraft")),
        rule="LN-R062",
        examples=("aa flak typhoon", "aa flak typhoon dice=5"),
        phases=("fire",),
        rolls=True,
        dice=(dice_order.AA,),
    ),
    CommandSpec(
        "strike",
        f"The referee resolves an aircraft's attack on its pass: 1d6, {areas().aircraft.hit_on}+ hits, "
        f"never modified; each piece named inside the {areas().aircraft.diameter_cm} cm area then rolls. "
        "Dice: the strike, then per piece in the order named the damage die (a figure) or "
        "the aircraft's and the vehicle's 1d6 + combat value (a vehicle).",
        _strike,
        params=(AIRCRAFT, Param("targets", "unit", "every piece inside the area", optional=True, many=True)),
        rule="LN-R061",
        examples=("strike typhoon gren", "strike typhoon panzer dice=6,4,2"),
        phases=("fire",),
        who="referee",
        rolls=True,
        dice=(
            dice_order.AIR_STRIKE,
            dice_order.AIR_STRIKE_DAMAGE,
        ),
    ),
)
