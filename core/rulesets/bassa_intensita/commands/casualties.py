"""Commands about casualties: dressing a wound (BI-R110), a man caught in an HE burst
(A.10.2-A.10.3) and a hit the referee resolves by hand (A.12: mines, covering fire at a
terrain feature, anything no other command rolls)."""

from __future__ import annotations

from typing import Any

from core.language.i18n import M
from core.log import events as ev
from core.log.views import REFEREE_ONLY
from core.ruleset import MAX_DISTANCE_CM, TYPING, CommandSpec, Context, Param, Refused, flag
from core.rulesets.bassa_intensita import casualties, dice_order, rules
from core.rulesets.bassa_intensita.commands.common import (
    fired_at,
    he_terrain,
    in_own_tier,
    isolated,
    passes_isolation,
    quality,
    reachable,
    ready,
    roll_under,
    weapons_named,
)
from core.rulesets.bassa_intensita.phases import TIER_PHASES
from core.rulesets.bassa_intensita.rules import damage, he
from core.rulesets.bassa_intensita.tables import RUBBER, direct_fire_weapons, high_explosive, weapons
from core.rulesets.bassa_intensita.terms import Kind, Status
from core.rulesets.bassa_intensita.words import _, typed, typed_names, typed_term, whose, word

#: Sources of HE that are not direct-fire weapons: mortar and artillery rounds by calibre.
SOURCES = tuple(a.id for a in high_explosive().areas)
BOMBS = ("bomb-ap", "bomb-at", "bomb-napalm")
#: What a burst may name besides an HE weapon (A.10.2's rows, an aircraft's bombs, BI-R251),
#: typed by its id or its name in any language, as a weapon is (``cannone-102``, #61).
BURST_SOURCES = (*SOURCES, *BOMBS)


#: A.12.3: mortars and artillery of this calibre or more penetrate on the ">106mm" row.
ARTILLERY_BIG_MM = 106


def _dress(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R110 (ruling BI-DRESS, digest BI-AMB-36): a man in contact dresses a seriously
    wounded friend as a Normal action (harder if he is wounded himself); from then on
    the patient counts as Wounded and his death clock stops."""
    medic = ctx.unit(args["medic"])
    patient = ctx.unit(args["patient"])
    if patient.side != medic.side or patient.id == medic.id:
        raise Refused(_("a man dresses a friend's wound, not his own"), rule=("BI-R113", "BI-AMB-36"))
    if not patient.in_play or not patient.has(Status.SERIOUSLY_WOUNDED):
        raise Refused(
            _("{patient} is not seriously wounded: nothing to dress (BI-R110)").format(patient=patient.name),
            rule="BI-R110",
        )
    in_own_tier(ctx, medic)
    ready(medic, "act")
    difficulty = rules.shift_difficulty("normal", 1) if medic.has(Status.WOUNDED) else "normal"
    chance = rules.action_chance(quality(medic), difficulty)
    if chance <= 0:
        raise Refused(
            _("{medic} is wounded: dressing is beyond him (BI-R069)").format(medic=medic.name), rule="BI-R069"
        )
    if not passes_isolation(ctx, medic, isolated(ctx, medic, args)):
        return
    ctx.emit(ev.StatusChanged(unit=medic.id, add=("acted",)))
    dressing = M("dressing {owner} wound ({difficulty})", owner=whose(patient.name), difficulty=word(difficulty))
    dressed = M("dressed: he counts as wounded")
    if roll_under(ctx, dressing, medic, chance, (), "BI-R066", dressed, M("not yet"), step=dice_order.DRESSING):
        ctx.emit(ev.StatusChanged(unit=patient.id, add=("wounded",), remove=("seriously-wounded",)))
        ctx.emit(ev.VarSet(key=f"secret.dies.{patient.id}", value=0, vis=REFEREE_ONLY))


def _burst(ctx: Context, args: dict[str, Any]) -> None:
    """A.10.2/A.10.3: one man (or vehicle) within an HE burst rolls to be hit, then
    damage.  The referee names the source (a direct-fire HE weapon, or a gun/mortar row
    of A.10.2 for indirect fire) and either the zone (short or long) or the man's
    distance from the burst, which the area's radii turn into the zone (BI-R091)."""
    unit = ctx.unit(args["unit"])
    if not unit.in_play:
        raise Refused(_("{unit} is out of action").format(unit=unit.name), rule=("BI-R110", "BI-R030"))
    reachable(ctx, unit)
    source = args["source"].lower()
    table = weapons()
    areas = {a.id: a for a in high_explosive().areas}
    source = next((c for c in BURST_SOURCES if typed(source) in typed_names(c)), source)
    if source not in areas and source not in BOMBS:  # an HE weapon by its id or its name in any language
        hits = weapons_named(source, [w for w in table if table[w].he], begun=False)
        source = hits[0] if len(hits) == 1 else source
    weapon = table.get(source)
    if weapon is not None and weapon.he:
        area = he.area_of(weapon)
        pen = weapon.penetration
    elif source in areas:
        area = areas[source]
        weapon = None
        # A.12.3 "Mortaio/artiglieria <106mm" and ">106mm" by the row's calibre (ruling BI-CALIBRE)
        pen = "artillery-105" if area.max_mm < ARTILLERY_BIG_MM else "artillery-106"
    elif source in BOMBS:
        if args["cm"] is not None:
            raise Refused(_("a bombing's area is the attack's (BI-R251): name the zone, short or long"), rule="BI-R251")
        # BI-R251/R252 (ruling BI-BOMBS): no +1 for calibre; bombs penetrate as artillery
        # over 106 mm with the -4 of indirect fire; AP bombs halve it, AT bombs halve the chance against men
        fired_at(ctx, unit)
        casualties.he_burst(
            ctx,
            unit,
            M("{bomb} bombs", bomb=source.removeprefix("bomb-")),
            zone=args["zone"],
            terrain=he_terrain(args["cover"]),
            big=False,
            pen_row="artillery-106",
            indirect=True,
            halve=source == "bomb-at" and unit.kind == Kind.MAN,
            halve_pen=source == "bomb-ap",
        )
        return
    else:
        he_weapons = [w for w in table if table[w].he]
        # each as the referee types it in his language (#61); a weapon and its row may share a name
        listed = ", ".join(dict.fromkeys(typed_term(s) for s in (*he_weapons, *areas, *BOMBS)))
        raise Refused(_("no HE source {source}: {sources}").format(source=repr(source), sources=listed), rule=TYPING)
    zone = args["zone"]
    if args["cm"] is not None:
        # BI-R091: within the short distance "short", within the long one "long", beyond it
        # untouched; both limits inclusive (digest BI-AMB-06)
        zone = he.zone(area, args["cm"])
        if not zone:
            raise Refused(
                _("{unit} is {cm} cm from the burst, beyond its {long} cm: untouched (BI-R091)").format(
                    unit=unit.name, cm=args["cm"], long=area.long
                ),
                rule="BI-R091",
            )
    terrain = he_terrain(args["cover"])
    cause = M("a {what} burst", what=word(weapon.name) if weapon else area.it)
    indirect = bool(args["indirect"])
    fired_at(ctx, unit)
    casualties.he_burst(
        ctx,
        unit,
        cause,
        zone=zone,
        terrain=terrain,
        big=area.big,
        weapon=weapon,
        pen_row=pen,
        indirect=indirect,
        halve=bool(args["antitank"]) and unit.kind == Kind.MAN,
        # BI-R121: a gun's or a mortar's round gives +4 on the unarmoured table, as a gun does
        source_mod="" if weapon else "gun-mortar",
    )


def _hit(ctx: Context, args: dict[str, Any]) -> None:
    """A.12: the referee resolves a hit no command rolled (a mine, covering fire at a
    feature, rubber bullets...): damage to a man, or a hit on a vehicle by ``weapon``."""
    unit = ctx.unit(args["unit"])
    if not unit.in_play:
        raise Refused(_("{unit} is out of action").format(unit=unit.name), rule="BI-R110")
    reachable(ctx, unit)
    source = (args["weapon"] or "").lower()
    # an AT mine or grenade by its id or its name in any language (mina-anticarro: #61)
    source = next((p for p in damage.PEN_ONLY if typed(source) in typed_names(p)), source)
    table = direct_fire_weapons()  # rubber bullets too (BI-R230)
    if source and source not in damage.PEN_ONLY:
        hits = weapons_named(source, table, begun=False)  # by its id or its name in any language
        if len(hits) != 1:
            raise Refused(_("no weapon {source} in the tables").format(source=repr(source)), rule=TYPING)
        source = hits[0]
    weapon = table.get(source) if source else None
    cause = args["cause"] or (word(weapon.name) if weapon else source or M("a hit"))
    # A.13.2 (digest BI-AMB-41): the check a hit asks for is "under HE or automatic fire"
    # only when the weapon fires HE or automatic; an AT mine or grenade explodes
    under_fire = bool(weapon.he or weapon.automatic) if weapon else source in damage.PEN_ONLY
    if unit.kind == Kind.MAN:
        casualties.infantry_hit(
            ctx,
            unit,
            cause,
            sniper=bool(args["sniper"]),
            under_fire=under_fire,
            rubber=weapon is not None and weapon.id == RUBBER,
        )
        return
    pen = damage.PEN_ONLY.get(source, weapon.penetration if weapon else "")
    casualties.vehicle_hit(
        ctx,
        unit,
        weapon,
        cause,
        pen_row=pen,
        flank=bool(args["flank"]),
        indirect=bool(args["indirect"]),
        under_fire=under_fire,
    )


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "dress",
        "Dress a seriously wounded friend in contact (a Normal action, Difficult if the medic is wounded): "
        "he then counts as wounded. Dice: 1d10 under the medic's chance.",
        _dress,
        params=(Param("medic", "own"), Param("patient", "own"), flag("isolated", "beyond command distance")),
        rule="BI-R110",
        examples=("dress marra deiana",),
        phases=TIER_PHASES,
        rolls=True,
        dice=(dice_order.ISOLATION, dice_order.DRESSING),
    ),
    CommandSpec(
        "burst",
        "A man or vehicle within an HE burst: 1d10 under the chance for his terrain and zone, then damage. "
        "Source: an HE weapon (rpg, hand-grenade...), a gun/mortar row (gun-59 ... gun-big) or bombs "
        "(bomb-ap, bomb-at, bomb-napalm). "
        "Dice: 1d10 to be hit, then the damage dice.",
        _burst,
        params=(
            Param("unit", "unit"),
            Param("source", "text", "the HE weapon or gun/mortar row", keyword=True),
            Param(
                "zone", "choice", "distance from the burst", optional=True, default="short", choices=("short", "long")
            ),
            Param(
                "cm",
                "distance",
                "his distance from the burst in cm, instead of the zone (BI-R091)",
                optional=True,
                keyword=True,
                hi=MAX_DISTANCE_CM,
            ),
            Param("cover", "choice", "his cover", optional=True, choices=("light", "heavy", "trench"), keyword=True),
            flag("indirect", "mortar or artillery firing indirectly (-4 on armour damage)"),
            flag("antitank", "an anti-tank bomb: half the chance against men (BI-R252)"),
        ),
        rule="A.10.3",
        examples=(
            "burst karim source=rpg long",
            "burst karim source=rpg cm=5",
            "burst omar source=gun-102 short cover=trench indirect",
        ),
        who="referee",
        rolls=True,
        dice=(
            dice_order.BURST_CATCH,
            dice_order.DAMAGE,
        ),
    ),
    CommandSpec(
        "hit",
        "Resolve a hit by hand (mines, covering fire at a feature...): damage to a man, or penetration "
        "and damage to a vehicle by the weapon named. Dice: penetration 1d10 (armour), then damage 1d10.",
        _hit,
        params=(
            Param("unit", "unit"),
            Param(
                "weapon",
                "text",
                "the weapon (rubber: rubber bullets), or at-mine / at-grenade",
                optional=True,
                keyword=True,
            ),
            flag("flank", "hit on the flank or rear (+2 to penetrate)"),
            flag("indirect", "mortar or artillery firing indirectly"),
            flag("sniper", "shot by a sniper (+1)"),
            Param("cause", "text", "what hit him", optional=True, prose=True),
        ),
        rule="A.12",
        examples=("hit karim booby trap", "hit truck weapon=at-mine"),
        who="referee",
        rolls=True,
        dice=(dice_order.DAMAGE,),
    ),
)
