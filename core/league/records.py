"""The league file's records: an event log framed as a save (``core.storage.journal``).

The header names the framing's format (``fireteam``, a save's) and the league's own
(``league``); then, one line each, in the order they happened: the club's opening (its
points, its allowed signers, its organiser, which games it counts, signed by its organiser),
each game added (its certificate as signed, its signatures), each dispute and each ruling
(signed by the organiser).  Nothing is ever rewritten: standings are folded from these records
every time they are shown, each signature checked again (``core.league.season``).

Format 2 (issue #90) signs the season's settings and the rulings, names every player of a
side, and says which games count; a format-1 file (before it) is read, said to be older, and
not written to (``core.league.season``).
"""

from __future__ import annotations

from typing import Union

import msgspec

from core.language.i18n import N_
from core.log.recordint import RecordInt

#: The league's own format (its records' shapes): this Fireteam writes 2 and reads 1 and 2.
LEAGUE_FORMAT = 2
#: The format before the organiser signed the season (issue #90): read, never written to.
UNSIGNED_FORMAT = 1
#: A name, a reason, a ruling's words: at most this many characters.
MAX_TEXT = 500


class LeagueHeader(msgspec.Struct, frozen=True):
    fireteam: RecordInt  # the framing's format: a save's (core.storage.decoding.FORMAT_VERSION)
    league: RecordInt
    engine: str
    created: str


class Record(msgspec.Struct, frozen=True, tag_field="t", kw_only=True, omit_defaults=True):
    #: When it was recorded (unix milliseconds).
    at: RecordInt = 0


class Opened(Record, frozen=True, tag="new"):
    """The club's season: its name, its W/D/L points, its players' keys, its organiser, which
    games count; signed by the organiser (``core.league.organiser``)."""

    name: str
    win: RecordInt
    draw: RecordInt
    loss: RecordInt
    #: The allowed_signers file as given (``core.league.signatures``).
    signers: str
    #: The identity, among the signers, of the organiser (who confirms and rules).
    organiser: str
    #: Which games count (``core.league.levels.COUNTED_LEVELS``); "" in a format-1 league: every one.
    counts: str = ""
    #: The organiser's signature of the record without it (namespace ``fireteam-league``); "" in format 1.
    signature: str = ""


class Signed(msgspec.Struct, frozen=True):
    """A signature that counted: whose key, and the armored signature itself (so that anyone
    holding the league file can check it again)."""

    identity: str
    fingerprint: str
    signature: str
    #: What it confirms: a side's id (its player signed) or "organiser".
    as_: str = msgspec.field(name="as")


class Added(Record, frozen=True, tag="game"):
    """A game added: its certificate exactly as signed, and the signatures that counted."""

    certificate: str
    signed: tuple[Signed, ...]
    #: The league's names of each side's players (their club identities, or the names they were
    #: seated by): one name a side in format 1, every player of the side in format 2.
    players: dict[str, Union[str, tuple[str, ...]]]
    #: The sides whose player confirmed this certificate at his seat (``Confirmed`` in the save):
    #: the table host's word, which is the organiser's at a club, so it counts only with ``vouched``.
    confirmed: tuple[str, ...] = ()
    #: The organiser's signature of those confirmations (``core.league.organiser.vouch_data``);
    #: "" where there are none, or where the game was added before he signed them (then not counted).
    vouched: str = ""


class Disputed(Record, frozen=True, tag="dispute"):
    """A game disputed: it stops counting until the organiser rules."""

    game: str  # the certificate's game id
    by: str
    why: str


class Ruled(Record, frozen=True, tag="rule"):
    """The organiser's ruling on a disputed game: it stands, is void, or counts with another result."""

    game: str
    ruling: str  # STANDS | VOID | RESULT
    why: str
    winner: str = ""
    draw: bool = False
    #: The organiser's signature of the ruling, bound to its league (``core.league.organiser``);
    #: "" in format 1.
    signature: str = ""


STANDS, VOID, RESULT = N_("stands"), N_("void"), N_("result")

AnyRecord = Union[Opened, Added, Disputed, Ruled]
decode_record = msgspec.json.Decoder(AnyRecord).decode
