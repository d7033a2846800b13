"""``fireteam relay --nats URL --web PORT``: a relay of the venue's tables for spectators' browsers.

See ``tui.ssh.venue.relay`` and docs/ssh.md, *A venue on NATS*.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

from tui.ssh.language import _
from tui.ssh.venue.options import add_nats_arguments, nats_options


def add_relay_parser(sub: argparse._SubParsersAction) -> None:
    r = sub.add_parser("relay", help=_("serve spectators of every table of a venue, from its NATS (no save here)"))
    r.add_argument("--host", default="127.0.0.1", help=_("the address browsers connect to"))
    r.add_argument("--web", type=int, metavar="PORT", required=True, help=_("the port browsers connect to"))
    r.add_argument(
        "--url", default="", help=_("the address browsers open, when it is not http://HOST:PORT (a reverse proxy)")
    )
    add_nats_arguments(r, table=False)


def relay_main(args: argparse.Namespace) -> int:
    try:
        options = nats_options(args, None)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if options is None:
        print("error: a relay needs the venue's NATS: give --nats URL", file=sys.stderr)
        return 2
    if not 0 <= args.web <= 65535:
        print("error: --web takes a port number", file=sys.stderr)
        return 2
    if args.url and not args.url.startswith(("http://", "https://")):
        print(f"error: --url takes an address starting with http:// or https://, not {args.url!r}", file=sys.stderr)
        return 2
    log = logging.getLogger("fireteam.relay")
    log.setLevel(logging.INFO)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    log.addHandler(handler)
    return asyncio.run(_relay(args, options, log))


async def _relay(args: argparse.Namespace, options, log: logging.Logger) -> int:
    from tui.ssh.venue.connection import VenueUnavailable
    from tui.ssh.venue.relay import Relay

    relay = Relay(options, log, public_url=args.url.rstrip("/"))
    try:
        port = await relay.start_web(args.host, args.web)
    except OSError as e:
        print(f"error: cannot listen: {e.strerror or e}", file=sys.stderr)
        return 2
    print(f"venue page on {relay.public_url}/ (port {port})", flush=True)
    try:
        await relay.start()
    except VenueUnavailable as e:
        print(f"error: {e}", file=sys.stderr)
        await relay.close()
        return 2
    print(f"following the tables on {options.url}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await relay.close()
    return 0
