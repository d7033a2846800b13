"""Fifth held-out round of Ludonet: the residual items of the last audits, each held
against the book. Anti-aircraft fire and an air strike (B.9, "Le armi di controaerea
colpiscono con 5 o 6") in a fire phase whose shots are all simultaneous (B.4, "I tiri
sono simultanei"): the order the referee types them in decides nothing."""

from __future__ import annotations

import pytest
from audit_ln_table import add, after_fire, four, has, out, outcomes, play, refused, to_phase


@pytest.mark.audits("LN-R062", "LN-R021", "LN-AMB-15", "LN-AMB-21")
def test_anti_aircraft_fire_after_the_strike_still_brings_it_down_and_voids_it(fire):
    """B.9 LN-R062 with B.4 LN-R021: the Flak fires in the same simultaneous fire step as
    the Typhoon's strike, so it may fire after the strike's dice; its hit brings the aircraft
    down before the attack of that pass (LN-AMB-15), whichever was typed first: Fritz, whose
    damage die said eliminated, and the Panzer, destroyed by the opposed roll, stay."""
    play(fire, "pass typhoon")
    # strike 6: hit; Fritz's damage 5: eliminated; Typhoon 6 + 4 against Panzer 1 + 3
    assert outcomes(play(fire, "strike typhoon fritz panzer dice=6,5,6,1")) == [
        "hit",
        "eliminated",
        "total 10",
        "total 4 against 10: destroyed",
    ]
    assert outcomes(play(fire, "@garrison aa flak typhoon dice=5")) == ["hit: shot down"]
    assert out(fire, "typhoon")
    after_fire(fire)
    assert not out(fire, "fritz") and not out(fire, "panzer")
    assert not has(fire, "panzer", "immobilised")


@pytest.mark.audits("LN-R062", "LN-R061", "LN-R021")
def test_anti_aircraft_fire_that_misses_after_the_strike_leaves_it_standing(fire):
    """The Flak's 4 misses (5 or 6 hits): the Typhoon's strike, rolled before it, stands
    and Fritz is out when the fire step ends."""
    play(fire, "pass typhoon", "strike typhoon fritz dice=5,6")
    assert outcomes(play(fire, "@garrison aa flak typhoon dice=4")) == ["miss"]
    assert not out(fire, "typhoon")
    after_fire(fire)
    assert out(fire, "fritz")


@pytest.mark.audits("LN-R062", "LN-R021", "LN-R037", "LN-AMB-15")
def test_a_voided_strike_leaves_the_rifle_wound_of_the_same_step(fire):
    """B.9 (LN-AMB-15): Fritz takes a wound from Jones's rifle and one from the strike: two
    wounds would eliminate him (LN-R037); the Flak then brings the Typhoon down, its strike
    comes to nothing, and the rifle's wound alone is left: Fritz is wounded, still in play."""
    assert outcomes(play(fire, "@paras fire jones fritz half dice=6,2")) == ["hit", "wound"]
    play(fire, "pass typhoon")
    assert outcomes(play(fire, "strike typhoon fritz dice=5,3")) == ["hit", "wound"]
    play(fire, "@garrison aa flak typhoon dice=6")
    after_fire(fire)
    assert not out(fire, "fritz") and has(fire, "fritz", "wounded")


@pytest.mark.audits("LN-R062", "LN-R021")
def test_the_strike_of_an_aircraft_not_shot_down_adds_to_the_rifle_wound(fire):
    """The same two wounds, and the Flak misses: the strike stands, Fritz has two wounds
    and is eliminated when the fire step ends (LN-R037)."""
    play(fire, "@paras fire jones fritz half dice=6,2", "pass typhoon", "strike typhoon fritz dice=5,3")
    play(fire, "@garrison aa flak typhoon dice=3")
    after_fire(fire)
    assert out(fire, "fritz")


@pytest.mark.audits("LN-R062", "LN-R060")
def test_anti_aircraft_fire_only_while_the_aircraft_is_over_the_table(fire):
    """AA fire reaches an aircraft on its pass: in the fire step of the turn it flies,
    not in the next turn's before it passes again."""
    play(fire, "pass typhoon", "strike typhoon fritz dice=1")
    to_phase(fire, 2, "fire")
    refused(fire, "@garrison aa flak typhoon dice=6", match="not over the table", rule="LN-R062")
    assert not out(fire, "typhoon")


@pytest.mark.audits("LN-R062", "LN-R061", "LN-R021", "LN-R037")
def test_the_anti_aircraft_hit_voids_only_the_strike_of_the_aircraft_it_brings_down(ln):
    """Two aircraft strike Fritz in the same fire step, a wound each (two wounds: out,
    LN-R037); the Flak brings the Typhoon down: the Spitfire's strike stands, the
    Typhoon's does nothing, and Fritz ends the step wounded, in play."""
    add(ln, "spit", "paras", kind="aircraft", status=("hidden",), stats={"cv": 3})
    to_phase(ln, 1, "fire")
    play(ln, "pass spit", "strike spit fritz dice=5,2", "pass typhoon", "strike typhoon fritz dice=6,4")
    play(ln, "@garrison aa flak typhoon dice=5")
    assert out(ln, "typhoon") and not out(ln, "spit")
    after_fire(ln)
    assert not out(ln, "fritz") and has(ln, "fritz", "wounded")


@pytest.mark.audits("LN-R062", "LN-R001")
def test_a_strike_on_a_hidden_figure_waits_unseen_by_the_other_side(fire):
    """B.1: the referee places only the units in sight. The Typhoon's strike kills the
    hidden MG 42 team (a 6); while it waits for the end of the fire step, the paras read
    nothing that names the team; the Flak misses and the MG 42 team is out."""
    play(fire, "pass typhoon", "strike typhoon mg42 dice=6,6")
    assert not any("mg42" in key for key in fire.view("paras").vars)
    assert not any("MG 42 team" in line.text for line in fire.log_lines("paras"))
    play(fire, "@garrison aa flak typhoon dice=1")
    after_fire(fire)
    assert out(fire, "mg42")


@pytest.mark.audits("LN-R062", "LN-R070")
def test_the_men_of_a_voided_strike_are_no_losses_for_morale(ln):
    """B.9: two of four killed by the Typhoon's strike would be half, a test (LN-R070);
    the Flak brings the Typhoon down in the same step, nobody is lost, and the morale
    phase asks no test of the team: it passes with next, and a test is refused."""
    four(ln)
    to_phase(ln, 1, "fire")
    play(ln, "pass typhoon", "strike typhoon f1 f2 dice=6,5,6", "@garrison aa flak typhoon dice=5")
    to_phase(ln, 1, "morale")
    assert not out(ln, "f1") and not out(ln, "f2")
    refused(ln, "morale four dice=2", rule="LN-R070")
    play(ln, "next")
    assert ln.state.phase == "end"
