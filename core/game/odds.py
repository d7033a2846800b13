"""What a command would roll first and the exact chance of each outcome, worked out on
a copy of the state without recording or rolling anything.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

import msgspec

from core.dice.faces import (
    ManualDice,
    NeedDice,
)
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
from core.log.state import copy_state
from core.ruleset import Context, Refused, RollAhead

if TYPE_CHECKING:
    from core.game.table import Table


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


def odds(game: Table, text: str, *, role: str, why: bool = False) -> Odds | None:
    """What the command would roll first, and the exact odds, without doing anything.

    None if the command rolls nothing (or is not valid now: with ``why``, its
    :class:`Refused` is raised, the words :meth:`execute` would refuse it in);
    :class:`CommandFailed` if it fails on a bug (logged, as for :meth:`execute`).
    """
    try:
        with failing_on_bugs(text, role):
            parsed = game.parse(text, role)
            if parsed.spec.name in ("undo", "redo"):
                return None
            game._check_allowed(parsed, role)
            ctx = Context(copy_state(game.state), ManualDice(), role, game.ruleset, dry_run=True)
            parsed.spec.handler(ctx, parsed.args)
    except RollAhead as ahead:
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
        domain = game.ruleset.domain  # the ruleset's messages, in the asker's words
        mods = tuple(msgspec.structs.replace(m, label=render(m.label, domain)) for m in ahead.mods)
        purpose = render(ahead.purpose, domain)
        return Odds(purpose, ahead.count, ahead.sides, ahead.target, mods, ahead.total, chances, summary, ahead.check)
    except Refused:
        if why:
            raise
        return None
    except NeedDice:
        return None
    return None
