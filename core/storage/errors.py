"""The errors of a save: what a load or a write refuses, each message naming the file
(and the line, where one is at fault) and what to do.

Raised by the reader (``core.storage.savefile``), its decoders (``core.storage.decoding``)
and the writer (``core.storage.writer``); the client and the headless commands say them.
"""

from __future__ import annotations

from pathlib import Path

from core.language.i18n import _
from core.storage import lock as savelock


class SaveError(Exception):
    """A save that cannot be loaded or written; the message names file and line."""

    #: The damage alone, without the file, the line and the advice (``fireteam salvage`` says it).
    what: str = ""


class NoGameYet(SaveError):
    """A save whose header a crash cut short: nothing was ever played in it."""


class SaveLocked(SaveError):
    """Another process writes this save (``holder`` says who, if it said)."""

    def __init__(self, path: Path, holder: savelock.Holder | None, who: str) -> None:
        super().__init__(
            _(
                "{path}: another Fireteam is writing this save: {who}. "
                "Open it read-only to follow that game (`fireteam {path} --replay`), or close the other one first"
            ).format(path=path, who=who)
        )
        self.path = path
        self.holder = holder
        self.who = who


def not_a_save(path: Path) -> SaveError:
    return SaveError(
        _("{path}:1: not a Fireteam save (no valid header line); is this the right file?").format(path=path)
    )


def salvage_hint(path: Path) -> str:
    """What to do with a save that is damaged past some line (a sentence)."""
    return _("Run `fireteam salvage {path}` to copy every whole command before the damage into a new save.").format(
        path=path
    )


def corrupt(path: Path, line: int, what: str) -> SaveError:
    said = _("{path}:{line}: {what}; the file was not changed. {hint}")
    error = SaveError(said.format(path=path, line=line, what=what, hint=salvage_hint(path)))
    error.what = what
    return error
