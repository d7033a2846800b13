"""Audit of Ludonet's fire at figures (B.4-B.6) from the book alone: sight in woods at
20 cm standing and 12 lying down, half range (inclusive) and the weapon's range at
their edges, the 4+/5+ to hit with each modifier (cumulative, no automatic 6), the
damage die at 1|2 and 4|5, the heavy weapon's +1, two wounds, grenades, simultaneous
fire and indirect fire."""

from __future__ import annotations

import pytest
from audit_ln_table import add, after_fire, has, hits, inject, out, outcomes, play, refused, rolled, to_phase

from core.log import events as ev
from core.refusal import TYPING


@pytest.mark.audits("LN-R030", "LN-AMB-06")
@pytest.mark.parametrize(("band", "hit", "miss"), [("half", 4, 3), ("full", 5, 4)])
def test_to_hit_within_and_beyond_half_range(fire, band, hit, miss):
    """Fritz (not expert, not moved) at Jones: 4, 5 or 6 within half range; 5 or 6 beyond."""
    assert not hits(fire, f"@garrison fire fritz jones {band} dice={miss}")
    assert hits(fire, f"@garrison fire kurt jones {band} dice={hit},1")


@pytest.mark.audits("LN-R030", "LN-AMB-02", "LN-AMB-06")
def test_the_measured_range_decides_the_band_half_inclusive(fire):
    """A rifle of 60 cm (the scenario's): 30 is within half range, 30.5 beyond; 60 is within
    range, 60.5 out of it."""
    assert hits(fire, "@garrison fire fritz jones range=30 dice=4,1")
    assert not hits(fire, "@garrison fire kurt jones range=30.5 dice=4")
    assert hits(fire, "@garrison fire otto jones range=60 dice=5,1")
    refused(fire, "@garrison fire hans jones range=20.5 dice=6,1", rule="LN-R030")  # an MP40: 20 cm
    play(fire, "@garrison fire hans jones range=20 dice=6,1")


@pytest.mark.audits("LN-R031", "LN-AMB-05")
@pytest.mark.parametrize(
    ("flags", "need"),
    [("cover", 6), ("prone", 6), ("prone cover", 7)],
)
def test_each_target_condition_takes_one_and_they_add_up(fire, flags, need):
    """Beyond half range (5+): target in cover -1, lying down -1, both -2 (cumulative);
    no natural 6 always hits."""
    if need <= 6:
        assert not hits(fire, f"@garrison fire fritz jones full {flags} dice={need - 1}")
        assert hits(fire, f"@garrison fire kurt jones full {flags} dice={need},1")
    else:
        assert not hits(fire, f"@garrison fire fritz jones full {flags} dice=6")


@pytest.mark.audits("LN-R031", "LN-AMB-05")
def test_an_expert_shooter_adds_one(fire):
    """Jones is an expert (paratrooper): beyond half range he hits on 4."""
    assert not hits(fire, "@paras fire jones fritz full dice=3")
    assert hits(fire, "@paras fire brown fritz full dice=4,1")


@pytest.mark.audits("LN-R031", "LN-AMB-25", "LN-AMB-05")
def test_a_shooter_that_moved_or_is_wounded_takes_one_each(ln):
    """Otto walks in the garrison's move and fires in the same turn at -1; wounded too, -2."""
    add(ln, "ernst", "garrison", weapons=("rifle",), status=("wounded",))
    to_phase(ln, 1, "move-second")
    play(ln, "@garrison move otto 5", "@garrison move ernst 5")
    play(ln, "next", "next")  # reveal, fire
    assert not hits(ln, "@garrison fire otto jones half dice=4")
    assert hits(ln, "@garrison fire fritz jones half dice=4,1")  # fritz did not move
    assert not hits(ln, "@garrison fire ernst jones half dice=5")  # moved and wounded: 4 + 2
    assert hits(ln, "@garrison fire kurt jones half dice=4,1")
    to_phase(ln, 2, "fire")  # the garrison has not moved in turn 2
    assert hits(ln, "@garrison fire ernst jones half dice=5,1")  # wounded only now: 4 + 1


@pytest.mark.audits("LN-R035", "LN-R037", "LN-R021", "LN-AMB-21", "LN-AMB-09")
@pytest.mark.parametrize(
    ("die", "result"), [(1, "none"), (2, "wound"), (4, "wound"), (5, "eliminated"), (6, "eliminated")]
)
def test_the_damage_die_and_its_results_at_the_end_of_the_fire(fire, die, result):
    facts = play(fire, f"@garrison fire fritz jones half dice=6,{die}")
    assert outcomes(facts) == ["hit", result]
    assert not out(fire, "jones")  # nothing yet: fire is simultaneous
    play(fire, "@paras fire jones fritz half dice=1")  # he still fires
    after_fire(fire)
    assert out(fire, "jones") == (result == "eliminated")
    assert has(fire, "jones", "wounded") == (result == "wound")


@pytest.mark.audits("LN-R036", "LN-AMB-07")
@pytest.mark.parametrize(("die", "result"), [(1, "wound"), (3, "wound"), (4, "eliminated")])
def test_a_heavy_weapon_adds_one_to_the_damage_die(fire, die, result):
    """The Bren (heavy): a natural 1 is 2, a wound; 4 is 5, eliminated."""
    assert outcomes(play(fire, f"@paras fire bren fritz half dice=6,{die}")) == ["hit", result]
    assert [m.value for m in rolled(play(fire, "@paras fire wood kurt half dice=6,4"))[1].mods] == []


@pytest.mark.audits("LN-R037", "LN-AMB-09")
def test_two_wounds_eliminate_and_one_wound_changes_nothing_else(fire):
    play(fire, "@garrison fire fritz jones half dice=6,2")
    after_fire(fire)
    assert has(fire, "jones", "wounded") and not out(fire, "jones")
    play(fire, "next", "next", "next")  # to turn 2, the paras' move
    play(fire, "@paras move jones 14 run dice=1")  # still runs 14 cm
    to_phase(fire, 2, "fire")
    play(fire, "@garrison fire kurt jones half dice=6,3")
    after_fire(fire)
    assert out(fire, "jones")


@pytest.mark.audits("LN-R038", "LN-AMB-08")
def test_a_grenade_hits_its_spot_then_every_figure_inside_rolls_damage_not_heavy(fire):
    facts = play(fire, "grenade smith full hans fritz dice=4,1,2")  # expert: 5 - 1; 4 hits
    assert outcomes(facts) == ["hit", "none", "wound"]
    facts = play(fire, "grenade jones half kurt otto dice=3,1,5")  # expert, within half: 3 hits
    assert outcomes(facts) == ["hit", "none", "eliminated"]
    assert all(not r.mods for r in rolled(facts)[1:])
    facts = play(fire, "grenade brown half hans dice=2")  # 2 + 1 = 3 < 4: wide
    assert outcomes(facts) == ["miss"]
    refused(
        fire, "@paras fire jones hans half dice=6,6", rule="LN-R030"
    )  # the grenade is the figure's shot of the turn


@pytest.mark.audits("LN-R020")
@pytest.mark.parametrize(("prone", "seen", "unseen"), [("", 20, 20.5), ("prone", 12, 12.5)])
def test_in_woods_a_standing_man_is_seen_to_20_cm_lying_to_12(fire, prone, seen, unseen):
    refused(fire, f"@garrison fire fritz jones half {prone} woods={unseen:g} dice=6,1", rule="LN-R020")
    play(fire, f"@garrison fire fritz jones half {prone} woods={seen} dice=6,1")


@pytest.mark.audits("LN-R020", "LN-AMB-17")
def test_only_mortars_and_artillery_fire_without_sight(fire):
    refused(fire, "@paras fire jones mg42 half dice=6,6", rule=TYPING)  # the MG 42 is hidden: no line of sight
    facts = play(fire, "fire mortar mg42 full dice=5,6")  # indirect: hits as ordinary fire, 5+
    assert outcomes(facts)[0] == "hit"


@pytest.mark.audits("LN-R030")
def test_one_shot_a_turn(fire):
    play(fire, "@garrison fire fritz jones half dice=1")
    refused(fire, "@garrison fire fritz jones half dice=6,6", rule="LN-R030")


@pytest.mark.audits("LN-AMB-05", "LN-R031")
def test_a_figure_that_crawled_counts_as_lying_down(move):
    """Crawling is lying down: Brown crawls, and beyond half range Fritz needs a 6."""
    play(move, "@paras move brown 3 crawl")
    to_phase(move, 1, "fire")
    assert not hits(move, "@garrison fire fritz brown full dice=5")
    assert hits(move, "@garrison fire kurt brown full dice=6,1")


@pytest.mark.audits("LN-R030", "LN-AMB-06")
def test_half_of_an_odd_range_is_not_rounded(ln):
    """A weapon of 25 cm: 12.5 is within half range, 12.51 beyond."""
    inject(ln, ev.VarSet(key="weapon.Carbine.range", value=25))
    add(ln, "carl", "garrison", weapons=("Carbine",))
    add(ln, "carla", "garrison", weapons=("Carbine",))
    to_phase(ln, 1, "fire")
    assert hits(ln, "@garrison fire carl jones range=12.5 dice=4,1")
    assert not hits(ln, "@garrison fire carla jones range=12.51 dice=4")


@pytest.mark.audits("LN-R037", "LN-R021")
def test_two_wounds_in_the_same_fire_eliminate(fire):
    play(fire, "@garrison fire fritz jones half dice=6,2", "@garrison fire kurt jones half dice=6,4")
    assert not out(fire, "jones")
    after_fire(fire)
    assert out(fire, "jones")
