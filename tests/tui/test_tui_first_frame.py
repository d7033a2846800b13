"""The client's first frame is its final one, and costs only what it shows (issue #32's ``start_ratio``).

Drawn as on a terminal (the bench's ``NullTerminal``: frames turned into escape
codes, then dropped), the first frame of the game screen that shows the game
(``GameScreen.refresh_game`` has run: the frame ``fireteam bench --client``
times) already has the focus where the screen keeps it, and its log has
described only the rows it shows.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
from textual.screen import Screen
from textual.widgets._toast import Toast, ToastRack
from textual.widgets._tooltip import Tooltip
from waiting import settled

from core.game import Game
from core.log.views import REFEREE
from tui.app import FireteamApp
from tui.bench.client import _null_terminal
from tui.commandline import CommandInput
from tui.panes.log import LogView
from tui.screens.game import GameScreen

DEMO = Path(__file__).resolve().parents[2] / "saves" / "demo-game.ft"


@pytest.fixture(name="demo")
def demo_fixture(tmp_path: Path):
    save = tmp_path / "demo.ft"
    shutil.copy(DEMO, save)
    game = Game.open(save)
    yield game
    game.close()


async def _first_frame(game: Game, replay: bool) -> tuple[dict, object]:
    """What the first frame showing the game held, and the widget focused once the client is idle."""
    app = FireteamApp(game, role=REFEREE, replay=replay, driver_class=_null_terminal())
    first: dict = {}

    def drawn() -> None:
        screen = app.screen
        if first or not isinstance(screen, GameScreen) or screen._shown_view is None:
            return
        view = screen.query_one(LogView)
        top = int(view.scroll_y)
        shown = range(top, min(view.rows, top + view.scrollable_content_region.height))
        first.update(
            focused=screen.focused,
            described=set(view._cache),
            shown={view.index.position(row) for row in shown},
            rows=view.rows,
            stack=list(app.screen_stack),
        )

    app.post_display_hook = drawn  # type: ignore[method-assign]
    async with app.run_test(headless=False, size=(100, 30)) as pilot:
        await settled(pilot)
        idle = app.screen.focused
    return first, idle


@pytest.mark.long
@pytest.mark.parametrize(("replay", "kind"), [(False, CommandInput), (True, LogView)])
async def test_the_first_frame_has_the_focus_where_the_screen_keeps_it(demo, replay, kind):
    # Textual's auto-focus chose the roster (the first focusable widget), drawn so
    # in the first frame, and the screen moved the focus in the next.
    first, idle = await _first_frame(demo, replay)
    assert isinstance(idle, kind)
    assert first["focused"] is idle


async def test_the_first_frame_describes_only_the_log_rows_it_shows(demo):
    first, _ = await _first_frame(demo, replay=False)
    assert first["rows"] > len(first["shown"]) > 5  # the demo's log is longer than its pane
    # Every row shown is described, and no other (the rows above were described too,
    # for a scroll up that may never come).
    assert first["described"] == first["shown"]


async def test_textual_s_overlays_come_after_the_first_frame_and_show_what_was_sent_before(demo):
    # The notifications' rack and the tooltip (Textual composes them into every screen it
    # may show them on) are mounted once the first frame is drawn, first among the
    # screen's children as Textual composes them; a notification sent before is shown then.
    app = FireteamApp(demo, role=REFEREE, driver_class=_null_terminal())
    at_first: list[list[type]] = []

    def drawn() -> None:
        screen = app.screen
        if not at_first and isinstance(screen, GameScreen) and screen._shown_view is not None:
            at_first.append([type(child) for child in screen.children])
            app.notify("sent before the rack", timeout=60)

    app.post_display_hook = drawn  # type: ignore[method-assign]
    async with app.run_test(headless=False, size=(100, 30), notifications=True, tooltips=True) as pilot:
        await settled(pilot)
        screen = app.screen
        assert ToastRack not in at_first[0] and Tooltip not in at_first[0]
        assert [type(child) for child in screen.children[:2]] == [ToastRack, Tooltip]
        assert [str(toast.render()) for toast in screen.query(Toast)] == ["sent before the rack"]


async def test_what_the_first_frame_left_for_later_waits_for_a_turn_of_the_event_loop(demo, monkeypatch):
    # At a seat worker many seats share one event loop, and Textual handles every message
    # queued for a screen in one turn of it: the widgets the first frame left hidden are
    # mounted in a turn of their own, so what the loop had for the other seats as that frame
    # was drawn (here, a callback put on it then) runs between the frame and those mounts.
    app = FireteamApp(demo, role=REFEREE, driver_class=_null_terminal())
    order: list[str] = []

    def drawn() -> None:
        screen = app.screen
        if not order and isinstance(screen, GameScreen) and screen._shown_view is not None:
            order.append("frame")
            asyncio.get_running_loop().call_soon(order.append, "another seat")

    add_hidden = GameScreen._add_hidden

    def adding(self) -> None:
        order.append("hidden")
        add_hidden(self)

    monkeypatch.setattr(GameScreen, "_add_hidden", adding)
    app.post_display_hook = drawn  # type: ignore[method-assign]
    async with app.run_test(headless=False, size=(100, 30)) as pilot:
        await settled(pilot)
        assert order[:3] == ["frame", "another seat", "hidden"]
        assert app.screen.query("KeysFooter")  # (and they were mounted)


async def test_the_log_looks_for_no_undo_already_in_the_save_when_it_is_bound(demo, monkeypatch):
    # Its lines struck through by an undo (or restored by a redo) are fetched again once
    # that undo is in the save; at the start none is fetched yet, and the undos and redos
    # of the whole save were read from it for nothing (~1,000 in a 100,000-event save).
    import tui.panes.log as log_pane

    looked: list[tuple[int, int]] = []

    def struck_commands(game, start, end):
        looked.append((start, end))
        return real(game, start, end)

    real = log_pane.struck_commands
    monkeypatch.setattr(log_pane, "struck_commands", struck_commands)
    length = demo.log_length
    first, _ = await _first_frame(demo, replay=False)
    assert first["rows"] > 0 and looked  # it did sync
    assert all(start >= length for start, _ in looked), looked


@pytest.mark.parametrize("replay", [False, True])
async def test_the_game_screen_is_the_apps_first_screen(demo, replay):
    # It was pushed over Textual's blank default screen, which was composed, styled
    # three times, laid out and given overlays of its own before the first frame,
    # never to be seen.
    first, _ = await _first_frame(demo, replay)
    assert len(first["stack"]) == 1 and isinstance(first["stack"][0], GameScreen)


@pytest.mark.long
async def test_a_game_switched_replaces_the_first_game_screen(demo, tmp_path):
    # New game and load game: the screen of the game shown is replaced, under what was over it.
    other_save = tmp_path / "other.ft"
    shutil.copy(DEMO, other_save)
    app = FireteamApp(demo, role=REFEREE, driver_class=_null_terminal())
    async with app.run_test(headless=False, size=(100, 30)) as pilot:
        await settled(pilot)
        first = app.screen
        await app.push_screen(Screen())  # (a dialog, a help screen)
        other = Game.open(other_save)
        app.switch_game(other, replay=True)
        await settled(pilot)
        assert len(app.screen_stack) == 1
        assert isinstance(app.screen, GameScreen) and app.screen is not first
        assert app.screen.game is other and app.screen.replay
