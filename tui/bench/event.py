"""``fireteam bench --event``: a 64-player, 5-round Swiss and a 16-player round robin, paired from their files.

Each event is made as an organiser makes it (a club of SSH keys made by ``ssh-keygen``, a league,
``event new``, every player entered with the organiser's signature), on Ludonet's *Tanks at Cagny*
(two sides: british, german).  Each round is paired by ``fireteam event pair`` (the file read and
re-checked under its lock, the engine run, the pairing appended, synced), then every table's
game is decided by a seeded model (a strength per player, 0.3 in the first side's favour on the
logistic scale, one game in ten drawn) and recorded as the event records a certified game; the
games are certificates the model writes, not saves played (``event add``'s check of a save is the
league's, timed by ``fireteam bench --league``).  Printed:

* ``rematches`` (target 0), ``worst_sides`` (the largest |first − second| of any player; target ≤ 1),
  ``most_byes`` (target ≤ 1);
* ``pair_max_s``, ``pair_cpu_max_s``: the slowest round's ``fireteam event pair``, wall and CPU,
  as the organiser runs it: a process of its own, its start and imports included (target ≤ 2 s);
  ``engine_max_s``, ``engine_cpu_max_s``: the slowest round's engine call alone (its share);
* ``engine_same``: rounds whose tables are the engine's own pairing of the same file (its call
  made again here from the records before the round), and ``sides_turned``: tables where the
  sides-within-one rule turned the engine's colours;
* ``trf_same``: rounds that caissify's Free Pairings Checker (its Dutch run over the event's TRF16
  export, ``core.event.trf``) pairs as the engine does from the same results without the sides
  rule (TRF16 cannot carry it; target: every round), and ``trf_as_file``: as the file holds them
  (a round the rule changed differs).

The league scores a win 2, a draw 1, a loss 0, a bye 2: the TRF's own scale, so the cross-check
counts points as the event does.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.event.records import Played

PAIR_TARGET_S = 2.0


def _given(record: Played, _event: object) -> Played:
    """``record``, whatever the event: what ``eventfile.append`` asks for, a maker of the record."""
    return record


def _cpu(who: int) -> float:
    """CPU seconds used so far by this process (``RUSAGE_SELF``) or its children waited for."""
    used = resource.getrusage(who)
    return used.ru_utime + used.ru_stime


def modelled_game(event: Any, table: Any, rng: random.Random, strength: dict[str, float], n: int) -> Any:
    """A certificate the model decides, recorded in the event's league as ``league add`` records a
    game (no signature: no save behind it), since an event counts only a game its league holds."""
    from core.event.league import LeagueGame
    from core.league.certificate import Certificate, Checked, Player
    from core.league.records import LeagueHeader, decode_record
    from core.storage import journal

    o = event.opened
    first, second = o.sides
    p_first = 1 / (1 + math.exp(-(strength[table.a] - strength[table.b] + 0.3)))
    roll = rng.random()
    draw = roll < 0.1
    winner = "" if draw else first if roll < 0.1 + 0.9 * p_first else second
    players = (Player(first, table.a, event.player(table.a).key), Player(second, table.b, event.player(table.b).key))
    cert = Certificate(
        fireteam_result=1,
        game=hashlib.sha256(f"{o.salt}:{n}".encode()).hexdigest(),
        ruleset=o.ruleset,
        ruleset_version="",
        variant="",
        engine="bench",
        scenario=o.title,
        players=players,
        winner=winner,
        draw=draw,
        scores={first: 0, second: 0},
        checked=Checked(0, 0, 0, 0, 0),
        save_sha256=hashlib.sha256(f"{o.salt}:{n}:save".encode()).hexdigest(),  # (one save a game)
        ended_at=0,
    )
    game = LeagueGame(certificate=cert.encoded().decode(), signed=(), players={first: table.a, second: table.b})
    journal.append(
        event.league.path,
        partial(journal.read, header_type=LeagueHeader, decode=decode_record),
        lambda _j: [game],
        decode_record,
    )
    return game


def run_one(folder: Path, system: str, players: int, rounds: int, seed: int) -> dict[str, Any]:
    importlib.import_module("networkx")  # the engine's, imported before its clock: the command's is in its own

    from core.event import eventfile, pairing
    from core.event.records import Played
    from tui.bench.event_tables import club  # (the club both benches make)

    league, org, names = club(folder, players)
    path = folder / f"{system}.event"
    path.unlink(missing_ok=True)
    eventfile.new(
        path, league, org, name=system, system=system, rounds=rounds,
        ruleset="ludonet", scenario="tanks", minutes=0, bye=None, seeding="random",
    )  # fmt: skip
    for name in names:
        eventfile.enter(path, name, org)
    rng = random.Random(seed)
    strength = {name: rng.gauss(0, 1) for name in names}
    walls, cpus, engine_walls, engine_cpus, turned, same, n = [], [], [], [], 0, 0, 0
    command = [str(Path(sys.executable).with_name("fireteam")), "event", "pair", str(path)]
    for _round in range(rounds):
        before = eventfile.load(path)
        # ``fireteam event pair`` as the organiser runs it: its own process, its start included.
        wall, cpu = time.perf_counter(), _cpu(resource.RUSAGE_CHILDREN)
        subprocess.run(command, check=True, capture_output=True, env={**os.environ, "LANG": "C.UTF-8"})
        walls.append(time.perf_counter() - wall)
        cpus.append(_cpu(resource.RUSAGE_CHILDREN) - cpu)
        event = eventfile.load(path)
        rnd = event.current
        assert rnd is not None
        # the engine's own call again from the records before the round: its share of the command
        wall, cpu = time.perf_counter(), _cpu(resource.RUSAGE_SELF)
        boards = pairing.run_engine(pairing.engine_input(before, rnd.number))
        engine_walls.append(time.perf_counter() - wall)
        engine_cpus.append(_cpu(resource.RUSAGE_SELF) - cpu)
        engine = {(event.players_by_number(b["white_id"]), event.players_by_number(b.get("black_id"))) for b in boards}
        ours = {(t.a, t.b) for t in rnd.tables} | {(b, None) for b in rnd.byes}
        turned += len(ours - engine)
        same += {frozenset(x) for x in ours} == {frozenset(x) for x in engine}
        for t in rnd.tables:
            n += 1
            game = modelled_game(event, t, rng, strength, n)
            eventfile.append(path, partial(_given, Played(round=rnd.number, table=t.number, game=game)))
    event = eventfile.load(path)
    met = [frozenset((t.a, t.b)) for r in event.rounds for t in r.tables]
    byes = [b for r in event.rounds for b in r.byes]
    return {
        "system": system,
        "players": players,
        "rounds": rounds,
        "rematches": len(met) - len(set(met)),
        "worst_sides": max(abs(pairing.balance(event, p.name)) for p in event.players.values()),
        "most_byes": max((byes.count(b) for b in byes), default=0),
        "pair_max_s": round(max(walls), 2),
        "pair_cpu_max_s": round(max(cpus), 2),
        "pair_mean_s": round(sum(walls) / len(walls), 2),
        "engine_max_s": round(max(engine_walls), 2),
        "engine_cpu_max_s": round(max(engine_cpus), 2),
        "engine_same": f"{same}/{rounds}",
        "sides_turned": turned,
        **(_trf(path) if system == "swiss" else {"trf_same": "n/a (the checker is the Dutch engine's)"}),
    }


def _trf(path: Path) -> dict[str, str]:
    """The Free Pairings Checker over the event's TRF16 export (``core.event.trf``): the rounds it
    pairs as the engine does from the same results (without the sides rule, which TRF16 cannot
    carry), and those it pairs as the file holds them."""
    from core.event import trf

    checked = trf.cross_check(path)
    return {
        "trf_same": f"{sum(c.as_engine for c in checked)}/{len(checked)}",
        "trf_as_file": f"{sum(c.as_file for c in checked)}/{len(checked)}",
    }


def run_event_bench(folder: str | None, as_json: bool, tables: int = 32) -> int:
    """Both parts: the pairing of two events from their files, then (``tables`` > 0) a round played
    at that many real tables over a venue (``tui.bench.event_tables``)."""
    home = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="fireteam-event-"))
    home.mkdir(parents=True, exist_ok=True)
    results = []
    for system, players, rounds in (("swiss", 64, 5), ("roundrobin", 16, 15)):
        (home / system).mkdir(exist_ok=True)
        results.append(run_one(home / system, system, players, rounds, seed=2026))
    ok = all(
        r["rematches"] == 0 and r["worst_sides"] <= 1 and r["most_byes"] <= 1 and r["pair_max_s"] <= PAIR_TARGET_S
        for r in results
    )
    venue: dict[str, Any] | None = None
    if tables:
        from tui.bench.event_tables import TARGET_PAIRINGS_S, TARGET_STANDINGS_S, run_tables_bench

        venue = run_tables_bench(home / "venue", tables)
    if as_json:
        print(json.dumps({"pairing": results, "venue": venue}, indent=1))
    else:
        for r in results:
            print(" ".join(f"{k}={v}" for k, v in r.items()))
    print(
        f"targets: 0 rematches, sides within 1, at most 1 bye, a round paired in <= {PAIR_TARGET_S} s: "
        + ("met" if ok else "NOT met")
    )
    if venue is not None:
        if not as_json:
            print(" ".join(f"{k}={v}" for k, v in venue.items()))
        print(
            f"targets: the last confirmation to the relay's pairings <= {TARGET_PAIRINGS_S:.0f} s, to its standings "
            f"<= {TARGET_STANDINGS_S:.0f} s, 0 typed results: " + ("met" if venue["met"] else "NOT met")
        )
        ok = ok and venue["met"]
    return 0 if ok else 1
