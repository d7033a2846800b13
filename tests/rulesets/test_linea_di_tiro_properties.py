"""Linea di Tiro pure rules: properties that hold for every input."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from core.rulesets.linea_di_tiro import rules
from core.rulesets.linea_di_tiro.rules import assault, spotting
from core.rulesets.linea_di_tiro.tables import mg_table
from core.rulesets.linea_di_tiro.tables import spotting as spotting_table

ROWS = [(r.kind, r.state) for r in spotting_table().targets]


@given(st.sampled_from(ROWS), st.integers(0, 10), st.booleans(), st.booleans())
def test_a_shot_never_shortens_the_spotting_distance(row, shots, vehicle, recon):
    before = spotting.distance(*row, shots, vehicle, recon)
    after = spotting.distance(*row, shots + 1, vehicle, recon)
    if before is None:
        assert after is None
    else:
        cap = shots >= spotting_table().max_doublings
        assert after == (before if cap else 2 * before)
        assert spotting.distance(*row, shots, True, False) * 2 == spotting.distance(*row, shots, False, False)


@given(st.integers(-20, 20), st.integers(-20, 20))
def test_melee_has_one_winner_or_a_tie(a, d):
    won = assault.melee_winner(a, d)
    assert won == {1: "attacker", -1: "defender", 0: "both"}[(a > d) - (a < d)]
    assert assault.melee_winner(d, a) == {"attacker": "defender", "defender": "attacker", "both": "both"}[won]


@given(st.integers(1, 6), st.integers(1, 3))
def test_morale_outcomes_partition_the_die(total, morale):
    """Rules: LT-AMB-01."""
    result = rules.morale_result(total, morale)
    if total <= morale:
        assert result == "steady"
    elif total < 2 * morale:
        assert result == "fall-back"
    else:
        assert result == "flee"


@given(st.integers(0, 20), st.booleans(), st.booleans())
def test_the_he_streak_grows_only_with_he_at_immobilised_infantry(streak, he, pinned):
    """Rules: LT-AMB-20."""
    after = rules.he_streak_after(streak, he, pinned)
    assert after == (min(streak + 1, mg_table().he_streak_max) if he and pinned else 0)
