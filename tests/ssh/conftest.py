"""Fixtures of the serve tests: a real SSH server on 127.0.0.1 with the demo game at one table."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest
from ssh_club import SEATS, Club, demo_game, make_keys, seat_workers, seats_toml

from tui.ssh.seats import Seats
from tui.ssh.server import FireteamServer, Table


@pytest.fixture
async def club(tmp_path: Path, caplog) -> AsyncIterator[Club]:
    caplog.set_level(logging.INFO, logger="fireteam.serve")
    keys = make_keys(SEATS)
    game = demo_game(tmp_path / "table.ft")
    seats = Seats.parse(seats_toml(keys, SEATS))
    server = FireteamServer(
        [Table("table", game)],
        seats,
        asyncssh.generate_private_key("ssh-ed25519"),
        output_limit=64 * 1024,
    )
    port = await server.start("127.0.0.1", 0)
    club = Club(server, port, keys, game, [], caplog)
    try:
        yield club
    finally:
        await club.close()
        game.close()


@pytest.fixture
async def workers_club(tmp_path: Path, caplog) -> AsyncIterator[Club]:
    """The same table served by two seat worker processes (``fireteam serve --workers 2``).

    The writing game and the table process run in the test; the seats, in real
    worker processes, which log to ``tmp_path / "serve.log"``.
    """
    caplog.set_level(logging.INFO, logger="fireteam.serve")
    keys = make_keys(SEATS)
    game = demo_game(tmp_path / "table.ft")
    server = seat_workers(tmp_path, [Table("table", game)], keys, SEATS)
    port = await server.start("127.0.0.1", 0)
    club = Club(server, port, keys, game, [], caplog, tmp_path / "serve.log")
    try:
        yield club
    finally:
        await club.close()
        game.close()
