"""The table process of ``fireteam serve --workers N``: it writes the saves, its workers draw the seats.

One process holds each table's writing ``Game``, as with ``--workers 0``, and
is the only one that records commands; it also listens for SSH connections,
but only to hand each new one (its socket) to the seat worker with the fewest
(``tui.ssh.workers.worker``).  A worker runs the connection's SSH session and app on
its own copies of the games, and sends the seat's commands here; after each
command recorded, every other worker hears that the save grew (its news:
``tui.ssh.workers.news``) and reads the new records from it.  The save is the
replication stream: a worker never holds anything the file does not.

Workers are trusted helpers of this process (started by it, on its sockets):
the seat and role they send with a command are the ones they read from the
seats file when the player logged in.  A worker that dies takes its
connections with it (their players reconnect) and is replaced; the game and
the other seats go on.

Workers are recycled rather than made to walk their whole heap.  A departed
seat's app is freed only by a walk of the worker's whole heap (Textual's
objects hold each other in cycles: ``tui.ssh.workers.heap``), 0.6–0.85 s at 16 seats
a worker, which stalls every seat of the worker; it waits for an idle moment,
which a busy table never has.  So once as many seats have left a worker as
ever sat in it at once, the worker says it is laden (``wire.Laden``) and this
process retires it (``wire.Retire``): it is handed no new connection, and
serves those it has (their commands, the news of the saves, kicks, ``who``,
browsers) until the last ends; then this process closes its news, it stops,
and its memory goes back to the system with no walk at all.  Its place is
taken by the standby, a worker started ahead that takes no connection until
then (``STANDBY_WORKERS``), so that no seat waits for a worker to start
(Python, Textual, asyncssh and the saves: half a second of CPU); a new
standby starts behind it.  At most ``RETIRING_PER_WORKER`` workers per
``--workers`` retire at once: a retiring worker whose players stay holds its
process as long as they do, and past that bound a laden worker is not
retired but waits for an idle moment, to retire as soon as one of them has
stopped (and walks its heap at a busy moment only past
``tui.ssh.workers.heap.LADEN_MAX`` times the departures).  A worker that dies while
retiring is not replaced: its place was taken as it retired.  With
``--workers 0`` there is no process to recycle: the server's own walks its
heap (``tui.ssh.workers.heap``).

A worker is judged by its heartbeat, answered by a thread of its own: one
that does not answer at all (stopped, or stuck outside Python) is hung after
``HEARTBEAT_MISSES`` pings; one that answers but whose event loop has not
turned for ``Limits.worker_hang_s`` is hung too.  Busy is neither: a worker
drawing for many seats on a loaded machine keeps its players.

This process accepts the connections, so it counts those not logged in yet
and refuses those over the limits before any worker sees them
(``tui.ssh.limits.Gate``), at its doors (``tui.ssh.workers.doors``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import sys
from collections.abc import Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import asyncssh
import msgspec

from core.language import reader as readers
from core.log.outcome import Failure, Outcome, Refusal
from tui.ssh.host.server import Table, accept_each
from tui.ssh.host.serverlog import log_table
from tui.ssh.invitations.redeem import redeem_invitation
from tui.ssh.invitations.store import InvitationRefused, Invitations
from tui.ssh.language import _
from tui.ssh.limits import Gate, Limits, QuietLog, to_json
from tui.ssh.seatsfile import Seats, SeatsFile, seats_in_force, table_roles
from tui.ssh.web.gate import WebGate
from tui.ssh.workers import wire
from tui.ssh.workers.doors import Doors
from tui.ssh.workers.handle import Duty, WorkerHandle
from tui.ssh.workers.news import WorkerNews

#: How long a worker may take to start (import Textual, read the saves).
START_TIMEOUT_S = 60.0
#: How long stopping workers may take before they are killed.
STOP_TIMEOUT_S = 10.0
#: Seconds between the table's pings of each worker, and how many may go
#: unanswered before a worker counts as hung, and is killed and replaced.
HEARTBEAT_S, HEARTBEAT_MISSES = 10.0, 3
#: A worker whose loop has not turned for this long is logged as busy (it is not replaced).
BUSY_S = 10.0
#: Pause before starting a standby (after one was promoted, or died), doubled after each
#: that could not start (up to the maximum), so a worker that cannot start does not spin.
RESPAWN_DELAY_S, MAX_RESPAWN_DELAY_S = 0.5, 60.0
#: Workers started ahead, ready and taking no connection, to take the place of one that retires or
#: dies at once: a new seat never waits for a worker's start, and the start costs no seat a stall.
STANDBY_WORKERS = 1
#: Workers retiring at once, at most, for each worker of ``--workers``: each holds a process (~55 MB
#: and its seats) for as long as its last players stay; past this, a laden worker waits (``tui.ssh.workers.heap``).
RETIRING_PER_WORKER = 1


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _waiting(sock: socket.socket, decoder: msgspec.msgpack.Decoder[Any]) -> Iterator[Any]:
    """The messages waiting on a worker's ``sock``; once it has gone, no more (_watch takes it from here)."""
    while True:
        try:
            got = wire.receive(sock, decoder)
        except BlockingIOError:
            return
        except OSError:
            got = None
        if got is None:
            asyncio.get_running_loop().remove_reader(sock)
            return
        yield got[0]


class SeatWorkers:
    """Tables in this process, seats in ``workers`` worker processes."""

    def __init__(
        self,
        tables: Sequence[Table],
        seats: SeatsFile | Seats,
        *,
        seats_path: Path,
        host_key_path: Path,
        workers: int,
        log: logging.Logger | None = None,
        log_dir: Path | None = None,
        heartbeat: float = HEARTBEAT_S,
        limits: Limits | None = None,
        lang: str | None = None,
        invitations: Invitations | None = None,
    ) -> None:
        if workers < 1:
            raise ValueError("at least one seat worker")
        self._tables = {t.name: t for t in tables}
        # The seats file a key bound by an invitation is appended to (this process alone writes it).
        self._seats = (
            seats
            if isinstance(seats, SeatsFile)
            else SeatsFile(
                seats_path,
                log or logging.getLogger("fireteam.serve"),
                table_roles([list(t.game.state.sides) for t in tables]),
            )
        )
        #: The invitations store, which this process alone writes (its workers ask it to: ``wire.Redeem``).
        self.invitations = invitations
        self.seats_path = seats_path
        self.host_key_path = host_key_path
        self.n_workers = workers
        self.log = log or logging.getLogger("fireteam.serve")
        self.log_dir = log_dir
        #: Where the workers keep plain seats' command lines between sessions (``tui.ssh.seating.history``).
        self.history_dir: Path | None = None
        self.heartbeat = heartbeat
        self.max_retiring = workers * RETIRING_PER_WORKER
        self.limits = limits or Limits()
        #: The language of a seat whose seats-file entry and client name none (default: this process's).
        self.lang = readers.checked(lang) if lang else readers.lang()
        self.gate = Gate(self.limits, self.log)
        #: The browser door's own count of connections (``tui.ssh.web.gate``): browsers never count against SSH's.
        self.web_gate = WebGate(self.limits, self.log)
        self._quiet = QuietLog(self.log, interval=60.0)
        self.workers: list[WorkerHandle] = []
        #: The connections this process takes, counted and handed to a worker (``tui.ssh.workers.doors``).
        self.doors = Doors(self.gate, self.web_gate, self.workers, self._quiet)
        #: What each worker is told it has not heard (``tui.ssh.workers.news``).
        self.news = WorkerNews(self._tables, self.workers)
        self._next_index = 1
        self._closing = False
        self._started = False  # all the first workers were ready
        self._failed_starts = 0  # standbys in a row that could not start
        self._standby_starting = False  # a standby's start is under way (its pause, or its process being made)
        self._listener: socket.socket | None = None
        #: Browser seats (``fireteam serve --web``): where to listen, and what the workers need to serve them.
        self._web: tuple[str, int] | None = None
        self._web_listener: socket.socket | None = None
        self.web_port = 0
        self.public_url = ""
        self.tls_files: tuple[Path, Path] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._unsubscribe = [log_table(t, lambda: seats_in_force(seats), self.log) for t in tables]
        for t in tables:  # with table dice, each roll is asked at its owner's own screen (issue #61)
            t.game.seated = partial(self._asked_roles, t.name)
            self._unsubscribe.append(t.game.awaiting.subscribe(partial(self.news.tell_awaiting, t.name)))
            self._unsubscribe.append(t.game.rolling.subscribe(partial(self.news.tell_rolling, t.name)))

    @property
    def tables(self) -> Sequence[Table]:
        return list(self._tables.values())

    # ---------------------------------------------------------------- life

    def open_web(
        self, host: str, port: int, *, public_url: str = "", tls_files: tuple[Path, Path] | None = None
    ) -> None:
        """Take browser seats too, on ``host:port`` (before :meth:`start`); ``tls_files``: certificate and key."""
        self._web = (host, port)
        self.public_url = public_url
        self.tls_files = tls_files

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen, start the workers and wait until each is ready, then take connections; return the port."""
        listener = socket.create_server((host, port))  # a port in use fails before any worker starts
        listener.setblocking(False)
        self._listener = listener
        if self._web is not None:
            try:
                web = socket.create_server(self._web)
            except OSError:
                listener.close()
                self._listener = None
                raise
            web.setblocking(False)
            self._web_listener = web
            self.web_port = web.getsockname()[1]  # the workers name their cookie after it
        try:
            # The standby too: now, before any seat, is when its start costs nobody anything.
            await asyncio.gather(
                *(self._spawn(Duty.TAKING) for _ in range(self.n_workers)),
                *(self._spawn(Duty.STANDBY) for _ in range(STANDBY_WORKERS)),
            )
            # While the workers start: this process carries out every command, and a game gathers its
            # ruleset's commands (most of the ruleset's modules) when it first parses one; left to the
            # first command, that import was on its way to every seat (25-45 ms, 150 ms with no .pyc).
            for table in self._tables.values():
                table.game.commands  # noqa: B018 (gathered for what it imports)
            await asyncio.wait_for(asyncio.gather(*(w.ready for w in self.workers)), START_TIMEOUT_S)
        except BaseException:
            await self.close()
            raise
        self._started = True
        bound = listener.getsockname()[1]
        self._track(accept_each(listener, self.log, partial(self.doors.take, door="ssh")))
        if self._web_listener is not None:
            self._track(accept_each(self._web_listener, self.log, partial(self.doors.take, door="web")))
            assert self._web is not None
            self.log.info("browser seats on %s:%d", self._web[0], self.web_port)
        self._track(self._ping())
        self._track(self.doors.sweep())
        self.log.info(
            "listening on %s:%d with %d seat workers and %d standby", host, bound, self.n_workers, STANDBY_WORKERS
        )
        return bound

    async def close(self) -> None:
        self._closing = True
        for task in list(self._tasks):
            task.cancel()
        for sock in (self._listener, self._web_listener):
            if sock is not None:
                sock.close()
        self._listener = self._web_listener = None
        self.doors.close()
        loop = asyncio.get_running_loop()
        for w in list(self.workers):
            loop.remove_reader(w.requests)
            loop.remove_reader(w.heartbeat)
            # A question a seat is waiting on now is never answered: its worker hears the end at once
            # ("the server is shutting down; nothing was recorded"), not once the call's timeout has passed.
            with contextlib.suppress(OSError):  # a worker that has died
                w.requests.shutdown(socket.SHUT_RDWR)
            self.news.close(w)  # the worker hears the end and closes its seats
        for w in list(self.workers):
            try:
                await asyncio.wait_for(w.proc.wait(), STOP_TIMEOUT_S)
            except TimeoutError:
                self.log.warning("seat worker %d did not stop in time, killed", w.index)
                with contextlib.suppress(ProcessLookupError):
                    w.proc.kill()
                await w.proc.wait()
            w.requests.close()
            w.heartbeat.close()
        self.workers.clear()  # (the list the doors and the news hold)
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []
        self.log.info("server closed")

    def _track(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _spawn(self, duty: Duty) -> None:
        index, self._next_index = self._next_index, self._next_index + 1
        news, news_theirs = wire.pair()
        requests, requests_theirs = wire.pair()
        beat, beat_theirs = wire.pair()
        theirs = (news_theirs, requests_theirs, beat_theirs)
        args = [
            "--index", str(index),
            "--news-fd", str(news_theirs.fileno()),
            "--requests-fd", str(requests_theirs.fileno()),
            "--heartbeat-fd", str(beat_theirs.fileno()),
            "--seats", str(self.seats_path),
            "--host-key", str(self.host_key_path),
            "--limits", to_json(self.limits),
            "--lang", self.lang,
        ]  # fmt: skip
        if self.log_dir is not None:
            args += ["--log-dir", str(self.log_dir)]
        if self.invitations is not None:
            args += ["--data-dir", str(self.invitations.path.parent)]
        if self.history_dir is not None:
            args += ["--history-dir", str(self.history_dir)]
        if self._web is not None:
            args += ["--web-port", str(self.web_port), "--url", self.public_url]
            if self.tls_files is not None:
                args += ["--cert", str(self.tls_files[0]), "--key", str(self.tls_files[1])]
        for t in self._tables.values():
            args += ["--table", t.name, str(t.game.path)]
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tui.ssh.workers.worker",
                *args,
                pass_fds=tuple(s.fileno() for s in theirs),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
            )
        finally:
            for sock in theirs:
                sock.close()
        for sock in (news, requests, beat):
            sock.setblocking(False)
        worker = WorkerHandle(index, proc, news, requests, beat, asyncio.get_running_loop().create_future(), duty)
        self.workers.append(worker)
        asyncio.get_running_loop().add_reader(requests, self._on_request, worker)
        asyncio.get_running_loop().add_reader(beat, self._on_pong, worker)
        self._track(self._watch(worker))

    async def _watch(self, w: WorkerHandle) -> None:
        status = await w.proc.wait()
        if self._closing or w not in self.workers:
            return
        self._forget(w)
        if not w.ready.done() and not self._started:
            w.ready.set_exception(RuntimeError(f"seat worker {w.index} stopped while starting (status {status})"))
            return
        if w.duty is Duty.RETIRING and status == 0 and not w.peers:
            self.log.info("seat worker %d retired: stopped with its last connection", w.index)
        elif w.duty is Duty.RETIRING:  # killed, or hung: its place was taken as it retired
            self.log.warning(
                "seat worker %d stopped (status %d) while retiring, with %d connections; not replaced",
                w.index,
                status,
                w.connections,
            )
        elif w.ready.done():
            self.log.warning(
                "seat worker %d stopped (status %d) with %d connections; starting another",
                w.index,
                status,
                w.connections,
            )
        else:  # a standby that could not start (its stderr says why): try again, less and less often
            self._failed_starts += 1
            self.log.error("seat worker %d could not start (status %d); trying again", w.index, status)
        self._rearrange()

    def _forget(self, w: WorkerHandle) -> None:
        """``w`` has stopped: let go of its sockets, and of its connections, which went with it."""
        self.workers.remove(w)
        loop = asyncio.get_running_loop()
        loop.remove_reader(w.requests)
        loop.remove_reader(w.heartbeat)
        self.news.close(w)
        w.requests.close()
        w.heartbeat.close()
        for peer in w.peers:
            self.doors.gone(peer)
        if w.roles:  # its seats went with it
            w.roles.clear()
            self._seats_changed()

    # ------------------------------------------------------------- recycling

    def _count(self, duty: Duty) -> int:
        return sum(1 for w in self.workers if w.duty is duty)

    def _rearrange(self) -> None:
        """Retire the laden workers the bounds allow, give the places of those retired or gone to a ready
        standby, and start a standby when there is none."""
        if self._closing or not self._started:
            return
        for w in [w for w in self.workers if w.duty is Duty.TAKING and w.laden]:
            self._retire(w)
        for w in [w for w in self.workers if w.duty is Duty.STANDBY and w.ready.done()]:
            if self._count(Duty.TAKING) >= self.n_workers:
                break
            w.duty = Duty.TAKING
            self.log.info("seat worker %d takes new connections", w.index)
        if self._count(Duty.STANDBY) < STANDBY_WORKERS and not self._standby_starting:
            self._standby_starting = True
            self._track(self._start_standby())

    def _retire(self, w: WorkerHandle) -> str:
        """Retire laden ``w`` if the bounds allow it (it is handed no more connections, and stops once its last
        has ended); why it may not yet, or ""."""
        retiring = self._count(Duty.RETIRING)
        if retiring >= self.max_retiring:
            return f"{retiring} workers retire already (at most {self.max_retiring})"
        if not any(x is not w and x.duty is not Duty.RETIRING and x.ready.done() for x in self.workers):
            return "no other worker is ready to take its connections"
        w.duty, w.laden, w.tell_retire = Duty.RETIRING, False, True
        self.news.send(w)
        self.log.info(
            "seat worker %d retires: new connections go to the others; it stops once its %d connections end",
            w.index,
            w.connections,
        )
        if not w.peers:
            self.news.close(w)
        return ""

    async def _start_standby(self) -> None:
        """Start a standby after a pause, longer after each that could not start."""
        try:
            await asyncio.sleep(min(MAX_RESPAWN_DELAY_S, RESPAWN_DELAY_S * 2**self._failed_starts))
            if not self._closing:
                await self._spawn(Duty.STANDBY)
        finally:
            self._standby_starting = False

    async def _ping(self) -> None:
        """Kill a worker that is hung: its seats are frozen, and a new one serves them."""
        while True:
            await asyncio.sleep(self.heartbeat)
            for w in list(self.workers):
                if not w.ready.done():
                    continue
                why = self._hung(w)
                if why:
                    self.log.error("seat worker %d %s: stopped (%d connections)", w.index, why, w.connections)
                    with contextlib.suppress(ProcessLookupError):
                        w.proc.kill()  # _watch replaces it
                    continue
                if w.stalled >= BUSY_S:
                    self._quiet.warning(
                        f"busy {w.index}",
                        "seat worker %d is busy: its loop has not turned for %.0f s",
                        w.index,
                        w.stalled,
                    )
                w.pinged += 1
                with contextlib.suppress(OSError):  # a full socket is a ping unanswered
                    wire.send(w.heartbeat, wire.Ping(w.pinged))

    def _hung(self, w: WorkerHandle) -> str:
        """Why ``w`` is hung, or "" (busy is not hung)."""
        if w.pinged - w.ponged >= HEARTBEAT_MISSES:
            return f"did not answer for {round(self.heartbeat * HEARTBEAT_MISSES, 1):g} s"
        if w.stalled >= self.limits.worker_hang_s:
            return f"has had its event loop stalled for {w.stalled:.0f} s"
        return ""

    def _on_pong(self, w: WorkerHandle) -> None:
        for pong in _waiting(w.heartbeat, wire.PONG):
            w.ponged, w.stalled = pong.n, pong.stalled

    # --------------------------------------------------------------- requests

    def _on_request(self, w: WorkerHandle) -> None:
        for request in _waiting(w.requests, wire.REQUEST):
            answer = self._answer(w, request)
            if answer is not None:
                # The worker waits for this answer, so its socket has room for it.
                with contextlib.suppress(OSError):
                    wire.send(w.requests, answer)

    def _answer(self, w: WorkerHandle, msg: wire.Request) -> wire.Answer | None:
        match msg:
            case wire.Submit():
                return self._record(w, msg)
            case wire.Who():
                seated: dict[str, list[str]] = {}
                for worker in self.workers:
                    for name, seat in worker.seated:
                        seated.setdefault(name, []).append(seat)
                return wire.Seated(msg.seq, seated)
            case wire.Kick():
                return wire.Kicked(msg.seq, self.kick(msg.seat, msg.by))
            case wire.Redeem():
                return self._redeem(msg)
            case wire.Ready():
                if not w.ready.done():
                    w.ready.set_result(None)
                    self._failed_starts = 0
                    self._rearrange()
                    # A command held before it started: its seats are shown it as they sit.
                    w.held.update(name for name, t in self._tables.items() if t.game.awaiting.held is not None)
                    w.rolling.update(name for name, t in self._tables.items() if t.game.rolling.rolls)
                    self.news.send(w)
            case wire.Sat():
                w.seated.append((msg.table, msg.seat))
                w.roles.append((msg.table, msg.role))
            case wire.Rose():
                with contextlib.suppress(ValueError):
                    w.seated.remove((msg.table, msg.seat))
                if (msg.table, msg.role) in w.roles:
                    w.roles.remove((msg.table, msg.role))
                    self._seats_changed()
            case wire.Unasked():
                if (table := self._tables.get(msg.table)) is not None:
                    table.game.unasked(msg.by)
            case wire.LoggedIn():
                self.doors.gone(msg.peer)
            case wire.Authenticating():
                self.gate.authenticating(msg.peer)
            case wire.Misbehaved():
                self.gate.penalise(msg.peer)
            case wire.Gone():
                w.peers.discard(msg.peer)
                self.doors.gone(msg.peer)
                if w.duty is Duty.RETIRING and not w.peers:
                    self.news.close(w)  # its last connection ended: it stops (_watch takes it from there)
            case wire.Laden():
                w.laden = msg.departed > 0 and w.duty is Duty.TAKING
                if w.laden and (why := self._retire(w)):
                    self.log.warning(
                        "seat worker %d has had %d seats leave since its heap was last walked, but %s: it waits for "
                        "an idle moment to walk it, and retires as soon as it may",
                        w.index,
                        msg.departed,
                        why,
                    )
                self._rearrange()  # the standby takes its place
        return None

    def _record(self, w: WorkerHandle, msg: wire.Submit) -> wire.Settled:
        # Carried out in the seat's language, as in a seat's own task without workers: a refusal is worded for it.
        with readers.reading(msg.lang if msg.lang in readers.LANGUAGES else readers.SOURCE):
            return self._carry_out(w, msg)

    def _carry_out(self, w: WorkerHandle, msg: wire.Submit) -> wire.Settled:
        table = self._tables.get(msg.table)
        if table is None:
            why = _("there is no game {name} here").format(name=repr(msg.table))
            return wire.Settled(msg.seq, Refusal(msg.text, msg.role, msg.by, why))
        game = table.game
        if msg.held:
            answer = msg.answers[0] if msg.answers else None
            result = game.answer_held(role=msg.role, by=msg.by, faces=msg.faces, answer=answer)
        else:
            result = game.submit(
                msg.text,
                role=msg.role,
                by=msg.by,
                faces=msg.faces,
                contribution=msg.contribution,
                answers=msg.answers,
                saw=msg.saw,
                nonce=msg.nonce,
            )
        if isinstance(result, Failure):  # logged by the game, with its traceback
            self.log.error("command failed game=%s seat=%s role=%s", table.name, msg.by, msg.role)
        if not isinstance(result, Outcome):
            return wire.Settled(msg.seq, result)
        self.news.tell_grew(table.name, game.saved_bytes, but=w)
        # Its events the worker reads back from the save (``wire.Settled``).
        return wire.Settled(msg.seq, Outcome(result.cmd, [], []), game.saved_bytes)

    def _redeem(self, msg: wire.Redeem) -> wire.Redeemed:
        """A worker's player uses an invitation: this process alone writes the store and the seats file."""
        try:
            key = asyncssh.import_public_key(msg.key) if msg.key else None
            grant = redeem_invitation(self.invitations, self._seats, self.log, msg.token, msg.peer, key=key)
        except (InvitationRefused, asyncssh.KeyImportError, ValueError) as e:
            return wire.Redeemed(msg.seq, None, str(e))
        return wire.Redeemed(msg.seq, grant)

    def kick(self, seat: str, by: str) -> int:
        """Close every session of ``seat`` in every worker; how many there were."""
        seated = sum(1 for w in self.workers for _, name in w.seated if name == seat)
        self.log.warning("kick seat=%s by=%s: %d sessions", seat, by, seated)
        for w in self.workers:
            with contextlib.suppress(OSError):  # a full or gone worker: its seats go with it
                wire.send(w.news, wire.Close(seat, by))
        return seated

    def _asked_roles(self, table: str) -> set[str]:
        """The roles seated at ``table``, in any worker: each can be asked for its own dice."""
        return {role for w in self.workers for name, role in w.roles if name == table}

    def _seats_changed(self) -> None:
        for t in self._tables.values():
            t.game.seats_changed()
