"""Ludonet fire: at figures (to hit, then the target's damage die), with or at
vehicles (to hit, then the opposed combat-value roll) and grenades (to hit the spot,
then a damage die for each figure inside the burst).  Results wait on the targets
until the fire phase ends (hits.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.language.i18n import N_, M, Msg, Text
from core.log import events as ev
from core.log.state import GameState, Unit
from core.log.views import unit_visible
from core.ruleset import MAX_DISTANCE_CM, TYPING, CommandSpec, Context, Param, Refused, Ruleset, flag
from core.rulesets.ludonet import dice_order, hits, rules
from core.rulesets.ludonet.pieces import (
    EXPERT,
    GRENADE_RANGE,
    INDIRECT,
    MAN,
    audience,
    combat_value,
    is_aircraft,
    is_heavy,
    is_vehicle,
    name_in_line_about,
    require_in_play,
    weapon_range,
)
from core.rulesets.ludonet.tables import areas, fire
from core.rulesets.ludonet.terms import Status
from core.rulesets.ludonet.words import _, owner, whose

FIRED = "fired"
#: The scenario's visibility in cm (night, fog): nobody sees, so nobody fires, further.
VISIBILITY = "visibility"
#: The damage die's purpose in games recorded before it named who hit (#61): their logs
#: still hold it, and are read in every language (an old save is never rewritten).
RECORDED_DAMAGE = N_("damage")
#: The results of a hit (rules.damage, rules.opposed_result) as a roll's outcome says them.
RESULT_WORDS = {
    "none": N_("none"),
    "wound": N_("wound"),
    "eliminated": N_("eliminated"),
    "immobilised": N_("immobilised"),
    "destroyed": N_("destroyed"),
}


def shooter_conditions(shooter: Unit) -> list[str]:
    """LN-R031: the shooter's own modifiers."""
    held = (
        ("moved", shooter.has(Status.MOVED)),
        ("wounded", shooter.has(Status.WOUNDED)),
        ("expert", EXPERT in shooter.roles),
    )
    return [c for c, holds in held if holds]


def fire_check(ruleset: Ruleset, state: GameState, shooter: Unit) -> None:
    """What ``fire`` refuses of a shooter whatever else is typed (:func:`ready_to_fire`):
    completion offers such figures last (``CommandSpec.figure_check``)."""
    ready_to_fire(shooter)


def ready_to_fire(shooter: Unit) -> None:
    """In play, not an aircraft (LN-R061), not fired yet this turn (ruling LN-ONE-SHOT)."""
    require_in_play(shooter)
    if is_aircraft(shooter):
        raise Refused(_("{unit} attacks on its passes: strike (LN-R061)").format(unit=shooter.name), rule="LN-R061")
    if shooter.has(FIRED):
        raise Refused(
            _("{unit} has already fired this turn (ruling LN-ONE-SHOT)").format(unit=shooter.name), rule="LN-R030"
        )


def within_half(args: dict[str, Any], reach: int | None, what: str) -> bool:
    """LN-R030: whether the target is within half range: said (``half``/``full``) or
    found from the measured ``range=`` and the scenario's range for ``what``."""
    band, cm = args["band"], args["range"]  # 0 or more: the parameter's bounds
    if cm is None:
        if band is None:
            raise Refused(_("say half or full, or give the measured distance: range=CM"), rule=TYPING)
        return band == "half"
    if band is not None:
        raise Refused(_("give half or full, or range=CM, not both"), rule=TYPING)
    if reach is None:
        raise Refused(
            _("the scenario gives no range for {what}: say half or full (LN-AMB-02)").format(what=what),
            rule="LN-AMB-02",
        )
    measured = rules.range_band(cm, reach)
    if measured is None:
        raise Refused(
            _("{cm} cm is beyond the {reach} cm range of {what} (LN-R030)").format(cm=cm, reach=reach, what=what),
            rule="LN-R030",
        )
    return measured == "half"


def to_hit(ctx: Context, shooter: Unit, aim: Text, half: bool, conditions: Sequence[str]) -> bool:
    """LN-R030/R031: 1d6 against 5+ (4+ within half range), modified; marks the shooter as having fired."""
    mods = rules.to_hit_mods(conditions)
    needed = rules.to_hit_needed(half, mods)
    (face,) = ctx.roll(
        M("shot at {aim} (within half range)", aim=aim) if half else M("shot at {aim} (beyond half range)", aim=aim),
        1,
        step=(dice_order.TO_HIT, dice_order.GRENADE_TO_HIT),
        target=needed,
        mods=mods,
        rule="LN-R030",
        unit=shooter.id,
        outcome=lambda f: M("hit") if rules.hits(f[0], needed) else M("miss"),
        check=rules.to_hit_check(half, mods),
    )
    ctx.emit(ev.StatusChanged(unit=shooter.id, add=(FIRED,)))
    return rules.hits(face, needed)


def damage_die(ctx: Context, target: Unit, heavy: bool, firer: Unit) -> str:
    """LN-R035/R036: the target's 1d6, +1 from a heavy weapon.  Asked at the target's seat
    with table dice, it says who hit him (#61): a hidden ``firer`` as his side may know him."""
    (face,) = ctx.roll(
        M("damage, hit by {firer}", firer=name_in_line_about(firer, target)),
        1,
        step=dice_order.DAMAGE_STEPS,
        mods=(ev.Mod(M("heavy weapon"), fire().heavy_damage, "LN-R036"),) if heavy else (),
        total=True,
        rule="LN-R035",
        unit=target.id,
        outcome=lambda f: M(RESULT_WORDS[rules.damage(f[0], heavy)]),
        check=ev.Read(),  # LN-R035: a row of the damage table
    )
    return rules.damage(face, heavy)


def _cv_mods(value: int) -> tuple[ev.Mod, ...]:
    return (ev.Mod(M("combat value"), value, "LN-R041"),) if value else ()


def opposed_roll(ctx: Context, attacker: Unit, attacker_cv: int, target: Unit, target_cv: int) -> str:
    """LN-R041: 1d6 + combat value each, the attacker first; the margin decides.  The
    attacker may be off the table (support, ruling LN-BARRAGE): its line then names it."""
    on_table = attacker.id in ctx.state.units
    against = M("combat value roll against {target}", target=name_in_line_about(target, attacker))
    (a,) = ctx.roll(
        against if on_table else M("{firer}: {roll}", firer=attacker.name, roll=against),
        1,
        step=dice_order.DAMAGE_STEPS,
        mods=_cv_mods(attacker_cv),
        total=True,
        rule="LN-R041",
        unit=attacker.id if on_table else "",
        side=attacker.side,
        outcome=lambda f: M("total {total}", total=f[0] + attacker_cv),
        check=ev.Opposed(),  # LN-R041: the target's roll answers it
    )
    a_total = a + attacker_cv

    def verdict(f: tuple[int, ...]) -> Msg:
        result = rules.opposed_result(a_total, f[0] + target_cv, is_vehicle(target))
        said = M("no damage") if result == "none" else M(RESULT_WORDS[result])
        return M("total {total} against {theirs}: {result}", total=f[0] + target_cv, theirs=a_total, result=said)

    (t,) = ctx.roll(
        M("combat value roll against {firer}, to take no damage", firer=name_in_line_about(attacker, target)),
        1,
        step=dice_order.DAMAGE_STEPS,
        # 1+ when it cannot fail: a need below 1 would read oddly in the log
        target=max(1, rules.face_to_come_through(a_total, target_cv)),
        mods=_cv_mods(target_cv),
        total=True,
        rule="LN-R041",
        unit=target.id,
        outcome=verdict,
        # LN-R041: the face that matches the shooter's total takes no damage
        check=ev.AtLeast(face=rules.face_to_come_through(a_total, target_cv)),
        certain_if=(True,),  # come through on any face: no damage whatever it shows (a margin short is read)
    )
    return rules.opposed_result(a_total, t + target_cv, is_vehicle(target))


# ---------------------------------------------------------------------------- fire


def _fire(ctx: Context, args: dict[str, Any]) -> None:
    """LN-R030/R031 to hit; then LN-R035/R036 damage, or with a vehicle at either end
    the opposed roll of LN-R041.  The result waits until the fire phase ends (LN-R021)."""
    shooter, target = ctx.unit(args["shooter"]), ctx.unit(args["target"])
    ready_to_fire(shooter)
    require_in_play(target)
    if shooter.side == target.side:
        raise Refused(
            _("{unit} is on {whose} side").format(unit=target.name, whose=owner(shooter.name)), rule="LN-R030"
        )
    indirect = INDIRECT in shooter.roles
    if not unit_visible(target, shooter.side) and not indirect:
        raise Refused(
            _("{unit} is not on the table for {side}: no line of sight (LN-R001, LN-R020)").format(
                unit=target.name, side=shooter.side
            ),
            rule=("LN-R020", "LN-R001"),
        )
    seen = ctx.state.vars.get(VISIBILITY)
    # the measured distance, or the distance into the woods (which reduce sight, LN-R020)
    cm = args["range"] if args["range"] is not None else args["woods"]
    if isinstance(seen, int) and seen > 0 and cm is not None and cm > seen and not indirect:
        raise Refused(
            _("{unit} is {cm} cm away: the scenario's visibility is {seen} cm (LN-R020)").format(
                unit=target.name, cm=cm, seen=seen
            ),
            rule=("LN-R020", "LN-AMB-18"),
        )
    woods = args["woods"]  # 0 or more: the parameter's bounds
    if woods is not None and not indirect and not rules.seen_in_woods(woods, target.has(Status.PRONE) or args["prone"]):
        raise Refused(
            _("{unit} is not seen in the woods at {cm} cm (LN-R020)").format(unit=target.name, cm=woods), rule="LN-R020"
        )
    if is_aircraft(target):
        raise Refused(
            _("only anti-aircraft weapons fire at {unit}: aa (LN-R062)").format(unit=target.name), rule="LN-R062"
        )
    if args["prone"] and target.kind != MAN:
        # LN-R031 "il bersaglio è coricato": a soldier's posture, as `prone UNIT` (ruling LN-PRONE)
        raise Refused(
            _("{unit} is not a figure: it does not lie down (LN-R031)").format(unit=target.name), rule="LN-R031"
        )
    opposed = is_vehicle(shooter) or is_vehicle(target)
    # Refuse a missing combat value before any die is rolled.
    values = (combat_value(shooter), combat_value(target)) if opposed else (0, 0)
    half = within_half(args, weapon_range(ctx.state, shooter), _("{whose} weapon").format(whose=owner(shooter.name)))
    conditions = shooter_conditions(shooter) + [c for c in ("prone", "cover") if args[c]]
    if target.has(Status.PRONE) and "prone" not in conditions:
        conditions.append("prone")
    if not to_hit(ctx, shooter, name_in_line_about(target, shooter), half, conditions):
        return
    if opposed:
        result = opposed_roll(ctx, shooter, values[0], target, values[1])
    else:
        result = damage_die(ctx, target, is_heavy(ctx.state, shooter), shooter)
    hits.hold(ctx, target, result)


# ------------------------------------------------------------------------- grenade


def _grenade(ctx: Context, args: dict[str, Any]) -> None:
    """LN-R038 (ruling LN-GRENADE): the thrower rolls to hit the spot as he would fire;
    on a hit every figure the referee names inside the burst rolls the damage die."""
    thrower = ctx.unit(args["thrower"])
    inside = [ctx.unit(u) for u in args["figures"]]
    ready_to_fire(thrower)
    radius = areas().grenade.radius_cm
    if thrower.kind != MAN:
        raise Refused(
            _("{unit} is not a figure: only figures throw grenades (ruling LN-GRENADE)").format(unit=thrower.name),
            rule=("LN-R038", "LN-AMB-08"),
        )
    if not inside:
        raise Refused(_("name the figures within {cm} cm of the burst (LN-R038)").format(cm=radius), rule="LN-R038")
    if len({u.id for u in inside}) != len(inside):
        raise Refused(_("each figure is named once"), rule=TYPING)
    for u in inside:
        require_in_play(u)
        if u.kind != MAN:
            raise Refused(
                _("{unit} is not a figure: a grenade harms figures only (ruling LN-GRENADE)").format(unit=u.name),
                rule=("LN-R038", "LN-AMB-08"),
            )
    seen, cm = ctx.state.vars.get(VISIBILITY), args["range"]
    if isinstance(seen, int) and seen > 0 and cm is not None and cm > seen:
        # thrown "as fire does" (ruling LN-GRENADE): no further than anyone sees (LN-R020)
        raise Refused(
            _("the spot is {cm} cm away: the scenario's visibility is {seen} cm (LN-R020)").format(cm=cm, seen=seen),
            rule=("LN-R020", "LN-AMB-18"),
        )
    reach = ctx.state.vars.get(GRENADE_RANGE)
    half = within_half(args, reach if isinstance(reach, int) and reach > 0 else None, _("a grenade"))
    if not to_hit(ctx, thrower, M("the spot, a grenade"), half, shooter_conditions(thrower)):
        text = M("{whose} grenade falls wide: no effect (ruling LN-GRENADE)", whose=whose(thrower.name))
        ctx.emit(ev.Noted(text=text, vis=audience(thrower)))
        return
    for u in inside:
        hits.hold(ctx, u, damage_die(ctx, u, heavy=False, firer=thrower))


BAND = Param(
    "band", "choice", "within half the weapon's range, or beyond", optional=True, choices=("half", "full"), keyword=True
)
RANGE = Param(
    "range",
    "distance",
    "the measured distance in cm (the scenario gives the range)",
    optional=True,
    keyword=True,
    hi=MAX_DISTANCE_CM,
)

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "fire",
        "Fire at a figure or vehicle in sight, saying half or full range or giving range=CM "
        "(in woods: woods=CM, seen to 20 cm, 12 lying down; "
        "mortars and artillery need no sight): 1d6, 5+ (4+ within half range), modified. "
        "Dice: to hit, then the target's damage die; with a vehicle as shooter or target, "
        "the shooter's then the target's 1d6 + combat value instead.",
        _fire,
        params=(
            Param("shooter", "own"),
            Param("target", "enemy"),
            BAND,
            RANGE,
            flag("prone", "the target lies down (a crawler always does): -1"),
            flag("cover", "the target is in cover: -1"),
            Param(
                "woods",
                "distance",
                "the target is in woods or scrub this many cm away",
                optional=True,
                keyword=True,
                hi=MAX_DISTANCE_CM,
            ),
        ),
        rule="LN-R030, LN-R041",
        examples=(
            "fire smith hans half",
            "fire bren fritz full cover woods=15",
            "fire piat panzer half dice=5,6,2",
            "fire jones kurt range=25",
        ),
        phases=("fire",),
        figure_check=fire_check,
        rolls=True,
        dice=(
            dice_order.TO_HIT,
            dice_order.DAMAGE,
        ),
        known_elsewhere_as=("shoot",),  # the verb another game fires with
    ),
    CommandSpec(
        "grenade",
        f"The referee throws a figure's grenade: to hit the spot as fire (the thrower's modifiers only); "
        f"on a hit each figure named within {areas().grenade.radius_cm} cm of the burst rolls the damage die. "
        "Dice: to hit, then one damage die per figure in the order named.",
        _grenade,
        params=(
            Param("thrower", "own"),
            BAND,
            RANGE,
            Param("figures", "unit", "every figure inside the burst", optional=True, many=True),
        ),
        rule="LN-R038",
        examples=("grenade smith half hans fritz", "grenade jones full kurt dice=5,3", "grenade wood range=8 otto"),
        phases=("fire",),
        who="referee",
        rolls=True,
        dice=(
            dice_order.GRENADE_TO_HIT,
            dice_order.GRENADE_DAMAGE,
        ),
    ),
)
