"""``errors.log``: where a user's own Fireteam logs a command that failed on an error of the program.

The core logs such a command with its traceback (``core.refusal.LOG``); the
program that runs it chooses where that goes.  The Textual client, ``fireteam
--plain`` and ``fireteam script`` send it here, to the state folder's
``errors.log`` (``core.folders``), and say only the one line and where the
details are: a traceback on the terminal is fifteen lines a screen reader speaks
after the answer.  A server's seats are the host's, whose log keeps it
(``tui.ssh.host.serverlog.server_log``).
"""

from __future__ import annotations

import io
import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from core.language.i18n import _
from core.refusal import LOG

#: The file's name in the state folder.
NAME = "errors.log"
#: Bytes of the log before it is rotated (one older file is kept).
MAX_BYTES = 1_000_000
#: Error logs whose last record could not be written (a full disk, a folder that cannot be
#: made), with why: :func:`details_in` says so rather than name a file without them.
_unwritable: dict[Path, str] = {}


class ErrorLog(logging.Handler):
    """The log of the core's errors (:data:`core.refusal.LOG`): made at the first error
    only, private to the user (a command's line may name hidden pieces), and bounded
    (:data:`MAX_BYTES`, then one older file).  Its file handler (and ``logging.handlers``)
    is made at the first record: every start makes an ErrorLog, and few ever write to it."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path
        self.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
        self._file: logging.Handler | None = None

    def emit(self, record: logging.LogRecord) -> None:  # (under this handler's lock: ``Handler.handle``)
        if self._file is None:
            self._file = _rotating_file(self.path)
            self._file.setFormatter(self.formatter)
        _unwritable.pop(self.path, None)
        self._file.emit(record)  # (a failure is the file's ``handleError``)

    def close(self) -> None:
        self.acquire()
        try:
            if self._file is not None:
                self._file.close()
                self._file = None
        finally:
            self.release()
        super().close()


def _rotating_file(path: Path) -> logging.Handler:
    """The file ``ErrorLog`` writes: rotated, private, its folder made when first written."""
    import logging.handlers

    class ErrorFile(logging.handlers.RotatingFileHandler):
        def _open(self) -> io.TextIOWrapper:  # (logging.FileHandler's, at the first record and each rotation)
            where = Path(self.baseFilename)
            where.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            # Made the user's only before it is written: a command's line may name hidden pieces.
            fd = os.open(where, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            return os.fdopen(fd, "a", encoding=self.encoding, errors=self.errors)

        def handleError(self, record: logging.LogRecord) -> None:
            # Not logging's report on stderr (the record's traceback and the failure's, seventy
            # lines a screen reader speaks): the line that says where the details are says why not.
            error = sys.exc_info()[1]
            _unwritable[path] = (error.strerror if isinstance(error, OSError) else None) or str(error)

    return ErrorFile(path, maxBytes=MAX_BYTES, backupCount=1, encoding="utf-8", delay=True)


@contextmanager
def logging_to(path: Path) -> Iterator[None]:
    """The core's errors go to the error log at ``path`` while the block runs."""
    handler = ErrorLog(path)
    LOG.addHandler(handler)
    try:
        yield
    finally:
        LOG.removeHandler(handler)
        handler.close()


def details_in(path: Path) -> str:
    """The line said after an error of the program: where its details (the traceback) are,
    or why they are not there."""
    why = _unwritable.get(path)
    if why is not None:
        return _("the details could not be written to {path}: {error}").format(path=path, error=why)
    return _("the details are in {path}").format(path=path)
