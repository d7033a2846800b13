"""One writer per save: an OS lock held for as long as a process may append.

Every writer (the client, ``fireteam script``, ``fireteam serve``) takes an
exclusive lock on the save itself before it loads it, and keeps it until it
closes the save: ``flock`` on Linux and macOS; on Windows, ``msvcrt.locking``
of one byte far past any save's end (a Windows lock is mandatory: on the bytes
of the save it would stop readers).  The system drops the lock when the process
ends, however it ends, so a lock left by a dead process never blocks anyone.
Readers (replay, log, the seats' followers) take no lock: they never write.

Who holds the lock is written next to the save, in ``NAME.lock`` (process id,
host, since when, command line), so a second opener can be told; that file is
only a label; the lock is the truth, and a label left by a crash is ignored.
"""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import sys
from datetime import UTC, datetime
from pathlib import Path

import msgspec

from core.language.i18n import _

#: A label longer than this is not one Fireteam wrote.
MAX_LABEL_BYTES = 4096
#: Where Windows' lock byte is: 1 TiB in, past the end of any save (as SQLite's lock bytes, at 1 GiB).
WINDOWS_LOCK_OFFSET = 1 << 40
#: Flags that keep a label's open from following a link or waiting on a pipe, where the system has them.
_NOT_THROUGH = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)


class Holder(msgspec.Struct, frozen=True):
    pid: int
    host: str
    since: str
    command: str

    def describe(self) -> str:
        # The label is a file anyone who can write the folder can write: show it
        # as plain text, with no control character reaching the terminal.
        host, command, since = (_printable(v) for v in (self.host, self.command, self.since))
        if self.host == socket.gethostname():
            said = _("process {pid} ({command}), since {since}")
        else:
            said = _("process {pid} on {host} ({command}), since {since}")
        return said.format(pid=self.pid, host=host, command=command, since=since)


def _printable(text: str, limit: int = 200) -> str:
    return "".join(c if c.isprintable() else "?" for c in text[:limit])


class Busy(Exception):
    """Another process holds the lock; ``holder`` says who, if it said."""

    def __init__(self, holder: Holder | None) -> None:
        super().__init__(holder)
        self.holder = holder

    def who(self) -> str:
        return self.holder.describe() if self.holder is not None else _("another process (it left no label)")


def label_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def acquire(path: Path, fd: int) -> None:
    """Lock the save open on ``fd`` for writing, or raise :class:`Busy`."""
    if not _lock(fd):
        raise Busy(holder(path))
    me = Holder(
        pid=os.getpid(),
        host=socket.gethostname(),
        since=datetime.now(UTC).isoformat(timespec="seconds"),
        command=_command(path),
    )
    # A label that cannot be written (a read-only folder) only costs the
    # second opener the details: the lock itself holds.
    with contextlib.suppress(OSError):
        # Never through a link (the label must not land in some other file), nor
        # waiting on a pipe put in its place.
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOT_THROUGH
        fd = os.open(label_path(path), flags, 0o600)  # the owner's, like the save (it names the command)
        try:
            os.write(fd, msgspec.json.encode(me))
        except OSError:
            # (A full disk.)  An empty label names no one and would outlive us:
            # ``release`` removes only a label it can read as ours.
            label_path(path).unlink()
            raise
        finally:
            os.close(fd)


def _lock(fd: int) -> bool:
    """Take the exclusive lock of the file open on ``fd`` at once; False if another process holds it."""
    try:
        import fcntl  # POSIX
    except ImportError:
        return _lock_windows(fd)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _lock_windows(fd: int) -> bool:
    import msvcrt  # the system has no fcntl: Windows

    # ``locking`` locks from the file's position.  Moving it costs a writer nothing:
    # the save is open for appending, and every write goes to its end.
    where = os.lseek(fd, 0, os.SEEK_CUR)
    os.lseek(fd, WINDOWS_LOCK_OFFSET, os.SEEK_SET)
    try:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]  # (Windows' only: typeshed's on win32)
    except PermissionError:  # held by another process (EACCES)
        return False
    finally:
        os.lseek(fd, where, os.SEEK_SET)
    return True


def _command(path: Path) -> str:
    """What the label says writes ``path``: the command line, if it names this save.

    A client locks the saves it loads or starts after its own start, and its
    command line names the save it started on: shown beside this one, that
    other save's name would pass for the save held.  Then the program alone.
    """
    words = sys.argv[1:]
    here = path.resolve()
    for word in words:
        for candidate in (word, word.partition("=")[2]):  # --save PATH and --save=PATH alike
            with contextlib.suppress(OSError, ValueError):
                if candidate and Path(candidate).resolve() == here:
                    return " ".join(["fireteam", *words])[:200]
    return "fireteam"


def release(path: Path) -> None:
    """Remove the label, if it is still ours (call while the lock is held)."""
    label = label_path(path)
    found = holder(path)
    if found is not None and found.pid == os.getpid() and found.host == socket.gethostname():
        with contextlib.suppress(OSError):
            label.unlink()


def holder(path: Path) -> Holder | None:
    """Who says he holds the lock of ``path`` (None if no readable label)."""
    try:
        # Not through a link, and never waiting on a pipe someone put there.
        fd = os.open(label_path(path), os.O_RDONLY | _NOT_THROUGH)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, MAX_LABEL_BYTES + 1)
        if len(data) > MAX_LABEL_BYTES:
            return None
        return msgspec.json.decode(data, type=Holder)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError):
        return None
    finally:
        os.close(fd)
