"""Audit of Ludonet's set-up, turn and movement (B.1-B.3) from the book alone: hidden
deployment, the first player rolled once, the turn's order, each move allowance at its
edge, vehicles' scenario moves, and fatigue after a run (5 or 6) for three turns."""

from __future__ import annotations

import pytest
from audit_ln_table import has, outcomes, play, to_phase

from core.log import events as ev
from core.ruleset import Refused


def _moves(g, line: str) -> bool:
    try:
        play(g, line)
    except Refused:
        return False
    return True


@pytest.mark.audits("LN-R001")
def test_hidden_units_are_on_paper_until_revealed(ln):
    assert "mg42" not in ln.view("paras").units and "mg42" in ln.view("garrison").units
    assert list(ln.view("paras").secrets) == ["deployment.paras"]  # the written deployment, his alone
    to_phase(ln, 1, "reveal")
    play(ln, "clear mg42 hidden")
    assert "mg42" in ln.view("paras").units


@pytest.mark.audits("LN-R002", "LN-AMB-01")
@pytest.mark.parametrize(("dice", "first"), [("6,1", "paras"), ("2,5", "garrison"), ("3,3,1,4", "garrison")])
def test_the_first_player_is_rolled_once_highest_first_ties_again(ln, dice, first):
    play(ln, f"next dice={dice}")
    assert (ln.state.phase, ln.state.active_side) == ("move-first", first)
    seen = []
    for _ in range(8):
        facts = play(ln, "next")
        began = next(e for e in facts if isinstance(e, ev.PhaseBegan))
        seen.append(began.phase)
        assert not [e for e in facts if isinstance(e, ev.Rolled)]  # never rolled again
    assert seen == ["move-second", "reveal", "fire", "melee", "morale", "end", "move-first", "move-second"]
    assert ln.state.active_side != first and ln.state.turn == 2


@pytest.mark.audits("LN-R010")
@pytest.mark.parametrize(
    ("who", "mode", "most"),
    [("smith", "walk", 10), ("jones", "run", 14), ("brown", "crawl", 3), ("bren", "walk", 5), ("bren", "crawl", 3)],
)
def test_each_move_allowance_at_its_edge(move, who, mode, most):
    dice = " dice=1" if mode == "run" else ""
    assert not _moves(move, f"@paras move {who} {most + 0.5:g} {mode}{dice}")
    assert _moves(move, f"@paras move {who} {most} {mode}{dice}")


@pytest.mark.audits("LN-AMB-24", "LN-R010")
def test_a_man_with_a_heavy_weapon_cannot_run(move):
    assert not _moves(move, "@paras move bren 5 run dice=1")


@pytest.mark.audits("LN-R011", "LN-AMB-04")
def test_vehicles_move_as_far_as_the_scenario_says(move):
    assert not _moves(move, "@paras move sherman 25.5")
    assert _moves(move, "@paras move sherman 25")
    to_phase(move, 1, "move-second")
    assert not _moves(move, "@garrison move lorry 1")  # the scenario gives it no move


@pytest.mark.audits("LN-R012", "LN-AMB-19")
def test_a_run_and_a_4_leaves_the_figure_fresh(move):
    assert outcomes(play(move, "@paras move jones 14 run dice=4")) == ["fresh"]
    to_phase(move, 2, "move-first")
    assert _moves(move, "@paras move jones 14 run dice=1")


@pytest.mark.audits("LN-R012", "LN-AMB-19")
def test_a_run_and_a_5_forbids_running_in_the_next_three_turns(move):
    play(move, "@paras move jones 14 run dice=5")
    for turn in (2, 3, 4):
        to_phase(move, turn, "move-first")
        assert not _moves(move, "@paras move jones 14 run dice=1"), turn
        assert _moves(move, "@paras move jones 10")  # a tired figure still walks
    to_phase(move, 5, "move-first")
    assert not any(has(move, "jones", f"tired-{n}") for n in (1, 2, 3))
    assert _moves(move, "@paras move jones 14 run dice=6")
