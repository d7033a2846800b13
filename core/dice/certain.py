"""A roll that cannot but come to one outcome (issue #77, ruling CORE-CERTAIN): every face
passes its check, or every face fails it.  At a table that types its dice (table dice on, or
faces typed on the line) such a roll, where the rule reads its faces for that outcome alone
(``Context.roll``'s ``certain_if``), is drawn by the game rather than asked, and the table is
told why (:func:`certain_said`)."""

from __future__ import annotations

from fractions import Fraction

import msgspec

from core.dice.probability import check_chance, check_die
from core.language.i18n import N_, M, Msg
from core.log import events as ev
from core.log.narrate import need_said

#: The notes a certain roll drawn by the game is told with (``core.secrets.rederive`` finds them).
ANY_FACE = N_("no need to roll: any face succeeds (needs {need})")
NO_FACE = N_("no need to roll: no face succeeds (needs {need})")
NOTES = (ANY_FACE, NO_FACE)


def certain(check: ev.Check | None, count: int, sides: int) -> bool | None:
    """True if every face of ``count`` d``sides`` passes ``check`` (dice counted each on its
    own: every die passes), False if every face fails it (every die fails), None if the faces
    decide (or nothing passes or fails: a roll read off a table, an opposed one)."""
    if isinstance(check, ev.Each):
        chance: Fraction | None = check_die(check, sides)
    else:
        chance = check_chance(check, count, sides)
    if chance is None or 0 < chance < 1:
        return None
    return chance == 1


def certain_said(sure: bool, check: ev.Check | None, count: int, sides: int) -> Msg:
    """Why the game drew the roll itself: ``no need to roll: any face succeeds (needs 1+)``,
    the need put on the die's faces (a need of 0+ reads 1+, as the book would write it)."""
    if isinstance(check, ev.AtLeast | ev.All | ev.Each):
        check = msgspec.structs.replace(check, face=min(max(check.face, 1), sides))
    return M(ANY_FACE if sure else NO_FACE, need=need_said(check, count))
