"""The NATS connection of a table or a relay: its options, and the streams it finds or makes.

``nats-py`` is an optional dependency (``pip install 'fireteam[venue]'``): it is imported
here only, when a table or a relay is given a NATS address.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.venue import STREAMS

#: How long one request to JetStream may take before it counts as lost (a loaded venue's Wi-Fi is slow, not dead).
REQUEST_S = 10.0
#: The stream's window in which a re-sent message id is dropped as a duplicate (JetStream's default).
DUPLICATE_WINDOW_S = 120.0
#: Wait between attempts to reach a NATS server that did not answer (nats-py's own, once connected).
RECONNECT_S = 1.0


class VenueUnavailable(RuntimeError):
    """``nats-py`` is not installed."""


def nats_module() -> Any:
    try:
        import nats
    except ImportError:
        raise VenueUnavailable("a NATS address needs the nats-py package: pip install 'fireteam[venue]'") from None
    return nats


@dataclass(frozen=True)
class NatsOptions:
    """Where NATS is and how to log in: its address(es), a credentials file (JWT and nkey, as ``nsc``
    writes them) and a CA to check its TLS certificate by, each as NATS provides them."""

    url: str
    creds: Path | None = None
    ca: Path | None = None

    def servers(self) -> list[str]:
        return [u.strip() for u in self.url.split(",") if u.strip()]


async def connect(
    options: NatsOptions,
    name: str,
    log: logging.Logger,
    *,
    on_reconnect: Callable[[], None] = lambda: None,
    on_disconnect: Callable[[], None] = lambda: None,
) -> Any:
    """A connection that reconnects by itself once made; raises what nats-py raises if none answers now."""
    nats = nats_module()
    tls = None
    if options.ca is not None or any(u.startswith("tls://") for u in options.servers()):
        tls = ssl.create_default_context(cafile=str(options.ca) if options.ca else None)

    async def error(e: Exception) -> None:
        log.warning("NATS: %s", e)

    async def reconnected() -> None:
        log.info("NATS: connected again")
        on_reconnect()

    async def disconnected() -> None:
        on_disconnect()

    return await nats.connect(
        options.servers(),
        name=name,
        user_credentials=str(options.creds) if options.creds else None,
        tls=tls,
        allow_reconnect=True,
        max_reconnect_attempts=-1,
        reconnect_time_wait=RECONNECT_S,
        connect_timeout=REQUEST_S,
        error_cb=error,
        reconnected_cb=reconnected,
        disconnected_cb=disconnected,
    )


async def connect_until_done(
    options: NatsOptions, name: str, log: logging.Logger, **callbacks: Callable[[], None]
) -> Any:
    """Connect, trying again until a server answers (a table starts while the venue's NATS is still down)."""
    nats_module()  # not installed: said at once, not tried again
    said = False
    while True:
        try:
            return await connect(options, name, log, **callbacks)
        except Exception as e:  # nats-py's NoServersError, a refused login, a TLS mistake: said once, tried again
            if not said:
                log.warning("NATS at %s does not answer (%s): trying again until it does", options.url, e)
                said = True
            await asyncio.sleep(RECONNECT_S)


async def ensure_streams(js: Any, *, optional: tuple[str, ...] = ()) -> list[str]:
    """The venue's streams, made if missing: one message kept per subject (a view is the whole log).

    Those of ``optional`` that cannot be seen or made (credentials from before them) are
    returned rather than raised."""
    from nats.js.api import StreamConfig
    from nats.js.errors import NotFoundError

    lacking = []
    for name, subjects in STREAMS.items():
        try:
            try:
                await js.stream_info(name)
            except NotFoundError:
                config = StreamConfig(
                    name=name,
                    subjects=[subjects],
                    max_msgs_per_subject=1,
                    duplicate_window=DUPLICATE_WINDOW_S,
                    allow_direct=True,
                )
                await js.add_stream(config)
        except Exception:
            if name not in optional:
                raise
            lacking.append(name)
    return lacking
