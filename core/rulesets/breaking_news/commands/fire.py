"""Breaking News fire commands: fire, group fire, opportunity fire, speculative
fire, covering fire, dodges, blasts and smoke (§6.5, §8.0–§8.9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from core import events as ev
from core.commands import distance
from core.events import Mod
from core.language.i18n import M, Msg, Text
from core.ruleset import TYPING, CommandSpec, Context, Param, Refused, Ruleset
from core.rulesets.breaking_news import dice_order, hits
from core.rulesets.breaking_news.commands.common import LEADER, check_group, ready_to_act, require_ready
from core.rulesets.breaking_news.ledger import army, extra, set_unit_var, set_var, unit_var, var
from core.rulesets.breaking_news.rules import fire, saves, support
from core.rulesets.breaking_news.rules.movement import may_fire_after
from core.rulesets.breaking_news.tables.combat import Weapon, allowances, covering, fire_table
from core.rulesets.breaking_news.tables.combat import support as support_table
from core.rulesets.breaking_news.terms import FireAllowed, Kind, Status
from core.rulesets.breaking_news.words import DOMAIN, _, listing, whose
from core.state import GameState, Unit
from core.views import unit_audience


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
        _require_in_the_blast(ctx, u)
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


def _moved_facts(firer: Unit) -> tuple[int | Decimal, bool]:
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
    if hits.option(ctx.state, "ammo") and firer.cls not in fire_table().special_forces_classes:
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
        raise Refused(_("only a burst may be split between targets (§8.0)"), rule=("FIRE-1", "FIRE-2"))
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
    moved_cm, penalty = (0, False) if sit.reaction else _moved_facts(firer)
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
        why = may_fire_after(weapon, moved_cm, _fire_rule(firer))
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
    what = _weapon_words(weapon, mode)
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
        outcome=lambda f, need=sh.need: _hit_words(fire.hits(f, need)),  # type: ignore[misc]  # a lambda binding a value by default argument: mypy cannot infer it
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


def _weapon_words(weapon: Weapon, mode: str) -> Msg:
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


def _fire_rule(firer: Unit) -> FireAllowed:
    """What the firer's action this turn lets him fire (§6.0), read from its badge."""
    return _FIRE_AFTER.get(hits.action_badge(firer), FireAllowed.PENALTY)


_FIRE_AFTER: dict[str, FireAllowed] = {Status.RAN: FireAllowed.NONE, Status.COVERING: FireAllowed.COVERING}


def _require_in_the_blast(ctx: Context, unit: Unit) -> None:
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
    return unit.has(Status.IN_VEHICLE) and hits._vehicle_of(ctx, unit) == "protected"


def _hit_words(n: int) -> Msg:
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
    return bool(weapon.indirect or (weapon.area_cm and weapon.deviation and hits.option(ctx.state, "deviation")))


def _missed_area_shot(
    ctx: Context, firer: Unit, weapon: Weapon, need: int, face: int, aim: Text, vis: tuple[str, ...] = ()
) -> None:
    """§8.5 a light mortar's template lands 3 cm per point off; §8.0.2 (optional) any
    area weapon's missed shot deviates on its row of the table."""
    name_them = M("name who is under it: blast ... source={source}", source=weapon.blast)
    if hits.option(ctx.state, "deviation") and weapon.deviation:
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


# --------------------------------------------------------------------- commands


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


def _fire(ctx: Context, args: dict[str, Any]) -> None:
    firer = ctx.unit(args["unit"])
    group = [firer, *hits.resolve_units(ctx, args.get("with"), side=firer.side)]
    for u in group:  # every firer of the group, before the first suppression test's die
        firer_check(ctx.ruleset, ctx.state, u)
    targets = [ctx.unit(t) for t in args["targets"]]
    sit = situation(ctx, args)
    if len(group) > 1:
        check_group(group)
        if len(targets) > 1 or sit.split:
            raise Refused(_("group fire is at one target (§8.1)"), rule=("ACT-3", "FIRE-13"))
    # §6.4 (ACT-3): the fire of men who just moved is the rest of their action, not another.
    same_action = hits.moved_to_fire(ctx.state, group)
    acting = [u for u in group if ready_to_act(ctx, u, args.get("leader"))]
    dodgers = [t for t in targets if t.has(Status.DODGING)]
    # who was down or out before this fire: it did not put them there (§8.2)
    down_before = {u.id for u in [*targets, *sit.also] if u.out or u.has(Status.SUPPRESSED)}
    for u in acting:
        shoot(ctx, u, targets, sit)
        hits.badge(ctx, ctx.unit(u.id), "fired")
    if not same_action:
        hits.next_action(ctx, group)
    _dodged(ctx, dodgers)
    _record_struck(ctx, [u for u in [*targets, *sit.also] if u.id not in down_before])


def _dodged(ctx: Context, dodgers: Sequence[Unit]) -> None:
    """§6.5, §8.2: a dodge is the man's one reaction to the shot it answers, so it
    counts as his reaction to that fire: he cannot fire back at it as well.  The
    dodge is declared before the shot is numbered, hence marked now."""
    for unit in dodgers:
        if not unit.has(Status.DODGING):  # the shot spent it (no shot when no firer was ready)
            _mark_reacted(ctx, unit)


def _record_struck(ctx: Context, units: Sequence[Unit]) -> None:
    """§8.2: opportunity fire in answer to fire is simultaneous, so the men this fire
    put down or out may still answer it.  Recorded once per fire (in sight only).
    ``units`` are those the fire found standing: a man it found already suppressed was
    not put down by it, and cannot react at all (§10.0).  The var is ``N:ids:K``: N the
    action's number all game long (what :func:`_struck_now` compares), K its number in
    this turn's activation (what the log says, as it numbers the action itself)."""
    struck = [
        u.id
        for u in units
        if not u.has(Status.HIDDEN) and (ctx.unit(u.id).out or ctx.unit(u.id).has(Status.SUPPRESSED))
    ]
    if struck:
        n, k = hits.action_number(ctx.state), hits.activation_action(ctx.state)
        set_var(ctx, "struck", f"{n}:{','.join(struck)}:{k}")


def _struck_now(ctx: Context, unit: Unit) -> bool:
    """Was ``unit`` put down or out by the enemy's latest action, a fire?"""
    action, _sep, rest = str(var(ctx.state, "struck", "")).partition(":")
    ids = rest.partition(":")[0]  # then the number within the activation, in newer saves
    return action == str(hits.action_number(ctx.state)) and unit.id in ids.split(",")


def _speculative(ctx: Context, args: dict[str, Any]) -> None:
    firer = ctx.unit(args["unit"])
    if not args["targets"]:
        given = [f"{k}=" for k in ("split", "line", "also") if args.get(k)] + (["cover"] if args.get("cover") else [])
        if given:
            raise Refused(
                _("{given} describe the figures at the position: name them, or fire at nobody").format(
                    given=", ".join(given)
                ),
                rule=("SPEC-1", "SPOT-2"),
            )
    require_fire_left(firer)
    if not ctx.is_referee:
        # A player aims at what he sees: a marker, or a position with nobody he can see
        # (rulings BN-C-MARKER); a figure in sight is fired at, not suspected.
        for t in args["targets"]:
            target = ctx.unit(t)
            if not target.has(Status.HIDDEN) or ctx.role in target.spotted_by or target.side == ctx.role:
                raise Refused(
                    _("{target} is in sight: fire at him (fire), or name a marker (§8.6)").format(target=target.name),
                    rule=("SPEC-1", "AMB-37"),
                )
    if not ready_to_act(ctx, firer, args.get("leader")):
        return
    if args.get("permission"):
        # §8.6, Extras: Rules of Engagement: a 6 for a side that bought them
        need = support.speculative_permission(bool(extra(ctx.state, firer.side, "rules_of_engagement")))
        (face,) = ctx.roll(
            M("permission for speculative fire"),
            1,
            step=dice_order.PERMISSION,
            unit=firer.id,
            target=need,
            rule="§8.6",
            outcome=lambda f: M("allowed") if f[0] >= need else M("not allowed"),
            check=ev.AtLeast(face=need),
        )
        if face < need:
            return  # refused permission does not spend his action
    targets = [ctx.unit(t) for t in args["targets"]]
    # §8.6 "performed like normal fire": after his move it is the rest of his action (§5.0).
    same_action = hits.moved_to_fire(ctx.state, [firer])
    if targets:
        shoot(ctx, firer, targets, situation(ctx, args, speculative=True))
    else:
        _fire_at_nobody(ctx, firer, args)
    if not same_action:
        hits.next_action(ctx, [firer])
    hits.badge(ctx, ctx.unit(firer.id), "fired")


def _fire_at_nobody(ctx: Context, firer: Unit, args: dict[str, Any]) -> None:
    """§8.6 at a position where nobody is: rolled and logged like any speculative shot
    (the firer's side learns no more than from a shot whose saves it cannot see)."""
    weapon = hits.unit_weapon(firer, ctx, args.get("weapon"))
    mode = args.get("mode") or fire.default_mode(weapon)
    need, dice = fire.base_shot(weapon, mode, args["range"])
    moved_cm, _rest = _moved_facts(firer)
    why = "" if hits.is_vehicle(firer) else may_fire_after(weapon, moved_cm, _fire_rule(firer))
    if why:
        raise Refused(why, rule="SPEC-1")
    hits.reveal(ctx, firer, M("fires"))
    hits.first_fire(ctx, firer.side)
    ctx.roll(
        M(
            "speculative fire with {weapon} at {target}, {cm} cm",
            weapon=_weapon_words(weapon, mode),
            target=M("a suspect position"),
            cm=args["range"],
        ),
        dice,
        step=dice_order.TO_HIT,
        target=need,
        rule="§8.6",
        unit=firer.id,
        outcome=lambda f: _hit_words(fire.hits(f, need)),
        check=ev.Each(face=need),  # §8.0: each die at the number is a hit
    )


def _react_fire(ctx: Context, args: dict[str, Any]) -> None:
    firer = ctx.unit(args["unit"])
    simultaneous = _struck_now(ctx, firer)
    if simultaneous:
        if firer.side != ctx.state.reacting_side:
            raise Refused(
                _("{firer} is on the active side; reactions are the reacting player's (§5.0)").format(firer=firer.name),
                rule="ACT-2",
            )
    else:
        hits.require_reacting(ctx, firer)
    targets = [ctx.unit(t) for t in args["targets"]]
    _reaction_gate(ctx, firer, simultaneous)
    weapon = hits.unit_weapon(firer, ctx, args.get("weapon"))
    if weapon.opportunity == "never":
        raise Refused(
            _("the {weapon} cannot fire by opportunity (§8.2)").format(weapon=_(weapon.name)), rule=("OPP-1", "OPP-3")
        )
    if weapon.opportunity == "once" and firer.has(Status.RPG_FIRED):
        raise Refused(
            _("{firer} has already fired his {weapon} by opportunity this turn (§8.2)").format(
                firer=firer.name, weapon=_(weapon.name)
            ),
            rule=("OPP-1", "OPP-3"),
        )
    if hits.is_helicopter(firer) and firer.has(Status.FIRED):
        # §8.4: the gunship "can fire once per turn", by opportunity as well (ART-6).
        raise Refused(
            _("{firer} has fired this turn: a helicopter gunship fires once a turn (§8.4)").format(firer=firer.name),
            rule=("ART-1", "ART-2"),
        )
    limit = fire_table().opportunity.men_within_cm
    if args["range"] > limit and not weapon.sniper and any(not hits.is_vehicle(t) for t in targets):
        raise Refused(
            _("opportunity fire at men reaches {limit} cm (not for snipers or at vehicles) (§8.2)").format(limit=limit),
            rule=("OPP-1", "OPP-3"),
        )
    _answers_the_latest_action(ctx, targets)
    sit = situation(ctx, args, reaction=True)
    hits.reveal(ctx, firer, M("fires"))
    _mark_reacted(ctx, ctx.unit(firer.id))
    if simultaneous:
        ctx.emit(
            ev.Noted(text=M("{unit} answers the fire that hit him: the shots are simultaneous (§8.2)", unit=firer.name))
        )
    crew = _crew(ctx, firer, args.get("crew"), sit.lone)
    if not _covering_test(ctx, ctx.unit(firer.id), args.get("area"), bool(args.get("bunker")), crew):
        return
    shoot(ctx, ctx.unit(firer.id), targets, sit)
    if weapon.opportunity == "once":
        hits.badge(ctx, ctx.unit(firer.id), "rpg-fired")
    if hits.is_helicopter(firer):
        hits.badge(ctx, ctx.unit(firer.id), "fired")


def _reaction_gate(ctx: Context, unit: Unit, simultaneous: bool = False) -> None:
    """§10.0: a suppressed figure cannot react (both drafts, ruling BN-C-SUPPRESSED-REACT),
    unless the fire he answers is what suppressed him (§8.2, simultaneous);
    §8.2: one reaction per enemy action."""
    if unit.has(Status.SUPPRESSED) and not unit.has(Status.RETREATING) and not simultaneous:
        # A man retreating after failed morale reacts as normal (§12.0).
        raise Refused(
            _("{unit} is suppressed and cannot react (§10.0)").format(unit=unit.name), rule=("SUP-2", "AMB-49")
        )
    action = hits.action_number(ctx.state)
    if action and unit_var(ctx.state, unit.id, "reacted") == action:
        raise Refused(
            _("{unit} has already reacted to this enemy action (§8.2)").format(unit=unit.name), rule=("OPP-1", "OPP-4")
        )


def _answers_the_latest_action(ctx: Context, targets: Sequence[Unit]) -> None:
    """§8.2: opportunity fire answers "any enemy model or unit that moves or fires": the
    men of the enemy's latest action this turn (a group's any member, and the men aboard a
    vehicle that moved or fired), none other."""
    actors = hits.action_actors(ctx.state)
    if actors is None:  # a save from before the actors were recorded: as it was then
        return
    if not actors:
        raise Refused(
            _("nothing to answer yet: opportunity fire answers an enemy who moves or fires (§8.2)"),
            rule=("OPP-2", "OPP-6"),
        )
    for t in targets:
        # §8.8: a man aboard moves with his vehicle, and is answered with it.
        if t.id not in actors and unit_var(ctx.state, t.id, "aboard", "") not in actors:
            said = _(
                "{target} did not move or fire in the enemy's latest action: "
                "opportunity fire answers those who did (§8.2)"
            )
            raise Refused(said.format(target=t.name), rule=("OPP-2", "OPP-6"))


def _mark_reacted(ctx: Context, unit: Unit) -> None:
    action = hits.action_number(ctx.state)
    if action:
        set_unit_var(ctx, unit, "reacted", action)


def covering_areas(ctx: Context) -> dict[str, int]:
    """The areas under covering fire this turn, with their uncapped totals (§8.3)."""
    text = str(var(ctx.state, "covering", ""))
    out: dict[str, int] = {}
    for part in text.split(";"):
        if "=" in part:
            name, _sep, value = part.partition("=")
            out[name] = int(value)
    return out


def _crew(ctx: Context, firer: Unit, words: str | None, lone: bool) -> list[Unit]:
    """The men who serve the firer's weapon with him (§8.3's "each miniature involved"):
    figures of his fire team, in play, not himself."""
    crew = hits.resolve_units(ctx, words, side=firer.side)
    if crew and lone:
        raise Refused(_("a weapon with one crew (lone) has no crew to name"), rule=TYPING)
    if crew:
        check_group([firer, *crew])
    for u in crew:
        hits.require_in_play(u)
    return crew


def _covering_test(ctx: Context, unit: Unit, area: str | None, bunker: bool, crew: Sequence[Unit] = ()) -> bool:
    """§8.3: a reacting figure in an area under covering fire rolls 2d6 (3d6 from a
    bunker); at or under the area's value it takes a hit first.  True if it may go on.
    The hit is saved by every man involved: he and the crew of his weapon, each once
    (the book's example of the MG in the bunker); a bunker is protection, +1 to the
    save (§9.0), and a man who saves there drops out of sight (§10.0)
    (ruling BN-C-COVERING-HIT)."""
    if not area:
        return True
    areas = covering_areas(ctx)
    if area not in areas:
        raise Refused(
            _("no covering fire on {area!r} this turn (areas: {areas})").format(
                area=area, areas=", ".join(areas) or _("none")
            ),
            rule=("OPP-7", "COV-5"),
        )
    value = min(covering().cap, areas[area])
    n = support.covering_dice(bunker)
    faces = ctx.roll(
        M("covering-fire test in {area}", area=area),
        n,
        step=dice_order.COVERING_TEST,
        target=value,
        total=True,
        under=True,  # §8.3: the covering fire hits at or under the area's value
        rule="§8.3",
        unit=unit.id,
        outcome=lambda f: M("hit before reacting") if support.covering_hit(f, value) else M("reacts"),
        check=ev.Sum(total=value, under=True),
    )
    if not support.covering_hit(faces, value):
        return True
    enemy = ctx.state.active_side
    with ctx.at_step(dice_order.COVERING_TEST):  # "and if hit its save": the test's own step
        survived = hits.take_hits(ctx, unit, 1, by_side=enemy, protected=bunker)
        for man in crew:
            hits.take_hits(ctx, ctx.unit(man.id), 1, by_side=enemy, protected=bunker)
    if unit.kind == Kind.VEHICLE:
        # §9.2: a vehicle immune to the hit, or that saves it, suffers "no effect"; §10.0's
        # suppression is a soldier's: it reacts as it meant to (ruling BN-C-COVERING-HIT).
        return ctx.unit(unit.id).in_play
    if survived:
        ctx.emit(ev.Noted(text=M("{unit} is pinned by the covering fire: his reaction is lost (§8.3)", unit=unit.name)))
    return False


def _covering(ctx: Context, args: dict[str, Any]) -> None:
    group = [ctx.unit(u) for u in args["units"]]
    words = str(args["range"]).replace("/", ",").split(",")
    ranges = tuple(distance(w.strip(), "range", 0, hits.MAX_CM) for w in words if w.strip())
    if len(ranges) not in (1, len(group)):
        raise Refused(_("give one range, or one per figure ({group})").format(group=len(group)), rule=TYPING)
    area = args["area"]
    firing: list[tuple[Unit, int | Decimal | Fraction]] = []
    for u in group:
        hits.require_active(ctx.state, u, "covering")
        # §5.0 d): covering fire "(you can also move up to 5cm)": after a move of 5 cm or
        # less, named covering or cautious, the covering fire makes it action d).
        moved_to_cover = hits.action_badge(u) in hits.MOVES_TO_COVER
        if hits.has_acted(u) and not moved_to_cover or u.has(Status.FIRED):
            raise Refused(_("{name} has already acted this turn").format(name=u.name), rule=("COV-1", "T-03"))
        # §6.1: an MMG or HMG that moved in its covering action cannot fire, covering fire included.
        why = may_fire_after(hits.unit_weapon(u, ctx, None), u.moved_cm, FireAllowed.PENALTY)
        if why and not hits.is_vehicle(u):
            raise Refused(why, rule=("MOV-3", "T-05"))
    for i, u in enumerate(group):
        if ready_to_act(ctx, u, args.get("leader")):
            firing.append((ctx.unit(u.id), ranges[0] if len(ranges) == 1 else ranges[i]))
    if not firing:
        return
    # §5.0 d): a covering move and its covering fire are one action, answered once (§8.2).
    same_action = hits.moved_to_fire(ctx.state, [u for u, _r in firing], hits.MOVES_TO_COVER)
    parts = []
    for u, r in firing:
        w = hits.unit_weapon(u, ctx, None)
        parts.append((w.id, r))
    # §8.3: one troop bonus per group; a group of mixed classes earns what each of its men
    # does, the smallest, whatever order they are named in (rulings BN-C-COVERING).
    teams: dict[str, int] = {}
    for u, _r in firing:
        t = hits.troop(u)
        bonus = t.covering if t else 0
        key = u.team or u.id
        teams[key] = min(teams.get(key, bonus), bonus)
    value, mods = support.covering_value(parts, teams.values())
    areas = covering_areas(ctx)
    raw = sum(m.value for m in mods)
    areas[area] = areas.get(area, 0) + raw
    for u, _r in firing:
        hits.reveal(ctx, u, M("fires"))
        hits.badge(ctx, ctx.unit(u.id), "covering", "fired")
    hits.first_fire(ctx, firing[0][0].side)
    capped = min(covering().cap, areas[area])
    set_var(ctx, "covering", ";".join(f"{k}={v}" for k, v in areas.items()))
    parts_text = listing([M("{label} {value}", label=m.label, value=m.value) for m in mods])
    ctx.emit(
        ev.Noted(
            text=M(
                "covering fire on {area}: {parts} → worth {value} (max {cap}, §8.3)",
                area=area,
                parts=parts_text,
                value=capped,
                cap=covering().cap,
            )
        )
    )
    if not same_action:
        hits.next_action(ctx, [u for u, _ in firing])


def _dodge(ctx: Context, args: dict[str, Any]) -> None:
    """§6.5: move up to 5 cm into cover; the next shot at him this turn is +1 (not a sniper's)."""
    unit = ctx.unit(args["unit"])
    hits.require_reacting(ctx, unit)
    hits.require_on_foot(ctx, unit)
    _reaction_gate(ctx, unit)
    cm = args["cm"]
    limit = allowances().dodge_cm
    if not 0 <= cm <= limit:
        raise Refused(
            _("a dodge moves {limit} cm at most, to cover within {limit} cm (§6.5)").format(limit=limit),
            rule=("MOV-6", "AMB-16"),
        )
    _mark_reacted(ctx, unit)
    if not _covering_test(ctx, unit, args.get("area"), bool(args.get("bunker"))):
        return
    if cm:
        ctx.emit(ev.Moved(unit=unit.id, cm=cm, how=M("dodges to cover")))
    hits.badge(ctx, unit, "dodging")


def _ground(ctx: Context, args: dict[str, Any]) -> None:
    """§6.5: no cover within 5 cm: he throws himself down and is suppressed (§10.0)."""
    unit = ctx.unit(args["unit"])
    hits.require_reacting(ctx, unit)
    hits.require_on_foot(ctx, unit)
    _reaction_gate(ctx, unit)
    _mark_reacted(ctx, unit)
    hits.badge(ctx, unit, "suppressed")
    ctx.emit(
        ev.Noted(
            text=M("{unit} goes to ground: suppressed, in cover against fire past 25 cm (§6.5, §10.0)", unit=unit.name)
        )
    )


BLAST_SOURCES = {
    # source: (save source, vehicle column, rule); a weapon's own is its `blast` in weapons.toml
    "grenade": (saves.NORMAL, "light", "§8.0.1"),
    "rpg": (saves.NORMAL, "light_at", "§8.0.1"),
    "launcher": (saves.NORMAL, "light_at", "§8.0.1"),
    "milan": (saves.NORMAL, "heavy_at", "§8.0.1"),
    "mortar": (saves.NORMAL, "light_at", "§8.5"),
    "tank": (saves.NORMAL, "heavy_at", "§8.0.1"),
    "bombardment": (saves.BOMBARDMENT, "heavy_at", "§8.4"),
    "ied": (saves.IED, "ied", "Extras: Explosives"),
}


def _blast(ctx: Context, args: dict[str, Any]) -> None:
    """Every figure under a template takes one hit (§8.0.1, §8.4, §8.5, IED)."""
    source, column, rule = BLAST_SOURCES[args["source"]]
    by = args.get("by") or (ctx.role if ctx.role in ctx.state.sides else "")
    victims = [ctx.unit(u) for u in args["units"]]
    for v in victims:
        _require_in_the_blast(ctx, v)
    seen = [v.name for v in victims if not v.has(Status.HIDDEN)]  # hidden men's own rolls stay private
    over = listing(seen, empty=M("no one in sight"))
    ctx.emit(ev.Noted(text=M("{source} template over {who} ({rule})", source=args["source"], who=over, rule=rule)))
    for v in victims:
        hits.take_hits(
            ctx, ctx.unit(v.id), 1, by_side=by, source=source, protected=bool(args.get("cover")), vehicle_column=column
        )


def _smoke(ctx: Context, args: dict[str, Any]) -> None:
    """§8.9: thrown like a grenade (or fired from a launcher); a miss lands 1 cm (3 cm
    from a launcher) per point off, where the opponent chooses."""
    unit = ctx.unit(args["unit"])
    # Thrown or fired as a grenade, smoke is the figure's fire: once, after a move that
    # leaves it to him (§5.0, §6.1), and with that move one action.
    firer_check(ctx.ruleset, ctx.state, unit)
    weapon = hits.unit_weapon(unit, ctx, args.get("weapon") or "GRENADE")
    if not weapon.smoke_step_cm:
        raise Refused(_("smoke is thrown by hand or fired from a grenade launcher (§8.9)"), rule=("SMK-1", "AMB-41"))
    why = may_fire_after(weapon, _moved_facts(unit)[0], _fire_rule(unit))
    if why:
        raise Refused(why, rule=("SMK-1", "AMB-41"))
    same_action = hits.moved_to_fire(ctx.state, [unit])
    if not ready_to_act(ctx, unit, args.get("leader")):
        return
    # §7.0: hidden troops "do not fire, otherwise they are automatically sighted".
    hits.reveal(ctx, ctx.unit(unit.id), M("fires"))
    need, _rest = fire.base_shot(weapon, fire.AIMED, args["range"])
    (face,) = ctx.roll(
        M("smoke from {weapon}, {cm} cm", weapon=M(weapon.name), cm=args["range"]),
        1,
        step=dice_order.SMOKE_PLACEMENT,
        target=need,
        rule="§8.9",
        unit=unit.id,
        outcome=lambda f: M("on the spot") if f[0] >= need else M("off the spot"),
        check=ev.AtLeast(face=need),  # §8.9: off the spot by how much it missed
    )
    off = fire.placement_offset(weapon.smoke_step_cm, need, face)
    where = M("on the spot") if not off else M("{cm} cm off, the opponent chooses the direction", cm=off)
    ctx.emit(ev.Noted(text=M("smoke (10 cm template) lands {where} (§8.9); it drifts next turn", where=where)))
    key = f"smoke.{ctx.state.turn}"
    set_var(ctx, key, int(var(ctx.state, key, 0)) + 1)
    hits.badge(ctx, ctx.unit(unit.id), "fired")
    if not same_action:
        hits.next_action(ctx, [unit])


# ------------------------------------------------------------------------ specs

_MODE = Param("mode", "choice", "aimed (single shot) or burst", optional=True, choices=("aimed", "burst"), keyword=True)
_RANGE = Param("range", "distance", "distance to the target in cm (or 10in)", keyword=True, hi=hits.MAX_CM)
_WEAPON = Param("weapon", "text", "which weapon (default: the first carried)", optional=True, keyword=True)
_COVER = Param("cover", "choice", "the target is behind cover", optional=True, choices=("cover",), keyword=True)
_SPLIT = Param("split", "text", "burst dice per target, e.g. 2,1", optional=True, keyword=True)
_LONE = Param("lone", "choice", "an MMG/HMG with one crew", optional=True, choices=("lone",), keyword=True)
_FLANK = Param("flank", "choice", "a tank hit in the side or rear", optional=True, choices=("flank",), keyword=True)
_LINE = Param("line", "text", "friendly figures or civilians in the line of fire", optional=True, keyword=True)
_ALSO = Param("also", "text", "other figures within the burst area of the target", optional=True, keyword=True)
#: What a shot at figures in sight states (§8.0–§8.2, §8.7).
_SHOT = (_RANGE, _MODE, _WEAPON, _COVER, _SPLIT, _LONE, _FLANK, _LINE, _ALSO)
#: A reacting or dodging figure inside a covering-fire area tests it first (§8.3).
_COVERING_AREA = Param(
    "area", "text", "the covering-fire area he is in (tests first, §8.3)", optional=True, keyword=True, prose=True
)

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "fire",
        "Fire at visible enemies: rolls to hit, then the saves of every hit; a suppressed firer tests first.",
        _fire,
        params=(
            Param("unit", "own", "the firer"),
            Param("targets", "enemy", "target(s), a burst may be split", many=True),
            *_SHOT,
            Param("with", "text", "other firers of the same fire team (group fire)", optional=True, keyword=True),
            LEADER,
        ),
        rule="§8.0–§8.1, §9.0",
        examples=(
            "fire rossi ahmed range=30 aimed",
            "fire bianchi ahmed bashir range=20 split=2,2 cover",
            "fire rossi ahmed range=30 with=conti,bianchi",
            "fire marino ahmed range=40 weapon=GL also=bashir",
            "fire ariete warsame range=30 weapon=TANKGUN also=kid",
        ),
        phases=("activation",),
        figure_check=firer_check,
        rolls=True,
        dice=(
            dice_order.SUPPRESSION,
            dice_order.TO_HIT,
            dice_order.MISSED_AREA_SHOT,
            dice_order.SAVES,
            dice_order.WOUND,
        ),
        known_elsewhere_as=("shoot",),  # the verb another game fires with
    ),
    CommandSpec(
        "speculative",
        "Speculative fire at a suspect position (§8.6): a player names the hidden figure's marker by its "
        "label (or no one: an empty position); the referee may name who is really there. Saves +2.",
        _speculative,
        params=(
            Param("unit", "unit", "the firer"),
            Param(
                "targets",
                "unit",
                "the marker's label, or the figures actually there (none: an empty position)",
                many=True,
                optional=True,
                markers=True,
            ),
            _RANGE,
            _MODE,
            _WEAPON,
            _COVER,
            _SPLIT,
            _LINE,
            _ALSO,
            Param(
                "permission",
                "choice",
                "roll for permission when the players disagree: 5+, 6 under Rules of Engagement",
                optional=True,
                choices=("permission",),
                keyword=True,
            ),
            LEADER,
        ),
        rule="§8.6",
        examples=(
            "speculative marino K7Q range=40 weapon=GL",
            "speculative bianchi range=45",
            "speculative marino dahir range=40",
        ),
        phases=("activation",),
        rolls=True,
        dice=(
            dice_order.PERMISSION,
            dice_order.SUPPRESSION,
            dice_order.TO_HIT,
            dice_order.MISSED_AREA_SHOT,
            dice_order.SAVES,
            dice_order.WOUND,
        ),
    ),
    CommandSpec(
        "react-fire",
        "Opportunity fire at an enemy who moves or fires (§8.2): within 50 cm of men, once per enemy action.",
        _react_fire,
        params=(
            Param("unit", "own", "the reacting firer"),
            Param("targets", "enemy", "target(s)", many=True),
            *_SHOT,
            _COVERING_AREA,
            Param(
                "bunker",
                "choice",
                "he fires from a bunker (3d6 covering test; +1 to the saves)",
                optional=True,
                choices=("bunker",),
                keyword=True,
            ),
            Param(
                "crew",
                "text",
                "the men serving his weapon with him: each saves a covering-fire hit (§8.3)",
                optional=True,
                keyword=True,
            ),
        ),
        rule="§8.2, §8.3",
        examples=(
            "react-fire egal rossi range=25 burst",
            "react-fire egal rossi range=25 area=market bunker crew=jama",
        ),
        phases=("activation",),
        aliases=("opfire",),
        rolls=True,
        dice=(
            dice_order.COVERING_TEST,
            dice_order.TO_HIT,
            dice_order.MISSED_AREA_SHOT,
            dice_order.SAVES,
            dice_order.WOUND,
        ),
    ),
    CommandSpec(
        "covering",
        "Covering fire on an area up to 15x15 cm within 50 cm (§8.3): its value tests enemy reactions there.",
        _covering,
        params=(
            Param("units", "own", "the covering figures", many=True),
            Param("area", "text", "a name for the area", keyword=True, prose=True),
            Param("range", "text", "distance in cm (one, or one per figure: 32,30.5)", keyword=True),
            LEADER,
        ),
        rule="§8.3",
        examples=("covering bianchi conti area=bunker range=32",),
        phases=("activation",),
        rolls=True,
        dice=(dice_order.SUPPRESSION,),
    ),
    CommandSpec(
        "react-dodge",
        "Dodge: move up to 5 cm into cover when fired at; the next shot at him this turn gets +1 (§6.5).",
        _dodge,
        params=(
            Param("unit", "own", "the dodging figure"),
            Param("cm", "distance", "how far he moves (0-5 cm)", optional=True, default=0, hi=5),
            _COVERING_AREA,
            Param("bunker", "choice", "in a bunker: 3d6, save +1", optional=True, choices=("bunker",), keyword=True),
        ),
        rule="§6.5",
        examples=("react-dodge ahmed 4",),
        phases=("activation",),
        aliases=("dodge",),
        rolls=True,
        dice=(dice_order.COVERING_TEST,),
    ),
    CommandSpec(
        "react-ground",
        "No cover within 5 cm: go to ground and be suppressed (§6.5).",
        _ground,
        params=(Param("unit", "own", "the figure"),),
        rule="§6.5, §10.0",
        examples=("react-ground ahmed",),
        phases=("activation",),
    ),
    CommandSpec(
        "blast",
        "One hit on each figure under a template: grenade, RPG, grenade launcher, Milan, mortar, tank gun, "
        "bombardment (3+, +2) or IED (3+).",
        _blast,
        params=(
            Param("units", "unit", "the figures under the template", many=True),
            Param("source", "choice", "what exploded", choices=tuple(BLAST_SOURCES), keyword=True),
            Param("by", "side", "the side that fired", optional=True, keyword=True),
            _COVER,
        ),
        rule="§8.0.1, §8.4, §8.5, §9.1",
        examples=(
            "blast ahmed bashir source=bombardment by=regulars",
            "blast rossi source=ied by=irregulars",
            "blast idris hirsi source=tank by=regulars",
        ),
        rolls=True,
        dice=(
            dice_order.BLAST_SAVES,
            dice_order.WOUND,
        ),
    ),
    CommandSpec(
        "smoke",
        "Throw smoke (or fire it from a grenade launcher): a 10 cm template that drifts next turn (§8.9).",
        _smoke,
        params=(Param("unit", "own", "the thrower"), _RANGE, _WEAPON, LEADER),
        rule="§8.9",
        examples=("smoke conti range=8", "smoke marino range=40 weapon=GL"),
        phases=("activation",),
        rolls=True,
        dice=(
            dice_order.SUPPRESSION,
            dice_order.SMOKE_PLACEMENT,
        ),
    ),
)
