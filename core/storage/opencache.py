"""A verified cache of what loading a save found, so a big save reopens in milliseconds.

Loading a save checks every line's chain, decodes every event, builds the
branching history and folds the state (``core.storage.savefile``, ``core.log.history``,
``core.log.replay``): most of a second for 100,000 events.  Like Python's
``__pycache__``, this keeps what a full load of a save found, in an entry of a
folder of the user's cache (``OpenCache``), and a later open of the same bytes
restores it instead of computing it again.

An entry is trusted only for the exact bytes it was made from: it holds the
length ``L`` of the save's prefix it covers (whole commands) and a BLAKE3
digest of those ``L`` bytes, and is used only if the save's first ``L`` bytes
hash to it, and only by the same Fireteam (a fingerprint of the source of
every module that decodes and folds events).  What follows ``L`` (another
writer's commands, a torn write, damage) is taken in by ``core.storage.savefile.load``
itself, from where the entry stands, so it is treated exactly as in a full
load.  An entry holds no event: a sealed chunk of the store is the save's own
lines, joined when it is first needed (``EventStore.restored``).

The cache is not user data.  Any entry that is missing, damaged, stale or
does not match is ignored (the save is then loaded in full, and a fresh entry
written); writing one is best effort and never touches the save.  Why it is
trusted, and what that does not protect against: ``docs/architecture.md``,
*The open cache*.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import tempfile
import time
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable
from functools import cache, partial
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import blake3
import msgspec

from core.cachedir import cache_root, open_entry
from core.language import i18n
from core.log import events, history, replay, state
from core.log.events import PhaseBegan
from core.log.history import History
from core.log.replay import SNAPSHOT_EVERY, Timeline
from core.log.state import decode_state, encode_state
from core.storage import decoding, savefile, store
from core.storage.decoding import FORMAT_VERSION, decode_batch, decode_header
from core.storage.errors import SaveError
from core.storage.linecheck import check_lines
from core.storage.savefile import CHAINED_FROM, MAX_FILE_BYTES, MAX_LINE_BYTES, UPCASTERS, Loaded, Resume, open_regular
from core.storage.store import CHUNK, FRAME_BYTES, ISSUED, PHASE, EventStore, claims_of, kinds_of

if TYPE_CHECKING:
    from core.storage.readahead import ReadAhead

#: Bump when an entry changes shape or digest (the fingerprint also changes with this file).
FORMAT = 3
#: Entries kept; the least recently used beyond it are removed.
MAX_ENTRIES = 8
#: An entry larger than this is not written, and not read.
MAX_ENTRY_BYTES = 256 << 20
#: Bytes of a digest (BLAKE3's own length).
DIGEST_BYTES = 32
#: A temporary file a writer left (it died mid-write) is removed after this long.
STALE_TEMP_S = 3600
#: The user's entries: this folder of Fireteam's cache (``core.cachedir``).
SUBFOLDER = "open"
_SUFFIX = ".open"


class NotCached(Exception):
    """``Game.open(..., cached_only=True)`` found no entry that holds for the save."""


class Entry(msgspec.Struct, forbid_unknown_fields=True):
    """What a full load of a save's first ``size`` bytes found (the names are those of
    ``History``, ``Timeline`` and ``EventStore``; arrays as their machine bytes)."""

    size: int
    digest: bytes
    lines: int
    check: int
    kinds: bytes
    claims: list[tuple[int, str]]
    #: Where each sealed chunk's lines start in the save, then where the tail's do.
    offsets: list[int]
    group_start: bytes
    group_end: bytes
    live: bytes
    eff_cmds: bytes
    redoable: bytes
    length: int
    run_step: bytes
    run_store: bytes
    undone_at: dict[int, int]
    every: int
    snapshots: list[bytes]
    state: bytes
    phases: list[tuple[int, PhaseBegan]]


class Envelope(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    format: int
    fingerprint: bytes
    #: The digest of ``body`` (a torn or damaged entry is found before it is decoded).
    digest: bytes
    #: The entry, encoded: a view of the file's bytes, not a copy of them (1.6 MB
    #: for 100,000 events, 1-2 ms to copy in a fresh process).
    body: msgspec.Raw


_envelope_decoder = msgspec.msgpack.Decoder(Envelope)
_entry_decoder = msgspec.msgpack.Decoder(Entry)
_encoder = msgspec.msgpack.Encoder()
_KINDS = bytes(range(PHASE + 1))
_ARRAYS = ("group_start", "group_end", "eff_cmds", "redoable", "run_step", "run_store")


# BLAKE3, not hashlib's BLAKE2b: as strong (a 256-bit digest, 128-bit collision
# resistance), and five times as fast here (3.3 against 16.7 ms for an 11 MB save, on
# one core), which is most of a restore's time: every byte the entry covers is hashed.
def _digest(data: bytes | memoryview) -> bytes:
    return blake3.blake3(data).digest(DIGEST_BYTES)


def new_hasher() -> Any:
    return blake3.blake3()


@cache
def fingerprint() -> bytes:
    """This Fireteam's: its modules that decode and fold events, msgspec, Python."""
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{FORMAT} {sys.version} {msgspec.__version__}".encode())
    for module in (events, state, i18n, history, replay, store, savefile, decoding, sys.modules[__name__]):
        h.update(Path(module.__file__ or "").read_bytes())
    return h.digest()


class OpenCache:
    """The entries in ``folder`` (made when first written to)."""

    @classmethod
    def users(cls, ahead: ReadAhead | None = None) -> OpenCache:
        """The user's (``~/.cache/fireteam/open`` on Linux)."""
        return cls(cache_root() / SUBFOLDER, ahead=ahead)

    def __init__(self, folder: Path, max_entries: int = MAX_ENTRIES, *, ahead: ReadAhead | None = None) -> None:
        self.folder = Path(folder)
        self.max_entries = max_entries
        #: A save's bytes being read in a thread, for its first open (``core.storage.readahead``).
        self.ahead = ahead

    def path_of(self, header_line: bytes) -> Path:
        """An entry is named by the save's header line: copies of a save share it."""
        return self.folder / (hashlib.blake2b(header_line, digest_size=16).hexdigest() + _SUFFIX)

    def opening(self, path: Path) -> Opening | None:
        """The save at ``path`` read for an open: restored from its entry if one holds
        for it.  None if it cannot be read (the load then says why)."""
        ahead, self.ahead = self.ahead, None
        try:
            with open(open_regular(path), "rb") as f:
                # Taken whatever follows (the bytes are let go with this call if no entry holds).
                read = ahead.take(f.fileno()) if ahead is not None else None
                size = os.fstat(f.fileno()).st_size
                if not 0 < size <= MAX_FILE_BYTES:
                    return None
                head = f.readline(MAX_LINE_BYTES + 1)
                if not head.endswith(b"\n"):
                    return None
                where = self.path_of(head[:-1])
                # Not open(): a FIFO in the entry's place would wait for a writer for ever.
                opened = open_entry(where)
                if opened is None:
                    return Opening(self, head)  # no entry (or not a file of the user's): loaded in full
                with os.fdopen(opened[0], "rb") as held:
                    entry = self._read(held, where)
                if entry is None or entry.size > size:
                    return Opening(self, head)
                if read is None:
                    f.seek(0)
                    read = f.read(size), None
        except (OSError, SaveError):  # (not a regular file: the load says so)
            return None
        data, hashed = read
        return Opening(self, head, _restore(path, data, len(head), entry, partial(_forget, where), hashed))

    def _read(self, f: BinaryIO, where: Path) -> Entry | None:
        try:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_ENTRY_BYTES:
                return None
            raw = f.read(size)  # not more: a read allocates all it is asked for (1.5 ms for 256 MB)
            envelope = _envelope_decoder.decode(raw)
            if (
                envelope.format != FORMAT
                or envelope.fingerprint != fingerprint()
                or envelope.digest != _digest(envelope.body)
            ):
                return None
            entry = _entry_decoder.decode(envelope.body)
        except (OSError, msgspec.DecodeError):
            return None
        with contextlib.suppress(OSError):
            os.utime(where)  # the least recently used are evicted first
        return entry

    def write(self, header_line: bytes, entry: Entry) -> None:
        """Keep ``entry`` for saves with this header line (best effort: never raises)."""
        try:
            stamp = fingerprint()
        except OSError:
            return  # this Fireteam's sources cannot be read (a frozen build): nothing is kept
        body = _encoder.encode(entry)
        raw = _encoder.encode(Envelope(FORMAT, stamp, _digest(body), msgspec.Raw(body)))
        if len(raw) > MAX_ENTRY_BYTES:
            return
        temp = None
        try:
            self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=self.folder)
            with os.fdopen(fd, "wb") as f:
                f.write(raw)
            os.replace(temp, self.path_of(header_line))
            temp = None
            self._evict()
        except OSError:
            pass
        finally:
            if temp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(temp)

    def _evict(self) -> None:
        now = time.time()
        entries = []
        for item in os.scandir(self.folder):
            if item.name.endswith(_SUFFIX):
                entries.append((item.stat().st_mtime, item.path))
            elif item.name.endswith(".tmp") and now - item.stat().st_mtime > STALE_TEMP_S:
                os.unlink(item.path)
        entries.sort()
        for _mtime, old in entries[: max(0, len(entries) - self.max_entries)]:
            os.unlink(old)


class Hit(msgspec.Struct):
    timeline: Timeline
    resume: Resume
    #: Fed the save's first ``resume.good_bytes`` bytes.
    hasher: Any


class Opening(msgspec.Struct):
    """A save being opened with a cache: restored (``hit``), or to be loaded in full."""

    cache: OpenCache
    head: bytes  # the header line, with its newline
    hit: Hit | None = None

    def full_load_hasher(self) -> Any:
        """What a full load feeds every byte it reads (so an entry can be written after it)."""
        return new_hasher()

    def finish(self, loaded: Loaded, timeline: Timeline, hasher: Any) -> Mark | None:
        """After the load: write a fresh entry if the load found more than the
        cache held; the mark a game that grows goes on from (None if it cannot)."""
        if not _fast(loaded.version):
            return None  # the store holds re-encoded records, not the file's
        if self.hit is not None:
            start = self.hit.resume.good_bytes
            hasher = self.hit.hasher.copy()
            hasher.update(memoryview(self.hit.resume.data)[start : loaded.good_bytes])
            grew = loaded.good_bytes > start
        elif loaded.torn_bytes or hasher is None:
            return None  # the hasher was fed the torn bytes too
        else:
            grew = True
        mark = Mark(self.cache, self.head, loaded.good_bytes, loaded.check, len(timeline.history.store) + 1, hasher)
        if grew:
            mark.write(timeline)
        return mark


class Mark(msgspec.Struct):
    """Where a game's save stood when its entry was last made: a game that grows
    makes a new one from it as it closes (``keep``)."""

    cache: OpenCache
    head: bytes
    size: int
    check: int
    lines: int
    #: Fed the save's first ``size`` bytes.
    hasher: Any

    def write(self, timeline: Timeline) -> None:
        entry = _entry(timeline, len(self.head), self.size, self.check, self.hasher.digest())
        if entry is not None:
            self.cache.write(self.head[:-1], entry)

    def keep(self, path: Path, timeline: Timeline, size: int, check: int, version: int) -> None:
        """A game that wrote its save up to ``size`` (its last line's check ``check``)
        keeps it: the bytes it appended are read back and checked (a chain from this
        mark's to ``check``, one line per event) before the entry covers them."""
        try:
            with open(path, "rb") as f:
                f.seek(self.size)
                added = f.read(size - self.size)
        except OSError:
            return
        if len(added) != size - self.size or not added.endswith(b"\n"):
            return
        lines = added[:-1].split(b"\n")
        bad, last = check_lines(lines, [line[9:] for line in lines], self.check, version >= CHAINED_FROM)
        if bad >= 0 or last != check or self.lines + len(lines) != len(timeline.history.store) + 1:
            return
        self.hasher.update(added)
        self.size, self.check, self.lines = size, check, self.lines + len(lines)
        self.write(timeline)


def _fast(version: int) -> bool:
    """Whether records of this format decode as they are (the store then holds the file's bytes)."""
    return not any(UPCASTERS.get(v) for v in range(version, FORMAT_VERSION))


def _entry(timeline: Timeline, head: int, size: int, check: int, digest: bytes) -> Entry | None:
    """The entry for a game whose save's first ``size`` bytes (``head`` of them its
    header line) it holds, folded; None if the store does not match those bytes' layout."""
    h = timeline.history
    st = h.store
    if h.pending() is not None or timeline.folded != h.length:
        return None
    offsets = st.file_offsets(head)
    tail = st.tail_json
    if offsets[-1] + sum(map(len, tail)) + FRAME_BYTES * len(tail) != size:
        return None  # records re-encoded on the way (a restore checks each chunk's lines too)
    return Entry(
        size=size,
        digest=digest,
        lines=len(st) + 1,
        check=check,
        kinds=bytes(st.kinds),
        claims=list(st.claims),
        offsets=offsets,
        live=bytes(h.live),
        length=h.length,
        undone_at=dict(h.undone_at),
        every=timeline.every,
        snapshots=list(timeline.snapshots),
        state=encode_state(timeline.state),
        phases=list(timeline.phases),
        **{name: getattr(h, name).tobytes() for name in _ARRAYS},
    )


class _Mismatch(Exception):
    pass


def _need(condition: bool) -> None:
    if not condition:
        raise _Mismatch


def _forget(where: Path) -> None:
    """Remove an entry found to lie after it was used (``EventStore.restored``)."""
    with contextlib.suppress(OSError):
        os.unlink(where)


def _restore(
    path: Path, data: bytes, head: int, entry: Entry, distrust: Callable[[], None], hashed: Any = None
) -> Hit | None:
    """The game ``entry`` holds, if it is this save's (else None: load it in full).
    ``distrust`` is for what is checked later, as the game uses it; ``hashed``, a
    hasher already fed all of ``data`` (``ReadAhead``), if any."""
    try:
        return _restored(path, data, head, entry, distrust, hashed)
    except (_Mismatch, SaveError, ValueError, TypeError, IndexError, KeyError, OverflowError, msgspec.DecodeError):
        # ValueError: arrays of the wrong byte length; DecodeError: the state.  None
        # of it is more than a damaged or hostile entry, which is only a cache.
        return None


def _restored(path: Path, data: bytes, head: int, entry: Entry, distrust: Callable[[], None], hashed: Any) -> Hit:
    size = entry.size
    _need(head <= size <= len(data) and data[size - 1] == 10)
    # The digest is what makes the entry this save's: nothing is used before it agrees.
    if hashed is not None and size == len(data):
        hasher = hashed  # (an entry of the whole save, as a game closed writes it)
    else:
        hasher = new_hasher()
        hasher.update(memoryview(data)[:size])
    _need(hasher.digest() == entry.digest)
    return _fitted(path, data, head, entry, hasher, distrust)


def _fitted(path: Path, data: bytes, head: int, entry: Entry, hasher: Any, distrust: Callable[[], None]) -> Hit:
    """The game ``entry`` holds, if it fits ``data`` (``_Mismatch`` if not)."""
    size = entry.size
    last = data.rfind(b"\n", 0, size - 1) + 1
    _need(data[last : last + 8] == b"%08x" % entry.check)
    # If the digest agrees, the bytes are those a full load took in, and found whole
    # and valid; what follows checks that the entry fits them (offsets, counts), so that nothing it says
    # can reach outside them or contradict itself.
    header = decode_header(path, data[9 : head - 1])
    _need(_fast(header.fireteam))
    kinds = bytearray(entry.kinds)
    n = len(kinds)
    _need(entry.lines == n + 1 and not kinds.translate(None, _KINDS))
    offsets = entry.offsets
    sealed = n // CHUNK
    _need(len(offsets) == sealed + 1 and offsets[0] == head and offsets[-1] <= size)
    # Each sealed chunk is whole lines here; that it is CHUNK of them is counted as
    # the store first uses it (``EventStore.restored``), which costs nothing now.
    _need(all(a < b and data[b - 1] == 10 for a, b in pairwise(offsets)))
    tail_lines = data[offsets[-1] : size].split(b"\n")
    tail_lines.pop()
    _need(len(tail_lines) == n - sealed * CHUNK)
    payloads = [line[9:] for line in tail_lines]
    tail = decode_batch(path, payloads, sealed * CHUNK, header.fireteam, UPCASTERS)
    tail_kinds = kinds_of(tail)
    _need(tail_kinds == kinds[sealed * CHUNK :])
    # Each claim on a command, in order; a sealed chunk's are checked as the store first decodes it.
    claims = entry.claims
    at = [where for where, _version in claims]
    _need(all(map(int.__lt__, at, at[1:])) and _within(at, 0, n - 1) and all(kinds[i] == ISSUED for i in at))
    _need(claims[bisect_left(at, sealed * CHUNK) :] == claims_of(tail, tail_kinds, sealed * CHUNK))

    fields: dict[str, Any] = {name: array("q", getattr(entry, name)) for name in _ARRAYS}
    fields["live"] = bytearray(entry.live)
    commands = len(fields["group_start"])
    _need(commands == len(fields["group_end"]) == len(entry.live) == kinds.count(ISSUED) + 1)
    _need(len(fields["run_step"]) == len(fields["run_store"]) and 0 <= entry.length <= n)
    for name in ("group_start", "group_end", "run_step", "run_store"):
        _need(_within(fields[name], 0, n))
    for name in ("eff_cmds", "redoable"):
        _need(_within(fields[name], 1, commands - 1))
    _need(not entry.live.translate(None, b"\0\1"))
    _need(_within(entry.undone_at.keys(), 1, commands - 1) and _within(entry.undone_at.values(), 0, n - 1))
    fields["length"] = entry.length
    fields["undone_at"] = entry.undone_at

    _need(entry.every == SNAPSHOT_EVERY and len(entry.snapshots) == entry.length // SNAPSHOT_EVERY + 1)
    steps = [step for step, _phase in entry.phases]
    _need(steps == sorted(steps) and (not steps or steps[0] > 0 and steps[-1] <= entry.length))
    folded = decode_state(entry.state)

    restored = EventStore.restored(data, offsets, kinds, claims, tail, payloads, distrust)
    timeline = Timeline(History(restored))
    timeline.history.restore(fields)
    timeline.restore(entry.snapshots, folded, entry.phases)
    return Hit(timeline, Resume(data, size, header, entry.check, entry.lines), hasher)


def _within(values: Iterable[int], low: int, high: int) -> bool:
    """Whether every value is in ``[low, high]``.  One sort finds both ends: these
    arrays are sorted, or nearly, which timsort takes in one pass, and it makes each
    value a Python int once, where ``min`` and ``max`` make each twice (2.6 times as
    long for a 100,000-event save's)."""
    ordered = sorted(values)
    return not ordered or (low <= ordered[0] and ordered[-1] <= high)
