"""Linea di Tiro, third held-out audit: every status a piece can carry into its card crossed
with what the card lets it do (C.3 A1-A7, C.6 fire, C.9 assault): immobilised (C.7 "I";
LT-AMB-21), fled under this card (C.8, "chi scappa non spara!"), aboard a vehicle (C.3 A6,
LT-AMB-30), and, for a tank, owing the morale test of a T (C.6, LT-AMB-17)."""

from __future__ import annotations

import pytest
from audit_lt_table import add, allowed, game_with, has, immobilised, play, refused, turned


def _status_game(tmp_path, status: str):
    """The GIs on a US card with ``status``, activated with A2 (where the status allows it)."""
    g = turned(tmp_path, ["7♥", "8♥"])
    if status == "immobilised":
        add(g, "p", "us", "rifles", team="2nd Platoon", status=("immobilised",))
        play(g, "@us activate p A2")
    elif status == "fled":
        add(g, "p", "us", "rifles", team="2nd Platoon")
        play(g, "@us activate p A2", "@us rout p")
    elif status == "aboard":
        add(g, "p", "us", "bazooka-team", team="2nd Platoon")
        play(g, "@us activate p A6 into=sherman1", "next", "@us activate p A2")
    return g


# (status, command, allowed, the rule a refusal names): C.3, C.7.1, C.8, C.9 and the digest's LT-AMB-21/30
MATRIX = [
    ("immobilised", "@us move p 10", False, "LT-AMB-21"),  # LT-AMB-21: it cannot move
    ("immobilised", "@us move p 0", False, "LT-AMB-21"),  # nor turn on the spot: a bound is a move
    ("immobilised", "@us mg p grenadiers still-open dice=6", True, None),  # it may still fire
    ("immobilised", "@us melee p grenadiers front dice=6,1", False, "LT-AMB-21"),  # no contact without a move
    ("fled", "@us move p 10", False, "LT-R080"),  # LT-R080: the flight was its move
    ("fled", "@us mg p grenadiers still-open dice=6", False, "LT-R051"),  # LT-R051
    ("fled", "@us melee p grenadiers front dice=6,1", False, "LT-R051"),
    ("aboard", "@us move p 10", False, "LT-R020"),  # LT-AMB-30: it moves with its vehicle
    ("aboard", "@us closeassault p panzer rear dice=6", False, "LT-R020"),
    ("aboard", "@us melee p grenadiers front dice=6,1", False, "LT-R020"),
]


@pytest.mark.audits("LT-R020", "LT-R051", "LT-R080", "LT-AMB-21", "LT-AMB-30")
@pytest.mark.parametrize(("status", "command", "ok", "rule"), MATRIX)
def test_a_status_against_what_the_card_allows(tmp_path, status, command, ok, rule):
    g = _status_game(tmp_path, status)
    allowed(g, command, ok, rule)


@pytest.mark.audits("LT-R020", "LT-AMB-21")
@pytest.mark.parametrize("option", ["A3", "A4", "A7"])
def test_an_immobilised_piece_takes_the_options_that_make_no_move(tmp_path, option):
    """A3, A4 and A7 move nothing: an immobilised piece takes each (A7 to recover)."""
    g = immobilised(tmp_path, "p")
    play(g, "next", f"@us activate p {option}")
    assert has(g, "p", "immobilised") is (option != "A7")


@pytest.mark.audits("LT-R020", "LT-AMB-30")
def test_a_piece_aboard_dismounts_with_a6_and_then_fights_on_a_later_card(tmp_path):
    """A6 gets it off; on the next card, on foot, the bazooka team may close assault."""
    g = game_with(tmp_path, ["7♥", "8♥", "9♥"])
    add(g, "p", "us", "bazooka-team", team="2nd Platoon")
    play(g, "next", "@us activate p A6 into=sherman1", "next", "@us activate p A6")
    assert not has(g, "p", "in-vehicle")
    play(g, "next", "@us activate p A2", "@us closeassault p panzer rear dice=6")


@pytest.mark.audits("LT-R051", "LT-R050c", "LT-AMB-17")
@pytest.mark.parametrize(
    ("option", "command"),
    [
        ("A2", "@us move sherman1 10"),
        ("A4 prepare=0", "@us at sherman1 panzer dice=6,6"),
        ("A2", "@us overrun sherman1 grenadiers open"),
    ],
)
def test_a_tank_owing_a_test_neither_moves_fires_nor_overruns(tmp_path, option, command):
    """The Sherman fires first; the Panzer's ready reply is a T (6 - 3 flank = +3, 7): until
    its test the Sherman makes no bound, no second attack of A4 and no overrun; steady
    (a 1), it does."""
    g = turned(tmp_path, ["3♣", "7♥"], "@german activate panzer A1", "next", f"@us activate sherman1 {option}")
    play(g, "@us at sherman1 panzer dice=6,6", "@german at panzer sherman1 ready flank dice=6,1")
    refused(g, command, rule="LT-R051")
    play(g, "morale sherman1 dice=1", command)
