"""An event's tables as games (``core.event.tables``, issue #92): each table's save names its
players by their club keys before any roll; a save that is not the table's is refused; a game is
added by itself only once a player of each side confirmed it at his own seat."""

from __future__ import annotations

import pytest

from core.event import eventfile
from core.event import tables as event_tables
from core.event.records import Played
from core.event.state import NotAllowed
from core.game import Game
from core.league import season
from core.log import events as ev
from core.log.views import REFEREE
from tests.core.eventclub import Club, make_club
from tests.shared.club import confirm_at

pytestmark = pytest.mark.subprocess  # ssh-keygen makes the club's keys and signs


@pytest.fixture
def club(tmp_path) -> Club:
    return make_club(tmp_path)


def first_table(club: Club):
    path = club.event()
    event, _head = eventfile.pair(path)
    return path, event, event_tables.seatings(path, event)[0]


def test_a_tables_save_names_its_players_by_their_keys_before_any_roll(club):
    path, event, seating = first_table(club)
    t = event.current.table(1)
    assert seating.name == "day-r1-t1" and seating.save == club.folder / "day-tables" / "day-r1-t1.ft"
    game = event_tables.open_game(event, seating)
    try:
        facts = game.history.timeline()
        seated = [(e.side, e.name, e.key, e.via) for e in facts if type(e) is ev.Seated]
        assert seated == [
            ("british", t.a, event.player(t.a).key, "key"),
            ("german", t.b, event.player(t.b).key, "key"),
        ]
        assert not any(type(e) is ev.Rolled for e in facts)
    finally:
        game.close()
    again = event_tables.open_game(event, seating)  # the server started again: the same save, its players
    again.close()


def test_a_save_put_in_a_tables_place_is_refused_naming_its_players(club):
    path, event, seating = first_table(club)
    t = event.current.table(1)
    seating.save.parent.mkdir()
    game = Game.new(seating.save, "ludonet", seed=1)
    game.execute("scenario tanks", role=REFEREE)
    game.execute(f"players british={t.b} german={t.a}", role=REFEREE)  # the sides the other way round
    game.close()
    before = seating.save.read_bytes()
    with pytest.raises(NotAllowed, match=f"not table 1's game of round 1: it names british={t.b}, german={t.a}"):
        event_tables.open_game(event, seating)
    assert seating.save.read_bytes() == before


def test_a_game_is_added_by_itself_once_each_side_confirmed_at_its_own_seat(club):
    path, event, seating = first_table(club)
    t = event.current.table(1)
    game = event_tables.open_game(event, seating)
    try:
        for line in ("next", "victory german held"):
            game.execute(line, role=REFEREE)
        assert not event_tables.confirmed(game)
    finally:
        game.close()
    confirm_at(seating.save, "german", t.b)
    with pytest.raises(NotAllowed, match="table 1: british did not confirm at a seat bound to their player"):
        event_tables.finish(path, seating, club.org)
    assert eventfile.load(path).current.table(1).game is None and not season.load(club.league).games
    confirm_at(seating.save, "british", t.a)
    reopened = Game.open(seating.save, writable=False)
    assert event_tables.confirmed(reopened)
    reopened.close()
    event, _head = event_tables.finish(path, seating, club.org)
    assert event.current.table(1).results(("british", "german")) == {t.a: "loss", t.b: "win"}
    league = season.load(club.league)
    assert len(league.games) == 1 and league.games[0].level == "confirmed by both players"
    records = eventfile.read(path)[0].records
    assert sum(isinstance(r, Played) for r in records) == 1  # a certified game: no result typed anywhere
    with pytest.raises(NotAllowed, match="has ended already"):
        event_tables.finish(path, seating, club.org)  # twice: the table has its game
