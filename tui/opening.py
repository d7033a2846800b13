"""Which game a client shows: a save opened to play, to replay, or to follow another writer's game; a new demo game.

Shared by the Textual client (``tui.app``) and the line client's front
(``tui.lines.terminal``), so that both open the same saves the same way; no
Textual here.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from core.game import Game
from core.log.views import REFEREE, SPECTATOR
from core.storage.errors import SaveError, SaveLocked
from core.storage.readahead import FROM_BYTES
from tui.i18n import _

if TYPE_CHECKING:
    from core.storage.opencache import OpenCache
    from core.storage.readahead import ReadAhead

#: A save larger than this is opened with the open cache (``core.storage.opencache``), its
#: bytes read ahead (``core.storage.readahead``, which holds the figure: it is imported first).
#: Measured: 100,000 events (11 MB) load in 0.45-0.55 s of CPU and are restored in
#: 50-80 ms; 10,000 (1 MB) in 45 ms and 8 ms; the demo save (59 KB) in 3 ms either
#: way, so a smaller save gains a few milliseconds at most, not worth an entry.
CACHE_FROM_BYTES = FROM_BYTES
DEMO_RULESET = "breaking-news"
DEMO_SCENARIO = "demo"


def new_demo_game(saves: Path | None = None) -> Game:
    """A new demo game in ``saves`` (default: the data folder's saves/, ``core.folders``)."""
    if saves is None:
        from core.folders import saves as saves_folder

        saves = saves_folder()
    saves.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = saves / f"demo-{stamp}.ft"
    n = 1
    while path.exists():
        n += 1
        path = saves / f"demo-{stamp}-{n}.ft"
    game = Game.new(path, DEMO_RULESET, seed=None)
    game.execute(f"scenario {DEMO_SCENARIO}", role=REFEREE)
    return game


def open_cache(size: int, ahead: ReadAhead | None = None) -> OpenCache | None:
    """The user's open cache, for a save of ``size`` bytes that is opened with it
    (``CACHE_FROM_BYTES``): a smaller save's start does without its import, and blake3's.
    ``ahead``: the save's bytes being read meanwhile (``tui.main``), for its open."""
    if size <= CACHE_FROM_BYTES:
        return None
    from core.storage.opencache import OpenCache

    return OpenCache.users(ahead)


def open_game(
    save: Path | None,
    replay: bool,
    progress: Callable[[int, int], None] | None = None,
    *,
    cache: OpenCache | None = None,
    cached_only: bool = False,
    cache_later: bool = False,
) -> Game:
    """The game to show: a save, or a new demo game.  Raises SaveError or OSError
    (and NotCached: ``Game.open``'s ``cache`` and ``cached_only``; ``cache_later``, its too)."""
    if save is None:
        if replay:
            raise SaveError(_("--replay needs a save to replay"))
        return new_demo_game()
    if not save.exists():
        raise SaveError(_("{save}: no such save").format(save=save))
    try:
        return Game.open(
            save, writable=not replay, progress=progress, cache=cache, cached_only=cached_only, cache_later=cache_later
        )
    except SaveError:
        from core.secrets import sidecopy  # here: a save's start does without it

        if sidecopy.looks_like_side_copy(save):
            return sidecopy.open_copy(save)  # read-only, whatever was asked: it holds only what a side saw
        raise


def check_role(game: Game, role: str) -> str | None:
    """Why ``role`` cannot watch this game (None if it can)."""
    if game.copy_role:
        from core.game.builtins import copy_role_error  # a side's copy only: a save's start does without it

        return copy_role_error(game, role)
    if role in (REFEREE, SPECTATOR) or role in game.state.sides:
        return None
    sides = ", ".join(game.state.sides) or _("none yet")
    return _("--as {role}: not a role of this game (referee, spectator, or a side: {sides})").format(
        role=role, sides=sides
    )


def open_or_follow(
    save: Path | None,
    replay: bool,
    progress: Callable[[int, int], None] | None = None,
    *,
    cache: OpenCache | None = None,
    cached_only: bool = False,
    cache_later: bool = False,
) -> tuple[Game, str]:
    """``open_game``, or, when another process writes the save, the save opened
    read-only (to follow that game) and who writes it."""
    try:
        return open_game(save, replay, progress, cache=cache, cached_only=cached_only, cache_later=cache_later), ""
    except SaveLocked as e:
        game = Game.open(
            e.path, writable=False, progress=progress, cache=cache, cached_only=cached_only, cache_later=cache_later
        )
        return game, e.who


class OpenAhead:
    """An opener already at work in a thread of its own: a big save's full load,
    started by ``tui.run.run_app`` before the client's app, so that the load goes on
    while Textual starts and draws the progress bar, instead of after.

    Called as an opener (``tui.app.Opener``) from the app's worker thread, it tells
    ``progress`` where the load stands and then as it goes on, waits for the end,
    and returns what ``open`` returned or raises what it raised.
    """

    def __init__(self, open: Callable[[Callable[[int, int], None]], tuple[Game, str]]) -> None:
        self._lock = threading.Lock()
        self._told: Callable[[int, int], None] | None = None
        self._last: tuple[int, int] | None = None
        self._result: tuple[Game, str] | None = None
        self._error: BaseException | None = None
        # Not a daemon: a process that quits during the load waits for it, as it
        # waited for the app's worker before (a game half opened holds the save's lock).
        self._thread = threading.Thread(target=self._run, args=(open,), name="fireteam-open")
        self._thread.start()

    def _run(self, open: Callable[[Callable[[int, int], None]], tuple[Game, str]]) -> None:
        try:
            self._result = open(self._progress)
        except BaseException as e:  # raised again in the thread that asks (__call__)
            self._error = e

    def wait(self, seconds: float) -> bool:
        """Whether the open has ended (well or not), waiting up to ``seconds`` for it."""
        self._thread.join(seconds)
        return not self._thread.is_alive()

    def _progress(self, done: int, total: int) -> None:
        with self._lock:
            self._last = (done, total)
            told = self._told
        if told is not None:
            told(done, total)

    def __call__(self, progress: Callable[[int, int], None]) -> tuple[Game, str]:
        with self._lock:
            self._told = progress
            last = self._last
        if last is not None:
            progress(*last)
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result
