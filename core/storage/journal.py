"""A log framed as a save that holds records of its own (a club's league: ``core.league``).

The same file as a save (``core.storage.savefile``): UTF-8 lines ``<check> <JSON>``, the
first a header whose first field is ``fireteam`` (the format), each later line's check the
CRC-32 of its JSON continued from the line before's; written by the same writer
(``core.storage.writer.SaveWriter``): created never over a file, appended to under the
file's lock, one record a ``write``, synced before it returns, a torn end set aside in a
``.torn-*`` file before anything is appended after it.  Only the records differ: a journal
decodes them with its own types, and holds them all in memory (it is small: one record a
game of a season).

The reading follows the save's rules: a last line a crash cut short is a torn write, left
out (and set aside by the next append); any other bad line is damage, refused naming the
file and the line, the file untouched.

Beside the CRC-32 chain (which finds damage, not a forger: anyone can compute it again), each
record's *head* is a SHA-256 chain over the lines' JSON, the header's first: ``head(0) =
SHA-256(header)``, ``head(k) = SHA-256(head(k-1) ‖ record k)``.  A head given out as a receipt
after an append names everything up to that record: a record changed, removed or inserted
before it, or the file cut short of it, and the receipt no longer matches (issue #90).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

import msgspec

from core.language.i18n import _
from core.storage import linecheck
from core.storage.errors import SaveError
from core.storage.linecheck import MAX_LINE_BYTES
from core.storage.savefile import CHAINED_FROM, open_regular
from core.storage.writer import SaveWriter

#: A journal larger than this is refused rather than read whole (a season is a few hundred KB).
MAX_JOURNAL_BYTES = 64 << 20

H = TypeVar("H", bound=msgspec.Struct)
R = TypeVar("R")


@dataclass
class Journal(Generic[H, R]):
    """What a journal holds: its header, its records in order, and where its good bytes end."""

    path: Path
    header: H
    records: list[R]
    good_bytes: int
    check: int
    torn_bytes: int = 0
    #: The head after each record, in step with ``records`` (SHA-256 digests: ``chained``), and
    #: the header's own.
    heads: list[bytes] = field(default_factory=list)
    first_head: bytes = b""

    @property
    def head(self) -> bytes:
        """The head after the last record (the header's, for a journal of none)."""
        return self.heads[-1] if self.heads else self.first_head


def chained(head: bytes, payload: bytes | memoryview) -> bytes:
    """The head after a record whose JSON is ``payload``, the head before it being ``head``."""
    return hashlib.sha256(head + payload).digest()


#: What to append, given the journal as it stands under its lock (raise to append nothing).
Make = Callable[[Journal[Any, Any]], Sequence[msgspec.Struct]]


class _Writer(SaveWriter):
    """A save's writer whose records are read back with a journal's decoder."""


def create(path: Path, header: Any, first: Sequence[msgspec.Struct], decode: Callable[[bytes], object]) -> None:
    """A new journal at ``path`` (never over an existing file) with ``header`` (a Struct whose
    first field is ``fireteam``, the format) and the records ``first``, synced."""
    writer = _writer(decode).create(path, header)
    try:
        writer.append(first)
    except OSError as e:
        # Removed while still locked: no other process can have taken it up.
        with contextlib.suppress(OSError):
            path.unlink()
        raise _unwritten(path, e) from None
    finally:
        writer.close()


def append(
    path: Path, read: Callable[[Path], Journal[Any, Any]], make: Make, decode: Callable[[bytes], object]
) -> Journal[Any, Any]:
    """Append what ``make`` gives for the journal as it stands, under its lock: the journal is
    read (``read``) once the lock is held, so what ``make`` decides on is what is appended to.
    ``make`` may raise to append nothing.  Returns the journal with the records appended (their
    heads too)."""
    writer = _writer(decode).lock(path)
    try:
        journal = read(path)
        writer.go_on(journal.header.fireteam, journal.good_bytes, journal.check, journal.torn_bytes)
        records = make(journal)
        if records:
            try:
                payloads = writer.append(records)
            except OSError as e:  # what was written of it is taken back (SaveWriter.append), or not
                raise _unwritten(path, e, taken_back=not writer.broken) from None
            for record, payload in zip(records, payloads, strict=True):
                journal.records.append(record)
                journal.heads.append(chained(journal.head, payload))
        return journal
    finally:
        writer.close()


def _unwritten(path: Path, e: OSError, taken_back: bool = True) -> SaveError:
    if taken_back:
        said = _("{path}: cannot write: {error}; nothing was added: free some space and try again")
    else:
        # The write (or its sync) failed, and so did cutting it off again: the record may be in
        # the file whole, or torn (the next append sets a torn end aside).  Never "nothing".
        said = _(
            "{path}: cannot write: {error}, and what was written could not be taken back: "
            "it may have been added; read the file again to see (a torn end is set aside by the next append)"
        )
    return SaveError(said.format(path=path, error=e.strerror))


def _writer(decode: Callable[[bytes], object]) -> type[SaveWriter]:
    return type("JournalWriter", (_Writer,), {"decode": staticmethod(decode)})


def read(path: Path, header_type: type[H], decode: Callable[[memoryview], R]) -> Journal[H, R]:
    """The journal at ``path``: SaveError if it cannot be read, is no such journal, or is damaged."""
    try:
        fd = open_regular(path)
    except FileNotFoundError:
        raise SaveError(_("{path}: no such file; check the name").format(path=path)) from None
    except OSError as e:
        said = _("{path}: cannot read: {error}; check the name and the file's permissions")
        raise SaveError(said.format(path=path, error=e.strerror)) from None
    with open(fd, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_JOURNAL_BYTES:
            said = _("{path}: {size} bytes is larger than this file can be ({limit} bytes); is this the right file?")
            raise SaveError(said.format(path=path, size=size, limit=MAX_JOURNAL_BYTES))
        data = f.read(size)
    lines = data.split(b"\n")
    del data  # (the lines are a copy: a 60 MB season is not held twice while it is decoded)
    rest = lines.pop()  # after the last newline: a line a crash cut short, or nothing
    if not lines or not _header_ok(lines[0]):
        raise SaveError(_("{path}:1: not the file it should be (no valid header line)").format(path=path))
    try:
        header = msgspec.json.decode(lines[0][9:], type=header_type)
    except msgspec.ValidationError as e:
        raise SaveError(_("{path}:1: invalid header: {error}").format(path=path, error=e)) from None
    check = zlib.crc32(lines[0][9:])
    first_head = head = hashlib.sha256(lines[0][9:]).digest()
    good = len(lines[0]) + 1
    body = lines[1:]
    if getattr(header, "fireteam", 0) < CHAINED_FROM:
        raise SaveError(_("{path}:1: invalid header: format version too old").format(path=path))
    records: list[R] = []
    heads: list[bytes] = []
    if body:
        payloads = [memoryview(line)[9:] for line in body]  # (views, not a third copy of the file)
        verdict = linecheck.judge(body, payloads, check, chained=True, longest=MAX_LINE_BYTES)
        kept = len(body) if verdict.bad < 0 else verdict.bad
        if verdict.bad >= 0 and (verdict.too_long or kept + 1 < len(body) or rest or _whole(body[kept])):
            raise _damaged(path, kept + 2)
        for i, payload in enumerate(payloads[:kept]):
            try:
                records.append(decode(payload))
            except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError) as e:
                said = _("{path}:{line}: invalid record: {error}; the file was not changed")
                raise SaveError(said.format(path=path, line=i + 2, error=e)) from None
            head = chained(head, payload)
            heads.append(head)
        check, good = verdict.check, good + verdict.good_bytes
    return Journal(path, header, records, good, check, size - good, heads, first_head)


def _header_ok(line: bytes) -> bool:
    return linecheck.frame_ok(line) and b"%08x" % zlib.crc32(line[9:]) == line[:8]


def _whole(line: bytes) -> bool:
    """Whether a line failing its check is a whole record (moved or edited: damage, not a torn write)."""
    try:
        return isinstance(msgspec.json.decode(line[9:]), dict)
    except (msgspec.DecodeError, UnicodeDecodeError):
        return False


def _damaged(path: Path, line: int) -> SaveError:
    said = _(
        "{path}:{line}: damaged record, or a line missing, repeated or out of order before it; the file was not changed"
    )
    return SaveError(said.format(path=path, line=line))
