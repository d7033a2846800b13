"""The game screen's layout at 80x24 and at a wide size: nothing important cut off,
the roster's cursor always on screen, too small a terminal said in words."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Tree

from tui.app import FireteamApp
from tui.panes.roster import RosterPane
from tui.screenshots import demo_game

SIZES = [(80, 24), (160, 48)]


def demo(tmp_path: Path) -> FireteamApp:
    return FireteamApp(demo_game(tmp_path / "demo.ft"))


@pytest.mark.parametrize("size", SIZES)
async def test_the_roster_cursor_never_leaves_the_screen(tmp_path, size):
    app = demo(tmp_path)
    async with app.run_test(size=size) as pilot:
        tree: Tree = app.screen.query_one(RosterPane).tree
        await pilot.press("f6", "home")
        await pilot.pause()
        seen = []
        for _ in range(tree.last_line + 1):
            await pilot.pause()
            top, rows = int(tree.scroll_y), tree.scrollable_content_region.height
            assert top <= tree.cursor_line < top + rows, f"row {tree.cursor_line} is off rows {top}..{top + rows - 1}"
            seen.append(tree.cursor_line)
            await pilot.press("down")
        assert seen == list(range(tree.last_line + 1)) and len(seen) >= 20
        for _ in seen:  # and back up
            await pilot.press("up")
            await pilot.pause()
            top = int(tree.scroll_y)
            assert top <= tree.cursor_line < top + tree.scrollable_content_region.height
