"""``fireteam serve``: the command that opens the tables and starts the server.

Seats are drawn either in this process (``tui.ssh.host.server.FireteamServer``) or
by worker processes (``tui.ssh.workers.pool.SeatWorkers``); this module chooses, so
neither of those needs the other.  See docs/ssh.md.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import asyncssh

from core import folders
from core.language.reader import SOURCE, from_environment, reading
from core.ruleset import Refused
from core.scenarios.files import FORCES_FOLDER, SCENARIOS_FOLDER, data_dir, restore_reads, restrict_reads
from core.storage.errors import SaveError
from tui.ssh.host.hostfiles import HOST_KEY_NAME, host_key, private_folder, private_save
from tui.ssh.host.replies import sessions_closed
from tui.ssh.host.server import ORGANISER, SEATS_NAME, FireteamServer
from tui.ssh.host.serverlog import LOG_NAME, close_server_log, server_log
from tui.ssh.host.tables import open_tables
from tui.ssh.invitations.cli import ADDRESSES_NAME, Addresses, record_addresses, web_url
from tui.ssh.invitations.store import Invitations
from tui.ssh.limits import Limits, from_args
from tui.ssh.seating.history import FOLDER as SEAT_HISTORY
from tui.ssh.seating.history import SeatHistories
from tui.ssh.seatsfile import SeatsError, SeatsFile, table_roles
from tui.ssh.venue.connection import REQUEST_S, NatsOptions
from tui.ssh.venue.options import nats_options
from tui.ssh.workers.pool import SeatWorkers, default_workers

if TYPE_CHECKING:
    from tui.ssh.host.eventtables import EventTables

SEATS_EXAMPLE = """\
[[seat]]
name = "anna"
role = "referee"
keys = ["ssh-ed25519 AAAA... anna@laptop"]

[[seat]]
name = "bruno"
role = "regulars"        # a side id of the game
keys = ["ssh-ed25519 AAAA... bruno@desk", "ssh-rsa AAAA... bruno@phone"]

[[seat]]
name = "club"
role = "spectator"
keys = ["ssh-ed25519 AAAA... projector"]
"""


def serve_main(args: argparse.Namespace) -> int:
    # Everything the server creates (log, saves, their folders) is its owner's
    # only, in this process and its seat workers: the log and saves name hidden units.
    umask = os.umask(0o077)
    reads = restrict_reads(None)  # _serve_in restricts them; this is what to put back
    # The server's language (--lang, else its locale): the organiser's console, and a seat's when
    # neither its seats-file entry nor its client names one.  The server's loop runs in this context.
    language = getattr(args, "lang", None) or from_environment()
    try:
        with reading(language):
            return _serve_in(args)
    finally:
        os.umask(umask)
        restore_reads(reads)


def _serve_in(args: argparse.Namespace) -> int:
    try:
        limits = from_args(args)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    folder = private_folder(data_dir())
    # A path a seat types is the server's: scenario and force files come from its folders only.
    restrict_reads([folder / SCENARIOS_FOLDER, folder / FORCES_FOLDER])
    event = args.event
    seats_path: Path = args.seats or folder / SEATS_NAME
    if event is not None:
        if args.saves or args.seats or args.workers:
            print("error: --event serves the event's tables, with their seats, in this process: "
                  "give it no SAVE, --seats nor --workers", file=sys.stderr)  # fmt: skip
            return 2
        if args.organiser_key is None:
            print("error: --event needs --organiser-key KEY: the organiser's SSH key, with which the server "
                  "vouches for the games confirmed at its seats (docs/event.md)", file=sys.stderr)  # fmt: skip
            return 2
    elif args.organiser_key is not None:
        print("error: --organiser-key goes with --event", file=sys.stderr)
        return 2
    elif not seats_path.exists():
        print(
            f"error: no seats file at {seats_path}.\n"
            f"Write one (or pass --seats FILE): a seat per player, with his public keys, e.g.\n\n{SEATS_EXAMPLE}",
            file=sys.stderr,
        )
        return 2
    logs = private_folder(folders.folder("state"))  # serve.log is state, not data (core.folders)
    log = server_log(logs)
    try:
        return _serve_with(args, folder, seats_path, log, limits, logs)
    finally:
        close_server_log(log)


def _serve_with(
    args: argparse.Namespace, folder: Path, seats_path: Path, log: logging.Logger, limits: Limits, logs: Path
) -> int:
    workers = 0 if args.event else default_workers() if args.workers is None else args.workers
    if workers < 0:
        print("error: --workers must be 0 or more", file=sys.stderr)
        return 2
    event: EventTables | None = None
    try:
        if args.event:
            from tui.ssh.host.eventtables import EventTables  # (the event's core: only for an event)

            event = EventTables(args.event, log, args.organiser_key)
            tables = event.open_round()
            seats_path = event.seats_path
        else:
            tables = open_tables(args.saves)
    except (SaveError, Refused, ValueError, OSError) as e:
        if event is not None:
            event.close_games()
        print(f"error: {e}", file=sys.stderr)
        return 2
    try:
        # Checked against the games' sides: a role no game has ("Referee", "regular") is refused.
        seats = SeatsFile(seats_path, log, table_roles([list(t.game.state.sides) for t in tables]))
    except SeatsError as e:
        for t in tables:
            t.game.close()
        print(f"error: {e}", file=sys.stderr)
        return 2
    for t in tables:
        said = private_save(t.game.path)
        if said:
            print(said)
    invitations = Invitations(folder)
    try:
        key, created = host_key(folder)
    except (OSError, ValueError) as e:  # (ValueError: asyncssh's KeyImportError, a key file that is not one)
        for t in tables:
            t.game.close()
        print(
            f"error: {folder / HOST_KEY_NAME}: cannot make or read the host key: {getattr(e, 'strerror', None) or e}",
            file=sys.stderr,
        )
        return 2
    print(f"{'Created the' if created else 'The'} host key {folder / HOST_KEY_NAME}")
    print(f"host key fingerprint: {key.get_fingerprint()}")
    print(f"seats: {seats_path} ({len(seats.seats)} seats); log: {logs / LOG_NAME}")
    print("games: " + ", ".join(f"{t.name} ({t.game.path})" for t in tables))
    print(f"seats drawn by {workers} worker processes and a standby" if workers else "seats drawn in this process")
    web = _web_options(args)
    try:
        venue = nats_options(args, folder)
    except ValueError as e:
        venue = None
        web = web if isinstance(web, str) else str(e)
    if isinstance(web, str):
        for t in tables:
            t.game.close()
        print(f"error: {web}", file=sys.stderr)
        return 2
    server: FireteamServer | SeatWorkers
    if workers:
        server = SeatWorkers(
            tables,
            seats,
            seats_path=seats_path,
            host_key_path=folder / HOST_KEY_NAME,
            workers=workers,
            log=log,
            log_dir=logs,
            limits=limits,
            invitations=invitations,
        )
        server.history_dir = folder / SEAT_HISTORY
        if web is not None:
            server.open_web(web.host, web.port, public_url=web.url, tls_files=web.tls_files)
    else:
        server = FireteamServer(tables, seats, key, log=log, limits=limits, invitations=invitations)
        server.seat_history = SeatHistories(folder / SEAT_HISTORY)
    # (an event's tables change each round: ``fireteam invite --game`` is not checked against them)
    games = [] if event is not None else [t.name for t in tables]
    where = Addresses(ssh_host=args.host, ssh_port=args.port, seats=str(seats_path.resolve()), games=games)
    try:
        return asyncio.run(
            _serve(
                server,
                args.host,
                args.port,
                log,
                web,
                folder,
                where,
                venue,
                getattr(args, "nats_take_over", False),
                key,
                event,
            )
        )
    finally:
        for t in event.tables.values() if event is not None else tables:  # (a round paired meanwhile too)
            t.game.close()


class _Web(NamedTuple):
    """``fireteam serve --web PORT`` and its options."""

    host: str
    port: int
    url: str
    tls_files: tuple[Path, Path] | None


def _web_options(args: argparse.Namespace) -> _Web | str | None:
    """The browser seats asked for (None: none), or what is wrong with the options."""
    port = getattr(args, "web", None)
    cert, key = getattr(args, "cert", None), getattr(args, "key", None)
    url = getattr(args, "url", "") or ""
    if port is None:
        return (
            "--cert, --key and --url are options of the browser seats: give --web PORT too"
            if cert or key or url
            else None
        )
    if not 0 <= port <= 65535:
        return "--web takes a port number"
    if (cert is None) != (key is None):
        return "--cert and --key go together (a TLS certificate and its private key)"
    if url and not url.startswith(("http://", "https://")):
        return f"--url takes an address starting with http:// or https://, not {url!r}"
    if cert is not None and key is not None:
        try:
            from tui.ssh.web.door import tls_context

            tls_context(cert, key)  # the files are read now: a mistake stops the server before it starts
        except (OSError, ValueError) as e:
            return f"cannot use --cert {cert} --key {key}: {e}"
    return _Web(args.web_host or args.host, port, url.rstrip("/"), (cert, key) if cert and key else None)


async def _serve(
    server: FireteamServer | SeatWorkers,
    host: str,
    port: int,
    log: logging.Logger,
    web: _Web | None,
    folder: Path,
    where: Addresses,
    venue: NatsOptions | None = None,
    take_over: bool = False,
    key: asyncssh.SSHKey | None = None,
    event: EventTables | None = None,
) -> int:
    publisher = None
    if venue is not None:
        from core.venue import VenueError
        from tui.ssh.venue.table import TablePublisher

        try:
            # Every message it publishes signed with the host key its players know by its fingerprint.
            publisher = TablePublisher(server.tables, venue, log, take_over=take_over, key=key)
        except VenueError as e:
            print(f"error: {e}; rename the save", file=sys.stderr)
            await server.close()
            return 2
    try:
        if isinstance(server, FireteamServer) and web is not None:
            tls = None
            if web.tls_files is not None:
                from tui.ssh.web.door import tls_context

                tls = tls_context(*web.tls_files)
            server.open_web(port=web.port, public_url=web.url, tls=tls)
            web_port = await server.start_web(web.host, web.port)
        bound = await server.start(host, port)
        if isinstance(server, SeatWorkers):
            web_port = server.web_port
    except OSError as e:
        print(f"error: cannot listen: {e.strerror or e}", file=sys.stderr)
        await server.close()
        return 2
    except (RuntimeError, TimeoutError) as e:
        print(f"error: the seat workers did not start: {e or 'timed out'}", file=sys.stderr)
        return 2
    where.ssh_port = bound
    if web is not None:
        where.web_url = web.url or web_url(web.host, web_port, tls=web.tls_files is not None)
    record_addresses(folder, where)
    print(f"listening on {host}:{bound} — players connect with: ssh -p {bound} {host}", flush=True)
    if web is not None:
        print(f"browser seats on {web.host}:{web_port} — players open {where.web_url}", flush=True)
    print(f"invite a player with: fireteam invite NAME (addresses in {folder / ADDRESSES_NAME})", flush=True)
    stopped_by: list[signal.Signals] = []
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def stopping(sig: signal.Signals) -> None:
        stopped_by.append(sig)
        stop.set()

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):  # SIGHUP: the host's terminal closed
        loop.add_signal_handler(sig, stopping, sig)
    console = _Console(server, loop)
    if publisher is not None:
        publisher.start()  # the views of every table, on the venue's NATS (tui.ssh.venue.table)
        print(f"publishing the tables' views on {publisher.options.url}", flush=True)
    if event is not None and isinstance(server, FireteamServer):
        event.attach(server, publisher)
        event.start()  # the next rounds' tables as they are paired, the clock at the seats, results added
        print(f"event {event.path}: round {len(event.event.rounds)}'s tables; each next round's as it is paired")
    await stop.wait()
    console.close()
    if event is not None:
        await event.close()
    log.info("stopping on %s", stopped_by[0].name)
    if publisher is not None:
        try:  # the venue's NATS never holds the table's stop: at most a few of its requests' bounds
            await asyncio.wait_for(publisher.close(), 3 * REQUEST_S)
        except TimeoutError:
            log.warning("venue: stopped without closing its NATS connection cleanly")
    await server.close()
    return 0


class _Console:
    """The organiser's commands, typed at the server's terminal: ``kick NAME``."""

    def __init__(self, server: FireteamServer | SeatWorkers, loop: asyncio.AbstractEventLoop) -> None:
        self.server = server
        self.loop = loop
        self.fd = sys.stdin.fileno() if sys.stdin is not None else -1
        self.buffer = b""
        try:
            loop.add_reader(self.fd, self._read)
        except (OSError, ValueError):  # no terminal or pipe (a file, /dev/null): no console
            self.fd = -1
        else:
            print("type 'kick NAME' here to close a seat's sessions", flush=True)

    def _read(self) -> None:
        try:
            data = os.read(self.fd, 4096)
        except OSError:
            data = b""
        if not data:
            self.close()
            return
        self.buffer = (self.buffer + data)[-4096:]  # a line longer than that is not a command
        *lines, self.buffer = self.buffer.split(b"\n")
        for line in lines:
            words = line.decode("utf-8", "replace").split()
            if len(words) == 2 and words[0] == "kick":
                count = self.server.kick(words[1], ORGANISER)
                with reading(SOURCE):  # the organiser's side (console, log) is English: docs/ssh.md, *Languages*
                    print(sessions_closed(words[1], count), flush=True)
            elif words:
                print("commands: kick NAME", flush=True)

    def close(self) -> None:
        if self.fd >= 0:
            self.loop.remove_reader(self.fd)
            self.fd = -1
