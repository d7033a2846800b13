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
{"width": W, "height": H}]``, and one of its own, ``["dice", "HEX SEAL COUNT KEYS"]``: 16 bytes
the page drew with ``crypto.getRandomValues`` before each line it enters, its
share of that command's sealed dice, with the keys it is for (``tui.ssh.web.browser``,
docs/secrets.md); the server sends the terminal's bytes as binary messages, between them text
messages of its own (the dice's seal, ``["seal", DIGEST]``, the seat's next count of shares, its name,
what each roll of a share it sent used and a line refused for coming without its share: ``["count", N]``,
``["seat", NAME]``, ``["rolled", {...}]``, ``["unshared", null]``, ``tui.ssh.web.browser``), and to a
spectator's page the size of the shared screen it shows next, ``["screen", {"width": W, "height": H}]``,
which the page draws its terminal at), and closes with code 4000 + exit status when the seat's session
ends, so the page knows not to reconnect, with one word of why as the close's
reason (``tui.ssh.web.channel.END_REASONS``: the page says it in the player's language, and
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
import html
import logging
import re
import socket
import ssl
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, cast
from urllib.parse import urlsplit

import msgspec
from aiohttp import web

from core.language.i18n import N_, M, Text
from core.language.reader import Reader, reading
from core.log.views import SPECTATOR
from core.secrets.sidecopy import MAX_COPY_BYTES, export
from tui.ssh.invitations.store import COOKIE, Grant, InvitationRefused, Invitations, InvitationsError
from tui.ssh.language import _, browser_language
from tui.ssh.limits import QuietLog, address_of
from tui.ssh.seating.seat import Host
from tui.ssh.seatsfile import Seat, Seats, seat_change
from tui.ssh.web.assets import (
    ASSETS,
    LEAVE_JOIN,
    SECURITY_HEADERS,
    STATIC_KEPT,
    asset,
    digest,
    json_in_html,
    takes_gzip,
    template,
    version,
)
from tui.ssh.web.browser import BrowserSeat
from tui.ssh.web.connection import MAX_FIELD, MAX_HEADERS, MAX_LINE, QUIET, Connection, DoorProtocol

#: What may not stand in a downloaded copy's file name (a game's name is the host's file's): each becomes "_".
_UNSAFE_IN_NAME = re.compile(r"[^A-Za-z0-9._-]")
#: The bar beside the game that says whether each roll of the seat's used its page's share, before any did
#: (shares.mjs), and its button that downloads what the page sent (``fireteam verify SAVE --side-copy RECORD``).
DICE_IDLE = N_("Each roll of yours is checked here.")
DICE_RECORD = N_("My dice record")
#: A browser's size before it says (the page sends its own at once).
DEFAULT_SIZE = (80, 24)
#: Seconds between the server's websocket pings; a browser that does not answer one in half that is dropped.
HEARTBEAT_S = 30.0


class WebHost(Host, Protocol):
    """What the browser door needs of the server, beyond what a seat does (``tui.ssh.host.server.FireteamServer``)."""

    invitations: Invitations | None
    quiet_log: QuietLog

    @property
    def seats(self) -> Seats: ...

    def redeem(self, token: str, peer: str, *, key: Any = None) -> Grant: ...

    def logged_in(self, peer: str) -> None: ...


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
        connection = Connection(peer, loop, limits.web_request_s)

        def protocol() -> DoorProtocol:
            return DoorProtocol(
                manager,
                connection,
                loop=loop,
                keepalive_timeout=limits.web_request_s,
                access_log=None,  # a /join/TOKEN line would write the token down
                logger=QUIET,
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
        connection = cast(DoorProtocol, request.protocol).connection  # (the door's server makes only these)
        connection.started()
        try:
            return await self._route(request, connection)
        except Exception:
            self.log.exception("web request failed from=%s", connection.peer)
            return self._notice(request, 500, _("The server failed on this request."))
        finally:
            connection.ended()

    async def _route(self, request: web.BaseRequest, connection: Connection) -> web.StreamResponse:
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
            if _speculative(request):
                # A browser's prefetch or prerender of a link (Chromium does it on a pointer's hover) is no
                # one taking a seat: answered without reading the token, a use is spent only when the link
                # is followed (a prerender's use, then the real visit's, spent two of a one-use link).
                return web.Response(status=503, headers=self._headers())
            return self._join(request, path[len("/join/") :], connection.peer)
        if path.startswith("/static/") and (kind := ASSETS.get(path[len("/static/") :])):
            return self._static(request, path[len("/static/") :], kind)
        return self._notice(request, 404, _("There is nothing here."))

    def _copy(self, request: web.BaseRequest) -> web.Response:
        """``/copy?game=NAME``: the browser's seat's copy of its game so far, a file for the player's own machine
        (``tui.copies``, docs/ssh.md): the game its invitation names (another asked is refused: a seat's copy is of
        its own game only), else the one asked (such a seat may sit at any), else the only one."""
        grant = self._grant(request)
        seat = self._seat(grant) if grant is not None else None
        if grant is None or seat is None:
            return self._forbidden(request)
        tables = {t.name: t for t in self.host.tables}
        asked = request.query.get("game", "")
        if grant.game and asked and asked != grant.game:
            self.log.warning(
                "copy refused seat=%s role=%s game=%r: the invitation is to game %r",
                seat.name,
                seat.role,
                asked[:100],
                grant.game,
            )
            return self._notice(request, 403, _("A seat's copy is of its own game only."))
        name = grant.game or asked
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
        gzipped = takes_gzip(request.headers.get("Accept-Encoding", ""))
        etag = f'"{digest(name)}{"-gzip" if gzipped else ""}"'
        headers = {**self._headers(cache=kept), "Vary": "Accept-Encoding", "ETag": etag}
        held = request.headers.get("If-None-Match", "")[:1024].split(",")
        if etag in {tag.strip().removeprefix("W/") for tag in held}:
            return web.Response(status=304, headers=headers)
        if gzipped:
            headers["Content-Encoding"] = "gzip"
        return web.Response(body=asset(name, gzipped), content_type=kind, charset="utf-8", headers=headers)

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
                template("notice.html")
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
            # Beside each roll of the seat's (shares.mjs): whether it used the share of the dice this page sent.
            "dice_ok": _("Dice {faces} (share {count}): your page's share ✓"),
            "dice_other": _(
                "Dice {faces} (share {count}) did NOT use your page's share: it was changed on its way. "
                "Keep your dice record."
            ),
            "dice_none": _("Dice {faces} (share {count}) were drawn without your page's share. Keep your dice record."),
            "dice_dropped": _(
                "A line of yours reached the table without your page's share of the dice, and was refused. "
                "Give it again; keep your dice record."
            ),
        }

    def _page(self, request: web.BaseRequest, *, joined: bool = False, watching: bool = False) -> web.Response:
        """The terminal page; ``joined``: as the answer to ``/join/TOKEN``, which it leaves at once (LEAVE_JOIN);
        ``watching``: a spectator's, without the phone's extra keys (no key of his reaches the table)."""
        lang = self._language(request)
        with reading(lang):
            words = self._words()
            body = (
                template("page.html")
                .replace("{{version}}", version())
                .replace("{{leave}}", f"<script>{LEAVE_JOIN}</script>" if joined else "")
                .replace("{{keys}}", " hidden" if watching else "")
                .replace("{{lang}}", lang)
                .replace("{{title}}", html.escape(_("Fireteam")))
                # Said before any script runs: a page whose script never comes says what it waits for.
                .replace("{{connecting}}", html.escape(_("Connecting to the table… (if this stays, reload the page)")))
                .replace("{{words}}", json_in_html(words))
                .replace("{{plain}}", html.escape(_("Plain page, for screen readers and braille displays")))
                .replace("{{copy}}", html.escape(_("My copy")))
                .replace("{{dice}}", " hidden" if watching else "")
                .replace("{{dice_idle}}", html.escape(_(DICE_IDLE)))
                .replace("{{dice_record}}", html.escape(_(DICE_RECORD)))
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
                template("plain.html")
                .replace("{{version}}", version())
                .replace("{{lang}}", lang)
                .replace("{{title}}", html.escape(_("Fireteam")))
                .replace("{{connecting}}", html.escape(_("Connecting to the table… (if this stays, reload the page)")))
                .replace("{{words}}", json_in_html(self._words()))
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
                .replace("{{dice_idle}}", html.escape(_(DICE_IDLE)))
                .replace("{{dice_record}}", html.escape(_(DICE_RECORD)))
            )
        return web.Response(text=body, content_type="text/html", headers=self._headers())

    def _origin_ok(self, request: web.BaseRequest) -> bool:
        """The websocket was opened by this server's own page (not another site's, with the player's cookie)."""
        origin = request.headers.get("Origin", "")
        own = f"{'https' if self._tls is not None else 'http'}://{request.host}"
        return bool(origin) and (origin == own or origin == self._public_origin)

    # ------------------------------------------------------------- websocket

    async def _socket(self, request: web.BaseRequest, connection: Connection) -> web.StreamResponse:
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
            self.host,
            ws,
            request.transport,
            grant,
            seat,
            peer=peer,
            reader=reader,
            size=self._size(request),
            plain=plain,
            recheck=self.recheck(grant, seat),
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


def _speculative(request: web.BaseRequest) -> bool:
    """A request a browser made ahead of a visit: ``Sec-Purpose: prefetch`` (``prefetch;prerender`` for a
    prerender; Fetch Metadata) or the older ``Purpose: prefetch``."""
    return any("prefetch" in request.headers.get(name, "") for name in ("Sec-Purpose", "Purpose"))
