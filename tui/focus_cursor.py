"""Where the terminal's own cursor goes: at the focus, for braille displays, magnifiers and screen readers.

BRLTTY, a screen magnifier and a terminal screen reader follow the hardware
cursor (Textual #2348), not a row drawn in reverse.  Textual writes the cursor
where ``App.cursor_position`` says at the end of every frame (hidden, but
placed), and only its text boxes set it, when their selection changes or they
get the focus: anywhere else (the roster, the log, a list, a dialog) it stayed
on the last text box, at a place worked out before the screen was laid out (the
title's border at a game's start), and each blink of that box's cursor wrote it
there again.  Textual's box also puts it one column right of the cursor it
draws at the end of the text.

:func:`focus_point` works the place out afresh, for the frame being written,
from what has the focus: the drawn cursor of a text box, the row under the
cursor of a list (the roster, the log, an option list), the first letter of a
closed select's value (not its box's border), the command highlighted in the
command palette's list once the arrows move over it (its search box keeps the focus), the question of the undo and redo
box while it asks (it takes every key but leaves the focus where it was), the
words saying a list is empty (the start screen's "No games yet"), or the first
cell of a focused widget of any other kind, or of a dialog with nothing to focus.
``FireteamApp.cursor_position`` answers with it, so the cursor stays put while
nothing moves, whatever redraws.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeGuard, runtime_checkable

from textual.app import App
from textual.containers import Vertical
from textual.geometry import Offset
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Input

from tui.textual_internals import option_line

if TYPE_CHECKING:
    from textual.widgets import OptionList


@runtime_checkable
class HasFocusRow(Protocol):
    """A list that draws its own cursor row (the roster, the log): the row in its content, or None."""

    def focus_row(self) -> int | None: ...


@runtime_checkable
class HasAttention(Protocol):
    """A screen with a place to read that the focus is not on: a box that takes the keys without
    the focus (the undo and redo box), or the words that say a focused list is empty."""

    def attention(self) -> Widget | None: ...


def focus_point(app: App) -> Offset | None:
    """Where the terminal's cursor goes now (screen cells), or None with no screen yet."""
    try:
        screen = app.screen
    except Exception:  # no screen yet (Textual raises ScreenStackError, or IndexError early on)
        return None
    asking = screen.attention() if isinstance(screen, HasAttention) else None
    if asking is not None:
        return _first_cell(asking)
    if (listed := _palette_choice(screen)) is not None:
        return listed
    focused = screen.focused
    if focused is not None and focused.region:
        return widget_point(focused)
    return _first_cell(_dialog(screen) or screen)


def widget_point(widget: Widget) -> Offset:
    """The cell of ``widget`` that has its focus: its drawn cursor, its cursor's row, or its first cell."""
    if isinstance(widget, Input):
        # Textual's box counts a cell more at the end of the text than the one its cursor is drawn on.
        x, y = widget.cursor_screen_offset
        return Offset(x - 1 if widget.cursor_at_end else x, y)
    if _is_textual(widget, "Select"):
        # A closed select draws its value inside a box, under the box's border (and, in a form, a
        # blank row): the cursor goes on the value's first letter.  Open, its list has the focus.
        value = widget.query("SelectCurrent #label")
        if value and value.first().region:
            return _first_cell(value.first())
    row: int | None = None
    if isinstance(widget, HasFocusRow):
        row = widget.focus_row()
    elif _is_option_list(widget) and widget.highlighted is not None:  # (a selection list is one too)
        row = option_line(widget, widget.highlighted)
    if row is None:
        return _first_cell(widget)
    region = widget.content_region
    y = region.y + row - round(widget.scroll_offset.y)
    return Offset(region.x, min(max(y, region.y), region.bottom - 1))


def _palette_choice(screen: Screen) -> Offset | None:
    """In Textual's command palette (Ctrl+P) the focus stays in its search box while the
    arrows move the highlight over the commands found.  The palette highlights the first
    command found as soon as it opens and at every letter: the cursor stays in the search
    box then, where the words are typed (on the list it was off the box, at a column of
    its own).  Once the arrows have moved the highlight off that first command, the
    cursor goes on the command Enter would run, which a braille display then shows."""
    if not _is_textual(screen, "CommandPalette"):
        return None
    found = screen.query("CommandList")
    listing = found.first() if found else None
    if listing is None or not listing.display or not listing.region or not _is_option_list(listing):
        return None
    if not listing.highlighted:  # none, or the first: the palette's own, not the arrows'
        return None
    return widget_point(listing)


def _is_option_list(widget: Widget) -> TypeGuard[OptionList]:
    return _is_textual(widget, "OptionList")


def _is_textual(widget: Widget, name: str) -> bool:
    """Whether ``widget`` is Textual's widget ``name`` or made from it.  Not imported to ask: the
    client's first frame has no option list nor select, and imports none."""
    return any(cls.__name__ == name and cls.__module__.startswith("textual.") for cls in type(widget).__mro__)


def _first_cell(widget: Widget) -> Offset:
    region = widget.content_region
    return Offset(region.x, region.y)


def _dialog(screen: Screen) -> Widget | None:
    """A dialog's box (the ``Vertical`` a modal screen holds its words in), where its title is."""
    if not isinstance(screen, ModalScreen):
        return None
    return next((w for w in screen.children if isinstance(w, Vertical) and w.display and w.region), None)
