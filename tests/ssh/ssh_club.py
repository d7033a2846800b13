"""A real SSH server on 127.0.0.1 and real SSH clients with a terminal, for the serve tests.

(Helpers live here, not in conftest.py: another test folder's conftest may be the
``conftest`` module a test imports.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sys
import time
from collections.abc import AsyncIterator, Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import asyncssh
import pytest
from ssh_vt import Screen

from core.game import Game
from core.log.views import REFEREE
from tui.ssh.host.server import FireteamServer, Table
from tui.ssh.limits import Limits
from tui.ssh.seatsfile import Seats
from tui.ssh.workers import pool
from tui.ssh.workers.pool import SeatWorkers

#: The seats of the test table: name -> role.
SEATS = {
    "rita": "referee",
    "reg": "regulars",
    "irr": "irregulars",
    "spec": "spectator",
}
#: What a spectator's screen (the stands' shared screen, ``tui.ssh.seating.stands``) says on its last row.
WATCHING = "Watching: spectators cannot give commands"
#: How long a test waits for something to appear on a screen before it fails: a
#: safety net, not a speed goal (each wait ends as soon as it appears).  Under the
#: load of a shared machine a seat's first screen has taken over 10 s.
WAIT_S = 60.0
POLL_S = 0.02


class Player(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """One seat's terminal: what the server sends is drawn on a :class:`Screen`."""

    def __init__(self, width: int, height: int) -> None:
        self.screen = Screen(width, height)
        self.raw: list[str] = []
        #: What :meth:`wait_shown` waits to see, each with the event it sets when the screen shows it.
        self._watched: list[tuple[tuple[str, ...], asyncio.Event]] = []
        self.closed = asyncio.Event()
        self.exit_status: int | None = None
        self.conn: asyncssh.SSHClientConnection | None = None
        self.chan: asyncssh.SSHClientChannel[str] | None = None

    def data_received(self, data: str, datatype) -> None:
        self.raw.append(data)
        self.screen.feed(data)
        if self._watched:
            text = self.screen.text()
            for texts, shown in self._watched:
                if all(t in text for t in texts):
                    shown.set()

    def exit_status_received(self, status: int) -> None:
        self.exit_status = status

    def connection_lost(self, exc) -> None:
        self.closed.set()

    def text(self) -> str:
        return self.screen.text()

    def type(self, keys: str) -> None:
        assert self.chan is not None
        self.chan.write(keys)

    def command(self, line: str) -> None:
        self.type(line + "\r")

    def resize(self, width: int, height: int) -> None:
        assert self.chan is not None
        self.screen.resize(width, height)
        self.chan.change_terminal_size(width, height)

    async def wait_for(self, *texts: str, timeout: float = WAIT_S) -> str:
        return await wait_until(lambda: all(t in self.text() for t in texts), timeout, lambda: self.text())

    async def wait_shown(self, *texts: str, timeout: float = WAIT_S) -> None:
        """Wait until the screen has shown every one of ``texts`` at once, however briefly: a notice
        that times out may come and go between two looks of :meth:`wait_for` on a loaded machine."""
        shown = asyncio.Event()
        if all(t in self.text() for t in texts):
            return
        watched = (texts, shown)
        self._watched.append(watched)
        try:
            await asyncio.wait_for(shown.wait(), timeout)
        except TimeoutError:
            raise AssertionError(f"timed out; last seen:\n{self.text()}") from None
        finally:
            self._watched.remove(watched)

    async def typed(self, keys: str, *shown: str) -> str:
        """Type ``keys``, then wait until the screen shows every one of ``shown``."""
        self.type(keys)
        return await self.wait_for(*shown)

    async def gives(self, line: str, *shown: str) -> str:
        """Give the command ``line``, then wait until the screen shows every one of ``shown``."""
        return await self.typed(line + "\r", *shown)

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            await self.conn.wait_closed()


async def wait_until(check: Callable[[], bool], timeout: float = WAIT_S, show: Callable[[], str] = str) -> str:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out; last seen:\n{show()}")
        await asyncio.sleep(POLL_S)
    return show()


@dataclass
class Club:
    """The server and what a test needs to reach it."""

    server: FireteamServer | SeatWorkers
    port: int
    keys: dict[str, asyncssh.SSHKey]
    game: Game
    players: list[Player]
    caplog: pytest.LogCaptureFixture
    #: Where seat workers log (they are other processes: the capture does not see them).
    log_file: Path | None = None

    def log(self) -> str:
        here = "\n".join(r.getMessage() for r in self.caplog.records)
        if self.log_file is None or not self.log_file.exists():
            return here
        return here + "\n" + self.log_file.read_text(encoding="utf-8")

    async def connect(
        self,
        seat: str,
        *,
        size: tuple[int, int] = (100, 40),
        term: str = "xterm-256color",
        command: str | None = None,
        username: str = "player",
        key: asyncssh.SSHKey | None = None,
        window: int = 2 * 1024 * 1024,
        env: dict[str, str] | None = None,
    ) -> Player:
        conn = await asyncssh.connect(
            "127.0.0.1",
            self.port,
            username=username,
            client_keys=[key or self.keys[seat]],
            known_hosts=None,
            agent_path=None,
        )
        player = Player(*size)
        chan, _ = await conn.create_session(
            lambda: player, command, term_type=term, term_size=size, encoding="utf-8", window=window, env=env
        )
        player.conn, player.chan = conn, chan
        self.players.append(player)
        return player

    async def seated(self, seat: str, *shown: str, **options: Any) -> Player:
        """``seat`` connected (``options``: :meth:`connect`'s), once its screen shows every one of ``shown``."""
        player = await self.connect(seat, **options)
        await player.wait_for(*shown)
        return player

    async def run(self, seat: str, command: str, env: dict[str, str] | None = None) -> asyncssh.SSHCompletedProcess:
        """``ssh host COMMAND``: no terminal, a plain reply (``env``: what the client sends, as ``SendEnv``)."""
        async with asyncssh.connect(
            "127.0.0.1", self.port, username="player", client_keys=[self.keys[seat]], known_hosts=None, agent_path=None
        ) as conn:
            return await asyncio.wait_for(conn.run(command, env=env), WAIT_S)

    async def close(self) -> None:
        """Pull every player's cable, then stop the server (the test closes its games)."""
        for player in self.players:
            if player.conn is not None:
                player.conn.abort()
        await self.server.close()

    def session(self, seat: str):
        return next(s for s in self.server.sessions if s.seat.name == seat)

    def app(self, seat: str):
        """The app that draws ``seat``'s screen: its own, or the shared screen a spectator watches."""
        session = self.session(seat)
        return session.app if session.app is not None else session.screen.app


async def fireteam_process(
    cwd: Path, *args: str, env: dict[str, str], stdin: int | None = None
) -> asyncio.subprocess.Process:
    """``fireteam ARGS`` (``python -m tui.main``) run in ``cwd`` with ``env`` over this process's environment, its
    output piped to the test (``read_until``)."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.main", *args, env={**os.environ, **env}, stdin=stdin,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=cwd,
    )  # fmt: skip


async def read_until(proc: asyncio.subprocess.Process, words: str, timeout: float) -> str:
    """What ``proc`` has printed up to the line that says ``words`` (each line within ``timeout``): it must say them."""
    assert proc.stdout is not None and proc.stderr is not None
    out = ""
    while words not in out:
        line = await asyncio.wait_for(proc.stdout.readline(), timeout)
        assert line, f"server exited: {(await proc.stderr.read()).decode()}"
        out += line.decode()
    return out


def listening_port(out: str) -> int:
    """The port ``fireteam serve`` said it listens on."""
    found = re.search(r"listening on 127\.0\.0\.1:(\d+)", out)
    assert found, out
    return int(found.group(1))


def make_keys(names) -> dict[str, asyncssh.SSHKey]:
    return {name: asyncssh.generate_private_key("ssh-ed25519", comment=f"{name}@test") for name in names}


def seats_toml(
    keys: dict[str, asyncssh.SSHKey],
    roles: dict[str, str],
    langs: dict[str, str] | None = None,
    plain: Collection[str] = (),
) -> str:
    """The seats file of these seats; ``langs``: the seats that name their language; ``plain``: those that sit
    as plain lines."""
    out = []
    for name, role in roles.items():
        public = keys[name].export_public_key().decode().strip()
        lang = f'lang = "{langs[name]}"\n' if langs and name in langs else ""
        lines = "plain = true\n" if name in plain else ""
        out.append(f'[[seat]]\nname = "{name}"\nrole = "{role}"\nkeys = ["{public}"]\n{lang}{lines}')
    return "\n".join(out)


def demo_game(path: Path) -> Game:
    game = Game.new(path, "breaking-news", seed=7)
    game.execute("scenario demo", role=REFEREE)
    return game


@contextlib.asynccontextmanager
async def served_table(
    folder: Path, caplog, *, langs: dict[str, str] | None = None, roles: dict[str, str] = SEATS, **server: Any
) -> AsyncIterator[Club]:
    """``fireteam serve --workers 0`` at the demo game (its save in ``folder``), the seats
    sharing this process's loop; ``langs``: the seats whose entry names a language, ``roles``: the seats,
    ``server``: FireteamServer's options (``limits``, ``lang``, ``output_limit``)."""
    caplog.set_level(logging.INFO, logger="fireteam.serve")
    keys = make_keys(roles)
    game = demo_game(folder / "table.ft")
    seats = Seats.parse(seats_toml(keys, roles, langs))
    serve = FireteamServer([Table("table", game)], seats, asyncssh.generate_private_key("ssh-ed25519"), **server)
    port = await serve.start("127.0.0.1", 0)
    club = Club(serve, port, keys, game, [], caplog)
    try:
        yield club
    finally:
        await club.close()
        game.close()


@contextlib.asynccontextmanager
async def served_by_workers(
    folder: Path,
    caplog,
    limits: Limits | None = None,
    *,
    workers: int = 2,
    standby: bool = True,
    history: bool = False,
) -> AsyncIterator[Club]:
    """``fireteam serve --workers N`` at the demo game (its save in ``folder``): the writing game and the table
    process run in the test, the seats in real worker processes, which log to ``folder / "serve.log"``.
    ``standby``: with the standby worker, as the product (else see :func:`no_standby`); ``history``: the seats'
    command histories kept in ``folder / "seat-history"``, as ``fireteam serve`` keeps them."""
    caplog.set_level(logging.INFO, logger="fireteam.serve")
    keys = make_keys(SEATS)
    game = demo_game(folder / "table.ft")
    with contextlib.ExitStack() as stack:
        if not standby:
            stack.enter_context(no_standby())
        server = seat_workers(folder, [Table("table", game)], keys, SEATS, limits, workers=workers)
        if history:
            server.history_dir = folder / "seat-history"
        port = await server.start("127.0.0.1", 0)
        club = Club(server, port, keys, game, [], caplog, folder / "serve.log")
        try:
            yield club
        finally:
            await club.close()
            game.close()


@contextlib.contextmanager
def no_standby() -> Iterator[None]:
    """Seat workers started meanwhile keep no standby (``pool.STANDBY_WORKERS``, one in the product), for a test
    whose claim is not about a worker taking the place of one that retires or dies: each worker process is
    about 2 s of CPU to start and stop, most of such a test's (issue #59: 7.4 s with two and the standby,
    3.1 s with one)."""
    with mock.patch.object(pool, "STANDBY_WORKERS", 0):
        yield


def seat_workers(
    folder: Path,
    tables: list[Table],
    keys: dict[str, asyncssh.SSHKey],
    seats: dict[str, str],
    limits: Limits | None = None,
    *,
    langs: dict[str, str] | None = None,
    lang: str | None = None,
    plain: Collection[str] = (),
    workers: int = 2,
) -> SeatWorkers:
    """A server with real seat workers (not started; ``workers`` of them, and the standby unless started under
    :func:`no_standby`), its files in ``folder``, its workers' log in serve.log.

    ``langs``: the seats whose entry names a language; ``lang``: the server's (``fireteam serve --lang``);
    ``plain``: the seats that sit as plain lines; ``workers``: ``fireteam serve --workers``."""
    seats_path = folder / "seats.toml"
    seats_path.write_text(seats_toml(keys, seats, langs, plain))
    key_path = folder / "host_key"
    key_path.write_bytes(asyncssh.generate_private_key("ssh-ed25519").export_private_key())
    return SeatWorkers(
        tables,
        Seats.load(seats_path),
        seats_path=seats_path,
        host_key_path=key_path,
        workers=workers,
        log_dir=folder,
        limits=limits,
        lang=lang,
    )
