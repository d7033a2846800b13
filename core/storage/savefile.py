"""The save file: an append-only, checksummed JSON Lines log.

Layout (UTF-8, one record a line)::

    <check as 8 hex digits> <space> <JSON> <newline>

The first record is the :class:`Header`; every later one is an event of
``core.log.events.AnyEvent``.  The header's check is the CRC-32 of its JSON bytes.
From format 2 on, each event's check is the CRC-32 of its JSON *continued from
the check of the line before* (``zlib.crc32(json, previous)``): the checks
form a chain, so a line moved, deleted or repeated anywhere breaks the chain
at the line after it (format 1 checked each line alone, and is still read).

Safety rules, in the order a load applies them:

* a last line that is incomplete, or that fails its check and is not a whole
  record, is a torn write (the program died mid-append): it is cut off and
  every complete event loads.  So is a command group whose events are not all
  present at the end of the file;
* a file holding only part of a header line (a crash while creating it) holds
  no game yet (:class:`NoGameYet`): a new game may be started in it, its bytes
  set aside first;
* any other bad line is corruption: the load is refused, naming file and line,
  and the file is not touched.  A whole record that fails its check at the end
  is corruption too (a line moved there or repeated), never a torn write;
* a save written by a newer format is refused; an older one is upgraded in
  memory, record by record, by the upcasters registered for each tag.  The file
  itself is never rewritten.

Writing is ``core.storage.writer``'s: a save is appended to in the format it was
created in (see ``docs/architecture.md``), and only by the one process holding
its lock (``core.storage.lock``).
"""

from __future__ import annotations

import contextlib
import errno
import gc
import io
import itertools
import os
import re
import stat
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO, Protocol

import msgspec

from core.language.i18n import _
from core.log.events import Event, Issued
from core.log.history import History, HistoryError
from core.storage import linecheck
from core.storage.decoding import FORMAT_VERSION, Header, Upcaster, decode_batch, decode_header, decode_joined
from core.storage.errors import NoGameYet, SaveError, corrupt, not_a_save, salvage_hint
from core.storage.linecheck import MAX_LINE_BYTES
from core.storage.store import CHUNK

#: The first format whose checks are chained.
CHAINED_FROM = 2

#: Refuse files beyond this size rather than exhaust memory.
MAX_FILE_BYTES = 2 << 30

_CHUNK = 1 << 20  # small enough that a read's lines are decoded while still in the processor's cache


class Framed(Protocol):
    """A first line a writer frames (a save's :class:`Header`, a journal's): its format comes first."""

    @property
    def fireteam(self) -> int: ...


#: ``UPCASTERS[v][tag]`` turns a record of format ``v`` into format ``v + 1``.
#: Tags with no entry are unchanged between the two versions.  From 1 to 2
#: only the framing changed (chained checks), no record; from 2 to 3 records
#: gained fields and shapes, and every format-2 record reads as it did.
UPCASTERS: dict[int, dict[str, Upcaster]] = {1: {}, 2: {}}


def _start_again(path: Path) -> str:
    return _("start a new game in it (`fireteam script FILE --save {path}`, or New game in the client)").format(
        path=path
    )


class Loaded(msgspec.Struct):
    path: Path
    header: Header
    history: History
    #: Bytes of the file that hold complete, valid records.
    good_bytes: int
    #: The check of the last good line (the chain goes on from it).
    check: int = 0
    #: What a crash left at the end (cut off from the history), if anything.
    torn_bytes: int = 0
    torn_line: int = 0
    upgraded_from: int = 0
    notes: list[str] = msgspec.field(default_factory=list)

    @property
    def version(self) -> int:
        return self.header.fireteam


class Resume(msgspec.Struct):
    """Where a load may start instead of at the first byte (``core.storage.opencache``).

    ``data`` is the whole file as read; its first ``good_bytes`` are known to be
    whole, valid records (``lines`` of them, the header first, the last with
    check ``check``) already taken into the history given to :func:`load`,
    which takes in the rest exactly as a load from the start would.
    """

    data: bytes
    good_bytes: int
    header: Header
    check: int
    lines: int


class Hasher(Protocol):
    def update(self, data: bytes, /) -> None: ...


encoder = msgspec.json.Encoder()
_any_decoder = msgspec.json.Decoder()


class Chain:
    """Frames records one after another, each check continuing the last one's."""

    def __init__(self, check: int, version: int = FORMAT_VERSION) -> None:
        self.check = check
        self.chained = version >= CHAINED_FROM

    def frame_payload(self, payload: bytes) -> bytes:
        check = zlib.crc32(payload, self.check) if self.chained else zlib.crc32(payload)
        self.check = check
        return b"%08x %b\n" % (check, payload)

    def frame(self, record: msgspec.Struct) -> bytes:
        return self.frame_payload(encoder.encode(record))


def frame_header(header: Framed) -> bytes:
    payload = encoder.encode(header)
    return b"%08x %b\n" % (zlib.crc32(payload), payload)


def _line_ok(line: bytes) -> bool:
    """Whether a line holds the check of its own payload (a header, or a format-1 record)."""
    return len(line) >= 10 and line[8:9] == b" " and b"%08x" % zlib.crc32(line[9:]) == line[:8]


def _whole_record(line: bytes) -> bool:
    """Whether a line that fails its check is nevertheless a whole, well-formed record.

    A crash leaves the end of a write missing (or, on some file systems, zeros in
    its place), never a whole record with a wrong check: that is a line moved,
    repeated or edited, which is corruption.
    """
    if line[8:9] != b" ":
        return False
    try:
        return isinstance(_any_decoder.decode(line[9:]), dict)
    except (msgspec.DecodeError, UnicodeDecodeError):
        return False


def _torn_header(data: bytes) -> bool:
    """Whether ``data`` (a whole file with no newline) is the start of a header line."""
    hex_part, space, rest = data[:8], data[8:9], data[9:]
    if hex_part.strip(b"0123456789abcdef") or (space and space != b" "):
        return False
    opening = b'{"fireteam":'
    return rest[: len(opening)] == opening[: len(rest)]


def _lines_before(path: Path, number: int, data: bytes | None = None) -> tuple[int, int]:
    """(byte offset where line ``number`` (from 1) starts, the check of the line before).

    Only for the rare repair paths; the lines before ``number`` were checked already
    (in ``data``, the file as read, if given).
    """
    offset = check = 0
    with io.BytesIO(data) if data is not None else open(path, "rb") as f:
        for _ in range(number - 1):
            line = f.readline()
            offset += len(line)
            check = int(line[:8], 16)
    return offset, check


def _bad_check(path: Path, line: int, chained: bool) -> SaveError:
    """A record (line 2 on) failing its check: in a chained save, the damage may lie before it."""
    if chained:
        return corrupt(
            path, line, "damaged record, or a line missing, repeated or out of order before it (check mismatch)"
        )
    return corrupt(path, line, "damaged record (checksum mismatch)")


def _too_long(path: Path, line: int) -> SaveError:
    return corrupt(path, line, _("line longer than {limit} bytes").format(limit=MAX_LINE_BYTES))


# ------------------------------------------------------------------ the load, step by step
#
# 1. ``_Reads``: the file's whole lines, a read at a time, never past its size at
#    the open (and no line longer than a save's).
# 2. ``_take_header``: the first line is the header (or the file holds no game).
# 3. ``_take_records``: each read's lines are checked (frame, chain, length:
#    ``linecheck.judge``) up to the first bad one; the good ones go to ``_Intake``,
#    which decodes them a chunk at a time into the store and the history.
# 4. ``_decide_tail``: the one place that tells a torn write from damage.
# 5. ``_cut_torn_command``: a command whose facts are not all there is cut off.


class _Reads:
    """The whole lines of a save, one read of ``_CHUNK`` bytes at a time.

    Nothing past ``size`` (the file's size at the open) is read: bytes a writer
    appends meanwhile are neither loaded nor counted as torn.  ``rest`` holds
    the bytes after the last newline read; a line longer than a save's ends the
    load as soon as the lines before it are taken (``_too_long``).
    """

    def __init__(self, path: Path, f: BinaryIO, size: int, start: int, lines: int, hasher: Hasher | None) -> None:
        self.path = path
        self._f = f
        self._hasher = hasher
        self._lines = lines  # whole lines before those the next read yields
        f.seek(start)
        #: Where the reads stand in the file.
        self.end = start
        self._left = size - start
        self.rest = b""

    def __iter__(self) -> Iterator[list[bytes]]:
        while chunk := self._read():
            lines = chunk.split(b"\n")
            lines[0] = self.rest + lines[0]
            self.rest = lines.pop()
            if lines:
                self._lines += len(lines)
                yield lines
            if len(self.rest) > MAX_LINE_BYTES:
                raise _too_long(self.path, self._lines + 1)

    def follows(self) -> bool:
        """Whether any byte follows the lines yielded so far (reading on to find out)."""
        if not self.rest:
            self.rest = self._read()
        return bool(self.rest)

    def _read(self) -> bytes:
        chunk = self._f.read(min(_CHUNK, self._left)) if self._left > 0 else b""
        self._left -= len(chunk)  # a file cut meanwhile ends the reads early
        self.end += len(chunk)
        if self._hasher is not None:
            self._hasher.update(chunk)
        return chunk


class _Start(msgspec.Struct):
    """Where the records begin: the header, the check the chain goes on from, the
    lines and bytes before them."""

    header: Header
    check: int
    lines: int
    good_bytes: int


def _take_header(path: Path, reads: _Reads, batches: Iterator[list[bytes]]) -> tuple[_Start, list[bytes]]:
    """The header, from the first line; and the rest of the first read's lines."""
    first = next(batches, None)
    if first is None:
        if _torn_header(reads.rest):
            said = _("{path}: holds no game yet: a crash cut its first line short ({size} bytes); {advice}")
            raise NoGameYet(said.format(path=path, size=len(reads.rest), advice=_start_again(path)))
        raise not_a_save(path)
    line = first[0]
    if len(line) > MAX_LINE_BYTES:
        raise _too_long(path, 1)
    if not _line_ok(line):
        raise not_a_save(path)
    header = decode_header(path, line[9:])
    return _Start(header, zlib.crc32(line[9:]), 1, len(line) + 1), first[1:]


class _Intake:
    """Checked payloads on their way in: decoded ``CHUNK`` at a time, into the
    store, then fed to the history (and ``after_batch``)."""

    def __init__(
        self,
        path: Path,
        history: History,
        version: int,
        upcasters: dict[int, dict[str, Upcaster]],
        after_batch: Callable[[], None] | None,
        progress: Callable[[int, int], None] | None,
        size: int,
    ) -> None:
        self.path, self.history, self.version, self.upcasters = path, history, version, upcasters
        #: Records decode straight into today's events (no upcaster applies).
        self.fast = not any(upcasters.get(v) for v in range(version, FORMAT_VERSION))
        self.after_batch, self.progress, self.size = after_batch, progress, size
        self.pending: list[bytes] = []
        self._told = 0  # bytes told to ``progress``
        self._read = 0  # bytes read when the pending payloads were taken

    def take(self, payloads: list[bytes], read: int) -> None:
        """Payloads of good lines, the file read up to byte ``read``; whole chunks go in now."""
        self.pending += payloads
        self._read = read
        self._decode(CHUNK)

    def finish(self) -> None:
        """Everything left goes in (the progress reaches the whole file)."""
        self._read = self.size
        self._decode(1)

    def _decode(self, limit: int) -> None:
        """Take in the pending payloads, CHUNK at a time, while at least ``limit`` wait."""
        pending = self.pending
        done = 0
        waiting = len(pending)
        while waiting - done >= max(limit, 1):
            take = pending[done : done + CHUNK]
            self._take_in(take)
            done += len(take)
            if self.progress is not None:  # the bytes read so far, in step with the events taken in
                start, end = self._told, self._read
                self.progress(start + (end - start) * done // waiting, self.size)
        self._told = self._read
        del pending[:done]

    def _take_in(self, payloads: list[bytes]) -> None:
        store = self.history.store
        base = len(store)
        if self.fast:
            joined = b"[" + b",".join(payloads) + b"]"
            events = decode_joined(self.path, payloads, base, joined)
            if len(events) == CHUNK and not base % CHUNK:
                store.append_chunk(events, joined)
            else:
                store.append(events, payloads)
        else:
            events = decode_batch(self.path, payloads, base, self.version, self.upcasters, fast=False)
            store.append(events, [encoder.encode(e) for e in events])
        self._feed(events, base)

    def _feed(self, events: list[Event], base: int) -> None:
        try:
            self.history.feed(events, base)
        except HistoryError as e:
            raise _history_error(self.path, e) from None
        if self.after_batch is not None:
            self.after_batch()


class _Stop(msgspec.Struct):
    """Where the good lines end (the check, the lines and the bytes up to there),
    and the first bad whole line after them, if any."""

    check: int
    lines: int
    good_bytes: int
    bad: bytes | None = None
    #: Why it is bad: longer than a save's line (else its frame or check is wrong).
    too_long: bool = False
    #: Whether any byte follows it in the file.
    follows: bool = False


def _take_records(start: _Start, reads: _Reads, batches: Iterator[list[bytes]], intake: _Intake) -> _Stop:
    """Check each read's lines and take in the good ones, up to the first bad line."""
    check, lines, good = start.check, start.lines, start.good_bytes
    chained = start.header.fireteam >= CHAINED_FROM
    for batch in batches:
        if not batch:
            continue
        payloads = list(map(linecheck.payload_of, batch))
        verdict = linecheck.judge(batch, payloads, check, chained, longest=MAX_LINE_BYTES)
        bad, check = verdict.bad, verdict.check
        kept = len(batch) if bad < 0 else bad
        intake.take(payloads if bad < 0 else payloads[:bad], reads.end)
        lines += kept
        good += verdict.good_bytes
        if bad >= 0:
            follows = bad + 1 < len(batch) or reads.follows()
            return _Stop(check, lines, good, batch[bad], verdict.too_long, follows)
    return _Stop(check, lines, good)


def _decide_tail(path: Path, stop: _Stop, rest: bytes, chained: bool) -> int:
    """The line (from 1) a crash tore at the end of the file, 0 if none; SaveError if
    the end is damage.  The one place a torn write is told from corruption.

    A crash can only tear the last write, and leaves its end missing (or zeros in
    its place): a last line with no newline, or a last line that is not a whole
    record.  A bad line with anything after it, a line longer than a save's, and
    a whole record failing its check (a line moved or repeated there) are damage.
    """
    torn = stop.lines + 1  # the line after the last good one
    if stop.bad is not None:
        if stop.too_long:
            raise _too_long(path, torn)
        if stop.follows or _whole_record(stop.bad):
            raise _bad_check(path, torn, chained)
        return torn
    return torn if rest else 0


def _cut_torn_command(result: Loaded, data: bytes | None) -> None:
    """Cut off a command whose facts are not all present at the end (torn by a crash):
    no half-command is applied."""
    history = result.history
    cut = history.pending()
    if cut is None:
        return
    cmd, first = cut
    history.store.truncate(first)
    history.drop_pending()
    result.torn_line = first + 2  # +1 for the header line, +1 to count from 1
    result.good_bytes, result.check = _lines_before(result.path, result.torn_line, data)
    said = _("line {line}: command #{cmd} incomplete at the end of the file, cut off")
    result.notes.append(said.format(line=result.torn_line, cmd=cmd))


def load(
    path: str | os.PathLike[str],
    *,
    history: History | None = None,
    after_batch: Callable[[], None] | None = None,
    upcasters: dict[int, dict[str, Upcaster]] | None = None,
    progress: Callable[[int, int], None] | None = None,
    resume: Resume | None = None,
    hasher: Hasher | None = None,
) -> Loaded:
    """Read a save file into ``history`` (a new one by default); never modifies the file.

    The file's size is read once, when it is opened, and nothing past it is
    read: bytes a writer appends meanwhile are neither loaded nor counted as
    torn.  ``after_batch`` runs after each batch of events joins the history,
    so a caller can fold them while they are still decoded.  ``progress``, if
    given, is told (bytes taken in, bytes in all) after each read of the file
    (a client draws a progress bar from it; it may be called from any thread).
    With ``resume``, the file is not read again: the load goes on from where
    ``resume`` stands, in its bytes.  ``hasher`` is given every byte read.
    """
    path = Path(path)
    upcasters = UPCASTERS if upcasters is None else upcasters
    history = History() if history is None else history
    try:
        with open(open_regular(path), "rb") if resume is None else io.BytesIO(resume.data) as f:
            size = os.fstat(f.fileno()).st_size if resume is None else len(resume.data)
            _check_size(path, size)
            with _collector_paused(size):
                if resume is None:
                    reads = _Reads(path, f, size, 0, 0, hasher)
                    batches = iter(reads)
                    start, first = _take_header(path, reads, batches)
                    batches = itertools.chain([first], batches)
                else:
                    start = _Start(resume.header, resume.check, resume.lines, resume.good_bytes)
                    reads = _Reads(path, f, size, start.good_bytes, start.lines, hasher)
                    batches = iter(reads)
                version = start.header.fireteam
                intake = _Intake(path, history, version, upcasters, after_batch, progress, size)
                stop = _take_records(start, reads, batches, intake)
                intake.finish()
                torn_line = _decide_tail(path, stop, reads.rest, version >= CHAINED_FROM)
    except FileNotFoundError:
        raise SaveError(_("{path}: no such save file; check the name").format(path=path)) from None
    except OSError as e:
        said = _("{path}: cannot read: {error}; check the name and the file's permissions")
        raise SaveError(said.format(path=path, error=e.strerror)) from None

    result = Loaded(path, start.header, history, stop.good_bytes, stop.check)
    result.upgraded_from = version if version != FORMAT_VERSION else 0
    if torn_line:
        result.torn_line = torn_line
        result.notes.append(_("line {line}: incomplete last record cut off (torn write)").format(line=torn_line))
    _cut_torn_command(result, resume.data if resume is not None else None)
    result.torn_bytes = reads.end - result.good_bytes
    return result


@contextlib.contextmanager
def _collector_paused(size: int) -> Iterator[None]:
    """The cycle collector paused while a big save (``size`` bytes) loads.

    A load makes a million objects that hold no cycle (the events' tuples among
    them), and the collector would go through them again and again as they are
    made: a tenth of a big load.  What earlier work left for it (a game dropped a
    moment ago) is collected first, so the load does not hold that memory too.
    It is resumed after only if it ran before (the client pauses it as it starts).
    """
    running = gc.isenabled() and size > _CHUNK
    if running:
        gc.collect()
        gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


def open_regular(path: Path, flags: int = os.O_RDONLY) -> int:
    """``path`` opened with ``flags``, refused at once (SaveError) if it is not a regular file.

    A FIFO named like a save would hold every read (and a writer's open) until
    some other process opened its other end: it is opened without waiting, then
    refused, as a device or a socket is.  A folder raises IsADirectoryError, as
    ``open`` would.
    """
    try:
        fd = os.open(path, flags | os.O_NONBLOCK)  # (and not inherited: Python's own ``os.open`` adds O_CLOEXEC)
    except OSError as e:
        if e.errno != errno.ENXIO:  # (a FIFO opened for writing that no one reads)
            raise
        raise _not_regular(path) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise _not_regular(path)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _not_regular(path: Path) -> SaveError:
    return SaveError(_("{path}: not a regular file (a pipe, a device or a socket): not a save").format(path=path))


def _check_size(path: Path, size: int) -> None:
    if size > MAX_FILE_BYTES:
        raise SaveError(
            _("{path}: {size} bytes is larger than a save can be ({limit} bytes); is this the right file?").format(
                path=path, size=size, limit=MAX_FILE_BYTES
            )
        )
    if size == 0:
        said = _("{path}: empty file: no game was ever recorded in it; {advice}")
        raise NoGameYet(said.format(path=path, advice=_start_again(path)))


def _history_error(path: Path, e: HistoryError) -> SaveError:
    where = re.match(r"event (\d+): ", str(e))
    if where is None:
        said = _("{path}: {what}; the file was not changed. {hint}")
        return SaveError(said.format(path=path, what=e, hint=salvage_hint(path)))
    # Event k (from 1) is on line k + 1, after the header.
    return corrupt(path, int(where[1]) + 1, str(e)[where.end() :])


def read_commands(
    path: Path, start: int, end: int | None, base: int, check: int, version: int = FORMAT_VERSION
) -> tuple[list[Event], list[bytes], int, int]:
    """Whole commands another process appended to a save from byte ``start``.

    For a copy of a game that follows its save while the one writer appends.
    With ``end``, the writer named it once the bytes were synced (the seats of
    ``fireteam serve``): the span must hold whole records, and anything else is
    damage, refused.  With no ``end``, whatever whole commands the file holds
    now are read, and a command still being written is left for a later call.
    ``base`` is the index of the first event (for messages), ``check`` the check
    of the line before ``start``.  Returns (events, payloads, check, end).
    """
    try:
        with open(path, "rb") as f:
            f.seek(start)
            if end is None:
                data = f.read(max(0, min(os.fstat(f.fileno()).st_size - start, MAX_FILE_BYTES)))
            else:
                data = f.read(end - start)
    except OSError as e:
        raise SaveError(_("{path}: cannot read: {error}").format(path=path, error=e.strerror)) from None
    if end is not None and (len(data) != end - start or not data.endswith(b"\n")):
        said = _("{path}: bytes {start}-{end} are not whole records (the file is shorter or was cut)")
        raise SaveError(said.format(path=path, start=start, end=end))
    whole = data[: data.rfind(b"\n") + 1]
    if not whole:
        return [], [], check, start
    lines = whole[:-1].split(b"\n")
    payloads = [line[9:] for line in lines]
    chained = version >= CHAINED_FROM
    bad, _last = linecheck.check_lines(lines, payloads, check, chained)
    if bad >= 0:
        # A writer writes whole lines: a complete line that fails its check is damage.
        raise _bad_check(path, base + bad + 2, chained)
    fast = not any(UPCASTERS.get(v) for v in range(version, FORMAT_VERSION))
    events = decode_batch(path, payloads, base, version, UPCASTERS, fast)
    if not fast:
        payloads = [encoder.encode(e) for e in events]
    if end is not None:
        return events, payloads, int(lines[-1][:8], 16), end
    # Only whole commands: a command marker owns the ``n`` events after it.
    i = kept = 0
    while i < len(events):
        fact = events[i]
        i += 1 + max(0, fact.n) if isinstance(fact, Issued) else 1
        if i <= len(events):
            kept = i
    if not kept:
        return [], [], check, start
    used = sum(map(len, lines[:kept])) + kept
    return events[:kept], payloads[:kept], int(lines[kept - 1][:8], 16), start + used
