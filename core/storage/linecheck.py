"""The checks of a save's lines: the frames, the chained CRCs, the lengths.

The save reader's checks (``core.storage.savefile``), a read's lines at a time
(docs/architecture.md, "Events and the save file"): every line is
``<check as 8 lowercase hex digits> <space> <JSON>``, at most ``MAX_LINE_BYTES``
long; from format 2 on, a line's check is the CRC-32 of its JSON continued from
the check of the line before.
"""

from __future__ import annotations

import binascii
import itertools
import operator
import struct
import zlib
from collections.abc import Sequence
from typing import NamedTuple

#: A line longer than this is not something Fireteam wrote.
MAX_LINE_BYTES = 1 << 20

# The check is compared as the exact 8 lowercase hex digits Fireteam writes:
# parsing it with int() would also accept "+", " ", "0x" or capitals in place of
# a digit, so some damaged bytes would go unnoticed.

HEX_DIGITS = b"0123456789abcdef"
frame_of = operator.itemgetter(slice(None, 9))
payload_of = operator.itemgetter(slice(9, None))


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


def check_lines(
    lines: list[bytes], payloads: Sequence[bytes | memoryview], check: int, chained: bool
) -> tuple[int, int]:
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


def judge(
    batch: list[bytes],
    payloads: Sequence[bytes | memoryview],
    check: int,
    chained: bool,
    longest: int = MAX_LINE_BYTES,
) -> Verdict:
    """The verdict on ``batch`` (whole lines, ``payloads`` their JSON), the line
    before it having the check ``check``, no line longer than ``longest``."""
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
    return Verdict(check, len(batch), bad, too_long, last, good)
