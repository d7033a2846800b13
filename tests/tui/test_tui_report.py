"""The Report screen: its key and palette entry, live and in replay, the seat's view only."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from playing import opened
from waiting import piloted, press, settled, until

from core.game import Game
from core.log.views import REFEREE
from core.report import build, render_text
from tui.app import FireteamApp
from tui.chart import Chart
from tui.palette import GameCommands
from tui.plain import Plain, PlainLabel
from tui.screens.game import GameScreen
from tui.screens.replay_bar import ReplayBar
from tui.screens.report import ReportScreen

pytestmark = pytest.mark.long

DEMO = Path(__file__).resolve().parents[2] / "saves" / "demo-game.ft"


def shown(app: FireteamApp) -> str:
    return str(app.screen.query_one("#report-text").query_one(Plain).render())


async def test_f4_opens_the_live_games_report_and_escape_leaves_it(tmp_path):
    shutil.copy(DEMO, tmp_path / "demo.ft")
    game = Game.open(tmp_path / "demo.ft")
    async with piloted(game, settle=True) as (app, pilot):
        await press(pilot, "f4")
        assert isinstance(app.screen, ReportScreen)
        report = app.screen.report
        assert report.facts.step == report.facts.steps == game.timeline.length
        text = shown(app)
        assert "\n".join(render_text.render(build(game, REFEREE))) == text
        assert "Somali militia win with 20 defeat points against 30" in text
        title = str(app.screen.query_one("#report-title", PlainLabel).render())
        assert title.endswith("as referee, the whole game")  # it is over: not "so far"
        assert len(app.screen.query(Chart)) == 3
        # Live, the report follows the game: a command given (by any seat) shows in it.
        game.execute('note "the Bersaglieri pull back to the checkpoint"', role=REFEREE)
        await settled(pilot)
        assert app.screen.report.facts.steps == game.timeline.length
        assert "“the Bersaglieri pull back to the checkpoint”" in shown(app)
        await press(pilot, "escape")
        assert isinstance(app.screen, GameScreen)
    game.close()


async def test_in_replay_the_report_stops_at_the_step_on_screen():
    game = Game.open(DEMO, writable=False)
    async with piloted(game, replay=True, settle=True) as (app, pilot):
        app.screen.part(ReplayBar).go(game.timeline.turn_start(3))
        await settled(pilot)
        await press(pilot, "ctrl+o")
        assert isinstance(app.screen, ReportScreen)
        f = app.screen.report.facts
        assert f.step == game.timeline.turn_start(3) and f.result == ""
        assert "Bashir Ali (Somali militia) was put out of action" not in shown(app)  # that is turn 4
        assert "Ahmed Noor (Somali militia) was put out of action" in shown(app)


async def test_a_sides_seat_sees_its_own_report_only():
    game = Game.open(DEMO, writable=False)
    async with piloted(game, role="regulars", replay=True, settle=True) as (app, pilot):
        app.screen.part(ReplayBar).go(game.timeline.turn_start(2))
        await settled(pilot)
        await press(pilot, "f4")
        text = shown(app)
        assert "As Bersaglieri saw it" in text
        for hidden in ("Dahir Omar", "Egal Yusuf", "secret objective die", "hidden move"):
            assert hidden not in text


async def test_the_palette_offers_the_report_live_and_in_replay():
    for replay in (False, True):
        game = Game.open(DEMO, writable=False)
        async with piloted(game, replay=replay, settle=True) as (app, pilot):
            names = [hit.text async for hit in GameCommands(app.screen).discover()]
            assert "Report" in names


async def test_text_from_the_save_is_shown_as_text_on_the_report_screen(tmp_path):
    from skirmish import patrol_game

    hostile = "[@click=app.quit]boom [b]bold[/b] <script>"
    game = patrol_game(tmp_path / "game.ft", commands=(f'note "{hostile}"', f'dp blue 5 "{hostile}"'))
    async with piloted(game, settle=True) as (app, pilot):
        await press(pilot, "f4")
        assert isinstance(app.screen, ReportScreen)
        assert f"“{hostile}”" in shown(app)
        await pilot.click("#report-text")
        await settled(pilot)
        assert app.is_running and isinstance(app.screen, ReportScreen)
    game.close()


def y_ticks(plot: Chart) -> list[str]:
    """The numbers drawn left of the chart's axis (``12┤``)."""
    lines = [strip.text for strip in plot.render_lines(plot.region.reset_offset)]
    return [line.split("┤")[0].strip() for line in lines if "┤" in line]


async def test_the_charts_of_counts_tick_whole_numbers():
    """Defeat points and losses are counted in whole men: never 0.33 of one on an axis (issue #26)."""
    game = Game.open(DEMO, writable=False)
    async with piloted(game, (120, 30), replay=True, settle=True) as (app, pilot):
        for step in (20, game.timeline.length):  # no score yet; the whole game
            app.screen.part(ReplayBar).go(step)
            await settled(pilot)
            await press(pilot, "f4")
            assert isinstance(app.screen, ReportScreen)
            for chart in ("#chart-score", "#chart-losses"):
                ticks = y_ticks(app.screen.query_one(chart, Chart))
                assert len(ticks) >= 2 and all(t.lstrip("-").isdigit() for t in ticks), (step, chart, ticks)
            await press(pilot, "escape")
    game.close()


def legend(plot: Chart) -> dict[str, str]:
    """Each side named in the chart's legend, with the glyph drawn before its name."""
    lines = [strip.text for strip in plot.render_lines(plot.region.reset_offset)]
    found = {}
    for line in lines:
        for side in ("Bersaglieri", "Somali militia"):
            if f" {side}" in line:
                found[side] = line.split(f" {side}")[0][-1:]
    return found


async def test_the_luck_chart_ticks_whole_numbers_and_tells_the_sides_apart_without_colour():
    """The luck chart's axis ticks whole successes (it ticked -3.02, 0.23…), and each side
    has a glyph of its own in the legend, as on the defeat points' chart (both had ⢕⢕) (#48)."""
    game = Game.open(DEMO, writable=False)
    async with piloted(game, replay=True) as (app, pilot):
        await press(pilot, "greater_than_sign", "f4")
        assert isinstance(app.screen, ReportScreen)
        luck = app.screen.query_one("#chart-luck", Chart)
        ticks = y_ticks(luck)
        assert len(ticks) >= 3 and all(t.lstrip("-").isdigit() for t in ticks), ticks
        assert min(int(t) for t in ticks) < 0 < max(int(t) for t in ticks)  # the demo's luck goes both ways
        for chart in ("#chart-luck", "#chart-score"):
            glyphs = legend(app.screen.query_one(chart, Chart))
            assert len(glyphs) == 2 and len(set(glyphs.values())) == 2, (chart, glyphs)
    game.close()


async def test_the_losses_chart_tells_the_sides_apart_and_names_only_the_bars_it_draws(tmp_path):
    """The losses per turn drew both sides' bars and legend as ``██`` (told apart by colour
    alone), and a side that lost nobody had a blank glyph before its name (#48): each side
    has a bar glyph of its own; a side with no bar is not in the legend."""
    game = Game.open(DEMO, writable=False)
    async with piloted(game, replay=True) as (app, pilot):
        await press(pilot, "greater_than_sign", "f4")
        glyphs = legend(app.screen.query_one("#chart-losses", Chart))
        assert len(glyphs) == 2 and len(set(glyphs.values())) == 2 and all(g.strip() for g in glyphs.values()), glyphs
    game.close()
    game = opened(tmp_path / "bn.ft", "breaking-news", "scenario demo", "next", seed=3)
    game.execute("next dice=6,6,1,1", role=REFEREE)  # the Bersaglieri act
    game.execute("fire rossi aden range=30 dice=6,1", role=REFEREE)  # a hit, a failed save: Aden Farah out
    assert game.state.units["aden"].out and not any(u.out for u in game.state.units.values() if u.side == "regulars")
    async with piloted(game) as (app, pilot):
        await press(pilot, "f4")
        glyphs = legend(app.screen.query_one("#chart-losses", Chart))
        assert list(glyphs) == ["Somali militia"] and glyphs["Somali militia"].strip(), glyphs
    game.close()


async def test_the_charts_line_up_when_a_legend_names_no_side(tmp_path):
    """Before any loss the losses chart draws no bar and its legend names no side: its plot
    still starts on the row the others' do, side by side under their titles."""
    game = opened(tmp_path / "bn.ft", "breaking-news", "scenario demo", seed=3)
    async with piloted(game) as (app, pilot):
        await press(pilot, "f4")
        tops = []
        for chart in app.screen.query(Chart):
            lines = [strip.text for strip in chart.render_lines(chart.region.reset_offset)]
            tops.append(next(n for n, line in enumerate(lines) if "┌" in line))
        assert legend(app.screen.query_one("#chart-losses", Chart)) == {} and len(set(tops)) == 1, tops
    game.close()


async def test_the_turn_table_fits_100_columns():
    """The table of losses and defeat points per turn is not wrapped at 100 columns: each
    side's name heads its own columns (two sides' heads took 120 columns) (#48)."""
    game = Game.open(DEMO, writable=False)
    async with piloted(game, replay=True) as (app, pilot):
        await press(pilot, "greater_than_sign", "f4")
        text = app.screen.query_one("#report-text").query_one(Plain)
        lines = shown(app).split("\n")
        head = next(n for n, line in enumerate(lines) if line.strip().startswith("turn"))
        table = lines[head - 1 : head + 8]  # the sides, the heads, set-up and turns 1 to 6
        assert table[0].split() == ["Bersaglieri", "Somali", "militia"]
        assert table[1].split() == ["turn"] + ["lost", "defeat", "points", "so", "far"] * 2
        assert [row.split()[0] for row in table[2:]] == ["set-up", "1", "2", "3", "4", "5", "6"]
        assert max(len(line) for line in table) <= text.content_region.width
    game.close()


async def test_every_tick_of_a_count_has_a_row_and_they_are_evenly_spaced(tmp_path):
    """Ten defeat points would take eleven ticks on a chart of ten rows: one was lost
    (10 9 8 7 5 4 …); the steps widen instead (0 2 4 … 10), evenly (issue #26)."""
    from core.report.ticks import whole_ticks

    assert whole_ticks(list(range(11)), most=10) == [0, 2, 4, 6, 8, 10]
    game = opened(tmp_path / "g.ft", "breaking-news", "scenario demo", "next", "dp regulars 10", seed=2)
    async with piloted(game, (120, 30)) as (app, pilot):
        await press(pilot, "f4")
        ticks = [int(t) for t in y_ticks(app.screen.query_one("#chart-score", Chart))]
        assert max(ticks) >= 10 and len(set(b - a for a, b in zip(ticks[1:], ticks, strict=False))) == 1, ticks
    game.close()


async def test_r_rerolls_the_orders_in_a_thread_with_a_bar_and_esc_stops_them(tmp_path):
    """F4's re-rolls: "r" plays the orders again in a worker thread with a progress bar;
    the section then shows; Esc while they run stops them and keeps the screen."""
    from textual.widgets import ProgressBar

    game = Game.open(DEMO, writable=False)
    async with piloted(game, replay=True, settle=True) as (app, pilot):
        await press(pilot, "f4")
        screen = app.screen
        assert isinstance(screen, ReportScreen) and "re-rolled games" not in shown(app)
        screen.rerolls = 20
        await press(pilot, "r")
        await settled(pilot)
        assert "With these orders, in 20 re-rolled games:" in shown(app)
        assert screen.query_one("#reroll-progress", ProgressBar).progress == 20
        assert screen.report.rerolls is not None and screen.report.rerolls.count == 20
        # Far more than could end before Esc: stopped at the next game, nothing kept.
        screen.rerolls = 100_000
        await press(pilot, "r", workers=False)
        await press(pilot, "escape")
        await settled(pilot)
        assert isinstance(app.screen, ReportScreen)
        assert screen.report.rerolls.count == 20  # the earlier re-rolls stay on screen
        assert not screen.query_one("#reroll-progress").has_class("running")
        await press(pilot, "escape")
        assert not isinstance(app.screen, ReportScreen)


async def test_a_sides_report_offers_no_rerolls():
    game = Game.open(DEMO, writable=False)
    screen = ReportScreen(game, "regulars")
    assert screen.check_action("reroll", ()) is False
    assert ReportScreen(game, "referee").check_action("reroll", ()) is True


async def test_a_chart_too_narrow_for_its_title_ends_it_in_an_ellipsis():
    """At 80 columns "defeat points (more is worse)" is wider than its chart: plotext drew
    no title at all, and the chart said nothing of what it counts (#48)."""
    game = Game.open(DEMO, writable=False)
    async with piloted(game, (80, 24), settle=True) as (app, pilot):
        await press(pilot, "f4")
        chart = app.screen.query_one("#chart-score", Chart)
        top = chart.render().plain.splitlines()[0].strip()
        assert top.startswith("defeat points") and top.endswith("…"), top
        wide = app.screen.query_one("#chart-losses", Chart).render().plain.splitlines()[0].strip()
        assert wide == "losses per turn"  # a title that fits is left whole
    game.close()


async def test_a_chart_fills_its_widget_whatever_the_terminal_of_the_process(monkeypatch):
    """plotext caps a plot at the terminal it reads, the process's: an SSH seat's screen
    is not that terminal, and its charts were cut to it (``tui.chart``)."""
    monkeypatch.setenv("COLUMNS", "30")  # the process's terminal, as plotext reads it
    monkeypatch.setenv("LINES", "8")
    game = Game.open(DEMO, writable=False)
    async with piloted(game, (150, 40), settle=True) as (app, pilot):
        await press(pilot, "f4")
        chart = app.screen.query_one("#chart-luck", Chart)
        lines = [strip.text for strip in chart.render_lines(chart.region.reset_offset)]
        frame = [line for line in lines if "┌" in line or "└" in line]
        assert chart.size.width == 50 and len(frame) == 2, lines
        assert all(len(line.rstrip()) == chart.size.width for line in frame), frame
        assert len(y_ticks(chart)) >= 5  # the plot is as tall as the widget holds, not 8 rows
    game.close()


def note(app: FireteamApp) -> str:
    return str(app.screen.query_one("#chances-note", PlainLabel).render())


@pytest.mark.subprocess
async def test_c_shows_the_referee_each_sides_chances_the_swings_and_the_deciding_turn():
    """F4's chances (issue #62): "c" measures them in a thread, from the screen's seed; the
    text then has a sparkline a side with the turn marks, the table by turn, the swings
    (whose, what, odds, faces, before → after) and the turn that decided the game, with
    the words of what is measured and how sure."""
    from core.report.chances import chances

    game = Game.open(DEMO, writable=False)
    async with piloted(game, replay=True) as (app, pilot):
        await press(pilot, "f4")
        screen = app.screen
        assert isinstance(screen, ReportScreen) and "CHANCES" not in shown(app)
        assert note(app).startswith("c: each side's chance to win after every step (200 re-rolled games a step)")
        # The player's own client measures on every core (a pool of processes), as the bench does.
        assert screen.chance_workers == (os.cpu_count() or 1)
        screen.chance_rerolls, screen.seed = 5, 7
        await press(pilot, "c")
        await settled(pilot)
        assert screen.chances is not None and (screen.chances.count, screen.chances.seed) == (5, 7)
        assert screen.chances.points == chances(game, 5, seed=7).points  # the same seed, the same chances
        text = shown(app).split("\n")
        assert "EACH SIDE'S CHANCES TO WIN" in text
        assert any("other dice" in line and "played again 5 times" in line for line in text)
        rows = [line for line in text if line.lstrip().startswith(("Bersaglieri ", "Somali militia ")) and "→" in line]
        assert len(rows) == 2 and all(set(r.split(" ")[-4]) <= set("▁▂▃▄▅▆▇█") for r in rows), rows
        marks = text[text.index(rows[0]) + 3]  # under the two sides and "no side ahead"
        assert marks.split() == ["turn", "1", "2", "3", "4", "5", "6"], marks
        assert rows[1].endswith("100.0%") and rows[0].endswith("→ 0%")  # the real result at the end
        swings = text[text.index("The rolls that swung the game") + 2 :]
        swings = swings[: swings.index("")]
        dice = [s for s in swings if not s.startswith("  · Only who acts first")]  # named apart, after them
        assert 3 <= len(dice) <= 5 and all("Turn " in s and " → " in s for s in dice), swings
        assert swings[: len(dice)] == dice
        assert any("a chance of" in s and "needing" in s for s in swings)  # its odds and faces
        assert any(line.startswith("The game was decided in turn ") for line in text)
        assert note(app) == "Each side's chances are under the result (5 re-rolled games a step, seed 7)"
    game.close()


async def test_a_sides_seat_before_the_end_is_told_why_it_has_no_chances(tmp_path):
    """A side's chances come from every order, hidden ones too: before the game is over it
    is told why, and "c" measures nothing (the core's rule, ``core.report.build.no_chances``)."""
    game = opened(tmp_path / "bn.ft", "breaking-news", "scenario demo", "next", seed=3)
    async with piloted(game, role="regulars") as (app, pilot):
        await press(pilot, "f4", "c")
        screen = app.screen
        assert isinstance(screen, ReportScreen) and screen.chances is None and not list(app.workers)
        assert note(app) == (
            "No chances here: a side sees the chances only once the game is over and every secret is opened."
        )
        assert "CHANCES" not in shown(app)
    game.close()
    # Once the game is over and every secret opened, a side's seat may measure them.
    assert ReportScreen(Game.open(DEMO, writable=False), "regulars").why_no_chances() == ""


async def test_a_sides_copy_in_replay_has_no_chances(tmp_path):
    from core.secrets.sidecopy import export, write
    from tui.opening import open_game

    write(export(Game.open(DEMO, writable=False), "regulars"), tmp_path / "regulars.json")
    game = open_game(tmp_path / "regulars.json", replay=False)
    async with piloted(game, replay=True) as (app, pilot):
        await press(pilot, "f4", "c")
        assert isinstance(app.screen, ReportScreen) and app.screen.chances is None
        assert note(app).startswith("No chances here: the chances re-roll every order, hidden ones too")


async def test_the_client_answers_keys_while_the_chances_are_measured_and_esc_stops_them():
    """The chances run in a worker thread: the report scrolls on its keys meanwhile, the bar
    moves, and Esc stops them at the next game and keeps nothing; so does leaving the screen."""
    from textual.widgets import ProgressBar

    game = Game.open(DEMO, writable=False)
    async with piloted(game, replay=True) as (app, pilot):
        await press(pilot, "f4")
        screen = app.screen
        screen.chance_rerolls = 10_000  # far more than could end while the test runs
        screen.chance_workers = 1  # in this thread, stopped at its next game (a pool's at its next step)
        await press(pilot, "c", workers=False)
        bar = screen.query_one("#reroll-progress", ProgressBar)
        await until(pilot, lambda: (bar.progress or 0) > 0, "the bar to move")
        text = screen.query_one("#report-text")
        for key in ("down", "down", "down"):
            before = text.scroll_y
            await press(pilot, key, workers=False)
            await until(pilot, lambda before=before: text.scroll_y > before, f"{key} to scroll the report")
        assert any(not w.is_finished for w in app.workers)  # still measuring
        await press(pilot, "escape")
        await settled(pilot)
        assert app.screen is screen and screen.chances is None and not bar.has_class("running")
        # Leaving the screen (not by Esc: the game's own keys may) stops them too.
        await press(pilot, "c", workers=False)
        await until(pilot, lambda: (bar.progress or 0) > 0, "the bar to move again")
        app.pop_screen()
        await until(pilot, lambda: screen._cancel is None, "the thread to stop at its next game")
        await settled(pilot)
        assert app.is_running and app._exception is None and screen.chances is None
    game.close()


async def test_the_live_game_moving_on_stops_the_chances_being_measured(tmp_path):
    """Chances measured of a live game are of the game as it was: a command given meanwhile
    (by any seat) stops them, and the report shows none rather than the old game's."""
    game = opened(tmp_path / "bn.ft", "breaking-news", "scenario demo", "next", seed=3)
    async with piloted(game) as (app, pilot):
        await press(pilot, "f4")
        screen = app.screen
        screen.chance_rerolls, screen.chance_workers = 10_000, 1
        await press(pilot, "c", workers=False)
        await until(
            pilot,
            lambda: screen._cancel is not None and (screen.query_one("#reroll-progress").progress or 0) > 0,
            "the measure to start",
        )
        game.execute('note "the Bersaglieri pull back"', role=REFEREE)
        await until(pilot, lambda: screen._cancel is None, "the measure to stop at its next game")
        await settled(pilot)
        assert app.screen is screen and screen.chances is None and "CHANCES" not in shown(app)
        assert "“the Bersaglieri pull back”" in shown(app)
    game.close()
