"""A second held-out audit of Ludonet's melee, aircraft and morale (B.8-B.9), the third
look at them, from the Italian fragment and the digest alone: a melee won, lost and tied,
the tie fought again and holding the two in contact, one figure fighting two, the
modifiers for the attacker alone or for both; leaving at the edge of the last roll; an
aircraft's three passes, its strike unmodified and not heavy, at a tank, brought down
before it strikes; morale at exactly half, with wounds that are no losses, with losses
over two turns, the test's edge, and reinforcements short of strength and at it."""

from __future__ import annotations

import pytest
from audit_ln_table import add, after_fire, four, has, out, outcomes, play, refused, rolled, to_phase

from core.refusal import TYPING

# ----------------------------------------------------------------------------- B.8 melee


@pytest.fixture
def melee(ln):
    add(ln, "plain", "paras")
    add(ln, "vet", "garrison", roles=("expert",))
    add(ln, "hurt", "paras", roles=("expert",), status=("wounded",))
    to_phase(ln, 1, "melee")
    return ln


@pytest.mark.audits("LN-R050")
@pytest.mark.parametrize(("faces", "gone"), [("4,3", "fritz"), ("3,4", "plain"), ("3,3", None)])
def test_the_higher_die_eliminates_the_other(melee, faces, gone):
    """ "Chi dei due ottiene il punteggio più alto elimina l'avversario. In caso di parità
    lo scontro prosegue": the attacker may be the one eliminated."""
    play(melee, f"@paras melee plain fritz dice={faces}")
    assert (out(melee, "plain"), out(melee, "fritz")) == (gone == "plain", gone == "fritz")


@pytest.mark.audits("LN-R050", "LN-AMB-12")
def test_a_tie_is_fought_again_in_the_next_melee(melee):
    """Tied in turn 1, Plain and Fritz fight on in turn 2: 5 against 2."""
    play(melee, "@paras melee plain fritz dice=3,3")
    to_phase(melee, 2, "melee")
    play(melee, "@paras melee plain fritz dice=5,2")
    assert out(melee, "fritz") and not out(melee, "plain")


@pytest.mark.audits("LN-R050", "LN-R052", "LN-AMB-12", "LN-AMB-13")
def test_locked_in_a_tie_a_figure_walks_away_only_by_leaving(melee):
    """ "Si può tentare di allontanarsi ... ma l'avversario godrà di un ultimo lancio":
    still in contact after the tie, Plain cannot just walk off in turn 2, nor Fritz; once
    Plain has left (6 against 1 + 2), both move (LN-R052)."""
    play(melee, "@paras melee plain fritz dice=3,3")
    to_phase(melee, 2, "move-first")
    refused(melee, "@paras move plain 10", rule="LN-R052")
    play(melee, "@paras leave plain fritz dice=6,1", "@paras move plain 10")
    to_phase(melee, 2, "move-second")
    play(melee, "@garrison move fritz 10")


@pytest.mark.audits("LN-R050", "LN-R052", "LN-AMB-12")
def test_the_other_of_a_tied_pair_is_held_too(melee):
    """Tied in turn 1, Fritz cannot walk off in the garrison's move of turn 2 either."""
    play(melee, "@paras melee plain fritz dice=3,3")
    to_phase(melee, 2, "move-second")
    refused(melee, "@garrison move fritz 10", rule="LN-R052")


@pytest.mark.audits("LN-R050", "LN-AMB-12")
def test_one_figure_fights_two_in_the_same_melee(melee):
    """Fritz tied with Plain, then fights Jones (expert): 4 + 1 against 4."""
    play(melee, "@paras melee plain fritz dice=3,3", "@paras melee jones fritz dice=4,4")
    assert out(melee, "fritz") and not out(melee, "plain")


@pytest.mark.audits("LN-R051")
def test_two_experts_cancel(melee):
    """Jones and the veteran, each +1: 3 + 1 against 3 + 1 is a tie."""
    play(melee, "@paras melee jones vet dice=3,3")
    assert not out(melee, "jones") and not out(melee, "vet")


@pytest.mark.audits("LN-R051")
@pytest.mark.parametrize(("faces", "gone"), [("2,4", None), ("3,4", "fritz"), ("1,4", "plain")])
def test_from_behind_is_the_attackers_plus_two(melee, faces, gone):
    """ "+2: figura che attacca alle spalle": Plain from behind, 2 + 2 against 4 ties."""
    play(melee, f"@paras melee plain fritz behind dice={faces}")
    assert (out(melee, "plain"), out(melee, "fritz")) == (gone == "plain", gone == "fritz")


@pytest.mark.audits("LN-R051", "LN-R037")
def test_wounded_expert_from_behind(melee):
    """Hurt: die + 1 (expert) - 2 (wounded) + 2 (behind) = die + 1; 3 + 1 against 4 ties,
    4 + 1 against 4 wins."""
    play(melee, "@paras melee hurt fritz behind dice=3,4")
    assert not out(melee, "hurt") and not out(melee, "fritz")
    play(melee, "@paras melee hurt kurt behind dice=4,4")
    assert out(melee, "kurt")


@pytest.mark.audits("LN-R051")
def test_a_figure_that_lay_down_fights_at_minus_one(ln):
    """ "-1: soldato coricato": Fritz lay down in his move; 3 against 4 - 1 is a tie."""
    add(ln, "plain", "paras")
    to_phase(ln, 1, "move-second")
    play(ln, "@garrison prone fritz")
    to_phase(ln, 1, "melee")
    play(ln, "@paras melee plain fritz dice=3,4")
    assert not out(ln, "plain") and not out(ln, "fritz")


@pytest.mark.audits("LN-R050", "LN-R021")
def test_a_figure_eliminated_in_the_fire_is_in_no_melee(fire):
    """The melee comes after the fire (B.2): Fritz, eliminated by Jones, is gone."""
    play(fire, "@paras fire jones fritz half dice=6,6")
    to_phase(fire, 1, "melee")
    refused(fire, "@paras melee brown fritz dice=6,1", rule="LN-R037")


@pytest.mark.audits("LN-R052", "LN-AMB-13")
@pytest.mark.parametrize(("faces", "caught"), [("4,2", False), ("4,3", True), ("6,1", False)])
def test_leaving_at_the_edge_of_the_last_roll(ln, faces, caught):
    """ "L'avversario godrà di un ultimo lancio di dado con la modifica di +2": Plain
    leaves Fritz; 4 against 2 + 2 gets away, 4 against 3 + 2 is cut down; with 6
    against 3, Plain gets away and Fritz, the one who rolled last, is not eliminated."""
    add(ln, "plain", "paras")
    to_phase(ln, 1, "move-first")
    play(ln, f"@paras leave plain fritz dice={faces}")
    assert out(ln, "plain") == caught and not out(ln, "fritz")


# -------------------------------------------------------------------- B.9 aircraft, AA


@pytest.fixture
def air(ln):
    add(ln, "spit", "paras", kind="aircraft", status=("hidden",), stats={"cv": 4, "passes": 3})
    return ln


@pytest.mark.audits("LN-R060")
def test_three_passes_and_no_fourth(air):
    """ "Massimo tre passaggi, dopo i quali non può più far ritorno"."""
    for turn in (1, 2, 3):
        to_phase(air, turn, "fire")
        play(air, "pass spit")
    to_phase(air, 4, "fire")
    refused(air, "pass spit", rule="LN-R060")


@pytest.mark.audits("LN-R061", "LN-AMB-14")
@pytest.mark.parametrize(("face", "hit"), [(4, False), (5, True)])
def test_the_strike_hits_on_five_whatever_the_target(air, face, hit):
    """ "Gli aerei colpiscono sempre solo con 5 o 6": no -1 for Fritz lying down."""
    to_phase(air, 1, "move-second")
    play(air, "@garrison prone fritz")
    to_phase(air, 1, "fire")
    play(air, "pass spit")
    facts = play(air, f"strike spit fritz dice={face}" + (",1" if hit else ""))
    assert outcomes(facts)[0] == ("hit" if hit else "miss") and not rolled(facts)[0].mods


@pytest.mark.audits("LN-R061", "LN-AMB-14", "LN-R035")
def test_every_figure_in_the_strike_rolls_its_damage_not_heavy(air):
    """The 3 cm area: Fritz and Kurt each roll; Kurt's 4 is a wound (no +1)."""
    to_phase(air, 1, "fire")
    play(air, "pass spit")
    facts = play(air, "strike spit fritz kurt dice=6,5,4")
    assert outcomes(facts) == ["hit", "eliminated", "wound"]
    assert not rolled(facts)[2].mods
    after_fire(air)
    assert out(air, "fritz") and has(air, "kurt", "wounded")


@pytest.mark.audits("LN-R061", "LN-AMB-14", "LN-R041")
@pytest.mark.parametrize(("spit", "panzer", "result"), [(2, 3, "no damage"), (5, 3, "destroyed")])
def test_a_strike_on_a_tank_is_the_opposed_roll(air, spit, panzer, result):
    """The aircraft's combat value 4 against the Panzer's 3: 6 against 6, none; 9 against 6."""
    to_phase(air, 1, "fire")
    play(air, "pass spit")
    facts = play(air, f"strike spit panzer dice=5,{spit},{panzer}")
    assert outcomes(facts)[-1].endswith(result)


@pytest.mark.audits("LN-R062", "LN-AMB-15")
@pytest.mark.parametrize(("face", "down"), [(4, False), (5, True)])
def test_anti_aircraft_fire_on_five_and_before_the_strike(air, face, down):
    """ "Le armi di controaerea colpiscono con 5 o 6": brought down, the Spitfire strikes
    nothing on that pass."""
    to_phase(air, 1, "fire")
    play(air, "pass spit", f"@garrison aa flak spit dice={face}")
    if down:
        assert out(air, "spit")
        refused(air, "strike spit fritz dice=6,6", rule="LN-R062")
    else:
        assert outcomes(play(air, "strike spit fritz dice=6,6")) == ["hit", "eliminated"]


@pytest.mark.audits("LN-R062", "LN-AMB-15")
def test_no_anti_aircraft_fire_at_an_aircraft_not_passing(air):
    to_phase(air, 1, "fire")
    refused(air, "@garrison aa flak spit dice=6", rule=TYPING)


@pytest.mark.audits("LN-R062")
def test_a_rifleman_is_no_anti_aircraft_weapon(air):
    to_phase(air, 1, "fire")
    play(air, "pass spit")
    refused(air, "@garrison aa fritz spit dice=6", rule="LN-R062")


@pytest.mark.audits("LN-R060", "LN-R062")
def test_an_aircraft_brought_down_makes_no_further_pass(air):
    to_phase(air, 1, "fire")
    play(air, "pass spit", "@garrison aa flak spit dice=6")
    to_phase(air, 2, "fire")
    refused(air, "pass spit", rule="LN-R062")


# ------------------------------------------------------------------------------ B.9 morale


@pytest.mark.audits("LN-R070", "LN-AMB-16")
@pytest.mark.parametrize(("lost", "due"), [(1, False), (2, True)])
def test_half_of_four_is_two(ln, lost, due):
    """ "Quando un reparto subisce il 50% di perdite": two of four, and not one."""
    four(ln)
    to_phase(ln, 1, "fire")
    for uid in ("f1", "f2")[:lost]:
        play(ln, f"out {uid}")
    to_phase(ln, 1, "morale")
    if due:
        assert outcomes(play(ln, "morale four dice=6")) == ["holds"]
    else:
        refused(ln, "morale four dice=6", rule="LN-R070")


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_wounded_men_are_no_losses(ln):
    """One of four eliminated, the three others wounded by fire: no test."""
    four(ln)
    to_phase(ln, 1, "fire")
    play(ln, "@paras fire jones f1 half dice=6,6")
    for shooter, uid in (("brown", "f2"), ("smith", "f3"), ("wood", "f4")):
        play(ln, f"@paras fire {shooter} {uid} half dice=6,2")
    to_phase(ln, 1, "morale")
    assert out(ln, "f1") and has(ln, "f2", "wounded")
    refused(ln, "morale four dice=6", rule="LN-R070")


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_losses_add_up_over_two_turns(ln):
    """One man lost in turn 1 (no test), a second in turn 2: half, a test."""
    four(ln)
    to_phase(ln, 1, "fire")
    play(ln, "@paras fire jones f1 half dice=6,6")
    to_phase(ln, 2, "fire")
    play(ln, "@paras fire jones f2 half dice=6,6")
    to_phase(ln, 2, "morale")
    assert outcomes(play(ln, "morale four dice=6")) == ["holds"]


@pytest.mark.audits("LN-R070")
@pytest.mark.parametrize(("face", "shaken"), [(2, True), (3, False)])
def test_the_test_shakes_on_one_or_two(ln, face, shaken):
    """ "1 o 2 indicano che il morale è scosso e il reparto deve ripiegare"."""
    four(ln, "f1", "f2")
    to_phase(ln, 1, "morale")
    play(ln, f"morale four dice={face}")
    assert has(ln, "f3", "retreating") == shaken and has(ln, "f4", "retreating") == shaken


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_a_morale_test_is_rolled_only_in_the_morale_step(ln):
    four(ln)
    to_phase(ln, 1, "fire")
    play(ln, "out f1", "out f2")
    refused(ln, "morale four dice=6", rule="ENG-2")


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_a_retreating_unit_still_fires(ln):
    """Falling back is no bar to firing (the fragment forbids nothing): F3 still shoots."""
    four(ln, "f1", "f2")
    to_phase(ln, 1, "morale")
    play(ln, "morale four dice=1")
    to_phase(ln, 2, "fire")
    assert outcomes(play(ln, "@garrison fire f3 jones half dice=6,1"))[0] == "hit"


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_reinforcements_end_the_retreat_only_at_the_starting_number(ln):
    """ "Fino a quando non riceve rinforzi che ne riportino il numero ad un valore uguale a
    quello con il quale aveva iniziato": Four, down to two, gets Karl (three: still falls
    back), then Max (four: the retreat ends)."""
    four(ln, "f1", "f2")
    to_phase(ln, 1, "morale")
    play(ln, "morale four dice=1")
    to_phase(ln, 2, "move-second")  # the garrison's move brings them up
    play(ln, "reinforce f3 karl")
    assert has(ln, "f3", "retreating") and has(ln, "karl", "retreating")
    play(ln, "reinforce f3 max")
    assert not has(ln, "f3", "retreating") and not has(ln, "max", "retreating")
