"""A finished table's chances on the venue's NATS (issue #62): the message its server publishes.

The chances re-roll every order, hidden ones too: a relay, which holds the spectators' view
only, cannot measure them.  The table's server measures them from the full save once the
game is over and every secret is opened (``build.no_chances`` for the spectators) and
publishes them on ``fireteam.chances.TABLE`` (``core.venue``); a relay shows them on the
table's report beside the view they are of.  What a relay reads may be forged: it is
decoded against this schema, bounded, checked to hold together, and only ever shown escaped.
"""

from __future__ import annotations

import hashlib
from typing import Annotated

import msgspec

from core.log import events as ev
from core.log.views import SPECTATOR, event_visible
from core.report.chances import MAX_COUNT, Chances, Point, Swing
from core.report.reroll import DRAW
from core.venue import VenueError, checked_name

#: The largest chances message published or read (a long game's is some tens of kilobytes).
MAX_CHANCES_BYTES = 256 << 10
#: Points, swings, rolls of a swing, and a roll's dice, at most, in a chances message read.
MAX_POINTS = 5000
MAX_SWINGS = 10
MAX_SWING_ROLLS = 50
MAX_FACES = 100

_Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_COUNT)]
_Name = Annotated[str, msgspec.Meta(max_length=64)]


class ChancesPoint(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    step: Annotated[int, msgspec.Meta(ge=0)]
    turn: Annotated[int, msgspec.Meta(ge=0, le=10_000)]
    cmd: Annotated[int, msgspec.Meta(ge=-1)]
    wins: Annotated[dict[_Name, _Count], msgspec.Meta(max_length=20)]
    count: _Count
    skipping: _Count = 0
    skipped: Annotated[int, msgspec.Meta(ge=0, le=MAX_COUNT * 100_000)] = 0


class ChancesRoll(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    roll: ev.Roll
    unit: _Name = ""
    side: _Name = ""


class ChancesSwing(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    #: The points it moved between, by their places in ``points``.
    before: int
    after: int
    side: _Name
    #: The order, "" when the spectators saw none of its rolls.
    order: Annotated[str, msgspec.Meta(max_length=1000)]
    rolls: Annotated[list[ChancesRoll], msgspec.Meta(max_length=MAX_SWING_ROLLS)]
    acts_first: bool = False


class TableChances(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A finished table's chances (``core.report.chances``), measured by its server from the full save.

    ``view``: the SHA-256 of the spectators' view they are of; a relay shows them with that view only."""

    view: Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]
    seed: int
    count: Annotated[int, msgspec.Meta(ge=1, le=MAX_COUNT)]
    sides: Annotated[list[_Name], msgspec.Meta(max_length=20)]
    winner: _Name
    finished: bool
    points: Annotated[list[ChancesPoint], msgspec.Meta(min_length=1, max_length=MAX_POINTS)]
    swings: Annotated[list[ChancesSwing], msgspec.Meta(max_length=MAX_SWINGS)]
    seconds: float = 0.0
    cpu_seconds: float = 0.0


def view_digest(view: bytes) -> str:
    return hashlib.sha256(view).hexdigest()


def chances_bytes(c: Chances, view: bytes) -> bytes:
    """The message of chances ``c`` of the game whose spectators' view is ``view``.

    It goes where the spectators' view goes: a swing's rolls the spectators did not see are
    left out, and its order with them (a relay says "a roll you did not see"), and the points
    are numbered in order (nothing renders their steps)."""
    index = {id(p): i for i, p in enumerate(c.points)}
    swings = []
    for s in c.swings:
        seen = [ChancesRoll(r.roll, r.unit, r.side) for r in s.rolls if event_visible(r, SPECTATOR)]
        order = s.order if seen else ""
        swings.append(ChancesSwing(index[id(s.before)], index[id(s.after)], s.side, order, seen, s.acts_first))
    # Numbered in order, not by the full save's steps and commands: those count hidden events too.
    points = [ChancesPoint(i, p.turn, i - 1, p.wins, p.count, p.skipping, p.skipped) for i, p in enumerate(c.points)]
    message = TableChances(
        view_digest(view), c.seed, c.count, c.sides, c.winner, c.finished, points, swings, c.seconds, c.cpu_seconds
    )
    body = msgspec.json.encode(message)
    if len(body) > MAX_CHANCES_BYTES:
        raise VenueError(f"the chances are {len(body)} bytes, more than a message may be ({MAX_CHANCES_BYTES})")
    return body


def read_chances(subject: str, data: bytes) -> tuple[str, TableChances]:
    """A chances message as (table, message), checked as hostile input: its subject, its size, its schema,
    and that its points and swings hold together.  VenueError if it is not one."""
    prefix = "fireteam.chances."
    if not subject.startswith(prefix):
        raise VenueError(f"not a chances subject: {subject[:100]!r}")
    table = checked_name(subject[len(prefix) :], "table")
    if len(data) > MAX_CHANCES_BYTES:
        raise VenueError(f"{subject}: {len(data)} bytes is more than chances may be ({MAX_CHANCES_BYTES})")
    try:
        m = msgspec.json.decode(data, type=TableChances)
    except (msgspec.ValidationError, msgspec.DecodeError) as e:
        raise VenueError(f"{subject}: not chances ({e})") from None
    steps = [p.step for p in m.points]
    if steps != sorted(steps) or any(sum(p.wins.values()) > max(1, p.count) for p in m.points):
        raise VenueError(f"{subject}: points out of order, or more wins than games")
    if any(p.count not in (0, m.count) or p.skipping > p.count for p in m.points):
        raise VenueError(f"{subject}: a point of another count")
    last = m.points[-1]
    if m.finished and (last.count or last.wins != {m.winner: 1}):
        raise VenueError(f"{subject}: a finished game's last point is not its result")
    if m.winner not in [*m.sides, DRAW] or any(s.side not in m.sides for s in m.swings):
        raise VenueError(f"{subject}: a side it does not have")
    for s in m.swings:
        if not 0 <= s.before < s.after < len(m.points):
            raise VenueError(f"{subject}: a swing between points it has not got")
        if any(len(r.roll.faces) > MAX_FACES for r in s.rolls):
            raise VenueError(f"{subject}: a roll of more than {MAX_FACES} dice")
    return table, m


def chances_of(m: TableChances) -> Chances:
    """The chances a message holds, as ``core.report`` renders them."""
    points = [Point(p.step, p.turn, p.cmd, dict(p.wins), p.count, p.skipping, p.skipped) for p in m.points]
    swings = [
        Swing(
            points[s.before],
            points[s.after],
            s.side,
            s.order,
            tuple(ev.Rolled(roll=r.roll, unit=r.unit, side=r.side) for r in s.rolls),
            s.acts_first,
        )
        for s in m.swings
    ]
    return Chances(m.seed, m.count, list(m.sides), points, m.winner, m.finished, swings, m.seconds, m.cpu_seconds)
