"""Issue #26: a Breaking News roll records how its outcome is decided, and the dice
pane, the odds and the report's luck read that record, with exact dice."""

from __future__ import annotations

import io
from fractions import Fraction
from itertools import product

import pytest
from bn_combat_support import rolls
from rich.console import Console
from waiting import press

from core.dice.probability import check_distribution, check_successes
from core.log import events as ev
from core.log.events import Mod
from core.log.views import REFEREE
from core.report.luck import judge
from core.report.model import RollFact
from core.rulesets.breaking_news.campaign import morale
from core.rulesets.breaking_news.rules import fire, saves, spotting, support, suppression
from tui import odds
from tui.app import FireteamApp
from tui.panes.dice import DicePane, chance_line, target_text
from tui.panes.log import LogView


def test_a_two_die_save_needs_both_dice(rng):
    """§9.0: a man with two hits must pass both saves.  Kalash (Irr2) saves on 5+:
    failing on 5,3, he had (2/6)^2 = 1/9 to survive, not 5/9 for "at least one 5+".

    Digest: SAVE-1, SAVE-4.
    """
    out = rng.execute("fire saw kalash rocket range=20 split=3,1 dice=4,4,1,6,5,3,1", role="regulars")
    save = rolls(out)[2]
    assert (save.faces, save.outcome) == ((5, 3), "failed: out of action")
    assert save.check == ev.All(face=5, base=5)
    assert odds.chance(save) == Fraction(1, 9)
    assert chance_line(save).plain == "before the roll: 11.1% for 5+ on every die of 2d6"
    assert odds.succeeded(save) is False
    assert [odds.die_succeeds(save, f) for f in save.faces] == [True, False]
    luck = judge(RollFact(1, "irregulars", "kalash", save))
    assert (luck.successes, luck.chances) == (0, (Fraction(8, 9), Fraction(1, 9)))


def test_a_save_with_a_bonus_needs_less_on_the_die(rng):
    """§9.0: +1 behind protection is added to the die: a 5+ save needs 4+ on it,
    the book's 5 is its base; a natural 1 still fails.

    Digest: SAVE-2.
    """
    out = rng.execute("fire m4 rocket range=30 cover dice=5,4", role="regulars")
    save = rolls(out)[1]
    assert save.check == ev.All(face=4, base=5)
    assert target_text(save).plain.startswith("needs 4+ (base 5) · behind protection +1")
    assert odds.chance(save) == Fraction(1, 2) and odds.succeeded(save) is True


# ------------------------------------------- every kind of roll, over every face


def faces_of(dice: int):
    return list(product(range(1, 7), repeat=dice))


def exact(passes, dice: int) -> Fraction:
    """The chance that the rule's own function passes, counted over every face."""
    every = faces_of(dice)
    return Fraction(sum(1 for f in every if passes(f)), len(every))


def shown_chance(check: ev.Check, dice: int) -> Fraction:
    """The chance the dice pane shows, and the one the report's luck judges by."""
    roll = ev.Roll("test", (1,) * dice, check=check)
    luck = judge(RollFact(1, "a", "", roll))
    assert luck.chances[-1] == odds.chance(roll)
    return odds.chance(roll)


MODS = [(), (Mod("bonus", 1),), (Mod("bonus", 2),), (Mod("malus", -1),)]


@pytest.mark.parametrize("dice", [1, 2, 3])
def test_saves(dice):
    """§9.0 (a man) and §9.2 (a vehicle): every die must pass.

    Digest: T-21.
    """
    for value, mods in product(range(2, 8), MODS):
        check = saves.save_check(value, mods)
        assert shown_chance(check, dice) == exact(lambda f, v=value, m=mods: saves.all_saved(f, v, m), dice)
    for value in range(1, 8):
        check = saves.vehicle_save_check(value)
        assert shown_chance(check, dice) == exact(
            lambda f, v=value: all(saves.vehicle_save(x, v).passed for x in f), dice
        )


def test_suppression_and_support_calls():
    """§10.0: at or under the value plus the leader, never a 6; §8.4: the die plus the modifiers.

    Digest: T-21.
    """
    for value, mods in product(range(0, 8), MODS):
        check = suppression.suppression_check(value, mods)
        assert shown_chance(check, 1) == exact(lambda f, v=value, m=mods: suppression.suppression_passes(f[0], v, m), 1)
        check = support.call_check(value, mods)
        assert shown_chance(check, 1) == exact(lambda f, v=value, m=mods: support.call_succeeds(f[0], v, m), 1)


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
def test_morale(dice):
    """§12.0 [MOR-4]: a die at the losses, or a 6 while half the men fight.

    Digest: T-21.
    """
    for losses, half in product(range(0, 9), (False, True)):
        test = morale.MoraleTest(dice, losses, half)
        assert shown_chance(morale.morale_check(test), dice) == exact(lambda f, t=test: morale.passes(t, f), dice)


@pytest.mark.parametrize("dice", [1, 2, 3])
def test_storming_hits_each_die_on_its_own(dice):
    """§11.1: the luck counts the hits; their distribution is the rule's over every face.

    Digest: T-21.
    """
    for defending in (False, True):
        check = suppression.storm_check(defending)
        every = faces_of(dice)
        for k, p in enumerate(check_distribution(check, dice)):
            assert p == Fraction(sum(1 for f in every if suppression.storm_hits(f, defending) == k), len(every))
        assert [check_successes(check, f) for f in every] == [suppression.storm_hits(f, defending) for f in every]


@pytest.mark.parametrize("dice", [1, 2, 3])
def test_fire_hits_each_die_on_its_own(dice):
    """§8.0: each die at the number needed is a hit.

    Digest: FIRE-7.
    """
    for need in range(1, 8):
        check = ev.Each(face=need)
        every = faces_of(dice)
        assert [check_successes(check, f) for f in every] == [fire.hits(f, need) for f in every]


@pytest.mark.long
async def test_the_dice_pane_shows_the_failed_two_die_save_at_its_own_odds(rng):
    """The client, as the referee sees it after Kalash's save of 5,3 (§9.0)."""
    rng.execute("fire saw kalash rocket range=20 split=3,1 dice=4,4,1,6,5,3,1", role="regulars")
    app = FireteamApp(rng, role=REFEREE)
    async with app.run_test(size=(100, 30)) as pilot:
        await press(pilot, "f7", "ctrl+e", *"Kalash Man's save", "enter")  # the save picked in the log
        await pilot.wait_for_scheduled_animations()
        log = app.screen.query_one(LogView)
        assert "Kalash Man's save" in log.line_at(log.cursor).text
        pane = app.screen.query_one(DicePane)
        console = Console(width=pane.content_size.width, file=io.StringIO(), record=True)
        console.print(pane.render())
        shown = " ".join(console.export_text().split())
    assert "needs 5+ · rule §9.0" in shown
    assert "before the roll: 11.1% for 5+ on every die of 2d6" in shown
    assert "55.6%" not in shown


def test_sighting_ied_and_the_single_die_calls():
    """§7.0: a sighting needing 2+ to 7 (impossible) rolls at its number; Extras,
    Explosives: the charge goes off over its dud faces.

    Digest: T-21.
    """
    for need in range(2, 8):
        assert shown_chance(ev.AtLeast(face=need), 1) == exact(lambda f, n=need: spotting.spot_succeeds(f[0], n), 1)
    dud = support.support().ied.dud_up_to
    assert shown_chance(ev.AtLeast(face=dud + 1), 1) == exact(lambda f: support.ied_explodes(f[0]), 1)
