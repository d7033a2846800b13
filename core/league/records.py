"""The league file's records: an event log framed as a save (``core.storage.journal``).

The header names the framing's format (``fireteam``, a save's) and the league's own
(``league``); then, one line each, in the order they happened: the club's opening (its
points, its allowed signers, its organiser), each game added (its certificate as signed,
its signatures), each dispute and each ruling.  Nothing is ever rewritten: standings are
folded from these records every time they are shown (``core.league.season``).
"""

from __future__ import annotations

from typing import Union

import msgspec

from core.language.i18n import N_
from core.log.recordint import RecordInt

#: The league's own format (its records' shapes).
LEAGUE_FORMAT = 1
#: A name, a reason, a ruling's words: at most this many characters.
MAX_TEXT = 500


class LeagueHeader(msgspec.Struct, frozen=True):
    fireteam: RecordInt  # the framing's format: a save's (core.storage.savefile.FORMAT_VERSION)
    league: RecordInt
    engine: str
    created: str


class Record(msgspec.Struct, frozen=True, tag_field="t", kw_only=True, omit_defaults=True):
    #: When it was recorded (unix milliseconds).
    at: RecordInt = 0


class Opened(Record, frozen=True, tag="new"):
    """The club's season: its name, its W/D/L points, its players' keys, its organiser."""

    name: str
    win: RecordInt
    draw: RecordInt
    loss: RecordInt
    #: The allowed_signers file as given (``core.league.signatures``).
    signers: str
    #: The identity, among the signers, of the organiser (who confirms and rules).
    organiser: str


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
    #: The league's name of each side's player (its club identity, or the name it was seated by).
    players: dict[str, str]
    #: The sides whose player confirmed this certificate at his seat (``Confirmed`` in the save).
    confirmed: tuple[str, ...] = ()


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


STANDS, VOID, RESULT = N_("stands"), N_("void"), N_("result")

AnyRecord = Union[Opened, Added, Disputed, Ruled]
decode_record = msgspec.json.Decoder(AnyRecord).decode
