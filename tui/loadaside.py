"""A big save's first load in a process of its own (``LoadAside``), forked as the
``fireteam`` command starts, before it reads its command line in full.

Nothing is imported here but the standard library's few modules a start needs
anyway: ``tui.main`` asks for the load before the command line's parse
(``argparse``), the reader's words and the client's own modules (Rich's text);
the fork then comes once what the child loads with is imported (the core, the
open cache), which the client needs too, and those others are imported beside
the load, on another core, not before it.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path  # (imported by ``start``, for a save it forks for)

    from core.game import Game
    from core.storage.opencache import OpenCache

#: A save larger than this is opened inside the client, with a progress bar
#: (a million events take seconds); a smaller one before it starts.
LOAD_IN_APP_BYTES = 8 << 20
#: How often the loader in a process of its own (``LoadAside``) tells where it stands.
ASIDE_TELLS_EVERY_S = 0.05
#: What it says once it has written the save's entry.
WROTE = b"wrote\n"


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

    def __init__(self, pid: int, told: int, save: Path | str) -> None:
        self.pid = pid
        #: The save it was started for.
        self.save = save
        self._told = os.fdopen(told, "rb")  # the lines the child writes (ours to read)
        self._status: int | None = None
        self._wrote = False
        self._stopped = False
        self._lock = threading.Lock()

    class Stopped(Exception):
        """The client quit before the load ended (``stop``): the save is not opened."""

    @classmethod
    def start(cls, save: Path | str | None) -> LoadAside | None:
        """The child started for ``save`` if it is a save the client opens in the app
        (over ``LOAD_IN_APP_BYTES``) whose open-cache entry is missing; else None.
        Before any thread is started (a fork copies only the thread that forks).
        Such a save is also read ahead of its open, whether it has an entry or not
        (``core.storage.opencache.ReadAhead``: after the fork, in the client)."""
        if save is None or not hasattr(os, "fork"):
            return None
        try:
            if os.stat(save).st_size <= LOAD_IN_APP_BYTES:
                return None
            # What the child loads with, imported once, here (the client needs it too).
            from pathlib import Path

            # Not the client's own modules (Rich's among them): those are imported beside the load.
            import core.game  # noqa: F401
            from core.storage.opencache import OpenCache, read_ahead
            from core.storage.savefile import MAX_LINE_BYTES

            save = Path(save)
            cache = OpenCache.users()
            with open(save, "rb") as f:
                head = f.readline(MAX_LINE_BYTES + 1)
            entry = cache.path_of(head[:-1])
            if not head.endswith(b"\n"):
                return None  # not a save: the client says why
            if entry.exists():
                read_ahead(save)
                return None  # the entry's to try first
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
        read_ahead(save)
        return cls(pid, told, save)

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
            lines = self._told
            if lines.closed:
                return self._wrote  # told already (or stopped)
            wrote = False
            with lines:
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
        """The client is done (or quits before the load ended, or is no client): the child is ended and reaped."""
        import signal

        self._stopped = True
        if self._reap(block=False) is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGTERM)
            self._reap(block=True)
        if self._lock.acquire(blocking=False):  # else a thread reads it, and closes it as the child ends
            try:
                self._told.close()
            finally:
                self._lock.release()


def _load_aside(save: Path | str, cache: OpenCache, entry: Path, tell: int) -> int:  # pragma: no cover (in the child)
    """``LoadAside``'s child: load ``save`` in full, which writes its ``entry``; its exit status."""
    import signal
    import time

    from core.game import Game

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
