"""``fireteam salvage``: the longest valid prefix of a damaged save, copied into a new file.

A save refused as corrupt is never repaired in place.  Salvage reads it line by
line, as a load does (framing, chained check, record, command structure, the
fold), keeps every whole command before the first line that fails, and writes
those into a new save in today's format.  The original is only read.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import msgspec

from core.language.i18n import _
from core.log import events as ev
from core.log.history import History, HistoryError
from core.log.replay import Timeline
from core.registry import get_ruleset
from core.storage.decoding import FORMAT_VERSION, Header, decode_batch, decode_header
from core.storage.errors import SaveError
from core.storage.savefile import MAX_FILE_BYTES, MAX_LINE_BYTES, UPCASTERS, Chain, _line_ok, open_regular
from core.storage.writer import write_new

_any = msgspec.json.Decoder()
#: Bytes read at once where salvage counts the lines it drops.
_CHUNK = 1 << 20
_encode = msgspec.json.Encoder().encode


@dataclass
class Salvaged:
    source: Path
    to: Path
    #: Lines copied (the header included) and the commands, undos and redos among them.
    kept_lines: int
    kept_units: int
    #: Lines left behind, and the commands, undos and redos that began among them.
    dropped_lines: int
    dropped_units: int
    #: The first line left behind (0 if none) and why.
    first_dropped: int = 0
    reason: str = ""

    def report(self) -> str:
        fields = {
            "to": self.to,
            "source": self.source,
            "kept": self.kept_units,
            "lines": self.kept_lines,
            "dropped": self.dropped_lines,
            "first": self.first_dropped,
            "units": self.dropped_units,
            "reason": self.reason,
        }
        if not self.dropped_lines:
            said = _(
                "{to}: kept {kept} commands, undos and redos (lines 1-{lines}); nothing was dropped: {source} is whole"
            )
            return said.format(**fields)
        said = _(
            "{to}: kept {kept} commands, undos and redos (lines 1-{lines}); dropped {dropped} lines from line {first} "
            "({units} commands, undos and redos began there): {reason}. {source} was not changed"
        )
        return said.format(**fields)


def default_target(path: Path) -> Path:
    """``NAME.salvaged.ft`` next to the save, or ``NAME.salvaged-2.ft``…: never an existing file."""
    n = 1
    while True:
        stem = f"{path.stem}.salvaged" + ("" if n == 1 else f"-{n}")
        target = path.with_name(stem + path.suffix)
        if not target.exists():
            return target
        n += 1


def _is_unit_start(line: bytes) -> bool:
    try:
        record = _any.decode(line[9:])
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        # (RecursionError: a line nested deeper than the decoder goes, which no game writes.)
        return False
    return isinstance(record, dict) and record.get("t") in ("cmd", "undo", "redo")


def _dropped(f: BinaryIO, start: int) -> tuple[int, int]:
    """The lines of ``f`` from byte ``start`` to its end, and how many of them begin a
    command, an undo or a redo.

    Read by chunks, as a load reads: a hole of empty lines costs a count, not an object
    for each, and a line longer than a save's (a hole with no line feed in it) is
    never held whole; such a line begins nothing.
    """
    f.seek(start)
    lines = units = 0
    # The start of the line the last chunk ended in, cut one byte past a save's longest line:
    # long enough for ``_begins_unit`` to refuse it by its length, never the whole line.
    rest = b""
    while chunk := f.read(_CHUNK):
        lines += chunk.count(b"\n")
        end = chunk.rfind(b"\n")
        if end < 0:
            rest += chunk[: max(0, MAX_LINE_BYTES + 1 - len(rest))]
            continue
        units += _begins_unit(rest + chunk[: chunk.find(b"\n")])
        units += _unit_starts(chunk, chunk.find(b"\n") + 1, end)
        rest = chunk[end + 1 : end + 2 + MAX_LINE_BYTES]
    if rest:
        lines += 1  # a last line with no line feed
        units += _begins_unit(rest)
    return lines, units


def _begins_unit(line: bytes) -> bool:
    """Whether ``line`` (no line feed) begins a command, an undo or a redo; only a line
    of a save's length with a ``"t"`` in it is decoded."""
    return len(line) <= MAX_LINE_BYTES and b'"t"' in line and _is_unit_start(line)


def _unit_starts(chunk: bytes, start: int, end: int) -> int:
    """How many of the whole lines in ``chunk[start:end]`` begin a command, an undo or a redo
    (found by their ``"t"``: an empty line costs nothing)."""
    found = 0
    while (hit := chunk.find(b'"t"', start, end)) >= 0:
        begin = chunk.rfind(b"\n", start, hit) + 1 or start
        stop = chunk.find(b"\n", hit, end)
        stop = end if stop < 0 else stop
        found += _begins_unit(chunk[begin:stop])
        start = stop + 1
    return found


def salvage(path: Path, to: Path | None = None) -> Salvaged:
    """Copy the whole commands of ``path`` before its first bad line into ``to`` (a new file)."""
    path = Path(path)
    with _open_save(path) as f:
        header, chain = _read_header(path, f)
        walk = _Walk(path, header.fireteam, chain)
        walk.take_units(f)
        # The open unit, whole, and everything after it.
        first_dropped = walk.lines_read - len(walk.group) + (1 if walk.last_in_group or not walk.reason else 0)
        if not walk.reason and walk.group:
            walk.reason = _("the last command is incomplete (a torn write)")
        dropped_lines = dropped_units = 0
        if walk.reason:
            dropped_lines, dropped_units = _dropped(f, walk.group_at)
        else:
            first_dropped = 0
    target = default_target(path) if to is None else Path(to)
    write_new(target, header, walk.kept, option="--to")
    kept = walk.kept
    return Salvaged(path, target, 1 + len(kept), walk.units, dropped_lines, dropped_units, first_dropped, walk.reason)


def _open_save(path: Path) -> BinaryIO:
    """The save, open to read, no larger than a save can be; else SaveError saying why."""
    try:
        f = open(open_regular(path), "rb")
    except FileNotFoundError:
        raise SaveError(_("{path}: no such save file; check the name").format(path=path)) from None
    except OSError as e:
        raise SaveError(_("{path}: cannot read: {error}").format(path=path, error=e.strerror)) from None
    if os.fstat(f.fileno()).st_size > MAX_FILE_BYTES:
        f.close()
        said = _("{path}: larger than a save can be ({limit} bytes); is this the right file?")
        raise SaveError(said.format(path=path, limit=MAX_FILE_BYTES))
    return f


def _read_header(path: Path, f: BinaryIO) -> tuple[Header, Chain]:
    """The save's header, and the chain of checks it begins; SaveError if there is no game to salvage."""
    first = f.readline(MAX_LINE_BYTES + 1)
    if not first.endswith(b"\n") or not _line_ok(first[:-1]):
        raise SaveError(_("{path}:1: no whole header line: there is no game to salvage").format(path=path))
    header = decode_header(path, first[9:-1])
    try:
        # What a load cannot tell and an open refuses: a copy that would not
        # open either is no salvage.  (The registry, by name: no ruleset is imported here.)
        get_ruleset(header.ruleset, header.variant)
    except ValueError as e:
        said = _("{path}:1: {error}: there is no game this Fireteam can salvage")
        raise SaveError(said.format(path=path, error=e)) from None
    return header, Chain(int(first[:8], 16), header.fireteam)


class _Walk:
    """The lines after the header, read one by one as a load reads them, each whole
    unit (a command with its facts, an undo, a redo) kept until the first that fails."""

    def __init__(self, path: Path, version: int, chain: Chain) -> None:
        self.path, self.version, self.chain = path, version, chain
        self.fast = not any(UPCASTERS.get(v) for v in range(version, FORMAT_VERSION))
        self.history = History()
        self.timeline = Timeline(self.history)
        self.kept: list[bytes] = []  # payloads of the accepted units, in today's format
        self.group: list[ev.Event] = []  # the open unit
        self.need = 0  # events the open unit still lacks
        self.lines_read = 1  # the header
        self.units = 0
        self.reason = ""  # why the walk stopped, if it did before the end
        self.last_in_group = False  # whether the last line read belongs to ``group``
        self.group_at = 0  # where the open unit (or the last line read) began

    def take_units(self, f: BinaryIO) -> None:
        at = self.group_at = f.tell()  # where the next line begins
        while raw := f.readline(MAX_LINE_BYTES + 1):
            self.lines_read += 1
            if not self.group:
                self.group_at = at
            at += len(raw)
            self.reason = self._framing(raw)
            event = self._event(raw[:-1]) if not self.reason else None
            if event is None or not self._add(event):
                return

    def _framing(self, raw: bytes) -> str:
        """Why a line read is not one of the save's (framing, length, chained check), or ""."""
        line = raw[:-1]
        if not raw.endswith(b"\n"):
            return _("line too long") if len(raw) > MAX_LINE_BYTES else _("incomplete last line (a torn write)")
        if len(line) < 10 or self.chain.frame_payload(line[9:])[:9] != line[:9]:
            return _("damaged record, or a line missing, repeated or out of order before it (check mismatch)")
        return ""

    def _event(self, line: bytes) -> ev.Event | None:
        """The line's event (upcast to today's format); None, with ``reason`` said, if it is not one."""
        at = len(self.history.store) + len(self.group)
        try:
            (event,) = decode_batch(self.path, [line[9:]], at, self.version, UPCASTERS, self.fast)
        except SaveError as e:
            self.reason = e.what or str(e)  # the damage, without its "FILE:LINE: " and its advice
            return None
        return event

    def _add(self, event: ev.Event) -> bool:
        """Add ``event`` to the open unit, keeping the unit once whole; False (``reason`` said) to stop."""
        if not self.group:
            if not isinstance(event, ev.Issued | ev.Undone | ev.Redone):
                self.reason = _("a fact outside any command")
                return False
            self.need = event.n if isinstance(event, ev.Issued) else 0
        else:
            self.need -= 1
        self.group.append(event)
        if self.need > 0:
            return True
        return self._keep_unit()

    def _keep_unit(self) -> bool:
        """Fold the whole unit in; keep it if it folds, else stop (the unit is dropped whole)."""
        base = len(self.history.store)
        payloads = [_encode(e) for e in self.group]
        self.history.store.append(self.group, payloads)
        try:
            self.history.feed(self.group, base)
            self.timeline.catch_up()
        except HistoryError as e:
            self.reason = str(e).split(": ", 1)[-1]
        except (KeyError, ValueError, TypeError) as e:
            self.reason = _("the event refers to {missing}, which the game lacks").format(missing=e)
        if self.reason:
            self.last_in_group = True  # the unit is dropped whole, this line with it
            return False
        self.kept.extend(payloads)
        self.units += 1
        self.group = []
        return True
