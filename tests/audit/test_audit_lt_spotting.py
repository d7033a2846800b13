"""Audit of Linea di Tiro's visibility and spotting (C.4) from the book alone: each
row of the spotting table at its distance and just beyond, the doubling after each
shot until a bound, the halving for vehicle observers other than recon vehicles, and
that only a spotted piece may be attacked."""

from __future__ import annotations

import pytest
from audit_lt_table import ALTERNATE, add, game_with, play, refused, said

from core.refusal import TYPING

#: LT-R032: (target is a vehicle, state) -> spotted within this many cm.
BOOK_ROWS = {
    (True, "still-open"): 50,
    (False, "moving-open"): 50,
    (False, "bound"): 20,
    (True, "still-cover"): 20,
    (False, "still-cover"): 10,
    (False, "ambush"): 5,
}


def _game(tmp_path, vehicle: bool, observer_cls: str = "rifles", roles=(), shots: int = 0, name: str = "s.ft"):
    g = game_with(tmp_path, ALTERNATE, name)
    status = ("hidden", *(f"fired-{shots}",) * bool(shots))
    add(g, "hid", "german", "pz4" if vehicle else "rifles", team="Y", status=status)
    add(g, "obs", "us", observer_cls, team="X", roles=roles)
    play(g, "next")
    return g


def _spots(g, cm: float, state: str) -> bool:
    play(g, f"spot hid by=obs at={cm:g} state={state}")
    return "hid" in g.view("us").units


@pytest.mark.audits("LT-R032", "LT-R030")
@pytest.mark.parametrize(("vehicle", "state"), list(BOOK_ROWS))
def test_each_row_spots_within_its_distance_and_not_beyond(tmp_path, vehicle, state):
    cm = BOOK_ROWS[vehicle, state]
    g = _game(tmp_path, vehicle)
    assert "hid" not in g.view("us").units  # not on the table until spotted (LT-R030)
    assert not _spots(g, cm + 0.5, state)
    assert _spots(g, cm, state)


@pytest.mark.audits("LT-R032")
def test_a_vehicle_moving_in_the_open_is_always_spotted(tmp_path):
    g = _game(tmp_path, True)
    assert _spots(g, 1000, "moving-open")


@pytest.mark.audits("LT-R034")
def test_halved_for_a_vehicle_observer_but_not_a_recon_vehicle(tmp_path):
    g = _game(tmp_path, False, "sherman")
    assert not _spots(g, 25.5, "moving-open")  # 50 / 2
    assert _spots(g, 25, "moving-open")
    g = _game(tmp_path, False, "sherman", roles=("recon",), name="r.ft")
    assert _spots(g, 50, "moving-open")
    g = _game(tmp_path, False, "sherman", roles=("recon",), name="r2.ft")
    assert not _spots(g, 50.5, "moving-open")
    g = _game(tmp_path, False, "pak40", name="gun.ft")  # a large gun is a vehicle ("mezzo") too
    assert not _spots(g, 25.5, "moving-open")
    g = _game(tmp_path, True, "sherman", name="v.ft")
    assert _spots(g, 1000, "moving-open")  # infinity halved is still infinity


@pytest.mark.audits("LT-R033", "LT-AMB-12")
@pytest.mark.parametrize("shots", [1, 2, 3])
def test_each_shot_doubles_the_distance_of_a_piece_not_yet_spotted(tmp_path, shots):
    g = _game(tmp_path, False, shots=shots)
    edge = 5 * 2**shots
    assert not _spots(g, edge + 0.5, "ambush")
    assert _spots(g, edge, "ambush")


@pytest.mark.audits("LT-R033", "LT-R034")
def test_doubling_and_halving_together(tmp_path):
    g = _game(tmp_path, True, "sherman", shots=1)  # 20 x 2 / 2
    assert not _spots(g, 20.5, "still-cover")
    assert _spots(g, 20, "still-cover")


@pytest.mark.audits("LT-R033", "LT-AMB-12")
def test_firing_while_hidden_doubles_and_a_bound_repositions(lt):
    """The piece fires (unspotted), so it is seen twice as far; a bound stops it."""
    add(lt, "target", "us", "sherman", team="X", stats={"front": 9, "side": 9})
    add(lt, "obs", "us", "rifles", team="X2")
    add(lt, "hid", "german", "rifles", team="Y", status=("hidden",), stats={"at": 3})
    play(lt, "next", "next", "@german activate hid A2")
    play(lt, "@german at hid target dice=6,6")
    play(lt, "spot hid by=obs at=10.5 state=ambush")
    assert "hid" not in lt.view("us").units
    play(lt, "@german move hid 0")  # the bound (a turn on the spot) repositions it
    play(lt, "spot hid by=obs at=5.5 state=ambush")
    assert "hid" not in lt.view("us").units
    play(lt, "spot hid by=obs at=5 state=ambush")
    assert "hid" in lt.view("us").units


@pytest.mark.audits("LT-R033")
def test_one_shot_is_seen_at_twice_the_distance(lt):
    add(lt, "target", "us", "sherman", team="X", stats={"front": 9, "side": 9})
    add(lt, "obs", "us", "rifles", team="X2")
    add(lt, "hid", "german", "rifles", team="Y", status=("hidden",), stats={"at": 3})
    play(lt, "next", "next", "@german activate hid A2", "@german at hid target dice=6,6")
    facts = play(lt, "spot hid by=obs at=10 state=ambush")
    assert "hid" in lt.view("us").units, said(facts)


@pytest.mark.audits("LT-R030", "LT-AMB-28")
def test_only_a_visible_piece_may_be_attacked(lt):
    add(lt, "gun", "us", "sherman", team="X", stats={"at": 6, "mg": 3})
    add(lt, "hid", "german", "pz4", team="Y", status=("hidden",), stats={"front": 5})
    play(lt, "next", "@us activate gun A4 prepare=0")
    # to the US seat the hidden piece is no unit at all; the referee is told why (LT-R030)
    for line in ("@us at gun hid dice=1,1", "@us mg gun hid dice=1"):
        refused(lt, line, rule=TYPING)
    refused(lt, "at gun hid dice=1,1", rule="LT-R030")
    play(lt, "spot hid by=gun at=20 state=still-cover")  # 20 from a vehicle: halved to 10, not spotted
    refused(lt, "@us at gun hid dice=1,1", rule=TYPING)
    play(lt, "spot hid by=gun at=10 state=still-cover", "@us at gun hid dice=1,1")
