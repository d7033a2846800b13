from fractions import Fraction

from core.dice.probability import check_summary, odds_summary
from core.log.events import All, AtLeast, Each, Mod, Opposed, Read, Roll, Sum
from tui import odds


def test_at_least_one_die_against_a_face_already_moved_by_modifiers():
    # Breaking News §8.0: T = T0 + modifiers; 3 dice needing 5+: 1 - (4/6)^3 = 19/27.
    roll = Roll("sighting", (2, 5, 1), target=5, mods=(Mod("range", 1, "§8.0"),), check=AtLeast(face=5, base=4))
    assert odds.chance(roll) == Fraction(19, 27)
    assert odds.chance_text(roll) == "70.4% for at least one 5+ on 3d6"
    assert odds.die_succeeds(roll, 5) is True
    assert odds.die_succeeds(roll, 4) is False
    assert odds.succeeded(roll) is True
    assert odds.base(roll) == 4
    assert "70.4%" in odds_summary(3, 5)  # the same reading as core's
    assert check_summary(roll.check, 3) == "needs 5+ on at least one of 3d6: 70.4%"


def test_every_die_and_some_of_the_dice():
    # Breaking News §9.0: two hits, two saves at 5+, both must pass: (2/6)^2.
    save = Roll("save", (5, 3), target=5, check=All(face=5))
    assert odds.chance(save) == Fraction(1, 9) and odds.succeeded(save) is False
    assert odds.chance_text(save) == "11.1% for 5+ on every die of 2d6"
    assert check_summary(save.check, 2) == "needs 5+ on every one of 2d6: 11.1%"
    two = Roll("test", (4, 4, 1), check=AtLeast(face=4, need=2))  # 3·(1/2)^3 + (1/2)^3
    assert odds.chance(two) == Fraction(1, 2) and odds.succeeded(two) is True
    assert odds.chance_text(two) == "50.0% for at least 2 dice of 4+ on 3d6"


def test_each_die_on_its_own():
    fire = Roll("fire", (4, 1, 6), target=4, check=Each(face=4))
    assert odds.chance(fire) is None and odds.succeeded(fire) is None  # hits, no single success
    assert odds.chance_text(fire) == "50.0% a die for 4+ on 3d6, 87.5% for at least one"
    assert [odds.die_succeeds(fire, f) for f in fire.faces] == [True, False, True]


def test_one_die():
    roll = Roll("save", (3,), target=4, check=AtLeast(face=4))
    assert odds.chance(roll) == Fraction(1, 2)
    assert odds.chance_text(roll) == "50.0% to roll 4+ on 1d6"
    assert odds.succeeded(roll) is False


def test_summed_roll_against_its_total():
    # 2d6 needing a total of 10: 6/36.
    roll = Roll("morale", (3, 3), target=10, total=True, mods=(Mod("leader", -3),), check=Sum(total=10))
    assert odds.chance(roll) == Fraction(1, 6)
    assert odds.chance_text(roll) == "16.7% for a total of 10+ on 2d6"
    assert odds.succeeded(roll) is False
    assert odds.die_succeeds(roll, 6) is None


def test_roll_under():
    # Bassa Intensità: 1d10 at or under Quality + modifiers.
    check = AtLeast(face=6, under=True)
    roll = Roll("hit", (4,), sides=10, target=6, under=True, mods=(Mod("short range", 1),), check=check)
    assert odds.chance(roll) == Fraction(6, 10)
    assert odds.chance_text(roll) == "60.0% to roll 6 or less on 1d10"
    assert odds.die_succeeds(roll, 7) is False and odds.succeeded(roll) is True
    two = Roll("hits", (9, 8), sides=10, target=3, under=True, check=AtLeast(face=3, under=True))
    assert odds.chance(two) == 1 - Fraction(7, 10) ** 2 and odds.succeeded(two) is False
    summed = Roll("sum", (1, 2), sides=6, target=4, total=True, under=True, check=Sum(total=4, under=True))
    assert odds.chance(summed) == Fraction(6, 36) and odds.succeeded(summed) is True


def test_opposed_scores_and_tables_have_no_chance():
    for check in (Opposed(), Read(), None):
        roll = Roll("initiative", (4, 6), total=True, mods=(Mod("leadership", 2),), check=check)
        assert odds.chance(roll) is None
        assert odds.chance_text(roll) == ""
        assert odds.succeeded(roll) is None
        assert odds.need(roll) == ""


def test_the_rule_of_a_roll_is_cited_once():
    # A Breaking News save: its team leader's +1 is a §9.0 modifier of a §9.0 roll.
    from core.language.i18n import M
    from tui.panes.dice import target_text

    mods = (Mod(M("team leader"), 1, "§9.0"), Mod(M("cover"), -1, "§7.0"))
    save = Roll(M("save"), (3,), 6, 3, mods, outcome=M("saved"), rule="§9.0", check=All(2, base=3))
    said = target_text(save).plain
    assert said.count("§9.0") == 1, said
    assert said == "needs 2+ (base 3) · team leader +1 · cover -1 §7.0 · rule §9.0"
    # a roll that needs no number and has no modifier: its rule alone, with nothing before it
    die = Roll(M("secret objective die"), (3,), 6, rule="§4.1", check=Read())
    assert target_text(die).plain == "rule §4.1"
