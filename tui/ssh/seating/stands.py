"""The stands: where a process's spectators watch, one shared screen per table, language and size.

Every spectator of a table who reads the same language sees the same public
screen; what still differs is the size of his terminal.  Rather than a screen
per size (as many as there are spectators), the stands draw a few sizes,
:data:`SHARED_SIZES`, and each spectator watches the widest that fits in his
terminal, drawn from its top left corner (the rest of his terminal stays
blank); a terminal smaller than the smallest gets the smallest, cut at its
edges.  A spectator cannot resize a shared screen: when his terminal changes
size he moves to the shared size that fits it now.

So a process holds at most tables × languages × sizes shared screens, each
one app (``tui.ssh.seating.sharedscreen.SharedScreen``), opened when its first
spectator arrives and closed a while after its last one leaves.  With seat
workers each worker holds the screens of its own spectators (docs/ssh.md,
*Spectators*).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from core.language.reader import Reader
from core.log.views import SPECTATOR
from tui.ssh.limits import Limits
from tui.ssh.seating.sharedscreen import SharedScreen, Viewer
from tui.ssh.seatsfile import Seat

if TYPE_CHECKING:
    from textual.app import App

    from core.game import Game

#: The sizes (columns, rows) the spectators' screens are drawn at: a phone held upright (a tall
#: one's page, 64x72 at 390x844, and a shorter one's) and one held sideways (a browser's page fits
#: at least 60x16: tui/ssh/web/page/fireteam.mjs), a classic terminal, then larger windows up to a
#: projector's full screen.  (60x48 alone left a tall phone's bottom third blank: #61.)
SHARED_SIZES: tuple[tuple[int, int], ...] = (
    (60, 48),
    (60, 64),
    (80, 16),
    (80, 24),
    (100, 30),
    (120, 40),
    (160, 50),
    (200, 60),
)
#: Seconds a shared screen stays open after its last spectator leaves (one who comes back finds it drawn).
IDLE_CLOSE_S = 30.0
#: The seat a shared screen is drawn for: every spectator's, nobody's in particular.
SPECTATORS = Seat(SPECTATOR, SPECTATOR)


def shared_size(width: int, height: int, sizes: Sequence[tuple[int, int]] = SHARED_SIZES) -> tuple[int, int]:
    """The widest shared size that fits in a ``width`` × ``height`` terminal, the tallest of those
    (a screen's width decides its layout: a 119x100 terminal watches 100x30, not a phone's 60x64);
    else the smallest."""
    fits = [s for s in sizes if s[0] <= width and s[1] <= height]
    return max(fits) if fits else min(sizes, key=lambda s: s[0] * s[1])


class Table(Protocol):
    name: str
    game: Game


class Host(Protocol):
    """What the stands need from the server (``tui.ssh.host.server.FireteamServer``)."""

    log: logging.Logger
    limits: Limits

    def app_factory(self, game: Game, seat: Seat, /) -> App[Any]:
        """The app a seat (the spectators') is shown the game in."""


class Stands:
    """A process's shared screens (see the module's doc)."""

    def __init__(self, host: Host, idle_close_s: float = IDLE_CLOSE_S) -> None:
        self.host = host
        self.idle_close_s = idle_close_s
        self._screens: dict[tuple[str, str, tuple[int, int]], SharedScreen] = {}
        self._idle: dict[int, asyncio.TimerHandle] = {}  # closing timers, by id(screen)

    @property
    def screens(self) -> list[SharedScreen]:
        """The shared screens open (each one app)."""
        return list(self._screens.values())

    def watch(self, viewer: Viewer, name: str, table: Table, lang: str, size: tuple[int, int]) -> SharedScreen:
        """Seat ``viewer`` (``name``, for the log) before ``table``'s shared screen in ``lang`` that fits ``size``."""
        key = (table.name, lang, shared_size(*size))
        screen = self._screens.get(key)
        if screen is None or screen.closed:
            screen = self._open(key, table)
        timer = self._idle.pop(id(screen), None)
        if timer is not None:
            timer.cancel()
        screen.join(viewer, name)
        return screen

    def _open(self, key: tuple[str, str, tuple[int, int]], table: Table) -> SharedScreen:
        name, lang, size = key
        # Built as any seat's app is (the host's factory): for the spectator's role, watching.
        app = self.host.app_factory(table.game, SPECTATORS)
        screen = SharedScreen(
            app,
            size=size,
            reader=Reader(lang),
            limits=self.host.limits,
            log=self.host.log,
            name=f"game={name} lang={lang} size={size[0]}x{size[1]}",
            on_empty=self._empty,
        )
        self._screens[key] = screen
        screen.start()
        assert screen.task is not None
        screen.task.add_done_callback(lambda _task: self._closed(key, screen))
        return screen

    def _empty(self, screen: SharedScreen) -> None:
        """Its last viewer left: close it after a while, unless one comes."""
        if id(screen) not in self._idle:
            self._idle[id(screen)] = asyncio.get_running_loop().call_later(self.idle_close_s, self._close_idle, screen)

    def _close_idle(self, screen: SharedScreen) -> None:
        self._idle.pop(id(screen), None)
        if not screen.viewers:
            screen.close()

    def _closed(self, key: tuple[str, str, tuple[int, int]], screen: SharedScreen) -> None:
        if self._screens.get(key) is screen:
            del self._screens[key]
        timer = self._idle.pop(id(screen), None)
        if timer is not None:
            timer.cancel()

    async def close(self) -> None:
        """Close every shared screen (the server stops): their viewers are told as they end."""
        screens = self.screens
        for screen in screens:
            screen.close()
        tasks = [s.task for s in screens if s.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=5.0)
