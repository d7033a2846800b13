"""A third held-out audit of Ludonet (the fourth look at it), from the Italian fragment and
the digest alone: each status a piece can carry (tired, wounded, lying down, in a tied
melee, immobilised, hidden, retreating, reinforced, eliminated or destroyed) crossed with
each action of each step (move, run, crawl, lie down, fire, grenade, melee, leave, morale),
and vehicles and aircraft with every action that belongs to figures (B.1-B.9)."""

from __future__ import annotations

import pytest
from audit_ln_table import (
    add,
    after_fire,
    four,
    four_shaken,
    out,
    outcomes,
    plain_at_melee,
    play,
    refused,
    rolled,
    tied,
    to_phase,
)
from playing import all_refused, names

from core.refusal import TYPING
from core.ruleset import Refused

# ------------------------------------------------------------------ tired (B.3 LN-R012)


@pytest.mark.audits("LN-R012", "LN-R010")
def test_a_tired_figure_still_crawls(move):
    """Tired, "non si può correre": crawling (3 cm) is no running."""
    play(move, "@paras move smith 14 run dice=6")
    to_phase(move, 2, "move-first")
    assert rolled(play(move, "@paras move smith 3 crawl")) == []


@pytest.mark.audits("LN-R012")
def test_fatigue_is_rolled_at_every_run(move):
    """ "Ogni volta che si corre, si lancia 1D6": a run of 11 cm rolls the die too."""
    facts = play(move, "@paras move brown 11 run dice=4")
    assert [r.faces for r in rolled(facts)] == [(4,)]


@pytest.mark.audits("LN-R012")
def test_a_walk_rolls_no_fatigue(move):
    """Only running rolls for fatigue: a walk of 10 rolls nothing."""
    assert rolled(play(move, "@paras move brown 10")) == []


@pytest.mark.audits("LN-R012", "LN-R031")
def test_a_tired_figure_fires_with_no_penalty_for_it(move):
    """Fatigue forbids running only: tired Smith (expert) who did not move this turn hits
    Fritz at half range on 3 (3 + 1)."""
    play(move, "@paras move smith 14 run dice=5")
    to_phase(move, 2, "fire")
    assert outcomes(play(move, "@paras fire smith fritz half dice=3,1"))[0] == "hit"


# ------------------------------------------------------------ wounded (B.6 LN-R037)


@pytest.mark.audits("LN-R031", "LN-R037")
@pytest.mark.parametrize(("face", "hit"), [(5, False), (6, True)])
def test_a_wounded_man_who_ran_fires_at_minus_two(ln, face, hit):
    """ "Se il tiratore ha mosso in questo turno, è ferito ... sottraete 1": a wounded man
    who ran, at half range (4+), needs a 6 (5 - 2 = 3 misses)."""
    add(ln, "hurt", "garrison", status=("wounded",))
    to_phase(ln, 1, "move-second")
    play(ln, "@garrison move hurt 12 run dice=1")
    to_phase(ln, 1, "fire")
    facts = play(ln, f"@garrison fire hurt jones half dice={face}" + (",1" if hit else ""))
    assert outcomes(facts)[0] == ("hit" if hit else "miss")


@pytest.mark.audits("LN-R037", "LN-R041", "LN-AMB-10")
def test_a_tank_wounding_a_wounded_man_eliminates_him(fire):
    """ "Con due ferite si viene eliminati" meets "o ferito se fanteria": the Panzer at the
    wounded PIAT man, 3 + 3 against 2 + 2, a margin of 2: a second wound."""
    play(fire, "@garrison fire fritz piat half dice=6,2")
    after_fire(fire)
    assert not out(fire, "piat")
    to_phase(fire, 2, "fire")
    play(fire, "@garrison fire panzer piat half dice=6,3,2")
    after_fire(fire)
    assert out(fire, "piat")


@pytest.mark.audits("LN-R041", "LN-AMB-10")
@pytest.mark.parametrize(("faces", "result"), [("2,3", "none"), ("3,2", "wound"), ("4,2", "out")])
def test_a_tank_at_a_man_is_the_opposed_roll(fire, faces, result):
    """The Panzer (cv 3) at the PIAT man (cv 2): 5-5 wasted, 6-4 wounded, 7-4 eliminated."""
    play(fire, f"@garrison fire panzer piat half dice=6,{faces}")
    after_fire(fire)
    assert out(fire, "piat") == (result == "out")
    assert fire.state.units["piat"].has("wounded") == (result == "wound")


# ------------------------------------------------------------- lying down (B.4-B.8)


@pytest.mark.audits("LN-R031")
def test_a_shooter_lying_down_has_no_penalty(move):
    """Only the target lying down is -1: Wood lies down where he stands and fires at half
    range, 3 + 1 (expert) = 4 hits."""
    play(move, "@paras prone wood")
    to_phase(move, 1, "fire")
    assert outcomes(play(move, "@paras fire wood fritz half dice=3,1"))[0] == "hit"


@pytest.mark.audits("LN-R051", "LN-AMB-05")
def test_a_figure_that_crawled_fights_lying_down(move):
    """Crawling is lying down (LN-AMB-05): Jones crawls 3 and fights Fritz at +1 -1:
    3 against 3 is a tie, the fight goes on."""
    play(move, "@paras move jones 3 crawl")
    to_phase(move, 1, "melee")
    play(move, "@paras melee jones fritz dice=3,3")
    assert not out(move, "jones") and not out(move, "fritz")


@pytest.mark.audits("LN-R051", "LN-R037")
@pytest.mark.parametrize(("faces", "gone"), [("1,4", False), ("2,4", True)])
def test_wounded_and_lying_down_in_melee(ln, faces, gone):
    """ "-1: soldato coricato. -2: soldato ferito": a wounded man lying down fights at -3;
    Plain's 1 ties his 4, Plain's 2 beats it."""
    add(ln, "hurt", "garrison", status=("wounded",))
    add(ln, "plain", "paras")
    to_phase(ln, 1, "move-second")
    play(ln, "@garrison prone hurt")
    to_phase(ln, 1, "melee")
    play(ln, f"@paras melee plain hurt dice={faces}")
    assert out(ln, "hurt") == gone and not out(ln, "plain")


# -------------------------------------------------------- a tied melee (B.8 LN-R050)


@pytest.mark.audits("LN-R050", "LN-AMB-12")
def test_two_locked_in_a_tie_do_not_run_off_either(ln):
    """Tied, Jones cannot run away in the next move either: leaving is by the last roll."""
    tied(ln)
    to_phase(ln, 2, "move-first")
    all_refused(ln, "@paras move plain 12 run dice=1", "@paras move plain 3 crawl", rule="LN-R052")


@pytest.mark.audits("LN-R052", "LN-AMB-13")
@pytest.mark.parametrize(("faces", "gone"), [("3,2", True), ("3,1", False), ("2,1", True)])
def test_leaving_a_melee_the_opponent_needs_more(ln, faces, gone):
    """ "L'avversario godrà di un ultimo lancio di dado con la modifica di +2" (LN-AMB-13:
    higher than the leaver's eliminates him): Plain's 3 against Fritz's 2 + 2 is caught,
    against 1 + 2 gets away; 2 against 1 + 2 is caught. Fritz is never eliminated."""
    plain_at_melee(ln)
    play(ln, "@paras melee plain fritz dice=4,4")
    to_phase(ln, 2, "melee")
    lv, op = faces.split(",")
    play(ln, f"@paras leave plain fritz dice={lv},{op}")
    assert out(ln, "plain") == gone
    assert not out(ln, "fritz")


@pytest.mark.audits("LN-R050", "LN-R021")
def test_a_tied_pair_can_be_shot_at_in_the_fire(ln):
    """Nothing in B.4-B.8 shelters a figure in melee from fire: Jones shoots Fritz, tied
    with Plain since turn 1, in turn 2's fire."""
    plain_at_melee(ln)
    play(ln, "@paras melee plain fritz dice=4,4")
    to_phase(ln, 2, "fire")
    play(ln, "@paras fire jones fritz half dice=6,6")
    after_fire(ln)
    assert out(ln, "fritz")


# ------------------------------------------------------------------- vehicles with all


@pytest.mark.audits("LN-R050")
def test_a_tank_is_no_figure_in_melee(ln):
    """ "Quando due figure nemiche sono a contatto": a tank is a model, not a figure."""
    to_phase(ln, 1, "melee")
    all_refused(ln, "@paras melee jones panzer dice=6,1", "@garrison melee panzer jones dice=6,1", rule="LN-R050")


@pytest.mark.audits("LN-R010", "LN-R011", "LN-R012")
@pytest.mark.parametrize(
    ("line", "rule"),
    [("move sherman 10 run dice=1", "LN-R011"), ("move sherman 3 crawl", "LN-R011"), ("prone sherman", "LN-R031")],
)
def test_a_tank_neither_runs_nor_crawls_nor_lies_down(move, line, rule):
    """Running, crawling and lying down are the figures' (B.3); a tank moves its scenario's."""
    with pytest.raises(Refused) as no:
        play(move, "@paras " + line)
    names(no.value, rule)


@pytest.mark.audits("LN-R040", "LN-R031")
@pytest.mark.parametrize(("face", "hit"), [(5, False), (6, True)])
def test_a_tank_that_moved_fires_at_minus_one(move, face, hit):
    """ "Si svolgono nel solito modo": the Sherman moved, fires at the Panzer beyond half
    range, needs 5 + 1."""
    play(move, "@paras move sherman 20")
    to_phase(move, 1, "fire")
    facts = play(move, f"@paras fire sherman panzer full dice={face}" + (",1,6" if hit else ""))
    assert outcomes(facts)[0] == ("hit" if hit else "miss")


@pytest.mark.audits("LN-R040", "LN-R031")
@pytest.mark.parametrize(("face", "hit"), [(3, False), (4, True)])
def test_a_tank_in_cover_is_minus_one(fire, face, hit):
    """The Panzer "al riparo", the PIAT man expert: at half range (4+) -1 +1, a 4 hits."""
    facts = play(fire, f"@paras fire piat panzer half cover dice={face}" + (",1,6" if hit else ""))
    assert outcomes(facts)[0] == ("hit" if hit else "miss")


@pytest.mark.audits("LN-R041", "LN-AMB-11")
def test_a_destroyed_tank_fires_in_its_fire_and_never_after(fire):
    """Destroyed in turn 1's fire, the Panzer still fires that fire (LN-R021), not turn 2's."""
    play(fire, "@paras fire piat panzer half dice=6,6,1", "@garrison fire panzer sherman half dice=6,1,6")
    after_fire(fire)
    assert out(fire, "panzer")
    to_phase(fire, 2, "fire")
    refused(fire, "@garrison fire panzer sherman half dice=6,6,1", rule="LN-R041")


@pytest.mark.audits("LN-R041", "LN-AMB-11")
def test_an_immobilised_tank_hit_again_by_three_is_destroyed(fire):
    """Immobilised by 2 in turn 1, the Panzer is hit by 3 in turn 2: destroyed."""
    play(fire, "@paras fire piat panzer half dice=6,4,3")  # 4 + 2 against 3 + 3: wasted
    after_fire(fire)
    assert not out(fire, "panzer")
    to_phase(fire, 2, "fire")
    play(fire, "@paras fire piat panzer half dice=6,4,1")  # 6 against 4: 2, immobilised
    after_fire(fire)
    to_phase(fire, 3, "fire")
    play(fire, "@paras fire piat panzer half dice=6,5,1")  # 7 against 4: 3
    after_fire(fire)
    assert out(fire, "panzer")


@pytest.mark.audits("LN-R062")
def test_anti_aircraft_fire_at_a_tank_is_refused(fire):
    """ "Le armi di controaerea" fire at aircraft: the Flak's aa is not at the Sherman."""
    refused(fire, "@garrison aa flak sherman dice=6", rule="LN-R060")


# ------------------------------------------------------------------- aircraft with all


@pytest.mark.audits("LN-R060")
@pytest.mark.parametrize(
    ("phase", "line", "rule"),
    [
        ("move-first", "@paras move typhoon 10", "LN-R060"),
        ("fire", "@paras fire typhoon fritz half dice=6,6", "LN-R061"),
        ("melee", "@paras melee typhoon fritz dice=6,1", "LN-R050"),
    ],
)
def test_an_aircraft_only_passes_and_strikes(ln, phase, line, rule):
    """B.9: the aircraft's part is its passes over the table and the strike of each."""
    to_phase(ln, 1, phase)
    if phase == "fire":
        play(ln, "pass typhoon")
    refused(ln, line, rule=rule)


@pytest.mark.audits("LN-R061", "LN-R031")
def test_a_strike_on_a_figure_lying_in_cover_still_hits_on_five(ln):
    """ "Gli aerei colpiscono sempre solo con 5 o 6": Fritz lying down behind cover is hit
    on a 5 all the same."""
    to_phase(ln, 1, "move-second")
    play(ln, "@garrison prone fritz")
    to_phase(ln, 1, "fire")
    play(ln, "pass typhoon")
    assert outcomes(play(ln, "strike typhoon fritz dice=5,5"))[0] == "hit"
    after_fire(ln)
    assert out(ln, "fritz")


@pytest.mark.audits("LN-R061", "LN-R070")
def test_strike_losses_count_for_morale(ln):
    """Two of four killed by one strike: half, a test (LN-R070)."""
    four(ln)
    to_phase(ln, 1, "fire")
    play(ln, "pass typhoon", "strike typhoon f1 f2 dice=6,5,6")
    to_phase(ln, 1, "morale")
    refused(ln, "next", rule="LN-R070")
    play(ln, "morale four dice=2")
    assert ln.state.units["f3"].has("retreating")


# ------------------------------------------------------------------------ grenades


@pytest.mark.audits("LN-R038", "LN-AMB-08", "LN-R036")
def test_a_grenade_from_the_bren_gunner_is_not_heavy(fire):
    """The grenade is not the heavy weapon: Evans's grenade wounds Fritz on a 4."""
    play(fire, "grenade bren half fritz dice=6,4")
    after_fire(fire)
    assert not out(fire, "fritz") and fire.state.units["fritz"].has("wounded")


@pytest.mark.audits("LN-R038", "LN-R031")
@pytest.mark.parametrize(("face", "lands"), [(3, False), (4, True)])
def test_a_grenade_after_a_move(move, face, lands):
    """Thrown by expert Jones, who moved: half range 4+, -1 +1: a 4 lands, a 3 does not."""
    play(move, "@paras move jones 8")
    to_phase(move, 1, "fire")
    facts = play(move, f"grenade jones half fritz dice={face}" + (",1" if lands else ""))
    assert outcomes(facts)[0] == ("hit" if lands else "miss")


@pytest.mark.audits("LN-R038", "LN-R070")
def test_grenade_losses_count_for_morale(ln):
    """A grenade kills two of Four: a test."""
    four(ln)
    to_phase(ln, 1, "fire")
    play(ln, "grenade jones half f1 f2 dice=6,5,6")
    to_phase(ln, 1, "morale")
    assert outcomes(play(ln, "morale four dice=3")) == ["holds"]


# ------------------------------------------------------------------ hidden (B.1)


@pytest.mark.audits("LN-R001", "LN-R050")
def test_a_hidden_figure_is_in_no_melee(ln):
    """The MG 42, off the table in the barn, cannot be fought in melee until placed."""
    to_phase(ln, 1, "melee")
    refused(ln, "@paras melee jones mg42 dice=6,1", rule=TYPING)


# ------------------------------------------------------------ retreating (B.9 LN-R070)


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_a_retreating_figure_still_fights_a_melee(ln):
    """The retreat forbids no melee: F3, retreating, is attacked by Jones: 2 against 5."""
    four_shaken(ln, "melee")
    play(ln, "@paras melee jones f3 dice=2,5")
    assert out(ln, "jones")


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_a_retreating_unit_that_passes_a_later_test_still_retreats(ln):
    """ "Continua a ritirarsi fino a quando non riceve rinforzi": F3 falls in turn 2, the
    test holds (6); Four is still falling back."""
    four_shaken(ln, "fire")
    play(ln, "@paras fire jones f3 half dice=6,6")
    to_phase(ln, 2, "morale")
    assert outcomes(play(ln, "morale four dice=6")) == ["holds"]
    assert ln.state.units["f4"].has("retreating")


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_no_test_without_a_further_loss(ln):
    """Shaken in turn 1, Four loses no one in turn 2: no test is due."""
    four_shaken(ln, "morale")
    refused(ln, "morale four dice=6", rule="LN-R070")
    play(ln, "next")


@pytest.mark.audits("LN-R070", "LN-AMB-16")
@pytest.mark.parametrize(("lost", "due"), [(2, False), (3, True)])
def test_half_of_five_is_three(ln, lost, due):
    """Gruppe Vogt, five: two lost is below half (4 < 5), three is beyond (6 >= 5)."""
    for uid in ("fritz", "kurt", "otto")[:lost]:
        play(ln, f"out {uid}")
    to_phase(ln, 1, "morale")
    if due:
        assert outcomes(play(ln, "morale vogt dice=6")) == ["holds"]
    else:
        refused(ln, "morale vogt dice=6", rule="LN-R070")


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_a_wounded_figure_eliminated_by_a_second_wound_is_a_loss(ln):
    """Two of four: F1 killed, F2 wounded twice in one turn's fire: two losses, a test."""
    four(ln)
    to_phase(ln, 1, "fire")
    play(ln, "@paras fire jones f1 half dice=6,6")
    play(ln, "@paras fire brown f2 half dice=6,2")
    play(ln, "@paras fire wood f2 half dice=6,3")
    to_phase(ln, 1, "morale")
    assert outcomes(play(ln, "morale four dice=5")) == ["holds"]


# -------------------------------------------------------- the end of the turn (B.2)


@pytest.mark.audits("LN-AMB-01")
@pytest.mark.parametrize(
    "line",
    [
        "@paras move jones 5",
        "@paras fire jones fritz half dice=6,6",
        "@paras melee jones fritz dice=6,1",
        "grenade jones half fritz dice=6,6",
    ],
)
def test_the_end_of_turn_takes_no_action(ln, line):
    """The end of the turn is clean-up (B.2 T7): no move, fire or melee in it."""
    to_phase(ln, 1, "end")
    refused(ln, line, rule="ENG-2")


@pytest.mark.audits("LN-AMB-01", "LN-R070")
def test_the_morale_step_takes_no_fire(ln):
    to_phase(ln, 1, "morale")
    refused(ln, "@paras fire jones fritz half dice=6,6", rule="ENG-2")
