"""New game: the ruleset's set-up choices (mission, optional rules, extras,
objectives), by keyboard alone in an 80x24 terminal, and what a refusal leaves."""

from __future__ import annotations

from pathlib import Path

import pytest
from playing import opened
from skirmish import Skirmish, game_fixture  # noqa: F401  (a fixture)
from textual.widgets import Select, SelectionList
from waiting import piloted, press, screen_of, settled

from core.language.reader import reading
from core.log.views import REFEREE
from core.ruleset import Refused
from tui.app import FireteamApp
from tui.screens.game import GameScreen
from tui.screens.newgame import NewGameScreen, start_game

pytestmark = pytest.mark.long

SMALL = (80, 24)


async def _until(pilot, ready, pauses: int = 1000) -> None:
    """Let the app run until ``ready()`` holds (counted in turns of its loop, not seconds)."""
    for _ in range(pauses):
        if ready():
            return
        await settled(pilot)
    raise AssertionError(f"still not ready after {pauses} pauses")


def _bn_app(tmp_path: Path) -> FireteamApp:
    game = opened(tmp_path / "demo.ft", "breaking-news", "scenario demo", seed=7, clock=lambda: 0)
    return FireteamApp(game, role=REFEREE)


async def test_a_breaking_news_game_starts_with_the_choices_picked_by_keyboard(tmp_path):
    app = _bn_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "ctrl+n")
        screen = screen_of(app, NewGameScreen)
        screen.saves = tmp_path / "saves"
        # ruleset → variant → scenario; the second scenario is Regulars against Regulars
        await press(pilot, "tab", "tab", "enter", "down", "enter")
        assert screen.query_one("#scenario", Select).value == "open-regulars"
        await press(pilot, "tab", *"rangers", "tab", *"legion", "tab")
        assert screen.focused.id == "setup-mission"
        assert screen.query_one("#setup-mission", Select).value == "1"  # the scenario's mission
        await press(pilot, "tab", "space")  # optional rules: deviation
        await press(pilot, "tab", "space", "down", "down", "down", "space")  # blue: ROE, helicopter
        await press(pilot, "tab", "tab", "tab", "enter", "down", "enter")  # red's objectives at random
        assert screen.setup_lines() == [
            "option deviation on",
            "buy blue rules_of_engagement",
            "buy blue helicopter",
            "objectives red random",
        ]
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, GameScreen)
        game = app.game
        assert game.path.parent == tmp_path / "saves" and game.state.scenario.startswith("Open engagement, Regulars")
        assert (game.state.vars["mission"], game.state.vars["option.deviation"]) == (1, 1)
        assert game.state.vars["extra.blue.rules_of_engagement"] == game.state.vars["extra.blue.helicopter"] == 1
        assert not any(key.startswith("extra.red.") and key != "extra.red.motivation" for key in game.state.vars)
        # 145 for the Rangers, -40 and +25: 130 of 150
        log = [line.text for line in game.log_lines("referee")]
        assert "note: Blue force buy Helicopter evacuation for 25 points: 130 points of 150 (Extras)" in log
        assert len([k for k in game.state.secrets if k.startswith("marker.red.")]) == 5
        assert not any(k.startswith("marker.") for k in game.view("blue").secrets)
        assert "marker.red.1" in game.view("red").secrets


async def test_a_purchase_over_the_limit_stops_the_start_and_leaves_no_save(tmp_path):
    saves = tmp_path / "saves"
    app = _bn_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await app.push_screen(NewGameScreen(saves=saves, ruleset="breaking-news"))
        await settled(pilot)
        screen = app.screen
        screen.query_one("#scenario", Select).value = "open-regulars"
        await settled(pilot)
        screen.query_one("#roster-blue").value = "rangers"
        screen.query_one("#roster-red").value = "legion"
        screen.query_one("#save-name").value = "over"
        extras = screen.query_one("#setup-extras-blue", SelectionList)
        extras.select("helicopter")
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, NewGameScreen)
        # 145 for the Rangers + 25 for the helicopter
        assert str(screen.query_one("#new-error").content) == (
            "✗ buy blue helicopter: Blue force with Helicopter evacuation: 170 points is 20 over the limit of 150"
        )
        assert list(saves.glob("*")) == []
        extras.deselect("helicopter")
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, GameScreen) and app.game.path == saves / "over.ft"


def test_a_refused_setup_line_leaves_no_save(tmp_path):
    path = tmp_path / "bn.ft"
    rosters = {"regulars": "bersaglieri", "irregulars": "militia"}
    try:
        start_game(path, "breaking-news", "", "open", 3, rosters, setup=["mission 3"])
    except Refused as e:
        assert str(e).startswith("mission 3: mission 3 is Special Forces")
    else:
        raise AssertionError("mission 3 without Special Forces was taken")
    assert not path.exists()
    game = start_game(path, "breaking-news", "", "open", 3, rosters, setup=["option wounded on"])
    assert game.state.vars["option.wounded"] == 1
    game.close()


async def test_any_ruleset_offers_its_choices_in_each_shape(game, tmp_path):
    """The test ruleset's made-up choices: a single one, a multiple one, one per side."""
    async with piloted(game, SMALL) as (app, pilot):
        await app.push_screen(NewGameScreen(saves=tmp_path / "saves", ruleset=Skirmish.id))
        screen = app.screen
        await _until(pilot, lambda: screen.choices)  # the scenario's fields are built after the screen
        assert [widget_id for _, _, widget_id in screen.choices] == [
            "setup-weather",
            "setup-wounded",
            "setup-stake-blue",
            "setup-stake-red",
        ]
        assert screen.setup_lines() == []  # every choice at its default
        screen.query_one("#setup-weather", Select).value = "dust"
        screen.query_one("#setup-wounded", SelectionList).select("diaz")
        screen.query_one("#setup-stake-red", Select).value = "5"
        await settled(pilot)
        assert "weather: dust" in str(screen.query_one("#setup-preview").content)
        await press(pilot, "ctrl+s")
        await _until(pilot, lambda: isinstance(app.screen, GameScreen))
        state = app.game.state
        assert state.units["diaz"].has("wounded") and not state.units["cole"].has("wounded")
        assert (state.sides["red"].defeat_points, state.sides["blue"].defeat_points) == (5, 0)
        assert "note: weather: dust" in [line.text for line in app.game.log_lines("referee")]
        # a scenario without choices shows none
        await app.push_screen(NewGameScreen(saves=tmp_path / "saves", ruleset=Skirmish.id))
        await _until(pilot, lambda: app.screen.choices)
        app.screen.query_one("#scenario", Select).value = "open"
        await _until(pilot, lambda: not app.screen.choices)
        assert app.screen.choices == [] and not app.screen.query_one("#setup-preview").display


async def test_the_variant_is_offered_in_words_never_by_its_id(tmp_path):
    """#48: Breaking News' variants read "standard" and "Italian draft of 9 December 2009"."""
    app = _bn_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await press(pilot, "ctrl+n")
        screen = screen_of(app, NewGameScreen)
        variant = screen.query_one("#variant", Select)
        await _until(pilot, lambda: len(variant._options) > 1)
        labels = [str(label) for label, _value in variant._options if _value != Select.BLANK]
        assert labels == ["standard", "Italian draft of 9 December 2009"]


async def test_the_rulesets_are_listed_by_their_names_in_the_readers_language(tmp_path):
    """#61: the Italian New game list said "Ludonet quick skirmish" (ruling I18N-LUDONET-NAME)."""
    with reading("it"):
        app = _bn_app(tmp_path)
        async with app.run_test(size=SMALL) as pilot:
            await press(pilot, "ctrl+n")
            rulesets = app.screen.query_one("#ruleset", Select)
            await _until(pilot, lambda: len(rulesets._options) > 1)
            labels = [str(label) for label, _value in rulesets._options if _value != Select.BLANK]
    assert "Ludonet, regole rapide" in labels and "Linea di Tiro" in labels
    assert not [label for label in labels if "skirmish" in label]
