"""A second held-out audit of Ludonet, rules crossed with each other (the third look at
the ruleset), from the Italian fragment and the digest alone: a move of any kind and the
shot after it, a wound from the fire carried into the melee of the same turn, losses from
a melee and from two wounds counted for morale, a morale test that cannot be skipped,
two ties for the first player, and what is no anti-aircraft fire."""

from __future__ import annotations

import pytest
from audit_ln_table import (
    add,
    after_fire,
    allowed,
    four,
    has,
    out,
    outcomes,
    plain_at_melee,
    play,
    refused,
    rolled,
    to_phase,
)


@pytest.mark.audits("LN-R002", "LN-AMB-01")
def test_two_ties_for_first_player(ln):
    """2 and 2, 4 and 4, then 6 against 1: the paras move first."""
    facts = play(ln, "next dice=2,2,4,4,6,1")
    assert len(rolled(facts)) == 6
    refused(ln, "@garrison move fritz 5", rule="LN-AMB-01")
    play(ln, "@paras move smith 5")


@pytest.mark.audits("LN-R031", "LN-R010")
@pytest.mark.parametrize("how", ["14 run dice=1", "3 crawl"])
def test_running_or_crawling_is_a_move_for_the_shot_after_it(move, how):
    """ "Se il tiratore ha mosso in questo turno": Jones ran or crawled: one -1 (expert +1),
    so beyond half range a 4 misses and a 5 hits."""
    play(move, f"@paras move jones {how}")
    to_phase(move, 1, "fire")
    assert outcomes(play(move, "@paras fire jones fritz full dice=4")) == ["miss"]
    assert sorted(m.value for m in rolled(play(move, "@paras fire brown fritz full dice=1"))[0].mods) == [1]


@pytest.mark.audits("LN-R031", "LN-R010", "LN-AMB-05")
def test_the_crawler_is_lying_down_for_the_other_side(move):
    """Jones crawled: Fritz fires at a figure lying down (-1) beyond half range: 6."""
    play(move, "@paras move jones 3 crawl")
    to_phase(move, 1, "fire")
    assert outcomes(play(move, "@garrison fire fritz jones full dice=5")) == ["miss"]
    assert outcomes(play(move, "@garrison fire kurt jones full dice=6,1"))[0] == "hit"


@pytest.mark.audits("LN-R037", "LN-R051", "LN-R021")
def test_a_wound_from_the_fire_counts_in_the_melee_of_the_same_turn(ln):
    """Fritz, wounded in turn 1's fire, fights in its melee at -2: 5 - 2 against Plain's 4
    loses."""
    add(ln, "plain", "paras")
    to_phase(ln, 1, "fire")
    play(ln, "@paras fire jones fritz half dice=6,2")
    to_phase(ln, 1, "melee")
    facts = play(ln, "@paras melee plain fritz dice=4,5")
    assert [m.value for m in rolled(facts)[1].mods] == [-2]
    assert out(ln, "fritz") and not out(ln, "plain")


@pytest.mark.audits("LN-R050")
def test_a_figure_eliminated_in_a_melee_fights_no_other(ln):
    plain_at_melee(ln)
    play(ln, "@paras melee plain fritz dice=5,1")
    refused(ln, "@paras melee jones fritz dice=5,1", rule="LN-R037")


@pytest.mark.audits("LN-R070", "LN-R050", "LN-AMB-16")
def test_a_man_lost_in_melee_is_a_loss(ln):
    """One of four shot, one cut down in the melee: half, a test in the morale step."""
    four(ln)
    add(ln, "plain", "paras")
    to_phase(ln, 1, "fire")
    play(ln, "@paras fire jones f1 half dice=6,6")
    to_phase(ln, 1, "melee")
    play(ln, "@paras melee plain f2 dice=6,1")
    to_phase(ln, 1, "morale")
    assert outcomes(play(ln, "morale four dice=6")) == ["holds"]


@pytest.mark.audits("LN-R070", "LN-R037", "LN-AMB-16")
def test_a_man_lost_to_his_second_wound_is_a_loss(ln):
    """F1 eliminated, F2 wounded in turn 1 and again in turn 2: two of four, a test."""
    four(ln)
    to_phase(ln, 1, "fire")
    play(ln, "@paras fire jones f1 half dice=6,6", "@paras fire brown f2 half dice=6,2")
    to_phase(ln, 1, "morale")
    refused(ln, "morale four dice=6", rule="LN-R070")
    to_phase(ln, 2, "fire")
    play(ln, "@paras fire brown f2 half dice=6,3")
    to_phase(ln, 2, "morale")
    assert out(ln, "f2")
    assert outcomes(play(ln, "morale four dice=6")) == ["holds"]


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_the_morale_step_does_not_end_with_a_test_unrolled(ln):
    """ "Lancia 1D6": Four has lost half; the step is not left before it rolls (LN-R070)."""
    four(ln, "f1", "f2")
    to_phase(ln, 1, "morale")
    refused(ln, "next", rule="LN-R070")
    play(ln, "morale four dice=4", "next")
    assert ln.state.phase == "end"


@pytest.mark.audits("LN-R062", "LN-R020")
def test_a_rifle_shot_at_an_aircraft_is_no_anti_aircraft_fire(fire):
    """Only "le armi di controaerea" fire at the aircraft on its pass: Fritz's rifle does not."""
    play(fire, "pass typhoon")
    refused(fire, "@garrison fire fritz typhoon full dice=6,6", rule="LN-R062")


@pytest.mark.audits("LN-R062", "LN-AMB-15")
def test_a_second_anti_aircraft_gun_has_nothing_left_to_shoot(ln):
    """The Flak brings the Typhoon down; a second AA gun fires at nothing."""
    add(ln, "flak2", "garrison", roles=("aa",))
    to_phase(ln, 1, "fire")
    play(ln, "pass typhoon", "@garrison aa flak typhoon dice=5")
    refused(ln, "@garrison aa flak2 typhoon dice=6", rule="LN-R062")


@pytest.mark.audits("LN-R061", "LN-R037")
def test_a_strike_wound_on_a_wounded_man_eliminates(ln):
    add(ln, "hurt", "garrison", status=("wounded",))
    to_phase(ln, 1, "fire")
    play(ln, "pass typhoon")
    assert outcomes(play(ln, "strike typhoon hurt dice=6,2")) == ["hit", "wound"]
    after_fire(ln)
    assert out(ln, "hurt")


@pytest.mark.audits("LN-R010", "LN-AMB-24")
@pytest.mark.parametrize(("cm", "ok"), [(3, True), (3.5, False)])
def test_a_heavy_weapon_crawls_its_three(move, cm, ok):
    """Crawling is 3 cm for everyone, the Bren gunner too (his 5 is walking)."""
    line = f"@paras move bren {cm:g} crawl"
    allowed(move, line, ok, rule="LN-R010")


@pytest.mark.audits("LN-R041", "LN-R021")
def test_two_margins_of_two_in_one_fire_do_not_destroy(fire):
    """Immobilised twice in the same fire is still immobilised, not destroyed (only the
    margin of 3 destroys): the PIAT and Jones's rifle each beat the Panzer by 2."""
    play(fire, "@paras fire piat panzer half dice=3,6,3")  # 8 against 6
    play(fire, "@paras fire jones panzer half dice=3,6,1")  # 6 + 0 against 1 + 3
    after_fire(fire)
    assert not out(fire, "panzer") and has(fire, "panzer", "immobilised")
