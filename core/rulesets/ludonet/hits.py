"""Hits held until the fire phase ends (LN-R021: fire is simultaneous).

Every shot, grenade and air strike of the phase rolls at once and leaves its result
on the target as a badge: ``hit-wound``, ``hit-immobilise`` or ``hit-kill``.  Leaving
the fire phase applies them all together (:func:`resolve`), so a figure hit in the
phase still fires in it.
"""

from __future__ import annotations

from core.language.i18n import M
from core.log import events as ev
from core.log.state import Unit
from core.ruleset import Context
from core.rulesets.ludonet import rules
from core.rulesets.ludonet.pieces import aboard, audience, is_vehicle
from core.rulesets.ludonet.tables import fire
from core.rulesets.ludonet.terms import Status

WOUND, IMMOBILISE, KILL = "hit-wound", "hit-immobilise", "hit-kill"
PENDING = (WOUND, IMMOBILISE, KILL)
IMMOBILISED = "immobilised"


def immobilised_var(unit_id: str) -> str:
    """The last turn a vehicle cannot move (ruling LN-IMMOBILISED)."""
    return f"immobilised_until.{unit_id}"


def hold(ctx: Context, target: Unit, result: str) -> None:
    """Keep one hit's result on the target: the worst of the phase counts, and a
    second wound (this phase's or an earlier one's, LN-R037) is a kill."""
    target = ctx.unit(target.id)
    if result == "none" or target.has(KILL):
        return
    killed = result in ("eliminated", "destroyed") or (result == "wound" and target.has(WOUND))
    if killed:
        lesser = tuple(b for b in (WOUND, IMMOBILISE) if target.has(b))
        ctx.emit(ev.StatusChanged(unit=target.id, add=(KILL,), remove=lesser))
    elif result == "wound":
        ctx.emit(ev.StatusChanged(unit=target.id, add=(WOUND,)))
    elif result == "immobilised" and not target.has(IMMOBILISE):
        ctx.emit(ev.StatusChanged(unit=target.id, add=(IMMOBILISE,)))


def resolve(ctx: Context) -> None:
    """LN-R021/R037/R041: every hit of the phase takes effect at once."""
    s = ctx.state
    for u in list(s.units.values()):
        pending = tuple(b for b in PENDING if u.has(b))
        if not pending:
            continue
        if u.has(KILL):
            ctx.emit(ev.StatusChanged(unit=u.id, remove=pending))
            ctx.emit(ev.UnitOut(unit=u.id, cause=M("destroyed") if is_vehicle(u) else M("eliminated")))
            if is_vehicle(u):
                # Ruling LN-CREW: the combat value stood for the crew; it goes with the vehicle.
                for crew in aboard(s, u):
                    ctx.emit(ev.UnitOut(unit=crew.id, cause=M("lost with {vehicle}", vehicle=u.name)))
                ctx.emit(
                    ev.Noted(
                        text=M(
                            "the wreck of {vehicle}: remove it or mark it with cotton wool (LN-R071)", vehicle=u.name
                        ),
                        vis=audience(u),
                    )
                )
        elif u.has(WOUND) and u.has(Status.WOUNDED):
            ctx.emit(ev.StatusChanged(unit=u.id, remove=pending))
            ctx.emit(ev.UnitOut(unit=u.id, cause=M("{n} wounds", n=fire().wounds_to_eliminate)))
        elif u.has(WOUND):
            ctx.emit(ev.StatusChanged(unit=u.id, add=("wounded",), remove=pending))
        else:
            until = rules.immobilised_until(s.turn)
            ctx.emit(ev.StatusChanged(unit=u.id, add=(IMMOBILISED,), remove=pending))
            ctx.emit(ev.VarSet(key=immobilised_var(u.id), value=until, vis=audience(u)))


def end_of_turn(ctx: Context) -> None:
    """Ruling LN-IMMOBILISED: the badge goes at the end of the last turn it binds."""
    s = ctx.state
    for u in list(s.units.values()):
        if u.has(IMMOBILISED) and s.turn >= int(s.vars.get(immobilised_var(u.id), 0)):
            ctx.emit(ev.StatusChanged(unit=u.id, remove=(IMMOBILISED,)))
