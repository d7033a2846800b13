"""A failing disk, as SQLite's test VFS makes one: the Nth write-side call under a folder fails.

``Faults(root)`` replaces ``os.write``, ``os.fsync``, ``os.ftruncate``, ``os.rename``,
``os.replace``, ``os.unlink`` and the ``os.open`` of a file for writing, and the writes
and flushes of file objects opened for writing (``open``, ``io.open``, ``os.fdopen``
go through ``io.open``), for files under ``root`` only (a descriptor is named by
``/proc/self/fd``): the test's own files, the terminal and pytest's are never touched.

Counted with no fault first (``Faults(root, kind=None)``), a path's calls are then
failed one by one: the ``nth`` call fails with ``EIO`` or ``ENOSPC``, once or, with
``lasting``, from then on (a disk gone away: removals fail too for ``EIO``; a full disk
still lets files be removed).  ``short``: the ``nth`` write writes only half of what
it was given (a raw write returns the count, as a full disk's does; a file object's
write, which cannot say so, then fails with ``ENOSPC``).
"""

from __future__ import annotations

import builtins
import errno
import io
import os
from pathlib import Path

#: The kinds of fault: the error raised, or ``short``.
KINDS = ("EIO", "ENOSPC", "short")
_CODES = {"EIO": errno.EIO, "ENOSPC": errno.ENOSPC}
_WRITING = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


class Faults:
    def __init__(self, root: Path, kind: str | None = None, nth: int = 0, *, lasting: bool = False) -> None:
        self.root = str(Path(root).resolve())
        self.kind = kind
        self.nth = nth
        self.lasting = lasting
        #: Calls counted so far (only writes, for ``short``).
        self.calls = 0
        #: Whether a fault was injected; the paths whose removal was refused.
        self.fired = False
        self.unremoved: set[Path] = set()
        self._real = {
            name: getattr(os, name) for name in ("write", "fsync", "ftruncate", "rename", "replace", "unlink", "open")
        }
        self._real_open = io.open

    # ------------------------------------------------------------------ install

    def __enter__(self) -> Faults:
        real = self._real
        os.write = lambda fd, data: self._write(fd, data)
        os.fsync = lambda fd: self._call("fsync", self._fd_ours(fd), real["fsync"], fd)
        os.ftruncate = lambda fd, n: self._call("ftruncate", self._fd_ours(fd), real["ftruncate"], fd, n)
        os.rename = lambda a, b, **k: self._call("rename", self._ours(a) or self._ours(b), real["rename"], a, b, **k)
        os.replace = lambda a, b, **k: self._call("replace", self._ours(a) or self._ours(b), real["replace"], a, b, **k)
        os.unlink = self._unlink
        os.remove = self._unlink
        os.open = self._os_open
        builtins.open = io.open = self._file_open
        return self

    def __exit__(self, *exc: object) -> None:
        for name, call in self._real.items():
            setattr(os, name, call)
        os.remove = self._real["unlink"]
        builtins.open = io.open = self._real_open

    # ------------------------------------------------------------------ counting

    def _ours(self, path: object) -> bool:
        try:
            return os.path.abspath(os.fspath(path)).startswith(self.root)  # type: ignore[arg-type]
        except TypeError:
            return False

    def _fd_ours(self, fd: int) -> bool:
        try:
            return os.readlink(f"/proc/self/fd/{fd}").startswith(self.root)
        except OSError:
            return False

    def _fails(self, counted: bool = True) -> bool:
        """Count one call; whether it is to fail."""
        if self.kind is None or not counted:
            if counted:
                self.calls += 1
            return False
        self.calls += 1
        failing = self.calls == self.nth or (self.lasting and self.calls > self.nth)
        self.fired |= failing
        return failing

    def _error(self) -> OSError:
        code = _CODES.get(self.kind or "", errno.ENOSPC)
        return OSError(code, os.strerror(code))

    def _call(self, name: str, ours: bool, real, *args, **kwargs):
        if ours and self._fails(counted=self.kind != "short"):
            raise self._error()
        return real(*args, **kwargs)

    def _write(self, fd: int, data) -> int:
        if self._fd_ours(fd) and self._fails():
            if self.kind != "short":
                raise self._error()
            view = memoryview(data)
            return self._real["write"](fd, view[: max(1, len(view) // 2)])
        return self._real["write"](fd, data)

    def _unlink(self, path, *, dir_fd=None) -> None:
        ours = self._ours(path)
        removal_fails = self.kind == "EIO" or not self.lasting or self.calls + 1 == self.nth
        if ours and self._fails(counted=self.kind != "short") and removal_fails:
            self.unremoved.add(Path(os.path.abspath(path)))
            raise self._error()
        self._real["unlink"](path, dir_fd=dir_fd) if dir_fd is not None else self._real["unlink"](path)

    def _os_open(self, path, flags, mode=0o777, *, dir_fd=None):
        if flags & _WRITING and self._ours(path) and self._fails(counted=self.kind != "short"):
            raise self._error()
        return self._real["open"](path, flags, mode, dir_fd=dir_fd)

    def _file_open(self, file, mode="r", *args, **kwargs):
        writing = any(c in mode for c in "wax+")
        if writing and not isinstance(file, int) and self._ours(file) and self._fails(counted=self.kind != "short"):
            raise self._error()
        f = self._real_open(file, mode, *args, **kwargs)
        if writing and (self._ours(file) if not isinstance(file, int) else self._fd_ours(file)):
            return _FailingFile(f, self)
        return f


class _FailingFile:
    """A file object whose ``write`` and ``flush`` are counted as writes."""

    def __init__(self, f, faults: Faults) -> None:
        self._f = f
        self._faults = faults

    def __getattr__(self, name: str):
        return getattr(self._f, name)

    def __enter__(self) -> _FailingFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self._f.close()

    def write(self, data):
        if self._faults._fails():
            if self._faults.kind == "short":
                self._f.write(data[: len(data) // 2])
                self._f.flush()
            raise (
                self._faults._error()
                if self._faults.kind != "short"
                else OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            )
        return self._f.write(data)

    def flush(self) -> None:
        if self._faults._fails(counted=self._faults.kind != "short"):
            raise self._faults._error()
        self._f.flush()
