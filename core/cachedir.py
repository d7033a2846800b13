"""The folder Fireteam keeps its caches in: what can be made again, never user data.

``platformdirs.user_cache_path("fireteam")`` (``~/.cache/fireteam`` on Linux),
or ``$FIRETEAM_CACHE_DIR`` when set (tests, a server's own folder).  Each cache
has a subfolder; one is left: ``open`` (what loading a save found,
``core.storage.opencache``).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: ``FIRETEAM_CACHE_DIR`` overrides platformdirs' cache folder (tests, servers): ``core.folders``.
CACHE_DIR_ENV = "FIRETEAM_CACHE_DIR"


def cache_root() -> Path:
    """The folder the caches' subfolders are in (not made here: a cache makes its own when it writes)."""
    from core.folders import folder

    return folder("cache")


def open_entry(path: Path) -> tuple[int, os.stat_result] | None:
    """A cache entry opened for reading (its descriptor, and its ``fstat``), or None if it
    is not a regular file that this user owns and not everybody may write.

    A link is not followed, and a FIFO is opened without waiting for a writer (then
    refused), so a planted entry never holds a start up.  An entry another user
    made (a shared or badly set ``FIRETEAM_CACHE_DIR``, a folder left writable) is
    not believed: the digests inside an entry guard against damage, not a writer;
    only the user himself, who could as well edit his own programs, is trusted to
    write his cache.  The checks cost nothing a read would not: one ``fstat``.
    """
    try:
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode) and _ours(info):
            return fd, info
    except OSError:
        pass
    os.close(fd)
    return None


def _ours(info: os.stat_result) -> bool:
    """Whether a file is the user's, and not everybody's to write (where the system has owners to say)."""
    geteuid = getattr(os, "geteuid", None)
    return geteuid is None or (info.st_uid == geteuid() and not info.st_mode & stat.S_IWOTH)
