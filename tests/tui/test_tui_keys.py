"""Keyboard polish (issue #15): the actions picker and form, completion, help,
the footer and the keys every F-key action also has."""

from __future__ import annotations

import gc
import warnings

import pytest
from skirmish import game_fixture  # noqa: F401  (a fixture)
from textual.app import App
from waiting import piloted, press, screen_lines, screen_of, settled, type_text

from core.log.views import REFEREE
from tui.app import FireteamApp
from tui.commandline import CommandInput, CommandLine, current_word
from tui.screens.forms import ActionForm, ActionPicker

pytestmark = pytest.mark.long

SIZES = [(80, 24), (160, 48)]


async def press_text(pilot, text: str) -> None:
    await type_text(pilot, text)


# ---------------------------------------------------------------- 1. actions


@pytest.mark.parametrize("size", SIZES)
async def test_the_picker_filters_as_you_type_and_puts_the_phase_first(game, size):
    assert game.state.phase == "deployment"
    async with piloted(game, size) as (app, pilot):
        await press(pilot, "f2")
        picker = screen_of(app, ActionPicker)
        assert app.focused is picker.query_one("#picker-filter")  # typing filters straight away
        shown = picker.shown()
        assert sorted(shown) == sorted(s.name for s in game.commands)
        # The current phase's own command (roster: deployment only) leads; shoot (activation) is last, greyed.
        assert shown[0] == "roster"
        specs = {s.name: s for s in game.commands}
        firsts = [n for n in shown if specs[n].phases]
        assert firsts[0] == "roster" and shown.index("shoot") > shown.index("note")
        await press_text(pilot, "sho")
        assert picker.shown() == ["shoot"]
        await press_text(pilot, "x")
        assert picker.shown() == []
        await press(pilot, "backspace", "backspace", "backspace", "backspace")
        await press_text(pilot, "mark")
        assert picker.shown()[0] == "mark"
        await press(pilot, "enter")
        form = app.screen
        assert isinstance(form, ActionForm) and form.spec.name == "mark"
        assert app.focused is form.query_one("#field-unit")  # the first field, not the form
        await press(pilot, "escape")
        await press(pilot, "f2")
        await press(pilot, "down")  # from the filter into the list
        assert app.focused is app.screen.query_one("OptionList")


# ------------------------------------------------------------- 2. completion


def hint_row(app) -> str:
    return screen_lines(app)[app.screen.query_one("#cmd-hint").region.y]


async def test_the_first_candidate_is_greyed_in_and_taken_with_the_right_arrow(game):
    async with piloted(game, SIZES[0]) as (app, pilot):
        box = app.screen.query_one(CommandInput)
        await press_text(pilot, "shoot co")
        await settled(pilot)
        row = screen_lines(app)[box.region.y]
        assert "shoot cole" in row  # "le" greyed in after the cursor
        await press(pilot, "right")
        assert box.value == "shoot cole"


async def test_a_line_typed_as_the_app_closes_leaves_no_suggestion_never_awaited(game):
    # An SSH seat that closes as a key arrives: Textual's Suggester worked each suggestion out
    # in a worker, whose coroutine the app's closing (it cancels every worker) could leave unstarted.
    app = FireteamApp(game, role=REFEREE)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        async with app.run_test(size=SIZES[0]):
            app.screen.query_one(CommandInput).value = "sh"
            app.workers.cancel_all()  # what the app's closing does
        gc.collect()
    assert [str(w.message) for w in seen if "never awaited" in str(w.message)] == []


@pytest.mark.parametrize("size", SIZES)
async def test_candidates_come_before_a_long_usage(game, size):
    shoot = next(s for s in game.commands if s.name == "shoot")
    assert len(shoot.help) + len("shoot UNIT TARGET RANGE") > 75  # it alone would fill 80 columns
    async with piloted(game, size) as (app, pilot):
        await press_text(pilot, "shoot cole ")
        row = hint_row(app)
        for name in ("ivan", "kemal", "omar", "yusuf"):  # the targets: the side against Cole's
            assert name in row
        assert "diaz" not in row  # Cole's own side
        assert "kemal Kemal Aydin" in row  # room for each figure's name beside its id (#26)
        await press(pilot, *["backspace"] * len("cole "))
        row = hint_row(app)
        for name in ("cole", "diaz", "ivan", "kemal"):  # the firer: any figure, for the referee
            assert name in row
        if size[0] < 160:
            assert "Kemal Aydin" not in row  # the names would push the last ids past the edge


class _Completing(App):
    """A command line alone, with candidates that share a start longer than the word typed."""

    def compose(self):
        words = ["suppressed", "supported", "supply", "stabilised"]

        def complete(text: str) -> list[str]:
            word = current_word(text)
            return [w for w in words if w.startswith(word)]

        yield CommandLine("referee", complete, list, lambda text: None, id="command")


@pytest.mark.parametrize("size", SIZES)
async def test_tab_completes_the_common_start_first_then_cycles(size):
    app = _Completing()
    async with app.run_test(size=size) as pilot:
        box = app.query_one(CommandInput)
        box.focus()
        await press_text(pilot, "mark kemal su")
        await press(pilot, "tab")
        assert box.value == "mark kemal supp"  # what every candidate shares, no further
        await press(pilot, "tab")
        assert box.value == "mark kemal suppressed"
        await press(pilot, "tab")
        assert box.value == "mark kemal supported"
        await press(pilot, "tab")
        assert box.value == "mark kemal supply"
        await press(pilot, "tab")
        assert box.value == "mark kemal suppressed"  # round again
        await press(pilot, "space", "s", "t", "tab")
        assert box.value == "mark kemal suppressed stabilised "  # a single candidate: done, with a space


# ------------------------------------------------------- 4. footer and keys


def f_key(key: str) -> bool:
    return key.startswith("f") and key[1:].isdigit()


def bindings_by_action(bindings) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for b in bindings:
        for key in b.key.split(","):
            out.setdefault(b.action, []).append(key.strip())
    return out


async def palette_entries(game, *, replay: bool) -> set[str]:
    """The actions the command palette offers on a running app (live or in replay)."""
    app = FireteamApp(game, role=REFEREE, replay=replay)
    async with app.run_test(size=(80, 24)):
        screen = app.screen
        found = {action for _name, _help, action in screen.palette_actions()}
        system = {c.title: c.callback for c in app.get_system_commands(screen)}
        if system.get("Screenshot") == app.action_screenshot:  # ours, not Textual's (another folder)
            found.add("screenshot")
        return found


async def test_every_f_key_has_a_non_f_key_and_a_palette_entry(game):
    from tui.screens.game import GameScreen

    app_keys = bindings_by_action(FireteamApp.BINDINGS)
    screen_keys = bindings_by_action(GameScreen.BINDINGS)
    f_actions = {a for keys in (app_keys, screen_keys) for a, ks in keys.items() if any(map(f_key, ks))}
    assert {"help", "pick_action", "toggle_dice", "open_replay", "screenshot", "focus_pane('roster')"} <= f_actions
    for keys in (app_keys, screen_keys):
        for action, ks in keys.items():
            if any(map(f_key, ks)):
                assert [k for k in ks if not f_key(k)], f"{action} has only F-keys: {ks}"
    live = await palette_entries(game, replay=False)
    replay = await palette_entries(game, replay=True)
    for action in f_actions:
        assert action in live | replay, f"{action} has no palette entry"
    assert {"pick_action", "toggle_dice", "open_replay", "screenshot", "help"} <= live


@pytest.mark.parametrize("size", SIZES)
async def test_the_ctrl_keys_do_what_the_f_keys_do(game, size):
    from tui.panes.log import LogView
    from tui.screens.game import GameScreen
    from tui.screens.help import HelpScreen

    async with piloted(game, size) as (app, pilot):
        screen = app.screen
        await press(pilot, "ctrl+s")
        assert app.focused is screen.query_one("#roster-view")
        await press(pilot, "ctrl+l")
        assert isinstance(app.focused, LogView)
        await press(pilot, "ctrl+x")
        assert isinstance(app.focused, CommandInput)
        await press(pilot, "ctrl+t")
        assert screen.table_dice
        await press(pilot, "ctrl+b")
        assert isinstance(app.screen, ActionPicker)
        await press(pilot, "escape", "ctrl+f")
        assert isinstance(app.screen, HelpScreen)
        await press(pilot, "escape", "ctrl+r")
        assert isinstance(app.screen, GameScreen) and app.screen.replay


@pytest.mark.parametrize("replay", [False, True])
async def test_the_footer_fits_80_columns_whatever_has_the_focus(game, replay):
    from tui.textual_internals import FooterKey

    async with piloted(game, (80, 24), replay=replay) as (app, pilot):
        for key in ("ctrl+s", "ctrl+l", "ctrl+x"):
            await press(pilot, key)
            keys = list(app.screen.query(FooterKey))
            assert keys
            row = screen_lines(app)[-1]
            for fk in keys:
                assert fk.region.right <= 80, f"{fk.description!r} is cut off"
                assert fk.description in row


# ------------------------------------------------------------------- 3. help


@pytest.mark.parametrize("size", SIZES)
async def test_help_fills_the_width_and_finds_what_is_typed(game, size):
    from textual.containers import VerticalScroll

    from tui.screens.help import HelpEntry, HelpScreen

    async with piloted(game, size) as (app, pilot):
        await press(pilot, "f1")
        help_screen = screen_of(app, HelpScreen)
        scroll = help_screen.query_one(VerticalScroll)
        assert scroll.region.width >= size[0] - 6  # the terminal's width, less the frame
        for entry in help_screen.query(HelpEntry):
            assert entry.region.width == scroll.scrollable_content_region.width  # wrapped to it, never cut
        # A command's help is wrapped to the width: every word of it is drawn, none cut.
        roll = next(e for e in help_screen.query(HelpEntry) if e.text.startswith("roll "))
        drawn = " ".join(strip.text for strip in roll.render_lines(roll.region.reset_offset)).split()
        spec = next(s for s in game.commands if s.name == "roll")
        assert set(spec.help.split()) <= set(drawn)
        await type_text(pilot, "screenshot")  # the search box has the focus
        assert [e.text.split()[0] for e in help_screen.matches] == ["anywhere"]
        await press(pilot, "ctrl+a", "ctrl+k")
        await type_text(pilot, "unit")
        found = help_screen.matches
        assert len(found) >= 4
        assert found[0].has_class("-current")
        for entry in found:  # every match drawn highlighted
            spans = [s for line in entry.render_lines(entry.region.reset_offset) for s in line if s.style]
            assert any(s.text.lower() == "unit" and s.style.bgcolor for s in spans), entry.text[:30]
        await press(pilot, "enter")
        current = found[1]
        assert current.has_class("-current") and not found[0].has_class("-current")
        assert current.region.y >= scroll.region.y and current.region.y < scroll.region.bottom  # scrolled to it
        help_screen.query_one(VerticalScroll).focus()
        await press(pilot, "n", "n")
        assert help_screen.current == 3
        await press(pilot, "N")
        assert help_screen.current == 2 and found[2].has_class("-current")
        await press(pilot, "slash")
        assert app.focused is help_screen.query_one("#help-search")


async def test_help_search_takes_what_is_typed_at_once(game):
    """F1 then a word: the word is searched, no key is lost waiting for `/` (issue #26)."""
    from textual.containers import VerticalScroll

    from tui.screens.help import HelpScreen

    async with piloted(game, (80, 24)) as (app, pilot):
        await press(pilot, "f1", *"unit")
        help_screen = screen_of(app, HelpScreen)
        assert help_screen.query_one("#help-search").value == "unit"
        assert len(help_screen.matches) >= 4 and help_screen.matches[0].has_class("-current")
        # The arrows and pages still scroll the help from the search box.
        scroll = help_screen.query_one(VerticalScroll)
        scroll.scroll_home(animate=False)
        await settled(pilot)
        await press(pilot, "pagedown")
        assert scroll.scroll_y > 0
        assert app.focused is help_screen.query_one("#help-search")
