"""A scroll view of rows that draws its own scroll bar, as the last cell of each row.

Textual's scrollbar is a widget of its own: every scroll of the view, and every
layout of the screen, draws it again in a frame of its own after the one that
drew the rows.  The log and the roster draw theirs in the same pass as their
rows, one column wide (every column counts at 80x24), and take the mouse
wheel and a drag of the bar themselves.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.color import Color
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip


class BarView(ScrollView):
    """Rows ``0 .. rows - 1``, scrolled by ``scroll_y``; subclasses set ``rows`` and draw them."""

    rows = 0
    #: The row under the view's cursor (-1: none yet); subclasses move it.
    cursor = -1
    _dragging = False

    def focus_row(self) -> int | None:
        """The cursor's row: where the terminal's cursor goes while the view has the focus
        (``tui.focus_cursor``: a braille display follows it), or None before there is one."""
        return self.cursor if 0 <= self.cursor < self.rows else None

    @property
    def allow_vertical_scroll(self) -> bool:
        # The mouse wheel scrolls the view although Textual draws no scrollbar for it.
        return not self.is_disabled and self.max_scroll_y > 0

    def _bar(self, height: int | None = None) -> tuple[int, int] | None:
        """The scroll bar's thumb as rows of the view [start, end), or None when every row fits
        (``height``: the view's, when the caller has it: working it out takes a while)."""
        if height is None:
            height = self.size.height
        if self.rows <= height or height < 1:
            return None
        size = max(1, round(height * height / self.rows))
        start = round((height - size) * self.scroll_y / max(1, self.rows - height))
        return start, start + size

    def _bar_cells(self, base_background: Color) -> tuple[Style, Style]:
        """The bar's track and thumb cells, in the view's scrollbar colours
        (``base_background``: what is behind the view, from ``background_colors``)."""
        track = self.styles.scrollbar_background
        if track.a < 1:
            track = base_background + track
        thumb = track + self.styles.scrollbar_color
        return Style(bgcolor=track.rich_color), Style(bgcolor=thumb.rich_color)

    @staticmethod
    def _with_cell(strip: Strip, cell: Style) -> Strip:
        # Not ``Strip.join``, which also joins the parts' escape codes: the row is
        # filtered into a new strip before it is drawn, whose codes are made anew.
        return Strip([*strip, Segment(" ", cell)], strip.cell_length + 1)

    def _rows_below(self) -> int:
        """How many rows lie below the view."""
        height = self.scrollable_content_region.height
        return 0 if height < 1 else max(0, self.rows - (int(self.scroll_y) + height))

    def _tell_below(self) -> None:
        """Say how many rows lie below the view, if it changed (subclasses post their message)."""

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._tell_below()

    def _set_rows(self, rows: int) -> None:
        """Take a new count of rows without laying out the screen: the view's size does not change, only
        how far it scrolls (assigning ``virtual_size`` lays out every widget of the screen, on every seat)."""
        self.rows = rows
        size = Size(self.size.width, rows)
        if size != self.virtual_size:
            self.set_reactive(type(self).virtual_size, size)

    def _reveal_cursor(self) -> None:
        """Scroll the least that shows the cursor's row."""
        if self.cursor < 0:
            return
        height = max(1, self.scrollable_content_region.height)
        top = int(self.scroll_y)
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + height:
            self.scroll_to(y=self.cursor - height + 1, animate=False, immediate=True)

    def on_resize(self) -> None:
        self.virtual_size = Size(self.size.width, self.rows)
        self._reveal_cursor()
        self._tell_below()

    def on_focus(self) -> None:
        self.refresh()  # the cursor's row is marked otherwise without the focus

    def on_blur(self) -> None:
        self.refresh()

    def _on_bar(self, x: int) -> bool:
        return self._bar() is not None and x == self.size.width - 1

    def _drag_to(self, y: int) -> None:
        """Scroll so that the thumb is centred on row ``y`` of the view."""
        bar = self._bar()
        if bar is None:
            return
        size, height = bar[1] - bar[0], self.size.height
        share = (y - size / 2) / max(1, height - size)
        self.scroll_to(y=round(max(0.0, min(1.0, share)) * self.max_scroll_y), animate=False, immediate=True)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        if self._on_bar(event.x):
            self._dragging = True
            self.capture_mouse()
            self._drag_to(event.y)
            event.stop()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        if self._dragging:
            self._drag_to(event.y)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        if self._dragging:
            self._dragging = False
            self.release_mouse()
