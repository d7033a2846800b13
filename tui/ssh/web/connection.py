"""One accepted connection of the browser door: aiohttp's HTTP protocol on it, and the deadline for
its next request's headers (``Limits.web_request_s``), so that a connection that sends nothing, or
not all of its headers, is dropped; a websocket is kept alive by pings instead (``tui.ssh.web.door``)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, cast

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

#: Bounds of one request: its first line, each header, how many headers.
MAX_LINE, MAX_FIELD, MAX_HEADERS = 4096, 8190, 64
#: aiohttp's own log, of requests it refuses before they reach the door (a line too long...): silent, since
#: it quotes the request's first bytes, which may be a token.  The door logs what it refuses itself.
QUIET = logging.getLogger("fireteam.serve.http")
QUIET.propagate = False
QUIET.addHandler(logging.NullHandler())


class Connection:
    """One accepted connection: its deadline for the next request's headers, and its end."""

    def __init__(self, peer: str, loop: asyncio.AbstractEventLoop, limit_s: float) -> None:
        self.peer = peer
        self.transport: asyncio.Transport | None = None
        self.lost: asyncio.Future[None] = loop.create_future()
        self.upgraded = False  # a websocket now: kept alive by pings, not by requests
        self._event_loop = loop
        self._limit_s = limit_s
        self._busy = 0
        self._timer: asyncio.TimerHandle | None = None

    def made(self, transport: asyncio.Transport) -> None:
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


class DoorProtocol(RequestHandler):
    """aiohttp's HTTP protocol, telling its :class:`Connection` when it starts and ends."""

    def __init__(self, manager: web.Server, connection: Connection, **kwargs: Any) -> None:
        super().__init__(manager, **kwargs)
        self.connection = connection

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        # (asyncio types every protocol's transport as a base one; a stream's is a Transport, as aiohttp casts it)
        self.connection.made(cast(asyncio.Transport, transport))

    def connection_lost(self, exc: BaseException | None) -> None:
        super().connection_lost(exc)
        self.connection.gone()
