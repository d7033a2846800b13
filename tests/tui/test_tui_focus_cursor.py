"""The terminal's cursor is at the focus (issue #49): a braille display, a magnifier and a screen
reader follow it, not a row drawn in reverse.

Textual writes the cursor at ``App.cursor_position`` after every frame (``App._display``:
``Control.move_to`` of it, clamped to the screen): ``written`` reads it as that does.  Each
test moves the focus as a player does and checks that the cell written is the focused one on
the screen as drawn: the row of the roster or log under its cursor, the option highlighted,
the drawn cursor of a text box, the undo box's question, a dialog's title.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from skirmish import game_fixture  # noqa: F401  (a fixture)
from textual.containers import VerticalScroll
from textual.geometry import Offset
from textual.widgets import Input, OptionList, Select
from waiting import piloted, press, screen_lines, screen_of, settled, type_text, until

from core.log.views import REFEREE
from core.registry import get_ruleset
from tui.commandline import CommandInput
from tui.focus_cursor import widget_point
from tui.panes.log import LogView
from tui.panes.rosterview import RosterView
from tui.screens.dialogs import AskScreen, DetailsScreen, DicePrompt, LockedScreen
from tui.screens.forms import ActionForm, ActionPicker
from tui.screens.help import HelpScreen
from tui.screens.report import ReportScreen
from tui.screens.start import StartScreen
from tui.userdata import UserStore

pytestmark = pytest.mark.long

DEMO = Path(__file__).resolve().parents[2] / "saves" / "demo-game.ft"


def written(app) -> Offset:
    """Where the frame's last escape code puts the terminal's cursor (as ``App._display`` writes it)."""
    return app.screen.outer_size.clamp_offset(app.cursor_position)


def at(app) -> tuple[str, str]:
    """The screen's row at the cursor: what lies before the cursor's cell, and from it on."""
    x, y = written(app)
    row = screen_lines(app)[y]
    return row[:x], row[x:]


async def typed(pilot, text: str) -> None:
    await type_text(pilot, text)


async def test_the_command_line_s_cursor_is_the_drawn_one_at_the_start_and_as_text_is_typed(game):
    async with piloted(game, settle=True) as (app, pilot):
        box = app.screen.query_one(CommandInput)
        assert app.focused is box
        start = written(app)
        assert start.y == box.content_region.y and start.x == box.content_region.x  # not the title's border
        await typed(pilot, "note here")
        before, after = at(app)
        assert before.endswith("note here") and written(app).x == box.content_region.x + len("note here")
        await press(pilot, "left", "left", "left", "left")
        before, after = at(app)
        assert before.endswith("note ") and after.startswith("here")


async def test_the_cursor_stays_put_while_the_box_blinks(game):
    async with piloted(game) as (app, pilot):
        await press(pilot, "ctrl+s", "down", "down")
        placed = written(app)
        assert app.screen.query_one(RosterView).content_region.contains(*placed)
        box = app.screen.query_one(CommandInput)
        for _ in range(3):  # what each half second's blink does to the box
            box._toggle_cursor()
            await settled(pilot)
            assert written(app) == placed


async def test_the_roster_s_row_under_its_cursor(game):
    async with piloted(game) as (app, pilot):
        await press(pilot, "ctrl+s", "down", "down", "down")
        view = app.screen.query_one(RosterView)
        assert app.focused is view and view.cursor == 2
        label = view.label(view.cursor_key).plain
        before, after = at(app)
        # The row from its first cell (its guides, then the figure), the roster's width of it.
        assert written(app).x == view.content_region.x and label.strip() in after[: view.content_region.width]
        await press(pilot, "up")
        assert view.label(view.cursor_key).plain.strip() in at(app)[1][: view.content_region.width]


async def test_the_log_s_row_under_its_cursor(game):
    async with piloted(game) as (app, pilot):
        await press(pilot, "ctrl+l")
        view = app.screen.query_one(LogView)
        assert app.focused is view and view.cursor == view.rows - 1
        region = view.content_region
        for _ in range(2):
            x, y = written(app)
            assert x == region.x and y == region.y + view.cursor - round(view.scroll_offset.y)
            words = view.line_at(view.cursor).text.split()
            assert words[-1] in screen_lines(app)[y]
            await press(pilot, "up")


async def test_the_undo_box_s_question_while_it_asks(game):
    async with piloted(game) as (app, pilot):
        await typed(pilot, "mark ivan suppressed")
        await press(pilot, "enter")
        await press(pilot, "ctrl+z")
        box = app.screen.query_one("#confirm")
        assert box.display and box.asking
        assert written(app) == Offset(box.content_region.x, box.content_region.y)
        assert at(app)[1].startswith("Undo")
        await press(pilot, "n")
        assert written(app).y == app.screen.query_one(CommandInput).content_region.y  # back to the line


async def test_the_action_picker_s_filter_then_its_highlighted_option_then_a_form(game):
    async with piloted(game) as (app, pilot):
        await press(pilot, "f2")
        picker = screen_of(app, ActionPicker)
        assert written(app) == picker.query_one("#picker-filter").content_region.offset
        await press(pilot, "down")  # into the list
        listing = picker.query_one(OptionList)
        assert app.focused is listing
        for _ in range(3):
            name = listing.get_option_at_index(listing.highlighted).id
            assert at(app)[1].startswith(name)
            await press(pilot, "down")
        await press(pilot, "enter")
        form = screen_of(app, ActionForm)
        assert at(app)[1].startswith(("(choose)", "(none)")), (form.spec.name, at(app))  # its first field, empty


async def test_the_command_palette_s_box_while_typing_and_its_highlighted_command_once_the_arrows_move(game):
    """Ctrl+P: the focus stays in the palette's search box.  While the words are typed the
    cursor is in that box, after the last letter, where the next one goes (it was on the
    list's first command from the start, off the box typed into); once the arrows move the
    highlight it is on the command Enter would run, and moves with the highlight."""
    from textual.command import CommandInput as SearchBox
    from textual.command import CommandList, CommandPalette

    async with piloted(game) as (app, pilot):
        await press(pilot, "ctrl+p")
        await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        palette = app.screen
        box = palette.query_one(SearchBox)
        await until(pilot, lambda: box.region, "the search box")
        assert written(app) == widget_point(box) and widget_point(box).y == box.content_region.y
        await typed(pilot, "un")
        listing = palette.query_one(CommandList)
        await until(pilot, lambda: listing.display and listing.highlighted is not None, "the commands found")
        assert isinstance(app.focused, Input)  # typing still goes to the search box
        assert at(app)[0].rstrip().endswith("un") and written(app).y == box.content_region.y, at(app)
        for _ in range(2):
            await press(pilot, "down")
            prompt = str(listing.get_option_at_index(listing.highlighted).prompt).split("\n")[0].strip()
            assert at(app)[1].strip().startswith(prompt[:12]), (prompt, at(app))


async def test_a_form_s_select_closed_on_its_value_and_open_on_its_highlighted_option(game):
    for _ in range(2):
        game.execute("next", role=REFEREE)  # to the activation, where shoot can be given
    async with piloted(game) as (app, pilot):
        await press(pilot, "f2")
        await typed(pilot, "shoot")
        await press(pilot, "enter")
        screen_of(app, ActionForm)
        field = app.focused
        assert isinstance(field, Select) and field.id == "field-unit"
        assert at(app)[1].startswith("(choose)")  # the closed select's value, not its border
        await press(pilot, "enter", "down")  # open it, onto the first figure
        assert at(app)[1].strip().startswith("Sgt Cole")
        await press(pilot, "enter")  # chosen: closed again, on the value chosen
        assert app.focused is field and at(app)[1].startswith("Sgt Cole")


async def test_the_dice_prompt_s_box_at_its_drawn_cursor(game):
    async with piloted(game) as (app, pilot):
        await press(pilot, "f3")  # table dice
        await typed(pilot, "roll 2d6")
        await press(pilot, "enter")
        assert isinstance(app.screen, DicePrompt)
        box = app.screen.query_one(Input)
        assert app.focused is box and written(app) == box.content_region.offset  # its first cell, empty
        await typed(pilot, "4 5")
        assert at(app)[0].endswith("4 5") and written(app).y == box.content_region.y
        await press(pilot, "left")
        before, after = at(app)
        assert before.endswith("4 ") and after.startswith("5")


async def test_replay_s_log_row_its_go_to_turn_box_and_the_report_s_words(game):
    for _ in range(2):
        game.execute("next", role=REFEREE)  # the initiative rolled: events to step through
    async with piloted(game) as (app, pilot):
        await press(pilot, "f5")  # replay, at the end
        view = app.screen.query_one(LogView)
        assert app.focused is view
        for _ in range(2):
            words = view.line_at(view.cursor).text.split()
            assert words[-1] in at(app)[1] and written(app).x == view.content_region.x
            await press(pilot, "left")  # a step back: the log's cursor on the event shown
        await press(pilot, "t")  # go to turn: a box that asks
        assert isinstance(app.screen, AskScreen)
        assert written(app) == app.screen.query_one(Input).content_region.offset
        await press(pilot, "escape", "escape")  # the box, then the replay
        await press(pilot, "f4")  # the after-action report
        assert isinstance(app.screen, ReportScreen)
        assert at(app)[1].startswith("After-action report: Patrol at the well")  # its words, not a chart


async def test_a_dialog_s_first_words(game):
    async with piloted(game) as (app, pilot):
        await press(pilot, "ctrl+l", "enter")  # the log line's details: its words scroll
        assert isinstance(app.screen, DetailsScreen)
        details = app.screen.query_one(VerticalScroll)
        assert app.focused is details and written(app) == details.content_region.offset
        assert at(app)[1].strip()
        await press(pilot, "escape")
        locked = LockedScreen("saves/x.ft", "fireteam, process 12")  # nothing in it takes the focus
        app.push_screen(locked)
        await settled(pilot)
        assert app.focused is None
        assert at(app)[1].startswith("This save is being written")


async def test_the_help_screen_s_search_box(game):
    async with piloted(game) as (app, pilot):
        await press(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        await typed(pilot, "und")
        before, _after = at(app)
        assert before.endswith("und")


@pytest.fixture
def store(tmp_path, monkeypatch) -> UserStore:
    monkeypatch.chdir(tmp_path)
    return UserStore(tmp_path / "config", tmp_path / "data")


async def test_the_start_screen_s_list_and_the_new_game_screen(tmp_path, store):
    from core import folders

    folders.saves().mkdir(parents=True, exist_ok=True)
    for name in ("one.ft", "two.ft"):
        shutil.copy(DEMO, folders.saves() / name)
    async with piloted(None, store=store, start=True, settle=True) as (app, pilot):
        await settled(pilot)
        screen = screen_of(app, StartScreen)
        listing = screen.query_one(OptionList)
        for _ in range(2):
            prompt = listing.get_option_at_index(listing.highlighted).prompt
            assert at(app)[1].startswith(prompt.plain[:6])
            await press(pilot, "down")
        await press(pilot, "n")
        focused = app.focused
        assert focused is not None and focused.screen is app.screen
        x, y = written(app)
        assert focused.region.contains(x, y)
        # The new game screen's first field, a closed select: on its value's first letter, not on
        # the box's border or the blank row above it.
        assert isinstance(focused, Select) and focused.id == "ruleset"
        assert at(app)[1].startswith(get_ruleset(focused.value).name)
        await press(pilot, "tab")
        assert app.focused is not focused and app.focused.region.contains(*written(app))
        assert at(app)[1].startswith("standard")  # the variant's select


async def test_an_empty_start_screen_s_cursor_is_on_the_words_that_say_so(tmp_path, store):
    async with piloted(None, store=store, start=True, settle=True) as (app, pilot):
        await settled(pilot)
        assert isinstance(app.screen, StartScreen) and app.screen.query_one(OptionList).option_count == 0
        assert at(app)[1].startswith("No games yet")  # not the empty list's border beside them


@pytest.mark.parametrize("no_color", ["1", ""], ids=["NO_COLOR", "colour"])
async def test_without_colour_the_suggestion_is_underlined_not_like_typed_text(game, monkeypatch, no_color):
    if no_color:
        monkeypatch.setenv("NO_COLOR", no_color)
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    async with piloted(game) as (app, pilot):
        await typed(pilot, "shoot co")
        box = app.screen.query_one(CommandInput)
        strip = box.render_line(0)
        cells = [(segment.text, segment.style) for segment in strip if segment.text.strip()]
        typed_cells = [style for text, style in cells if text in "shoot co"]
        suggested = [style for text, style in cells if "le" in text or text == "l"]
        assert suggested, cells
        assert all(bool(style and style.underline) == bool(no_color) for style in suggested)
        assert not any(style and style.underline for style in typed_cells)
