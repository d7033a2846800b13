"""The Report screen: the after-action report of the game on screen, for the seat's
role, live or up to the replay's step, with the report's three charts as text
charts (``tui.chart``, drawn by plotext), and on "c" each side's chances after every
step (issue #62).  Everything in it comes from ``core.report``."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import ProgressBar

from core.game import Game
from core.log.views import REFEREE
from core.report import Report, build, render_text
from core.report.build import no_chances
from core.report.chances import DEFAULT_COUNT, Chances, chances
from core.report.reroll import DEFAULT_REROLLS
from tui.chart import Chart, Series
from tui.i18n import N_, _, role_words
from tui.panes.footer import KeysFooter
from tui.plain import Plain, PlainLabel, visible

#: The charts' height, in rows: their title, their legend and the plot.
CHART_HEIGHT = 14
#: Re-rolled games between two moves of the progress bar (each move crosses threads).
PROGRESS_EVERY = 10

T = TypeVar("T")
#: Told the games done and their total; raises ``RerollsCancelled`` once asked to stop.
Progress = Callable[[int, int], None]
#: Each side's marker on the line charts, in the sides' order, with the glyph its legend
#: shows: it tells the sides apart without colour (both were braille dots, ``⢕⢕``, #48).
SIDE_MARKERS = (("braille", "⢕"), ("hd", "▚"), ("dot", "•"), ("x", "x"), ("+", "+"), ("o", "o"))
#: Each side's bars on the losses chart, in the sides' order: a glyph of its own, so the
#: bars and the legend tell the sides apart without colour too (both were ``██``).
BAR_MARKERS = ("█", "▒", "░", "▚")
#: Each side's colour, in the sides' order (ANSI numbers, which the app's theme shows in its
#: own shades): bright blue, green, red, cyan, magenta, yellow.
SIDE_COLORS = (12, 10, 9, 14, 13, 11)


def line_series(n: int, name: str, values: Sequence[float]) -> Series:
    """Side ``n``'s line on a line chart."""
    marker, glyph = SIDE_MARKERS[n % len(SIDE_MARKERS)]
    return Series(name, values, marker, glyph, SIDE_COLORS[n % len(SIDE_COLORS)])


def bar_series(n: int, name: str, values: list[int]) -> Series:
    """Side ``n``'s bars; a side that lost nobody has none, and the legend names only the bars drawn (#48)."""
    glyph = BAR_MARKERS[n % len(BAR_MARKERS)]
    return Series(name, values, glyph, glyph, SIDE_COLORS[n % len(SIDE_COLORS)], named=any(values))


class RerollsCancelled(Exception):
    """Raised in the re-rolls' (or the chances') thread, at its next game, once Esc asked
    them to stop or the screen was left."""


class ReportScreen(Screen):
    DEFAULT_CSS = f"""
    ReportScreen #report-title {{ height: 1; background: $boost; padding: 0 1; width: 100%; }}
    ReportScreen #chances-note {{ height: auto; padding: 0 1; width: 100%; }}
    ReportScreen #report-charts {{ height: {CHART_HEIGHT}; }}
    ReportScreen #report-text {{ height: 1fr; padding: 0 1; }}
    ReportScreen #reroll-progress {{ height: 1; padding: 0 1; display: none; }}
    ReportScreen #reroll-progress.running {{ display: block; }}
    """
    BINDINGS = [
        Binding("escape,q", "back", N_("Back to the game")),
        Binding("r", "reroll", N_("Re-roll the orders")),
        Binding("c", "chances", N_("Chances")),
    ]
    #: How many games "r" re-rolls (``fireteam report --rerolls``'s default).
    rerolls = DEFAULT_REROLLS
    #: How many games "c" re-rolls from each step (``fireteam report --chances``' suggested
    #: figure), and its seed: the same seed, the same chances.
    chance_rerolls = DEFAULT_COUNT
    seed = 0

    def __init__(self, game: Game, role: str, step: int | None = None, *, remote: bool = False) -> None:
        super().__init__()
        #: The processes "c" measures on: every core at the player's own client; one (this
        #: thread) at a served table's seat, whose process is shared with other seats.
        self.chance_workers = 1 if remote else os.cpu_count() or 1
        self.game = game
        self.role = role
        #: None: the live game, followed as it goes on; else the replay's step, as the role counts them.
        self.step = step
        self.report: Report = build(game, role, step)
        #: Set to stop the re-rolls or the chances running in their thread (None: none are running).
        self._cancel: threading.Event | None = None
        #: Each side's chances, once measured: of the whole game, whatever the replay's step.
        self.chances: Chances | None = None

    @property
    def live(self) -> bool:
        return self.step is None

    def compose(self) -> ComposeResult:
        yield PlainLabel(id="report-title")
        yield PlainLabel(id="chances-note")
        with Horizontal(id="report-charts"):
            yield Chart(id="chart-score")
            yield Chart(id="chart-losses")
            yield Chart(id="chart-luck")
        yield ProgressBar(total=self.rerolls, id="reroll-progress")
        with VerticalScroll(id="report-text"):
            yield Plain()
        yield KeysFooter()

    def on_mount(self) -> None:
        self._show()
        self.query_one("#report-text").focus()

    # ------------------------------------------------------------ re-rolls

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Re-rolls play every order, hidden ones too: the referee's report of a full save only.
        if action == "reroll":
            return self.role == REFEREE and not self.game.copy_role
        return True

    def action_back(self) -> None:
        """Esc stops the re-rolls or the chances running, if any; else leaves the report."""
        if self._cancel is not None:
            self._cancel.set()
        else:
            self.app.pop_screen()

    def on_unmount(self) -> None:
        # Leaving the screen stops what its thread measures: no one is left to see it.
        if self._cancel is not None:
            self._cancel.set()

    def why_no_chances(self) -> str:
        """Why this seat may not see the chances ("" if it may): the core's rule, for the
        whole game (the chart covers every step, whatever the replay's)."""
        return no_chances(self.game, self.role, None)

    def action_chances(self) -> None:
        """Each side's chances after every step, in a thread, with a progress bar."""
        if self._cancel is not None or self.why_no_chances():
            return
        game, count, seed, workers = self.game, self.chance_rerolls, self.seed, self.chance_workers

        def keep(odds: Chances) -> None:
            self.chances = odds

        self._measure(
            lambda progress: chances(game, count, seed=seed, progress=progress, workers=workers),
            keep,
            _("Measuring each side's chances, {n} re-rolled games a step; Esc stops").format(n=count),
            _("Chances stopped; nothing was kept"),
        )

    def action_reroll(self) -> None:
        """The game's orders re-rolled ``rerolls`` times, in a thread, with a progress bar."""
        if self._cancel is not None or not self.check_action("reroll", ()):
            return
        game, role, step, count = self.game, self.role, self.step, self.rerolls

        def keep(report: Report) -> None:
            self.report = report

        self._measure(
            lambda progress: build(game, role, step, rerolls=count, progress=progress),
            keep,
            _("Re-rolling {n} games; Esc stops").format(n=count),
            _("Re-rolls stopped; nothing was kept"),
        )

    def _measure(self, work: Callable[[Progress], T], keep: Callable[[T], None], said: str, stopped: str) -> None:
        """``work(progress)`` in a thread, the bar following its games; Esc, leaving the screen
        or the live game moving on (``self._cancel``) stops it at its next game, and then, or
        if it was stopped after its last, nothing is kept; else ``keep`` takes its result."""
        self._cancel = cancel = threading.Event()
        # The app, not ``self.app``: a screen left while its thread runs has no app to find.
        app = self.app
        bar = self.query_one("#reroll-progress", ProgressBar)
        bar.update(total=None, progress=0)  # the total is told with the first games
        bar.add_class("running")
        self.notify(said, markup=False)

        def progress(done: int, total: int) -> None:
            if cancel.is_set():
                raise RerollsCancelled
            if done % PROGRESS_EVERY == 0 or done == total:
                app.call_from_thread(bar.update, total=total, progress=done)

        def run() -> None:
            try:
                result: T | None = work(progress)
            except RerollsCancelled:
                result = None
            if cancel.is_set():  # stopped after the last game: of a game that has moved on
                result = None
            app.call_from_thread(self._measured, result, keep, stopped)

        self.run_worker(run, thread=True, exclusive=True, group="rerolls")

    def _measured(self, result: T | None, keep: Callable[[T], None], stopped: str) -> None:
        self._cancel = None
        if not self.is_attached:  # the screen was left: it stopped them, no one is left to see
            return
        self.query_one("#reroll-progress", ProgressBar).remove_class("running")
        if result is None:
            self.notify(stopped, markup=False)
            return
        keep(result)
        self._show()

    def retranslate(self) -> None:
        """The reader's language changed: the report is said again."""
        if self.is_mounted:
            self.report = build(self.game, self.role, self.step)
            self._show()

    def refresh_report(self) -> None:
        """The live game changed (any seat's command): report it again, without the
        chances, which were of the game before; and the measure under way, of that game
        too, is stopped."""
        if self.live:
            if self._cancel is not None:
                self._cancel.set()
            self.report = build(self.game, self.role)
            self.chances = None
            self._show()

    def _show(self) -> None:
        f, luck = self.report.facts, self.report.luck
        if f.step < f.steps:
            title = _("Report: {scenario} — as {role}, step {step} of {steps}")
        elif f.result:
            title = _("Report: {scenario} — as {role}, the whole game")
        else:
            title = _("Report: {scenario} — as {role}, the whole game so far")
        self.query_one("#report-title", PlainLabel).update(
            title.format(
                scenario=f.scenario or _("a game"), role=role_words(f.role, self.game.state), step=f.step, steps=f.steps
            )
        )
        self.query_one("#chances-note", PlainLabel).update(self._chances_note())
        report = self.report if self.chances is None else replace(self.report, chances=self.chances)
        self.query_one("#report-text").query_one(Plain).update(
            "\n".join(visible(line) for line in render_text.render(report))
        )
        turns = [t.turn for t in f.turns]
        sides = [(n, s.id, visible(s.name)) for n, s in enumerate(f.sides)]
        self.query_one("#chart-score", Chart).show(
            _("{score} (more is worse)").format(score=f.score_name),
            turns,
            [line_series(n, name, f.score_by_turn[side]) for n, side, name in sides],
        )
        self.query_one("#chart-losses", Chart).show(
            _("losses per turn"),
            turns,
            [bar_series(n, name, f.losses_by_turn[side]) for n, side, name in sides],
            bars=True,
        )
        self.query_one("#chart-luck", Chart).show(
            _("luck: successes − expected"),
            turns,
            [line_series(n, name, luck.by_turn[side]) for n, side, name in sides],
        )

    def _chances_note(self) -> str:
        """Why this seat has no chances, or the key that measures them, or where they are."""
        if why := self.why_no_chances():
            return _("No chances here: {why}.").format(why=why)
        if self.chances is None:
            return _("c: each side's chance to win after every step ({n} re-rolled games a step)").format(
                n=self.chance_rerolls
            )
        return _("Each side's chances are under the result ({n} re-rolled games a step, seed {seed})").format(
            n=self.chances.count, seed=self.chances.seed
        )
