"""The game screen's layout at 80x24 and at a wide size: nothing important cut off,
the roster's cursor always on screen, too small a terminal said in words."""

from __future__ import annotations

import io
import shutil

import pytest
from rich.console import Console
from waiting import piloted, press, settled, type_text

from core.game import Game
from core.log.views import REFEREE
from tui.app import FireteamApp
from tui.bench.screenshots import demo_game
from tui.commandline import CommandInput
from tui.panes.dice import DicePane
from tui.panes.log import LogPane, LogView, line_text
from tui.panes.roster import RosterPane
from tui.panes.rosterview import RosterView
from tui.screens.dialogs import ConfirmBox

pytestmark = pytest.mark.long

SIZES = [(80, 24), (160, 48)]


@pytest.mark.parametrize("size", SIZES)
async def test_the_roster_cursor_never_leaves_the_screen(tmp_path, size):
    async with piloted(demo_game(tmp_path / "demo.ft"), size) as (app, pilot):
        view: RosterView = app.screen.query_one(RosterPane).view
        await press(pilot, "f6", "home")
        seen = []
        for _ in range(view.rows):
            await settled(pilot)
            top, rows = int(view.scroll_y), view.scrollable_content_region.height
            assert top <= view.cursor < top + rows, f"row {view.cursor} is off rows {top}..{top + rows - 1}"
            seen.append(view.cursor)
            await press(pilot, "down")
        assert seen == list(range(view.rows)) and len(seen) >= 20
        for _ in seen:  # and back up
            await press(pilot, "up")
            top = int(view.scroll_y)
            assert top <= view.cursor < top + view.scrollable_content_region.height


def rendered(widget) -> str:
    """What a widget's render() shows at its width, as plain text."""
    console = Console(width=widget.content_size.width or 80, file=io.StringIO(), record=True)
    console.print(widget.render())
    return console.export_text()


def screen_text(app) -> str:
    """The screen as a person reads it: its rows of characters."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def type_command(pilot, text: str) -> None:
    pilot.app.screen.query_one(CommandInput).focus()
    await type_text(pilot, text, "enter")


# ------------------------------------------------------------- what is cut off


@pytest.mark.parametrize("size", SIZES)
async def test_a_rolls_outcome_is_on_screen_wherever_its_line_is_cut(tmp_path, size):
    async with piloted(demo_game(tmp_path / "demo.ft"), size) as (app, pilot):
        await type_command(pilot, "fire greco ahmed range=30")
        await type_command(pilot, "fire conti ahmed range=20")
        text = screen_text(app)
        log = app.screen.query_one(LogView)
        # The log: each roll's row starts with what it meant.
        greco = next(r for r in range(log.rows) if log.line_at(r).text.startswith("Pte Greco's fire with"))
        assert line_text(log.line_at(greco)).plain.startswith("  miss · Pte Greco's fire with Assault rifle")
        assert "  1 hit · Pte Conti's fire with Assault" in text
        assert "  failed: out of action · Ahmed Noor's save" in text
        # The message line: every outcome of the command, first.
        assert "✓ #10 1 hit, failed: out of action · Pte Conti's fire with" in text
        # The dice pane: the last roll's outcome, before its long description.
        assert "│ failed: out of action · Ahmed Noor's save" in text
        # The phase pane: who acts and what comes next, never cut.
        assert "reacting Somali militia" in text
        assert "Next: the active player acts; the reacting player reacts; then next" in text
        # The log has rows to show: more than 6 at 80x24, most of the screen when wide.
        assert log.size.height >= (9 if size == (80, 24) else 25)
        assert app.screen.query_one(LogPane).size.width >= (size[0] * 0.55)


@pytest.mark.parametrize("size", SIZES)
async def test_a_roster_row_shows_its_name_and_badges_before_its_kit(tmp_path, size):
    async with piloted(demo_game(tmp_path / "demo.ft"), size) as (app, pilot):
        await settled(pilot)
        text = screen_text(app)
        assert "Faysal Abdi  off table " in text or size == (80, 24)  # further down at 80x24
        assert "Sgt Rossi ★  fired " in text and "Pte Conti  wounded " in text
        assert "Bersaglieri DP 0 · 7/7" in text


@pytest.mark.parametrize(("size", "small"), [((59, 24), True), ((80, 15), True), ((60, 16), False)])
async def test_a_terminal_too_small_is_told_so(tmp_path, size, small):
    async with piloted(demo_game(tmp_path / "demo.ft"), size) as (app, pilot):
        await settled(pilot)
        text = screen_text(app)
        log = app.screen.query_one(LogView)
        if small:
            assert f"Terminal too small: {size[0]}x{size[1]}." in text
            assert "Fireteam needs at least 60x16." in text
            assert "Action log" not in text
        else:
            assert "Terminal too small" not in text
            assert log.size.height >= 3  # the smallest size that works still shows the log
        await pilot.resize_terminal(80, 24)
        await settled(pilot)
        assert "Terminal too small" not in screen_text(app) and log.size.height >= 9


# ------------------------------------------------------------ the log follows


@pytest.mark.parametrize("size", SIZES)
async def test_the_log_follows_after_a_search_and_says_when_newer_lines_exist(tmp_path, size):
    async with piloted(demo_game(tmp_path / "demo.ft"), size) as (app, pilot):
        log, pane = app.screen.query_one(LogView), app.screen.query_one(LogPane)
        await press(pilot, "f7", "ctrl+e", *"armies", "enter")
        await settled(pilot)
        found = log.cursor
        assert "armies of" in log.line_at(found).text and not log.follow
        assert pane.border_subtitle == f"▼ {log.rows - int(log.scroll_y) - log.size.height} newer (End)"
        # Another seat's command: the cursor stays where the search left it, the border counts the new lines.
        before = log.rows - int(log.scroll_y) - log.size.height
        app.game.execute("note from the other table", role=REFEREE, by="umpire")
        await settled(pilot)
        assert log.cursor == found
        assert pane.border_subtitle == f"▼ {before + 2} newer (End)"
        assert "newer (End)" in screen_text(app)
        # This seat's own command: the log goes to it.
        await type_command(pilot, "note mine")
        assert log.follow and log.cursor == log.rows - 1 and log.line_at(log.cursor).text == "note: mine"
        assert pane.border_subtitle == "" and "newer (End)" not in screen_text(app)
        # A filter: it shows its newest line, and follows the new ones.
        await press(pilot, "f7", "f", *"kind:note", "enter")
        await settled(pilot)
        assert log.line_at(log.cursor).text == "note: mine"
        app.game.execute("note later still", role=REFEREE, by="umpire")
        await settled(pilot)
        assert log.line_at(log.cursor).text == "note: later still" and log.cursor == log.rows - 1
        # Scrolled away from the end, then End: following again.
        await press(pilot, "home")
        await press(pilot, "escape")  # clears the filter: every line again, following
        assert log.follow and log.line_at(log.cursor).text == "note: later still"


# ----------------------------------------------------------- undo and redo


@pytest.mark.parametrize("size", SIZES)
async def test_undo_and_redo_leave_nothing_stale(tmp_path, size):
    async with piloted(demo_game(tmp_path / "demo.ft"), size) as (app, pilot):
        dice = app.screen.query_one(DicePane)
        await type_command(pilot, "fire greco ahmed range=30")
        await type_command(pilot, "fire conti ahmed range=20")
        assert "failed: out of action · Ahmed Noor's save" in str(rendered(dice))
        await press(pilot, "ctrl+z")
        assert app.screen.query_one(ConfirmBox).asking
        assert "struck through, and stop counting" in screen_text(app)
        await press(pilot, "enter")
        text = screen_text(app)
        # The dice pane shows the last roll still in play; the message line, the undo.
        assert "miss · Pte Greco's fire with" in rendered(dice) and "Conti" not in rendered(dice)
        assert "↶ undone: #10 fire conti ahmed range=20" in text and "✓ #10" not in text
        await press(pilot, "ctrl+y")
        assert app.screen.query_one(ConfirmBox).asking
        text = screen_text(app)
        assert "Redo #10 fire conti ahmed range=20?" in text
        assert "count again" in text and "stays struck through" not in text
        await press(pilot, "enter")
        text = screen_text(app)
        assert "failed: out of action · Ahmed Noor's save" in rendered(dice)
        assert "↷ redone: #10 fire conti ahmed range=20" in text and "↶ undone" not in text


async def test_the_roster_repaints_its_scroll_bar_only_when_something_changed(tmp_path, monkeypatch):
    # Textual's scrollbar, a widget of its own, was repainted at every layout of the
    # screen, in a frame of its own (the one an undo waited for).  The roster draws
    # its bar in its rows' last column: a layout leaves it be; a side folded (fewer
    # rows) draws it again, here gone, as every row now fits.
    async with piloted(demo_game(tmp_path / "demo.ft"), (80, 24)) as (app, pilot):
        view = app.screen.query_one(RosterPane).view
        await settled(pilot)
        thumb = view._bar()
        assert thumb is not None and not view.show_vertical_scrollbar
        last_cells = [strip.crop(view.size.width - 1).text for strip in view.render_lines(view.size.region)]
        assert last_cells == [" "] * view.size.height  # a track and a thumb, in colours
        styles = [list(strip.crop(view.size.width - 1))[0].style for strip in view.render_lines(view.size.region)]
        assert {styles[y].bgcolor for y in range(*thumb)} != {styles[y].bgcolor for y in range(thumb[1], len(styles))}
        repainted = []
        refresh = view.refresh
        monkeypatch.setattr(view, "refresh", lambda *a, **k: (repainted.append(1), refresh(*a, **k))[1])
        app.screen.refresh(layout=True)
        await settled(pilot)
        assert not repainted
        rows = view.rows
        await press(pilot, "f6", "home", "enter")  # a side folded: fewer rows, the bar follows
        assert view.rows < rows and repainted
        assert view.rows <= view.size.height and view._bar() is None


@pytest.mark.parametrize("sizes", [[(100, 30), (100, 24), (70, 40), (100, 30)], [(80, 24), (160, 48), (60, 16)]])
async def test_a_resized_screen_shows_what_a_screen_started_at_that_size_shows(tmp_path, sizes):
    # The phase pane's text depends on the width (what is cut to fit) and on the height
    # (a tall screen leaves the rule sections out): after each resize, the whole screen
    # is what a client started at that size draws.  (Copies of one save: the same secrets' digests.)
    demo_game(tmp_path / "demo.ft").close()

    def copy(name: str) -> FireteamApp:
        (tmp_path / name).mkdir()
        shutil.copyfile(tmp_path / "demo.ft", tmp_path / name / "demo.ft")
        return FireteamApp(Game.open(tmp_path / name / "demo.ft"), role=REFEREE)

    fresh = {}
    for n, size in enumerate(sizes):
        app = copy(str(n))
        async with app.run_test(size=size) as pilot:
            await settled(pilot)
            fresh[size] = screen_text(app)
        app.game.close()
    app = copy("resized")
    async with app.run_test(size=sizes[0]) as pilot:
        for size in sizes[1:]:
            await pilot.resize_terminal(*size)
            await settled(pilot)
            assert screen_text(app) == fresh[size], size
    app.game.close()
