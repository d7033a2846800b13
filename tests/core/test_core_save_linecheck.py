"""The checks of a batch of a save's lines (``core.storage.linecheck.judge``): the
frames, the chained CRCs and the lengths, and where the good lines end.

The expected verdicts are worked out here by hand (the checks with ``zlib``, the
lengths by counting), not by ``linecheck`` itself.
"""

from __future__ import annotations

import zlib

from core.storage import linecheck
from core.storage.linecheck import MAX_LINE_BYTES, Verdict

HEADER = b'{"fireteam":3,"ruleset":"x"}'
FIRST = zlib.crc32(HEADER)
PAYLOADS = [b'{"t":"note","text":"line %d"}' % i for i in range(6)]


def _frame(payloads: list[bytes], check: int, chained: bool = True) -> list[bytes]:
    """``payloads`` framed as a save's lines (no newline), the first after a line whose check is ``check``."""
    lines = []
    for payload in payloads:
        check = zlib.crc32(payload, check) if chained else zlib.crc32(payload)
        lines.append(b"%08x %b" % (check, payload))
    return lines


def _check(line: bytes) -> int:
    return int(line[:8], 16)


def _judge(lines: list[bytes], check: int, chained: bool = True, longest: int = MAX_LINE_BYTES) -> Verdict:
    return linecheck.judge(lines, [line[9:] for line in lines], check, chained, longest=longest)


def _bytes(lines: list[bytes]) -> int:
    return sum(len(line) + 1 for line in lines)


def test_each_batch_is_judged_from_the_check_of_the_line_before_it():
    lines = _frame(PAYLOADS, FIRST)
    assert _judge(lines[:3], FIRST) == Verdict(FIRST, 3, -1, False, _check(lines[2]), _bytes(lines[:3]))
    # The chain goes on from the check of the last line of the batch before.
    after = _check(lines[2])
    assert _judge(lines[3:], after) == Verdict(after, 3, -1, False, _check(lines[5]), _bytes(lines[3:]))
    # From any other check, its first line is bad.
    assert _judge(lines[3:], FIRST) == Verdict(FIRST, 3, 0, False, FIRST, 0)


def test_a_line_failing_its_check_is_named_with_the_check_and_bytes_before_it():
    lines = _frame(PAYLOADS, FIRST)
    lines[4] = lines[4][:-3] + b"9" + lines[4][-2:]  # "line 4" made "line 9", the check left
    after = _check(lines[2])
    assert _judge(lines[3:], after) == Verdict(after, 3, 1, False, _check(lines[3]), len(lines[3]) + 1)


def test_damage_in_the_first_and_in_the_last_line_of_a_batch():
    lines = _frame(PAYLOADS, FIRST)
    for at in (0, 2):
        damaged = list(lines)
        damaged[at] = damaged[at][:3] + b"%c" % (damaged[at][3] ^ 1) + damaged[at][4:]  # a digit of its check
        before = _check(damaged[at - 1]) if at else FIRST
        assert _judge(damaged[:3], FIRST) == Verdict(FIRST, 3, at, False, before, _bytes(damaged[:at]))


def test_a_bad_frame_is_a_bad_line():
    lines = _frame(PAYLOADS, FIRST)
    for frame in (b"%08X" % _check(lines[1]), b"+%07x" % _check(lines[1]), b"%08x" % _check(lines[1]) + b"\t"):
        damaged = list(lines)
        damaged[1] = frame + damaged[1][8:] if len(frame) == 8 else frame + damaged[1][9:]
        assert _judge(damaged, FIRST).bad == 1, frame


def test_a_save_of_the_first_format_is_checked_line_by_line_and_one_of_today_chained():
    alone = _frame(PAYLOADS, FIRST, chained=False)
    chained = _frame(PAYLOADS, FIRST)
    assert _judge(alone, FIRST, chained=False) == Verdict(FIRST, 6, -1, False, _check(alone[5]), _bytes(alone))
    # Each read with the other's checks: the first line is bad.
    assert _judge(alone, FIRST) == Verdict(FIRST, 6, 0, False, FIRST, 0)
    assert _judge(chained, FIRST, chained=False) == Verdict(FIRST, 6, 0, False, FIRST, 0)


def test_a_line_longer_than_allowed_is_named_as_too_long():
    payloads = list(PAYLOADS)
    payloads[3] = b'{"t":"note","text":"%b"}' % (b"x" * 40)
    lines = _frame(payloads, FIRST)
    longest = len(lines[3]) - 1
    assert all(len(line) <= longest for i, line in enumerate(lines) if i != 3)
    assert _judge(lines, FIRST, longest=longest) == Verdict(FIRST, 6, 3, True, _check(lines[2]), _bytes(lines[:3]))
    # As long as allowed: a good line.
    assert _judge(lines, FIRST, longest=longest + 1).bad == -1


def test_a_bad_line_before_a_too_long_one_is_named_for_its_check():
    payloads = list(PAYLOADS)
    payloads[4] = b'{"t":"note","text":"%b"}' % (b"x" * 40)
    lines = _frame(payloads, FIRST)
    lines[1] = lines[1][:-3] + b"9" + lines[1][-2:]
    verdict = _judge(lines, FIRST, longest=len(lines[4]) - 1)
    assert (verdict.bad, verdict.too_long) == (1, False)
