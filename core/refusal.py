"""A command that is not carried out: refused for a reason the player is told, or failed on a bug.

The two are kept apart so that a bug never passes for a refusal. A rule, a
parser or a check that finds a command cannot be done raises :class:`Refused`
with a sentence in the player's words and the rule that refuses it, as data: ids of
the ruleset's rules map (``core.explain.rulesmap``) or of the engine's, or :data:`TYPING` for a
line mistyped or misused, which no rule refuses (``why`` after a refusal reads them;
``tests/core/test_refusal_rules.py`` fails on a refusal that names neither). Anything else a command raises is a bug
of the program: ``core.game.Game`` logs it with its traceback and raises
:class:`CommandFailed`, which the clients show as an error of their own (the
command failed; nothing was recorded). Both leave the save untouched.

This module is the lowest of the core, so the dice and the views may refuse
too; rulesets take :class:`Refused` from ``core.ruleset``, their interface.
"""

from __future__ import annotations

import logging

#: The core's log, where a command that failed on a bug is written with its traceback.
#: Where that goes is the program's choice: the user's error log (``core.errorlog``) for
#: the clients and ``fireteam script``, the server's log for its seats (docs/architecture.md,
#: "A bug is not a refusal").
LOG = logging.getLogger("fireteam.core")


#: What a refusal names where no rule of any map refuses: a parse or usage error (a word
#: that names nothing, a number out of its bounds, two options that exclude each other).
TYPING = "no rule: a typing error"


class Refused(Exception):
    """A command that cannot be carried out; the message says why, ``rules`` by which rule
    (ids of a rules map, or :data:`TYPING`).  Nothing is written."""

    def __init__(self, message: object = "", *, rule: str | tuple[str, ...] = "") -> None:
        super().__init__(message)
        #: The rule ids that refuse the command, or ``(TYPING,)``; empty where none is named yet.
        self.rules: tuple[str, ...] = (rule,) if isinstance(rule, str) and rule else tuple(rule or ())

    def __reduce__(self) -> tuple[object, ...]:  # a worker's refusal crosses processes whole
        return (_refused, (str(self), self.rules))


def _refused(message: str, rules: tuple[str, ...]) -> Refused:
    return Refused(message, rule=rules)


class CommandFailed(Exception):
    """A command failed on a bug (not a refusal): it was logged with its traceback
    (:data:`LOG`), and nothing was recorded.  The message says so
    in the reader's words."""
