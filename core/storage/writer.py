"""Writing a save: create it, lock it, go on from what was loaded, append and sync.

The format and the reading are ``core.storage.savefile``'s.  A writer appends a
command's records in one ``write`` and ``fsync``s before it returns, so a shown
result is on disk; it cuts a torn tail only after copying those bytes into a
``.torn-*`` file next to the save; and it holds the save's lock
(``core.storage.lock``) for its whole life, so no other process appends meanwhile.

What a writer goes on from is synced too (the save, and the folder's entry for
it: a file copied there, or written by a process killed before its sync).  For
a whole save that sync runs on a thread of its own as the game opens, where it
held up every start (0.5-1 ms on an idle disk, 3-9 ms while another program wrote
to it); the first append waits for it, and fails as the open would have if it did.
"""

from __future__ import annotations

import _thread
import contextlib
import errno
import os
import time
import weakref
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

import msgspec

from core.language.i18n import _
from core.log.history import MAX_COMMAND_EVENTS
from core.storage import lock as savelock
from core.storage.decoding import FORMAT_VERSION, Header, decode_event
from core.storage.errors import NoGameYet, SaveError, SaveLocked
from core.storage.savefile import (
    MAX_LINE_BYTES,
    UPCASTERS,
    Chain,
    Framed,
    Loaded,
    encoder,
    frame_header,
    load,
    open_regular,
)


def _fsync_dir(path: Path) -> None:
    """Sync the folder of ``path`` (its entry); OSError if the sync fails.  A folder that
    cannot be opened, or whose file system syncs no folder, is passed over."""
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as e:
        if e.errno not in (errno.EINVAL, errno.ENOTSUP):
            raise
    finally:
        os.close(fd)


#: The mode of every save and side copy the program creates: they name hidden units and
#: secrets, so no other account reads them, whatever the umask (issue #60).
OWNER_ONLY = 0o600


def _create_aside(path: Path) -> tuple[int, Path]:
    """A new ``NAME.torn-<time>`` file, open to write; a second crash within the same second gets ``-2``, ``-3``…"""
    name = f"{path.name}.torn-{int(time.time())}"
    n = 1
    while True:
        aside = path.with_name(name if n == 1 else f"{name}-{n}")
        try:
            return os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY), aside
        except FileExistsError:
            n += 1


def _set_aside(path: Path, fd: int, keep: int, size: int) -> Path:
    """Copy bytes ``keep``..``size`` of the save into a ``.torn-*`` file, synced, then cut them off."""
    with open(path, "rb") as torn:
        torn.seek(keep)
        tail = torn.read(size - keep)
    fd_aside, aside = _create_aside(path)
    with os.fdopen(fd_aside, "wb") as aside_file:
        try:
            aside_file.write(tail)
            aside_file.flush()
            os.fsync(aside_file.fileno())
        except OSError:
            # The torn bytes are still in the save, which is not cut: a copy that
            # failed (a full disk) is not left beside it.
            aside.unlink()
            raise
    os.ftruncate(fd, keep)
    return aside


def _put_back(fd: int, aside: Path | None) -> None:
    """Empty the save open on ``fd`` of what was written of a new header, return the
    bytes set aside (if any) and remove their copy: a new game that could not be
    started leaves the folder as it was.  If even that fails, the copy stays, holding them."""
    try:
        os.ftruncate(fd, 0)
        if aside is not None:
            _write_all(fd, aside.read_bytes())
        os.fsync(fd)
        if aside is not None:
            aside.unlink()
    except OSError:
        pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _lock(path: Path, fd: int) -> None:
    try:
        savelock.acquire(path, fd)
    except savelock.Busy as busy:
        os.close(fd)
        raise SaveLocked(path, busy.holder, busy.who()) from None


def _unwritable(path: Path, e: OSError) -> SaveError:
    return SaveError(
        _(
            "{path}: cannot open the save for writing: {error}; "
            "open it read-only (`fireteam {path} --replay`), or make the file and its folder writable"
        ).format(path=path, error=e.strerror)
    )


class SaveWriter:
    """Appends command groups to a save and syncs them before returning.

    A writer holds the save's lock (:mod:`core.storage.lock`) from the moment it
    opens the file until :meth:`close`: no other process appends meanwhile.
    A log framed as a save that holds other records (``core.storage.journal``)
    is written by a subclass with its own ``decode``.
    """

    #: The reader's own decoder of one record: each is read back with it before it is written.
    decode: Callable[[bytes], object] = staticmethod(decode_event)

    def __init__(self, path: Path, fd: int, size: int, chain: Chain) -> None:
        self.path = path
        self._fd = fd
        # A writer dropped without ``close`` (a front end's error path, a test) still gives its
        # descriptor back, and with it the save's lock: else the save stayed locked, and the
        # descriptor open, for as long as the process ran.
        self._dropped = weakref.finalize(self, os.close, fd)
        #: Bytes in the file: every record written and synced.
        self.size = size
        self.chain = chain
        #: Why this writer can no longer append (a failed write it could not take back).
        self.broken = ""
        #: The sync of a whole save adopted (``adopt``): held while it runs; then what it failed with, if it did.
        self._settling: _thread.LockType | None = None
        self._unsettled: OSError | None = None

    @property
    def check(self) -> int:
        return self.chain.check

    @classmethod
    def create(cls, path: str | os.PathLike[str], header: Framed) -> SaveWriter:
        """A new save holding ``header``; a save a crash left without a whole header is started again."""
        path = Path(path)
        created = True
        aside: Path | None = None  # where a restart set aside what a crash left
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            # A file where a folder should be raises FileExistsError too: it is not the save.
            error = _("a file is in the way of its folder") if isinstance(e, FileExistsError) else e.strerror
            said = _("{path}: cannot create the save: {error}; choose a writable folder")
            raise SaveError(said.format(path=path, error=error)) from None
        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, OWNER_ONLY)
        except FileExistsError:
            fd, aside = cls._restart(path)
            created = False
        except OSError as e:
            said = _("{path}: cannot create the save: {error}; choose a writable folder")
            raise SaveError(said.format(path=path, error=e.strerror)) from None
        else:
            _lock(path, fd)
        writer = cls(path, fd, 0, Chain(0))
        first = frame_header(header)
        try:
            _write_all(fd, first)
            os.fsync(fd)
            _fsync_dir(path)
        except OSError as e:
            if created:
                # A full disk must not leave an empty save behind (removed while
                # still locked: no other process can have taken it up).
                with contextlib.suppress(OSError):
                    path.unlink()
            else:
                _put_back(fd, aside)
            writer.close()
            said = _("{path}: cannot write the new save: {error}; free some space and try again")
            raise SaveError(said.format(path=path, error=e.strerror)) from None
        writer.size = len(first)
        writer.chain = Chain(zlib.crc32(first[9:-1]), header.fireteam)
        return writer

    @staticmethod
    def _restart(path: Path) -> tuple[int, Path | None]:
        """The locked, emptied descriptor of a save holding no game yet, and where its
        bytes were set aside (None if it was empty)."""
        exists = SaveError(
            _("{path}: already exists; choose another name (saves are never overwritten)").format(path=path)
        )
        try:
            fd = open_regular(path, os.O_WRONLY | os.O_APPEND)
        except (IsADirectoryError, PermissionError):
            raise exists from None
        except OSError as e:  # (an I/O error is not a name taken)
            said = _("{path}: cannot create the save: {error}; choose a writable folder")
            raise SaveError(said.format(path=path, error=e.strerror)) from None
        _lock(path, fd)
        try:
            load(path)
        except NoGameYet:
            size = os.fstat(fd).st_size
            try:
                return fd, _set_aside(path, fd, 0, size) if size else None
            except OSError as e:
                # The copy failed and was removed: the file is as it was.
                savelock.release(path)
                os.close(fd)
                said = _("{path}: cannot set aside what a crash left in it: {error}; free some space and try again")
                raise SaveError(said.format(path=path, error=e.strerror)) from None
        except SaveError:
            pass
        savelock.release(path)
        os.close(fd)
        raise exists

    @classmethod
    def lock(cls, path: str | os.PathLike[str]) -> SaveWriter:
        """Open an existing save to append to it, taking its lock; then load it and :meth:`adopt` it.

        Raises :class:`SaveLocked` if another process writes it.  The lock comes
        before the load, so what is loaded is what this writer appends to.
        """
        path = Path(path)
        try:
            fd = open_regular(path, os.O_WRONLY | os.O_APPEND)
        except FileNotFoundError:
            raise SaveError(_("{path}: no such save file; check the name").format(path=path)) from None
        except IsADirectoryError:
            raise SaveError(_("{path}: cannot read: is a directory, not a save").format(path=path)) from None
        except OSError as e:
            raise _unwritable(path, e) from None
        _lock(path, fd)
        return cls(path, fd, 0, Chain(0))

    def adopt(self, loaded: Loaded) -> None:
        """Go on from what was loaded, first setting aside any torn tail.

        A save in an older format goes on in that format, as long as its records
        still mean what they did (no upcaster since): one file, one format.
        """
        if any(UPCASTERS.get(v) for v in range(loaded.version, FORMAT_VERSION)):
            raise SaveError(
                _(
                    "{path}: written in save format {version}, which this Fireteam reads but no longer "
                    "writes; open it read-only (`fireteam {path} --replay`), or run `fireteam salvage {path}` "
                    "to copy it into a new save in today's format"
                ).format(path=self.path, version=loaded.version)
            )
        aside = self.go_on(loaded.version, loaded.good_bytes, loaded.check, loaded.torn_bytes)
        if aside:
            loaded.notes.append(_("torn bytes kept in {file}").format(file=aside))
            loaded.torn_bytes = 0

    def go_on(self, version: int, good_bytes: int, check: int, torn_bytes: int) -> str:
        """Go on from a file of ``version`` whose first ``good_bytes`` are whole records, the last
        with check ``check``, and ``torn_bytes`` after them (set aside first, in a ``.torn-*`` file
        whose name is returned; "" if none)."""
        path = self.path
        self.size = good_bytes
        self.chain = Chain(check, version)
        if not torn_bytes:
            # Nothing to change: synced beside the start, waited for by the first append.  A bare
            # thread: ``threading.Thread.start`` waits until the thread runs (2.8 ms once, the
            # machine busy, more than the syncs it would spare the start).  Its lock stays held
            # in a process forked meanwhile, whose copy of this writer must never append or close
            # (the client's one fork, a big save's load aside, comes before any save is opened).
            self._settling = _thread.allocate_lock()
            self._settling.acquire()
            _thread.start_new_thread(self._settle, (self._settling,))
            return ""
        try:
            aside = _set_aside(path, self._fd, good_bytes, good_bytes + torn_bytes)
            os.fsync(self._fd)
            _fsync_dir(path)
        except OSError as e:
            raise SaveError(
                _(
                    "{path}: cannot set aside the torn end of the save: {error}; "
                    "free some space, or open it read-only (`fireteam {path} --replay`)"
                ).format(path=path, error=e.strerror)
            ) from None
        return aside.name

    def _settle(self, running: _thread.LockType) -> None:
        try:
            os.fsync(self._fd)
            _fsync_dir(self.path)
        except OSError as e:
            self._unsettled = e
        finally:
            running.release()

    def settled(self) -> None:
        """Wait for the sync of what was adopted (``adopt``) to end; if it failed, nothing more is appended."""
        settling = self._settling
        if settling is not None:
            with settling:  # released as the sync ends
                self._settling = None
            if self._unsettled is not None:
                self.broken = _(
                    "{path}: cannot sync the save: {error}; nothing more is written to it: "
                    "close the game and open it again"
                ).format(path=self.path, error=self._unsettled.strerror)

    def append(self, events: Sequence[msgspec.Struct]) -> list[bytes]:
        """Write and sync ``events``; return their JSON payloads (for the store).

        If the write or the sync fails (a full disk, an I/O error), what was
        written of it is cut off again and OSError is raised: the file keeps
        only whole commands.  If even that fails, this writer refuses every
        later append, since the save's end is no longer known to be whole.
        """
        self.settled()
        if self.broken:
            raise SaveError(self.broken)
        payloads = [encoder.encode(e) for e in events]
        if not payloads:
            return payloads
        if len(payloads) > MAX_COMMAND_EVENTS + 1:
            said = _("{path}: a command of {facts} facts is too big (at most {limit})")
            raise SaveError(said.format(path=self.path, facts=len(payloads) - 1, limit=MAX_COMMAND_EVENTS))
        try:
            # What the reader would refuse (a number no game counts to, a distance not in its
            # decimal form, a message too big to show) would make the save unloadable: each
            # record is read back with the reader's own decoder before a byte is written.
            for payload in payloads:
                self.decode(payload)
        except msgspec.ValidationError as e:
            raise SaveError(f"{self.path}: {e}") from None
        longest = max(map(len, payloads)) + 9  # check and space
        if longest > MAX_LINE_BYTES:
            # The reader refuses such a line: writing it would make the save unloadable.
            said = _("{path}: a record of {size} bytes is too long (at most {limit})")
            raise SaveError(said.format(path=self.path, size=longest, limit=MAX_LINE_BYTES))
        chain = Chain(self.chain.check)
        chain.chained = self.chain.chained
        data = b"".join(chain.frame_payload(p) for p in payloads)
        try:
            _write_all(self._fd, data)
            os.fsync(self._fd)
        except OSError:
            self._take_back()
            raise
        self.size += len(data)
        self.chain = chain
        return payloads

    def _take_back(self) -> None:
        try:
            os.ftruncate(self._fd, self.size)
        except OSError as e:
            self.broken = _(
                "{path}: a write failed and could not be taken back ({error}); "
                "close the game and open it again (a torn end is set aside then)"
            ).format(path=self.path, error=e.strerror)
            return
        # If this sync fails too, the next append's sync carries the cut to the disk.
        with contextlib.suppress(OSError):
            os.fsync(self._fd)

    def close(self) -> None:
        if self._fd >= 0:
            self.settled()  # never the descriptor closed under its sync (its number could be another file's)
            savelock.release(self.path)
            self._dropped.detach()
            os.close(self._fd)  # drops the lock
            self._fd = -1


def write_new(target: Path, header: Header, payloads: list[bytes], *, option: str) -> None:
    """A new save at ``target`` (never an existing file) holding ``header``, in today's
    format, and the records ``payloads``, chained and synced; ``option`` is the
    command-line option naming ``target`` (for the advice when it cannot be made).

    For saves made whole from another (``fireteam salvage``, ``fireteam fork``):
    if writing fails, the partial file is removed.
    """
    today = msgspec.structs.replace(header, fireteam=FORMAT_VERSION)
    first = frame_header(today)
    chain = Chain(int(first[:8], 16))
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY)
    except FileExistsError:
        said = _("{path}: already exists; choose another name with {option} (saves are never overwritten)")
        raise SaveError(said.format(path=target, option=option)) from None
    except OSError as e:
        said = _("{path}: cannot create: {error}; choose another place with {option}")
        raise SaveError(said.format(path=target, error=e.strerror, option=option)) from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(first)
            for start in range(0, len(payloads), 4096):
                out.write(b"".join(chain.frame_payload(p) for p in payloads[start : start + 4096]))
            out.flush()
            os.fsync(out.fileno())
        _fsync_dir(target)
    except OSError as e:
        with contextlib.suppress(OSError):  # (a disk gone away: the clean-up fails too, and says nothing more)
            target.unlink(missing_ok=True)
        said = _("{path}: cannot write: {error}; free some space or choose another place with {option}")
        raise SaveError(said.format(path=target, error=e.strerror, option=option)) from None
