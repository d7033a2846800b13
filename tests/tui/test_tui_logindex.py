import pytest
from skirmish import game_fixture  # noqa: F401  (a fixture)

from core.log import events as ev
from core.log.views import REFEREE
from tui.logindex import FilteredIndex, LogFilter, RowIndex, windows


def test_referee_rows_are_file_positions(game):
    index = RowIndex(game, "referee")
    assert index.rows() == game.log_length  # the test ruleset keeps no inner variable
    assert index.position(5) == 5


def test_a_side_never_gets_rows_for_events_hidden_from_it(game):
    blue = RowIndex(game, "blue")
    lines = [game.log_lines("blue", p, p + 1) for p in blue.positions]
    assert all(len(found) == 1 for found in lines)  # every row is a line the side may read
    hidden = {"omar", "yusuf"}  # the hidden fighters
    for (line,) in lines:
        if isinstance(line.event, ev.UnitAdded):
            assert line.event.unit.id not in hidden
    assert blue.rows() == len(game.log_lines("blue"))
    assert blue.rows() < game.log_length


def test_rows_follow_the_game_and_stop_at_a_limit(game):
    index = RowIndex(game, "red")
    before = index.rows()
    game.execute("note the market is busy", role=REFEREE)
    index.extend()
    assert index.rows() == before + 2  # the command marker and the note
    assert index.rows(limit=index.position(3)) == 3


@pytest.mark.long
def test_filter_by_kind_unit_side_and_words(game):
    game.execute("next", role=REFEREE)
    game.execute("next", role=REFEREE)  # initiative: two rolls
    game.execute("mark ivan suppressed", role=REFEREE)

    def rows(text):
        flt = LogFilter.parse(text)
        units = {uid: u.side for uid, u in game.state.units.items()}
        index = FilteredIndex(game, "referee", flt, lambda u: units.get(u, ""))
        index.extend()
        return [game.log_lines("referee", index.position(r), index.position(r) + 1)[0] for r in range(index.rows())]

    rolls = rows("kind:roll")
    assert [type(r.event) for r in rolls] == [ev.Rolled, ev.Rolled]
    assert [r.text for r in rows("unit:ivan kind:status")] == ["Ivan Petrov now suppressed"]
    game.execute("shoot cole ivan 20", role=REFEREE)
    assert [r.event.roll.purpose for r in rows("kind:roll side:bl")] == ["fire at Ivan Petrov"]
    assert [r.event.text for r in rows("kind:cmd suppressed")] == ["mark ivan suppressed"]
    assert LogFilter.parse("unit:ivan kind:roll smoke").describe() == "unit:ivan kind:roll smoke"
    assert not LogFilter.parse("  ")


def test_windows_both_ways():
    assert list(windows(0, 10, 4)) == [(0, 4), (4, 8), (8, 10)]
    assert list(windows(10, 0, 4)) == [(6, 10), (2, 6), (0, 2)]
