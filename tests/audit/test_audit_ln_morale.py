"""Audit of Ludonet's morale (B.9 LN-R070) from the book alone: a unit tests when it has
lost half its men (odd and even sizes at the edge), and again at every further loss;
1 or 2 shakes it and it falls back until reinforcements bring it back to the number it
started with; wounded men are no losses."""

from __future__ import annotations

import pytest
from audit_ln_table import add, four, has, lose, outcomes, play, to_phase

from core.ruleset import Refused


def _tests(g, team: str, die: int = 6) -> bool:
    try:
        play(g, f"morale {team} dice={die}")
    except Refused:
        return False
    return True


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_an_odd_unit_tests_at_three_of_five_lost_not_two(ln):
    lose(ln, "hans", "fritz")  # 2 of 5: below half
    to_phase(ln, 1, "morale")
    assert not _tests(ln, "gruppe vogt")
    to_phase(ln, 2, "fire")
    lose(ln, "kurt")  # 3 of 5
    to_phase(ln, 2, "morale")
    assert _tests(ln, "gruppe vogt")


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_a_wounded_man_is_no_loss_and_each_further_loss_tests_again(ln):
    for uid in ("e1", "e2", "e3", "e4"):
        add(ln, uid, "garrison", team="Second")
    add(ln, "w", "garrison", team="Second", status=("wounded",))  # a wounded man is no loss
    lose(ln, "e1")
    to_phase(ln, 1, "morale")
    assert not _tests(ln, "second")  # 1 of 5
    to_phase(ln, 2, "fire")
    lose(ln, "e2", "e3")  # 3 of 5
    to_phase(ln, 2, "morale")
    assert _tests(ln, "second")
    assert not _tests(ln, "second")  # once, until a further loss
    to_phase(ln, 3, "fire")
    lose(ln, "e4")
    to_phase(ln, 3, "morale")
    assert _tests(ln, "second")


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_four_men_test_at_two_lost(ln):
    four(ln)
    lose(ln, "f1")
    to_phase(ln, 1, "morale")
    assert not _tests(ln, "four")
    to_phase(ln, 2, "fire")
    lose(ln, "f2")
    to_phase(ln, 2, "morale")
    assert _tests(ln, "four")


@pytest.mark.audits("LN-R070", "LN-AMB-16")
@pytest.mark.parametrize(("die", "shaken"), [(1, True), (2, True), (3, False), (6, False)])
def test_one_or_two_shakes_the_unit_and_it_falls_back(ln, die, shaken):
    lose(ln, "hans", "fritz", "kurt")
    to_phase(ln, 1, "morale")
    facts = play(ln, f"morale gruppe vogt dice={die}")
    assert outcomes(facts) == ["shaken: falls back" if shaken else "holds"]
    assert has(ln, "otto", "retreating") == shaken and has(ln, "mg42", "retreating") == shaken


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_it_retreats_until_reinforced_to_its_starting_number(ln):
    lose(ln, "hans", "fritz", "kurt")
    to_phase(ln, 1, "morale")
    play(ln, "morale gruppe vogt dice=1")
    to_phase(ln, 2, "move-second")
    play(ln, "@garrison reinforce otto karl max")  # 4 of 5: still retreating
    assert has(ln, "otto", "retreating") and has(ln, "karl", "retreating")
    to_phase(ln, 2, "morale")
    play(ln, "morale reserve dice=6")  # down to one of three, the Reserve tests (ruling LN-REINFORCE)
    to_phase(ln, 3, "move-second")
    play(ln, "@garrison reinforce otto paul")  # 5 of 5: the retreat ends
    assert not any(has(ln, u, "retreating") for u in ("otto", "mg42", "karl", "max", "paul"))
