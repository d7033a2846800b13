"""A table's spectators' screens, on core NATS: the shared screens, drawn once, their frames sent to the relays.

The table does not draw anything new for NATS: each screen a relay asks for
(``fireteam.want.TABLE``, ``tui.ssh.venue.frames``) is one of the table's own shared
screens (``tui.ssh.seating.stands``: the spectator's app, drawing only what a spectator may see),
and NATS is one more viewer of it (:class:`_NatsViewer`).  So a command costs one redraw
per screen wanted, whatever the number of watchers behind the relays, and every frame
that leaves the table is a frame its own spectators would be sent.

* A viewer's first message is the whole screen (a key frame), as any late spectator's is;
  a key frame is sent again when a relay asks (at most once a second: ``KEY_MIN_S``) and,
  after the screen changed, every ``KEY_EVERY_S`` unasked (a frame lost on the way is
  repaired by it).
* NATS slow or gone: the connection's unsent bytes are the viewer's backlog, so the
  shared screen skips its frames and sends the whole screen once they drained, as for a
  slow spectator (a shared screen that cuts the viewer off is asked for again by the relays).
* A screen no relay asked for in ``WANTED_FOR_S`` is left (the stands close its app a while after).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from rich.color import ColorSystem

from core.venue import VenueError
from tui.ssh.host.server import Table, fireteam_app
from tui.ssh.limits import Limits
from tui.ssh.seating.sharedscreen import SharedScreen, State
from tui.ssh.seating.stands import Stands
from tui.ssh.venue.frames import (
    KEY_EVERY_S,
    KEY_MIN_S,
    MAX_FRAME_BYTES,
    WANTED_FOR_S,
    Screen,
    frame_headers,
    read_want,
    screen_subject,
    want_subject,
)


class _NatsViewer:
    """One screen's frames, published on its subject (a viewer of its shared screen)."""

    #: Drawn in true colour: each relay brings the colours down for its own watchers.
    color_system = ColorSystem.TRUECOLOR

    def __init__(self, caster: ScreenCaster, screen: Screen) -> None:
        self.caster = caster
        self.screen = screen
        self.subject = screen_subject(screen)
        self.run = secrets.token_hex(8)
        self.shared: SharedScreen | None = None
        self.wanted_at = time.monotonic()
        self.key_at = -KEY_EVERY_S
        self.changed = False
        self._key_timer: asyncio.TimerHandle | None = None
        #: Frames and key frames published (for the bench and the tests).
        self.sent = 0
        self.keys = 0

    def buffered(self) -> int:
        return self.caster.nc.pending_data_size + self.caster.queued

    def send(self, data: str) -> None:
        assert self.shared is not None
        state = self.shared.state(self)
        # A shared screen sends a viewer the whole screen while he waits for it, frames once he is live.
        key = state is not None and state[0] is State.WAITING
        body = data.encode("utf-8")
        if len(body) > MAX_FRAME_BYTES:
            self.caster.log.warning("venue: a frame of %s is %d bytes: not sent", self.subject, len(body))
            self.changed = True
            return
        if key:
            self.key_at = time.monotonic()
            self.changed = False
            self.keys += 1
        else:
            self.changed = True
        self.sent += 1
        self.caster.publish(self.subject, body, frame_headers(self.run, self.shared.frames, key))

    def want_key(self) -> None:
        """A key frame, now or as soon as ``KEY_MIN_S`` since the last allows."""
        if self._key_timer is not None or self.shared is None:
            return
        wait = self.key_at + KEY_MIN_S - time.monotonic()
        if wait <= 0:
            self.shared.resend(self)
        else:
            self._key_timer = asyncio.get_running_loop().call_later(wait, self._key_due)

    def _key_due(self) -> None:
        self._key_timer = None
        if self.shared is not None:
            self.shared.resend(self)

    def fell_behind(self, seconds: float) -> None:
        self.caster.log.warning(
            "venue: %s behind NATS for %.0f s: not sent until a relay asks again", self.subject, seconds
        )
        self.caster.dropped(self)

    def screen_ended(self, failed: bool) -> None:
        self.caster.dropped(self)

    def stop(self) -> None:
        if self._key_timer is not None:
            self._key_timer.cancel()
            self._key_timer = None
        if self.shared is not None:
            self.shared.leave(self)
            self.shared = None


class _Host:
    """What the stands of the NATS screens need: the server's app for a seat, its log, its limits."""

    app_factory = staticmethod(fireteam_app)

    def __init__(self, log: logging.Logger, limits: Limits) -> None:
        self.log = log
        self.limits = limits


class ScreenCaster:
    """The spectators' screens of ``tables`` that relays want, on NATS (see the module's doc)."""

    def __init__(
        self,
        nc: Any,
        tables: Sequence[Table],
        log: logging.Logger,
        *,
        may_send: Callable[[str], bool] = lambda table: True,
        limits: Limits | None = None,
    ) -> None:
        self.nc = nc
        self.may_send = may_send
        self.tables = {t.name: t for t in tables}
        self.log = log
        self.stands = Stands(_Host(log, limits or Limits()))
        self.viewers: dict[Screen, _NatsViewer] = {}
        self._out: deque[tuple[str, bytes, dict[str, str]]] = deque()
        self.queued = 0
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._subs: list[Any] = []
        self.refused = 0

    async def start(self) -> None:
        for name in self.tables:
            self._subs.append(await self.nc.subscribe(want_subject(name), cb=self._wanted))
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._pump(), name="screens to NATS"), loop.create_task(self._tend())]

    async def add(self, table: Table) -> None:
        """A table opened while the server runs (an event's next round): its screens too."""
        self.tables[table.name] = table
        self._subs.append(await self.nc.subscribe(want_subject(table.name), cb=self._wanted))

    async def _wanted(self, msg: Any) -> None:
        name = msg.subject.rsplit(".", 1)[-1]
        table = self.tables.get(name)
        if table is None or not self.may_send(name):
            return
        try:
            screen, key = read_want(name, msg.data)
        except VenueError as e:
            self.refused += 1
            if self.refused <= 10:
                self.log.warning("venue: a request for a screen of %s refused: %s", name, e)
            return
        viewer = self.viewers.get(screen)
        if viewer is None:
            viewer = self.viewers[screen] = _NatsViewer(self, screen)
            # Its first message is the whole screen (a key frame), as any spectator's is.
            viewer.shared = self.stands.watch(viewer, "nats", table, screen.lang, screen.size)
            self.log.info("venue: drawing %s for the relays", viewer.subject)
        else:
            viewer.wanted_at = time.monotonic()
            if key:
                viewer.want_key()

    def dropped(self, viewer: _NatsViewer) -> None:
        if self.viewers.get(viewer.screen) is viewer:
            del self.viewers[viewer.screen]
        viewer.stop()

    def publish(self, subject: str, body: bytes, headers: dict[str, str]) -> None:
        """Sent in order by one task: a shared screen writes from its app's task, which may not wait."""
        self._out.append((subject, body, headers))
        self.queued += len(body)
        self._wake.set()

    async def _pump(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._out:
                subject, body, headers = self._out.popleft()
                self.queued -= len(body)
                try:
                    await self.nc.publish(subject, body, headers=headers)
                except Exception as e:  # NATS gone and its buffer full: the frame is lost; a key frame repairs it
                    self.log.debug("venue: frame of %s not sent (%s)", subject, e)

    async def _tend(self) -> None:
        """Leave the screens no relay wants any more; send a key frame of those that changed, now and then."""
        while True:
            await asyncio.sleep(KEY_MIN_S)
            now = time.monotonic()
            for viewer in list(self.viewers.values()):
                if now - viewer.wanted_at > WANTED_FOR_S or not self.may_send(viewer.screen.table):
                    self.log.info("venue: %s no longer wanted", viewer.subject)
                    self.dropped(viewer)
                elif viewer.changed and now - viewer.key_at >= KEY_EVERY_S:
                    viewer.want_key()

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for sub in self._subs:
            with contextlib.suppress(Exception):  # the connection may be gone
                await sub.unsubscribe()
        for viewer in list(self.viewers.values()):
            self.dropped(viewer)
        await self.stands.close()
