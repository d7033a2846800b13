# ruff: noqa: F811  (pytest fixtures imported from linea_di_tiro_support)
"""Linea di Tiro spotting (C.4) and movement (C.5): the referee types the measured
distance and the core decides; hidden pieces stay hidden from the other side."""

from __future__ import annotations

import pytest
from linea_di_tiro_support import game, inject, piece, play, rolls  # noqa: F401  (fixtures)
from playing import names, refused

from core.language.i18n import plain
from core.log import events as ev
from core.refusal import TYPING
from core.ruleset import Refused
from core.rulesets.linea_di_tiro import rules
from core.rulesets.linea_di_tiro.rules import spotting


def test_spotting_distances():
    """Rules: LT-R032."""
    assert spotting.distance("infantry", "bound", 0, False, False) == 20
    assert spotting.distance("infantry", "bound", 2, False, False) == 80  # fired twice: x4 (LT-R033)
    assert spotting.distance("infantry", "bound", 2, True, False) == 40  # seen from a vehicle: halved (LT-R034)
    assert spotting.distance("infantry", "bound", 2, True, True) == 80  # a recon vehicle sees in full
    assert spotting.distance("infantry", "ambush", 0, True, False) == 2.5
    assert spotting.distance("vehicle", "moving-open", 3, True, False) is None  # ∞ stays ∞
    assert spotting.distance("infantry", "ambush", 50, False, False) == 5 * 2**6  # doublings counted up to 6
    with pytest.raises(ValueError, match="no spotting distance for vehicle ambush"):
        spotting.distance("vehicle", "ambush", 0, False, False)
    assert spotting.spotted(20, 20.0) and not spotting.spotted(21, 20.0) and spotting.spotted(900, None)


def test_move_allowance():
    """Rules: LT-R040."""
    assert rules.move_allowance("A1", 10, 30) == ("bound", 10)
    assert rules.move_allowance("A5", 10, 30) == ("speed", 30)
    with pytest.raises(Refused, match="does not move") as no:
        rules.move_allowance("A4", 10, 30)
    names(no.value, "LT-R040")


def test_the_hidden_gun_is_spotted_within_its_distance(game):
    """Rules: LT-R032, LT-AMB-11."""
    play(game, "next")
    facts = play(game, "spot pak by=gis at=21 state=still-cover")  # a vehicle still in cover: 20 cm
    assert facts[0].vis == ("referee",)
    assert "pak" not in game.view("us").units
    assert not [ln for ln in game.log_lines("us") if "Pak" in ln.text]
    play(game, "spot pak by=gis at=20 state=still-cover")
    assert "pak" in game.view("us").units
    assert game.log_lines("us")[-1].text == (
        "note: GIs, first half spots Pak 40 at 20 cm: vehicle stationary in cover; spotted within 20 cm"
    )
    refused(game, "spot pak by=sherman1 at=1 state=still-cover", "already spotted", rule="LT-R030")


def test_a_tank_sees_half_as_far_and_a_recon_car_in_full(game):
    """Rules: LT-R001, LT-R034."""
    inject(game, piece("scout", "us", "sherman", roles=("recon",)))
    play(game, "next")
    play(game, "spot pak by=sherman1 at=11 state=still-cover")
    assert "pak" not in game.view("us").units
    refused(
        game, "spot pak by=scout at=11 state=ambush", "its state is one of", rule="LT-R032"
    )  # a gun is not infantry in ambush
    play(game, "spot pak by=scout at=20 state=still-cover")
    assert "pak" in game.view("us").units


def test_firing_doubles_the_distance_until_a_bound(game):
    """Rules: LT-R033, LT-AMB-12."""
    inject(game, piece("sniper", "german", "grenadiers", team="Zug 2", status=("hidden",)))
    play(game, "next", "next", "next", "next")  # 3♣: german
    play(game, "@german activate sniper A2")
    play(game, "@german mg sniper gis defence=still-open dice=6")
    assert game.state.units["sniper"].has("fired-1")
    assert "fired-1" not in str(game.view("us").units)  # the hidden piece's badges stay hidden
    play(game, "spot sniper by=gis at=21 state=still-cover")  # 10 cm doubled once: 20
    assert "sniper" not in game.view("us").units
    play(game, "@german move sniper 10")  # the bound repositions it
    assert not game.state.units["sniper"].has("fired-1")
    assert "sniper" not in game.view("us").units
    assert not [ln for ln in game.log_lines("us") if "Sniper" in ln.text]
    play(game, "spot sniper by=gis at=11 state=still-cover")
    assert "sniper" not in game.view("us").units
    play(game, "spot sniper by=gis at=10 state=still-cover")
    assert "sniper" in game.view("us").units


def test_a_spotted_piece_replies_at_its_first_spotter(game):
    """Rules: LT-R053."""
    play(game, "next", "next", "@german activate pak A1")  # Q♠: the hidden gun prepares an attack
    play(game, "next", "next", "next")  # Joker, 3♣, K♦: us
    play(game, "spot pak by=sherman1 at=10 state=still-cover")  # 20 halved from a tank: 10
    assert "pak" in game.view("us").units
    assert any("may fire a ready attack at once at Sherman Easy" in ln.text for ln in game.log_lines("german"))
    refused(game, "@german at pak sherman2 ambush", "only at the first enemy that spotted it", rule="LT-R053")
    # 7 - 5 = +2; 4 + 3 - 1 = 6 → T
    facts = play(game, "@german at pak sherman1 ambush dice=4,3")
    r = rolls(facts)[0]
    assert [m.value for m in r.mods] == [-1] and plain(r.outcome) == "modified total 6, column +2: T: morale test"
    assert not game.state.units["pak"].has("ready-1")
    refused(game, "@german at pak sherman1 ambush", "no ambush to fire", rule="LT-R053")  # spent


def test_movement_checked_against_the_typed_distance(game):
    """Rules: LT-R040, LT-R041, LT-R042, LT-AMB-09, LT-AMB-29."""
    play(game, "next")  # 7♥
    refused(game, "@us move gis 5", "not activated on this card", rule="LT-R020")
    play(game, "@us activate gis A5")
    refused(game, "@us move gis 31", "move at speed is at most 30 cm", rule="LT-R042")
    facts = play(game, "@us move gis 30")
    assert [(e.cm, plain(e.how)) for e in facts if isinstance(e, ev.Moved)] == [(30, "at speed")]
    refused(game, "@us move gis 1", "already moved", rule="LT-R020")
    play(game, "next", "next", "next", "next", "@us activate sherman1 A4")  # K♦
    refused(game, "@us move sherman1 5", "A4 does not move", rule="LT-R040")
    play(game, "@us activate sherman2 A1")
    refused(game, "@us move sherman2 11", "bound is at most 10 cm", rule="LT-R041")
    play(game, "@us move sherman2 0")  # a turn on the spot


def test_a6_mounts_a_piece_on_foot_and_dismounts_one_aboard(game):
    """C.3 LT-R020, A6: the in-vehicle badge and the aboard variable follow the option.
    Rules: LT-AMB-30."""
    play(game, "next")  # 7♥: the Americans
    refused(game, "@us activate gis A6", "into=VEHICLE", rule="LT-R020")
    refused(game, "@us activate gis A5 into=sherman1", "not A5", rule=TYPING)
    play(game, "@us activate gis A6 into=sherman1")
    assert game.state.units["gis"].has("in-vehicle")
    assert game.state.vars["aboard.gis"] == "sherman1"
    play(game, "next", "next", "next", "next")  # K♦: an American platoon
    refused(game, "@us activate gis A6 into=sherman2", "is aboard", rule="LT-R020")
    play(game, "@us activate gis A6")
    assert not game.state.units["gis"].has("in-vehicle")
    assert game.state.vars["aboard.gis"] == ""
