"""The fourth held-out audit of Bassa Intensità's direct fire and HE (issue #46): the digest's
ambiguity list (A.17) against the product, for the entries of A.9 and A.10. One quick case
per proposal, each asserting the digest's proposed interpretation [INTERP] (BI-AMB-01 ...
BI-AMB-28), where the book ("TIRO DIRETTO", the HE tables of "TIRO INDIRETTO") is unclear.
"""

from __future__ import annotations

import pytest
from audit_bi_early import KILL, chances, goto, outcomes, play, refused, rolls, table
from test_heldout4_bi_fire import EXTRA

from core.log.views import REFEREE

game = table(extra=EXTRA, at=("fire-regular", 1))


@pytest.mark.audits("BI-AMB-01", "BI-R090")
@pytest.mark.parametrize("face,where", [(7, "right"), (8, "right"), (9, "left"), (10, "left")])
def test_amb01_the_deviation_die_is_a_d10(game, face, where):
    """BI-AMB-01: "Dado (1d6)" over ten results: roll 1d10, so Right and Left happen."""
    facts = play(game, f"fire pino tariq weapon=rpg range=20 dice=9,{face}")
    (landing,) = rolls(facts, "A.10.1")
    assert landing.sides == 10
    assert where in outcomes(facts, "A.10.1")[0]


@pytest.mark.audits("BI-AMB-02", "BI-R080")
def test_amb02_the_saw_row_printed_under_night_counts_by_day(game):
    """BI-AMB-02: "SAW che tira su un'area -1" is printed beside NOTTE; it is a weapon row and
    counts by day: the SAW at an area at 30 cm, 4 - 1 = 3."""
    assert chances(play(game, "fire sam tariq fares range=30 area dice=9,9")) == [3, 3]


@pytest.mark.audits("BI-AMB-02", "BI-R050")
def test_amb02_the_opportunity_row_printed_under_target_halves_the_shooter(game):
    """BI-AMB-02: "Tiro di opportunità ½" is printed beside BERSAGLIO; it is the shooter's:
    Carlo's opportunity shot at a mover at 30 cm, 4 / 2 = 2."""
    goto(game, "move-second", 2)
    play(game, "@red move tariq 5")
    assert chances(play(game, "@blue fire carlo tariq range=30 dice=9")) == [2]


@pytest.mark.audits("BI-AMB-03", "BI-R082", "BI-R003")
def test_amb03_add_then_halve_once_and_the_bounds(game):
    """BI-AMB-03: sum the ± rows onto Quality, then halve, rounding up once: a wounded Carlo
    at long range at a man in light cover: (4 - 1 - 1) / 2 = 1 (a 1 hits); at a prone man in
    heavy cover at long range (4 - 1 - 1 - 2 = 0): nothing hits, not even a 1."""
    play(game, "mark carlo wounded")
    facts = play(game, f"fire carlo tariq range=100 cover=light dice=1,{KILL}")
    assert chances(facts) == [1] and not game.state.units["tariq"].in_play
    game.execute("undo", role=REFEREE)
    facts = play(game, "fire carlo tariq range=100 cover=heavy prone dice=1")
    assert outcomes(facts, "A.9.4")[0].startswith("miss")


@pytest.mark.audits("BI-AMB-04", "BI-R083")
def test_amb04_halves_stack(game):
    """BI-AMB-04 (b): the wounded Elite's opportunity shot at 15 cm: (6 + 1) / 4 = 1.75 -> 2."""
    goto(game, "move-second", 2)
    play(game, "mark elia wounded", "@red move tariq 5")
    assert chances(play(game, "@blue fire elia tariq range=15 dice=9,9")) == [2, 2]


@pytest.mark.audits("BI-AMB-05", "BI-R076")
def test_amb05_blank_area_ranges_are_the_weapons_own(game):
    """BI-AMB-05: the SAW's area row takes its single-target ranges (90 cm long, 90.5 out);
    the assault rifle's area row has its own (60 long, 60.5 out)."""
    assert chances(play(game, "fire sam tariq range=90 area dice=9")) == [2]
    game.execute("undo", role=REFEREE)
    refused(game, "fire sam tariq range=90.5 area dice=9", match="out of range", rule="BI-R075")
    refused(game, "fire bruno tariq range=60.5 area dice=9", match="out of range", rule="BI-R075")


@pytest.mark.audits("BI-AMB-06", "BI-R075", "BI-R091")
def test_amb06_limits_are_inclusive(game):
    """BI-AMB-06: d <= limit: Carlo's rifle at 40 cm is at normal range (4), and a man at 3 cm
    from an RPG's burst is at its short distance (6)."""
    assert chances(play(game, "fire carlo tariq range=40 dice=9")) == [4]
    assert chances(play(game, "burst fares source=rpg cm=3 dice=10"), "A.10.3") == [6]


@pytest.mark.audits("BI-AMB-10", "BI-R084")
def test_amb10_a_target_firing_is_no_bonus_by_day(game):
    """BI-AMB-10 (b): "Bersaglio spara" is a night row: by day Ali fires automatic, and
    Carlo's shot back at 15 cm is 4 + 1 = 5 only."""
    play(game, "@red fire ali bruno range=15 dice=9,9")
    assert chances(play(game, "fire carlo ali range=15 dice=9")) == [5]


@pytest.mark.audits("BI-AMB-19", "BI-R085")
def test_amb19_emplacing_is_no_aim(game):
    """BI-AMB-19: an explicit aim, not any Very Easy action: Lino emplaces his LMG in turn 1
    and fires it in turn 2 at 40 cm at his bare 4."""
    play(game, "emplace lino")
    goto(game, "fire-regular", 2)
    assert chances(play(game, "fire lino tariq range=40 dice=9,9")) == [4, 4]


@pytest.mark.audits("BI-AMB-21", "BI-R086")
def test_amb21_each_shot_its_own_roll_and_damage(game):
    """BI-AMB-21: Bruno's 2 shots each rolled and each hit its own damage: both hit, a 3
    (Shocked) then a 10 (Dead)."""
    facts = play(game, "fire bruno tariq range=20 dice=1,3,1,10")
    assert [r.rule for r in rolls(facts)] == ["A.9.4", "A.12.1", "A.9.4", "A.12.1"]
    assert not game.state.units["tariq"].in_play


@pytest.mark.audits("BI-AMB-22", "BI-R087")
def test_amb22_one_roll_per_figure_in_the_area(game):
    """BI-AMB-22: one hit roll per figure named in the area: three men, three rolls of 2."""
    assert chances(play(game, "fire bruno tariq fares nabil range=20 area dice=9,9,9")) == [2, 2, 2]


@pytest.mark.audits("BI-AMB-23", "BI-R090")
def test_amb23_the_offset_is_the_range_share_rounded_up(game):
    """BI-AMB-23: ceil(% x distance): a rocket missing at 27 cm, face 9: 20% = 5.4 -> 6 cm left."""
    facts = play(game, "fire pino tariq weapon=rpg range=27 dice=9,9")
    assert "lands 6 cm left of the target" in outcomes(facts, "A.10.1")[0]


@pytest.mark.audits("BI-AMB-24", "BI-R093")
def test_amb24_the_aimed_at_man_still_rolls_on_the_he_table(game):
    """BI-AMB-24: the rocket's hit is a burst on Tariq; he rolls A.10.3 (open, short: 6): a 7
    leaves him unhurt."""
    facts = play(game, "fire pino tariq weapon=rpg range=20 dice=1,7")
    assert chances(facts, "A.10.3") == [6]
    assert outcomes(facts, "A.10.3") == ["unhurt"]


@pytest.mark.audits("BI-AMB-26", "BI-R093")
def test_amb26_a_tank_in_a_rockets_burst_is_caught_then_penetrated(game):
    """BI-AMB-26: a vehicle in an HE area rolls A.10.3 for its ground, then the firing
    weapon's penetration (an RPG against a tank: 6)."""
    facts = play(game, "burst t55 source=rpg dice=6,1,1")
    assert [r.rule for r in rolls(facts)] == ["A.10.3", "A.12.3", "A.12.4"]
    assert chances(facts, "A.12.3") == [6]


@pytest.mark.audits("BI-AMB-26", "BI-R121")
def test_amb26_a_truck_in_a_shells_burst_takes_the_guns_plus_four(game):
    """BI-AMB-26: an unarmoured vehicle in the area of a gun's shell rolls the unarmoured table
    at +4 (a rocket's: +2)."""
    facts = play(game, "burst ural source=gun-102 dice=3,2")
    (dmg,) = rolls(facts, "A.12.2")
    assert sum(m.value for m in dmg.mods) == 4
    game.execute("undo", role=REFEREE)
    facts = play(game, "burst ural source=rpg dice=3,2")
    (dmg,) = rolls(facts, "A.12.2")
    assert sum(m.value for m in dmg.mods) == 2


@pytest.mark.audits("BI-AMB-28", "BI-R093")
def test_amb28_a_tank_guns_hit_on_a_tank_has_no_burst_roll_for_it(game):
    """BI-AMB-28: against a vehicle a gun's hit is resolved on the vehicle, no A.10.3 roll."""
    goto(game, "fire-veteran", 2)
    facts = play(game, "fire ariete t55 range=150 dice=1,1,1")
    assert [r.rule for r in rolls(facts)][:2] == ["A.9.4", "A.12.3"]
    assert rolls(facts, "A.10.3") == []
