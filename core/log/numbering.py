"""A role's own numbering of the commands: the n-th command it may see is its #n.

Commands are numbered 1, 2, 3… in the file, hidden ones included; a side shown
those numbers would see a gap (#18, #20) wherever the enemy did something it
may not know of.  So every number shown to a side is its own count of the
commands whose marker it may see (``core.log.views.event_visible``); the referee
keeps the file's numbers.  A command's marker never changes once written, so
the count only grows: it is kept as the sorted list of the commands a role may
see, extended as commands arrive.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left

from core.log.history import History
from core.log.views import REFEREE, event_visible


class Numbering:
    """File command numbers ↔ the numbers ``role`` is shown."""

    def __init__(self, history: History, role: str) -> None:
        self.history = history
        self.role = role
        self._seen = array("q")  # the commands ``role`` may see, in file order
        self._upto = 1  # commands below this one have been looked at

    def _catch_up(self) -> None:
        history, seen = self.history, self._seen
        # A command still arriving (a torn one may yet be dropped) is not counted.
        end = history.next_cmd - (history.pending() is not None)
        for cmd in range(self._upto, end):
            if event_visible(history.issued(cmd), self.role):
                seen.append(cmd)
        self._upto = max(self._upto, end)

    def shown(self, cmd: int) -> int | None:
        """The number ``role`` knows command ``cmd`` by; None if it may not see it."""
        if self.role == REFEREE:
            return cmd
        self._catch_up()
        i = bisect_left(self._seen, cmd)
        return i + 1 if i < len(self._seen) and self._seen[i] == cmd else None

    def visible(self, cmd: int) -> bool:
        return self.shown(cmd) is not None
