"""The line-check helper's own loop (``core.storage.linecheck.serve``) and the reads
it relies on, run here, in the test's process, on a pipe and a file, exactly as the
helper process runs them on its standard input, its standard output and the
reader's open save (``python -I -S linecheck.py FD``).

The protocol: the reader writes ``OPENING`` (the check the chain starts from,
whether it is chained, the longest a line may be), then one ``SPAN`` (from which
byte, how many) per batch of whole lines; the helper reads those bytes of the
file itself and answers each span with one ``VERDICT``: the CRC-32 of the bytes
it read, then the verdict on them.  It ends when its input does.

The expected answers are worked out here by hand (the checks with ``zlib``,
the lengths by counting), not by ``linecheck.judge``.
"""

from __future__ import annotations

import io
import os
import zlib
from pathlib import Path

import pytest

from core.storage import linecheck
from core.storage.linecheck import MAX_LINE_BYTES, OPENING, SPAN, VERDICT, Verdict

HEADER = b'{"fireteam":3,"ruleset":"x"}'


def _frame(payloads: list[bytes], check: int, chained: bool = True) -> list[bytes]:
    """``payloads`` framed as a save's lines (no newline), the first after a line whose check is ``check``."""
    lines = []
    for payload in payloads:
        check = zlib.crc32(payload, check) if chained else zlib.crc32(payload)
        lines.append(b"%08x %b" % (check, payload))
    return lines


def _check(line: bytes) -> int:
    return int(line[:8], 16)


class Save:
    """A save on disk: a header line, then ``lines``; where each record line starts."""

    def __init__(self, path: Path, lines: list[bytes]) -> None:
        head = b"%08x %b" % (zlib.crc32(HEADER), HEADER)
        self.lines = lines
        self.data = b"".join(line + b"\n" for line in [head, *lines])
        path.write_bytes(self.data)
        self.fd = os.open(path, os.O_RDONLY)
        self.starts = []
        at = len(head) + 1
        for line in lines:
            self.starts.append(at)
            at += len(line) + 1

    def span(self, first: int, last: int) -> bytes:
        """The span of record lines ``first`` to ``last`` (inclusive), joined by newlines, no last newline."""
        start = self.starts[first]
        end = self.starts[last] + len(self.lines[last])
        return SPAN.pack(start, end - start)

    def region(self, first: int, last: int) -> bytes:
        return b"\n".join(self.lines[first : last + 1])


@pytest.fixture
def saves(tmp_path):
    made: list[Save] = []

    def make(lines: list[bytes], name: str = "game.ft") -> Save:
        made.append(Save(tmp_path / name, lines))
        return made[-1]

    yield make
    for save in made:
        os.close(save.fd)


def _serve(fd: int, requests: bytes) -> list[tuple]:
    """What the helper answers ``requests`` on the file ``fd``: each answer unpacked, in order.

    The requests come down a pipe, as from the reader (the helper reads its
    standard input unbuffered, ``sys.stdin.buffer.raw``), closed after them."""
    r, w = os.pipe()
    sink = io.BytesIO()
    with os.fdopen(r, "rb", buffering=0) as source:
        os.write(w, requests)  # well under a pipe's buffer
        os.close(w)
        linecheck.serve(fd, source, sink)
    out = sink.getvalue()
    assert len(out) % VERDICT.size == 0, out
    return [VERDICT.unpack_from(out, at) for at in range(0, len(out), VERDICT.size)]


def _answer(region: bytes, verdict: Verdict) -> tuple:
    return (zlib.crc32(region), *verdict)


PAYLOADS = [b'{"t":"note","text":"line %d"}' % i for i in range(6)]


def test_each_span_is_answered_with_the_crc_of_its_bytes_and_its_verdict(saves):
    first = zlib.crc32(HEADER)
    lines = _frame(PAYLOADS, first)
    save = saves(lines)
    requests = OPENING.pack(first, 1, MAX_LINE_BYTES) + save.span(0, 2) + save.span(3, 5)
    sizes = [len(line) + 1 for line in lines]
    assert _serve(save.fd, requests) == [
        _answer(save.region(0, 2), Verdict(first, 3, -1, False, _check(lines[2]), sum(sizes[:3]), False)),
        # The chain goes on from the check of the last line of the span before.
        _answer(save.region(3, 5), Verdict(_check(lines[2]), 3, -1, False, _check(lines[5]), sum(sizes[3:]), False)),
    ]


def test_a_line_failing_its_check_is_named_with_the_check_and_bytes_before_it(saves):
    first = zlib.crc32(HEADER)
    lines = _frame(PAYLOADS, first)
    lines[4] = lines[4][:-3] + b"9" + lines[4][-2:]  # "line 4" made "line 9", the check left
    save = saves(lines)
    requests = OPENING.pack(first, 1, MAX_LINE_BYTES) + save.span(0, 2) + save.span(3, 5) + save.span(5, 5)
    good = sum(len(x) + 1 for x in lines[:3])
    assert _serve(save.fd, requests) == [
        _answer(save.region(0, 2), Verdict(first, 3, -1, False, _check(lines[2]), good, False)),
        _answer(save.region(3, 5), Verdict(_check(lines[2]), 3, 1, False, _check(lines[3]), len(lines[3]) + 1, False)),
        # Asked on, it judges the next span from the last good check: its first line is bad.
        _answer(save.region(5, 5), Verdict(_check(lines[3]), 1, 0, False, _check(lines[3]), 0, False)),
    ]


def test_damage_in_the_first_and_in_the_last_line_of_a_span(saves):
    first = zlib.crc32(HEADER)
    lines = _frame(PAYLOADS, first)
    for at in (0, 2):
        damaged = list(lines)
        damaged[at] = damaged[at][:3] + b"%c" % (damaged[at][3] ^ 1) + damaged[at][4:]  # a digit of its check
        save = saves(damaged, f"at{at}.ft")
        good = sum(len(x) + 1 for x in damaged[:at])
        before = _check(damaged[at - 1]) if at else first
        assert _serve(save.fd, OPENING.pack(first, 1, MAX_LINE_BYTES) + save.span(0, 2)) == [
            _answer(save.region(0, 2), Verdict(first, 3, at, False, before, good, False))
        ]


def test_a_save_of_the_first_format_is_checked_line_by_line_and_one_of_today_chained(saves):
    first = zlib.crc32(HEADER)
    alone = _frame(PAYLOADS, first, chained=False)
    chained = _frame(PAYLOADS, first)
    sizes = sum(len(x) + 1 for x in alone)
    old, new = saves(alone, "old.ft"), saves(chained, "new.ft")
    assert _serve(old.fd, OPENING.pack(first, 0, MAX_LINE_BYTES) + old.span(0, 5)) == [
        _answer(old.region(0, 5), Verdict(first, 6, -1, False, _check(alone[5]), sizes, False))
    ]
    # Each read with the other's checks: the first line is bad.
    assert _serve(old.fd, OPENING.pack(first, 1, MAX_LINE_BYTES) + old.span(0, 5)) == [
        _answer(old.region(0, 5), Verdict(first, 6, 0, False, first, 0, False))
    ]
    assert _serve(new.fd, OPENING.pack(first, 0, MAX_LINE_BYTES) + new.span(0, 5)) == [
        _answer(new.region(0, 5), Verdict(first, 6, 0, False, first, 0, False))
    ]


def test_a_line_longer_than_the_opening_allows_is_named_as_too_long(saves):
    first = zlib.crc32(HEADER)
    payloads = list(PAYLOADS)
    payloads[3] = b'{"t":"note","text":"%b"}' % (b"x" * 40)
    lines = _frame(payloads, first)
    save = saves(lines)
    longest = len(lines[3]) - 1
    assert all(len(line) <= longest for i, line in enumerate(lines) if i != 3)
    requests = OPENING.pack(first, 1, longest) + save.span(0, 5)
    good = sum(len(x) + 1 for x in lines[:3])
    assert _serve(save.fd, requests) == [
        _answer(save.region(0, 5), Verdict(first, 6, 3, True, _check(lines[2]), good, False))
    ]
    # As long as the opening allows: a good line.
    assert _serve(save.fd, OPENING.pack(first, 1, longest + 1) + save.span(0, 5))[0][3] == -1


def test_a_span_holding_a_run_of_sixteen_digits_is_said_to(saves):
    first = zlib.crc32(HEADER)
    payloads = list(PAYLOADS)
    payloads[4] = b'{"t":"note","text":"1234567890123456"}'
    lines = _frame(payloads, first)
    save = saves(lines)
    answers = _serve(save.fd, OPENING.pack(first, 1, MAX_LINE_BYTES) + save.span(0, 2) + save.span(3, 5))
    assert [answer[-1] for answer in answers] == [0, 1]
    assert [answer[3] for answer in answers] == [-1, -1]


def test_a_span_past_the_end_of_the_file_is_judged_on_the_bytes_there(saves):
    """The file cut since the reader read it: the helper reads what is left, and its
    CRC says so (the reader then works the verdict out itself)."""
    first = zlib.crc32(HEADER)
    lines = _frame(PAYLOADS, first)
    save = saves(lines)
    start = save.starts[3]
    there = save.data[start:]  # the three last lines, each with its newline
    requests = OPENING.pack(first, 1, MAX_LINE_BYTES) + SPAN.pack(start, len(there) + 100)
    good = sum(len(x) + 1 for x in lines[3:])
    # The newline of the last line leaves an empty line after it, which is no line.
    assert _serve(save.fd, requests) == [
        _answer(there, Verdict(first, 4, 0, False, first, 0, False)),
    ]
    chained_from = _check(lines[2])
    assert _serve(save.fd, OPENING.pack(chained_from, 1, MAX_LINE_BYTES) + SPAN.pack(start, len(there) + 100)) == [
        _answer(there, Verdict(chained_from, 4, 3, False, _check(lines[5]), good, False)),
    ]
    # A span wholly past the end: no bytes, one empty line.
    assert _serve(save.fd, OPENING.pack(first, 1, MAX_LINE_BYTES) + SPAN.pack(len(save.data) + 10, 50)) == [
        _answer(b"", Verdict(first, 1, 0, False, first, 0, False)),
    ]


@pytest.mark.parametrize("cut", [0, 1, OPENING.size - 1, OPENING.size, OPENING.size + 1, OPENING.size + SPAN.size - 1])
def test_the_helper_ends_when_its_input_does_answering_only_whole_spans(saves, cut):
    first = zlib.crc32(HEADER)
    lines = _frame(PAYLOADS, first)
    save = saves(lines)
    requests = OPENING.pack(first, 1, MAX_LINE_BYTES) + save.span(0, 2) + save.span(3, 5)
    assert _serve(save.fd, requests[:cut]) == []
    whole_one = OPENING.size + SPAN.size
    for more in (0, 1, SPAN.size - 1):
        answers = _serve(save.fd, requests[: whole_one + more])
        assert [answer[2] for answer in answers] == [3]  # the first span's, alone


# ------------------------------------------------------------------ the reads


class Trickle:
    """A stream that gives at most ``step`` bytes a read, as a pipe may."""

    def __init__(self, data: bytes, step: int) -> None:
        self._data, self._step = data, step

    def read(self, size: int) -> bytes:
        part, self._data = self._data[: min(size, self._step)], self._data[min(size, self._step) :]
        return part


def test_read_exactly_gathers_short_reads_and_leaves_the_rest():
    stream = Trickle(b"0123456789abcdef", 3)
    assert linecheck.read_exactly(stream, 8) == b"01234567"
    assert linecheck.read_exactly(stream, 5) == b"89abc"
    assert linecheck.read_exactly(stream, 4) is None  # three bytes left: it ends first
    assert linecheck.read_exactly(Trickle(b"", 3), 1) is None
    assert linecheck.read_exactly(Trickle(b"xyz", 3), 0) == b""


def test_read_exactly_with_patience_gives_up_on_a_pipe_with_nothing_to_read():
    r, w = os.pipe()
    with os.fdopen(r, "rb", buffering=0) as stream:
        assert linecheck.read_exactly(stream, 4, patience=0.0) is None  # nothing written yet
        os.write(w, b"ab")
        assert linecheck.read_exactly(stream, 4, patience=0.0) is None  # half of it, no more coming yet
        os.write(w, b"cdef")
        assert linecheck.read_exactly(stream, 4, patience=0.0) == b"cdef"  # there already: no waiting
        os.write(w, b"gh")
        os.close(w)
        assert linecheck.read_exactly(stream, 2, patience=600.0) == b"gh"
        assert linecheck.read_exactly(stream, 2, patience=600.0) is None  # the pipe has ended


def test_pread_exactly_reads_from_where_it_is_told_and_stops_at_the_end(tmp_path, monkeypatch):
    data = bytes(range(48, 48 + 40))
    path = tmp_path / "f"
    path.write_bytes(data)
    fd = os.open(path, os.O_RDONLY)
    try:
        assert linecheck.pread_exactly(fd, 5, 3) == data[3:8]
        assert linecheck.pread_exactly(fd, 100, 30) == data[30:]
        assert linecheck.pread_exactly(fd, 4, 50) == b""
        assert linecheck.pread_exactly(fd, 0, 0) == b""
        # Short reads (as a read may be, interrupted), put together in order.
        pread = os.pread
        monkeypatch.setattr(os, "pread", lambda fd, size, start: pread(fd, min(size, 3), start))
        assert linecheck.pread_exactly(fd, 11, 2) == data[2:13]
        assert linecheck.pread_exactly(fd, 20, 32) == data[32:]
    finally:
        os.close(fd)


# ------------------------------------------------------------ the chunking helper (good_chunks, serve_chunks)


def _open(tmp_path: Path, data: bytes) -> int:
    path = tmp_path / "lines"
    path.write_bytes(data)
    return os.open(path, os.O_RDONLY)


def _framed(payloads: list[bytes], check: int = 7) -> tuple[bytes, list[int]]:
    lines = []
    for p in payloads:
        check = zlib.crc32(p, check)
        lines.append(b"%08x %b\n" % (check, p))
    return b"".join(lines), [int(line[:8], 16) for line in lines]


NUMBERED = [b'{"a":%d}' % i for i in range(11)]


@pytest.mark.parametrize("read", [1, 7, 13, 1 << 20])
def test_good_chunks_are_every_chunk_of_good_lines_wherever_the_reads_fall(tmp_path, read):
    data, checks = _framed(NUMBERED)
    fd = _open(tmp_path, b"xx" + data + b"tail")
    got = list(linecheck.good_chunks(fd, 7, True, 100, 3, 2, 2 + len(data) + 4, read))
    sizes = [sum(len(p) + 10 for p in NUMBERED[k : k + 3]) for k in (0, 3, 6)]
    assert got == [
        (sizes[0], checks[2], [], b"[" + b",".join(NUMBERED[0:3]) + b"]"),
        (sizes[1], checks[5], [], b"[" + b",".join(NUMBERED[3:6]) + b"]"),
        (sizes[2], checks[8], [], b"[" + b",".join(NUMBERED[6:9]) + b"]"),
    ]


@pytest.mark.parametrize("read", [5, 1 << 20])
def test_good_chunks_stop_before_the_chunk_of_a_bad_line(tmp_path, read):
    data, _checks = _framed(NUMBERED)
    lines = data.split(b"\n")
    lines[7] = lines[7][:10] + b"X" + lines[7][11:]
    fd = _open(tmp_path, b"\n".join(lines))
    got = list(linecheck.good_chunks(fd, 7, True, 100, 3, 0, len(data), read))
    assert [joined for _s, _c, _f, joined in got] == [b"[" + b",".join(NUMBERED[k : k + 3]) + b"]" for k in (0, 3)]


def test_good_chunks_check_from_the_check_given_and_unchained_too(tmp_path):
    data, _checks = _framed(NUMBERED, 7)
    fd = _open(tmp_path, data)
    assert list(linecheck.good_chunks(fd, 8, True, 100, 3, 0, len(data))) == []
    plain = b"".join(b"%08x %b\n" % (zlib.crc32(p), p) for p in NUMBERED)
    fd = _open(tmp_path, plain)
    assert len(list(linecheck.good_chunks(fd, 0, False, 100, 3, 0, len(plain)))) == 3
    assert list(linecheck.good_chunks(fd, 0, True, 100, 3, 0, len(plain))) == []


def test_good_chunks_name_the_lines_holding_a_long_run_of_digits_and_go_on(tmp_path):
    """A run of 16 digits, a number or in a text, wherever it falls in a chunk: the
    chunk is sent, naming the lines that hold one (15 digits are no run)."""
    payloads = [
        *NUMBERED[:4],
        b'{"a":%d}' % 10**15,
        *NUMBERED[5:7],
        b'{"a":"x%dx"}' % 10**15,
        b'{"a":%d}' % 10**15,
        b'{"a":%d}' % (10**15 - 1),
        NUMBERED[10],
    ]
    data, _checks = _framed(payloads)
    fd = _open(tmp_path, data)
    got = list(linecheck.good_chunks(fd, 7, True, 100, 3, 0, len(data)))
    assert [flagged for _s, _c, flagged, _j in got] == [[], [1], [1, 2]]
    assert [joined for _s, _c, _f, joined in got] == [b"[" + b",".join(payloads[k : k + 3]) + b"]" for k in (0, 3, 6)]
    payloads = [*NUMBERED[:6], b'{"a":%d}' % (10**15 - 1), *NUMBERED[7:]]
    data, _checks = _framed(payloads)
    fd = _open(tmp_path, data)
    assert [flagged for _s, _c, flagged, _j in linecheck.good_chunks(fd, 7, True, 100, 3, 0, len(data))] == [[]] * 3


def test_good_chunks_stop_before_a_long_line_and_at_the_end(tmp_path):
    data, _checks = _framed(NUMBERED)
    fd = _open(tmp_path, data + b"0" * 30)
    # A line longer than 20 bytes, read or still being read: no chunk after the lines before it.
    assert len(list(linecheck.good_chunks(fd, 7, True, 20, 3, 0, len(data) + 30, 7))) == 3
    fd = _open(tmp_path, data[:30] + b"0" * 30 + data[30:])
    assert list(linecheck.good_chunks(fd, 7, True, 20, 3, 0, len(data) + 30, 7)) == []
    assert len(list(linecheck.good_chunks(fd, 7, True, 20, 3, 0, 30, 7))) == 0
    # The file shorter than said: what it holds.
    fd = _open(tmp_path, data)
    assert len(list(linecheck.good_chunks(fd, 7, True, 100, 3, 0, len(data) + 1000, 7))) == 3


def test_serve_chunks_answers_each_chunk_then_ends(tmp_path):
    data, checks = _framed(NUMBERED)
    fd = _open(tmp_path, data)
    sink = io.BytesIO()
    opening = linecheck.CHUNKS_OPENING.pack(7, 1, 100, 5, 0, len(data))
    linecheck.serve_chunks(fd, io.BytesIO(opening), sink)
    head = linecheck.CHUNK_HEAD
    first = b"[" + b",".join(NUMBERED[:5]) + b"]"
    second = b"[" + b",".join(NUMBERED[5:10]) + b"]"
    size = [sum(len(p) + 10 for p in NUMBERED[k : k + 5]) for k in (0, 5)]
    assert sink.getvalue() == head.pack(size[0], checks[4], 0) + first + head.pack(size[1], checks[9], 0) + second
    sink = io.BytesIO()
    linecheck.serve_chunks(fd, io.BytesIO(opening[:-1]), sink)
    assert sink.getvalue() == b""


def test_serve_chunks_names_the_lines_holding_a_run_of_digits_before_the_array(tmp_path):
    payloads = [NUMBERED[0], b'{"a":%d}' % 10**15, NUMBERED[2], b'{"a":"%d"}' % 10**17, NUMBERED[4]]
    data, checks = _framed(payloads)
    fd = _open(tmp_path, data)
    sink = io.BytesIO()
    linecheck.serve_chunks(fd, io.BytesIO(linecheck.CHUNKS_OPENING.pack(7, 1, 100, 5, 0, len(data))), sink)
    size = sum(len(p) + 10 for p in payloads)
    flags = linecheck.FLAG.pack(1) + linecheck.FLAG.pack(3)
    joined = b"[" + b",".join(payloads) + b"]"
    assert sink.getvalue() == linecheck.CHUNK_HEAD.pack(size, checks[4], 2) + flags + joined


def test_good_chunks_read_nothing_past_the_end_they_are_given(tmp_path):
    """Whole lines past ``end`` (a writer appending meanwhile) are not read."""
    data, checks = _framed(NUMBERED[:9])
    more, _checks = _framed(NUMBERED[8:], checks[-1])
    before = b"x" * 999 + b"\n"
    fd = _open(tmp_path, before + data + more + more)
    assert len(list(linecheck.good_chunks(fd, 7, True, 100, 3, 1000, 1000 + len(data)))) == 3
    assert len(list(linecheck.good_chunks(fd, 7, True, 100, 3, 1000, 1000 + len(data) + len(more)))) == 4


def test_good_chunks_stop_before_a_whole_line_too_long(tmp_path):
    payloads = [*NUMBERED[:4], b'{"a":"%s"}' % (b"x" * 12), *NUMBERED[5:]]
    data, _checks = _framed(payloads)
    fd = _open(tmp_path, data)
    assert max(len(line) for line in data.split(b"\n")) == 9 + 20
    assert len(list(linecheck.good_chunks(fd, 7, True, 29, 3, 0, len(data)))) == 3
    assert len(list(linecheck.good_chunks(fd, 7, True, 28, 3, 0, len(data)))) == 1


@pytest.mark.parametrize("read", [5, 1 << 20])
def test_good_chunks_stop_at_a_bad_line_of_the_first_format_though_the_lines_after_are_good(tmp_path, read):
    """In a save whose checks are not chained, the lines after a bad one would check."""
    lines = [b"%08x %b" % (zlib.crc32(p), p) for p in NUMBERED]
    lines[4] = lines[4][:10] + b"X" + lines[4][11:]
    data = b"\n".join(lines) + b"\n"
    fd = _open(tmp_path, data)
    got = list(linecheck.good_chunks(fd, 0, False, 100, 3, 0, len(data), read))
    assert [joined for _s, _c, _f, joined in got] == [b"[" + b",".join(NUMBERED[:3]) + b"]"]


def test_good_chunks_send_the_last_chunk_when_it_ends_the_file(tmp_path):
    data, checks = _framed(NUMBERED[:9])
    fd = _open(tmp_path, data)
    got = list(linecheck.good_chunks(fd, 7, True, 100, 3, 0, len(data)))
    assert [last for _s, last, _f, _j in got] == [checks[2], checks[5], checks[8]]


@pytest.mark.parametrize("read", [1, 4])
def test_good_chunks_stop_reading_once_the_line_being_read_is_too_long(tmp_path, monkeypatch, read):
    """Not a byte more than needed to know: a line of ``longest`` bytes may still end."""
    data, _checks = _framed(NUMBERED[:3])
    fd = _open(tmp_path, data + b"0" * 40)
    ends = []
    pread = os.pread

    def spy(fd, size, start):
        ends.append(start + size)
        return pread(fd, size, start)

    monkeypatch.setattr(linecheck.os, "pread", spy)
    assert len(list(linecheck.good_chunks(fd, 7, True, 20, 3, 0, len(data) + 40, read))) == 1
    assert ends[-1] == len(data) + 21
