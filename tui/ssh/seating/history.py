"""What a plain seat typed, kept between its sessions: ↑ brings back last evening's commands.

A seat over SSH sits at the server, not at its player's machine, so its history is the
server's to keep: one file per seat in the server's data folder (``seat-history/``), named
by a hash of the seat's name (a name from the seats file may hold any character), holding
the seat's name and its last :data:`KEPT` command lines.  A line is kept as the local
client keeps one (``tui.userdata.history_lines``: a valid command line, bounded); a file
that is not a small regular one, or not this seat's, is read as no history.  Written
whole and atomically, once, as the session ends (a seat's ↑ within a session is its line
editor's own).
"""

from __future__ import annotations

import contextlib
import hashlib
from pathlib import Path

import msgspec

from tui.userdata import history_lines, read_small, write_atomic

#: The folder of the server's data folder the histories are kept in.
FOLDER = "seat-history"
#: Lines kept for a seat (and the most its line editor remembers).
KEPT = 200


class _Kept(msgspec.Struct):
    seat: str
    lines: list[str]


class SeatHistories:
    """The seats' histories in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def path(self, seat: str) -> Path:
        return self.folder / (hashlib.sha256(seat.encode("utf-8", "surrogatepass")).hexdigest()[:32] + ".json")

    def load(self, seat: str) -> list[str]:
        """The seat's last lines, oldest first ([] when it has none that can be read)."""
        try:
            data = read_small(self.path(seat))
            if data is None:
                return []
            kept = msgspec.json.decode(data, type=_Kept)
        except (ValueError, OSError, msgspec.DecodeError):
            return []
        return history_lines(kept.lines)[-KEPT:] if kept.seat == seat else []

    def save(self, seat: str, lines: list[str]) -> None:
        """Keep the seat's last lines (an error of the disk loses them, never the session)."""
        record = _Kept(seat, history_lines(lines)[-KEPT:])
        with contextlib.suppress(OSError):
            write_atomic(self.path(seat), msgspec.json.encode(record) + b"\n")
