"""A relay's spectators' screens: a table's frames from NATS, sent on to every watcher that keeps up.

A relay draws nothing: the table drew each frame (``tui.ssh.venue.caster``, from its own
shared screens).  For each screen its watchers watch (a table, a language, a shared size)
the relay follows the frames' subject and keeps the newest key frame and the frames after
it (``MAX_TAIL_BYTES`` at most), so that a watcher who arrives late, or comes back after
being skipped, is sent the whole screen at once.  Watchers are held as a table's shared
screen holds its spectators (``tui.ssh.seating.sharedscreen``), with the same limits:

* **live**: sent each frame, its colours brought down once per colour system;
* **waiting**: sent the key frame and the frames after it as soon as the relay has them;
* **behind** (more than ``Limits.spectator_buffer`` unsent): sent nothing until his backlog
  drains, then the whole screen again; behind longer than ``Limits.spectator_behind_s``, cut off.

A frame missed on NATS (a gap in the counts, another run of the screen) stops the frames
until the next key frame, asked for at once; the watchers keep the screen they have.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from rich.color import ColorSystem

from core.venue import VenueError
from tui.ssh.limits import Limits, QuietLog
from tui.ssh.seating.driver import colors_for
from tui.ssh.seating.sharedscreen import DRAIN_CHECK_S, State, Viewer, Watching, catch_up, to_live
from tui.ssh.venue.frames import WANT_EVERY_S, Screen, read_frame, screen_subject, want_bytes, want_subject

#: The frames after a key frame a relay keeps for late watchers; past this it asks for a key frame.
MAX_TAIL_BYTES = 1 << 20
#: Seconds a screen's subject is still followed after its last watcher left (one who comes back finds it).
IDLE_S = 30.0


class RelayScreen:
    """One screen of one table, as a relay holds it (see the module's doc)."""

    def __init__(
        self,
        screen: Screen,
        nc: Any,
        limits: Limits,
        log: logging.Logger,
        *,
        on_idle: Callable[[], None],
        on_frame: Callable[[], Awaitable[None]],
    ):
        self.screen = screen
        self.subject = screen_subject(screen)
        self.nc = nc
        self.limits = limits
        self.log = log
        self._quiet = QuietLog(log)
        self._on_idle = on_idle
        self._on_frame = on_frame
        self._watching: dict[int, Watching] = {}
        self.run = ""
        self.number = -1
        #: The newest key frame and the frames after it; empty while a key frame is awaited.
        self.key = ""
        self.tail: list[str] = []
        self.tail_bytes = 0
        self.in_sync = False
        self.refused = 0
        self.frames = 0
        self._sub: Any = None
        self._tasks: list[asyncio.Task[None]] = []
        self._drain: asyncio.TimerHandle | None = None
        self._idle: asyncio.TimerHandle | None = None

    async def start(self) -> None:
        self._sub = await self.nc.subscribe(self.subject, cb=self._frame)
        # Until the server has the subscription, a frame published from another connection is lost to it
        # (until the next key frame asked for): once started, the screen takes every frame.
        await self.nc.flush()
        self._tasks.append(asyncio.get_running_loop().create_task(self._want(), name=f"wants {self.subject}"))

    async def _want(self) -> None:
        """Ask the table for this screen now and every ``WANT_EVERY_S`` (for a key frame while there is none)."""
        subject = want_subject(self.screen.table)
        while True:
            with contextlib.suppress(Exception):  # NATS gone: asked again on the next round
                await self.nc.publish(subject, want_bytes(self.screen, key=not self.in_sync))
            await asyncio.sleep(WANT_EVERY_S)

    def _ask_key(self) -> None:
        async def ask() -> None:
            with contextlib.suppress(Exception):
                await self.nc.publish(want_subject(self.screen.table), want_bytes(self.screen, key=True))

        self._tasks.append(asyncio.get_running_loop().create_task(ask()))
        self._tasks = [t for t in self._tasks if not t.done()]

    # ------------------------------------------------------------------ frames

    async def _frame(self, msg: Any) -> None:
        self._take(msg)
        await self._on_frame()

    def _take(self, msg: Any) -> None:
        try:
            frame = read_frame(msg.headers, msg.data)
        except VenueError as e:
            self.refused += 1
            self._quiet.warning(f"refused {self.subject}", "relay: a frame of %s refused: %s", self.subject, e)
            return
        self.frames += 1
        if frame.key:
            self._key_frame(frame.run, frame.number, frame.text)
        elif self.in_sync and frame.run == self.run and frame.number == self.number + 1:
            self.number = frame.number
            self._keep(frame.text)
            to_live(self._watching, frame.text, self.limits, self._fell_behind)
        elif not (frame.run == self.run and frame.number <= self.number):  # not an old frame come late
            self.in_sync = False  # a frame missed: none sent on until the next key frame
            self._ask_key()

    def _key_frame(self, run: str, number: int, text: str) -> None:
        if self.in_sync and run == self.run and number <= self.number:
            if number == self.number:  # the screen the live watchers have: kept for late ones only
                self.key, self.tail, self.tail_bytes = text, [], 0
            return
        self.run, self.number, self.in_sync = run, number, True
        self.key, self.tail, self.tail_bytes = text, [], 0
        for w in self._watching.values():  # frames were missed since what the live ones have: the whole screen
            if w.state is State.LIVE:
                w.state = State.WAITING
        self._send_wholes()

    def _keep(self, text: str) -> None:
        self.tail.append(text)
        self.tail_bytes += len(text)
        if self.tail_bytes > MAX_TAIL_BYTES:
            self.tail_bytes = MAX_TAIL_BYTES // 2  # asked once per half of it again, until a key frame comes
            self._ask_key()

    def _send_wholes(self) -> None:
        if not self.in_sync:
            return
        whole: dict[ColorSystem | None, str] = {}
        for w in self._watching.values():
            if w.state is State.WAITING:
                system = w.viewer.color_system
                out = whole.get(system)
                if out is None:
                    out = whole[system] = colors_for(self.key + "".join(self.tail), system)
                w.viewer.send(out)
                w.state = State.LIVE
                w.wholes += 1

    # ---------------------------------------------------------------- watchers

    @property
    def viewers(self) -> int:
        return len(self._watching)

    def join(self, viewer: Viewer, name: str) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None
        self._watching[id(viewer)] = Watching(viewer, name)
        if not self.in_sync:
            self._ask_key()
        self._send_wholes()

    def leave(self, viewer: Viewer) -> None:
        if self._watching.pop(id(viewer), None) is not None and not self._watching and self._idle is None:
            self._idle = asyncio.get_running_loop().call_later(IDLE_S, self._on_idle)

    def state(self, viewer: Viewer) -> tuple[State, int, int] | None:
        w = self._watching.get(id(viewer))
        return None if w is None else (w.state, w.wholes, w.skipped)

    def _fell_behind(self, w: Watching) -> None:
        self._quiet.warning(f"behind {w.name}", "relay: watcher %s behind on %s: frames skipped", w.name, self.subject)
        if self._drain is None:
            self._drain = asyncio.get_running_loop().call_later(DRAIN_CHECK_S, self._check_behind)

    def _check_behind(self) -> None:
        self._drain = None
        behind = catch_up(self._watching, self.limits, lambda w, late: None)
        self._send_wholes()
        if behind:
            self._drain = asyncio.get_running_loop().call_later(DRAIN_CHECK_S, self._check_behind)

    async def close(self) -> None:
        for handle in (self._drain, self._idle):
            if handle is not None:
                handle.cancel()
        for task in self._tasks:
            task.cancel()
        if self._sub is not None:
            with contextlib.suppress(Exception):
                await self._sub.unsubscribe()
        for w in list(self._watching.values()):
            w.viewer.screen_ended(False)
        self._watching.clear()
