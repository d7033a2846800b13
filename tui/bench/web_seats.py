"""Browser seats for the benchmark of ``fireteam serve`` (``python -m tui.bench.ssh --web N``).

A browser seat here is what a browser's page is to the server: it opens its
invitation's link (``/join/TOKEN``), keeps the cookie, and opens the
websocket with the server's own ``Origin``; it receives the terminal's
bytes as binary messages and types with ``["stdin", TEXT]`` messages, each
line after its share of the dice as the page sends it (:class:`PageKeys`;
``tui.ssh.web.door``).  It draws nothing: like the SSH clients of the
benchmark, it only watches for a text to arrive, so that the figures are
the server's.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import time
from pathlib import Path

import aiohttp

from tui.ssh.invitations.store import Invitations

#: The terminal size a benchmark browser asks for (as the SSH clients' terminals).
SIZE = (100, 40)


class PageKeys:
    """What a page sends for the keys typed (``tui/ssh/web/page/``): once the server told it the
    dice's seal and the count of its seat's shares (``told``), a message holding an Enter goes after its
    share of the dice, ``["dice", "HEX SEAL COUNT KEYS"]``: bytes drawn once for each seal and count, and the
    SHA-256 of the keys sent since the last Enter; the door refuses a line that comes without one."""

    def __init__(self) -> None:
        self.seal: str | None = None
        self.count: int | None = None
        self._keys = ""
        self._drawn: dict[tuple[str, int], str] = {}

    def told(self, message: list) -> None:
        """One of the server's own messages to the page (its JSON, decoded)."""
        if message[:1] == ["seal"] and isinstance(message[1], str):
            self.seal = message[1]
        elif message[:1] == ["count"] and isinstance(message[1], int):
            self.count = message[1]

    def sent(self, text: str) -> list[str]:
        """The messages the page sends for ``text`` typed, in order."""
        out = []
        self._keys += text
        if "\r" in text or "\n" in text:
            if self.seal is not None and self.count is not None:
                mine = self._drawn.setdefault((self.seal, self.count), os.urandom(16).hex())
                keys = hashlib.sha256(self._keys.encode()).hexdigest()
                out.append(json.dumps(["dice", f"{mine} {self.seal} {self.count} {keys}"]))
            self._keys = ""
        return [*out, json.dumps(["stdin", text])]


class BrowserSeat:
    """One browser's websocket: what arrives since the last :meth:`expect`, and when the text showed."""

    def __init__(self, http: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse) -> None:
        self._http = http
        self._ws = ws
        self._buffer = ""
        self._want = ""
        self._page = PageKeys()
        self.arrived: asyncio.Future[float] | None = None
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for message in self._ws:
            if message.type == aiohttp.WSMsgType.TEXT:
                self._page.told(json.loads(message.data))
            if message.type != aiohttp.WSMsgType.BINARY:
                continue
            self._buffer += message.data.decode("utf-8", "replace")
            if self.arrived is not None and not self.arrived.done() and self._want in self._buffer:
                self.arrived.set_result(time.perf_counter())
            if len(self._buffer) > 1 << 16:
                self._buffer = self._buffer[-4096:]

    def expect(self, text: str, *, already: bool = False) -> asyncio.Future[float]:
        """Start watching for ``text``; the future holds the time it arrived.  ``already``: what arrived
        before counts too (a seat's first screen may come before the benchmark looks for it)."""
        if not already:
            self._buffer = ""
        self._want = text
        self.arrived = asyncio.get_running_loop().create_future()
        if already and text in self._buffer:
            self.arrived.set_result(time.perf_counter())
        return self.arrived

    async def type(self, text: str) -> None:
        for message in self._page.sent(text):
            await self._ws.send_str(message)

    async def close(self) -> None:
        self._reader.cancel()
        await self._ws.close()
        await self._http.close()


def invite(data: Path, seats: list[str]) -> list[str]:
    """An invitation's token for each of ``seats`` (in the server's data folder, as ``fireteam invite`` does)."""
    store = Invitations(data)
    return [store.create(seat)[0] for seat in seats]


async def seat_browser(port: int, token: str) -> BrowserSeat:
    """A browser opens its link on 127.0.0.1:``port`` and sits."""
    origin = f"http://127.0.0.1:{port}"
    http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    try:
        async with http.get(f"{origin}/join/{token}") as answer:
            if answer.status != 200:
                raise RuntimeError(f"the invitation's link answered {answer.status}")
        ws = await http.ws_connect(
            f"ws://127.0.0.1:{port}/ws?width={SIZE[0]}&height={SIZE[1]}", headers={"Origin": origin}
        )
    except BaseException:
        await http.close()
        raise
    return BrowserSeat(http, ws)


async def seat_browsers(port: int, tokens: list[str]) -> list[BrowserSeat]:
    """A browser for each token, all opening their links at once."""
    return list(await asyncio.gather(*(seat_browser(port, t) for t in tokens)))
