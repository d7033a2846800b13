"""The odds (core/dice/probability.py) pinned exactly, worked out by hand: each kind of check in
the words the dice pane and the odds show, on six- and ten-sided dice, and the
distributions the report's luck reads (issue #33: these tests kill the mutants that survived)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from core.dice.probability import (
    check_chance,
    check_chance_said,
    check_distribution,
    check_summary,
    odds_summary,
    p_at_least_successes,
    p_face_at_least,
    p_face_at_most,
    p_sum_at_least,
    p_sum_at_most,
    successes_distribution,
)
from core.language.reader import reading
from core.log import events as ev


def test_one_die_on_its_default_six_sides_and_on_ten():
    assert [p_face_at_least(t) for t in (0, 1, 2, 6, 7)] == [1, 1, F(5, 6), F(1, 6), 0]
    assert [p_face_at_most(t) for t in (0, 3, 6, 9)] == [0, F(1, 2), 1, 1]
    assert p_face_at_least(7, 10) == F(4, 10) and p_face_at_most(7, 10) == F(7, 10)


def test_successes_among_several_dice():
    assert successes_distribution(2, 5) == [F(4, 9), F(4, 9), F(1, 9)]
    assert successes_distribution(2, 9, 10) == [F(64, 100), F(32, 100), F(4, 100)]
    assert successes_distribution(2, 3, 10, under=True) == [F(49, 100), F(42, 100), F(9, 100)]
    assert p_at_least_successes(3, 5) == F(19, 27)
    assert p_at_least_successes(2, 9, 2, 10) == F(4, 100)


def test_sums_of_dice_on_six_and_ten_sides():
    assert p_sum_at_least(2, 7) == F(21, 36) and p_sum_at_most(2, 7) == F(21, 36)
    assert p_sum_at_least(2, 15, 10) == F(21, 100)
    assert p_sum_at_most(2, 5, 10) == F(10, 100)
    assert p_sum_at_least(2, 13) == 0 and p_sum_at_most(2, 1) == 0
    assert p_sum_at_least(2, -3) == 1 and p_sum_at_most(2, 12) == 1


@pytest.mark.parametrize(
    ("check", "dice", "sides", "chance"),
    [
        (ev.AtLeast(face=5), 3, 6, F(19, 27)),
        (ev.AtLeast(face=5, need=2), 3, 6, F(7, 27)),
        (ev.AtLeast(face=8), 2, 10, F(51, 100)),
        (ev.AtLeast(face=3, under=True), 1, 10, F(3, 10)),
        (ev.All(face=5), 2, 6, F(1, 9)),
        (ev.All(face=9), 2, 10, F(4, 100)),
        (ev.Sum(total=15), 2, 10, F(21, 100)),
        (ev.Sum(total=5, under=True), 2, 10, F(10, 100)),
        (ev.Each(face=4), 3, 6, None),
        (ev.Opposed(), 2, 6, None),
        (ev.Read(), 1, 6, None),
        (None, 1, 6, None),
    ],
)
def test_the_chance_of_each_kind_of_check(check, dice, sides, chance):
    assert check_chance(check, dice, sides) == chance


def test_what_the_luck_counts_for_each_kind_of_check():
    assert check_distribution(ev.Each(face=4), 2) == (F(1, 4), F(1, 2), F(1, 4))
    assert check_distribution(ev.Each(face=9), 2, 10) == (F(64, 100), F(32, 100), F(4, 100))
    assert check_distribution(ev.AtLeast(face=8), 1, 10) == (F(7, 10), F(3, 10))
    assert check_distribution(ev.Sum(total=15), 2, 10) == (F(79, 100), F(21, 100))
    assert check_distribution(ev.Read(), 2) is None and check_distribution(ev.Opposed(), 2) is None


@pytest.mark.parametrize(
    ("check", "dice", "sides", "said"),
    [
        (ev.AtLeast(face=5), 1, 6, "needs 5+ on 1d6: 33.3%"),
        (ev.AtLeast(face=5), 3, 6, "needs 5+ on at least one of 3d6: 70.4%"),
        (ev.AtLeast(face=5, need=2), 3, 6, "needs 5+ on at least 2 of 3d6: 25.9%"),
        (ev.AtLeast(face=4, need=2), 2, 6, "needs 4+ on every one of 2d6: 25.0%"),
        (ev.AtLeast(face=8), 2, 10, "needs 8+ on at least one of 2d10: 51.0%"),
        (ev.AtLeast(face=3, under=True), 1, 10, "needs 3 or less on 1d10: 30.0%"),
        (ev.AtLeast(face=3, under=True), 2, 10, "needs 3 or less on at least one of 2d10: 51.0%"),
        (ev.All(face=5), 2, 6, "needs 5+ on every one of 2d6: 11.1%"),
        (ev.All(face=4, under=True), 2, 10, "needs 4 or less on every one of 2d10: 16.0%"),
        (ev.Each(face=4), 3, 6, "needs 4+ on each of 3d6: 50.0% a die, 87.5% at least one"),
        (ev.Each(face=9), 2, 10, "needs 9+ on each of 2d10: 20.0% a die, 36.0% at least one"),
        (ev.Sum(total=7), 2, 6, "needs 7+ total on 2d6: 58.3%"),
        (ev.Sum(total=15), 2, 10, "needs 15+ total on 2d10: 21.0%"),
        (ev.Sum(total=5, under=True), 2, 10, "needs 5 or less total on 2d10: 10.0%"),
        (ev.Opposed(), 2, 6, "2d6 against the other side's roll: who wins depends on both"),
        (ev.Read(), 2, 6, ""),
        (None, 2, 6, ""),
    ],
)
def test_each_kind_of_check_in_the_words_the_odds_show(check, dice, sides, said):
    assert check_summary(check, dice, sides) == said


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ((2, None), "2d6: no target"),
        ((1, None, 20), "1d20: no target"),
        ((1, 5), "needs 5+ on 1d6: 33.3%"),
        ((1, 8, 10), "needs 8+ on 1d10: 30.0%"),
        ((3, 5), "needs 5+ on 3 dice: 70.4% at least one"),
        ((2, 9, 10), "needs 9+ on 2 dice: 36.0% at least one"),
        ((2, 7, 6, True), "needs 7+ total on 2d6: 58.3%"),
        ((2, 15, 10, True), "needs 15+ total on 2d10: 21.0%"),
        ((1, 3, 10, False, True), "needs 3 or less on 1d10: 30.0%"),
        ((2, 3, 10, False, True), "needs 3 or less on 2d10: 51.0% at least one"),
    ],
)
def test_a_rolls_target_in_the_words_the_dice_pane_shows(args, said):
    assert odds_summary(*args) == said


def test_a_check_on_dice_of_unsaid_sides_is_on_six_sided_dice():
    assert check_summary(ev.AtLeast(face=5), 1) == "needs 5+ on 1d6: 33.3%"


def test_the_brief_prompt_says_the_checks_exact_chance_alone_in_the_readers_words():
    """``check_chance_said``, after what a roll needs in a brief prompt (#61's plain seat): one
    chance for a single success, the die's and at least one's for dice read each on its own,
    nothing for a roll with no chance of its own."""
    cases = [
        (ev.All(face=3), 1, "66.7%", "66,7%"),
        (ev.All(face=5), 2, "11.1%", "11,1%"),
        (ev.AtLeast(face=5, need=1), 3, "70.4%", "70,4%"),
        (ev.Each(face=5), 3, "33.3% a die, 70.4% at least one", "33,3% a dado, 70,4% almeno uno"),
        (ev.Each(face=4, under=True), 1, "66.7%", "66,7%"),  # one die: its chance once
        (ev.Sum(total=9), 2, "27.8%", "27,8%"),
        (ev.Opposed(), 2, "", ""),
        (None, 1, "", ""),
    ]
    for check, dice, english, italian in cases:
        with reading("en"):
            assert check_chance_said(check, dice) == english, check
        with reading("it"):
            assert check_chance_said(check, dice) == italian, check
    with reading("en"):  # a ten-sided die
        assert check_chance_said(ev.All(face=8), 1, sides=10) == "30.0%"
