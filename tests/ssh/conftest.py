"""Fixtures of the serve tests: a real SSH server on 127.0.0.1 with the demo game at one table."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from ssh_club import Club, served_by_workers, served_table


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
    async with served_by_workers(tmp_path, caplog, history=True) as club:
        yield club
