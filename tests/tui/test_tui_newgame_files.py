"""New game with scenario files: the user's scenario folder in the list, a typed path
checked as it is typed (what it sets up, or FILE:LINE and why), and started."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playing import opened
from textual.widgets import Input, Select, Static
from waiting import press, screen_of, settled

from core.log.views import REFEREE
from core.registry import get_ruleset
from tui.app import FireteamApp
from tui.screens.game import GameScreen
from tui.screens.newgame import NewGameScreen

pytestmark = pytest.mark.long

SIZE = (100, 40)


def _app(tmp_path: Path) -> FireteamApp:
    game = opened(tmp_path / "demo.ft", "ludonet", "scenario demo", seed=7, clock=lambda: 0)
    return FireteamApp(game, role=REFEREE)


def _about(screen: NewGameScreen) -> str:
    return str(screen.query_one("#scenario-about", Static).render())


async def _until(pilot, check) -> None:
    """Let the app work until ``check()`` holds (a loaded machine may take many turns)."""
    for _ in range(500):
        if check():
            return
        await settled(pilot)
    assert check()


async def test_the_users_scenarios_are_offered_after_the_builtin_ones(tmp_path, monkeypatch):
    monkeypatch.setenv("FIRETEAM_DATA_DIR", str(tmp_path / "data"))
    own = tmp_path / "data" / "scenarios" / "ludonet"
    own.mkdir(parents=True)
    shutil.copy(get_ruleset("ludonet").scenarios["tanks"].file, own / "club-night.toml")
    (own / "broken.toml").write_text('id = "x"\n', encoding="utf-8")
    app = _app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "ctrl+n")
        await _until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        screen = screen_of(app, NewGameScreen)
        screen.saves = tmp_path / "saves"
        select = screen.query_one("#scenario", Select)
        await _until(pilot, lambda: "Tanks at Cagny · yours" in [str(label) for label, _ in select._options])
        assert "broken.toml · yours, refused" in [str(label) for label, _ in select._options]
        select.value = str(own / "broken.toml")
        await _until(pilot, lambda: f"{own / 'broken.toml'}:1: title: missing" in _about(screen))
        select.value = str(own / "club-night.toml")
        await _until(pilot, lambda: "Fife and Forfar Yeomanry vs Kampfgruppe von Luck · 9 figures" in _about(screen))
        assert screen.query_one("#save-name", Input).value.startswith("ludonet-club-night-")
        await press(pilot, "ctrl+s")
        await _until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert app.game.state.scenario == "Tanks at Cagny" and "typhoon" in app.game.state.units


async def test_a_typed_path_is_checked_as_typed_and_started(tmp_path):
    good = tmp_path / "my raid.toml"
    shutil.copy(get_ruleset("ludonet").scenarios["night-raid"].file, good)
    bad = tmp_path / "bad.toml"
    bad.write_text(good.read_text(encoding="utf-8").replace("range = 25", 'range = "[red]far"'), encoding="utf-8")
    app = _app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "ctrl+n")
        await _until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        screen = screen_of(app, NewGameScreen)
        screen.saves = tmp_path / "saves"
        path_box = screen.query_one("#scenario-file", Input)
        path_box.value = str(bad)
        # the bad value is shown as it is written, not read as markup
        await _until(pilot, lambda: "weapons[0].range = '[red]far': expected `int`, got `str`" in _about(screen))
        await press(pilot, "ctrl+s")
        error = screen.query_one("#new-error", Static)
        await _until(pilot, lambda: "weapons[0].range" in str(error.render()))
        assert isinstance(app.screen, NewGameScreen)
        assert not list((tmp_path / "saves").glob("*.ft"))
        path_box.value = str(good)
        await _until(pilot, lambda: "No. 4 Commando vs Radar post · 6 figures" in _about(screen))
        await press(pilot, "ctrl+s")
        await _until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert app.game.state.scenario == "Raid on the radar post"
        assert app.game.state.vars["night"] == 1


def test_a_ruleset_that_reads_no_files_refuses_a_typed_path_in_words(tmp_path):
    """A ruleset that reads no scenario files (a plugin's, ``scenario_format`` None): a path typed on
    the new game screen is refused in words, as ``scenario PATH`` refuses it; the screen gave the
    parser None for the format (an AttributeError in its handler, the app's traceback: mypy)."""
    import copy

    from tui.screens.newgame import load_file

    path = tmp_path / "raid.toml"
    shutil.copy(get_ruleset("ludonet").scenarios["night-raid"].file, path)
    ruleset = copy.copy(get_ruleset("ludonet"))
    ruleset.scenario_format = None
    assert load_file(ruleset, str(path)) == f"{ruleset.shown_name()} reads no scenario files"
    assert load_file(get_ruleset("ludonet"), str(path)).sc.id == "night-raid"
