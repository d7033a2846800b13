"""``fireteam`` with no save opens the start screen (issue #26): the last games to
resume or replay, a new game, a file to open, the demo game; keyboard first."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from skirmish import patrol_game
from textual.widgets import OptionList
from waiting import piloted, press, settled

from tui.app import FireteamApp
from tui.i18n import scenario_words
from tui.screens.dialogs import AskScreen
from tui.screens.game import GameScreen
from tui.screens.newgame import NewGameScreen
from tui.screens.start import StartScreen
from tui.userdata import UserStore

pytestmark = pytest.mark.long


def saved(path: Path, when: int) -> Path:
    patrol_game(path).close()
    os.utime(path, (when, when))
    return path.resolve()


def prompts(screen: StartScreen) -> list[str]:
    options = screen.query_one(OptionList)
    return [options.get_option_at_index(i).prompt.plain for i in range(options.option_count)]


async def started(app: FireteamApp, pilot) -> StartScreen:
    await settled(pilot)
    await settled(pilot)
    assert isinstance(app.screen, StartScreen)
    return app.screen


@pytest.fixture
def store(tmp_path, monkeypatch) -> UserStore:
    monkeypatch.setenv("FIRETEAM_DATA_DIR", str(tmp_path))  # saves/ is the data folder's (core.folders)
    return UserStore(tmp_path / "config", tmp_path / "data")


async def test_the_last_games_come_first_and_a_corrupt_one_is_marked_not_opened(tmp_path, store):
    (tmp_path / "saves").mkdir()
    (tmp_path / "club").mkdir()
    away = saved(tmp_path / "club" / "away.ft", 4_000)  # known from its command history only
    store.save_history(away, ["next"])
    broken = tmp_path / "saves" / "broken.ft"
    broken.write_text("garbage\n")
    os.utime(broken, (3_000, 3_000))
    good = saved(tmp_path / "saves" / "good.ft", 2_000)
    markup = saved(tmp_path / "saves" / "[bold]loud.ft", 1_000)
    gone = saved(tmp_path / "saves" / "gone.ft", 5_000)
    store.save_history(gone, ["next"])
    gone.unlink()  # a history whose save was deleted names nothing
    async with piloted(None, store=store, start=True) as (app, pilot):
        screen = await started(app, pilot)
        assert screen.paths == [away, broken.resolve(), good, markup]
        shown = prompts(screen)
        assert shown[0].startswith("away.ft") and str(away.parent) in shown[0]
        assert "corrupt" in shown[1] and "corrupt" not in shown[2]
        assert shown[3].startswith("[bold]loud.ft")  # the name as text, never markup
        screen.query_one(OptionList).highlighted = 1
        await press(pilot, "enter")
        assert app.screen is screen and app.game is None  # never loaded
        screen.query_one(OptionList).highlighted = 0
        await press(pilot, "enter")
        assert isinstance(app.screen, GameScreen) and not app.screen.replay
        assert app.game.path.resolve() == away and app.game.writable


async def test_r_replays_the_game_under_the_cursor(tmp_path, store):
    (tmp_path / "saves").mkdir()
    good = saved(tmp_path / "saves" / "good.ft", 2_000)
    async with piloted(None, store=store, start=True) as (app, pilot):
        await started(app, pilot)
        await press(pilot, "r")
        assert isinstance(app.screen, GameScreen) and app.screen.replay
        assert app.game.path.resolve() == good and not app.game.writable


async def test_with_an_empty_data_folder_d_plays_the_demo_game(tmp_path, store):
    async with piloted(None, store=store, start=True) as (app, pilot):
        screen = await started(app, pilot)
        assert screen.paths == []
        assert "No games yet" in str(screen.query_one("#save-summary").render())
        await press(pilot, "d")
        assert isinstance(app.screen, GameScreen)
        assert app.game.path.parent.resolve() == (tmp_path / "saves").resolve()
        assert app.game.path.name.startswith("demo-") and app.game.state.scenario


async def test_o_opens_a_file_by_its_path_and_n_offers_a_new_game(tmp_path, store):
    other = saved(tmp_path / "elsewhere.ft", 1_000)
    async with piloted(None, store=store, start=True) as (app, pilot):
        screen = await started(app, pilot)
        await press(pilot, "n")
        assert isinstance(app.screen, NewGameScreen)
        await press(pilot, "escape")
        assert app.screen is screen
        await press(pilot, "o")
        assert isinstance(app.screen, AskScreen)
        await press(pilot, *"nowhere.ft", "enter")  # no such save: said, and nothing opened
        assert app.screen is screen and app.game is None
        await press(pilot, "o")
        app.screen.query_one("Input").value = str(other)
        await press(pilot, "enter")
        assert isinstance(app.screen, GameScreen) and app.game.path.resolve() == other


async def test_q_quits_from_the_start_screen(store):
    async with piloted(None, store=store, start=True) as (app, pilot):
        await started(app, pilot)
        await press(pilot, "q")
    assert app.return_code == 0


async def test_the_games_in_the_data_folder_are_listed_too(tmp_path, store):
    # fireteam --plain and --demo make a new game there (core.folders), as every front does.
    from core import folders

    folders.saves().mkdir(parents=True, exist_ok=True)
    plain_one = saved(folders.saves() / "demo-plain.ft", 2_000)
    async with piloted(None, store=store, start=True) as (app, pilot):
        screen = await started(app, pilot)
        assert screen.paths == [plain_one]
        assert "No games yet" not in str(screen.query_one("#save-summary").render())


#: Issue #77: under --lang it the first screen still showed a built-in scenario's English words
#: ("the", "truck", "convoy").  What the New game list and the roster of each ruleset's
#: scenario show in Italian, exactly: its title, its sides, and its pieces (a piece named in
#: words reads in Italian, a person by his name and rank as the file writes them).
FIRST_SCREEN_IT = {
    ("bassa-intensita", "convoy"): (
        "Convoglio notturno a Jowhar",
        ["Convoglio italiano", "Milizia della strada"],
        ["Autoblindo Puma", "Autocarro ACM 90", "Sgt Gatti", "Cpl Pinna", "Pte Russo", "Abdi il mitragliere"],
    ),
    ("linea-di-tiro", "breakout"): (
        "Sfondamento nel bocage",
        ["Combat Command B", "Panzer-Lehr"],
        ["Sherman Baker 1", "Mezza squadra fucilieri", "Panther 312", "Pak 40 dietro la siepe", "Panzergrenadier"],
    ),
    ("breaking-news", "demo"): (
        "Posto di blocco ad Afgooye",
        ["Reparto Bersaglieri", "Milizia somala"],
        ["Sgt Rossi", "Lia Lupo (stampa)", "Venditore del mercato", "Portatore d'acqua"],
    ),
    ("ludonet", "tanks"): (
        "Carri a Cagny",
        ["Fife and Forfar Yeomanry", "Kampfgruppe von Luck"],
        ["Sherman Firefly", "Tpr Hale, pilota", "Pte Kerr, PIAT", "Squadra MG 34", "Gefr Roth"],
    ),
}


@pytest.mark.parametrize(("ruleset", "scenario"), list(FIRST_SCREEN_IT), ids=[f"{r}/{s}" for r, s in FIRST_SCREEN_IT])
def test_the_first_screen_of_each_ruleset_reads_its_scenario_in_italian(tmp_path, ruleset, scenario):
    from core.game import Game
    from core.language.reader import reading
    from core.log.views import REFEREE
    from core.registry import get_ruleset
    from tui.gamestart import scenario_choices
    from tui.panes.roster import unit_label

    title, sides, pieces = FIRST_SCREEN_IT[ruleset, scenario]
    rules = get_ruleset(ruleset)
    game = Game.new(tmp_path / "g.ft", ruleset, seed=1)
    try:
        game.execute(f"scenario {scenario}", role=REFEREE)
        with reading("it"):
            assert [label for label, value in scenario_choices(rules) if value == scenario] == [title]
            assert [scenario_words(s.name) for s in game.state.sides.values()] == sides
            units = game.state.units

            def named(status: str) -> str:  # as the roster names a piece a badge holds
                return rules.status_words(status, lambda uid: scenario_words(units[uid].name))

            shown = [unit_label(u, rules.domain, named).plain for u in units.values()]
        for piece in pieces:
            assert any(line.startswith(piece + " ") or line == piece for line in shown), (piece, shown)
        english = " ".join(shown)
        for word in ("the", "truck", "convoy", "armoured", "gunner", "half-squad", "behind", "hedge", "press"):
            assert f" {word} " not in f" {english} ", word
    finally:
        game.close()


def test_a_users_file_is_listed_in_the_italian_it_gives_and_in_its_own_words_without(tmp_path, monkeypatch):
    """A scenario file in two languages (docs/scenarios.md, Languages) is offered by its Italian
    title under --lang it; one with only English falls back to its own words."""
    from core.language.reader import reading
    from core.registry import get_ruleset
    from tui.gamestart import scenario_choices

    monkeypatch.setenv("FIRETEAM_DATA_DIR", str(tmp_path))
    own = tmp_path / "scenarios" / "breaking-news"
    own.mkdir(parents=True)
    demo = (Path(__file__).resolve().parents[2] / "core/rulesets/breaking_news/scenarios/demo.toml").read_text()
    balad = demo.replace('title = "Checkpoint at Afgooye"', 'title = "Checkpoint at Balad"').replace(
        'id = "demo"', 'id = "balad"'
    )
    (own / "balad.toml").write_text(balad + '\n[translations.it]\n"Checkpoint at Balad" = "Posto di blocco a Balad"\n')
    (own / "plain.toml").write_text(balad.replace("Balad", "Jowhar").replace('id = "balad"', 'id = "jowhar"'))
    with reading("it"):
        mine = [label for label, value in scenario_choices(get_ruleset("breaking-news")) if value.startswith(str(own))]
    assert sorted(label.split(" · ")[0] for label in mine) == ["Checkpoint at Jowhar", "Posto di blocco a Balad"]
