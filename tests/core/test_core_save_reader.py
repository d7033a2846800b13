# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""The save reader's steps, each on its own (``core.storage.savefile.load``): the reads,
the check of a read's lines, the verdict on the end of the file, the pieces put
together wherever the reads fall, and a format-2 save appended to and read again
(issue #33)."""

from __future__ import annotations

import gc
import json
import zlib
from pathlib import Path

import msgspec
import pytest
from coretests_support import builtins, collector_off, file_lines, new_skirmish, sha, skirmish_registered  # noqa: F401  (a fixture)

import core.storage.decoding as decoding
import core.storage.savefile as savefile
from core.game import Game
from core.log import events as ev
from core.log.recordint import MAX_RECORD_INT
from core.log.views import REFEREE
from core.storage import linecheck
from core.storage import lock as savelock
from core.storage.errors import SaveError, SaveLocked
from core.storage.linecheck import check_lines
from core.storage.savefile import CHAINED_FROM, Chain, _decide_tail, _Reads, _Stop, load


def played(path: Path) -> Game:
    """A short game with every kind of group: facts, an undo, a redo, a command of several facts."""
    game = new_skirmish(path, seed=5)
    for line, role in (
        ("mark gunner suppressed", "referee"),
        ("note smoke drifts north", "referee"),
        ("undo", "referee"),
        ("redo", "referee"),
        ("walk alpha 5 run", "blue"),
        ("shoot gunner alpha", "red"),
        ("dp blue 5 building", "referee"),
    ):
        game.execute(line, role=role)
    return game


@pytest.fixture(scope="module")
def played_bytes(tmp_path_factory) -> bytes:
    """The bytes of ``played``'s save, played once for the module's tests."""
    with skirmish_registered():
        game = played(tmp_path_factory.mktemp("played") / "game.ft")
        game.close()
    return game.path.read_bytes()


@pytest.fixture
def save(tmp_path, played_bytes) -> Path:
    path = tmp_path / "game.ft"
    path.write_bytes(played_bytes)
    with skirmish_registered():
        yield path


def _refused(path: Path, line: int, what: str = "check mismatch") -> None:
    """Every way of opening ``path`` refuses it at ``line``, and leaves the folder as it was."""
    before = sha(path)
    for opener in (load, lambda p: Game.open(p, writable=False), Game.open):
        with pytest.raises(SaveError) as refused:
            opener(path)
        message = str(refused.value)
        assert f"{path.name}:{line}: " in message and what in message, message
        assert "fireteam salvage" in message
    assert sha(path) == before
    assert [p.name for p in path.parent.iterdir() if ".torn-" in p.name] == []


def _bad_check(line: bytes) -> bytes:
    """The same whole record with another check (a line moved, repeated or edited)."""
    check = int(line[:8], 16) ^ 0x5A5A
    return b"%08x%b" % (check, line[8:])


# --------------------------------------------------------------- check a read's lines


def _walk(lines: list[bytes], check: int, chained: bool) -> tuple[int, int]:
    """What the check of a read's lines must find, worked out line after line."""
    for i, line in enumerate(lines):
        payload = line[9:]
        expected = zlib.crc32(payload, check) if chained else zlib.crc32(payload)
        if len(line) < 10 or line[8:9] != b" " or line[:8] != b"%08x" % expected:
            return i, check
        check = expected
    return -1, check


def _chained_lines(count: int, start: int) -> list[bytes]:
    chain = Chain(start)
    return [chain.frame_payload(b'{"t":"note","text":"line %d"}' % i)[:-1] for i in range(count)]


def _unchained_lines(count: int) -> list[bytes]:
    payloads = [b'{"t":"note","text":"line %d"}' % i for i in range(count)]
    return [b"%08x %b" % (zlib.crc32(p), p) for p in payloads]


def _damages(line: bytes) -> list[bytes]:
    """A line damaged each way a check or a frame can be: what the load must never take."""
    return [
        line[:3] + b"%c" % (line[3] ^ 1) + line[4:],  # a digit of the check
        line[:2] + line[2:3].upper() + line[3:] if line[2:3].isalpha() else b"A" + line[1:],  # a capital
        b"+" + line[1:],  # a sign in place of a digit
        b" " + line[1:],  # a space in place of a digit
        line[:8] + b"_" + line[9:],  # no space after the check
        line[:20] + b"%c" % (line[20] ^ 4) + line[21:],  # the payload
        line[:9],  # no payload
        line[:5],  # cut inside the check
        b"",  # an empty line
        line + b" ",  # a byte more
    ]


@pytest.mark.parametrize("chained", [True, False])
def test_the_checks_of_a_read_are_found_bad_where_a_walk_from_its_first_line_finds_them(chained):
    start = 0x1234ABCD
    lines = _chained_lines(12, start) if chained else _unchained_lines(12)
    assert check_lines(lines, [line[9:] for line in lines], start, chained) == _walk(lines, start, chained)
    assert check_lines([], [], start, chained) == (-1, start)
    tried = 0
    for at in range(len(lines)):
        for damaged in _damages(lines[at]):
            for later in (None, len(lines) - 1):  # and a second bad line after it
                bad = [*lines[:at], damaged, *lines[at + 1 :]]
                if later is not None and later > at:
                    bad[later] = bad[later][:9] + b"x" + bad[later][10:]
                found = check_lines(bad, [line[9:] for line in bad], start, chained)
                assert found == _walk(bad, start, chained), (at, damaged, later)
                assert found[0] == at
                tried += 1
    assert tried > 200
    # A line badly framed after one with a wrong check: the first is named.
    for at in range(len(lines) - 1):
        bad = [*lines[:at], _bad_check(lines[at]), *lines[at + 1 : -1], b"+" + lines[-1][1:]]
        assert check_lines(bad, [line[9:] for line in bad], start, chained) == _walk(bad, start, chained)
        assert check_lines(bad, [line[9:] for line in bad], start, chained)[0] == at


def test_a_wrong_check_on_a_line_whose_record_is_whole_is_found_there():
    """Each line's own check is compared, not only the chain's end: a check edited on a
    middle line (its record intact, the lines after it chained right) is found there."""
    lines = _chained_lines(6, 7)
    lines[2] = _bad_check(lines[2])
    assert check_lines(lines, [line[9:] for line in lines], 7, True)[0] == 2
    assert check_lines(lines, [line[9:] for line in lines], 7, True)[1] == int(lines[1][:8], 16)


def test_a_line_moved_is_found_where_the_chain_breaks():
    lines = _chained_lines(6, 7)
    swapped = [lines[0], lines[2], lines[1], *lines[3:]]
    assert check_lines(swapped, [line[9:] for line in swapped], 7, True) == (1, int(lines[0][:8], 16))
    # Unchained (format 1), each line stands alone: the swap is not seen.
    alone = _unchained_lines(6)
    swapped = [alone[0], alone[2], alone[1], *alone[3:]]
    assert check_lines(swapped, [line[9:] for line in swapped], 7, False) == (-1, int(alone[-1][:8], 16))


# ----------------------------------------------------------------------- the reads


def _reads(path: Path, chunk: int, monkeypatch, size: int | None = None) -> tuple[list[bytes], _Reads]:
    monkeypatch.setattr(savefile, "_CHUNK", chunk)
    with open(path, "rb") as f:
        reads = _Reads(path, f, path.stat().st_size if size is None else size, 0, 0, None)
        lines = [line for batch in reads for line in batch]
    return lines, reads


@pytest.mark.parametrize("chunk", [1, 2, 9, 10, 64, 1000, 1 << 20])
def test_the_reads_yield_every_whole_line_wherever_they_fall(save, chunk, monkeypatch):
    data = save.read_bytes() + b"0123abcd {half a li"
    save.write_bytes(data)
    lines, reads = _reads(save, chunk, monkeypatch)
    assert lines == data.split(b"\n")[:-1]
    assert reads.rest == b"0123abcd {half a li"
    assert reads.end == len(data)


def test_the_reads_stop_at_the_size_the_file_had_when_opened(save, monkeypatch):
    data = save.read_bytes()
    lines, reads = _reads(save, 100, monkeypatch, size=len(data) - 5)
    assert lines == data[:-5].split(b"\n")[:-1]
    assert reads.rest == data[data.rfind(b"\n", 0, len(data) - 5) + 1 : len(data) - 5]
    assert reads.end == len(data) - 5


def test_whether_anything_follows_is_read_on_past_a_read_boundary(save, monkeypatch):
    data = save.read_bytes()
    first = data.index(b"\n") + 1
    monkeypatch.setattr(savefile, "_CHUNK", first)  # the first read ends with the header's newline
    with open(save, "rb") as f:
        reads = _Reads(save, f, len(data), 0, 0, None)
        batches = iter(reads)
        assert next(batches) == [data[: first - 1]] and reads.rest == b""
        assert reads.follows()
        assert reads.rest == data[first : 2 * first] and reads.end == 2 * first
    with open(save, "rb") as f:
        reads = _Reads(save, f, first, 0, 0, None)  # the file ends there
        assert list(reads) == [[data[: first - 1]]]
        assert not reads.follows() and reads.end == first


def test_a_line_longer_than_a_save_holds_ends_the_reads_after_the_lines_before_it(save, monkeypatch):
    monkeypatch.setattr(savefile, "MAX_LINE_BYTES", 300)
    monkeypatch.setattr(savefile, "_CHUNK", 64)
    data = save.read_bytes()
    count = data.count(b"\n")
    save.write_bytes(data + b"7" * 400)
    got: list[bytes] = []
    with open(save, "rb") as f, pytest.raises(SaveError, match=rf"game.ft:{count + 1}: line longer than 300 bytes"):
        for batch in _Reads(save, f, len(data) + 400, 0, 0, None):
            got.extend(batch)
    assert got == data.split(b"\n")[:-1]


def test_the_hasher_is_given_every_byte_read(save):
    class Hasher:
        def __init__(self) -> None:
            self.data = b""

        def update(self, data: bytes) -> None:
            self.data += data

    hasher = Hasher()
    load(save, hasher=hasher)
    assert hasher.data == save.read_bytes()


# --------------------------------------------------------------------- the tail's verdict


def test_the_tail_verdict():
    path = Path("v.ft")
    whole = Chain(1).frame_payload(b'{"t":"note","text":"x"}')[:-1]
    garbled = b'12345678 {"t":"no'
    # Nothing bad, nothing after the last newline: nothing torn.
    assert _decide_tail(path, _Stop(0, 5, 100), b"", True) == 0
    # No newline at the end: the last write was torn (the line after the last good one).
    assert _decide_tail(path, _Stop(0, 5, 100), b"abc", True) == 6
    # A last line that is not a whole record, nothing after it: torn.
    assert _decide_tail(path, _Stop(0, 5, 100, garbled), b"", True) == 6
    # The same line with anything after it, a whole record, a line too long: damage.
    for stop, what in (
        (_Stop(0, 5, 100, garbled, follows=True), "check mismatch"),
        (_Stop(0, 5, 100, _bad_check(whole)), "check mismatch"),
        (_Stop(0, 5, 100, _bad_check(whole), follows=True), "check mismatch"),
        (_Stop(0, 5, 100, garbled, too_long=True), "line longer than"),
    ):
        with pytest.raises(SaveError, match=rf"v.ft:6: .*{what}"):
            _decide_tail(path, stop, b"", True)
    with pytest.raises(SaveError, match=r"v.ft:6: damaged record \(checksum mismatch\)"):
        _decide_tail(path, _Stop(0, 5, 100, _bad_check(whole)), b"", False)


def test_a_corrupted_whole_record_before_a_torn_tail_is_refused_never_set_aside(save):
    """A record moved to the end, then a write a crash cut short: the record is damage
    (only the last write can be torn), so nothing is set aside as if it were the tear."""
    lines = file_lines(save)
    for tail in (lines[-1][: len(lines[-1]) // 2], b"\x00" * 30, b"0"):
        save.write_bytes(b"".join([*lines, _bad_check(lines[3]), tail]))
        _refused(save, len(lines) + 1)
    # A garbled line (not a whole record) before a torn tail is damage too: two lines cannot be torn.
    save.write_bytes(b"".join([*lines, lines[3][:30] + b"\n", lines[-1][:20]]))
    _refused(save, len(lines) + 1)


def test_a_whole_record_failing_its_check_at_the_end_is_refused(save):
    lines = file_lines(save)
    save.write_bytes(b"".join([*lines[:-1], _bad_check(lines[-1])]))
    _refused(save, len(lines))


def test_a_garbled_last_line_is_a_torn_write(save):
    lines = file_lines(save)
    data = b"".join(lines)
    save.write_bytes(data + lines[-1][:25] + b"\n")
    loaded = load(save)
    assert loaded.good_bytes == len(data) and loaded.torn_bytes == 26 and loaded.torn_line == len(lines) + 1
    assert loaded.notes == [f"line {len(lines) + 1}: incomplete last record cut off (torn write)"]


# ---------------------------------------------------------- wherever the reads fall


def _outcome(path: Path) -> tuple:
    """What a load makes of ``path``: its refusal, or what it took and what it cut."""
    try:
        loaded = load(path)
    except SaveError as e:
        return ("refused", str(e))
    store = loaded.history.store
    return (
        "loaded",
        builtins(store.slice(0, len(store))),
        loaded.good_bytes,
        loaded.torn_bytes,
        loaded.torn_line,
        loaded.check,
        loaded.notes,
    )


def _damaged_saves(lines: list[bytes]) -> dict[str, tuple[bytes, int]]:
    """Saves damaged near their end, and where the damage starts (a byte offset)."""
    head = b"".join(lines[:-2])
    a, b = lines[-2], lines[-1]
    flipped = a[:15] + b"%c" % (a[15] ^ 2) + a[16:]
    return {
        "a record damaged, a line after it": (head + flipped + b, len(head)),
        "a record edited, last": (head + a + b.replace(b'"t":', b'"T":', 1), len(head) + len(a)),
        "a record damaged, last": (head + a + b[:12] + b"%c" % (b[12] ^ 2) + b[13:], len(head) + len(a)),
        "a whole record failing its check, last": (head + a + _bad_check(b), len(head) + len(a)),
        "a garbled last line": (head + a + b[:20] + b"\n", len(head) + len(a)),
        "a torn last line": (head + a + b[:20], len(head) + len(a)),
        "a moved record, then a torn tail": (head + _bad_check(a) + b[:20], len(head)),
        "a garbled line, then a whole one": (head + a[:20] + b"\n" + b, len(head)),
        "whole": (head + a + b, len(head) + len(a)),
    }


def test_the_verdicts_are_the_same_wherever_the_reads_fall(save, monkeypatch, collector_off):
    """Each damaged save loads, or is refused, exactly as in one read, with a read
    ending at every byte around its damage: just before, on and after the bad line's
    first byte, inside it, just before, on and after its newline."""
    lines = file_lines(save)
    checked = 0
    for name, (data, at) in _damaged_saves(lines).items():
        save.write_bytes(data)
        monkeypatch.setattr(savefile, "_CHUNK", 8 << 20)
        expected = _outcome(save)
        end = data.find(b"\n", at) + 1 or len(data)
        for boundary in sorted({at - 1, at, at + 1, (at + end) // 2, end - 1, end, end + 1, 1, 7, 64}):
            monkeypatch.setattr(savefile, "_CHUNK", boundary)
            assert _outcome(save) == expected, (name, boundary)
            checked += 1
    assert checked > 60
    # The verdicts themselves, as the rulings say (CORE-TORN).
    monkeypatch.setattr(savefile, "_CHUNK", 8 << 20)
    verdicts = {}
    for name, (data, _at) in _damaged_saves(lines).items():
        save.write_bytes(data)
        verdicts[name] = _outcome(save)[0]
    assert verdicts == {
        "a record damaged, a line after it": "refused",
        "a record edited, last": "refused",  # still a whole record: its check is wrong
        "a record damaged, last": "loaded",  # no longer a whole record: a tear
        "a whole record failing its check, last": "refused",
        "a garbled last line": "loaded",
        "a torn last line": "loaded",
        "a moved record, then a torn tail": "refused",
        "a garbled line, then a whole one": "refused",
        "whole": "loaded",
    }


@pytest.mark.parametrize("version", [1, 2, None])
def test_damage_in_the_last_line_of_a_read_with_lines_after_it_is_refused(save, monkeypatch, version, collector_off):
    """A bad line that ends exactly where a read ends is not the file's last line: the
    next read holds more, so it is damage, not a tear.  In format 1 no chain ties the
    next line to it, so only the verdict can tell."""
    if version is not None:
        _as_format(save, version)
    lines = file_lines(save)
    at = 4
    bad = [*lines[:at], lines[at][:12] + b"\n", *lines[at + 1 :]]  # garbled, and not whole
    save.write_bytes(b"".join(bad))
    boundary = sum(map(len, bad[: at + 1]))
    for chunk in (boundary, boundary - 1, boundary + 1, 8 << 20):
        monkeypatch.setattr(savefile, "_CHUNK", chunk)
        with pytest.raises(SaveError, match=rf"game.ft:{at + 1}: "):
            load(save)


def test_a_load_tells_its_progress_up_to_the_whole_file(save, monkeypatch, collector_off):
    import core.storage.store

    monkeypatch.setattr(savefile, "_CHUNK", 200)
    monkeypatch.setattr(savefile, "CHUNK", 4)
    monkeypatch.setattr(core.storage.store, "CHUNK", 4)
    size = save.stat().st_size
    told: list[tuple[int, int]] = []
    load(save, progress=lambda done, total: told.append((done, total)))
    assert len(told) > 5
    assert [d for d, _ in told] == sorted(d for d, _ in told)
    assert told[-1] == (size, size) and {t for _, t in told} == {size}


@pytest.mark.long
def test_the_cycle_collector_is_paused_while_a_big_save_loads_and_left_as_it_was(save, monkeypatch):
    """A save bigger than a read loads with the collector paused, after a collection of
    what was left before (a dropped game's cycles are not held through the load)."""
    import weakref

    class Cycle:
        pass

    def left_behind() -> weakref.ref:
        cycle = Cycle()
        cycle.me = cycle
        return weakref.ref(cycle)

    seen: list[tuple[bool, bool]] = []
    assert gc.isenabled()
    monkeypatch.setattr(savefile, "_CHUNK", save.stat().st_size - 1)
    garbage = left_behind()
    load(save, after_batch=lambda: seen.append((gc.isenabled(), garbage() is None)))
    assert seen and all(s == (False, True) for s in seen)
    assert gc.isenabled()
    gc.disable()
    try:
        load(save)
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(SaveError):
        load(save.with_name("missing.ft"))
    save.with_name("bad.ft").write_bytes(save.read_bytes().replace(b'"t":"cmd"', b'"t":"cm_"', 1))
    with pytest.raises(SaveError):
        load(save.with_name("bad.ft"))
    assert gc.isenabled()
    # A small save loads as any code runs: with the collector as it is.
    monkeypatch.setattr(savefile, "_CHUNK", save.stat().st_size)
    seen.clear()
    load(save, after_batch=lambda: seen.append((gc.isenabled(), True)))
    assert seen and all(s == (True, True) for s in seen)


# ---------------------------------------------------------------- format 2, appended to


def _as_format(path: Path, version: int) -> None:
    """Rewrite a save as format ``version`` wrote it: the same records, chained (from 2
    on) from a header naming that format."""
    lines = file_lines(path)
    header = json.loads(lines[0][9:])
    header["fireteam"] = version
    payload = json.dumps(header, separators=(",", ":")).encode()
    chain = Chain(zlib.crc32(payload), version)
    path.write_bytes(
        b"%08x %b\n" % (zlib.crc32(payload), payload) + b"".join(chain.frame_payload(line[9:-1]) for line in lines[1:])
    )


def test_a_format_2_save_is_appended_to_chained_and_loads_again(save):
    assert CHAINED_FROM == 2
    with skirmish_registered():
        state = builtins(Game.open(save, writable=False).state)
        _as_format(save, 2)
        before = save.read_bytes()
        game = Game.open(save)
        assert game.header.fireteam == 2 and builtins(game.state) == state
        game.execute("note after the upgrade", role=REFEREE)
        game.execute("mark gunner pinned", role=REFEREE)
        game.close()
        data = save.read_bytes()
        assert data.startswith(before) and len(data) > len(before)
        # Still format 2: every line chained to the one before, the new ones too.
        lines = data.split(b"\n")[:-1]
        check = int(lines[0][:8], 16)
        for line in lines[1:]:
            check = zlib.crc32(line[9:], check)
            assert line[:8] == b"%08x" % check
        again = load(save)
        assert again.version == 2 and again.upgraded_from == 2 and again.torn_bytes == 0
        assert again.good_bytes == len(data) and again.check == check
        assert ev.Noted(text="after the upgrade") in again.history.timeline()
        reopened = Game.open(save, writable=False)
        assert reopened.state.units["gunner"].has("pinned")
        # A swap is still found, as format 2 promises.
        save.write_bytes(
            b"".join([lines[0] + b"\n", lines[2] + b"\n", lines[1] + b"\n", *(x + b"\n" for x in lines[3:])])
        )
        _refused(save, 2)


# ------------------------------------------------------------------- what a load says

_HINT = "Run `fireteam salvage {path}` to copy every whole command before the damage into a new save."
_START = "start a new game in it (`fireteam script FILE --save {path}`, or New game in the client)"
_HEADER = b'{"fireteam":%d,"ruleset":"x","ruleset_version":"1","engine":"0","created":"x","seed":1}'
_CMD = b'{"t":"cmd","cmd":1,"n":1,"by":"referee","text":"note hi"}'
_NOTE = b'{"t":"note","text":"hi"}'


def _file(header: bytes, *payloads: bytes, version: int = 3) -> bytes:
    chain = Chain(zlib.crc32(header), version)
    return b"%08x %b\n" % (zlib.crc32(header), header) + b"".join(chain.frame_payload(p) for p in payloads)


MESSAGES: dict[str, tuple[bytes, str, str]] = {
    # name: (the file, what the load says, the damage alone, for salvage)
    "empty": (b"", "{path}: empty file: no game was ever recorded in it; " + _START, ""),
    "torn header": (
        b'1234abcd {"firet',
        "{path}: holds no game yet: a crash cut its first line short (16 bytes); " + _START,
        "",
    ),
    "not a save": (b"hello\n", "{path}:1: not a Fireteam save (no valid header line); is this the right file?", ""),
    "not a save, one line": (
        b"hello",
        "{path}:1: not a Fireteam save (no valid header line); is this the right file?",
        "",
    ),
    "newer": (
        _file(_HEADER % 9),
        "{path}: written by a newer Fireteam (save format 9; this version reads up to 3). Upgrade Fireteam to open it.",
        "",
    ),
    "negative format": (
        _file(_HEADER % -1),
        "{path}:1: invalid header: format version -1; is this the right file?",
        "",
    ),
    "chain broken": (
        _file(_HEADER % 3, _CMD, _NOTE)[:-5] + b'X"}\n',
        "{path}:3: damaged record, or a line missing, repeated or out of order before it (check mismatch); "
        "the file was not changed. " + _HINT,
        "damaged record, or a line missing, repeated or out of order before it (check mismatch)",
    ),
    "unchained check": (
        _file(_HEADER % 1, _CMD, _NOTE, version=1).replace(b'"hi"}\n', b'"ho"}\n'),
        "{path}:3: damaged record (checksum mismatch); the file was not changed. " + _HINT,
        "damaged record (checksum mismatch)",
    ),
    "invalid event": (
        _file(_HEADER % 3, _CMD, b'{"t":"note"}'),
        "{path}:3: invalid event: Object missing required field `text`; the file was not changed. " + _HINT,
        "invalid event: Object missing required field `text`",
    ),
    "two records on a line": (
        _file(_HEADER % 3, _CMD, _NOTE + b"," + _NOTE),
        "{path}:3: invalid event: JSON is malformed: trailing characters (byte 25); the file was not changed. " + _HINT,
        "invalid event: JSON is malformed: trailing characters (byte 25)",
    ),
    "fact outside a command": (
        _file(_HEADER % 3, _NOTE),
        "{path}:2: a fact outside any command; the file was not changed. " + _HINT,
        "a fact outside any command",
    ),
}


@pytest.mark.parametrize("name", list(MESSAGES))
def test_what_a_load_says_names_the_file_the_line_and_what_to_do(tmp_path, name):
    data, said, what = MESSAGES[name]
    path = tmp_path / "x.ft"
    path.write_bytes(data)
    with pytest.raises(SaveError) as refused:
        load(path)
    assert str(refused.value) == said.format(path=path)
    assert refused.value.what == what


def test_a_file_of_one_line_too_long_is_refused_at_line_1(tmp_path, monkeypatch, collector_off):
    monkeypatch.setattr(savefile, "MAX_LINE_BYTES", 300)
    monkeypatch.setattr(savefile, "_CHUNK", 100)
    path = tmp_path / "x.ft"
    path.write_bytes(b"7" * 400)
    with pytest.raises(SaveError) as refused:
        load(path)
    assert str(refused.value).startswith(f"{path}:1: line longer than 300 bytes; the file was not changed.")


def test_a_last_line_torn_at_exactly_the_longest_length_is_a_tear(tmp_path, monkeypatch, collector_off):
    path = tmp_path / "x.ft"
    data = _file(_HEADER % 3, _CMD, _NOTE)
    longest = max(map(len, data.split(b"\n")))
    path.write_bytes(data + b"0" * longest)
    monkeypatch.setattr(savefile, "MAX_LINE_BYTES", longest)
    monkeypatch.setattr(savefile, "_CHUNK", 64)
    loaded = load(path)
    assert loaded.torn_bytes == longest and loaded.good_bytes == len(data)
    assert loaded.notes == ["line 4: incomplete last record cut off (torn write)"]
    assert loaded.upgraded_from == 0 and loaded.version == 3


def test_what_a_load_says_of_a_missing_file_and_an_unreadable_one(tmp_path):
    with pytest.raises(SaveError) as refused:
        load(tmp_path / "gone.ft")
    assert str(refused.value) == f"{tmp_path / 'gone.ft'}: no such save file; check the name"
    with pytest.raises(SaveError) as refused:
        load(tmp_path)
    assert str(refused.value) == (f"{tmp_path}: cannot read: Is a directory; check the name and the file's permissions")


def test_a_file_bigger_than_a_save_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = tmp_path / "big.ft"
    path.write_bytes(_file(_HEADER % 3, _CMD, _NOTE))
    size = path.stat().st_size
    monkeypatch.setattr(savefile, "MAX_FILE_BYTES", size)
    load(path)
    monkeypatch.setattr(savefile, "MAX_FILE_BYTES", size - 1)
    with pytest.raises(SaveError) as refused:
        load(path)
    assert str(refused.value) == (
        f"{path}: {size} bytes is larger than a save can be ({size - 1} bytes); is this the right file?"
    )


def test_a_header_longer_than_a_line_may_be_is_refused_as_too_long(tmp_path, monkeypatch):
    path = tmp_path / "x.ft"
    path.write_bytes(_file(_HEADER % 3, _CMD, _NOTE))
    monkeypatch.setattr(savefile, "MAX_LINE_BYTES", len(_HEADER % 3) + 9)
    load(path)
    monkeypatch.setattr(savefile, "MAX_LINE_BYTES", len(_HEADER % 3) + 8)
    with pytest.raises(SaveError, match=r"x.ft:1: line longer than"):
        load(path)


def test_a_history_error_without_a_line_names_the_file():
    from core.log.history import HistoryError

    error = savefile._history_error(Path("h.ft"), HistoryError("a command with facts missing at the end"))
    assert str(error) == "h.ft: a command with facts missing at the end; the file was not changed. " + _HINT.format(
        path="h.ft"
    )
    error = savefile._history_error(Path("h.ft"), HistoryError("event 4: command 2 is missing events"))
    assert str(error).startswith("h.ft:5: command 2 is missing events; the file was not changed.")
    assert error.what == "command 2 is missing events"


# -------------------------------------------------------------------- small judgements


def test_what_is_a_whole_record():
    assert savefile._whole_record(b'12345678 {"t":"note","text":"x"}')
    assert savefile._whole_record(b'zzzzzzzz {"a":1}')  # the check is not looked at
    assert not savefile._whole_record(b'12345678_{"t":"note","text":"x"}')  # no space after the check
    assert not savefile._whole_record(b'1234567 {"t":"note","text":"x"}')  # a digit short
    assert not savefile._whole_record(b'12345678 {"t":"note","te')
    assert not savefile._whole_record(b"12345678 [1,2]")
    assert not savefile._whole_record(b'12345678 {"t":"caf\xe9"}')


def test_what_is_the_start_of_a_header():
    for start in (b"1234", b"1234abcd", b"1234abcd ", b'1234abcd {"fire', b'1234abcd {"fireteam":3,"rule'):
        assert savefile._torn_header(start), start
    for other in (b"zzzz", b"XXXXXXXX {", b"1234ABCD {", b"1234abcdx{", b'1234abcd {"t":', b'1234abcd  {"f'):
        assert not savefile._torn_header(other), other


def test_a_frame_is_eight_lowercase_hex_digits_a_space_and_a_payload():
    assert linecheck.frame_ok(b"0123abcd 1")
    for bad in (b"0123abcd ", b"0123ABCD 1", b"0123abc  1", b"0123abcd_1", b"+123abcd 1", b""):
        assert not linecheck.frame_ok(bad), bad
    # A payload of one byte is framed; a malformed line after it is the first bad one.
    one = b"%08x 1" % zlib.crc32(b"1", 5)
    assert check_lines([one, b"junk"], [b"1", b""], 5, True) == (1, zlib.crc32(b"1", 5))


def test_a_torn_command_resumed_from_the_bytes_read_is_cut_without_reading_the_file_again(save):
    """With ``resume`` (the open cache), the load never reads the file again, even to cut
    a torn command: the bytes it was given are the save."""
    lines = file_lines(save)
    whole = load(save)
    cmd = b'{"t":"cmd","cmd":%d,"n":2,"by":"referee","text":"x"}' % whole.history.next_cmd
    marker = Chain(whole.check).frame_payload(cmd)  # a command whose facts never came
    data = save.read_bytes() + marker
    save.unlink()
    resume = savefile.Resume(data, whole.good_bytes, whole.header, whole.check, len(lines))
    loaded = load(save, history=whole.history, resume=resume)
    assert loaded.good_bytes == whole.good_bytes and loaded.check == whole.check
    assert loaded.torn_bytes == len(marker) and loaded.torn_line == len(lines) + 1
    assert len(loaded.history.store) == len(lines) - 1 and loaded.history.pending() is None


def test_a_resumed_load_hashes_and_names_what_it_reads_past_the_resume(save):
    class Hasher:
        def __init__(self) -> None:
            self.data = b""

        def update(self, data: bytes) -> None:
            self.data += data

    lines, sizes, checks = _followed(save)
    whole = load(save)
    half = sizes[1]  # a command's end
    count = next(k for k in range(len(lines)) if sum(map(len, lines[:k])) == half)
    data = save.read_bytes()
    resume = savefile.Resume(data, half, whole.header, checks[1], count)
    hasher = Hasher()
    loaded = load(save, history=load_prefix(save, half), resume=resume, hasher=hasher)
    assert hasher.data == data[half:] and loaded.good_bytes == len(data)
    damaged = savefile.Resume(data + _bad_check(lines[-1]), half, whole.header, checks[1], count)
    with pytest.raises(SaveError) as refused:
        load(save, history=load_prefix(save, half), resume=damaged)
    assert str(refused.value).startswith(f"{save}:{len(lines) + 1}: damaged record")


def load_prefix(save: Path, size: int):
    """The history of the save's first ``size`` bytes (whole lines)."""
    prefix = save.with_name("prefix.ft")
    prefix.write_bytes(save.read_bytes()[:size])
    return load(prefix).history


# ------------------------------------------------------------- a follower's commands


def _followed(save: Path) -> tuple[list[bytes], list[int], list[int]]:
    """The save's lines, and the size and the check after each whole command."""
    lines = file_lines(save)
    events = [json.loads(line[9:]) for line in lines[1:]]
    sizes, checks = [], []
    i, size = 0, len(lines[0])
    while i < len(events):
        e = events[i]
        step = 1 + e["n"] if e["t"] == "cmd" else 1
        size += sum(map(len, lines[1 + i : 1 + i + step]))
        i += step
        sizes.append(size)
        checks.append(int(lines[i][:8], 16))
    return lines, sizes, checks


def test_a_follower_reads_whole_commands_from_where_it_stands(save):
    lines, sizes, checks = _followed(save)
    everything = load(save).history.store
    start, check = sizes[1], checks[1]
    base = next(k for k in range(len(lines)) if sum(map(len, lines[: k + 1])) == start)
    events, payloads, got_check, end = savefile.read_commands(save, start, None, base, check)
    assert events == everything.slice(base, len(everything))
    assert payloads == [line[9:-1] for line in lines[base + 1 :]]
    assert (got_check, end) == (checks[-1], sizes[-1])
    # With the end named, the same; a span ending at a command's end, only it.
    assert savefile.read_commands(save, start, sizes[-1], base, check) == (events, payloads, checks[-1], sizes[-1])
    part = savefile.read_commands(save, start, sizes[2], base, check)
    assert part[2:] == (checks[2], sizes[2]) and part[0] == everything.slice(base, base + len(part[0]))
    # Nothing new: nothing, where it stood.
    assert savefile.read_commands(save, sizes[-1], None, len(everything), checks[-1]) == ([], [], checks[-1], sizes[-1])
    assert savefile.read_commands(save, sizes[-1] + 50, None, len(everything), 9) == ([], [], 9, sizes[-1] + 50)


def test_a_follower_leaves_a_command_still_being_written_for_later(save):
    lines, sizes, checks = _followed(save)
    data = save.read_bytes()
    base = len(lines) - 1
    chain = Chain(checks[-1])
    marker = chain.frame_payload(b'{"t":"cmd","cmd":99,"n":2,"by":"referee","text":"x"}')
    fact = chain.frame_payload(_NOTE)
    for tail in (marker, marker + fact, marker[:20]):  # a command whose facts are not all there
        save.write_bytes(data + tail)
        assert savefile.read_commands(save, sizes[-1], None, base, checks[-1]) == ([], [], checks[-1], sizes[-1])
    # An undo marker is whole on its own; a command of no facts too.
    undo = Chain(checks[-1]).frame_payload(b'{"t":"undo","cmd":1,"by":"referee"}')
    save.write_bytes(data + undo + marker[:20])
    events, _payloads, check, end = savefile.read_commands(save, sizes[-1], None, base, checks[-1])
    assert events == [ev.Undone(cmd=1, by="referee")] and end == sizes[-1] + len(undo)
    assert check == int(undo[:8], 16)
    empty = Chain(checks[-1]).frame_payload(b'{"t":"cmd","cmd":9,"n":0,"by":"referee","text":"x"}')
    save.write_bytes(data + empty + marker[:30])
    events, _payloads, _check, end = savefile.read_commands(save, sizes[-1], None, base, checks[-1])
    assert [type(e) for e in events] == [ev.Issued] and end == sizes[-1] + len(empty)


def test_a_follower_refuses_damage_and_a_span_that_is_not_whole_records(save):
    lines, sizes, checks = _followed(save)
    data = save.read_bytes()
    base = len(lines) - 1
    note = Chain(checks[-1]).frame_payload(b'{"t":"cmd","cmd":99,"n":0,"by":"referee","text":"x"}')
    save.write_bytes(data + note[:12] + b"Z" + note[13:])
    for end in (None, len(data) + len(note)):
        with pytest.raises(SaveError) as refused:
            savefile.read_commands(save, len(data), end, base, checks[-1])
        assert str(refused.value).startswith(f"{save}:{base + 2}: damaged record, or a line missing")
    save.write_bytes(data + note)
    for end in (len(data) + 5, len(data) + len(note) + 1):
        with pytest.raises(SaveError) as refused:
            savefile.read_commands(save, len(data), end, base, checks[-1])
        assert str(refused.value) == (
            f"{save}: bytes {len(data)}-{end} are not whole records (the file is shorter or was cut)"
        )
    with pytest.raises(SaveError) as refused:
        savefile.read_commands(save.with_name("gone.ft"), 0, None, 0, 0)
    assert str(refused.value) == f"{save.with_name('gone.ft')}: cannot read: No such file or directory"
    # Format 2 and on are chained: two lines swapped are refused where the chain breaks.
    chain = Chain(checks[-1])
    one, two = chain.frame_payload(_CMD), chain.frame_payload(_NOTE)
    save.write_bytes(data + two + one)
    for version in (2, 3):
        with pytest.raises(SaveError, match=rf"game.ft:{base + 2}: damaged record, or"):
            savefile.read_commands(save, len(data), None, base, checks[-1], version)


def test_a_follower_refuses_a_number_out_of_range_and_takes_sixteen_digits_in_a_text(save):
    lines, sizes, checks = _followed(save)
    data = save.read_bytes()
    base = len(lines) - 1
    chain = Chain(checks[-1])
    digits = chain.frame_payload(b'{"t":"cmd","cmd":99,"n":0,"by":"referee","text":"1234567890123456"}')
    save.write_bytes(data + digits)
    events, _payloads, _check, _end = savefile.read_commands(save, len(data), None, base, checks[-1])
    assert [e.text for e in events] == ["1234567890123456"]
    big = b'{"t":"cmd","cmd":100,"n":0,"by":"referee","text":"x","at":%d}' % (MAX_RECORD_INT + 1)
    warp = b'{"t":"warp"}'  # named by today's records' decoder, not as the upcasters' path names it
    for bad, said in ((big, f"Expected `int` <= {MAX_RECORD_INT} - at `$.at`"), (warp, "Invalid value 'warp'")):
        tail = Chain(chain.check).frame_payload(bad)
        save.write_bytes(data + digits + tail)
        for end in (None, len(data) + len(digits) + len(tail)):
            with pytest.raises(SaveError) as refused:
                savefile.read_commands(save, len(data), end, base, checks[-1])
            assert str(refused.value).startswith(f"{save}:{base + 3}: invalid event: {said}")


def test_a_follower_of_an_older_format_reads_its_records_upgraded(save, monkeypatch):
    with skirmish_registered():
        _as_format(save, 1)
    lines, sizes, checks = _followed(save)
    base = next(k for k in range(len(lines)) if sum(map(len, lines[: k + 1])) == sizes[0])
    monkeypatch.setitem(savefile.UPCASTERS, 1, {"note": lambda r: {**r, "text": r["text"].upper()}})
    events, payloads, _check, end = savefile.read_commands(save, sizes[0], None, base, checks[0], 1)
    notes = [e for e in events if isinstance(e, ev.Noted)]
    assert notes and all(e.text == e.text.upper() for e in notes) and end == sizes[-1]
    assert payloads == [savefile.encoder.encode(e) for e in events]  # today's records, not the file's
    assert any(p != line[9:-1] for p, line in zip(payloads, lines[base + 1 :], strict=True))


# ------------------------------------------------------------- framing and records


def test_a_chain_frames_each_record_with_the_check_continued_from_the_last():
    chain = Chain(0xDEADBEEF)
    first = chain.frame_payload(b'{"a":1}')
    assert first == b"%08x %b\n" % (zlib.crc32(b'{"a":1}', 0xDEADBEEF), b'{"a":1}')
    assert chain.check == zlib.crc32(b'{"a":1}', 0xDEADBEEF)
    second = chain.frame(ev.Noted(text="x"))
    payload = savefile.encoder.encode(ev.Noted(text="x"))
    assert second == b"%08x %b\n" % (zlib.crc32(payload, int(first[:8], 16)), payload)
    # Format 1: each check covers its own line.
    alone = Chain(0xDEADBEEF, 1)
    assert not alone.chained and Chain(5, 2).chained and Chain(5).chained
    assert alone.frame_payload(b'{"a":1}') == b"%08x %b\n" % (zlib.crc32(b'{"a":1}'), b'{"a":1}')
    assert alone.check == zlib.crc32(b'{"a":1}')
    header = decoding.Header(3, "x", "1", "0", "now", 1)
    framed = savefile.frame_header(header)
    assert framed == b"%08x %b\n" % (zlib.crc32(savefile.encoder.encode(header)), savefile.encoder.encode(header))
    assert savefile._line_ok(framed[:-1])


def test_a_line_holds_the_check_of_its_own_payload():
    line = b"%08x %b" % (zlib.crc32(b"{}"), b"{}")
    assert savefile._line_ok(line)
    assert not savefile._line_ok(line.upper())
    assert not savefile._line_ok(line[:8] + b"_" + line[9:])
    assert not savefile._line_ok(b"%08x " % zlib.crc32(b""))  # no payload
    assert savefile._line_ok(b"%08x 1" % zlib.crc32(b"1"))  # a payload of one byte
    assert not savefile._line_ok(b"%08x {]" % zlib.crc32(b"{}"))


#: Records holding the number ``N`` where each kind of integer of an event lies: a field, an
#: optional one, a tuple's item, a dict's value, an int-or-text, a message's argument, nested parts.
NUMBERED_RECORDS = [
    b'{"t":"cmd","cmd":1,"n":0,"by":"referee","text":"x","at":N}',
    b'{"t":"undo","cmd":N,"by":"referee"}',
    b'{"t":"phase","turn":N,"phase":"end"}',
    b'{"t":"roll","roll":{"purpose":"x","faces":[1,N]}}',
    b'{"t":"roll","roll":{"purpose":"x","faces":[1],"target":N}}',
    b'{"t":"roll","roll":{"purpose":"x","faces":[1],"mods":[{"label":"m","value":N}]}}',
    b'{"t":"roll","roll":{"purpose":"x","faces":[1],"check":{"k":"least","face":4,"base":N}}}',
    b'{"t":"unit","unit":{"id":"a","name":"A","side":"s","stats":{"armour":N}}}',
    b'{"t":"move","unit":"a","cm":N}',
    b'{"t":"var","key":"k","value":N}',
    b'{"t":"note","text":["{n} shots",{"n":N}]}',
    b'{"t":"dp","side":"s","points":N,"reason":"r"}',
]


@pytest.mark.parametrize("record", NUMBERED_RECORDS)
def test_a_number_beyond_what_a_game_counts_is_refused_wherever_it_is_in_a_record(record):
    top = MAX_RECORD_INT
    for number in (top, -top):
        decoding.decode_event(record.replace(b"N", b"%d" % number))  # the bound itself is read
    for number in (top + 1, -top - 1, 2**64):
        with pytest.raises(msgspec.ValidationError, match=r"Expected `int` [<>]= -?9007199254740991 - at `\$\."):
            decoding.decode_event(record.replace(b"N", b"%d" % number))


def test_a_number_of_sixteen_digits_within_the_bound_loads(tmp_path):
    path = tmp_path / "n.ft"
    cmd = b'{"t":"cmd","cmd":1,"n":0,"by":"referee","text":"x","at":%d}'
    path.write_bytes(_file(_HEADER % 3, cmd % MAX_RECORD_INT))
    assert load(path).history.issued(1).at == MAX_RECORD_INT
    path.write_bytes(_file(_HEADER % 3, cmd % 1, cmd.replace(b'"cmd":1', b'"cmd":2') % (MAX_RECORD_INT + 1)))
    with pytest.raises(SaveError) as refused:
        load(path)
    assert str(refused.value).startswith(f"{path}:3: invalid event: Expected `int` <= {MAX_RECORD_INT} - at `$.at`;")


HEADERS: dict[str, tuple[bytes, str]] = {
    "not json": (b"not json", "{path}:1: not a Fireteam save (no valid header line); is this the right file?"),
    "not UTF-8": (
        b'{"fireteam":1,"ruleset":"caf\xe9"}',
        "{path}:1: not a Fireteam save (no valid header line); is this the right file?",
    ),
    "a list": (b"[1,2]", "{path}:1: not a Fireteam save (no valid header line); is this the right file?"),
    "no format": (b'{"ruleset":"x"}', "{path}:1: not a Fireteam save (no valid header line); is this the right file?"),
    "a format as text": (
        b'{"fireteam":"9","ruleset":"x","ruleset_version":"1","engine":"0","created":"x","seed":1}',
        "{path}:1: invalid header: Expected `int`, got `str` - at `$.fireteam`; is this the right file?",
    ),
    "a seed too big": (
        b'{"fireteam":3,"ruleset":"x","ruleset_version":"1","engine":"0","created":"x","seed":9007199254740992}',
        "{path}:1: invalid header: Expected `int` <= 9007199254740991 - at `$.seed`; is this the right file?",
    ),
    "today's": (_HEADER % 3, ""),
    "the first format": (_HEADER % 0, ""),
}


@pytest.mark.parametrize("name", list(HEADERS))
def test_what_a_header_may_be(name):
    payload, said = HEADERS[name]
    path = Path("h.ft")
    if not said:
        header = decoding.decode_header(path, payload)
        assert header == decoding.Header(json.loads(payload)["fireteam"], "x", "1", "0", "x", 1)
        return
    with pytest.raises(SaveError) as refused:
        decoding.decode_header(path, payload)
    assert str(refused.value) == said.format(path=path)


def test_a_bad_record_among_good_ones_is_named_by_its_own_line():
    good = b'{"t":"note","text":"x"}'
    for at in range(5):
        payloads = [good] * 5
        payloads[at] = b'{"t":"note"}'
        with pytest.raises(SaveError) as refused:
            decoding.decode_batch(Path("b.ft"), payloads, 10, 3, savefile.UPCASTERS)
        assert str(refused.value).startswith(f"b.ft:{10 + at + 2}: invalid event: Object missing required field")
    assert decoding.decode_batch(Path("b.ft"), [good] * 3, 0, 3, savefile.UPCASTERS) == [ev.Noted(text="x")] * 3


def test_records_of_an_older_format_are_upgraded_step_by_step():
    steps: list[tuple[int, str]] = []

    def step(version: int):
        def up(record: dict) -> dict:
            steps.append((version, record["text"]))
            return {**record, "text": record["text"] + str(version)}

        return up

    upcasters = {0: {"note": step(0)}, 1: {"note": step(1)}, 2: {"roll": step(99)}}
    record = b'{"t":"note","text":"x"}'
    assert decoding._upcast(record, 0, upcasters) == ev.Noted(text="x01")
    assert decoding._upcast(record, 1, upcasters) == ev.Noted(text="x1")
    assert steps == [(0, "x"), (1, "x0"), (1, "x")]
    for bad, said in ((b"[1]", "record is not an object"), (b'{"t":"warp"}', "unknown event tag 'warp'")):
        with pytest.raises(ValueError) as refused:
            decoding._upcast(bad, 1, upcasters)
        assert str(refused.value) == said
    with pytest.raises(SaveError, match=r"u.ft:5: invalid event: unknown event tag 'warp'"):
        decoding.decode_batch(Path("u.ft"), [record, b'{"t":"warp"}'], 2, 1, upcasters, fast=False)


def test_a_locked_save_says_who_writes_it_and_what_to_do():
    holder = savelock.Holder(7, "host", "noon", "fireteam")
    locked = SaveLocked(Path("s.ft"), holder, "process 7 (fireteam), since noon")
    assert str(locked) == (
        "s.ft: another Fireteam is writing this save: process 7 (fireteam), since noon. "
        "Open it read-only to follow that game (`fireteam s.ft --replay`), or close the other one first"
    )
    assert (locked.path, locked.holder, locked.who) == (Path("s.ft"), holder, "process 7 (fireteam), since noon")


def test_a_torn_command_is_cut_at_its_first_byte_whatever_the_lines_before_it_hold(tmp_path):
    """The cut is counted in bytes: an accented word before it (two bytes, one letter)
    moves it as it moves the file."""
    path = tmp_path / "t.ft"
    cmd = b'{"t":"cmd","cmd":%d,"n":%d,"by":"referee","text":"%s"}'
    note = '{"t":"note","text":"caff\u00e8 \u00e0 \u00e9t\u00e9"}'.encode()
    whole = _file(_HEADER % 3, cmd % (1, 1, b"n"), note)
    path.write_bytes(_file(_HEADER % 3, cmd % (1, 1, b"n"), note, cmd % (2, 2, b"m"), note))
    loaded = load(path)
    assert loaded.good_bytes == len(whole) and loaded.torn_bytes == path.stat().st_size - len(whole)
    assert loaded.check == int(whole.split(b"\n")[-2][:8], 16)
    assert loaded.notes == ["line 4: command #2 incomplete at the end of the file, cut off"]
    assert loaded.torn_line == 4


def test_a_follower_hands_back_the_records_as_the_file_holds_them(save, monkeypatch):
    """Records of today's format are handed on as written (the store keeps the file's
    bytes); only records an upcaster changed are encoded again."""
    lines, sizes, checks = _followed(save)
    data = save.read_bytes()
    base = len(lines) - 1
    spaced = b'{"t":"cmd", "cmd":99, "n":0, "by":"referee", "text":"x"}'
    save.write_bytes(data + Chain(checks[-1]).frame_payload(spaced))
    monkeypatch.setitem(savefile.UPCASTERS, 0, {"cmd": lambda r: r})  # below this save's format: not used
    events, payloads, _check, _end = savefile.read_commands(save, len(data), None, base, checks[-1])
    assert payloads == [spaced] and events[0].cmd == 99
    bad = b'{"t":"note"}'
    save.write_bytes(data + Chain(checks[-1]).frame_payload(bad))
    with pytest.raises(SaveError) as refused:
        savefile.read_commands(save, len(data), None, base, checks[-1])
    assert str(refused.value).startswith(f"{save}:{base + 2}: invalid event: Object missing required field `text`")


def test_a_follower_reads_no_more_than_a_save_can_hold(save, monkeypatch):
    lines, sizes, checks = _followed(save)
    base = next(k for k in range(len(lines)) if sum(map(len, lines[: k + 1])) == sizes[0])
    monkeypatch.setattr(savefile, "MAX_FILE_BYTES", sizes[2] - sizes[0])
    events, _payloads, check, end = savefile.read_commands(save, sizes[0], None, base, checks[0])
    assert (check, end) == (checks[2], sizes[2])


def test_a_line_of_exactly_the_longest_length_loads(tmp_path, monkeypatch, collector_off):
    path = tmp_path / "l.ft"
    path.write_bytes(_file(_HEADER % 3, _CMD, _NOTE))
    longest = max(len(line) for line in path.read_bytes().split(b"\n"))
    monkeypatch.setattr(savefile, "MAX_LINE_BYTES", longest)
    for chunk in (8 << 20, 7):
        monkeypatch.setattr(savefile, "_CHUNK", chunk)
        load(path)
    path.write_bytes(path.read_bytes()[:-1])  # the last line without its newline: torn, not too long
    assert load(path).notes[0] == "line 3: incomplete last record cut off (torn write)"
    monkeypatch.setattr(savefile, "MAX_LINE_BYTES", longest - 1)
    with pytest.raises(SaveError, match="line longer than"):
        load(path)


def test_the_first_bad_line_of_a_read_is_named_before_a_longer_one_after_it(tmp_path, monkeypatch):
    path = tmp_path / "b.ft"
    data = _file(_HEADER % 3, _CMD, _NOTE, b'{"t":"note","text":"%s"}' % (b"x" * 200))
    lines = data.split(b"\n")
    lines[1] = lines[1][:20] + b"X" + lines[1][21:]  # line 2: its check fails
    path.write_bytes(b"\n".join(lines))
    monkeypatch.setattr(savefile, "MAX_LINE_BYTES", 150)  # line 4 is too long
    with pytest.raises(SaveError, match=r"b.ft:2: damaged record"):
        load(path)


def test_the_store_keeps_the_records_as_the_file_holds_them(tmp_path, monkeypatch):
    """Records of today's format go into the store as written (an open cache entry
    points into the file's own lines); a format an upcaster changed is encoded again."""
    spaced = b'{"t":"cmd", "cmd":1, "n":1, "by":"referee", "text":"x"}'
    path = tmp_path / "s.ft"
    path.write_bytes(_file(_HEADER % 1, spaced, _NOTE, version=1))
    monkeypatch.setitem(savefile.UPCASTERS, 0, {"cmd": lambda r: r})  # below this save's format: not used
    assert load(path).history.store.tail_json == [spaced, _NOTE]
    monkeypatch.setitem(savefile.UPCASTERS, 1, {"cmd": lambda r: r})
    assert load(path).history.store.tail_json == [savefile.encoder.encode(load(path).history.store[0]), _NOTE]


def test_the_progress_is_told_in_step_with_the_records_taken_in(save, monkeypatch):
    import core.storage.store

    monkeypatch.setattr(savefile, "CHUNK", 4)
    monkeypatch.setattr(core.storage.store, "CHUNK", 4)
    size = save.stat().st_size
    records = save.read_bytes().count(b"\n") - 1
    told: list[int] = []
    loaded = load(save, progress=lambda done, total: told.append(done))
    # One read: after each 4 records of ``records``, that share of the file; the rest at the end.
    assert told == [size * done // records for done in range(4, records - records % 4 + 1, 4)] + [size]
    assert all(type(done) is int for done in told)
    # Each whole chunk went in whole (``append_chunk``): no more than a load's few kept decoded.
    assert len(loaded.history.store._cache) == core.storage.store.LOADING_CACHE_CHUNKS < records // 4


def test_a_bad_record_of_an_older_format_is_named_by_its_file_and_line(tmp_path):
    path = tmp_path / "old.ft"
    path.write_bytes(_file(_HEADER % 1, _CMD, _NOTE, _CMD.replace(b'"cmd":1', b'"cmd":2'), b'{"t":"note"}', version=1))
    upcasters = {1: {"note": lambda r: r}}
    with pytest.raises(SaveError) as refused:
        load(path, upcasters=upcasters)
    assert str(refused.value).startswith(f"{path}:5: invalid event: ")


# ------------------------------------------------------------- the last good line (issue #33)


def test_a_record_of_exactly_the_longest_length_loads_and_the_first_longer_one_is_named(tmp_path, monkeypatch):
    """A record line (not the header, which is read on its own) as long as a line may be is a
    record; of two lines past a read's start, the one longer than that is named, not the one
    before it that is exactly as long."""
    at_limit = b'{"t":"note","text":"%s"}' % (b"a" * 300)
    over = b'{"t":"note","text":"%s"}' % (b"b" * 301)
    monkeypatch.setattr(savefile, "MAX_LINE_BYTES", 9 + len(at_limit))  # a line's bytes, without its newline
    path = tmp_path / "l.ft"
    path.write_bytes(_file(_HEADER % 3, _CMD, at_limit))
    assert len(_HEADER % 3) + 9 < savefile.MAX_LINE_BYTES
    assert load(path).history.store[1] == ev.Noted(text="a" * 300)
    two = b'{"t":"cmd","cmd":1,"n":2,"by":"referee","text":"note hi"}'
    path.write_bytes(_file(_HEADER % 3, two, at_limit, over))
    with pytest.raises(SaveError) as refused:
        load(path)
    assert str(refused.value).startswith(f"{path}:4: line longer than {9 + len(at_limit)} bytes")


@pytest.mark.parametrize("records", [0, 2])
def test_a_garbled_last_line_leaves_the_good_bytes_and_the_check_of_the_lines_before_it(tmp_path, records):
    """What the writer cuts the file back to and goes on chaining from when it sets a torn
    line aside: the bytes and the check of the last good line (the header's when the garbled
    line is the first record, and so the first line of its read)."""
    path = tmp_path / "g.ft"
    good = _file(_HEADER % 3, *(_CMD, _NOTE)[:records])
    path.write_bytes(good)
    whole = load(path)
    assert whole.good_bytes == len(good)
    path.write_bytes(good + b"\x00\x00\x00garbled\n")  # a crash's zeros, then a newline
    torn = load(path)
    assert (torn.good_bytes, torn.check, torn.torn_bytes) == (len(good), whole.check, 11)
    assert torn.notes == [f"line {records + 2}: incomplete last record cut off (torn write)"]


def test_a_last_line_of_a_frame_alone_is_a_torn_write(tmp_path):
    """A frame with no record after it ("%08x " and the newline), its check even right (a
    check of nothing is the check before it): a record cut short, not an event to decode."""
    path = tmp_path / "f.ft"
    good = _file(_HEADER % 3, _CMD, _NOTE)
    path.write_bytes(good)
    check = load(path).check
    path.write_bytes(good + b"%08x \n" % check)
    loaded = load(path)
    assert (loaded.good_bytes, loaded.check, loaded.torn_bytes) == (len(good), check, 10)
    assert loaded.notes == ["line 4: incomplete last record cut off (torn write)"]


def test_a_follower_reads_no_more_than_the_file_held_when_it_looked(save, monkeypatch):
    """A command written while the follower reads comes in with its next call, whole, not in
    this one: it takes the bytes up to the size it found."""
    lines, sizes, checks = _followed(save)
    data = save.read_bytes()
    save.write_bytes(data[: sizes[1]])
    base = next(k for k in range(len(lines)) if sum(map(len, lines[: k + 1])) == sizes[0])
    fstat = savefile.os.fstat

    def growing(fd):
        size = fstat(fd)
        with open(save, "ab") as more:  # the writer appends the rest meanwhile
            more.write(data[sizes[1] :])
        return size

    monkeypatch.setattr(savefile.os, "fstat", growing)
    _events, _payloads, check, end = savefile.read_commands(save, sizes[0], None, base, checks[0])
    assert (check, end) == (checks[1], sizes[1])


def test_a_line_too_long_past_a_resumed_load_is_named_by_its_file_and_line(save, monkeypatch):
    """A load the open cache resumed reads on from the bytes it was given: a line longer than a
    save's there is refused as in a full load, naming the file and the line."""
    lines, sizes, checks = _followed(save)
    whole = load(save)
    half = sizes[1]
    count = next(k for k in range(len(lines)) if sum(map(len, lines[:k])) == half)
    monkeypatch.setattr(savefile, "MAX_LINE_BYTES", 300)
    resume = savefile.Resume(save.read_bytes() + b"7" * 400, half, whole.header, checks[1], count)
    with pytest.raises(SaveError) as refused:
        load(save, history=load_prefix(save, half), resume=resume)
    assert str(refused.value).startswith(f"{save}:{len(lines) + 1}: line longer than 300 bytes")
