"""After another seat's command a screen touches only what changed.

Every seat of ``fireteam serve`` redraws in one process, so what one redraw
costs is paid once per seat: a pane whose text did not change must not be
repainted, nothing may lay the screen out again, and the footer is not
rebuilt.  What the panes keep between redraws (fetched log lines, drawn rows,
recent rolls) must still follow an undo or a redo, which strike old lines.
"""

from __future__ import annotations

import contextlib

import pytest
from playing import opened
from rich.console import Console
from rich.style import Style
from skirmish import game_fixture, patrol_game  # noqa: F401  (a fixture)
from textual import events
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Footer, Static
from waiting import piloted, press, settled

from core.language.reader import reading
from core.log import events as ev
from core.log.views import REFEREE
from tui.app import FireteamApp
from tui.commandline import CommandInput
from tui.panes import log as log_pane
from tui.panes.dice import DicePane
from tui.panes.log import LogView, line_text
from tui.panes.phase import PhasePane
from tui.panes.rosterview import RosterView
from tui.screens.game import GameScreen
from tui.textual_internals import screen_compositor
from tui.viewpoint import Viewpoint

SIZE = (100, 30)


def struck(log: LogView, row: int) -> bool:
    """Whether the log draws ``row`` (which must be on screen) struck through."""
    strip = log.render_lines(log.region.reset_offset)[row - int(log.scroll_y)]
    return any(segment.style and segment.style.strike for segment in strip if segment.text.strip())


def unit_label_of(view: RosterView, unit: str) -> str:
    label = view.label(("unit", unit))
    assert label is not None, f"{unit} is not in the roster"
    return label.plain


@pytest.fixture
def repaints(monkeypatch):
    """Every ``refresh`` of a widget: (widget, layout)."""
    calls: list[tuple[Widget, bool]] = []
    original = Widget.refresh

    def spy(self, *regions, repaint=True, layout=False, recompose=False):
        calls.append((self, layout))
        return original(self, *regions, repaint=repaint, layout=layout, recompose=recompose)

    monkeypatch.setattr(Widget, "refresh", spy)
    return calls


async def test_a_note_from_another_seat_repaints_the_log_and_nothing_else(tmp_path, repaints, monkeypatch):
    game = patrol_game(tmp_path / "shared.ft", commands=("next", "next"))
    async with piloted(game, role="blue", seat="anna") as (watcher, pilot):
        screen = watcher.screen
        log = screen.query_one(LogView)
        await settled(pilot)  # the first screen is drawn
        rebuilt = []
        footer = screen.query_one(Footer)
        monkeypatch.setattr(footer, "recompose", lambda: rebuilt.append(footer))
        rows = log.rows
        repaints.clear()
        game.execute("note smoke drifts north", role=REFEREE)
        await settled(pilot)
        assert log.rows == rows + 2 and log.line_at(log.rows - 1).text == "note: smoke drifts north"
        mine = [(w, layout) for w, layout in repaints if w.app is watcher]
        assert log in [w for w, _ in mine]
        untouched = [screen.query_one(PhasePane), screen.query_one(DicePane), screen.query_one(RosterView)]
        untouched.append(screen.query_one("#unit-details", Static))
        assert not [w for w, _ in mine if w in untouched]
        assert not [w for w, layout in mine if layout]
        assert not rebuilt


async def test_a_pane_whose_text_changed_is_repainted(tmp_path, repaints):
    game = patrol_game(tmp_path / "shared.ft", commands=("next",))
    async with piloted(game, role="blue", seat="anna") as (watcher, pilot):
        screen = watcher.screen
        repaints.clear()
        game.execute("next", role=REFEREE)  # rolls initiative: a new phase, new dice
        await settled(pilot)
        painted = {w for w, _ in repaints}
        assert screen.query_one(PhasePane) in painted and screen.query_one(DicePane) in painted
        assert "Activation" in str(screen.query_one(PhasePane).render())
        game.execute("mark ivan suppressed", role=REFEREE)  # an enemy the patrol sees
        await settled(pilot)
        assert " suppressed " in unit_label_of(screen.query_one(RosterView), "ivan")


async def test_a_command_repaints_only_the_phase_rows_it_changed(game, monkeypatch):
    """A note changes the undo hint, one row of the phase pane: only that row is drawn again (not its
    borders, its title, its other rows), and the pane then shows what Textual's ``Static`` draws."""
    async with piloted(game, settle=True) as (app, pilot):
        pane = app.screen.query_one(PhasePane)
        asked: list[tuple[Region, ...]] = []
        original = PhasePane.refresh

        def spy(self, *regions, **how):
            if self is pane:
                asked.append(regions)
            return original(self, *regions, **how)

        monkeypatch.setattr(PhasePane, "refresh", spy)
        before = [strip.text for strip in pane.render_lines(pane.region.reset_offset)]
        app.screen.query_one(CommandInput).value = "note the hint changes"
        await press(pilot, "enter")
        drawn = pane.render_lines(pane.region.reset_offset)
        after = [strip.text for strip in drawn]
        changed = [y for y, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        assert len(changed) == 1 and "note the hint changes" in after[changed[0]]
        row = changed[0] - pane.content_offset.y
        assert asked == [(Region(0, row, pane.content_size.width, 1),)]
        # The same lines as a pane drawn from scratch by Textual's own ``Static`` (``Widget.render_line``).
        pane._strips = None
        textuals = [Static.render_line(pane, y) for y in range(pane.content_size.height)]
        own = [pane.render_line(y) for y in range(pane.content_size.height)]
        assert [list(strip) for strip in own] == [list(strip) for strip in textuals]
        original(pane)
        await settled(pilot)
        assert [list(s) for s in pane.render_lines(pane.region.reset_offset)] == [list(s) for s in drawn]


async def test_an_undo_strikes_lines_the_log_and_the_dice_already_showed(tmp_path):
    game = patrol_game(tmp_path / "shared.ft", commands=("next",))
    async with piloted(game, role="blue", seat="anna") as (watcher, pilot):
        screen = watcher.screen
        log, dice = screen.query_one(LogView), screen.query_one(DicePane)
        game.execute("next", role=REFEREE)
        await settled(pilot)
        roll_rows = [r for r in range(log.rows) if isinstance(log.line_at(r).event, ev.Rolled)]
        assert roll_rows and not any(log.line_at(r).undone for r in roll_rows)
        assert not any(struck(log, r) for r in roll_rows)  # drawn, and the drawing kept
        assert dice._rolls and not any(r.undone for r in dice._rolls)
        game.undo(role=REFEREE)
        await settled(pilot)
        assert all(log.line_at(r).undone for r in roll_rows)
        assert all(struck(log, r) for r in roll_rows)
        # The dice pane leaves the undone rolls out: it never shows a roll no longer in play.
        assert not dice._rolls and "No roll in play: the last was undone." in str(dice.render())
        game.redo(role=REFEREE)
        await settled(pilot)
        assert not any(log.line_at(r).undone for r in roll_rows)
        assert not any(struck(log, r) for r in roll_rows)
        assert [r.index for r in dice._rolls] == [log.line_at(r).index for r in roll_rows]


async def test_an_undo_or_a_redo_fetches_and_draws_again_only_the_lines_of_its_command(tmp_path):
    game = patrol_game(tmp_path / "shared.ft", commands=("next", "note smoke", "next"))
    async with piloted(game) as (app, pilot):
        log = app.screen.query_one(LogView)

        def rows() -> dict[int, object]:
            """Each row's line as the log holds it, by its file position."""
            lines = [log.line_at(r) for r in range(log.rows)]
            return {line.index: line for line in lines if line is not None}

        def drawn() -> dict[int, list]:
            """Each row on screen as the log draws it, by its file position."""
            return {
                log.line_at(int(log.scroll_y) + y).index: strip
                for y, strip in enumerate(log.render_lines(log.region.reset_offset))
                if log.line_at(int(log.scroll_y) + y) is not None
            }

        last = game.history.eff_cmds[-1]
        mine = range(game.history.group_start[last], game.history.group_end[last])
        before, strips, cursor = rows(), drawn(), log.line_at(log.cursor).index
        for change in (game.undo, game.redo):
            change(role=REFEREE)
            await settled(pilot)
            after, now = rows(), drawn()
            # What the log holds is what a fresh look finds, struck through or not ...
            assert list(after.values()) == game.log_lines(REFEREE, 0, game.log_length)
            assert all(after[pos].undone == (change == game.undo) for pos in mine)
            # ... and only the command's own lines were fetched again (those before it are
            # kept; a newer one may come along with the new marker) and drawn again.
            assert {pos for pos in before if after[pos] is not before[pos]} & set(range(mine.stop)) == set(mine)
            marked = {cursor, log.line_at(log.cursor).index}  # the cursor's rows (it moved to the new marker)
            redrawn = {pos for pos in strips if pos in now and now[pos] is not strips[pos]}
            assert redrawn - marked == set(mine) & set(now) - marked
            before, strips, cursor = after, now, log.line_at(log.cursor).index


@pytest.mark.parametrize("role", [REFEREE, "blue", "spectator"])
def test_recent_rolls_kept_between_commands_are_those_a_fresh_look_finds(game, role):
    kept = {count: Viewpoint(game, role) for count in (6, 2)}  # each keeps what it found last
    script = ["next", "next", "shoot cole ivan 40", "undo", "redo", "shoot diaz kemal 10", "undo", "note calm"]
    script += ["shoot park omar 12", "next", "next", "next"]
    for text in script:
        if text == "undo":
            game.undo(role=REFEREE)
        elif text == "redo":
            game.redo(role=REFEREE)
        else:
            game.execute(text, role=REFEREE)
        for count, vp in kept.items():
            assert vp.recent_rolls(count) == Viewpoint(game, role).recent_rolls(count), (text, count)
    assert any(line.undone for line in kept[6].recent_rolls(6))


def test_recent_rolls_in_a_replay_follow_the_step_both_ways(game):
    for text in ("next", "next", "shoot cole ivan 40", "next", "next", "next"):
        game.execute(text, role=REFEREE)
    kept = Viewpoint(game, "blue", step=0)
    for step in [*range(game.timeline.length + 1), *reversed(range(game.timeline.length + 1))]:
        kept.step = step
        assert kept.recent_rolls(6) == Viewpoint(game, "blue", step).recent_rolls(6), step


async def test_several_commands_before_a_seat_redraws_make_one_redraw(tmp_path, monkeypatch):
    game = patrol_game(tmp_path / "shared.ft")
    async with piloted(game, role="blue", seat="anna", settle=True) as (watcher, pilot):
        screen = watcher.screen
        redraws = []
        original = screen.refresh_game
        monkeypatch.setattr(screen, "refresh_game", lambda **kw: (redraws.append(kw), original(**kw)))
        for n in range(3):  # a burst: no chance for the seat's task to run in between
            game.execute(f"note burst {n}", role=REFEREE)
        await settled(pilot)
        assert len(redraws) == 1
        log = screen.query_one(LogView)
        assert [log.line_at(r).text for r in range(log.rows)][-1] == "note: burst 2"


# ------------------------------------------------------------ the log's scroll bar


def bar_cells(log: LogView) -> list[bool]:
    """For each row of the view: is its last cell the scroll bar's thumb (True), its track (False)?"""
    strips = log.render_lines(log.region.reset_offset)
    track, thumb = log._pass.cells
    out = []
    for strip in strips:
        last = list(strip)[-1]
        assert last.text == " " and last.style is not None and last.style.bgcolor in (track.bgcolor, thumb.bgcolor)
        out.append(last.style.bgcolor == thumb.bgcolor)
    return out


@pytest.mark.long
async def test_the_log_draws_its_scroll_bar_and_follows_the_mouse(game):
    for n in range(40):
        game.execute(f"note line {n}", role=REFEREE)
    async with piloted(game) as (app, pilot):
        log = app.screen.query_one(LogView)
        height = log.size.height
        assert log.rows > height and log.scroll_y == log.max_scroll_y  # following the newest line
        cells = bar_cells(log)
        assert cells[-1] and not cells[0]  # the thumb at the bottom
        cursor = log.cursor
        await pilot.click(LogView, offset=(log.size.width - 1, 0))  # on the bar's top: to the oldest lines
        await settled(pilot)
        assert log.scroll_y == 0 and log.cursor == cursor  # the view moved, not the cursor
        cells = bar_cells(log)
        assert cells[0] and not cells[-1]
        log.post_message(events.MouseScrollDown(log, 2, 2, 0, 0, 0, False, False, False))  # the wheel
        await settled(pilot)
        assert log.scroll_y > 0
        await pilot.click(LogView, offset=(2, 1))  # on a line: the cursor goes there
        assert log.cursor == int(log.scroll_y) + 1


async def test_a_short_log_has_no_scroll_bar(game):
    async with piloted(game, (100, 40), settle=True) as (app, pilot):
        log = app.screen.query_one(LogView)
        assert log.rows <= log.size.height and log._bar() is None
        assert not log.allow_vertical_scroll


@pytest.mark.long
async def test_the_log_hands_over_the_rows_it_drew_as_textuals_style_pass_would(game):
    for n in range(40):
        game.execute(f"note line {n}", role=REFEREE)
    async with piloted(game) as (app, pilot):
        log = app.screen.query_one(LogView)
        await settled(pilot)
        whole, columns = log.region.reset_offset, Region(3, 2, 20, 5)
        for focus in (log, app.screen.query_one(CommandInput)):  # the cursor's row marked both ways
            focus.focus()
            await settled(pilot)
            for crop in (whole, columns):
                own = log.render_lines(crop)
                textual = Widget.render_lines(log, crop)  # Textual's style pass over the same rows
                assert [list(strip) for strip in own] == [list(strip) for strip in textual]
        drawn = log.render_lines(whole)
        game.execute("note one more", role=REFEREE)  # two new lines: every other row moves up two
        await settled(pilot)
        again = log.render_lines(whole)
        assert again[-1].text.startswith("  note: one more")
        # Rows that only moved are the very strips drawn before, with Textual's
        # own caches on them (filters, escape codes): only the newest rows, the
        # cursor's old row and the scroll bar thumb's ends are drawn anew.
        reused = [strip for strip in again if any(strip is old for old in drawn)]
        assert len(reused) >= len(again) - 5
        assert [strip.text for strip in again[:-3]] == [strip.text for strip in drawn[2:-1]]
        log.styles.tint = "red 20%"  # a style that changes the rows: Textual's pass draws them
        await settled(pilot)
        tinted = log.render_lines(whole)
        assert [list(strip) for strip in tinted] != [list(strip) for strip in again]
        assert [list(strip) for strip in tinted] == [list(strip) for strip in Widget.render_lines(log, whole)]


@pytest.mark.long
async def test_the_log_draws_in_new_styles_once_its_own_or_its_panes_change(game):
    """The log keeps what its styles make of its rows (their style, the scroll bar's cells) until
    they change: a change of its own styles, of the pane around it, or of the theme is drawn at once,
    as Textual's own style pass draws it."""
    for n in range(40):
        game.execute(f"note line {n}", role=REFEREE)
    async with piloted(game) as (app, pilot):
        log = app.screen.query_one(LogView)
        await settled(pilot)
        whole = log.region.reset_offset

        def rows() -> list[list]:
            return [list(strip) for strip in log.render_lines(whole)]

        def textuals() -> list[list]:
            return [list(strip) for strip in Widget.render_lines(log, whole)]

        before = rows()
        changes = (
            lambda: setattr(log.parent.styles, "text_style", "italic"),  # the pane around the log
            lambda: setattr(log.styles, "scrollbar_background", "#aa2200"),  # the bar's track
            lambda: setattr(log.styles, "color", "#10e0a0"),
            lambda: setattr(app, "theme", next(t for t in app.available_themes if t != app.theme)),
        )
        for change in changes:
            change()
            await settled(pilot)
            after = rows()
            assert after != before
            assert after == textuals()
            before = after


@pytest.mark.long
async def test_a_row_one_seat_drew_is_shown_to_another_only_as_it_would_draw_it(tmp_path):
    """The seats of a process share the rows they draw (``tui.panes.log._drawn``): the referee's
    hidden lines never reach a side's log, and every seat's rows are those it draws with nothing
    shared."""
    game = opened(tmp_path / "t.ft", "breaking-news", "scenario demo", seed=1)
    apps = {role: FireteamApp(game, role=role, seat=role) for role in (REFEREE, "regulars", "irregulars")}

    def rows(app: FireteamApp) -> list[str]:
        log = app.screen.query_one(LogView)
        return [strip.text for strip in log.render_lines(log.region.reset_offset)]

    async with contextlib.AsyncExitStack() as stack:
        pilots = [await stack.enter_async_context(app.run_test(size=SIZE)) for app in apps.values()]
        for command in ("mark dahir pinned", "note smoke drifts north", "undo"):
            game.execute(command, role=REFEREE)
            for pilot in pilots:
                await settled(pilot)
        seen = {role: rows(app) for role, app in apps.items()}
        assert any("dahir" in row.lower() for row in seen[REFEREE])
        assert not any("dahir" in row.lower() for row in seen["regulars"])
        assert any("(undone)" in row for row in seen["regulars"])  # a row struck, drawn anew
        for role, app in apps.items():  # each drawn again alone, with no row kept anywhere
            log_pane._DRAWN.clear()
            app.screen.query_one(LogView)._strips.clear()
            assert rows(app) == seen[role], role


def test_a_row_is_drawn_in_each_readers_own_words(game):
    """A row drawn for a reader of one language is not shown to a reader of another."""
    game.execute("note smoke drifts north", role=REFEREE)
    game.undo(role=REFEREE)
    line = game.log_lines(REFEREE)[-2]
    assert line.undone

    def drawn(language: str) -> str:
        with reading(language):
            return log_pane._drawn(line, game, False, "", 60, Style(), Console()).text

    english, italian = drawn("en"), drawn("it")
    assert "(undone)" in english
    assert "(undone)" not in italian and "(annullato)" in italian
    assert drawn("en") == english


async def test_a_row_that_crosses_the_scroll_bar_thumbs_end_is_not_drawn_again(game, monkeypatch):
    for n in range(9):
        game.execute(f"note line {n}", role=REFEREE)
    async with piloted(game) as (app, pilot):
        log = app.screen.query_one(LogView)
        await settled(pilot)
        before = bar_cells(log)
        assert 2 < sum(before) < len(before)  # a thumb of several rows, at the bottom
        drawn = []
        monkeypatch.setattr(
            log_pane, "line_text", lambda line, *how: (drawn.append(line.text), line_text(line, *how))[1]
        )
        game.execute("note one more", role=REFEREE)  # every row moves up two: the thumb's top two rows leave it
        await settled(pilot)
        after = bar_cells(log)
        assert after == before
        # Only the two new rows and the row the cursor left are drawn; the
        # rows that left the thumb take their cell from the track.
        assert drawn == [log.line_at(row).text for row in range(log.rows - 3, log.rows)]
        assert [strip.text for strip in log.render_lines(log.region.reset_offset)][-1].startswith("  note: one more")


# ------------------------------------------------------------ the command line


async def test_typing_a_command_lays_nothing_out_and_a_long_one_still_scrolls(game, repaints):
    async with piloted(game, settle=True) as (app, pilot):
        box = app.screen.query_one(CommandInput)
        await press(pilot, "n")  # the first value the input ever has gives it its size: one layout
        repaints.clear()
        await press(pilot, *"ote ok")
        assert box.value == "note ok"
        assert not [w for w, layout in repaints if layout and w.app is app]
        long = "note " + "x" * (box.size.width + 20)
        box.value = long
        box.cursor_position = len(long)
        await settled(pilot)
        assert box.scroll_x > 0  # the end of the line, where the cursor is, is in view
        assert box.render_line(0).text.rstrip().endswith("x")
        await press(pilot, "enter")
        assert box.value == "" and box.scroll_x == 0


async def test_a_command_is_done_within_enters_own_handling(game):
    # Were it done when a message had reached the game screen, the screen would
    # draw the emptied line first and what the command did a frame later.
    async with piloted(game, settle=True) as (app, pilot):
        box = app.screen.query_one(CommandInput)
        box.value = "note ok"
        await settled(pilot)
        before = game.log_length
        await box.action_submit()  # what Enter runs; nothing else is let through before the checks
        assert game.log_length > before and game.log_lines(role="referee")[-1].text == "note: ok"
        assert box.value == ""
        assert str(app.screen.query_one("#cmd-hint").render()).startswith("✓")


async def test_an_undo_through_its_dialog_is_done_before_the_game_shows_again(tmp_path, monkeypatch):
    # Done as the box closes, the game screen is drawn once, already changed; no
    # screen is pushed, the focus stays where it was, and the footer, showing
    # the same keys as before the question, is not rebuilt.
    from tui.screens.dialogs import ConfirmBox

    game = patrol_game(tmp_path / "shared.ft", commands=("next",))
    async with piloted(game) as (app, pilot):
        screen = app.screen
        await settled(pilot)
        focused = app.focused
        footer = screen.query_one(Footer)
        box = screen.query_one(ConfirmBox)
        rebuilt = []
        monkeypatch.setattr(footer, "recompose", lambda: rebuilt.append(footer))
        cmd = game.undoing.undo_target(REFEREE)
        box_up_at_undo = []
        submit = game.submit

        def spy(text, **kwargs):
            box_up_at_undo.append((text, box.display))
            return submit(text, **kwargs)

        monkeypatch.setattr(game, "submit", spy)
        await press(pilot, "ctrl+z")
        assert box.asking and box.display and app.screen is screen and app.focused is focused
        await press(pilot, "y")
        assert app.screen is screen and not box.display and app.focused is focused
        assert box_up_at_undo == [("undo", True)]  # undone while the box was still up
        log = screen.query_one(LogView)
        last = log.line_at(log.rows - 1).event
        assert isinstance(last, ev.Undone) and last.cmd == cmd
        assert not rebuilt
        # A "no" leaves the game as it was.
        await press(pilot, "ctrl+y", "n")
        assert not game.history.is_live(cmd) and app.screen is screen and not box.display


async def test_an_undo_and_a_redo_repaint_only_the_panes_they_change(game, repaints, monkeypatch):
    # A mark taken back changes the undo hint (the phase pane), one piece's badge
    # (the roster) and the log: those are repainted, the dice pane and the unit's
    # details are not, and nothing asks for a layout (the box goes without one:
    # ``hide_overlay``).  The screen finds its panes once: Textual's search by type
    # walks its widgets at every call.
    from textual.dom import DOMNode

    async with piloted(game) as (app, pilot):
        screen = app.screen
        screen.query_one(CommandInput).value = "mark ivan suppressed"
        await press(pilot, "enter")
        panes = [screen.query_one(kind) for kind in (PhasePane, RosterView, LogView, DicePane)]
        phase, roster, log, dice = panes
        details = screen.query_one("#unit-details", Static)
        searches = []
        query_one = DOMNode.query_one

        def spy(self, *args, **kwargs):
            if self is screen:
                searches.append(args)
            return query_one(self, *args, **kwargs)

        monkeypatch.setattr(DOMNode, "query_one", spy)
        for key, suppressed in (("ctrl+z", False), ("ctrl+y", True)):
            await press(pilot, key)
            repaints.clear()
            searches.clear()
            await press(pilot, "y")
            assert ("suppressed" in game.state.units["ivan"].status) == suppressed
            assert (" suppressed " in unit_label_of(roster, "ivan")) == suppressed
            painted = {w for w, _ in repaints}
            assert {phase, roster, log} <= painted and not painted & {dice, details}
            assert [w for w, layout in repaints if layout] == []  # the box went without a layout
            assert [a for a in searches if not (isinstance(a[0], str) and a[0].startswith("#"))] == []
            # ... and the screen's compositor holds what Textual's layout would have made of it.
            compositor = screen_compositor(screen)
            placed = dict(compositor.full_map)
            moved = compositor.reflow(screen, screen.outer_size)
            assert not (moved.hidden or moved.shown or moved.resized) and dict(compositor.full_map) == placed


async def test_the_box_answered_before_it_was_ever_drawn_goes_as_textual_hides_it(tmp_path):
    # Ctrl+Z and y in one burst (a macro, a paste of keys): the box is answered before
    # the layout that places it, so it is hidden as Textual hides a widget, and the
    # screen is laid out once, without it.
    from tui.screens.dialogs import ConfirmBox

    game = patrol_game(tmp_path / "shared.ft", commands=("next",))
    async with piloted(game) as (app, pilot):
        screen = app.screen
        await settled(pilot)
        box = screen.query_one(ConfirmBox)
        cmd = game.undoing.undo_target(REFEREE)
        screen.action_undo()
        screen.confirm_key("y")
        await settled(pilot)
        assert not game.history.is_live(cmd) and not box.display and not box.asking
        compositor = screen_compositor(screen)
        assert box not in compositor.full_map
        moved = compositor.reflow(screen, screen.outer_size)
        assert not (moved.hidden or moved.shown or moved.resized)


async def test_the_undo_and_redo_box_is_laid_out_once_whatever_its_height(tmp_path, monkeypatch):
    # The undo question's detail takes two rows at 100 columns, the redo question's one: the
    # box changes height each time.  Laid out with its new lines, it asked for a second
    # layout as Textual set their sizes, and was drawn again, the same, a frame later.
    from textual.screen import Screen

    from tui.screens.dialogs import ConfirmBox

    game = patrol_game(tmp_path / "shared.ft", commands=("next",))
    app = FireteamApp(game, role=REFEREE)
    asked_while_laid_out: list[Widget] = []
    laying_out = []
    layout, refresh = Screen._refresh_layout, Widget.refresh

    def spy_layout(self, *args, **kwargs):
        laying_out.append(self)
        try:
            return layout(self, *args, **kwargs)
        finally:
            laying_out.pop()

    def spy_refresh(self, *regions, **how):
        if laying_out and how.get("layout"):
            asked_while_laid_out.append(self)
        return refresh(self, *regions, **how)

    monkeypatch.setattr(Screen, "_refresh_layout", spy_layout)
    monkeypatch.setattr(Widget, "refresh", spy_refresh)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        box = app.screen.query_one(ConfirmBox)
        heights = []
        for key in ("ctrl+z", "ctrl+y", "ctrl+z"):
            asked_while_laid_out.clear()
            await press(pilot, key)
            assert box.display and box.asking
            heights.append(box.size.height)
            assert [w for w in asked_while_laid_out if box in w.ancestors_with_self] == []
            await press(pilot, "y")
        assert heights[0] != heights[1] and heights[0] == heights[2]


@pytest.mark.long
async def test_a_key_that_is_no_answer_drops_the_question(tmp_path):
    # Typing while undo asks drops the question (nothing undone) and types: the
    # Enter that ends the command then gives the command, it never says yes.
    from tui.screens.dialogs import ConfirmBox

    game = patrol_game(tmp_path / "typed.ft", commands=("next",))
    async with piloted(game) as (app, pilot):
        box = app.screen.query_one(ConfirmBox)
        cmd = game.undoing.undo_target(REFEREE)
        await press(pilot, "ctrl+z")
        assert box.asking
        await press(pilot, "m")
        assert not box.asking and not box.display
        assert app.screen.query_one(CommandInput).value == "m"
        await press(pilot, *"ark cole suppressed", "enter")
        assert game.history.is_live(cmd) and "suppressed" in game.state.units["cole"].status
        # A paste drops it too.
        await press(pilot, "ctrl+z")
        assert box.asking
        app.post_message(events.Paste("x"))
        await settled(pilot)
        assert not box.asking and game.history.is_live(cmd)


async def test_another_seats_command_drops_the_question(tmp_path):
    # The question named a command; once another seat has changed the game a yes
    # could take back another one: it goes, nothing done, and the panes show the change.
    from tui.screens.dialogs import ConfirmBox

    game = patrol_game(tmp_path / "shared.ft", commands=("next",))
    async with piloted(game) as (app, pilot):
        box = app.screen.query_one(ConfirmBox)
        cmd = game.undoing.undo_target(REFEREE)
        await press(pilot, "ctrl+z")
        assert box.asking
        game.execute("note from another seat", role=REFEREE, by="anna")
        await settled(pilot)
        assert not box.asking and not box.display
        await press(pilot, "y")
        assert game.history.is_live(cmd) and app.screen.query_one(CommandInput).value == "y"


def test_an_undo_reads_again_only_the_rolls_of_the_command_it_strikes(game):
    vp = Viewpoint(game, REFEREE)
    for text in ("next", "next", "shoot cole ivan 40"):
        game.execute(text, role=REFEREE)
    shot = game.history.eff_cmds[-1]
    game.execute("note calm", role=REFEREE)
    rolls = vp.recent_rolls(6)
    assert any(line.cmd == shot for line in rolls) and any(line.cmd != shot for line in rolls)
    game.undo(role=REFEREE)  # the note: no roll of it, none read again
    kept = vp.recent_rolls(6)
    assert len(kept) == len(rolls) and all(a is b for a, b in zip(kept, rolls, strict=True))
    game.undo(role=REFEREE)  # the shot: its rolls are read again, struck through; the others kept
    struck = vp.recent_rolls(6)
    assert struck == Viewpoint(game, REFEREE).recent_rolls(6)
    for old, new in zip(rolls, struck, strict=True):
        assert (new.undone, new is old) == ((True, False) if old.cmd == shot else (False, True))


async def test_a_command_another_seat_gives_while_the_first_frame_is_drawn_is_shown(tmp_path, monkeypatch):
    # A shared screen's app composes from the game, then listens to it once its first
    # frame is drawn: a command given in between (a loaded server) must still reach it.
    game = patrol_game(tmp_path / "shared.ft", commands=("next", "next"))
    original = GameScreen.wait_for_refresh  # a MessagePump method the screen inherits

    async def another_seat_meanwhile(self):
        game.execute("note given as the first frame was drawn", role=REFEREE)
        return await original(self)

    monkeypatch.setattr(GameScreen, "wait_for_refresh", another_seat_meanwhile)
    async with piloted(game, role="blue", seat="anna", settle=True) as (watcher, pilot):
        log = watcher.screen.query_one(LogView)
        await pilot.wait_for_scheduled_animations()
        assert log.line_at(log.rows - 1).text == "note: given as the first frame was drawn"


async def test_a_seat_that_leaves_as_its_first_screen_mounts_is_not_redrawn(tmp_path, monkeypatch):
    # A remote seat whose player left as it arrived: its app is told to exit as its first
    # screen composes, so Textual mounts none of the panes, and the look at the game as
    # the app starts must not redraw panes that were never there (under load, "session
    # crashed ... NoMatches: No nodes match 'RosterPane'").
    game = patrol_game(tmp_path / "shared.ft", commands=("next",))
    original = GameScreen.compose

    def leaving_as_it_arrives(self):
        self.app.exit()  # the connection lost as the seat sat down (tui.ssh.seating.seat: Session.left)
        return original(self)

    monkeypatch.setattr(GameScreen, "compose", leaving_as_it_arrives)
    async with piloted(game, role="blue", seat="anna") as (seat, pilot):
        await settled(pilot)
    assert seat.return_code == 0  # it closed as asked, with no error
    assert not game.telling._listeners  # and left nothing listening to the game
