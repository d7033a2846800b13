"""``fireteam bench --client``: how fast the client starts and answers a key.

Both figures are taken on the demo save (``saves/demo-game.ft``) and on a
generated 100,000-event save (``tui.bench.engine.generate_save``), each copied into
a temporary folder first: the bench gives commands, undoes and redoes them,
and a user's save is never written.

**Start** (``start_ratio``).  Each start is a fresh ``python`` process on a
real pseudo-terminal (100x30), timed from just before the process is spawned
to its *first full frame*: for Fireteam, the first frame Textual writes after
the game screen has filled its panes (``GameScreen.refresh_game`` has run
once, so the phase, roster, log and dice panes hold the game); for the
baseline, a bare Textual app showing one widget (a line of text), its first
frame.  The child reports that moment on a pipe from Textual's
``post_display_hook`` (called once the frame has gone to the terminal
driver), with the CPU time it has used, then quits.  Both are started by the
same runner (``python -c "from tui.bench.child import start_child; …"``, a module
that imports nothing either start would not);
Fireteam's goes through ``tui.main``'s entry point, as the ``fireteam``
command does, which imports Textual where the command does (after pausing the
cycle collector): the hook is put on Textual's app as the import
ends (the bare app, as any Textual app, runs with the collector).  Compiled
modules are cached in the bench's folder (one untimed start of each fills it), as an installed program has them.  Rounds
alternate bare and Fireteam; the figure is the median of the per-round
ratios, so a machine that slows down between rounds moves both sides of each
ratio.  ``start_cpu_ratio`` is the same for the CPU time, which a loaded
machine moves less.  ``start_ratio_it`` is the demo save's start in Italian
(``--lang it``), over bare starts of its own rounds (it reads the compiled
catalogues, as every start does: ``core.language.i18n``).
The children's cache folder (``XDG_CACHE_HOME``) is in the bench's
folder, and so is the bench's own while it runs (``FIRETEAM_CACHE_DIR``), so a
user's cache is never touched: the untimed start fills the open cache
(``core.storage.opencache``), and ``start_ratio_big`` is the big save's start
with it, as a player starts the second time.
``start_ratio_big_first_open`` is the same start with the save's entry
removed before each one (its first open: a full load, the checks its first frame does
not need run once it is drawn, then the entry written; ``start_big_first_open`` holds
its CPU ratio too).  ``--starts`` times the starts alone.

**Keys** (``command_p50_ms``, ``undo_p50_ms``, ``redo_p50_ms``,
``replay_step_p50_ms``).  The app runs in this process under Textual's
Pilot, with a terminal driver that draws each frame into escape codes as the
real one does and throws the bytes away (``NullTerminal``): headless Pilot
would skip that last step of every frame.  A key's time runs from the moment
Pilot sends it to the last frame drawn because of it (every pane repainted),
stamped from the same ``post_display_hook``; ``KIND_cpu_ms`` is the CPU time
this process used over the same span, ``KIND_queued_ms`` the time its
thread spent over it ready to run but waiting for a core (Linux's run-queue
wait, ``/proc/thread-self/schedstat``; 0 elsewhere), and ``KIND_blocked_ms``
the rest, when it slept: the save's ``fsync``, or a frame waiting for the
screen's next 60 Hz tick (a key answered in one frame never waits for it).  What is not in it: the terminal's
parsing of the key bytes (microseconds) and the terminal emulator's own
drawing.  The keys are Enter on a typed command (``mark … suppressed`` or
``clear …``, whichever applies: a roster badge changes), ``y`` in the undo and redo
dialogs (the Ctrl+Z that opens the dialog is timed too, as
``dialog_p50_ms``), and → in replay mode from the middle of the game.  The
command line's blinking cursor is turned off while it runs, or its frames
would be taken for the key's.
"""

from __future__ import annotations

import asyncio
import gc
import json
import math
import os
import selectors
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from core.log.views import REFEREE

#: The pseudo-terminal (and Pilot's screen) size: columns, rows.
SIZE = (100, 30)
#: The demo save shipped with the project.
DEMO_SAVE = Path(__file__).resolve().parents[2] / "saves" / "demo-game.ft"
BIG_EVENTS = 100_000
#: What a user feels (docs/benchmark.md): every start within 1.3 times the bare app's (a
#: big save's first open 2), and each key's frame within one frame at 60 Hz at the median,
#: two at the 95th percentile.
TARGETS = {
    "start_ratio": 1.3,
    "start_ratio_big": 1.3,
    "start_ratio_it": 1.3,
    "start_ratio_big_first_open": 2.0,
    "key_p50_ms": 16.0,
    "key_p95_ms": 33.0,
}
#: The keys with a target (each, on each save).
KEY_KINDS = ("command", "undo", "redo", "replay_step")
KEYS = tuple(f"{kind}_p50_ms" for kind in KEY_KINDS)
KEYS_P95 = tuple(f"{kind}_p95_ms" for kind in KEY_KINDS)
#: Where ``--against``'s starts find this bench's child module (under the name below): another
#: checkout's ``tui.bench.child`` may differ, or be missing from an older one.
CHILD_FOLDER = "child"
CHILD_MODULE = "fireteam_bench_child"
#: A start that takes longer than this is reported as a failure, not waited on for ever.
START_TIMEOUT_S = 120.0
#: How long a child that has drawn its frame is given to quit before it is killed.
QUIT_TIMEOUT_S = 10.0
#: After a key, how long no new frame must come before its last frame counts as the last.
QUIET_S = 0.08

# ------------------------------------------------------------------ the start


def _start_once(what: str, cwd: Path, lang: str | None = None, tree: Path | None = None) -> tuple[float, float]:
    """Seconds from spawning a child on a fresh pseudo-terminal to its first full frame,
    and the CPU seconds the child had used by then.  ``tree``: Fireteam as another checkout
    has it (``--against``: its ``.venv``'s Python if it has one, its sources first on the
    path, this bench's child module beside them, ``cwd / CHILD_FOLDER``)."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
    ready_r, ready_w = os.pipe()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL") and k != "PYTHONDONTWRITEBYTECODE"}
    # Compiled modules are cached in the bench's folder, as an installed
    # Fireteam and Textual have theirs: each start then pays for loading
    # modules, not for compiling them (a machine that sets
    # PYTHONDONTWRITEBYTECODE would otherwise compile all of Fireteam every time).
    env["PYTHONPYCACHEPREFIX"] = str(cwd / "pycache")
    env["XDG_CACHE_HOME"] = str(cwd / "cache")
    env.pop("FIRETEAM_CACHE_DIR", None)  # (core.folders' override): the bench's cache, not another
    env["TERM"] = "xterm-256color"
    code = "from tui.bench.child import start_child; start_child()"
    python = sys.executable
    if tree is not None:
        venv = tree / ".venv" / "bin" / "python"
        python = str(venv) if venv.exists() else python
        env["PYTHONPATH"] = os.pathsep.join([str(tree), str(cwd / CHILD_FOLDER)])
        code = f"from {CHILD_MODULE} import start_child; start_child()"
    t0 = time.perf_counter()
    child = subprocess.Popen(
        [python, "-c", code, str(ready_w), what, *([lang] if lang else [])],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        pass_fds=(ready_w,),
        cwd=cwd,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    os.close(ready_w)
    elapsed = None
    said = shown = b""
    try:
        with selectors.DefaultSelector() as sel:
            sel.register(master, selectors.EVENT_READ)
            sel.register(ready_r, selectors.EVENT_READ)
            deadline = t0 + START_TIMEOUT_S
            # Read the terminal as a terminal would (a full pty would stall the child),
            # until the mark, then until the child has gone.
            while time.perf_counter() < deadline:
                for key, _ in sel.select(timeout=0.5):
                    try:
                        data = os.read(key.fd, 65536)
                    except OSError:  # the pty's other end closed: the child is gone
                        data = b""
                    if key.fd == ready_r and data:
                        if elapsed is None:
                            elapsed = time.perf_counter() - t0
                            deadline = min(deadline, time.perf_counter() + QUIT_TIMEOUT_S)
                        said += data
                    elif data:
                        shown = (shown + data)[-2000:]  # for the error, if it never draws
                    if not data:
                        sel.unregister(key.fd)
                if elapsed is not None and child.poll() is not None:
                    break
                if not sel.get_map():
                    break
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
        os.close(master)
        os.close(ready_r)
    if elapsed is None:
        last = shown.decode("utf-8", "replace")[-500:]
        raise RuntimeError(f"the {what} start drew no full frame within {START_TIMEOUT_S:.0f} s; it showed: {last!r}")
    return elapsed, float(said.split(b"\n")[0])


def start_ratios(
    saves: dict[str, Path],
    rounds: int,
    cwd: Path,
    lang: str | None = None,
    first_open: frozenset[str] = frozenset(),
    against: Path | None = None,
) -> dict[str, dict[str, float]]:
    """Per save: the median start ratio over ``rounds`` (wall clock, and CPU time), and the best times (s).

    Fireteam starts with ``--lang lang`` if given; the saves named in ``first_open``
    are started with an empty open cache each time.  With ``against`` (another checkout),
    its Fireteam starts each save too, in the same rounds (``against_ratio``, ``against_s``):
    a round's ratios share its bare start, so the two trees are compared on one machine's
    moment, not across runs (its caches are its own, ``cwd / "against"``: their formats may differ)."""
    other = cwd / "against"
    if against is not None:
        (other / CHILD_FOLDER).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(Path(__file__).with_name("child.py"), other / CHILD_FOLDER / f"{CHILD_MODULE}.py")
    _start_once("bare", cwd)  # fills the caches of compiled modules, catalogues and opens: not timed
    for path in saves.values():
        _start_once(str(path), cwd, lang)
        if against is not None:
            _start_once(str(path), other, lang, against)
    bare: list[tuple[float, float]] = []
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in saves}
    theirs: dict[str, list[tuple[float, float]]] = {name: [] for name in saves}
    for _ in range(rounds):
        bare.append(_start_once("bare", cwd))
        for name, path in saves.items():
            for folder, tree, timed in ((cwd, None, times), (other, against, theirs))[: 2 if against else 1]:
                if name in first_open:
                    shutil.rmtree(folder / "cache" / "fireteam" / "open", ignore_errors=True)
                timed[name].append(_start_once(str(path), folder, lang, tree))
    out = {}
    for name, ts in times.items():
        pairs = list(zip(ts, bare, strict=True))
        out[name] = {
            "start_ratio": round(statistics.median(t[0] / b[0] for t, b in pairs), 2),
            "start_cpu_ratio": round(statistics.median(t[1] / b[1] for t, b in pairs), 2),
            "start_s": round(min(t[0] for t in ts), 3),
            "bare_start_s": round(min(b[0] for b in bare), 3),
        }
        if against is not None:
            others = zip(theirs[name], bare, strict=True)
            out[name]["against_ratio"] = round(statistics.median(t[0] / b[0] for t, b in others), 2)
            out[name]["against_s"] = round(min(t[0] for t in theirs[name]), 3)
    return out


# ------------------------------------------------------------------- the keys


def _null_terminal():
    from textual.drivers.headless_driver import HeadlessDriver

    class NullTerminal(HeadlessDriver):
        """Headless input, but frames drawn into escape codes as on a terminal (then dropped)."""

        written = 0

        @property
        def is_headless(self) -> bool:
            return False

        def write(self, data: str) -> None:
            NullTerminal.written += len(data)

    return NullTerminal


#: A frame's moment: wall clock, this process's CPU time, and the time this thread has
#: spent ready to run but waiting for a core (s).
Stamp = tuple[float, float, float]

#: Linux counts, per thread, the time it waited in a run queue (its second figure, ns).
SCHEDSTAT = Path("/proc/thread-self/schedstat")


def _queued() -> float:
    """How long this thread has waited for a core, ready to run, since it started (s); 0 where unknown."""
    try:
        return int(SCHEDSTAT.read_bytes().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return 0.0


def _now() -> Stamp:
    return time.perf_counter(), time.process_time(), _queued()


async def _settle(app, stamps: list[Stamp], since: int) -> None:
    """Wait until the app has drawn all a key caused: idle, and no frame for ``QUIET_S``."""
    while True:
        idle = asyncio.Event()
        app.screen.call_after_refresh(idle.set)
        await idle.wait()
        count = len(stamps)
        await asyncio.sleep(QUIET_S)
        if len(stamps) == count and count > since:
            return


async def _timed(pilot, stamps: list[Stamp], key: str) -> Stamp:
    """Milliseconds from sending ``key`` to the last frame it caused: wall clock, CPU, and waiting for a core."""
    since = len(stamps)
    start = _now()
    await pilot.press(key)
    await _settle(pilot.app, stamps, since)
    wall, cpu, queued = ((end - begun) * 1000 for end, begun in zip(stamps[-1], start, strict=True))
    # The wait is read beside the clocks, not with them: it may take in a slice of
    # waiting just outside the span, so it is held to what the CPU leaves of the wall clock.
    return wall, cpu, max(0.0, min(queued, wall - cpu))


async def key_latencies(save: Path, rounds: int) -> dict[str, float]:
    """Per kind of key on ``save`` (which gets commands, undos and redos): median
    milliseconds to the last frame (``KIND_p50_ms``) and of CPU time (``KIND_cpu_ms``)."""
    from core.game import Game
    from tui.app import FireteamApp
    from tui.commandline import CommandInput
    from tui.screens.game import GameScreen
    from tui.screens.replay_bar import ReplayBar

    # Started as ``tui.main`` starts the client: the cycle collector paused until
    # the first frame, which then sets aside what the start made (gc.freeze).
    # Without it a full collection of the 100,000-event game lands in a key now and then.
    gc.disable()
    game = Game.open(save)
    app = FireteamApp(game, role=REFEREE, driver_class=_null_terminal())
    app.owns_game = True
    app.gc_paused = True
    stamps: list[Stamp] = []
    # (This app's hook, not a subclass's: Textual would look for a subclass's CSS beside this module.)
    app.post_display_hook = lambda: stamps.append(_now())  # type: ignore[method-assign]
    times: dict[str, list[Stamp]] = {"command": [], "dialog": [], "undo": [], "redo": [], "replay_step": []}
    unit = next(iter(game.state.units))
    async with app.run_test(headless=False, size=SIZE) as pilot:
        box = app.screen.query_one(CommandInput)
        box.cursor_blink = False
        await _settle(app, stamps, 0)
        for i in range(rounds + 1):  # the first round warms up (imports, caches) and is not counted
            verb = "clear" if "suppressed" in game.state.units[unit].status else "mark"
            box.value = f"{verb} {unit} suppressed"
            # What typing the line drew (its hint) is drawn before Enter is pressed, as
            # for a player, whose last key comes well before Enter: only Enter is timed.
            await _settle(app, stamps, len(stamps) - 1)
            took = {"command": await _timed(pilot, stamps, "enter")}
            took["dialog"] = await _timed(pilot, stamps, "ctrl+z")
            took["undo"] = await _timed(pilot, stamps, "y")
            await _timed(pilot, stamps, "ctrl+y")
            took["redo"] = await _timed(pilot, stamps, "y")
            if i:
                for kind, ms in took.items():
                    times[kind].append(ms)
        await _timed(pilot, stamps, "f5")
        replay = app.screen
        assert isinstance(replay, GameScreen) and replay.replay
        replay.part(ReplayBar).go(replay.vp.length // 2)
        await _settle(app, stamps, 0)
        for i in range(rounds + 1):
            ms = await _timed(pilot, stamps, "right")
            if i:
                times["replay_step"].append(ms)
    gc.unfreeze()  # the next save starts as this one did
    gc.enable()
    out: dict[str, float] = {}
    for kind, samples in times.items():
        out[f"{kind}_p50_ms"] = round(statistics.median(wall for wall, _, _ in samples), 1)
        out[f"{kind}_p95_ms"] = round(percentile([wall for wall, _, _ in samples], 95), 1)
        out[f"{kind}_cpu_ms"] = round(statistics.median(cpu for _, cpu, _ in samples), 1)
        out[f"{kind}_queued_ms"] = round(statistics.median(queued for _, _, queued in samples), 1)
        # What is neither: the thread slept (the disk's fsync, a frame waiting for the screen's timer).
        out[f"{kind}_blocked_ms"] = round(statistics.median(max(0.0, w - c - q) for w, c, q in samples), 1)
    return out


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile of ``values``, by nearest rank (of 15 samples, the 95th is the slowest)."""
    ranked = sorted(values)
    return ranked[max(0, min(len(ranked) - 1, math.ceil(p / 100 * len(ranked)) - 1))]


# ------------------------------------------------------------------- the run


def targets_met(results: dict) -> bool:
    """Whether every start ratio is within its target (``TARGETS``: the demo save's, the
    big save's with its open-cache entry and on its first open, the Italian start), and
    every key on both saves within ``key_p50_ms`` at the median and ``key_p95_ms`` at the
    95th percentile; of a run of the starts alone (``--starts``: no key timed), the starts'."""
    starts = all(results[name] <= TARGETS[name] for name in TARGETS if name.startswith("start_ratio"))
    if not any(k in s for s in results["saves"].values() for k in KEYS):
        return starts
    p50 = max(s[k] for s in results["saves"].values() for k in KEYS)
    p95 = max(s[k] for s in results["saves"].values() for k in KEYS_P95)
    return starts and p50 <= TARGETS["key_p50_ms"] and p95 <= TARGETS["key_p95_ms"]


def run_client_bench(
    events: int = BIG_EVENTS,
    rounds: int = 15,
    start_rounds: int = 9,
    as_json: bool = False,
    keys: bool = True,
    against: Path | None = None,
) -> int:
    """The whole bench; ``keys=False`` (``--starts``): the starts alone, no key timed;
    ``against``: another checkout's starts too, in the same rounds (:func:`start_ratios`)."""
    from core.cachedir import CACHE_DIR_ENV
    from tui.bench.engine import generate_save

    say: Callable[..., None] = (lambda *a: None) if as_json else (lambda *a: print(*a, flush=True))
    results: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="fireteam-client-bench-") as tmp:
        folder = Path(tmp)
        # This process's own caches too (the tables the generator decodes, the CSS the
        # timed apps parse) are the bench's: a user's cache is never touched.
        before = os.environ.get(CACHE_DIR_ENV)
        os.environ[CACHE_DIR_ENV] = str(folder / "cache-of-the-bench")
        try:
            saves = {"demo": folder / "demo.ft", "big": folder / "big.ft"}
            shutil.copyfile(DEMO_SAVE, saves["demo"])
            say(f"generating a {events:,}-event save …")
            generate_save(saves["big"], events)
            say(f"starting the bare app and Fireteam {start_rounds} times each, in turn …")
            first = "big_first_open"
            starts = start_ratios(
                {**saves, first: saves["big"]}, start_rounds, folder, first_open=frozenset([first]), against=against
            )
            italian = start_ratios({"demo": saves["demo"]}, start_rounds, folder, lang="it", against=against)["demo"]
            per_save: dict[str, dict[str, float]] = {}
            for name, path in saves.items():
                if keys:
                    say(f"{name}: {rounds} of each key …")
                per_save[name] = {**starts[name], **(asyncio.run(key_latencies(path, rounds)) if keys else {})}
                say("  " + ", ".join(f"{k} {v}" for k, v in per_save[name].items()))
        finally:
            if before is None:
                del os.environ[CACHE_DIR_ENV]
            else:
                os.environ[CACHE_DIR_ENV] = before
    results["start_ratio"] = per_save["demo"]["start_ratio"]
    results["start_ratio_big"] = per_save["big"]["start_ratio"]
    results["start_ratio_it"] = italian["start_ratio"]
    results["start_it"] = italian
    results["start_ratio_big_first_open"] = starts[first]["start_ratio"]
    results["start_big_first_open"] = starts[first]  # its CPU ratio too, which the machine's load moves less
    if against is not None:
        results["against"] = str(against)
        for name, figures in (
            ("demo", starts["demo"]),
            ("big", starts["big"]),
            ("it", italian),
            (first, starts[first]),
        ):
            results[f"against_ratio_{name}"] = figures["against_ratio"]
    for key in (*KEYS, *KEYS_P95) if keys else ():
        results[key] = max(s[key] for s in per_save.values())  # the worse of the two saves
    results["saves"] = per_save
    results["events"] = events
    results["size"] = f"{SIZE[0]}x{SIZE[1]}"
    results["python"] = sys.version.split()[0]
    results["cpus"] = os.cpu_count() or 0
    met = targets_met(results)
    results["targets_met"] = met
    if as_json:
        print(json.dumps(results))
    else:
        say(
            f"start ratio {results['start_ratio']} on the demo save (target ≤ {TARGETS['start_ratio']}), "
            f"{results['start_ratio_big']} on the {events:,}-event save (≤ {TARGETS['start_ratio_big']}; "
            f"{results['start_ratio_big_first_open']} the first time it is opened, "
            f"≤ {TARGETS['start_ratio_big_first_open']}), "
            f"{results['start_ratio_it']} on the demo save in Italian (≤ {TARGETS['start_ratio_it']})"
        )
        if against is not None:
            say(
                f"{against} in the same rounds: {results['against_ratio_demo']} on the demo save, "
                f"{results['against_ratio_big']} on the big one ({results[f'against_ratio_{first}']} its first "
                f"open), {results['against_ratio_it']} in Italian"
            )
        for kind in KEY_KINDS if keys else ():
            say(
                f"{kind}: p50 {results[f'{kind}_p50_ms']} ms (≤ {TARGETS['key_p50_ms']:g}), "
                f"p95 {results[f'{kind}_p95_ms']} ms (≤ {TARGETS['key_p95_ms']:g}), the worse of the two saves"
            )
        within = "every start and every key within target" if keys else "every start within target"
        say(within if met else "TARGETS MISSED: see the figures above")
    return 0
