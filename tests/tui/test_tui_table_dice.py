"""Table dice is the referee's choice for his whole table (issue #61): his Ctrl+T records
it in the log, every screen follows it, and a side's screen may not change it."""

from __future__ import annotations

import pytest
from skirmish import patrol_game
from waiting import press, type_text, until

from core import events as ev
from core.views import REFEREE
from tui.app import FireteamApp
from tui.screens.dialogs import DicePrompt

SIZE = (100, 30)


def hint(app) -> str:
    return str(app.screen.query_one("#cmd-hint").render())


def title(app) -> str:
    return app.screen._shown_title


def last_roll(game) -> ev.Roll:
    return [line.event.roll for line in game.log_lines(role=REFEREE) if isinstance(line.event, ev.Rolled)][-1]


@pytest.mark.long
async def test_the_referees_ctrl_t_turns_table_dice_on_at_every_screen(tmp_path):
    game = patrol_game(tmp_path / "shared.ft", commands=("next", "next dice=6,6,1,1"))  # blue active
    referee, blue = FireteamApp(game, role=REFEREE), FireteamApp(game, role="blue", seat="anna")
    async with referee.run_test(size=SIZE) as ref_pilot, blue.run_test(size=SIZE) as blue_pilot:
        length = game.log_length
        await press(blue_pilot, "ctrl+t")  # a side's screen: not his to change
        assert hint(blue) == "✗ Table dice are the referee's choice for the whole table: now OFF"
        assert game.log_length == length and not blue.screen.table_dice
        await type_text(blue_pilot, "shoot cole ivan 20", "enter")  # off: the game rolls, nothing asked
        assert not isinstance(blue.screen, DicePrompt) and not last_roll(game).manual

        await press(ref_pilot, "ctrl+t")
        assert referee.screen.table_dice and "TABLE DICE" in title(referee)
        await until(blue_pilot, lambda: "TABLE DICE" in title(blue), "the side's screen follows the referee's choice")
        await press(blue_pilot, "ctrl+t")
        assert hint(blue) == "✗ Table dice are the referee's choice for the whole table: now ON"
        assert blue.screen.table_dice

        await type_text(blue_pilot, "shoot diaz kemal 20", "enter")  # on: the side types his own dice
        assert isinstance(blue.screen, DicePrompt)
        assert str(blue.screen.query_one(".title").render()) == "Pte Diaz's fire at Kemal Aydin: 2d6, needs 4+ per die"
        await press(blue_pilot, "5", "space", "1", "enter")
        await until(blue_pilot, lambda: not isinstance(blue.screen, DicePrompt), "the prompt closes")
        roll = last_roll(game)
        assert roll.faces == (5, 1) and roll.manual and "suppressed" in game.state.units["kemal"].status

        await press(ref_pilot, "f3")  # and off again, for everyone
        await until(blue_pilot, lambda: "TABLE DICE" not in title(blue), "the side's screen follows it off")
    game.close()
