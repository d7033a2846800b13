"""The event file's records: an event log framed as a save (``core.storage.journal``), beside its league.

One line each, in the order they happened: the event's settings (signed by the league's
organiser), each entry and drop, each round's pairing, the round's clock, each certified game
(the league's own ``game`` record, with its round and table) and each ruling.  No record holds a
typed result: a table ends by a certified game or by the organiser's ruling.  Standings and the
next pairing are folded from these records every time (``core.event.state``).

Every record a person decides carries that person's signature (``core.event.signing``): the
settings, entries, clocks and rulings the organiser's, a drop the player's or the organiser's.
A pairing is the engine's, derived again from the file (``fireteam event check``); a game carries
its players' signatures of its certificate.
"""

from __future__ import annotations

from typing import Union

import msgspec

from core.event.league import LeagueGame
from core.language.i18n import N_
from core.log.recordint import RecordInt

#: The event's own format (its records' shapes).
EVENT_FORMAT = 1
#: A name, a reason: at most this many characters.
MAX_TEXT = 500
#: The pairing systems (``event new --system``).
SWISS, ROUND_ROBIN = "swiss", "roundrobin"
SEED_RATING, SEED_RANDOM = "rating", "random"
#: A ruling's kinds: a player (or both) did not come; the game was not finished at time.
NO_SHOW, UNFINISHED = N_("no-show"), N_("unfinished")
#: An unfinished game's outcome (a winner is only ever a certified game's).
DRAW, BOTH_LOSE = "draw", "both-lose"


class EventHeader(msgspec.Struct, frozen=True):
    fireteam: RecordInt  # the framing's format: a save's (core.storage.decoding.FORMAT_VERSION)
    event: RecordInt
    engine: str
    created: str


class Record(msgspec.Struct, frozen=True, tag_field="t", kw_only=True, omit_defaults=True):
    #: When it was recorded (unix milliseconds): not signed (a statement is signed by what it says).
    at: RecordInt = 0
    #: The armored OpenSSH signature of the record's statement (``core.event.signing``).
    signature: str = ""


class Opened(Record, frozen=True, tag="new"):
    """The event's settings, signed by the league's organiser."""

    name: str
    #: The league file as given, and the SHA-256 of its season's record (which league it is).
    league: str
    league_id: str
    organiser: str
    ruleset: str
    scenario: str
    #: The scenario's title, as a certificate names it.
    title: str
    #: The scenario's two sides, in its order: the pairing's two colours.
    sides: tuple[str, str]
    system: str  # SWISS | ROUND_ROBIN
    rounds: RecordInt
    #: A round's time (0: no clock).
    minutes: RecordInt
    #: The points a bye is worth.
    bye: RecordInt
    #: Round one's order: by the league's rating, or by ``salt`` (random, committed here).
    seeding: str
    salt: str
    #: The pairing engine and its version (the same file pairs the same with it).
    engine: str


class Entered(Record, frozen=True, tag="entry"):
    """A club player entered: by his league name and his key's fingerprint; ``late`` when
    rounds were already paired (he joins from the next)."""

    name: str
    key: str
    #: His rating in the league when entered (the event's ruleset; 0 with random seeding): the
    #: engine's order, fixed here so that every later pairing is derived again the same.
    rating: RecordInt = 0
    late: bool = False


class Dropped(Record, frozen=True, tag="drop"):
    """A player leaves the event: not paired again; his games stay.  Signed by him or the organiser."""

    name: str
    by: str


class Table(msgspec.Struct, frozen=True, array_like=True):
    number: RecordInt
    #: ``a`` plays the event's first side, ``b`` its second.
    a: str
    b: str


class Paired(Record, frozen=True, tag="pairing"):
    """A round's pairing, as the engine gave it from the file's records before it."""

    round: RecordInt
    tables: tuple[Table, ...]
    #: A Swiss's bye (at most one); a round robin's too, and the opponents of players who dropped.
    byes: tuple[str, ...] = ()


class Clocked(Record, frozen=True, tag="clock"):
    """The round's clock started (``table`` 0, for ``minutes``), or a table's time extended."""

    round: RecordInt
    minutes: RecordInt
    table: RecordInt = 0


class Played(Record, frozen=True, tag="game"):
    """A table's certified game, exactly as ``league add`` recorded it in the league."""

    round: RecordInt
    table: RecordInt
    game: LeagueGame


class Ruled(Record, frozen=True, tag="ruling"):
    """The organiser's ruling that ends a table without a game: who did not come
    (``absent``), or a game unfinished at time and its ``outcome`` (DRAW, BOTH_LOSE): never a winner."""

    round: RecordInt
    table: RecordInt
    kind: str  # NO_SHOW | UNFINISHED
    why: str
    absent: tuple[str, ...] = ()
    outcome: str = ""


AnyRecord = Union[Opened, Entered, Dropped, Paired, Clocked, Played, Ruled]
decode_record = msgspec.json.Decoder(AnyRecord).decode
