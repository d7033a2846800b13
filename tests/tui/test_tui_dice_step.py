"""The table dice's prompt marks which of the command's dice it asks for now (▸, and
said in its heading), so a referee typing a long fire sequence keeps his place."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from waiting import piloted, press, settled, type_text

from tui.screens.dialogs import DicePrompt

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "breaking_news" / "combat"))
from bn_combat_support import new_game  # noqa: E402

pytestmark = pytest.mark.long


def order_lines(prompt: DicePrompt) -> list[str]:
    """The list of dice as the screen shows it, line by line."""
    shown = prompt.query_one("#dice-order")
    return [shown.render_line(y).text.rstrip() for y in range(shown.size.height)]


async def asked(pilot) -> DicePrompt:
    await settled(pilot)
    prompt = pilot.app.screen
    assert isinstance(prompt, DicePrompt)
    return prompt


def shown_text(prompt: DicePrompt) -> str:
    """Every line of the box a player sees now (a hidden part has no lines)."""
    return "\n".join(
        widget.render_line(y).text.rstrip()
        for widget in prompt.query("Vertical > *")
        if widget.display and widget.id != "dice-error"
        for y in range(widget.size.height)
    )


async def test_the_prompt_is_brief_and_gives_the_order_on_the_help_key(tmp_path):
    """As brief as the plain seat's (issue #61): whose roll, what for, what it needs, its chance and
    what to type; the command's five dice in order only on the help key, which hides them again."""
    demo = new_game(tmp_path, "demo", options=("wounded",))
    async with piloted(demo) as (app, pilot):
        await press(pilot, "f3")  # table dice
        await type_text(pilot, "fire conti bashir range=40")
        await press(pilot, "enter")
        prompt = await asked(pilot)
        brief = shown_text(prompt)
        assert "its dice, in order" not in brief and "each hit's save" not in brief
        assert brief.startswith("Pte Conti's fire with Assault rifle")
        assert "chance before the roll: " in brief
        assert "Ctrl+F: the command's dice in order" in brief
        assert len(brief.splitlines()) <= 6
        await press(pilot, "6")
        await press(pilot, "f1")
        assert isinstance(app.screen, DicePrompt) and "now step 2 of 5" in shown_text(prompt)
        assert "Ctrl+F: hide the command's dice" in shown_text(prompt)
        await press(pilot, "ctrl+f")  # the help key's other name
        # hidden again: the box as it was, with the face typed in place of the example
        assert shown_text(prompt) == brief.replace("1 face, 1 to 6, e.g. 6", "6")
        await press(pilot, "enter")  # the face typed before the key stayed in the box: a hit
        prompt = await asked(pilot)
        assert str(prompt.query_one(".title").render()) == "Bashir Ali's save: 1d6, needs 5+"
    demo.close()


async def test_the_prompt_marks_the_step_of_each_roll_of_a_fire(tmp_path):
    demo = new_game(tmp_path, "demo", options=("wounded",))
    async with piloted(demo) as (app, pilot):
        await press(pilot, "f3")  # table dice
        await type_text(pilot, "fire conti bashir range=40")
        await press(pilot, "enter")
        prompt = await asked(pilot)
        assert str(prompt.query_one(".title").render()).startswith("Pte Conti's fire with Assault rifle")
        await press(pilot, "f1")  # the command's dice in order
        assert order_lines(prompt) == [
            "its dice, in order; now step 2 of 5:",
            "  1. if suppressed: his suppression test, 1d6",
            "▸ 2. to hit: the weapon's dice, per target",
            "  3. a missed area shot, with deviation on: its direction, 1d6",
            "  4. each hit's save: 1d6 per hit (a vehicle's own save first, then",
            "     each man aboard)",  # a long step goes on under its own words
            "  5. with the wounded rule, each failed save: the wound, 1d6",
        ]
        # and not by brightness alone: the marked line is bold, the others dim
        shown = prompt.query_one("#dice-order")
        bold = [line for y in range(shown.size.height) if (line := shown.render_line(y)) and line.text.startswith("▸")]
        assert len(bold) == 1 and all(seg.style.bold for seg in bold[0] if seg.text.strip())
        dim = shown.render_line(1)
        assert dim.text.startswith("  1.") and all(seg.style.dim for seg in dim if seg.text.strip())
        await press(pilot, "6", "enter")  # a hit
        prompt = await asked(pilot)
        assert str(prompt.query_one(".title").render()) == "Bashir Ali's save: 1d6, needs 5+"
        await press(pilot, "f1")
        marked = [line for line in order_lines(prompt) if line.startswith("▸")]
        assert marked == ["▸ 4. each hit's save: 1d6 per hit (a vehicle's own save first, then"]
        assert order_lines(prompt)[0] == "its dice, in order; now step 4 of 5:"
        await press(pilot, "1", "enter")  # the save fails
        prompt = await asked(pilot)
        await press(pilot, "f1")
        assert [line for line in order_lines(prompt) if line.startswith("▸")] == [
            "▸ 5. with the wounded rule, each failed save: the wound, 1d6"
        ]
        await press(pilot, "3", "enter")
        assert not isinstance(app.screen, DicePrompt)
        assert not demo.state.units["bashir"].in_play
    demo.close()


async def test_an_order_of_one_step_is_listed_unmarked(tmp_path):
    demo = new_game(tmp_path, "demo")
    async with piloted(demo) as (app, pilot):
        await press(pilot, "f3")
        await type_text(pilot, "roll 2d6")
        await press(pilot, "enter", "f1")
        prompt = await asked(pilot)
        assert order_lines(prompt) == [
            "its dice, in order:",
            "1. the roll: the dice named, each judged against target= or under=",
            "   if given",
        ]
    demo.close()


async def test_the_prompts_example_gives_as_many_faces_as_it_asks_for(tmp_path):
    """An LMG's 4d6 at the prompt: ``4 faces, 1 to 6, e.g. 6 4 3 1`` (the example gave three
    faces for four dice, an answer the prompt itself refuses)."""
    demo = new_game(tmp_path, "demo")
    async with piloted(demo) as (app, pilot):
        await press(pilot, "f3")
        await type_text(pilot, "fire bianchi ahmed range=40")
        await press(pilot, "enter")
        prompt = await asked(pilot)
        assert prompt.count == 4
        assert prompt.query_one("Input").placeholder == "4 faces, 1 to 6, e.g. 6 4 3 1"
    demo.close()
