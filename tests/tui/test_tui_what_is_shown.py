"""What the client shows a side: the players' words, never the referee's disk (issue #26)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playing import opened
from waiting import piloted, press, screen_of, settled, told

from core.game import Game
from core.registry import get_ruleset
from tui.app import FireteamApp
from tui.panes.log import LogView

FOLDER = "refs-private-club-folder"


def _game_from_a_file(tmp_path: Path) -> tuple[Game, str]:
    loaded = get_ruleset("ludonet").scenarios["demo"]
    (tmp_path / FOLDER).mkdir()
    copy = tmp_path / FOLDER / "farm.toml"
    shutil.copy(loaded.file, copy)
    game = opened(tmp_path / "game.ft", "ludonet", f"scenario {copy}", "next", seed=5)
    return game, loaded.title


@pytest.mark.long
async def test_a_side_at_the_client_never_sees_the_folder_of_the_scenario_file(tmp_path):
    game, title = _game_from_a_file(tmp_path)
    for role in ("paras", "spectator"):
        async with piloted(game, (120, 40), role=role, settle=True) as (app, pilot):
            log = app.screen.query_one(LogView)
            rows = [log.line_at(i).text for i in range(log.rows)]
            assert any(title in row for row in rows), role
            assert not any(FOLDER in row for row in rows), role
            assert FOLDER not in app.export_screenshot(), role
    game.close()


SAVES = Path(__file__).resolve().parents[2] / "saves"


def _copy_of_the_demo(folder: Path) -> Path:
    from core.secrets.sidecopy import export, write

    game = Game.open(SAVES / "demo-game.ft", writable=False)
    to = folder / "regulars.json"
    write(export(game, "regulars"), to)
    return to


async def test_a_sides_copy_opens_in_the_client_as_that_sides_replay(tmp_path):
    from tui.opening import open_game
    from tui.screens.game import GameScreen

    copy = _copy_of_the_demo(tmp_path)
    game = open_game(copy, replay=False)  # `fireteam COPY`: read-only all the same
    full = Game.open(SAVES / "demo-game.ft", writable=False)
    async with piloted(game, (120, 40), replay=True, settle=True) as (app, pilot):
        screen = screen_of(app, GameScreen)
        assert (screen.role, screen.replay) == ("regulars", True)
        log = screen.query_one(LogView)
        rows = [log.line_at(i).text for i in range(log.rows)]
        assert rows == [line.text for line in full.log_lines("regulars")]
        app._follow_save()  # what the client does every second with a game open read-only
        await settled(pilot)
        assert not [n for n in told(app) if "stopped following" in n]  # a copy is no save that grows


async def test_a_save_that_cannot_be_followed_is_told_once_and_followed_no_more(tmp_path, monkeypatch):
    from core.storage.errors import SaveError

    shutil.copy(SAVES / "demo-game.ft", tmp_path / "demo.ft")
    game = Game.open(tmp_path / "demo.ft", writable=False)
    tries = []

    def torn() -> None:
        tries.append(1)
        raise SaveError("torn at byte 9")

    monkeypatch.setattr(game, "follow", torn)
    async with piloted(game, (120, 40), replay=True, settle=True) as (app, pilot):
        app._follow_save()
        app._follow_save()  # (the client's timer, a second later)
        await settled(pilot)
        said = [n for n in told(app) if "stopped following" in n]
        assert said == ["stopped following the save: torn at byte 9"] and tries == [1]


@pytest.mark.long
async def test_the_load_screen_lists_a_sides_copy_and_opens_it_read_only(tmp_path):
    from tui.screens.game import GameScreen
    from tui.screens.loadgame import LoadGameScreen

    saves = tmp_path / "saves"
    saves.mkdir()
    _copy_of_the_demo(saves)
    (saves / "notes.json").write_text('{"not": "a copy"}', encoding="utf-8")  # not listed
    game, _title = _game_from_a_file(tmp_path)
    async with piloted(game, (120, 40)) as (app, pilot):
        screen = LoadGameScreen(saves=saves)
        await app.push_screen(screen)
        await settled(pilot)
        assert [p.name for p in screen.paths] == ["regulars.json"]
        assert "the copy of regulars" in screen.summaries[saves / "regulars.json"].text
        await press(pilot, "enter")  # "Play": a copy opens in replay all the same
        assert app.game.copy_role == "regulars" and not app.game.writable
        assert isinstance(app.screen, GameScreen)
        assert (app.screen.role, app.screen.replay) == ("regulars", True)


def test_no_client_that_decides_what_a_role_sees_has_a_role_by_default():
    """An app, a screen or a plain client built without saying whose it is fails at once,
    rather than showing the referee's view (issue #53: the narrowest default, or none).
    So does a command given to the game (or to a seat's replica of the table's game) without
    saying who gives it, rather than acting with the referee's authority and answering with
    the referee's Outcome, and a listener of the game's changes without saying whose, rather
    than being told the referee's."""
    import inspect

    from core.game.given import Given
    from tui.lines.client import LineClient
    from tui.lines.terminal import run_plain
    from tui.screens.game import GameScreen
    from tui.ssh.workers.replica import ReplicaGame

    for made in (FireteamApp, GameScreen, LineClient, run_plain):
        role = inspect.signature(made).parameters["role"]
        assert role.default is inspect.Parameter.empty, f"{made.__name__}: role has a default"
    assert "role" in Given.__required_keys__  # what a command is given with (core.game.given)
    for game in (Game, ReplicaGame):
        for name in ("execute", "submit"):
            given = inspect.signature(getattr(game, name)).parameters["given"]
            assert (given.kind, given.annotation) == (inspect.Parameter.VAR_KEYWORD, "Unpack[Given]"), name
        for name in ("undo", "redo", "subscribe"):
            role = inspect.signature(getattr(game, name)).parameters["role"]
            assert role.kind is inspect.Parameter.KEYWORD_ONLY, f"{game.__name__}.{name}: role is not keyword-only"
        # Every other method that acts or reads for a role (parse, view, log_lines...) as well.
        for name, method in inspect.getmembers(game, inspect.isfunction):
            role = inspect.signature(method).parameters.get("role")
            if role is not None:
                assert role.default is inspect.Parameter.empty, f"{game.__name__}.{name}: role has a default"
