"""Damage (A.12) as pure functions: which row of which table a die gives, and what a
new result makes of a man's or a vehicle's state.  The commands that roll and
record it are in ``casualties.py``."""

from __future__ import annotations

from core.log.events import Mod
from core.log.state import Unit
from core.rulesets.bassa_intensita.tables import Band, Weapon, band, damage, vehicle_types
from core.rulesets.bassa_intensita.terms import ManHit
from core.rulesets.bassa_intensita.words import word


def _mods(table: str, ids: list[str]) -> tuple[Mod, ...]:
    rows = damage().mods(table)
    return tuple(Mod(word(rows[i].label), rows[i].add, "A.12") for i in ids)


def infantry_mod_ids(target: Unit, shooter_sniper: bool) -> list[str]:
    """BI-R111: the vest the target wears (its roles) and a sniper's shot."""
    # one vest: the better one counts
    ids = ["bullet-vest"] if "bullet-vest" in target.roles else ["frag-vest"] if "frag-vest" in target.roles else []
    if shooter_sniper:
        ids.append("sniper")
    return ids


def infantry_result(face: int, mods: tuple[Mod, ...]) -> Band:
    """BI-R110/R111: the row for ``face``; a natural 10 is never modified (always Dead)."""
    value = face if face == 10 else face + sum(m.value for m in mods)
    return band(damage().infantry, value)


def wound_after(current: str, result: str) -> str:
    """A man's wound state after a new result (BI-R110; ruling BI-SECOND-WOUND, BI-AMB-35).

    ``current`` is "", "wounded" or "seriously-wounded"; ``result`` is an infantry row id.
    A near miss never worsens a state; Shocked leaves it as it is, except that a seriously
    wounded man hit again (Shocked or worse) dies; a second wound of any kind kills.
    """
    if result == ManHit.DEAD:
        return ManHit.DEAD
    if result == ManHit.NEAR_MISS:
        return current
    if current == ManHit.SERIOUSLY_WOUNDED:
        return ManHit.DEAD
    if result == ManHit.SHOCKED:
        return current
    if current == ManHit.WOUNDED:
        return ManHit.DEAD
    return result


def unarmoured_result(face: int, mods: tuple[Mod, ...]) -> Band:
    """BI-R120/R121: a natural 1 is never modified (always a near miss)."""
    value = face if face == 1 else face + sum(m.value for m in mods)
    return band(damage().unarmoured, value)


def unarmoured_mods(weapon: Weapon | None, source_mod: str = "") -> tuple[Mod, ...]:
    """BI-R121: the weapon's class modifier (none for small arms); ``source_mod`` for a hit
    that no weapon row makes (``gun-mortar`` for a mortar's or a gun's indirect round)."""
    mod = weapon.vehicle_mod if weapon and weapon.vehicle_mod else source_mod
    return _mods("unarmoured", [mod] if mod else [])


def penetration_row(weapon: Weapon, gun_mm: int = 0, recoilless: bool = False) -> str:
    """The row of A.12.3 a weapon uses ("" if it cannot penetrate; ruling BI-NO-PEN).

    Guns take their row from the calibre when the piece gives one (ruling BI-GUN-CALIBRE,
    digest BI-AMB-25): under 100 mm "< 99", 100 to 116 mm "> 100", above "> 116";
    recoilless guns (footnote 8): under 100 mm or 100 mm and more.
    """
    if not weapon.penetration.startswith("tank-gun") or not (gun_mm or recoilless):
        return weapon.penetration
    if recoilless:
        return "recoilless-100" if gun_mm >= 100 else "recoilless-99"
    if gun_mm < 100:
        return "tank-gun-99"
    return "tank-gun-100" if gun_mm <= 116 else "tank-gun-116"


def armour_column(vehicle: Unit) -> str:
    """'tank', 'other' or '' (unarmoured) from the vehicle's type among its roles."""
    vtype = vehicle_type(vehicle)
    return vtype.armour if vtype else ""


def vehicle_type(vehicle: Unit):
    types = vehicle_types()
    return next((types[r] for r in vehicle.roles if r in types), None)


def penetration_chance(row: str, column: str, mod_ids: list[str]) -> tuple[int, tuple[Mod, ...]]:
    """BI-R130/R131: the 1d10 chance to penetrate, with the modifiers as logged."""
    pen = next(p for p in damage().penetration if p.id == row)
    base = pen.tank if column == "tank" else pen.other
    rows = {m.id: m for m in damage().penetration_mods}
    mods = tuple(Mod(word(rows[i].label), rows[i].add, "BI-R131") for i in mod_ids)
    return base + sum(m.value for m in mods), (Mod(word(pen.name), base, "BI-R130"), *mods)


def penetration_mod_ids(vehicle: Unit, flank: bool) -> list[str]:
    ids = ["flank"] if flank else []
    if "hightech-armour" in vehicle.roles:
        ids.append("hightech-armour")
    elif "advanced-armour" in vehicle.roles:
        ids.append("advanced-armour")
    return ids


def armoured_result(face: int, mods: tuple[Mod, ...]) -> Band:
    """BI-R140/R141: the row after a penetration (no natural-roll exception here)."""
    return band(damage().armoured, face + sum(m.value for m in mods))


def armoured_mods(indirect: bool) -> tuple[Mod, ...]:
    return _mods("armoured", ["indirect"] if indirect else [])


#: Hits with no weapon row of their own, and the penetration row they use:
#: AT mines penetrate as AT rockets (BI-R222); AT grenades have their own row (BI-R130).
PEN_ONLY = {"at-mine": "at-rocket", "at-grenade": "at-grenade-autocannon"}
