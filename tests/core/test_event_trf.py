"""An event exported as TRF16 and paired again by the engine's Free Pairings Checker (``core.event.trf``).

The day is made as an organiser makes it (keys by ``ssh-keygen``, every entry, drop and ruling
signed), its games certificates a seeded model decides (``tui.bench.event``: no save behind
them).  Eleven players, five rounds: a bye in each of the first three, a no-show, a double
no-show, a game unfinished at time and a drop, so the export writes every kind of result it
knows; a late entry apart, as the checker cannot take one (the last test shows why).
"""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path

import pytest

from core.event import eventfile, trf
from core.event.records import BOTH_LOSE, NO_SHOW, UNFINISHED, Played
from tui.bench.event import _given, modelled_game
from tui.bench.event_tables import club

pytestmark = pytest.mark.subprocess  # ssh-keygen makes the club's keys and signs


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _day(tmp_path_factory.mktemp("trf"), late=False)


def _day(folder: Path, late: bool) -> Path:
    league, org, names = club(folder, 12)
    path = folder / "day.event"
    eventfile.new(
        path, league, org, name="Day", system="swiss", rounds=5,
        ruleset="ludonet", scenario="tanks", minutes=0, bye=None, seeding="random",
    )  # fmt: skip
    for name in names[:11]:
        eventfile.enter(path, name, org)
    rng = random.Random(7)
    strength = {name: rng.gauss(0, 1) for name in names}
    n = 0
    for number in range(1, 6):
        event, _head = eventfile.pair(path)
        rnd = event.current
        assert rnd is not None and rnd.number == number
        for k, t in enumerate(rnd.tables):
            n += 1
            if (number, k) == (2, 0):  # one absent: a forfeit won and lost
                eventfile.rule(path, org, t.number, NO_SHOW, "late", absent=(t.b,))
            elif (number, k) == (3, 1):  # both absent
                eventfile.rule(path, org, t.number, NO_SHOW, "snow", absent=(t.a, t.b))
            elif (number, k) == (4, 0):
                eventfile.rule(path, org, t.number, UNFINISHED, "time", outcome=BOTH_LOSE)
            else:
                game = modelled_game(event, t, rng, strength, n)
                eventfile.append(path, partial(_given, Played(round=number, table=t.number, game=game)))
        if number == 1 and late:
            eventfile.enter(path, names[11], org)
        if number == 3:  # (the last table's first player but the late entry, whom the event's draw may put there)
            eventfile.drop(
                path, next(n for t in reversed(rnd.tables) for n in (t.a, t.b) if n != names[11]), "org", org
            )
    return path


def test_the_checker_pairs_every_round_of_the_export_as_the_engine_does_from_the_same_results(day):
    event = eventfile.load(day)
    assert [len(r.byes) for r in event.rounds] == [1, 1, 1, 0, 0]  # (eleven, then ten after the drop)
    checked = trf.cross_check(day)
    assert [c.round for c in checked] == [1, 2, 3, 4, 5]
    assert all(c.as_engine for c in checked), checked
    assert eventfile.rederive(day) == ([1, 2, 3, 4, 5], [])


def test_the_export_writes_each_result_as_trf16_says_it(day):
    event = eventfile.load(day)
    written = trf.players(event)
    codes = {(r, result["result"]) for p in written for r, result in p["results"].items()}
    assert {(2, "+"), (2, "-"), (3, "-"), (4, "0")} <= codes and {(1, "U"), (2, "U"), (3, "U")} <= codes
    dropped = next(p for p in written if event.player(p["name"]).dropped)
    assert sorted(dropped["results"]) == [1, 2, 3]
    assert [p["starting_number"] for p in written] == list(range(1, 12))
    text = trf.export(event)
    assert text.startswith("012 Day\n") and text.count("\n001 ") == 11


def test_a_late_entrys_rounds_before_it_are_left_blank(tmp_path):
    path = _day(tmp_path, late=True)
    late = next(p for p in trf.players(eventfile.load(path)) if p["name"] == "p11")
    assert 1 not in late["results"] and set(late["results"]) == {2, 3, 4, 5}


def test_the_checker_pairs_in_round_one_a_player_with_no_entry_for_it():
    """caissify-pairings 0.5.0's checker (fpc._build_engine_players) pairs in round 1 everyone with
    any result, where in every later round it pairs only those with an entry for the round: a
    late entry is paired in round 1 by the checker, not by the event.  Five players, the fifth
    entered in round 2: round 1 paired four, and the checker pairs all five in it."""
    from caissify_pairings.fpc import check_trf
    from caissify_pairings.trf import write_trf

    def results(*rounds: tuple[int, int | None, str, str]) -> dict[int, dict[str, object]]:
        return {r: {"opponent": o, "color": c, "result": res} for r, o, c, res in rounds}

    players = [
        {"starting_number": 1, "name": "a", "results": results((1, 3, "w", "1"), (2, 2, "b", "1"))},
        {"starting_number": 2, "name": "b", "results": results((1, 4, "b", "1"), (2, 1, "w", "0"))},
        {"starting_number": 3, "name": "c", "results": results((1, 1, "b", "0"), (2, 5, "w", "1"))},
        {"starting_number": 4, "name": "d", "results": results((1, 2, "w", "0"), (2, 5, "b", "0"))},
        {"starting_number": 5, "name": "e", "results": results((2, 3, "b", "0"))},
    ]
    players[3]["results"] = results((1, 2, "w", "0"), (2, None, "", "U"))
    round_one = check_trf(write_trf({"name": "Late"}, players, 2))["rounds"][0]
    assert {p["white"] for p in round_one["trf_pairings"]} | {p["black"] for p in round_one["trf_pairings"]} == {
        1,
        2,
        3,
        4,
    }
    assert any(5 in (p["white"], p["black"]) for p in round_one["engine_pairings"])  # the checker's defect
