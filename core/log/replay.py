"""The folded state along the effective history, and seeking through it.

The :class:`Timeline` keeps the live state (the fold of every effective
event) and, every ``SNAPSHOT_EVERY`` steps, a snapshot of the state as msgpack
bytes.  Snapshots are a cache, never the record: they are rebuilt from the
events whenever they are missing.  Seeking decodes the nearest snapshot at or
before the step and folds at most ``SNAPSHOT_EVERY - 1`` events.
"""

from __future__ import annotations

import array
import operator
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from itertools import chain, count

from core.log.events import Event, PhaseBegan
from core.log.history import History
from core.log.state import GameState, apply_in_place, apply_picked, copy_state, decode_state, encode_state
from core.log.views import REFEREE, event_visible
from core.storage.store import CHUNK, FACT, LOADING_CACHE_CHUNKS, PHASE, VAR

#: Steps between snapshots.  A load folds the whole history and takes them as it
#: goes: at 2048, half as many calls of the fold as at 512 and a quarter of the
#: snapshots (a million-event load's fold 0.206 -> 0.183 s of CPU), for seeks that
#: fold at most 2047 events (the bench's p99 1.1 -> 2 ms, against 50).
SNAPSHOT_EVERY = 2048
VISIBLE_SCAN_STEP = 4096  # events read at a time counting those a side may see
#: A store's kind byte to 1 for the events that change the state, 0 for the rest.
_CHANGES = bytes(kind in (FACT, VAR, PHASE) for kind in range(256))
assert LOADING_CACHE_CHUNKS >= 3, "Timeline.loading folds two batches back, and an undo may reach one more"
#: A byte that is no store kind (``_CHANGES`` takes it to 0).
_NO_KIND = b"\xff"


class Timeline:
    def __init__(
        self,
        history: History,
        initial: GameState | None = None,
        every: int = SNAPSHOT_EVERY,
        apply: Callable[[GameState, list[Event]], GameState] = apply_in_place,
    ) -> None:
        self.history = history
        self.every = every
        #: How events are folded (a side's copy folds what holds: ``core.secrets.sidecopy``).
        self.apply = apply
        initial = initial if initial is not None else GameState()
        self._snapshots: list[bytes] = [encode_state(initial)]
        #: The fold of the first ``folded`` effective events.
        self.state = copy_state(initial)
        self.folded = 0
        #: (step just after it, the event) for each PhaseBegan folded so far.
        self.phases: list[tuple[int, PhaseBegan]] = []

    @property
    def length(self) -> int:
        return self.history.length

    @property
    def snapshots(self) -> list[bytes]:
        """The encoded states at steps 0, ``every``, 2 × ``every``… up to ``folded``."""
        return self._snapshots

    def restore(self, snapshots: list[bytes], state: GameState, phases: list[tuple[int, PhaseBegan]]) -> None:
        """Take what folding the whole history found (``core.storage.opencache``, which checks it)."""
        self._snapshots = snapshots
        self.state = state
        self.folded = self.history.length
        self.phases = phases

    def catch_up(self) -> GameState:
        """Bring the live state level with the history after it changed."""
        target = self.history.length
        # Events below the low-water mark are unchanged; past it, an undo may have
        # taken back some of what was folded, even if the history is longer now.
        low = min(target, self.history.take_low_water())
        if low < self.folded:
            self._rewind(low)
        every = self.every
        while self.folded < target:
            stop = min(target, (self.folded // every + 1) * every)
            if not (self.apply is apply_in_place and self._fold_picked(stop)):
                self.apply(self.state, self._take(stop))
            self.folded = stop
            if stop % every == 0 and len(self._snapshots) == stop // every:
                self._snapshots.append(encode_state(self.state))
        return self.state

    def loading(self) -> Callable[[], None]:
        """What a load calls after each batch it takes in (``savefile.load``'s
        ``after_batch``): the live state caught up after every second batch, while
        the events of both are still decoded (a load keeps ``LOADING_CACHE_CHUNKS``
        chunks: the two batches, and the one before for an undo that reaches back
        into it).  Half as many calls of the fold, each over twice the events (a
        million-event load 1.136 -> 1.113 s of CPU).  The load's caller catches up
        once more when it ends.

        A fact the fold cannot apply (``KeyError``: a unit or side the game does not
        have) is not the load's to judge halfway: the command holding it may be undone
        further on.  The state goes back to the last snapshot, no more is folded while
        the load goes on, and the caller's last catch-up folds the effective history
        from there: a save is refused for such a fact if and only if it is in effect
        at the end, wherever the batches fall."""
        batches = count(1)
        failed = False

        def after_batch() -> None:
            nonlocal failed
            if next(batches) % 2 or failed:
                return
            try:
                self.catch_up()
            except KeyError:
                failed = True
                # (Not ``_rewind``: the state was changed partway through the window.)
                last = len(self._snapshots) - 1
                self.state = decode_state(self._snapshots[last])
                self.folded = last * self.every
                del self.phases[bisect_right(self.phases, self.folded, key=lambda p: p[0]) :]

        return after_batch

    def _fold_picked(self, stop: int) -> bool:
        """Fold steps ``folded`` to ``stop`` into the live state (by ``apply_in_place``'s
        rules), noting the PhaseBegan among them; False, with nothing done, if their
        stretches of the store do not follow one another closely (a redo after a
        hidden command puts a command back before others: ``_take`` then does it).

        The store's events from the first stretch to the end of the last are read at
        once, and those the rules are called for picked by their kind byte, the
        events between the stretches (undone) passed over: no list of the effective
        events is made, no event's type looked at, and no Python code runs for each
        stretch.  The kinds are those the store checked against the events as they
        were decoded (read after them)."""
        steps, starts, ends = self.history.stretches(self.folded, stop)
        lo, hi = starts[0], ends[-1]
        gaps = list(map(operator.sub, starts, [lo, *ends[:-1]]))  # undone events before each stretch
        if min(gaps) < 0 or hi - lo > 2 * (stop - self.folded) + CHUNK:
            return False  # back in the store, or far apart: the events between are not worth decoding
        store = self.history.store
        span = store.slice(lo, hi)
        kinds = store.kinds
        # The stretches' kinds, each undone event's as a byte that is no kind.
        found = b"".join(
            chain.from_iterable(
                zip(map(_NO_KIND.__mul__, gaps), map(kinds.__getitem__, map(slice, starts, ends)), strict=True)
            )
        )
        at = found.find(PHASE)  # (a phase is one event in sixty)
        while at >= 0:
            k = bisect_right(starts, lo + at) - 1
            self.phases.append((steps[k] + lo + at - starts[k] + 1, span[at]))  # type: ignore[arg-type]
            at = found.find(PHASE, at + 1)
        apply_picked(self.state, span, found.translate(_CHANGES), stop - self.folded)
        return True

    def _take(self, stop: int) -> list[Event]:
        """The effective events from step ``folded`` to ``stop``, with each PhaseBegan
        among them noted (found by its kind byte in the store: a search in C)."""
        store = self.history.store
        kinds = store.kinds
        events: list[Event] = []
        for a, b in self.history.ranges(self.folded, stop):
            at = self.folded + len(events) - a  # the step just before store index ``a``
            events += store.slice(a, b)
            i = kinds.find(PHASE, a, b)
            while i >= 0:
                self.phases.append((at + i + 1, events[at + i - self.folded]))  # type: ignore[arg-type]
                i = kinds.find(PHASE, i + 1, b)
        return events

    def _rewind(self, step: int) -> None:
        """The history got shorter (undo): forget what lay past ``step``."""
        del self._snapshots[step // self.every + 1 :]
        del self.phases[bisect_right(self.phases, step, key=lambda p: p[0]) :]
        self.state = self.state_at(step)
        self.folded = step

    def state_at(self, step: int) -> GameState:
        """A fresh copy of the state after the first ``step`` effective events."""
        step = max(0, min(step, self.length))
        if step == self.folded:
            return copy_state(self.state)
        k = min(step // self.every, len(self._snapshots) - 1)
        state = decode_state(self._snapshots[k])
        return self.apply(state, self.history.timeline(k * self.every, step))

    # -- seeking by phase and turn -------------------------------------------------

    def _starts(self, by_turn: bool) -> list[int]:
        starts: list[int] = []
        last_turn = None
        for step, e in self.phases:
            if not by_turn or e.turn != last_turn:
                starts.append(step)
            last_turn = e.turn
        return starts

    def next_phase(self, step: int, *, by_turn: bool = False) -> int:
        starts = self._starts(by_turn)
        i = bisect_right(starts, step)
        return starts[i] if i < len(starts) else self.length

    def previous_phase(self, step: int, *, by_turn: bool = False) -> int:
        starts = self._starts(by_turn)
        i = bisect_left(starts, step) - 1
        return starts[i] if i >= 0 else 0

    def turns(self) -> tuple[int, int] | None:
        """The first and the last turn the game has reached (what Go to turn may go to);
        None before its first phase."""
        reached = [e.turn for _step, e in self.phases]
        return (min(reached), max(reached)) if reached else None

    def turn_start(self, turn: int) -> int | None:
        for step, e in self.phases:
            if e.turn == turn:
                return step
        return None


# ------------------------------------------------------------ a side's steps
#
# A side replaying a game counts only the events it may see: counting every one
# would tell it how many hidden events there were, and where.  Its step n is the
# moment just after the n-th event it may see.  The client's replay bar and
# ``fireteam replay --as SIDE --step N`` both number steps this way.


def visible_steps(
    history: History, role: str, length: int, start: int = 0, into: array.array[int] | None = None
) -> array.array[int]:
    """The effective steps (1-based) whose event ``role`` may see, from ``start`` up to ``length``,
    appended to ``into`` (which holds those before ``start``)."""
    steps = into if into is not None else array.array("i")
    if role == REFEREE:
        steps.extend(range(start + 1, length + 1))
        return steps
    for a in range(start, length, VISIBLE_SCAN_STEP):
        events = history.timeline(a, min(length, a + VISIBLE_SCAN_STEP))
        steps.extend(a + i + 1 for i, e in enumerate(events) if event_visible(e, role))
    return steps


def shown_step(steps: array.array[int], step: int) -> int:
    """The number a side is told for effective step ``step``: the events it may see up to there."""
    return bisect_right(steps, step)


def step_of_shown(steps: array.array[int], shown: int) -> int:
    """The effective step a side's step ``shown`` stands for (0: before any event)."""
    return steps[shown - 1] if shown > 0 else 0
