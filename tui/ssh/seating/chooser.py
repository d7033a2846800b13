"""The menu of games a seat is shown when it did not name one and the server has several.

Either door (an SSH session, a browser) shows it on the player's terminal:
the games and their state, numbered; the player types a number and Enter
(or ``q`` to leave).  It is a few lines of text and a few digits of input,
read before the seat's app exists, so it holds nothing but those digits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tui.ssh.host import replies
from tui.ssh.language import _
from tui.ssh.seating.seat import Table
from tui.ssh.seatsfile import Seat


class GameChooser:
    """The menu on one terminal: ``send`` writes to it, ``sit`` seats the player at the game he picked,
    ``leave`` ends the session (he typed ``q``); ``plain``: a plain seat's, drawn without clearing the screen."""

    def __init__(
        self,
        tables: Sequence[Table],
        seat: Seat,
        *,
        send: Callable[[str], None],
        sit: Callable[[Table], object],  # (what it returns is not read)
        leave: Callable[[], None],
        plain: bool = False,
    ) -> None:
        self._tables = list(tables)
        self._seat = seat
        self._send = send
        self._sit = sit
        self._leave = leave
        self._plain = plain  # a plain seat's lines are only ever appended: no clearing the screen
        self._digits = ""
        #: Whether the menu still waits for the player's choice.
        self.open = True

    def show(self) -> None:
        lines = [
            "" if self._plain else "\x1b[2J\x1b[H",
            _("Fireteam — {seat} ({role}). Games at this table:").format(seat=self._seat.name, role=self._seat.role),
            "",
        ]
        for number, t in enumerate(self._tables, start=1):
            # A plain seat's lines are sentences, not a table: no indent, a stop at the end.
            lines.append(f"{number}) {replies.game_line(t)}." if self._plain else f"  {number}) {replies.game_line(t)}")
        lines += ["", _("Type a number (1-{count}) and Enter, or q to leave: ").format(count=len(self._tables))]
        self._send("\n".join(lines))

    def feed(self, data: str) -> str:
        """What the player typed; returns what he typed after the Enter that seated him (for his seat)."""
        for i, ch in enumerate(data):
            if not self.open:
                return ""
            if ch in "\r\n":
                self._pick()
                if not self.open:
                    rest = data[i + 1 :]
                    return rest[1:] if ch == "\r" and rest.startswith("\n") else rest
                continue
            if ch in "qQ\x03\x04":
                self._send("\n")
                self.open = False
                self._leave()
                return ""
            if ch in "\x7f\x08" and self._digits:
                self._digits = self._digits[:-1]
                self._send("\b \b")
            elif ch.isdigit() and len(self._digits) < 3:
                self._digits += ch
                self._send(ch)
        return ""

    def close(self) -> None:
        """The player went away before choosing."""
        self.open = False

    def _pick(self) -> None:
        number = int(self._digits) if self._digits else 0
        self._digits = ""
        if 1 <= number <= len(self._tables):
            self.open = False
            self._sit(self._tables[number - 1])
        else:
            self._send(
                "\n" + _("No game {number}; type 1-{count}: ").format(number=number or "", count=len(self._tables))
            )
