"""A venue past one machine: what a table publishes on NATS, and how what comes back is checked.

A table (``fireteam serve --nats URL``) publishes, after each command, each role's own
view: the side's copy ``fireteam export --as ROLE`` would write (``core.secrets.sidecopy``),
never the referee's.  Each view is a whole document (the log as that role sees it), so
the newest one is all a follower needs: a relay that arrives late, or a table that comes
back after NATS was gone, sends or reads one message per role, not a tail.

Subjects and streams (docs/ssh.md, *A venue on NATS*):

* ``fireteam.spectator.TABLE`` in the stream ``FIRETEAM_SPECTATORS``: the spectator's view.
  A relay's credentials read this stream and nothing else.
* ``fireteam.side.TABLE.ROLE`` in ``FIRETEAM_SIDES``: each side's view, for its players'
  own tools; a relay never reads it.  Kept apart so that the spectators' stream's sequence
  numbers count the spectators' views only: one shared with the sides would step on for
  each fact a side saw that the spectators did not.
* ``fireteam.writer.TABLE`` in ``FIRETEAM_WRITERS``: who publishes the table (a claim).
* ``fireteam.chances.TABLE`` in ``FIRETEAM_CHANCES``: a finished table's chances (issue #62),
  measured by its server from the full save (they re-roll hidden orders too: the spectators'
  view cannot give them), once the game is over and every secret opened.  Relays read it.
  Its message is ``core.report.venue``'s.

Each stream keeps one message per subject.  A message's id (``Nats-Msg-Id``) is
``TABLE.ROLE.N``, N counting that role's views: a view re-sent after a lost answer is
dropped by the stream as a duplicate, and N, like the bytes, depends only on what the role
saw, never on what was hidden from it.  A table whose count started again (the stream held a
view it did not sign) may reuse an id of its earlier run: dropped as a repeat, the view is
published again under the next count (:meth:`TableViews.counted_on`, ``tui.ssh.venue.table``).

This module is pure (no NATS client): ``tui.ssh.venue`` holds the connection.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

import msgspec

from core.log.views import REFEREE, SPECTATOR
from core.secrets import sidecopy

if TYPE_CHECKING:  # (a table's game; the venue's options are parsed for ``fireteam --help``, without the engine)
    from core.game import Game

STREAM_SPECTATORS = "FIRETEAM_SPECTATORS"
STREAM_SIDES = "FIRETEAM_SIDES"
STREAM_WRITERS = "FIRETEAM_WRITERS"
SPECTATOR_SUBJECTS = "fireteam.spectator.*"
SIDE_SUBJECTS = "fireteam.side.*.*"
WRITER_SUBJECTS = "fireteam.writer.*"
STREAM_CHANCES = "FIRETEAM_CHANCES"
CHANCES_SUBJECTS = "fireteam.chances.*"
#: Each stream and the subjects it keeps.
STREAMS = {
    STREAM_SPECTATORS: SPECTATOR_SUBJECTS,
    STREAM_SIDES: SIDE_SUBJECTS,
    STREAM_WRITERS: WRITER_SUBJECTS,
    STREAM_CHANCES: CHANCES_SUBJECTS,
}

#: A table's or a role's name as a subject's token: NATS gives ``.``, ``*``, ``>`` and spaces meanings.
NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: The largest view published or read: NATS's default ``max_payload`` (a whole recorded game is 30–61 KB).
MAX_VIEW_BYTES = 1 << 20
#: The largest claim read (a few names and a time).
MAX_CLAIM_BYTES = 1024
#: How many tables a relay follows at most (a venue has tens): a flood of subjects is not memory without end.
MAX_TABLES = 1000


class VenueError(ValueError):
    """A name that cannot be a subject, or a message that is not what it claims."""


def checked_name(name: str, what: str) -> str:
    if not NAME.fullmatch(name):
        raise VenueError(
            f"{what} {name!r} cannot name a NATS subject: use letters, digits, '-' and '_' only (at most 64)"
        )
    return name


def chances_subject(table: str) -> str:
    return f"fireteam.chances.{checked_name(table, 'table')}"


def spectator_subject(table: str) -> str:
    return f"fireteam.spectator.{checked_name(table, 'table')}"


def side_subject(table: str, role: str) -> str:
    return f"fireteam.side.{checked_name(table, 'table')}.{checked_name(role, 'side')}"


def writer_subject(table: str) -> str:
    return f"fireteam.writer.{checked_name(table, 'table')}"


def view_subject(table: str, role: str) -> str:
    return spectator_subject(table) if role == SPECTATOR else side_subject(table, role)


def table_of(subject: str) -> str:
    """The table a spectator subject names; VenueError if it is not one."""
    prefix = "fireteam.spectator."
    if not subject.startswith(prefix):
        raise VenueError(f"not a spectator subject: {subject[:100]!r}")
    return checked_name(subject[len(prefix) :], "table")


def view_bytes(game: Game, role: str) -> bytes:
    """``role``'s view: the bytes ``fireteam export --as ROLE`` writes, less its closing newline."""
    if role == REFEREE:
        raise VenueError("the referee's view never leaves the table")
    return msgspec.json.encode(sidecopy.export(game, role))


def roles(game: Game) -> list[str]:
    """Every role whose view is published: each side, and the spectators."""
    return [*game.state.sides, SPECTATOR]


def message_id(table: str, role: str, count: int) -> str:
    return f"{table}.{role}.{count}"


def count_in(msg_id: str, table: str, role: str) -> int:
    """N of a message id ``TABLE.ROLE.N`` for that table and role; 0 if it is not one (a table starts over)."""
    head = f"{table}.{role}."
    tail = msg_id[len(head) :] if msg_id.startswith(head) else ""
    return int(tail) if tail.isdigit() and len(tail) <= 12 else 0


class Publication(NamedTuple):
    role: str
    subject: str
    msg_id: str
    body: bytes


class TableViews:
    """What a table has published of each role's view, and what it has to publish next."""

    def __init__(self, table: str) -> None:
        self.table = checked_name(table, "table")
        self.sent: dict[str, bytes] = {}
        self.count: dict[str, int] = {}

    def resume(self, role: str, body: bytes, msg_id: str) -> None:
        """What the stream holds for ``role`` already (from an earlier run, or before NATS went away)."""
        self.sent[role] = body
        self.count[role] = count_in(msg_id, self.table, role)

    def changes(self, game: Game) -> list[Publication]:
        """The views that differ from the last one published (none when nothing a role sees changed)."""
        out = []
        for role in roles(game):
            body = view_bytes(game, role)
            if body != self.sent.get(role):
                if len(body) > MAX_VIEW_BYTES:
                    raise VenueError(f"{role}'s view is {len(body)} bytes, more than a message may be")
                n = self.count.get(role, 0) + 1
                out.append(Publication(role, view_subject(self.table, role), message_id(self.table, role, n), body))
        return out

    def counted_on(self, publication: Publication) -> Publication:
        """The same view under the next count (its id was one the stream holds already: ``published`` it not)."""
        n = count_in(publication.msg_id, self.table, publication.role) + 1
        return publication._replace(msg_id=message_id(self.table, publication.role, n))

    def published(self, publication: Publication) -> None:
        self.sent[publication.role] = publication.body
        self.count[publication.role] = count_in(publication.msg_id, self.table, publication.role)


def spectator_view(subject: str, data: bytes) -> tuple[str, sidecopy.SideCopy]:
    """A spectator subject's message as (table, copy), checked as hostile input: its subject, its size, its
    format (``sidecopy.decode``) and its role.  VenueError or SaveError if it is not one."""
    table = table_of(subject)
    if len(data) > MAX_VIEW_BYTES:
        raise VenueError(f"{subject}: {len(data)} bytes is more than a view may be ({MAX_VIEW_BYTES})")
    copy = sidecopy.decode(data, subject)
    if copy.role != SPECTATOR:
        raise VenueError(f"{subject}: a view of {copy.role[:64]!r}, not the spectators'")
    return table, copy


class Claim(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Who publishes a table: a token of the running ``fireteam serve``, its host, since when.

    ``released`` when that server stopped and let go of it.  ``save``: the absolute path of the
    save it writes (a claim of a Fireteam from before names none): a server of the same host that
    opened the same save for writing holds its lock, so the claim's server is gone (it crashed) and
    the table is taken over without ``--nats-take-over`` (``tui.ssh.venue.table``)."""

    writer: str
    host: str
    since: str
    released: bool = False
    save: str = ""


def read_claim(data: bytes) -> Claim | None:
    """A claim from its message; None if it is not one (a claim nobody could read holds nothing)."""
    if len(data) > MAX_CLAIM_BYTES:
        return None
    try:
        return msgspec.json.decode(data, type=Claim)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
