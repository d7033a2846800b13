"""What a headless command prints, written whole or said not to be (issue #90, point 9).

A verdict (``verify``), a copy (``export``) or a receipt (``certify``, ``league add``) cut short
by a closed or full standard output must not pass for the whole: the command exits with a
status of its own, says so on standard error if it can, and never with a traceback.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from typing import TextIO

from core.language.i18n import _

#: The exit status of a headless command whose output could not be written whole (a closed
#: standard output, a pipe whose reader left, a full disk): after ``verify``'s own (0 passes,
#: 1 forged, 2 unreadable, 3 rules changed since) and before 5 (written by a newer Fireteam).
UNWRITTEN = 4


def written(data: str | bytes, command: str, *, err: bool = False) -> bool:
    """Write ``data`` whole to standard output (``err``: standard error) and flush it: False, said
    on standard error where it still can be, if it could not be (``command`` names the command)."""
    out = sys.stderr if err else sys.stdout
    try:
        if out is None:  # (the process was started with it closed: `>&-`)
            raise OSError(errno.EBADF, os.strerror(errno.EBADF))
        if isinstance(data, bytes):
            out.buffer.write(data)
        else:
            out.write(data)
        out.flush()
    except (OSError, ValueError) as e:  # ValueError: the stream was closed
        _unwritten(out, e, command)
        return False
    return True


def tell(said: str) -> None:
    """``said`` on standard error, if standard error can still be written."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(said + "\n")
        sys.stderr.flush()


def _unwritten(out: TextIO | None, error: Exception, command: str) -> None:
    """Say on standard error that the output was not written (if standard error can still be
    written), and leave nothing for the interpreter's last flush to fail on again."""
    said = _("fireteam {command}: what it prints could not be written whole ({error}); do not read it")
    reason = getattr(error, "strerror", None) or error
    if out is not sys.stderr:
        tell(said.format(command=command, error=reason))
    if out is None:
        return
    with contextlib.suppress(OSError, ValueError):
        # What the stream still buffers would fail again at exit, with a traceback: dropped.
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, out.fileno())
        os.close(null)
