"""The Report screen: the after-action report of the game on screen, for the seat's
role, live or up to the replay's step, with the report's three charts as text
charts (textual-plotext).  Everything in it comes from ``core.report``."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer
from textual_plotext import PlotextPlot

from core.game import Game
from core.report import Report, build, render_text
from tui.plain import Plain, PlainLabel, visible


class ReportScreen(Screen):
    DEFAULT_CSS = """
    ReportScreen #report-title { height: 1; background: $boost; padding: 0 1; width: 100%; }
    ReportScreen #report-charts { height: 14; }
    ReportScreen PlotextPlot { width: 1fr; height: 14; }
    ReportScreen #report-text { height: 1fr; padding: 0 1; }
    """
    BINDINGS = [Binding("escape,q", "app.pop_screen", "Back to the game")]

    def __init__(self, game: Game, role: str, step: int | None = None) -> None:
        super().__init__()
        self.report: Report = build(game, role, step)

    def compose(self) -> ComposeResult:
        f = self.report.facts
        where = f"step {f.step} of {f.steps}" if f.step < f.steps else "the whole game so far"
        yield PlainLabel(f"Report: {f.scenario or 'a game'} — as {f.role}, {where}", id="report-title")
        with Horizontal(id="report-charts"):
            yield PlotextPlot(id="chart-score")
            yield PlotextPlot(id="chart-losses")
            yield PlotextPlot(id="chart-luck")
        with VerticalScroll(id="report-text"):
            yield Plain("\n".join(visible(line) for line in render_text.render(self.report)))
        yield Footer()

    def on_mount(self) -> None:
        f, luck = self.report.facts, self.report.luck
        turns = [t.turn for t in f.turns]
        score = self.query_one("#chart-score", PlotextPlot).plt
        score.title(f"{f.score_name} (more is worse)")
        for s in f.sides:
            score.plot(turns, f.score_by_turn[s.id], label=visible(s.name), marker="braille")
        losses = self.query_one("#chart-losses", PlotextPlot).plt
        losses.title("losses per turn")
        if f.sides:
            losses.multiple_bar(
                turns, [f.losses_by_turn[s.id] for s in f.sides], labels=[visible(s.name) for s in f.sides]
            )
        chart = self.query_one("#chart-luck", PlotextPlot).plt
        chart.title("luck: successes − expected")
        for s in f.sides:
            chart.plot(turns, luck.by_turn[s.id], label=visible(s.name), marker="braille")
        for plot in self.query(PlotextPlot):
            plot.plt.xticks(turns)
        self.query_one("#report-text").focus()
