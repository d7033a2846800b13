"""``fireteam serve``: one shared table over SSH, a seat for each player.

The server is asyncssh in this process (no OpenSSH daemon).  Players log in
with a public key listed in the seats file (``tui.ssh.seatsfile``); the key, and
only the key, says who they are and which role they play.  Each game given on
the command line is one table: one in-memory ``Game`` shared by every seat at
it, each seat with its own app instance and its own view (``tui.ssh.seating.seat``).

Files, in the data folder (``FIRETEAM_DATA_DIR`` or platformdirs'
``user_data_dir("fireteam")``, ``core.folders``): ``ssh_host_ed25519_key`` (created
on first start) and ``seats.toml`` (the default seats file); ``serve.log`` in the state folder.
See docs/ssh.md.

Beside it: ``tables`` (a game each), ``hostfiles`` (the files only the host may read), ``serverlog`` (the log),
``algorithms`` (what SSH offers), ``connection`` (one client's login and sessions) and
``invitations.redeem`` (a token used).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import asyncssh
from textual.app import App

from core.game import Game
from core.language import i18n
from core.language import reader as readers
from core.language.i18n import M, Msg
from core.log.views import REFEREE, SPECTATOR
from tui.app import FireteamApp
from tui.ssh.host.algorithms import terminal_options
from tui.ssh.host.connection import SSHConnection
from tui.ssh.host.serverlog import log_table
from tui.ssh.host.tables import Table
from tui.ssh.invitations.redeem import redeem_invitation
from tui.ssh.invitations.store import Grant, InvitationRefused, Invitations, InvitationsError
from tui.ssh.language import carry_readers_into_threads
from tui.ssh.limits import Gate, Limits, QuietLog
from tui.ssh.seating.seat import SeatSession
from tui.ssh.seating.stands import Stands
from tui.ssh.seatsfile import Seat, Seats, SeatsFile, seat_change, seats_in_force
from tui.ssh.web.gate import WebGate
from tui.ssh.workers.heap import HeapSettler

if TYPE_CHECKING:
    from tui.ssh.seating.history import SeatHistories
    from tui.ssh.web.door import WebDoor

SEATS_NAME = "seats.toml"
#: How often the seats file is looked at (one stat) while seats are open.
SEATS_POLL_S = 1.0
#: How often the connections not logged in are looked over for idle ones (``Gate.sweep``).
SWEEP_S = 0.5
#: Bytes of output a seat may leave unread before it is cut off.
OUTPUT_LIMIT = 1 << 20
#: Seconds between keepalives, and how many may go unanswered before a silent client is dropped.
KEEPALIVE_S, KEEPALIVE_MISSES = 30.0, 4

AppFactory = Callable[[Game, Seat], App[Any]]
#: Who ``kick`` names when the organiser kicks a seat at the server's terminal.
ORGANISER = "the organiser"


def closed_by(by: str) -> Msg:
    """What a kicked seat is told: who closed it (a seat's name, or the organiser)."""
    return M("the organiser closed your seat") if by == ORGANISER else M("{by} closed your seat", by=by)


def fireteam_app(game: Game, seat: Seat) -> App[Any]:
    """The real client, built for a remote seat (a spectator's: the shared screen all spectators watch)."""
    return FireteamApp(game, role=seat.role, seat=seat.name, remote=True, watching=seat.role == SPECTATOR)


async def accept_each(listener: socket.socket, log: logging.Logger, take: Callable[[socket.socket, str], None]) -> None:
    """Accept the connections on ``listener`` for ever, each given to ``take`` with its peer ``host:port``."""
    loop = asyncio.get_running_loop()
    while True:
        try:
            sock, addr = await loop.sock_accept(listener)
        except OSError as e:  # out of descriptors, say: the next connection may fare better
            log.warning("could not accept a connection: %s", e)
            await asyncio.sleep(0.1)
            continue
        take(sock, f"{addr[0]}:{addr[1]}")


# ------------------------------------------------------------------ server


class FireteamServer:
    """The SSH server: tables, seats, and the sessions seated at them."""

    def __init__(
        self,
        tables: Sequence[Table],
        seats: SeatsFile | Seats,
        key: asyncssh.SSHKey,
        *,
        app_factory: AppFactory = fireteam_app,
        log: logging.Logger | None = None,
        output_limit: int = OUTPUT_LIMIT,
        keepalive: float = KEEPALIVE_S,
        log_commands: bool = True,
        limits: Limits | None = None,
        lang: str | None = None,
        invitations: Invitations | None = None,
    ) -> None:
        self._tables = list(tables)
        #: The invitations store (``tui.ssh.invitations.store``), if this server takes invitations.
        self.invitations = invitations
        #: The language of a seat whose seats-file entry and client name none (default: this process's).
        self.lang = readers.checked(lang) if lang else readers.lang()
        self._seats = seats
        self.key = key
        self.app_factory = app_factory
        self.log = log or logging.getLogger("fireteam.serve")
        self.output_limit = output_limit
        self.keepalive = keepalive
        self.limits = limits or Limits()
        #: Counts the connections not logged in yet, when this process accepts them (not in a seat worker).
        self.gate: Gate | None = None
        #: ... and the browsers' not seats yet, counted apart (``tui.ssh.web.gate``).
        self.web_gate: WebGate | None = None
        self.quiet_log = QuietLog(self.log)
        self.sessions: list[SeatSession] = []
        #: Where this process's spectators watch: shared screens, drawn once for all of them.
        self.stands = Stands(self)
        #: Keeps the cycle collector off the seats' backs (``tui.ssh.workers.heap``); told of every write to a seat.
        self.heap = HeapSettler(self.log)
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._watcher: asyncio.Task[None] | None = None
        #: The browser door (``fireteam serve --web``), once opened; the listener, in the process that listens.
        self.web: WebDoor | None = None
        #: Where plain seats' command lines are kept between sessions (``tui.ssh.seating.history``; None: nowhere).
        self.seat_history: SeatHistories | None = None
        self._web_listener: socket.socket | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._web_tasks: set[asyncio.Task[None]] = set()
        self.seats_poll = SEATS_POLL_S
        self.log_commands = log_commands
        self._unsubscribe: list[Callable[[], None]] = []
        for t in self._tables:
            self._follow(t)

    def _follow(self, t: Table) -> None:
        if self.log_commands:
            self._unsubscribe.append(log_table(t, lambda: self.seats, self.log))
        # Before any seat's app listens: the collector waits from the moment a command arrives (tui.ssh.workers.heap).
        self._unsubscribe.append(t.game.subscribe(self.heap.command, role=REFEREE))
        t.game.seated = partial(self.asked_roles, t)  # with table dice, each roll is asked at its owner's own screen

    def add_table(self, table: Table) -> None:
        """A table opened while the server runs: an event's next round (``tui.ssh.host.eventtables``)."""
        self._tables.append(table)
        self._follow(table)

    @property
    def tables(self) -> Sequence[Table]:
        return self._tables

    @property
    def seats(self) -> Seats:
        return seats_in_force(self._seats)

    def seated(self) -> dict[str, list[Seat]]:
        out: dict[str, list[Seat]] = {}
        for s in self.sessions:
            if s.table is not None:
                out.setdefault(s.table.name, []).append(s.seat)
        return out

    def asked_roles(self, table: Table) -> set[str]:
        """The roles seated at ``table``, each of which can be asked for its own dice (a
        spectator's role is no roll's)."""
        return {s.seat.role for s in self.sessions if s.table is table}

    def session_started(self, session: SeatSession) -> None:
        self.sessions.append(session)
        self.heap.seat_arrived()
        if self._watcher is None and isinstance(self._seats, SeatsFile):
            self._watcher = asyncio.get_running_loop().create_task(self._watch_seats(), name="seats file")

    async def _watch_seats(self) -> None:
        """Read the seats file again whenever it changes, and apply it to the open sessions."""
        while True:
            await asyncio.sleep(self.seats_poll)
            self.check_seats()

    def check_seats(self) -> None:
        """End the sessions whose seat the seats file no longer gives their key, or gives another role.

        The role is read once, when a session opens; a changed one takes effect
        as the player connects again (his screen is built for one role).
        """
        seats = self.seats
        for session in list(self.sessions):
            if session.recheck is not None:
                ended = session.recheck(seats)
            else:
                now = seats.seat_of(session.key) if session.key else seats.by_name(session.seat.name)
                why = seat_change(session.seat, now)
                ended = None if why is None else (why, "seat")
            if ended is not None:
                session.end(*ended)

    def redeem(self, token: str, peer: str, *, key: asyncssh.SSHKey | None = None) -> Grant:
        """Use an invitation's token (see :func:`redeem_invitation`); ``InvitationRefused`` if it lets nobody in."""
        return redeem_invitation(self.invitations, self._seats, self.log, token, peer, key=key)

    def invitation_open(self, token: str) -> bool:
        """Whether ``token`` is an open invitation's (read only: nothing is used)."""
        if self.invitations is None:
            return False
        try:
            self.invitations.check(token)
        except InvitationRefused:
            return False
        except InvitationsError as e:
            self.quiet_log.warning("invitations", "every invitation refused: %s", e)
            return False
        return True

    def kick(self, seat: str, by: str) -> int:
        """Close every session of ``seat`` (the referee's ``kick``, the organiser's console)."""
        self.log.warning("kick seat=%s by=%s", seat, by)
        return self.close_seat(seat, closed_by(by))

    def close_seat(self, seat: str, why: i18n.Text) -> int:
        ended = [s for s in self.sessions if s.seat.name == seat]
        for session in ended:
            session.end(why, "kicked")
        return len(ended)

    def session_ended(self, session: SeatSession) -> None:
        if session in self.sessions:
            self.sessions.remove(session)
            if session.table is not None:
                name, table = session.seat.name, session.table
                if not any(s.table is table and s.seat.name == name for s in self.sessions):
                    table.game.unasked(name)  # a roll it was typing at its own prompt: awaited no more (#77)
                table.game.seats_changed()
        self.heap.seat_left(len(self.sessions))

    def _ssh_options(self) -> dict[str, Any]:
        return dict(
            terminal_options(self.key, self.limits, self.keepalive, KEEPALIVE_MISSES),
            public_key_auth=True,
            password_auth=False,
            kbdint_auth=False,
            gss_host=None,
        )

    def arrived(self, peer: str, close: Callable[[], None]) -> bool:
        """An SSH connection this process accepted: whether it may stay (the unauthenticated limits);
        ``close`` closes it if it idles while others wait."""
        return self.gate is None or self.gate.admit(peer, close)

    def authenticating(self, peer: str) -> None:
        """``peer``'s client finished the key exchange and asked for a user."""
        if self.gate is not None:
            self.gate.authenticating(peer)

    async def _sweep(self) -> None:
        """Clear idle connections not logged in while many wait (``Gate.sweep``), twice a second."""
        while self.gate is not None:
            await asyncio.sleep(SWEEP_S)
            self.gate.sweep()

    def logged_in(self, peer: str) -> None:
        """``peer`` logged in over SSH, or its browser's websocket is a seat now."""
        if self.gate is not None:
            self.gate.logged_in(peer)
        if self.web_gate is not None:
            self.web_gate.closed(peer)

    def closed(self, peer: str) -> None:
        if self.gate is not None:
            self.gate.closed(peer)
        if self.web_gate is not None:
            self.web_gate.closed(peer)

    def misbehaved(self, peer: str) -> None:
        """``peer``'s connection was closed for flooding after it logged in: its address counts a penalty."""
        if self.gate is not None:
            self.gate.penalise(peer)

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen; return the port (useful with ``port=0``)."""
        carry_readers_into_threads(asyncio.get_running_loop())
        self.gate = Gate(self.limits, self.log)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        self._acceptor = await asyncssh.create_server(lambda: SSHConnection(self), host, port, **self._ssh_options())
        bound = self._acceptor.get_port()
        self.log.info("listening on %s:%d, host key %s", host, bound, self.key.get_fingerprint())
        return bound

    async def accept(self, sock: socket.socket, peer: str) -> None:
        """Serve one connection accepted elsewhere (by the table process, for a seat worker) until it closes."""
        carry_readers_into_threads(asyncio.get_running_loop())
        try:
            conn = await asyncssh.run_server(sock, server_factory=lambda: SSHConnection(self), **self._ssh_options())
        except (asyncssh.Error, OSError) as e:
            # A refused key is logged by SSHConnection: this only notes the connection's end.
            self.log.info("connection from=%s ended before login: %s", peer, e)
            return
        await conn.wait_closed()

    def open_web(self, *, port: int, public_url: str = "", tls: ssl.SSLContext | None = None) -> WebDoor:
        """Take browser seats too (``tui.ssh.web.door``): ``port`` is the one the browsers reach (it names the
        cookie)."""
        from tui.ssh.web.door import WebDoor  # aiohttp is imported only by a server that takes browsers

        self.web = WebDoor(self, port=port, public_url=public_url, tls=tls)
        return self.web

    async def start_web(self, host: str, port: int) -> int:
        """Listen for browsers (after :meth:`open_web`); return the port."""
        assert self.web is not None
        carry_readers_into_threads(asyncio.get_running_loop())
        if self.web_gate is None:
            self.web_gate = WebGate(self.limits, self.log)
        listener = socket.create_server((host, port))
        listener.setblocking(False)
        self._web_listener = listener
        self._track_web(accept_each(listener, self.log, self._take_web))
        bound = listener.getsockname()[1]
        self.web.port = self.web.port or bound
        self.log.info("browser seats on %s:%d", host, bound)
        return bound

    def _track_web(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._web_tasks.add(task)
        task.add_done_callback(self._web_tasks.discard)

    def _take_web(self, sock: socket.socket, peer: str) -> None:
        if self.web_gate is None or self.web_gate.admit(peer):
            self._track_web(self.serve_web(sock, peer))
        else:
            sock.close()

    async def serve_web(self, sock: socket.socket, peer: str) -> None:
        """Serve one browser's connection, accepted here or by the table process, until it closes."""
        assert self.web is not None
        carry_readers_into_threads(asyncio.get_running_loop())
        try:
            await self.web.serve(sock, peer)
        finally:
            self.closed(peer)

    async def close(self) -> None:
        if self._watcher is not None:
            self._watcher.cancel()
            self._watcher = None
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        if self._web_listener is not None:
            self._web_listener.close()
            self._web_listener = None
        if self._acceptor is not None:
            self._acceptor.close()
            await self._acceptor.wait_closed()
            self._acceptor = None
        for session in list(self.sessions):
            if session.sitting:  # a screen's or a plain seat's (the stands end their spectators with them)
                session.end(M("the server is stopping"), "stopped")
        await self.stands.close()  # their spectators' sessions end with them
        for _try in range(100):
            if not self.sessions:
                break
            await asyncio.sleep(0.05)
        if self.web is not None:
            await self.web.close()
        for task in list(self._web_tasks):
            task.cancel()
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []
        self.heap.close()
        self.log.info("server closed")
