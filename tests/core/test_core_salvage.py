# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""``fireteam salvage``'s verdicts, exactly: for each kind of damage, which line it stops
at, the reason it gives, how many lines and commands it keeps and drops, and the new
file byte for byte (the kept prefix of a today's-format save is copied unchanged; an
older one is reframed).  The original is only ever read."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest
from coretests_support import demo, file_lines, sha  # noqa: F401

import core.storage.salvage
from core.storage.decoding import FORMAT_VERSION
from core.storage.errors import SaveError
from core.storage.salvage import Salvaged, default_target, salvage
from core.storage.savefile import Chain, load


def _encode(record: dict) -> bytes:
    return json.dumps(record, separators=(",", ":")).encode()


def _cmd(number: int, facts: int, text: str = "note") -> bytes:
    return _encode({"t": "cmd", "cmd": number, "n": facts, "by": "referee", "text": text, "at": 1000})


def _note(text: str) -> bytes:
    return _encode({"t": "note", "text": text})


def _framed(payloads: list[bytes], version: int = FORMAT_VERSION) -> list[bytes]:
    """The lines of a file holding ``payloads`` (the header first), every check right."""
    first = b"%08x %b\n" % (zlib.crc32(payloads[0]), payloads[0])
    chain = Chain(zlib.crc32(payloads[0]), version)
    return [first, *(chain.frame_payload(p) for p in payloads[1:])]


@pytest.fixture
def base(demo):
    """The payloads of a demo save: its header, then the scenario's one command."""
    demo.close()
    return [line[9:-1] for line in file_lines(demo.path)]


#: After the scenario (line 2 opens it): a command of one fact, one of two, an undo of
#: it, a redo, and a last command of one fact.  Line numbers below count from the file's start.
def _units() -> list[bytes]:
    return [
        _cmd(2, 1),
        _note("a"),  # command 2
        _cmd(3, 2),
        _note("b1"),
        _note("b2"),  # command 3, two facts
        _encode({"t": "undo", "cmd": 3, "by": "referee", "at": 1000}),
        _encode({"t": "redo", "cmd": 3, "by": "referee", "at": 1000}),
        _cmd(4, 1),
        _note("c"),
    ]


def _write(path: Path, lines: list[bytes]) -> Path:
    path.write_bytes(b"".join(lines))
    return path


def _verdict(done: Salvaged) -> tuple:
    return (done.kept_lines, done.kept_units, done.dropped_lines, done.dropped_units, done.first_dropped, done.reason)


def test_a_whole_save_is_copied_byte_for_byte_and_says_nothing_was_dropped(base, tmp_path):
    lines = _framed(base + _units())
    save = _write(tmp_path / "s.ft", lines)
    done = salvage(save)
    # Header, the scenario (1 + its facts), then 2 + 3 + 1 + 1 + 2 lines: 6 units in all.
    assert _verdict(done) == (len(lines), 6, 0, 0, 0, "")
    assert done.to == tmp_path / "s.salvaged.ft"
    assert done.to.read_bytes() == save.read_bytes()
    assert done.report() == (
        f"{done.to}: kept 6 commands, undos and redos (lines 1-{len(lines)}); nothing was dropped: {save} is whole"
    )


# Each case: the lines after the scenario (as made from _units() by ``damage``), the
# index among them of the first line dropped, the units kept (the scenario's among
# them) and the units dropped.
def _flip(line: bytes) -> bytes:
    return line[:-3] + bytes([line[-3] ^ 1]) + line[-2:]


CASES = {
    # A byte of a fact of command 3 flipped: command 3 is dropped whole, from its marker.
    "a flipped byte": (lambda u: [*u[:3], _flip(u[3]), *u[4:]], 2, 2, 4),
    # Two lines swapped: the chain notices at the first of them.
    "two lines swapped": (lambda u: [*u[:5], u[6], u[5], *u[7:]], 5, 3, 3),
    "a line lost": (lambda u: [*u[:5], *u[6:]], 5, 3, 2),
    "a short line": (lambda u: [*u[:2], b"abc\n", *u[2:]], 2, 2, 4),
}
REASON_CHECK = "damaged record, or a line missing, repeated or out of order before it (check mismatch)"


@pytest.mark.parametrize("case", list(CASES))
def test_a_line_failing_its_check_drops_the_unit_it_falls_in_and_all_after(base, tmp_path, case):
    damage, first, kept, units = CASES[case]
    good = _framed(base + _units())
    head, after = good[: len(base)], good[len(base) :]
    save = _write(tmp_path / "s.ft", head + damage(after))
    before = sha(save)
    done = salvage(save)
    at = len(base) + first  # the lines kept
    assert _verdict(done) == (at, kept, len(damage(after)) - first, units, at + 1, REASON_CHECK)
    assert done.to.read_bytes() == b"".join(good[:at])
    assert sha(save) == before
    assert done.report() == (
        f"{done.to}: kept {done.kept_units} commands, undos and redos (lines 1-{at}); dropped "
        f"{done.dropped_lines} lines from line {at + 1} ({units} commands, undos and redos began there): "
        f"{REASON_CHECK}. {save} was not changed"
    )


def _with(base: list[bytes], units: list[bytes], tmp_path: Path, tail: bytes = b"") -> Path:
    return _write(tmp_path / "s.ft", [*_framed(base + units), tail])


def test_a_torn_last_line_drops_its_command_whole_and_says_so(base, tmp_path):
    units = _units()
    torn = Chain(0).frame_payload(_note("c"))[:12]  # what a crash left of the last fact
    save = _with(base, units[:-1], tmp_path, torn)
    done = salvage(save)
    n = len(base)
    # Command 4's marker (line n + 8) is dropped with the torn line after it.
    assert _verdict(done) == (n + 7, 5, 2, 1, n + 8, "incomplete last line (a torn write)")
    assert done.to.read_bytes() == b"".join(_framed(base + units[:7]))


def test_a_last_command_missing_facts_is_a_torn_write_dropped_whole(base, tmp_path):
    units = _units()
    save = _with(base, units[:4], tmp_path)  # command 3 holds one of its two facts
    done = salvage(save)
    n = len(base)
    assert _verdict(done) == (n + 2, 2, 2, 1, n + 3, "the last command is incomplete (a torn write)")
    assert done.to.read_bytes() == b"".join(_framed(base + units[:2]))


@pytest.mark.parametrize(
    "record, reason",
    [
        (b"{not json", "invalid event: JSON is malformed: object keys must be strings (byte 1)"),
        (b'{"t":"warp"}', "invalid event: Invalid value 'warp' - at `$.t`"),
    ],
)
def test_a_record_that_is_no_event_stops_there_with_the_decoders_words(base, tmp_path, record, reason):
    units = _units()
    save = _with(base, [*units[:3], record, *units[4:]], tmp_path)
    done = salvage(save)
    n = len(base)
    assert _verdict(done) == (n + 2, 2, 7, 4, n + 3, reason)


def test_a_fact_outside_any_command_stops_there(base, tmp_path):
    units = _units()
    save = _with(base, [*units[:2], _note("stray"), *units[2:]], tmp_path)
    done = salvage(save)
    n = len(base)
    assert _verdict(done) == (n + 2, 2, 8, 4, n + 3, "a fact outside any command")


def test_an_undo_the_history_refuses_is_dropped_with_its_reason(base, tmp_path):
    units = _units()
    bad = _encode({"t": "undo", "cmd": 9, "by": "referee", "at": 1000})
    save = _with(base, [*units[:5], bad, *units[6:]], tmp_path)
    done = salvage(save)
    n = len(base)
    assert done.reason == "undo of command 9, which is not the last in effect"
    assert _verdict(done)[:5] == (n + 5, 3, 4, 3, n + 6)
    assert done.to.read_bytes() == b"".join(_framed(base + units[:5]))


def test_a_fact_naming_a_unit_the_game_lacks_drops_its_command_whole(base, tmp_path):
    units = _units()
    moved = _encode({"t": "move", "unit": "nobody", "cm": 3})
    save = _with(base, [*units[:4], moved, *units[5:]], tmp_path)
    done = salvage(save)
    n = len(base)
    # Command 3's two facts read, the second fails: dropped from its marker (line n + 3).
    assert _verdict(done) == (n + 2, 2, 7, 4, n + 3, "the event refers to 'nobody', which the game lacks")


def test_a_bad_single_fact_command_is_dropped_from_its_marker(base, tmp_path):
    units = _units()
    moved = _encode({"t": "move", "unit": "nobody", "cm": 3})
    save = _with(base, [*units[:1], moved, *units[2:]], tmp_path)
    done = salvage(save)
    n = len(base)
    assert _verdict(done) == (n, 1, 9, 5, n + 1, "the event refers to 'nobody', which the game lacks")
    assert done.to.read_bytes() == b"".join(_framed(base))


def test_a_line_of_ten_bytes_is_read_as_a_record_not_a_bad_frame(base, tmp_path):
    units = _units()
    save = _with(base, [*units[:2], b"7"], tmp_path)  # framed and chained: the payload is just "7"
    done = salvage(save)
    n = len(base)
    assert len(file_lines(save)[-1]) == 11  # ten bytes and the newline
    assert done.reason.startswith("invalid event: ")
    assert _verdict(done)[:5] == (n + 2, 2, 1, 0, n + 3)


@pytest.mark.parametrize("extra, reason", [(0, "incomplete last line (a torn write)"), (1, "line too long")])
def test_a_last_line_without_its_end_is_torn_up_to_the_longest_a_line_may_be(
    base, tmp_path, monkeypatch, extra, reason
):
    monkeypatch.setattr(core.storage.salvage, "MAX_LINE_BYTES", 4096)
    units = _units()
    save = _with(base, units, tmp_path, b"x" * (4096 + extra))
    done = salvage(save)
    n = len(base)
    assert _verdict(done) == (n + 9, 6, 1, 0, n + 10, reason)


def test_a_line_of_the_longest_length_is_kept_and_one_byte_more_is_not(base, tmp_path, monkeypatch):
    units = _units()
    lines = _framed(base + units)
    longest = max(map(len, lines))
    save = _with(base, units, tmp_path)
    monkeypatch.setattr(core.storage.salvage, "MAX_LINE_BYTES", longest - 1)  # its bytes, without the newline
    done = salvage(save)
    assert done.reason == "" and done.kept_units == 6
    monkeypatch.setattr(core.storage.salvage, "MAX_LINE_BYTES", longest - 2)
    at = next(i for i, line in enumerate(lines) if len(line) == longest)  # the first line that long
    assert at > 0 and salvage(save).reason == "line too long"


def test_todays_records_are_read_as_todays_whatever_older_formats_changed(base, tmp_path, monkeypatch):
    monkeypatch.setitem(core.storage.salvage.UPCASTERS, 1, {"note": lambda record: record})
    units = _units()
    done = salvage(_with(base, [*units[:3], b'{"t":"warp"}', *units[4:]], tmp_path))
    assert done.reason == "invalid event: Invalid value 'warp' - at `$.t`"  # the decoder of today's records


# ------------------------------------------------------------------ older formats


def _old(base: list[bytes], units: list[bytes], version: int) -> list[bytes]:
    header = _encode(json.loads(base[0]) | {"fireteam": version})
    return _framed([header, *base[1:], *units], version)


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_save_is_copied_into_todays_format(base, tmp_path, version):
    units = _units()
    save = _write(tmp_path / "old.ft", _old(base, units, version))
    done = salvage(save)
    assert _verdict(done) == (len(base) + 9, 6, 0, 0, 0, "")
    assert done.to.read_bytes() == b"".join(_framed(base + units))  # reframed, chained, today's header


def test_an_older_saves_damage_is_found_by_its_own_checks(base, tmp_path):
    units = _units()
    lines = _old(base, units, 1)
    lines[-4] = _flip(lines[-4])  # the undo: "at":1000 made 1001, still an undo
    done = salvage(_write(tmp_path / "old.ft", lines))
    n = len(base)
    assert _verdict(done) == (n + 5, 3, 4, 3, n + 6, REASON_CHECK)
    assert done.to.read_bytes() == b"".join(_framed(base + units[:5]))


def test_records_of_an_older_format_are_upgraded_as_they_are_read(base, tmp_path, monkeypatch):
    def louder(record: dict) -> dict:  # the notes a test writes; the scenario's are messages
        text = record["text"]
        return {**record, "text": text.upper()} if isinstance(text, str) else record

    monkeypatch.setitem(core.storage.salvage.UPCASTERS, 1, {"note": louder})
    units = _units()
    done = salvage(_write(tmp_path / "old.ft", _old(base, units, 1)))
    assert done.reason == ""
    upgraded = [_note(json.loads(p)["text"].upper()) if json.loads(p)["t"] == "note" else p for p in units]
    assert done.to.read_bytes() == b"".join(_framed(base + upgraded))
    assert load(done.to).history.store.slice(len(base) - 1, len(base) + 1)[1].text == "A"


# ------------------------------------------------------------ nothing to salvage


def test_what_is_not_a_save_is_refused_with_what_is_wrong(base, tmp_path, monkeypatch):
    with pytest.raises(SaveError, match=r"nope\.ft: no such save file; check the name$"):
        salvage(tmp_path / "nope.ft")
    (tmp_path / "folder.ft").mkdir()
    with pytest.raises(SaveError, match=r"folder\.ft: cannot read: Is a directory$"):
        salvage(tmp_path / "folder.ft")
    header = _framed(base)[0]
    other = b"0" if header[3:4] != b"0" else b"1"
    for data in (header[:-1], header[:3] + other + header[4:], b"0000000 {}\n"):
        (tmp_path / "h.ft").write_bytes(data + _framed(base)[1])
        with pytest.raises(SaveError, match=r"h\.ft:1: no whole header line: there is no game to salvage$"):
            salvage(tmp_path / "h.ft")
    _write(tmp_path / "e.ft", _framed([b"{}", *base[1:]]))  # a header that says nothing
    with pytest.raises(SaveError, match=r"e\.ft:1: not a Fireteam save \(no valid header line\)"):
        salvage(tmp_path / "e.ft")
    unknown = _encode(json.loads(base[0]) | {"ruleset": "chess"})
    _write(tmp_path / "u.ft", _framed([unknown, *base[1:]]))
    with pytest.raises(SaveError, match=r"u\.ft:1: .*chess.*: there is no game this Fireteam can salvage$"):
        salvage(tmp_path / "u.ft")
    save = _write(tmp_path / "s.ft", _framed(base))
    monkeypatch.setattr(core.storage.salvage, "MAX_FILE_BYTES", save.stat().st_size - 1)
    with pytest.raises(SaveError, match=r"s\.ft: larger than a save can be \(\d+ bytes\); is this the right file\?$"):
        salvage(save)
    monkeypatch.setattr(core.storage.salvage, "MAX_FILE_BYTES", save.stat().st_size)
    assert salvage(save).reason == ""
    made = sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("demo."))
    assert made == ["e.ft", "folder.ft", "h.ft", "s.ft", "s.salvaged.ft", "u.ft"]  # no copy left of a refused salvage


def test_the_header_line_may_be_as_long_as_any_line(base, tmp_path, monkeypatch):
    lines = _framed(base)
    save = _write(tmp_path / "s.ft", lines)
    monkeypatch.setattr(core.storage.salvage, "MAX_LINE_BYTES", len(lines[0]) - 1)
    assert salvage(save).kept_lines == 1  # the header, then a longer line of the scenario
    monkeypatch.setattr(core.storage.salvage, "MAX_LINE_BYTES", len(lines[0]) - 2)
    with pytest.raises(SaveError, match="no whole header line"):
        salvage(save)


def test_a_new_name_is_found_for_every_salvage_and_an_explicit_one_is_used(tmp_path):
    save = tmp_path / "game.ft"
    assert default_target(save) == tmp_path / "game.salvaged.ft"
    (tmp_path / "game.salvaged.ft").write_bytes(b"")
    assert default_target(save) == tmp_path / "game.salvaged-2.ft"
    (tmp_path / "game.salvaged-2.ft").write_bytes(b"")
    assert default_target(save) == tmp_path / "game.salvaged-3.ft"


def test_salvage_to_a_chosen_file(base, tmp_path):
    save = _write(tmp_path / "s.ft", _framed(base))
    done = salvage(save, tmp_path / "copy.ft")
    assert done.to == tmp_path / "copy.ft" and done.to.read_bytes() == save.read_bytes()
    with pytest.raises(SaveError, match=r"copy\.ft: already exists; choose another name with --to"):
        salvage(save, str(tmp_path / "copy.ft"))


def _line_of(payload: bytes, size: int) -> bytes:
    """A line of ``size`` bytes (no newline counted) holding ``payload`` after spaces (cut short, it is no JSON)."""
    return b"00000000 " + b" " * (size - 9 - len(payload)) + payload


#: Reads that fall on every byte, a few bytes, around a line's longest, or all at once; and two
#: that fall just so: a chunk that begins with the bad line's line feed and holds the undo after
#: it, and one that ends a byte short of the longest line's end.
@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64, 299, 300, 301, 302, 303, 1 << 20, "after bad", "longest"])
@pytest.mark.parametrize("end", ["unit", "overlong unit"])
def test_the_lines_and_units_dropped_are_counted_the_same_however_the_reads_fall(
    base, tmp_path, monkeypatch, chunk, end
):
    """What follows the first bad line is only counted: every line, and those that begin a
    command, an undo or a redo, none longer than a save's line; the count read in
    ``chunk`` bytes at a time."""
    good = _framed(base + _units())
    longest = 300
    assert max(map(len, good)) <= longest
    undo = _encode({"t": "undo", "cmd": 3, "by": "referee", "at": 1000})
    tail = [
        b"00000000 " + _cmd(9, 1) + b"\n",  # the bad line (its check wrong): it begins a command
        b"00000000 " + undo + b"\n",
        b"\n\n\n",  # empty lines
        b"00000000 " + _note("x") + b"\n",
        b"\n\n",
        _line_of(_cmd(10, 0), longest) + b"\n",  # as long as a line may be: it begins one
        _line_of(_cmd(11, 0), longest + 1) + b"\n",  # one byte more: it begins none
        _line_of(_cmd(12, 0), longest + 2) + b"\n",
        b"00000000 " + _cmd(13, 0) + b"\n",
        (_line_of(undo, longest) if end == "unit" else _line_of(undo, longest + 1)),  # no line feed
    ]
    if chunk == "after bad":
        chunk = len(tail[0]) - 1
    elif chunk == "longest":
        chunk = len(b"".join(tail[:6])) - 2
    monkeypatch.setattr(core.storage.salvage, "MAX_LINE_BYTES", longest)
    monkeypatch.setattr(core.storage.salvage, "_CHUNK", chunk)
    save = _write(tmp_path / "s.ft", [*good, *tail])
    done = salvage(save)
    n = len(good)
    # 13 lines: the bad one, an undo, 3 empty, a note, 2 empty, the three long ones, a command, the last;
    # units begin on the bad one, the undo, the first long one, the command, and the last if not too long.
    units = 5 if end == "unit" else 4
    assert _verdict(done) == (n, 6, 13, units, n + 1, REASON_CHECK)


def test_a_save_of_a_header_alone_is_copied_whole(base, tmp_path):
    save = _write(tmp_path / "s.ft", _framed(base[:1]))
    done = salvage(save)
    assert _verdict(done) == (1, 0, 0, 0, 0, "")
    assert done.to.read_bytes() == save.read_bytes()
