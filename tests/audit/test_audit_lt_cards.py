"""Audit of Linea di Tiro's pieces, cards and activation (C.1-C.3) from the book alone:
the 54-card deck, which side each card moves, number cards (aces included) against
face cards and jokers, the reshuffle when 10 cards are left, the seven activation
options, prepared attacks, mounting, and the end of the game."""

from __future__ import annotations

import pytest
from audit_lt_table import ALTERNATE, add, game_with, has, inject, play, refused, said, scenario_game

from core.language.i18n import plain
from core.log import events as ev
from core.ruleset import Refused
from core.rulesets.linea_di_tiro.tables import deck

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _card(facts) -> tuple[str, str]:
    began = next(e for e in facts if isinstance(e, ev.PhaseBegan))
    return began.card, began.active


@pytest.mark.audits("LT-R002")
def test_the_deck_is_54_cards_with_two_jokers(lt):
    cards = deck().cards()
    assert sorted(cards) == sorted([r + s for s in "♥♦♠♣" for r in RANKS] + ["Joker", "Joker"])
    drawn = [_card(play(lt, "next"))[0] for _ in range(44)]
    assert len(set(drawn) - {"Joker"}) + drawn.count("Joker") == 44


@pytest.mark.audits("LT-R010", "LT-AMB-06")
def test_each_card_names_its_side(tmp_path):
    """Hearts/diamonds: the Allied player; spades/clubs: the Axis; a joker: neither."""
    first = ["A♦", "J♣", "Joker", "10♠", "K♥", "Q♦", "A♠", "2♥"]
    g = game_with(tmp_path, first)
    seen = [_card(play(g, "next")) for _ in first]
    assert seen == [
        ("A♦", "us"),
        ("J♣", "german"),
        ("Joker", ""),
        ("10♠", "german"),
        ("K♥", "us"),
        ("Q♦", "us"),
        ("A♠", "german"),
        ("2♥", "us"),
    ]


@pytest.mark.audits("LT-R010", "LT-AMB-06", "LT-AMB-04")
def test_a_number_card_activates_one_piece_a_face_card_one_platoon_a_joker_none(tmp_path):
    g = game_with(tmp_path, ["A♦", "J♦", "Joker", "3♣"])
    for uid, team in (("a", "P1"), ("b", "P1"), ("c", "P2")):
        add(g, uid, "us", "rifles", team=team)
    add(g, "x", "german", "rifles", team="G")
    play(g, "next")  # an ace is a number card: one piece
    play(g, "@us activate a A5")
    refused(g, "@us activate b A5", rule="LT-R010")
    refused(g, "@german activate x A5", rule="LT-R010")  # the other side's card
    play(g, "next")  # a face card: every piece of one platoon, once each
    play(g, "@us activate a A5", "@us activate b A5")
    refused(g, "@us activate a A3", rule="LT-R010")
    refused(g, "@us activate c A5", rule="LT-R010")  # another platoon
    play(g, "next")  # the joker
    for line in ("@us activate c A5", "@german activate x A5", "activate c A5"):
        refused(g, line, rule="LT-AMB-05")


@pytest.mark.audits("LT-R011", "LT-AMB-03")
def test_the_discards_are_shuffled_when_ten_cards_are_left_and_go_under_them(lt):
    order = [_card(play(lt, "next"))[0] for _ in range(43)]
    facts = play(lt, "next")  # the 44th: 10 are left
    order.append(_card(facts)[0])
    assert "LT-R011" in said(facts)
    rest = [_card(play(lt, "next"))[0] for _ in range(10)]  # the 10 still come first
    assert sorted(order + rest) == sorted(deck().cards())
    again = [_card(play(lt, "next"))[0] for _ in range(33)]
    assert all(c in order for c in again) and not any(c in rest for c in again if c != "Joker")
    facts = play(lt, "next")  # 44 after the reshuffle: 10 left again
    assert "LT-R011" in said(facts)


@pytest.mark.audits("LT-R011", "LT-AMB-03")
def test_no_reshuffle_with_eleven_left(lt):
    notes = [said(play(lt, "next")) for _ in range(43)]
    assert not any("LT-R011" in n for n in notes)


def _options_game(tmp_path, status=(), name: str = "o.ft"):
    g = game_with(tmp_path, ALTERNATE, name)
    add(g, "p", "us", "rifles", team="X", status=status, stats={"mg": 3, "at": 0})
    add(g, "car", "us", "sherman", team="Z")
    add(g, "e", "german", "rifles", team="Y")
    play(g, "next")
    return g


g = pytest.fixture(_options_game, name="g")


def _shots(g) -> int:
    """How many attacks ``p`` executes before one is refused."""
    n = 0
    while n < 4:
        try:
            play(g, "@us mg p e defence=entrenched dice=6")
        except Refused:
            return n
        n += 1
    return n


@pytest.mark.audits("LT-R020", "LT-AMB-09", "LT-AMB-08")
@pytest.mark.parametrize(
    ("option", "ready", "shots"),
    [
        ("A1", 1, 0),  # bound and prepare
        ("A2", 0, 1),  # bound and execute
        ("A3", 1, 1),  # execute and prepare
        ("A4", 2, 0),  # prepare 2
        ("A4 prepare=1", 1, 1),  # prepare 1, execute 1
        ("A4 prepare=0", 0, 2),  # execute 2
        ("A1 prepare=0", 0, 0),  # even partially
        ("A5", 0, 0),  # full speed
    ],
)
def test_the_seven_options_prepare_and_execute_what_the_book_says(g, option, ready, shots):
    play(g, f"@us activate p {option}")
    assert (has(g, "p", "ready-1"), has(g, "p", "ready-2")) == (ready == 1, ready == 2)
    assert _shots(g) == shots


@pytest.mark.audits("LT-R020", "LT-AMB-08")
def test_at_most_two_prepared_attacks_kept_across_cards(g):
    play(g, "@us activate p A1", "next", "next")
    assert has(g, "p", "ready-1")  # kept until used
    play(g, "@us activate p A1")
    assert has(g, "p", "ready-2")
    play(g, "next", "next")
    refused(g, "@us activate p A1", rule="LT-AMB-08")
    play(g, "@us activate p A1 prepare=0")


@pytest.mark.audits("LT-R020", "LT-AMB-30")
def test_a6_mounts_and_dismounts_infantry(g):
    play(g, "@us activate p A6 into=car")
    assert has(g, "p", "in-vehicle")
    play(g, "next", "next", "@us activate p A6")
    assert not has(g, "p", "in-vehicle")


@pytest.mark.audits("LT-R020")
def test_a6_is_for_infantry_and_guns_not_tanks(g):
    """A6: "mount or dismount on/from vehicles (infantry and artillery)"."""
    add(g, "tank", "us", "sherman", team="Z2", stats={"front": 5})
    refused(g, "@us activate tank A6 into=car", rule="LT-R020")


@pytest.mark.audits("LT-R020", "LT-AMB-21")
def test_a7_removes_an_immobilisation_and_only_that(tmp_path):
    g = _options_game(tmp_path)
    refused(g, "@us activate p A7", rule="LT-R020")
    g = _options_game(tmp_path, status=("immobilised",), name="i.ft")
    play(g, "@us activate p A7")
    assert not has(g, "p", "immobilised") and _shots(g) == 0


@pytest.mark.audits("LT-R001")
def test_a_gun_is_spotted_as_a_vehicle_and_a_half_squad_as_infantry(lt):
    """Tanks and large guns are vehicles: a vehicle stationary in cover is spotted at 20 cm,
    infantry stationary in cover at 10."""
    add(lt, "obs", "us", "rifles", team="X")
    add(lt, "gun", "german", "pak40", team="Y", status=("hidden",))
    add(lt, "inf", "german", "rifles", team="Y2", status=("hidden",))
    play(lt, "next", "spot gun by=obs at=15 state=still-cover", "spot inf by=obs at=15 state=still-cover")
    assert "gun" in lt.view("us").units and "inf" not in lt.view("us").units


@pytest.mark.audits("LT-AMB-32")
def test_the_referee_records_the_result_and_the_scenarios_length_ends_the_draws(tmp_path):
    g = game_with(tmp_path, ALTERNATE)
    play(g, "next")
    facts = play(g, "result us the hamlet is taken")
    ended = [e for e in facts if isinstance(e, ev.GameEnded)]
    assert ended and plain(ended[0].result).startswith("US 2nd Armored win: the hamlet is taken")
    g = game_with(tmp_path, ALTERNATE, "t.ft")
    inject(g, ev.VarSet(key="turns", value=2))  # the scenario's length, in cards
    play(g, "next", "next")
    refused(g, "next", rule="LT-AMB-32")


@pytest.mark.audits("LT-R001")
def test_a_small_gun_is_spotted_as_infantry(tmp_path):
    """C.1: only tanks and large guns are "mezzi"; a small gun is infantry: stationary in
    cover it is spotted within 10 cm, not 20."""
    profiles = (
        '[[profiles]]\nid = "pak36"\nname = "Pak 36"\nvehicle = false\nmorale = 3\nat = 4\n'
        '[[profiles]]\nid = "rifles"\nname = "Rifles"\nvehicle = false\nmorale = 3\n'
    )
    units = (
        '[[units]]\nid = "obs"\nname = "Obs"\nside = "us"\nteam = "A"\ncls = "rifles"\n'
        '[[units]]\nid = "gun"\nname = "Gun"\nside = "german"\nteam = "B"\nkind = "gun"\ncls = "pak36"\n'
        'status = ["hidden"]\n'
    )
    g = scenario_game(tmp_path, profiles, units)
    play(g, "next", "spot gun by=obs at=10.5 state=still-cover")
    assert "gun" not in g.view("us").units
    play(g, "spot gun by=obs at=10 state=still-cover")
    assert "gun" in g.view("us").units
