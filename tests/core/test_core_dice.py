# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""Dice: recorded faces, no re-rolls on replay, seeded reproducibility, typed dice,
and exact odds checked against brute-force enumeration."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from coretests_support import demo  # noqa: F401  (fixtures)
from playing import names, refused

from core.dice.faces import ManualDice, NeedDice, SeededDice, parse_faces
from core.dice.probability import (
    odds_summary,
    p_at_least_successes,
    p_face_at_least,
    p_sum_at_least,
    p_sum_at_most,
    successes_distribution,
    sum_distribution,
)
from core.game import Game
from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import Refused


def rolls(game: Game) -> list[tuple[int, ev.Rolled]]:
    """(command, Rolled) for every roll in the file, undone ones too."""
    store = game.history.store
    return [
        (game.history.command_at(i), e) for i, e in enumerate(store.slice(0, len(store))) if isinstance(e, ev.Rolled)
    ]


def test_every_face_is_recorded(demo):
    outcome = demo.execute("roll 5d6 target=5", role=REFEREE)
    (rolled,) = [e for e in outcome.events if isinstance(e, ev.Rolled)]
    assert len(rolled.roll.faces) == 5
    assert all(1 <= f <= 6 for f in rolled.roll.faces)
    assert rolled.roll.target == 5 and rolled.roll.manual is False
    hits = sum(f >= 5 for f in rolled.roll.faces)
    assert plain(rolled.roll.outcome) == f"{hits} success" + ("" if hits == 1 else "es")


def test_replay_never_rolls_again(demo, monkeypatch):
    for _ in range(5):
        demo.execute("roll 4d6", role=REFEREE)
    demo.execute("next", role=REFEREE)
    demo.execute("next", role=REFEREE)  # initiative: rolled by the ruleset
    demo.close()
    before = [e.roll.faces for _, e in rolls(demo)]
    assert len(before) >= 7
    random.seed(123456)

    def no_rolling(*args, **kwargs):
        raise AssertionError("replay rolled dice")

    monkeypatch.setattr(SeededDice, "roll", no_rolling)
    again = Game.open(demo.path, writable=False)
    assert [e.roll.faces for _, e in rolls(again)] == before


def test_seeded_dice_come_from_the_seed_and_the_command_number(tmp_path):
    game = Game.new(tmp_path / "s.ftlog", "breaking-news", seed=99)
    game.execute("scenario demo", role=REFEREE)
    for _ in range(4):
        game.execute("roll 3d6", role=REFEREE)
    for cmd, rolled in rolls(game):
        assert rolled.roll.faces == SeededDice(99, cmd).roll(3, 6)
    # Independent of the global random state.
    random.seed(1)
    a = SeededDice(99, 3).roll(10)
    random.seed(2)
    assert SeededDice(99, 3).roll(10) == a
    assert SeededDice(99, 4).roll(10) != a
    assert SeededDice(98, 3).roll(10) != a


def test_reissuing_after_undo_gets_fresh_faces_and_the_first_roll_stays(tmp_path):
    game = Game.new(tmp_path / "u.ftlog", "breaking-news", seed=2026)
    game.execute("scenario demo", role=REFEREE)
    game.execute("roll 6d6", role=REFEREE)
    game.execute("undo", role=REFEREE)
    game.execute("roll 6d6", role=REFEREE)
    (first_cmd, first), (second_cmd, second) = rolls(game)
    assert second_cmd == first_cmd + 1  # a new number: never the undone command's
    assert first.roll.faces == SeededDice(2026, first_cmd).roll(6)
    assert second.roll.faces == SeededDice(2026, second_cmd).roll(6)
    assert first.roll.faces != second.roll.faces
    undone = [line for line in game.log_lines(role="referee") if isinstance(line.event, ev.Rolled)]
    assert [line.undone for line in undone] == [True, False]


def test_typed_dice_are_used_exactly(demo):
    outcome = demo.execute("roll 3d6 target=4 dice=6,4,3", role=REFEREE)
    rolled = outcome.events[-1]
    assert rolled.roll.faces == (6, 4, 3) and rolled.roll.manual
    assert plain(rolled.roll.outcome) == "2 successes"
    assert "[table dice]" in outcome.lines[-1]
    assert demo.execute("roll 2d6 d=52", role=REFEREE).events[-1].roll.faces == (5, 2)
    assert demo.execute("roll 2d6", role=REFEREE, faces=[1, 1]).events[-1].roll.faces == (1, 1)
    # The line's, then the typed.
    assert demo.execute("roll 2d6 dice=3", role=REFEREE, faces=[1]).events[-1].roll.faces == (3, 1)
    with pytest.raises(Refused, match="2 more dice typed than the command rolled") as no:
        demo.execute("roll 2d6 dice=3,3", role=REFEREE, faces=[1, 1])
    names(no.value, "ENG-5")


def test_too_few_typed_dice_ask_for_the_rest(demo):
    size = demo.path.stat().st_size
    with pytest.raises(NeedDice) as need:
        demo.execute("roll 3d6 dice=6,4", role=REFEREE)
    assert (need.value.count, need.value.sides) == (1, 6)
    assert str(need.value) == "referee's free roll: 3d6; 2 typed, 1 more to type"
    assert demo.path.stat().st_size == size


def test_too_many_or_impossible_typed_dice_are_refused(demo):
    size = demo.path.stat().st_size
    refused(demo, "roll 3d6 dice=6,4,3,2", "1 more dice typed than the command rolled", rule="ENG-5")
    refused(demo, "roll 2d6 dice=7,1", "cannot show 7", rule="ENG-5")
    refused(demo, "roll 2d6 dice=six,one", "must be numbers", rule=TYPING)
    refused(demo, "mark ahmed pinned dice=6", "more dice typed", rule="ENG-5")
    assert demo.path.stat().st_size == size


def test_manual_dice_and_parse_faces():
    dice = ManualDice([3, 5, 1])
    assert dice.roll(2) == (3, 5) and dice.unused == 1
    with pytest.raises(NeedDice) as need:
        dice.roll(3, 10, "fire")
    assert (need.value.count, need.value.sides, need.value.purpose) == (2, 10, "fire")
    assert parse_faces("6,4,3") == parse_faces("6 4 3") == parse_faces("643") == [6, 4, 3]
    assert parse_faces("10,2") == [10, 2]
    assert parse_faces("") == []
    assert parse_faces("11", count=1) == [11] and parse_faces("11", count=2) == [1, 1]  # one die: one number


def test_a_d10s_zero_is_its_ten_and_no_other_dies():
    """A d10 shows 0 for 10 (Bassa Intensità A.2, BI-R001); a d6 has no 0."""
    assert ManualDice([0, 7]).roll(2, 10) == (10, 7)
    with pytest.raises(Refused) as no:
        ManualDice([0]).roll(1, 6)
    names(no.value, "ENG-5")


# ------------------------------------------------------------------- probability


def brute(dice: int, sides: int = 6):
    return list(itertools.product(range(1, sides + 1), repeat=dice))


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize("target", [0, 1, 2, 4, 5, 6, 7])
def test_success_odds_match_enumeration(dice, target):
    outcomes = brute(dice)
    for k in range(dice + 1):
        exact = Fraction(sum(sum(f >= target for f in o) == k for o in outcomes), len(outcomes))
        assert successes_distribution(dice, target)[k] == exact
        at_least = Fraction(sum(sum(f >= target for f in o) >= k for o in outcomes), len(outcomes))
        assert p_at_least_successes(dice, target, k) == at_least


@pytest.mark.parametrize("dice,sides", [(1, 6), (2, 6), (3, 6), (2, 10), (4, 4)])
def test_sum_odds_match_enumeration(dice, sides):
    outcomes = brute(dice, sides)
    dist = sum_distribution(dice, sides)
    for total in range(-1, dice * sides + 3):
        exact = Fraction(sum(sum(o) == total for o in outcomes), len(outcomes))
        assert (dist[total] if 0 <= total < len(dist) else 0) == exact
        assert p_sum_at_least(dice, total, sides) == Fraction(sum(sum(o) >= total for o in outcomes), len(outcomes))
        assert p_sum_at_most(dice, total, sides) == Fraction(sum(sum(o) <= total for o in outcomes), len(outcomes))


def test_odds_in_words():
    assert p_at_least_successes(3, 5) == Fraction(19, 27)
    assert odds_summary(3, 5) == "needs 5+ on 3 dice: 70.4% at least one"
    assert odds_summary(1, 4) == "needs 4+ on 1d6: 50.0%"
    assert odds_summary(2, 8, total=True) == "needs 8+ total on 2d6: 41.7%"
    assert p_face_at_least(1) == 1 and p_face_at_least(7) == 0


def test_roll_under_odds_are_exact():
    from fractions import Fraction

    from core.dice.probability import odds_summary, p_face_at_most, successes_distribution

    assert p_face_at_most(3, 10) == Fraction(3, 10)
    assert p_face_at_most(0, 10) == 0 and p_face_at_most(12, 10) == 1
    # two d10, each succeeding on 4 or less: none succeed 0.6 * 0.6
    assert successes_distribution(2, 4, 10, under=True)[0] == Fraction(36, 100)
    assert odds_summary(1, 7, 10, under=True) == "needs 7 or less on 1d10: 70.0%"
