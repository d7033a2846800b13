"""The client at a served table with table dice while a player types his own dice (issue #77):
every other screen that may see the roll says whose dice are awaited on the phase pane's line,
until the dice come or the command is withdrawn at its prompt; a roll hidden from a side says
nothing to its screen."""

from __future__ import annotations

import pytest
from playing import opened
from waiting import press, settled, type_text, until

from core.game import Game
from core.log.state import TABLE_DICE
from core.log.views import REFEREE
from tui.app import FireteamApp
from tui.panes.phase import PhasePane
from tui.screens.dialogs import DicePrompt
from tui.screens.game import GameScreen

SIZE = (100, 30)
FIRE = "fire conti bashir range=40"  # the Bersaglieri's Pte Conti at the militia's Bashir Ali, needs 4+ (§8.0)
WAITING = "waiting for Bersaglieri's dice"


def phase_line(app) -> str:
    screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
    return str(screen.query_one(PhasePane).border_subtitle or "")


def served(tmp_path, *lines: str) -> Game:
    game = opened(tmp_path / "g.ft", "breaking-news", "scenario demo", *lines, f"{TABLE_DICE} on", seed=3)
    game.seated = lambda: {"regulars", "irregulars", REFEREE}
    return game


@pytest.mark.long
async def test_the_other_screens_say_whose_dice_until_they_come_or_the_command_is_withdrawn(tmp_path):
    game = served(tmp_path, "next dice=3", "next dice=6,6,1,1")  # the Bersaglieri active
    firer, defender = FireteamApp(game, role="regulars", seat="anna"), FireteamApp(game, role="irregulars", seat="bea")
    referee = FireteamApp(game, role=REFEREE, seat="rita")
    async with firer.run_test(size=SIZE) as fp, defender.run_test(size=SIZE) as dp, referee.run_test(size=SIZE) as rp:
        await type_text(fp, FIRE, "enter")
        await until(fp, lambda: isinstance(firer.screen, DicePrompt), "the fire's prompt, at the firer's own seat")
        await until(dp, lambda: phase_line(defender) == WAITING, "the defender's screen says whose dice")
        await until(rp, lambda: phase_line(referee) == WAITING, "the referee's too")
        assert phase_line(firer) == "" and game.awaiting.held is None  # his own prompt asks him; nothing is held
        await press(fp, "escape")  # withdrawn at its prompt
        await until(dp, lambda: phase_line(defender) == "", "the defender's screen waits no more")
        await until(rp, lambda: phase_line(referee) == "", "nor the referee's")

        await type_text(fp, FIRE, "enter")
        await until(dp, lambda: phase_line(defender) == WAITING, "said again")
        length = game.log_length
        await press(fp, "3", "enter")  # a miss (needs 4+): the dice came
        await until(dp, lambda: game.log_length > length and phase_line(defender) == "", "the dice came")
        await until(rp, lambda: phase_line(referee) == "", "at the referee's screen too")
    game.close()


@pytest.mark.long
async def test_a_roll_hidden_from_a_side_says_nothing_at_its_screen(tmp_path):
    """``objectives regulars random``: the Bersaglieri's markers drawn for their eyes only (rulings
    BN-OBJ-RANDOM); the referee's screen says whose dice, the militia's nothing."""
    game = served(tmp_path)  # still deploying
    drawer, other = FireteamApp(game, role="regulars", seat="anna"), FireteamApp(game, role="irregulars", seat="bea")
    referee = FireteamApp(game, role=REFEREE, seat="rita")
    async with drawer.run_test(size=SIZE) as fp, other.run_test(size=SIZE) as op, referee.run_test(size=SIZE) as rp:
        await type_text(fp, "objectives regulars random", "enter")
        await until(fp, lambda: isinstance(drawer.screen, DicePrompt), "the draw's prompt")
        await until(rp, lambda: phase_line(referee) == WAITING, "the referee's screen says whose dice")
        await settled(op)  # the militia's screen has done all it was told
        assert game.rolling.rolls != () and phase_line(other) == ""
        assert not other.screen.query_one(PhasePane).has_class("-awaiting")
    game.close()
