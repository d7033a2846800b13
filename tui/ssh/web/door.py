"""The browser door of ``fireteam serve --web PORT``: a seat in a web page, drawn on a terminal in it.

A player opens his invitation's link (``/join/TOKEN``, ``tui.ssh.invitations.store``);
the token is exchanged for a cookie of his browser's own, and the page that
follows (``/``) is a terminal (xterm.js, vendored in ``page/``) joined to
the server by a websocket (``/ws``).  Over it, a :class:`~tui.ssh.seating.seat.SeatSession`
runs the seat exactly as for an SSH player: the same app for the seat's role,
in the seat's language, with every limit of an SSH seat, in the same process
that would hold an SSH seat (a seat worker, or the server's own with
``--workers 0``).  A browser seat is one more seat of the table, not a
process per tab.

The websocket speaks textual-serve's small protocol: the browser sends JSON
text messages ``["stdin", TEXT]`` (what was typed or pasted) and ``["resize",
{"width": W, "height": H}]``, and one of its own, ``["dice", HEX]``: 16 bytes
the page drew with ``crypto.getRandomValues`` before each line it enters, its
share of that command's sealed dice (docs/secrets.md); the server sends the terminal's bytes as binary
messages, between them text messages of its own (the dice's seal, ``["seal", DIGEST]``, and to a
spectator's page the size of the shared screen it shows next, ``["screen", {"width": W, "height": H}]``,
which the page draws its terminal at), and closes with code 4000 + exit status when the seat's session
ends, so the page knows not to reconnect, with one word of why as the close's
reason (:data:`END_REASONS`: the page says it in the player's language, and
offers to sit again only if ``/alive`` says the cookie still lets him in);
any other close is a dropped connection, which the page reconnects by itself.

A seat may sit as plain lines instead (the seats file's ``plain = true``, or
the plain page its player chose: ``/plain``, ``/ws?plain=1``), for a screen
reader or a braille display: no terminal, the same line client an SSH plain
seat hosts, and a few messages of the page's own (``tui.ssh.web.plain``).

Security (every request is hostile until checked):

* ``/join/TOKEN`` answers a token that lets nobody in (forged, expired,
  revoked, used up) with 403 and the same page whatever the reason; a good one
  sets an ``HttpOnly; SameSite=Strict`` cookie (``Secure`` under TLS) and
  answers with the seat's page itself (a round trip and a page fewer for each
  phone of a crowd), whose first script (:data:`LEAVE_JOIN`, the one script
  written in a page, let run by its hash) moves the address to ``/`` in place
  of its entry of the history before anything else is read, so neither the
  address bar nor the history keeps the token.  The page's own requests are
  this site's, so the Strict cookie goes with its websocket; should a browser
  keep it from a page reached from another site (a chat app), as browsers do
  from a redirect answering such a navigation (why this is not a 303), the
  page moves on to ``/`` by a navigation of its own, from this site.  A plain
  seat's link (or one ending in ``?plain``) answers a page that moves on to
  ``/plain`` by a refresh.
* With it goes a second cookie, the *finder* (``SameSite=Lax``: sent when
  the link is opened again from another site, a chat app, where the Strict
  one is not): ``/join/TOKEN`` uses it only to find the seat this browser
  holds already, so that opening the link again spends no use and takes no
  new cookie.  It lets nobody in anywhere.
* Login CSRF: a ``/join`` that another site started (``Sec-Fetch-Site``
  neither ``same-origin`` nor ``none``) never replaces a seat the browser
  holds (found by the finder) with another invitation's: the page asks
  instead, and only its own link (same-origin) takes the new seat.
* ``/``, ``/alive`` and ``/ws`` want the cookie; ``/ws`` wants an ``Origin``
  that is this server's own, so another site's page cannot open a seat with
  the player's cookie (cross-site websocket hijacking).
* Static files are a fixed table of names read once: no path from a request
  ever reaches the file system.
* Limits: a request's headers (and a TLS handshake) must come within
  ``Limits.web_request_s``, lines and headers are bounded, a websocket message
  is at most ``Limits.web_message_bytes`` and a browser may send
  ``Limits.web_message_rate`` of them a second (a browser past that is cut
  off, as an SSH client flooding window changes is); connections that are
  not yet a seat count against the web door's own limits, made for a crowd of
  browsers behind one address (``tui.ssh.web.gate``, in the process that
  accepts them), never against the SSH logins'; one invitation holds at most
  ``Limits.web_seats_per_invitation`` seats at once (in each process).
* No access log: a ``/join/TOKEN`` line would write the token down.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import gzip
import hashlib
import html
import json
import logging
import re
import socket
import ssl
import time
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

import msgspec
from aiohttp import WebSocketError, WSCloseCode, WSMsgType, web
from aiohttp.web_protocol import RequestHandler

from core.dice import CONTRIBUTION_BYTES, Share
from core.language.i18n import M, Text
from core.language.reader import Reader, reading
from core.secrets.sidecopy import MAX_COPY_BYTES, export
from core.views import SPECTATOR
from tui.ssh.invitations.store import COOKIE, Grant, InvitationRefused, Invitations, InvitationsError
from tui.ssh.language import _, browser_language
from tui.ssh.limits import QuietLog, TokenBucket, address_of
from tui.ssh.seating.chooser import GameChooser
from tui.ssh.seating.seat import Host, SeatSession, Table
from tui.ssh.seatsfile import Seat, Seats, seat_change
from tui.ssh.web.plain import WebPlainSeat

PAGE_FOLDER = Path(__file__).with_name("page")
#: The static files, by the name they are asked for: nothing else is ever read from disk.
ASSETS = {
    "xterm.mjs": "text/javascript",
    "xterm.css": "text/css",
    "fireteam.mjs": "text/javascript",
    "fireteam.css": "text/css",
    "plain.mjs": "text/javascript",
}
#: How long a browser keeps a static file under this version's address: a year, never asking again whether it
#: changed (a phone opening the page another day fetches nothing but the page; Chromium keeps the scripts compiled).
STATIC_KEPT = "public, max-age=31536000, immutable"
#: A browser's terminal: xterm.js shows 256 colours and true colour.
BROWSER_ENV = {"TERM": "xterm-256color", "COLORTERM": "truecolor"}
#: What may not stand in a downloaded copy's file name (a game's name is the host's file's): each becomes "_".
_UNSAFE_IN_NAME = re.compile(r"[^A-Za-z0-9._-]")
#: A browser's size before it says (the page sends its own at once).
DEFAULT_SIZE = (80, 24)
#: Seconds between the server's websocket pings; a browser that does not answer one in half that is dropped.
HEARTBEAT_S = 30.0
#: The close code of a session the server ended: this + its exit status (the page does not reconnect).
ENDED = 4000
#: Why a session ended, the close's reason (``SeatSession.end_reason``): the page has a sentence for each.
END_REASONS = frozenset({"left", "failed", "kicked", "revoked", "expired", "seat", "stopped"})
#: Bounds of one request: its first line, each header, how many headers.
MAX_LINE, MAX_FIELD, MAX_HEADERS = 4096, 8190, 64
#: aiohttp's own log, of requests it refuses before they reach the door (a line too long...): silent, since
#: it quotes the request's first bytes, which may be a token.  The door logs what it refuses itself.
_QUIET = logging.getLogger("fireteam.serve.http")
_QUIET.propagate = False
_QUIET.addHandler(logging.NullHandler())
#: The one script written in a page: the terminal page that answers ``/join/TOKEN`` takes the token out of
#: the address bar and out of its entry of the history before anything else is read (and marks the entry,
#: so that the page knows where it came from); the Content-Security-Policy lets it run by its hash alone.
LEAVE_JOIN = 'history.replaceState("joined", "", "/")'
_LEAVE_JOIN_HASH = base64.b64encode(hashlib.sha256(LEAVE_JOIN.encode()).digest()).decode()
#: What every answer says to the browser about itself.
SECURITY_HEADERS = {
    # xterm.js styles its rows with <style> elements it makes: styles may be inline, scripts may not.
    "Content-Security-Policy": (
        f"default-src 'none'; script-src 'self' 'sha256-{_LEAVE_JOIN_HASH}'; style-src 'self' 'unsafe-inline'; "
        "connect-src 'self'; "
        "img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Server": "fireteam",  # not aiohttp's name and version
}


class _Size(msgspec.Struct, forbid_unknown_fields=True):
    width: int
    height: int


#: A browser's message: its kind and its value, typed so that nothing else (a deep nest of arrays, say) is read.
_MESSAGE = msgspec.json.Decoder(tuple[str, str | _Size | tuple[str, int]])


def _json_in_html(value: Any) -> str:
    """JSON in a script element: no "<" may close it early."""
    return json.dumps(value, ensure_ascii=True).replace("<", "\\u003c")


def contribution_of(text: str) -> Share | None:
    """A page's share of the dice, ``HEX SEAL COUNT``: exactly ``CONTRIBUTION_BYTES`` as lowercase
    hex, the commitment of the key the page was told was in force when it drew them (64 lowercase
    hex digits, or nothing for none), and the seat's count of its shares it was told comes next
    (1 to ``MAX_SHARE_COUNT``, in decimal); None for anything else.  A page from before sends
    ``HEX SEAL`` or ``HEX`` alone (so does a proxy that strips a share's seal): its count, and then
    its seal, are None, and the table refuses such a share while the dice are sealed (``core.shares``)."""
    parts = text.split(" ")
    if len(parts) > 3:
        return None
    mine, seal, count = parts[0], parts[1] if len(parts) > 1 else None, parts[2] if len(parts) > 2 else None
    if len(mine) != 2 * CONTRIBUTION_BYTES or mine.strip(_HEX):
        return None
    if seal is not None and (len(seal) not in (0, 2 * DIGEST_BYTES) or seal.strip(_HEX)):
        return None
    if count is not None and not (count.isascii() and count.isdigit() and 0 < int(count) <= MAX_SHARE_COUNT):
        return None
    return Share(bytes.fromhex(mine), seal, None if count is None else int(count))


#: The highest count of a seat's shares a page may name (a game rolls far fewer).
MAX_SHARE_COUNT = 10**9
_HEX = "0123456789abcdef"
#: Bytes in a key's commitment (a SHA-256 digest).
DIGEST_BYTES = 32


class WebHost(Host, Protocol):
    """What the browser door needs of the server, beyond what a seat does (``tui.ssh.server.FireteamServer``)."""

    invitations: Invitations | None
    quiet_log: QuietLog

    @property
    def seats(self) -> Seats: ...

    def redeem(self, token: str, peer: str, *, key: Any = None) -> Grant: ...

    def logged_in(self, peer: str) -> None: ...


@cache
def _asset(name: str, gzipped: bool = False) -> bytes:
    """A static file, read once; ``gzipped``, compressed once (xterm.mjs: 345 KB, 88 KB so: thirty phones
    on a venue's Wi-Fi fetch it at once)."""
    data = (PAGE_FOLDER / name).read_bytes()
    return gzip.compress(data, compresslevel=9, mtime=0) if gzipped else data


@cache
def _digest(name: str) -> str:
    """A static file's digest, its ETag."""
    return hashlib.sha256(_asset(name)).hexdigest()[:20]


@cache
def version() -> str:
    """The static files' version, in the addresses the pages give them (``/static/NAME?v=VERSION``): a digest of
    them all, so that a browser keeps them for good, and a server with other files gives them other addresses."""
    return hashlib.sha256("".join(f"{name} {_digest(name)}\n" for name in sorted(ASSETS)).encode()).hexdigest()[:12]


def _takes_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip (and does not refuse it with ``q=0``)."""
    for item in accept_encoding.split(",")[:32]:
        coding, _, params = item.strip().partition(";")
        if coding.strip().lower() == "gzip":
            return params.replace(" ", "").lower() not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


@cache
def _template(name: str) -> str:
    return (PAGE_FOLDER / name).read_text(encoding="utf-8")


def tls_context(cert: Path, key: Path) -> ssl.SSLContext:
    """The TLS of the browser seats (``fireteam serve --cert FILE --key FILE``): TLS 1.2 and later."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    return context


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL, as a browser writes it in ``Origin`` ("" if it is not one)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return ""
    default = {"http": 80, "https": 443}[parts.scheme]
    port = f":{parts.port}" if parts.port and parts.port != default else ""
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}{port}"


class _Connection:
    """One accepted connection: its deadline for the next request's headers, and its end."""

    def __init__(self, peer: str, loop: asyncio.AbstractEventLoop, limit_s: float) -> None:
        self.peer = peer
        self.transport: asyncio.BaseTransport | None = None
        self.lost: asyncio.Future[None] = loop.create_future()
        self.upgraded = False  # a websocket now: kept alive by pings, not by requests
        self._event_loop = loop
        self._limit_s = limit_s
        self._busy = 0
        self._timer: asyncio.TimerHandle | None = None

    def made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self._arm()

    def _arm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._event_loop.call_later(self._limit_s, self._expire)

    def _expire(self) -> None:
        self._timer = None
        if not self._busy and not self.upgraded and self.transport is not None:
            self.transport.abort()  # no request (or not all of its headers) in time

    def started(self) -> None:
        self._busy += 1
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def ended(self) -> None:
        self._busy -= 1
        if not self._busy and not self.upgraded and not self.lost.done():
            self._arm()

    def gone(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self.lost.done():
            self.lost.set_result(None)


class _Protocol(RequestHandler):
    """aiohttp's HTTP protocol, telling its :class:`_Connection` when it starts and ends."""

    def __init__(self, manager: web.Server, connection: _Connection, **kwargs: Any) -> None:
        super().__init__(manager, **kwargs)
        self.connection = connection

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.connection.made(transport)

    def connection_lost(self, exc: BaseException | None) -> None:
        super().connection_lost(exc)
        self.connection.gone()


class _WebChannel:
    """A websocket as a seat's :class:`tui.ssh.seating.seat.Channel`: output gathered and sent as binary messages."""

    def __init__(
        self, ws: web.WebSocketResponse, transport: asyncio.BaseTransport | None, why: Callable[[], str]
    ) -> None:
        self._ws = ws
        self._transport = transport
        self._why = why  # the session's end reason, sent with the close
        self._pending: list[bytes | str] = []  # bytes: the terminal's output; str: a page's own message
        self._pending_bytes = 0
        self._in_flight = 0
        self._exit: int | None = None
        self._task: asyncio.Task[None] | None = None

    def write(self, data: str) -> None:
        if self._ws.closed or self._exit is not None:
            raise ConnectionResetError("the browser has gone")
        chunk = data.encode("utf-8", "replace")
        self._pending.append(chunk)
        self._pending_bytes += len(chunk)
        self._pump()

    def control(self, message: list[Any]) -> None:
        """A message of the plain page's own (``tui.ssh.web.plain``), as JSON text, in order with the output."""
        if self._ws.closed or self._exit is not None:
            return
        text = json.dumps(message, ensure_ascii=True)
        self._pending.append(text)
        self._pending_bytes += len(text)
        self._pump()

    def buffered(self) -> int:
        transport = self._transport
        queued = transport.get_write_buffer_size() if isinstance(transport, asyncio.WriteTransport) else 0
        return self._pending_bytes + self._in_flight + queued

    def abort(self) -> None:
        self._pending.clear()
        self._pending_bytes = 0
        if self._transport is not None:
            self._transport.abort()  # type: ignore[attr-defined]

    def exit(self, status: int) -> None:
        if self._exit is None:
            self._exit = status
            self._pump()

    def _pump(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._send(), name="browser output")

    async def _send(self) -> None:
        """Everything written since the last message, as one message (a frame's writes go out together; a
        page's own messages between them, each as it came)."""
        try:
            while self._pending or self._exit is not None:
                if self._pending:
                    batch = self._pending
                    self._pending = []
                    self._in_flight, self._pending_bytes = self._pending_bytes, 0
                    for message in _grouped(batch):
                        if isinstance(message, bytes):
                            await self._ws.send_bytes(message)  # waits while the browser is slow to read
                        else:
                            await self._ws.send_str(message)
                    self._in_flight = 0
                    continue
                why = self._why()
                await self._ws.close(
                    code=ENDED + min(max(self._exit or 0, 0), 99),
                    message=why.encode() if why in END_REASONS else b"",
                )
                return
        except (ConnectionError, RuntimeError):
            pass  # the browser has gone: the reading side sees it too
        finally:
            self._task = None


def _grouped(batch: list[bytes | str]) -> list[bytes | str]:
    """The output written in a row as one message; each of a page's own messages alone, in its place."""
    grouped: list[bytes | str] = []
    run: list[bytes] = []  # joined once: a frame is many small writes
    for item in batch:
        if isinstance(item, bytes):
            run.append(item)
            continue
        if run:
            grouped.append(b"".join(run))
            run = []
        grouped.append(item)
    if run:
        grouped.append(b"".join(run))
    return grouped


class WebDoor:
    """The browser door of one process (the table's with ``--workers 0``, else each seat worker's)."""

    def __init__(self, host: WebHost, *, port: int, public_url: str = "", tls: ssl.SSLContext | None = None) -> None:
        self.host = host
        #: The port browsers reach (0 until known): it names the cookie.
        self.port = port
        self._tls = tls
        self._secure = tls is not None or public_url.startswith("https://")
        self._public_origin = origin_of(public_url)
        self._server: web.Server | None = None
        self._quiet = QuietLog(host.log)
        self._seated: dict[str, int] = {}  # invitation id -> its browser seats open here

    @property
    def log(self) -> logging.Logger:
        return self.host.log

    @property
    def cookie_name(self) -> str:
        """One server's cookie, whatever else runs on the same host (cookies ignore ports)."""
        return f"fireteam-{self.port}"

    @property
    def finder_name(self) -> str:
        """The finder's cookie (``SameSite=Lax``), which only finds the seat a browser holds."""
        return f"fireteam-{self.port}-find"

    # ------------------------------------------------------------ connections

    async def serve(self, sock: socket.socket, peer: str) -> None:
        """Serve one accepted connection until it closes."""
        loop = asyncio.get_running_loop()
        if self._server is None:
            self._server = web.Server(self._handle, loop=loop)
        manager = self._server
        limits = self.host.limits
        connection = _Connection(peer, loop, limits.web_request_s)

        def protocol() -> _Protocol:
            return _Protocol(
                manager,
                connection,
                loop=loop,
                keepalive_timeout=limits.web_request_s,
                access_log=None,  # a /join/TOKEN line would write the token down
                logger=_QUIET,
                max_line_size=MAX_LINE,
                max_field_size=MAX_FIELD,
                max_headers=MAX_HEADERS,
            )

        try:
            await loop.connect_accepted_socket(
                protocol,
                sock,
                ssl=self._tls,
                ssl_handshake_timeout=limits.web_request_s if self._tls is not None else None,
            )
        except (OSError, ssl.SSLError, TimeoutError) as e:
            self.log.info("web connection from=%s ended before a request: %s", peer, e)
            sock.close()
            return
        await connection.lost

    async def close(self) -> None:
        if self._server is not None:
            await self._server.shutdown(1.0)

    # ---------------------------------------------------------------- routes

    async def _handle(self, request: web.BaseRequest) -> web.StreamResponse:
        connection: _Connection = request.protocol.connection  # type: ignore[attr-defined]
        connection.started()
        try:
            return await self._route(request, connection)
        except Exception:
            self.log.exception("web request failed from=%s", connection.peer)
            return self._notice(request, 500, _("The server failed on this request."))
        finally:
            connection.ended()

    async def _route(self, request: web.BaseRequest, connection: _Connection) -> web.StreamResponse:
        if request.method != "GET":
            return self._notice(request, 405, _("There is nothing here."), close=True)
        path = request.path
        if path == "/ws":
            return await self._socket(request, connection)
        if path in ("/", "/plain"):
            grant = self._grant(request)
            if grant is None:
                return self._forbidden(request)
            seat = self._seat(grant)
            # A seat the seats file makes plain never gets the terminal; any other may choose the plain page.
            if path == "/plain" or (seat is not None and seat.plain):
                return self._plain_page(request, chosen=seat is None or not seat.plain)
            return self._page(request, watching=grant.spectators)
        if path == "/alive":  # the page asks, before reconnecting, whether its cookie still lets it in
            return (
                web.Response(status=204, headers=self._headers()) if self._grant(request) else self._forbidden(request)
            )
        if path == "/copy":
            return self._copy(request)
        if path.startswith("/join/"):
            return self._join(request, path[len("/join/") :], connection.peer)
        if path.startswith("/static/") and (kind := ASSETS.get(path[len("/static/") :])):
            return self._static(request, path[len("/static/") :], kind)
        return self._notice(request, 404, _("There is nothing here."))

    def _copy(self, request: web.BaseRequest) -> web.Response:
        """``/copy?game=NAME``: the browser's seat's copy of its game so far, a file for the player's own machine
        (``tui.copies``, docs/ssh.md): the game its invitation names, else the one asked, else the only one."""
        grant = self._grant(request)
        seat = self._seat(grant) if grant is not None else None
        if grant is None or seat is None:
            return self._forbidden(request)
        tables = {t.name: t for t in self.host.tables}
        name = grant.game or request.query.get("game", "")
        table = tables.get(name) if name else next(iter(tables.values())) if len(tables) == 1 else None
        if table is None:
            return self._notice(request, 404, _("There is nothing here."))
        data = msgspec.json.encode(export(table.game, seat.role)) + b"\n"
        if len(data) > MAX_COPY_BYTES:  # (it could not be read back)
            return self._notice(request, 413, _("This game's copy is larger than a copy can be."))
        filename = _UNSAFE_IN_NAME.sub("_", f"{table.name}-{seat.role}.ft")
        self.log.info("copy seat=%s role=%s game=%s bytes=%d", seat.name, seat.role, table.name, len(data))
        headers = {**self._headers(), "Content-Disposition": f'attachment; filename="{filename}"'}
        return web.Response(body=data, content_type="application/json", headers=headers)

    def _static(self, request: web.BaseRequest, name: str, kind: str) -> web.Response:
        """A static file, gzipped to a browser that takes it: under the pages' address of this version (``?v=``,
        :func:`version`) kept as long as a browser likes (another version has another address), under any other an
        hour; either way a browser that has it already (its ETag, one for each encoding) is answered 304."""
        kept = STATIC_KEPT if request.query.get("v") == version() else "public, max-age=3600"
        gzipped = _takes_gzip(request.headers.get("Accept-Encoding", ""))
        etag = f'"{_digest(name)}{"-gzip" if gzipped else ""}"'
        headers = {**self._headers(cache=kept), "Vary": "Accept-Encoding", "ETag": etag}
        held = request.headers.get("If-None-Match", "")[:1024].split(",")
        if etag in {tag.strip().removeprefix("W/") for tag in held}:
            return web.Response(status=304, headers=headers)
        if gzipped:
            headers["Content-Encoding"] = "gzip"
        return web.Response(body=_asset(name, gzipped), content_type=kind, charset="utf-8", headers=headers)

    def _headers(self, *, cache: str = "no-store") -> dict[str, str]:
        return {**SECURITY_HEADERS, "Cache-Control": cache}

    def _language(self, request: web.BaseRequest) -> str:
        return browser_language("", request.headers.get("Accept-Language"), self.host.lang)

    def _notice(
        self,
        request: web.BaseRequest,
        status: int,
        text: str,
        *,
        onward: str = "",
        close: bool = False,
        links: Sequence[tuple[str, str]] = (),
        fields: dict[str, str] | None = None,
    ) -> web.Response:
        """A page of one sentence (``text``, with ``fields`` put in), in the browser's language; ``onward``:
        where it moves on to at once; ``links``: (address, words) it offers, each on a line of its own."""
        lang = self._language(request)
        with reading(lang):
            offered = "".join(
                f'<p><a href="{html.escape(href)}">{html.escape(_(words))}</a></p>' for href, words in links
            )
            body = (
                _template("notice.html")
                .replace("{{version}}", version())
                .replace("{{lang}}", lang)
                .replace("{{title}}", html.escape(_("Fireteam")))
                .replace("{{text}}", html.escape(_(text).format(**(fields or {})) if text else ""))
                .replace("{{links}}", offered)
                # A refresh, not a script: nothing more to fetch (a file refused in a crowd would leave the
                # page here), and it replaces this entry of the history, as location.replace does.
                .replace("{{head}}", f'<meta http-equiv="refresh" content="0;url={onward}">' if onward else "")
            )
        headers = self._headers()
        if close:
            headers["Connection"] = "close"
        return web.Response(status=status, text=body, content_type="text/html", headers=headers)

    def _forbidden(self, request: web.BaseRequest) -> web.Response:
        """The one answer to every token or cookie that lets nobody in, whatever the reason."""
        return self._notice(
            request,
            403,
            _(
                "This link does not let you in. It may be mistyped, expired, used up or revoked: "
                "ask the organiser for a new one."
            ),
        )

    def _grant(self, request: web.BaseRequest) -> Grant | None:
        """Who the request's cookie says the browser is, if it still lets it in."""
        cookie = request.cookies.get(self.cookie_name, "")
        invitations = self.host.invitations
        if not cookie or invitations is None or not COOKIE.fullmatch(cookie):
            return None
        try:
            return invitations.browser(cookie)
        except InvitationRefused:
            return None
        except InvitationsError as e:
            self._quiet.warning("invitations", "every invitation refused: %s", e)
            return None

    def _found(self, request: web.BaseRequest) -> Grant | None:
        """The seat this browser holds, found by its finder (sent where the cookie is not); only to find it."""
        finder = request.cookies.get(self.finder_name, "")
        invitations = self.host.invitations
        if not finder or invitations is None or not COOKIE.fullmatch(finder):
            return None
        try:
            return invitations.found(finder)
        except (InvitationRefused, InvitationsError):
            return None

    def _join(self, request: web.BaseRequest, token: str, peer: str) -> web.Response:
        invitations = self.host.invitations
        # A link ending in ?plain takes its player to the plain page (screen readers, braille displays).
        onward = "/plain" if "plain" in request.query else "/"
        try:
            if invitations is None:
                raise InvitationRefused("this server takes no invitations")
            # Read here first: a forged token, or the same browser again, asks nothing of the table process.
            invitation = invitations.admitting(token)
            # Opened from another site (a chat app), the Strict cookie is not sent: the finder is.
            held = self._grant(request) or self._found(request)
            if held is not None and held.invitation == invitation.id:
                # A browser this invitation let in already uses nothing, and keeps its cookie.
                return self._seated_page(request, held, onward)
            if held is not None and self._from_elsewhere(request):
                # Another site cannot swap the seat this browser holds for its own link's (login CSRF).
                self._quiet.warning(
                    f"join {address_of(peer)}",
                    "join from another site refused from=%s: the browser holds a seat of invitation %s",
                    peer,
                    held.invitation,
                )
                return self._notice(
                    request,
                    409,
                    _("This browser already holds a seat here ({seat})."),
                    fields={"seat": held.seat},
                    links=[("/", _("Back to my seat")), (f"/join/{token}", _("Take this link's seat instead"))],
                )
            grant = self.host.redeem(token, peer)  # a new use, the table's to count
        except InvitationRefused as e:
            self._quiet.warning(f"join {address_of(peer)}", "invitation refused from=%s: %s", peer, e)
            return self._forbidden(request)
        except InvitationsError as e:
            self._quiet.warning("invitations", "every invitation refused: %s", e)
            return self._forbidden(request)
        response = self._seated_page(request, grant, onward)
        cookies = ((self.cookie_name, grant.cookie, "Strict"), (self.finder_name, grant.finder, "Lax"))
        for name, value, same_site in cookies:
            if value:
                response.set_cookie(
                    name,
                    value,
                    max_age=max(1, int(grant.expires - time.time())),
                    path="/",
                    httponly=True,
                    samesite=same_site,
                    secure=self._secure,
                )
        return response

    def _seated_page(self, request: web.BaseRequest, grant: Grant, onward: str) -> web.Response:
        """What a link that lets its browser in answers: the terminal page itself (one round trip and one page
        fewer for every phone of a crowd), which takes the token out of the address bar at once; a plain seat's
        link, or one ending in ?plain, a page that moves on to the plain page."""
        seat = self._seat(grant)
        if onward == "/" and (seat is None or not seat.plain):
            return self._page(request, joined=True, watching=grant.spectators)
        return self._notice(request, 200, _("Taking your seat…"), onward=onward)

    @staticmethod
    def _from_elsewhere(request: web.BaseRequest) -> bool:
        """The request was started by another site's page (``Sec-Fetch-Site``; a browser too old to send
        it cannot be told apart, and is taken at its word)."""
        return request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none")

    @staticmethod
    def _words() -> dict[str, str]:
        """What either page says of its connection, in the reader's language (the pages' scripts put them in)."""
        return {
            "connecting": _("Connecting to the table…"),
            "reconnecting": _("The connection dropped; connecting again…"),
            "ended": _("Your session has ended."),
            # Why, by the close's reason (END_REASONS).
            "ended_left": _("You left the table."),
            "ended_failed": _("Your session failed on an error of the server's; the game is safe."),
            "ended_kicked": _("Your seat was closed by the referee or the organiser."),
            "ended_revoked": _("The organiser revoked your invitation: ask for a new one."),
            "ended_expired": _("Your invitation has expired: ask the organiser for a new one."),
            "ended_seat": _("The organiser changed or removed your seat."),
            "ended_stopped": _("The server has stopped."),
            "unreachable": _("The server does not answer; you can sit again once it does."),
            "again": _("Sit again"),
            "refused": _("This link no longer lets you in: ask the organiser for a new one."),
            "paste": _("Paste"),
            "waiting": _("The server is busy with others arriving; trying again…"),
        }

    def _page(self, request: web.BaseRequest, *, joined: bool = False, watching: bool = False) -> web.Response:
        """The terminal page; ``joined``: as the answer to ``/join/TOKEN``, which it leaves at once (LEAVE_JOIN);
        ``watching``: a spectator's, without the phone's extra keys (no key of his reaches the table)."""
        lang = self._language(request)
        with reading(lang):
            words = self._words()
            body = (
                _template("page.html")
                .replace("{{version}}", version())
                .replace("{{leave}}", f"<script>{LEAVE_JOIN}</script>" if joined else "")
                .replace("{{keys}}", " hidden" if watching else "")
                .replace("{{lang}}", lang)
                .replace("{{title}}", html.escape(_("Fireteam")))
                # Said before any script runs: a page whose script never comes says what it waits for.
                .replace("{{connecting}}", html.escape(_("Connecting to the table… (if this stays, reload the page)")))
                .replace("{{words}}", _json_in_html(words))
                .replace("{{plain}}", html.escape(_("Plain page, for screen readers and braille displays")))
                .replace("{{copy}}", html.escape(_("My copy")))
            )
        return web.Response(text=body, content_type="text/html", headers=self._headers())

    def _plain_page(self, request: web.BaseRequest, *, chosen: bool) -> web.Response:
        """The seat as plain lines (``tui.ssh.web.plain``); ``chosen``: by its player, who may go back to the
        terminal (a seat the seats file makes plain has no terminal page)."""
        lang = self._language(request)
        with reading(lang):
            terminal = html.escape(_("Terminal page"))
            back = f'<p><a href="/">{terminal}</a></p>' if chosen else ""
            body = (
                _template("plain.html")
                .replace("{{version}}", version())
                .replace("{{lang}}", lang)
                .replace("{{title}}", html.escape(_("Fireteam")))
                .replace("{{connecting}}", html.escape(_("Connecting to the table… (if this stays, reload the page)")))
                .replace("{{words}}", _json_in_html(self._words()))
                .replace("{{answers}}", html.escape(_("Answers")))
                .replace("{{command}}", html.escape(_("Command")))
                .replace("{{line_length}}", str(self.host.limits.line_length))
                .replace(
                    "{{keys}}",
                    html.escape(
                        _(
                            "Enter gives the line. Tab completes the word typed (a second Tab lists the choices); "
                            "Tab on an empty line and Shift+Tab move on as usual. Up and Down bring back the lines "
                            "typed before."
                        )
                    ),
                )
                .replace("{{terminal}}", back)
                .replace("{{copy}}", html.escape(_("Keep my copy of the game so far")))
            )
        return web.Response(text=body, content_type="text/html", headers=self._headers())

    def _origin_ok(self, request: web.BaseRequest) -> bool:
        """The websocket was opened by this server's own page (not another site's, with the player's cookie)."""
        origin = request.headers.get("Origin", "")
        own = f"{'https' if self._tls is not None else 'http'}://{request.host}"
        return bool(origin) and (origin == own or origin == self._public_origin)

    # ------------------------------------------------------------- websocket

    async def _socket(self, request: web.BaseRequest, connection: _Connection) -> web.StreamResponse:
        peer = connection.peer
        if not self._origin_ok(request):
            self._quiet.warning(
                f"origin {address_of(peer)}",
                "websocket refused from=%s: origin %r is not this server's",
                peer,
                request.headers.get("Origin", "")[:200],
            )
            return self._forbidden(request)
        grant = self._grant(request)
        seat = self._seat(grant) if grant is not None else None
        if grant is None or seat is None:
            return self._forbidden(request)
        limits = self.host.limits
        if self._seated.get(grant.invitation, 0) >= limits.web_seats_per_invitation:
            self._quiet.warning(
                f"invitation seats {grant.invitation}",
                "websocket refused from=%s: invitation %s holds %d browser seats already (limit %d)",
                peer,
                grant.invitation,
                self._seated[grant.invitation],
                limits.web_seats_per_invitation,
            )
            return self._notice(request, 503, _("This link has as many seats open as it may: try again later."))
        ws = web.WebSocketResponse(
            max_msg_size=limits.web_message_bytes, heartbeat=HEARTBEAT_S, compress=False, autoping=True
        )
        if not ws.can_prepare(request).ok:
            return self._notice(request, 400, _("There is nothing here."))
        await ws.prepare(request)
        connection.upgraded = True
        self.host.logged_in(peer)  # a seat now: no longer counted as a connection waiting to log in
        reader = Reader(browser_language(seat.lang, request.headers.get("Accept-Language"), self.host.lang))
        plain = seat.plain or "plain" in request.query  # the plain page's socket (``tui.ssh.web.plain``)
        browser = BrowserSeat(
            self, ws, request.transport, grant, seat, peer=peer, reader=reader, size=self._size(request), plain=plain
        )
        self._seated[grant.invitation] = self._seated.get(grant.invitation, 0) + 1
        try:
            await browser.run()
        finally:
            left = self._seated.pop(grant.invitation) - 1
            if left:
                self._seated[grant.invitation] = left
        return ws

    def _size(self, request: web.BaseRequest) -> tuple[int, int]:
        try:
            width, height = int(request.query.get("width", "")[:6]), int(request.query.get("height", "")[:6])
        except ValueError:
            return DEFAULT_SIZE
        return self.host.limits.clamped(width, height) if width > 0 and height > 0 else DEFAULT_SIZE

    def _seat(self, grant: Grant) -> Seat | None:
        """The seat a grant sits as: the seats file's, or a spectator link's guest."""
        if grant.spectators:
            return Seat(grant.seat, SPECTATOR)
        return self.host.seats.by_name(grant.seat)

    def recheck(self, grant: Grant, seat: Seat) -> Callable[[Seats], tuple[Text, str] | None]:
        """Whether a browser seat may go on, asked once a second (``FireteamServer.check_seats``): its
        invitation neither revoked nor expired, its seat still in the seats file with the same role; if not,
        why, and in one word (``SeatSession.end``)."""
        invitations = self.host.invitations

        def check(seats: Seats) -> tuple[Text, str] | None:
            try:
                state = "gone" if invitations is None else invitations.state_of(grant.invitation)
            except InvitationsError:
                state = "open"  # an unreadable store is logged as it is refused; open seats stay
            if state == "expired":
                return M("your invitation expired"), "expired"
            if state in ("revoked", "gone"):
                return M("the organiser revoked your invitation"), "revoked"
            why = None if grant.spectators else seat_change(seat, seats.by_name(seat.name))
            return None if why is None else (why, "seat")

        return check


class BrowserSeat:
    """One browser's websocket at a table: what it sends goes to its :class:`SeatSession`."""

    def __init__(
        self,
        door: WebDoor,
        ws: web.WebSocketResponse,
        transport: asyncio.BaseTransport | None,
        grant: Grant,
        seat: Seat,
        *,
        peer: str,
        reader: Reader,
        size: tuple[int, int],
        plain: bool = False,
    ) -> None:
        self.door = door
        self.ws = ws
        self.grant = grant
        self.peer = peer
        self.reader = reader
        host = door.host
        channel = self.channel = _WebChannel(ws, transport, why=lambda: self.session.end_reason)
        door_of = dict(
            peer=peer,
            reader=reader,
            size=size,
            env=BROWSER_ENV,
            recheck=door.recheck(grant, seat),
            page=True,
            download=lambda address: channel.control(["download", address]),  # the page fetches it (fireteam.mjs)
        )
        #: The seat as plain lines, for the plain page; else a screen, for the terminal.
        self.plain = WebPlainSeat(host, seat, channel, control=channel.control, **door_of) if plain else None
        self.session: SeatSession = self.plain or SeatSession(
            host, seat, channel, watching_size=self._tell_screen, **door_of
        )
        self.chooser: GameChooser | None = None
        self._told_seal: str | None = None  # the dice's seal the page was last told
        self._told_count: int | None = None  # and the count of the seat's shares that comes next
        self._unsubscribe: Callable[[], None] = lambda: None  # from the table's game (``_open``)
        limits = host.limits
        self._bucket = TokenBucket(limits.web_message_rate, limits.web_message_burst)
        self._cutoff = TokenBucket(limits.web_cutoff_rate, limits.web_cutoff_burst)

    async def run(self) -> None:
        session = self.session
        with reading(self.reader):
            self._sit()
        too_big = flooded = False
        try:
            async for message in self.ws:
                if message.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                    error = self.ws.exception()
                    too_big = isinstance(error, WebSocketError) and error.code == WSCloseCode.MESSAGE_TOO_BIG
                    break
                if self._cutoff.take(1) < 1:
                    flooded = True
                    break
                if self._bucket.take(1) < 1:
                    session.input_refused(
                        M(
                            "more than {rate} messages a second from the browser (bursts of {burst}): one dropped",
                            rate=f"{self.door.host.limits.web_message_rate:.0f}",
                            burst=self.door.host.limits.web_message_burst,
                        )
                    )
                    continue
                if message.type == WSMsgType.TEXT:
                    with reading(self.reader):
                        self._received(message.data)
            if flooded:
                await self._cut_off()
        finally:
            if too_big:
                self.door.host.log.warning(
                    "websocket closed seat=%s role=%s from=%s: a message over %d bytes",
                    session.seat.name,
                    session.seat.role,
                    self.peer,
                    self.door.host.limits.web_message_bytes,
                )
            session.gone()
            session.left("message too big" if too_big else "flooded" if flooded else "disconnected")
            if self.chooser is not None:
                self.chooser.close()
            self._unsubscribe()

    async def _cut_off(self) -> None:
        """Disconnect a browser sending far more messages than any page of ours does, saying why in the log.

        Its address is not refused for a while, as an SSH client's is: a crowd's browsers share one (a
        venue's Wi-Fi, a reverse proxy), and the others did nothing."""
        limits = self.door.host.limits
        self.door.host.log.warning(
            "disconnected seat=%s role=%s from=%s: more websocket messages than %d at once and %g a second",
            self.session.seat.name,
            self.session.seat.role,
            self.peer,
            limits.web_cutoff_burst,
            limits.web_cutoff_rate,
        )
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self.ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"too many messages")

    def _sit(self) -> None:
        host = self.door.host
        tables: Sequence[Table] = host.tables
        session = self.session
        if self.grant.game:
            table = next((t for t in tables if t.name == self.grant.game), None)
            if table is None:
                session.say(_("There is no game {name} here.").format(name=repr(self.grant.game)) + "\n")
                session.finish(1)
                return
            self._open(table)
        elif len(tables) == 1:
            self._open(tables[0])
        else:
            self.chooser = GameChooser(
                tables,
                session.seat,
                send=session.say,
                sit=self._open,
                leave=lambda: session.finish(0),
                plain=self.plain is not None,
            )
            self.chooser.show()

    def _open(self, table: Table) -> bool:
        """Seat the browser at ``table``, and tell its page the dice's seal and its next share's count,
        and each new one."""
        opened = self.session.open(table)
        if opened:
            self._tell_seal()
            # A key sealed again (``dice-key``, public) is told at once: a share drawn under the
            # old one would be refused (docs/secrets.md, "Sealed dice"); so is the next count, once
            # the seat's command rolled one (no other's command moves it: nothing is sent for those).
            self._unsubscribe = table.game.subscribe(lambda _outcome: self._tell_seal(), role=self.session.seat.role)
        return opened

    def _seal(self) -> str | None:
        """The commitment of the game's sealed key in force ("" for none; None before a table)."""
        table = self.session.table
        return table.game.dice_seal() if table is not None else None

    def _tell_seal(self) -> None:
        """``["seal", DIGEST]`` and ``["count", N]``: what the page names with the next share it draws
        (docs/secrets.md), each when it changed since the page was last told."""
        seal = self._seal()
        if seal is not None and seal != self._told_seal:
            self._told_seal = seal
            self.channel.control(["seal", seal])
        table = self.session.table
        count = table.game.next_share(self.session.seat.name) if table is not None else None
        if count is not None and count != self._told_count:
            self._told_count = count
            self.channel.control(["count", count])

    def _tell_screen(self, size: tuple[int, int]) -> None:
        """``["screen", {"width": W, "height": H}]``: the size of the shared screen a spectator's page shows
        next, which it draws its terminal at, with the largest font that fits the page (fireteam.mjs)."""
        self.channel.control(["screen", {"width": size[0], "height": size[1]}])

    def _received(self, text: str) -> None:
        """One message of the browser's: ``["stdin", TEXT]``, ``["resize", {"width": W, "height": H}]``,
        ``["dice", "HEX SEAL COUNT"]``, the page's share of its next command's dice, the key's seal
        and the count it was told (answered with the seal and count in force), or (the plain page's)
        ``["tab", [LINE, POS]]``, Tab at ``POS`` of the line typed."""
        try:
            kind, value = _MESSAGE.decode(text)
        except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
            return  # not one of ours (the page sends nothing else): ignored
        if kind == "stdin" and isinstance(value, str):
            if self.chooser is not None and self.chooser.open:
                value = self.chooser.feed(value)
            if value:
                self.session.feed(value)
        elif kind == "resize" and isinstance(value, _Size) and value.width > 0 and value.height > 0:
            self.session.resize(*self.door.host.limits.clamped(value.width, value.height))
        elif kind == "dice" and isinstance(value, str) and (sent := contribution_of(value)) is not None:
            self.session.contributed(sent)
            self._tell_seal()
        elif kind == "tab" and isinstance(value, tuple) and self.plain is not None:
            self.plain.tab(*value)
