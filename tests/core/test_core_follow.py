# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""A read-only copy of a game follows its save while the one writer appends (``Game.follow``)."""

from __future__ import annotations

import pytest
from coretests_support import builtins, demo  # noqa: F401  (fixtures)

from core.game import Game
from core.log import events as ev
from core.log.outcome import Outcome
from core.log.views import REFEREE
from core.storage.errors import SaveError


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
    copy.subscribe(lambda outcome: heard.append((outcome.cmd, type(outcome.events[0]).__name__)), role=REFEREE)
    demo.execute("dp regulars 3 turn 1", role=REFEREE)
    first = demo.execute('note "smoke drifts north"', role=REFEREE)
    demo.execute("undo", role=REFEREE)
    demo.execute("redo", role=REFEREE)
    demo.execute("next", role=REFEREE)
    outcomes = copy.follow(demo.saved_bytes)
    assert builtins(copy.state) == builtins(demo.state)
    for role in ("referee", "regulars", "irregulars", "spectator"):
        assert [ln.text for ln in copy.log_lines(role)] == [ln.text for ln in demo.log_lines(role)]
    assert copy.undoing.undo_preview(role="referee") == demo.undoing.undo_preview(role="referee")
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


def test_a_listener_hears_only_what_its_role_may_see_and_of_a_hidden_change_nothing(demo):
    """Issues #59, #60: a listener is told a change as its role may know it, the events it may
    see in its own words, and a command, undo or redo it may not see calls nothing (a seat could
    tell from the call alone that something happened).  The writer and a copy that follows it
    tell alike (the copy a command or marker at a time)."""
    copy = _copy(demo)
    roles = ("referee", "regulars", "irregulars", "spectator")
    heard: dict[tuple[int, str], list[Outcome]] = {}
    for game in (demo, copy):
        for role in roles:
            game.subscribe(heard.setdefault((id(game), role), []).append, role=role)
    start = demo.log_length
    mine = demo.execute('note "mine"', role="regulars", by="reg")
    demo.execute("mark dahir pinned", role=REFEREE)  # the irregulars' hidden fighter
    demo.execute("undo", role=REFEREE)
    demo.execute("redo", role=REFEREE)
    carried = demo.execute("undo", role="regulars", by="reg")  # carries the referee's mark past it
    copy.follow(demo.saved_bytes)
    for game in (demo, copy):
        for role in roles:
            told = heard[id(game), role]
            seen = demo.log_lines(role, start)
            assert [e for o in told for e in o.events] == [line.event for line in seen], role
            if role in ("regulars", "spectator"):  # the note, and the undo of it: never the mark
                assert [o.cmd for o in told] == [mine.cmd, mine.cmd], role
            if role != REFEREE:  # (the referee is told the outcome itself)
                assert [text for o in told for text in o.lines] == [line.text for line in seen], role
    assert heard[id(demo), REFEREE][-1] == carried


def test_a_side_is_told_of_a_change_it_sees_none_of_that_takes_a_piece_out_of_its_sight(demo):
    """The referee's ``mark farah hidden`` is a fact only the irregulars may see, yet Aden Farah
    leaves the regulars' view (a marker takes his place): their listeners are told, with no
    event, and as he comes back with the undo; the writer and a copy that follows it alike
    (a copy that reads both at once, not at all)."""
    copy = _copy(demo)
    heard: dict[int, list[Outcome]] = {}
    for game in (demo, copy):
        game.subscribe(heard.setdefault(id(game), []).append, role="regulars")
    hidden = demo.execute("mark farah hidden", role=REFEREE)
    copy.follow(demo.saved_bytes)
    assert "aden" not in copy.view("regulars").units
    demo.execute("undo", role=REFEREE)
    copy.follow(demo.saved_bytes)
    assert "aden" in copy.view("regulars").units
    for game in (demo, copy):
        assert heard[id(game)] == [Outcome(hidden.cmd, [], []), Outcome(hidden.cmd, [], [])]
    demo.execute("mark farah hidden", role=REFEREE)
    demo.execute("undo", role=REFEREE)
    copy.follow(demo.saved_bytes)  # both at once: the regulars' view is as it was
    assert len(heard[id(copy)]) == 2


def test_a_side_s_listener_is_told_its_events_in_its_own_words_not_the_referee_s(demo):
    """Issue #77: a side's listener given its events worded as for the referee was a slip no test
    held (the events it may see were right, their words not).  After the referee's hidden mark the
    regulars number their commands one fewer: their undo names their note #2, the referee's #3."""
    heard: list[Outcome] = []
    demo.subscribe(heard.append, role="regulars")
    start = demo.log_length
    demo.execute("mark dahir pinned", role=REFEREE)  # the irregulars' hidden fighter: not the regulars' to see
    demo.execute('note "mine"', role="regulars", by="reg")
    demo.execute("undo", role="regulars", by="reg")
    told = [text for o in heard for text in o.lines]
    assert told == [line.text for line in demo.log_lines("regulars", start)]
    assert told[-1] == '↶ reg undid command #2: note "mine"'
    assert demo.log_lines(REFEREE, start)[-1].text == '↶ reg undid command #3: note "mine"'
