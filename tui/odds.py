"""The exact chance a recorded roll had before it was made, for the dice pane.

A :class:`core.events.Roll` records ``target`` as the number to reach *after*
modifiers (``core/events.py``).  For dice read one by one (``total`` unset)
the modifiers have already moved the target (Breaking News §8.0: T = T0 + the
modifiers), so success is "at least one die shows ``target`` or more".  For a
summed roll the modifiers are added to the dice, so success is "dice total +
modifiers reaches ``target``".  A roll without a target has no chance to show.
"""

from __future__ import annotations

from fractions import Fraction

from core.events import Roll
from core.probability import p_at_least_successes, p_sum_at_least, percent


def modifier_sum(roll: Roll) -> int:
    return sum(m.value for m in roll.mods)


def chance(roll: Roll) -> Fraction | None:
    """The chance of success before the roll, or None when the roll had no target."""
    if roll.target is None or not roll.faces:
        return None
    if roll.total:
        return p_sum_at_least(len(roll.faces), roll.target - modifier_sum(roll), roll.sides)
    return p_at_least_successes(len(roll.faces), roll.target, 1, roll.sides)


def chance_text(roll: Roll) -> str:
    p = chance(roll)
    if p is None:
        return ""
    n = len(roll.faces)
    if roll.total:
        return f"{percent(p)} to reach {roll.target} ({n}d{roll.sides} {_signed(modifier_sum(roll))})"
    if n == 1:
        return f"{percent(p)} to roll {roll.target}+ on 1d{roll.sides}"
    return f"{percent(p)} for at least one {roll.target}+ on {n}d{roll.sides}"


def die_succeeds(roll: Roll, face: int) -> bool | None:
    """Whether one die met the target (None when dice are summed or there is no target)."""
    if roll.target is None or roll.total:
        return None
    return face >= roll.target


def succeeded(roll: Roll) -> bool | None:
    if roll.target is None:
        return None
    if roll.total:
        return sum(roll.faces) + modifier_sum(roll) >= roll.target
    return any(f >= roll.target for f in roll.faces)


def _signed(v: int) -> str:
    return f"+{v}" if v >= 0 else str(v)
