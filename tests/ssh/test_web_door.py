"""The browser door (``fireteam serve --web``), driven as an attacker would drive it: raw HTTP and websockets.

A real server on 127.0.0.1 (``web_club``), reached with aiohttp's client and
raw sockets.  What a real browser does is ``test_web_browser.py``'s.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import gzip
import hashlib
import json
import logging
import re
import sys
import time
from pathlib import Path

import aiohttp
import pytest
from ssh_club import WAIT_S, WATCHING, wait_until
from ssh_vt import Screen, drawn
from web_club import WebClub, client_tls, web_table

from core.log.views import REFEREE
from core.secrets.copycheck import compare
from core.secrets.sidecopy import read
from tui.bench.web_seats import PageKeys
from tui.ssh.invitations.store import Invitations
from tui.ssh.limits import Limits, add_arguments, from_args
from tui.ssh.web import assets as web_module
from tui.ssh.web.assets import LEAVE_JOIN, version

pytestmark = [pytest.mark.server, pytest.mark.subprocess]

FORBIDDEN_WORDS = "This link does not let you in."
_OVER = (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR)


class _Socket:
    """A page's websocket and the session holding its cookie, both closed as an ``async with`` ends."""

    http: aiohttp.ClientSession
    ws: aiohttp.ClientWebSocketResponse

    async def close(self) -> None:
        await self.ws.close()
        await self.http.close()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()


class _Page(_Socket):
    """What either page does with the keys it sends (``tui.bench.web_seats.PageKeys``): a line goes after
    its share of the dice once the page was told the seal and the count, since the door refuses a line
    without one (issue #90).  ``bare`` sends keys as they are, without a share."""

    told: list[list]
    page: PageKeys

    async def bare(self, text: str) -> None:
        await self.ws.send_str(json.dumps(["stdin", text]))

    async def keys(self, text: str) -> None:
        for message in self.page.sent(text):
            await self.ws.send_str(message)


class Browser(_Page):
    """A websocket client holding a browser's cookie: what arrives is drawn on a :class:`Screen`."""

    def __init__(self, http: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse, size=(100, 40)) -> None:
        self.http = http
        self.ws = ws
        self.screen = Screen(*size)
        self.closed: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        #: The reason the server gave with its close ("" for none).
        self.reason: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        #: The page's own messages the server sent (JSON text), in order.
        self.told: list[list] = []
        #: Every message the server sent, as it came (the terminal's bytes decoded, the page's JSON text).
        self.raw: list[str] = []
        self.page = PageKeys()
        self._task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        while (message := await self.ws.receive()).type not in _OVER:
            self.raw.append(
                message.data if message.type == aiohttp.WSMsgType.TEXT else message.data.decode("utf-8", "replace")
            )
            if message.type == aiohttp.WSMsgType.BINARY:
                self.screen.feed(message.data.decode("utf-8", "replace"))
            elif message.type == aiohttp.WSMsgType.TEXT:
                self.told.append(json.loads(message.data))
                self.page.told(self.told[-1])
        if not self.reason.done():
            self.reason.set_result(message.extra or "" if message.type == aiohttp.WSMsgType.CLOSE else "")
        if not self.closed.done():
            self.closed.set_result(self.ws.close_code)

    def text(self) -> str:
        return self.screen.text()

    async def wait_for(self, *texts: str) -> str:
        return await wait_until(lambda: all(t in self.text() for t in texts), WAIT_S, self.text)

    async def type(self, text: str) -> None:
        await self.keys(text)

    async def command(self, line: str) -> None:
        await self.type(line + "\r")

    async def shared(self, share: str, line: str) -> None:
        """``line`` entered as the page enters it: after its share (``HEX SEAL COUNT``), naming the keys it
        is for (``line`` and Enter: nothing was typed since the last Enter)."""
        await self.ws.send_str(json.dumps(["dice", f"{share} {keys_digest(line + chr(13))}"]))
        await self.bare(line + "\r")


async def join(
    web: WebClub, token: str, http: aiohttp.ClientSession | None = None
) -> tuple[aiohttp.ClientSession, int]:
    """Open the invitation's link as a browser would; the session holds the cookie it got."""
    http = http or aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    async with http.get(web.url(f"/join/{token}"), ssl=client_tls() if web.tls else True) as answer:
        await answer.read()
        return http, answer.status


async def seat(web: WebClub, token: str, size=(100, 40)) -> Browser:
    http, status = await join(web, token)
    assert status == 200
    ws = await http.ws_connect(
        web.url(f"/ws?width={size[0]}&height={size[1]}").replace("http", "ws", 1),
        headers={"Origin": web.origin},
        ssl=client_tls() if web.tls else True,
    )
    return Browser(http, ws, size)


async def invited(web: WebClub, side: str) -> Browser:
    """A browser seated by a new invitation for ``side``."""
    return await seat(web, web.invitations.create(side)[0])


async def test_a_browsers_prefetch_of_a_link_spends_no_use_and_takes_no_seat(web):
    """Chromium prefetches or prerenders a link a pointer hovers over: that is no one following it. A
    one-use link prefetched, then followed, lets its player in (it spent two uses, and the visit was refused)."""
    token, inv = web.invitations.create("reg", uses=1)
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        for header in ({"Sec-Purpose": "prefetch;prerender"}, {"Sec-Purpose": "prefetch"}, {"Purpose": "prefetch"}):
            async with http.get(web.url(f"/join/{token}"), headers=header) as answer:
                assert answer.status == 503 and "Set-Cookie" not in answer.headers, header
                assert answer.headers["Cache-Control"] == "no-store"
        assert web.invitations.all()[0].used == 0
        async with http.get(web.url(f"/join/{token}")) as answer:
            assert answer.status == 200 and answer.headers["Set-Cookie"].startswith(f"{web.cookie_name}=")
    assert web.invitations.all()[0].used == 1


async def test_a_link_gives_an_httponly_strict_cookie_and_the_page_moves_on_without_the_token(web):
    token, inv = web.invitations.create("reg")
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        async with http.get(web.url(f"/join/{token}")) as answer:
            body = await answer.text()
            cookie = answer.headers["Set-Cookie"]
            assert answer.status == 200
            assert answer.headers["Cache-Control"] == "no-store"
            assert answer.headers["Referrer-Policy"] == "no-referrer"
            assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
            assert answer.headers["Server"] == "fireteam"
        assert cookie.startswith(f"{web.cookie_name}=")
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
        assert "Secure" not in cookie  # plain http here: see the TLS test
        assert token not in body and token not in cookie
        # It is the seat's page itself (a round trip fewer for each phone of a crowd), whose first script takes
        # the token out of the address bar and the history; the policy lets that one script run, by its hash.
        assert 'src="/static/fireteam.mjs?v=' in body and "http-equiv" not in body
        leave = f"<script>{LEAVE_JOIN}</script>"
        assert body.count("<script>") == 1 and body.index(leave) < body.index("<link")
        digest = base64.b64encode(hashlib.sha256(LEAVE_JOIN.encode()).digest()).decode()
        assert f"script-src 'self' 'sha256-{digest}';" in answer.headers["Content-Security-Policy"]
        async with http.get(web.url("/")) as answer:
            assert answer.status == 200
            body = await answer.text()
            assert 'src="/static/fireteam.mjs?v=' in body and "<script>" not in body
    async with aiohttp.ClientSession() as stranger, stranger.get(web.url("/")) as answer:
        assert answer.status == 403
    assert web.invitations.all()[0].used == 1
    assert token not in web.log()
    assert f"invitation {inv.id} let in browser" in web.log()


async def test_every_token_that_lets_nobody_in_gets_the_same_403(tmp_path, caplog):
    caplog.set_level(logging.DEBUG)
    async with web_table(tmp_path, caplog) as web:
        used, _ = web.invitations.create("reg", uses=1)
        revoked, gone = web.invitations.create("reg")
        web.invitations.revoke(gone.id)
        expired, _ = Invitations(tmp_path, clock=lambda: time.time() - 7200).create("reg", expires_s=3600)
        http, status = await join(web, used)
        await http.close()
        assert status == 200
        bodies = set()
        tokens = [used, revoked, expired, "A" * 32, used[:-1], used + "x", "x" * 2000, "%2e%2e%2fseats.toml"]
        async with aiohttp.ClientSession() as http:
            for token in tokens:
                async with http.get(web.url(f"/join/{token}")) as answer:
                    assert answer.status == 403, token
                    assert "Set-Cookie" not in answer.headers
                    bodies.add(await answer.read())
            # A first line over the limit is refused before it is read, and not written down either.
            async with http.get(web.url(f"/join/{used}{'x' * 5000}")) as answer:
                assert answer.status == 400
        assert len(bodies) == 1
        assert FORBIDDEN_WORDS in bodies.pop().decode()
        log = web.log() + "\n".join(r.getMessage() for r in caplog.records)
        assert not any(t in log for t in (used, revoked, expired))


async def test_the_websocket_wants_the_cookie_and_this_servers_origin(web):
    token, _ = web.invitations.create("reg")
    ws_url = web.url("/ws").replace("http", "ws", 1)
    http, _ = await join(web, token)
    try:
        for origin in ("http://evil.example", "null", f"http://127.0.0.1:{web.web_port + 1}", ""):
            headers = {"Origin": origin} if origin else {}
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(ws_url, headers=headers)
            assert refused.value.status == 403
    finally:
        await http.close()
    # The right origin without the cookie (a page of this server's, but no invitation).
    async with aiohttp.ClientSession() as stranger:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await stranger.ws_connect(ws_url, headers={"Origin": web.origin})
        assert refused.value.status == 403
    assert "websocket refused" in web.log() and "'http://evil.example' is not this server's" in web.log()
    assert not web.club.server.sessions


async def test_a_browser_seat_sees_its_view_and_its_command_lands_in_the_save_and_on_an_ssh_seat(web):
    async with await invited(web, "reg") as browser:
        await browser.wait_for("reg (Bersaglieri)", "as Bersaglieri")
        rita = await web.club.seated("rita", "rita (referee)")
        await browser.command("note typed in a browser")
        await rita.wait_for("typed in a browser")
        assert "note typed in a browser" in web.game.path.read_text()
        # The regulars' view: hidden irregulars are not on the browser's screen either.
        assert "Faysal" not in browser.text() or "Faysal" in rita.text()
        assert "seated seat=reg role=regulars" in web.log()


async def test_a_paste_holding_a_nul_is_refused_whole_at_a_browser_seat_as_at_an_ssh_seat(web):
    """Issue 28: xterm.js sends a paste as it is, bracketed; a control character in it, a NUL
    too (Textual's parser took it out: "ros\\0si" went in as "rossi"), refuses it whole."""
    async with await invited(web, "reg") as browser:
        await browser.wait_for("reg (Bersaglieri)")
        await browser.type("\x1b[200~note ros\x00si\x1b[201~\r")
        await browser.wait_for("✗ the paste holds the control character \\x00 (character 9): nothing was put in")
        await browser.type("\x1b[200~note pasted\x1b[201~\r")
        await wait_until(lambda: "note pasted" in web.game.path.read_text(errors="replace"))
        assert "note ros" not in web.game.path.read_text(errors="replace")


async def test_the_same_browser_opening_the_link_again_uses_nothing_and_sits_in_the_same_seat(web):
    token, _ = web.invitations.create("irr", uses=1)
    http, status = await join(web, token)
    try:
        assert status == 200
        _, again = await join(web, token, http)
        assert again == 200
        assert web.invitations.all()[0].used == 1
        other, status = await join(web, token)  # another browser: the one use is gone
        await other.close()
        assert status == 403
        ws = await http.ws_connect(web.url("/ws").replace("http", "ws", 1), headers={"Origin": web.origin})
        browser = Browser(http, ws)
        await browser.wait_for("irr (Somali militia)")
    finally:
        await http.close()


async def test_revoking_ends_the_open_seat_and_the_cookie_opens_nothing_after(web, tmp_path):
    web.club.server.seats_poll = 0.05
    token, inv = web.invitations.create("reg")
    browser = await seat(web, token)
    await browser.wait_for("reg (Bersaglieri)")
    Invitations(tmp_path).revoke(inv.id)  # as `fireteam invite --revoke` does, from another process
    assert await asyncio.wait_for(browser.closed, WAIT_S) == 4001  # ended: the page does not reconnect
    assert "revoked your invitation" in browser.text()
    for path in ("/", "/alive"):
        async with browser.http.get(web.url(path)) as answer:
            assert answer.status == 403
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await browser.http.ws_connect(web.url("/ws").replace("http", "ws", 1), headers={"Origin": web.origin})
    await browser.http.close()


async def test_a_seat_taken_out_of_the_seats_file_ends_its_browser(web, tmp_path):
    web.club.server.seats_poll = 0.05
    browser = await invited(web, "irr")
    await browser.wait_for("irr (Somali militia)")
    seats = tmp_path / "seats.toml"
    seats.write_text(seats.read_text().replace('name = "irr"', 'name = "irr2"'))
    assert await asyncio.wait_for(browser.closed, WAIT_S) == 4001
    assert "removed your seat" in browser.text()
    await browser.http.close()


async def test_static_files_are_a_fixed_table_no_path_reaches_the_disk(web, tmp_path):
    (tmp_path / "secret.txt").write_text("TOPSECRET")
    paths = [
        "/static/../seats.toml",
        "/static/%2e%2e/seats.toml",
        "/static/..%2fseats.toml",
        "/static/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/static//etc/passwd",
        "/static/xterm.mjs/../../secret.txt",
        "/static/webpage/page.html",
        "/static/LICENSE-xterm.txt/",
        "/static/",
        "/seats.toml",
        "/invitations.json",
    ]
    reader, writer = await asyncio.open_connection("127.0.0.1", web.web_port)
    try:
        for path in paths:
            # Raw: the client library would tidy the dots away.
            writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            await writer.drain()
            head = (await reader.readuntil(b"\r\n\r\n")).decode()
            length = int(next(h for h in head.split("\r\n") if h.lower().startswith("content-length:")).split(":")[1])
            body = await reader.readexactly(length)
            assert head.startswith("HTTP/1.1 404"), (path, head)
            assert b"TOPSECRET" not in body and b"[[seat]]" not in body and b"root:" not in body
    finally:
        writer.close()
    async with aiohttp.ClientSession() as http, http.get(web.url("/static/xterm.mjs")) as answer:
        assert answer.status == 200 and answer.headers["Content-Type"].startswith("text/javascript")


async def test_static_files_go_gzipped_to_a_browser_that_takes_it(tmp_path, caplog):
    on_disk = (Path(__file__).parents[2] / "tui" / "ssh" / "web" / "page" / "xterm.mjs").read_bytes()
    async with web_table(tmp_path, caplog) as web, aiohttp.ClientSession(auto_decompress=False) as http:
        for accept, gzipped in (("gzip, deflate, br", True), ("br;q=1, gzip;q=0", False), ("", False)):
            headers = {"Accept-Encoding": accept}
            async with http.get(web.url("/static/xterm.mjs"), headers=headers) as answer:
                body = await answer.read()
                assert answer.headers["Vary"] == "Accept-Encoding"
                assert (answer.headers.get("Content-Encoding") == "gzip") is gzipped, accept
                assert (gzip.decompress(body) if gzipped else body) == on_disk
                if gzipped:
                    assert len(body) < len(on_disk) / 3


async def test_a_phone_keeps_the_pages_files_and_asks_again_only_when_they_change(tmp_path, caplog, monkeypatch):
    """A phone opening the page another day fetches nothing but the page: the files the page names carry the
    version of them all (``?v=``) and are kept for a year, never asked again; asked under another address, they
    are kept an hour; a browser that has one already is answered 304 by its ETag.  Other files, another version."""
    async with web_table(tmp_path, caplog) as web, aiohttp.ClientSession(auto_decompress=False) as http:
        token, _ = web.invitations.create("reg")
        async with http.get(web.url(f"/join/{token}")) as answer:
            page = await answer.text()
        named = re.findall(r'(?:src|href)="(/static/[a-z0-9.-]+\?v=([0-9a-f]{12}))"', page)
        assert {path.split("?")[0] for path, _ in named} == {f"/static/{n}" for n in ("xterm.css", "fireteam.css")} | {
            "/static/xterm.mjs",
            "/static/sha256.mjs",
            "/static/shares.mjs",
            "/static/fireteam.mjs",
        }
        assert {v for _, v in named} == {version()}
        for path, _ in named:
            async with http.get(web.url(path), headers={"Accept-Encoding": "gzip"}) as answer:
                assert answer.status == 200
                assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
                etag = answer.headers["ETag"]
            async with http.get(web.url(path), headers={"Accept-Encoding": "gzip", "If-None-Match": etag}) as again:
                assert again.status == 304 and await again.read() == b""
            # The same file unzipped is another entity, with a tag of its own.
            async with http.get(web.url(path), headers={"Accept-Encoding": "identity", "If-None-Match": etag}) as plain:
                assert plain.status == 200 and plain.headers["ETag"] != etag
        async with http.get(web.url("/static/xterm.mjs?v=0123456789ab")) as stale:
            assert stale.status == 200 and stale.headers["Cache-Control"] == "public, max-age=3600"
    # Another xterm.js (an upgrade): every file of the pages has another address.
    monkeypatch.setattr(web_module, "asset", lambda name, gzipped=False: b"// another " + name.encode())
    web_module.digest.cache_clear()
    web_module.version.cache_clear()
    try:
        assert version() != {v for _, v in named}.pop()
    finally:
        web_module.digest.cache_clear()
        web_module.version.cache_clear()


async def test_no_header_or_cookie_can_be_injected_through_the_link(web):
    token, _ = web.invitations.create("reg")
    reader, writer = await asyncio.open_connection("127.0.0.1", web.web_port)
    try:
        writer.write(f"GET /join/{token}%0d%0aSet-Cookie:%20evil=1 HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        await writer.drain()
        head = (await reader.readuntil(b"\r\n\r\n")).decode()
    finally:
        writer.close()
    assert head.startswith("HTTP/1.1 403")
    assert "evil" not in head and "Set-Cookie" not in head
    assert web.invitations.all()[0].used == 0


async def test_only_get_is_answered(web):
    token, _ = web.invitations.create("reg")
    async with aiohttp.ClientSession() as http:
        for method in ("POST", "PUT", "DELETE", "OPTIONS", "HEAD"):
            async with http.request(method, web.url(f"/join/{token}"), data=b"x" * 1000) as answer:
                assert answer.status == 405
    assert web.invitations.all()[0].used == 0


async def test_a_message_over_the_limit_closes_the_websocket_and_frees_the_seat(tmp_path, caplog):
    limits = Limits(web_message_bytes=4096)
    async with web_table(tmp_path, caplog, limits=limits) as web:
        browser = await invited(web, "reg")
        await browser.wait_for("reg (Bersaglieri)")
        await browser.ws.send_str(json.dumps(["stdin", "x" * 5000]))
        assert await asyncio.wait_for(browser.closed, WAIT_S) == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
        await wait_until(lambda: not web.club.server.sessions)
        assert "a message over 4096 bytes" in web.log()
        await browser.http.close()


async def test_a_flood_of_messages_is_cut_to_the_rate_and_the_seat_told(tmp_path, caplog):
    limits = Limits(web_message_rate=20.0, web_message_burst=40)
    async with web_table(tmp_path, caplog, limits=limits) as web, await invited(web, "reg") as browser:
        await browser.wait_for("reg (Bersaglieri)")
        for _ in range(400):
            await browser.ws.send_str(json.dumps(["resize", {"width": 100, "height": 40}]))
        await browser.wait_for("Too much input")
        assert "more than 20 messages a second from the browser" in web.log()
        # Garbage is ignored, not fatal: a deep nest, wrong kinds, binary.
        await browser.ws.send_str("[" * 3000 + "]" * 3000)
        await browser.ws.send_str('["resize", {"width": 3, "height": 4, "x": ' + "[" * 3000 + "]" * 3000 + "}]")
        await browser.ws.send_str('{"stdin": 1}')
        await browser.ws.send_bytes(b"\x00\xff" * 100)
        await asyncio.sleep(1.5)  # the bucket refills (not a wait for the server: it answers nothing)
        await browser.command("note still here")
        await browser.wait_for("still here")


async def test_a_connection_that_sends_no_request_in_time_is_closed(tmp_path, caplog):
    async with web_table(tmp_path, caplog, limits=Limits(web_request_s=0.5)) as web:
        reader, writer = await asyncio.open_connection("127.0.0.1", web.web_port)
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # and never the end of the headers
        await writer.drain()
        assert await asyncio.wait_for(reader.read(), WAIT_S) == b""  # closed by the server
        writer.close()


@pytest.mark.parametrize("workers", [0, 1], ids=["one-process", "seat-workers"])
async def test_browser_connections_count_against_the_web_doors_own_limit_not_sshs(tmp_path, caplog, workers):
    """Issue 53: a browser's connections counted against the SSH logins' ten per address, so a crowd
    of browsers behind one address shut one another (and SSH players) out.  They have their own."""
    limits = Limits(unauth_per_address=2, web_per_address=3)
    async with web_table(tmp_path, caplog, limits=limits, workers=workers) as web:
        held = [await asyncio.open_connection("127.0.0.1", web.web_port) for _ in range(3)]
        # Past the SSH limit, browsers still come in: each is answered.
        for _r, w in held:
            w.write(b"GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n")
        for r, _w in held:
            assert (await asyncio.wait_for(r.readline(), WAIT_S)).startswith(b"HTTP/1.1 404")
        # ... and an SSH player logs in meanwhile, the browsers counting nothing against him.
        await web.club.seated("rita", "rita (referee)")
        reader, writer = await asyncio.open_connection("127.0.0.1", web.web_port)
        assert await asyncio.wait_for(reader.read(), WAIT_S) == b""  # past the web door's own: refused as it arrived
        writer.close()
        await wait_until(lambda: "3 from this address are open and not seats (limit 3)" in web.log())
        for _r, w in held:
            w.close()


async def _answered(web: WebClub, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
    """A connection from ``source`` (an address of the loopback network: Linux answers all of
    127.0.0.0/8) held open after its request is answered; None if it was closed as it arrived."""
    reader, writer = await asyncio.open_connection("127.0.0.1", web.web_port, local_addr=(source, 0))
    writer.write(b"GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n")
    with contextlib.suppress(ConnectionError):
        await writer.drain()
    line = await asyncio.wait_for(reader.readline(), WAIT_S)
    if not line:
        writer.close()
        return None
    assert line.startswith(b"HTTP/1.1 404"), line
    return reader, writer


@pytest.mark.parametrize("workers", [0, 1], ids=["one-process", "seat-workers"])
async def test_a_flood_of_connections_keeps_a_place_for_an_address_with_none_open(tmp_path, caplog, workers):
    """Issue #60: while browser connections from flooding addresses filled the web door, a
    browser from an address with none open was refused.  The last ``web_reserve`` places are
    kept for an address with fewer than a browser's connections at once (six) open: a flooder
    past the rest gets six of them at most, and a newcomer's page and files still come in."""
    limits = Limits(web_per_address=24, web_total=24, web_reserve=12, web_request_s=120)
    async with web_table(tmp_path, caplog, limits=limits, workers=workers) as web:
        held: list = []

        async def opened(source: str, n: int) -> list[bool]:
            got = [await _answered(web, source) for _ in range(n)]
            held.extend(got)
            return [h is not None for h in got]

        try:
            # One address, up to its own limit: the door's last twelve places are not its.
            assert await opened("127.0.0.1", 14) == [True] * 12 + [False] * 2
            # Another flooder: six places of the reserve, no more.
            assert await opened("127.0.0.3", 8) == [True] * 6 + [False] * 2
            # A browser from an address with nothing open comes in still, its six connections at once.
            assert await opened("127.0.0.2", 6) == [True] * 6
            assert await opened("127.0.0.4", 1) == [False]  # the door is full
            assert "are kept for addresses with fewer than 6 open" in web.log()
        finally:
            for h in held:
                if h is not None:
                    h[1].close()


def test_the_reserve_leaves_room_for_the_others():
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    with pytest.raises(ValueError, match="--web-reserve must be less than --max-web"):
        from_args(parser.parse_args(["--max-web", "8", "--web-reserve", "8"]))
    assert from_args(parser.parse_args(["--max-web", "8", "--web-reserve", "7"])).web_reserve == 7


async def test_a_spectator_link_seats_guests_who_watch_and_cannot_command(web):
    web.club.server.seats_poll = 0.05
    token, _ = web.invitations.create("")
    first, second = await seat(web, token), await seat(web, token)
    try:
        await first.wait_for(WATCHING)
        await second.wait_for(WATCHING)
        names = {s.seat.name for s in web.club.server.sessions}
        assert len(names) == 2 and all(n.startswith("watch-") for n in names)
        # Both watch the one screen the table draws for its spectators (#30), as an SSH spectator would.
        (screen,) = web.club.server.stands.screens
        assert screen.viewers == 2
        await first.command("note a spectator speaks")
        await first.wait_for("Spectators watch: they cannot give commands")
        await asyncio.sleep(0.3)  # a few checks of the seats file: guests are not in it, and stay
        assert len(web.club.server.sessions) == 2
    finally:
        await first.close()
        await second.close()


async def test_a_spectators_page_has_no_keys_to_tap_and_a_players_has(tmp_path, caplog):
    """A spectator cannot type: the phone's row of extra keys (Esc, Tab, the arrows, ^P,
    Paste) is not shown to him, on the page his link opens nor on a reload; a player's has it."""
    keys = re.compile(r'<div id="keys" role="toolbar"( hidden)?>')
    async with web_table(tmp_path, caplog) as web:
        for name, hidden in (("", " hidden"), ("reg", None)):
            token, _ = web.invitations.create(name)
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
                async with http.get(web.url(f"/join/{token}")) as answer:
                    assert answer.status == 200
                    assert keys.search(await answer.text()).group(1) == hidden, name
                async with http.get(web.url("/")) as answer:
                    assert keys.search(await answer.text()).group(1) == hidden, name


async def test_under_tls_the_cookie_is_secure(tmp_path, caplog):
    async with web_table(tmp_path, caplog, tls=True) as web:
        token, _ = web.invitations.create("reg")
        async with aiohttp.ClientSession() as http, http.get(web.url(f"/join/{token}"), ssl=client_tls()) as answer:
            assert answer.status == 200
            assert "Secure" in answer.headers["Set-Cookie"]
        async with await seat(web, token) as browser:
            await browser.wait_for("reg (Bersaglieri)")


async def test_behind_a_tls_proxy_the_public_origin_is_let_in_and_the_cookie_secure(tmp_path, caplog):
    async with web_table(tmp_path, caplog, public_url="https://table.example.org") as web:
        token, _ = web.invitations.create("reg")
        # As through the proxy: the browser speaks https to it, the proxy plain http to the server.
        async with aiohttp.ClientSession() as http:
            async with http.get(web.url(f"/join/{token}")) as answer:
                set_cookie = answer.headers["Set-Cookie"]
            assert "Secure" in set_cookie
            cookie = set_cookie.split(";")[0]
            ws_url = web.url("/ws").replace("http", "ws", 1)
            with pytest.raises(aiohttp.WSServerHandshakeError):  # the proxy's origin only, not another
                await http.ws_connect(ws_url, headers={"Cookie": cookie, "Origin": "https://evil.example.org"})
            ws = await http.ws_connect(ws_url, headers={"Cookie": cookie, "Origin": "https://table.example.org"})
            browser = Browser(http, ws)
            await browser.wait_for("reg (Bersaglieri)")
            await ws.close()


async def test_through_seat_workers_any_worker_serves_a_browser(tmp_path, caplog):
    async with web_table(tmp_path, caplog, workers=1) as web:
        token, _ = web.invitations.create("reg")
        async with await seat(web, token) as browser:
            await browser.wait_for("reg (Bersaglieri)")
            await browser.command("note through a worker")
            await wait_until(lambda: "through a worker" in web.game.path.read_text())
            assert "worker=" in web.log() and "seated seat=reg" in web.log()
            assert web.invitations.all()[0].used == 1  # written by the table process
        assert token not in web.log()


def keys_digest(keys: str) -> str:
    """What a page names the keys its share is for with: the SHA-256 of their UTF-8, as hex."""
    return hashlib.sha256(keys.encode()).hexdigest()


def _sealed_rolls(path: Path) -> list:
    from core.game import Game
    from core.log import events as ev

    game = Game.open(path, writable=False)
    try:
        return [e for e in game.history.timeline() if isinstance(e, ev.SealedRoll)]
    finally:
        game.close()


@pytest.mark.parametrize("workers", [0, 1], ids=["in-process", "workers"])
async def test_a_browser_seats_contribution_goes_into_its_commands_sealed_dice(tmp_path, caplog, workers):
    """The page's ``["dice", "HEX SEAL COUNT KEYS"]`` before a line is that command's contribution, used once;
    one that is not 16 bytes of lowercase hex is ignored: the line after it came without a share, and is
    refused, not drawn for (issue #90)."""
    async with web_table(tmp_path, caplog, workers=workers) as web:
        browser = await invited(web, "rita")
        mine = "0123456789abcdef" * 2
        try:
            await browser.wait_for("rita (referee)")
            await browser.command("dice-key")  # the demo game's dice were seeded: sealed from here on
            await wait_until(
                lambda: web.game.sealing.seal() != "" and ["seal", web.game.sealing.seal()] in browser.told
            )
            await browser.shared(f"{mine} {web.game.sealing.seal()} 1", "roll 1d6 purpose=first")
            await wait_until(lambda: len(_sealed_rolls(web.game.path)) == 1)
            # The page is told its seat, and what the roll used, to hold against the share it sent (shares.mjs).
            (roll,) = _sealed_rolls(web.game.path)
            said = {"count": 1, "seal": roll.saw, "contribution": mine, "faces": list(roll.roll.faces)}
            await wait_until(lambda: ["rolled", said] in browser.told)
            assert ["seat", "rita"] in browser.told
            # Not hex, too short, upper case, a count of 0, a seal not hex: each ignored, so that the line after
            # them came without a share.
            for bad in ("zz" * 16, mine[:30], mine.upper(), f"{mine} {web.game.sealing.seal()} 0", f"{mine} x 1"):
                await browser.ws.send_str(json.dumps(["dice", bad]))
            await browser.bare("roll 1d6 purpose=second\r")
            await wait_until(
                lambda: "came without its share of the dice" in web.log() and ["unshared", None] in browser.told
            )
            # The page's next line, with its own share once it was told the count that comes next, rolls.
            await wait_until(lambda: ["count", 2] in browser.told)
            await browser.command("roll 1d6 purpose=third")
            await wait_until(lambda: len(_sealed_rolls(web.game.path)) == 2)
        finally:
            await browser.close()
    first, second = _sealed_rolls(web.game.path)
    assert first.contribution == mine and "second" not in str(second.roll.purpose)
    assert len(second.contribution) == 32 and second.contribution != mine


async def test_a_browser_seats_share_names_the_key_it_was_told_and_no_later_key_rolls_it(tmp_path, caplog):
    """The page is told the key's seal (``["seal", DIGEST]``) and names it with its bytes
    (``"HEX SEAL COUNT KEYS"``): a key sealed after the page drew them cannot roll them (issue #60)."""
    async with web_table(tmp_path, caplog) as web:
        web.game.execute("dice-key", role=REFEREE)
        browser = await invited(web, "rita")
        seen = web.game.sealing.seal()
        mine, later = "0123456789abcdef" * 2, "fedcba9876543210" * 2
        try:
            await browser.wait_for("rita (referee)")
            await wait_until(lambda: ["seal", seen] in browser.told)
            await browser.ws.send_str(
                json.dumps(["dice", f"{mine} {seen} 1 {keys_digest('roll 1d6 purpose=first' + chr(13))}"])
            )
            web.game.execute("dice-key", role=REFEREE)  # after the page drew its bytes: refused
            await browser.bare("roll 1d6 purpose=first\r")
            await wait_until(lambda: "sealed with a new key" in web.log())
            # Told the new seal in answer, the page's next share rolls.
            await wait_until(lambda: ["seal", web.game.sealing.seal()] in browser.told)
            await browser.shared(f"{later} {web.game.sealing.seal()} 1", "roll 1d6 purpose=second")
            await wait_until(lambda: len(_sealed_rolls(web.game.path)) == 1)
        finally:
            await browser.close()
    (roll,) = _sealed_rolls(web.game.path)
    assert roll.contribution == later and roll.saw == roll.seal != seen


async def test_pages_speak_the_browsers_language(web):
    token, _ = web.invitations.create("reg")
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        italian = {"Accept-Language": "it-IT,it;q=0.9,en;q=0.8"}
        async with http.get(web.url("/join/" + "B" * 32), headers=italian) as answer:
            assert "Questo link non ti fa entrare" in await answer.text()
        await http.get(web.url(f"/join/{token}"))
        async with http.get(web.url("/"), headers=italian) as answer:
            page = await answer.text()
        assert '<html lang="it">' in page and '"paste": "Incolla"' in page
        # The bar beside the game that checks each roll's share, its button, and what it says of a roll (#90).
        assert ">Ogni tuo tiro è controllato qui" in page and ">Il registro dei miei dadi</button>" in page
        assert "NON hanno usato la quota della tua pagina" in page
        async with http.get(web.url("/plain"), headers=italian) as answer:
            plain = await answer.text()
        assert 'aria-label="Risposte"' in plain and '<label for="line" id="prompt">Comando</label>' in plain
        assert ">Ogni tuo tiro è controllato qui" in plain and "senza la quota dei dadi della tua pagina" in plain
        assert "Maiusc+Tab" in plain and '<a href="/">Pagina col terminale</a>' in plain
        ws = await http.ws_connect(web.url("/ws").replace("http", "ws", 1), headers={"Origin": web.origin, **italian})
        browser = Browser(http, ws)
        await browser.wait_for("reg (Reparto Bersaglieri)", "scrivi un comando")
        await ws.close()


def _messages() -> list[str | bytes]:
    """Hostile websocket messages (hypothesis): ours with absurd values, JSON of any shape, text
    that is no JSON, binary; stdin holding what a hostile terminal types."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))
    import hostile

    number = st.one_of(st.integers(), st.floats(allow_nan=True), st.just(2**64), st.text(max_size=3))
    json_any = st.recursive(
        st.none() | st.booleans() | number | st.text(max_size=20),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
        max_leaves=20,
    ).map(json.dumps)
    message = st.one_of(
        hostile.key_streams(12).map(lambda keys: json.dumps(["stdin", keys])),
        st.builds(lambda w, h: json.dumps(["resize", {"width": w, "height": h}]), number, number),
        st.builds(lambda k, v: json.dumps([k, v]), st.sampled_from(("stdin", "resize", "ping", "")), st.text()),
        json_any,
        st.text(max_size=200),
        st.binary(max_size=200),
    )
    drawn: list[list[str | bytes]] = []

    # The same draw every run (derandomize): a suite that passes passes again; a draw that
    # once left a seat with no game screen (about 1 run in 15) is an open finding (issue #53).
    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None, derandomize=True)
    @given(batch=st.lists(message, max_size=8))
    def draw(batch: list[str | bytes]) -> None:
        drawn.append(batch)

    draw()
    return [m for batch in drawn for m in batch if not _quits(m)]


def _quits(message: str | bytes) -> bool:
    """Does ``message`` hold a Ctrl+Q (in any form a terminal sends it, even inside a paste)?
    A Ctrl+Q leaves the seat: not hostile.  Looked for in the JSON's strings, not its escapes."""
    from tui.input_limits import QUIT_SEQUENCES

    text = message.decode("utf-8", "replace") if isinstance(message, bytes) else message
    with contextlib.suppress(ValueError):
        text += json.dumps(json.loads(text), ensure_ascii=False)
    return any(quit in text for quit in QUIT_SEQUENCES)


async def test_hostile_browser_messages_leave_the_seat_up_and_log_no_error(tmp_path, caplog):
    """Issue 28, the browser's messages fuzzed: whatever a browser sends on its websocket, the
    seat stays and goes on drawing the game, and nothing is logged as an error."""
    limits = Limits(web_message_rate=10_000.0, web_message_burst=10_000)
    async with web_table(tmp_path, caplog, limits=limits) as web, await invited(web, "reg") as browser:
        await browser.wait_for("reg (Bersaglieri)")
        for message in _messages():
            if isinstance(message, bytes):
                await browser.ws.send_bytes(message)
            else:
                await browser.ws.send_str(message)
        await browser.ws.send_str(json.dumps(["resize", {"width": 100, "height": 40}]))
        rita = await web.club.seated("rita", "rita (referee)")
        rita.command('note "fuzzed and still here"')
        # Its app lives and takes in what the table does (under whatever screen the keys opened).
        from tui.panes.log import LogView
        from tui.screens.game import GameScreen

        session = next(s for s in web.club.server.sessions if s.seat.name == "reg")
        game_screen = next(s for s in session.app.screen_stack if isinstance(s, GameScreen))
        log = game_screen.query_one(LogView)
        await wait_until(lambda: "fuzzed and still here" in log.line_at(log.rows - 1).text)
        assert not browser.closed.done()
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "an error was logged"
        assert "Traceback" not in web.log()


async def test_a_flooding_browser_seat_is_cut_off_while_another_seats_command_goes_through(web):
    """Issue 53: a browser's message flood was dropped but never cut off, and receiving it took the
    other seats of its process from ~20 ms to 185 ms.  Far past the rate it is disconnected, saying
    why in the log, as an SSH client flooding window changes is; the other seat's command meanwhile
    reaches the game (how long it took is printed: the goal is 200 ms, measured, not asserted)."""
    flooder = await invited(web, "reg")
    other = await invited(web, "irr")
    arrived: list[float] = []
    web.game.subscribe(lambda outcome: arrived.append(time.monotonic()), role=REFEREE)
    try:
        await flooder.wait_for("reg (Bersaglieri)")
        await other.wait_for("irr (Somali militia)")
        resize = json.dumps(["resize", {"width": 100, "height": 40}])

        async def flood() -> None:
            with contextlib.suppress(ConnectionError, RuntimeError):
                while not flooder.closed.done():
                    for _ in range(200):
                        await flooder.ws.send_str(resize)
                    await asyncio.sleep(0)

        flooding = asyncio.get_running_loop().create_task(flood())
        await asyncio.sleep(0.05)  # the flood under way (its messages are already on their way)
        sent = time.monotonic()
        await other.command("note through the flood")
        assert await asyncio.wait_for(flooder.closed, WAIT_S) == aiohttp.WSCloseCode.POLICY_VIOLATION
        await flooding
        await wait_until(lambda: "through the flood" in web.game.path.read_text(errors="replace"))
        print(f"\nthe other seat's command reached the game {1000 * (arrived[0] - sent):.0f} ms after it was sent")
        assert "disconnected seat=reg role=regulars" in web.log()
        assert "more websocket messages than 2000 at once and 1000 a second" in web.log()
        assert not other.closed.done()  # only the flooder went
        await other.wait_for("through the flood")
    finally:
        await flooder.close()
        await other.close()


def _cookies(answer: aiohttp.ClientResponse) -> dict[str, str]:
    """The cookies an answer sets: name -> the whole Set-Cookie line."""
    return {line.split("=", 1)[0]: line for line in answer.headers.getall("Set-Cookie", [])}


async def _open(web: WebClub, token: str, cookies: dict[str, str], fetch_site: str) -> aiohttp.ClientResponse:
    """Open the link with just ``cookies``, as a navigation that ``fetch_site`` started (``Sec-Fetch-Site``)."""
    async with aiohttp.ClientSession(cookies=cookies) as http:
        answer = await http.get(web.url(f"/join/{token}"), headers={"Sec-Fetch-Site": fetch_site})
        await answer.read()
        answer.release()
        return answer


async def test_the_link_opened_again_from_another_site_finds_the_seat_and_spends_no_use(web):
    token, _ = web.invitations.create("irr", uses=1)
    http, status = await join(web, token)
    async with http.get(web.url(f"/join/{token}")) as answer:  # (the same browser: the cookies it holds)
        pass
    cookies = {c.key: c.value for c in http.cookie_jar}
    await http.close()
    async with aiohttp.ClientSession() as fresh:
        answer = await fresh.get(web.url(f"/join/{token}"))
        await answer.read()
    assert answer.status == 403  # its one use is spent: another browser is refused
    finder = f"{web.cookie_name}-find"
    assert set(cookies) == {web.cookie_name, finder}
    # From a chat app: the browser sends its Lax finder, not its Strict cookie.
    again = await _open(web, token, {finder: cookies[finder]}, "cross-site")
    assert again.status == 200 and not _cookies(again)  # found: no new cookie, no use
    assert web.invitations.all()[0].used == 1
    # The finder alone seats nobody.
    async with aiohttp.ClientSession(cookies={finder: cookies[finder]}) as only_finder:
        for path in ("/", "/alive"):
            async with only_finder.get(web.url(path)) as answer:
                assert answer.status == 403
    # A forged finder finds nothing: the link is used up for it.
    assert (await _open(web, token, {finder: "A" * 43}, "cross-site")).status == 403


async def test_the_join_cookies_strict_and_the_finder_lax(web):
    token, _ = web.invitations.create("reg")
    answer = await _open(web, token, {}, "cross-site")  # the first time, from a chat app
    cookies = _cookies(answer)
    assert "SameSite=Strict" in cookies[web.cookie_name] and "HttpOnly" in cookies[web.cookie_name]
    finder = cookies[f"{web.cookie_name}-find"]
    assert "SameSite=Lax" in finder and "HttpOnly" in finder and "Path=/" in finder


async def test_another_site_cannot_swap_a_players_seat_for_its_spectator_link(web):
    player, _ = web.invitations.create("reg")
    spectators, _ = web.invitations.create("")
    http, _status = await join(web, player)
    cookies = {c.key: c.value for c in http.cookie_jar}
    await http.close()
    finder = {f"{web.cookie_name}-find": cookies[f"{web.cookie_name}-find"]}
    # Another site's page sends the browser to its spectator link (only the Lax finder goes along).
    for fetch_site in ("cross-site", "same-site"):
        answer = await _open(web, spectators, finder, fetch_site)
        assert answer.status == 409 and not _cookies(answer)
    assert web.invitations.all()[1].used == 0
    assert "join from another site refused" in web.log()
    # The page it gets offers the way back, and the new seat by a link of this server's own.
    async with (
        aiohttp.ClientSession(cookies=finder) as browser,
        browser.get(web.url(f"/join/{spectators}"), headers={"Sec-Fetch-Site": "cross-site"}) as page,
    ):
        body = await page.text()
    assert "already holds a seat here (reg)" in body
    assert '<a href="/">' in body and f'<a href="/join/{spectators}">' in body
    # Followed from this server's page (same-origin), or typed (none): the player asked for it.
    answer = await _open(web, spectators, {**cookies}, "same-origin")
    assert answer.status == 200 and web.cookie_name in _cookies(answer)
    assert web.invitations.all()[1].used == 1


@pytest.mark.parametrize("how", ["kicked", "revoked", "expired", "seat", "stopped"])
async def test_a_browser_seat_ended_by_the_host_is_told_why_in_one_word(web, tmp_path, how, monkeypatch):
    web.club.server.seats_poll = 0.05
    token, inv = web.invitations.create("irr")
    browser = await seat(web, token)
    await browser.wait_for("irr (Somali militia)")
    if how == "kicked":
        web.club.server.kick("irr", "rita")
    elif how == "revoked":
        Invitations(tmp_path).revoke(inv.id)
    elif how == "expired":
        monkeypatch.setattr(web.invitations, "_clock", lambda: time.time() + 10**8)
    elif how == "seat":
        seats = tmp_path / "seats.toml"
        seats.write_text(seats.read_text().replace('name = "irr"', 'name = "irr2"'))
    else:
        await web.club.server.close()
    assert await asyncio.wait_for(browser.reason, WAIT_S) == how
    assert await asyncio.wait_for(browser.closed, WAIT_S) == 4001
    await browser.http.close()


async def test_a_browser_s_seat_is_told_its_keys_are_a_page_s(web):
    """Issue #77: its screens say only keys a phone's page has (the Actions form's Run, not Ctrl+S):
    the door tells the seat's app it is at a page; an SSH seat's app is not."""
    browser = await invited(web, "irr")
    await browser.wait_for("irr (Somali militia)")
    assert web.club.app("irr").page is True
    reg = await web.club.seated("reg", "reg (Bersaglieri)")
    assert web.club.app("reg").page is False
    reg.conn.abort()
    await browser.http.close()


async def test_a_player_leaving_is_told_he_left(web):
    browser = await invited(web, "irr")
    await browser.wait_for("irr (Somali militia)")
    await browser.type("\x11")  # Ctrl+Q
    assert await asyncio.wait_for(browser.reason, WAIT_S) == "left"
    assert await asyncio.wait_for(browser.closed, WAIT_S) == 4000
    await browser.http.close()


# ------------------------------------------------------------------ the plain page


class PlainBrowser(_Page):
    """The plain page's websocket: the answers (binary messages) as text, the page's own messages (JSON text) apart."""

    def __init__(self, http: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.http = http
        self.ws = ws
        self.answers = ""
        self.told: list[list] = []
        self.page = PageKeys()
        self._task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        while (message := await self.ws.receive()).type not in _OVER:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.answers += message.data.decode("utf-8")
            elif message.type == aiohttp.WSMsgType.TEXT:
                self.told.append(json.loads(message.data))
                self.page.told(self.told[-1])

    async def wait_for(self, *texts: str) -> str:
        return await wait_until(lambda: all(t in self.answers for t in texts), WAIT_S, lambda: self.answers)

    async def line(self, text: str) -> None:
        await self.keys(text + "\n")

    async def shared(self, share: str, text: str) -> None:
        """``text`` given as the plain page gives it: after its share, naming the line it is for."""
        await self.ws.send_str(json.dumps(["dice", f"{share} {keys_digest(text + chr(10))}"]))
        await self.bare(text + "\n")


async def plain_seat(web: WebClub, token: str) -> PlainBrowser:
    http, status = await join(web, token)
    assert status == 200
    ws = await http.ws_connect(web.url("/ws?plain=1").replace("http", "ws", 1), headers={"Origin": web.origin})
    return PlainBrowser(http, ws)


async def test_the_plain_page_wants_the_cookie_and_has_the_other_pages_policy(web):
    token, _ = web.invitations.create("reg")
    async with aiohttp.ClientSession() as stranger, stranger.get(web.url("/plain")) as answer:
        assert answer.status == 403
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        async with http.get(web.url(f"/join/{token}?plain")) as answer:
            # A link ending in ?plain moves on to the plain page.
            assert '<meta http-equiv="refresh" content="0;url=/plain">' in await answer.text()
        async with http.get(web.url("/")) as terminal, http.get(web.url("/plain")) as plain:
            page = await plain.text()
            assert plain.status == 200
            assert plain.headers["Content-Security-Policy"] == terminal.headers["Content-Security-Policy"]
            assert 'src="/static/plain.mjs?v=' in page and "xterm" not in page
            assert 'role="log" aria-live="polite" aria-label="Answers"' in page
            assert '<label for="line" id="prompt">Command</label>' in page
            assert f'maxlength="{Limits().line_length}"' in page  # the seat's limit, said to the page
            assert '<a href="/">Terminal page</a>' in page  # chosen: the way back
            assert 'href="/plain"' in await terminal.text()
        async with http.get(web.url("/static/plain.mjs")) as script:
            assert script.status == 200 and script.headers["Content-Type"].startswith("text/javascript")
            # Whatever the server sends is put in the page as text, never parsed as markup.
            assert "innerHTML" not in await script.text() and "insertAdjacentHTML" not in await script.text()


@pytest.mark.parametrize("workers", [0, 1], ids=["no workers", "seat workers"])
async def test_the_seats_files_plain_seat_gets_the_plain_page_and_lines_whatever_the_socket_asks(
    tmp_path, caplog, workers
):
    async with web_table(tmp_path, caplog, plain={"reg"}, workers=workers) as web:
        token, _ = web.invitations.create("reg")
        http, _status = await join(web, token)
        async with http.get(web.url("/")) as answer:
            page = await answer.text()
        assert 'src="/static/plain.mjs?v=' in page and "Terminal page" not in page
        # Even a socket that does not ask for lines gets them: the seat has no screen.
        ws = await http.ws_connect(web.url("/ws").replace("http", "ws", 1), headers={"Origin": web.origin})
        browser = PlainBrowser(http, ws)
        try:
            await browser.wait_for("Fireteam, in plain lines.")
            assert "\x1b" not in browser.answers
            await wait_until(lambda: ["prompt", "reg (Bersaglieri)>"] in browser.told)
        finally:
            await browser.close()


async def test_a_plain_browser_seat_completes_and_is_held_to_the_seats_limits(tmp_path, caplog):
    limits = Limits(line_length=40)
    async with web_table(tmp_path, caplog, limits=limits) as web:
        token, _ = web.invitations.create("rita")
        async with await plain_seat(web, token) as browser:
            await browser.wait_for("Fireteam, in plain lines.")
            await wait_until(lambda: ["prompt", "rita (referee)>"] in browser.told)
            # Tab: the line completed, and where the cursor goes.
            await browser.ws.send_str(json.dumps(["tab", ["no", 2]]))
            await wait_until(lambda: ["tab", ["note ", 5]] in browser.told)
            # A Tab the page could not have sent is ignored: the cursor outside the line, two lines, too long.
            for hostile in (["no", 9], ["no", -1], ["n\no", 1], ["no" + "x" * 50, 2], ["no", 2**70], ["no"], "no"):
                await browser.ws.send_str(json.dumps(["tab", hostile]))
            # A line over the seat's limit is dropped, and said; the next one is taken.
            await browser.line("note " + "x" * 60)
            await browser.wait_for("a line of more than 40 characters was dropped")
            await browser.line("note short enough")
            await browser.wait_for("Note: short enough.")
            assert "x" * 60 not in web.game.path.read_text()
            assert sum(m[0] == "tab" for m in browser.told) == 1
            # The question of undo is said as a line, and is the input's label meanwhile.
            await browser.line("undo")
            await browser.wait_for("Undo #2 note short enough? y or n:")
            await wait_until(lambda: ["prompt", "Undo #2 note short enough? y or n:"] in browser.told)
        assert "Traceback" not in web.log()


async def test_a_plain_page_leaving_the_pages_own_messages_unread_is_cut_off_as_for_its_answers(
    tmp_path, caplog, monkeypatch
):
    from tui.ssh.web import channel as web_channel

    async with web_table(tmp_path, caplog) as web:
        token, _ = web.invitations.create("rita")
        async with await plain_seat(web, token) as browser:
            await wait_until(lambda: ["prompt", "rita (referee)>"] in browser.told)
            # From here on the browser reads nothing (its buffers full): a Tab's answer is all that is sent.
            monkeypatch.setattr(web_channel.WebChannel, "buffered", lambda self: 10**9)
            await browser.ws.send_str(json.dumps(["tab", ["no", 2]]))
            await wait_until(lambda: "slow reader cut off seat=rita" in web.log())
            await wait_until(lambda: not web.club.server.sessions)


def test_a_frames_writes_go_as_one_message_and_the_pages_own_each_in_its_place():
    from tui.ssh.web.channel import grouped

    assert grouped([b"a", b"b", '["prompt","x"]', b"c", '["tab",["n",1]]', '["prompt","y"]']) == [
        b"ab",
        '["prompt","x"]',
        b"c",
        '["tab",["n",1]]',
        '["prompt","y"]',
    ]
    assert grouped([b"row"] * 1000) == [b"row" * 1000]


async def _keyed_at(browser: Browser) -> str:
    """What ``browser``'s seat is sent as a key is typed on its empty command line and the line
    is emptied again (Ctrl+U), until it shows the line's placeholder once more."""
    start = len(browser.raw)
    await browser.type("x")
    await browser.wait_for("› x")
    await browser.type("\x15")
    await browser.wait_for("› type a command")
    return "".join(browser.raw[start:])


@pytest.mark.parametrize("workers", [0, 1], ids=["one-process", "seat-workers"])
async def test_a_change_a_side_cannot_see_sends_its_browser_nothing(tmp_path, caplog, workers):
    """Issue #60: the referee's command on a fighter hidden from the regulars, and his undo and
    redo of it, send the regulars' browser not a byte, neither a frame nor a page message (a
    repaint alone would tell them something happened; it sent 4.6 KB).  The browser's key typed
    after them is echoed with nothing besides: the seat hears of a change before the referee's
    screen shows it, so whatever it would send comes before that echo, or with it."""
    async with web_table(tmp_path, caplog, workers=workers) as web, await invited(web, "reg") as browser:
        rita = await web.club.connect("rita")
        await asyncio.gather(rita.wait_for("type a command"), browser.wait_for("type a command"))
        await _keyed_at(browser)  # (its first frames are out)
        typed = await _keyed_at(browser)
        start = len(browser.raw)
        for line, said in (
            ("mark dahir pinned", "Dahir Omar now pinned"),
            ("undo", "rita undid command #"),
            ("redo", "rita redid command #"),
        ):
            rita.type("\x15" + line + "\r")
            await rita.wait_for(said)
        await _keyed_at(browser)
        sent = "".join(browser.raw[start:])
        assert drawn(sent) == drawn(typed), sent
        assert "Dahir" not in browser.text()


async def test_a_browser_seat_downloads_its_copy_by_its_key_and_the_pages_link(web, tmp_path):
    """Issue #74: F10 at a browser seat tells its page to fetch ``/copy``; the page's cookie gets the
    seat's copy as a file to keep, which holds against the save; no cookie, no copy."""
    async with await invited(web, "irr") as browser:
        await browser.wait_for("irr (Somali militia)")
        await browser.type("\x1b[21~")  # F10
        await wait_until(lambda: ["download", "/copy?game=table"] in browser.told, WAIT_S, lambda: str(browser.told))
        await browser.wait_for("your copy of the game so far is downloading")
        tls = client_tls() if web.tls else True
        async with browser.http.get(web.url("/copy?game=table"), ssl=tls) as answer:
            assert answer.status == 200
            assert answer.headers["Content-Disposition"] == 'attachment; filename="table-irregulars.ft"'
            assert answer.headers["Cache-Control"] == "no-store"
            kept = tmp_path / "mine.ft"
            kept.write_bytes(await answer.read())
        async with browser.http.get(web.url("/"), ssl=tls) as page:
            assert '<a id="copy" href="/copy" download>My copy</a>' in await page.text()
    assert read(kept).role == "irregulars" and compare(web.game, kept).ok
    # The browser came by an invitation: the log says who sits for the militia, and how (issue #74).
    assert [(s.side, s.name, s.key, s.via) for s in web.game.reading.players()] == [
        ("irregulars", "irr", "", "invitation")
    ]
    async with aiohttp.ClientSession() as stranger, stranger.get(web.url("/copy"), ssl=tls) as answer:
        assert answer.status == 403 and FORBIDDEN_WORDS in await answer.text()


async def test_a_seat_invited_to_one_game_is_refused_the_copy_of_another(tmp_path, caplog):
    """Issue #90, point 10: a seat whose invitation names one game asked ``/copy?game=OTHER``; the game
    asked is refused (a seat's copy is of its own game only), and its own is given as before.  A seat
    whose invitation names no game may sit at any table, and so keep the copy of any."""
    async with web_table(tmp_path, caplog, others=["other"]) as web:
        web.game.execute("note only at this table", role=REFEREE)
        own, _ = web.invitations.create("irr", game="table")
        http, status = await join(web, own)
        async with http:
            assert status == 200
            for asked in ("other", "missing"):
                async with http.get(web.url(f"/copy?game={asked}")) as answer:
                    assert answer.status == 403, asked
                    assert "Content-Disposition" not in answer.headers
                    assert "A seat&#x27;s copy is of its own game only." in await answer.text()
            for address in ("/copy?game=table", "/copy"):
                async with http.get(web.url(address)) as answer:
                    assert answer.status == 200
                    assert b"only at this table" in await answer.read()
        anywhere, _ = web.invitations.create("irr")
        http, status = await join(web, anywhere)
        async with http, http.get(web.url("/copy?game=other")) as answer:
            assert answer.status == 200 and answer.headers["Content-Disposition"].endswith('"other-irregulars.ft"')
            assert b"only at this table" not in await answer.read()
    assert "copy refused seat=irr role=irregulars game='other': the invitation is to game 'table'" in web.log()
