"""A websocket as a seat's channel (``tui.ssh.seating.seat.Channel``): what the seat writes in one turn
of the loop goes out as one binary message, a page's own messages as text in their place, and the
session's end closes it with 4000 + its exit status and one word of why (``tui.ssh.web.door``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from aiohttp import web

#: The close code of a session the server ended: this + its exit status (the page does not reconnect).
ENDED = 4000
#: Why a session ended, the close's reason (``SeatSession.end_reason``): the page has a sentence for each.
END_REASONS = frozenset({"left", "failed", "kicked", "revoked", "expired", "seat", "stopped"})


class WebChannel:
    """A websocket as a seat's :class:`tui.ssh.seating.seat.Channel`: output gathered and sent as binary messages."""

    def __init__(self, ws: web.WebSocketResponse, transport: asyncio.Transport | None, why: Callable[[], str]) -> None:
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
            self._transport.abort()

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
                    for message in grouped(batch):
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


def grouped(batch: list[bytes | str]) -> list[bytes | str]:
    """The output written in a row as one message; each of a page's own messages alone, in its place."""
    messages: list[bytes | str] = []
    run: list[bytes] = []  # joined once: a frame is many small writes
    for item in batch:
        if isinstance(item, bytes):
            run.append(item)
            continue
        if run:
            messages.append(b"".join(run))
            run = []
        messages.append(item)
    if run:
        messages.append(b"".join(run))
    return messages
