"""High explosive (A.10) and where indirect fire lands (A.11), as pure functions."""

from __future__ import annotations

from math import ceil

from core.language.i18n import M, Text
from core.rulesets.bassa_intensita.tables import HEArea, Weapon, band, high_explosive
from core.rulesets.bassa_intensita.words import listing, word


def deviation(face: int) -> tuple[str, int]:
    """A.10.1 (rulings BI-HE-D10): the direction and the percentage of the range of a
    direct HE miss; ("", 0) for a dud or an air burst."""
    row = band(high_explosive().deviation, face)
    return row.direction, row.percent


def deviation_cm(percent: int, range_cm: int) -> int:
    """How far the round lands from the target: the percentage of the range, rounded up (BI-R002)."""
    return ceil(percent * range_cm / 100)


def area_by_calibre(mm: int) -> HEArea:
    """A.10.2 for guns and mortars by calibre (ruling BI-CALIBRE, digest BI-AMB-25)."""
    return next(a for a in high_explosive().areas if a.max_mm and mm <= a.max_mm)


def area_of(weapon: Weapon, gun_mm: int = 0) -> HEArea:
    """The area of effect of a direct-fire HE weapon; guns by the piece's calibre when given."""
    areas = {a.id: a for a in high_explosive().areas}
    if gun_mm and weapon.he_area.startswith("gun"):
        return area_by_calibre(gun_mm)
    return areas[weapon.he_area]


def zone(area: HEArea, cm: float) -> str:
    """'short', 'long' or '' (outside) for a man ``cm`` from the burst (limits inclusive, BI-AMB-06)."""
    if cm <= area.short:
        return "short"
    return "long" if cm <= area.long else ""


def hit_chance(terrain: str, zone_id: str, big: bool) -> int:
    """A.10.3 (BI-R092): the 1d10 chance of a man being hit; +1 under guns or mortars over 103 mm."""
    row = next(c for c in high_explosive().chances if c.terrain == terrain)
    base = row.short if zone_id == "short" else row.long
    return base + (high_explosive().big_bonus if big else 0)


def ranging(table: str, face: int):
    """A.11 (BI-R103): the row of the precise or imprecise deviation table."""
    rows = tuple(r for r in high_explosive().ranging if r.table == table)
    return band(rows, face)


def offset_dice(table: str) -> tuple[int, int]:
    """How many dice of how many sides each offset of that table rolls (2d6 or 4d10)."""
    d = next(o for o in high_explosive().offset_dice if o.table == table)
    return d.count, d.sides


def describe_landing(row, along: int, across: int) -> Text:
    """Where a ranging shot landed, in words."""
    if row.id == "bullseye":
        return M("right on the target")
    if row.id == "lost":
        return M("who knows where: the round is lost (ruling BI-RANGING-LOST)")
    parts = [M("{cm} cm {way}", cm=along, way=word("long" if row.long > 0 else "short"))]
    if row.side:
        parts.append(M("{cm} cm {way}", cm=across, way=word("right" if row.side > 0 else "left")))
    return listing(parts, "and")
