"""A side's copy as a file (``core/secrets/sidecopy.py``): written new and synced, never
over another file; read as hostile input, each refusal in its words (issue #33: these
tests kill the mutants that survived)."""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from contextlib import closing
from pathlib import Path

import msgspec
import pytest
from coretests_support import tiny_chunks

import core.log.events
import core.log.history
from core.game import Game
from core.log.views import REFEREE
from core.secrets import sidecopy
from core.storage.errors import SaveError

SAVES = Path(__file__).resolve().parents[2] / "saves"


@pytest.fixture(scope="module")
def demo_copy() -> sidecopy.SideCopy:
    with closing(Game.open(SAVES / "demo-game.ft", writable=False)) as game:
        return sidecopy.export(game, "regulars")


def _refusal(call, *args) -> str:
    with pytest.raises(SaveError) as refused:
        call(*args)
    return str(refused.value)


def _written(tmp_path: Path, data: dict | bytes, name: str = "copy.json") -> Path:
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode())
    return path


def _data(copy: sidecopy.SideCopy) -> dict:
    return json.loads(msgspec.json.encode(copy))


# ---------------------------------------------------------------------- writing


def test_a_copy_is_written_new_its_owners_only(demo_copy, tmp_path):
    before = os.umask(0o022)
    try:
        sidecopy.write(demo_copy, tmp_path / "copy.json")
    finally:
        os.umask(before)
    path = tmp_path / "copy.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # it names what its side saw: no other account reads it
    assert path.read_bytes() == msgspec.json.encode(demo_copy) + b"\n"
    assert sidecopy.looks_like_side_copy(path) and not sidecopy.looks_like_side_copy(SAVES / "demo-game.ft")
    assert not sidecopy.looks_like_side_copy(tmp_path / "missing.json")


def test_a_copy_never_overwrites_a_file_nor_goes_where_it_cannot(demo_copy, tmp_path):
    taken = _written(tmp_path, b"mine")
    said = _refusal(sidecopy.write, demo_copy, taken)
    assert said == f"{taken}: already exists; choose another name with -o (files are never overwritten)"
    assert taken.read_bytes() == b"mine"
    nowhere = tmp_path / "no-such-folder" / "copy.json"
    said = _refusal(sidecopy.write, demo_copy, nowhere)
    assert said == f"{nowhere}: cannot create: No such file or directory; choose another place with -o"


@pytest.mark.parametrize("vanished", [False, True])
def test_a_copy_that_cannot_be_written_whole_is_not_left_behind(demo_copy, tmp_path, monkeypatch, vanished):
    path = tmp_path / "copy.json"

    def full(fd):
        if vanished:
            path.unlink()  # someone tidied the folder meanwhile: still the disk's error, not a crash
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    assert _refusal(sidecopy.write, demo_copy, path) == f"{path}: cannot write: No space left on device"
    assert not path.exists()


def test_a_copy_larger_than_any_copy_can_be_is_not_written(demo_copy, tmp_path, monkeypatch):
    size = len(msgspec.json.encode(demo_copy) + b"\n")
    monkeypatch.setattr(sidecopy, "MAX_COPY_BYTES", size)
    sidecopy.write(demo_copy, tmp_path / "at-the-bound.json")  # exactly the limit: written, and reads back
    assert sidecopy.read(tmp_path / "at-the-bound.json") == demo_copy
    monkeypatch.setattr(sidecopy, "MAX_COPY_BYTES", size - 1)
    over = tmp_path / "over.json"
    said = _refusal(sidecopy.write, demo_copy, over)
    assert said == f"{over}: {size} bytes is larger than a copy can be ({size - 1} bytes)"
    assert not over.exists()  # refused before a file is made


# ---------------------------------------------------------------------- reading


def test_a_copy_larger_than_any_copy_can_be_is_refused_before_it_is_read(demo_copy, tmp_path, monkeypatch):
    sidecopy.write(demo_copy, tmp_path / "copy.json")
    path = tmp_path / "copy.json"
    size = path.stat().st_size
    monkeypatch.setattr(sidecopy, "MAX_COPY_BYTES", size)
    assert sidecopy.read(path) == demo_copy  # exactly the limit: read
    monkeypatch.setattr(sidecopy, "MAX_COPY_BYTES", size - 1)
    assert _refusal(sidecopy.read, path) == f"{path}: {size} bytes is larger than a copy can be ({size - 1} bytes)"


def test_a_copy_that_is_not_there_or_not_a_file(tmp_path):
    missing = tmp_path / "missing.json"
    assert _refusal(sidecopy.read, missing) == f"{missing}: no such file; check the name"
    assert _refusal(sidecopy.read, tmp_path) == f"{tmp_path}: cannot read: Is a directory"


def test_a_copy_that_is_not_json_of_a_copy(demo_copy, tmp_path):
    bad_steps = json.dumps({**_data(demo_copy), "steps": "x"}).encode()
    for data in (b"\xff\xfe not text", b'{"fireteam_copy": 1}', bad_steps):
        path = _written(tmp_path, data)
        with pytest.raises(msgspec.DecodeError) as decoding:  # ValidationError is one
            msgspec.json.decode(data, type=sidecopy.SideCopy)
        assert _refusal(sidecopy.read, path) == f"{path}: not a valid side's copy of a game: {decoding.value}"


@pytest.mark.parametrize("version", [0, 2])
def test_a_copy_in_another_format_is_refused(demo_copy, tmp_path, version):
    path = _written(tmp_path, {**_data(demo_copy), "fireteam_copy": version})
    assert _refusal(sidecopy.read, path) == f"{path}: a side's copy in format {version}; this Fireteam reads format 1"


def test_a_copys_steps_must_rise_within_the_game(demo_copy, tmp_path):
    data = _data(demo_copy)
    events = data["events"]
    first, second = events[0][0], events[1][0]
    events[1][0] = first  # the same step twice
    path = _written(tmp_path, data)
    said = f"{path}: step {first} out of order (after {first}, of {demo_copy.steps}): the copy is damaged"
    assert _refusal(sidecopy.read, path) == said
    events[1][0] = second
    events[-1][0] = demo_copy.steps + 1
    path = _written(tmp_path, data, "past.json")
    last = events[-2][0]
    said = f"{path}: step {demo_copy.steps + 1} out of order (after {last}, of {demo_copy.steps}): the copy is damaged"
    assert _refusal(sidecopy.read, path) == said
    # What the role came to see may share a step, never go back, and is a piece or a secret.
    assert demo_copy.seen, "the recorded demo's regulars come to see hidden militiamen"
    data = _data(demo_copy)
    data["seen"].append([data["seen"][-1][0], data["seen"][-1][1]])
    assert sidecopy.read(_written(tmp_path, data, "again.json")).seen[-1] == demo_copy.seen[-1]
    data["seen"].append([data["seen"][0][0] - 1, data["seen"][0][1]])
    path = _written(tmp_path, data, "back.json")
    step = data["seen"][-1][0]
    said = f"{path}: the set-up seen at step {step} is out of order or not a piece or a secret: the copy is damaged"
    assert _refusal(sidecopy.read, path) == said


# ---------------------------------------------------------------------- opening


def test_a_copy_opens_as_its_roles_game_without_a_seed(demo_copy, tmp_path):
    sidecopy.write(demo_copy, tmp_path / "copy.json")
    path = tmp_path / "copy.json"
    game = Game.open(SAVES / "demo-game.ft", writable=False)
    header, seen = game.header, [line.text for line in game.log_lines("regulars")]
    game.close()
    # the store reads its chunks back from the copy's own JSON
    with tiny_chunks(), closing(sidecopy.open_to_read(path)) as opened:
        assert opened.header == msgspec.structs.replace(header, seed=0)
        assert (opened.path, opened.copy_role, opened.writable) == (path, "regulars", False)
        shown = [line.text for line in opened.log_lines("regulars")]
        assert shown[:5] == seen[:5] and shown[-3:] == seen[-3:]
    full = sidecopy.open_to_read(SAVES / "demo-game.ft")
    assert full.copy_role == "" and not full.writable
    full.close()


def test_a_copy_of_an_unknown_ruleset_is_refused(demo_copy, tmp_path):
    data = _data(demo_copy)
    data["header"]["ruleset"] = "no-such-rules"
    path = _written(tmp_path, data)
    assert _refusal(sidecopy.open_copy, path).startswith(f"{path}: unknown ruleset 'no-such-rules' (known: ")


def test_a_copy_of_a_variant_opens_with_its_variant(tmp_path):
    game = Game.new(tmp_path / "it.ft", "breaking-news", "it-2009-12-09", seed=3)
    game.execute("scenario demo", role=REFEREE)
    sidecopy.write(sidecopy.export(game, "regulars"), tmp_path / "copy.json")
    game.close()
    opened = sidecopy.open_copy(tmp_path / "copy.json")
    assert opened.header.variant == "it-2009-12-09" and opened.ruleset.variant == "it-2009-12-09"
    opened.close()


def test_a_copy_whose_commands_no_history_takes_is_refused_in_words(demo_copy, tmp_path, monkeypatch):
    path = tmp_path / "copy.json"
    sidecopy.write(demo_copy, path)
    monkeypatch.setattr(core.log.history, "MAX_COMMAND_EVENTS", 1)  # the scenario's command holds more
    said = _refusal(sidecopy.open_copy, path)
    assert re.fullmatch(
        rf"{re.escape(str(path))}: not a side's copy of a game: event \d+: command claims \d+ facts \(from 0 to 1\)",
        said,
    )


def test_facts_of_a_command_the_copy_lacks_go_under_a_bare_referee_line(demo_copy):
    """A hand-made or older copy: facts whose command line is missing go under a command
    line with no author and no words, and a kept command line carries nothing."""
    (_step, issued), *rest = demo_copy.events
    assert type(issued) is core.log.events.Issued and issued.n > 0
    facts = rest[: issued.n]
    later = [
        (step, msgspec.structs.replace(e, carries=3) if type(e) is core.log.events.Issued else e)
        for step, e in rest[issued.n :]
    ]
    older = msgspec.structs.replace(demo_copy, events=[*facts, *later])
    out = sidecopy.commands(older)
    assert out[0] == core.log.events.Issued(cmd=1, n=len(facts), by="", text="", vis=sidecopy.REFEREE_ONLY)
    assert out[1 : 1 + len(facts)] == [e for _step, e in facts]
    kept = [e for e in out if type(e) is core.log.events.Issued][1:]
    assert kept and all(e.carries == 0 for e in kept)


# ---------------------------------------------------------------------- what a side came to see

HIDDEN = ("red",)  # what only the red side (and the referee) may see


def _table_with_hidden_pieces() -> list[core.log.events.Event]:
    """Red's pieces and plan set up out of blue's sight; then facts blue sees naming some of them."""
    E = core.log.events
    return [
        E.GameSetUp(scenario="ambush", sides=(E.SideSpec("blue", "Blue"), E.SideSpec("red", "Red"))),
        E.UnitAdded(unit=E.UnitSpec("XXXX", "Never Seen", "red", status=("hidden",)), vis=HIDDEN),
        E.UnitAdded(
            unit=E.UnitSpec("kit", "Kit Vane", "red", cls="scout", status=("hidden",), stats={"morale": 4}), vis=HIDDEN
        ),
        E.SecretSet(key="objective.red", owner="red", value="the bridge", salt="5" * 32, vis=HIDDEN),
        E.Issued(cmd=1, n=1, by="ref", text="note dawn"),  # no piece named
        E.Noted(text="dawn"),
        E.Issued(cmd=2, n=2, by="blue", text="spot kit"),
        E.Spotted(unit="kit", by_side="blue"),
        E.Moved(unit="kit", cm=3),  # a second fact naming the same piece
        E.Issued(cmd=3, n=1, by="ref", text="reveal objective.red"),
        E.Revealed(key="objective.red", value="the bridge", salt="5" * 32),
        E.Issued(cmd=4, n=1, by="ref", text="reveal objective.red"),  # told twice (a hand-made save)
        E.Revealed(key="objective.red", value="the bridge", salt="5" * 32),
    ]


def test_a_side_comes_to_see_each_hidden_piece_and_secret_once_as_it_was_set_up():
    """Blue's copy holds what later facts it saw name: the piece as it was set up (its numbers
    too), and the secret, each once however often they are named; never a piece no fact it saw
    names (an event without a piece names none, whatever its id)."""
    E = core.log.events
    timeline = _table_with_hidden_pieces()
    kit = E.UnitSpec("kit", "Kit Vane", "red", cls="scout", status=("hidden",), stats={"morale": 4})
    plan = E.SecretSet(key="objective.red", owner="red", value="the bridge", salt="5" * 32, vis=sidecopy.REFEREE_ONLY)
    assert sidecopy._seen_later(timeline, "blue") == [
        (8, E.UnitAdded(unit=kit, vis=sidecopy.REFEREE_ONLY)),
        (11, plan),
    ]
    assert sidecopy._seen_later(timeline, "red") == []  # red saw them set up


def test_the_demos_copy_names_each_piece_and_secret_its_side_came_to_see_once(demo_copy):
    with closing(Game.open(SAVES / "demo-game.ft", writable=False)) as game:
        state = game.state
        came = [
            (type(e).__name__, e.unit.id if type(e) is core.log.events.UnitAdded else e.key) for _s, e in demo_copy.seen
        ]
        assert len(came) == len(set(came)) == 10  # dahir is named three times, egal thirteen
        assert came[:2] == [("UnitAdded", "dahir"), ("UnitAdded", "egal")]
        for _step, e in demo_copy.seen:
            if type(e) is core.log.events.UnitAdded:
                u = state.units[e.unit.id]
                assert (e.unit.name, e.unit.side, e.unit.cls, e.unit.stats) == (u.name, u.side, u.cls, u.stats)
            else:
                assert e.value == state.secrets[e.key].value


def test_a_copy_read_while_it_grows_is_read_as_it_was_when_its_size_was_checked(demo_copy, tmp_path, monkeypatch):
    """Never more than the size checked against the limit: a file that grows meanwhile (another
    program writing to it) cannot make the reader take more than a copy can be."""
    path = tmp_path / "copy.json"
    sidecopy.write(demo_copy, path)
    fstat = os.fstat

    def growing(fd):
        size = fstat(fd)
        with open(path, "ab") as more:
            more.write(b" and much more" * 1000)
        return size

    def opened(where):  # (the file's kind is checked as it opens: it grows only after)
        fd = open_regular(where)
        monkeypatch.setattr(sidecopy.os, "fstat", growing)
        return fd

    open_regular = sidecopy.open_regular
    monkeypatch.setattr(sidecopy, "open_regular", opened)
    assert sidecopy.read(path) == demo_copy


def test_a_set_up_seen_from_the_start_is_read(demo_copy, tmp_path):
    """Step 0: before the copy's first event (a hand-made copy may say so)."""
    data = _data(demo_copy)
    data["seen"][0][0] = 0
    assert sidecopy.read(_written(tmp_path, data)).seen[0] == (0, demo_copy.seen[0][1])


@pytest.mark.parametrize("marker", [core.log.events.Undone, core.log.events.Redone])
def test_an_undo_or_redo_in_a_hand_made_copy_is_passed_over(demo_copy, marker):
    """An effective history holds none; the commands around it are kept as they are."""
    events = demo_copy.events
    at = next(i for i, (_s, e) in enumerate(events) if type(e) is core.log.events.Issued and i > 0)
    step = events[at - 1][0]  # beside the last fact of the command before (a hand-made copy's steps need not rise)
    hostile = msgspec.structs.replace(demo_copy, events=[*events[:at], (step, marker(cmd=1, by="x")), *events[at:]])
    assert sidecopy.commands(hostile) == sidecopy.commands(demo_copy)


def test_an_older_copy_folds_every_fact_about_what_it_holds(demo_copy, tmp_path):
    """A copy made before it kept what its side came to see (``seen`` empty): the facts naming a
    hidden piece it never saw set up are passed over one by one, and every other fact is folded,
    so its own pieces and the sides' scores end as in the game."""
    path = _written(tmp_path, {**_data(demo_copy), "seen": []})
    opened = sidecopy.open_copy(path)
    game = Game.open(SAVES / "demo-game.ft", writable=False)
    try:
        mine, theirs = opened.state, game.state
        assert "dahir" not in mine.units and "egal" not in mine.units
        regulars = [uid for uid, u in theirs.units.items() if u.side == "regulars"]
        assert regulars
        for uid in regulars:
            a, b = mine.units[uid], theirs.units[uid]
            assert (a.status, a.out, a.moved_cm, a.spotted_by) == (b.status, b.out, b.moved_cm, b.spotted_by), uid
        assert {s: (x.defeat_points, x.dp_by_category) for s, x in mine.sides.items()} == {
            s: (x.defeat_points, x.dp_by_category) for s, x in theirs.sides.items()
        }
        assert (mine.turn, mine.phase, mine.result) == (theirs.turn, theirs.phase, theirs.result)
    finally:
        opened.close()
        game.close()


def test_a_copy_holding_a_number_no_game_counts_to_is_refused_not_a_crash(demo_copy, tmp_path, capsys):
    """A hand-made copy whose moves add up past what a state can be copied with: refused in words
    as it is read (as a save's numbers are), not a traceback when its replay is shown."""
    from core.log.recordint import MAX_RECORD_INT
    from tui.main import main as fireteam

    data = _data(demo_copy)
    steps = data["steps"]
    huge = 2**64 - 1
    data["events"] += [
        [steps + 1, {"t": "cmd", "cmd": 999, "n": 2, "by": "x", "text": "move"}],
        [steps + 2, {"t": "move", "unit": "rossi", "cm": huge}],
        [steps + 3, {"t": "move", "unit": "rossi", "cm": huge}],
    ]
    data["steps"] = steps + 3
    path = _written(tmp_path, data)
    first = len(data["events"]) - 2
    said = (
        f"{path}: not a valid side's copy of a game: Expected `int` <= {MAX_RECORD_INT} - at `$.events[{first}][1].cm`"
    )
    assert _refusal(sidecopy.read, path) == said
    assert fireteam(["replay", str(path), "--json"]) == 2
    assert said in capsys.readouterr().err
    data["events"][-1][1]["cm"] = data["events"][-2][1]["cm"] = MAX_RECORD_INT  # within the bound: read
    assert sidecopy.read(_written(tmp_path, data, "within.json")).steps == steps + 3
