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
from typing import TYPE_CHECKING

from textual.geometry import Region
from textual.strip import Strip

from tui.textual_internals import ChopsUpdate, Compositor, LayoutUpdate, changed_regions

if TYPE_CHECKING:
    from rich.console import Console


class RowsCompositor(Compositor):
    """Textual's compositor, rendering for a partial update only the rows it sends (see the module's doc)."""

    #: Per screen row, the column ranges ``[x1, x2)`` changed: set while a partial update renders.
    _changed_rows: dict[int, list[tuple[int, int]]] | None = None

    def render_full_update(self, simplify: bool = False) -> LayoutUpdate:
        # Every row changes, at its whole width: a widget wholly behind others on a row (the
        # screen, a container, a pane under its view) is not asked for it, as in a partial
        # update.  The first frame is one: a fifth of its render was such rows, thrown away.
        width, height = self.size
        self._changed_rows = {y: [(0, width)] for y in range(height)}
        try:
            return super().render_full_update(simplify)
        finally:
            self._changed_rows = None

    def render_partial_update(self) -> ChopsUpdate | None:
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
            # (Textual's chops are its own, read-only mappings: a row so patched is a copy.)
            empty = Strip([])
            chops = list(update.chops)
            for y, _x1, x2 in update.spans:
                line = chops[y]
                if x2 in line and line[x2] is None:
                    chops[y] = {**line, x2: empty}
            update = RowsUpdate(chops, update.spans, update.chop_ends)
        return update

    def _get_renders(self, crop: Region | None = None) -> Iterable[tuple[Region, Region, list[Strip]]]:
        rows = self._changed_rows
        if crop is None or rows is None:
            yield from super()._get_renders(crop)
            return
        top, bottom = crop.y, crop.bottom
        screen = self.size.region
        #: Per changed row, the column ranges ``[x1, x2)`` of it that no widget handed over
        #: so far (the frontmost first) fills; a row none is left of is gone.
        unfilled = {y: list(spans) for y, spans in rows.items()}
        for widget, (region, clip) in self.visible_widgets.items():
            if not unfilled:
                return  # every changed piece is a widget's in front: those behind would lose them all
            visible = region.intersection(clip)
            if not visible.overlaps(crop):
                continue
            left, right = visible.x, visible.right
            # Only a widget wholly on the screen cuts the rows at its edges (``Compositor.cuts``),
            # so only such a widget's row is known to fill whole pieces of it.
            fills = screen.contains_region(visible)
            # The runs of rows on which the widget shows some of a changed region that no
            # widget in front of it fills; each is rendered at the widget's whole visible
            # width (the clip the caller cuts with: ``_render_chops`` divides each row at
            # every widget edge, and the frontmost widget's piece wins).
            start = None
            end = min(visible.bottom, bottom)
            for y in range(max(visible.y, top), end + 1):
                spans = unfilled.get(y) if y < end else None
                if spans is not None and any(x1 < right and x2 > left for x1, x2 in spans):
                    if start is None:
                        start = y
                    if fills:
                        spans = _outside(spans, left, right)
                        if spans:
                            unfilled[y] = spans
                        else:
                            del unfilled[y]
                elif start is not None:
                    band = Region(left, start, right - left, y - start)
                    yield region, band, widget.render_lines(band.translate((-region.x, -region.y)))
                    start = None


def _outside(spans: list[tuple[int, int]], left: int, right: int) -> list[tuple[int, int]]:
    """What of the column ranges ``spans`` lies outside ``[left, right)``."""
    out = []
    for x1, x2 in spans:
        if x1 < left:
            out.append((x1, min(x2, left)))
        if x2 > right:
            out.append((max(x1, right), x2))
    return out


class RowsUpdate(ChopsUpdate):
    """Textual's partial update, whose escape codes are Textual's own, made with cheaper cursor moves."""

    def render_segments(self, console: Console) -> str:
        # Textual's ``ChopsUpdate.render_segments``, but for the cursor moves: Rich makes
        # each as a ``Control`` and a segment (4 µs, a seventh of a seat's frame for the
        # log's rows after a command); the sequence is the same, ``CSI row ; column H``.
        sequences: list[str] = []
        append = sequences.append
        chops, chop_ends = self.chops, self.chop_ends
        last_y = self.spans[-1][0]
        for y, x1, x2 in self.spans:
            line, ends = chops[y], chop_ends[y]
            for end, (x, strip) in zip(ends, line.items(), strict=False):
                if strip is None or x > x2 or end <= x1:
                    continue
                if not (x2 > x >= x1 and end <= x2):
                    strip = strip.crop(0, min(end, x2) - x)
                append(f"\x1b[{y + 1};{x + 1}H")
                append(strip.render(console))
            if y != last_y:
                append("\n")
        return "".join(sequences)
