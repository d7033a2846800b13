"""What-if games (issue 16): ``fireteam fork SAVE --step N --save NEW``."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import msgspec
import pytest
from coretests_support import builtins, new_demo

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from core.secrets.verify import verify
from core.storage.decoding import Parent
from core.storage.errors import SaveError
from core.storage.fork import boundaries, fork
from core.storage.savefile import load
from tui.main import main as fireteam

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))
from recorded import SAVES  # noqa: E402


def facts(events: list[ev.Event]) -> list[dict]:
    """Events as data, less what a fork renumbers (command numbers, carried commands)."""
    out = []
    for e in events:
        data = msgspec.to_builtins(e)
        if isinstance(e, ev.Issued):
            data.pop("cmd"), data.pop("carries", None)
        out.append(data)
    return out


@pytest.fixture
def argued(tmp_path) -> Game:
    """A game whose log holds undos, a redo, an abandoned redo branch and a side's undo
    carried past the referee's hidden commands."""
    game = new_demo(tmp_path / "argued.ft")
    for line in ("next", "next", "dp regulars 5 building", "undo", "redo", "note one", "undo", "note two"):
        game.execute(line, role=REFEREE)
    game.execute("mark dahir pinned", role=REFEREE)  # dahir is hidden from the regulars
    return game


def test_a_fork_holds_the_effective_history_up_to_the_step(argued, tmp_path):
    original = argued.path
    before = (original.read_bytes(), os.stat(original).st_mtime_ns)
    bounds = boundaries(argued)
    step = bounds[-2]  # before the last command
    new = tmp_path / "whatif.ft"
    done = fork(original, step, new, seed=5)
    assert done.commands == len(bounds) - 2
    loaded = load(new)
    assert loaded.header.parent == Parent(
        path=os.path.abspath(original), sha256=hashlib.sha256(before[0]).hexdigest(), step=step
    )
    assert loaded.header.seed == 5 and loaded.header.ruleset == argued.header.ruleset
    forked = Game.open(new, writable=False)
    assert facts(forked.history.timeline()) == facts(argued.history.timeline(0, step))
    assert builtins(forked.state) == builtins(argued.timeline.state_at(step))
    # Only the effective history: no undo, no redo, no undone command, numbered afresh.
    stored = loaded.history.store.slice(0, len(loaded.history.store))
    assert not [e for e in stored if isinstance(e, ev.Undone | ev.Redone)]
    texts = [e.text for e in stored if isinstance(e, ev.Issued)]
    assert "note one" not in texts and texts.count("dp regulars 5 building") == 1 and "note two" in texts
    assert [e.cmd for e in stored if isinstance(e, ev.Issued)] == list(range(1, len(texts) + 1))
    # The original is untouched, though it is open and locked for writing meanwhile.
    assert (original.read_bytes(), os.stat(original).st_mtime_ns) == before
    assert argued.writable
    argued.execute("note still mine", role=REFEREE)


def test_a_fork_carries_a_sides_undo_as_the_table_stood(tmp_path):
    game = new_demo(tmp_path / "g.ft")
    game.execute("note hello", role="regulars")
    game.execute("mark dahir pinned", role=REFEREE)  # hidden from the regulars
    out = game.execute("undo", role="regulars")  # carries the referee's mark past the undo
    assert [e.carries for e in out.events if isinstance(e, ev.Issued)] == [3]
    new = tmp_path / "f.ft"
    fork(game.path, game.timeline.length, new)
    forked = Game.open(new, writable=False)
    assert builtins(forked.state) == builtins(game.state)
    assert "pinned" in forked.state.units["dahir"].status
    assert all(not isinstance(e, ev.Issued) or not e.carries for e in forked.history.timeline())
    game.close()


def test_a_fork_is_a_new_game_that_plays_on_and_keeps_its_secrets(tmp_path):
    new = tmp_path / "f.ft"
    game = Game.open(SAVES / "demo-game.ft", writable=False)
    step = boundaries(game)[12]
    fork(SAVES / "demo-game.ft", step, new)
    again = Game.open(new)
    try:
        assert again.state.secrets == game.timeline.state_at(step).secrets
        out = again.execute("note what if", role=REFEREE)
        assert out.cmd == 13
    finally:
        again.close()
    result = verify(new)
    assert result.ok and not result.ended and result.checks  # the commitments came along


def test_play_from_the_start_and_from_the_end(tmp_path):
    game = Game.open(SAVES / "ludonet-game.ft", writable=False)
    fork(game.path, 0, tmp_path / "zero.ft")
    assert Game.open(tmp_path / "zero.ft", writable=False).timeline.length == 0
    fork(game.path, game.timeline.length, tmp_path / "all.ft")
    assert builtins(Game.open(tmp_path / "all.ft", writable=False).state) == builtins(game.state)


def test_the_cli_forks_and_says_where_from(tmp_path, capsys):
    new = tmp_path / "f.ft"
    assert fireteam(["fork", str(SAVES / "demo-game.ft"), "--step", "0", "--save", str(new)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{new}: a what-if game from {SAVES / 'demo-game.ft'} at step 0 (0 commands")


@pytest.mark.parametrize("step", [-1, 10_000])
def test_a_step_out_of_range_is_refused(step, tmp_path, capsys):
    new = tmp_path / "f.ft"
    assert fireteam(["fork", str(SAVES / "demo-game.ft"), "--step", str(step), "--save", str(new)]) == 2
    total = Game.open(SAVES / "demo-game.ft", writable=False).timeline.length
    assert f"step {step} is out of range: this game has steps 0 to {total}" in capsys.readouterr().err
    assert not new.exists()


def test_a_step_inside_a_command_is_refused_with_the_steps_around_it(tmp_path):
    with pytest.raises(SaveError, match=r"step 3 is inside command #1 \('scenario demo', steps 0 to \d+\)"):
        fork(SAVES / "demo-game.ft", 3, tmp_path / "f.ft")
    assert not (tmp_path / "f.ft").exists()


def test_an_existing_file_is_never_overwritten(tmp_path, capsys):
    new = tmp_path / "f.ft"
    new.write_bytes(b"mine")
    assert fireteam(["fork", str(SAVES / "demo-game.ft"), "--step", "0", "--save", str(new)]) == 2
    assert "already exists" in capsys.readouterr().err and new.read_bytes() == b"mine"


def test_a_corrupt_parent_is_refused(tmp_path):
    bad = tmp_path / "bad.ft"
    lines = (SAVES / "demo-game.ft").read_bytes().splitlines(keepends=True)
    lines[40] = lines[40][:12] + (b"X" if lines[40][12:13] != b"X" else b"Y") + lines[40][13:]
    bad.write_bytes(b"".join(lines))
    with pytest.raises(SaveError, match=r"^cannot fork: .*bad\.ft:41: damaged record"):
        fork(bad, 0, tmp_path / "f.ft")
    assert not (tmp_path / "f.ft").exists()


def test_a_sides_copy_cannot_be_forked(tmp_path, capsys):
    copy = tmp_path / "copy.json"
    assert fireteam(["export", str(SAVES / "demo-game.ft"), "--as", "regulars", "-o", str(copy)]) == 0
    assert fireteam(["fork", str(copy), "--step", "0", "--save", str(tmp_path / "f.ft")]) == 2
    assert "a side's copy of a game (fireteam export) cannot be forked" in capsys.readouterr().err
