"""Exact odds of a roll before it is made, as fractions.

These answer the client's "needs 4+ on 3 dice: 70.4% at least one hit".
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import overload

from core.language.i18n import _
from core.language.numerals import localised
from core.log import events as ev


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


# ------------------------------------------------------------ a roll's check


def die_meets(check: ev.Check | None, face: int) -> bool | None:
    """Whether one die met its check (None when dice are not read one by one)."""
    if isinstance(check, (ev.AtLeast, ev.All, ev.Each)):
        return face <= check.face if check.under else face >= check.face
    return None


def check_successes(check: ev.Check | None, faces: tuple[int, ...]) -> int | None:
    """What the report's luck counts: the hits of dice read each on its own, else
    1 or 0 as the roll passed or failed; None when its check has no success."""
    if isinstance(check, ev.Each):
        return sum(1 for f in faces if die_meets(check, f))
    met = check_met(check, faces)
    return None if met is None else int(met)


def check_met(check: ev.Check | None, faces: tuple[int, ...]) -> bool | None:
    """Whether the roll passed its check (None when it has no single success)."""
    if isinstance(check, ev.AtLeast):
        return sum(1 for f in faces if die_meets(check, f)) >= check.need
    if isinstance(check, ev.All):
        return all(die_meets(check, f) for f in faces)
    if isinstance(check, ev.Sum):
        return sum(faces) <= check.total if check.under else sum(faces) >= check.total
    return None


def check_die(check: ev.AtLeast | ev.All | ev.Each, sides: int) -> Fraction:
    """The chance one die meets a check read die by die."""
    return p_face_at_most(check.face, sides) if check.under else p_face_at_least(check.face, sides)


# A check with a single success always has its chance (the client's odds say it without asking).
@overload
def check_chance(check: ev.AtLeast | ev.All | ev.Sum, dice: int, sides: int = 6) -> Fraction: ...
@overload
def check_chance(check: ev.Check | None, dice: int, sides: int = 6) -> Fraction | None: ...
def check_chance(check: ev.Check | None, dice: int, sides: int = 6) -> Fraction | None:
    """The chance, before the roll, that ``dice`` dice pass ``check`` (None when it has
    no single success: dice read each on its own, an opposed roll, a table)."""
    if isinstance(check, ev.AtLeast):
        p = check_die(check, sides)
        return sum((comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(check.need, dice + 1)), Fraction(0))
    if isinstance(check, ev.All):
        return check_die(check, sides) ** dice
    if isinstance(check, ev.Sum):
        return p_sum_at_most(dice, check.total, sides) if check.under else p_sum_at_least(dice, check.total, sides)
    return None


def check_distribution(check: ev.Check | None, dice: int, sides: int = 6) -> tuple[Fraction, ...] | None:
    """``result[k]``: the chance that :func:`check_successes` comes to k (None: nothing to count)."""
    if isinstance(check, ev.Each):
        p = check_die(check, sides)
        return tuple(comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(dice + 1))
    chance = check_chance(check, dice, sides)
    return None if chance is None else (1 - chance, chance)


def check_summary(check: ev.Check | None, dice: int, sides: int = 6) -> str:
    """The check and its exact chance in one line, e.g. "needs 5+ on every one of 2d6: 11.1%"
    (empty for a roll that records no check, or one read off a table)."""
    fields: dict = {"dice": f"{dice}d{sides}"}
    if isinstance(check, (ev.AtLeast, ev.All, ev.Each)):
        fields["need"] = _("{target} or less").format(target=check.face) if check.under else f"{check.face}+"
    if isinstance(check, ev.Each):
        p = check_die(check, sides)
        said = _("needs {need} on each of {dice}: {chance} a die, {any} at least one")
        return said.format(chance=percent(p), any=percent(1 - (1 - p) ** dice), **fields)
    if isinstance(check, ev.Opposed):
        return _("{dice} against the other side's roll: who wins depends on both").format(**fields)
    chance = check_chance(check, dice, sides)
    if chance is None:
        return ""
    fields["chance"] = percent(chance)
    if isinstance(check, ev.Sum):
        said = (
            _("needs {total} or less total on {dice}: {chance}")
            if check.under
            else _("needs {total}+ total on {dice}: {chance}")
        )
        return said.format(total=check.total, **fields)
    if dice == 1:
        return _("needs {need} on {dice}: {chance}").format(**fields)
    if isinstance(check, ev.All) or (isinstance(check, ev.AtLeast) and check.need >= dice):
        return _("needs {need} on every one of {dice}: {chance}").format(**fields)
    if isinstance(check, ev.AtLeast) and check.need > 1:
        return _("needs {need} on at least {k} of {dice}: {chance}").format(k=check.need, **fields)
    return _("needs {need} on at least one of {dice}: {chance}").format(**fields)


def check_chance_said(check: ev.Check | None, dice: int, sides: int = 6) -> str:
    """The check's exact chance alone, as a brief prompt says it after what the roll needs:
    "66.7%", or "33.3% a die, 80.2% at least one" for dice read each on its own ("" when it
    has none of its own: opposed, read off a table); one die read on its own, its chance alone."""
    if isinstance(check, ev.Each) and dice == 1:  # "66.7% a die, 66.7% at least one" says one chance twice
        check = ev.AtLeast(face=check.face, under=check.under, base=check.base)
    if isinstance(check, ev.Each):
        p = check_die(check, sides)
        return _("{chance} a die, {any} at least one").format(chance=percent(p), any=percent(1 - (1 - p) ** dice))
    chance = check_chance(check, dice, sides)
    return "" if chance is None else percent(chance)


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
