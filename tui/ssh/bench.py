"""Benchmark of ``fireteam serve``: how fast a command reaches every seat, and what a seat costs.

    .venv/bin/python -m tui.ssh.bench               # 1, 8 and 32 seats
    .venv/bin/python -m tui.ssh.bench --seats 16 --commands 30 --json
    .venv/bin/python -m tui.ssh.bench --seats 16 --workers 0 2   # seats in one process, then in two workers
    .venv/bin/python -m tui.ssh.bench --seats 8 --web 8           # and 8 browser seats at the same table

For each number of seats N (and each number of seat workers) it starts the
real server (``fireteam serve`` in a child process, with its own data folder,
seats file and demo save, all in a temporary folder), connects N SSH clients
with a terminal on 127.0.0.1, waits until the server has settled (its heap
frozen, the first screens drawn), and then, one command at a time, has the
referee's seat type ``note ...``: the latency of a command is the time from
the referee pressing Enter to the moment the note's text has arrived at every
other seat's terminal.  Memory per seat is the growth of the server's
resident memory (its seat workers' included) from no seat to N seats,
divided by N.  The server's CPU time over the timed commands (its workers'
included), per command and seat, is the cost of redrawing one seat: unlike
the latencies it hardly depends on what else the machine is doing (it is
taken from Enter to the last arrival, so the typing of the command is not in
it).  The CPU time per command of the busiest process (the server, or its
busiest worker) is what parallel drawing leaves on the longest path: given a
free core per worker, no command reaches every seat faster.  The clients
run in this process, the server in its own, as they would on a club night
(the clients being the players' machines); on a small machine they take some
of the cores the workers would use.

With ``--web M`` the same table also seats M browsers (``tui.ssh.bench_web``:
each opens its invitation's link and the websocket, as a page does), after
the SSH seats have settled: their memory per seat is the growth from the
SSH seats to all seats, divided by M, and the latency to a browser seat is
measured with the SSH ones' (every seat, and each door's median).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import asyncssh

from core.game import Game
from tui.ssh import bench_web
from tui.ssh.pool import default_workers
from tui.ssh.server import LOG_NAME

#: Roles of the seats after the first (the referee), in turn.
_ROLES = ("regulars", "irregulars", "spectator")
_SIZE = (100, 40)
_TIMEOUT_S = 60.0
#: The server counts as idle once it uses under a quarter of a core over half a second
#: (idle seats still blink their cursors).
_QUIET_WINDOW_S, _QUIET_CPU = 0.5, 0.25
_EVENT = re.compile(r" INFO (?P<worker>worker=\d+ )?(?P<what>seated|heap settled)\b")


@dataclass
class Result:
    seats: int
    #: Seat worker processes (0: every seat in the server's own process).
    workers: int
    commands: int
    #: Per command, the time until every other seat showed it (ms).
    all_median_ms: float
    all_p95_ms: float
    all_max_ms: float
    #: Per command and seat, the time until that seat showed it (ms).
    seat_median_ms: float
    #: Server CPU time per command and seat (ms): what one seat's redraw costs.
    cpu_per_seat_ms: float
    #: CPU time per command of the server's busiest process (ms): with enough free
    #: cores, the latency's floor, since the processes draw in parallel.
    busiest_cpu_ms: float
    server_rss_idle_mb: float
    server_rss_seated_mb: float
    per_seat_mb: float
    #: Browser seats (``--web``), seated after the SSH ones: the median to one of them, their memory each.
    web_seats: int = 0
    web_seat_median_ms: float = 0.0
    server_rss_with_web_mb: float = 0.0
    per_web_seat_mb: float = 0.0


class _Seat(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """One player's terminal: what arrives since the last :meth:`expect`, and when the text showed."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._buffer = ""
        self._want = ""
        self.arrived: asyncio.Future[float] | None = None
        self.chan: asyncssh.SSHClientChannel[str] | None = None

    def data_received(self, data: str, datatype: object) -> None:
        self._buffer += data
        if self.arrived is not None and not self.arrived.done() and self._want in self._buffer:
            self.arrived.set_result(time.perf_counter())
        if len(self._buffer) > 1 << 16:
            self._buffer = self._buffer[-4096:]

    def expect(self, text: str) -> asyncio.Future[float]:
        """Start watching for ``text``; the future holds the time it arrived."""
        self._buffer = ""
        self._want = text
        self.arrived = self._loop.create_future()
        return self.arrived


def _tree(pid: int) -> list[int]:
    """The server and its seat workers."""
    pids = [pid]
    for p in pids:
        try:
            children = Path(f"/proc/{p}/task/{p}/children").read_text().split()
        except OSError:
            continue
        pids += map(int, children)
    return pids


def _cpu_by_process(pid: int) -> dict[int, float]:
    """CPU seconds of the server and of each of its seat workers."""
    out: dict[int, float] = {}
    for p in _tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # a worker that just ended
        out[p] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
    return out


def _cpu_s(pid: int) -> float:
    return sum(_cpu_by_process(pid).values())


async def _settled(log: Path, n_seats: int) -> None:
    """Wait until the server's log says its heap settled after the last of ``n_seats`` sat down."""
    deadline = time.monotonic() + _TIMEOUT_S
    while time.monotonic() < deadline:
        lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
        # Each process that seats players (the server, or each of its seat workers) settles its own heap.
        last_seated: dict[str, int] = {}
        settled: dict[str, int] = {}
        for i, line in enumerate(lines):
            if found := _EVENT.search(line):
                (last_seated if found["what"] == "seated" else settled)[found["worker"] or ""] = i
        if sum(" seated " in line for line in lines) >= n_seats and all(
            settled.get(worker, -1) > i for worker, i in last_seated.items()
        ):
            return
        await asyncio.sleep(0.2)
    raise TimeoutError(f"the server did not settle its heap within {_TIMEOUT_S:.0f} s")


async def _quiet(pid: int) -> None:
    """Wait until the server is idle (the seats have drawn their first screens), at most a while."""
    deadline = time.monotonic() + _TIMEOUT_S
    while time.monotonic() < deadline:
        cpu = _cpu_s(pid)
        await asyncio.sleep(_QUIET_WINDOW_S)
        if _cpu_s(pid) - cpu < _QUIET_CPU * _QUIET_WINDOW_S:
            return


def _rss_mb(pid: int) -> float:
    """Resident memory of the server and its seat workers."""
    total = 0.0
    for p in _tree(pid):
        for line in Path(f"/proc/{p}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) / 1024
    return total


async def _start_server(
    folder: Path, save: Path, seats_file: Path, workers: int, web: bool = False
) -> tuple[asyncio.subprocess.Process, int, int]:
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
        *(["--web", "0"] if web else []),
        # Every client connects from 127.0.0.1, all at once: the per-address limit is for strangers.
        "--max-unauth-per-address",
        "1000",
        "--max-unauth",
        "1000",
        "--max-unauth-start",
        "1000",
        str(save),
        env={**os.environ, "FIRETEAM_DATA_DIR": str(folder / "data")},
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


async def _connect(port: int, key: asyncssh.SSHKey) -> tuple[asyncssh.SSHClientConnection, _Seat]:
    conn = await asyncssh.connect(
        "127.0.0.1", port, username="bench", client_keys=[key], known_hosts=None, agent_path=None
    )
    seat = _Seat(asyncio.get_running_loop())
    chan, _ = await conn.create_session(lambda: seat, term_type="xterm-256color", term_size=_SIZE)
    seat.chan = chan
    return conn, seat


async def bench(n_seats: int, n_commands: int, workers: int, n_web: int = 0) -> Result:
    with tempfile.TemporaryDirectory(prefix="fireteam-ssh-bench-") as tmp:
        folder = Path(tmp)
        keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(n_seats + n_web)]
        seats_toml = []
        for i, key in enumerate(keys):
            # Browser seats (w0, w1...) take the roles after the SSH seats', in the same turn.
            name = f"s{i}" if i < n_seats else f"w{i - n_seats}"
            role = "referee" if i == 0 else _ROLES[(i - 1) % len(_ROLES)]
            public = key.export_public_key().decode().strip()
            seats_toml.append(f'[[seat]]\nname = "{name}"\nrole = "{role}"\nkeys = ["{public}"]\n')
        (folder / "seats.toml").write_text("\n".join(seats_toml))
        game = Game.new(folder / "bench.ft", "breaking-news", seed=1)
        game.execute("scenario demo")
        game.close()

        (folder / "data").mkdir(mode=0o700)
        tokens = bench_web.invite(folder / "data", [f"w{i}" for i in range(n_web)]) if n_web else []
        proc, port, web_port = await _start_server(
            folder, folder / "bench.ft", folder / "seats.toml", workers, web=bool(n_web)
        )
        conns: list[asyncssh.SSHClientConnection] = []
        browsers: list[bench_web.BrowserSeat] = []
        try:
            await asyncio.sleep(0.5)
            rss_idle = _rss_mb(proc.pid)
            seated = await asyncio.gather(*(_connect(port, key) for key in keys[:n_seats]))
            conns = [c for c, _ in seated]
            seats = [s for _, s in seated]
            # Seated: each terminal shows its seat's name on the command line.
            await asyncio.wait_for(asyncio.gather(*(s.expect(f"s{i} (") for i, s in enumerate(seats))), _TIMEOUT_S)
            # The server settles its heap once the seats stop coming (tui.ssh.heap): time after that.
            await _settled(folder / "data" / LOG_NAME, n_seats)
            await _quiet(proc.pid)
            rss_seated = rss_with_web = _rss_mb(proc.pid)
            if n_web:
                browsers = await bench_web.seat_browsers(web_port, tokens)
                await asyncio.wait_for(
                    asyncio.gather(*(b.expect(f"w{i} (", already=True) for i, b in enumerate(browsers))), _TIMEOUT_S
                )
                await _settled(folder / "data" / LOG_NAME, n_seats + n_web)
                await _quiet(proc.pid)
                rss_with_web = _rss_mb(proc.pid)
            referee, others = seats[0], [*seats[1:], *browsers]
            all_ms: list[float] = []
            seat_ms: list[float] = []
            web_ms: list[float] = []
            cpu_by_process: dict[int, float] = {}
            for k in range(n_commands):
                marker = f"bench{k:04d}q"
                assert referee.chan is not None
                typed = referee.expect(marker)
                referee.chan.write(f"note {marker}")
                await asyncio.wait_for(typed, _TIMEOUT_S)  # the line is typed; only Enter is timed
                watches = [s.expect(marker) for s in others] or [referee.expect(f"note: {marker}")]
                cpu_start = _cpu_by_process(proc.pid)
                start = time.perf_counter()
                referee.chan.write("\r")
                arrivals = await asyncio.wait_for(asyncio.gather(*watches), _TIMEOUT_S)
                for p, seconds in _cpu_by_process(proc.pid).items():
                    cpu_by_process[p] = cpu_by_process.get(p, 0.0) + seconds - cpu_start.get(p, 0.0)
                seat_ms += [(t - start) * 1000 for t in arrivals]
                web_ms += [(t - start) * 1000 for t in arrivals[len(arrivals) - n_web :]] if n_web else []
                all_ms.append((max(arrivals) - start) * 1000)
        finally:
            for browser in browsers:
                await browser.close()
            for conn in conns:
                conn.abort()
            proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), _TIMEOUT_S)
    ordered = sorted(all_ms)
    return Result(
        seats=n_seats,
        workers=workers,
        commands=n_commands,
        all_median_ms=round(statistics.median(all_ms), 1),
        all_p95_ms=round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
        all_max_ms=round(max(all_ms), 1),
        seat_median_ms=round(statistics.median(seat_ms), 1),
        cpu_per_seat_ms=round(sum(cpu_by_process.values()) * 1000 / (n_commands * (n_seats + n_web)), 1),
        busiest_cpu_ms=round(max(cpu_by_process.values()) * 1000 / n_commands, 1),
        server_rss_idle_mb=round(rss_idle, 1),
        server_rss_seated_mb=round(rss_seated, 1),
        per_seat_mb=round((rss_seated - rss_idle) / n_seats, 2),
        web_seats=n_web,
        web_seat_median_ms=round(statistics.median(web_ms), 1) if web_ms else 0.0,
        server_rss_with_web_mb=round(rss_with_web, 1),
        per_web_seat_mb=round((rss_with_web - rss_seated) / n_web, 2) if n_web else 0.0,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tui.ssh.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[1, 8, 32], help="numbers of seats to try")
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
        "--web", type=int, default=0, metavar="M", help="also seat M browsers at the table, after the SSH seats"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    results = [asyncio.run(bench(n, args.commands, w, args.web)) for w in args.workers for n in args.seats]
    if args.json:
        print(json.dumps([asdict(r) for r in results], indent=1))
        return 0
    print(
        "workers | seats | command → every seat (ms): median    p95    max | → one seat (median ms)"
        " | server CPU per seat and command (ms) | busiest process CPU per command (ms)"
        " | server RSS idle → seated (MB) | per seat (MB)"
    )
    for r in results:
        print(
            f"{r.workers:>7} | {r.seats:>5} | {r.all_median_ms:>34.1f} {r.all_p95_ms:>6.1f} {r.all_max_ms:>6.1f} |"
            f" {r.seat_median_ms:>22.1f} | {r.cpu_per_seat_ms:>36.1f} | {r.busiest_cpu_ms:>36.1f} |"
            f" {r.server_rss_idle_mb:>14.1f} → {r.server_rss_seated_mb:<12.1f} | {r.per_seat_mb:>13.2f}"
        )
    for r in results:
        if r.web_seats:
            print(
                f"{r.workers} workers, {r.seats} SSH seats and {r.web_seats} browser seats: → a browser seat"
                f" {r.web_seat_median_ms:.1f} ms (median; any seat {r.seat_median_ms:.1f});"
                f" RSS {r.server_rss_seated_mb:.1f} → {r.server_rss_with_web_mb:.1f} MB,"
                f" {r.per_web_seat_mb:.2f} MB per browser seat ({r.per_seat_mb:.2f} per SSH seat)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
