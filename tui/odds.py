"""The exact chance a recorded roll had before it was made, for the dice pane.

A :class:`core.events.Roll` records ``target`` as the number the dice had to
reach (or, with ``under``, not exceed) *after* modifiers: the modifiers have
already moved the target (Breaking News §8.0: T = T0 + the modifiers; Bassa
Intensità: roll 1d10 ≤ Quality + modifiers) and are kept to say why.  So, as in
``core.probability.odds_summary``:

* dice read one by one succeed when at least one die meets the target;
* a summed roll succeeds when the sum of the dice meets it;
* a roll without a target (an initiative score) has no chance to show; its
  modifiers are added to the dice.
"""

from __future__ import annotations

from fractions import Fraction

from core.events import Roll
from core.probability import p_sum_at_least, p_sum_at_most, successes_distribution
from tui.i18n import _, percentage


def modifier_sum(roll: Roll) -> int:
    return sum(m.value for m in roll.mods)


def chance(roll: Roll) -> Fraction | None:
    """The chance of success before the roll, or None when the roll had no target."""
    if roll.target is None or not roll.faces:
        return None
    n = len(roll.faces)
    if roll.total:
        return p_sum_at_most(n, roll.target, roll.sides) if roll.under else p_sum_at_least(n, roll.target, roll.sides)
    return 1 - successes_distribution(n, roll.target, roll.sides, under=roll.under)[0]


def need(roll: Roll) -> str:
    """ "5+", "6 or less" (empty without a target)."""
    if roll.target is None:
        return ""
    return _("{target} or less").format(target=roll.target) if roll.under else f"{roll.target}+"


def chance_text(roll: Roll) -> str:
    p = chance(roll)
    if p is None:
        return ""
    n = len(roll.faces)
    said = dict(chance=percentage(p), need=need(roll), dice=f"{n}d{roll.sides}")
    if roll.total:
        return _("{chance} for a total of {need} on {dice}").format(**said)
    if n == 1:
        return _("{chance} to roll {need} on {dice}").format(**said)
    return _("{chance} for at least one {need} on {dice}").format(**said)


def die_succeeds(roll: Roll, face: int) -> bool | None:
    """Whether one die met the target (None when dice are summed or there is no target)."""
    if roll.target is None or roll.total:
        return None
    return face <= roll.target if roll.under else face >= roll.target


def succeeded(roll: Roll) -> bool | None:
    if roll.target is None:
        return None
    if roll.total:
        total = sum(roll.faces)
        return total <= roll.target if roll.under else total >= roll.target
    return any(die_succeeds(roll, f) for f in roll.faces)
