"""A text chart: its title and legend in rows of its own, over a plot plotext draws at the widget's size.

plotext (6) draws on one figure per process (``plotext.figure``): a chart clears it, draws
its series and takes the text in one call, on the app's thread, so the charts of several
seats in one process never mix.  The title and the legend are the widget's own: plotext
leaves out a title wider than the plot (this one is cut and ends in "…": at 80 columns
"defeat points (more is worse)" said nothing of what it counts, #48), and its legend is a
boxed panel over the plot, two rows a side.  The sides' names go to Rich as text, never to
plotext: a name from a save is shown as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import plotext
from rich.color import Color
from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from core.report.ticks import whole_ticks

# A plot as big as the widget asks: plotext caps it at the size of the terminal it reads,
# and an SSH seat's terminal is not the server process's.
plotext.terminal.limit(False, False)

#: The plot's rows that hold no value: its frame's two and the x axis's numbers.
PLOT_FRAME_ROWS = 3


@dataclass(frozen=True)
class Series:
    """A side's values, one for each x: drawn with ``marker`` (a plotext marker: a glyph,
    or ``braille``, ``hd``...), shown in the legend as ``glyph``, in ANSI colour ``color``;
    left out of the legend unless ``named`` (a side with no bar: the legend names what is drawn)."""

    name: str
    values: Sequence[float]
    marker: str
    glyph: str
    color: int
    named: bool = True

    def legend(self) -> Text:
        return Text.assemble((self.glyph, Style(color=Color.from_ansi(self.color))), " ", self.name)


class Chart(Widget):
    """Each side's values over the turns, as lines (or ``bars``: grouped bars), on a y axis
    ticking whole numbers (``core.report.ticks``: never 0.33 of a man, a row for each tick)."""

    DEFAULT_CSS = """
    Chart { width: 1fr; height: 1fr; }
    """

    title = ""
    xs: Sequence[int] = ()
    series: Sequence[Series] = ()
    bars = False

    def show(self, title: str, xs: Sequence[int], series: Sequence[Series], *, bars: bool = False) -> None:
        self.title, self.xs, self.series, self.bars = title, xs, series, bars
        self.refresh()

    def render(self) -> Text:
        width, height = self.size
        head = Text(self.title, no_wrap=True)
        head.truncate(width, overflow="ellipsis")
        head.align("center", width)
        named = self._legend(width)
        rows = height - 1 - len(named)
        if rows <= PLOT_FRAME_ROWS:
            return Text("\n").join([head, *named])
        return Text("\n").join([head, *named, Text.from_ansi(self._plot(width, rows))])

    def _legend(self, width: int) -> list[Text]:
        """The legend's rows: its sides on one row if they fit, else a row each (a name never
        split over two); a row even when it names none (no side has a bar yet), so that the
        plots side by side line up."""
        entries = [s.legend() for s in self.series if s.named]
        row = Text("  ").join(entries)
        if row.cell_len <= width:
            return [row]
        for entry in entries:
            entry.truncate(width, overflow="ellipsis")
        return entries

    def _plot(self, width: int, height: int) -> str:
        """The plot, ``width`` by ``height`` cells, as plotext's ANSI text."""
        figure = plotext.figure
        figure.clear()
        figure.theme("colorless")  # the axes and numbers in the widget's own colours
        figure.plot_size(width, height)
        markers = [plotext.marker(s.marker, plotext.pixel(s.color)) for s in self.series]
        if self.bars and self.series:
            figure.draw(figure.bar(self.xs, [s.values for s in self.series], marker=markers))
            if self.xs:  # half a step each side: the first and last turns' bars whole, not cut at the frame
                figure.ruler(0).lim(self.xs[0] - 0.5, self.xs[-1] + 0.5)
        elif not self.bars:
            for s, marker in zip(self.series, markers, strict=True):
                figure.draw(figure.signal(self.xs, s.values, marker=marker).lines())
        ticks = whole_ticks([v for s in self.series for v in s.values], height - PLOT_FRAME_ROWS)
        figure.ruler(1).lim(ticks[0], ticks[-1])
        figure.ruler(1).ticks(ticks, [str(t) for t in ticks])
        figure.ruler(0).ticks(self.xs, [str(x) for x in self.xs])
        return figure.build().string()
