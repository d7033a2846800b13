"""Fixtures of the serve tests: a real SSH server on 127.0.0.1 with the demo game at one table."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from ssh_club import SEATS, Club, demo_game, make_keys, seat_workers, served_table

from tui.ssh.server import Table


@pytest.fixture
async def club(tmp_path: Path, caplog) -> AsyncIterator[Club]:
    async with served_table(tmp_path, caplog, output_limit=64 * 1024) as club:
        yield club


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
    server.history_dir = tmp_path / "seat-history"  # as fireteam serve sets it
    port = await server.start("127.0.0.1", 0)
    club = Club(server, port, keys, game, [], caplog, tmp_path / "serve.log")
    try:
        yield club
    finally:
        await club.close()
        game.close()
