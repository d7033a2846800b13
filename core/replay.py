"""The folded state along the effective history, and seeking through it.

The :class:`Timeline` keeps the live state (the fold of every effective
event) and, every ``SNAPSHOT_EVERY`` steps, a snapshot of the state as msgpack
bytes.  Snapshots are a cache, never the record: they are rebuilt from the
events whenever they are missing.  Seeking decodes the nearest snapshot at or
before the step and folds at most ``SNAPSHOT_EVERY - 1`` events.
"""

from __future__ import annotations

import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable

from core.events import Event, PhaseBegan
from core.history import History
from core.state import GameState, apply_in_place, apply_picked, copy_state, decode_state, encode_state
from core.storage.store import FACT, PHASE
from core.views import REFEREE, event_visible

SNAPSHOT_EVERY = 512
VISIBLE_SCAN_STEP = 4096  # events read at a time counting those a side may see
#: A store's kind byte to 1 for the events that change the state, 0 for the rest.
_CHANGES = bytes(kind in (FACT, PHASE) for kind in range(256))


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
            events, kinds = self._take(stop)
            if self.apply is apply_in_place:
                apply_picked(self.state, events, kinds.translate(_CHANGES))
            else:
                self.apply(self.state, events)
            self.folded = stop
            if stop % every == 0 and len(self._snapshots) == stop // every:
                self._snapshots.append(encode_state(self.state))
        return self.state

    def _take(self, stop: int) -> tuple[list[Event], bytes]:
        """The effective events from step ``folded`` to ``stop``, and their kinds in
        the store, with each PhaseBegan among them noted.

        One walk over the store's ranges for all three.  The kinds are those the
        store checked against the events as they were decoded (read after the
        events, which decodes them): a phase is found by its kind byte, a search
        in C (one event in sixty), and the fold passes over the events that do
        nothing by theirs, with no look at each event's type."""
        store = self.history.store
        kinds = store.kinds
        events: list[Event] = []
        parts: list[bytes] = []
        for a, b in self.history.ranges(self.folded, stop):
            at = self.folded + len(events) - a  # the step just before store index ``a``
            events += store.slice(a, b)
            i = kinds.find(PHASE, a, b)
            while i >= 0:
                self.phases.append((at + i + 1, events[at + i - self.folded]))  # type: ignore[arg-type]
                i = kinds.find(PHASE, i + 1, b)
            parts.append(kinds[a:b])
        return events, b"".join(parts)

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
