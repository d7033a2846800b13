"""A big save's bytes read and hashed on another core while the client starts.

A big save opens from the open cache (``core.storage.opencache``), whose entry is
used only once the save's bytes hash to its digest.  Reading 11 MB into a fresh
process and hashing them is half of that open (about 6.5 and 3 ms for 100,000
events on the 2-core host), and both release the interpreter: ``fireteam SAVE``
starts them in a thread before it imports Textual (``tui.main``), and the open
takes the bytes and their hash instead of reading the file again, if the file
is still the one that was read.

"Still the one": the same file (device and inode), size, and modification and
change times, as the open finds them on its own descriptor once it holds the
save's lock.  Another writer's append changes the size; any write, the times
(the kernel sets them, a program cannot put the change time back).  Otherwise
the open reads the file itself, as without this.
"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path
from typing import Any

#: Only a save the open cache takes is read ahead (``tui.opening.open_cache``); a
#: smaller one is read in a millisecond or two, as it is opened.
FROM_BYTES = 1 << 20
#: Nor one larger than a save may be (``core.storage.savefile.MAX_FILE_BYTES``, not imported:
#: this module is imported before the rest of the client, so that its thread starts first).
UP_TO_BYTES = 2 << 30


def _identity(st: os.stat_result) -> tuple[int, ...]:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


class ReadAhead:
    """``path``'s bytes, read and hashed (BLAKE3) in a thread started now."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._read: tuple[tuple[int, ...], bytes, Any] | None = None
        # A daemon: a process that quits before the open (a wrong option) does not wait for it.
        self._thread = threading.Thread(target=self._run, name="fireteam-read-ahead", daemon=True)
        self._thread.start()

    @classmethod
    def of(cls, save: Path | None) -> ReadAhead | None:
        """Started for a save the open cache takes (``FROM_BYTES``); else None."""
        if save is None:
            return None
        try:
            size = os.stat(save).st_size
        except OSError:
            return None  # (the open says why)
        return cls(save) if FROM_BYTES < size <= UP_TO_BYTES else None

    def _run(self) -> None:
        try:
            # Not waiting on a FIFO named like the save (``savefile.open_regular``): nothing is read from one.
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            return
        with open(fd, "rb") as f:
            try:
                st = os.fstat(fd)
                if not stat.S_ISREG(st.st_mode) or not 0 < st.st_size <= UP_TO_BYTES:
                    return
                data = f.read(st.st_size)
            except OSError:
                return
        import blake3  # (here: a small save's start does without it, and a big one's imports it on this core)

        if len(data) == st.st_size:  # (a save cut short meanwhile: its times say so too)
            self._read = (_identity(st), data, blake3.blake3(data))

    def take(self, fd: int) -> tuple[bytes, Any] | None:
        """The bytes read and a BLAKE3 hasher fed all of them, if the file open as ``fd``
        is still the one read (the module's doc); else None.  Waits for the read to end;
        given once (the bytes are the store's from then on, or let go)."""
        self._thread.join()
        read, self._read = self._read, None
        if read is None or read[0] != _identity(os.fstat(fd)):
            return None
        return read[1], read[2]
