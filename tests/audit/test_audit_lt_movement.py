"""Audit of Linea di Tiro's movement (C.5) from the book alone: a bound of 10 cm and a
move at speed of three bounds (30 cm) unless the piece's data say otherwise, each at
its edge; which activations move; an immobilised piece does not move."""

from __future__ import annotations

import pytest
from audit_lt_table import add, moved, play, scenario_game
from playing import names

from core.ruleset import Refused

UNITS = (
    '[[units]]\nid = "p"\nname = "P"\nside = "us"\nteam = "A"\ncls = "{cls}"\n'
    '[[units]]\nid = "q"\nname = "Q"\nside = "german"\nteam = "B"\ncls = "{cls}"\n'
)


def _moves(g, option: str, cm: float) -> bool:
    """Whether the US piece ``p``, activated with ``option`` on a fresh US card, may move ``cm``."""
    play(g, "next")
    while g.state.active_side != "us":
        play(g, "next")
    play(g, f"@us activate p {option}" + (" prepare=0" if option == "A1" else ""))  # holds at most 2
    try:
        facts = play(g, f"@us move p {cm:g}")
    except Refused:
        return False
    assert moved(facts) == [cm]
    return True


@pytest.mark.audits("LT-R041", "LT-R040")
@pytest.mark.parametrize("option", ["A1", "A2"])
def test_a_bound_is_ten_cm(lt, option):
    add(lt, "p", "us", "rifles", team="A")
    assert not _moves(lt, option, 10.5)
    assert _moves(lt, option, 10)
    assert _moves(lt, option, 0)  # a turn on the spot


@pytest.mark.audits("LT-R042", "LT-AMB-29")
def test_a_move_at_speed_is_thirty_cm(lt):
    add(lt, "p", "us", "rifles", team="A")
    assert not _moves(lt, "A5", 30.5)
    assert _moves(lt, "A5", 30)


@pytest.mark.audits("LT-R040", "LT-R041", "LT-R042", "LT-AMB-29")
def test_the_pieces_own_bound_and_speed(lt):
    add(lt, "p", "us", "rifles", team="A", stats={"bound": 6, "speed": 15})
    assert not _moves(lt, "A1", 6.5)
    assert _moves(lt, "A1", 6)
    assert not _moves(lt, "A5", 15.5)
    assert _moves(lt, "A5", 15)


@pytest.mark.audits("LT-R042", "LT-AMB-29")
def test_speed_is_three_bounds_when_the_data_give_only_the_bound(tmp_path):
    """ "Speed movement is normally three times the bound": a profile with a 5 cm bound
    and no speed moves 15 cm at speed, not 30."""
    profile = '[[profiles]]\nid = "slow"\nname = "Slow"\nvehicle = false\nmorale = 3\nbound = 5\n'
    g = scenario_game(tmp_path, profile, UNITS.format(cls="slow"))
    assert not _moves(g, "A5", 15.5)
    assert _moves(g, "A5", 15)
    assert not _moves(g, "A1", 5.5)


@pytest.mark.audits("LT-R020", "LT-R041")
@pytest.mark.parametrize("option", ["A3", "A4", "A6", "A7"])
def test_only_a_bound_or_speed_moves_the_piece(lt, option):
    add(lt, "p", "us", "rifles", team="A", status=("immobilised",) if option == "A7" else ())
    add(lt, "car", "us", "sherman", team="B")
    if option == "A6":
        option = "A6 into=car"
    assert not _moves(lt, option, 1)


@pytest.mark.audits("LT-AMB-21")
@pytest.mark.parametrize("option", ["A1", "A2", "A5", "A6 into=car"])
def test_an_immobilised_piece_neither_moves_nor_mounts_until_a7(lt, option):
    add(lt, "p", "us", "rifles", team="A", status=("immobilised",))
    add(lt, "car", "us", "sherman", team="B")
    play(lt, "next")
    with pytest.raises(Refused) as no:
        play(lt, f"@us activate p {option}")
        # A1, A2 are carried out in part (LT-AMB-09): activated, the bound is what is refused
        play(lt, "@us move p 10")
    names(no.value, "LT-AMB-21")
    if option in ("A1", "A2"):
        play(lt, "next", "next")  # that card activated it: A7 on the next US card
    play(lt, "@us activate p A7")
    assert not lt.state.units["p"].has("immobilised")
    play(lt, "next", "next", f"@us activate p {option}")
    if option in ("A1", "A2"):
        assert moved(play(lt, "@us move p 10")) == [10]
