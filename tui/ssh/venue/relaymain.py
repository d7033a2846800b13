"""``fireteam relay --nats URL --web PORT [--port SSH]``: a relay of the venue's tables for spectators'
browsers, and their terminals over SSH (``tui.ssh.venue.sshwatch``).  ``fireteam relay --league FILE
--web PORT`` without ``--nats`` serves the league's standings alone: the file is all it needs
(``--event FILE`` the same for an event's pages).

See ``tui.ssh.venue.relay`` and docs/ssh.md, *A venue on NATS*; docs/league.md for the standings.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tui.ssh.language import _
from tui.ssh.venue.options import add_nats_arguments, nats_options

if TYPE_CHECKING:
    import asyncssh

#: The file of the venue's relays' keys at most (a public key is a line of about 100 bytes).
MAX_RELAY_KEYS_BYTES = 64 * 1024


def add_relay_parser(sub: argparse._SubParsersAction) -> None:
    r = sub.add_parser("relay", help=_("serve spectators of every table of a venue, from its NATS (no save here)"))
    r.add_argument("--host", default="127.0.0.1", help=_("the address browsers connect to"))
    r.add_argument("--web", type=int, metavar="PORT", required=True, help=_("the port browsers connect to"))
    r.add_argument(
        "--port",
        type=int,
        metavar="PORT",
        help=_("also let spectators watch over SSH, on this port (ssh -p PORT TABLE@HOST; no login)"),
    )
    r.add_argument(
        "--host-key",
        type=Path,
        metavar="FILE",
        help=_(
            "the relay's SSH host key, which also signs its announcements "
            "(default: made once in the data folder: fireteam paths)"
        ),
    )
    r.add_argument(
        "--relay-keys",
        type=Path,
        metavar="FILE",
        help=_("the public keys of the venue's other relays, one a line: pages are offered only those relays"),
    )
    r.add_argument(
        "--url", default="", help=_("the address browsers open, when it is not http://HOST:PORT (a reverse proxy)")
    )
    r.add_argument(
        "--league",
        type=Path,
        metavar="FILE",
        help=_(
            "serve this league's standings at /standings (read again whenever the file changes); "
            "without --nats, alone: the file is all it needs"
        ),
    )
    r.add_argument(
        "--event",
        type=Path,
        metavar="FILE",
        help=_("also serve this event's pairings, tables, clock and standings at /event (docs/event.md)"),
    )
    add_nats_arguments(r, table=False)


def relay_main(args: argparse.Namespace) -> int:
    try:
        options = nats_options(args, None)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if options is None and args.league is None and args.event is None:
        print(
            "error: a relay needs the venue's NATS (--nats URL), or a league or an event to serve alone "
            "(--league FILE, --event FILE)",
            file=sys.stderr,
        )
        return 2
    for option, given in (("--league", args.league), ("--event", args.event)):
        if given is not None and not given.is_file():
            print(f"error: {option}: {given}: no such file", file=sys.stderr)
            return 2
    if not 0 <= args.web <= 65535:
        print("error: --web takes a port number", file=sys.stderr)
        return 2
    if args.port is not None and not 0 <= args.port <= 65535:
        print("error: --port takes a port number", file=sys.stderr)
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

    keys = _keys(args)
    if keys is None:
        return 2
    key, relay_keys = keys
    print(f"relay key fingerprint: {key.get_fingerprint()} (give its public key to the venue's other relays)")
    relay = Relay(options, log, public_url=args.url.rstrip("/"), key=key, relay_keys=relay_keys)
    if args.league is not None:
        from tui.ssh.venue.leaguepage import LeaguePage

        relay.standings = LeaguePage(args.league)
    if args.event is not None:
        from tui.ssh.venue.eventpage import EventPages

        relay.event_pages = EventPages(args.event)
    try:
        port = await relay.start_web(args.host, args.web)
    except OSError as e:
        print(f"error: cannot listen: {e.strerror or e}", file=sys.stderr)
        return 2
    print(f"venue page on {relay.public_url}/ (port {port})", flush=True)
    if relay.standings is not None:
        print(f"the league's standings on {relay.public_url}/standings", flush=True)
    if relay.event_pages is not None:
        print(f"the event's pages on {relay.public_url}/event", flush=True)
    acceptor = None
    if args.port is not None:
        acceptor = await _start_ssh(relay, args, key)
        if acceptor is None:
            await relay.close()
            return 2
    # Stopped by a signal whenever it comes: while the relay still waits for the venue's
    # stream (no table has started yet) as well as once it follows the tables.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(sig, stop.set)
    if options is None:  # the standings, an event's pages, alone: no venue to follow
        files = (("the league's standings", args.league), ("the event's pages", args.event))
        alone = " and ".join(what for what, given in files if given is not None)
        print(f"no venue's NATS given: serving {alone} alone", flush=True)
        await stop.wait()
        if acceptor is not None:
            acceptor.close()
        await relay.close()
        return 0
    started = loop.create_task(relay.start(), name="relay start")
    stopping = loop.create_task(stop.wait(), name="relay stop")
    await asyncio.wait({started, stopping}, return_when=asyncio.FIRST_COMPLETED)
    status = 0
    if not started.done():
        started.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await started
    elif (error := started.exception()) is not None:
        if not isinstance(error, VenueUnavailable):
            raise error
        print(f"error: {error}", file=sys.stderr)
        status = 2
    else:
        print(f"following the tables on {options.url}", flush=True)
        await stopping
    stopping.cancel()
    if acceptor is not None:
        acceptor.close()
    await relay.close()
    return status


def _keys(args: argparse.Namespace) -> tuple[asyncssh.SSHKey, tuple[asyncssh.SSHKey, ...]] | None:
    """The relay's own key, and those of the venue's other relays (None, having said why, if unread)."""
    import asyncssh

    from core.folders import folder
    from tui.ssh.host.hostfiles import HOST_KEY_NAME, host_key, private_folder

    try:
        if args.host_key is not None:
            key = asyncssh.read_private_key(args.host_key)
        else:
            key, _created = host_key(private_folder(folder("data") / "relay"))
    except (OSError, ValueError) as e:  # (ValueError: asyncssh's KeyImportError, a file that is no key)
        where = args.host_key or HOST_KEY_NAME
        print(f"error: {where}: cannot make or read the host key: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
        return None
    relay_keys: tuple[asyncssh.SSHKey, ...] = ()
    if args.relay_keys is not None:
        try:
            if args.relay_keys.stat().st_size > MAX_RELAY_KEYS_BYTES:
                raise ValueError(f"more than {MAX_RELAY_KEYS_BYTES} bytes")
            relay_keys = _public_keys(args.relay_keys.read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            print(
                f"error: {args.relay_keys}: cannot read the relays' keys: {getattr(e, 'strerror', None) or e}",
                file=sys.stderr,
            )
            return None
    return key, relay_keys


def _public_keys(text: str) -> tuple[asyncssh.SSHKey, ...]:
    """Each line's OpenSSH public key (blank lines and # comments skipped); ValueError names a line that is none."""
    import asyncssh

    keys = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            try:
                keys.append(asyncssh.import_public_key(line.strip()))
            except asyncssh.KeyImportError as e:
                raise ValueError(f"line {n} is no public key ({e})") from None
    if not keys:
        raise ValueError("no public key in it")
    return tuple(keys)


async def _start_ssh(relay, args: argparse.Namespace, key):
    """The relay's SSH door for watchers' terminals (None, having said why, if it cannot open)."""
    from tui.ssh.venue.sshwatch import start_ssh

    try:
        acceptor = await start_ssh(relay, args.host, args.port, key)
    except OSError as e:
        print(f"error: cannot listen for SSH: {e.strerror or e}", file=sys.stderr)
        return None
    port = acceptor.get_port()
    print(f"spectators over SSH: ssh -p {port} TABLE@{args.host} (port {port})", flush=True)
    return acceptor
