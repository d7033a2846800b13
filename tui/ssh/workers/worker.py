"""A seat worker of ``fireteam serve --workers N``: seats drawn in a process of their own.

Each seat is a Textual app, and drawing its frame after every command is most
of what the server does (docs/ssh.md, *Performance*).  In one process the seats
draw one after another; spread over several worker processes they draw in
parallel, one worker per core.  The table process (``tui.ssh.workers.pool``) writes
the saves, accepts the SSH connections and hands each to the worker with the
fewest; a worker runs the SSH session and the app, on its own copies of the
games (``tui.ssh.workers.replica``), which follow the saves as the table reports them
grown.

Started by the table process only (``python -m tui.ssh.workers.worker``): it inherits
the three sockets of ``tui.ssh.workers.wire`` and stops when the table closes them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import selectors
import signal
import socket
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import asyncssh

from core.language.reader import LANGUAGES, SOURCE
from core.log.views import SPECTATOR
from core.ruleset import Refused
from core.storage.errors import SaveError
from tui.ssh import limits
from tui.ssh.host.server import FireteamServer, Table, closed_by
from tui.ssh.host.serverlog import server_log
from tui.ssh.invitations.store import GUEST_PREFIX, Grant, InvitationRefused, Invitations
from tui.ssh.seating.history import SeatHistories
from tui.ssh.seating.seat import SeatSession
from tui.ssh.seatsfile import Seat, Seats, SeatsFile, public_line, table_roles
from tui.ssh.workers import wire
from tui.ssh.workers.replica import ReplicaGame, TableLink

#: Seconds between two notes, by the event loop, that it is turning (what ``Pong.stalled`` measures from).
TURN_S = 1.0
#: Set (to anything) in a worker's environment, the worker logs at each of those notes the longest turn of its
#: loop since the last: how long, at most, a seat's keys or frames waited for it (``tui.bench.ssh`` sets it).
LOG_TURNS_ENV = "FIRETEAM_LOG_LOOP_TURNS"


class TimedSelector(selectors.DefaultSelector):
    """The event loop's selector, timing the loop's turns: between two calls of ``select`` the loop runs its
    ready callbacks and reads nothing that arrives on its sockets, so the longest such turn is its worst stall.
    Its CPU time apart: a turn is also long while the process waits for a core that other processes hold."""

    def __init__(self) -> None:
        super().__init__()
        self._back = time.perf_counter()  # when the last select returned
        self._back_cpu = time.thread_time()  # ... and the loop's thread's CPU time then
        self.longest = 0.0  # the longest turn since the last :meth:`taken`
        self.busiest = 0.0  # the most CPU time in one turn since then

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        self.longest = max(self.longest, time.perf_counter() - self._back)
        self.busiest = max(self.busiest, time.thread_time() - self._back_cpu)
        try:
            return super().select(timeout)
        finally:
            self._back = time.perf_counter()
            self._back_cpu = time.thread_time()

    def taken(self) -> tuple[float, float]:
        """The longest turn since the last call, and the most CPU time in one, in seconds."""
        taken, self.longest, self.busiest = (self.longest, self.busiest), 0.0, 0.0
        return taken


def _unlisted(name: str) -> Seat:
    """A seat another worker holds that the seats file does not name: a spectator link's guest, or one removed."""
    return Seat(name, SPECTATOR if name.startswith(GUEST_PREFIX) else "?")


class WorkerServer(FireteamServer):
    """The SSH side of one worker: it serves the connections the table hands it and never listens."""

    def __init__(
        self, tables: Sequence[Table], seats: SeatsFile | Seats, key: asyncssh.SSHKey, link: TableLink, **kwargs
    ) -> None:
        # The table process logs every command once, as it records it.
        super().__init__(tables, seats, key, log_commands=False, **kwargs)
        self._link = link
        # Laden with departed seats, it asks the table to retire it rather than walk its whole heap
        # (tui.ssh.workers.heap).
        self.heap.laden = lambda departed: link.tell(wire.Laden(departed))

    def seated(self) -> dict[str, list[Seat]]:
        """Who sits at each table, in every worker (the table keeps the count)."""
        answer = self._link.call(wire.Who(self._link.next_seq()))
        if not isinstance(answer, wire.Seated):
            return super().seated()
        return {
            table: [self.seats.by_name(name) or _unlisted(name) for name in names]
            for table, names in answer.tables.items()
        }

    def redeem(self, token: str, peer: str, *, key: asyncssh.SSHKey | None = None) -> Grant:
        """Only the table process writes the invitations and the seats file: it is asked (``wire.Redeem``)."""
        line = public_line(key) if key is not None else ""
        try:
            answer = self._link.call(wire.Redeem(self._link.next_seq(), token, peer, line))
        except Refused as e:  # the table did not answer
            raise InvitationRefused(str(e)) from None
        if isinstance(answer, wire.Redeemed) and answer.grant is not None:
            return answer.grant
        raise InvitationRefused(answer.why if isinstance(answer, wire.Redeemed) else "no answer")

    def kick(self, seat: str, by: str) -> int:
        """Every worker holds seats: the table tells them all (``wire.Kick``)."""
        answer = self._link.call(wire.Kick(self._link.next_seq(), seat, by))
        return answer.seated if isinstance(answer, wire.Kicked) else 0

    def session_started(self, session: SeatSession) -> None:
        super().session_started(session)
        if session.table is not None:
            seat = session.seat
            self._link.tell(wire.Sat(session.table.name, seat.name, seat.role))

    def session_ended(self, session: SeatSession) -> None:
        super().session_ended(session)
        if session.table is not None:
            seat = session.seat
            self._link.tell(wire.Rose(session.table.name, seat.name, seat.role))

    def logged_in(self, peer: str) -> None:
        # The table process counts the connections not logged in: it accepted them.
        self._link.tell(wire.LoggedIn(peer))

    def authenticating(self, peer: str) -> None:
        self._link.tell(wire.Authenticating(peer))

    def misbehaved(self, peer: str) -> None:
        self._link.tell(wire.Misbehaved(peer))


class _Worker:
    def __init__(self, args: argparse.Namespace, selector: TimedSelector | None = None) -> None:
        self.index: int = args.index
        self.selector = selector
        self.log = server_log(args.log_dir, tag=f"worker={self.index}")
        self.news = socket.socket(fileno=args.news_fd)
        self.news.setblocking(False)
        self.heartbeat = socket.socket(fileno=args.heartbeat_fd)
        self.link = TableLink(socket.socket(fileno=args.requests_fd))
        self.tables = [Table(name, ReplicaGame.of_table(Path(path), name, self.link)) for name, path in args.table]
        self.server = WorkerServer(
            self.tables,
            SeatsFile(args.seats, self.log, table_roles([list(t.game.state.sides) for t in self.tables])),
            asyncssh.read_private_key(args.host_key),
            self.link,
            log=self.log,
            limits=limits.from_json(args.limits),
            lang=args.lang,
            # Read here (a cookie, a token); written only by the table process, which this worker asks.
            invitations=Invitations(args.data_dir) if args.data_dir is not None else None,
        )
        if args.history_dir is not None:
            self.server.seat_history = SeatHistories(args.history_dir)
        if args.web_port:
            tls = None
            if args.cert is not None and args.key is not None:
                from tui.ssh.web.door import tls_context

                tls = tls_context(args.cert, args.key)
            self.server.open_web(port=args.web_port, public_url=args.url, tls=tls)
        self.stop = asyncio.Event()
        self.status = 0
        self._connections: set[asyncio.Task[None]] = set()
        self._turned = time.monotonic()

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        loop.add_reader(self.news, self._on_news)
        self._turn()
        threading.Thread(target=self._answer_pings, name="heartbeat", daemon=True).start()
        # Ctrl+C at the host's terminal reaches every process of the group: the
        # table stops the workers itself, in order, by closing their sockets.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        loop.add_signal_handler(signal.SIGTERM, self.stop.set)
        # No seat yet, so nobody waits for what a worker's first seat used to pay for, in its worker's loop (as a
        # standby takes a retiring worker's place at a busy table, this is where seats come): the game's commands,
        # gathered as it first parses one (the ruleset's modules imported: 25-60 ms, as the table does at its start)...
        for table in self.tables:
            table.game.commands  # noqa: B018 (gathered for what it imports)
        # ... and a walk of what the start made (Python's, Textual's and asyncssh's objects, the games: 95-130 ms),
        # collected and frozen now, so that no collection walks it once seats are drawn here (tui.ssh.workers.heap).
        self.server.heap.settle()
        if self.selector is not None:  # (the turns of its start, this one's included: no seat waited for them)
            loop.call_soon(self.selector.taken)
        self.link.tell(wire.Ready())
        self.log.info("seat worker %d ready", self.index)
        await self.stop.wait()
        loop.remove_reader(self.news)
        await self.server.close()
        return self.status

    def _on_news(self) -> None:
        while not self.stop.is_set():
            try:
                got = wire.receive(self.news, wire.NEWS)
            except BlockingIOError:
                return
            except OSError:
                got = None
            if got is None:  # the table has closed: the server is stopping, or this worker retired and is empty
                self.stop.set()
                return
            msg, fd = got
            if isinstance(msg, wire.Arrived) and fd is not None:
                task = asyncio.get_running_loop().create_task(self._serve(socket.socket(fileno=fd), msg.peer, msg.door))
                self._connections.add(task)
                task.add_done_callback(self._connections.discard)
            elif isinstance(msg, wire.Grew):
                self._grew(msg)
            elif isinstance(msg, wire.Awaiting):
                for table in self.tables:
                    if table.name == msg.table:
                        table.game.awaiting.change(msg.awaited, msg.dropped)  # its seats show it (issue #61)
            elif isinstance(msg, wire.Rolling):
                for table in self.tables:
                    if table.name == msg.table:
                        table.game.rolling.change(msg.rolling)  # whose dice a seat types at its own prompt (#77)
            elif isinstance(msg, wire.Close):
                self.server.close_seat(msg.seat, closed_by(msg.by))
            elif isinstance(msg, wire.Retire):  # (the table logs it)
                self.server.heap.retire()

    def _turn(self) -> None:
        self._turned = time.monotonic()
        if self.selector is not None:
            longest, busiest = self.selector.taken()
            self.log.info("loop: longest turn %.1f ms, the most CPU in one %.1f ms", longest * 1000, busiest * 1000)
        if not self.stop.is_set():
            asyncio.get_running_loop().call_later(TURN_S, self._turn)

    def _answer_pings(self) -> None:
        """The heartbeat, answered from this thread: a loop busy drawing does not make the worker look hung.

        The table judges the loop by how long ago it last turned (``Pong.stalled``).
        """
        while True:
            try:
                got = wire.receive(self.heartbeat, wire.PING)
                if got is None:
                    return
                wire.send(self.heartbeat, wire.Pong(got[0].n, time.monotonic() - self._turned))
            except OSError:
                return

    def _grew(self, msg: wire.Grew) -> None:
        table = next((t for t in self.tables if t.name == msg.table), None)
        if table is None:
            return
        try:
            table.game.follow(msg.size)
        except SaveError as e:
            # This copy can no longer be trusted: stop, and the table starts a
            # new worker that reads the save afresh (its seats reconnect).
            self.log.error("seat worker %d stops: its copy of %s cannot follow the save: %s", self.index, msg.table, e)
            self.status = 1
            self.stop.set()

    async def _serve(self, sock: socket.socket, peer: str, door: str) -> None:
        try:
            if door == "web" and self.server.web is not None:
                await self.server.serve_web(sock, peer)
            elif door == "ssh":
                await self.server.accept(sock, peer)
            else:
                sock.close()
        finally:
            self.link.tell(wire.Gone(peer))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tui.ssh.workers.worker", description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", type=int, required=True)
    parser.add_argument("--news-fd", type=int, required=True)
    parser.add_argument("--requests-fd", type=int, required=True)
    parser.add_argument("--heartbeat-fd", type=int, required=True)
    parser.add_argument("--limits", default="{}", help="tui.ssh.limits.Limits, as JSON")
    parser.add_argument("--seats", type=Path, required=True)
    parser.add_argument("--host-key", type=Path, required=True)
    parser.add_argument("--log-dir", type=Path)
    parser.add_argument("--data-dir", type=Path, help="the data folder, whose invitations store this worker reads")
    parser.add_argument("--history-dir", type=Path, help="where plain seats' command lines are kept")
    parser.add_argument("--web-port", type=int, default=0, help="the port browsers reach (0: no browser seats)")
    parser.add_argument("--url", default="", help="the address players open in their browsers")
    parser.add_argument("--cert", type=Path, help="TLS certificate of the browser seats")
    parser.add_argument("--key", type=Path, help="TLS key of the browser seats")
    parser.add_argument("--lang", choices=LANGUAGES, default=SOURCE, help="the server's language (a seat's default)")
    parser.add_argument("--table", nargs=2, action="append", default=[], metavar=("NAME", "SAVE"))
    args = parser.parse_args(argv)

    selector = TimedSelector() if os.environ.get(LOG_TURNS_ENV) else None

    async def work() -> int:
        return await _Worker(args, selector).run()

    if selector is None:
        return asyncio.run(work())
    with asyncio.Runner(loop_factory=lambda: asyncio.SelectorEventLoop(selector)) as runner:
        return runner.run(work())


if __name__ == "__main__":
    sys.exit(main())
