"""The checks of a save's lines: the frames, the chained CRCs, the lengths.

Nothing but the standard library, on purpose: besides being the save reader's
own (``core.storage.savefile`` imports every name here), this module runs as a
helper process of its own (``python -I -S linecheck.py FD``), started in a few
hundredths of a second, which checks a big save's lines on the machine's other
core while the reader decodes them (``savefile``'s ``_Helper``).  The reader
names each batch of lines as it reads it; the helper reads the same bytes from
the reader's open file and answers one :class:`Verdict` per batch, with the
CRC-32 of the bytes it read, so the reader uses a verdict only on the very
bytes it decodes, and takes in no line before its verdict.

The checks themselves (docs/architecture.md, "Events and the save file"): every
line is ``<check as 8 lowercase hex digits> <space> <JSON>``, at most
``MAX_LINE_BYTES`` long; from format 2 on, a line's check is the CRC-32 of its
JSON continued from the check of the line before.
"""

from __future__ import annotations

import binascii
import itertools
import operator
import os
import select
import struct
import sys
import zlib
from collections.abc import Iterator
from typing import BinaryIO, NamedTuple

#: A line longer than this is not something Fireteam wrote.
MAX_LINE_BYTES = 1 << 20

# The check is compared as the exact 8 lowercase hex digits Fireteam writes:
# parsing it with int() would also accept "+", " ", "0x" or capitals in place of
# a digit, so some damaged bytes would go unnoticed.

HEX_DIGITS = b"0123456789abcdef"
frame_of = operator.itemgetter(slice(None, 9))
payload_of = operator.itemgetter(slice(9, None))

#: Every digit as "0", every other byte as ".": a run of 16 digits, long enough
#: to be an integer beyond ``savefile.MAX_RECORD_INT``, is then one ``in`` away
#: (two passes in C, where a regular expression costs a third of a load).  Only
#: the lines holding such a run are looked at closely.
_DIGITS = bytes(48 if 48 <= i <= 57 else 46 for i in range(256))
_LONG_RUN = b"0" * 16


def long_digits(data: bytes) -> bool:
    return _LONG_RUN in data.translate(_DIGITS)


def frame_ok(line: bytes) -> bool:
    """Whether a line is framed as Fireteam frames it: 8 lowercase hex digits, a space, a payload."""
    return len(line) >= 10 and line[8:9] == b" " and not line[:8].translate(None, HEX_DIGITS)


def written_checks(lines: list[bytes]) -> list[int] | None:
    """The checks written on ``lines`` (at least one), read all at once; None if a
    line is not framed as Fireteam frames it (:func:`frame_ok` finds which).

    The frames are joined and looked at together (every ninth byte a space, the
    rest lowercase hex digits), so no Python code runs once per line.
    """
    n = len(lines)
    frames = b"".join(map(frame_of, lines))
    if len(frames) != 9 * n or frames[8::9] != b" " * n or min(map(len, lines)) < 10:
        return None
    digits = frames.translate(None, b" ")
    if len(digits) != 8 * n or digits.translate(None, HEX_DIGITS):
        return None
    return list(struct.unpack(f">{n}I", binascii.unhexlify(digits)))


def check_lines(lines: list[bytes], payloads: list[bytes], check: int, chained: bool) -> tuple[int, int]:
    """(index of the first bad line or -1, check of the last good line).

    ``payloads`` are the lines without their frame (``line[9:]``), cut once by the
    caller; ``check`` is the check of the line before the first.

    Each line's check is worked out from the check *written* on the line before
    it, all lines in one pass of C: if every written check is right, each was
    worked out from the right one (the first from ``check``); and at the first
    wrong one, every check before it was right, so it is the line a walk from the
    first line finds.
    """
    if not lines:
        return -1, check
    written = written_checks(lines)
    if written is None:
        framed = next(i for i, line in enumerate(lines) if not frame_ok(line))
        bad, last = check_lines(lines[:framed], payloads[:framed], check, chained)
        return (framed, last) if bad < 0 else (bad, last)
    if chained:
        computed = list(map(zlib.crc32, payloads, itertools.chain((check,), written)))
    else:
        computed = list(map(zlib.crc32, payloads))
    if computed == written:
        return -1, written[-1]
    bad = next(i for i, (ours, theirs) in enumerate(zip(computed, written, strict=True)) if ours != theirs)
    return bad, written[bad - 1] if bad else check


class Verdict(NamedTuple):
    """What the checks found in a batch of whole lines."""

    #: The check of the line before the batch (the chain went on from it).
    start: int
    #: The lines in the batch.
    lines: int
    #: The first bad line (its index in the batch), -1 if none.
    bad: int
    #: Whether that line is bad for being longer than a save's (else its frame or check is wrong).
    too_long: bool
    #: The check of the last good line.
    check: int
    #: The bytes of the good lines, newlines included.
    good_bytes: int
    #: Whether some line may hold a run of 16 digits (a number out of range): the
    #: reader then looks for it as it decodes (``savefile._decode_joined``).
    long_digits: bool


def judge(
    batch: list[bytes],
    payloads: list[bytes],
    check: int,
    chained: bool,
    region: bytes | None = None,
    longest: int = MAX_LINE_BYTES,
) -> Verdict:
    """The verdict on ``batch`` (whole lines, ``payloads`` their JSON), the line
    before it having the check ``check``, no line longer than ``longest``.  Given
    ``region``, the batch's lines joined by newlines, it is looked at for runs of
    16 digits; else ``long_digits`` is left for the reader to find."""
    lengths = list(map(len, batch))
    # Every line's length, not only one cut by the end of a read: the same file
    # must load or not wherever the reads happen to fall.
    sound = len(batch)
    if max(lengths) > longest:
        sound = next(i for i, length in enumerate(lengths) if length > longest)
    bad, last = check_lines(batch[:sound], payloads[:sound], check, chained)
    too_long = bad < 0 and sound < len(batch)
    if too_long:
        bad = sound
    kept = len(batch) if bad < 0 else bad
    good = sum(lengths if bad < 0 else lengths[:bad]) + kept
    long = region is None or long_digits(region)
    return Verdict(check, len(batch), bad, too_long, last, good, long)


# ------------------------------------------------------------------ the helper process
#
# Run as ``python -I -S linecheck.py FD``, FD the reader's open save.  The reader
# writes ``OPENING`` (the check the chain starts from, whether it is chained, the
# longest a line may be), then, for each batch, where its lines stand in the file
# (``SPAN``: from which byte, how many, the lines joined by newlines); the helper
# reads them from FD and answers each batch with a ``VERDICT``: the CRC-32 of the
# bytes it read, then the :class:`Verdict`.  It ends when its input does.

OPENING = struct.Struct("<IBQ")
SPAN = struct.Struct("<QQ")
VERDICT = struct.Struct("<IIqqBIqB")


def read_exactly(stream: BinaryIO, size: int, patience: float | None = None) -> bytes | None:
    """``size`` bytes from ``stream``, or None if it ends first (or, with ``patience``,
    if that many seconds go by with nothing to read)."""
    parts = []
    while size:
        if patience is not None and not select.select([stream], [], [], patience)[0]:
            return None
        part = stream.read(size)
        if not part:
            return None
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def pread_exactly(fd: int, size: int, start: int) -> bytes:
    """``size`` bytes of the file ``fd`` from byte ``start`` (fewer if it ends first)."""
    parts = []
    while size:
        part = os.pread(fd, size, start)
        if not part:
            break
        parts.append(part)
        size -= len(part)
        start += len(part)
    return b"".join(parts)


def serve(fd: int, source: BinaryIO, sink: BinaryIO) -> None:
    """Judge the batches of the file ``fd`` that ``source`` names, answering each on ``sink``."""
    opening = read_exactly(source, OPENING.size)
    if opening is None:
        return
    check, chained, longest = OPENING.unpack(opening)
    while (span := read_exactly(source, SPAN.size)) is not None:
        start, size = SPAN.unpack(span)
        region = pread_exactly(fd, size, start)
        batch = region.split(b"\n")
        verdict = judge(batch, list(map(payload_of, batch)), check, bool(chained), region, longest)
        sink.write(VERDICT.pack(zlib.crc32(region), *verdict))
        sink.flush()
        check = verdict.check


# The helper that reads the lines itself (``python -I -S linecheck.py FD chunks``):
# the reader writes ``CHUNKS_OPENING`` (the check the chain starts from, whether it
# is chained, the longest a line may be, the events in a chunk, where the lines
# start and where the file ends); the helper reads the file from there, checks
# every line as ``judge`` does, and for each ``chunk`` good lines in a row answers
# ``CHUNK_HEAD`` (the bytes of those lines, newlines included, the check of the
# last, and how many of them hold a run of 16 digits), the index in the chunk of
# each of those lines (``FLAG``, in order), and then their JSON joined into one
# array, which the reader decodes as it is and looks closely only at the lines
# named (``savefile._take_chunks``).  It ends at the first line that is not
# good, at a torn end, or at the end of the file: the reader takes the rest, from
# the last chunk's end, itself.

CHUNKS_OPENING = struct.Struct("<IBQIQQ")
CHUNK_HEAD = struct.Struct("<QII")
FLAG = struct.Struct("<I")


def good_chunks(
    fd: int, check: int, chained: bool, longest: int, chunk: int, start: int, end: int, read: int = 1 << 20
) -> Iterator[tuple[int, int, list[int], bytes]]:
    """(bytes, check of the last line, the lines holding a run of 16 digits, JSON
    array) of each ``chunk`` good lines in a row of the file ``fd`` from byte
    ``start`` to ``end``, read ``read`` bytes at a time."""
    lines: list[bytes] = []
    payloads: list[bytes] = []
    rest = b""
    while start < end:
        block = os.pread(fd, min(read, end - start), start)
        if not block:
            return
        start += len(block)
        batch = block.split(b"\n")
        batch[0] = rest + batch[0]
        rest = batch.pop()
        if batch:
            cut = list(map(payload_of, batch))
            verdict = judge(batch, cut, check, chained, None, longest)
            check = verdict.check
            good = verdict.lines if verdict.bad < 0 else verdict.bad
            lines += batch[:good]
            payloads += cut[:good]
            while len(lines) >= chunk:
                joined = b"[" + b",".join(payloads[:chunk]) + b"]"
                # (The lines are joined by commas: no run of digits spans two of them.)
                flagged = (
                    [i for i, payload in enumerate(payloads[:chunk]) if long_digits(payload)]
                    if long_digits(joined)
                    else []
                )
                size = sum(map(len, lines[:chunk])) + chunk
                yield size, int.from_bytes(binascii.unhexlify(lines[chunk - 1][:8])), flagged, joined
                del lines[:chunk], payloads[:chunk]
            if good < len(batch):
                return
        if len(rest) > longest:
            return


def serve_chunks(fd: int, source: BinaryIO, sink: BinaryIO) -> None:
    """Send the reader the good chunks of the file ``fd`` that ``source`` names."""
    opening = read_exactly(source, CHUNKS_OPENING.size)
    if opening is None:
        return
    check, chained, longest, chunk, start, end = CHUNKS_OPENING.unpack(opening)
    for size, last, flagged, joined in good_chunks(fd, check, bool(chained), longest, chunk, start, end):
        sink.write(CHUNK_HEAD.pack(size, last, len(flagged)) + b"".join(map(FLAG.pack, flagged)) + joined)
        sink.flush()


if __name__ == "__main__":
    if sys.argv[2:] == ["chunks"]:
        serve_chunks(int(sys.argv[1]), sys.stdin.buffer.raw, sys.stdout.buffer)
    else:
        serve(int(sys.argv[1]), sys.stdin.buffer.raw, sys.stdout.buffer)
