"""Fixtures of the serve tests: a real SSH server on 127.0.0.1 with the demo game at one table."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio
from ssh_club import Club, no_standby, served_by_workers, served_table
from web_club import WebClub, chromium_browser, web_table


@pytest.fixture
async def club(tmp_path: Path, caplog) -> AsyncIterator[Club]:
    async with served_table(tmp_path, caplog, output_limit=64 * 1024) as club:
        yield club


@pytest.fixture
async def web(tmp_path: Path, caplog) -> AsyncIterator[WebClub]:
    """The table served to SSH seats and browsers in the test's process (``fireteam serve --web``)."""
    async with web_table(tmp_path, caplog) as web:
        yield web


@pytest.fixture
async def workers_club(tmp_path: Path, caplog) -> AsyncIterator[Club]:
    """The same table served by two seat worker processes and the standby (``fireteam serve --workers 2``), for a
    test about spreading seats over workers, or replacing one.

    The writing game and the table process run in the test; the seats, in real
    worker processes, which log to ``tmp_path / "serve.log"``.
    """
    async with served_by_workers(tmp_path, caplog, history=True) as club:
        yield club


@pytest.fixture
async def one_worker_club(tmp_path: Path, caplog) -> AsyncIterator[Club]:
    """The same table served by one seat worker process and no standby: each seat in a worker process, the
    table's game in the test's, for a test whose claim is the way between them, not how many workers there are.
    """
    async with served_by_workers(tmp_path, caplog, workers=1, standby=False, history=True) as club:
        yield club


@pytest.fixture
async def two_workers_club(tmp_path: Path, caplog) -> AsyncIterator[Club]:
    """The same table served by two seat worker processes and no standby, for a test about seats spread over
    workers that has none retire or die."""
    async with served_by_workers(tmp_path, caplog, standby=False, history=True) as club:
        yield club


@pytest.fixture
def standby_spared() -> Iterator[None]:
    """Seat workers started in the test keep no standby (``ssh_club.no_standby``)."""
    with no_standby():
        yield


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def chromium():
    """One Chromium for a browser test module's tests, in the module's loop (launching one is about 1.7 s of CPU),
    each test in a context of its own (``new_context``: its own cookies, storage and pages), as separate browsers
    are: nothing a test checks is the browser process's own."""
    async with chromium_browser() as browser:
        yield browser
