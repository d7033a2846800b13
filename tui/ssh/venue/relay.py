"""``fireteam relay``: spectators of any table of the venue, served from NATS alone.

A relay keeps no save: it follows the stream of the spectators' views
(``FIRETEAM_SPECTATORS``; its credentials read nothing else) with an ordered consumer,
which hands it the newest view of every table first (a late joiner's key frame: each view
is the whole log) and then each new one.  It serves them to browsers: the venue page (every
table live: ruleset, scenario, turn, score; a click to watch), a table's page (its log as
the spectators see it, live) and a table's report.  It follows the finished tables' chances
(``FIRETEAM_CHANCES``, the last per table) the same way, for the reports.

Watchers are sent the newest state only: one that reads slowly skips the views it missed
(its next message is the newest), as a shared screen skips frames for a slow spectator.

Relays find each other on core NATS (``fireteam.relay.ID``, each saying where browsers reach
it, every few seconds); every page is told the live relays, and goes to another when its
own stops answering.

Nothing is believed for where it came from (NATS cannot say who published): a view or a
table's chances is taken only signed (``tui.ssh.venue.signed``), and shown with its signer's
fingerprint; the chances only with a view signed by the same key.  A relay signs its
announcements with its own key, and offers pages only the relays whose keys it was given
(``relay_keys``, ``fireteam relay --relay-keys``) and itself: an address announced by any
other key is never a page's to open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from importlib import resources
from typing import TYPE_CHECKING, Any

import asyncssh
import msgspec
from aiohttp import WSMsgType, web
from rich.color import ColorSystem

from core.language.reader import LANGUAGES, SOURCE
from core.report.venue import TableChances, read_chances
from core.storage.errors import SaveError
from core.venue import (
    CHANCES_SUBJECTS,
    MAX_TABLES,
    MAX_VIEW_BYTES,
    NAME,
    SPECTATOR_SUBJECTS,
    STREAM_CHANCES,
    STREAM_SPECTATORS,
    VenueError,
)
from tui.ssh.limits import Limits
from tui.ssh.seating.sharedscreen import Viewer
from tui.ssh.seating.stands import shared_size
from tui.ssh.venue.connection import NatsOptions, connect_until_done
from tui.ssh.venue.frames import Screen, checked_screen
from tui.ssh.venue.leaguepage import LeaguePage
from tui.ssh.venue.screens import RelayScreen
from tui.ssh.venue.signed import signed_headers, signer
from tui.ssh.venue.watched import Summary, Watched, take_view

if TYPE_CHECKING:
    from tui.ssh.venue.eventpage import EventPages

#: Seconds between a relay's announcements; one unheard for three of them is taken for gone.
ANNOUNCE_S = 2.0
RELAY_SUBJECTS = "fireteam.relay.*"
#: Browsers a relay serves at once; more are refused (another relay has room).
MAX_WATCHERS = 5000
#: The standings page is sent this much at a time (``Relay._standings``).
_PIECE = 1 << 16
#: A relay's announcement at most (a URL).
MAX_ANNOUNCEMENT = 512
#: The screens a relay follows at most (tables × languages × shared sizes that watchers asked for).
MAX_SCREENS = 500
_PAGES = resources.files("tui.ssh.venue") / "page"
#: xterm.js, vendored beside the browser seats' page (``tui.ssh.web.door``): the same files, served from here too.
_XTERM = resources.files("tui.ssh.web") / "page"
_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self' ws: wss: http: https:"
#: xterm.js styles its rows with <style> elements it makes: on the screen's page styles may be inline.
_SCREEN_CSP = _CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
_TYPES = {
    "venue.html": "text/html",
    "watch.html": "text/html",
    "screen.html": "text/html",
    "relay.js": "text/javascript",
    "screen.mjs": "text/javascript",
    "relay.css": "text/css",
    "xterm.mjs": "text/javascript",
    "addon-fit.mjs": "text/javascript",
    "xterm.css": "text/css",
}


class Announcement(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    url: str


class Relay:
    """The spectators' views of the venue's tables, followed on NATS, and the browsers watching them."""

    def __init__(
        self,
        options: NatsOptions | None,
        log: logging.Logger,
        *,
        public_url: str = "",
        key: asyncssh.SSHKey | None = None,
        relay_keys: tuple[asyncssh.SSHKey, ...] = (),
    ) -> None:
        self.options = options
        #: What signs this relay's announcements (a key of its own when none is given).
        self.key = key or asyncssh.generate_private_key("ssh-ed25519")
        #: The fingerprints of the relays whose announced addresses pages are offered: these and this one.
        self.relay_keys = {k.get_fingerprint() for k in relay_keys} | {self.key.get_fingerprint()}
        self.log = log
        self.public_url = public_url
        self.id = secrets.token_hex(6)
        self.tables: dict[str, Watched] = {}
        #: Each table's last chances and who signed them (a table's report shows them with the view they
        #: are of, signed by the same key).
        self.chances: dict[str, tuple[TableChances, str]] = {}
        #: Other relays heard of: their URL and when last heard.
        self.relays: dict[str, float] = {}
        self.changed = asyncio.Condition()
        #: Counts the changes a venue page shows (a table's view, a relay heard of or gone).
        self.generation = 0
        self._encoded: dict[str | None, tuple[int, bytes]] = {}
        self.watchers = 0
        self.refused_messages = 0
        self._nc: Any = None
        self._sub: Any = None
        self._chances_sub: Any = None
        self._chances_task: asyncio.Task[None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._runner: web.AppRunner | None = None
        self._feeds: set[asyncio.Task[Any]] = set()
        self.limits = Limits()
        #: The tables' spectators' screens that watchers watch here (``tui.ssh.venue.screens``).
        self.screens: dict[Screen, RelayScreen] = {}
        #: A league's standings page (``--league``; ``tui.ssh.venue.leaguepage``), or None.
        self.standings: LeaguePage | None = None
        #: An event's pages (``--event``; ``tui.ssh.venue.eventpage``), or None.
        self.event_pages: EventPages | None = None

    # ----------------------------------------------------------------- NATS

    async def start(self) -> None:
        """Follow the venue's tables on its NATS (never called without one: ``relay --league`` alone)."""
        assert self.options is not None
        self._nc = await connect_until_done(self.options, "fireteam relay", self.log, on_reconnect=self._reconnected)
        await self._follow()
        await self._nc.subscribe(RELAY_SUBJECTS, cb=self._heard)
        self._tasks.append(asyncio.get_running_loop().create_task(self._announce(), name="relay announcements"))

    def _reconnected(self) -> None:
        # The stream may have been restarted with the server: follow it again from each table's newest view.
        self._tasks.append(asyncio.get_running_loop().create_task(self._follow(), name="relay follows again"))

    async def _follow(self) -> None:
        from nats.js.api import DeliverPolicy

        for sub in (self._sub, self._chances_sub):
            if sub is not None:
                with contextlib.suppress(Exception):  # the old consumer went with the old connection
                    await sub.unsubscribe()
        self._sub = self._chances_sub = None
        if self._chances_task is not None:
            self._chances_task.cancel()
        js = self._nc.jetstream()
        while True:
            try:
                self._sub = await js.subscribe(
                    SPECTATOR_SUBJECTS,
                    stream=STREAM_SPECTATORS,
                    ordered_consumer=True,
                    deliver_policy=DeliverPolicy.LAST_PER_SUBJECT,
                    cb=self._view,
                )
                break
            except Exception as e:  # the stream not made yet (no table started), or JetStream not ready
                self.log.info("relay: waiting for the venue's stream (%s)", e or type(e).__name__)
                await asyncio.sleep(ANNOUNCE_S)
        # The chances apart: a venue whose relays' credentials predate them still shows the tables.
        self._chances_task = asyncio.get_running_loop().create_task(self._follow_chances(js), name="relay chances")
        self._tasks.append(self._chances_task)

    async def _follow_chances(self, js: Any) -> None:
        from nats.js.api import DeliverPolicy

        said = False
        while True:
            try:
                self._chances_sub = await js.subscribe(
                    CHANCES_SUBJECTS,
                    stream=STREAM_CHANCES,
                    ordered_consumer=True,
                    deliver_policy=DeliverPolicy.LAST_PER_SUBJECT,
                    cb=self._chances,
                )
                return
            except Exception as e:  # not made yet, or out of these credentials' reach (docs/ssh.md)
                if not said:
                    self.log.warning("relay: the finished tables' chances not followed yet (%s)", e or type(e).__name__)
                    said = True
                await asyncio.sleep(ANNOUNCE_S)

    async def _view(self, msg: Any) -> None:
        if len(msg.data) > MAX_VIEW_BYTES:
            self._refused(msg.subject, "too large")
            await self._frame_taken()  # (for ``until``: a refusal changes nothing a page shows)
            return
        try:
            key = signer(msg.subject, msg.data, msg.headers)
            if key is None:
                raise VenueError("unsigned, or its signature is not its key's: not shown")
            watched = take_view(self.tables, MAX_TABLES, msg.subject, msg.data, key)
        except (VenueError, SaveError) as e:
            self._refused(msg.subject, str(e))
            await self._frame_taken()
            return
        if watched is not None:
            await self._changed()

    async def _chances(self, msg: Any) -> None:
        try:
            key = signer(msg.subject, msg.data, msg.headers)
            if key is None:
                raise VenueError("unsigned, or its signature is not its key's: not shown")
            table, chances = read_chances(msg.subject, msg.data)
            if table not in self.chances and len(self.chances) >= MAX_TABLES:
                raise VenueError(f"more than {MAX_TABLES} tables; not followed")
        except VenueError as e:
            self._refused(msg.subject, str(e))
        else:
            self.chances[table] = (chances, key)
        await self._frame_taken()  # (for ``until``: the chances are on the report, which no feed sends)

    async def _changed(self) -> None:
        self.generation += 1
        async with self.changed:
            self.changed.notify_all()

    def _refused(self, subject: str, why: str) -> None:
        self.refused_messages += 1
        if self.refused_messages <= 10 or self.refused_messages % 1000 == 0:  # a flood is not a flood of log lines
            self.log.warning(
                "relay: message on %r refused (%d so far): %s", subject[:100], self.refused_messages, why[:300]
            )

    async def _heard(self, msg: Any) -> None:
        if len(msg.data) > MAX_ANNOUNCEMENT:
            return
        if signer(msg.subject, msg.data, msg.headers) not in self.relay_keys:
            self._refused(msg.subject, "an announcement not signed by a relay of this venue: its address not offered")
            return
        try:
            url = msgspec.json.decode(msg.data, type=Announcement).url
        except (msgspec.ValidationError, msgspec.DecodeError):
            return
        if url.startswith(("http://", "https://")) and (url in self.relays or len(self.relays) < 100):
            new = url not in self.relays
            self.relays[url] = time.monotonic()
            if new:
                await self._changed()

    async def _announce(self) -> None:
        while True:
            if self.public_url:
                subject, body = f"fireteam.relay.{self.id}", msgspec.json.encode(Announcement(self.public_url))
                await self._nc.publish(subject, body, headers=signed_headers(self.key, subject, body))
            await asyncio.sleep(ANNOUNCE_S)

    def live_relays(self) -> list[str]:
        now = time.monotonic()
        heard = [url for url, when in self.relays.items() if now - when < 3 * ANNOUNCE_S]
        return sorted({*heard, *([self.public_url] if self.public_url else [])})

    async def until(self, check) -> None:
        """Wait until ``check()`` holds, looked at after each view taken in (tests)."""
        async with self.changed:
            await self.changed.wait_for(check)

    # ----------------------------------------------------------------- the web

    def app(self) -> web.Application:
        app = web.Application(client_max_size=1024)
        app.router.add_get("/", self._page("venue.html"))
        app.router.add_get("/watch/{table}", self._page("watch.html"))
        app.router.add_get("/relay.js", self._page("relay.js"))
        app.router.add_get("/relay.css", self._page("relay.css"))
        app.router.add_get("/screen/{table}", self._page("screen.html", _SCREEN_CSP))
        for name in ("screen.mjs", "xterm.mjs", "addon-fit.mjs", "xterm.css"):
            app.router.add_get("/" + name, self._page(name))
        app.router.add_get("/frames/{table}", self._frames)
        app.router.add_get("/tables", self._tables)
        app.router.add_get("/relays", self._relays)
        app.router.add_get("/report/{table}", self._report)
        app.router.add_get("/live", self._live)
        app.router.add_get("/live/{table}", self._live)
        if self.standings is not None:
            app.router.add_get("/standings", self._standings)
        if self.event_pages is not None:
            for path in ("/event", "/event.txt", "/event.json", "/event/{page}"):
                app.router.add_get(path, self._event)
        return app

    async def start_web(self, host: str, port: int) -> int:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        bound = self._runner.addresses[0][1]
        if not self.public_url:
            self.public_url = f"http://{host}:{bound}"
        return bound

    def _page(self, name: str, csp: str = _CSP):
        body = ((_PAGES if (_PAGES / name).is_file() else _XTERM) / name).read_bytes()

        async def page(request: web.Request) -> web.Response:
            return web.Response(body=body, content_type=_TYPES[name], headers=_headers(csp))

        return page

    def _summaries(self) -> list[Summary]:
        return [w.summary for _name, w in sorted(self.tables.items()) if w.summary is not None]

    async def _tables(self, request: web.Request) -> web.Response:
        return _json({"tables": self._summaries(), "relays": self.live_relays()})

    async def _relays(self, request: web.Request) -> web.Response:
        return _json({"relays": self.live_relays()})

    async def _report(self, request: web.Request) -> web.Response:
        """A table's report: its styles are its own ``<style>`` elements, each allowed by its hash."""
        w = self._watched(request)
        chances, key = self.chances.get(w.table, (None, ""))
        page = w.report(chances if key == w.key else None)
        return web.Response(text=page.html, content_type="text/html", headers=_headers(_report_csp(page.style_sources)))

    async def _standings(self, request: web.Request) -> web.StreamResponse:
        """The league's standings (``--league``): a page of escaped text, no script, its one style
        allowed by its hash (``core.league.render``).  Sent a piece at a time, each when the connection
        has taken the last (``StreamResponse.write`` waits on it): every request shares the one page's
        bytes instead of holding a copy of its own."""
        assert self.standings is not None
        status, body, kind = await self.standings.answer(request)
        response = web.StreamResponse(status=status, headers=_headers(_report_csp((self.standings.style_source,))))
        response.content_type, response.charset, response.content_length = kind, "utf-8", len(body)
        await response.prepare(request)
        view = memoryview(body)
        for at in range(0, len(view), _PIECE):
            await response.write(view[at : at + _PIECE])
        await response.write_eof()
        return response

    async def _event(self, request: web.Request) -> web.Response:
        """An event's page (``--event``): its style its own ``<style>``, allowed by its hash; text; JSON."""
        assert self.event_pages is not None
        status, body, kind, styles = await self.event_pages.answer(request)
        headers = _headers(_report_csp(styles) if styles else _CSP)
        return web.Response(status=status, body=body, content_type=kind, charset="utf-8", headers=headers)

    def _watched(self, request: web.Request) -> Watched:
        name = request.match_info["table"]
        w = self.tables.get(name) if NAME.fullmatch(name) else None
        if w is None or w.summary is None:
            raise web.HTTPNotFound(text="no such table at this venue")
        return w

    async def _live(self, request: web.Request) -> web.StreamResponse:
        """A page's live feed: the venue's tables (``/live``) or one table (``/live/TABLE``), the newest each time."""
        table = request.match_info.get("table")
        if table is not None and not NAME.fullmatch(table):
            raise web.HTTPNotFound(text="no such table at this venue")
        if self.watchers >= MAX_WATCHERS:
            raise web.HTTPServiceUnavailable(text="this relay is full; another will have room")
        ws = web.WebSocketResponse(max_msg_size=256, heartbeat=30.0)
        await ws.prepare(request)
        self.watchers += 1
        feed = asyncio.current_task()
        assert feed is not None
        self._feeds.add(feed)
        try:
            reader = asyncio.get_running_loop().create_task(_ignore_input(ws))
            sent = -1
            while not ws.closed and not reader.done():
                message, version = self._state(table)
                if version != sent:
                    await ws.send_bytes(message)  # the newest only: a slow page skips what it missed
                    sent = version
                waiter = asyncio.ensure_future(self._next_change(version, table))
                await asyncio.wait({waiter, reader}, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
            reader.cancel()
        finally:
            self.watchers -= 1
            self._feeds.discard(feed)
        return ws

    def _version(self, table: str | None) -> int:
        if table is None:
            return self.generation
        w = self.tables.get(table)
        return w.version if w is not None else 0

    def _state(self, table: str | None) -> tuple[bytes, int]:
        """What a page is sent now, and its version: encoded once for all the pages that watch it."""
        version = self._version(table)
        cached = self._encoded.get(table)
        if cached is not None and cached[0] == version:
            return cached[1], version
        relays = self.live_relays()
        if table is None:
            message = msgspec.json.encode({"tables": self._summaries(), "relays": relays})
        else:
            w = self.tables.get(table)
            summary, lines = (w.summary, w.lines) if w is not None else (None, [])
            message = msgspec.json.encode({"summary": summary, "lines": lines, "relays": relays})
        if table is None or table in self.tables:  # no entry for every name a browser makes up
            self._encoded[table] = (version, message)
        return message, version

    async def _next_change(self, version: int, table: str | None) -> None:
        async with self.changed:
            await self.changed.wait_for(lambda: self._version(table) != version)

    # ----------------------------------------------------------------- screens

    async def watch_screen(self, viewer: Viewer, name: str, screen: Screen) -> RelayScreen | None:
        """Seat ``viewer`` before a table's screen (followed from NATS from its first watcher); None if full."""
        held = self.screens.get(screen)
        if held is None:
            if len(self.screens) >= MAX_SCREENS:
                return None
            held = self.screens[screen] = RelayScreen(
                screen,
                self._nc,
                self.limits,
                self.log,
                on_idle=lambda: self._screen_idle(screen),
                on_frame=self._frame_taken,
            )
            await held.start()
        held.join(viewer, name)
        return held

    async def _frame_taken(self) -> None:
        """Wake whoever waits in ``until`` (a frame or a refusal taken in): the pages' feeds
        look at their versions, unchanged, and wait again."""
        async with self.changed:
            self.changed.notify_all()

    def _screen_idle(self, screen: Screen) -> None:
        held = self.screens.get(screen)
        if held is not None and not held.viewers:
            del self.screens[screen]
            self._tasks.append(asyncio.get_running_loop().create_task(held.close()))

    async def _frames(self, request: web.Request) -> web.StreamResponse:
        """A browser's terminal before a table's screen: the size picked, then the screen's bytes."""
        query = request.query
        lang = query.get("lang", SOURCE)
        try:
            cols, rows = int(query.get("cols", "80")[:5]), int(query.get("rows", "24")[:5])
            size = shared_size(cols, rows)  # the widest shared size that fits the browser's terminal
            screen = checked_screen(request.match_info["table"], lang if lang in LANGUAGES else SOURCE, size)
        except (ValueError, VenueError):
            raise web.HTTPNotFound(text="no such screen at this venue") from None
        if self.watchers >= MAX_WATCHERS:
            raise web.HTTPServiceUnavailable(text="this relay is full; another will have room")
        ws = web.WebSocketResponse(max_msg_size=256, heartbeat=30.0)
        await ws.prepare(request)
        self.watchers += 1
        feed = asyncio.current_task()
        assert feed is not None
        self._feeds.add(feed)
        viewer = _Browser(ws, request.transport)
        held = None
        try:
            told = {"cols": screen.size[0], "rows": screen.size[1], "relays": self.live_relays()}
            await ws.send_str(msgspec.json.encode(told).decode())
            held = await self.watch_screen(viewer, f"browser {request.remote}", screen)
            if held is not None:
                await _ignore_input(ws)
        finally:
            if held is not None:
                held.leave(viewer)
            viewer.stop()
            self.watchers -= 1
            self._feeds.discard(feed)
        return ws

    async def close(self) -> None:
        for screen in list(self.screens.values()):
            await screen.close()
        self.screens.clear()
        for task in [*self._tasks, *self._feeds]:  # a feed waits for news that will not come
            task.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
        if self._nc is not None:
            await self._nc.close()


async def _ignore_input(ws: web.WebSocketResponse) -> None:
    """A watcher sends nothing: anything it does send is read and dropped; its close ends the feed."""
    async for msg in ws:
        if msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
            break


class _Browser:
    """A browser's terminal before a screen: what it is sent, queued and sent by one task, and how much is unsent."""

    color_system = ColorSystem.TRUECOLOR  # xterm.js shows true colour

    def __init__(self, ws: web.WebSocketResponse, transport: asyncio.BaseTransport | None) -> None:
        self._ws = ws
        self._transport = transport
        self._pending: list[bytes] = []
        self._pending_bytes = 0
        self._in_flight = 0
        self._task: asyncio.Task[None] | None = None

    def buffered(self) -> int:
        t = self._transport
        queued = t.get_write_buffer_size() if isinstance(t, asyncio.WriteTransport) else 0
        return self._pending_bytes + self._in_flight + queued

    def send(self, data: str) -> None:
        if self._ws.closed:
            return
        chunk = data.encode("utf-8")
        self._pending.append(chunk)
        self._pending_bytes += len(chunk)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._pump(), name="browser screen")

    async def _pump(self) -> None:
        try:
            while self._pending:
                data = b"".join(self._pending)
                self._pending.clear()
                self._pending_bytes = 0
                self._in_flight = len(data)
                await self._ws.send_bytes(data)
                self._in_flight = 0
        except (ConnectionError, RuntimeError):
            pass  # the browser has gone: its reading side sees it too
        finally:
            self._task = None

    def fell_behind(self, seconds: float) -> None:
        self.stop()

    def screen_ended(self, failed: bool) -> None:
        self.stop()

    def stop(self) -> None:
        self._pending.clear()
        self._pending_bytes = 0
        if not self._ws.closed:
            asyncio.get_running_loop().create_task(self._ws.close())


def _report_csp(style_sources: tuple[str, ...]) -> str:
    """The relay's policy with a page's own styles allowed, by their hashes (a report's:
    ``render_html.Page``; the standings')."""
    return _CSP.replace("style-src 'self'", " ".join(("style-src 'self'", *style_sources)))


def _headers(csp: str = _CSP) -> dict[str, str]:
    return {"Content-Security-Policy": csp, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


def _json(value: Any) -> web.Response:
    return web.Response(body=msgspec.json.encode(value), content_type="application/json", headers=_headers())
