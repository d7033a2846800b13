"""What makes a game one entry of a league: its players by their league names, one player a
side's at most, and no game entered twice (issue #90).

A player's **league name** is the club identity of the key he was seated with, else the club
identity his seated name folds to (``core.league.names``), else the spelling of that name the
league met first, else the name itself: the same player under one name all season, whatever
case or Unicode form a table typed.  A side may have several players (partners, a replacement):
each is credited with the side's result.  A game counts once: a game with the id of one in the
league (the same save again, or a what-if fork of it: a fork keeps its parent's first
commitment), the same save's bytes, or the same play (the same commands, dice and players: the
game played again from the same seed under a new id) is the game it repeats.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from core.language.i18n import _
from core.league.certificate import Certificate, NotCounted
from core.league.names import folded
from core.league.signatures import Signer

#: What a signature by the league's organiser who played no side confirms.
ORGANISER = "organiser"


class Entered(Protocol):
    """A game already in the league, as far as a repeat is judged."""

    number: int
    line: int
    cert: Certificate


@dataclass(frozen=True)
class Club:
    """A club's names as a league resolves them: by key fingerprint, and by folded name."""

    by_key: dict[str, str]
    by_name: dict[str, str]

    @staticmethod
    def of(signers: list[Signer]) -> Club:
        kept = [s for s in signers if not s.revoked]
        return Club({s.fingerprint: s.identity for s in kept}, {folded(s.identity): s.identity for s in kept})


def league_names(cert: Certificate, club: Club, known: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """Each side's players by league name (``known``: folded name → the spelling the league met
    first); NotCounted if a side has no player, the game has other than two sides, or one player
    (his name folded, or his key) sits on both."""
    names: dict[str, tuple[str, ...]] = {}
    for side in sorted({*cert.scores, *(p.side for p in cert.players)}):
        seated = cert.of_side(side)
        if not seated or any(not p.name for p in seated):
            said = _("no player was seated for {side}: a league counts games between players")
            raise NotCounted(said.format(side=side))
        found: list[str] = []
        for p in seated:
            name = club.by_key.get(p.key) if p.key else None
            if name is None:
                name = club.by_name.get(folded(p.name)) or known.get(folded(p.name)) or p.name
            if all(folded(name) != folded(n) for n in found):
                found.append(name)
        names[side] = tuple(found)
    if len(names) != 2:
        raise NotCounted(_("a game of {n} sides: a league counts games between two players").format(n=len(names)))
    sides_of: dict[str, str] = {}
    for side, players in names.items():
        for name in players:
            if sides_of.setdefault(folded(name), side) != side:
                said = _("{name} is seated on both sides of this game (names compared without case): it cannot count")
                raise NotCounted(said.format(name=repr(name)))
    keys: dict[str, str] = {}
    for p in cert.players:
        if p.key and keys.setdefault(p.key, p.side) != p.side:
            said = _("the key {key} is seated on both sides of this game (a key is one player): it cannot count")
            raise NotCounted(said.format(key=p.key))
    return names


def remember(known: dict[str, str], names: dict[str, tuple[str, ...]]) -> None:
    """The league has met these names: their spellings are the ones it keeps."""
    for players in names.values():
        for name in players:
            known.setdefault(folded(name), name)


def role_of(signer: Signer, names: dict[str, tuple[str, ...]], organiser: str) -> str:
    """What ``signer``'s signature confirms: the side one of whose players he is (any player of
    a side signs for it), else the organiser's word if he is the league's organiser, else ""."""
    who = folded(signer.identity)
    for side, players in names.items():
        if any(folded(name) == who for name in players):
            return side
    return ORGANISER if who == folded(organiser) else ""


@dataclass
class Entries:
    """The games of a league by what makes a game the same one: its id, its save, its play."""

    by_id: dict[str, Entered] = field(default_factory=dict)
    by_save: dict[str, Entered] = field(default_factory=dict)
    by_play: dict[str, Entered] = field(default_factory=dict)

    def enter(self, game: Entered) -> None:
        """``game`` is in the league (the first of any that repeat one another stays the one named)."""
        self.by_id.setdefault(game.cert.game, game)
        self.by_save.setdefault(game.cert.save_sha256, game)
        if game.cert.play:
            self.by_play.setdefault(game.cert.play, game)

    def repeat_of(self, cert: Certificate) -> tuple[Entered, str] | None:
        """The game of the league ``cert``'s game repeats, and how; None if it is a new game."""
        if cert.game in self.by_id:
            return self.by_id[cert.game], _("the same game id: the same game again, or a what-if fork of it")
        if cert.save_sha256 in self.by_save:
            return self.by_save[cert.save_sha256], _("the same save")
        if cert.play and cert.play in self.by_play:
            said = _("the same commands, dice and players: the game played again under a new id")
            return self.by_play[cert.play], said
        return None
