"""What an event uses of its club's league, in one place (``core.league``).

* the league's season, read and judged again as the league reads it (``core.league.season``):
  its identity (the SHA-256 of its signed settings), its organiser, its points for a win, a draw
  and a loss, its allowed signers (the club's keys), its players' names;
* its counted games, for each player's rating in a ruleset (round one's seeding);
* ``league add``: a certified, signed game added to the league exactly as the command does (its
  seat confirmations vouched for with the organiser's key), or found there already (the same
  certificate), and that record; the organiser's key checked to be his before it vouches;
* an event's game found in the league, as the league judged it (``League.held``): the event
  counts only what its league counts;
* names compared as the league compares them (``core.league.names``), and the organiser's
  signing (``core.league.organiser``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import msgspec

from core.language.i18n import _
from core.league import certificate as certs
from core.league import organiser, season, standings
from core.league.certificate import Certificate, NotCounted
from core.league.folding import RECEIPT_CHARS, Game, Season, receipt
from core.league.levels import counts
from core.league.names import folded
from core.league.records import Added
from core.league.signatures import BadSignature, Signer, check

#: A game as the league records it (``league add``): the event keeps the same record.
LeagueGame = Added

__all__ = [
    "RECEIPT_CHARS",
    "BadSignature",
    "Certificate",
    "League",
    "LeagueGame",
    "NotCounted",
    "Signer",
    "folded",
    "receipt",
]


@dataclass(frozen=True)
class League:
    season: Season

    @property
    def path(self) -> Path:
        return self.season.path

    @property
    def id(self) -> str:
        return organiser.league_id(self.season.opened)

    @property
    def name(self) -> str:
        return self.season.opened.name

    @property
    def organiser(self) -> str:
        return self.season.opened.organiser

    @property
    def points(self) -> tuple[int, int, int]:
        """The league's points for a win, a draw and a loss."""
        o = self.season.opened
        return o.win, o.draw, o.loss

    @property
    def signers(self) -> list[Signer]:
        return self.season.signers

    def member(self, name: str) -> str | None:
        """The club identity ``name`` folds to (``Anna``, ``ＡＮＮＡ``: ``anna``), None if none."""
        return self.season.club.by_name.get(folded(name))

    def key_of(self, name: str) -> Signer | None:
        """The club's valid key named ``name`` exactly (the first, where a player has several)."""
        return next((s for s in self.signers if s.identity == name and not s.revoked), None)

    def signer(self, data: bytes, armored: str, at_ms: int, namespace: str) -> Signer:
        """The club's key that signed ``data`` in ``namespace``, judged at ``at_ms`` as
        ``ssh-keygen -Y verify`` judges it; BadSignature saying why not."""
        return check(data, armored.encode("ascii", "replace"), self.signers, at_ms / 1000, namespace, recorded=True)

    def held(self, where: str, game: Added) -> tuple[dict[str, tuple[str, ...]], list[str]]:
        """The league's own record of an event's game, as the league judged it: each side's
        players, and why it does not count ([] if it does).  An event's copy is only a pointer: a
        game the league does not hold (a certificate no one added, unsigned, any winner: appended
        to the event file by hand), one the league flags, or one below the level it counts does
        not count in the event either."""
        try:
            cert = certificate(game)
        except NotCounted as e:
            return {}, [f"{where}: {e}"]
        held = self.season.entered.by_id.get(cert.game)
        if not isinstance(held, Game) or held.cert != cert:
            said = _("{where}: not a game the league holds (a table's game is added to the league first)")
            return {}, [said.format(where=where)]
        if held.problems or not counts(held.level, held.rule):
            said = _("{where}: the league does not count it ({level}; {standing})")
            return held.players, [said.format(where=where, level=_(held.level), standing=_(held.standing))]
        return held.players, []


def load(path: Path) -> League:
    """The league at ``path``, judged again (SaveError if it cannot be read or is damaged;
    NotCounted if its settings are not those its organiser signed)."""
    return League(season.load(path))


def ratings(league: League, ruleset: str) -> dict[str, float]:
    """Each player's rating in ``ruleset``: the league's fit over its counted games (docs/league.md)."""
    table = standings.table(league.season)
    return {row.player: row.ratings[ruleset][0] for row in table.rows if ruleset in row.ratings}


def certificate(game: Added) -> Certificate:
    """The certificate a league game holds (NotCounted if it is none)."""
    try:
        return msgspec.json.decode(game.certificate, type=Certificate)
    except (msgspec.ValidationError, msgspec.DecodeError) as e:
        raise NotCounted(str(e)) from None


def load_certificate(path: Path) -> Certificate:
    return certs.load(path)[0]


def sign(data: bytes, key: Path, namespace: str) -> str:
    """``data`` signed with ``key`` in ``namespace`` by ``ssh-keygen -Y sign`` (the organiser's way)."""
    return organiser.sign(data, key, namespace)


def add(path: Path, save: Path, cert: Path, sigs: list[Path], key: Path | None = None) -> Added:
    """``league add`` of the game (``key``: the organiser's, to vouch for its seat confirmations),
    or its record if this certificate is in the league already (an event's add that failed after
    the league's is run again): the game as recorded."""
    given = load_certificate(cert)
    held = _held(path, given)
    if held is None:
        season.add(path, save, cert, sigs, key)
        held = _held(path, given)
    assert held is not None
    return held


def check_key(league: League, key: Path) -> None:
    """NotCounted unless ``key`` signs as the league's organiser (``serve --event``, at its start)."""
    season.check_key(league.season, key)


def _held(path: Path, given: Certificate) -> Added | None:
    """The league's record of exactly this certificate, if it has one."""
    journal, _season = season.read(path)
    for record in journal.records:
        if isinstance(record, Added) and certificate(record) == given:
            return record
    return None
