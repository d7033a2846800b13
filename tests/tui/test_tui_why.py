"""``why`` and ``? COMMAND`` in the Textual client (issue #76): said on the message line
and in a notice, nothing given; a command asked ahead comes back on the line."""

from __future__ import annotations

from pathlib import Path

from playing import opened
from waiting import piloted, press, type_text

from core.game import Game
from core.log.views import REFEREE
from tui.commandline import CommandInput


def elite_fire(path: Path) -> Game:
    """Bassa Intensità's demo, played on to the Elite tier's fire."""
    game = opened(path, "bassa-intensita", "scenario demo", "next dice=5,2", seed=3)
    for _ in range(4):
        game.execute("next", role=REFEREE)
    return game


async def give(pilot, text: str) -> None:
    await type_text(pilot, text)
    await press(pilot, "enter")


def hint(app) -> str:
    return str(app.screen.query_one("#cmd-hint").render())


async def test_why_after_a_refusal_names_its_rule_on_the_line(tmp_path):
    game = elite_fire(tmp_path / "bi.ft")
    async with piloted(game) as (app, pilot):
        await give(pilot, "fire sanna karim range=30")  # a Veteran, in the Elite tier's fire
        refused = hint(app)
        await give(pilot, "why")
        assert hint(app).startswith("Refused: "), hint(app)
        assert refused.removeprefix("✗ ").rstrip(".") in hint(app)
        assert app.screen.answers.last_refusal is not None and app.screen.answers.last_refusal[1]  # it names its rules
    game.close()


async def test_asking_ahead_gives_the_roll_and_the_command_back(tmp_path):
    game = elite_fire(tmp_path / "bi.ft")
    before = game.log_length
    async with piloted(game) as (app, pilot):
        await give(pilot, "? fire ferrante omar range=10")
        assert hint(app).startswith("fire ferrante omar range=10 would roll first: "), hint(app)
        assert app.screen.query_one(CommandInput).value == "fire ferrante omar range=10"
        assert game.log_length == before  # nothing was given
    game.close()
