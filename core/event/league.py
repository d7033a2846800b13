"""What an event uses of its club's league, in one place (``core.league``).

The league is changing (issue #90: several players a side, its own re-checks, receipts); an
event reads it only through this module, so adapting to the new league is a change here:

* the league's season record: its identity (the SHA-256 of that record's JSON), its organiser,
  its points for a win, a draw and a loss, its allowed signers (the club's keys);
* its counted games, for each player's rating in a ruleset (round one's seeding);
* ``league add``: a certified, signed game added to the league exactly as the command does, or
  found there already (the same certificate), and that record;
* the certificate's shape, its loading, the club's signature check (``core.league.signatures``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import msgspec

from core.league import certificate as certs
from core.league import season, standings
from core.league.certificate import Certificate, NotCounted
from core.league.records import Added
from core.league.signatures import BadSignature, Signer, check

#: A game as the league records it (``league add``): the event keeps the same record.
LeagueGame = Added

__all__ = ["BadSignature", "Certificate", "League", "LeagueGame", "NotCounted", "Signer", "check"]


@dataclass(frozen=True)
class League:
    path: Path
    id: str
    name: str
    organiser: str
    #: The league's points for a win, a draw and a loss.
    points: tuple[int, int, int]
    signers: tuple[Signer, ...]

    def key_of(self, name: str) -> Signer | None:
        """The club's key named ``name`` exactly (the first, where a player has several)."""
        return next((s for s in self.signers if s.identity == name), None)


def load(path: Path) -> League:
    """The league at ``path`` (SaveError if it cannot be read or is damaged)."""
    found = season.load(path)
    o = found.opened
    return League(path, league_id(o), o.name, o.organiser, (o.win, o.draw, o.loss), tuple(found.signers))


def ratings(league: League, ruleset: str) -> dict[str, float]:
    """Each player's rating in ``ruleset``: the league's fit over its counted games (docs/league.md)."""
    table = standings.table(season.load(league.path))
    return {row.player: row.ratings[ruleset][0] for row in table.rows if ruleset in row.ratings}


def league_id(opened: msgspec.Struct) -> str:
    """A league's identity: the SHA-256 (hex) of its season record as the file holds it."""
    return hashlib.sha256(msgspec.json.encode(opened)).hexdigest()


def certificate(game: Added) -> Certificate:
    """The certificate a league game holds (NotCounted if it is none)."""
    try:
        return msgspec.json.decode(game.certificate, type=Certificate)
    except (msgspec.ValidationError, msgspec.DecodeError) as e:
        raise NotCounted(str(e)) from None


def load_certificate(path: Path) -> Certificate:
    return certs.load(path)[0]


def add(path: Path, save: Path, cert: Path, sigs: list[Path]) -> Added:
    """``league add`` of the game, or its record if this certificate is in the league already
    (an event's add that failed after the league's is run again): the game as recorded."""
    given = load_certificate(cert)
    held = _held(path, given)
    if held is None:
        season.add(path, save, cert, sigs)
        held = _held(path, given)
    assert held is not None
    return held


def _held(path: Path, given: Certificate) -> Added | None:
    """The league's record of exactly this certificate, if it has one."""
    journal, _season = season.read(path)
    for record in journal.records:
        if isinstance(record, Added) and certificate(record) == given:
            return record
    return None
