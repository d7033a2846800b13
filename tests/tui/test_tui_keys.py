"""Keyboard polish (issue #15): the actions picker and form, completion, help,
the footer and the keys every F-key action also has."""

from __future__ import annotations

import pytest
from skirmish import game_fixture  # noqa: F401  (a fixture)

from tui.app import FireteamApp
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
