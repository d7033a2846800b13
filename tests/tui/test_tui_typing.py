"""Nothing typed is lost (issue #61): a printable key typed in the log or the roster goes to
the command line, the panes keeping their own keys behind a modifier or on the arrows; Esc on
the command line puts the suggestion away and keeps the focus there; a replay keeps its keys."""

from __future__ import annotations

import pytest
from skirmish import game_fixture  # noqa: F401  (a fixture)
from textual import events
from waiting import piloted, press, settled, type_text

from core.game import Game
from core.log.views import REFEREE
from tui.commandline import CommandInput
from tui.panes.log import LogPane, LogView
from tui.panes.roster import RosterPane
from tui.panes.rosterview import RosterView
from tui.screens.game import GameScreen
from tui.textual_internals import suggestion_shown

NOTE = "note hello from the phone"


def last_command(game) -> str:
    return game.history.issued(game.history.eff_cmds[-1]).text


@pytest.mark.parametrize("pane", ["ctrl+l", "ctrl+s"], ids=["log", "roster"])
@pytest.mark.parametrize("burst", [False, True], ids=["key-by-key", "burst"])
async def test_a_command_typed_in_a_pane_goes_to_the_command_line(game, pane, burst):
    async with piloted(game, (80, 24)) as (app, pilot):
        screen = app.screen
        log = screen.query_one(LogPane)
        rows = log.view.rows
        await press(pilot, pane)
        assert isinstance(app.focused, LogView if pane == "ctrl+l" else RosterView)
        if burst:  # a phone's keyboard, a paste of keys: queued at once, before the focus moves
            await type_text(pilot, NOTE)
        else:
            await press(pilot, *(c if c != " " else "space" for c in NOTE))
        box = screen.query_one(CommandInput)
        assert app.focused is box and box.value == NOTE
        # Nothing of it went to the panes' keys: no log filter, no search, no fold.
        assert not log.filter and not log.has_class("-asking") and log.view.rows == rows
        assert not screen.query_one(RosterPane).has_class("-filtering")
        await press(pilot, "enter")
        assert last_command(game) == 'note "hello from the phone"' or last_command(game) == NOTE


async def test_a_paste_in_a_pane_goes_to_the_command_line_or_is_refused_there(game):
    async with piloted(game, (80, 24)) as (app, pilot):
        box = app.screen.query_one(CommandInput)
        await press(pilot, "ctrl+l")
        app.post_message(events.Paste("note pasted\tin the log\n"))
        await settled(pilot)
        assert app.focused is box and box.value == "note pasted in the log"
        await press(pilot, "ctrl+s")
        app.post_message(events.Paste("two\nlines"))  # refused whole, said under the line
        await settled(pilot)
        assert box.value == "note pasted in the log" and "2 lines" in str(app.screen.query_one("#cmd-hint").render())


async def test_a_refused_line_given_back_is_replaced_by_a_key_typed_in_a_pane(game):
    async with piloted(game, (80, 24)) as (app, pilot):
        line = app.screen.query_one("CommandLine")
        line.give_back("fire nobody")
        await press(pilot, "ctrl+l", "n")
        assert app.screen.query_one(CommandInput).value == "n"  # as typed on the line itself


async def test_the_panes_keep_their_keys_behind_a_modifier(game):
    async with piloted(game, (80, 24)) as (app, pilot):
        screen = app.screen
        log = screen.query_one(LogPane)
        await press(pilot, "ctrl+l", "ctrl+k")
        assert log.has_class("-asking") and app.focused is log.query_one("#log-query")
        await type_text(pilot, "kind:cmd", "enter")  # typed in the filter's box: the filter's
        assert log.filter and isinstance(app.focused, LogView)
        await press(pilot, "escape", "ctrl+e")
        assert not log.filter and log.has_class("-asking")
        await press(pilot, "escape", "ctrl+s", "ctrl+k")
        roster = screen.query_one(RosterPane)
        assert roster.has_class("-filtering")
        await press(pilot, "escape")
        view = roster.view
        await press(pilot, "home")  # the first row: a side
        assert view._shown[view.cursor].group
        shown = len(view._shown)
        await press(pilot, "enter")  # folds it
        assert len(view._shown) < shown
        await press(pilot, "enter", "ctrl+@")  # unfolded; Ctrl+Space folds it and those beside it
        assert all(item.depth == 0 for item in view._shown)


async def test_esc_on_the_command_line_puts_the_suggestion_away_and_keeps_the_focus(game):
    async with piloted(game, (80, 24)) as (app, pilot):
        box = app.screen.query_one(CommandInput)
        await press(pilot, "n", "o")
        assert suggestion_shown(box)
        await press(pilot, "escape")
        assert not suggestion_shown(box) and app.focused is box and box.value == "no"
        await press(pilot, "escape")  # nothing to put away: still here
        assert app.focused is box
        await type_text(pilot, "te after esc", "enter")
        assert isinstance(app.screen, GameScreen)  # not a log line's Details
        assert "after esc" in last_command(game)


async def test_a_replay_keeps_its_one_key_bindings(game):
    for text in ("next", "next", "next"):
        game.execute(text, role=REFEREE)
    game.close()
    replay = Game.open(game.path, writable=False)
    async with piloted(replay, (80, 24), replay=True) as (app, pilot):
        screen = app.screen
        await press(pilot, "less_than_sign", "ctrl+s", "right_square_bracket")
        assert isinstance(app.focused, RosterView)
        assert screen.vp.step == replay.timeline.next_phase(0)  # the replay's key, from the roster too
