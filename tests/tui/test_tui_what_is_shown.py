"""What the client shows a side: the players' words, never the referee's disk (issue #26)."""

from __future__ import annotations

import shutil
from pathlib import Path

from core.game import Game
from core.ruleset import get_ruleset
from tui.app import FireteamApp
from tui.panes.log import LogView

FOLDER = "refs-private-club-folder"


def _game_from_a_file(tmp_path: Path) -> tuple[Game, str]:
    loaded = get_ruleset("ludonet").scenarios["demo"]
    (tmp_path / FOLDER).mkdir()
    copy = tmp_path / FOLDER / "farm.toml"
    shutil.copy(loaded.file, copy)
    game = Game.new(tmp_path / "game.ft", "ludonet", seed=5)
    game.execute(f"scenario {copy}")
    game.execute("next")
    return game, loaded.title


async def test_a_side_at_the_client_never_sees_the_folder_of_the_scenario_file(tmp_path):
    game, title = _game_from_a_file(tmp_path)
    for role in ("paras", "spectator"):
        app = FireteamApp(game, role=role)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            log = app.screen.query_one(LogView)
            rows = [log.line_at(i).text for i in range(log.rows)]
            assert any(title in row for row in rows), role
            assert not any(FOLDER in row for row in rows), role
            assert FOLDER not in app.export_screenshot(), role
    game.close()
