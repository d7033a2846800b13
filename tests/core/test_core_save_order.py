# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""The save knows its own order: chained checks, torn headers, one consistent view,
bounded numbers, and saves of the older format (issue #13)."""

from __future__ import annotations

import json
import os
import sys
import zlib
from decimal import Decimal
from pathlib import Path

import pytest
from coretests_support import builtins, demo, file_events, file_lines, new_skirmish, sha, skirmish_registered, unit_ends  # noqa: F401
from playing import names

import core.storage.lock
import core.storage.savefile
from core.game import Game
from core.log import events as ev
from core.log.history import MAX_COMMAND_EVENTS
from core.log.recordint import MAX_RECORD_INT
from core.log.views import REFEREE
from core.refusal import TYPING
from core.storage.decoding import FORMAT_VERSION
from core.storage.errors import NoGameYet, SaveError
from core.storage.savefile import Chain, load


def played(path: Path) -> Game:
    """A short game ending on a command of several facts, with an undo and a redo in it."""
    game = new_skirmish(path, seed=3)
    for line, role in (
        ("dp blue 5 building", "referee"),
        ("note smoke", "referee"),
        ("undo", "referee"),
        ("redo", "referee"),
        ("walk alpha 5 run", "blue"),
        ("shoot gunner alpha", "red"),
    ):
        game.execute(line, role=role)
    return game


@pytest.fixture
def save(tmp_path) -> Path:
    with skirmish_registered():
        game = played(tmp_path / "game.ft")
        game.close()
        yield game.path


def _refused_at(path: Path, line: int) -> None:
    before = sha(path)
    for opener in (load, lambda p: Game.open(p, writable=False), Game.open):
        with pytest.raises(SaveError) as refused:
            opener(path)
        message = str(refused.value)
        assert f"{path.name}:{line}:" in message, message
        assert "fireteam salvage" in message
    assert sha(path) == before
    assert [p.name for p in path.parent.iterdir() if ".torn-" in p.name] == []


def test_every_line_is_chained_to_the_one_before(save):
    lines = file_lines(save)
    assert json.loads(lines[0][9:])["fireteam"] == FORMAT_VERSION == 3
    check = zlib.crc32(lines[0][9:-1])
    assert int(lines[0][:8], 16) == check
    for line in lines[1:]:
        check = zlib.crc32(line[9:-1], check)
        assert int(line[:8], 16) == check
    assert load(save).check == check


def test_two_lines_swapped_anywhere_are_refused_naming_the_line(save):
    lines = file_lines(save)
    swapped = save.with_name("swapped.ft")
    for i in range(1, len(lines) - 1):
        if lines[i] == lines[i + 1]:
            continue
        swapped.write_bytes(b"".join([*lines[:i], lines[i + 1], lines[i], *lines[i + 2 :]]))
        _refused_at(swapped, i + 1)  # the first line out of place


def test_a_line_deleted_anywhere_but_the_end_is_refused(save):
    """Deleting a redo line, or a line inside the last command, no longer loads silently.
    Deleting the very last line leaves what a write torn at a line's end leaves, and
    loads as that: the complete commands before it."""
    lines = file_lines(save)
    tags = [json.loads(line[9:])["t"] for line in lines[1:]]
    assert "redo" in tags
    gone = save.with_name("gone.ft")
    for i in range(1, len(lines) - 1):
        gone.write_bytes(b"".join([*lines[:i], *lines[i + 1 :]]))
        _refused_at(gone, i + 1)  # the line after the hole
    gone.write_bytes(b"".join(lines[:-1]))
    events = file_events(save)
    kept = max(n for n in unit_ends(events) if n <= len(lines) - 2)
    loaded = load(gone)
    assert loaded.history.store.slice(0, kept + 5) == events[:kept]
    assert "incomplete" in loaded.notes[-1]


def test_a_line_repeated_anywhere_is_refused(save):
    lines = file_lines(save)
    twice = save.with_name("twice.ft")
    for i in range(1, len(lines)):
        twice.write_bytes(b"".join([*lines[: i + 1], lines[i], *lines[i + 1 :]]))
        _refused_at(twice, i + 2)


def test_a_line_from_another_position_moved_to_the_end_is_not_taken_for_a_torn_write(save):
    lines = file_lines(save)
    moved = save.with_name("moved.ft")
    moved.write_bytes(b"".join([*lines[:3], *lines[4:], lines[3]]))
    _refused_at(moved, 4)
    moved.write_bytes(b"".join([*lines, lines[2]]))  # a copy of an old line appended
    _refused_at(moved, len(lines) + 1)


def test_a_torn_tail_is_still_recovered(save):
    data = save.read_bytes()
    lines = file_lines(save)
    torn = save.with_name("torn.ft")
    torn.write_bytes(data + lines[-1][: len(lines[-1]) // 2])  # half of a line, no newline
    loaded = load(torn)
    assert loaded.good_bytes == len(data) and loaded.torn_bytes == len(lines[-1]) // 2
    torn.write_bytes(data + b"\x00" * 40 + b"\n")  # zeros a file system left for a lost write
    assert load(torn).torn_bytes == 41


# ------------------------------------------------------------------ torn headers


@pytest.mark.long
def test_a_torn_header_is_no_game_yet_and_can_be_started_again(tmp_path):
    game = Game.new(tmp_path / "whole.ft", "breaking-news", seed=1)
    game.close()
    header = file_lines(game.path)[0]
    path = tmp_path / "torn.ft"
    for cut in range(len(header)):  # 0: created, nothing written yet
        path.write_bytes(header[:cut])
        for opener in (load, lambda p: Game.open(p, writable=False), Game.open):
            with pytest.raises(NoGameYet, match="torn.ft: .*no game"):
                opener(path)
        assert path.read_bytes() == header[:cut]
        again = Game.new(path, "breaking-news", seed=9)
        again.execute("scenario demo", role=REFEREE)
        again.close()
        assert load(path).header.seed == 9
        aside = list(tmp_path.glob("torn.ft.torn-*"))
        assert [p.read_bytes() for p in aside] == ([header[:cut]] if cut else [])
        for p in aside:
            p.unlink()
        path.unlink()


def test_a_file_that_is_not_a_torn_header_is_never_started_again(tmp_path):
    path = tmp_path / "notes.ft"
    for data in (b"shopping list", b"0000000 {", b'deadbeef {"fireteam":2,"ruleset":"x"}\n'):
        path.write_bytes(data)
        with pytest.raises(SaveError) as refused:
            Game.new(path, "breaking-news")
        assert not isinstance(refused.value, NoGameYet)
        assert "already exists" in str(refused.value)
        assert path.read_bytes() == data


def test_script_starts_a_save_with_a_torn_header_again(tmp_path, capsys):
    from core.cli.main import run_script

    script = tmp_path / "s.txt"
    script.write_text("scenario demo\n")
    save = tmp_path / "s.ft"
    save.write_bytes(b'1234abcd {"firete')
    assert run_script(script, save, 5, "breaking-news", "") == 0
    assert load(save).header.seed == 5
    assert [p.read_bytes() for p in tmp_path.glob("s.ft.torn-*")] == [b'1234abcd {"firete']


# ------------------------------------------------------------- one consistent view


def test_bytes_a_writer_appends_during_a_load_are_neither_read_nor_cut(save, monkeypatch):
    """The size is read once: a writer appending meanwhile (here, between the size and
    the reads) is not seen, and its bytes are not counted as a torn tail."""
    size = save.stat().st_size
    real_fstat = os.fstat
    lines = file_lines(save)
    chain = Chain(load(save).check)
    more = chain.frame(ev.Issued(cmd=99, n=1, by="referee", text="later")) + chain.frame(ev.Noted(text="x"))

    def fstat_then_append(fd):
        result = real_fstat(fd)
        # The size read (not the open's check of the file's kind): by name, `load` or the copy of it
        # mutation testing calls (`x_load__mutmut_orig`), else the test fails before any mutant is tried.
        if "load" in sys._getframe(1).f_code.co_name:
            with open(save, "ab") as f:
                f.write(more[:-7])  # the writer is in the middle of its write
        return result

    monkeypatch.setattr(core.storage.savefile.os, "fstat", fstat_then_append)
    loaded = load(save)
    monkeypatch.undo()
    assert loaded.good_bytes == size and loaded.torn_bytes == 0 and not loaded.notes
    assert len(loaded.history.store) == len(lines) - 1
    assert save.stat().st_size == size + len(more) - 7


def test_a_follower_without_a_size_takes_whole_commands_only(tmp_path):
    writer = Game.new(tmp_path / "live.ft", "breaking-news", seed=2)
    writer.execute("scenario demo", role=REFEREE)
    reader = Game.open(writer.path, writable=False)
    writer.execute("note one", role=REFEREE)
    chain = Chain(writer.saved_check)
    half = chain.frame(ev.Issued(cmd=writer.history.next_cmd, n=2, by="referee", text="x")) + chain.frame(
        ev.Noted(text="a")
    )
    with open(writer.path, "ab") as f:  # a command still being written (one fact of two)
        f.write(half)
    outcomes = reader.follow()
    assert [o.events[-1] for o in outcomes] == [ev.Noted(text="one")]
    assert reader.saved_bytes == writer.saved_bytes
    assert reader.follow() == []
    with open(writer.path, "ab") as f:
        f.write(chain.frame(ev.Noted(text="b")))
    (outcome,) = reader.follow()
    assert outcome.events[1:] == [ev.Noted(text="a"), ev.Noted(text="b")]
    writer.close()


# ------------------------------------------------------------ numbers in a file


def _rewrite(path: Path, index: int, edit) -> None:
    """Change record ``index`` (0: the header) and re-chain every check, as a careful hand would."""
    lines = file_lines(path)
    payloads = [line[9:-1] for line in lines]
    record = json.loads(payloads[index])
    edit(record)
    payloads[index] = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()
    chain = Chain(zlib.crc32(payloads[0]))
    out = [b"%08x %b\n" % (zlib.crc32(payloads[0]), payloads[0])]
    out += [chain.frame_payload(p) for p in payloads[1:]]
    path.write_bytes(b"".join(out))


def _ints(value, where=()):
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield where
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _ints(v, (*where, k))
    elif isinstance(value, list):
        for k, v in enumerate(value):
            yield from _ints(v, (*where, k))


def _set(record, where, value):
    for key in where[:-1]:
        record = record[key]
    record[where[-1]] = value


@pytest.mark.parametrize("number", [MAX_RECORD_INT + 1, 2**63, 2**64, -(2**63) - 1, 10**30])
def test_an_out_of_range_integer_with_valid_checks_is_refused_with_its_line(tmp_path, number):
    game = Game.new(tmp_path / "src.ft", "breaking-news", seed=4)
    for line in ("scenario demo", "next", "roll 2d6", "dp regulars 3 building"):
        game.execute(line, role=REFEREE)
    game.close()
    lines = file_lines(game.path)
    edited = tmp_path / "edited.ft"
    seen_tags = set()
    for index in range(len(lines)):
        record = json.loads(lines[index][9:])
        tag = record.get("t", "header")
        if tag in seen_tags:
            continue
        seen_tags.add(tag)
        for where in _ints(record):
            edited.write_bytes(game.path.read_bytes())
            _rewrite(edited, index, lambda r, where=where: _set(r, where, number))
            before = sha(edited)
            # (A huge format version is a save from the future: refused as that.)
            expected = rf"edited.ft:{index + 1}: .*(out of range|claims|invalid)|edited.ft: written by a newer"
            for opener in (load, Game.open):
                with pytest.raises(SaveError, match=expected):
                    opener(edited)
            assert sha(edited) == before
    assert {"header", "cmd", "roll", "dp", "phase"} <= seen_tags


@pytest.mark.parametrize("n", [2**63, MAX_COMMAND_EVENTS + 1, -1])
def test_a_last_command_claiming_too_many_facts_is_corruption_not_a_torn_write(save, n):
    lines = file_lines(save)
    last_cmd = max(i for i, line in enumerate(lines) if json.loads(line[9:]).get("t") == "cmd")
    _rewrite(save, last_cmd, lambda r: r.update(n=n))
    _refused_at(save, last_cmd + 1)


def test_a_command_with_too_many_facts_is_never_written(demo):
    from core.storage.writer import SaveWriter

    writer: SaveWriter = demo.writer
    size = demo.path.stat().st_size
    with pytest.raises(SaveError, match="too big"):
        writer.append(
            [ev.Issued(cmd=99, n=MAX_COMMAND_EVENTS + 1, by="x", text="x")]
            + [ev.Noted(text="x")] * (MAX_COMMAND_EVENTS + 1)
        )
    assert demo.path.stat().st_size == size


# --------------------------------------------------------------- older formats


def _format_1(path: Path) -> None:
    """The same save as format 1 wrote it: version 1 in the header, each line checked alone."""
    lines = file_lines(path)
    header = json.loads(lines[0][9:])
    header["fireteam"] = 1
    payloads = [json.dumps(header, separators=(",", ":")).encode()] + [line[9:-1] for line in lines[1:]]
    path.write_bytes(b"".join(b"%08x %b\n" % (zlib.crc32(p), p) for p in payloads))


def test_a_format_1_save_loads_and_is_appended_to_in_its_own_format(save):
    with skirmish_registered():
        state = builtins(Game.open(save, writable=False).state)
        _format_1(save)
        before = save.read_bytes()
        old = Game.open(save)
        assert old.header.fireteam == 1
        assert builtins(old.state) == state
        old.execute("note after the upgrade", role=REFEREE)
        old.close()
        after = file_lines(save)
        assert save.read_bytes().startswith(before)
        for line in after:  # still format 1: each check covers its own line
            assert int(line[:8], 16) == zlib.crc32(line[9:-1])
        again = Game.open(save, writable=False)
        assert again.history.timeline()[-1] == ev.Noted(text="after the upgrade")
        # Format 1 has no chain: a swap there is what it always was (and salvage converts).
        assert load(save).upgraded_from == 1


def test_a_format_whose_records_changed_is_read_but_not_appended_to(save, monkeypatch):
    with skirmish_registered():
        _format_1(save)
        before = sha(save)
        monkeypatch.setitem(core.storage.savefile.UPCASTERS, 1, {"note": lambda r: r})
        Game.open(save, writable=False)
        with pytest.raises(SaveError, match=r"format 1, which this Fireteam reads but no longer writes.*salvage"):
            Game.open(save)
        assert sha(save) == before
        assert not core.storage.lock.label_path(save).exists()


def test_a_number_the_reader_would_refuse_is_never_written(demo):
    from core.ruleset import Refused

    size = demo.path.stat().st_size
    with pytest.raises(SaveError, match=r"Expected `int` <= 9007199254740991 - at `\$.points`"):
        demo.writer.append(
            [ev.Issued(cmd=99, n=1, by="x", text="x"), ev.DefeatPoints(side="regulars", points=2**64, reason="r")]
        )
    # Nor a distance the reader would not take for one (DecimalText: at most six decimals).
    with pytest.raises(SaveError, match=r"Expected `str` matching regex .* - at `\$.cm`"):
        demo.writer.append([ev.Issued(cmd=99, n=1, by="x", text="x"), ev.Moved(unit="rossi", cm=Decimal("2.1234567"))])
    with pytest.raises(Refused) as no:
        demo.execute("dp regulars 18446744073709551616 building", role=REFEREE)
    names(no.value, TYPING)
    assert demo.path.stat().st_size == size
    demo.execute("dp regulars 3 building", role=REFEREE)  # the game goes on
    assert Game.open(demo.path, writable=False).state.sides["regulars"].defeat_points == 3


def _nest_the_note(path: Path, depth: int) -> int:
    """Make the save's note a message nested ``depth`` deep (written as raw JSON: no
    encoder goes that deep), re-chained as a careful hand would; its line's index."""
    lines = file_lines(path)
    payloads = [line[9:-1] for line in lines]
    index = next(i for i, p in enumerate(payloads) if p.startswith(b'{"t":"note"'))
    nested = b'["{x}",{"x":' * depth + b'"x"' + b"}]" * depth
    payloads[index] = b'{"t":"note","text":' + nested + b"}"
    chain = Chain(zlib.crc32(payloads[0]))
    out = [b"%08x %b\n" % (zlib.crc32(payloads[0]), payloads[0])]
    out += [chain.frame_payload(p) for p in payloads[1:]]
    path.write_bytes(b"".join(out))
    return index


def test_messages_nested_past_what_the_decoder_goes_are_corruption_at_their_line(tmp_path):
    game = Game.new(tmp_path / "deep.ft", "breaking-news", seed=4)
    game.execute("note a", role=REFEREE)
    game.close()
    index = _nest_the_note(game.path, 50_000)
    before = sha(game.path)
    for opener in (load, Game.open):
        with pytest.raises(SaveError, match=rf"deep.ft:{index + 1}: invalid event"):
            opener(game.path)
    assert sha(game.path) == before


def test_messages_nested_deep_but_decodable_are_corruption_at_their_line_too(tmp_path):
    # (Once shown cut short; a message deeper than MAX_NESTING is now refused at load,
    # as every structure read from a save past its limits: tests/core/test_core_save_limits.py.)
    game = Game.new(tmp_path / "deep.ft", "breaking-news", seed=4)
    game.execute("note a", role=REFEREE)
    game.close()
    index = _nest_the_note(game.path, 300)
    with pytest.raises(SaveError, match=rf"deep.ft:{index + 1}: invalid event: a message that nests deeper"):
        Game.open(game.path, writable=False)
