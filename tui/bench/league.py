"""``fireteam bench --league``: a club's season of 400 games of 40 players, added and standings shown.

The season is made as a club would make it, in this process: each game a script played by
``fireteam script``'s own code with seeded dice (the four built-in rulesets in turn, two
players drawn from 40 and named at the table with ``players``, a result the referee records), certified
(``fireteam certify``'s code), and signed by both players with their own SSH keys
(``ssh-keygen -Y sign -n fireteam-result``, keys made with ``ssh-keygen``).  Then it times:

* ``add_p50_s``, ``add_p95_s``, ``add_max_s``: each ``league add`` (the save verified, every
  command resolved again through the rules, the certificate derived again and compared,
  both signatures checked, the league read under its lock and the game appended, synced);
* ``standings_s``: the standings of the whole season folded, ranked and fitted (a rating per
  ruleset), in each of the four formats (the slowest);
* ``add_cli_s``, ``add_cli_cpu_s``: one ``fireteam league add`` as its own process, its start included;
* then the relay's ``/standings`` of the season grown to a 60 MB league under 200 requests at once
  (``tui.bench.standings_load``): its peak memory.

Targets: ``league add`` under 1.5 s a game, standings under 2 s, the relay under 400 MB (docs/benchmark.md).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMES, PLAYERS = 400, 40
ADD_TARGET_S, STANDINGS_TARGET_S = 1.5, 2.0
#: ruleset → (its sides, the script up to its end, the referee's line that records a win, a draw).
RULESETS: dict[str, tuple[tuple[str, str], str, list[str], str, str]] = {
    "ludonet": (("british", "german"), "scenario tanks", ["next"], "victory {side} held the field", "victory draw"),
    "bassa-intensita": (
        ("convoy", "militia"),
        "scenario convoy",
        ["next"],
        "victory {side} held the road",
        "victory draw",
    ),
    "linea-di-tiro": (("german", "us"), "scenario bridge", ["next"], "result {side} held the bridge", "result draw"),
    "breaking-news": (("irregulars", "regulars"), "scenario demo", [], "", ""),
}
_BN_DEPLOY = (
    ["@irregulars deploy aden ahmed bashir civ1 civ2", "@regulars deploy rossi bianchi conti lupo"],
    ["@irregulars deploy dahir egal", "@regulars deploy greco marino ferri"],
)


def _script(ruleset: str, players: tuple[str, str], winner: int, swap: bool) -> str:
    sides, scenario, opening, win, draw = RULESETS[ruleset]
    lines = [scenario, f"players {sides[0]}={players[0]} {sides[1]}={players[1]}"]
    if ruleset == "breaking-news":
        # Breaking News' result is its final count (§14.0): a side that leaves the field is charged for it.
        first, second = _BN_DEPLOY
        order = (lambda pair: pair[::-1]) if swap else (lambda pair: pair)
        lines += ["@irregulars objective-roll", "rolloff", *order(first), *order(second)]
        lines += ["next", "next", "next"]
        if winner >= 0:
            lines.append(f"exfiltrate {sides[1 - winner]}")
        lines.append("victory")
    else:
        lines += opening
        lines.append(win.format(side=sides[winner]) if winner >= 0 else draw)
    return "\n".join(lines) + "\n"


def make_season(folder: Path, games: int = GAMES, players: int = PLAYERS) -> list[tuple[Path, tuple[str, str]]]:
    """The season's saves in ``folder`` (made once: kept there for the next run), with their players."""
    from core.cli.main import run_script

    rng = random.Random(2026)
    names = [f"player{i:02d}" for i in range(players)]
    made = []
    for n in range(games):
        ruleset = list(RULESETS)[n % len(RULESETS)]
        first, second = rng.sample(names, 2)
        pair = (first, second)
        winner = rng.choice((0, 1, 0, 1, -1))
        save = folder / f"game{n:03d}.ft"
        if not save.exists():
            for swap in (False, True):
                script = folder / f"game{n:03d}.script"
                script.write_text(_script(ruleset, pair, winner, swap), encoding="utf-8")
                quiet = io.StringIO()
                with contextlib.redirect_stderr(quiet):  # (the deployment's order tried the other way first)
                    played = run_script(script, save, 1000 + n, ruleset, "", out=quiet)
                if played == 0:
                    break
                save.unlink(missing_ok=True)
            else:
                raise RuntimeError(f"{script}: the season's script failed")
        made.append((save, pair))
    return made


def _keys(folder: Path, names: list[str]) -> Path:
    """An ed25519 key for each name (made once) and the club's allowed_signers file."""
    lines = []
    for name in names:
        key = folder / f"{name}.key"
        if not key.exists():
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(key)], check=True)
        kind, blob, *_ = key.with_suffix(".key.pub").read_text().split()
        lines.append(f"{name} {kind} {blob}")
    signers = folder / "allowed_signers"
    signers.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return signers


def _sign(folder: Path, cert: Path, name: str) -> Path:
    sig = cert.with_name(f"{cert.name}.{name}.sig")
    if not sig.exists():
        subprocess.run(
            ["ssh-keygen", "-q", "-Y", "sign", "-f", str(folder / f"{name}.key"), "-n", "fireteam-result", str(cert)],
            check=True,
            capture_output=True,
        )
        cert.with_name(cert.name + ".sig").rename(sig)
    return sig


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_league_bench(folder: Path | None, as_json: bool) -> int:
    from core.league import certificate, render, season, standings

    home = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="fireteam-league-"))
    home.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    games = make_season(home)
    names = sorted({p for _save, pair in games for p in pair} | {"organiser"})
    signers = _keys(home, names)
    signed = []
    for save, pair in games:
        cert = certificate.default_path(save)
        if not cert.exists():
            certificate.write(certificate.certify(save)[0], cert)
        signed.append((save, cert, [_sign(home, cert, p) for p in pair]))
    made_s = time.perf_counter() - started
    league = home / "club.league"
    league.unlink(missing_ok=True)
    season.new(league, "Club", signers, "organiser", (3, 1, 0), home / "organiser.key")
    times, cpu = [], []
    for save, cert, sigs in signed[:-1]:
        t0, c0 = time.perf_counter(), time.process_time()
        season.add(league, save, cert, sigs)
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    save, cert, sigs = signed[-1]
    t0, cpu0 = time.perf_counter(), _children_cpu()
    # ``fireteam league add`` as its own process: its start included.
    cli = [str(Path(sys.executable).with_name("fireteam")), "league", "add", str(league), str(save), str(cert)]
    cli += map(str, sigs)
    subprocess.run(cli, check=True, capture_output=True, env={**os.environ, "LANG": "C.UTF-8"})
    add_cli_s, add_cli_cpu_s = time.perf_counter() - t0, _children_cpu() - cpu0
    shown = {
        "text": render.text,
        "md": render.markdown,
        "json": render.as_json,
        "html": lambda table, title: render.page(table, title, "en"),
    }
    formats, formats_cpu = {}, {}
    for name, show in shown.items():
        t0, c0 = time.perf_counter(), time.process_time()
        show(standings.table(season.load(league)), "Club")
        formats[name], formats_cpu[name] = time.perf_counter() - t0, time.process_time() - c0
    times.sort()
    cpu.sort()
    add_max_s, standings_s = round(times[-1], 3), round(max(formats.values()), 3)
    figures: dict[str, object] = {
        "games": len(signed),
        "players": len(names) - 1,
        "add_p50_s": round(statistics.median(times), 3),
        "add_p95_s": round(times[int(len(times) * 0.95)], 3),
        "add_max_s": add_max_s,
        "add_cpu_p50_s": round(statistics.median(cpu), 3),
        "add_cpu_max_s": round(cpu[-1], 3),
        "add_cli_s": round(add_cli_s, 3),
        "add_cli_cpu_s": round(add_cli_cpu_s, 3),
        "standings_s": standings_s,
        "standings_cpu_s": round(max(formats_cpu.values()), 3),
        "season_made_s": round(made_s, 1),
        "load_average": round(os.getloadavg()[0], 2),
    }
    from tui.bench.standings_load import RSS_TARGET_MB, grow, run_standings_load

    big = home / "big.league"
    if not big.exists():  # (made once: its keys are the season's, kept in the folder)
        grow(league, big, home)
    load = run_standings_load(big)
    figures.update(load)
    peak_mb = load["standings_rss_peak_mb"]
    assert isinstance(peak_mb, int)
    figures["targets_met"] = add_max_s < ADD_TARGET_S and standings_s < STANDINGS_TARGET_S and peak_mb < RSS_TARGET_MB
    if as_json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
        print(f"(the season is in {home})")
    return 0
