"""A bug is not a refusal: the guard every command, undo, redo and dry run runs under."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from core.dice.faces import NeedDice
from core.dice.handler import RollAhead
from core.language.i18n import _
from core.log.questions import NeedAnswer
from core.refusal import LOG, CommandFailed
from core.ruleset import Refused


@contextmanager
def failing_on_bugs(text: str, role: str) -> Iterator[None]:
    """Let refusals, dice requests and a dry run's roll through; anything else raised
    here is a bug: logged with its traceback, and raised as :class:`CommandFailed`."""
    try:
        yield
    except (Refused, NeedDice, NeedAnswer, RollAhead):
        raise
    except Exception as e:
        # The line may name hidden pieces: the log is the host's (the referee's) alone.
        LOG.exception("command failed, nothing recorded: %r as %s", text, role)
        raise CommandFailed(_("the command failed on an error of the program; nothing was recorded")) from e
