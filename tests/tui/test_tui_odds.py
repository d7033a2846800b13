from fractions import Fraction

from core.events import Mod, Roll
from tui import odds


def test_each_die_against_a_target_already_moved_by_modifiers():
    # Breaking News §8.0: T = T0 + modifiers; 3 dice needing 5+: 1 - (4/6)^3 = 19/27.
    roll = Roll("fire", (2, 5, 1), target=5, mods=(Mod("range", 1, "§8.0"),))
    assert odds.chance(roll) == Fraction(19, 27)
    assert odds.chance_text(roll) == "70.4% for at least one 5+ on 3d6"
    assert odds.die_succeeds(roll, 5) is True
    assert odds.die_succeeds(roll, 4) is False
    assert odds.succeeded(roll) is True


def test_one_die():
    roll = Roll("save", (3,), target=4)
    assert odds.chance(roll) == Fraction(1, 2)
    assert odds.chance_text(roll) == "50.0% to roll 4+ on 1d6"
    assert odds.succeeded(roll) is False


def test_summed_roll_adds_the_modifiers_to_the_dice():
    # 2d6 + 3 reaching 10 means the dice show 7 or more: 21/36.
    roll = Roll("morale", (3, 3), target=10, total=True, mods=(Mod("leader", 3),))
    assert odds.chance(roll) == Fraction(21, 36)
    assert odds.succeeded(roll) is False
    assert odds.die_succeeds(roll, 6) is None


def test_no_target_no_chance():
    roll = Roll("initiative", (4, 6), total=True, mods=(Mod("leadership", 2),))
    assert odds.chance(roll) is None
    assert odds.chance_text(roll) == ""
    assert odds.succeeded(roll) is None
