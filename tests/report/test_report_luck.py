"""The dice's luck: each roll judged by its exact odds, a side's by the exact
distribution of its sum of successes (a convolution)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from core.log import events as ev
from core.report import luck
from core.report.luck import assess, convolve, judge, side_luck
from core.report.model import RollFact


def fact(faces, target, *, sides=6, under=False, total=False, side="a", turn=1, check=None) -> RollFact:
    """A roll whose dice count each on its own (a sum, with ``total``), or as ``check`` says."""
    if check is None and target is not None:
        check = ev.Sum(total=target, under=under) if total else ev.Each(face=target, under=under)
    return RollFact(
        turn, side, "", ev.Roll("test", tuple(faces), sides, target, (), total, "", "", False, under, check)
    )


def test_a_roll_that_needs_every_die_is_one_success_or_none():
    """Breaking News §9.0: a save of two dice at 5+ failed on 5,3 is no success, not one."""
    j = judge(fact([5, 3], 5, check=ev.All(face=5)))
    assert j.successes == 0
    assert j.chances == (Fraction(8, 9), Fraction(1, 9))
    passed = judge(fact([5, 3], 5, check=ev.AtLeast(face=5)))
    assert passed.successes == 1 and passed.chances == (Fraction(4, 9), Fraction(5, 9))


def test_opposed_and_table_rolls_and_rolls_from_before_checks_are_not_judged():
    assert judge(fact([5, 3], None, check=ev.Opposed())) is None
    assert judge(fact([5, 3], None, check=ev.Read())) is None
    old = RollFact(1, "a", "", ev.Roll("save", (5, 3), target=5))  # a save from before checks
    assert judge(old) is None


def test_a_roll_counts_the_dice_that_reach_its_target():
    j = judge(fact([2, 5, 6, 4], 5))
    assert j.successes == 2
    assert j.chances == (Fraction(16, 81), Fraction(32, 81), Fraction(24, 81), Fraction(8, 81), Fraction(1, 81))
    assert j.expected == Fraction(4, 3)
    assert j.p_at_least == Fraction(33, 81)  # two or more of four dice at 5+
    assert j.p_at_most == Fraction(72, 81)


def test_a_roll_under_counts_the_dice_at_or_below_its_target():
    j = judge(fact([3, 8], 4, sides=10, under=True))
    assert j.successes == 1
    assert j.expected == Fraction(4, 5)


def test_a_summed_roll_is_one_success_if_its_total_makes_the_target():
    j = judge(fact([6, 4], 9, total=True))
    assert j.successes == 1
    assert j.chances == (Fraction(26, 36), Fraction(10, 36))  # 9+ on 2d6: 10 ways of 36
    under = judge(fact([6, 4], 4, total=True, under=True))
    assert under.successes == 0 and under.chances[1] == Fraction(6, 36)


def test_rolls_without_a_target_or_too_big_are_not_judged():
    assert judge(fact([3, 4], None)) is None
    assert judge(fact([6] * (luck.MAX_ROLL_DICE + 1), 4)) is None


def test_the_convolution_is_the_brute_force_distribution_of_the_sum():
    rolls = [judge(fact([5, 1], 5)), judge(fact([2], 3)), judge(fact([6, 6, 1], 6))]
    dist = convolve([r.chances for r in rolls])
    brute = [Fraction(0)] * 7
    for a, b, c in product(*(range(len(r.chances)) for r in rolls)):
        brute[a + b + c] += rolls[0].chances[a] * rolls[1].chances[b] * rolls[2].chances[c]
    assert dist == pytest.approx([float(p) for p in brute], abs=1e-15)
    s = side_luck("a", rolls)
    assert s.successes == 3 and s.exact
    assert s.p_at_least == pytest.approx(float(sum(brute[3:])), abs=1e-12)
    assert s.p_at_most == pytest.approx(float(sum(brute[:4])), abs=1e-12)


def test_a_perfect_game_is_as_unlikely_as_its_exact_odds():
    # Ten 1d6 rolls needing 6+, all sixes: (1/6)^10 exactly, not a normal tail.
    s = side_luck("a", [judge(fact([6], 6)) for _ in range(10)])
    assert s.p_at_least == pytest.approx(6**-10, rel=1e-9)
    assert s.p_at_most == pytest.approx(1.0)


def test_a_very_big_game_falls_back_to_the_normal_law_close_to_the_exact(monkeypatch):
    rolls = [judge(fact([6, 1, 4], 4)) for _ in range(40)]  # 40 successes of 60 expected
    exact = side_luck("a", rolls)
    monkeypatch.setattr(luck, "EXACT_LIMIT", 10)
    approx = side_luck("a", rolls)
    assert exact.exact and not approx.exact
    assert approx.p_at_least == pytest.approx(exact.p_at_least, abs=0.02)
    assert approx.p_at_most == pytest.approx(exact.p_at_most, abs=0.02)


def test_luck_by_side_and_turn_and_the_extremes():
    facts = [
        fact([6, 6], 6, side="a", turn=1),  # 2 of 1/3 expected: 1/36 to do this well
        fact([1], 4, side="a", turn=2),  # 0 of 1/2
        fact([2, 2, 2], 3, side="b", turn=2),  # 0 of 2: (1/3)^3
        fact([5], 5, side="", turn=2),  # rolled for no side: not counted
        fact([5], None, side="b", turn=1),  # no target: not counted
    ]
    found = assess(facts, ["a", "b"], turns=3)
    a, b = found.sides
    assert (a.successes, a.expected, b.successes, b.expected) == (2, Fraction(5, 6), 0, Fraction(2))
    assert found.unjudged == 2
    assert found.by_turn["a"] == pytest.approx([0, 2 - 1 / 3, 2 - 1 / 3 - 1 / 2])
    assert found.by_turn["b"] == pytest.approx([0, 0, -2])
    assert [j.fact for j in found.luckiest] == [facts[0]]
    assert [j.fact for j in found.unluckiest] == [facts[2], facts[1]]  # 1/27 before 1/2
