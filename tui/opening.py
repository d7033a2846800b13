"""Which game a client shows: a save opened to play, to replay, or to follow another writer's game; a new demo game.

Shared by the Textual client (``tui.app``) and the line client's front
(``tui.lines.terminal``), so that both open the same saves the same way; no
Textual here.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from core.game import Game, copy_role_error
from core.storage.savefile import SaveError, SaveLocked
from core.views import REFEREE, SPECTATOR
from tui.i18n import _

if TYPE_CHECKING:
    from core.storage.opencache import OpenCache

#: Where the client keeps the saves it makes and lists (the start, new game and load game screens).
SAVES = Path("saves")
#: A save larger than this is opened inside the client, with a progress bar
#: (a million events take seconds); a smaller one before it starts.
LOAD_IN_APP_BYTES = 8 << 20
#: A save larger than this is opened with the open cache (``core.storage.opencache``).
#: Measured: 100,000 events (11 MB) load in 0.45-0.55 s of CPU and are restored in
#: 50-80 ms; 10,000 (1 MB) in 45 ms and 8 ms; the demo save (59 KB) in 3 ms either
#: way, so a smaller save gains a few milliseconds at most, not worth an entry.
CACHE_FROM_BYTES = 1 << 20
#: How often the loader in a process of its own (``LoadAside``) tells where it stands.
ASIDE_TELLS_EVERY_S = 0.05
#: What it says once it has written the save's entry.
WROTE = b"wrote\n"
DEMO_RULESET = "breaking-news"
DEMO_SCENARIO = "demo"


def new_demo_game(saves: Path = SAVES) -> Game:
    saves.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = saves / f"demo-{stamp}.ft"
    n = 1
    while path.exists():
        n += 1
        path = saves / f"demo-{stamp}-{n}.ft"
    game = Game.new(path, DEMO_RULESET, seed=None)
    game.execute(f"scenario {DEMO_SCENARIO}")
    return game


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
    started by ``tui.app.run_app`` before the client's app, so that the load goes on
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


class LoadAside:
    """A big save's first full load, in a process of its own forked before Textual
    is imported (``tui.main``), that writes the save's open-cache entry and exits.

    The client's start (Textual's import, its CSS, the first screen) and a full load
    are both Python, which one process runs on one core at a time: loaded in a
    thread (``OpenAhead`` alone), the load took its turns with the start.  Forked,
    it runs on another core while the client starts, and the client then restores
    the game from the entry it wrote (``Game.open(..., cache=...)``, tens of
    milliseconds), as every start after a save's first does.  The child only reads
    the save (no lock, nothing written but the cache's entry, itself written whole
    or not at all); if it fails or writes no entry, the client loads the save
    itself, as before, and says why it cannot be opened if it cannot.  Where
    there is no ``fork`` (Windows) nothing is started (``start`` returns None).
    """

    def __init__(self, pid: int, told: int) -> None:
        self.pid = pid
        self._told = told  # the pipe the child writes "done total" lines on (ours to read)
        self._status: int | None = None
        self._wrote = False
        self._stopped = False
        self._lock = threading.Lock()

    class Stopped(Exception):
        """The client quit before the load ended (``stop``): the save is not opened."""

    @classmethod
    def start(cls, save: Path | None) -> LoadAside | None:
        """The child started for ``save`` if it is a save the client opens in the app
        (over ``LOAD_IN_APP_BYTES``) whose open-cache entry is missing; else None.
        Before any thread is started (a fork copies only the thread that forks)."""
        if save is None or not hasattr(os, "fork"):
            return None
        try:
            if os.stat(save).st_size <= LOAD_IN_APP_BYTES:
                return None
            from core.storage.savefile import MAX_LINE_BYTES
            from tui.userdata import open_cache

            cache = open_cache()
            with open(save, "rb") as f:
                head = f.readline(MAX_LINE_BYTES + 1)
            entry = cache.path_of(head[:-1])
            if not head.endswith(b"\n") or entry.exists():
                return None  # not a save (the client says why), or the entry's to try first
            told, tell = os.pipe()
        except OSError:
            return None
        pid = os.fork()
        if pid == 0:  # pragma: no cover (the child)
            status = 1
            try:
                os.close(told)
                status = _load_aside(save, cache, entry, tell)
            finally:
                os._exit(status)  # never back into the client's code, nor its exit handlers
        os.close(tell)
        return cls(pid, told)

    def then(
        self, open: Callable[[Callable[[int, int], None]], tuple[Game, str]]
    ) -> Callable[[Callable[[int, int], None]], tuple[Game, str]]:
        """An opener (``OpenAhead``'s): ``open``, once the child has ended, its load told to the same ``progress``."""

        def opener(progress: Callable[[int, int], None]) -> tuple[Game, str]:
            self.wait(progress)
            if self._stopped:
                raise LoadAside.Stopped  # the client has quit: not loaded again, for no one
            return open(progress)

        return opener

    def wait(self, progress: Callable[[int, int], None]) -> bool:
        """Whether the child wrote the entry: tells ``progress`` where its load stands
        until it has ended (said on the pipe: its exit, after it freed its memory, may come later)."""
        with self._lock:  # the pipe is read by one thread, or closed by ``stop``: never both
            told, self._told = self._told, -1
        if told < 0:
            return self._wrote  # told already (or stopped)
        wrote = False
        with os.fdopen(told, "rb") as lines:
            for line in lines:  # until the child closes it
                if line == WROTE:
                    wrote = True
                    break
                done, _, total = line.partition(b" ")
                if done.isdigit() and total.strip().isdigit():
                    progress(int(done), int(total))
        self._reap(block=False)
        self._wrote = wrote
        return wrote

    def _reap(self, *, block: bool) -> int | None:
        """The child's exit status, once it has exited (``block``: waiting for that)."""
        if self._status is None:
            try:
                pid, status = os.waitpid(self.pid, 0 if block else os.WNOHANG)
            except ChildProcessError:  # reaped already (by whoever reaps every child)
                self._status = -1
            else:
                if pid:
                    self._status = os.waitstatus_to_exitcode(status)
        return self._status

    def stop(self) -> None:
        """The client is done (or quits before the load ended): the child is ended and reaped."""
        import signal

        self._stopped = True
        if self._reap(block=False) is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGTERM)
            self._reap(block=True)
        with self._lock:
            told, self._told = self._told, -1
        if told >= 0:
            os.close(told)


def _load_aside(save: Path, cache: OpenCache, entry: Path, tell: int) -> int:  # pragma: no cover (in the child)
    """``LoadAside``'s child: load ``save`` in full, which writes its ``entry``; its exit status."""
    import signal
    import time

    try:
        # Ctrl+C is the client's to answer; and nothing of the child's reaches the terminal.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.set_blocking(tell, False)  # a client that does not read yet never holds the load up
        last = 0.0

        def progress(done: int, total: int) -> None:
            nonlocal last
            now = time.monotonic()
            if now - last >= ASIDE_TELLS_EVERY_S or done >= total:
                last = now
                with contextlib.suppress(BlockingIOError):
                    os.write(tell, b"%d %d\n" % (done, total))

        game = Game.open(save, writable=False, progress=progress, cache=cache)
        if game.cache_mark is None or not entry.exists():
            return 1
        os.set_blocking(tell, True)
        os.write(tell, WROTE)
        os.close(tell)  # the client goes on now, not once this process has freed its memory
        return 0
    except BaseException:
        return 1
