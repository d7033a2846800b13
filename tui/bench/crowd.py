"""Benchmark of a crowd at the browser door: where thirty phones' seconds and CPU go (issue 53).

    .venv/bin/python -m tui.bench.crowd                        # 30 phones open a spectators' link at once
    .venv/bin/python -m tui.bench.crowd --players 12 --workers 2
    .venv/bin/python -m tui.bench.crowd --phones 1 --rounds 8   # one phone at a time: what one costs

It starts the real server (``fireteam serve --web 0``, as ``tui.bench.ssh``
does, in a temporary folder) and Debian's Chromium through Playwright (both
must be installed: ``apt-get install chromium``, ``pip install playwright``).
Each phone is a browser context of its own (its own cookies) at a phone's
size (390x844, two device pixels to a CSS pixel, touch), all on 127.0.0.1.
Once Chromium has finished opening their windows (a desktop Chromium loads
its address bar's suggestions page in each, for seconds: a phone's browser is
up before its owner taps), every phone opens its link at once.  Each page
says by its own clock when its terminal shows the seat (a mutation observer,
as ``tests/ssh/test_web_crowd.py``); its Navigation and Resource Timing and its
websocket's events give the steps before.

It prints, for each step, the median and the slowest phone, in seconds from
the first tap; the CPU time that Chromium's processes spent meanwhile, by kind
(the browser's own process, the pages' renderers, the renderers of Chromium's
own interface, the GPU process that composites, the network service), the
server's and the bench's own; and the median page's renderer (Chromium's
``Performance.getMetrics``: its process's CPU, its main thread's, and the
script, layout and style work on it).  The load average is printed beside:
on a shared machine every time is a share of two cores, the CPU times are not.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from core.game import Game
from core.log.views import REFEREE
from tui.bench.procfs import cpu_s
from tui.bench.ssh import start_server
from tui.ssh.invitations.store import Invitations

#: A phone as the crowd bench and the browser tests open one (a phone-sized, touch, 2x screen).
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: What a spectator's screen says once it sits (tui/screens/game.py), and a player's command line.
WATCHING = "Watching: spectators cannot give commands"
PLAYERS = (("rita", "referee"), ("reg", "regulars"), ("irr", "irregulars"))
#: The guard on a crowd's wait.
WAIT_S = 300.0
#: Chromium at rest: its processes' CPU time grows by less than this (seconds) over REST_S.
REST_CPU_S, REST_S = 0.05, 0.5

#: Run in every page before its own scripts: the websocket's events and the moment the seat shows, by the
#: page's clock; ``seated`` (the bench's) is called once the terminal's rows, displayed, hold the text.
_WATCH = """
(() => {
  const seen = (window.__crowd = { ws: {} });
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      if (!seen.ws.made) seen.ws.made = performance.now();
      this.addEventListener("open", () => { seen.ws.open ??= performance.now(); });
      this.addEventListener("message", () => { seen.ws.first ??= performance.now(); });
    }
  };
  const want = %s;
  const o = new MutationObserver(() => {
    const rows = document.querySelector(".xterm-rows");
    if (!rows || !rows.textContent.includes(want) || !rows.checkVisibility()) return;
    o.disconnect();
    seen.shown = performance.now();
    window.seated();
  });
  o.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
})();
"""
#: What a page says of itself once seated: its clock's origin, its navigation, its files, the websocket.
_TIMINGS = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const files = performance.getEntriesByType("resource").filter((r) => !r.name.includes("/ws"));
  return {
    origin: performance.timeOrigin,
    served: nav.responseEnd,
    files: Math.max(nav.responseEnd, ...files.map((r) => r.responseEnd)),
    ...window.__crowd.ws,
    shown: window.__crowd.shown,
  };
}"""
#: The steps printed, in order: (key in a page's timings, what it is).
STEPS = (
    ("origin", "the page's navigation starts"),
    ("served", "the page received"),
    ("files", "its files received (xterm.js, its script, the stylesheets)"),
    ("made", "its websocket made"),
    ("open", "its websocket open"),
    ("first", "the first frame's first bytes"),
    ("shown", "the seat shown (its terminal's rows hold it)"),
)
#: A renderer's figures kept (Chromium's Performance.getMetrics, in seconds).
METRICS = ("ProcessTime", "ThreadTime", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")


def _chromium_cpu() -> dict[str, float]:
    """CPU seconds of the Chromium processes under this one, by kind (``--type``; Chromium's own interface's
    renderers apart)."""
    proc = Path("/proc")
    children: dict[int, list[int]] = {}
    stats: dict[int, list[str]] = {}
    for entry in proc.iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                children.setdefault(int(fields[1]), []).append(int(entry.name))
                stats[int(entry.name)] = fields
    out: dict[str, float] = {}
    todo = [os.getpid()]
    while todo:
        pid = todo.pop()
        todo.extend(children.get(pid, []))
        try:
            args = (proc / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").split()
        except OSError:
            continue
        if not args or "chromium" not in args[0] or pid not in stats:
            continue
        kind = next((a.removeprefix("--type=") for a in args if a.startswith("--type=")), "browser")
        if "--top-chrome-webui" in args:
            kind = "interface"  # the address bar's suggestions, a desktop window's
        elif kind == "utility":
            kind = next((a.rsplit(".", 1)[-1] for a in args if a.startswith("--utility-sub-type=")), kind)
        cpu = (int(stats[pid][11]) + int(stats[pid][12])) / os.sysconf("SC_CLK_TCK")
        out[kind] = out.get(kind, 0.0) + cpu
    return out


async def _at_rest(limit_s: float = 60.0) -> None:
    """Wait until Chromium has done opening its windows (or ``limit_s``)."""
    before = sum(_chromium_cpu().values())
    waited = 0.0
    while waited < limit_s:
        await asyncio.sleep(REST_S)
        waited += REST_S
        now = sum(_chromium_cpu().values())
        if now - before < REST_CPU_S:
            return
        before = now


async def _crowd(browser: Any, origin: str, links: list[tuple[str, str]], server_pid: int) -> dict[str, Any]:
    """Every (token, what its page shows once seated) opened at once: the figures of one crowd."""
    loop = asyncio.get_running_loop()
    contexts, pages, sessions, seated = [], [], [], []
    for _token, shown in links:
        context = await browser.new_context(**PHONE)
        sat: asyncio.Future[None] = loop.create_future()
        await context.expose_function("seated", lambda sat=sat: sat.done() or sat.set_result(None))
        await context.add_init_script(_WATCH % json.dumps(shown))
        page = await context.new_page()
        session = await context.new_cdp_session(page)
        await session.send("Performance.enable")
        contexts.append(context)
        pages.append(page)
        sessions.append(session)
        seated.append(sat)
    try:
        await _at_rest()
        load = os.getloadavg()[0]
        chromium, server, own = _chromium_cpu(), cpu_s(server_pid), time.process_time()
        start = time.time() * 1000

        async def sit(page: Any, token: str, sat: asyncio.Future[None]) -> None:
            await page.goto(f"{origin}/join/{token}", wait_until="commit")
            await asyncio.wait_for(sat, WAIT_S)

        await asyncio.gather(*(sit(p, t, s) for p, (t, _), s in zip(pages, links, seated, strict=True)))
        after = _chromium_cpu()
        cpu = {kind: after[kind] - chromium.get(kind, 0.0) for kind in after}
        cpu["server"] = cpu_s(server_pid) - server
        cpu["bench"] = time.process_time() - own
        steps: dict[str, list[float]] = {key: [] for key, _ in STEPS}
        metrics: dict[str, list[float]] = {name: [] for name in METRICS}
        for page, session in zip(pages, sessions, strict=True):
            seen = await page.evaluate(_TIMINGS)
            for key, _ in STEPS:
                steps[key].append((seen["origin"] + (seen.get(key, 0.0) if key != "origin" else 0.0) - start) / 1000)
            got = {m["name"]: m["value"] for m in (await session.send("Performance.getMetrics"))["metrics"]}
            for name in METRICS:
                metrics[name].append(got.get(name, 0.0))
    finally:
        for context in contexts:
            await context.close()
    return {"load": load, "steps": steps, "cpu": cpu, "renderer": metrics, "pages": len(links)}


def _links(data: Path, phones: int, players: int) -> list[tuple[str, str]]:
    """The invitations' tokens: one spectators' link for every phone, or one link for each player."""
    store = Invitations(data)
    if not players:
        token, _ = store.create("", uses=phones)
        return [(token, WATCHING)] * phones
    links = []
    for i in range(players):
        seat, _role = PLAYERS[i % len(PLAYERS)]
        links.append((store.create(seat, uses=1)[0], f"{seat} ("))
    return links


async def bench(phones: int, players: int, workers: int, rounds: int) -> list[dict[str, Any]]:
    from playwright.async_api import async_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    results = []
    with tempfile.TemporaryDirectory(prefix="fireteam-crowd-bench-") as tmp:
        folder = Path(tmp)
        (folder / "data").mkdir(mode=0o700)
        # Player seats with no keys: browsers sit in them by their invitations alone.
        (folder / "seats.toml").write_text(
            "".join(f'[[seat]]\nname = "{name}"\nrole = "{role}"\nkeys = []\n' for name, role in PLAYERS)
        )
        game = Game.new(folder / "bench.ft", "breaking-news", seed=1)
        game.execute("scenario demo", role=REFEREE)
        game.close()
        proc, _port, web_port = await start_server(
            folder, folder / "bench.ft", folder / "seats.toml", workers, 0, web=True
        )
        try:
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
                try:
                    for _ in range(rounds):
                        links = _links(folder / "data", players or phones, players)
                        results.append(await _crowd(browser, f"http://127.0.0.1:{web_port}", links, proc.pid))
                finally:
                    await browser.close()
        finally:
            proc.terminate()
            await proc.wait()
    return results


def _report(results: list[dict[str, Any]]) -> str:
    lines = []
    for r in results:
        lines.append(f"{r['pages']} phones, load {r['load']:.1f} at the first tap (seconds from it: median, slowest)")
        for key, what in STEPS:
            values = r["steps"][key]
            lines.append(f"  {what:60} {statistics.median(values):6.2f} {max(values):6.2f}")
        cpu = r["cpu"]
        lines.append("  CPU seconds meanwhile: " + ", ".join(f"{k} {v:.2f}" for k, v in sorted(cpu.items())))
        lines.append(f"  ... Chromium's in all {sum(v for k, v in cpu.items() if k not in ('server', 'bench')):.2f}")
        median = {name: statistics.median(values) for name, values in r["renderer"].items()}
        lines.append("  a page's renderer (median): " + ", ".join(f"{k} {v:.3f}" for k, v in median.items()))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tui.bench.crowd", description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=30, help="phones opening a spectators' link at once (30)")
    parser.add_argument("--players", type=int, default=0, help="phones opening a player's link each instead")
    parser.add_argument("--workers", type=int, default=0, help="seat worker processes (0: the server's own)")
    parser.add_argument("--rounds", type=int, default=1, help="crowds, one after the other (1)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.phones < 1 or args.players < 0 or args.workers < 0 or args.rounds < 1:
        parser.error("at least one phone and one round; no fewer than 0 players or workers")
    results = asyncio.run(bench(args.phones, args.players, args.workers, args.rounds))
    print(json.dumps(results, indent=1) if args.json else _report(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
