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

from core.game import Game
from core.language.i18n import _
from core.log import events as ev
from core.log.views import OFF_TABLE
from core.report.reroll import DRAW, Parses, Rerolls, recorded_winner, reroll, score_kind, score_of, winner_of

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
    #: Of the ``count`` games, how many skipped orders (the new dice made them impossible,
    #: or their step never came), and how many orders they skipped in all.
    skipping: int = 0
    skipped: int = 0

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
    #: Whether its rolls only decided who acts first (``acts_first``): with the same orders,
    #: what its move measures is the order the orders were given in, not what dice did.
    acts_first: bool = False

    @property
    def change(self) -> float:
        return self.after.chance(self.side) - self.before.chance(self.side)

    def beyond_sampling(self) -> bool:
        """Whether the move is bigger than the 95% sampling error of the difference of two
        independent estimates (an over-estimate: the two share their seed)."""
        p, q, n, m = self.before.chance(self.side), self.after.chance(self.side), self.before.count, self.after.count
        var = (p * (1 - p) / n if n else 0.0) + (q * (1 - q) / m if m else 0.0)
        return abs(self.change) > Z95 * sqrt(var)

    def unfitting(self) -> bool:
        """Whether more of the games after it skipped orders than of those before it, by more
        than the sampling error: part of its move is orders that no longer fitted (a turn won
        by the other side, a piece already out), not only the dice's."""
        b, a = self.before, self.after
        if not b.count or not a.count:
            return False
        p, q = b.skipping / b.count, a.skipping / a.count
        return q - p > Z95 * sqrt(p * (1 - p) / b.count + q * (1 - q) / a.count)


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
    real = result_of(game)
    where = measured_after(game)
    steps = [step for step, _turn, _cmd in where if step != game.timeline.length]
    wins = _wins(game, steps, count, seed, progress, workers)
    points = [
        Point(step, turn, cmd, *wins[step]) if step in wins else Point(step, turn, cmd, {real: 1}, 0)
        for step, turn, cmd in where
    ]
    sides = list(game.state.sides)
    took = time.perf_counter() - began, _cpu() - began_cpu
    return Chances(seed, count, sides, points, real, bool(game.state.result), swings(game, points, sides), *took)


def result_of(game: Game) -> str:
    """The winner the chances end at: the game's recorded result, the referee's ruling
    included (``recorded_winner``); in a game under way, or a result that names none, the
    side ahead on the report's score (``DRAW``: none)."""
    recorded = recorded_winner(game.state)
    if recorded is not None:
        return recorded
    history = game.history.timeline()
    return winner_of(score_of(history, game.state, score_kind(history)))


#: What a step's re-rolls give a point: each side's wins (``DRAW``: no side ahead), their
#: count, how many of them skipped orders and how many orders they skipped in all.
Tally = tuple[dict[str, int], int, int, int]


def tally(r: Rerolls) -> Tally:
    skipping = [len(g.skipped) for g in r.games if g.skipped]
    return dict(r.wins()), r.count, len(skipping), sum(skipping)


def _cpu() -> float:
    """The processor time of this process and of its workers (counted once they end)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _wins(
    game: Game, steps: list[int], count: int, seed: int, progress: Callable[[int, int], None] | None, workers: int
) -> dict[int, Tally]:
    """Each step's re-rolled games won by each side, and their skipped orders (``tally``),
    here or in ``workers`` processes."""
    total, done, out = count * len(steps), 0, {}
    if workers <= 1 or len(steps) < 2:
        parses = Parses(game)
        for step in steps:

            def tell(k: int, _n: int, before: int = done) -> None:
                if progress is not None:
                    progress(before + k, total)

            out[step] = tally(reroll(game, count, seed=seed, start=step, progress=tell, parses=parses))
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


def _wins_in_worker(step: int, count: int, seed: int) -> Tally:
    global _WORKER_PARSES
    game = _FORKED
    assert game is not None  # set before the pool forked
    _WORKER_PARSES = _WORKER_PARSES or Parses(game)
    return tally(reroll(game, count, seed=seed, start=step, parses=_WORKER_PARSES))


def swings(game: Game, points: list[Point], sides: list[str]) -> list[Swing]:
    """The orders whose dice moved a side's chance most, biggest first (see ``MOST_SWINGS``);
    then those whose rolls only decided who acts first (``acts_first``), up to
    ``FEWEST_SWINGS`` of them beyond the sampling error, the biggest first: named apart, not
    as the dice's doing."""
    history = game.history
    found = []
    for before, after in zip(points, points[1:], strict=False):
        if after.cmd < 0 or after.cmd == before.cmd:
            continue
        side = max(sides, key=lambda s: abs(after.chance(s) - before.chance(s)))
        cmd = history.eff_cmds[after.cmd]
        group = history.group(cmd)
        rolls = tuple(e for e in group if isinstance(e, ev.Rolled))
        if after.chance(side) == before.chance(side):
            continue
        found.append(Swing(before, after, side, history.issued(cmd).text, rolls, acts_first(group)))
    found.sort(key=lambda s: -abs(s.change))
    dice = [s for s in found if not s.acts_first]
    first = [s for s in found if s.acts_first and s.beyond_sampling()][:FEWEST_SWINGS]
    return dice[:FEWEST_SWINGS] + [s for s in dice[FEWEST_SWINGS:MOST_SWINGS] if s.beyond_sampling()] + first


#: What an order that only decided who acts may do besides rolling: record whose turn
#: it is, begin a phase, say so, and take the pieces off the table for their deployment.
_SEQUENCE_ONLY = (ev.Issued, ev.Rolled, ev.VarSet, ev.PhaseBegan, ev.Noted, ev.StatusChanged)


def acts_first(group: list[ev.Event]) -> bool:
    """Whether an order's rolls only decided who acts first: opposed rolls (initiative,
    the deployment roll, the first player), and nothing done to a piece or a score
    (rulings CORE-CHANCES).  With the same orders, such a roll changes only the order
    they are given in: a side that wins it fires first, and may pay for that."""
    rolls = [e for e in group if isinstance(e, ev.Rolled)]
    return (
        bool(rolls)
        and all(isinstance(e.roll.check, ev.Opposed) for e in rolls)
        and all(isinstance(e, _SEQUENCE_ONLY) for e in group)
        and all(set(e.add) | set(e.remove) <= {OFF_TABLE} for e in group if isinstance(e, ev.StatusChanged))
    )
