"""New game, load game, help, the command palette, the real demo, and a big game."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from skirmish import Skirmish, game_fixture, patrol_game  # noqa: F401  (a fixture)
from textual.widgets import Static
from waiting import piloted, press, screen_of, settled, type_text, until

from core.game import Game
from core.log.views import REFEREE, SPECTATOR
from core.registry import get_ruleset
from tui.app import FireteamApp, new_demo_game
from tui.bench.engine import generate_save
from tui.palette import GameCommands
from tui.panes.log import LogView
from tui.panes.phase import PhasePane
from tui.panes.roster import RosterPane
from tui.screens.game import GameScreen
from tui.screens.help import HelpScreen
from tui.screens.loadgame import LoadGameScreen, summarise
from tui.screens.newgame import NewGameScreen, shipped_rosters, start_game, takes_rosters

SIZE = (100, 30)


@pytest.mark.long
async def test_new_game_screen_starts_the_chosen_scenario(game, tmp_path):
    saves = tmp_path / "saves"
    async with piloted(game) as (app, pilot):
        await press(pilot, "ctrl+n")
        screen = screen_of(app, NewGameScreen)
        screen.saves = saves
        screen.query_one("#ruleset").value = Skirmish.id
        await settled(pilot)
        assert screen.query_one("#scenario").value == "patrol"
        assert screen.query_one("#save-name").value.startswith("tui-skirmish-patrol-")
        screen.query_one("#save-name").value = "mine"
        screen.query_one("#seed").value = "11"
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, GameScreen) and app.screen.game is app.game
        assert app.game is not game and app.game.path == saves / "mine.ft"
        assert app.game.header.seed == 11 and app.game.state.scenario == "Patrol at the well"
        assert app.game.state.phase == "deployment"
        # the old game is the caller's; the new one is the app's to close
        assert game.writer is not None and app.owns_game


def test_start_game_refuses_to_overwrite(tmp_path):
    patrol_game(tmp_path / "taken.ft").close()
    try:
        start_game(tmp_path / "taken.ft", Skirmish.id, "", "patrol", 1)
    except Exception as e:  # Refused
        assert "already exists" in str(e)
    else:
        raise AssertionError("overwrote a save")


@pytest.mark.long
async def test_load_game_lists_saves_with_summaries_and_flags_corrupt_ones(game, tmp_path):
    saves = tmp_path / "saves"
    saves.mkdir()
    patrol_game(saves / "good.ft", commands=("next", "next")).close()
    (saves / "broken.ft").write_text("garbage\n")
    assert "corrupt save" in summarise(saves / "broken.ft").text
    good = summarise(saves / "good.ft")
    assert good.ok and "Patrol at the well: Blue Patrol vs Red Cell" in good.text and "turn 1, Activation" in good.text
    async with piloted(game) as (app, pilot):
        await app.push_screen(LoadGameScreen(saves=saves))
        await settled(pilot)
        screen = app.screen
        assert set(screen.summaries) == {saves / "good.ft", saves / "broken.ft"}
        index = screen.paths.index(saves / "broken.ft")
        screen.query_one("OptionList").highlighted = index
        await press(pilot, "enter")
        assert isinstance(app.screen, LoadGameScreen)  # a corrupt save is not opened
        screen.query_one("OptionList").highlighted = screen.paths.index(saves / "good.ft")
        await press(pilot, "r")
        assert isinstance(app.screen, GameScreen) and app.screen.replay
        assert app.game.path == saves / "good.ft" and app.game.writer is None


@pytest.mark.long
async def test_help_lists_every_key_and_command(game):
    async with piloted(game) as (app, pilot):
        await press(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        console = Console(width=100, record=True, file=io.StringIO())
        for static in app.screen.query(Static):
            console.print(static.content)
        text = console.export_text()
        for spec in game.commands:
            assert spec.name in text
        for words in ("Undo", "Table dice", "Search", "Filter", "Complete", "Details"):
            assert words in text
        assert "Next event" not in text  # replay keys only in replay
        await press(pilot, "escape")
        assert isinstance(app.screen, GameScreen)


@pytest.mark.long
async def test_help_with_a_word_opens_on_that_command(game):
    """``help COMMAND`` on the command line, as the line client takes it: the help opens with the
    word searched and the command's own entry shown, though the keys above it mention the word."""
    from tui.commandline import CommandInput
    from tui.screens.help import HelpEntry

    spec = game.commands[-1]  # the last command: far below the keys and the other commands
    async with piloted(game, settle=True) as (app, pilot):
        app.screen.query_one(CommandInput).value = f"help {spec.name}"
        await press(pilot, "enter")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen) and app.screen.current >= 0, "the help's match")
        help_screen = app.screen
        assert help_screen.query_one("#help-search").value == spec.name
        shown = help_screen.matches[help_screen.current]
        assert isinstance(shown, HelpEntry) and spec.name in shown.names
        assert shown.has_class("-current")
        await press(pilot, "escape")
        assert isinstance(app.screen, GameScreen)
        assert app.game.timeline.length == game.timeline.length  # nothing was given as a command


async def test_palette_offers_every_game_command(game):
    async with piloted(game, settle=True) as (app, pilot):
        provider = GameCommands(app.screen)
        names = [hit.text async for hit in provider.discover()]
        assert {s.name for s in game.commands} <= set(names)
        assert "Undo" in names and "Next event" not in names
        hits = [hit async for hit in provider.search("mark")]
        assert hits and str(hits[0].match_display) == "mark"


async def test_the_real_demo_opens(tmp_path):
    game = new_demo_game(tmp_path / "saves")
    assert game.path.parent == tmp_path / "saves" and game.path.name.startswith("demo-")
    async with piloted(game, (80, 24), settle=True) as (app, pilot):
        keys = app.screen.query_one(RosterPane).view.item_keys()
        assert len([key for key in keys if key[0] == "side"]) == len(game.state.sides) == 2
    game.close()


@pytest.mark.long
async def test_a_big_game_only_fetches_what_is_on_screen(tmp_path):
    path = tmp_path / "big.ft"
    generate_save(path, 20_000)
    game = Game.open(path, writable=False)
    async with piloted(game, replay=True) as (app, pilot):
        log = app.screen.query_one(LogView)
        assert log.rows == game.log_length
        assert len(log._cache) <= 200
        await press(pilot, "less_than_sign")
        await press(pilot, "right", "right", "right")
        assert app.screen.vp.step == 3
        await press(pilot, "greater_than_sign")
        await press(pilot, "home")
        assert log.cursor == 0 and len(log._cache) <= 400
    side = FireteamApp(game, role="regulars", replay=True)
    async with side.run_test(size=SIZE):
        assert side.screen.query_one(LogView).rows == len(game.log_lines("regulars"))


@pytest.mark.long
async def test_new_game_fields_rosters_with_the_rulesets_points_check(game, tmp_path):
    saves = tmp_path / "saves"
    async with piloted(game) as (app, pilot):
        await press(pilot, "ctrl+n")
        screen = app.screen
        screen.saves = saves
        screen.query_one("#scenario").value = "open"
        await settled(pilot)
        assert set(screen.rosters()) == {"blue", "red"}
        screen.query_one("#save-name").value = "open.ft"
        screen.query_one("#roster-blue").value = "scouts"
        screen.query_one("#roster-red").value = "horde"
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, NewGameScreen)  # refused: nothing started, no save left
        assert "roster for red: 200 points is 100 over the limit of 100" in str(screen.query_one("#new-error").content)
        assert not (saves / "open.ft").exists()
        screen.query_one("#roster-red").value = ""
        await press(pilot, "ctrl+s")
        assert isinstance(app.screen, GameScreen)
        assert sorted(app.game.state.units) == ["blue-cole", "blue-diaz", "blue-park"]


def test_breaking_news_open_scenario_from_shipped_rosters(tmp_path):
    bn = get_ruleset("breaking-news")
    assert takes_rosters(bn, "open") and not takes_rosters(bn, "demo")
    assert {"bersaglieri", "militia"} <= set(shipped_rosters(bn))
    game = start_game(
        tmp_path / "bn.ft", "breaking-news", "", "open", 3, {"regulars": "bersaglieri", "irregulars": "militia"}
    )
    assert {u.side for u in game.state.units.values()} == {"regulars", "irregulars"}
    game.close()


def _screen_text(screen) -> str:
    console = Console(width=120, record=True, file=io.StringIO())
    for static in screen.query(Static):
        console.print(static.content)
    return console.export_text()


@pytest.mark.long
async def test_the_rules_screen_opens_from_the_help_and_finds_a_rule(tmp_path):
    """F1 then F2: every rule of Breaking News with its status; typing an id narrows the list to
    it; Tab steps the status shown; Esc goes back to the help (#27)."""
    from tui.screens.rules import RulesScreen

    game = new_demo_game(tmp_path / "saves")
    rmap = game.ruleset.rules_map()
    assert rmap is not None
    async with piloted(game, (120, 40)) as (app, pilot):
        await press(pilot, "f1")
        await press(pilot, "f2")
        assert isinstance(app.screen, RulesScreen)
        text = _screen_text(app.screen)
        assert f"all {len(rmap.rules)}" in text and f"enforced {rmap.counts()['enforced']}" in text
        assert "§8.0" in text and "FIRE-5" in text
        await type_text(pilot, "DIFF-41")
        # Drawn once the typing pauses (``SEARCH_PAUSE_S``), not at each key.
        await until(pilot, lambda: "1 shown" in _screen_text(app.screen), "the rule typed")
        text = _screen_text(app.screen)
        assert "1 shown" in text and "variant Italian draft of 9 December 2009" in text and "FIRE-5" not in text
        assert "Suppressed figures cannot react" in text  # its title
        await press(pilot, "ctrl+a", "ctrl+k")  # clear the search
        await type_text(pilot, "", "tab", "tab")  # all → enforced → partial
        text = _screen_text(app.screen)
        assert f"{rmap.counts()['partial']} shown" in text and "BLD-4" in text and "left to the referee" in text
        await type_text(pilot, "", "tab", "tab")  # → ruling → variant
        text = _screen_text(app.screen)
        assert f"{rmap.counts()['variant']} shown" in text and "it applies in the variant named" in text
        assert "DIFF-24" in text and "FIRE-5" not in text
        await press(pilot, "escape")
        assert isinstance(app.screen, HelpScreen)
    game.close()


@pytest.mark.long  # the rules screen draws the whole rules map at each pause (3 s of CPU)
async def test_the_rules_search_draws_the_list_when_the_typing_pauses_not_at_each_key(tmp_path, monkeypatch):
    """Breaking News' map takes a third of a second to draw: keys typed in a row wait for none of it."""
    import tui.screens.rules as rules
    from tui.screens.rules import RulesScreen

    monkeypatch.setattr(rules, "SEARCH_PAUSE_S", 600.0)  # a pause that never comes while the test types
    game = new_demo_game(tmp_path / "saves")
    async with piloted(game, (120, 40)) as (app, pilot):
        await press(pilot, "f1", "f2")
        assert isinstance(app.screen, RulesScreen)
        drawn: list[str] = []
        monkeypatch.setattr(RulesScreen, "show", lambda screen: drawn.append(screen.query_one("#rules-search").value))
        for key in "DIFF-4":
            await press(pilot, key if key != "-" else "minus")
        await settled(pilot)
        assert drawn == [] and app.screen.query_one("#rules-search").value == "DIFF-4"
        monkeypatch.setattr(rules, "SEARCH_PAUSE_S", 0.01)  # the last key, then the pause
        await press(pilot, "1")
        await until(pilot, lambda: bool(drawn), "the list drawn")
        await settled(pilot)
        assert drawn == ["DIFF-41"]  # once, for all that was typed
    game.close()


async def test_a_spectators_watching_screen_shows_a_new_title_without_a_command_line(tmp_path):
    """The screen a spectator only watches has no command line: a title that changes under it
    (a scenario set up while it watches) is shown, the prompt of a command line it lacks left alone."""
    game = Game.new(tmp_path / "watched.ft", Skirmish.id, seed=1, clock=lambda: 0)
    async with piloted(game, role=SPECTATOR, watching=True) as (app, pilot):
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the watching screen")
        game.execute("scenario patrol", role=REFEREE)
        titled = lambda: "Patrol at the well" in str(app.screen.query_one(PhasePane).border_title)  # noqa: E731
        await until(pilot, titled, "the title")
        assert app.return_code is None and isinstance(app.screen, GameScreen)
