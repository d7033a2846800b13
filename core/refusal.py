"""A command that is not carried out: refused for a reason the player is told, or failed on a bug.

The two are kept apart so that a bug never passes for a refusal. A rule, a
parser or a check that finds a command cannot be done raises :class:`Refused`
with a sentence in the player's words. Anything else a command raises is a bug
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


class Refused(Exception):
    """A command that cannot be carried out; the message says why.  Nothing is written."""


class CommandFailed(Exception):
    """A command failed on a bug (not a refusal): it was logged with its traceback
    (:data:`LOG`), and nothing was recorded.  The message says so
    in the reader's words."""
