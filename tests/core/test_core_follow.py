# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""A read-only copy of a game follows its save while the one writer appends (``Game.follow``)."""

from __future__ import annotations

import pytest
from coretests_support import builtins, demo  # noqa: F401  (fixtures)

from core import events as ev
from core.game import Game
from core.storage.savefile import SaveError
from core.views import REFEREE


def _copy(game: Game) -> Game:
    return Game.open(game.path, writable=False)


def test_saved_bytes_is_the_file_size_after_every_append(demo):
    assert demo.saved_bytes == demo.path.stat().st_size
    demo.execute('note "one"', role=REFEREE)
    demo.execute("undo", role=REFEREE)
    assert demo.saved_bytes == demo.path.stat().st_size
    assert _copy(demo).saved_bytes == demo.path.stat().st_size


def test_a_copy_that_follows_the_writer_holds_the_same_game(demo):
    copy = _copy(demo)
    heard: list[tuple[int, str]] = []
    copy.subscribe(lambda outcome: heard.append((outcome.cmd, type(outcome.events[0]).__name__)))
    demo.execute("dp regulars 3 turn 1", role=REFEREE)
    first = demo.execute('note "smoke drifts north"', role=REFEREE)
    demo.execute("undo", role=REFEREE)
    demo.execute("redo", role=REFEREE)
    demo.execute("next", role=REFEREE)
    outcomes = copy.follow(demo.saved_bytes)
    assert builtins(copy.state) == builtins(demo.state)
    for role in ("referee", "regulars", "irregulars", "spectator"):
        assert [ln.text for ln in copy.log_lines(role)] == [ln.text for ln in demo.log_lines(role)]
    assert copy.undo_preview(role="referee") == demo.undo_preview(role="referee")
    # One outcome per command or marker, in file order, each heard once.
    assert [o.cmd for o in outcomes] == [first.cmd - 1, first.cmd, first.cmd, first.cmd, first.cmd + 1]
    assert heard == [(first.cmd - 1, "Issued"), (first.cmd, "Issued"), (first.cmd, "Undone"), (first.cmd, "Redone"),
                     (first.cmd + 1, "Issued")]  # fmt: skip
    assert outcomes[1].lines[-1] == demo.describe(first.events[-1], role="referee")


def test_news_of_a_size_already_held_changes_nothing(demo):
    copy = _copy(demo)
    demo.execute('note "one"', role=REFEREE)
    size = demo.saved_bytes
    assert len(copy.follow(size)) == 1
    assert copy.follow(size) == []
    assert copy.follow(size - 10) == []
    assert copy.saved_bytes == size and copy.log_length == demo.log_length


def test_a_copy_opened_mid_game_follows_from_where_it_loaded(demo):
    demo.execute('note "before"', role=REFEREE)
    copy = _copy(demo)
    demo.execute('note "after"', role=REFEREE)
    (outcome,) = copy.follow(demo.saved_bytes)
    assert isinstance(outcome.events[-1], ev.Noted) and outcome.events[-1].text == "after"
    assert builtins(copy.state) == builtins(demo.state)


def test_damaged_new_bytes_are_refused_with_their_line(demo):
    copy = _copy(demo)
    before = demo.log_length
    demo.execute('note "one"', role=REFEREE)
    data = bytearray(demo.path.read_bytes())
    data[-5] ^= 0x01  # inside the note's JSON: its checksum no longer holds
    demo.path.write_bytes(bytes(data))
    with pytest.raises(SaveError, match=rf":{before + 3}: damaged record"):
        copy.follow(demo.saved_bytes)


def test_a_size_that_cuts_a_record_is_refused(demo):
    copy = _copy(demo)
    demo.execute('note "one"', role=REFEREE)
    with pytest.raises(SaveError, match="not whole records"):
        copy.follow(demo.saved_bytes - 3)
    with pytest.raises(SaveError, match="not whole records"):
        copy.follow(demo.saved_bytes + 100)  # beyond the end of the file
