# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""The save file: format, append-only writing, torn writes, corruption, upcasting,
and malformed input of every kind (always SaveError, never a change to the file)."""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import zlib
from datetime import datetime
from pathlib import Path

import pytest
from coretests_support import (
    builtins,
    collector_off,  # noqa: F401  (a fixture)
    demo,  # noqa: F401  (a fixture)
    file_events,
    file_lines,
    new_demo,
    new_skirmish,
    sha,
    skirmish_registered,
    tiny_chunks,
    unit_ends,
    write_anew,
)
from examples import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playing import names

import core
from core.game import Game
from core.log import events as ev
from core.log.state import fold
from core.log.views import REFEREE
from core.refusal import TYPING
from core.storage.decoding import FORMAT_VERSION
from core.storage.errors import SaveError
from core.storage.savefile import MAX_LINE_BYTES, Chain, load, open_regular


def played(path: Path) -> Game:
    """A short game (the small test ruleset, so the byte-by-byte tests stay fast) with
    every kind of group: facts, rolls, a hidden unit, undo, redo, a redo branch cut."""
    game = new_skirmish(path, seed=11)
    for line, role in (
        ("mark gunner suppressed", "referee"),
        ("roll 3d6 target=5", "referee"),
        ("note smoke drifts north", "referee"),
        ("dp blue 5 building", "referee"),
        ("undo", "referee"),
        ("undo", "referee"),
        ("redo", "referee"),
        ("walk alpha 5 run", "blue"),
        ("shoot gunner alpha", "red"),
        ("mark ghost wounded", "referee"),
        ("undo", "referee"),
    ):
        game.execute(line, role=role)
    return game


@pytest.fixture(scope="module")
def played_bytes(tmp_path_factory) -> bytes:
    """The bytes of ``played``'s save, played once for the module's tests."""
    with skirmish_registered():
        game = played(tmp_path_factory.mktemp("played") / "game.ftlog")
        game.close()
    return game.path.read_bytes()


@pytest.fixture
def save(tmp_path, played_bytes) -> Path:
    path = tmp_path / "game.ftlog"
    path.write_bytes(played_bytes)
    with skirmish_registered():
        yield path


# ----------------------------------------------------------------------- format


def test_header_fields(tmp_path):
    game = Game.new(tmp_path / "h.ftlog", "breaking-news", seed=4242)
    game.close()
    first = file_lines(game.path)[0]
    header = json.loads(first[9:])
    assert header["fireteam"] == FORMAT_VERSION
    assert header["ruleset"] == "breaking-news"
    assert header["ruleset_version"] == game.ruleset.version
    assert header["engine"] == core.__version__
    assert header["seed"] == 4242
    created = datetime.fromisoformat(header["created"])
    assert created.tzinfo is not None
    assert load(game.path).header.seed == 4242


def test_every_line_is_crc32_space_json(save):
    lines = file_lines(save)
    assert len(lines) > 25
    check = 0
    for number, line in enumerate(lines):
        assert re.fullmatch(rb"[0-9a-f]{8} \{.*\}\n", line, re.DOTALL), line
        payload = line[9:-1]
        # The header's check covers it alone; every later one goes on from the line before.
        check = zlib.crc32(payload, check if number else 0)
        assert int(line[:8], 16) == check
        json.loads(payload)
    tags = [json.loads(line[9:])["t"] for line in lines[1:]]
    assert tags[0] == "cmd" and "undo" in tags and "redo" in tags and "roll" in tags


def test_appending_never_rewrites(tmp_path):
    game = new_demo(tmp_path / "a.ftlog")
    before = game.path.read_bytes()
    for line in ("mark ahmed suppressed", "undo", "redo", "roll 2d6", "undo", "note x"):
        game.execute(line, role=REFEREE)
        after = game.path.read_bytes()
        assert after.startswith(before) and len(after) > len(before)
        before = after
    game.close()


def test_undone_events_stay_in_the_file(save):
    events = file_events(save)
    game = Game.open(save, writable=False)
    assert len(events) == game.log_length > game.timeline.length
    undone = [line for line in game.log_lines(role="referee") if line.undone]
    assert any(isinstance(line.event, ev.StatusChanged) and line.event.unit == "ghost" for line in undone)


# ------------------------------------------------------------------ torn writes


def _expected_prefix(lines: list[bytes], events: list[ev.Event], cut: int) -> tuple[int, int]:
    """(events, bytes) a load of the first ``cut`` bytes must keep: whole lines, whole commands."""
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    whole_events = max(i for i in range(len(lines)) if offsets[i + 1] <= cut) if cut >= offsets[1] else -1
    kept = max(n for n in unit_ends(events) if n <= whole_events)
    return kept, offsets[kept + 1]


@pytest.mark.long
def test_truncated_at_every_byte_loads_a_prefix_of_whole_commands(save):
    """Cut the file at every byte: a read-only load keeps an exact prefix of the
    events, drops a torn command whole, and never touches the file."""
    data = save.read_bytes()
    lines = file_lines(save)
    events = file_events(save)
    header_end = len(lines[0])
    torn = save.with_name("torn.ftlog")
    loads = 0
    for cut in range(len(data) + 1):
        write_anew(torn, data[:cut])
        if cut < header_end:
            # No whole header: not a save at all.
            with pytest.raises(SaveError, match="torn.ftlog"):
                load(torn)
            continue
        loaded = load(torn)
        store = loaded.history.store
        kept, kept_bytes = _expected_prefix(lines, events, cut)
        assert store.slice(0, len(store)) == events[:kept], cut
        assert loaded.good_bytes == kept_bytes
        assert loaded.torn_bytes == cut - kept_bytes
        assert torn.read_bytes() == data[:cut]
        loads += 1
    assert loads > 1000


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fraction=st.floats(0, 1))
def test_a_torn_save_opened_to_play_sets_the_torn_bytes_aside(played_bytes, fraction):
    with skirmish_registered(), tempfile.TemporaryDirectory() as tmp:
        full = Path(tmp) / "full.ftlog"
        full.write_bytes(played_bytes)
        data = full.read_bytes()
        lines = file_lines(full)
        events = file_events(full)
        cut = len(lines[0]) + round(fraction * (len(data) - len(lines[0])))
        path = Path(tmp) / "torn.ftlog"
        path.write_bytes(data[:cut])
        kept, kept_bytes = _expected_prefix(lines, events, cut)

        # Read-only: the same prefix, the file untouched.
        replay = Game.open(path, writable=False)
        assert replay.history.store.slice(0, kept + 1) == events[:kept]
        assert path.read_bytes() == data[:cut]

        game = Game.open(path)
        aside = sorted(Path(tmp).glob("torn.ftlog.torn-*"))
        if kept_bytes == cut:
            assert aside == []
        else:
            assert [p.read_bytes() for p in aside] == [data[kept_bytes:cut]]
            assert any("torn" in note for note in game.notes)
        assert path.read_bytes() == data[:kept_bytes]
        assert builtins(game.state) == builtins(replay.state)
        game.execute("note after the crash", role=REFEREE)
        game.execute("roll 2d6", role=REFEREE)
        game.close()

        again = Game.open(path, writable=False)
        assert again.notes == []
        assert again.history.store.slice(0, kept) == events[:kept]
        assert [e.text for e in again.log_lines(role="referee") if isinstance(e.event, ev.Issued)][-2:] == [
            "» referee: note after the crash",
            "» referee: roll 2d6",
        ]
        # A game opened again before any command of it holds seals its dice with its first
        # (docs/secrets.md, "Sealed dice"): the key and its commitment come with the note.
        sealing = 2 if kept == 0 else 0
        assert again.timeline.length == replay.timeline.length + 4 + sealing
        assert builtins(again.state) == builtins(fold(again.history.timeline()))


@pytest.mark.parametrize("commands", [1, 2])
def test_a_command_torn_off_takes_its_version_claim_with_it(save, monkeypatch, commands):
    """A newer Fireteam's session torn by a crash in its ``commands``-th command: that command is
    cut off, and its claim with it if it is the session's first (``EventStore.claims``, which
    ``last_claimed`` reads), in a store of chunks of 8 (the cut falls in one after the claim)."""
    with tiny_chunks(chunk=8):
        before = len(load(save).history.store)
        with monkeypatch.context() as newer:
            newer.setattr(core, "__version__", "9.9.0")
            game = Game.open(save)
            for _ in range(commands):
                game.execute("roll 3d6 target=5", role=REFEREE)
            game.close()
        assert load(save).history.store.claims == [(0, core.__version__), (before, "9.9.0")]
        write_anew(save, b"".join(save.read_bytes().splitlines(keepends=True)[:-1]))  # its last fact gone
        store = load(save).history.store
        events = store.slice(0, len(store))
        assert store.claims == [(i, e.version) for i, e in enumerate(events) if type(e) is ev.Issued and e.version]
        assert store.claims == [(0, core.__version__), *([(before, "9.9.0")] if commands == 2 else [])]
        assert store.last_claimed == ("9.9.0" if commands == 2 else core.__version__)


def test_two_torn_repairs_in_the_same_second_keep_both_tails(tmp_path, monkeypatch):
    import core.storage.writer

    monkeypatch.setattr(core.storage.writer.time, "time", lambda: 1_700_000_000.0)
    game = new_demo(tmp_path / "t.ftlog")
    game.close()
    tails = [b'deadbeef {"t":"cm', b"0badf00d {"]
    for tail in tails:
        with open(game.path, "ab") as f:
            f.write(tail)
        again = Game.open(game.path)
        again.execute("note survived", role=REFEREE)
        again.close()
    aside = sorted(tmp_path.glob("t.ftlog.torn-*"))
    assert sorted(p.read_bytes() for p in aside) == sorted(tails)
    assert Game.open(game.path, writable=False).notes == []


# ------------------------------------------------------------------- corruption


def _flips(byte: int) -> set[int]:
    """Damage of several kinds to one byte: a bit flip, a case flip, a space, a sign, a newline."""
    return {byte ^ 0x01, byte ^ 0x20, ord(" "), ord("+"), ord("x"), ord("\n")} - {byte}


@pytest.mark.long
def test_a_flipped_byte_in_the_middle_is_refused_with_file_and_line(save):
    """The lines before the last two, damaged: every byte of the framing (checksum,
    space, newline) several ways, every third byte of the JSON by a bit flip.  The
    load is refused naming the line, and the file is left byte for byte as it was."""
    data = save.read_bytes()
    lines = file_lines(save)
    damaged = save.with_name("damaged.ftlog")
    offset = 0
    checked = 0
    for number, line in enumerate(lines[:-2], start=1):
        framing = [*range(9), len(line) - 1]
        for i in sorted({*framing, *range(9, len(line) - 1, 3)}):
            for value in _flips(line[i]) if i in framing else {line[i] ^ 0x01}:
                bad = bytearray(data)
                bad[offset + i] = value
                write_anew(damaged, bad)
                with pytest.raises(SaveError) as refused:
                    load(damaged)
                message = str(refused.value)
                assert f"damaged.ftlog:{number}:" in message, (number, i, value, message)
                assert damaged.read_bytes() == bad
                checked += 1
        offset += len(line)
    assert checked > 2_000


def test_corruption_is_refused_by_game_open_even_writable(save):
    lines = file_lines(save)
    middle = len(lines) // 2
    bad = bytearray(b"".join(lines))
    at = sum(map(len, lines[:middle])) + 20
    bad[at] ^= 0x04
    save.write_bytes(bad)
    before = sha(save)
    for writable in (False, True):
        with pytest.raises(SaveError, match=rf"game.ftlog:{middle + 1}: damaged record"):
            Game.open(save, writable=writable)
        assert sha(save) == before
    assert list(save.parent.glob("*.torn-*")) == []


# ------------------------------------------------------------------- versions


def frame_payload(payload: bytes) -> bytes:
    """A line as format 1 framed it: the check covers the line alone."""
    return b"%08x %b\n" % (zlib.crc32(payload), payload)


def _write(path: Path, *payloads: bytes) -> Path:
    path.write_bytes(b"".join(frame_payload(p) for p in payloads))
    return path


HEADER_V0 = (
    b'{"fireteam":0,"ruleset":"breaking-news","ruleset_version":"1.5.1","engine":"0.0.1",'
    b'"created":"2020-01-01T00:00:00+00:00","seed":3}'
)


def test_a_save_from_a_newer_format_is_refused(tmp_path):
    path = _write(
        tmp_path / "new.ftlog",
        b'{"fireteam":%d,"ruleset":"breaking-news","ruleset_version":"9","engine":"9.0","created":"x","seed":1,"extra":1}'
        % (FORMAT_VERSION + 1),
        b'{"t":"cmd","cmd":1,"n":0,"by":"referee","text":"warp"}',
    )
    before = sha(path)
    for opener in (load, Game.open):
        with pytest.raises(SaveError, match=rf"newer Fireteam.*format {FORMAT_VERSION + 1}.*Upgrade"):
            opener(path)
    assert sha(path) == before


def test_an_older_format_is_upgraded_on_read_and_not_rewritten(tmp_path):
    """A format-0 save, written by hand: notes then had ``txt``; dp had ``pts``.
    Per-tag upcasters turn each record into the current shape as it is read."""
    path = _write(
        tmp_path / "old.ftlog",
        HEADER_V0,
        b'{"t":"cmd","cmd":1,"n":2,"by":"referee","text":"setup"}',
        b'{"t":"setup","scenario":"Old","sides":[{"id":"a","name":"A"},{"id":"b","name":"B"}]}',
        b'{"t":"note","txt":"from the old days"}',
        b'{"t":"cmd","cmd":2,"n":1,"by":"referee","text":"dp a 3"}',
        b'{"t":"dp","side":"a","pts":3,"reason":"old"}',
    )
    before = sha(path)
    calls: list[str] = []

    def note(record):
        calls.append("note")
        record["text"] = record.pop("txt")
        return record

    def dp(record):
        calls.append("dp")
        record["points"] = record.pop("pts")
        return record

    loaded = load(path, upcasters={0: {"note": note, "dp": dp}})
    events = loaded.history.timeline()
    assert loaded.upgraded_from == 0
    assert loaded.header.fireteam == 0
    assert ev.Noted(text="from the old days") in events
    assert ev.DefeatPoints(side="a", points=3, reason="old") in events
    assert sorted(calls) == ["dp", "note"]
    assert fold(events).sides["a"].defeat_points == 3
    assert sha(path) == before
    # Without the upcasters the old shapes do not fit today's events.
    with pytest.raises(SaveError, match=r"old.ftlog:4: invalid event"):
        load(path, upcasters={})
    assert sha(path) == before


# --------------------------------------------------------------- malformed input

GOOD_HEADER = (
    b'{"fireteam":2,"ruleset":"breaking-news","ruleset_version":"1.5.1","engine":"0.1.0","created":"x","seed":1}'
)
GOOD_CMD = b'{"t":"cmd","cmd":1,"n":1,"by":"referee","text":"note hi"}'
GOOD_NOTE = b'{"t":"note","text":"hi"}'


def _framed(header: bytes, *payloads: bytes) -> bytes:
    """A file of today's format: the header alone, then each line's check chained to the last."""
    chain = Chain(zlib.crc32(header))
    return frame_payload(header) + b"".join(chain.frame_payload(p) for p in payloads)


MALFORMED: dict[str, tuple[bytes, str]] = {
    "empty file": (b"", "empty file"),
    "garbage bytes": (bytes(range(256)) * 4, ":1: not a Fireteam save"),
    "garbage, one line": (bytes(range(11, 256)) * 4 + b"\n", ":1: not a Fireteam save"),
    "garbage lines": (b"hello\nworld\n\x00\x01\x02\n", "damaged record|not a Fireteam save"),
    "header not json": (_framed(b"not json at all", GOOD_CMD, GOOD_NOTE), "not a Fireteam save"),
    "header is a list": (_framed(b"[1,2,3]", GOOD_CMD, GOOD_NOTE), "not a Fireteam save"),
    "header wrong types": (
        _framed(b'{"fireteam":1,"ruleset":7,"ruleset_version":"1","engine":"0","created":"x","seed":"s"}', GOOD_CMD),
        "invalid header",
    ),
    "header version a string": (
        _framed(b'{"fireteam":"1","ruleset":"x","ruleset_version":"1","engine":"0","created":"x","seed":1}'),
        "invalid header",
    ),
    "header negative version": (
        _framed(b'{"fireteam":-1,"ruleset":"x","ruleset_version":"1","engine":"0","created":"x","seed":1}', GOOD_CMD),
        "invalid header",
    ),
    "unknown tag": (_framed(GOOD_HEADER, GOOD_CMD, b'{"t":"teleport","unit":"x"}'), ":3: invalid event"),
    "event wrong types": (_framed(GOOD_HEADER, GOOD_CMD, b'{"t":"move","unit":"a","cm":"far"}'), ":3: invalid event"),
    # A distance with a fraction is its exact decimal text (issue 10): no float, no nan, no exponent.
    "distance as a float": (_framed(GOOD_HEADER, GOOD_CMD, b'{"t":"move","unit":"a","cm":2.5}'), ":3: invalid event"),
    "distance nan": (_framed(GOOD_HEADER, GOOD_CMD, b'{"t":"move","unit":"a","cm":"nan"}'), ":3: invalid event"),
    "distance with an exponent": (
        _framed(GOOD_HEADER, GOOD_CMD, b'{"t":"move","unit":"a","cm":"1E+999"}'),
        ":3: invalid event",
    ),
    "event not an object": (_framed(GOOD_HEADER, GOOD_CMD, b"[1,2]"), ":3: invalid event"),
    "event missing field": (_framed(GOOD_HEADER, GOOD_CMD, b'{"t":"note"}'), ":3: invalid event"),
    "non-utf8 line": (_framed(GOOD_HEADER, GOOD_CMD, b'{"t":"note","text":"caf\xe9"}', GOOD_CMD), ":3: invalid event"),
    "fact outside a command": (_framed(GOOD_HEADER, GOOD_NOTE, GOOD_CMD, GOOD_NOTE), "outside any command"),
    "command numbers out of order": (
        _framed(GOOD_HEADER, b'{"t":"cmd","cmd":5,"n":1,"by":"referee","text":"x"}', GOOD_NOTE),
        "out of order",
    ),
    "undo of nothing": (
        _framed(GOOD_HEADER, GOOD_CMD, GOOD_NOTE, b'{"t":"undo","cmd":7,"by":"referee"}', GOOD_CMD),
        "undo of command 7",
    ),
    "redo of nothing": (
        _framed(GOOD_HEADER, GOOD_CMD, GOOD_NOTE, b'{"t":"redo","cmd":1,"by":"referee"}'),
        "redo of command 1",
    ),
    "command cut by a marker": (
        _framed(
            GOOD_HEADER,
            b'{"t":"cmd","cmd":1,"n":3,"by":"referee","text":"x"}',
            GOOD_NOTE,
            b'{"t":"undo","cmd":1,"by":"r"}',
        ),
        "missing events",
    ),
    "line over the size limit": (_framed(GOOD_HEADER, GOOD_CMD) + b"0" * (MAX_LINE_BYTES + 10) + b"\n", "longer than"),
    "line over the size limit, last, no newline": (
        _framed(GOOD_HEADER, GOOD_CMD) + b"0" * (MAX_LINE_BYTES + 10),
        "longer than",
    ),
    "unknown ruleset": (
        _framed(
            b'{"fireteam":2,"ruleset":"chess","ruleset_version":"1","engine":"0","created":"x","seed":1}',
            GOOD_CMD,
            GOOD_NOTE,
        ),
        "unknown ruleset 'chess'",
    ),
    "unknown unit in a fact": (_framed(GOOD_HEADER, GOOD_CMD, b'{"t":"move","unit":"ghost","cm":3}'), ":3: .*ghost"),
    "reveal of an unknown secret": (
        _framed(GOOD_HEADER, GOOD_CMD, b'{"t":"reveal","key":"marker.9"}'),
        ":3: .*marker.9",
    ),
    "points for an unknown side": (
        _framed(GOOD_HEADER, GOOD_CMD, b'{"t":"dp","side":"nobody","points":1,"reason":"r"}'),
        ":3: .*nobody",
    ),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_malformed_input_gives_save_error_and_changes_nothing(tmp_path, case, collector_off):
    data, message = MALFORMED[case]
    path = tmp_path / "bad.ftlog"
    path.write_bytes(data)
    before = sha(path)
    for opener in (lambda p: Game.open(p, writable=False), lambda p: Game.open(p)):
        with pytest.raises(SaveError) as refused:
            opener(path)
        assert "bad.ftlog" in str(refused.value)
        assert re.search(message, str(refused.value)), str(refused.value)
        assert sha(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.ftlog"]


def test_a_missing_file_or_a_directory_gives_save_error(tmp_path):
    with pytest.raises(SaveError, match="no such save file"):
        Game.open(tmp_path / "nope.ftlog")
    with pytest.raises(SaveError, match="cannot read"):
        Game.open(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_fifo_or_a_device_is_refused_at_once_and_a_folder_as_open_refuses_it(tmp_path):
    """For reading or writing, a FIFO no process holds (a wait for its other end would hang
    here) and a device are refused word for word; a file opens blocking, as ``open``'s would."""
    fifo = tmp_path / "pipe.ft"
    os.mkfifo(fifo)
    for path in (fifo, Path(os.devnull)):
        for flags in (os.O_RDONLY, os.O_WRONLY | os.O_APPEND):
            with pytest.raises(SaveError) as refused:
                open_regular(path, flags)
            assert str(refused.value) == f"{path}: not a regular file (a pipe, a device or a socket): not a save"
    with pytest.raises(IsADirectoryError) as refused:
        open_regular(tmp_path)
    assert str(refused.value) == f"[Errno 21] Is a directory: '{tmp_path}'"  # as open(str(tmp_path)) says
    with open(open_regular(Path(__file__)), "rb") as f:
        assert os.get_blocking(f.fileno())  # the O_NONBLOCK that kept a FIFO from waiting, taken off


def test_a_new_save_never_overwrites(save):
    before = sha(save)
    with pytest.raises(SaveError, match="already exists"):
        Game.new(save, "breaking-news")
    assert sha(save) == before


def test_a_command_too_long_for_a_line_is_refused_and_writes_nothing(demo, monkeypatch):
    """A save must always load again: the writer refuses a record the reader would refuse.

    A command line is far shorter than a record may be (``core.commands.MAX_LINE``),
    so the writer's own limit is lowered here to reach it."""
    import core.storage.writer
    from core.ruleset import Refused

    size = demo.path.stat().st_size
    with pytest.raises(Refused, match="at most 2,000 characters") as no:
        demo.execute("note " + "x" * MAX_LINE_BYTES, role=REFEREE)
    names(no.value, TYPING)
    monkeypatch.setattr(core.storage.writer, "MAX_LINE_BYTES", 1000)
    with pytest.raises(Refused, match="too long") as no:
        demo.execute("note " + "x" * 1000, role=REFEREE)
    names(no.value, "ENG-4")
    assert demo.path.stat().st_size == size
    demo.execute("note " + "y" * 900, role=REFEREE)
    demo.close()
    assert Game.open(demo.path, writable=False).history.timeline()[-1] == ev.Noted(text="y" * 900)


def test_a_long_line_loads_the_same_wherever_the_read_chunks_fall(tmp_path, monkeypatch, collector_off):
    """The line limit holds for every line, not only one that straddles a read chunk."""
    import core.storage.savefile

    path = tmp_path / "long.ftlog"
    path.write_bytes(_framed(GOOD_HEADER, GOOD_CMD, b'{"t":"note","text":"%s"}' % (b"z" * (MAX_LINE_BYTES + 1))))
    for chunk in (8 << 20, 1 << 20, 4096):
        monkeypatch.setattr(core.storage.savefile, "_CHUNK", chunk)
        with pytest.raises(SaveError, match="longer than"):
            load(path)


def test_copying_a_save_elsewhere_loads_the_same(save, tmp_path):
    copy = tmp_path / "copy" / "game.ftlog"
    copy.parent.mkdir()
    shutil.copy(save, copy)
    assert builtins(Game.open(copy, writable=False).state) == builtins(Game.open(save, writable=False).state)


def test_a_non_utf8_header_gives_save_error(tmp_path):
    path = tmp_path / "latin1.ftlog"
    path.write_bytes(_framed(b'{"fireteam":1,"ruleset":"caf\xe9"}', GOOD_CMD, GOOD_NOTE))
    with pytest.raises(SaveError, match=r"latin1.ftlog:1: not a Fireteam save"):
        load(path)
