"""The client never crashes on what a player types (issue 13).

Driven by Pilot through every command of every ruleset: each required argument
missing, markup-like text and control characters in each argument, and random
lines.  The app stays up, a refusal is shown whole (as the game gave it, its
control characters escaped), and a refused line leaves the save as it was.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from examples import examples
from hypothesis import HealthCheck, given, settings
from playing import opened
from terminal_child import DEMO, ENTRY, child_fixture, commands, until_command  # noqa: F401  (a fixture)
from textual import events
from waiting import hint, piloted, press, settled

from core.game import Game
from core.log.outcome import Refusal
from tui.app import FireteamApp
from tui.commandline import CommandInput
from tui.panes.log import LogView
from tui.plain import Plain, visible
from tui.screens.dialogs import ConfirmBox, DetailsScreen, DicePrompt
from tui.screens.help import HelpScreen

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))
import hostile  # noqa: E402  (test folders are not packages)

pytestmark = pytest.mark.long

RULESETS = ["breaking-news", "bassa-intensita", "linea-di-tiro", "ludonet"]
SIZE = (120, 30)


class Seat:
    """The app on a game, with what a test needs to give it lines and judge the answer."""

    def __init__(self, app: FireteamApp, pilot) -> None:
        self.app, self.pilot, self.game = app, pilot, app.game
        self.refusals: list[Refusal] = []
        self.game.subscribe_refusals(self.refusals.append)

    async def give(self, line: str) -> None:
        """Type ``line`` (as a paste would put it on the line) and Enter; judge what follows."""
        game, app = self.game, self.app
        before, refused = game.path.read_bytes(), len(self.refusals)
        box = app.screen.query_one(CommandInput)
        box.focus()
        box.value = line
        await press(self.pilot, "enter")
        assert app.is_running, line
        if isinstance(app.screen, DicePrompt):  # dice= typed short of what the command rolls
            await press(self.pilot, "escape")
            assert hint(app).startswith("✗ cancelled: ")
            assert game.path.read_bytes() == before
            return
        if isinstance(app.screen, HelpScreen):  # help, or help WORD: the help, over the game
            assert game.path.read_bytes() == before
            await press(self.pilot, "escape")
            return
        if not line.strip():  # Enter on a blank line does nothing
            assert game.path.read_bytes() == before
        elif len(self.refusals) > refused:
            why = self.refusals[-1].why
            assert hint(app) == "✗ " + visible(why), line
            assert game.path.read_bytes() == before, f"{line!r} wrote to the save"
        else:
            assert hint(app).startswith("✓ #"), (line, hint(app))
            box.value = ""


def demo(path: Path, ruleset: str) -> Game:
    game = opened(path, ruleset, "scenario demo", seed=3)
    return game


@pytest.mark.parametrize("ruleset", RULESETS)
async def test_every_command_with_an_argument_missing_or_poisoned(tmp_path, ruleset):
    game = demo(tmp_path / "g.ft", ruleset)
    lines = hostile.missing_lines(game)
    # Each argument in turn gets one of the markup-like words or control characters
    # (the API's test gives each argument each of them).
    lines += hostile.poisoned_lines(game, hostile.MARKUP[:4] + hostile.CONTROL[:5], each=False)
    async with piloted(game, SIZE) as (app, pilot):
        seat = Seat(app, pilot)
        for line in lines:
            await seat.give(line)
        assert len(seat.refusals) > len(lines) // 2
    game.close()


async def test_markup_a_player_wrote_is_shown_whole_in_the_log_and_the_details(tmp_path):
    game = demo(tmp_path / "g.ft", "breaking-news")
    async with piloted(game, SIZE) as (app, pilot):
        seat = Seat(app, pilot)
        await seat.give('note "[b]bold[/b] [@click=app.quit]q [a=b]"')
        log = app.screen.query_one(LogView)
        assert log.line_at(log.cursor).text.endswith("[b]bold[/b] [@click=app.quit]q [a=b]")
        await press(pilot, "f7", "enter")
        assert isinstance(app.screen, DetailsScreen)
        details = "\n".join(str(w.render()) for w in app.screen.query(Plain))
        assert "[b]bold[/b] [@click=app.quit]q [a=b]" in details
        await press(pilot, "escape")
        await seat.give("mark ahmed suppressed")
        await press(pilot, "ctrl+z")  # the confirmation quotes the command
        assert app.screen.query_one(ConfirmBox).question == "Undo #3 mark ahmed suppressed?"
        await press(pilot, "escape")


@pytest.mark.parametrize("ruleset", RULESETS)
async def test_random_lines_through_the_client(tmp_path_factory, ruleset):
    game = demo(tmp_path_factory.mktemp(ruleset) / "g.ft", ruleset)
    async with piloted(game, SIZE) as (app, pilot):
        seat = Seat(app, pilot)
        lines: list[str] = []

        # Hypothesis draws the lines; the app, which lives in this event loop, is then given them.
        @settings(max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck), database=None)
        @given(line=hostile.command_lines(game))
        def draw(line: str) -> None:
            lines.append(line)

        draw()
        for line in lines:
            await seat.give(line)
    game.close()


@pytest.mark.parametrize(
    ("pasted", "why"),
    [
        ('note "a\x1b]0;x\x07b"', "the paste holds the control character \\x1b (character 8): nothing was put in"),
        ("note one\rmark ahmed pinned", "the paste holds 2 lines: a box takes one"),
    ],
)
async def test_a_paste_holding_control_characters_is_refused_whole_on_the_command_line(tmp_path, pasted, why):
    game = demo(tmp_path / "g.ft", "breaking-news")
    before = game.path.read_bytes()
    async with piloted(game, SIZE) as (app, pilot):
        box = app.screen.query_one(CommandInput)
        box.focus()
        await settled(pilot)
        box.post_message(events.Paste(pasted))
        await settled(pilot)
        assert box.value == ""  # nothing of it, neither cut nor with its escapes
        assert hint(app) == f"✗ {why}"
        await press(pilot, "enter")
        assert game.path.read_bytes() == before  # nothing recorded, nothing for the other seats
    game.close()


@pytest.mark.subprocess
def test_the_client_on_a_terminal_refuses_a_paste_holding_a_nul_whole(child, tmp_path):
    """The real client on a terminal of its own (its driver's parser, ``tui.terminal_parser``):
    a NUL in a paste is refused as any control character is (Textual's parser took it out, and
    "ros\\0si" went in as "rossi"), as at an SSH or a browser seat."""
    save = tmp_path / "demo.ft"
    shutil.copy(DEMO, save)
    client = child(ENTRY, str(save), cwd=tmp_path)
    client.wait_for_output(b"type a command")
    before = commands(save)
    client.type(b"\x1b[200~note ros\x00si\x1b[201~\r")
    client.wait_for_output(b"the paste holds the control character \\x00 (character 9): nothing was put in")
    client.type(b"\x1b[200~note pasted\x1b[201~\r")
    until_command(save, "note pasted")
    assert commands(save) == [*before, "note pasted"]
    client.type(b"\x11")
    assert client.exit_code() == 0
