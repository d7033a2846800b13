"""A compositor that draws only the rows of what changed.

When a widget changes, Textual's compositor repaints the region it covers
(``Compositor.render_partial_update``), but to do so it asks every widget
whose *container* overlaps the box around all the changed regions for all of
its lines: after a command the phase pane (the top rows) and the command line
(the bottom ones) change, so that box is the whole screen, and every widget,
the screen and its containers included, renders every row, to be cut at every
widget edge and then thrown away, since only the changed rows are sent.  After
a command the log scrolls by a row, so its whole pane changes: that waste was a
third of what a seat's redraw cost over SSH (docs/ssh.md, *Where a seat's time
goes*), and most of a command's frame (docs/benchmark.md, issue #32).

:class:`RowsCompositor` hands over, for a partial update, only the widgets
that reach a changed region, and of each only the rows on which it does, at
its full width: exactly the lines Textual then cuts and sends.  (Every widget
edge is a cut, so a widget covers whole pieces of a row; a piece that is sent
lies in a changed region, so every widget under it reaches that region on that
row and is asked for the row: the frontmost one wins, as in Textual's.)  A widget
behind is not asked for a row on which the widgets in front of it already fill
every changed piece: after a command the log's rows change, and the log's pane,
the container under it and the screen, all behind the log, used to be asked
for those rows too, to lose every piece of them (a fifth of the server's CPU
per command, docs/benchmark.md, issue #30).  A full
update (``crop`` None) is Textual's own.  ``tests/tui/test_tui_compositor.py``
checks that the escape codes of any partial update are the same as Textual's.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.geometry import Region
from textual.strip import Strip

from tui.textual_internals import Compositor, changed_regions


class RowsCompositor(Compositor):
    """Textual's compositor, rendering for a partial update only the rows it sends (see the module's doc)."""

    #: Per screen row, the column ranges ``[x1, x2)`` changed: set while a partial update renders.
    _changed_rows: dict[int, list[tuple[int, int]]] | None = None

    def render_partial_update(self):
        rows: dict[int, list[tuple[int, int]]] = {}
        for x, y, width, height in changed_regions(self):
            for row in range(y, y + height):
                rows.setdefault(row, []).append((x, x + width))
        self._changed_rows = rows
        try:
            update = super().render_partial_update()
        finally:
            self._changed_rows = None
        if update is not None:
            # Textual sends, for the piece of a row that starts where a changed span ends, a
            # cursor move and none of the piece; a piece no widget in front of the change was
            # asked for is an empty one here, so that the bytes sent stay Textual's own.
            empty = Strip([])
            for y, _x1, x2 in update.spans:
                line = update.chops[y]
                if x2 in line and line[x2] is None:
                    line[x2] = empty
        return update

    def _get_renders(self, crop: Region | None = None) -> Iterable[tuple[Region, Region, list[Strip]]]:
        rows = self._changed_rows
        if crop is None or rows is None:
            yield from super()._get_renders(crop)
            return
        top, bottom = crop.y, crop.bottom
        screen = self.size.region
        #: Per changed row, the column ranges ``[x1, x2)`` the widgets already handed over
        #: (the frontmost first) fill: a changed piece under them is theirs.
        filled: dict[int, list[tuple[int, int]]] = {}
        for widget, (region, clip) in self.visible_widgets.items():
            visible = region.intersection(clip)
            if not visible.overlaps(crop):
                continue
            left, right = visible.x, visible.right
            # Only a widget wholly on the screen cuts the rows at its edges (``Compositor.cuts``),
            # so only such a widget's row is known to fill whole pieces of it.
            fills = visible in screen
            # The runs of rows on which the widget shows some of a changed region that no
            # widget in front of it fills; each is rendered at the widget's whole visible
            # width (the clip the caller cuts with: ``_render_chops`` divides each row at
            # every widget edge, and the frontmost widget's piece wins).
            start = None
            end = min(visible.bottom, bottom)
            for y in range(max(visible.y, top), end + 1):
                spans = rows.get(y) if y < end else None
                shows = spans is not None and any(
                    x1 < right and x2 > left and not _filled(max(x1, left), min(x2, right), filled.get(y, ()))
                    for x1, x2 in spans
                )
                if shows:
                    if start is None:
                        start = y
                    if fills:
                        filled.setdefault(y, []).append((left, right))
                elif start is not None:
                    band = Region(left, start, right - left, y - start)
                    yield region, band, widget.render_lines(band.translate((-region.x, -region.y)))
                    start = None


def _filled(x1: int, x2: int, ranges: Iterable[tuple[int, int]]) -> bool:
    """Whether the columns ``[x1, x2)`` lie within the union of ``ranges``."""
    ranges = sorted(ranges)
    for left, right in ranges:
        if left <= x1 < right:
            x1 = right
            if x1 >= x2:
                return True
    return x1 >= x2
