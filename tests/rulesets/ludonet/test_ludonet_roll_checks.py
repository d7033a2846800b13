"""Issue #26: a Ludonet roll records how its outcome is decided, and the dice pane,
the odds and the report's luck read that record, with exact dice."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, product

import msgspec
import pytest

from core.game import Game
from core.language.i18n import M
from core.log import events as ev
from core.log.views import REFEREE
from core.report.luck import judge
from core.report.model import RollFact
from core.rulesets.ludonet import rules, tables
from tui import odds
from tui.panes.dice import chance_line, target_text


@pytest.fixture
def game(tmp_path):
    g = Game.new(tmp_path / "ln.ft", "ludonet", seed=9)
    g.execute("scenario demo", role=REFEREE)
    yield g
    g.close()


def play(g: Game, *lines: str) -> list[ev.Roll]:
    rolls = []
    for line in lines:
        role, _, text = line[1:].partition(" ") if line.startswith("@") else ("referee", "", line)
        rolls += [e.roll for e in g.execute(text, role=role).events if isinstance(e, ev.Rolled)]
    return rolls


def test_a_shot_within_half_range_has_base_four_whatever_the_modifiers(game):
    """LN-R030, LN-R031: 4+ within half range, the modifiers added to the die: a
    crawling (prone, -1: LN-AMB-05) target needs a 5 on it; the base stays 4."""
    play(game, "next dice=6,1", "@paras move brown 3 crawl", "next", "next", "next")
    shot, _damage = play(game, "@garrison fire mg42 brown half dice=5,4")
    assert shot.check == ev.AtLeast(face=5, base=4)
    assert target_text(shot).plain.startswith("needs 5+ (base 4) · ")
    assert odds.chance(shot) == Fraction(2, 6)
    assert chance_line(shot).plain == "before the roll: 33.3% to roll 5+ on 1d6"


# ------------------------------------------- every kind of roll, over every face


def exact(passes) -> Fraction:
    """The chance that the rule's own function passes, counted over the six faces."""
    return Fraction(sum(1 for f in range(1, 7) if passes(f)), 6)


def shown_chance(check: ev.Check) -> Fraction:
    """The chance the dice pane shows, and the one the report's luck judges by."""
    roll = ev.Roll("test", (1,), check=check)
    luck = judge(RollFact(1, "a", "", roll))
    assert luck.chances[-1] == odds.chance(roll)
    return odds.chance(roll)


CONDITIONS = ["moved", "prone", "cover", "expert"]


def test_to_hit_every_combination_of_modifiers():
    """LN-R030, LN-R031: 4+ (5+ beyond half range), the die moved by every modifier."""
    for half in (True, False):
        for n in range(len(CONDITIONS) + 1):
            for held in combinations(CONDITIONS, n):
                mods = rules.to_hit_mods(held)
                check = rules.to_hit_check(half, mods)
                assert check.base == (4 if half else 5)
                assert shown_chance(check) == exact(lambda f, h=half, m=mods: rules.hits(f, rules.to_hit_needed(h, m)))


def test_morale_air_and_anti_aircraft():
    """LN-R070 holds over a 2; LN-R061/R062 hit on 5 or 6."""
    assert shown_chance(rules.morale_check()) == exact(lambda f: not rules.shaken(f)) == Fraction(4, 6)
    assert shown_chance(ev.AtLeast(face=tables.areas().aircraft.hit_on)) == exact(rules.air_hits)
    assert shown_chance(ev.AtLeast(face=tables.areas().anti_aircraft.hit_on)) == exact(rules.aa_hits)


def test_the_answer_to_a_combat_value_roll_and_the_last_roll_at_a_leaver():
    """LN-R041: the target comes through when its total matches the shooter's;
    LN-R052: the opponent cuts the leaver down when its total beats his."""
    for shooter, cv, vehicle in product(range(1, 14), range(0, 5), (True, False)):
        check = ev.AtLeast(face=rules.face_to_come_through(shooter, cv))
        assert shown_chance(check) == exact(
            lambda f, s=shooter, c=cv, v=vehicle: rules.opposed_result(s, f + c, v) == "none"
        )
    for leaver, mods in product(range(0, 10), range(-2, 5)):
        check = ev.AtLeast(face=rules.face_to_cut_down(leaver, mods))
        assert shown_chance(check) == exact(lambda f, lv=leaver, m=mods: not rules.leaves_melee(lv, f + m))


def test_fatigue_counts_for_the_other_side(game):
    """LN-R012: a runner tired on 5+ is a success against him, for the report's luck."""
    roll = ev.Roll(M("fatigue"), (5,), target=5, check=ev.AtLeast(face=5))
    assert game.ruleset.success_hurts_unit(roll)
    assert not game.ruleset.success_hurts_unit(msgspec.structs.replace(roll, purpose=M("damage")))


def test_the_odds_before_the_shot_follow_its_check(game):
    """Game.odds, the dry run before a command: the same reading as the dice pane."""
    play(game, "next dice=6,1", "@paras move brown 3 crawl", "next", "next", "next")
    ahead = game.odds("fire mg42 brown half", role="garrison")
    assert ahead.check == ev.AtLeast(face=5, base=4)
    assert ahead.chances == (Fraction(4, 6), Fraction(2, 6))
    assert ahead.summary == "needs 5+ on 1d6: 33.3%"
