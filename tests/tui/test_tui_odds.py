from fractions import Fraction

from core.events import Mod, Roll
from core.probability import odds_summary
from tui import odds


def test_each_die_against_a_target_already_moved_by_modifiers():
    # Breaking News §8.0: T = T0 + modifiers; 3 dice needing 5+: 1 - (4/6)^3 = 19/27.
    roll = Roll("fire", (2, 5, 1), target=5, mods=(Mod("range", 1, "§8.0"),))
    assert odds.chance(roll) == Fraction(19, 27)
    assert odds.chance_text(roll) == "70.4% for at least one 5+ on 3d6"
    assert odds.die_succeeds(roll, 5) is True
    assert odds.die_succeeds(roll, 4) is False
    assert odds.succeeded(roll) is True
    assert "70.4%" in odds_summary(3, 5)  # the same reading as core's


def test_one_die():
    roll = Roll("save", (3,), target=4)
    assert odds.chance(roll) == Fraction(1, 2)
    assert odds.chance_text(roll) == "50.0% to roll 4+ on 1d6"
    assert odds.succeeded(roll) is False


def test_summed_roll_against_its_target():
    # 2d6 needing a total of 10: 6/36.
    roll = Roll("morale", (3, 3), target=10, total=True, mods=(Mod("leader", -3),))
    assert odds.chance(roll) == Fraction(1, 6)
    assert odds.chance_text(roll) == "16.7% for a total of 10+ on 2d6"
    assert odds.succeeded(roll) is False
    assert odds.die_succeeds(roll, 6) is None


def test_roll_under():
    # Bassa Intensità: 1d10 at or under Quality + modifiers.
    roll = Roll("hit", (4,), sides=10, target=6, under=True, mods=(Mod("short range", 1),))
    assert odds.chance(roll) == Fraction(6, 10)
    assert odds.chance_text(roll) == "60.0% to roll 6 or less on 1d10"
    assert odds.die_succeeds(roll, 7) is False and odds.succeeded(roll) is True
    two = Roll("hits", (9, 8), sides=10, target=3, under=True)
    assert odds.chance(two) == 1 - Fraction(7, 10) ** 2 and odds.succeeded(two) is False
    summed = Roll("sum", (1, 2), sides=6, target=4, total=True, under=True)
    assert odds.chance(summed) == Fraction(6, 36) and odds.succeeded(summed) is True


def test_no_target_no_chance():
    roll = Roll("initiative", (4, 6), total=True, mods=(Mod("leadership", 2),))
    assert odds.chance(roll) is None
    assert odds.chance_text(roll) == ""
    assert odds.succeeded(roll) is None
