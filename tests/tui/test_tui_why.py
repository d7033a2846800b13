"""``why`` and ``? COMMAND`` in the Textual client (issue #76): said on the message line and in a
panel that shows them whole at 80x24, scrolls and closes with Esc (issue #91), nothing given; a
command asked ahead comes back on the line as it was asked, never armed."""

from __future__ import annotations

from pathlib import Path

from playing import opened
from textual.containers import VerticalScroll
from waiting import piloted, press, screen_lines, type_text

from core.game import Game
from core.log.views import REFEREE
from tui.commandline import CommandInput
from tui.screens.answer import AnswerScreen


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
    """The game screen's line under its command line (under the answer's panel, when it is up)."""
    screen = next(screen for screen in reversed(app.screen_stack) if screen.query("#cmd-hint"))
    return str(screen.query_one("#cmd-hint").render())


async def test_why_after_a_refusal_names_its_rule_on_the_line(tmp_path):
    game = elite_fire(tmp_path / "bi.ft")
    async with piloted(game) as (app, pilot):
        await give(pilot, "fire sanna karim range=30")  # a Veteran, in the Elite tier's fire
        refused = hint(app)
        await give(pilot, "why")
        assert hint(app).startswith("Refused: "), hint(app)
        assert refused.removeprefix("✗ ").rstrip(".") in hint(app)
        assert isinstance(app.screen, AnswerScreen)
        await press(pilot, "escape")
        assert app.screen.answers.last_refusal is not None and app.screen.answers.last_refusal[1]  # it names its rules
    game.close()


async def test_asking_ahead_gives_the_roll_and_the_question_back_not_the_command(tmp_path):
    game = elite_fire(tmp_path / "bi.ft")
    before = game.log_length
    async with piloted(game) as (app, pilot):
        await give(pilot, "? fire ferrante omar range=10")
        assert hint(app).startswith("It would roll first: "), hint(app)
        assert isinstance(app.screen, AnswerScreen)
        await press(pilot, "escape")
        assert not isinstance(app.screen, AnswerScreen)
        line = app.screen.query_one(CommandInput)
        assert line.value == "? fire ferrante omar range=10"  # Enter asks again: it gives nothing (#91)
        await press(pilot, "enter")
        await press(pilot, "escape")
        assert game.log_length == before  # nothing was given
    game.close()


def demo_in_play(path: Path) -> Game:
    """Breaking News' demo at its first activation (as issue #91 asked ``? fire bianchi ahmed range=35``)."""
    return opened(path, "breaking-news", "scenario demo", "next", "next", seed=7)


async def test_at_80x24_asking_ahead_shows_the_whole_answer_its_chance_first(tmp_path):
    """Issue #91: a notice cut ``? fire …`` at the status line (its chance not shown) and neither Esc
    nor PageUp reached it."""
    game = demo_in_play(tmp_path / "bn.ft")
    async with piloted(game, size=(80, 24)) as (app, pilot):
        await give(pilot, "? fire bianchi ahmed range=35")
        panel = app.screen
        assert isinstance(panel, AnswerScreen)
        drawn = "\n".join(screen_lines(app))
        assert "Before the roll: 33.3% a die, 80.2% at least one." in drawn  # (its need on the line above)
        assert "Also: T-09" in drawn and "by weapon, mode and range band." in drawn  # its last line too
        assert all(len(row) <= 80 for row in screen_lines(app))
        await press(pilot, "escape")
        assert not isinstance(app.screen, AnswerScreen)
    game.close()


async def test_an_answer_longer_than_the_screen_scrolls_with_the_page_keys(tmp_path):
    game = demo_in_play(tmp_path / "bn.ft")
    async with piloted(game, size=(80, 12)) as (app, pilot):
        await give(pilot, "? fire bianchi ahmed range=35")
        scroll = app.screen.query_one("#answer-lines", VerticalScroll)
        assert scroll.max_scroll_y > 0 and scroll.scroll_y == 0
        assert "It would roll first" in "\n".join(screen_lines(app))
        await press(pilot, "pagedown")
        assert scroll.scroll_y > 0
        await press(pilot, "end")
        assert scroll.scroll_y == scroll.max_scroll_y and "mode and range" in "\n".join(screen_lines(app))
        await press(pilot, "pageup", "pageup", "pageup")
        assert scroll.scroll_y == 0
        await press(pilot, "escape")
        assert not isinstance(app.screen, AnswerScreen)
        assert app.screen.query_one(CommandInput).has_focus
    game.close()


async def test_at_80x24_an_answer_a_few_rows_too_long_scrolls_to_its_last_line(tmp_path):
    """An answer that fit the panel's height but not under its title and keys was cut at the
    screen's edge and did not scroll: the lines were given the panel's whole height."""
    game = demo_in_play(tmp_path / "bn.ft")
    async with piloted(game, size=(80, 24)) as (app, pilot):
        await give(pilot, "? fire rossi ahmed range=20 aimed")
        scroll = app.screen.query_one("#answer-lines", VerticalScroll)
        assert scroll.max_scroll_y > 0
        assert "Before the roll: 66.7%." in "\n".join(screen_lines(app))
        assert "dice N0 in T-08" not in "\n".join(screen_lines(app))  # its last rule, below the edge
        await press(pilot, "pagedown")
        assert scroll.scroll_y == scroll.max_scroll_y
        assert "dice N0 in T-08" in "\n".join(screen_lines(app))
        await press(pilot, "escape")
    game.close()
