"""What a hit does (A.12) and the morale checks it makes due (A.13.1), as facts.

Badges a hit can leave on a man: ``wounded``, ``seriously-wounded`` (his death clock is
the referee's ``secret.dies.<id>``: the turn at whose end he dies undressed), ``shocked``
(with ``shocked-now`` in the turn it happened; ruling BI-SHOCKED-TIME), ``prone``.
On a vehicle: ``slowed`` / ``slowed-twice``, ``immobilised``, ``radio-out``,
``turret-jammed``, ``weapon-lost-<id>``, ``damaged`` (for the morale −2 of an
undamaged armoured vehicle, BI-R183).  A check that is due: ``morale-due``, with
``morale-fire`` (under HE or automatic fire) and ``morale-table-2`` / ``morale-table-1``
(what the result table takes off the chance).
A man hit in his own fire tier before he acted gets ``struck`` (``struck-wounded``
if he was already wounded): he still acts in that tier as he was (ruling BI-TIER-RESULTS).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.language.i18n import N_, M, Msg, Text
from core.log import events as ev
from core.log.state import Unit
from core.log.views import REFEREE_ONLY, unit_audience
from core.ruleset import Context
from core.rulesets.bassa_intensita import dice_order, rules, squads
from core.rulesets.bassa_intensita.phases import activity, tier_of_phase
from core.rulesets.bassa_intensita.rules import damage, he
from core.rulesets.bassa_intensita.squads import is_leader, team_of
from core.rulesets.bassa_intensita.tables import Weapon, morale, special
from core.rulesets.bassa_intensita.terms import Kind, ManHit, Status
from core.rulesets.bassa_intensita.words import whose, word

TRIGGERS = {t.id: t for t in morale().triggers}
#: The badges of a morale check that is due.
#: ``morale-cover-*``: the cover the fire line that made it due gave the man, taken by
#: ``next`` without asking it again (A.13.2 BI-R181).
COVERS = ("light", "heavy", "trench")
DUE = ("morale-due", "morale-fire", "morale-table-2", "morale-table-1", *(f"morale-cover-{c}" for c in COVERS))
#: The badges of this ruleset a referee may give or take away by hand (``mark`` / ``clear``).
BADGES = (
    "seriously-wounded",
    "shocked",
    "prone",
    "morale-due",
    "slowed",
    "slowed-twice",
    "immobilised",
    "radio-out",
    "turret-jammed",
    "damaged",
    "combat-vehicle",
    "leader",
    "landed",
    "rotor-damaged",
    "gassed",
    "on-road",
    "one-crew",
    "must-reload",
)
#: Rolls whose success strikes the unit they name (``BassaIntensita.success_hurts_unit``).
PENETRATION = M("armour penetration")
CAUGHT_BY_HE = M("whether the HE catches him")
HIT_ABOARD = M("hit aboard")
#: Causes of losses that ``ending.losses`` counts together, whatever killed them.
KILLED_BY = N_("killed by {cause}")
DESTROYED_BY = N_("destroyed by {cause}")
DIED_OF_WOUNDS = M("died of his wounds, not dressed in time")
ABANDONED = M("abandoned by its crew, who panic (BI-R182)")
#: The heavy weapons a man who panics for want of an enemy to surrender to leaves behind
#: (BI-R182); the book's examples of one are "mitragliatrice, mortaio, cannone senza
#: rinculo" (A.8.1): machine guns and guns of any use, the AA machine gun, autocannon and
#: heavy missile among them (ruling BI-HEAVY-WEAPONS); not a shoulder-launched missile.
HEAVY_WEAPONS = (
    "mg",
    "lmg",
    "agl",
    "atgm",
    "gun-77",
    "gun-103",
    "gun-heavy",
    "autocannon",
    "aa-mg",
    "aa-cannon",
    "aa-missile",
)


def aboard(state, vehicle: Unit) -> list[Unit]:
    """The men carried by ``vehicle`` (badge ``aboard-<vehicle id>``)."""
    return [u for u in state.units.values() if u.in_play and u.has(f"aboard-{vehicle.id}")]


def badges(ctx: Context, unit: Unit, add: tuple[str, ...] = (), remove: tuple[str, ...] = ()) -> None:
    add = tuple(b for b in add if not unit.has(b))
    remove = tuple(b for b in remove if unit.has(b))
    if add or remove:
        ctx.emit(ev.StatusChanged(unit=unit.id, add=add, remove=remove))


def _grace(ctx: Context, unit: Unit) -> None:
    """BI-R061: a man of the tier now firing who has not acted yet still acts in it."""
    if unit.has(Status.SERIOUSLY_WOUNDED) or unit.has(Status.SHOCKED) or not unit.in_play:
        return  # he could not act before the hit either
    if unit.kind == Kind.MAN and unit.cls == tier_of_phase(ctx.state.phase) and not activity(unit):
        badges(ctx, unit, ("struck-wounded",) if unit.has(Status.WOUNDED) else ("struck",))


# ---------------------------------------------------------------- morale checks due


def morale_due(
    ctx: Context, unit: Unit, trigger: str, *, under_fire: bool = False, table_mod: int = 0, cover: str = ""
) -> None:
    """A check falls due (A.13.1).  One event gives one check per man; two at once
    keep the worse modifiers (ruling BI-MORALE-ONCE, digest BI-AMB-40).  ``cover``:
    the man's cover as the fire line gave it (BI-R181), kept for the check."""
    if not unit.in_play or unit.has(Status.SERIOUSLY_WOUNDED):
        return
    add = ["morale-due"]
    if under_fire:
        add.append("morale-fire")
    if table_mod:
        add.append(f"morale-table{table_mod}")
    if cover in COVERS and not any(unit.has(f"morale-cover-{c}") for c in COVERS):
        add.append(f"morale-cover-{cover}")
    fresh = not unit.has(Status.MORALE_DUE)
    badges(ctx, unit, tuple(add))
    if fresh:
        ctx.emit(
            ev.Noted(
                text=M(
                    "{unit} must check morale: {why} ({trigger}, A.13.1)",
                    unit=unit.name,
                    why=word(TRIGGERS[trigger].label),
                    trigger=trigger.upper(),
                ),
                vis=unit_audience(unit),
            )
        )


def losses_felt(
    ctx: Context, unit: Unit, killed: bool, wounded: bool, under_fire: bool, commanding: bool | None = None
) -> None:
    """M5: a man of the squad killed; M6: the squad's leader (the one commanding it when
    he was hit) killed or wounded."""
    mates = [u for u in team_of(ctx.state, unit) if u.in_play]
    if commanding is None:
        commanding = is_leader(unit)
    if commanding and (killed or wounded):
        for u in mates:
            morale_due(ctx, u, "m6", under_fire=under_fire)
    elif killed:
        for u in mates:
            morale_due(ctx, u, "m5", under_fire=under_fire)
    standing = [u for u in mates if not u.has(Status.WOUNDED) and not u.has(Status.SERIOUSLY_WOUNDED)]
    if unit.team and not standing:
        # M2 needs sight and distance: the referee calls it
        ctx.emit(
            ev.Noted(
                text=M(
                    "squad {team} is all killed or wounded: friends who saw it within 20 cm check "
                    "morale (M2): morale UNIT m2",
                    team=unit.team,
                ),
                vis=unit_audience(unit),
            )
        )


# ----------------------------------------------------------------------- infantry


def wound(
    ctx: Context,
    unit: Unit,
    result: str,
    cause: Text,
    *,
    under_fire: bool,
    morale_check: bool,
    grace: bool = True,
    cover: str = "",
) -> None:
    """Apply an infantry result (BI-R110, ruling BI-SECOND-WOUND) and what follows it.
    ``grace``: the hit is of the tier's simultaneous fire (BI-R061), not fire resolved
    before he could fire (covering fire, BI-R053); ``cover``: his, as the fire line said."""
    before = ""
    if unit.has(Status.SERIOUSLY_WOUNDED):
        before = ManHit.SERIOUSLY_WOUNDED
    elif unit.has(Status.WOUNDED):
        before = ManHit.WOUNDED
    after = damage.wound_after(before, result)
    commanding = squads.commands(ctx.state, unit)
    if grace:
        _grace(ctx, unit)
    if after == ManHit.DEAD:
        ctx.emit(ev.UnitOut(unit=unit.id, cause=M(KILLED_BY, cause=cause)))
        badges(ctx, unit, remove=DUE)
        losses_felt(ctx, unit, killed=True, wounded=False, under_fire=under_fire, commanding=commanding)
        return
    if after == ManHit.SERIOUSLY_WOUNDED and before != after:
        badges(ctx, unit, ("seriously-wounded", "prone"), ("wounded", *DUE))
        turns = dying_clock(ctx, unit)
        ctx.emit(
            ev.Noted(
                text=M(
                    "{unit} is seriously wounded: he dies at the end of turn {turn} unless dressed",
                    unit=unit.name,
                    turn=turns,
                ),
                vis=REFEREE_ONLY,
            )
        )
        losses_felt(ctx, unit, killed=False, wounded=True, under_fire=under_fire, commanding=commanding)
        return
    if after == ManHit.WOUNDED and before != after:
        badges(ctx, unit, ("wounded",))
        losses_felt(ctx, unit, killed=False, wounded=True, under_fire=under_fire, commanding=commanding)
    if result == ManHit.SHOCKED:
        shock(ctx, unit)
    if morale_check:
        morale_due(ctx, unit, "m7", under_fire=under_fire, cover=cover)


def dying_clock(ctx: Context, unit: Unit) -> int:
    """BI-R110/R113: he dies if not dressed within 1d6 turns, counted from this one."""
    (face,) = ctx.roll(
        M("turns he lives undressed"),
        1,
        step=dice_order.DAMAGE,
        rule="BI-R110",
        unit=unit.id,
        vis=REFEREE_ONLY,  # the referee's secret clock (ruling BI-DRESS)
        outcome=lambda f: M("{n} turns", n=f[0]),
        check=ev.Read(),
    )
    turn = ctx.state.turn + face
    ctx.emit(ev.VarSet(key=f"secret.dies.{unit.id}", value=turn, vis=REFEREE_ONLY))
    return turn


def shock(ctx: Context, unit: Unit) -> None:
    """Shocked: to the ground (infantry) and no move towards the enemy, fire or action
    until the end of the next turn (ruling BI-SHOCKED-TIME)."""
    prone = ("prone",) if unit.kind == Kind.MAN else ()
    badges(ctx, unit, ("shocked", "shocked-now", *prone))


def infantry_hit(
    ctx: Context,
    unit: Unit,
    cause: Text,
    *,
    sniper: bool = False,
    under_fire: bool = False,
    rubber: bool = False,
    grace: bool = True,
    cover: str = "",
) -> str:
    """Roll 1d10 on the infantry damage table (A.12.1) and apply it; returns the row id.

    ``rubber``: non-lethal rounds (BI-R230): Wounded and Seriously wounded count as
    Shocked, Dead as Wounded.  ``grace``, ``cover``: as for :func:`wound`.
    """
    mods = tuple(
        ev.Mod(word(m.label), m.add, "BI-R111")
        for m in (damage.damage().mods("infantry")[i] for i in damage.infantry_mod_ids(unit, sniper))
    )

    row = _damage_row(ctx, unit, mods, "A.12.1", damage.infantry_result, natural=10)
    result = row.id
    if rubber:  # BI-R230: one row milder
        nl = special().nonlethal
        milder = {
            "wounded": nl.rubber_wounded,
            "seriously-wounded": nl.rubber_seriously_wounded,
            "dead": nl.rubber_dead,
        }
        result = milder.get(result, result)
    wound(ctx, unit, result, cause, under_fire=under_fire, morale_check=_asks_morale(result), grace=grace, cover=cover)
    return result


def _asks_morale(result: str) -> bool:
    return next(r.morale for r in damage.damage().infantry if r.id == result)


# ------------------------------------------------------------------------ vehicles


def has_turret(vehicle: Unit) -> bool:
    """Tanks have a turret; another vehicle has one if its roles say ``turret``."""
    return "turret" in vehicle.roles or "tank" in vehicle.roles


def vehicle_hit(
    ctx: Context,
    vehicle: Unit,
    weapon: Weapon | None,
    cause: Text,
    *,
    pen_row: str = "",
    flank: bool = False,
    indirect: bool = False,
    under_fire: bool = True,
    halve_pen: bool = False,
    source_mod: str = "",
) -> str:
    """A hit on a vehicle: penetration (A.12.3) then the armoured table (A.12.4), or
    the unarmoured table (A.12.2), with ``source_mod`` the modifier of a hit no weapon row
    makes (a mortar's round: ``gun-mortar``, BI-R121).  Returns what came of it."""
    column = damage.armour_column(vehicle)
    if not column:
        return _unarmoured_hit(ctx, vehicle, weapon, cause, under_fire=under_fire, source_mod=source_mod)
    if not pen_row:
        ctx.emit(
            ev.Noted(
                text=M(
                    "{cause} cannot penetrate {owner} armour: no effect (ruling BI-NO-PEN)",
                    cause=cause,
                    owner=whose(vehicle.name),
                ),
                vis=unit_audience(vehicle),
            )
        )
        return "no-effect"
    if not _penetrates(ctx, vehicle, pen_row, column, flank=flank, halve_pen=halve_pen):
        morale_due(ctx, vehicle, "m7", under_fire=under_fire)
        return "not-penetrated"
    row = _damage_row(ctx, vehicle, damage.armoured_mods(indirect), "A.12.4", damage.armoured_result)
    vehicle_damage(ctx, vehicle, row, cause, under_fire=under_fire)
    return row.id


def _unarmoured_hit(
    ctx: Context, vehicle: Unit, weapon: Weapon | None, cause: Text, *, under_fire: bool, source_mod: str
) -> str:
    """A hit on an unarmoured vehicle: the unarmoured damage table (A.12.2)."""
    mods = damage.unarmoured_mods(weapon, source_mod)
    row = _damage_row(ctx, vehicle, mods, "A.12.2", damage.unarmoured_result, natural=1)
    vehicle_damage(ctx, vehicle, row, cause, under_fire=under_fire)
    return row.id


def _damage_row(
    ctx: Context,
    unit: Unit,
    mods: tuple[ev.Mod, ...],
    rule: str,
    read: Callable[[int, tuple[ev.Mod, ...]], Any],
    *,
    natural: int | None = None,
):
    """1d10 on a damage table of A.12 (``rule``), read with its modifiers: the row it gives.
    A ``natural`` face is never modified (10 on the infantry table, 1 on the unarmoured), and said so."""

    def outcome(faces: tuple[int, ...]) -> Msg:
        row = read(faces[0], mods)
        if faces[0] == natural and mods:
            return M(_NATURAL[natural], result=row.words)
        return row.words

    (face,) = ctx.roll(
        M("damage"),
        1,
        sides=rules.D10,
        mods=mods,
        rule=rule,
        unit=unit.id,
        outcome=outcome,
        check=ev.Read(),  # a row of the damage table
        step=dice_order.DAMAGE,
    )
    return read(face, mods)


#: How a roll on a natural face that is never modified reads (A.12.1, A.12.2).
_NATURAL = {10: N_("{result} (natural 10: never modified)"), 1: N_("{result} (natural 1: never modified)")}


def _penetrates(ctx: Context, vehicle: Unit, pen_row: str, column: str, *, flank: bool, halve_pen: bool) -> bool:
    """Whether the hit penetrates the armour: 1d10 at or under the penetration chance (A.12.3),
    halved and rounded up for an anti-personnel bomb (BI-R252)."""
    chance, mods = damage.penetration_chance(pen_row, column, damage.penetration_mod_ids(vehicle, flank))
    if halve_pen:
        halved = -(-chance // 2)
        mods = (*mods, ev.Mod(M("½ anti-personnel bombs"), halved - chance, "BI-R252"))
        chance = halved
    (face,) = ctx.roll(
        PENETRATION,
        1,
        step=dice_order.DAMAGE,
        sides=rules.D10,
        target=chance,
        under=True,
        mods=mods,
        rule="A.12.3",
        unit=vehicle.id,
        outcome=lambda f: M("penetrated") if rules.succeeds(f[0], chance) else M("not penetrated: check morale"),
        check=ev.AtLeast(face=chance, under=True),  # A.12.3
    )
    return rules.succeeds(face, chance)


def vehicle_damage(ctx: Context, vehicle: Unit, row, cause: Text, *, under_fire: bool) -> None:
    """Apply a vehicle damage row (BI-R120, BI-R140; rulings BI-MOBILITY, BI-TURRET, BI-OCCUPANTS)."""
    table_mod = row.morale_mod
    match row.id:
        case "destroyed":
            destroyed(ctx, vehicle, M(DESTROYED_BY, cause=cause))
            return
        case "radio":
            # always isolated from now on; not "damaged" for morale (BI-R140)
            badges(ctx, vehicle, ("radio-out",))
        case "slowed":
            if not vehicle.has(Status.IMMOBILISED):
                badges(ctx, vehicle, ("slowed-twice",) if vehicle.has(Status.SLOWED) else ("slowed",))
            badges(ctx, vehicle, ("damaged",))
        case "immobilised":
            badges(ctx, vehicle, ("immobilised", "damaged"), ("slowed", "slowed-twice"))
        case "turret" if has_turret(vehicle):
            badges(ctx, vehicle, ("turret-jammed", "damaged"))
        case "turret" | "weapon":
            table_mod = lose_weapon(ctx, vehicle)
            badges(ctx, vehicle, ("damaged",))
    if row.morale:
        morale_due(ctx, vehicle, "m7", under_fire=under_fire, table_mod=table_mod)


def lose_weapon(ctx: Context, vehicle: Unit) -> int:
    """BI-R140 "Armi": one weapon on board, at random, is destroyed; −2 to the morale
    check if it is the main armament (the first weapon listed; ruling BI-MAIN-GUN)."""
    left = [w for w in vehicle.weapons if not vehicle.has(f"weapon-lost-{w}")]
    if not left:
        ctx.emit(ev.Noted(text=M("{unit} has no weapon left to lose", unit=vehicle.name), vis=unit_audience(vehicle)))
        return 0
    pick = 0
    if len(left) > 1:
        (face,) = ctx.roll(
            M("weapon lost"),
            1,
            step=dice_order.DAMAGE,
            sides=len(left),
            rule="BI-R140",
            unit=vehicle.id,
            outcome=lambda f: left[f[0] - 1],
            check=ev.Read(),
        )
        pick = face - 1
    badges(ctx, vehicle, (f"weapon-lost-{left[pick]}",))
    return -2 if left[pick] == vehicle.weapons[0] else 0


def destroyed(ctx: Context, vehicle: Unit, cause: Text) -> None:
    """The vehicle is out; every man aboard is hit (ruling BI-OCCUPANTS) and is on foot."""
    carried = aboard(ctx.state, vehicle)
    ctx.emit(ev.UnitOut(unit=vehicle.id, cause=cause))
    for man in carried:
        badges(ctx, man, remove=(f"aboard-{vehicle.id}", "in-vehicle"))
        infantry_hit(ctx, man, M("the wreck of {unit}", unit=vehicle.name), under_fire=True)
    if "tank" in vehicle.roles or damage.armour_column(vehicle):
        ctx.emit(
            ev.Noted(
                text=M(
                    "friends who saw {unit} destroyed within 20 cm check morale (M1): morale UNIT m1", unit=vehicle.name
                ),
                vis=unit_audience(vehicle),
            )
        )


# ------------------------------------------------------------------------- HE bursts


def he_burst(
    ctx: Context,
    unit: Unit,
    cause: Text,
    *,
    zone: str,
    terrain: str,
    big: bool,
    weapon: Weapon | None = None,
    pen_row: str = "",
    indirect: bool = False,
    halve: bool = False,
    halve_pen: bool = False,
    source_mod: str = "",
) -> str:
    """A man or vehicle in an HE area (A.10.3, BI-R092): 1d10 under his chance by
    terrain and zone, then damage; a vehicle then takes the weapon's penetration or the
    unarmoured table (ruling BI-HE-VEHICLES, digest BI-AMB-26; ``source_mod`` as for
    :func:`vehicle_hit`).  ``halve``: an anti-tank bomb against men (BI-R252).  Returns
    the damage row, or "missed"."""
    chance = he.hit_chance(terrain, zone, big)
    where = M("{terrain}, {distance}", terrain=word(terrain), distance=word(f"{zone} distance"))
    mods = [ev.Mod(where, he.hit_chance(terrain, zone, False), "BI-R092")]
    if big:
        mods.append(ev.Mod(M("guns or mortars over 103 mm"), chance - mods[0].value, "BI-R092"))
    if halve:
        halved = -(-chance // 2)
        mods.append(ev.Mod(M("½ anti-tank bomb"), halved - chance, "BI-R252"))
        chance = halved
    (face,) = ctx.roll(
        CAUGHT_BY_HE,
        1,
        step=(dice_order.SHOTS, dice_order.BURST_CATCH, dice_order.MINE_AP),
        sides=rules.D10,
        target=chance,
        under=True,
        mods=tuple(mods),
        rule="A.10.3",
        unit=unit.id,
        outcome=lambda f: M("hit: roll damage") if rules.succeeds(f[0], chance) else M("unhurt"),
        check=ev.AtLeast(face=chance, under=True),  # A.10.3
    )
    if not rules.succeeds(face, chance):
        return "missed"
    # An HE hit (fire) and a mine's are one step, its catching and its damage; a burst's
    # damage is the damage step of its own.
    with ctx.at_step((dice_order.SHOTS, dice_order.MINE_AP)):
        if unit.kind == Kind.MAN:
            return infantry_hit(ctx, unit, cause, under_fire=True)
        return vehicle_hit(
            ctx, unit, weapon, cause, pen_row=pen_row, indirect=indirect, halve_pen=halve_pen, source_mod=source_mod
        )
