"""A compositor that draws only the rows of what changed.

When a widget changes, Textual's compositor repaints the region it covers
(``Compositor.render_partial_update``), but to do so it asks every widget
whose *container* overlaps that region for all of its lines: the screen's
forty rows, the main container's thirty, the roster beside the log, the footer
below it.  Most come from caches, but each is still cut at every widget edge
and then thrown away, since only the changed region is sent.  After a command
the log scrolls by a row, so its whole pane changes: that waste was a third of
what a seat's redraw cost over SSH (docs/ssh.md, *Where a seat's time goes*).

:class:`RowsCompositor` hands over, for a partial update, only the widgets
that reach the changed region, and of each only the rows of that region, at
its full width: exactly the lines Textual then cuts and sends.  A full update
(``crop`` None) is Textual's own.  ``tests/tui/test_tui_compositor.py`` checks
that the escape codes of any partial update are the same as Textual's.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.geometry import Region
from textual.strip import Strip

from tui.textual_internals import Compositor


class RowsCompositor(Compositor):
    """Textual's compositor, rendering for a partial update only the rows it sends (see the module's doc)."""

    def _get_renders(self, crop: Region | None = None) -> Iterable[tuple[Region, Region, list[Strip]]]:
        if crop is None:
            yield from super()._get_renders(crop)
            return
        top, bottom = crop.y, crop.bottom
        for widget, (region, clip) in self.visible_widgets.items():
            visible = region.intersection(clip)
            if not visible.overlaps(crop):
                continue  # its rows in the crop's band lie beside the crop: never sent
            # The crop's rows, at the widget's whole visible width: the clip the
            # caller cuts with (``_render_chops`` divides each row at every widget edge).
            y1, y2 = max(visible.y, top), min(visible.bottom, bottom)
            band = Region(visible.x, y1, visible.width, y2 - y1)
            yield region, band, widget.render_lines(band.translate((-region.x, -region.y)))
