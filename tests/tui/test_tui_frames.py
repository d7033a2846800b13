"""Boxes over the game are framed in box-drawing lines (issue #61): Textual's ``thick``, ``tall``
and other block-element borders (``█▀▄``, ``▊▔▁▎``) are drawn by a browser seat's terminal
(xterm.js) with its font, which left stray pieces between the rows at a phone's font size."""

from __future__ import annotations

import pytest
from waiting import piloted, press, until

from tui.bench.screenshots import demo_game
from tui.screens.dialogs import ConfirmBox
from tui.screens.help import HelpScreen
from tui.screens.rules import RulesScreen

#: Textual's borders drawn with block elements (the rest are box-drawing lines, or none).
BLOCKS = {"thick", "tall", "wide", "outer", "inner", "panel", "hkey", "vkey", "block"}


def _blocks(widget) -> list[str]:
    """The sides of ``widget`` and the widgets in it that are drawn with block elements."""
    return [
        f"{w!r} {side}"
        for w in (widget, *widget.query("*"))
        if w.display
        for side, (kind, _color) in zip(("top", "right", "bottom", "left"), w.styles.border, strict=True)
        if kind in BLOCKS
    ]


@pytest.mark.long  # three screens, the rules' one drawing the whole rules map (3.2-3.9 s of CPU)
async def test_the_undo_question_the_help_and_the_rules_are_framed_in_lines(tmp_path):
    async with piloted(demo_game(tmp_path / "demo.ft"), (64, 72)) as (app, pilot):  # a phone's browser seat, upright
        app.screen.query_one("CommandInput").focus()
        await press(pilot, "ctrl+z")
        box = app.screen.query_one(ConfirmBox)
        await until(pilot, lambda: box.display, "the undo question shown")
        assert _blocks(box) == []
        await press(pilot, "escape", "f1")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), "the help open")
        assert _blocks(app.screen) == []
        await press(pilot, "f2")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen), "the rules open")
        assert _blocks(app.screen) == []
