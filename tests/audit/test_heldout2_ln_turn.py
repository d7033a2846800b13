"""A second held-out audit of Ludonet (the third look at it) from the Italian fragment and
the digest alone: the turn (B.1-B.2: who moves first, once, and what each step refuses),
movement at every edge of B.3's table, fatigue's three turns counted to their last, the
vehicle immobilised "per due turni" and still firing, and sight in woods (B.4) for a man
standing and one who lay down where he stood."""

from __future__ import annotations

import pytest
from audit_ln_table import add, allowed, hit_if_seen, out, outcomes, play, refused, rolled, to_phase

from core.log import events as ev
from core.refusal import TYPING

# --------------------------------------------------------------- B.1-B.2 first player, the steps


@pytest.mark.audits("LN-R002", "LN-AMB-01")
def test_a_tie_for_first_player_is_rolled_again_and_the_winner_moves_first(ln):
    """ "Il primo giocatore è deciso con il lancio di un dado" (B.1): 3 against 3 is no
    decision; 2 against 5 makes the garrison first, and the paras wait for their move."""
    facts = play(ln, "next dice=3,3,2,5")
    assert [r.faces for r in rolled(facts)] == [(3,), (3,), (2,), (5,)]
    assert (ln.state.turn, ln.state.phase) == (1, "move-first")
    refused(ln, "@paras move smith 5", rule="LN-AMB-01")
    play(ln, "@garrison move fritz 5")


@pytest.mark.audits("LN-R002", "LN-AMB-01")
def test_the_first_player_is_rolled_once_for_the_scenario(ln):
    """ "All'inizio dello scenario": turn 2 begins with no roll, the same side first."""
    play(ln, "next dice=1,4")  # garrison first
    for _ in range(6):
        play(ln, "next")
    assert (ln.state.turn, ln.state.phase) == (1, "end")
    facts = play(ln, "next")
    assert not rolled(facts)
    began = [e for e in facts if isinstance(e, ev.PhaseBegan)]
    assert (ln.state.turn, ln.state.phase) == (2, "move-first") and began[-1].active == "garrison"


@pytest.mark.audits("LN-AMB-01", "LN-R021")
@pytest.mark.parametrize(
    ("phase", "line"),
    [
        ("fire", "@paras move smith 5"),
        ("move-first", "@paras fire jones fritz half dice=6,6"),
        ("reveal", "@paras fire jones fritz half dice=6,6"),
        ("melee", "@paras fire jones fritz half dice=6,6"),
        ("fire", "@paras melee jones fritz dice=6,1"),
        ("move-second", "@paras move smith 5"),
    ],
)
def test_each_step_refuses_what_belongs_to_another(ln, phase, line):
    """B.2: the moves, then the (simultaneous) fire, then the melee; the first player
    (the paras, here) does not move in the second player's step."""
    to_phase(ln, 1, phase)
    refused(ln, line, rule="ENG-2")


# ------------------------------------------------------------------------ B.3 movement


@pytest.mark.audits("LN-R010")
@pytest.mark.parametrize(
    ("line", "ok"),
    [
        ("move jones 10", True),
        ("move jones 10.5", False),
        ("move jones 14 run dice=1", True),
        ("move jones 14.5 run dice=1", False),
        ("move jones 3 crawl", True),
        ("move jones 3.5 crawl", False),
    ],
)
def test_each_allowance_at_its_edge(move, line, ok):
    """ "Fanti: 10 cm. Correre: 14 cm. ... Carponi: 3 cm." (B.3): the most, not a mm more."""
    allowed(move, "@paras " + line, ok, rule="LN-R010")
    if ok:
        assert not out(move, "jones")


@pytest.mark.audits("LN-R010", "LN-AMB-24")
def test_a_figure_with_a_heavy_weapon_does_not_run(move):
    """ "Fanti con armi pesanti: 5 cm": the Bren gunner's allowance, not 14 by running."""
    refused(move, "@paras move bren 5 run dice=1", rule="LN-AMB-24")
    play(move, "@paras move bren 5")


@pytest.mark.audits("LN-R012")
@pytest.mark.parametrize(("face", "tired"), [(4, False), (5, True), (6, True)])
def test_fatigue_on_five_or_six(move, face, tired):
    """ "Se si ottiene 5 o 6, si è stanchi e non si può correre nei prossimi tre turni."""
    play(move, f"@paras move smith 12 run dice={face}")
    to_phase(move, 2, "move-first")
    if tired:
        refused(move, "@paras move smith 12 run dice=1", rule="LN-R012")
    else:
        play(move, "@paras move smith 12 run dice=1")


@pytest.mark.audits("LN-R012", "LN-AMB-19")
def test_tired_for_the_next_three_turns_and_not_a_fourth(move):
    """Tired in turn 1: no running in turns 2, 3 and 4 (walking 10 still), running in 5."""
    play(move, "@paras move smith 14 run dice=5")
    to_phase(move, 2, "move-first")
    play(move, "@paras move smith 10")
    for turn in (3, 4):
        to_phase(move, turn, "move-first")
        refused(move, "@paras move smith 11 run dice=1", rule="LN-R012")
    to_phase(move, 5, "move-first")
    play(move, "@paras move smith 14 run dice=1")


@pytest.mark.audits("LN-R010", "LN-R037", "LN-AMB-09")
def test_a_wounded_figure_still_runs_its_fourteen(ln):
    """A wound costs -1 to fire and -2 in melee; the movement table is the same."""
    add(ln, "hurt", "paras", status=("wounded",))
    to_phase(ln, 1, "move-first")
    play(ln, "@paras move hurt 14 run dice=1")


@pytest.mark.audits("LN-R011", "LN-AMB-04")
@pytest.mark.parametrize(("cm", "ok"), [(25, True), (25.5, False)])
def test_a_vehicle_moves_its_scenario_allowance(move, cm, ok):
    """Vehicle movement is the scenario's (B.3: missing from the fragment): the Sherman's 25."""
    allowed(move, f"@paras move sherman {cm:g}", ok, rule="LN-R011")


@pytest.mark.audits("LN-R041", "LN-AMB-11")
def test_an_immobilised_tank_still_fires_and_moves_again_in_the_third_turn(fire):
    """ "Immobilizzato per due turni": hit by the PIAT (margin 2) in turn 1, the Panzer
    fires back in turn 2 from where it stands, stays in turn 3 and moves in turn 4."""
    facts = play(fire, "@paras fire piat panzer half dice=3,6,3")  # 6 + 2 against 3 + 3
    assert outcomes(facts)[-1].endswith("immobilised")
    to_phase(fire, 2, "move-second")
    refused(fire, "@garrison move panzer 5", rule="LN-R041")
    to_phase(fire, 2, "fire")
    facts = play(fire, "@garrison fire panzer sherman half dice=4,6,1")  # 6 + 3 against 1 + 4
    assert outcomes(facts)[-1].endswith("destroyed")
    to_phase(fire, 3, "move-second")
    refused(fire, "@garrison move panzer 5", rule="LN-R041")
    to_phase(fire, 4, "move-second")
    play(fire, "@garrison move panzer 5")


# ------------------------------------------------------------------------ B.4 sight in woods


@pytest.mark.audits("LN-R020")
@pytest.mark.parametrize(("cm", "seen"), [(20, True), (20.5, False)])
def test_a_man_standing_in_woods_is_seen_up_to_20(fire, cm, seen):
    """ "Dentro boschi o macchie la visibilità è ridotta a 20cm per un uomo in posizione eretta."""
    line = f"@garrison fire fritz jones half woods={cm:g} dice=6,1"
    hit_if_seen(fire, line, seen)


@pytest.mark.audits("LN-R020", "LN-R031")
@pytest.mark.parametrize(("cm", "seen"), [(12, True), (12.5, False)])
def test_a_man_who_lay_down_where_he_stood_is_seen_up_to_12(move, cm, seen):
    """ "Se è sdraiato è visibile solo fino a 12cm": Wood lies down without moving."""
    play(move, "@paras prone wood")
    to_phase(move, 1, "fire")
    line = f"@garrison fire fritz wood half woods={cm:g} dice=6,1"
    hit_if_seen(move, line, seen)


@pytest.mark.audits("LN-R001", "LN-R020")
def test_a_hidden_unit_is_no_target_until_the_referee_puts_it_on_the_table(fire):
    """B.1: the referee puts on the table "le sole unità visibili"; the MG 42 in the barn
    is not there to be shot at until he reveals it."""
    refused(fire, "@paras fire bren mg42 half dice=6,6", rule=TYPING)
    to_phase(fire, 2, "reveal")
    play(fire, "clear mg42 hidden")
    to_phase(fire, 2, "fire")
    assert outcomes(play(fire, "@paras fire bren mg42 half dice=6,6")) == ["hit", "eliminated"]
