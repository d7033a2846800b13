"""The client names a built-in scenario and its sides in its reader's language (#61)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from two_languages import balad, set_up
from waiting import piloted

from core.game import Game
from core.language.reader import set_process_language
from tui.panes.phase import PhasePane
from tui.panes.roster import RosterPane

DEMO = Path(__file__).resolve().parents[2] / "saves" / "demo-game.ft"


@pytest.fixture(autouse=True)
def english_after():
    yield
    set_process_language("en")


@pytest.mark.parametrize(
    ("lang", "title", "side"),
    [("it", "Posto di blocco ad Afgooye", "Milizia somala"), ("en", "Checkpoint at Afgooye", "Somali militia")],
)
async def test_the_game_screen_says_the_demos_title_and_sides_in_the_readers_language(tmp_path, lang, title, side):
    shutil.copyfile(DEMO, tmp_path / "demo.ft")
    set_process_language(lang)
    async with piloted(Game.open(tmp_path / "demo.ft"), lang=lang, settle=True) as (app, pilot):
        assert title in str(app.screen.query_one(PhasePane).border_title)
        rows = app.screen.query_one(RosterPane).view.rows_text()
        assert any(row.startswith(f"▼ {side} ") for row in rows), rows


async def test_a_users_file_gives_its_own_italian_to_the_roster_and_the_phase_pane(tmp_path):
    """A user's scenario file's ``[translations.it]`` read in the log was not in the roster's rows,
    its details or the phase pane's defeat points, drawn outside the log's rendering (#77)."""
    set_process_language("it")
    game = set_up(tmp_path / "two.ft", "it", str(balad(tmp_path)))
    async with piloted(game, lang="it", settle=True) as (app, pilot):
        rows = app.screen.query_one(RosterPane).view.rows_text()
        assert any(row.startswith("▼ Milizia di Balad ") for row in rows), rows
        assert any("[bold]Mercante[/bold]" in row for row in rows), rows  # text, never markup
        assert "Milizia di Balad" in str(app.screen.query_one(PhasePane).render())
