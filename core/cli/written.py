"""An answer written to standard output whole, or said on standard error that it was not.

A command's output may go to a closed pipe (``| head -0``), a full disk (``> /dev/full``) or
nowhere (``>&-``: Python's ``sys.stdout`` is then None): none of these is the command's failure
to report with a traceback, but a reader must not take half an answer for the whole one.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TextIO


def write_whole(text: str, out: TextIO | None = None) -> Exception | None:
    """Write ``text`` to ``out`` (standard output) and flush it: None if it was written whole,
    else what stopped it (the stream then pointed at nothing, so the interpreter's last flush
    does not fail again)."""
    out = sys.stdout if out is None else out
    if out is None:  # started with standard output closed
        return OSError(9, os.strerror(9))
    try:
        out.write(text)
        out.flush()
    except (OSError, ValueError) as e:  # ValueError: the stream was closed
        silence(out)
        return e
    return None


def silence(out: TextIO) -> None:
    """Point ``out``'s descriptor at the null device: what it still buffers goes nowhere, quietly."""
    with contextlib.suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, out.fileno())
        os.close(null)


def tell(said: str) -> None:
    """``said`` on standard error, if standard error can still be written."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(said + "\n")
        sys.stderr.flush()
