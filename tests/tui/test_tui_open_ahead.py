"""A big save's first open starts before the client's app (``tui.opening.OpenAhead``),
shows a progress bar only if it outlasts ``tui.app.PROGRESS_AFTER_S``, and writes its
open-cache entry once the game is shown (``Game.open(..., cache_later=True)``)."""

from __future__ import annotations

import asyncio
import threading

import pytest
from skirmish import game_fixture  # noqa: F401  (a fixture)
from waiting import piloted, settled, until

import tui.app
from core.game import Game
from core.log.views import REFEREE
from core.storage.errors import SaveError
from core.storage.opencache import OpenCache
from tui.app import FireteamApp
from tui.opening import OpenAhead, open_or_follow
from tui.screens.game import GameScreen

SIZE = (100, 30)
PATIENCE_S = 60.0


def _loading_screens(monkeypatch) -> list[object]:
    """Every loading screen the app makes, from now on."""
    from tui.screens.loading import LoadingScreen

    made: list[object] = []
    init = LoadingScreen.__init__

    def counted(self, name: str) -> None:
        made.append(self)
        init(self, name)

    monkeypatch.setattr(LoadingScreen, "__init__", counted)
    return made


def test_the_open_tells_where_it_stands_when_asked_then_as_it_goes_on():
    asked, go_on = threading.Event(), threading.Event()

    def open(progress):
        progress(1, 10)  # before anyone asks: kept, and told when asked
        asked.wait(PATIENCE_S)
        progress(10, 10)
        go_on.wait(PATIENCE_S)
        return "the game", "who"

    told: list[tuple[int, int]] = []
    ahead = OpenAhead(open)
    assert not ahead.wait(0.01)
    result: list[object] = []
    caller = threading.Thread(target=lambda: result.append(ahead(lambda d, t: (told.append((d, t)), asked.set()))))
    caller.start()
    asked.wait(PATIENCE_S)
    go_on.set()
    caller.join(PATIENCE_S)
    assert ahead.wait(0)
    assert result == [("the game", "who")]
    assert told == [(1, 10), (10, 10)]


def test_what_the_open_raised_is_raised_to_the_caller():
    def open(progress):
        raise SaveError("bad.ft: line 1: not a save")

    ahead = OpenAhead(open)
    assert ahead.wait(PATIENCE_S)
    with pytest.raises(SaveError, match="not a save"):
        ahead(lambda d, t: None)


async def test_an_open_that_ends_soon_shows_the_game_without_a_progress_bar(game, monkeypatch):
    made = _loading_screens(monkeypatch)
    monkeypatch.setattr(tui.app, "PROGRESS_AFTER_S", PATIENCE_S)
    path = game.path
    game.close()
    app = FireteamApp(
        None, role=REFEREE, opener=OpenAhead(lambda progress: open_or_follow(path, False, progress)), opening=path.name
    )
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
        assert app.game is not None and app.game.path == path and app.owns_game
        assert made == []
        # The game screen is the app's first, as a game given to the app is: no blank one under it.
        assert app.screen_stack == [app.screen]


async def test_an_open_that_takes_longer_shows_the_progress_bar_until_it_ends(game, monkeypatch):
    from tui.screens.loading import LoadingScreen

    made = _loading_screens(monkeypatch)
    monkeypatch.setattr(tui.app, "PROGRESS_AFTER_S", 0.05)
    path = game.path
    game.close()
    go_on = threading.Event()

    def opener(progress):
        assert go_on.wait(PATIENCE_S)
        return open_or_follow(path, False, progress)

    app = FireteamApp(None, role=REFEREE, opener=OpenAhead(opener), opening=path.name)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LoadingScreen), "the loading screen")
            go_on.set()
            # Mounted, not only pushed: a test that ended as the screen was pushed closed the app
            # before its panes were composed ("No nodes match 'LogPane'" under load).
            await until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.mounted.is_set(), "the game")
            assert len(made) == 1 and len(app.screen_stack) == 2
    finally:
        go_on.set()


async def test_a_save_that_fails_soon_says_why_without_a_progress_bar(tmp_path, monkeypatch):
    made = _loading_screens(monkeypatch)
    monkeypatch.setattr(tui.app, "PROGRESS_AFTER_S", PATIENCE_S)
    bad = tmp_path / "bad.ft"
    bad.write_text("this is not a save\n")
    async with piloted(None, opener=OpenAhead(lambda progress: open_or_follow(bad, False, progress))) as (app, pilot):
        await until(pilot, lambda: bool(app.load_error), "the reason")
    assert app.return_code == 2 and "cannot open the save" in app.load_error
    assert made == []


def _entries(cache: OpenCache) -> list[str]:
    return sorted(p.name for p in cache.folder.glob("*.open")) if cache.folder.exists() else []


def test_an_entry_left_for_later_is_written_by_keep_cache_once(game, tmp_path):
    path = game.path
    game.close()
    cache = OpenCache(tmp_path / "open")
    opened = Game.open(path, writable=False, cache=cache, cache_later=True)
    assert _entries(cache) == [] and opened.cache_mark is None  # nothing written as it opened
    opened.keep_cache()
    assert len(_entries(cache)) == 1 and opened.cache_mark is not None
    written = cache.path_of(path.read_bytes().split(b"\n", 1)[0]).read_bytes()
    opened.keep_cache()  # once
    assert cache.path_of(path.read_bytes().split(b"\n", 1)[0]).read_bytes() == written
    again = Game.open(path, writable=False, cache=cache, cached_only=True)  # restored from it
    assert again.log_length == opened.log_length


def test_no_entry_is_left_for_a_game_that_changed_before_it_was_kept(game, tmp_path):
    path = game.path
    game.close()
    cache = OpenCache(tmp_path / "open")
    opened = Game.open(path, cache=cache, cache_later=True)
    try:
        opened.execute("note before the entry", role=REFEREE)
        opened.keep_cache()
        assert _entries(cache) == [] and opened.cache_mark is None
    finally:
        opened.close()


async def test_the_client_writes_the_entry_once_the_game_is_shown(game, tmp_path, monkeypatch):
    path = game.path
    game.close()
    cache = OpenCache(tmp_path / "open")
    shown: list[list[str]] = []
    start = FireteamApp._start

    async def starting(self):
        await start(self)
        shown.append(_entries(cache))  # the game screen is pushed, its first frame not drawn yet

    monkeypatch.setattr(FireteamApp, "_start", starting)
    opened = Game.open(path, writable=False, cache=cache, cache_later=True)
    app = FireteamApp(opened, role=REFEREE, replay=True)
    app.owns_game = True
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: bool(_entries(cache)), "the entry")
    assert shown == [[]]


async def test_a_client_closed_as_it_starts_still_writes_the_entry(game, tmp_path, monkeypatch):
    # Quit as the game appears (or, in the bench, at the first frame): the load's work is
    # kept all the same, and the next open of the save is quick.
    path = game.path
    game.close()
    cache = OpenCache(tmp_path / "open")
    original = GameScreen.compose

    def quitting_as_it_appears(self):
        self.app.exit()
        return original(self)

    monkeypatch.setattr(GameScreen, "compose", quitting_as_it_appears)
    opened = Game.open(path, writable=False, cache=cache, cache_later=True)
    app = FireteamApp(opened, role=REFEREE, replay=True)
    app.owns_game = True
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
    assert app.return_code == 0
    assert len(_entries(cache)) == 1


@pytest.mark.parametrize("opened_by_the_app", [False, True], ids=["given", "opened"])
async def test_an_error_while_the_game_screen_mounts_ends_the_app_with_it_instead_of_hanging(
    game, monkeypatch, opened_by_the_app
):
    """The app's start waited for the first frame of a screen whose mount had raised, which never came: the
    app hung (seen with a seat's corrupted open data); it ends with the error, which Textual reports."""

    def broken(screen: GameScreen) -> None:
        raise RuntimeError("a pane that cannot be drawn")

    monkeypatch.setattr(GameScreen, "_mount", broken)
    if opened_by_the_app:
        path = game.path
        game.close()
        app = FireteamApp(None, role=REFEREE, opener=OpenAhead(lambda progress: open_or_follow(path, False, progress)))
    else:
        app = FireteamApp(game, role=REFEREE)
    with pytest.raises(RuntimeError, match="a pane that cannot be drawn"):
        async with asyncio.timeout(PATIENCE_S):  # a last guard: it hung for good
            async with app.run_test(size=SIZE):
                pass
    assert app.return_code == 1
