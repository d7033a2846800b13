"""Audit of Ludonet's aircraft and anti-aircraft fire (B.9) from the book alone: at most
three passes, a strike that hits only on 5 or 6 (never modified) and harms each figure
in its 3 cm area with the damage die, vehicles with the opposed roll; anti-aircraft
weapons hit on 5 or 6 and bring the aircraft down before it attacks."""

from __future__ import annotations

import pytest
from audit_ln_table import add, after_fire, has, out, outcomes, play, refused, rolled, to_phase


@pytest.mark.audits("LN-R060")
def test_each_aircraft_makes_at_most_three_passes(ln):
    add(ln, "stuka", "garrison", kind="aircraft", status=("hidden",), stats={"cv": 3})
    for turn in (1, 2, 3):
        to_phase(ln, turn, "fire")
        play(ln, "pass stuka")
    to_phase(ln, 4, "fire")
    refused(ln, "pass stuka", rule="LN-R060")
    assert out(ln, "stuka")  # it cannot return


@pytest.mark.audits("LN-R061", "LN-AMB-14")
@pytest.mark.parametrize(("die", "hit"), [(4, False), (5, True), (6, True)])
def test_a_strike_hits_only_on_5_or_6_and_each_figure_inside_rolls_damage(fire, die, hit):
    play(fire, "pass typhoon")
    facts = play(fire, f"strike typhoon hans fritz dice={die}" + (",1,5" if hit else ""))
    assert outcomes(facts) == (["hit", "none", "eliminated"] if hit else ["miss"])
    assert all(not r.mods for r in rolled(facts))  # never modified, not heavy
    after_fire(fire)
    assert out(fire, "fritz") == hit and not out(fire, "hans")


@pytest.mark.audits("LN-R061", "LN-AMB-14")
def test_a_vehicle_in_the_area_takes_the_opposed_roll_against_the_aircraft(fire):
    play(fire, "pass typhoon")
    facts = play(fire, "strike typhoon panzer dice=5,3,3")  # 3 + 4 against 3 + 3: margin 1
    assert outcomes(facts)[-1].endswith("immobilised")
    after_fire(fire)
    assert has(fire, "panzer", "immobilised")


@pytest.mark.audits("LN-R062", "LN-AMB-15")
@pytest.mark.parametrize(("die", "down"), [(4, False), (5, True)])
def test_anti_aircraft_fire_hits_on_5_or_6_before_the_strike(fire, die, down):
    play(fire, "pass typhoon")
    assert outcomes(play(fire, f"@garrison aa flak typhoon dice={die}"))[0] == ("hit: shot down" if down else "miss")
    assert out(fire, "typhoon") == down
    if down:
        refused(fire, "strike typhoon hans dice=6,6", rule="LN-R062")
    else:
        play(fire, "strike typhoon hans dice=6,6")


@pytest.mark.audits("LN-R062")
def test_only_anti_aircraft_weapons_fire_at_aircraft(fire):
    play(fire, "pass typhoon")
    refused(fire, "@garrison aa fritz typhoon dice=6", rule="LN-R062")
    refused(fire, "@garrison fire fritz typhoon half dice=6,6", rule="LN-R062")
