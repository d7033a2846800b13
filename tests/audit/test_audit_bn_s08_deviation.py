"""Audit of Breaking News §8.0.2 (missed area shots), §8.0.3 (ammunition) and §8.1 (group
fire), written from the rulebook and its digest alone: T-11, FIRE-11, FIRE-12, FIRE-13, EX-03
and what ACT-3 applies (a group's fire is one action)."""

from __future__ import annotations

import pytest
from audit_bn_early import new_game, play, refused, rolls, status, table
from audit_bn_early import notes as deviation_note

from core.log.views import REFEREE

g = table()
#: The Irregulars active.
irr = table("irr", active="irregulars")


# ------------------------------------------------------------------ T-11 deviation


dev = table("dev", options=("deviation",))


@pytest.mark.audits("T-11", "FIRE-11", "EX-03")
def test_the_rpg_miss_of_the_book_lands_6_cm_left(dev):
    # RPG at 30: 5+; a 3 misses by 2 -> 2 x 3 cm; direction die 4: row a) says left.
    out = dev.execute("fire rpg boss range=30 dice=3,4", role=REFEREE)
    note = deviation_note(out)
    assert "6 cm" in note and "left" in note and "right" not in note


@pytest.mark.audits("T-11", "FIRE-11", "EX-03")
def test_a_natural_1_is_a_dud_with_no_deviation(dev):
    out = dev.execute("fire rpg boss range=30 dice=1", role=REFEREE)
    assert [r.unit for r in rolls(out)] == ["rpg"]
    assert " cm " not in deviation_note(out)


@pytest.mark.audits("T-11", "FIRE-11")
@pytest.mark.parametrize(
    ("firer", "target", "cm", "to_hit", "direction", "far", "way"),
    [
        ("rpg", "boss", 30, 4, 2, "3 cm", "short"),
        ("rpg", "boss", 30, 4, 3, "3 cm", "left"),
        ("rpg", "boss", 30, 4, 5, "3 cm", "right"),
        ("bomber", "boss", 10, 2, 2, "6 cm", "short"),
        ("bomber", "boss", 10, 2, 3, "6 cm", "left"),
        ("bomber", "boss", 10, 2, 4, "6 cm", "right"),
        ("bomber", "boss", 10, 2, 5, "6 cm", "beyond"),
        ("gl", "boss", 30, 3, 6, "6 cm", "beyond"),
        ("tank", "techie", 30, 3, 2, "5 cm", "beyond"),
        ("tank", "techie", 30, 3, 4, "5 cm", "left"),
        ("tank", "techie", 30, 2, 6, "10 cm", "right"),
        ("milan", "techie", 30, 3, 5, "6 cm", "right"),
        ("milan", "techie", 30, 4, 1, "3 cm", "short"),
        ("mortar", "boss", 30, 2, 5, "6 cm", "beyond"),
        ("mortar", "boss", 30, 3, 4, "3 cm", "right"),
        ("gl", "boss", 30, 4, 4, "3 cm", "right"),
    ],
)
def test_each_deviation_row_and_step(dev, firer, target, cm, to_hit, direction, far, way):
    weapon = "weapon=TANKGUN" if firer == "tank" else ""
    note = deviation_note(
        dev.execute(f"fire {firer} {target} range={cm} {weapon} dice={to_hit},{direction}", role=REFEREE)
    )
    assert far in note and way in note


@pytest.mark.audits("T-11", "FIRE-11")
def test_without_the_option_a_miss_does_not_deviate(g):
    out = g.execute("fire rpg boss range=30 dice=3", role=REFEREE)
    assert len(rolls(out)) == 1


# ------------------------------------------------------------------ FIRE-12 ammunition


ammo = table("ammo", options=("ammo",))


@pytest.mark.audits("FIRE-12")
def test_a_double_empties_the_magazine(ammo):
    ammo.execute("fire vet irr1 range=40 burst dice=2,2,1", role=REFEREE)
    assert "empty-mag" in status(ammo, "vet")


@pytest.mark.audits("FIRE-12")
def test_no_double_keeps_the_magazine(ammo):
    ammo.execute("fire vet irr1 range=40 burst dice=1,2,3", role=REFEREE)
    assert "empty-mag" not in status(ammo, "vet")


@pytest.mark.audits("FIRE-12")
def test_three_of_a_kind_leaves_an_ar_on_aimed_fire_until_a_1(tmp_path):
    g = new_game(tmp_path, options=("ammo",))
    g.execute("fire vet irr1 range=40 burst dice=3,3,3", role=REFEREE)
    assert "low-ammo" in status(g, "vet")


@pytest.mark.audits("FIRE-12")
def test_special_forces_never_run_dry(ammo):
    ammo.execute("fire sf irr1 range=40 burst dice=2,2,2", role=REFEREE)
    assert not {"empty-mag", "low-ammo"} & set(status(ammo, "sf"))


@pytest.mark.audits("FIRE-12")
def test_an_empty_magazine_must_be_changed_before_firing(ammo):
    ammo.execute("fire vet irr1 range=40 burst dice=2,2,1", role=REFEREE)
    refused(ammo, "fire vet irr2 range=20 dice=1", rule="T-03")


# ------------------------------------------------------------------ FIRE-13 group fire


@pytest.mark.audits("FIRE-13", "ACT-3")
def test_a_fire_team_fires_together_as_one_action(g):
    out = g.execute("fire elite irr1 range=30 with=elite2,gunner dice=1,1,1,1,1,1", role=REFEREE)
    assert [r.unit for r in rolls(out)] == ["elite", "elite2", "gunner"]
    assert [e for e in out.lines if e.startswith("action")] == ["action 1 of this activation"]


@pytest.mark.audits("FIRE-13", "ACT-3")
def test_group_fire_only_within_one_fire_team(g):
    refused(g, "fire elite irr1 range=30 with=vet dice=1,1", rule="ACT-3")


@pytest.mark.audits("FIRE-13", "ACT-3", "OPP-4")
def test_after_group_fire_each_enemy_reacts_once(irr):
    play(irr, "fire irr1 vet range=30 with=irr2 dice=1,1", "react-fire trained irr1 range=30 dice=1")
    refused(irr, "react-fire trained irr2 range=30 dice=1", rule="OPP-4")
    irr.execute("react-fire recruit irr2 range=30 dice=1", role=REFEREE)


@pytest.mark.audits("FIRE-12")
def test_a_machine_gun_rolling_a_double_keeps_firing(ammo):
    ammo.execute("fire gunner irr1 range=40 dice=2,2,1,1", role=REFEREE)
    assert "empty-mag" not in status(ammo, "gunner")


def _next_turn(g) -> None:
    play(g, "next", "next", "next dice=6,6,1,1")


@pytest.mark.audits("FIRE-12", "T-03")
def test_an_ar_on_its_last_rounds_fires_aimed_until_a_1_then_is_dry(tmp_path):
    g = new_game(tmp_path, options=("ammo",))
    g.execute("fire vet irr1 range=40 burst dice=3,3,3", role=REFEREE)
    _next_turn(g)
    refused(g, "fire vet irr1 range=40 dice=2", rule="FIRE-12")  # the magazine first
    g.execute("reload vet", role=REFEREE)
    refused(g, "move vet 1", rule="T-03")  # changing it is his whole turn
    _next_turn(g)
    refused(g, "fire vet irr1 range=40 burst dice=1,1,1", rule="FIRE-12")
    g.execute("fire vet irr1 range=40 dice=2", role=REFEREE)  # aimed, not a 1: still firing
    _next_turn(g)
    g.execute("fire vet irr1 range=40 dice=1", role=REFEREE)  # a 1: out of ammunition
    _next_turn(g)
    refused(g, "fire vet irr1 range=40 dice=6", rule="FIRE-12")


@pytest.mark.audits("FIRE-12")
def test_the_italian_draft_counts_only_bursts_and_stops_an_smg_on_three(tmp_path):
    g = new_game(tmp_path, options=("ammo",), variant="it-2009-12-09")
    g.execute("fire smg irr1 range=40 dice=3,3,3", role=REFEREE)
    _next_turn(g)
    refused(g, "reload smg", rule="FIRE-12")  # or, whatever the order, it never fires again
    refused(g, "fire smg irr1 range=40 dice=1,1,1", rule="FIRE-12")
