"""A browser seat as plain lines: the page for screen readers and braille displays (``page/plain.html``).

A browser seat sits this way when its seats-file entry says ``plain = true``,
or when its player chose the plain page (``/plain``, or a link ending in
``?plain``): the same :class:`~tui.ssh.seating.plain.PlainSeat` an SSH player's
``plain`` gets, hosting the same line client, with no terminal.  The page
shows no screen: the answers are appended, as text, to a live region that a
screen reader reads as they come, and the line is typed in a labelled input
of the page's own.  So the page asks more of the seat than a pipe does, and
the websocket carries it (``tui.ssh.web.door``), besides the lines typed
(``["stdin", LINE + "\\n"]``, each held to the seat's limits as an SSH
plain seat's are):

* the prompt, as the input's label (``["prompt", TEXT]`` to the page):
  who types, or the question waiting for its answer (undo's y or n);
* Tab: the page sends the line and the cursor (``["tab", [LINE, POS]]``) and
  is sent back the line completed and where the cursor goes (``["tab",
  [LINE, POS]]``), as an SSH plain seat's Tab completes (``tui.lines.completion``);
  a second Tab that takes nothing lists the candidates, in the answers;
* ↑ and ↓: the page keeps the lines typed, starting with those of the seat's
  earlier sessions, which the server keeps (``["history", [LINE, ...]]`` as
  the seat sits; ``tui.ssh.seating.history``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.language.reader import reading
from tui.ssh.seating.plain import PlainSeat

#: A message of the page's own, sent as JSON text in order with the answers (``tui.ssh.web.channel.WebChannel``).
Control = Callable[[list[Any]], None]


class WebPlainSeat(PlainSeat):
    """A plain seat whose lines come from a browser's page (see the module's doc)."""

    def __init__(self, *args: Any, control: Control, **kwargs: Any) -> None:
        super().__init__(*args, terminal=False, **kwargs)
        self._send_control = control

    def _control(self, message: list[Any]) -> None:
        """A message of the page's own, held to the same limit of unread output as the answers."""
        if self._closed:
            return
        self._send_control(message)
        self._check_backlog()

    @property
    def remembers(self) -> bool:
        return True  # the page brings lines back with ↑

    def _recalled(self, lines: list[str]) -> None:
        self._control(["history", lines])

    def _prompt(self) -> None:
        super()._prompt()  # a question is said in the answers too, as a line of its own
        if self.client is not None:
            self._control(["prompt", self.client.prompt.rstrip()])

    def tab(self, line: str, pos: int) -> None:
        """Tab in the page's input, the cursor at ``pos`` of ``line``: the line completed, if Tab takes
        something; a line the page could not have sent (too long, two lines, the cursor outside it) is ignored."""
        if len(line) > self.limits.line_length or "\n" in line or "\r" in line or not 0 <= pos <= len(line):
            return
        with reading(self.reader):
            taken = self._complete(line, pos)
        if isinstance(taken, tuple):
            self._control(["tab", list(taken)])

    def _list(self, found: list[str]) -> None:
        # Said in the answers, in the game's order, on one line (a screen reader reads the spaces as pauses).
        self.write("  ".join(found) + "\n")
