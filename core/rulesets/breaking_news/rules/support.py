"""Breaking News support and special fire as pure functions (§8.3–§8.9, Extras:
Mortars and Explosives)."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction

from core.language.i18n import M
from core.log.events import AtLeast, Mod
from core.ruleset import TYPING, Refused
from core.rulesets.breaking_news.tables.combat import covering, support
from core.rulesets.breaking_news.words import _


def covering_value(
    weapon_range: Iterable[tuple[str, int | Decimal | Fraction]], group_bonuses: Iterable[int]
) -> tuple[int, tuple[Mod, ...]]:
    """§8.3 (digest T-12): each firer's weapon value at his distance, plus the troop
    bonus once per covering group, capped at 9.  Returns (value, the parts)."""
    t = covering()
    parts: list[Mod] = []
    for weapon, range_cm in weapon_range:
        if range_cm < 0:
            raise Refused(_("a range cannot be negative"), rule=TYPING)
        if range_cm > t.max_cm:
            raise Refused(
                _("covering fire reaches {max_cm} cm at most (§8.3)").format(max_cm=t.max_cm), rule=("T-12", "COV-1")
            )
        values = t.values.get(weapon)
        if values is None:
            raise Refused(_("a {weapon} gives no covering fire (§8.3)").format(weapon=weapon), rule=("T-12", "COV-1"))
        v = values[0 if range_cm <= 25 else 1]
        if not v:
            raise Refused(
                _("a {weapon} gives no covering fire at {range_cm} cm (§8.3)").format(weapon=weapon, range_cm=range_cm),
                rule=("T-12", "COV-1"),
            )
        # A measured distance is held as written ("12.5"): an event holds ints and strings.
        cm = range_cm if isinstance(range_cm, int) else str(range_cm)
        parts.append(Mod(M("{weapon} at {cm} cm", weapon=weapon, cm=cm), v, "§8.3"))
    parts += [Mod(M("troop bonus"), b, "§3.0") for b in group_bonuses if b]
    return min(t.cap, sum(m.value for m in parts)), tuple(parts)


def covering_dice(bunker: bool) -> int:
    t = covering()
    return t.bunker_dice if bunker else t.dice


def covering_hit(faces: tuple[int, ...], value: int) -> bool:
    """§8.3: the reacting man is hit once if his dice do not total more than the value."""
    return sum(faces) <= value


def call_mods(improved: bool, roe: bool) -> tuple[Mod, ...]:
    """§8.4 and Extras: Improved Support Fire +1, Rules of Engagement −1 (not both)."""
    a = support().artillery
    if improved and roe:
        raise Refused(
            _("Improved Support Fire cannot be had with Rules of Engagement (Extras)"), rule=("EXT-4", "EXT-7")
        )
    mods = []
    if improved:
        mods.append(Mod(M("Improved Support Fire"), a.improved, "Extras"))
    if roe:
        mods.append(Mod(M("Rules of Engagement"), a.roe, "Extras"))
    return tuple(mods)


def call_succeeds(face: int, need: int, mods: tuple[Mod, ...]) -> bool:
    return face + sum(m.value for m in mods) >= need


def call_check(need: int, mods: tuple[Mod, ...]) -> AtLeast:
    """:func:`call_succeeds` as a roll records it: the modifiers go on the die (§8.4)."""
    return AtLeast(face=need - sum(m.value for m in mods), base=need)


def speculative_permission(roe: bool) -> int:
    """§8.6: with no referee and no agreement, speculative fire needs 5+ (6 under ROE)."""
    s = support().speculative
    return s.permission_roe if roe else s.permission


def ied_explodes(face: int) -> bool:
    """Extras, Explosives: the charge fails on a 1 or 2."""
    return face > support().ied.dud_up_to


def smoke_drift(faces: tuple[int, ...]) -> tuple[int, bool]:
    """§8.9: next turn the smoke moves 2d6 cm, the first deviation's way on an even
    total, the opposite way on an odd one.  Returns (cm, same direction)."""
    total = sum(faces)
    return total, total % 2 == 0
