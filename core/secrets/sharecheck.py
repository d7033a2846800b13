"""``fireteam verify SAVE --side-copy RECORD``: a browser page's record of the shares of the dice it
sent, held against the game's rolls (docs/secrets.md, "The player's own check of his dice").

A browser seat's page draws each share of the dice itself and keeps what it sent (its
``localStorage``, downloaded by its "My dice record" button): for each share, its bytes, the key
commitment it named, the seat's count it named and the seat.  The door is the host's: a proxy in
front of it can swap a share's bytes for bytes ground against the key, or drop it so that the table
draws.  The save records what each roll was drawn from (``SharedRoll``: the bytes, the commitment
the share named, the seat and its count), so the record names every roll of its seat whose share is
not the one the page sent, or that the page sent none for.

The record is hostile input like any file: its size, its format and every field are checked.  A
record holds the last ``KEPT_SHARES`` shares the page drew; a roll of the seat counted before the
record's first share is older than the record, and is said so, not failed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

import msgspec

from core.game import Game
from core.language.i18n import _, ngettext, render
from core.log import events as ev
from core.log.state import DICE_KEY
from core.secrets import commitments, shown
from core.secrets.sidecopy import Step, looks_like_side_copy, opens_with, steps
from core.secrets.sidecopy import read as read_copy
from core.storage.errors import SaveError
from core.storage.savefile import open_regular

#: The record's format, as the pages write it (``tui/ssh/web/page/shares.mjs``).
RECORD_VERSION = 1
#: The shares a page keeps (its ``KEPT_SHARES``), and a record's size at most (each share about 250 bytes).
KEPT_SHARES = 500
MAX_RECORD_BYTES = 1 << 20
#: The rolls that differ named one by one; past them, only counted.
MAX_NAMED = 10
_OPENING = b'{"fireteam_shares":'

_Hex32 = Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{32}$")]
_Seal = Annotated[str, msgspec.Meta(pattern=r"^([0-9a-f]{64})?$")]
_Keys = Annotated[str, msgspec.Meta(pattern=r"^([0-9a-f]{64})?$")]
_Count = Annotated[int, msgspec.Meta(ge=1, le=10**9)]
_Short = Annotated[str, msgspec.Meta(max_length=64)]


class Sent(msgspec.Struct, array_like=True, frozen=True):
    """One share the page sent: when, its bytes, the key commitment and the count it named, the digest
    of the keys it was for and the seat it was sent from."""

    time: _Short
    contribution: _Hex32
    seal: _Seal
    count: _Count
    keys: _Keys
    seat: _Short


class Record(msgspec.Struct, forbid_unknown_fields=True):
    fireteam_shares: int
    shares: Annotated[list[Sent], msgspec.Meta(max_length=4 * KEPT_SHARES)]
    #: The page's address (where it was downloaded from), for the reader.
    page: Annotated[str, msgspec.Meta(max_length=300)] = ""


def looks_like_record(path: Path) -> bool:
    return opens_with(path, _OPENING)


def read(path: Path) -> Record:
    """A page's record, checked as hostile input: its size, its format and each share's fields."""
    try:
        with open(open_regular(path), "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > MAX_RECORD_BYTES:
                said = _("{path}: {size} bytes is larger than a page's record of its dice can be ({limit} bytes)")
                raise SaveError(said.format(path=path, size=size, limit=MAX_RECORD_BYTES))
            data = f.read(size)
    except FileNotFoundError:
        raise SaveError(_("{path}: no such file; check the name").format(path=path)) from None
    except OSError as e:
        raise SaveError(_("{path}: cannot read: {error}").format(path=path, error=e.strerror)) from None
    try:
        record = msgspec.json.decode(data, type=Record)
    except (msgspec.ValidationError, msgspec.DecodeError, UnicodeDecodeError, RecursionError) as e:
        said = _("{path}: not a valid record of a page's dice: {error}")
        raise SaveError(said.format(path=path, error=shown(str(e)))) from None
    if record.fireteam_shares != RECORD_VERSION:
        said = _("{path}: a record of a page's dice in format {version}; this Fireteam reads format 1")
        raise SaveError(said.format(path=path, version=record.fireteam_shares))
    return record


@dataclass
class SharesCompared:
    """A page's record against the rolls of a game: the rolls of its seats that did not use its shares."""

    record: Path
    seats: list[str] = field(default_factory=list)
    #: The commands of the record's seats whose rolls were checked (one share each), and those older than it.
    checked: int = 0
    older: int = 0
    differs: list[str] = field(default_factory=list)
    more: int = 0

    @property
    def ok(self) -> bool:
        return not self.differs and bool(self.seats)

    def report(self) -> list[str]:
        lines = list(self.differs)
        if self.more:
            lines.append(_("… and {n} more rolls differ").format(n=self.more))
        if not self.seats:
            said = _("page's record {record}: it names none of this game's keys (a record of another game)")
            return [*lines, said.format(record=self.record)]
        if self.ok:
            verdict = _("each used the share this page sent")
        else:
            verdict = _("{n} did not use the share this page sent").format(n=len(self.differs) + self.more)
        if self.older:
            verdict += _(" ({n} older than the record: not checked)").format(n=self.older)
        said = ngettext(
            "page's record {record} ({seats}): {n} rolled share checked: {verdict}",
            "page's record {record} ({seats}): {n} rolled shares checked: {verdict}",
            self.checked,
        )
        seats = ", ".join(shown(s) for s in self.seats)
        return [*lines, said.format(record=self.record, seats=seats, n=self.checked, verdict=verdict)]

    def as_json(self) -> dict:
        return {
            "file": str(self.record),
            "seats": self.seats,
            "checked": self.checked,
            "older": self.older,
            "differ": self.differs,
            "more": self.more,
        }


def compare(path: Path, record_path: Path) -> SharesCompared:
    """The page's record at ``record_path`` against the rolls of the game at ``path``: a full save's
    effective history, or a side's copy (the player's own, which holds his rolls)."""
    if looks_like_side_copy(path):
        return compare_steps(steps(read_copy(path)), record_path)
    game = Game.open(path, writable=False)
    try:
        return compare_steps([Step(i + 1, e) for i, e in enumerate(game.history.timeline())], record_path)
    finally:
        game.close()


def compare_steps(history: list[Step], record_path: Path) -> SharesCompared:
    """The page's record at ``record_path`` against the rolls of ``history``: every command of a seat
    the record names that rolled a share."""
    record = read(record_path)
    result = SharesCompared(record_path)
    rolled = [(s.step, s.event) for s in history if isinstance(s.event, ev.SharedRoll)]
    keys = {r.seal for _step, r in rolled} | {r.saw for _step, r in rolled} | _keys(history)
    mine = [s for s in record.shares if s.seal in keys and s.seat]  # (a share of another game names another key)
    result.seats = sorted({s.seat for s in mine})
    sent: dict[tuple[str, str, int], set[str]] = {}
    for s in mine:
        sent.setdefault((s.seat, s.seal, s.count), set()).add(s.contribution)
    first = {seat: min(s.count for s in mine if s.seat == seat) for seat in result.seats}
    done: set[tuple[str, int, str]] = set()  # a command's rolls share one share: checked once
    for step, roll in rolled:
        if roll.by not in first or (roll.by, roll.nonce, roll.contribution) in done:
            continue
        done.add((roll.by, roll.nonce, roll.contribution))
        if roll.nonce < first[roll.by]:
            result.older += 1
            continue
        result.checked += 1
        theirs = sent.get((roll.by, roll.saw, roll.nonce), set())
        if roll.contribution in theirs:
            continue
        elsewhere = sorted(k for k, v in sent.items() if k[0] == roll.by and roll.contribution in v)
        if elsewhere:
            _seat, seal, count = elsewhere[0]
            why = _("its bytes are those the page sent as share {count} under key {seal}: changed on their way")
            why = why.format(count=count, seal=seal[:16] or "-")
        elif theirs:
            why = _("the page sent {sent} for it: another share was put in its place on its way")
            why = why.format(sent=", ".join(sorted(c[:16] for c in theirs)))
        else:
            why = _("the page sent no share for it (one dropped on its way, or a line given from another browser)")
        _differ(result, _line(step, roll, why))
    return result


def _keys(history: list[Step]) -> set[str]:
    """The commitments of the dice's keys that ``history`` sets or opens (a key a page was told may
    have rolled nothing)."""
    out = set()
    for s in history:
        e = s.event
        if type(e) is ev.VarSet and e.key == DICE_KEY and e.salt:
            out.add(commitments.fact_digest(e))
        elif isinstance(e, ev.Revealed | ev.Opened) and e.key == DICE_KEY:
            out.add(e.digest)
    return out


def _line(step: int, roll: ev.SharedRoll, why: str) -> str:
    r = roll.roll
    said = _(
        "share {nonce} of {seat}, rolled at step {step} ({purpose} {count}d{sides} = {faces}, "
        "contribution {mine}): {why}"
    )
    return said.format(
        nonce=roll.nonce,
        seat=shown(roll.by),
        step=step,
        purpose=shown(render(r.purpose)),
        count=len(r.faces),
        sides=r.sides,
        faces=",".join(map(str, r.faces)),
        mine=roll.contribution[:16],
        why=why,
    )


def _differ(result: SharesCompared, line: str) -> None:
    if len(result.differs) < MAX_NAMED:
        result.differs.append(line)
    else:
        result.more += 1
