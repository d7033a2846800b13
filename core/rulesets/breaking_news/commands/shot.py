"""Breaking News: one figure's shot, from its to-hit dice to every hit's saves, burst
areas, missed area rounds, ammunition and friendly fire (§8.0–§8.0.3, §8.5, §8.7, §8.8, §9.0);
what every firing command states about a shot, and refuses of a firer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from core.language.i18n import M, Msg, Text
from core.log import events as ev
from core.log.events import Mod
from core.log.state import GameState, Unit
from core.log.views import unit_audience
from core.ruleset import TYPING, Context, Param, Refused, Ruleset
from core.rulesets.breaking_news import dice_order, hits, options
from core.rulesets.breaking_news.commands.common import require_ready
from core.rulesets.breaking_news.ledger import army
from core.rulesets.breaking_news.rules import fire, saves
from core.rulesets.breaking_news.rules.movement import may_fire_after
from core.rulesets.breaking_news.tables.combat import Weapon, fire_table
from core.rulesets.breaking_news.tables.combat import support as support_table
from core.rulesets.breaking_news.terms import FireAllowed, Kind, Status
from core.rulesets.breaking_news.words import DOMAIN, _, whose


@dataclass(frozen=True)
class Situation:
    """What the referee or the player says about a shot; the table has no map."""

    range_cm: int
    mode: str | None = None
    weapon: str | None = None
    split: tuple[int, ...] | None = None
    cover: bool = False
    lone: bool = False
    flank: bool = False
    line: tuple[Unit, ...] = ()
    also: tuple[Unit, ...] = ()  # other figures within the burst area (§8.0.1)
    speculative: bool = False
    reaction: bool = False


def situation(ctx: Context, args: dict[str, Any], *, reaction: bool = False, speculative: bool = False) -> Situation:
    for u in hits.resolve_units(ctx, args.get("line")):
        hits.require_in_play(u)
        hits.require_exposed(ctx, u)
    for u in hits.resolve_units(ctx, args.get("also")):
        require_in_the_blast(ctx, u)
    return Situation(
        range_cm=args["range"],
        mode=args.get("mode"),
        weapon=args.get("weapon"),
        split=hits.int_list(args.get("split"), "split", 0, 99),
        cover=bool(args.get("cover")),
        lone=bool(args.get("lone")),
        flank=bool(args.get("flank")),
        line=tuple(hits.resolve_units(ctx, args.get("line"))),
        also=tuple(hits.resolve_units(ctx, args.get("also"))),
        speculative=speculative,
        reaction=reaction,
    )


def _ammo_gate(firer: Unit, weapon: Weapon, mode: str) -> None:
    if not weapon.magazine:
        return
    if firer.has(Status.NO_AMMO):
        raise Refused(
            _("{firer} {weapon} is out of ammunition (§8.0.3)").format(
                firer=DOMAIN.render(whose(firer.name)), weapon=_(weapon.name)
            ),
            rule="FIRE-12",
        )
    if firer.has(Status.EMPTY_MAG):
        raise Refused(
            _("{firer} must change magazine first: reload {firer2} (§8.0.3)").format(firer=firer.name, firer2=firer.id),
            rule="FIRE-12",
        )
    if firer.has(Status.LOW_AMMO) and mode == fire.BURST:
        raise Refused(
            _("{firer} is low on ammunition: aimed fire only (§8.0.3)").format(firer=firer.name), rule="FIRE-12"
        )


def moved_facts(firer: Unit) -> tuple[int | Decimal, bool]:
    """(the most the action can have moved, whether fire takes the moving +1), from
    the firer's badge: more than 5 cm in a move and shoot, or over a level-1
    obstacle (§6.2), or a vehicle firing on the move (§6.1, AMB-13)."""
    if hits.is_helicopter(firer):
        return 0, False  # §8.4: it flies and fires at its greatest distance, no moving penalty
    if hits.is_vehicle(firer):
        return firer.moved_cm, firer.moved_cm > 0
    return {
        "moved": (15, True),
        "climbed": (5, True),
        "crept": (5, False),
        "ran": (25, False),
        "covering": (5, False),
    }.get(hits.action_badge(firer), (0, False))


@dataclass(frozen=True)
class Volley:
    """One target's share of a figure's fire: the dice rolled at it and the hits they made."""

    target: Unit
    faces: tuple[int, ...]
    hits: int
    shot: fire.Shot
    #: shots fired and missed with no die rolled: a single shot that needs more than 6 (§8.0)
    unrolled_misses: int = 0


def shoot(ctx: Context, firer: Unit, targets: Sequence[Unit], sit: Situation) -> None:
    """One figure fires: to-hit rolls, then every hit's saves, burst-area hits and
    friendly fire, all in this command (§8.0, §8.0.1, §8.7, §9.0)."""
    weapon = hits.unit_weapon(firer, ctx, sit.weapon)
    mode = sit.mode or fire.default_mode(weapon)
    burst = fire.is_burst(weapon, mode)
    base_need, base_dice = fire.base_shot(weapon, mode, _table_range(weapon, mode, firer, targets, sit.range_cm))
    _ammo_gate(firer, weapon, mode)
    _refuse_targets(ctx, firer, targets, weapon, burst, sit)
    penalty = _refuse_firer(firer, weapon, sit)
    split = fire.split_dice(base_dice, sit.split, len(targets)) if burst else (base_dice,)

    hits.reveal(ctx, firer, M("fires"))
    hits.first_fire(ctx, firer.side)
    if weapon.no_men and any(not hits.is_vehicle(t) for t in targets):
        ctx.emit(
            ev.Noted(
                text=M(
                    "the {weapon} is aimed at the structure beside the man (§7.0); its area does the rest",
                    weapon=M(weapon.name),
                )
            )
        )
    volleys = [
        _fire_at(ctx, firer, target, dice, weapon, mode, base_need, burst, penalty, sit)
        for target, dice in zip(targets, split, strict=True)
    ]
    if options.option(ctx.state, "ammo") and firer.cls not in fire_table().special_forces_classes:
        _ammo(ctx, firer, weapon, tuple(f for v in volleys for f in v.faces), burst)
    if _lands_by_its_die(ctx, weapon):
        for v in volleys:
            if v.faces and not v.hits:
                _missed_area_shot(ctx, firer, weapon, v.shot.need, v.faces[0], *_aim(firer, v.target))
    _take_the_hits(ctx, firer, weapon, volleys, sit)


def _refuse_targets(
    ctx: Context, firer: Unit, targets: Sequence[Unit], weapon: Weapon, burst: bool, sit: Situation
) -> None:
    """Refused unless every target may be fired at, by this weapon, in this way."""
    if not targets:
        raise Refused(_("name a target"), rule=TYPING)
    if len(targets) > 1 and not burst:
        raise Refused(_("only a burst may be split between targets (§8.0)"), rule="FIRE-8")
    for t in targets:
        hits.require_in_play(t)
        hits.require_exposed(ctx, t)
        if t.side == firer.side:
            raise Refused(_("{t} is on your own side").format(t=t.name), rule="FIRE-1")
        if _in_protected_vehicle(ctx, t) and not weapon.small_arms:
            # §8.8: the men in a protected vehicle are "subject to small arms fire"; a heavier
            # weapon is fired at the vehicle (rulings BN-C-PROTECTED-OCCUPANTS).
            raise Refused(
                _("{t} is inside a protected vehicle: only small arms reach him; fire at the vehicle (§8.8)").format(
                    t=t.name
                ),
                rule=("VF-1", "VF-2"),
            )
        if not sit.speculative and t.has(Status.HIDDEN) and firer.side not in t.spotted_by:
            raise Refused(
                _("{t} is hidden: only speculative fire can reach him (§7.0)").format(t=t.name),
                rule=("MOV-7", "SPOT-1"),
            )
    civilians_in_line = any(u.kind == Kind.CIVILIAN for u in sit.line)
    if hits.italian(ctx) and army(ctx.state, firer.side) == "irregular" and civilians_in_line:
        # Italian draft, Civilians: friendly fire applies to them "if it comes from the regular forces".
        raise Refused(
            _(
                "in the Italian draft friendly fire catches civilians only when regular forces fire "
                "(Civilians, DIFF-56)"
            ),
            rule="DIFF-56",
        )


def _refuse_firer(firer: Unit, weapon: Weapon, sit: Situation) -> bool:
    """Refused unless the firer may fire this weapon now; whether his move costs him the
    moving penalty (§6.1, §8.0)."""
    moved_cm, penalty = (0, False) if sit.reaction else moved_facts(firer)
    if sit.lone and not weapon.crewed:
        raise Refused(
            _("lone is for an MMG or HMG served by one man, not a {weapon} (§8.0)").format(weapon=_(weapon.name)),
            rule=("FIRE-1", "FIRE-2"),
        )
    if sit.lone and hits.is_vehicle(firer):
        raise Refused(
            _("{firer}'s {weapon} is on a mount or turret: one crew costs nothing (§8.0)").format(
                firer=firer.name, weapon=_(weapon.name)
            ),
            rule=("FIRE-1", "FIRE-2"),
        )
    if hits.is_vehicle(firer):
        # §6.1: a tank fires its gun or moves; armoured cars (a heavily-armoured Centauro's
        # gun too) and vehicles' MGs fire on the move with +1.
        if weapon.movement == "gun" and firer.moved_cm and firer.cls == "tank":
            raise Refused(_("a tank fires its gun or moves, not both (§6.1)"), rule="MOV-3")
    elif not sit.reaction:
        why = may_fire_after(weapon, moved_cm, fire_rule(firer))
        if why:
            raise Refused(why, rule=("MOV-3", "T-05"))
    return penalty


def _fire_at(
    ctx: Context,
    firer: Unit,
    target: Unit,
    dice: int,
    weapon: Weapon,
    mode: str,
    base_need: int,
    burst: bool,
    penalty: bool,
    sit: Situation,
) -> Volley:
    """The to-hit roll at one target, its modifiers applied (§8.0)."""
    facts = fire.ShotFacts(
        moving_penalty=penalty,
        cover=sit.cover or _in_protected_vehicle(ctx, target),
        dodge=target.has(Status.DODGING),
        target_sniper=hits.is_sniper(target),
        lone_crew=sit.lone,
        firer_class=firer.cls,
        target_suppressed_in_open=target.has(Status.SUPPRESSED) and not sit.cover,
    )
    mods = fire.modifiers(weapon, mode, sit.range_cm, facts)
    sh = fire.shot(base_need, dice, mods, burst)
    what = weapon_words(weapon, mode)
    aim, named_for = _aim(firer, target)
    if sit.speculative:
        purpose = M("speculative fire with {weapon} at {target}, {cm} cm", weapon=what, target=aim, cm=sit.range_cm)
    else:
        purpose = M("fire with {weapon} at {target}, {cm} cm", weapon=what, target=aim, cm=sit.range_cm)
    if target.has(Status.DODGING) and not weapon.sniper:
        # §6.5: the dodge answers this shot, even one its +1 leaves without a die
        # to roll; it does not wait for the next (ruling BN-C-DODGE).  A sniper's shot
        # "cannot be dodged": it neither uses the dodge nor counts as the man's reaction.
        hits.badge(ctx, target, remove=("dodging",))
    if not sh.possible:
        ctx.emit(
            ev.Noted(
                text=M(
                    "{unit}: {purpose}: needs more than 6, no hit possible (§8.0)", unit=firer.name, purpose=purpose
                ),
                vis=named_for,
            )
        )
        if burst or not _lands_by_its_die(ctx, weapon):
            # A burst with no die left fires nothing; a single shot is fired and misses (§8.7 counts it).
            return Volley(target, (), 0, sh, unrolled_misses=0 if burst else sh.dice)
        # A round that cannot hit still lands somewhere: its die says how far off (§8.5, §8.0.2).
    lost = [Mod(M("burst loses {n} dice", n=sh.lost), 0, "§8.0")] if sh.lost else []
    faces = ctx.roll(
        purpose,
        sh.dice,
        step=dice_order.TO_HIT,
        target=sh.need,
        mods=(*mods, *lost),
        rule="§8.6" if sit.speculative else "§8.0",
        unit=firer.id,
        vis=named_for,
        outcome=lambda f, need=sh.need: hit_words(fire.hits(f, need)),  # type: ignore[misc]  # a lambda binding a value by default argument: mypy cannot infer it
        check=ev.Each(face=sh.need, base=base_need),  # §8.0: each die at the number is a hit
    )
    return Volley(target, tuple(faces), fire.hits(faces, sh.need), sh)


def _take_the_hits(ctx: Context, firer: Unit, weapon: Weapon, volleys: list[Volley], sit: Situation) -> None:
    """Every hit's saves, the burst area's hits, and friendly fire from the dice that missed (§8.0.1, §8.7, §9.0)."""
    by = firer.side
    source = saves.SPECULATIVE if sit.speculative else saves.NORMAL
    for v in volleys:
        if not v.hits:
            continue
        protected = sit.cover or (
            v.target.has(Status.SUPPRESSED) and sit.range_cm > fire_table().suppressed_open_cover_beyond_cm
        )
        hits.take_hits(
            ctx,
            v.target,
            v.hits,
            by_side=by,
            source=source,
            protected=protected,
            vehicle_column=weapon.vehicle_column,
            flank=sit.flank,
            in_cover=sit.cover,
        )
        if weapon.area_cm:
            for other in sit.also:
                hits.take_hits(ctx, other, 1, by_side=by, source=source, vehicle_column=weapon.vehicle_column)
    missed = sum(len(v.faces) - v.hits + v.unrolled_misses for v in volleys)
    if missed:
        for friend in sit.line:
            hits.take_hits(ctx, friend, missed, by_side=by, source=saves.FRIENDLY)


def _table_range(weapon: Weapon, mode: str, firer: Unit, targets: Sequence[Unit], range_cm: int) -> int:
    """The range read on the §8.0 table.  §8.4: a helicopter gunship fires at its
    greatest distance, and is shot at by small arms and rockets at long range, from
    anywhere (digest ART-6)."""
    if hits.is_helicopter(firer):
        return fire.longest_reach(weapon, mode)
    if any(hits.is_helicopter(t) for t in targets):
        if len(targets) > 1:
            raise Refused(_("a helicopter is shot at on its own (§8.4)"), rule="ART-6")
        if not (weapon.small_arms or weapon.deviation == "rocket"):
            raise Refused(
                _("only small arms and rockets can hit a helicopter, not the {weapon} (§8.4)").format(
                    weapon=_(weapon.name)
                ),
                rule="ART-6",
            )
        return fire.longest_reach(weapon, mode)
    return range_cm


def weapon_words(weapon: Weapon, mode: str) -> Msg:
    """The weapon and, where it has a choice, its mode (``Assault rifle burst``)."""
    if weapon.has_burst_mode:
        return M("{weapon} {mode}", weapon=M(weapon.name), mode=M(mode))
    return M(weapon.name)


def _aim(firer: Unit, target: Unit) -> tuple[Text, tuple[str, ...]]:
    """How a line names the target, and who may read it (() = everyone).

    A hidden man the firer's side has not spotted is named by his marker, to all
    (ruling BN-C-MARKER); one it has spotted is named, but only to those who see him
    (his own side and the spotters), never to a spectator or a third side."""
    if not target.has(Status.HIDDEN):
        return target.name, ()
    if firer.side in target.spotted_by:
        return target.name, unit_audience(target)
    return (M("marker {n}", n=target.marker) if target.marker else M("a suspect position")), ()


def fire_rule(firer: Unit) -> FireAllowed:
    """What the firer's action this turn lets him fire (§6.0), read from its badge."""
    return _FIRE_AFTER.get(hits.action_badge(firer), FireAllowed.PENALTY)


_FIRE_AFTER: dict[str, FireAllowed] = {Status.RAN: FireAllowed.NONE, Status.COVERING: FireAllowed.COVERING}


def require_in_the_blast(ctx: Context, unit: Unit) -> None:
    """A figure under a template (a burst area, §8.0.1, §8.4, §8.5, an IED) takes its hit,
    unless he is inside a vehicle: the men of an armoured one are out of reach, those of a
    protected one are "subject to small arms fire" only (§8.8), and no template is small
    arms; the vehicle takes the hit, and its men save if it explodes (§9.2; rulings
    BN-C-PROTECTED-OCCUPANTS)."""
    hits.require_in_play(unit)
    hits.require_exposed(ctx, unit)
    if _in_protected_vehicle(ctx, unit):
        raise Refused(
            _("{t} is inside a protected vehicle: only small arms reach him; the blast hits the vehicle (§8.8)").format(
                t=unit.name
            ),
            rule=("VF-1", "VF-2"),
        )


def _in_protected_vehicle(ctx: Context, unit: Unit) -> bool:
    """§8.8: the men in a protected, unarmoured vehicle count as behind cover."""
    return unit.has(Status.IN_VEHICLE) and hits.vehicle_of(ctx, unit) == "protected"


def hit_words(n: int) -> Msg:
    if n == 0:
        return M("miss")
    return M("{n} hit", n=n) if n == 1 else M("{n} hits", n=n)


def _ammo(ctx: Context, firer: Unit, weapon: Weapon, faces: tuple[int, ...], burst: bool) -> None:
    r = fire.ammunition(faces, weapon, burst, firer.has(Status.LOW_AMMO), hits.italian(ctx))
    if r.exhausted:
        hits.badge(ctx, firer, "no-ammo", remove=("low-ammo", "empty-mag"))
        ctx.emit(
            ev.Noted(
                text=M("{whose} {weapon} is out of ammunition (§8.0.3)", whose=whose(firer.name), weapon=M(weapon.name))
            )
        )
        return
    add = []
    if r.empty:
        add.append("empty-mag")
    if r.low:
        add.append("low-ammo")
    if add:
        hits.badge(ctx, firer, *add)
        words = M("three of a kind: aimed fire only until a 1") if r.low else M("a double")
        ctx.emit(ev.Noted(text=M("{unit} rolled {what}; the magazine is empty (§8.0.3)", unit=firer.name, what=words)))


def _lands_by_its_die(ctx: Context, weapon: Weapon) -> bool:
    """Whether a missed shot of ``weapon`` lands where its to-hit die says: a light mortar
    always (§8.5), an area weapon with a deviation row when the optional §8.0.2 is on."""
    return bool(weapon.indirect or (weapon.area_cm and weapon.deviation and options.option(ctx.state, "deviation")))


def _missed_area_shot(
    ctx: Context, firer: Unit, weapon: Weapon, need: int, face: int, aim: Text, vis: tuple[str, ...] = ()
) -> None:
    """§8.5 a light mortar's template lands 3 cm per point off; §8.0.2 (optional) any
    area weapon's missed shot deviates on its row of the table."""
    name_them = M("name who is under it: blast ... source={source}", source=weapon.blast)
    if options.option(ctx.state, "deviation") and weapon.deviation:
        direction = None
        if face != 1:
            (direction,) = ctx.roll(
                M("{weapon} deviation direction", weapon=M(weapon.name)),
                1,
                step=dice_order.MISSED_AREA_SHOT,
                rule="§8.0.2",
                unit=firer.id,
                outcome=lambda f: M(fire_table().deviation[weapon.deviation].directions[f[0] - 1]),
                check=ev.Read(),
            )
        d = fire.deviation(weapon, need, face, direction)
        if d.dud:
            ctx.emit(ev.Noted(text=M("the {weapon} round did not fire (a 1, §8.0.2)", weapon=M(weapon.name))))
        else:
            lands = M(
                "the {weapon} lands {where} (§8.0.2); {then}",
                weapon=M(weapon.name),
                where=fire.landing(d, aim),
                then=name_them,
            )
            ctx.emit(ev.Noted(text=lands, vis=vis))
    elif weapon.indirect:
        off = fire.placement_offset(support_table().mortar.step_cm, need, face)
        ctx.emit(
            ev.Noted(
                text=M(
                    "the mortar template lands {cm} cm from {target}, the opponent chooses where (§8.5); {then}",
                    cm=off,
                    target=aim,
                    then=name_them,
                ),
                vis=vis,
            )
        )


def firer_check(ruleset: Ruleset, state: GameState, firer: Unit) -> None:
    """What ``fire`` refuses of a firer whatever else is typed, before any die: he is not
    the active player's, on the table and free to act (§5.0, §8.0.3, §10.0), his action is
    over (§5.0: one action), or he carries no weapon at all (a civilian, a journalist).
    Completion offers such figures last (``CommandSpec.figure_check``)."""
    require_ready(state, firer, "fire")
    require_fire_left(firer)
    hits.require_armed(firer)


def require_fire_left(firer: Unit) -> None:
    """§5.0, T-03: one action a turn.  He has fired; or his action was one that allows no
    fire at all: getting into or out of a vehicle "requires a complete move" (§6.3),
    carrying a wounded man (§9.3), hand-to-hand (§11.0) — each badged ``acted``."""
    if firer.has(Status.FIRED):
        raise Refused(_("{name} has already fired this turn").format(name=firer.name), rule="T-03")
    if firer.has(Status.ACTED):
        raise Refused(
            _("{name} has already acted this turn: that action allows no fire (§5.0, §6.3)").format(name=firer.name),
            rule=("T-03", "MOV-5"),
        )


# ------------------------------------------------------------------------ what a shot states

MODE = Param("mode", "choice", "aimed (single shot) or burst", optional=True, choices=("aimed", "burst"), keyword=True)
RANGE = Param("range", "distance", "distance to the target in cm (or 10in)", keyword=True, hi=hits.MAX_CM)
WEAPON = Param("weapon", "text", "which weapon (default: the first carried)", optional=True, keyword=True)
COVER = Param("cover", "choice", "the target is behind cover", optional=True, choices=("cover",), keyword=True)
SPLIT = Param("split", "text", "burst dice per target, e.g. 2,1", optional=True, keyword=True)
LONE = Param("lone", "choice", "an MMG/HMG with one crew", optional=True, choices=("lone",), keyword=True)
FLANK = Param("flank", "choice", "a tank hit in the side or rear", optional=True, choices=("flank",), keyword=True)
LINE = Param("line", "text", "friendly figures or civilians in the line of fire", optional=True, keyword=True)
ALSO = Param("also", "text", "other figures within the burst area of the target", optional=True, keyword=True)
#: What a shot at figures in sight states (§8.0–§8.2, §8.7).
SHOT = (RANGE, MODE, WEAPON, COVER, SPLIT, LONE, FLANK, LINE, ALSO)
