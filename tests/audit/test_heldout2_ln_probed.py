"""Cases of Ludonet's second held-out audit written after its findings, where trying the
engine pointed: the losses of a unit that reinforcements made up, and what the fire with
a vehicle at one end takes from the shooter (B.5, B.7, B.9)."""

from __future__ import annotations

import pytest
from audit_ln_table import add, four_shaken, out, outcomes, play, refused, rolled, to_phase


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_a_loss_after_a_reinforcement_short_of_strength_is_a_further_loss(ln):
    """ "Ed ad ogni ulteriore perdita": Four, at two of four, gets Karl (three of four, still
    falling back); F3 falls in turn 2: a further loss, a test (LN-R070)."""
    four_shaken(ln, "move-second")
    play(ln, "reinforce f4 karl")
    to_phase(ln, 2, "fire")
    play(ln, "@paras fire jones f3 half dice=6,6")
    to_phase(ln, 2, "morale")
    assert outcomes(play(ln, "morale four dice=6")) == ["holds"]


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_a_unit_made_up_to_strength_tests_again_at_half(ln):
    """Four, shaken at two of four, is made up by Karl and Max (four of four: the retreat
    ends); F3 falls: one of four, no test (ruling LN-REINFORCE); F4 falls too: half again,
    a test."""
    four_shaken(ln, "move-second")
    play(ln, "reinforce f4 karl max")
    assert not out(ln, "f4")
    to_phase(ln, 2, "fire")
    play(ln, "@paras fire jones f3 half dice=6,6")
    to_phase(ln, 2, "morale")
    refused(ln, "morale four dice=6", rule="LN-R070")
    play(ln, "morale reserve dice=6")  # two of its three joined Four (ruling LN-REINFORCE)
    to_phase(ln, 3, "fire")
    play(ln, "@paras fire jones f4 half dice=6,6")
    to_phase(ln, 3, "morale")
    assert outcomes(play(ln, "morale four dice=6")) == ["holds"]


@pytest.mark.audits("LN-R031", "LN-R041")
def test_a_wounded_piat_gunner_is_minus_one_to_hit_and_not_in_the_opposed_roll(fire):
    """The wound's -1 is "per colpire"; the opposed roll adds only the combat values."""
    play(fire, "@garrison fire fritz piat half dice=6,2")
    to_phase(fire, 2, "fire")
    facts = play(fire, "@paras fire piat panzer half dice=4,6,2")  # 4 + 1 - 1 hits; 8 against 5
    assert outcomes(facts)[0] == "hit" and outcomes(facts)[-1].endswith("destroyed")
    assert [m.value for m in rolled(facts)[1].mods] == [2]


@pytest.mark.audits("LN-R040", "LN-R031")
@pytest.mark.parametrize(("face", "hit"), [(5, False), (6, True)])
def test_a_tank_at_a_man_lying_in_cover(fire, face, hit):
    """ "Si svolgono nel solito modo": the Sherman at Fritz lying down in cover, within
    half range: 4 + 1 + 1."""
    facts = play(fire, f"@paras fire sherman fritz half prone cover dice={face}" + (",1,1" if hit else ""))
    assert outcomes(facts)[0] == ("hit" if hit else "miss")


@pytest.mark.audits("LN-R070", "LN-AMB-16")
@pytest.mark.parametrize(("lost", "due"), [(1, False), (2, True)])
def test_half_of_three_is_two(ln, lost, due):
    """50 % of three is one and a half: the second loss reaches it, the first does not."""
    for uid in ("t1", "t2", "t3"):
        add(ln, uid, "garrison", team="Three")
    for uid in ("t1", "t2")[:lost]:
        play(ln, f"out {uid}")
    to_phase(ln, 1, "morale")
    if due:
        assert outcomes(play(ln, "morale three dice=6")) == ["holds"]
    else:
        refused(ln, "morale three dice=6", rule="LN-R070")


@pytest.mark.audits("LN-R062", "LN-R060", "LN-AMB-15")
def test_anti_aircraft_fire_comes_before_the_strike_of_the_pass(fire):
    """The hit brings the aircraft down before its attack (ruling LN-AA): the Flak may fire
    after the Typhoon's strike, in the same simultaneous step (LN-R021), and misses; on the
    second pass it brings it down first, and there is no strike."""
    play(fire, "pass typhoon", "strike typhoon fritz dice=4")
    assert outcomes(play(fire, "@garrison aa flak typhoon dice=4")) == ["miss"]
    to_phase(fire, 2, "fire")
    play(fire, "pass typhoon", "@garrison aa flak typhoon dice=5")
    assert out(fire, "typhoon")
    refused(fire, "strike typhoon fritz dice=6,6", rule="LN-R062")


@pytest.mark.audits("LN-R030", "LN-AMB-06")
@pytest.mark.parametrize(
    ("cm", "face", "result"), [(50, 4, "hit"), (50.5, 4, "miss"), (100, 5, "hit"), (100.5, 6, None)]
)
def test_the_mg42s_half_and_whole_range(ln, cm, face, result):
    """The scenario's MG 42 reaches 100 cm: 4+ up to 50, 5+ up to 100, no shot beyond."""
    to_phase(ln, 1, "reveal")
    play(ln, "clear mg42 hidden")
    to_phase(ln, 1, "fire")
    line = f"@garrison fire mg42 jones range={cm:g} dice={face}" + (",1" if result == "hit" else "")
    if result is None:
        refused(ln, line, rule="LN-R030")
    else:
        assert outcomes(play(ln, line))[0] == result


@pytest.mark.audits("LN-R031", "LN-AMB-25")
def test_a_figure_that_stands_up_is_no_longer_lying_down_and_has_not_moved(move):
    """Wood lay down in turn 1 and stands up where he is in turn 2: Fritz's 5 beyond half
    range hits him, and Wood (expert, no move) hits on 4."""
    play(move, "@paras prone wood")
    to_phase(move, 2, "move-first")
    play(move, "@paras stand wood")
    to_phase(move, 2, "fire")
    assert outcomes(play(move, "@garrison fire fritz wood full dice=5,1"))[0] == "hit"
    assert outcomes(play(move, "@paras fire wood fritz full dice=4,1"))[0] == "hit"


@pytest.mark.audits("LN-R020")
def test_standing_up_in_woods_he_is_seen_at_20_again(move):
    play(move, "@paras prone wood")
    to_phase(move, 2, "move-first")
    play(move, "@paras stand wood")
    to_phase(move, 2, "fire")
    assert outcomes(play(move, "@garrison fire fritz wood half woods=18 dice=6,1"))[0] == "hit"


@pytest.mark.audits("LN-R051")
def test_lying_down_costs_the_attacker_too(ln):
    """ "-1: soldato coricato", whichever side he fights on: Plain lay down; 3 - 1 against 2 ties."""
    add(ln, "plain", "paras")
    to_phase(ln, 1, "move-first")
    play(ln, "@paras prone plain")
    to_phase(ln, 1, "melee")
    play(ln, "@paras melee plain fritz dice=3,2")
    assert not out(ln, "plain") and not out(ln, "fritz")


@pytest.mark.audits("LN-R052", "LN-R051")
@pytest.mark.parametrize(("faces", "caught"), [("3,2", False), ("3,3", True)])
def test_leaving_an_opponent_lying_down(ln, faces, caught):
    """Fritz lay down: his last roll is die + 2 - 1; 2 + 1 against Plain's 3 lets him go."""
    add(ln, "plain", "paras")
    to_phase(ln, 1, "move-second")
    play(ln, "@garrison prone fritz")
    to_phase(ln, 1, "melee")
    play(ln, f"@paras leave plain fritz dice={faces}")
    assert out(ln, "plain") == caught


@pytest.mark.audits("LN-R038")
def test_a_tank_throws_no_grenade(fire):
    """ "La granata ... ogni figura compresa nel raggio": a figure throws it, not a vehicle."""
    refused(fire, "grenade sherman half fritz dice=6,6", rule="LN-R038")
