"""Each side's chance to win after every step, and the rolls that swung it (issue #62).

The chance after a step is measured as ``report --rerolls`` measures the whole game's
(``core.report.reroll``): the game's own orders after that step played again with fresh
dice, ``count`` times, from the table as it stood there; the share of those games each
side won is its chance.  What is measured is the dice: the same orders, other dice.
Other orders (what a player would have done had the dice gone otherwise) are not.

**Where the chances are measured.**  At the start, and after each order that rolled
dice.  After an order that rolled none they are the chances before it: the same table
follows from it whatever the dice, and its re-rolls would give the same games with the
same seed (a test holds this).  An order's dice are one draw for this count: a handler
cannot be resumed half-way, so a swing is measured across the whole order that rolled
(rulings CORE-CHANCES).  At the game's end (the last step) there is nothing left to
re-roll: the chances are the real result.

**How sure.**  Each chance comes from ``count`` games: its 95% interval (Wilson's) is
given with it.  Every step's re-rolls use the same seed, game k the same stream of dice
from each step, so that the change from one step to the next is the dice's, not the
sampling's alone.

**The swings**: the orders whose dice moved a side's chance most; **decided**: the
first point from which the eventual winner's chance stayed at ``DECIDED`` or above to
the end (rulings CORE-CHANCES).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from math import sqrt
from multiprocessing import get_context

from core import events as ev
from core.game import Game
from core.language.i18n import _
from core.report.reroll import DRAW, Parses, reroll, score_kind, score_of, winner_of

#: Re-rolled games from each step by default, and the most.
DEFAULT_COUNT = 200
MAX_COUNT = 10_000
#: The eventual winner's chance from which on, never falling below it again, the game
#: is "decided" (rulings CORE-CHANCES).
DECIDED = 0.9
#: The swings named: always the biggest ``FEWEST_SWINGS`` (when the game has that many
#: orders with dice), then up to ``MOST_SWINGS`` when their move is beyond the sampling error.
FEWEST_SWINGS, MOST_SWINGS = 3, 5
#: The normal quantile of a 95% interval.
Z95 = 1.96


@dataclass(frozen=True)
class Point:
    """The chances after step ``step`` (in turn ``turn``), from ``count`` re-rolled games
    (``count`` 0: nothing left to re-roll, ``wins`` is the real result)."""

    step: int
    turn: int
    #: The order whose dice led here (its index among the game's effective commands); -1: the start.
    cmd: int
    wins: dict[str, int]
    count: int

    def chance(self, side: str) -> float:
        return self.wins.get(side, 0) / max(1, self.count)

    def interval(self, side: str) -> tuple[float, float]:
        """The 95% interval of ``chance(side)`` (Wilson's score interval; exact at the end)."""
        if not self.count:
            p = self.chance(side)
            return p, p
        n, p = self.count, self.chance(side)
        centre = (p + Z95 * Z95 / (2 * n)) / (1 + Z95 * Z95 / n)
        half = Z95 * sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / (1 + Z95 * Z95 / n)
        return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Swing:
    """An order whose dice moved ``side``'s chance from ``before`` to ``after``."""

    before: Point
    after: Point
    side: str
    order: str
    #: Its rolls, as the log has them.
    rolls: tuple[ev.Rolled, ...]

    @property
    def change(self) -> float:
        return self.after.chance(self.side) - self.before.chance(self.side)

    def beyond_sampling(self) -> bool:
        """Whether the move is bigger than the 95% sampling error of the difference of two
        independent estimates (an over-estimate: the two share their seed)."""
        p, q, n, m = self.before.chance(self.side), self.after.chance(self.side), self.before.count, self.after.count
        var = (p * (1 - p) / n if n else 0.0) + (q * (1 - q) / m if m else 0.0)
        return abs(self.change) > Z95 * sqrt(var)


@dataclass
class Chances:
    seed: int
    count: int
    sides: list[str]
    points: list[Point]
    #: The side that won (or leads, in a game under way) at the last step; ``DRAW``: none.
    winner: str
    #: Whether the game is over (else the chances are of leading where its orders stop).
    finished: bool
    swings: list[Swing]
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    def at(self, step: int) -> Point:
        """The chances after ``step``: those of the last point at or before it."""
        return [p for p in self.points if p.step <= step][-1]

    def decided(self) -> Point | None:
        """The first point from which the winner's chance never fell below ``DECIDED``."""
        if self.winner == DRAW:
            return None
        found = None
        for p in self.points:
            found = (found or p) if p.chance(self.winner) >= DECIDED else None
        return found


def measured_after(game: Game) -> list[tuple[int, int, int]]:
    """(step, turn, command) where chances are measured: the start, each order that rolled
    dice (after its last event), and the last step."""
    history, timeline = game.history, game.timeline
    out, step = [(0, 0, -1)], 0
    for i, cmd in enumerate(history.eff_cmds):
        step += history.group_end[cmd] - history.group_start[cmd]
        if any(isinstance(e, ev.Rolled) for e in history.group(cmd)):
            out.append((step, timeline.state_at(step).turn, i))
    if out[-1][0] != timeline.length:
        out.append((timeline.length, game.state.turn, -1 if len(out) == 1 else out[-1][2]))
    return out


def chances(
    game: Game,
    count: int = DEFAULT_COUNT,
    *,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    workers: int = 1,
) -> Chances:
    """Each side's chance after every step of ``game`` (see the module).  ``progress(done,
    total)`` is told the re-rolled games done; ``workers`` > 1: that many processes share
    the steps (the same figures as one: each step's games are seeded alike wherever run)."""
    if not 0 < count <= MAX_COUNT:
        raise ValueError(_("re-rolls: from 1 to {most}").format(most=MAX_COUNT))
    began, began_cpu = time.perf_counter(), _cpu()
    history = game.history.timeline()
    real = winner_of(score_of(history, game.state, score_kind(history)))
    where = measured_after(game)
    steps = [step for step, _turn, _cmd in where if step != game.timeline.length]
    wins = _wins(game, steps, count, seed, progress, workers)
    points = [
        Point(step, turn, cmd, wins[step], count) if step in wins else Point(step, turn, cmd, {real: 1}, 0)
        for step, turn, cmd in where
    ]
    sides = list(game.state.sides)
    took = time.perf_counter() - began, _cpu() - began_cpu
    return Chances(seed, count, sides, points, real, bool(game.state.result), swings(game, points, sides), *took)


def _cpu() -> float:
    """The processor time of this process and of its workers (counted once they end)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _wins(
    game: Game, steps: list[int], count: int, seed: int, progress: Callable[[int, int], None] | None, workers: int
) -> dict[int, dict[str, int]]:
    """Each step's re-rolled games won by each side, here or in ``workers`` processes."""
    total, done, out = count * len(steps), 0, {}
    if workers <= 1 or len(steps) < 2:
        parses = Parses(game)
        for step in steps:

            def tell(k: int, _n: int, before: int = done) -> None:
                if progress is not None:
                    progress(before + k, total)

            out[step] = dict(reroll(game, count, seed=seed, start=step, progress=tell, parses=parses).wins())
            done += count
        return out
    # Forked, each worker has the game as it is here (a ruleset registered by a test too);
    # the earlier steps cost most (more game left to play): they are handed out first.
    global _FORKED
    _FORKED = game
    try:
        parent = os.getpid()
        with ProcessPoolExecutor(
            workers, mp_context=get_context("fork"), initializer=_die_with, initargs=(parent,)
        ) as pool:
            asked = {pool.submit(_wins_in_worker, step, count, seed): step for step in steps}
            try:
                for finished in as_completed(asked):
                    out[asked[finished]] = finished.result()
                    done += count
                    if progress is not None:
                        progress(done, total)
            except BaseException:
                # Stopped (``progress`` raised: the client's Esc) or failed: the steps not
                # begun are dropped, not waited for; those under way end on their own.
                pool.shutdown(wait=False, cancel_futures=True)
                raise
    finally:
        _FORKED = None
    return out


#: How often a worker looks whether the process that started it is still there (where the
#: kernel cannot be asked to end it with its parent).
PARENT_WATCH_S = 1.0
#: Linux's prctl(2) option that sends a process a signal when its parent ends.
_PR_SET_PDEATHSIG = 1


def _die_with(parent: int) -> None:
    """A worker ends when the process that started it does, however that ended (a ``kill -9``
    of ``fireteam report`` leaves no worker asleep behind it).  Linux ends it at once (prctl's
    parent-death signal); elsewhere a thread of its own looks every ``PARENT_WATCH_S``."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
            if os.getppid() != parent:  # the parent ended before the signal was asked for
                os._exit(1)
            return
    except (OSError, AttributeError):
        pass  # not Linux: watched instead

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_WATCH_S)
        os._exit(1)

    threading.Thread(target=watch, name="parent watch", daemon=True).start()


#: The game a pool's workers re-roll (set before they fork), and each worker's parses.
_FORKED: Game | None = None
_WORKER_PARSES: Parses | None = None


def _wins_in_worker(step: int, count: int, seed: int) -> dict[str, int]:
    global _WORKER_PARSES
    game = _FORKED
    assert game is not None  # set before the pool forked
    _WORKER_PARSES = _WORKER_PARSES or Parses(game)
    return dict(reroll(game, count, seed=seed, start=step, parses=_WORKER_PARSES).wins())


def swings(game: Game, points: list[Point], sides: list[str]) -> list[Swing]:
    """The orders whose dice moved a side's chance most, biggest first (see ``MOST_SWINGS``)."""
    history = game.history
    found = []
    for before, after in zip(points, points[1:], strict=False):
        if after.cmd < 0 or after.cmd == before.cmd:
            continue
        side = max(sides, key=lambda s: abs(after.chance(s) - before.chance(s)))
        cmd = history.eff_cmds[after.cmd]
        rolls = tuple(e for e in history.group(cmd) if isinstance(e, ev.Rolled))
        if after.chance(side) == before.chance(side):
            continue
        found.append(Swing(before, after, side, history.issued(cmd).text, rolls))
    found.sort(key=lambda s: -abs(s.change))
    return found[:FEWEST_SWINGS] + [s for s in found[FEWEST_SWINGS:MOST_SWINGS] if s.beyond_sampling()]
