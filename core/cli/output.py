"""What a headless command prints, written whole or said not to be (issue #90, point 9).

A verdict (``verify``), a copy (``export``) or a receipt (``certify``, ``league add``) cut short
by a closed or full standard output must not pass for the whole: the command exits with a
status of its own, says so on standard error if it can, and never with a traceback.  Every other
headless command's output is :func:`watched` (``tui.main``): one that cannot be written (a full
disk, an I/O error) ends the same way; a reader that left (``| head``) is a quiet exit.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Callable, Iterator
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
        unwritten(out, e, command)
        return False
    return True


class Watched:
    """Standard output as a headless command prints to it, remembering whether writing it failed:
    so that an error it raised is known for the output's (and said so, with :data:`UNWRITTEN`),
    not taken for another file's.  Everything but ``write`` and ``flush`` is the stream's own."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.failed: OSError | None = None

    def write(self, text: str) -> int:
        try:
            return self.out.write(text)
        except OSError as e:
            self.failed = e
            raise

    def flush(self) -> None:
        try:
            self.out.flush()
        except OSError as e:
            self.failed = e
            raise

    def __getattr__(self, name: str) -> object:
        return getattr(self.out, name)


@contextlib.contextmanager
def watched(command: Callable[[], str]) -> Iterator[list[int]]:
    """Standard output watched while the block runs and flushed at its end: where writing it
    fails (a full disk, an I/O error), the block's error is said on standard error as
    :func:`written` says it and its status (the list's one item) is :data:`UNWRITTEN`, never a
    traceback.  A reader that left (``BrokenPipeError``) is the console script's (a quiet exit)."""
    status: list[int] = [0]
    out = sys.stdout
    if out is None:  # (`>&-`: print writes nothing and fails on nothing)
        yield status
        return
    sys.stdout = watch = Watched(out)
    try:
        try:
            yield status
        except SystemExit:  # argparse's --help and --version print, then exit
            watch.flush()
            raise
        watch.flush()  # here, not at the interpreter's exit, where a failure is a traceback
    except BrokenPipeError:
        raise
    except OSError as e:
        if watch.failed is not e:
            raise
        unwritten(out, e, command())
        status[0] = UNWRITTEN
    finally:
        sys.stdout = out


def tell(said: str) -> None:
    """``said`` on standard error, if standard error can still be written."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(said + "\n")
        sys.stderr.flush()


def unwritten(out: TextIO | None, error: Exception, command: str) -> None:
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
