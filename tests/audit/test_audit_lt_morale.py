"""Audit of Linea di Tiro's morale (C.8) from the book alone: the three outcomes with
both edges (M | M+1 and 2M-1 | 2M) for several morale values, the +1 situations, and
the voluntary rout."""

from __future__ import annotations

import pytest
from audit_lt_table import ALTERNATE, add, game_with, has, moved, outcome, play, rolled
from playing import refused


def _test(tmp_path, morale: int, die: int, plus: int = 0, status=("ready-2",), name: str = "m.ft"):
    g = game_with(tmp_path, ALTERNATE, name)
    add(g, "p", "us", "rifles", team="X", status=status, stats={"morale": morale, "speed": 27})
    play(g, "next")
    return g, play(g, f"@us morale p plus={plus} dice={die}")


@pytest.mark.audits("LT-R080", "LT-AMB-01")
@pytest.mark.parametrize("morale", [1, 2, 3])
def test_the_three_outcomes_at_both_edges(tmp_path, morale):
    """r <= M nothing; M < r < 2M falls back 5 cm facing the enemy and loses its ready
    shots; r >= 2M (LT-AMB-01) flees its full move, back to the enemy, losing them too."""
    for die in range(1, 7):
        g, facts = _test(tmp_path, morale, die, name=f"{die}.ft")
        if die <= morale:
            assert outcome(facts) == f"modified total {die}: steady"
            assert moved(facts) == [] and has(g, "p", "ready-2") and not has(g, "p", "retreating")
        elif die < 2 * morale:
            assert outcome(facts) == f"modified total {die}: fall-back"
            assert moved(facts) == [5] and not has(g, "p", "ready-1") and not has(g, "p", "ready-2")
            assert not has(g, "p", "retreating")
        else:
            assert outcome(facts) == f"modified total {die}: flee"
            assert moved(facts) == [27] and has(g, "p", "retreating")
            assert not has(g, "p", "ready-1") and not has(g, "p", "ready-2")


@pytest.mark.audits("LT-R080", "LT-AMB-01")
def test_morale_four_edges_with_modifiers(tmp_path):
    # M = 4: 4 steady, 5 fall back, 7 fall back, 8 flees
    for die, plus, want in ((4, 0, "steady"), (5, 0, "fall-back"), (6, 1, "fall-back"), (6, 2, "flee")):
        g, facts = _test(tmp_path, 4, die, plus, name=f"{die}{plus}.ft")
        assert outcome(facts) == f"modified total {die + plus}: {want}"


@pytest.mark.audits("LT-R081", "LT-AMB-02", "LT-AMB-21")
def test_each_situation_adds_one_and_immobilised_is_one_of_them(tmp_path):
    """+1 to the die for being immobilised, +1 for each other situation, cumulative."""
    g, facts = _test(tmp_path, 3, 3, 0, status=("immobilised",))
    assert outcome(facts) == "modified total 4: fall-back"
    g, facts = _test(tmp_path, 3, 3, 2, status=("immobilised",), name="b.ft")
    assert outcome(facts) == "modified total 6: flee"
    assert sum(m.value for m in rolled(facts)[0].mods) == 3


@pytest.mark.audits("LT-R082", "LT-AMB-33")
def test_a_piece_may_always_rout_of_its_own_will(lt):
    """Voluntary rout = the flee result: full move back to the enemy, ready shots lost,
    no dice; it is always possible (out of the piece's own card too)."""
    add(lt, "p", "german", "rifles", team="X", status=("ready-2",), stats={"speed": 22, "at": 5})
    add(lt, "t", "us", "sherman", team="Y", stats={"front": 5})
    play(lt, "next")  # a US card
    facts = play(lt, "@german rout p")
    assert moved(facts) == [22] and has(lt, "p", "retreating") and not has(lt, "p", "ready-2")
    assert not rolled(facts)
    play(lt, "next", "@german activate p A4 prepare=0")  # its own card: it routs, then fires no more
    play(lt, "@german rout p")
    refused(lt, "@german at p t dice=6,6", rule="LT-R051")  # a piece that flees does not fire (LT-R051)
