"""Which lines of the file a role's log pane shows, kept as positions only.

The log pane is virtual: it never holds more than the lines on screen.  To
scroll it needs to know how many lines there are and which file event each row
is.  The rows are the events ``core.log.views.event_visible`` lets the role see, but
for the game's inner variables (``Reading.inner``: a ruleset's ``key = value`` with no
words, shown where a referee digs, not between the lines he scans).  For the
referee, who sees every event, only the positions of those few are kept; for a
side or a spectator, the positions of its rows, in an ``array`` (8 bytes a row)
extended as the game grows.  The events themselves are not kept; their text
comes from ``Game.log_lines(role, ...)``.

A filter (unit, side, kind or words) is the same thing built from the role's
own log lines, scanned in windows so a 100,000-event game does not freeze the
screen while it is filtered.  Only ``kind:var`` finds the inner variables.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator

import msgspec

from core.game import Game, LogLine
from core.log import events as ev
from core.log.views import REFEREE, event_visible
from core.storage.store import CHUNK, VAR

SCAN_WINDOW = 4096
VAR_TAG = str(ev.VarSet.__struct_config__.tag)  # the kind of every inner variable


class RowIndex:
    """Rows of a role's log → file positions."""

    def __init__(self, game: Game, role: str) -> None:
        self.game = game
        self.role = role
        #: The referee sees every event: his rows are the file positions but for the
        #: few skipped (its inner variables), and only those are kept.
        self.referee = role == REFEREE
        self.positions = array("q")  # a side's rows
        self.skipped = array("q")  # the referee's skipped positions, and each less the skipped before it
        self.shifted = array("q")
        self.scanned = 0
        self.extend()

    def extend(self) -> None:
        """Take in the events appended since the last call."""
        n = self.game.log_length
        store = self.game.history.store
        role, inner, header = self.role, self.game.reading.inner, self.game.reading.hidden_header
        start = self.scanned
        while start < n:
            end = min(n, start - start % CHUNK + CHUNK)
            if not self.referee:
                events = enumerate(store.slice(start, end), start)
                shown = (i for i, e in events if (event_visible(e, role) and not inner(e)) or header(i, e, role))
                self.positions.extend(shown)
            # A chunk that holds no variable (its kinds say so) is not decoded: a big save's
            # start would decode every chunk for the referee, as it does for a side's seat.
            elif store.kinds.find(VAR, start, end) >= 0:
                for i, e in enumerate(store.slice(start, end), start):
                    if inner(e):
                        self.shifted.append(i - len(self.skipped))
                        self.skipped.append(i)
            start = end
        self.scanned = max(self.scanned, n)

    def rows(self, limit: int | None = None) -> int:
        """How many rows lie before file position ``limit`` (all rows if None)."""
        if self.referee:
            limit = self.scanned if limit is None else min(limit, self.scanned)
            return limit - bisect_left(self.skipped, limit)
        return len(self.positions) if limit is None else bisect_left(self.positions, limit)

    def position(self, row: int) -> int:
        if self.referee:
            return row + bisect_right(self.shifted, row)
        return self.positions[row]

    def row_of(self, position: int) -> int:
        """The row showing ``position``, or the first row after it."""
        if self.referee:
            return position - bisect_left(self.skipped, position)
        return bisect_left(self.positions, position)


# ---------------------------------------------------------------------- filters


class LogFilter(msgspec.Struct, frozen=True):
    """``unit:ahmed side:regulars kind:roll words…``: every part must match."""

    units: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    words: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> LogFilter:
        units: list[str] = []
        sides: list[str] = []
        kinds: list[str] = []
        words: list[str] = []
        for word in text.lower().split():
            key, sep, value = word.partition(":")
            if sep and key in ("unit", "u") and value:
                units.append(value)
            elif sep and key in ("side", "s") and value:
                sides.append(value)
            elif sep and key in ("kind", "k") and value:
                kinds.append(value)
            else:
                words.append(word)
        return cls(tuple(units), tuple(sides), tuple(kinds), tuple(words))

    def __bool__(self) -> bool:
        return bool(self.units or self.sides or self.kinds or self.words)

    def describe(self) -> str:
        parts = [f"unit:{u}" for u in self.units] + [f"side:{s}" for s in self.sides]
        parts += [f"kind:{k}" for k in self.kinds] + list(self.words)
        return " ".join(parts)

    def matches(self, line: LogLine, unit_side: Callable[[str], str]) -> bool:
        e = line.event
        if line.inner and VAR_TAG not in self.kinds:  # dug out by asking for them by their kind
            return False
        if self.kinds and event_kind(e) not in self.kinds and not any(event_kind(e).startswith(k) for k in self.kinds):
            return False
        if self.units:
            ids = event_units(e)
            if not any(u == i.lower() or i.lower().startswith(u) for u in self.units for i in ids):
                text = line.text.lower()
                if not any(u in text for u in self.units):
                    return False
        if self.sides:
            sides = {s.lower() for s in event_sides(e, unit_side)}
            if not any(any(s == x or x.startswith(s) for x in sides) for s in self.sides):
                return False
        if self.words:
            text = line.text.lower()
            if not all(w in text for w in self.words):
                return False
        return True


def event_kind(e: ev.Event) -> str:
    """The event's tag as saved (roll, move, status, cmd, phase, dp, …)."""
    return str(type(e).__struct_config__.tag)  # (msgspec types a tag str or int: every event's is a str)


def event_units(e: ev.Event) -> tuple[str, ...]:
    if isinstance(e, ev.UnitAdded):
        return (e.unit.id,)
    unit = getattr(e, "unit", "")
    return (unit,) if isinstance(unit, str) and unit else ()


def event_sides(e: ev.Event, unit_side: Callable[[str], str]) -> set[str]:
    out: set[str] = set()
    for u in event_units(e):
        side = unit_side(u)
        if side:
            out.add(side)
    match e:
        case ev.UnitAdded():
            out.add(e.unit.side)
        case ev.DefeatPoints():
            out.add(e.side)
        case ev.Spotted():
            out.add(e.by_side)
        case ev.Issued() | ev.Undone() | ev.Redone():
            out.add(e.by)
        case ev.PhaseBegan():
            out.update(s for s in (e.active, e.reacting) if s)
        case ev.SecretSet():
            out.add(e.owner)
    return out


class FilteredIndex:
    """Rows of a role's log that match a filter; built by :meth:`scan` a window at a time."""

    def __init__(self, game: Game, role: str, flt: LogFilter, unit_side: Callable[[str], str]) -> None:
        self.game = game
        self.role = role
        self.filter = flt
        self.unit_side = unit_side
        self.positions = array("q")
        self.scanned = 0

    @property
    def done(self) -> bool:
        return self.scanned >= self.game.log_length

    def scan(self, budget: int = SCAN_WINDOW) -> None:
        """Look at up to ``budget`` more file events."""
        end = min(self.game.log_length, self.scanned + budget)
        for line in self.game.log_lines(self.role, self.scanned, end):
            if self.filter.matches(line, self.unit_side):
                self.positions.append(line.index)
        self.scanned = end

    def extend(self) -> None:
        while not self.done:
            self.scan()

    def rows(self, limit: int | None = None) -> int:
        return len(self.positions) if limit is None else bisect_left(self.positions, limit)

    def position(self, row: int) -> int:
        return self.positions[row]

    def row_of(self, position: int) -> int:
        return bisect_left(self.positions, position)


def windows(start: int, stop: int, step: int) -> Iterator[tuple[int, int]]:
    """[a, b) windows from ``start`` towards ``stop`` (backwards when stop < start)."""
    if stop >= start:
        for a in range(start, stop, step):
            yield a, min(stop, a + step)
    else:
        b = start
        while b > stop:
            a = max(stop, b - step)
            yield a, b
            b = a
