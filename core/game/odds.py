"""What a command would roll first and the exact chance of each outcome, worked out on
a copy of the state without recording or rolling anything.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import msgspec

from core.dice.faces import NeedDice
from core.dice.handler import RollAhead
from core.dice.probability import (
    check_distribution,
    check_summary,
    odds_summary,
    successes_distribution,
    sum_distribution,
)
from core.game.bugs import failing_on_bugs
from core.language.i18n import Text, render
from core.log import events as ev
from core.ruleset import Refused


class Odds(msgspec.Struct, frozen=True):
    """The first roll a command would make, with the exact chance of each outcome.

    ``chances[k]`` is the chance of exactly k successes as the roll's check counts
    them (``core.dice.probability.check_distribution``: hits of dice read each on its
    own, else 0 or 1 for a failed or passed roll); for a roll without a check,
    of k successes (per-die target) or of a total of exactly k (summed dice).
    """

    purpose: Text
    count: int
    sides: int
    target: int | None
    mods: tuple[ev.Mod, ...]
    total: bool
    chances: tuple[Fraction, ...]
    summary: str
    check: ev.Check | None = None


def first_roll(dry_run: Callable[[], None], text: str, role: str, domain: str, *, why: bool = False) -> Odds | None:
    """What ``dry_run`` (the command ``text`` of ``role`` resolved on a copy of the state, its dice
    a :class:`RollAhead`) rolls first, and the exact odds, in ``domain``'s words.

    None if the command rolls nothing (or is not valid now: with ``why``, its
    :class:`Refused` is raised, the words ``Game.execute`` would refuse it in);
    :class:`CommandFailed` if it fails on a bug (logged, as for ``Game.execute``).
    """
    try:
        with failing_on_bugs(text, role):
            dry_run()
    except RollAhead as ahead:
        return _odds(ahead, domain)
    except Refused:
        if why:
            raise
        return None
    except NeedDice:
        return None
    return None


def _odds(ahead: RollAhead, domain: str) -> Odds:
    if ahead.check is not None:
        chances = check_distribution(ahead.check, ahead.count, ahead.sides) or ()
        summary = check_summary(ahead.check, ahead.count, ahead.sides)
    else:  # a ruleset's roll that gives no check: read its target as before checks
        if ahead.total:
            chances = sum_distribution(ahead.count, ahead.sides)
        elif ahead.target is not None:
            chances = tuple(successes_distribution(ahead.count, ahead.target, ahead.sides, ahead.under))
        else:
            chances = ()
        summary = odds_summary(ahead.count, ahead.target, ahead.sides, ahead.total, ahead.under)
    mods = tuple(msgspec.structs.replace(m, label=render(m.label, domain)) for m in ahead.mods)  # in the asker's words
    purpose = render(ahead.purpose, domain)
    return Odds(purpose, ahead.count, ahead.sides, ahead.target, mods, ahead.total, chances, summary, ahead.check)
