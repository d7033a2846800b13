"""Direct fire (A.7, A.9): covering, opportunity and tier fire, each shot and what each
hit does at once (damage, HE burst or deviation; casualties.py), held to the golden rule."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from core.language.i18n import N_, M, Msg
from core.log import events as ev
from core.log.state import GameState, Unit
from core.log.views import unit_audience, unit_visible
from core.ruleset import MAX_DISTANCE_CM, TYPING, CommandSpec, Context, Param, Refused, Ruleset, flag
from core.rulesets.bassa_intensita import casualties, dice_order, rules
from core.rulesets.bassa_intensita.commands.common import (
    ISOLATED,
    LEAD,
    badges,
    carrier_of,
    fired_at,
    fires_wounded,
    he_terrain,
    isolated,
    light_of,
    passes_isolation,
    quality,
    reachable,
    ready,
    roll_under,
    weapons_listed,
    weapons_named,
)
from core.rulesets.bassa_intensita.phases import MOVE_PHASES, TIER_PHASES, activity, tier_of_phase
from core.rulesets.bassa_intensita.rules import damage, he
from core.rulesets.bassa_intensita.tables import (
    RUBBER,
    HitModifier,
    direct_fire_weapons,
    hit_modifiers,
    special,
    tier_by_id,
    vehicles,
)
from core.rulesets.bassa_intensita.terms import Kind, PhaseId, Status
from core.rulesets.bassa_intensita.words import _, pgettext, render, whose, word

#: BI-R232: a man in tear gas hits at half.
GASSED = HitModifier("gassed", "shooter", N_("in tear gas"), "", halves=True)
#: BI-R240: a stabilised vehicle firing after a short move.
STABILISED = HitModifier(
    "stabilised", "shooter", N_("firing on the move (stabilised)"), "", add=vehicles().stabilised_fire
)


# ---------------------------------------------------------------------------- fire


def _fire_kind(s: GameState, shooter: Unit) -> str:
    """Which fire this is, from the phase (A.5.1, A.7): covering fire is declared
    before movement; opportunity fire is the non-moving side's, at moving enemies;
    in the fire phase each Quality tier fires in turn (BI-R061)."""
    if s.phase == PhaseId.COVER:
        return "covering"
    if s.phase in MOVE_PHASES:
        if shooter.side != s.reacting_side:
            raise Refused(
                _("{shooter} cannot fire in his own side's movement (BI-R050)").format(shooter=shooter.name),
                rule="BI-R050",
            )
        return "opportunity"
    tier = tier_of_phase(s.phase)
    if shooter.cls != tier:
        name = tier_by_id()[shooter.cls].name if shooter.cls in tier_by_id() else "no"
        raise Refused(
            _("{shooter} has {quality} Quality and acts in his own tier, not now ({phase}; BI-R061)").format(
                shooter=shooter.name, quality=pgettext("term", name), phase=pgettext("phase", s.phase)
            ),
            rule="BI-R061",
        )
    return "normal"


def _carried(shooter: Unit, table: dict) -> list[str]:
    """The shooter's weapons of the direct-fire table (A.9), refusing a man with none."""
    carried = [w for w in shooter.weapons if w in table]
    if not carried:
        raise Refused(
            _("{shooter} carries no weapon of the direct-fire table").format(shooter=shooter.name),
            rule=("BI-R070", "BI-R075"),
        )
    return carried


def weapon_of(shooter: Unit, wanted: str | None):
    table = direct_fire_weapons()
    carried = _carried(shooter, table)
    if wanted is None:
        return table[carried[0]]
    # a weapon named whole is that weapon, though it begins another's name (rifle, rifle-grenade);
    # by its id or its name in any language (arma=lanciarazzi)
    hits = weapons_named(wanted, carried)
    if len(hits) != 1:
        raise Refused(
            _("{shooter} carries {weapons}").format(shooter=shooter.name, weapons=weapons_listed(carried)), rule=TYPING
        )
    return table[hits[0]]


def intact(shooter: Unit, weapon):
    """The weapon, unless the damage table destroyed it on his vehicle (BI-R140)."""
    if shooter.has(f"weapon-lost-{weapon.id}"):
        raise Refused(
            _("{owner} {weapon} is destroyed (BI-R140)").format(
                owner=render(whose(shooter.name)), weapon=render(word(weapon.name))
            ),
            rule="BI-R140",
        )
    return weapon


def loaded(shooter: Unit, weapon):
    """The weapon, unless its one crewman must reload it first (A.9.3 notes (5), (6); ruling
    BI-CREW): a burst at an area of an MG or LMG, or a recoilless gun's shot."""
    if shooter.has(Status.MUST_RELOAD) and weapon.lone_reload:
        raise Refused(
            _(
                "{owner} {weapon} has one crewman and must be reloaded before it fires again: reload {unit} (A.9.3)"
            ).format(owner=render(whose(shooter.name)), weapon=render(word(weapon.name)), unit=shooter.id),
            rule=("BI-WN5", "BI-R068"),
        )
    return weapon


def reload_due(ctx: Context, shooter: Unit, weapon, area: bool) -> None:
    """A.9.3 notes (5) and (6) (ruling BI-CREW): with one crewman an MG or LMG that fired at
    an area, or a recoilless gun that fired, must be reloaded before it fires again."""
    if not shooter.has(Status.ONE_CREW):
        return
    if (weapon.lone_reload == "area" and area) or (
        weapon.lone_reload == "recoilless" and "recoilless" in shooter.roles
    ):
        ctx.emit(ev.StatusChanged(unit=shooter.id, add=(Status.MUST_RELOAD,)))
        ctx.emit(
            ev.Noted(
                text=M(
                    "{unit} is alone at his weapon: he must reload before it fires again (A.9.3)", unit=shooter.name
                ),
                vis=unit_audience(shooter),
            )
        )


def as_emplaced(shooter: Unit, weapon):
    """A.9.3 notes (4) and (6): a weapon not mounted on a vehicle that must be emplaced
    cannot fire until it is (MG, AGL, guns); an unemplaced LMG fires as an assault rifle,
    its damage to a soft vehicle still a machine gun's."""
    if shooter.kind != Kind.MAN or shooter.has(Status.EMPLACED):
        return weapon
    if weapon.must_emplace:
        raise Refused(
            _("{owner} {weapon} must be emplaced before it fires: emplace {unit} (A.9.3)").format(
                owner=render(whose(shooter.name)), weapon=render(word(weapon.name)), unit=shooter.id
            ),
            rule=("BI-WN6", "BI-WN4"),
        )
    if weapon.unemplaced_as:
        # it fires as an assault rifle, and is still the machine gun that hit: +1 on a soft
        # vehicle, "se a sparare è stata una mitragliatrice" (BI-R121; ruling BI-EMPLACED)
        return replace(direct_fire_weapons()[weapon.unemplaced_as], vehicle_mod=weapon.vehicle_mod)
    return weapon


def shooter_check(ruleset: Ruleset, state: GameState, shooter: Unit) -> None:
    """What ``fire`` refuses of a shooter whatever else is typed: it is not his fire now
    (A.5.1, BI-R050, BI-R061), he has acted this turn or his wounds forbid it (BI-R030,
    BI-R110), or he carries no weapon of the direct-fire table (A.9).  Completion offers
    such men last (``CommandSpec.figure_check``)."""
    _fire_kind(state, shooter)
    ready(shooter, "fire", state.phase)
    _carried(shooter, direct_fire_weapons())


def _fire(ctx: Context, args: dict[str, Any]) -> None:
    """A.9.4/A.9.5: roll 1d10 under the hit chance for each shot; each hit goes on to
    its damage at once (A.12), an HE hit to its burst (A.10.3), an HE miss to its
    deviation (A.10.1).  Results take effect at once; a man of the tier now firing who
    has not acted yet still acts in it (ruling BI-TIER-RESULTS)."""
    shooter = ctx.unit(args["shooter"])
    targets = [ctx.unit(t) for t in args["targets"]]
    shooter_check(ctx.ruleset, ctx.state, shooter)
    kind = _fire_kind(ctx.state, shooter)
    weapon = as_emplaced(shooter, loaded(shooter, intact(shooter, weapon_of(shooter, args["weapon"]))))
    area = args["mode"] == "area"
    if area and not weapon.area:
        raise Refused(
            _("the {weapon} cannot fire at an area (BI-R072)").format(weapon=render(word(weapon.name))), rule="BI-R072"
        )
    if not area and len(targets) != 1:
        raise Refused(_("name one target, or fire at an area: area (BI-R071/R072)"), rule="BI-R071")
    for t in targets:
        if t.side == shooter.side or not t.in_play:
            raise Refused(_("{unit} is not an enemy in play").format(unit=t.name), rule=("BI-R070", "BI-R071"))
        if "helicopter" in t.roles and not t.has(Status.LANDED):
            raise Refused(
                _(
                    "{unit} is in the air: only anti-aircraft fire reaches it, aa (BI-R260; ruling BI-HELICOPTERS)"
                ).format(unit=t.name),
                rule="BI-R260",
            )
        if kind == "opportunity" and not _moving(ctx, t):
            raise Refused(
                _(
                    "{unit} is not moving: opportunity fire is at moving enemies, once their move is given (BI-R050)"
                ).format(unit=t.name),
                rule="BI-R050",
            )
        if not unit_visible(t, shooter.side):
            raise Refused(
                _("{unit} has not been observed by {side} (BI-R161)").format(
                    unit=t.name, side=ctx.state.side_name(shooter.side)
                ),
                rule="BI-R161",
            )
        reachable(ctx, t)  # a man inside a flying helicopter or inside armour (BI-R260, BI-OCCUPANTS)
    covers = covers_of(args["cover"], targets)
    dist = args["range"]
    band = rules.range_band(weapon, dist, area)
    if band is None:
        raise Refused(
            _("{dist} cm is out of range of the {weapon} (BI-R075)").format(
                dist=dist, weapon=render(word(weapon.name))
            ),
            rule="BI-R075",
        )
    night = rules.night_modifiers(args["night"] or light_of(ctx.state), intensifier_of(shooter, args), dist)
    if not passes_isolation(ctx, shooter, isolated(ctx, shooter, args)):
        return
    if not _sniper_fires(ctx, shooter):
        return
    shots(ctx, shooter, weapon, targets, covers, band=band, area=area, kind=kind, night=night, dist=dist, args=args)
    if weapon.automatic or weapon.he:
        fired_at(ctx, *(ctx.unit(t.id) for t in targets))
    badges(ctx, shooter, "fired", "shot-auto" if weapon.automatic else "shot-single")
    reload_due(ctx, shooter, weapon, area)


#: The ``cover`` a man in the open is given where each man of an area has his own.
OPEN = "open"


def covers_of(given: list[str], targets: list[Unit]) -> list[str]:
    """Each target's cover ("" in the open), in the order the targets are named: A.9.4's
    "BERSAGLIO" rows are each target's, and an area burst rolls at each man in the area
    (BI-R087) with his own.  One cover given is every target's (``cover=heavy``, ``heavy``);
    else one per target (``cover=heavy,open``)."""
    listed = list(given)
    if len(listed) == 1:
        listed *= len(targets)
    if listed and len(listed) != len(targets):
        raise Refused(
            _("{covers} covers for {targets} targets: give one cover for all, or one for each in order").format(
                covers=len(listed), targets=len(targets)
            ),
            rule=("BI-R087", "BI-AMB-22"),
        )
    return ["" if c == OPEN else c for c in listed] or [""] * len(targets)


def _moving(ctx: Context, t: Unit) -> bool:
    """BI-R050 (ruling BI-OPPORTUNITY): opportunity fire is "contro le unità nemiche in
    movimento": a unit whose move (or whose vehicle's) is in the log this turn, that can
    still be moving: not a seriously wounded man (BI-R110) nor an immobilised vehicle
    (BI-R120, BI-R140).  One that has not moved, fired, acted or balked is no target."""
    if t.has(Status.SERIOUSLY_WOUNDED) or t.has(Status.IMMOBILISED):
        return False
    carrier = carrier_of(ctx, t)
    return activity(t) in (Status.MOVED, Status.MOVED_STABILISED) or (carrier is not None and _moving(ctx, carrier))


def _sniper_fires(ctx: Context, shooter: Unit) -> bool:
    """BI-R210 (ruling BI-SNIPER-ROLL): a hidden sniper fires only on 1d6 of 1-2, 1-3 for a
    Veteran, 1-4 for an Elite; otherwise he holds his fire so as not to give himself away.
    One the enemy has seen is no longer hidden from it: he has nothing to give away."""
    enemy = ctx.state.other_side(shooter.side)
    if "sniper" not in shooter.roles or unit_visible(shooter, enemy):
        return True
    t = special().sniper
    need = t.fires_on + {"veteran": t.veteran, "elite": t.elite}.get(shooter.cls, 0)
    (face,) = ctx.roll(
        M("risking a shot"),
        1,
        step=dice_order.SNIPER_RISK,
        target=need,
        under=True,
        rule="BI-R210",
        unit=shooter.id,
        outcome=lambda f: M("he fires") if f[0] <= need else M("he holds his fire"),
        check=ev.AtLeast(face=need, under=True),  # BI-R210
    )
    if face <= need:
        return True
    badges(ctx, shooter, "fired", "held-fire")
    return False


def shots(
    ctx: Context,
    shooter: Unit,
    weapon,
    targets: list[Unit],
    covers: list[str],
    *,
    band: str,
    area: bool,
    kind: str,
    night: list[str],
    dist: int,
    args: dict[str, Any],
) -> None:
    """Each shot at each target, behind his own cover of ``covers`` (A.9.4, BI-R086/R087),
    and what each hit or HE miss does.  Rolls about a hidden target are shown only to
    those who may see it."""
    hit_text = M("hit: HE burst at the target (A.10)") if weapon.he else M("hit: roll damage (A.12)")
    miss_text = M("miss: the HE round deviates (A.10.1)") if weapon.he else M("miss")
    # A.9.3 notes (5) and (6): an MG, LMG or AGL with one crewman fires 1 shot at a single target
    lone = shooter.has(Status.ONE_CREW) and weapon.lone_shots
    per_target = 1 if area else weapon.lone_shots if lone else weapon.shots
    # Shot by shot: its to-hit die, then at once what it does, before the next (ruling BI-FIRE-DICE).
    with ctx.at_step((dice_order.SHOTS, dice_order.SCREENED_SHOTS)):
        for t, cover in zip(targets, covers, strict=True):
            chance, mods = _hit_chance(
                shooter, weapon, t, band=band, area=area, kind=kind, night=night, cover=cover, args=args
            )
            for shot in range(per_target):
                if not ctx.unit(t.id).in_play:
                    ctx.emit(
                        ev.Noted(
                            text=M(
                                "{unit} is down: {shot} of {shots} shots fired at him",
                                unit=t.name,
                                shot=shot,
                                shots=per_target,
                            ),
                            vis=unit_audience(t),
                        )
                    )
                    break
                hit = roll_under(
                    ctx,
                    M(
                        "fire with his {weapon} at {target} ({range})",
                        weapon=word(weapon.name),
                        target=t.name,
                        range=word(f"{band} range"),
                    ),
                    shooter,
                    chance,
                    mods,
                    "A.9.4",
                    hit_text,
                    miss_text,
                    vis=unit_audience(t),
                    step=dice_order.SHOTS,
                )
                if hit:
                    _on_hit(ctx, shooter, weapon, ctx.unit(t.id), args, cover=cover, covering=kind == "covering")
                elif weapon.he:
                    _deviate(ctx, shooter, weapon, dist)


def _hit_chance(
    shooter: Unit,
    weapon,
    t: Unit,
    *,
    band: str,
    area: bool,
    kind: str,
    night: list[str],
    cover: str,
    args: dict[str, Any],
) -> tuple[int, tuple[ev.Mod, ...]]:
    """The chance of each shot at ``t`` and its modifiers: the shooter's Quality and
    motivation (BI-R010, BI-R011), then the hit table's rows that apply (A.9.4)."""
    base = quality(shooter)
    table = hit_modifiers()
    aimed = shooter.has(Status.AIMED) or "sniper" in shooter.roles
    tier = tier_by_id()[shooter.cls]
    moved = next((m for m in ("cautious", "running") if t.has(m)), "")
    fired = next((b.removeprefix("shot-") for b in ("shot-single", "shot-auto") if t.has(b)), "")
    ids = rules.fire_modifier_ids(
        weapon,
        band,
        area=area,
        kind=kind,
        aimed=aimed,
        wounded=fires_wounded(shooter),
        target_move=moved,
        prone=bool(args["prone"]) or (t.has(Status.PRONE) and t.kind == Kind.MAN),
        cover=cover,
        night=night,
        target_fired=fired,
    )
    rows = [table[i] for i in ids]
    if shooter.has(Status.MOVED_STABILISED):
        rows.append(STABILISED)
    if shooter.has(Status.GASSED):
        rows.append(GASSED)
    chance, mods = rules.hit_chance(base, rows)
    quality_mods = [ev.Mod(M("{tier} Quality", tier=word(tier.name)), tier.chance, "BI-R010")]
    if base != tier.chance:
        quality_mods.append(ev.Mod(M("motivation"), base - tier.chance, "BI-R011"))
    return chance, (*quality_mods, *mods)


def _on_hit(
    ctx: Context, shooter: Unit, weapon, target: Unit, args: dict[str, Any], *, cover: str, covering: bool
) -> None:
    """What a hit does: damage to a man (A.12.1), an HE burst on him (BI-R093), or a
    hit on a vehicle (A.12.2-A.12.4), the target behind ``cover``.  ``covering``: covering fire, whose effects apply
    before the target can fire (BI-R053), so a man of the tier now firing does not keep
    his shot as under the tier's simultaneous fire (BI-R061; ruling BI-SHOCKED-TIME).
    Only covering fire at a feature is resolved in a tier (``screened``), and only by
    automatic weapons, never HE: a man's damage is the one path that needs it."""
    cause = M("{owner} {weapon}", owner=whose(shooter.name), weapon=word(weapon.name))
    under_fire = weapon.automatic or weapon.he
    if target.kind != Kind.MAN:
        pen = damage.penetration_row(weapon, shooter.stats.get("gun_mm", 0), "recoilless" in shooter.roles)
        casualties.vehicle_hit(
            ctx, target, weapon, cause, pen_row=pen, flank=bool(args["flank"]), under_fire=under_fire
        )
        if weapon.he:  # the men around the vehicle are in the burst (ruling BI-HE-VEHICLES)
            _burst_note(ctx, he.area_of(weapon, shooter.stats.get("gun_mm", 0)))
        return
    if weapon.he:
        area = he.area_of(weapon, shooter.stats.get("gun_mm", 0))
        casualties.he_burst(ctx, target, cause, zone="short", terrain=he_terrain(cover), big=area.big)
        _burst_note(ctx, area)
        return
    casualties.infantry_hit(
        ctx,
        target,
        cause,
        sniper="sniper" in shooter.roles,
        under_fire=under_fire,
        rubber=weapon.id == RUBBER,
        grace=not covering,
        cover=cover,
    )


def _burst_note(ctx: Context, area) -> None:
    ctx.emit(
        ev.Noted(
            text=M(
                "the burst reaches {short} cm (short) and {long} cm (long): burst each other man there",
                short=area.short,
                long=area.long,
            )
        )
    )


def _deviate(ctx: Context, shooter: Unit, weapon, dist: int) -> None:
    """A.10.1: where a direct HE round that missed lands (1d10, ruling BI-HE-D10)."""

    def outcome(faces: tuple[int, ...]) -> Msg:
        way, pct = he.deviation(faces[0])
        if not way:
            return M("a dud or an air burst: no effect")
        return M(
            "lands {cm} cm {way} of the target ({pct}% of {dist} cm)",
            cm=he.deviation_cm(pct, dist),
            way=word(way),
            pct=pct,
            dist=dist,
        )

    (face,) = ctx.roll(
        M("landing of the {weapon} round", weapon=word(weapon.name)),
        1,
        step=dice_order.SHOTS,
        sides=rules.D10,
        rule="A.10.1",
        unit=shooter.id,
        outcome=outcome,
        check=ev.Read(),
    )
    if he.deviation(face)[0]:
        area = he.area_of(weapon, shooter.stats.get("gun_mm", 0))
        ctx.emit(
            ev.Noted(
                text=M(
                    "it bursts there: burst each man within {short} cm (short) or {long} cm (long)",
                    short=area.short,
                    long=area.long,
                )
            )
        )


def intensifier_of(shooter: Unit, args: dict[str, Any]) -> str:
    """A.9.4 (BI-R084): the image intensifier the shooter fires with: "", portable, or
    the vehicle's ("Intensificatore luminescenza veicolo"), which only a vehicle has."""
    aid = args["intensifier"] or ""
    if aid == "vehicle" and shooter.kind == Kind.MAN:
        raise Refused(
            _(
                "{unit} is on foot: a vehicle's image intensifier is not his; a portable one reaches 100 cm (BI-R084)"
            ).format(unit=shooter.name),
            rule="BI-R084",
        )
    return aid


#: A.9.4: the image intensifier a shooter fires with at night (max 100 or 200 cm, +1).
INTENSIFIER = Param(
    "intensifier",
    "choice",
    "image intensifier at night",
    optional=True,
    choices=("portable", "vehicle"),
    keyword=True,
)

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "fire",
        "Direct fire: 1d10 under the shooter's Quality, modified, per shot (covering, opportunity or tier fire); "
        "each hit goes on to its damage. Dice, shot by shot: the hit, then before the next shot, for a hit on a man "
        "the damage 1d10 (HE: 1d10 to be caught by the burst first) and any death-clock 1d6, on a vehicle "
        "penetration 1d10 then damage 1d10; for an HE miss 1d10 deviation.",
        _fire,
        params=(
            Param("shooter", "own"),
            Param("targets", "enemy", "one target, or every figure in the area", many=True),
            Param("range", "distance", "distance in cm", keyword=True, hi=MAX_DISTANCE_CM),
            Param("weapon", "text", "which of his weapons (default: the first)", optional=True, keyword=True),
            Param("mode", "choice", optional=True, default="single", choices=("single", "area"), keyword=True),
            flag("prone", "the target lies down"),
            Param(
                "cover",
                "choice",
                "the target's cover; at an area one for all, or one for each target in order (cover=heavy,open)",
                optional=True,
                choices=("light", "heavy", "trench", OPEN),
                keyword=True,
                many=True,
            ),
            flag("flank", "a vehicle hit on the flank or rear"),
            Param(
                "night",
                "choice",
                "the light (default: the scenario's)",
                optional=True,
                choices=("day", "moon", "dark"),
                keyword=True,
            ),
            INTENSIFIER,
            ISOLATED,
            LEAD,
        ),
        rule="A.9.4",
        examples=(
            "fire marra omar range=25",
            "fire sanna omar yusuf range=40 area",
            "fire sanna omar yusuf range=40 area cover=heavy,open",
            "fire ferrante omar range=80 heavy",
            "fire farah puma range=30 weapon=rpg flank",
        ),
        phases=("cover", *MOVE_PHASES, *TIER_PHASES),
        figure_check=shooter_check,
        rolls=True,
        dice=(dice_order.ISOLATION, dice_order.SNIPER_RISK, dice_order.SHOTS),
        known_elsewhere_as=("shoot",),  # the verb another game fires with
    ),
)
