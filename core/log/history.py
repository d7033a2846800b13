"""Branching history: which commands are in effect after undos and redos.

The file keeps everything; this module works out the *effective* history, the
events of the commands currently in force, in order.  Undo takes the last
effective command off; redo puts back the last undone one; a new command after
an undo abandons the redo branch (it stays in the file, like a reflog).

Commands are numbered 1, 2, 3… in file order, so per-command facts live in
arrays indexed by command number.  The effective timeline is kept as *runs*:
stretches of the store that are effective back to back.  A game with few undos
has few runs, so mapping a step of the timeline to the store is a bisection.
"""

from __future__ import annotations

import operator
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from itertools import compress
from typing import cast

from core.language.i18n import _
from core.log import events as ev
from core.storage.store import ISSUED, REDONE, UNDONE, EventStore

#: Kind bytes to 1 for the history markers (command, undo, redo), 0 for the rest.
_MARKER = bytes(ISSUED <= kind <= REDONE for kind in range(256))
#: Kind bytes to 1 for undo and redo markers.
_TURN = bytes(kind in (UNDONE, REDONE) for kind in range(256))
#: Kind bytes to 1 for command markers.
_ISSUED = bytes(kind == ISSUED for kind in range(256))
#: The kind bytes that are not markers (deleted to leave the markers' kinds).
_NOT_MARKER = bytes(kind for kind in range(256) if not ISSUED <= kind <= REDONE)
_cmd_of = operator.attrgetter("cmd")
_n_of = operator.attrgetter("n")
#: A byte to the byte after it (255 to 0, which no span is).
_ONE_MORE = bytes((k + 1) % 256 for k in range(256))


#: The most facts one command may hold: a record claiming more is damage (and
#: the writer refuses to write such a command, so every save loads again).
MAX_COMMAND_EVENTS = 100_000


#: What :meth:`History.restore` takes (all that feeding the events finds).
RESTORED = (
    "group_start",
    "group_end",
    "live",
    "eff_cmds",
    "redoable",
    "length",
    "run_step",
    "run_store",
    "undone_at",
)


class HistoryError(ValueError):
    pass


def _at(event: int, what: str) -> HistoryError:
    """``event N: what``: the prefix stays as it is (``core.storage.savefile`` reads the line
    number from it); the rest is in the reader's language."""
    return HistoryError(f"event {event}: {what}")


def _missing(event: int, cmd: int) -> HistoryError:
    return _at(event, _("command {cmd} is missing events").format(cmd=cmd))


def _outside(event: int) -> HistoryError:
    return _at(event, _("a fact outside any command"))


class History:
    def __init__(self, store: EventStore | None = None) -> None:
        self.store = store if store is not None else EventStore()
        # Indexed by command number (0 unused).
        self.group_start = array("q", [0])
        self.group_end = array("q", [0])
        self.live = bytearray(1)
        #: The effective commands, in the order they took effect (a redo may
        #: follow a command given after the undo, if that one was hidden).
        self.eff_cmds = array("q")
        self.redoable = array("q")
        #: Number of effective events.
        self.length = 0
        #: The shortest ``length`` has been since :meth:`take_low_water`: an undo
        #: followed by new commands can leave ``length`` longer than before while
        #: the events below it changed, so a fold that read up to the old length
        #: must go back to here.
        self.low_water = 0
        # Runs: run k covers steps [run_step[k], run_step[k+1] or length) and
        # starts at store index run_store[k].
        self.run_step = array("q")
        self.run_store = array("q")
        #: Where the latest undo of each undone command stands in the store.
        self.undone_at: dict[int, int] = {}
        self._open_cmd = 0  # a command whose events are still arriving
        self._cursor = 0  # store index up to which the structure is checked

    @property
    def next_cmd(self) -> int:
        return len(self.group_start)

    # -------------------------------------------------------------------- feeding

    def feed(self, events: list[ev.Event], base: int) -> None:
        """Take events that were just added to the store at index ``base``.

        Only the markers are looked at (found by their kind byte in the store);
        the facts between them are checked by counting.  A run of commands with
        no undo or redo between them, the usual case, is taken in bulk.
        """
        end = base + len(events)
        kinds = self.store.kinds
        window = kinds[base:end]
        markers = list(compress(range(base, end), window.translate(_MARKER)))
        # Where the undo and redo markers stand among the markers: the commands
        # between two of them are one run, taken in bulk.
        n = len(markers)
        marker_kinds = window.translate(None, _NOT_MARKER)
        turns = list(compress(range(n), marker_kinds.translate(_TURN)))
        fitting = self._fitting(events, base, window, markers, marker_kinds)
        if fitting is not None:
            self._take_fitting(events, base, markers, turns, fitting)
            return
        i = 0
        for j in [*turns, n]:
            if i < j:
                self._settle(markers[i], at_marker=True)
                self._issue(events, base, markers[i:j], markers[j] if j < n else end, at_marker=j < n)
            if j < n:
                self._turn(events, base, markers[j])
            i = j + 1
        self._settle(end, at_marker=False)

    def _turn(self, events: list[ev.Event], base: int, p: int) -> None:
        """The undo or redo marker at store index ``p``."""
        self._settle(p, at_marker=True)
        e = cast(ev.Undone | ev.Redone, events[p - base])  # the caller found a marker at p
        if type(e) is ev.Undone:
            self._undo(e.cmd, p)
        else:
            self._redo(e.cmd, p)
        self._cursor = p + 1

    def _take_fitting(
        self,
        events: list[ev.Event],
        base: int,
        markers: list[int],
        turns: list[int],
        fitting: tuple[list[ev.Issued], list[int], list[int], list[int]],
    ) -> None:
        """A batch whose commands ``_fitting`` found fitting: every command's start and
        end stored at once, then each run of commands between two undos or redos put
        in effect, and each undo and redo taken, in order (as ``feed`` does for any
        batch, with the questions each run would ask answered already)."""
        heads, cmds, starts, ends = fitting
        end = base + len(events)
        first = len(self.group_start)
        self.group_start.fromlist(starts)
        self.group_end.fromlist(ends)  # (all but a last command whose facts may be still to come)
        self.live.extend(bytes(len(starts)))
        n = len(markers)
        h = 0  # the first command of the batch not yet taken
        i = 0
        for j in [*turns, n]:
            if i < j:
                self._settle(markers[i], at_marker=True)
                took = j - i
                complete = took
                if h + took > len(ends):  # the batch's last marker, a command: its facts may be still to come
                    last = heads[-1]
                    if not 0 <= last.n <= MAX_COMMAND_EVENTS:
                        said = _("command claims {n} facts (from 0 to {limit})")
                        raise _at(starts[-1] + 1, said.format(n=last.n, limit=MAX_COMMAND_EVENTS))
                    if last.cmd != first + len(starts) - 1:
                        raise _at(starts[-1] + 1, _("command out of order or malformed"))
                    last_end = starts[-1] + 1 + last.n
                    self.group_end.append(last_end)
                    if last_end < end:
                        raise _outside(last_end + 1)
                    ends = [*ends, last_end]
                    complete -= last_end > end
                if complete:
                    self._in_effect(heads[h : h + complete], cmds[h : h + complete], starts[h], ends[h + complete - 1])
                if complete < took:
                    self._open_cmd = first + h + complete
                    self._cursor = starts[-1] + 1
                h += took
            if j < n:
                self._turn(events, base, markers[j])
            i = j + 1
        self._settle(end, at_marker=False)

    def _in_effect(self, heads: list[ev.Issued], cmds: list[int], start: int, end: int) -> None:
        """Commands ``cmds`` (markers ``heads``), back to back in the store from ``start``
        to ``end``, complete: put in effect."""
        if self.redoable:
            self._abandon_redo(heads)
        run_step, run_store = self.run_step, self.run_store
        if not run_step or run_store[-1] + (self.length - run_step[-1]) != start:
            run_step.append(self.length)
            run_store.append(start)
        self.live[cmds[0] : cmds[-1] + 1] = b"\x01" * len(cmds)
        self.eff_cmds.fromlist(cmds)
        self.length += end - start
        self._cursor = end

    def _fitting(
        self, events: list[ev.Event], base: int, window: bytearray, markers: list[int], marker_kinds: bytearray
    ) -> tuple[list[ev.Issued], list[int], list[int], list[int]] | None:
        """The command markers of ``events`` (from store index ``base``), their numbers,
        where they start and where they end (all but the last marker of all's),
        if every one of them but the last marker of all is numbered next and claims exactly
        the facts up to the marker after it; else None (``_issue`` then finds what is wrong).

        The questions ``_issue`` would ask of each run of commands, asked once for
        the whole batch: a pass of C over its commands for each.  Facts between two
        markers of one batch are fewer than ``MAX_COMMAND_EVENTS``, so a count that
        fits is in range too.
        """
        if len(events) > MAX_COMMAND_EVENTS:
            return None
        heads: list[ev.Issued] = list(compress(events, window.translate(_ISSUED)))  # type: ignore[arg-type]
        if not heads:
            return heads, [], [], []
        # From each command marker to the marker after it (the end of the batch after
        # the last): its own facts and itself.  (Small numbers: Python makes none anew.)
        among = marker_kinds.translate(_ISSUED)
        starts = list(compress(markers, among))
        nexts = list(compress([*markers[1:], base + len(events)], among))
        spans = list(map(operator.sub, nexts, starts))
        checked = len(heads) - (marker_kinds[-1] == ISSUED)  # the last marker's facts may be still to come
        first = len(self.group_start)
        cmds = list(map(_cmd_of, heads))
        # Numbered next: from the next number, rising, to as many more (integers all).
        if checked and not (
            cmds[0] == first
            and cmds[checked - 1] == first + checked - 1
            and all(map(operator.lt, cmds, cmds[1:checked]))
        ):
            return None
        # As bytes (a pass of C each, no list): a count or a span past 255 is no byte,
        # and such a batch goes run by run.
        try:
            if bytes(map(_n_of, heads[:checked])).translate(_ONE_MORE) != bytes(spans[:checked]):
                return None
        except ValueError:
            return None
        return heads, cmds, starts, nexts[:checked]

    def _settle(self, i: int, *, at_marker: bool) -> None:
        """Check the facts in [cursor, i) against the open command, closing it if complete."""
        if self._open_cmd:
            group_end = self.group_end[self._open_cmd]
            if i < group_end:
                if at_marker:
                    raise _missing(i + 1, self._open_cmd)
                return  # the rest of the command is still to come
            if i > group_end:
                raise _outside(group_end + 1)
            self._close()
        elif i != self._cursor:
            raise _outside(self._cursor + 1)

    def _issue(self, events: list[ev.Event], base: int, starts: list[int], limit: int, *, at_marker: bool) -> None:
        """Commands whose markers stand at ``starts``, back to back, before ``limit``,
        each checked (a batch ``_fitting`` did not find fitting)."""
        first = len(self.group_start)
        heads, ends = self._checked_run(events, base, starts, first)
        # (``fromlist``: half the time of ``extend`` for a list.)
        self.group_start.fromlist(starts)
        self.group_end.fromlist(ends)
        self.live.extend(bytes(len(starts)))
        last_end = ends[-1]
        if last_end > limit and at_marker:
            raise _missing(limit + 1, first + len(starts) - 1)
        if last_end < limit:
            raise _outside(last_end + 1)
        complete = len(starts) if last_end == limit else len(starts) - 1
        if complete:
            self._in_effect(heads[:complete], list(range(first, first + complete)), starts[0], ends[complete - 1])
        if complete < len(starts):
            self._open_cmd = first + complete
            self._cursor = starts[-1] + 1

    def _checked_run(
        self, events: list[ev.Event], base: int, starts: list[int], first: int
    ) -> tuple[list[ev.Issued], list[int]]:
        """The markers of a run of commands and where each ends, checked one run at a
        time (a batch ``_fitting`` did not find fitting): HistoryError naming the
        first command out of order, claiming too many facts, or not followed by its own."""
        # One pass of C over the commands for each question (no Python code per command).
        heads = cast(list[ev.Issued], list(map(events.__getitem__, map(base.__rsub__, starts))))  # starts: markers
        ns = list(map(_n_of, heads))
        if (
            list(map(_cmd_of, heads)) != list(range(first, first + len(heads)))
            or min(ns) < 0
            or max(ns) > MAX_COMMAND_EVENTS
        ):
            bad, e = next(
                (p, e)
                for k, (p, e) in enumerate(zip(starts, heads, strict=True))
                if e.cmd != first + k or not 0 <= e.n <= MAX_COMMAND_EVENTS
            )
            if not 0 <= e.n <= MAX_COMMAND_EVENTS:
                raise _at(
                    bad + 1, _("command claims {n} facts (from 0 to {limit})").format(n=e.n, limit=MAX_COMMAND_EVENTS)
                )
            raise _at(bad + 1, _("command out of order or malformed"))
        ends = list(map(operator.add, starts, map((1).__add__, ns)))
        if ends[:-1] != starts[1:]:
            k = next(k for k in range(len(starts) - 1) if ends[k] != starts[k + 1])
            if ends[k] > starts[k + 1]:
                raise _missing(starts[k + 1] + 1, first + k)
            raise _outside(ends[k] + 1)
        return heads, ends

    def _close(self) -> None:
        cmd = self._open_cmd
        self._open_cmd = 0
        self._cursor = self.group_end[cmd]
        if self.redoable:
            self._abandon_redo([self.issued(cmd)])
        self._push(cmd)

    def _abandon_redo(self, heads: list[ev.Issued]) -> None:
        """A new command abandons the redo branch, unless some side may not see it.

        A side's redo must not depend on what it cannot see (docs/architecture.md,
        *History, undo and redo*): a command hidden from anyone keeps the branch,
        and a command carried past an undo takes only its original off it.
        """
        for head in heads:
            if not self.redoable:
                break  # nothing left to abandon
            if head.carries:
                if head.carries in self.redoable:
                    self.redoable.remove(head.carries)
            elif not head.vis:
                del self.redoable[:]

    def _push(self, cmd: int) -> None:
        start = self.group_start[cmd]
        run_step, run_store = self.run_step, self.run_store
        if not run_step or run_store[-1] + (self.length - run_step[-1]) != start:
            run_step.append(self.length)
            run_store.append(start)
        self.live[cmd] = 1
        self.eff_cmds.append(cmd)
        self.length += self.group_end[cmd] - start

    def _undo(self, cmd: int, where: int) -> None:
        if not self.eff_cmds or self.eff_cmds[-1] != cmd:
            raise _at(where + 1, _("undo of command {cmd}, which is not the last in effect").format(cmd=cmd))
        self.eff_cmds.pop()
        self.live[cmd] = 0
        self.redoable.append(cmd)
        self.undone_at[cmd] = where
        self.length -= self.group_end[cmd] - self.group_start[cmd]
        self.low_water = min(self.low_water, self.length)
        while self.run_step and self.run_step[-1] >= self.length:  # runs wholly past the end
            self.run_step.pop()
            self.run_store.pop()

    def _redo(self, cmd: int, where: int) -> None:
        if not self.redoable or self.redoable[-1] != cmd:
            raise _at(where + 1, _("redo of command {cmd}, which is not the last undone").format(cmd=cmd))
        self.redoable.pop()
        self._push(cmd)

    def take_low_water(self) -> int:
        """The shortest the effective history has been since the last call."""
        low, self.low_water = self.low_water, self.length
        return low

    def pending(self) -> tuple[int, int] | None:
        """(command, first index) of a command whose events have not all arrived."""
        return (self._open_cmd, self.group_start[self._open_cmd]) if self._open_cmd else None

    def drop_pending(self) -> None:
        """Forget a command torn off the end of a file (the store was truncated)."""
        if self._open_cmd:
            self._cursor = self.group_start[self._open_cmd]
            del self.group_start[-1]
            del self.group_end[-1]
            del self.live[-1]
            self._open_cmd = 0

    def restore(self, fields: dict[str, array[int] | bytearray | dict[int, int] | int]) -> None:
        """Take what feeding every event of the store found (``core.storage.opencache``,
        which checks it): the arrays and counts named as this class names them,
        with no command left open."""
        for name in RESTORED:
            setattr(self, name, fields[name])
        self.low_water = self.length
        self._open_cmd = 0
        self._cursor = len(self.store)

    # -------------------------------------------------------------------- queries

    def last_effective(self) -> int | None:
        return self.eff_cmds[-1] if self.eff_cmds else None

    def next_redo(self) -> int | None:
        return self.redoable[-1] if self.redoable else None

    def issued(self, cmd: int) -> ev.Issued:
        return self.store[self.group_start[cmd]]  # type: ignore[return-value]

    def group(self, cmd: int) -> list[ev.Event]:
        return self.store.slice(self.group_start[cmd], self.group_end[cmd])

    def is_live(self, cmd: int) -> bool:
        return bool(self.live[cmd])

    def ranges(self, a: int, b: int) -> Iterator[tuple[int, int]]:
        """Store index ranges holding timeline steps [a, b)."""
        b = min(b, self.length)
        k = bisect_right(self.run_step, a) - 1
        while a < b and 0 <= k < len(self.run_step):
            run_end = self.run_step[k + 1] if k + 1 < len(self.run_step) else self.length
            take = min(b, run_end) - a
            start = self.run_store[k] + (a - self.run_step[k])
            yield start, start + take
            a += take
            k += 1

    def stretches(self, a: int, b: int) -> tuple[list[int], list[int], list[int]]:
        """The same store ranges as :meth:`ranges`, as three lists: the step each begins
        at, and where it begins and ends in the store.

        Worked out from the runs' arrays by slices and ``map`` (no Python code per
        range: a fold through a game with an undo every hundred events meets
        twenty ranges in two thousand steps)."""
        b = min(b, self.length)
        if a >= b:
            return [], [], []
        run_step, run_store = self.run_step, self.run_store
        first = bisect_right(run_step, a) - 1
        last = bisect_left(run_step, b)  # the runs ``first`` to ``last - 1`` hold steps [a, b)
        steps = run_step[first:last].tolist()
        starts = run_store[first:last].tolist()
        starts[0] += a - steps[0]
        steps[0] = a
        ends = list(map(operator.add, starts, map(operator.sub, [*steps[1:], b], steps)))
        return steps, starts, ends

    def timeline(self, a: int = 0, b: int | None = None) -> list[ev.Event]:
        """The effective events in steps [a, b)."""
        b = self.length if b is None else b
        out: list[ev.Event] = []
        for start, end in self.ranges(a, b):
            out.extend(self.store.slice(start, end))
        return out

    def command_at(self, index: int) -> int:
        """The command a store index belongs to (0 for undo/redo markers)."""
        c = bisect_right(self.group_start, index) - 1
        return c if c > 0 and index < self.group_end[c] else 0
