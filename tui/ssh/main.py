"""``fireteam serve``: the command that opens the tables and starts the server.

Seats are drawn either in this process (``tui.ssh.server.FireteamServer``) or
by worker processes (``tui.ssh.pool.SeatWorkers``); this module chooses, so
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

from core.ruleset import Refused
from core.savefile import SaveError
from tui.ssh.limits import Limits, from_args
from tui.ssh.pool import SeatWorkers, default_workers
from tui.ssh.seats import SeatsError, SeatsFile
from tui.ssh.server import (
    HOST_KEY_NAME,
    LOG_NAME,
    SEATS_NAME,
    FireteamServer,
    data_dir,
    host_key,
    open_tables,
    private_folder,
    server_log,
)

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
    try:
        return _serve_in(args)
    finally:
        os.umask(umask)


def _serve_in(args: argparse.Namespace) -> int:
    try:
        limits = from_args(args)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    folder = private_folder(data_dir())
    seats_path: Path = args.seats or folder / SEATS_NAME
    if not seats_path.exists():
        print(
            f"error: no seats file at {seats_path}.\n"
            f"Write one (or pass --seats FILE): a seat per player, with his public keys, e.g.\n\n{SEATS_EXAMPLE}",
            file=sys.stderr,
        )
        return 2
    log = server_log(folder)
    try:
        return _serve_with(args, folder, seats_path, log, limits)
    finally:
        for handler in list(log.handlers):
            log.removeHandler(handler)
            handler.close()


def _serve_with(args: argparse.Namespace, folder: Path, seats_path: Path, log: logging.Logger, limits: Limits) -> int:
    workers = default_workers() if args.workers is None else args.workers
    if workers < 0:
        print("error: --workers must be 0 or more", file=sys.stderr)
        return 2
    try:
        seats = SeatsFile(seats_path, log)
        tables = open_tables(args.saves)
    except (SeatsError, SaveError, Refused, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    key, created = host_key(folder)
    print(f"{'Created the' if created else 'The'} host key {folder / HOST_KEY_NAME}")
    print(f"host key fingerprint: {key.get_fingerprint()}")
    print(f"seats: {seats_path} ({len(seats.seats)} seats); log: {folder / LOG_NAME}")
    print("games: " + ", ".join(f"{t.name} ({t.game.path})" for t in tables))
    print(f"seats drawn by {workers} worker processes" if workers else "seats drawn in this process")
    server: FireteamServer | SeatWorkers
    if workers:
        server = SeatWorkers(
            tables,
            seats,
            seats_path=seats_path,
            host_key_path=folder / HOST_KEY_NAME,
            workers=workers,
            log=log,
            log_dir=folder,
            limits=limits,
        )
    else:
        server = FireteamServer(tables, seats, key, log=log, limits=limits)
    try:
        return asyncio.run(_serve(server, args.host, args.port, log))
    finally:
        for t in tables:
            t.game.close()


async def _serve(server: FireteamServer | SeatWorkers, host: str, port: int, log: logging.Logger) -> int:
    try:
        bound = await server.start(host, port)
    except OSError as e:
        print(f"error: cannot listen on {host}:{port}: {e.strerror or e}", file=sys.stderr)
        return 2
    except (RuntimeError, TimeoutError) as e:
        print(f"error: the seat workers did not start: {e or 'timed out'}", file=sys.stderr)
        return 2
    print(f"listening on {host}:{bound} — players connect with: ssh -p {bound} {host}", flush=True)
    stopped_by: list[signal.Signals] = []
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):  # SIGHUP: the host's terminal closed
        loop.add_signal_handler(sig, lambda sig=sig: (stopped_by.append(sig), stop.set()))
    await stop.wait()
    log.info("stopping on %s", stopped_by[0].name)
    await server.close()
    return 0
