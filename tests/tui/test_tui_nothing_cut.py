"""Nothing a referee must read is cut (#48): a refusal wraps under the command line,
a roster row cut at the pane's edge ends in ``…`` and shows first what changes what a
figure may do, the roster's rows reach its last row, and a replay's log ends at its step."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playing import opened
from waiting import piloted, press, screen_lines, screen_of, settled, type_text

from core.game import Game
from core.log.views import REFEREE
from tui.commandline import CommandInput

pytestmark = pytest.mark.long

SIZES = [(80, 24), (100, 30)]


def said_under_the_line(app) -> str:
    """The rows under the command line down to the footer, without their spaces (a row
    wraps at a space, or within a word longer than the row)."""
    lines = screen_lines(app)
    prompt = next(n for n, line in enumerate(lines) if "referee ›" in line)
    return "".join("".join(line.split()) for line in lines[prompt + 1 : -1])


def squashed(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("size", SIZES)
async def test_linea_di_tiro_s_refusal_shows_the_values_to_type(tmp_path, size):
    """``mg gren first``: the refusal names what GIs, first half may be doing, and the
    values come at its end (``defence=moving-open|…``): at 80 and 100 columns they show."""
    game = opened(tmp_path / "lt.ft", "linea-di-tiro", "scenario demo", "next", seed=5)
    refusal = game.submit("mg gren first", role=REFEREE).why
    assert "defence=moving-open|" in refusal  # what the screen must show whole
    async with piloted(game, size) as (app, pilot):
        await type_text(pilot, "mg gren first")
        await press(pilot, "enter")
        shown = said_under_the_line(app)
        assert shown == squashed(f"✗ {refusal}"), shown
        assert "defence=moving-open|bound-open|" in shown
        # Typing on puts the guide back on one row; an emptied line says the refusal whole again.
        box = app.screen.query_one(CommandInput)
        await press(pilot, "right", "backspace")
        assert box.value == "mg gren firs"
        assert len([line for line in screen_lines(app) if line.strip()]) <= size[1]
        await press(pilot, "ctrl+u")
        assert box.value == ""
        assert said_under_the_line(app) == squashed(f"✗ {refusal}")
    game.close()


@pytest.mark.parametrize("size", SIZES)
async def test_bassa_intensita_s_usage_is_shown_to_its_end(tmp_path, size):
    """A refusal longer than its row wraps to its end: ``morale`` alone is told its whole usage.
    (``next`` with checks due was cut at ``(morale UNIT; or``; it now walks the checks instead.)"""
    game = opened(tmp_path / "bi.ft", "bassa-intensita", "scenario demo", "next", seed=5)
    async with piloted(game, size) as (app, pilot):
        await type_text(pilot, "morale")
        await press(pilot, "enter")
        shown = said_under_the_line(app)
        assert squashed("morale: missing unit; usage: morale unit [trigger]") in shown
        assert shown.endswith(squashed("[isolated] [fire] [near=…] [enemy]")), shown
    game.close()


async def test_the_guide_of_what_is_typed_keeps_to_a_row_ending_in_an_ellipsis(tmp_path):
    """``fire `` at 80 columns: the candidates and the usage do not fit the row; it says so."""
    game = opened(tmp_path / "bn.ft", "breaking-news", "scenario demo", seed=3)
    async with piloted(game, (80, 24)) as (app, pilot):
        await type_text(pilot, "fire ")
        await settled(pilot)
        lines = screen_lines(app)
        assert "referee › fire" in lines[-3]
        assert lines[-2].rstrip().endswith("…") and "rossi" in lines[-2], lines[-2]
    game.close()


async def test_a_refusal_longer_than_its_room_ends_in_an_ellipsis(tmp_path):
    """A refusal that would take more than a third of the screen stops there, saying it is cut."""
    from tui.screens.game import GameScreen

    game = opened(tmp_path / "lt.ft", "linea-di-tiro", "scenario demo", seed=5)
    async with piloted(game, (80, 24)) as (app, pilot):
        screen = screen_of(app, GameScreen)
        line = screen.query_one("#command")
        line.error("word " * 400)
        await settled(pilot)
        hint = screen.query_one("#cmd-hint")
        assert hint.size.height == 24 // 3
        assert screen_lines(app)[-2].rstrip().endswith("…")
        line.hint("✓ done", "ok")  # the next answer takes one row again
        await settled(pilot)
        assert hint.size.height == 1
    game.close()


def roster_rows(app) -> list[str]:
    """The roster's rows as the screen shows them, inside its border."""
    from tui.panes.roster import RosterPane

    pane = app.screen.query_one(RosterPane)
    region = pane.content_region
    return [line[region.x : region.right] for line in screen_lines(app)[region.y : region.bottom]]


async def test_a_cut_roster_row_ends_in_an_ellipsis_after_what_bars_the_figure(tmp_path):
    """Omar Haji due a morale check, shocked, then wounded: at 160x48 his row is cut, and
    ``wounded`` is read before the checks, the row ending in ``…`` (docs/client.md)."""
    from tui.panes.roster import RosterPane
    from tui.panes.rosterview import RosterView

    game = opened(tmp_path / "bi.ft", "bassa-intensita", "scenario demo", seed=5)
    for status in ("morale-due", "shocked", "wounded"):
        game.execute(f"mark omar {status}", role=REFEREE)
    assert game.state.units["omar"].status.index("wounded") > 0  # wounded was given last
    async with piloted(game, (160, 48), settle=True) as (app, pilot):
        row = next(r for r in roster_rows(app) if "Omar Haji" in r)
        assert row.split("Omar Haji ★")[1].split()[:3] == ["wounded", "morale", "due"], row
        assert row.rstrip().endswith("…"), row
        # Every row wider than the view ends so, none is cut silently.
        view = app.screen.query_one(RosterView)
        for text, shown in zip(view.rows_text(), roster_rows(app), strict=False):
            if len(text) > view.size.width:
                assert shown.rstrip().endswith("…"), shown
        # The details under the tree list his states in the same order.
        view.move_to(("unit", "omar"))
        await settled(pilot)
        said = app.screen.query_one(RosterPane)._details.plain
        assert said.index("wounded") < said.index("morale") < said.index("shocked"), said
    game.close()


def test_out_comes_first_and_what_a_figure_did_last():
    from tui.badges import badges

    text = badges(("fired", "hidden", "suppressed", "wounded", "down"), out="shot").plain.split()
    assert text == ["out", "down", "wounded", "suppressed", "hidden", "fired"]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("ruleset", ["breaking-news", "bassa-intensita", "linea-di-tiro", "ludonet"])
async def test_the_roster_s_rows_reach_its_last_row_while_rows_are_below(tmp_path, ruleset, size):
    """From the command line, no row of the roster is left blank while figures are below
    its view; the figure's details take rows once the roster has the focus and its cursor."""
    from tui.panes.roster import RosterPane
    from tui.panes.rosterview import RosterView

    game = opened(tmp_path / "g.ft", ruleset, "scenario demo", seed=3)
    async with piloted(game, size, settle=True) as (app, pilot):
        pane = app.screen.query_one(RosterPane)
        view = app.screen.query_one(RosterView)
        rows = roster_rows(app)
        assert view.size.height == len(rows)  # the view has every row of the pane
        below = view.rows - view.size.height
        if below > 0:
            assert str(pane.border_subtitle).startswith(f"▼ {below} more")
            assert all(r.strip() for r in rows), rows
        else:
            assert not pane.border_subtitle
        await press(pilot, "ctrl+s", "down", "down", "down")
        details = pane.query_one("#unit-details")
        assert details.display and details.size.height >= 2
        assert view.cursor_key is not None and view.cursor - int(view.scroll_y) < view.size.height
        await press(pilot, "escape", "f8")  # back to the command line: the rows are the tree's again
        assert isinstance(app.focused, CommandInput)
        assert view.size.height == len(roster_rows(app))
    game.close()


#: The recorded Breaking News demo, played to its end.
DEMO = Path(__file__).resolve().parents[2] / "saves" / "demo-game.ft"


@pytest.mark.parametrize("size", SIZES)
async def test_stepping_back_in_a_replay_keeps_the_log_full_down_to_the_step(tmp_path, size):
    """``>`` to the end, then ← step by step: the log's last row is the current step's, at
    the foot of the view, and the rows above it fill the view (it emptied a row a step)."""
    from tui.panes.log import LogPane, LogView

    shutil.copyfile(DEMO, tmp_path / "demo.ft")
    game = Game.open(tmp_path / "demo.ft", writable=False)
    async with piloted(game, size, replay=True) as (app, pilot):
        await press(pilot, "greater_than_sign")
        view = app.screen.query_one(LogView)
        height = view.scrollable_content_region.height
        assert view.rows > height + 30
        for _step in range(30):
            await press(pilot, "left")
            assert view.cursor == view.rows - 1  # the current step's row
            height = view.scrollable_content_region.height
            assert int(view.scroll_y) == view.rows - height  # at the foot of the view
            region = app.screen.query_one(LogPane).content_region
            shown = [line[region.x : region.right] for line in screen_lines(app)[region.y : region.bottom]]
            assert all(line.strip() for line in shown), shown
    game.close()


async def test_f9_opens_the_last_answer_whole(tmp_path):
    """A ✓ keeps to one row, ending in … where cut, and a refusal past a third of the screen
    too: the rest could be read only line by line in the log (#48: "ends in … and opens
    whole on a key").  F9 opens the last answer whole; Esc closes it."""
    from tui.screens.dialogs import AnswerScreen

    game = opened(tmp_path / "bn.ft", "breaking-news", "scenario demo", "next", seed=3)
    async with piloted(game, (80, 24)) as (app, pilot):
        await type_text(pilot, "next dice=6,6,1,1")  # the initiative: both rolls, who acts
        await press(pilot, "enter")
        row = screen_lines(app)[-2].rstrip()
        assert row.startswith(" ✓ #3") and row.endswith("…"), row  # cut at the row's edge
        await press(pilot, "f9")
        box = screen_of(app, AnswerScreen)
        whole = str(box.query_one("#answer-whole").render())
        assert whole.startswith("✓ #3") and len(whole) > 80 and "…" not in whole
        assert "".join(whole.split())[: len("".join(row.split())) - 1] == "".join(row.split())[:-1]
        await press(pilot, "escape")
        assert not isinstance(app.screen, AnswerScreen)
    game.close()
