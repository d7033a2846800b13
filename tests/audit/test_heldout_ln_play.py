"""A second, held-out audit of Ludonet's melee, morale, aircraft and movement (B.3, B.8,
B.9) from the book alone: melee modifiers two at a time, leaving a melee wounded or
against an expert, a test at every further loss, the passes an aircraft is given and
one a turn, a strike only on a pass and once, the anti-aircraft roll unmodified, and a
figure's one move a turn."""

from __future__ import annotations

import pytest
from audit_ln_table import add, has, lose, out, outcomes, play, refused, rolled, to_phase

from core.refusal import TYPING

# ----------------------------------------------------------------------------- melee


@pytest.fixture
def melee(ln):
    add(ln, "hurt", "paras", roles=("expert",), status=("wounded",))
    add(ln, "down", "garrison", status=("prone", "wounded"))
    add(ln, "vet", "garrison", roles=("expert",))
    add(ln, "plain", "paras")
    to_phase(ln, 1, "melee")
    return ln


@pytest.mark.audits("LN-R050", "LN-R051")
@pytest.mark.parametrize(("faces", "want"), [("3,2", "tie"), ("4,2", "hurt"), ("3,3", "fritz")])
def test_a_wounded_expert(melee, faces, want):
    """+1 expert and -2 wounded: die - 1 against Fritz's bare die."""
    play(melee, f"@paras melee hurt fritz dice={faces}")
    assert (out(melee, "hurt"), out(melee, "fritz")) == {
        "tie": (False, False),
        "hurt": (False, True),
        "fritz": (True, False),
    }[want]


@pytest.mark.audits("LN-R050", "LN-R051")
@pytest.mark.parametrize(("faces", "want"), [("1,6", "tie"), ("1,5", "plain")])
def test_from_behind_against_a_man_lying_down_and_wounded(melee, faces, want):
    """The attacker from behind: 1 + 2 = 3; the other: die - 1 (lying) - 2 (wounded)."""
    play(melee, f"@paras melee plain down behind dice={faces}")
    assert out(melee, "down") == (want == "plain") and not out(melee, "plain")


@pytest.mark.audits("LN-R052", "LN-R051", "LN-AMB-13")
@pytest.mark.parametrize(("faces", "leaves"), [("5,2", True), ("5,3", False)])
def test_a_wounded_leaver_against_the_last_roll(melee, faces, leaves):
    """Leaving, the wounded expert rolls die + 1 - 2 = 4 with a 5; Fritz's last roll is
    die + 2: 4 lets him go, 5 cuts him down."""
    play(melee, f"@paras leave hurt fritz dice={faces}")
    assert out(melee, "hurt") == (not leaves) and not out(melee, "fritz")


@pytest.mark.audits("LN-R052", "LN-R051", "LN-AMB-13")
def test_the_last_roll_of_an_expert_is_plus_three(melee):
    """Brown (expert, 6 + 1 = 7) leaves the veteran: 4 + 2 + 1 = 7 lets him go; 5 + 3 kills."""
    play(melee, "@paras leave brown vet dice=6,4")
    assert not out(melee, "brown")
    play(melee, "@paras leave jones vet dice=6,5")
    assert out(melee, "jones") and not out(melee, "vet")


@pytest.mark.audits("LN-R050")
def test_melee_is_between_two_enemy_figures(melee):
    # a friend is no target: the target is looked for among the enemy's figures only
    refused(melee, "@paras melee smith jones dice=6,1", "no unit 'jones' on that side", rule=TYPING)
    refused(melee, "@paras melee smith panzer dice=6,1", rule="LN-R050")


# ---------------------------------------------------------------------------- morale


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_half_lost_and_a_further_loss_at_once_make_two_tests(ln):
    """ "Quando un reparto subisce il 50% di perdite ed ad ogni ulteriore perdita, lancia
    1D6": six men lose four in one turn: the third is half (a test), the fourth a further
    loss (another test); the first holds (6), the second may still shake it (LN-R070)."""
    for uid in ("s1", "s2", "s3", "s4", "s5", "s6"):
        add(ln, uid, "garrison", team="Six")
    to_phase(ln, 1, "fire")
    lose(ln, "s1", "s2", "s3", "s4")
    to_phase(ln, 1, "morale")
    assert outcomes(play(ln, "morale six dice=6")) == ["holds"]
    assert outcomes(play(ln, "morale six dice=2")) == ["shaken: falls back"]
    assert has(ln, "s5", "retreating")
    refused(ln, "morale six dice=6", rule="LN-R070")  # two losses beyond the half's first: two tests, no third


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_a_unit_of_three_tests_at_two_lost(ln):
    for uid in ("t1", "t2", "t3"):
        add(ln, uid, "garrison", team="Three")
    lose(ln, "t1")
    to_phase(ln, 1, "morale")
    refused(ln, "morale three dice=6", rule="LN-R070")  # one of three: below half
    to_phase(ln, 2, "fire")
    lose(ln, "t2")
    to_phase(ln, 2, "morale")
    assert outcomes(play(ln, "morale three dice=3")) == ["holds"]


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_a_retreating_unit_tests_again_at_its_next_loss(ln):
    """Shaken at 3 of 5 lost, it loses a fourth man: "ad ogni ulteriore perdita"."""
    lose(ln, "hans", "fritz", "kurt")
    to_phase(ln, 1, "morale")
    play(ln, "morale gruppe vogt dice=2")
    to_phase(ln, 2, "morale")
    refused(ln, "morale gruppe vogt dice=6", rule="LN-R070")  # no further loss yet
    to_phase(ln, 3, "fire")
    lose(ln, "otto")
    to_phase(ln, 3, "morale")
    assert outcomes(play(ln, "morale gruppe vogt dice=6")) == ["holds"]
    assert has(ln, "mg42", "retreating")  # holding does not end the retreat: reinforcements do


# ---------------------------------------------------------------------------- aircraft


@pytest.mark.audits("LN-R060")
def test_one_pass_a_turn_and_the_scenarios_fewer_passes(fire):
    """The Typhoon is given two passes: one a turn, none after the second; then it is gone."""
    play(fire, "pass typhoon")
    refused(fire, "pass typhoon", rule="LN-R060")
    to_phase(fire, 2, "fire")
    play(fire, "pass typhoon")
    to_phase(fire, 3, "fire")
    refused(fire, "pass typhoon", rule="LN-R060")
    assert out(fire, "typhoon")


@pytest.mark.audits("LN-R061")
def test_a_strike_only_on_a_pass_and_once_a_pass(fire):
    refused(fire, "strike typhoon hans dice=6,6", rule="LN-R061")
    play(fire, "pass typhoon", "strike typhoon hans dice=1")
    refused(fire, "strike typhoon fritz dice=6,6", rule="LN-R061")


@pytest.mark.audits("LN-R062", "LN-R030")
def test_the_anti_aircraft_gun_fires_once_a_turn(fire):
    """The AA shot is the Flak's one shot: having fired at the ground, it cannot fire at
    the aircraft."""
    play(fire, "pass typhoon", "@garrison fire flak jones full dice=1")
    refused(fire, "@garrison aa flak typhoon dice=6", rule="LN-R062")


@pytest.mark.audits("LN-R062")
@pytest.mark.parametrize(("die", "down"), [(4, False), (5, True)])
def test_a_wounded_anti_aircraft_gunner_still_hits_on_5(ln, die, down):
    """ "Le armi di controaerea colpiscono con 5 o 6": no modifier is listed for them."""
    add(ln, "ak", "garrison", roles=("aa",), status=("wounded",))
    to_phase(ln, 1, "fire")
    play(ln, "pass typhoon")
    facts = play(ln, f"@garrison aa ak typhoon dice={die}")
    assert not rolled(facts)[0].mods and out(ln, "typhoon") == down


# ---------------------------------------------------------------------------- movement


@pytest.mark.audits("LN-R010")
def test_a_figure_moves_once_a_turn(move):
    """The table gives each figure's most in a turn: walking 6 and then 6 more is 12."""
    play(move, "@paras move smith 6")
    refused(move, "@paras move smith 4", rule="LN-R010")


@pytest.mark.audits("LN-R012", "LN-AMB-19")
def test_a_tired_figure_still_crawls_and_walks_but_never_runs(move):
    play(move, "@paras move smith 14 run dice=6")
    assert has(move, "smith", "tired-3")
    to_phase(move, 2, "move-first")
    refused(move, "@paras move smith 12 run dice=1", rule="LN-R012")
    play(move, "@paras move smith 3 crawl")


# --------------------------------------------------------------------- second batch


@pytest.mark.audits("LN-R052", "LN-AMB-13")
def test_a_figure_leaves_a_melee_before_it_moves_not_after(move):
    """Leaving is moving away: tried in its move, before the move (ruling LN-LEAVE)."""
    play(move, "@paras leave jones fritz dice=6,1", "@paras move jones 10", "@paras move smith 5")
    refused(move, "@paras leave smith hans dice=6,1", rule="LN-R052")
