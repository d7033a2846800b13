"""The save file: an append-only, checksummed JSON Lines log.

Layout (UTF-8, one record a line)::

    <crc32 as 8 hex digits> <space> <JSON> <newline>

The first record is the :class:`Header`; every later one is an event of
``core.events.AnyEvent``.  The checksum covers the JSON bytes exactly.

Safety rules, in the order a load applies them:

* a last line that is incomplete or fails its checksum is a torn write (the
  program died mid-append): it is cut off and every complete event loads.  So is
  a command group whose events are not all present at the end of the file;
* any other bad line is corruption: the load is refused, naming file and line,
  and the file is not touched;
* a save written by a newer format is refused; an older one is upgraded in
  memory, record by record, by the upcasters registered for each tag.  The file
  itself is never rewritten.

Appending writes a command's records in one ``write`` and ``fsync``s before it
returns, so a shown result is on disk.  Opening a file to play on it cuts a torn
tail only after copying those bytes into a ``.torn-*`` file next to it.
"""

from __future__ import annotations

import os
import time
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from core.events import TAGS, AnyEvent, Event
from core.history import History, HistoryError
from core.store import CHUNK

#: Version of the on-disk format.  Bump it when a record changes shape, and
#: register an upcaster for every tag that changed (see ``UPCASTERS``).
FORMAT_VERSION = 1

#: A line longer than this is not something Fireteam wrote.
MAX_LINE_BYTES = 1 << 20
#: Refuse files beyond this size rather than exhaust memory.
MAX_FILE_BYTES = 2 << 30

_CHUNK = 8 << 20


class Header(msgspec.Struct, frozen=True, omit_defaults=True):
    fireteam: int
    ruleset: str
    ruleset_version: str
    engine: str
    created: str
    seed: int
    variant: str = ""


class SaveError(Exception):
    """A save that cannot be loaded or written; the message names file and line."""


Upcaster = Callable[[dict[str, Any]], dict[str, Any]]

#: ``UPCASTERS[v][tag]`` turns a record of format ``v`` into format ``v + 1``.
#: Tags with no entry are unchanged between the two versions.
UPCASTERS: dict[int, dict[str, Upcaster]] = {}


@dataclass
class Loaded:
    path: Path
    header: Header
    history: History
    #: Bytes of the file that hold complete, valid records.
    good_bytes: int
    #: What a crash left at the end (cut off from the history), if anything.
    torn_bytes: int = 0
    torn_line: int = 0
    upgraded_from: int = 0
    notes: list[str] = field(default_factory=list)


_encoder = msgspec.json.Encoder()
_event_decoder = msgspec.json.Decoder(AnyEvent)
_events_decoder = msgspec.json.Decoder(list[AnyEvent])
_header_decoder = msgspec.json.Decoder(Header)
_any_decoder = msgspec.json.Decoder()


def frame(record: msgspec.Struct) -> bytes:
    payload = _encoder.encode(record)
    return b"%08x %b\n" % (zlib.crc32(payload), payload)


def frame_payload(payload: bytes) -> bytes:
    return b"%08x %b\n" % (zlib.crc32(payload), payload)


# The checksum is compared as the exact 8 lowercase hex digits Fireteam writes:
# parsing it with int() would also accept "+", " ", "0x" or capitals in place of
# a digit, so some damaged bytes would go unnoticed.


def _line_ok(line: bytes) -> bool:
    return len(line) >= 10 and line[8:9] == b" " and b"%08x" % zlib.crc32(line[9:]) == line[:8]


def _check_lines(lines: list[bytes], payloads: list[bytes]) -> int:
    """Index of the first badly framed line, or -1 if every line's checksum holds.

    ``payloads`` are the lines without their frame (``line[9:]``), cut once by the caller.
    """
    crc32 = zlib.crc32
    if all([b"%08x " % crc32(p) == line[:9] for p, line in zip(payloads, lines, strict=True)]):
        return -1
    return next(i for i, line in enumerate(lines) if not _line_ok(line))


def _offset_of_line(path: Path, number: int) -> int:
    """Byte offset where line ``number`` (from 1) starts; only for the rare repair paths."""
    offset = 0
    with open(path, "rb") as f:
        for _ in range(number - 1):
            offset += len(f.readline())
    return offset


def load(
    path: str | os.PathLike[str],
    *,
    history: History | None = None,
    after_batch: Callable[[], None] | None = None,
    upcasters: dict[int, dict[str, Upcaster]] | None = None,
) -> Loaded:
    """Read a save file into ``history`` (a new one by default); never modifies the file.

    ``after_batch`` runs after each batch of events joins the history, so a
    caller can fold them while they are still decoded.
    """
    path = Path(path)
    upcasters = UPCASTERS if upcasters is None else upcasters
    history = History() if history is None else history
    store = history.store
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise SaveError(f"{path}: no such save file") from None
    except OSError as e:
        raise SaveError(f"{path}: cannot read: {e.strerror}") from None
    if size > MAX_FILE_BYTES:
        raise SaveError(f"{path}: {size} bytes is larger than a save can be ({MAX_FILE_BYTES} bytes)")
    if size == 0:
        raise SaveError(f"{path}: empty file, not a Fireteam save")

    header: Header | None = None
    pending: list[bytes] = []  # checked payloads not yet decoded
    lines_done = 0  # complete lines read so far
    good = 0  # bytes of complete, valid lines
    bad_line = 0  # a damaged line: fatal unless it turns out to be the last

    def flush(limit: int) -> None:
        """Decode and take in the pending payloads, CHUNK at a time while at least ``limit`` wait."""
        done = 0
        while len(pending) - done >= limit and len(pending) > done:
            take = pending[done : done + CHUNK]
            done += len(take)
            base = len(store)
            events = _decode_batch(path, take, base, header.fireteam, upcasters)  # type: ignore[union-attr]
            if header.fireteam != FORMAT_VERSION:  # type: ignore[union-attr]
                store.append(events, [_encoder.encode(e) for e in events])
            elif len(events) == CHUNK and not base % CHUNK:
                store.append_chunk(events, b"[" + b",".join(take) + b"]")
            else:
                store.append(events, take)
            try:
                history.feed(events, base)
            except HistoryError as e:
                raise SaveError(f"{path}: {e}; the file was not changed") from None
            if after_batch is not None:
                after_batch()
        del pending[:done]

    try:
        with open(path, "rb") as f:
            carry = b""
            while chunk := f.read(_CHUNK):
                lines = (carry + chunk).split(b"\n")
                carry = lines.pop()
                if len(carry) > MAX_LINE_BYTES:
                    raise SaveError(f"{path}:{lines_done + len(lines) + 1}: line longer than {MAX_LINE_BYTES} bytes")
                # Every line, not only one cut by the end of a read: the same file
                # must load or not wherever the reads happen to fall.
                if lines and max(map(len, lines)) > MAX_LINE_BYTES:
                    long = next(i for i, line in enumerate(lines) if len(line) > MAX_LINE_BYTES)
                    raise SaveError(f"{path}:{lines_done + long + 1}: line longer than {MAX_LINE_BYTES} bytes")
                if not lines:
                    continue
                if bad_line:
                    raise SaveError(f"{path}:{bad_line}: damaged record (checksum mismatch); the file was not changed")
                payloads = [line[9:] for line in lines]
                first_bad = _check_lines(lines, payloads)
                if first_bad >= 0:
                    if first_bad < len(lines) - 1:
                        raise SaveError(
                            f"{path}:{lines_done + first_bad + 1}: damaged record (checksum mismatch); "
                            "the file was not changed"
                        )
                    bad_line = lines_done + first_bad + 1
                    lines.pop()
                    payloads.pop()
                if header is None and lines:
                    header = _decode_header(path, payloads[0])
                    lines_done += 1
                    good += len(lines[0]) + 1
                    del lines[0], payloads[0]
                pending.extend(payloads)
                lines_done += len(lines)
                good += sum(map(len, lines)) + len(lines)
                flush(CHUNK)
            if carry:
                if bad_line:
                    raise SaveError(f"{path}:{bad_line}: damaged record (checksum mismatch); the file was not changed")
                bad_line = lines_done + 1  # no newline: the last write was torn
        if header is None:
            raise SaveError(f"{path}:1: not a Fireteam save (no valid header line)")
        flush(1)
    except OSError as e:
        raise SaveError(f"{path}: cannot read: {e.strerror}") from None

    version = header.fireteam
    result = Loaded(path, header, history, good, upgraded_from=version if version != FORMAT_VERSION else 0)
    if bad_line:
        result.torn_line = bad_line
        result.notes.append(f"line {bad_line}: incomplete last record cut off (torn write)")
    cut = history.pending()
    if cut is not None:
        # The crash tore a command in half: drop it whole so no half-command is applied.
        cmd, first = cut
        store.truncate(first)
        history.drop_pending()
        result.torn_line = first + 2  # +1 for the header line, +1 to count from 1
        result.good_bytes = _offset_of_line(path, result.torn_line)
        result.notes.append(f"line {result.torn_line}: command #{cmd} incomplete at the end of the file, cut off")
    result.torn_bytes = size - result.good_bytes
    return result


def read_span(path: Path, start: int, end: int, base: int) -> tuple[list[Event], list[bytes]]:
    """The events in bytes ``start``..``end`` of a save, which another process wrote and synced.

    For a copy of a game that follows its save while the one writer appends
    (the seats of ``fireteam serve``): the writer names ``end`` only once the
    bytes are on disk, so the span holds whole records, and any bad one is
    damage, refused.  ``base`` is the index of the first event (for messages).
    """
    try:
        with open(path, "rb") as f:
            f.seek(start)
            data = f.read(end - start)
    except OSError as e:
        raise SaveError(f"{path}: cannot read: {e.strerror}") from None
    if len(data) != end - start or not data.endswith(b"\n"):
        raise SaveError(f"{path}: bytes {start}-{end} are not whole records (the file is shorter or was cut)")
    lines = data[:-1].split(b"\n")
    payloads = [line[9:] for line in lines]
    bad = _check_lines(lines, payloads)
    if bad >= 0:
        raise SaveError(f"{path}:{base + bad + 2}: damaged record (checksum mismatch)")
    return _decode_batch(path, payloads, base, FORMAT_VERSION, {}), payloads


def _decode_batch(
    path: Path, payloads: list[bytes], base: int, version: int, upcasters: dict[int, dict[str, Upcaster]]
) -> list[Event]:
    if version == FORMAT_VERSION:
        try:
            return _events_decoder.decode(b"[" + b",".join(payloads) + b"]")
        except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError):  # msgspec: bad UTF-8
            pass  # find the culprit line by line, below
    events: list[Event] = []
    for i, payload in enumerate(payloads):
        try:
            if version == FORMAT_VERSION:
                events.append(_event_decoder.decode(payload))
            else:
                events.append(_upcast(payload, version, upcasters))
        except (msgspec.ValidationError, msgspec.DecodeError, KeyError, TypeError, ValueError) as e:
            # +1 for the header line, +1 to count lines from 1.
            raise SaveError(f"{path}:{base + i + 2}: invalid event: {e}; the file was not changed") from None
    return events


def _decode_header(path: Path, payload: bytes) -> Header:
    try:
        raw = _any_decoder.decode(payload)
    except (msgspec.DecodeError, UnicodeDecodeError):
        raw = None
    if not isinstance(raw, dict) or "fireteam" not in raw:
        raise SaveError(f"{path}:1: not a Fireteam save (no valid header line)")
    version = raw.get("fireteam")
    if isinstance(version, int) and version > FORMAT_VERSION:
        raise SaveError(
            f"{path}: written by a newer Fireteam (save format {version}; this version reads up to {FORMAT_VERSION}). "
            "Upgrade Fireteam to open it."
        )
    try:
        header = msgspec.convert(raw, Header)
    except msgspec.ValidationError as e:
        raise SaveError(f"{path}:1: invalid header: {e}") from None
    if header.fireteam < 0:
        raise SaveError(f"{path}:1: invalid header: format version {header.fireteam}")
    return header


def _upcast(payload: bytes, version: int, upcasters: dict[int, dict[str, Upcaster]]) -> Event:
    record = _any_decoder.decode(payload)
    if not isinstance(record, dict):
        raise ValueError("record is not an object")
    for v in range(version, FORMAT_VERSION):
        step = upcasters.get(v, {}).get(record.get("t"))
        if step is not None:
            record = step(dict(record))
    if record.get("t") not in TAGS:
        raise ValueError(f"unknown event tag {record.get('t')!r}")
    return msgspec.convert(record, AnyEvent)


# ------------------------------------------------------------------------- writing


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _create_aside(path: Path):
    """A new ``NAME.torn-<time>`` file; a second crash within the same second gets ``-2``, ``-3``…"""
    name = f"{path.name}.torn-{int(time.time())}"
    n = 1
    while True:
        try:
            return open(path.with_name(name if n == 1 else f"{name}-{n}"), "xb")
        except FileExistsError:
            n += 1


class SaveWriter:
    """Appends command groups to a save and syncs them before returning."""

    def __init__(self, path: Path, fileobj, size: int) -> None:
        self.path = path
        self._f = fileobj
        #: Bytes in the file: every record written and synced.
        self.size = size

    @classmethod
    def create(cls, path: str | os.PathLike[str], header: Header) -> SaveWriter:
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            f = open(path, "xb")
        except FileExistsError:
            raise SaveError(f"{path}: already exists; choose another name (saves are never overwritten)") from None
        except OSError as e:
            raise SaveError(f"{path}: cannot create the save: {e.strerror}") from None
        first = frame(header)
        f.write(first)
        f.flush()
        os.fsync(f.fileno())
        _fsync_dir(path)
        return cls(path, f, len(first))

    @classmethod
    def reopen(cls, loaded: Loaded) -> SaveWriter:
        """Open a loaded save for appending, first setting aside any torn tail.

        The file is opened before anything is cut, so a save that cannot be
        written (permissions, a read-only disk) is refused untouched.
        """
        path = loaded.path
        try:
            f = open(path, "ab")
        except OSError as e:
            raise SaveError(f"{path}: cannot open the save for writing: {e.strerror}") from None
        if loaded.torn_bytes:
            with open(path, "rb") as torn:
                torn.seek(loaded.good_bytes)
                tail = torn.read()
            with _create_aside(path) as aside_file:
                aside = Path(aside_file.name)
                aside_file.write(tail)
                aside_file.flush()
                os.fsync(aside_file.fileno())
            os.ftruncate(f.fileno(), loaded.good_bytes)
            loaded.notes.append(f"torn bytes kept in {aside.name}")
            loaded.torn_bytes = 0
        os.fsync(f.fileno())
        _fsync_dir(path)
        return cls(path, f, loaded.good_bytes)

    def append(self, events: Iterable[Event]) -> list[bytes]:
        """Write and sync ``events``; return their JSON payloads (for the store)."""
        payloads = [_encoder.encode(e) for e in events]
        if not payloads:
            return payloads
        longest = max(map(len, payloads)) + 9  # checksum and space
        if longest > MAX_LINE_BYTES:
            # The reader refuses such a line: writing it would make the save unloadable.
            raise SaveError(f"{self.path}: a record of {longest} bytes is too long (at most {MAX_LINE_BYTES})")
        data = b"".join(frame_payload(p) for p in payloads)
        self._f.write(data)
        self._f.flush()
        os.fsync(self._f.fileno())
        self.size += len(data)
        return payloads

    def close(self) -> None:
        self._f.close()
