"""Benchmark of a window-change flood: how long another seat's command takes while one client sends thousands a second.

    .venv/bin/python -m tui.bench.resize_flood                          # 20,000 a second, one seat worker
    .venv/bin/python -m tui.bench.resize_flood --rate 2500 --workers 0 --commands 30

It starts the real server (``fireteam serve``, as ``tui.bench.ssh`` does, in
a temporary folder) with two seats: the referee, whose commands are timed,
and a side whose client floods the server with window-change requests from a
process of its own, as an attacker would: it sends ``--rate`` a second, and
when the server disconnects it, it logs in again and goes on.  With one seat
worker (the default) both seats share its event loop, the case where the
flood's cost falls on the other seat.  In one run it times the referee's
``note`` commands (from Enter to the note on his own screen) with no flood,
during the flood, and after it, and prints each's mean, median and worst,
with what the flooder managed to send and how often it was disconnected
(docs/ssh.md, *Running on a public address*).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

from core.game import Game
from core.log.views import REFEREE
from tui.bench.ssh import SeatTerminal, connect_seat, start_server, wait_quiet, wait_settled
from tui.ssh.host.serverlog import LOG_NAME

_TIMEOUT_S = 120.0
#: How often the flooder sends what is due (a client sending as it can, in small batches).
_TICK_S = 0.005


async def _flood(port: int, key_path: Path, rate: float) -> int:
    """The flooding client (``--flooder``): prints ``flooding`` once seated the first time, then,
    when its stdin closes, ``{"sent": N, "disconnected": M}``."""
    # A write to a connection the server has reset is what it expects: not worth a line each.
    logging.getLogger("asyncio").setLevel(logging.ERROR)
    key = asyncssh.read_private_key(key_path)
    sent = disconnected = 0
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    stdin = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdin), sys.stdin)

    async def until_stdin_closes() -> None:
        await stdin.read()
        stop.set()

    watcher = asyncio.ensure_future(until_stdin_closes())
    first = True
    while not stop.is_set():
        try:
            conn, terminal = await asyncio.wait_for(connect_seat(port, key, b"s1 ("), _TIMEOUT_S)
        except (OSError, asyncssh.Error, TimeoutError):
            await asyncio.sleep(0.1)  # refused (its address under penalty): try again
            continue
        if first:
            print("flooding", flush=True)
            first = False
        chan = terminal.chan
        assert chan is not None
        start, batch = time.perf_counter(), 0
        try:
            while not stop.is_set() and not chan.is_closing():
                due = int((time.perf_counter() - start) * rate) - batch
                for _n in range(due):
                    chan.change_terminal_size(80 + (sent + _n) % 40, 30)
                sent, batch = sent + due, batch + due
                await asyncio.sleep(_TICK_S)
        except (OSError, asyncssh.Error):
            pass
        if not stop.is_set():
            disconnected += 1
        conn.abort()
    watcher.cancel()
    print(json.dumps({"sent": sent, "disconnected": disconnected}), flush=True)
    return 0


async def _timed(referee: SeatTerminal, tag: str, n: int) -> list[float]:
    """Seconds from Enter to the note on the referee's screen, for ``n`` commands."""
    out = []
    assert referee.chan is not None
    for k in range(n):
        marker = f"{tag}{k:04d}q"
        typed = referee.expect(marker.encode())
        referee.chan.write(f"note {marker}".encode())
        await asyncio.wait_for(typed, _TIMEOUT_S)
        shown = referee.expect(f"note: {marker}".encode())
        start = time.perf_counter()
        referee.chan.write(b"\r")
        out.append(await asyncio.wait_for(shown, _TIMEOUT_S) - start)
    return out


async def bench(rate: float, n_commands: int, workers: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="fireteam-flood-bench-") as tmp:
        folder = Path(tmp)
        keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]
        seats = [
            f'[[seat]]\nname = "s{i}"\nrole = "{role}"\nkeys = ["{key.export_public_key().decode().strip()}"]\n'
            for i, (key, role) in enumerate(zip(keys, ("referee", "regulars"), strict=True))
        ]
        (folder / "seats.toml").write_text("\n".join(seats))
        (folder / "flooder").write_bytes(keys[1].export_private_key())
        game = Game.new(folder / "bench.ft", "breaking-news", seed=1)
        game.execute("scenario demo", role=REFEREE)
        game.close()
        (folder / "data").mkdir(mode=0o700)
        log = folder / "data" / LOG_NAME
        proc, port, _web = await start_server(folder, folder / "bench.ft", folder / "seats.toml", workers, 0)
        flooder: asyncio.subprocess.Process | None = None
        conn = None
        try:
            conn, referee = await connect_seat(port, keys[0], b"s0 (")
            await wait_settled(log, 1)
            await wait_quiet(proc.pid)
            quiet = await _timed(referee, "quiet", n_commands)
            flooder = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tui.bench.resize_flood",
                "--flooder",
                str(port),
                str(folder / "flooder"),
                str(rate),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
            )
            assert flooder.stdout is not None and flooder.stdin is not None
            said = await asyncio.wait_for(flooder.stdout.readline(), _TIMEOUT_S)
            if said.strip() != b"flooding":
                raise RuntimeError(f"the flooding client did not log in: {said!r}")
            flooded = await _timed(referee, "flood", n_commands)
            flooder.stdin.close()
            totals = json.loads(await asyncio.wait_for(flooder.stdout.readline(), _TIMEOUT_S))
            await flooder.wait()
            after = await _timed(referee, "after", n_commands)
        finally:
            if flooder is not None and flooder.returncode is None:
                flooder.kill()
            if conn is not None:
                conn.abort()
            proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), _TIMEOUT_S)

    def figures(times: list[float]) -> dict[str, float]:
        ms = [t * 1000 for t in times]
        return {
            "mean_ms": round(statistics.mean(ms), 1),
            "median_ms": round(statistics.median(ms), 1),
            "max_ms": round(max(ms), 1),
        }

    return {
        "rate": rate,
        "workers": workers,
        "commands": n_commands,
        "quiet": figures(quiet),
        "flood": figures(flooded),
        "after": figures(after),
        **totals,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tui.bench.resize_flood", description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=20_000, help="window changes a second the flooder sends")
    parser.add_argument("--commands", type=int, default=20, help="commands timed quiet, during and after the flood")
    parser.add_argument(
        "--workers", type=int, default=1, help="seat worker processes (0: all seats in the server's own process)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--flooder", nargs=3, metavar=("PORT", "KEY", "RATE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.flooder:
        port, key, rate = args.flooder
        return asyncio.run(_flood(int(port), Path(key), float(rate)))
    result = asyncio.run(bench(args.rate, args.commands, args.workers))
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    for name in ("quiet", "flood", "after"):
        f = result[name]
        assert isinstance(f, dict)
        print(f"{name:>6}: mean {f['mean_ms']:.0f} ms, median {f['median_ms']:.0f} ms, worst {f['max_ms']:.0f} ms")
    print(
        f"the flooder sent {result['sent']} window changes at {args.rate:g} a second"
        f" and was disconnected {result['disconnected']} times"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
