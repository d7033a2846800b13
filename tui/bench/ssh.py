"""Benchmark of ``fireteam serve``: how fast a command reaches every seat and every spectator, and what each costs.

    .venv/bin/python -m tui.bench.ssh                                # 1, 8 and 32 seats
    .venv/bin/python -m tui.bench.ssh --seats 32 --spectators 0 500 --workers 2 --commands 15 --json
    .venv/bin/python -m tui.bench.ssh --seats 16 --workers 0 2       # seats in one process, then in two workers
    .venv/bin/python -m tui.bench.ssh --seats 8 --web 8              # and 8 browser seats at the same table

For each number of seat workers W, seats N and spectators S it starts the real
server (``fireteam serve`` in a child process, with its own data folder, seats
file and demo save, all in a temporary folder, and limits that let the
bench's own connections in: many at once from one address, and one seat's key
for every spectator), connects N players' SSH clients with a terminal on
127.0.0.1 (the referee, then the sides in turn), waits until the server has
settled (its heap frozen, the first screens drawn), then S spectators, and
waits again.  Then, one command at a time, the referee's seat types ``note
...``: a command's latency is the time from the referee pressing Enter to the
moment the note's text has arrived at every other seat's terminal (and,
apart, at every spectator's).

Memory per seat is the growth of the server's resident memory (its seat
workers' included) from no seat to N seats, divided by N; per spectator, from
N seats to N seats and S spectators, divided by S.  The server's CPU time over
the timed commands (its workers' included), per command, hardly depends on
what else the machine is doing, unlike the latencies; the CPU time per command
of the busiest process (the server, or its busiest worker) is what parallel
drawing leaves on the longest path.

The clients are the bench's own and must leave the machine's cores to the
server: they emulate no terminal (each looks for the note's text in the bytes
it receives, as they come), they use the cheapest cipher the server offers
(AES-GCM, one call per packet), and the spectators' clients run in
``--client-processes`` processes of their own, the players' in this one.
Their CPU time over the timed commands is measured and printed too
(``client_cpu_ms``): on a 2-core machine it is taken from the server's.

Then, with ``--churn K`` (default 3), the players' seats but the referee's
leave in turn, one a second, each sitting down again a second later, K
departures in all, while the referee types a note every fifth of a second: a
table whose seats come and go without one idle second (``--churn 64`` at 32
seats: every seat twice).  ``churn_max_ms`` is the slowest of those notes to
reach every other seat seated as it was given, what seats arriving and leaving
cost the others (``churn_median_ms`` beside it); ``churn_turn_ms`` the longest
turn of any seat worker's event loop meanwhile (how long its seats' keys and
frames waited for it at worst, ``tui.ssh.workers.worker.TimedSelector``), and
``churn_turn_cpu_ms`` the most CPU time in one turn (a turn is also long while
its worker waits for a core other processes hold), and
``churn_reclaims`` how many times a worker reclaimed its whole heap
meanwhile (``tui.ssh.workers.heap``), the longest in ``churn_reclaim_max_ms``.

With ``--web M`` the same table also seats M browsers (``tui.bench.web_seats``:
each opens its invitation's link and the websocket, as a page does), after
the SSH seats have settled and before the spectators: their memory per seat
is the growth from the SSH seats to all seats, divided by M, and the latency
to a browser seat is measured with the SSH ones' (every seat, and each door's
median).
"""

from __future__ import annotations

import argparse
import asyncio
import calendar
import json
import os
import re
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

import asyncssh

from core.game import Game
from core.log.views import REFEREE
from tui.bench import procfs, web_seats
from tui.ssh.host.serverlog import LOG_NAME
from tui.ssh.workers.pool import default_workers
from tui.ssh.workers.worker import LOG_TURNS_ENV

#: Roles of the seats after the first (the referee), in turn.
_ROLES = ("regulars", "irregulars")
_SIZE = (100, 40)
_TIMEOUT_S = 60.0
#: Connecting hundreds of spectators on a loaded machine takes a while.
_CONNECT_TIMEOUT_S = 600.0
#: Connections a client process opens at once (the bench's server lets twice as many wait to log in).
_AT_ONCE = 24
#: The server counts as idle once it uses under a quarter of a core over half a second.
_QUIET_WINDOW_S, _QUIET_CPU = 0.5, 0.25
_EVENT = re.compile(r" INFO (?P<worker>worker=\d+ )?(?P<what>seated|heap settled)\b")
#: While seats come and go: the time between two departures, how long a seat is away before it sits down
#: again (both shorter than the server's idle second, ``tui.ssh.workers.heap.IDLE_S``, with the notes between them),
#: and the time between two of the referee's notes.
_CHURN_EVERY_S, _CHURN_AWAY_S, _CHURN_TYPING_S = 1.0, 1.0, 0.2
#: What a seat worker logs while it comes and goes: its loop's longest turn, and a reclaim of its whole heap.
_TURN = re.compile(r"^(?P<at>\S+)Z INFO worker=\d+ loop: longest turn (?P<ms>[\d.]+) ms, .* one (?P<cpu>[\d.]+) ms$")
_RECLAIM = re.compile(r"^(?P<at>\S+)Z INFO worker=\d+ heap reclaimed after \d+ departures\b.* in (?P<ms>\d+) ms$")
#: What each seat's first screen shows: its name, on the command line; a spectator's: the watching line.
_SPECTATOR_READY = b"Watching:"
#: The cheapest of what the server offers (docs/ssh.md, *Algorithms*): one AES-GCM call per packet, no MAC.
_CLIENT_OPTIONS = dict(
    known_hosts=None,
    agent_path=None,
    encryption_algs=["aes128-gcm@openssh.com"],
    kex_algs=["curve25519-sha256"],
    compression_algs=None,
)


@dataclass
class Result:
    seats: int
    spectators: int
    #: Seat worker processes (0: every seat in the server's own process).
    workers: int
    commands: int
    #: Per command, the time until every other seat showed it (ms).
    all_median_ms: float
    all_p95_ms: float
    all_max_ms: float
    #: Per command and seat, the time until that seat showed it (ms).
    seat_median_ms: float
    #: Per command, the time until every spectator showed it (ms; None without spectators).
    spectator_median_ms: float | None
    spectator_p95_ms: float | None
    spectator_max_ms: float | None
    #: Server CPU time per command (ms), its workers' included.
    server_cpu_ms: float
    #: Server CPU time per command and seat (ms): what one seat's redraw costs (without spectators).
    cpu_per_seat_ms: float
    #: CPU time per command of the server's busiest process (ms): with enough free
    #: cores, the latency's floor, since the processes draw in parallel.
    busiest_cpu_ms: float
    #: CPU time per command of the bench's own clients (ms), all their processes.
    client_cpu_ms: float
    server_rss_idle_mb: float
    server_rss_seated_mb: float
    server_rss_watched_mb: float
    per_seat_mb: float
    per_spectator_mb: float | None
    #: The machine's load average (1 minute) as the run started: what else was running.
    load_1m: float
    #: Browser seats (``--web``), seated after the SSH ones: the median to one of them, their memory each.
    web_seats: int = 0
    web_seat_median_ms: float | None = None
    per_web_seat_mb: float | None = None
    #: While seats left and came back, ``churn`` departures, a note every fifth of a second: the time until every
    #: other seat showed it (ms; None without churn, or with the referee's seat alone).
    churn: int = 0
    churn_median_ms: float | None = None
    churn_max_ms: float | None = None
    #: ... the longest turn of any seat worker's event loop (ms; None with ``--workers 0``: not measured), and the
    #: most CPU time in one (the rest of a turn, the worker waited for a core that other processes held).
    churn_turn_ms: float | None = None
    churn_turn_cpu_ms: float | None = None
    #: ... how many times a seat worker reclaimed its whole heap, and the longest of those (ms).
    churn_reclaims: int = 0
    churn_reclaim_max_ms: float | None = None


# ------------------------------------------------------------------ clients


class SeatTerminal(asyncssh.SSHClientSession[bytes]):
    """One client terminal, emulating nothing: when a text arrives in the bytes it receives."""

    def __init__(self) -> None:
        self._tail = b""
        self._want = b""
        self.arrived: asyncio.Future[float] | None = None
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None

    def data_received(self, data: bytes, datatype: object) -> None:
        arrived = self.arrived
        if arrived is None or arrived.done():
            return
        seen = self._tail + data
        if self._want in seen:
            arrived.set_result(time.perf_counter())
        else:
            self._tail = seen[-len(self._want) :]

    def expect(self, text: bytes) -> asyncio.Future[float]:
        """Start watching for ``text``; the future holds the time it arrived (``time.perf_counter``,
        the same clock in every process of the machine)."""
        self._tail = b""
        self._want = text
        self.arrived = asyncio.get_running_loop().create_future()
        return self.arrived


async def connect_seat(
    port: int, key: asyncssh.SSHKey, ready: bytes
) -> tuple[asyncssh.SSHClientConnection, SeatTerminal]:
    """A terminal at the table, once it shows ``ready``."""
    conn = await asyncssh.connect("127.0.0.1", port, username="bench", client_keys=[key], **_CLIENT_OPTIONS)
    terminal = SeatTerminal()
    shown = terminal.expect(ready)
    chan, _ = await conn.create_session(lambda: terminal, term_type="xterm-256color", term_size=_SIZE, encoding=None)
    terminal.chan = chan
    await shown
    return conn, terminal


async def _connect_all(
    openers: Sequence[Callable[[], Awaitable[tuple[asyncssh.SSHClientConnection, SeatTerminal]]]],
) -> list[tuple[asyncssh.SSHClientConnection, SeatTerminal]]:
    gate = asyncio.Semaphore(_AT_ONCE)

    async def one(opener):
        async with gate:
            return await opener()

    return await asyncio.wait_for(asyncio.gather(*(one(o) for o in openers)), _CONNECT_TIMEOUT_S)


async def _spectators_main(port: int, key_path: Path, count: int) -> int:
    """A process of spectators' clients (``--watch``): told on stdin what to look for, it answers on stdout.

    ``expect TEXT`` -> ``armed CPU``, then, once every spectator has it, ``{"cpu": ..., "times": [...]}``;
    ``quit`` (or the end of stdin) ends it.
    """
    key = asyncssh.read_private_key(key_path)
    seated = await _connect_all([lambda: connect_seat(port, key, _SPECTATOR_READY)] * count)
    loop = asyncio.get_running_loop()
    commands = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(commands), sys.stdin)
    print("ready", flush=True)
    while line := (await commands.readline()).decode().strip():
        word, _, text = line.partition(" ")
        if word != "expect":
            break
        watches = [terminal.expect(text.encode()) for _conn, terminal in seated]
        print(f"armed {time.process_time()}", flush=True)
        times = await asyncio.wait_for(asyncio.gather(*watches), _TIMEOUT_S)
        print(json.dumps({"cpu": time.process_time(), "times": times}), flush=True)
    for conn, _terminal in seated:
        conn.abort()
    return 0


class _Spectators:
    """The spectators' client processes, from the bench's side."""

    def __init__(self, procs: list[asyncio.subprocess.Process]) -> None:
        self.procs = procs

    @classmethod
    async def start(cls, port: int, key_path: Path, count: int, processes: int) -> _Spectators:
        shares = [count // processes + (i < count % processes) for i in range(processes)]
        procs = [
            await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tui.bench.ssh",
                "--watch",
                str(port),
                str(key_path),
                str(share),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
            )
            for share in shares
            if share
        ]
        spectators = cls(procs)
        replies = await asyncio.wait_for(asyncio.gather(*(spectators._read(p) for p in procs)), _CONNECT_TIMEOUT_S)
        if any(r != "ready" for r in replies):
            raise RuntimeError(f"the spectators' clients did not connect: {replies}")
        return spectators

    async def _read(self, proc: asyncio.subprocess.Process) -> str:
        assert proc.stdout is not None
        line = (await proc.stdout.readline()).decode().strip()
        if not line:
            raise RuntimeError("a spectators' client process stopped")
        return line

    async def expect(self, text: str) -> float:
        """Arm every spectator for ``text``; their processes' CPU seconds so far."""
        for proc in self.procs:
            assert proc.stdin is not None
            proc.stdin.write(f"expect {text}\n".encode())
        armed = await asyncio.wait_for(asyncio.gather(*(self._read(p) for p in self.procs)), _TIMEOUT_S)
        return sum(float(a.split()[1]) for a in armed)

    async def arrivals(self) -> tuple[float, list[float]]:
        """Their processes' CPU seconds, and when each spectator showed the text."""
        got = [json.loads(r) for r in await asyncio.gather(*(self._read(p) for p in self.procs))]
        return sum(g["cpu"] for g in got), [t for g in got for t in g["times"]]

    async def stop(self) -> None:
        for proc in self.procs:
            if proc.stdin is not None:
                proc.stdin.close()
        for proc in self.procs:
            try:
                await asyncio.wait_for(proc.wait(), _TIMEOUT_S)
            except TimeoutError:
                proc.kill()


async def _churn(
    port: int,
    keys: Sequence[asyncssh.SSHKey],
    seated: list[tuple[asyncssh.SSHClientConnection, SeatTerminal]],
    rounds: int,
) -> list[float]:
    """The seats after the referee's (``seated[1:]``) leave in turn and come back, ``rounds`` departures, while the
    referee types notes: each note's time to every other seat seated as it was given.  ``seated`` is kept up to date
    (the connections the bench closes at the end)."""
    referee = seated[0][1]
    present = dict(enumerate(seated))
    del present[0]
    returns: list[asyncio.Task[None]] = []

    async def come_back(i: int) -> None:
        await asyncio.sleep(_CHURN_AWAY_S)
        present[i] = seated[i] = await connect_seat(port, keys[i], f"s{i} (".encode())

    times: list[float] = []
    departures, next_departure = 0, time.monotonic()
    while departures < rounds or not all(r.done() for r in returns):
        # Between two notes only: no seat leaves while a note it is watched for is on its way.
        i = 1 + departures % (len(seated) - 1)
        if departures < rounds and time.monotonic() >= next_departure and i in present:
            present.pop(i)[0].abort()
            returns.append(asyncio.create_task(come_back(i)))
            departures += 1
            next_departure += _CHURN_EVERY_S
        marker = f"churn{len(times):04d}q"
        assert referee.chan is not None
        typed = referee.expect(marker.encode())
        referee.chan.write(f"note {marker}".encode())
        await asyncio.wait_for(typed, _TIMEOUT_S)
        watches = [terminal.expect(marker.encode()) for _conn, terminal in present.values()]
        watches = watches or [referee.expect(f"note: {marker}".encode())]
        start = time.perf_counter()
        referee.chan.write(b"\r")
        times.append((max(await asyncio.wait_for(asyncio.gather(*watches), _TIMEOUT_S)) - start) * 1000)
        await asyncio.sleep(_CHURN_TYPING_S)
    await asyncio.gather(*returns)  # (their errors, if any)
    return times


def _logged_during(log: Path, pattern: re.Pattern[str], start: float, end: float, group: str = "ms") -> list[float]:
    """The milliseconds (``group``) of each line of the server's log that ``pattern`` matches, logged between
    ``start`` and ``end`` (``time.time``)."""
    found = []
    for line in log.read_text(encoding="utf-8").splitlines():
        if (m := pattern.match(line)) is not None:
            at = calendar.timegm(time.strptime(m["at"][:19], "%Y-%m-%dT%H:%M:%S")) + float(m["at"][19:] or 0)
            if start <= at <= end:
                found.append(float(m[group]))
    return found


# ------------------------------------------------------------------- server


async def wait_settled(log: Path, n_seated: int) -> None:
    """Wait until the server's log says its heap settled after the last of ``n_seated`` sat down."""
    deadline = time.monotonic() + _CONNECT_TIMEOUT_S
    while time.monotonic() < deadline:
        lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
        # Each process that seats players (the server, or each of its seat workers) settles its own heap.
        last_seated: dict[str, int] = {}
        settled: dict[str, int] = {}
        for i, line in enumerate(lines):
            if found := _EVENT.search(line):
                (last_seated if found["what"] == "seated" else settled)[found["worker"] or ""] = i
        if sum(" seated " in line for line in lines) >= n_seated and all(
            settled.get(worker, -1) > i for worker, i in last_seated.items()
        ):
            return
        await asyncio.sleep(0.2)
    raise TimeoutError(f"the server did not settle its heap within {_CONNECT_TIMEOUT_S:.0f} s")


async def wait_quiet(pid: int) -> None:
    """Wait until the server is idle (the seats have drawn their first screens), at most a while."""
    deadline = time.monotonic() + _TIMEOUT_S
    while time.monotonic() < deadline:
        cpu = procfs.cpu_s(pid)
        await asyncio.sleep(_QUIET_WINDOW_S)
        if procfs.cpu_s(pid) - cpu < _QUIET_CPU * _QUIET_WINDOW_S:
            return


async def start_server(
    folder: Path, save: Path, seats_file: Path, workers: int, spectators: int, web: bool = False
) -> tuple[asyncio.subprocess.Process, int, int]:
    # The bench's own limits (docs/ssh.md, *Running on a public address*): every client
    # connects from 127.0.0.1, many at once, and the spectators share one seat's key.
    at_once = 4 * _AT_ONCE
    limits = ["--max-unauth-per-address", str(at_once), "--max-unauth", str(at_once)]
    limits += ["--max-unauth-start", str(at_once)]  # no random early drop of its own clients
    limits += ["--terminals-per-seat", str(max(4, spectators))]
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tui.main",
        "serve",
        "--port",
        "0",
        "--seats",
        str(seats_file),
        "--workers",
        str(workers),
        *limits,
        *(["--web", "0"] if web else []),
        str(save),
        # Its data and its state (serve.log, which the bench reads) in the bench's folder (core.folders).
        # And its seat workers log their loops' longest turns (tui.ssh.workers.worker), for the churn's.
        env={
            **os.environ,
            "FIRETEAM_DATA_DIR": str(folder / "data"),
            "FIRETEAM_STATE_DIR": str(folder / "data"),
            LOG_TURNS_ENV: "1",
        },
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        cwd=folder,
    )
    assert proc.stdout is not None
    out = ""
    # The last line it prints before it takes players names the command that invites them.
    while "fireteam invite" not in out:
        line = await asyncio.wait_for(proc.stdout.readline(), _TIMEOUT_S)
        if not line:
            raise RuntimeError(f"the server did not start:\n{out}")
        out += line.decode()
    found = re.search(r"listening on [\d.]+:(\d+)", out)
    web_port = re.search(r"browser seats on [\d.]+:(\d+)", out)
    assert found is not None, out
    return proc, int(found.group(1)), int(web_port.group(1)) if web_port else 0


# --------------------------------------------------------------------- run


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1)


async def bench(
    n_seats: int,
    n_spectators: int,
    n_commands: int,
    workers: int,
    processes: int = 2,
    n_web: int = 0,
    churn: int = 0,
) -> Result:
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="fireteam-ssh-bench-") as tmp:
        folder = Path(tmp)
        keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(n_seats + n_web)]
        watcher = asyncssh.generate_private_key("ssh-ed25519")
        (folder / "watcher").write_bytes(watcher.export_private_key())
        seats_toml = []
        for i, key in enumerate(keys):
            # Browser seats (w0, w1...) take the roles after the SSH seats', in the same turn.
            name = f"s{i}" if i < n_seats else f"w{i - n_seats}"
            role = "referee" if i == 0 else _ROLES[(i - 1) % len(_ROLES)]
            public = key.export_public_key().decode().strip()
            seats_toml.append(f'[[seat]]\nname = "{name}"\nrole = "{role}"\nkeys = ["{public}"]\n')
        public = watcher.export_public_key().decode().strip()
        seats_toml.append(f'[[seat]]\nname = "watchers"\nrole = "spectator"\nkeys = ["{public}"]\n')
        (folder / "seats.toml").write_text("\n".join(seats_toml))
        game = Game.new(folder / "bench.ft", "breaking-news", seed=1)
        game.execute("scenario demo", role=REFEREE)
        game.close()

        save, log = folder / "bench.ft", folder / "data" / LOG_NAME
        (folder / "data").mkdir(mode=0o700)
        tokens = web_seats.invite(folder / "data", [f"w{i}" for i in range(n_web)]) if n_web else []
        proc, port, web_port = await start_server(
            folder, save, folder / "seats.toml", workers, n_spectators, web=bool(n_web)
        )
        conns: list[asyncssh.SSHClientConnection] = []
        browsers: list[web_seats.BrowserSeat] = []
        spectators: _Spectators | None = None
        try:
            await asyncio.sleep(0.5)
            rss_idle = procfs.rss_mb(proc.pid)
            # Seated: each terminal shows its seat's name on the command line.
            seated = await _connect_all(
                [partial(connect_seat, port, key, f"s{i} (".encode()) for i, key in enumerate(keys[:n_seats])]
            )
            conns = [c for c, _ in seated]
            seats = [s for _, s in seated]
            # The server settles its heap once the seats stop coming (tui.ssh.workers.heap): measure after that.
            await wait_settled(log, n_seats)
            await wait_quiet(proc.pid)
            rss_seated = rss_with_web = procfs.rss_mb(proc.pid)
            if n_web:
                browsers = await web_seats.seat_browsers(web_port, tokens)
                await asyncio.wait_for(
                    asyncio.gather(*(b.expect(f"w{i} (", already=True) for i, b in enumerate(browsers))), _TIMEOUT_S
                )
                await wait_settled(log, n_seats + n_web)
                await wait_quiet(proc.pid)
                rss_with_web = procfs.rss_mb(proc.pid)
            if n_spectators:
                spectators = await _Spectators.start(port, folder / "watcher", n_spectators, processes)
                await wait_settled(log, n_seats + n_web + n_spectators)
                await wait_quiet(proc.pid)
            rss_watched = procfs.rss_mb(proc.pid)

            referee, others = seats[0], seats[1:]
            all_ms: list[float] = []
            seat_ms: list[float] = []
            watched_ms: list[float] = []
            web_ms: list[float] = []
            cpu_by_process: dict[int, float] = {}
            client_cpu = 0.0
            for k in range(n_commands):
                marker = f"bench{k:04d}q"
                assert referee.chan is not None
                typed = referee.expect(marker.encode())
                referee.chan.write(f"note {marker}".encode())
                await asyncio.wait_for(typed, _TIMEOUT_S)  # the line is typed; only Enter is timed
                watches = [s.expect(marker.encode()) for s in others] + [b.expect(marker) for b in browsers]
                watches = watches or [referee.expect(f"note: {marker}".encode())]
                their_cpu = await spectators.expect(marker) if spectators else 0.0
                cpu_start = procfs.cpu_by_process(proc.pid)
                own_cpu = time.process_time()
                start = time.perf_counter()
                referee.chan.write(b"\r")
                arrivals = await asyncio.wait_for(asyncio.gather(*watches), _TIMEOUT_S)
                if spectators:
                    their_end, watched = await asyncio.wait_for(spectators.arrivals(), _TIMEOUT_S)
                    client_cpu += their_end - their_cpu
                    watched_ms.append((max(watched) - start) * 1000)
                client_cpu += time.process_time() - own_cpu
                for p, seconds in procfs.cpu_by_process(proc.pid).items():
                    cpu_by_process[p] = cpu_by_process.get(p, 0.0) + seconds - cpu_start.get(p, 0.0)
                seat_ms += [(t - start) * 1000 for t in arrivals]
                web_ms += [(t - start) * 1000 for t in arrivals[len(arrivals) - n_web :]] if n_web else []
                all_ms.append((max(arrivals) - start) * 1000)
            churn_ms: list[float] = []
            turns_ms: list[float] = []
            turns_cpu_ms: list[float] = []
            reclaims_ms: list[float] = []
            if churn and n_seats > 1:
                began = time.time()
                churn_ms = await _churn(port, keys, seated, churn)
                conns = [c for c, _ in seated]
                # A turn is logged at the end of the second it falls in.
                turns_ms = _logged_during(log, _TURN, began, time.time() + 1)
                turns_cpu_ms = _logged_during(log, _TURN, began, time.time() + 1, "cpu")
                reclaims_ms = _logged_during(log, _RECLAIM, began, time.time())
        finally:
            if spectators is not None:
                await spectators.stop()
            for browser in browsers:
                await browser.close()
            for conn in conns:
                conn.abort()
            proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), _TIMEOUT_S)
    server_cpu = sum(cpu_by_process.values())
    return Result(
        seats=n_seats,
        spectators=n_spectators,
        workers=workers,
        commands=n_commands,
        all_median_ms=round(statistics.median(all_ms), 1),
        all_p95_ms=_p95(all_ms),
        all_max_ms=round(max(all_ms), 1),
        seat_median_ms=round(statistics.median(seat_ms), 1),
        spectator_median_ms=round(statistics.median(watched_ms), 1) if watched_ms else None,
        spectator_p95_ms=_p95(watched_ms) if watched_ms else None,
        spectator_max_ms=round(max(watched_ms), 1) if watched_ms else None,
        server_cpu_ms=round(server_cpu * 1000 / n_commands, 1),
        cpu_per_seat_ms=round(server_cpu * 1000 / (n_commands * (n_seats + n_web)), 1),
        busiest_cpu_ms=round(max(cpu_by_process.values()) * 1000 / n_commands, 1),
        client_cpu_ms=round(client_cpu * 1000 / n_commands, 1),
        server_rss_idle_mb=round(rss_idle, 1),
        server_rss_seated_mb=round(rss_seated, 1),
        server_rss_watched_mb=round(rss_watched, 1),
        per_seat_mb=round((rss_seated - rss_idle) / n_seats, 2),
        per_spectator_mb=round((rss_watched - rss_with_web) / n_spectators, 3) if n_spectators else None,
        load_1m=round(load, 2),
        web_seats=n_web,
        web_seat_median_ms=round(statistics.median(web_ms), 1) if web_ms else None,
        per_web_seat_mb=round((rss_with_web - rss_seated) / n_web, 2) if n_web else None,
        churn=churn,
        churn_median_ms=round(statistics.median(churn_ms), 1) if churn_ms else None,
        churn_max_ms=round(max(churn_ms), 1) if churn_ms else None,
        churn_turn_ms=round(max(turns_ms), 1) if turns_ms else None,
        churn_turn_cpu_ms=round(max(turns_cpu_ms), 1) if turns_cpu_ms else None,
        churn_reclaims=len(reclaims_ms),
        churn_reclaim_max_ms=max(reclaims_ms) if reclaims_ms else None,
    )


def _table(results: list[Result]) -> str:
    def ms(value: float | None) -> str:
        return "—" if value is None else f"{value:.0f}"

    lines = [
        "workers | seats | spectators | → every seat, median (p95) ms | → every spectator, median (p95) ms"
        " | server CPU ms/command (busiest process) | clients' CPU ms/command | MB per seat | MB per spectator"
        " | load"
    ]
    for r in results:
        lines.append(
            f"{r.workers:>7} | {r.seats:>5} | {r.spectators:>10} | {ms(r.all_median_ms):>19} ({ms(r.all_p95_ms)}) |"
            f" {ms(r.spectator_median_ms):>24} ({ms(r.spectator_p95_ms)}) |"
            f" {r.server_cpu_ms:>30.0f} ({r.busiest_cpu_ms:.0f}) | {r.client_cpu_ms:>23.0f} |"
            f" {r.per_seat_mb:>11.2f} | {'—' if r.per_spectator_mb is None else f'{r.per_spectator_mb:.3f}':>16}"
            f" | {r.load_1m:.1f}"
        )
    for r in results:
        if r.churn_max_ms is not None:
            turn = (
                ""
                if r.churn_turn_ms is None
                else f"; a worker's loop turned in {r.churn_turn_ms:.0f} ms at most"
                f" ({r.churn_turn_cpu_ms:.0f} ms of CPU at most)"
            )
            reclaims = f"; {r.churn_reclaims} reclaims of a worker's heap" + (
                f", the longest {r.churn_reclaim_max_ms:.0f} ms" if r.churn_reclaim_max_ms is not None else ""
            )
            lines.append(
                f"{r.workers} workers, {r.seats} seats, {r.churn} departures and returns: → every seat"
                f" {r.churn_median_ms:.0f} ms median, {r.churn_max_ms:.0f} ms the slowest{turn}{reclaims}"
            )
    for r in results:
        if r.web_seats:
            lines.append(
                f"{r.workers} workers, {r.seats} SSH seats and {r.web_seats} browser seats: → a browser seat"
                f" {r.web_seat_median_ms:.1f} ms (median; any seat {r.seat_median_ms:.1f});"
                f" {r.per_web_seat_mb:.2f} MB per browser seat ({r.per_seat_mb:.2f} per SSH seat)"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tui.bench.ssh", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[1, 8, 32], help="numbers of players' seats to try")
    parser.add_argument(
        "--spectators", type=int, nargs="+", default=[0], help="numbers of spectators to try with each (default 0)"
    )
    parser.add_argument("--commands", type=int, default=20, help="commands timed per run")
    parser.add_argument(
        "--workers",
        type=int,
        nargs="+",
        default=[default_workers()],
        help="seat worker processes to try, each with every number of seats (0: all seats in one process; "
        "default: one per core, as fireteam serve)",
    )
    parser.add_argument(
        "--client-processes", type=int, default=2, help="processes the spectators' clients are spread over (2)"
    )
    parser.add_argument(
        "--web", type=int, default=0, metavar="M", help="also seat M browsers at the table, after the SSH seats"
    )
    parser.add_argument(
        "--churn",
        type=int,
        default=3,
        metavar="K",
        help="then time notes while the seats but the referee's leave and come back, K departures (3)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--watch", nargs=3, metavar=("PORT", "KEY", "COUNT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.watch:  # a spectators' client process of a run
        port, key, count = args.watch
        return asyncio.run(_spectators_main(int(port), Path(key), int(count)))
    if min(args.seats) < 1 or min(args.spectators) < 0 or args.client_processes < 1:
        parser.error("at least one seat (the referee types), no fewer than 0 spectators, at least one client process")
    results = [
        asyncio.run(bench(n, s, args.commands, w, args.client_processes, args.web, args.churn))
        for w in args.workers
        for n in args.seats
        for s in args.spectators
    ]
    print(json.dumps([asdict(r) for r in results], indent=1) if args.json else _table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
