"""The terminal's cursor at the focus, in the bytes a seat's terminal receives (issue #49).

``tests/tui/test_tui_focus_cursor.py`` moves the focus through every pane and dialog and checks
where the app puts the cursor (``App.cursor_position``); here a real SSH seat's frames are drawn by
a terminal emulator (``ssh_vt``), as BRLTTY or a screen reader's terminal reads them: each frame
ends by moving the cursor to the focus, and there it rests.
"""

from __future__ import annotations

import re

import pytest
from ssh_club import Player, wait_until

from tui.commandline import CommandInput
from tui.panes.rosterview import RosterView

pytestmark = pytest.mark.server

#: A frame's last bytes: the cursor moved to where it rests (Textual's ``App._display``).
AT_REST = re.compile(r"\x1b\[\d+;\d+H$")


def resting(player: Player) -> tuple[str, str] | None:
    """The row where the terminal's cursor rests after the last frame (what lies before the cursor,
    and from it on); None while a frame is still coming."""
    if not player.raw or not AT_REST.search(player.raw[-1]):
        return None
    row = "".join(player.screen.rows[player.screen.y])
    return row[: player.screen.x], row[player.screen.x :]


def where(player: Player) -> str:
    return f"cursor at {player.screen.x},{player.screen.y}:\n{player.text()}"


async def test_a_seat_s_terminal_rests_its_cursor_at_the_focus(club):
    rita = await club.seated("rita", "rita (referee)")
    # At the start: the command line's drawn cursor, just after its prompt (not the title's border).
    await wait_until(
        lambda: (at := resting(rita)) is not None and at[0].rstrip().endswith("rita (referee) ›"),
        show=lambda: where(rita),
    )
    app = club.app("rita")
    view = app.screen.query_one(RosterView)

    def on_roster_row(cursor: int) -> bool:
        at, key = resting(rita), view.cursor_key
        label = view.label(key) if key is not None else None
        shown = label.plain.strip() if label is not None else ""
        return at is not None and view.cursor == cursor and bool(shown) and at[1].lstrip("│├└ ▼").startswith(shown)

    rita.type("\x13")  # Ctrl+S: the roster
    await wait_until(lambda: app.focused is view)
    rita.type("\x1b[B" * 3)  # ↓ three times: its third row, a figure's
    await wait_until(lambda: on_roster_row(2), show=lambda: where(rita))
    rita.type("\x18")  # Ctrl+X: the command line again
    await wait_until(lambda: app.focused is app.screen.query_one(CommandInput))
    await rita.gives("note at the line", "note: at the line")
    rita.type("\x1a")  # Ctrl+Z: the undo box asks, the cursor on its question
    await wait_until(lambda: (at := resting(rita)) is not None and at[1].startswith("Undo #"), show=lambda: where(rita))
    rita.type("n")
    await wait_until(
        lambda: (at := resting(rita)) is not None and at[0].rstrip().endswith("rita (referee) ›"),
        show=lambda: where(rita),
    )
