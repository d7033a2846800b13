"""Ludonet support from off the table (ruling LN-BARRAGE): a scenario's mortars and
artillery (indirect fire, LN-R020) and aircraft (LN-R060/R061) that are not pieces
on the table, called in by the referee with ``barrage``.

The scenario sets each as variables, kept secret to its side until it is used:
``support.ID`` (its name), ``support.ID.side``, ``support.ID.kind`` (``artillery`` or
``aircraft``), ``support.ID.ammo`` (barrages, or an aircraft's passes; none: no limit
but an aircraft's three) and ``support.ID.cv`` (its combat value against vehicles).
"""

from __future__ import annotations

from typing import Any

from core.commands import find_unit
from core.language.i18n import M
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import TYPING, CommandSpec, Context, Param, Refused
from core.rulesets.ludonet import dice_order, hits, rules
from core.rulesets.ludonet.commands.fire import BAND, damage_die, opposed_roll
from core.rulesets.ludonet.pieces import MAN, combat_value, is_aircraft, is_vehicle, require_in_play
from core.rulesets.ludonet.tables import areas
from core.rulesets.ludonet.terms import Kind
from core.rulesets.ludonet.words import DOMAIN, _, pgettext

KINDS = ("artillery", "aircraft")


def _var(state: GameState, sid: str, field: str = "") -> Any:
    return state.vars.get(f"support.{sid}" + (f".{field}" if field else ""))


def known(state: GameState) -> list[str]:
    return sorted(k.split(".")[1] for k in state.vars if k.startswith("support.") and k.endswith(".kind"))


def rounds_allowed(state: GameState, sid: str) -> int | None:
    """The scenario's ammunition; an aircraft makes three passes at most (LN-R060)."""
    ammo = _var(state, sid, "ammo")
    ammo = ammo if isinstance(ammo, int) and ammo > 0 else None
    return rules.passes_allowed(ammo) if _var(state, sid, "kind") == "aircraft" else ammo


def _pieces(ctx: Context, words: list[str]) -> list[Unit]:
    out = [ctx.unit(find_unit(w, ctx.state, ctx.role).id) for w in words]
    if len({u.id for u in out}) != len(out):
        raise Refused(_("each piece is named once"), rule=TYPING)
    for u in out:
        require_in_play(u)
        if is_aircraft(u):
            raise Refused(
                _("{unit} is in the air, not in the burst").format(unit=u.name), rule=("LN-AMB-17", "LN-R061")
            )
    return out


def _barrage(ctx: Context, args: dict[str, Any]) -> None:
    s = ctx.state
    called = args["call"].split()
    if not called:  # call=" ": text, but no word of it
        raise Refused(_("name the support first: barrage SUPPORT PIECE… [half]"), rule=TYPING)
    sid, *words = called
    kind = _var(s, sid, "kind")
    if kind not in KINDS:
        # "none" of a list, not the damage result "none" (no effect: "colpo nullo" in Italian)
        have = ", ".join(known(s)) or pgettext("listed", "none")
        raise Refused(
            _("no artillery or aircraft support {id!r} in this scenario (support: {have})").format(id=sid, have=have),
            rule="LN-AMB-17",
        )
    name = str(_var(s, sid) or sid)
    used, allowed = int(_var(s, sid, "used") or 0), rounds_allowed(s, sid)
    if allowed is not None and used >= allowed:
        raise Refused(
            _("{name} has nothing left: {n} used (ruling LN-BARRAGE)").format(name=name, n=allowed), rule="LN-AMB-17"
        )
    if _var(s, sid, "turn") == s.turn:
        raise Refused(_("{name} has already fired this turn (ruling LN-BARRAGE)").format(name=name), rule="LN-AMB-17")
    air = kind == Kind.AIRCRAFT
    if air and args["band"] is not None:
        raise Refused(
            _("an aircraft's pass is not fired at a range: name the pieces under it (LN-R061)"), rule="LN-R061"
        )
    # LN-AMB-17: indirect fire is "un tiro" like any other: 4+ within half range, 5+ beyond,
    # said as fire says it (``full`` restates the default)
    half = args["band"] == "half"
    inside = _pieces(ctx, words)
    if air:
        size = M("{cm} cm across", cm=areas().aircraft.diameter_cm)
    else:
        size = M("{cm} cm radius", cm=areas().artillery.radius_cm)
    if not inside:
        raise Refused(_("name the pieces inside the burst ({size})").format(size=DOMAIN.render(size)), rule="LN-AMB-17")
    cv = 0
    if any(is_vehicle(u) for u in inside):
        cv = _var(s, sid, "cv")
        if not isinstance(cv, int):
            raise Refused(
                _("the scenario gives {name} no combat value (support.{id}.cv, LN-R041)").format(name=name, id=sid),
                rule=("LN-R041", "LN-AMB-17"),
            )
    for u in inside:
        if u.kind != MAN and not is_vehicle(u):
            raise Refused(_("{unit} cannot be hit by {name}").format(unit=u.name, name=name), rule="LN-AMB-17")
        if is_vehicle(u):
            combat_value(u)  # refused now, before any die, if the scenario gives none
    ctx.emit(ev.VarSet(key=f"support.{sid}.used", value=used + 1))
    ctx.emit(ev.VarSet(key=f"support.{sid}.turn", value=s.turn))
    hit_on = areas().aircraft.hit_on if air else rules.to_hit_needed(True, ()) if half else areas().artillery.hit_on
    (face,) = ctx.roll(
        M("{name} ({size})", name=name, size=size),
        1,
        step=dice_order.BURST,
        side=str(_var(s, sid, "side") or ""),
        target=hit_on,
        rule="LN-R061" if air else "ruling LN-BARRAGE",
        outcome=lambda f: M("hit") if f[0] >= hit_on else M("miss"),
        check=ev.AtLeast(face=hit_on),
    )
    if face < hit_on:
        return
    heavy = not air and areas().artillery.heavy
    firer = Unit(id=f"support.{sid}", name=name, side=str(_var(s, sid, "side") or ""))
    for u in inside:
        result = opposed_roll(ctx, firer, cv, u, combat_value(u)) if is_vehicle(u) else damage_die(ctx, u, heavy, firer)
        hits.hold(ctx, u, result)


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "barrage",
        "The referee calls in a scenario's off-table mortar, artillery or aircraft on the pieces he names "
        f"inside the burst: 1d6, {areas().artillery.hit_on}+, or {rules.to_hit_needed(True, ())}+ given half "
        f"(within half range; an aircraft {areas().aircraft.hit_on}+), unmodified; once a turn, as long as its "
        "ammunition lasts. Dice: the barrage, then per piece "
        "in the order named the damage die (heavy, from artillery) or the support's and the vehicle's "
        "1d6 + combat value.",
        _barrage,
        params=(
            Param("call", "text", "the support's id, then every piece inside the burst"),
            BAND,
        ),
        rule="LN-R020, ruling LN-BARRAGE",
        examples=("barrage mortar hans fritz", "barrage mortar smith dice=5,3", "barrage mortar hans half dice=4,2"),
        phases=("fire",),
        who="referee",
        rolls=True,
        dice=(
            dice_order.BURST,
            dice_order.BURST_DAMAGE,
        ),
    ),
)
