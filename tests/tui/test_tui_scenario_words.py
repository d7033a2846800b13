"""The client names a built-in scenario and its sides in its reader's language (#61)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
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
