"""Text from a player, a save, a scenario or a refusal is shown as text, never read as markup."""

from __future__ import annotations

import pytest
from playing import opened
from skirmish import game_fixture  # noqa: F401  (a fixture)
from test_tui_keys import hint_row
from waiting import hint, piloted, press, settled, type_command

from tui.commandline import CommandInput
from tui.panes.log import LogPane
from tui.screens.dialogs import DicePrompt


async def test_a_missing_argument_shows_the_usage_whole(tmp_path):
    game = opened(tmp_path / "bn.ft", "breaking-news", "scenario demo", seed=1)
    before = game.path.read_bytes()
    async with piloted(game) as (app, pilot):
        await type_command(pilot, "fire rossi")
        assert app.is_running
        shown = hint(app)
        assert shown.startswith("✗ fire: missing targets: ")
        assert "; usage: fire unit targets… range=… [aimed|burst] [weapon=…]" in shown
        assert game.path.read_bytes() == before
    game.close()


async def test_a_unit_word_in_brackets_is_named_in_the_refusal(game):
    async with piloted(game) as (app, pilot):
        await type_command(pilot, "mark [x] suppressed")
        assert "no unit '[x]'" in hint(app)


@pytest.mark.long
async def test_the_dice_prompt_shows_the_purpose_whole(game):
    async with piloted(game) as (app, pilot):
        await press(pilot, "f3")
        await type_command(pilot, 'roll 2d6 purpose="a [b=c] d"')
        assert isinstance(app.screen, DicePrompt)
        title = str(app.screen.query_one(".title").render())
        assert title == "referee's a [b=c] d: 2d6"


@pytest.mark.long
async def test_a_log_search_names_what_it_looked_for(game):
    async with piloted(game) as (app, pilot):
        await press(pilot, "f7", "ctrl+e", *"[a=b]", "enter")
        pane = app.screen.query_one(LogPane)
        await settled(pilot)
        await settled(pilot)
        assert str(pane.query_one("#log-status").render()) == "no older line holds “[a=b]”"


async def test_the_guide_says_a_line_is_too_long_or_holds_a_control_character_while_typing(game):
    async with piloted(game) as (app, pilot):
        box = app.screen.query_one(CommandInput)
        box.value = "note " + "x" * 3000
        await settled(pilot)
        assert hint(app) == "a command is at most 2,000 characters; this one has 3,005"
        box.value = "note a\x1b[2Jb"
        await settled(pilot)
        assert hint(app) == "a command cannot hold the control character '\\x1b' (column 7)"


@pytest.mark.long
async def test_a_target_named_with_markup_and_an_escape_is_offered_to_the_referee_as_text(game):
    # A save's events make the names: one crafted past the scenario's checks is still shown as it is.
    game.state.units["kemal"].name = "[bold]Kemal[/] [link=http://x]y\x1b[31mZ"
    async with piloted(game, (200, 30)) as (app, pilot):
        await press(pilot, *"shoot", "space", *"cole", "space")
        assert "kemal [bold]Kemal[/] [link=http://x]y\\x1b[31mZ · omar" in hint_row(app)
