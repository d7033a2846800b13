"""A side's copy of a game: ``fireteam export SAVE --as ROLE``, what that role saw.

A copy is one JSON document: the save's header less its dice seed (which would
let a side work out dice to come), the role, the number of effective steps, and
every effective event the role may see (``views.event_visible``) with its step
(the replay step at which it holds: the event at index ``i`` of the effective
history has step ``i + 1``).  A side keeps it and checks it with
``fireteam verify`` (``core.secrets.verify``): every secret revealed to it matches the
commitment it saw being made.  It cannot be loaded, replayed or forked as a
game: it lacks what the role could not see.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import msgspec

from core import events as ev
from core.game import Game
from core.language.i18n import _
from core.storage.savefile import MAX_FILE_BYTES, SaveError
from core.views import event_visible

#: The version of the copy's format, and its first key (how a copy is told from a save).
COPY_VERSION = 1
_OPENING = b'{"fireteam_copy":'


class CopyHeader(msgspec.Struct, frozen=True, omit_defaults=True):
    ruleset: str
    ruleset_version: str
    engine: str
    created: str
    variant: str = ""


class SideCopy(msgspec.Struct, frozen=True):
    fireteam_copy: int
    role: str
    header: CopyHeader
    steps: int
    events: list[tuple[int, ev.AnyEvent]]


@dataclass(frozen=True)
class Step:
    """One event of an effective history, with its step."""

    step: int
    event: ev.Event


def export(game: Game, role: str) -> SideCopy:
    h = game.header
    header = CopyHeader(h.ruleset, h.ruleset_version, h.engine, h.created, h.variant)
    events = [(i + 1, e) for i, e in enumerate(game.history.timeline()) if event_visible(e, role)]
    return SideCopy(COPY_VERSION, role, header, game.timeline.length, events)


def write(copy: SideCopy, to: Path) -> None:
    """Write ``copy`` into a new file (never an existing one), synced."""
    data = msgspec.json.encode(copy) + b"\n"
    try:
        fd = os.open(to, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        said = _("{path}: already exists; choose another name with -o (files are never overwritten)")
        raise SaveError(said.format(path=to)) from None
    except OSError as e:
        said = _("{path}: cannot create: {error}; choose another place with {option}")
        raise SaveError(said.format(path=to, error=e.strerror, option="-o")) from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
    except OSError as e:
        to.unlink(missing_ok=True)
        raise SaveError(_("{path}: cannot write: {error}").format(path=to, error=e.strerror)) from None


def looks_like_side_copy(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(len(_OPENING)) == _OPENING
    except OSError:
        return False


def read(path: Path) -> SideCopy:
    """A side's copy, checked as hostile input: its format, its size and its steps."""
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_FILE_BYTES:
                said = _("{path}: {size} bytes is larger than a copy can be ({limit} bytes)")
                raise SaveError(said.format(path=path, size=size, limit=MAX_FILE_BYTES))
            data = f.read(size)
    except FileNotFoundError:
        raise SaveError(_("{path}: no such file; check the name").format(path=path)) from None
    except OSError as e:
        raise SaveError(_("{path}: cannot read: {error}").format(path=path, error=e.strerror)) from None
    try:
        copy = msgspec.json.decode(data, type=SideCopy)
    except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError, RecursionError) as e:
        raise SaveError(_("{path}: not a valid side's copy of a game: {error}").format(path=path, error=e)) from None
    if copy.fireteam_copy > COPY_VERSION or copy.fireteam_copy < 1:
        said = _("{path}: a side's copy in format {version}; this Fireteam reads format 1")
        raise SaveError(said.format(path=path, version=copy.fireteam_copy))
    last = 0
    for step, _event in copy.events:
        if not last < step <= copy.steps:
            said = _("{path}: step {step} out of order (after {last}, of {steps}): the copy is damaged")
            raise SaveError(said.format(path=path, step=step, last=last, steps=copy.steps))
        last = step
    return copy


def steps(copy: SideCopy) -> list[Step]:
    return [Step(step, e) for step, e in copy.events]
