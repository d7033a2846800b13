"""Exact odds of a roll before it is made, as fractions.

These answer the client's "needs 4+ on 3 dice: 70.4% at least one hit".
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

from core.language.i18n import _
from core.language.numerals import localised


def p_face_at_least(target: int, sides: int = 6) -> Fraction:
    """Chance one die shows ``target`` or more (clamped: 1+ always, above ``sides`` never)."""
    if target <= 1:
        return Fraction(1)
    if target > sides:
        return Fraction(0)
    return Fraction(sides - target + 1, sides)


def p_face_at_most(limit: int, sides: int = 6) -> Fraction:
    """Chance one die shows ``limit`` or less (roll-under checks)."""
    return Fraction(max(0, min(limit, sides)), sides)


def successes_distribution(dice: int, target: int, sides: int = 6, under: bool = False) -> list[Fraction]:
    """``result[k]`` is the chance that exactly k of ``dice`` dice reach ``target``
    (or, with ``under``, show ``target`` or less)."""
    p = p_face_at_most(target, sides) if under else p_face_at_least(target, sides)
    q = 1 - p
    return [comb(dice, k) * p**k * q ** (dice - k) for k in range(dice + 1)]


def p_at_least_successes(dice: int, target: int, k: int = 1, sides: int = 6) -> Fraction:
    return sum(successes_distribution(dice, target, sides)[k:], Fraction(0))


@lru_cache(maxsize=64)
def sum_distribution(dice: int, sides: int = 6) -> tuple[Fraction, ...]:
    """``result[t]`` is the chance that ``dice`` dice sum to exactly t."""
    counts = [1]
    for _die in range(dice):
        nxt = [0] * (len(counts) + sides)
        for total, c in enumerate(counts):
            for face in range(1, sides + 1):
                nxt[total + face] += c
        counts = nxt
    whole = sides**dice
    return tuple(Fraction(c, whole) for c in counts)


def p_sum_at_least(dice: int, target: int, sides: int = 6) -> Fraction:
    dist = sum_distribution(dice, sides)
    return sum(dist[max(target, 0) :], Fraction(0))


def p_sum_at_most(dice: int, limit: int, sides: int = 6) -> Fraction:
    dist = sum_distribution(dice, sides)
    return sum(dist[: max(limit + 1, 0)], Fraction(0))


def percent(p: Fraction) -> str:
    """70.4% style, exact fraction rounded to one decimal (70,4% in Italian)."""
    return localised(f"{float(p) * 100:.1f}%")


def odds_summary(count: int, target: int | None, sides: int = 6, total: bool = False, under: bool = False) -> str:
    """One line for the dice pane, e.g. "needs 5+ on 3 dice: 70.4% at least one"."""
    fields = {"count": count, "sides": sides, "target": target}
    if target is None:
        return _("{count}d{sides}: no target").format(**fields)
    if under and not total:
        p_one = successes_distribution(count, target, sides, under=True)
        if count > 1:
            said = _("needs {target} or less on {count}d{sides}: {chance} at least one")
        else:
            said = _("needs {target} or less on {count}d{sides}: {chance}")
        return said.format(chance=percent(1 - p_one[0]), **fields)
    if total:
        said = _("needs {target}+ total on {count}d{sides}: {chance}")
        return said.format(chance=percent(p_sum_at_least(count, target, sides)), **fields)
    if count == 1:
        return _("needs {target}+ on 1d{sides}: {chance}").format(
            chance=percent(p_face_at_least(target, sides)), **fields
        )
    said = _("needs {target}+ on {count} dice: {chance} at least one")
    return said.format(chance=percent(p_at_least_successes(count, target, 1, sides)), **fields)
