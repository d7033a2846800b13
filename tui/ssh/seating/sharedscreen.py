"""One screen drawn once for many spectators: render once, send many.

A spectator may see only what is public, in his language, and may do nothing
but watch: every spectator who reads the same language at the same size sees
exactly the same screen.  So the table draws that screen once, with one app
(``FireteamApp(watching=True)``, role ``spectator``), and sends the bytes of
each of its frames to every spectator watching it, as tty-share, sshx and
asciinema's live streams do.  A command costs one redraw for all of them,
plus the sending.

:class:`SharedScreen` is that app and its viewers.  The app runs on an
``SSHDriver`` whose terminal is the shared screen itself: each frame Textual
writes is sent to every viewer that keeps up, its colours brought down once
per colour system (not once per viewer).

* **A viewer who arrives late** (or who resizes, or who was skipped) is sent
  the whole current screen at once: it is rendered from Textual's compositor,
  from the caches its widgets keep, for the viewers waiting for it alone (the
  others are sent nothing), and kept until the next frame, so that a crowd
  arriving together costs one rendering.  Frames written meanwhile are not
  sent to him: the whole screen, rendered after them, holds them.
* **A slow viewer never slows the others**: before each frame, a viewer with
  more than ``Limits.spectator_buffer`` bytes still unsent is *behind*: the
  frames are not sent to him (nothing waits for him, nothing piles up), and
  once his backlog has drained he is sent the whole screen again.  Behind for
  longer than ``Limits.spectator_behind_s``, he is cut off, with a message.
* The viewers' keys reach no shared app, and the app's size is its own: a
  spectator's terminal is drawn on from the top left corner, whatever its
  size (``tui.ssh.seating.stands`` picks the shared size that fits it).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

from rich.color import ColorSystem
from rich.control import Control

from core.language.i18n import Text
from core.language.reader import Reader, use_reader
from tui.ssh.limits import Limits, QuietLog
from tui.ssh.seating.driver import bind_app, colors_for
from tui.textual_internals import LayoutUpdate, background_screens, screen_compositor, visible_screen_stack

if TYPE_CHECKING:
    from textual.app import App

    from tui.ssh.seating.driver import SSHDriver

#: What starts the whole screen sent to a viewer: plain colours, cursor home, screen cleared.
CLEAR = "\x1b[0m\x1b[H\x1b[2J"
#: Seconds between two looks at the viewers who are behind, to resync those whose backlog drained.
DRAIN_CHECK_S = 0.25


class Viewer(Protocol):
    """A spectator's terminal, as a shared screen sends to it (``tui.ssh.seating.seat.SeatSession``)."""

    @property
    def color_system(self) -> ColorSystem | None:
        """The colours his terminal shows (None: none)."""

    def buffered(self) -> int:
        """Bytes sent to him and not yet taken by his client."""

    def send(self, data: str) -> None:
        """Terminal output to him."""

    def fell_behind(self, seconds: float) -> None:
        """He has been behind for ``seconds``, past the limit: cut him off, telling him why."""

    def screen_ended(self, failed: bool) -> None:
        """The shared screen has closed (the server stops, or its app failed)."""


class State(Enum):
    #: Waiting for the whole screen (just arrived, resized, or caught up).
    WAITING = "waiting"
    #: Sent every frame.
    LIVE = "live"
    #: Too much unsent: sent nothing until it drains.
    BEHIND = "behind"


@dataclass(eq=False)
class Watching:
    viewer: Viewer
    name: str  # for the log: who he is
    state: State = State.WAITING
    #: When he fell behind (``time.monotonic``).
    since: float = 0.0
    #: Times he was sent the whole screen, and frames he was not sent while behind.
    wholes: int = 0
    skipped: int = 0


class SharedScreen:
    """One app drawing for every viewer of one table at one language and size (see the module's doc)."""

    def __init__(
        self,
        app: App[Any],
        *,
        size: tuple[int, int],
        reader: Reader,
        limits: Limits,
        log: logging.Logger,
        name: str,
        on_empty: Callable[[SharedScreen], None] = lambda screen: None,
    ) -> None:
        self.app = app
        #: The app's size: the driver's terminal size (``tui.ssh.seating.driver.Terminal``).
        self.size = size
        self.limits = limits
        self.reader = reader
        self.log = log
        #: For the log: which table, language and size.
        self.name = name
        self._on_empty = on_empty
        self._watching: dict[int, Watching] = {}  # by id(viewer)
        self._driver: SSHDriver | None = None
        self._quiet = QuietLog(log)
        #: Frames the app has written, and frames sent (one count per frame, not per viewer).
        self.frames = 0
        self._whole: dict[ColorSystem | None, str] = {}  # the whole screen, per colour system, as of frame ...
        self._whole_at = -1  # ... this one
        self._wholes_queued = False
        self._drain: asyncio.TimerHandle | None = None
        self.task: asyncio.Task[None] | None = None
        self.closed = False

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"shared screen {self.name}")

    async def _run(self) -> None:
        use_reader(self.reader)  # the screen's language, for its app and every task it starts
        # Drawn in true colour; each viewer's colours are brought down as it is sent (``_frame_for``).
        report = bind_app(self.app, self, {"TERM": "xterm-256color", "COLORTERM": "truecolor"})
        self.log.info("shared screen opened %s", self.name)
        failed = False
        try:
            await self.app.run_async(size=self.size, mouse=False)
            failed = bool(self.app.return_code)
        except Exception:
            self.log.exception("shared screen crashed %s", self.name)
            failed = True
        crash = report.getvalue().strip()
        if crash:
            failed = True
            self.log.error("shared screen crashed %s:\n%s", self.name, crash)
        self.closed = True
        if self._drain is not None:
            self._drain.cancel()
        self.log.info("shared screen closed %s", self.name)
        for watching in list(self._watching.values()):
            watching.viewer.screen_ended(failed)
        self._watching.clear()

    def close(self) -> None:
        """Close the app (its viewers are told, as it ends)."""
        self.app.exit()

    # -------------------------------------------------------------- viewers

    @property
    def viewers(self) -> int:
        return len(self._watching)

    def join(self, viewer: Viewer, name: str) -> None:
        """A viewer starts watching: he is sent the whole screen, then every frame."""
        self._watching[id(viewer)] = Watching(viewer, name)
        self._queue_wholes()

    def leave(self, viewer: Viewer) -> None:
        if self._watching.pop(id(viewer), None) is not None and not self._watching and not self.closed:
            self._on_empty(self)

    def resend(self, viewer: Viewer) -> None:
        """Send this viewer the whole screen again (his terminal changed size, or was written over)."""
        watching = self._watching.get(id(viewer))
        if watching is not None and watching.state is not State.BEHIND:
            watching.state = State.WAITING
            self._queue_wholes()

    def state(self, viewer: Viewer) -> tuple[State, int, int] | None:
        """A viewer's state, and how often he was sent the whole screen and skipped a frame (for tests)."""
        watching = self._watching.get(id(viewer))
        return None if watching is None else (watching.state, watching.wholes, watching.skipped)

    # -------------------------------------------- the driver's terminal (frames)

    def attach(self, driver: SSHDriver | None) -> None:
        self._driver = driver

    def input_refused(self, why: Text) -> None:
        """Never: no input reaches a shared screen."""

    def write(self, data: str) -> None:
        """A frame of the app: to every viewer who keeps up."""
        self.frames += 1
        to_live(self._watching, data, self.limits, self._fell_behind)
        self._queue_wholes()

    # ------------------------------------------------------ the whole screen

    def _queue_wholes(self) -> None:
        """Send the whole screen, soon, to the viewers waiting for it (in the app's task: its widgets render there)."""
        if self._wholes_queued or self._driver is None or self.closed:
            return
        if not any(w.state is State.WAITING for w in self._watching.values()):
            return
        self._wholes_queued = self.app.call_later(self._send_wholes)

    def _send_wholes(self) -> None:
        self._wholes_queued = False
        waiting = [w for w in self._watching.values() if w.state is State.WAITING]
        if not waiting or not self._can_render():
            return  # no screen yet: the app's first frame queues this again
        if self._whole_at != self.frames:
            self._whole.clear()
            self._whole_at = self.frames
        for watching in waiting:
            system = watching.viewer.color_system
            text = self._whole.get(system)
            if text is None:
                try:
                    text = self._whole[system] = colors_for(CLEAR + self._render_whole(), system)
                except Exception:
                    # Textual's insides changed under us: repaint for all, which the waiting get as a frame.
                    self.log.exception("shared screen %s: cannot render the whole screen; repainting it", self.name)
                    for w in waiting:
                        w.state = State.LIVE
                    self.app.refresh()
                    return
            watching.viewer.send(text)
            watching.state = State.LIVE
            watching.wholes += 1

    def _can_render(self) -> bool:
        app = self.app
        return app.is_running and bool(app.screen_stack) and app.screen.is_mounted

    def _render_whole(self) -> str:
        """The whole screen as the app's last frames left it: escape codes that draw it from the top left.

        What ``Compositor.render_full_update`` draws, without its side effect (it
        forgets the regions waiting to be redrawn for everybody): the lines of
        the screen, from the widgets' caches, then the cursor where the app puts it.
        """
        app = self.app
        screen = app.screen
        compositor = screen_compositor(screen)
        visible_screen_stack.set(background_screens(app))
        strips = compositor.render_strips()
        update = LayoutUpdate([[strip] for strip in strips], compositor.size.region)
        cursor = screen.outer_size.clamp_offset(app.cursor_position)
        return update.render_segments(app.console) + Control.move_to(*cursor).segment.text

    # ------------------------------------------------------------ slow viewers

    def _fell_behind(self, watching: Watching) -> None:
        self._quiet.warning(
            f"behind {watching.name}",
            "spectator behind %s on %s: %d bytes unsent (limit %d): frames skipped until it drains",
            watching.name,
            self.name,
            watching.viewer.buffered(),
            self.limits.spectator_buffer,
        )
        if self._drain is None:
            self._drain = asyncio.get_running_loop().call_later(DRAIN_CHECK_S, self._check_behind)

    def _check_behind(self) -> None:
        """Resync the viewers whose backlog has drained; cut off those behind for too long."""
        self._drain = None
        behind = catch_up(self._watching, self.limits, self._cut_off)
        self._queue_wholes()
        if behind and not self.closed:
            self._drain = asyncio.get_running_loop().call_later(DRAIN_CHECK_S, self._check_behind)
        if not self._watching and not self.closed:
            self._on_empty(self)

    def _cut_off(self, watching: Watching, late: float) -> None:
        self.log.warning(
            "spectator cut off %s on %s: behind for %.0f s (limit %.0f s)",
            watching.name,
            self.name,
            late,
            self.limits.spectator_behind_s,
        )


def to_live(watching: dict[int, Watching], frame: str, limits: Limits, fell_behind: Callable[[Watching], None]) -> None:
    """Send ``frame`` to every viewer who keeps up, its colours brought down once per colour system; one with
    more than ``limits.spectator_buffer`` bytes unsent falls behind instead (``fell_behind`` told)."""
    sent: dict[ColorSystem | None, str] = {}
    for w in list(watching.values()):
        if w.state is State.LIVE:
            if w.viewer.buffered() > limits.spectator_buffer:
                w.state, w.since, w.skipped = State.BEHIND, time.monotonic(), w.skipped + 1
                fell_behind(w)
                continue
            system = w.viewer.color_system
            text = sent.get(system)
            if text is None:
                text = sent[system] = colors_for(frame, system)
            w.viewer.send(text)
        elif w.state is State.BEHIND:
            w.skipped += 1


def catch_up(watching: dict[int, Watching], limits: Limits, cut_off: Callable[[Watching, float], None]) -> bool:
    """The viewers behind whose backlog has drained to a quarter of ``limits.spectator_buffer`` wait for the
    whole screen again; those behind longer than ``limits.spectator_behind_s`` are cut off (and ``cut_off``
    told how late).  Whether any is still behind."""
    now = time.monotonic()
    low = limits.spectator_buffer // 4
    behind = False
    for w in list(watching.values()):
        if w.state is not State.BEHIND:
            continue
        if w.viewer.buffered() <= low:
            w.state = State.WAITING
        elif now - w.since > limits.spectator_behind_s:
            cut_off(w, now - w.since)
            watching.pop(id(w.viewer), None)
            w.viewer.fell_behind(now - w.since)
        else:
            behind = True
    return behind
