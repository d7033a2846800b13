"""What a screen shows: one game, as one role sees it, live or at a replay step.

Every pane reads the game through a :class:`Viewpoint`, so the same panes
serve the live table and replay mode.  A replay step counts *effective*
events (``core.log.replay.Timeline``); the log pane and the dice pane work in file
positions, so the viewpoint also says where in the file a step lies.
"""

from __future__ import annotations

import array

import msgspec

from core.game import Game, LogLine
from core.log import events as ev
from core.log.replay import shown_step, step_of_shown, visible_steps
from core.log.state import GameState
from core.log.views import REFEREE, event_visible
from core.storage.store import REDONE, UNDONE
from tui.logindex import windows

ROLL_SCAN_LIMIT = 32_768  # how far back the dice pane looks for recent rolls
ROLL_SCAN_STEP = 512  # events read at a time looking for them


class _RollsSeen(msgspec.Struct, frozen=True):
    """What the last ``Viewpoint.recent_rolls`` found: lines this role may see, nothing more."""

    limit: int  # it looked at file positions before this one
    length: int  # the file's length then (an undo or redo after it may strike those rolls)
    count: int
    rolls: list[LogLine]


class _VisibleSeen(msgspec.Struct, frozen=True):
    """What the last ``Viewpoint._visible_steps`` read: the steps a side may see, up to ``length``."""

    file_length: int  # the file's length then
    length: int  # steps in the effective history then
    steps: array.array[int]


class Viewpoint(msgspec.Struct):
    game: Game
    role: str
    #: None: the live game; otherwise the number of effective events replayed.
    step: int | None = None
    _rolls_seen: _RollsSeen | None = None
    _visible: _VisibleSeen | None = None

    @property
    def live(self) -> bool:
        return self.step is None

    def state(self) -> GameState:
        return self.game.view(self.role, self.step)

    @property
    def length(self) -> int:
        """Steps in the effective history."""
        return self.game.timeline.length

    def shown_position(self) -> tuple[int, int]:
        """Where the replay is, as this role may be told: (steps so far, steps in all).

        A side counts only the events it may see (``core.log.replay.visible_steps``),
        as ``fireteam replay --as SIDE`` does.
        """
        step = self.length if self.step is None else self.step
        if self.role == REFEREE:
            return step, self.length
        steps = self._visible_steps()
        return shown_step(steps, step), len(steps)

    def _visible_steps(self) -> array.array[int]:
        """The steps whose event this role may see.

        After a command only its steps are read; after an undo or a redo,
        which change the effective history, all of them again.
        """
        length, file_length = self.length, self.game.log_length
        seen = self._visible
        if seen is not None and not strikes_changed(self.game, seen.file_length, file_length):
            steps, start = seen.steps, seen.length
        else:
            steps, start = array.array("i"), 0
        visible_steps(self.game.history, self.role, length, start, steps)
        self._visible = _VisibleSeen(file_length, length, steps)
        return steps

    def limit(self) -> int:
        """File positions before this one are in the picture (the log shows them).

        For a side, the file position just after the last event it may see up to
        the step: after the step's own event, the position would move past
        whatever lies between that event and the side's last one (a side's undone
        lines, say), and so show the side whether a hidden event came after them.
        """
        if self.step is None:
            return self.game.log_length
        if self.role == REFEREE:
            return position_after(self.game, self.step)
        steps = self._visible_steps()
        return position_after(self.game, step_of_shown(steps, shown_step(steps, self.step)))

    def recent_rolls(self, count: int) -> list[LogLine]:
        """The last ``count`` rolls this role may see, newest last.

        After a command only its new lines are read: the rolls found last time
        stay as they were, but for those of a command an undo or a redo struck
        through or restored (read again).
        """
        limit, length = self.limit(), self.game.log_length
        last = self._rolls_seen
        if last is not None and last.count == count and 0 <= limit - last.limit <= ROLL_SCAN_STEP:
            rolls = last.rolls
            struck = struck_commands(self.game, last.length, length)
            if struck:  # an undo or a redo: only its command's rolls are read again, the rest are as they were
                rolls = [self._line(r.index) if r.cmd in struck else r for r in rolls]
            new = self._rolls_between(last.limit, limit, count)
            found = (rolls + new)[-count:] if new else rolls
        else:
            found = []
            for a, b in windows(limit, max(0, limit - ROLL_SCAN_LIMIT), ROLL_SCAN_STEP):
                found[:0] = self._rolls_between(a, b, count - len(found))
                if len(found) >= count:
                    break
            found = found[-count:]
        self._rolls_seen = _RollsSeen(limit, length, count, found)
        return found

    def _line(self, index: int) -> LogLine:
        """The line at file position ``index``, which this role may see, read again."""
        (line,) = self.game.log_lines(self.role, index, index + 1)
        return line

    def _rolls_between(self, start: int, end: int, want: int) -> list[LogLine]:
        """The last ``want`` rolls this role may see among file positions ``start``..``end``."""
        # Only those rolls are put into words, newest first: describing every
        # event of the window cost an undo or a redo (which rescan it) most of its time.
        game = self.game
        rolls = [i for i, e in enumerate(game.history.store.slice(start, end), start) if isinstance(e, ev.Rolled)]
        out: list[LogLine] = []
        for i in reversed(rolls):
            if len(out) >= want:
                break
            out += game.log_lines(self.role, i, i + 1)
        out.reverse()
        return out


def strikes_changed(game: Game, start: int, end: int) -> bool:
    """Whether file positions ``start``..``end`` hold an undo or a redo.

    Those are the only events that change lines already written (they strike
    a command's lines through, or restore them).
    """
    kinds = game.history.store.kinds
    return kinds.find(UNDONE, start, end) >= 0 or kinds.find(REDONE, start, end) >= 0


def struck_commands(game: Game, start: int, end: int) -> frozenset[int]:
    """The commands an undo or a redo at file positions ``start``..``end`` struck through or restored.

    Only those commands' lines changed (their ``undone``): what was kept of
    every other line stays as it is.
    """
    store = game.history.store
    kinds = store.kinds
    found: set[int] = set()
    for kind in (UNDONE, REDONE):
        at = kinds.find(kind, start, end)
        while at >= 0:
            marker = store[at]
            assert isinstance(marker, ev.Undone | ev.Redone)
            found.add(marker.cmd)
            at = kinds.find(kind, at + 1, end)
    return frozenset(found)


def position_after(game: Game, step: int) -> int:
    """The file position just after the ``step``-th effective event (0 before any)."""
    if step <= 0:
        return 0
    for _start, end in game.history.ranges(step - 1, step):
        return end
    return game.log_length


def visible_step(game: Game, role: str, step: int, direction: int) -> int:
    """The next (direction 1) or previous (-1) step whose event ``role`` may see.

    Stepping over the events hidden from a side means a side's replay never
    pauses on a moment where nothing it can see changed.
    """
    length = game.timeline.length
    if direction > 0:
        s = step + 1
        while s <= length:
            if event_visible(game.history.timeline(s - 1, s)[0], role):
                return s
            s += 1
        return length
    s = step - 1
    while s > 0:
        if event_visible(game.history.timeline(s - 1, s)[0], role):
            return s
        s -= 1
    return 0
