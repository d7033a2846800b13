"""Keyboard polish (issue #15): the actions picker and form, completion, help,
the footer and the keys every F-key action also has."""

from __future__ import annotations

import pytest
from skirmish import game_fixture  # noqa: F401  (a fixture)
from textual.app import App

from tui.app import FireteamApp
from tui.commandline import CommandInput, CommandLine, current_word
from tui.screens.forms import ActionForm, ActionPicker

SIZES = [(80, 24), (160, 48)]


async def press_text(pilot, text: str) -> None:
    await pilot.press(*[c if c != " " else "space" for c in text])
    await pilot.pause()


# ---------------------------------------------------------------- 1. actions


@pytest.mark.parametrize("size", SIZES)
async def test_the_picker_filters_as_you_type_and_puts_the_phase_first(game, size):
    assert game.state.phase == "deployment"
    app = FireteamApp(game)
    async with app.run_test(size=size) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        picker = app.screen
        assert isinstance(picker, ActionPicker)
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
        await pilot.press("backspace", "backspace", "backspace", "backspace")
        await press_text(pilot, "mark")
        assert picker.shown()[0] == "mark"
        await pilot.press("enter")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, ActionForm) and form.spec.name == "mark"
        assert app.focused is form.query_one("#field-unit")  # the first field, not the form
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        await pilot.press("down")  # from the filter into the list
        assert app.focused is app.screen.query_one("OptionList")


# ------------------------------------------------------------- 2. completion


def screen_lines(app) -> list[str]:
    """The screen as drawn, one string a row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def hint_row(app) -> str:
    return screen_lines(app)[app.screen.query_one("#cmd-hint").region.y]


@pytest.mark.parametrize("size", SIZES)
async def test_candidates_come_before_a_long_usage(game, size):
    shoot = next(s for s in game.commands if s.name == "shoot")
    assert len(shoot.help) + len("shoot UNIT TARGET RANGE") > 75  # it alone would fill 80 columns
    app = FireteamApp(game)
    async with app.run_test(size=size) as pilot:
        await press_text(pilot, "shoot cole ")
        row = hint_row(app)
        for name in ("cole", "diaz", "ivan", "kemal"):
            assert name in row
        if size[0] >= 160:
            assert "Fire at an enemy" in row  # room for the usage too


class _Completing(App):
    """A command line alone, with candidates that share a start longer than the word typed."""

    def compose(self):
        words = ["suppressed", "supported", "supply", "stabilised"]

        def complete(text: str) -> list[str]:
            word = current_word(text)
            return [w for w in words if w.startswith(word)]

        yield CommandLine("referee", complete, list, id="command")


@pytest.mark.parametrize("size", SIZES)
async def test_tab_completes_the_common_start_first_then_cycles(size):
    app = _Completing()
    async with app.run_test(size=size) as pilot:
        box = app.query_one(CommandInput)
        box.focus()
        await press_text(pilot, "mark kemal su")
        await pilot.press("tab")
        assert box.value == "mark kemal supp"  # what every candidate shares, no further
        await pilot.press("tab")
        assert box.value == "mark kemal suppressed"
        await pilot.press("tab")
        assert box.value == "mark kemal supported"
        await pilot.press("tab")
        assert box.value == "mark kemal supply"
        await pilot.press("tab")
        assert box.value == "mark kemal suppressed"  # round again
        await pilot.press("space", "s", "t", "tab")
        assert box.value == "mark kemal suppressed stabilised "  # a single candidate: done, with a space
