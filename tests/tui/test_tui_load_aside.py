"""A big save's first load runs in a process of its own, forked before Textual is
imported (``tui.loadaside.LoadAside``): it writes the save's open-cache entry, the client
restores the game from it, and whatever goes wrong there, the client opens the save
itself, as before."""

from __future__ import annotations

import os
import time

import pytest
from skirmish import game_fixture  # noqa: F401  (a fixture)
from waiting import until

import tui.loadaside
from core.cachedir import CACHE_DIR_ENV
from core.game import Game
from core.storage import opencache
from core.storage.opencache import OpenCache
from core.storage.savefile import SaveError
from tui.app import FireteamApp
from tui.loadaside import LoadAside
from tui.opening import OpenAhead, open_or_follow
from tui.screens.game import GameScreen

SIZE = (100, 30)


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    """A cache folder of the test's own: the fixture's saves share their header line, so their entry."""
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / "cache"))


@pytest.fixture(name="big")
def big_fixture(monkeypatch):
    """Every save counts as big (over ``LOAD_IN_APP_BYTES``)."""
    monkeypatch.setattr(tui.loadaside, "LOAD_IN_APP_BYTES", 0)


def _entry(path) -> os.PathLike:
    return OpenCache.users().path_of(path.read_bytes().split(b"\n", 1)[0])


def _restores(monkeypatch) -> list[bool]:
    """For every open with the cache from now on (in this process): whether the cache held the save."""
    found: list[bool] = []
    opening = OpenCache.opening

    def told(self, path):
        result = opening(self, path)
        found.append(result is not None and result.hit is not None)
        return result

    monkeypatch.setattr(OpenCache, "opening", told)
    return found


def _reads(monkeypatch) -> list[int]:
    """The sizes of the saves an open with the cache read itself from now on (not read ahead)."""
    sizes: list[int] = []
    start = opencache._Reading.__init__

    def told(self, f, size):
        sizes.append(size)
        start(self, f, size)

    monkeypatch.setattr(opencache._Reading, "__init__", told)
    return sizes


def test_the_load_aside_writes_the_entry_the_client_restores_the_game_from(game, big, monkeypatch):
    path, length, state = game.path, game.log_length, game.state
    game.close()
    aside = LoadAside.start(path)
    assert aside is not None and aside.pid != os.getpid()
    told: list[tuple[int, int]] = []
    assert aside.wait(lambda done, total: told.append((done, total)))
    assert told and told[-1] == (path.stat().st_size, path.stat().st_size)  # its load, told as it went
    assert os.path.exists(_entry(path))
    restored, reads = _restores(monkeypatch), _reads(monkeypatch)
    opened, locked_by = open_or_follow(path, False, cache=OpenCache.users(), cached_only=True)
    try:
        assert restored == [True] and locked_by == ""
        assert opened.log_length == length and opened.state == state
        assert reads == []  # the client read the save ahead, as the child loaded it
    finally:
        opened.close()
        aside.stop()
    assert aside._reap(block=False) is not None  # reaped: no child left behind


def test_no_load_aside_for_a_save_the_client_opens_before_it_starts_or_whose_entry_is_there(game, monkeypatch):
    path = game.path
    game.close()
    assert LoadAside.start(path) is None  # under LOAD_IN_APP_BYTES: opened before the app
    assert LoadAside.start(None) is None
    monkeypatch.setattr(tui.loadaside, "LOAD_IN_APP_BYTES", 0)
    Game.open(path, writable=False, cache=OpenCache.users()).close()  # writes the entry
    assert os.path.exists(_entry(path))
    reads = _reads(monkeypatch)
    assert LoadAside.start(path) is None  # the entry is tried first, in the client
    Game.open(path, writable=False, cache=OpenCache.users()).close()
    assert reads == []  # from the bytes read ahead as the client started


def test_a_save_the_load_aside_cannot_load_is_opened_and_refused_by_the_client_as_before(tmp_path, big):
    bad = tmp_path / "bad.ft"
    bad.write_text("this is not a save\n")
    aside = LoadAside.start(bad)
    assert aside is not None
    assert not aside.wait(lambda done, total: None)
    with pytest.raises(SaveError):
        aside.then(lambda progress: open_or_follow(bad, False, progress, cache=OpenCache.users()))(lambda d, t: None)
    aside.stop()


def test_a_client_that_quits_before_the_load_aside_ends_ends_it(game, big, monkeypatch):
    path = game.path
    game.close()
    # The child is a copy of this process: its load never ends.
    monkeypatch.setattr(Game, "open", lambda *a, **k: time.sleep(3600))
    aside = LoadAside.start(path)
    assert aside is not None
    assert aside._reap(block=False) is None  # still loading
    aside.stop()
    assert aside._reap(block=False) is not None
    assert not os.path.exists(_entry(path))
    # The open waiting for it (OpenAhead's thread) gives up: the save is not loaded again for a client gone.
    with pytest.raises(LoadAside.Stopped):
        aside.then(lambda progress: pytest.fail("loaded again"))(lambda done, total: None)


async def test_the_client_shows_the_game_restored_from_what_the_load_aside_wrote(game, big, monkeypatch):
    path, length = game.path, game.log_length
    game.close()
    aside = LoadAside.start(path)
    assert aside is not None
    restored = _restores(monkeypatch)
    open = aside.then(lambda progress: open_or_follow(path, False, progress, cache=OpenCache.users(), cache_later=True))
    app = FireteamApp(None, opener=OpenAhead(open), opening=path.name)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")
            assert app.game is not None and app.game.log_length == length and app.owns_game
            assert restored == [True]  # not loaded again in the client
    finally:
        aside.stop()


@pytest.mark.parametrize(
    ("argv", "forked"),
    [
        (["SAVE"], True),
        (["--lang", "it", "SAVE"], True),
        (["--as=red", "--replay", "SAVE", "--demo"], True),
        (["--as", "red", "SAVE"], True),
        (["--plain", "SAVE"], False),  # the line client: no app to restore it in
        (["log", "SAVE"], False),  # a headless command
        (["SAVE", "OTHER"], False),
        (["--help"], False),
        ([], False),
    ],
)
def test_the_command_forks_for_a_command_line_plainly_the_client_s_on_one_save(monkeypatch, argv, forked):
    import tui.main

    started: list[str] = []
    monkeypatch.setattr(LoadAside, "start", classmethod(lambda cls, save: started.append(save)))
    tui.main._load_aside(argv)
    assert started == (["SAVE"] if forked else [])


def test_the_load_aside_is_asked_for_before_the_command_line_is_parsed(tmp_path):
    """Before argparse, the reader's words, the client's own modules (Rich's text): they
    are imported beside the load, not before it (issue #32's first open)."""
    import subprocess
    import sys

    save = tmp_path / "big.ft"
    save.write_bytes(b"x")
    code = (
        "import sys, tui.loadaside\n"
        "def start(cls, save):\n"
        "    print(save, sorted(m for m in sys.modules if m.split('.')[0] in ('core', 'textual', 'msgspec', 'rich')"
        " or m in ('tui.opening', 'tui.app', 'tui.i18n', 'argparse')))\n"
        "    raise SystemExit(0)\n"
        "tui.loadaside.LoadAside.start = classmethod(start)\n"
        "from tui.main import main\n"
        f"main([{str(save)!r}])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [str(save), "[]"]


def test_the_pre_parse_knows_the_clients_options_as_its_parser_does():
    """``tui.main._load_aside`` reads the command line before argparse: an option added to
    the client's parser must be added there too (``--plain`` and ``--help`` aside: no fork)."""
    import tui.main

    options = [a for a in tui.main._app_parser()._actions if a.option_strings]
    valued = {o for a in options if a.nargs != 0 for o in a.option_strings}
    flags = {o for a in options if a.nargs == 0 for o in a.option_strings} - {"-h", "--help", "--plain"}
    assert (valued, flags) == (set(tui.main._VALUED), set(tui.main._FLAGS))


def test_the_load_aside_forks_before_the_clients_own_modules_are_imported(tmp_path):
    # The child loads with the core and the open cache: Rich, Textual and the client's
    # words are imported beside its load (after the fork), not before it.
    import subprocess
    import sys

    from core.cli.bench import generate_save

    save = tmp_path / "big.ft"
    generate_save(save, 50)
    code = (
        "import os, sys, tui.loadaside\n"
        "tui.loadaside.LOAD_IN_APP_BYTES = 0\n"
        "def fork():\n"
        "    print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')"
        " or m in ('tui.i18n', 'tui.userdata', 'tui.app', 'argparse')), 'core.game' in sys.modules)\n"
        "    os._exit(0)\n"
        "os.fork = fork\n"
        "from tui.main import main\n"
        f"main([{str(save)!r}])\n"
    )
    env = {**os.environ, CACHE_DIR_ENV: str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["[]", "True"]
