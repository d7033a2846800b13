"""The exact chance a recorded roll had before it was made, for the dice pane.

Everything here follows the roll's ``check`` (``core.log.events.Check``), the
record of how its outcome was decided, through ``core.dice.probability`` (as the
odds before a roll and the report's luck do):

* at least k of the dice at a face (one, some, or every die), each die on its
  own, or a sum at least / at most a total: the exact chance of passing;
* an opposed roll or one read off a table has no chance of its own to show;
* a roll from a save made before checks shows none, and no die is coloured:
  its ``target`` alone cannot say how it was read (a Breaking News save of two
  dice needed both; Ludonet's modifiers move the die, not the target).
"""

from __future__ import annotations

from fractions import Fraction

from core.dice.probability import check_chance, check_chance_said, check_die, check_met, die_meets
from core.log import events as ev
from core.log.events import Roll
from tui.i18n import _, percentage


def modifier_sum(roll: Roll) -> int:
    return sum(m.value for m in roll.mods)


def chance(roll: Roll) -> Fraction | None:
    """The chance of success before the roll, or None when the roll has no single success."""
    if not roll.faces:
        return None
    return check_chance(roll.check, len(roll.faces), roll.sides)


def need(roll: Roll) -> str:
    """ "5+", "6 or less" for a die or a total (empty when the roll records no check with a target)."""
    c = roll.check
    if isinstance(c, (ev.AtLeast, ev.All, ev.Each)):
        number = c.face
    elif isinstance(c, ev.Sum):
        number = c.total
    else:
        return ""
    return _("{target} or less").format(target=number) if c.under else f"{number}+"


def summed(roll: Roll) -> bool:
    """Whether the roll's check is on the sum of its dice."""
    return isinstance(roll.check, ev.Sum)


def base(roll: Roll) -> int | None:
    """The book's number before the modifiers, when the roll records one."""
    return getattr(roll.check, "base", None)


def chance_text(roll: Roll) -> str:
    c = roll.check
    n = len(roll.faces)
    if not n or not isinstance(c, (ev.AtLeast, ev.All, ev.Each, ev.Sum)):
        return ""
    said = dict(need=need(roll), dice=f"{n}d{roll.sides}")
    if isinstance(c, ev.Each):
        p = check_die(c, roll.sides)
        return _("{chance} a die for {need} on {dice}, {any} for at least one").format(
            chance=percentage(p), any=percentage(1 - (1 - p) ** n), **said
        )
    said["chance"] = percentage(check_chance(c, n, roll.sides))
    if isinstance(c, ev.Sum):
        return _("{chance} for a total of {need} on {dice}").format(**said)
    if n == 1:
        return _("{chance} to roll {need} on {dice}").format(**said)
    if isinstance(c, ev.All) or c.need >= n:
        return _("{chance} for {need} on every die of {dice}").format(**said)
    if c.need > 1:
        return _("{chance} for at least {k} dice of {need} on {dice}").format(k=c.need, **said)
    return _("{chance} for at least one {need} on {dice}").format(**said)


def chance_alone(roll: Roll) -> str:
    """The chance alone (``50.0%``, ``33.3% a die, 80.2% at least one``), for a line that has said
    what the roll needed ("" as :func:`chance_text`)."""
    return check_chance_said(roll.check, len(roll.faces), roll.sides) if chance_text(roll) else ""


def die_succeeds(roll: Roll, face: int) -> bool | None:
    """Whether one die met the check (None when dice are not read one by one)."""
    return die_meets(roll.check, face)


def succeeded(roll: Roll) -> bool | None:
    return check_met(roll.check, roll.faces)


def sign(roll: Roll) -> str:
    """``✓ `` before a roll that succeeded, ``✗ `` before one that failed ("" when it has no
    single success): on a screen without colour (``NO_COLOR``) the outcome's colour in a sign."""
    ok = succeeded(roll)
    return "✓ " if ok else "✗ " if ok is False else ""
