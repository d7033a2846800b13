"""Whether a Swiss round can be paired whole, asked before the engine is (issue #92).

``caissify_pairings``'s Dutch, given a round it cannot pair whole, searches every pairing of the
field as its last resort, and that search does not end at 30 players and more: a day of 64 whose
drops left no pairing with every player's sides within one never paired its next round.  So the
event asks first (``pairing.pairable``), by the engine's own absolute criteria, with the sides rule
and then without it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.event import pairing
from core.event.state import NotAllowed

DATA = Path(__file__).parent.parent / "data" / "event"


def _player(n: int, colours: list[str], score: float = 1.0, byes: int = 0, forfeits: int = 0) -> dict[str, Any]:
    return {
        "id": n,
        "name": f"p{n}",
        "score": score,
        "rating": 1500,
        "starting_number": n,
        "color_hist": colours,
        "float_history": ["none"] * len(colours),
        "bye_count": byes,
        "forfeit_win_count": forfeits,
    }


def _round(players: list[dict[str, Any]], met: set[tuple[int, int]], number: int = 2, rounds: int = 4) -> dict:
    return {
        "system": "dutch",
        "players": players,
        "previous_pairings": met,
        "round_number": number,
        "total_rounds": rounds,
    }


W, B = pairing.WHITE, pairing.BLACK


def test_four_players_pair_where_the_two_games_left_are_allowed():
    # 1 and 3 played their first game on the first side, 2 and 4 on the second: the sides rule
    # gives the engine 1-3 and 2-4 as met, beside the games played (1-2, 3-4); 1-4 and 2-3 remain
    players = [_player(1, [W]), _player(2, [B]), _player(3, [W]), _player(4, [B])]
    assert pairing.pairable(_round(players, {(1, 2), (3, 4), (1, 3), (2, 4)}))
    assert not pairing.pairable(_round(players, {(1, 2), (3, 4), (1, 3), (2, 4), (1, 4)}))


def test_an_odd_field_pairs_with_the_bye_to_a_player_who_had_none():
    players = [_player(1, [W], byes=0), _player(2, [], byes=1), _player(3, [B])]
    # 1 met 3: 2 (who had the bye) must play one of them and the other take the bye
    assert pairing.pairable(_round(players, {(1, 3)}))
    # 1 met both: he takes the bye, 2 plays 3
    assert pairing.pairable(_round(players, {(1, 3), (1, 2)}))
    # 2 met both, and had the bye: he can be neither paired nor given it
    assert not pairing.pairable(_round(players, {(1, 2), (2, 3)}))
    alone = [_player(1, [W], byes=1, forfeits=0), _player(2, [B], forfeits=1), _player(3, [W], byes=1)]
    # nobody may have the bye: the engine then gives it to anyone, so the round still pairs
    assert pairing.pairable(_round(alone, set()))


@pytest.mark.parametrize(
    ("a", "b", "last", "expected"),
    [
        ([W, W], [W, W], False, False),  # both would play a side a third time in a row
        ([W, W], [B, B], False, True),
        ([W, B], [W, B], False, True),
        ([W, W], [W, W], True, True),  # the last round: a top scorer may (score 2.0 > 1.5)
    ],
)
def test_a_side_a_third_time_in_a_row_is_never_given_but_to_a_top_scorer_in_the_last_round(a, b, last, expected):
    players = [_player(1, a, score=2.0), _player(2, b, score=2.0)]
    assert pairing.pairable(_round(players, set(), number=3, rounds=3 if last else 5)) is expected


def test_round_one_and_a_round_robin_are_always_pairable():
    assert pairing.pairable(_round([_player(1, []), _player(2, [])], {(1, 2)}, number=1))
    robin = _round([_player(1, [W]), _player(2, [B])], {(1, 2)})
    assert pairing.pairable({**robin, "system": "round_robin"})


def test_a_round_without_a_pairing_in_sides_is_never_given_to_the_engine(monkeypatch):
    """The round that never paired: the bench's 64-player day before round 2, two players of the
    second side dropped (59 in play, 847 pairs the sides rule or a game forbids)."""
    stuck = json.loads((DATA / "round_without_a_pairing_in_sides.json").read_text())
    assert not pairing.pairable(stuck)
    free = {**stuck, "previous_pairings": []}
    given: list[dict] = []
    monkeypatch.setattr(pairing, "engine_input", lambda _e, _n, balanced=True: stuck if balanced else free)
    monkeypatch.setattr(pairing, "run_engine", lambda arguments: given.append(arguments) or [{"white_id": 1}])
    assert pairing._boards(None, 2) == [{"white_id": 1}]  # type: ignore[arg-type]
    assert given == [free]


def test_a_round_no_pairing_allows_is_refused_at_once(monkeypatch):
    players = [_player(1, [W]), _player(2, [B])]
    closed = _round(players, {(1, 2)})
    monkeypatch.setattr(pairing, "engine_input", lambda _e, _n, balanced=True: closed)
    monkeypatch.setattr(pairing, "run_engine", lambda arguments: pytest.fail("the engine was asked"))
    with pytest.raises(NotAllowed, match="no pairing of round 2 exists"):
        pairing._boards(None, 2)  # type: ignore[arg-type]
