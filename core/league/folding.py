"""A league file's records folded into its season, every signature in it judged again (issue #90).

The league does not believe its file: whoever holds it can edit a line and compute its CRC-32
chain again.  So, as the records are folded:

* the season's settings (line 2: points, organiser, keys, which games count) must carry the
  organiser's signature of them by a key the settings themselves give him; if not, nothing in
  the file is read (``Tampered``): every other check hangs on them;
* each game's stored signatures are checked again over its stored certificate, against the
  season's keys, at the time the league recorded the game (``recheck``: the standings do, a
  writer need not); its players are derived again from its certificate; its seat confirmations
  must carry the organiser's signature of them (``organiser.vouch_data``: the table host's word,
  his at a club), else the record's claim alone; a game that repeats an earlier one is named: each
  such game is *flagged*, with its line, and not counted;
* a ruling must carry the organiser's signature of it, bound to this league: one that does not
  is ignored, named.

Each game keeps its *receipt*, the league's head after its record (``core.storage.journal``), and
the season the head after the last record: ``league add`` prints the one, the standings show
both, so a file cut short of a player's game, or changed before it, is seen against his receipt.

A format-1 league (before its settings were signed) is read all the same, its games' signatures
judged again, and said to be older (``Season.older``): its settings and rulings are the file's
word alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from core.language.i18n import N_, _
from core.league import certificate as certs
from core.league import entries, organiser
from core.league.certificate import NotCounted
from core.league.levels import COUNT_ANY, counts, level_of
from core.league.names import folded
from core.league.records import (
    LEAGUE_FORMAT,
    RESULT,
    UNSIGNED_FORMAT,
    VOID,
    Added,
    AnyRecord,
    Disputed,
    LeagueHeader,
    Opened,
    Ruled,
    Signed,
)
from core.league.signatures import BadSignature, Signer, check, parse_signers
from core.storage.errors import SaveError
from core.storage.journal import Journal

#: A game's standing in the league.
COUNTED, FROZEN, VOIDED = N_("counted"), N_("disputed"), N_("void")
#: A game the league counts not: below the level it counts, or flagged by its re-check.
BELOW, FLAGGED = N_("not counted: below the level this league counts"), N_("not counted: flagged")
#: Characters of a head shown as a receipt (64 bits: no one forges a chain to match them).
RECEIPT_CHARS = 16


class Tampered(NotCounted):
    """A league file whose settings are not those its organiser signed: nothing in it is read."""


def receipt(head: bytes) -> str:
    return head.hex()[:RECEIPT_CHARS]


@dataclass(eq=False)
class Game:
    """A game of the season as the records leave it."""

    number: int
    cert: certs.Certificate
    #: side → the league's names of its players (several: partners, a replacement).
    players: dict[str, tuple[str, ...]]
    signed: tuple[Signed, ...]
    winner: str
    draw: bool
    #: The sides one of whose players confirmed it at a seat bound to him (``Confirmed`` in the
    #: save), as the organiser vouched for them.
    confirmed: tuple[str, ...] = ()
    status: str = COUNTED
    disputes: list[Disputed] = field(default_factory=list)
    rulings: list[Ruled] = field(default_factory=list)
    #: Its line in the league file, and the league's head after it (its receipt).
    line: int = 0
    head: bytes = b""
    #: What the re-check found wrong with it, each naming its line: a flagged game is not counted.
    problems: list[str] = field(default_factory=list)
    #: The league's choice of which games count (``core.league.levels``).
    rule: str = COUNT_ANY
    #: As ``league add`` added it: the seat confirmations left out, the organiser's key not given.
    unvouched: tuple[str, ...] = ()

    @property
    def level(self) -> str:
        """Its players' signatures and confirmations at their bound seats, and the league's
        organiser's signature (issue #90: nobody's word is not the organiser's)."""
        sides = {s.as_ for s in self.signed if s.as_ != entries.ORGANISER} | set(self.confirmed)
        organiser = any(s.as_ == entries.ORGANISER for s in self.signed)
        return level_of(sides, len(self.players), organiser=organiser)

    @property
    def counted(self) -> bool:
        return self.standing == COUNTED

    @property
    def standing(self) -> str:
        """Counted, disputed, void, flagged, or below the level the league counts."""
        if self.problems:
            return FLAGGED
        if self.status != COUNTED:
            return self.status
        return COUNTED if counts(self.level, self.rule) else BELOW

    @property
    def receipt(self) -> str:
        return receipt(self.head)

    def named(self, name: str) -> bool:
        """Whether ``name`` is one of its players (names folded)."""
        return any(folded(n) == folded(name) for players in self.players.values() for n in players)


@dataclass
class Season:
    path: Path
    opened: Opened
    signers: list[Signer]
    games: list[Game] = field(default_factory=list)
    #: The league file's format (``records.LEAGUE_FORMAT``; ``UNSIGNED_FORMAT`` is older).
    format: int = LEAGUE_FORMAT
    #: The league's head after its last record (``receipt``).
    head: bytes = b""
    #: The organiser's key that signed the settings (its fingerprint; "" in an older league).
    organiser_key: str = ""
    #: What the re-check found wrong outside a game (a ruling not signed), each naming its line.
    problems: list[str] = field(default_factory=list)
    #: Folded name → the spelling the league met first (``core.league.entries``).
    known: dict[str, str] = field(default_factory=dict)
    #: Its games by id, save and play (``entries.Entries``), and its club's names (``entries.Club``).
    entered: entries.Entries = field(default_factory=entries.Entries)
    club: entries.Club = field(default_factory=lambda: entries.Club({}, {}))

    @property
    def older(self) -> bool:
        """A format-1 league: its settings and rulings unsigned."""
        return self.format == UNSIGNED_FORMAT

    @property
    def flagged(self) -> list[str]:
        """Every problem the re-check found, in the file's order."""
        return [*(p for g in self.games for p in g.problems), *self.problems]

    def find(self, ref: str) -> Game:
        """A game by its number in the league or a prefix (8 characters or more) of its id."""
        if ref.isdigit() and 1 <= int(ref) <= len(self.games):
            return self.games[int(ref) - 1]
        found = [g for g in self.games if len(ref) >= 8 and g.cert.game.startswith(ref)]
        if len(found) != 1:
            said = _("{path}: no game {ref} in this league (give its number, or 8 or more characters of its id)")
            raise NotCounted(said.format(path=self.path, ref=repr(ref)))
        return found[0]


def fold(path: Path, j: Journal[LeagueHeader, AnyRecord], recheck: bool = False) -> Season:
    """The season ``j`` holds; SaveError (or Tampered) if it cannot be read as one."""
    if j.header.league not in (UNSIGNED_FORMAT, LEAGUE_FORMAT):
        said = _("{path}: a league of format {n}, made by a newer Fireteam; this one reads formats 1 and 2")
        raise SaveError(said.format(path=path, n=j.header.league))
    records = j.records
    if not records or not isinstance(records[0], Opened):
        raise SaveError(_("{path}:2: a league file begins with the club's season").format(path=path))
    opened = records[0]
    try:
        signers = parse_signers(opened.signers, strict=j.header.league != UNSIGNED_FORMAT)
    except ValueError as e:  # sound when the organiser signed them: changed since, in a format-2 league
        said = _("{path}:2: the club's keys: {error}")
        error = (SaveError if j.header.league == UNSIGNED_FORMAT else Tampered)(said.format(path=path, error=e))
        raise error from None
    season = Season(path, opened, signers, format=j.header.league, head=j.head, club=entries.Club.of(signers))
    if not season.older:
        season.organiser_key = _settings_signer(season)
    by_id: dict[str, Game] = {}
    for line, (r, head) in enumerate(zip(records[1:], j.heads[1:], strict=True), start=3):
        if isinstance(r, Added):
            game = _game(season, line, r, head, recheck)
            season.games.append(game)
            by_id.setdefault(game.cert.game, game)
            continue
        if isinstance(r, Opened):
            raise SaveError(_("{path}:{line}: a second season in one league file").format(path=path, line=line))
        found = by_id.get(r.game)
        if found is None:
            said = _("{path}:{line}: names a game the league does not hold")
            raise SaveError(said.format(path=path, line=line))
        if isinstance(r, Disputed):
            found.disputes.append(r)
            found.status = FROZEN
        elif season.older or (_ruling_signed(season, line, r) and _ruling_new(season, line, r, found)):
            found.rulings.append(r)
            found.status = VOIDED if r.ruling == VOID else COUNTED
            if r.ruling == RESULT:
                found.winner, found.draw = r.winner, r.draw
    return season


def _settings_signer(season: Season) -> str:
    """The fingerprint of the organiser's key that signed the season's settings; Tampered if none did."""
    o = season.opened
    data = organiser.settings_data(o)
    try:
        signer = check(data, o.signature.encode(), season.signers, o.at / 1000, organiser.NAMESPACE, recorded=True)
        if signer.identity == o.organiser:
            return signer.fingerprint
        why = _("signed by {who}, not the organiser {organiser}").format(who=signer.identity, organiser=o.organiser)
    except BadSignature as e:
        why = str(e)
    said = _(
        "{path}:2: the season's settings (points, organiser, keys) are not those its organiser signed ({why}): "
        "the file was changed; nothing in it can be trusted"
    )
    raise Tampered(said.format(path=season.path, why=why))


def _ruling_signed(season: Season, line: int, r: Ruled) -> bool:
    """Whether the organiser signed this ruling for this league; if not, it is named and ignored."""
    data = organiser.ruling_data(season.opened, r)
    try:
        signer = check(data, r.signature.encode(), season.signers, r.at / 1000, organiser.NAMESPACE, recorded=True)
        if signer.identity == season.opened.organiser:
            return True
        why = _("signed by {who}, not the organiser").format(who=signer.identity)
    except BadSignature as e:
        why = str(e)
    said = _("{path}:{line}: a ruling the organiser did not sign ({why}): ignored")
    season.problems.append(said.format(path=season.path, line=line, why=why))
    return False


def _ruling_new(season: Season, line: int, r: Ruled, game: Game) -> bool:
    """Whether the ruling was signed after the game's last one: a ruling of the organiser's copied
    after his later word (a dispute before it is anyone's to append) must not stand as his last,
    nor one moved after it.  Its time is in what he signed; if not later, it is named and ignored."""
    last = game.rulings[-1].at if game.rulings else None
    if last is None or r.at > last:
        return True
    said = _("{path}:{line}: a ruling signed before the game's last one (a ruling replayed): ignored")
    season.problems.append(said.format(path=season.path, line=line))
    return False


@dataclass(frozen=True)
class Judged:
    """A game record judged again: its certificate, its players derived again from it, the stored
    signatures that still hold, its seat confirmations the organiser vouched for, and what failed
    (each naming where)."""

    cert: certs.Certificate
    players: dict[str, tuple[str, ...]]
    signed: tuple[Signed, ...]
    confirmed: tuple[str, ...]
    problems: list[str]


def judge(season: Season, where: str, r: Added, recheck: bool = True) -> Judged:
    """A game record of ``season`` judged again (an event's copy of one too, ``core.event``): its
    players derived again from its certificate and, with ``recheck``, every stored signature over
    it and the organiser's vouching for its seat confirmations; SaveError if its certificate is none."""
    try:
        cert = msgspec.json.decode(r.certificate, type=certs.Certificate)
    except (msgspec.ValidationError, msgspec.DecodeError) as e:
        raise SaveError(_("{where}: not a certificate: {error}").format(where=where, error=e)) from None
    problems: list[str] = []
    stored = {side: (names,) if isinstance(names, str) else tuple(names) for side, names in r.players.items()}
    players = stored
    if cert.fireteam_result not in certs.READ_FORMATS:
        problems.append(_("{where}: a certificate of format {n}").format(where=where, n=cert.fireteam_result))
    elif not season.older:
        try:
            players = entries.league_names(cert, season.club, season.known)
        except NotCounted as e:
            problems.append(f"{where}: {e}")
        else:
            if players != stored:
                said = _("{where}: its players ({stored}) are not those its certificate gives ({derived})")
                problems.append(said.format(where=where, stored=_listed(stored), derived=_listed(players)))
    if season.older:
        _older_holds(where, r, cert, problems)
    signed = _signatures(season, where, r, players, problems) if recheck else r.signed
    confirmed = _vouched(season, where, r, cert, problems) if recheck else r.confirmed
    return Judged(cert, players, signed, confirmed, problems)


def _older_holds(where: str, r: Added, cert: certs.Certificate, problems: list[str]) -> None:
    """Name a game record no format-1 league holds: 0.2.0, the only Fireteam that wrote one,
    wrote a certificate of format 1, one player a side, and no organiser's vouching.  A format-2
    league whose header is turned to format 1 makes its settings the file's word (its organiser,
    its keys): its records, and a vouching signed by whoever the file names, must not count."""
    several = any(not isinstance(names, str) for names in r.players.values())
    if cert.fireteam_result != 1 or several or r.vouched:
        said = _("{where}: a record no league of format 1 holds (a later Fireteam's): the file was changed")
        problems.append(said.format(where=where))


def _game(season: Season, line: int, r: Added, head: bytes, recheck: bool) -> Game:
    """One game record, judged again as far as asked."""
    where = f"{season.path}:{line}"
    judged = judge(season, where, r, recheck)
    cert, players, problems = judged.cert, judged.players, judged.problems
    entries.remember(season.known, players)
    repeated = season.entered.repeat_of(cert)
    if repeated is not None:
        earlier, how = repeated
        said = _("{where}: repeats game {n} (line {line}): {how}")
        problems.append(said.format(where=where, n=earlier.number, line=earlier.line, how=how))
    game = Game(len(season.games) + 1, cert, players, judged.signed, cert.winner, cert.draw, judged.confirmed)
    game.line, game.head, game.problems, game.rule = line, head, problems, season.opened.counts or COUNT_ANY
    season.entered.enter(game)
    return game


def _signatures(
    season: Season,
    where: str,
    r: Added,
    players: dict[str, tuple[str, ...]],
    problems: list[str],
) -> tuple[Signed, ...]:
    """The stored signatures that still hold: each over the stored certificate, by a key of the
    season's at the time the game was recorded, for what the record says it confirms."""
    data = r.certificate.encode()
    kept = []
    for s in r.signed:
        try:
            signer = check(data, s.signature.encode(), season.signers, r.at / 1000, recorded=True)
        except BadSignature as e:
            said = _("{where}: {who}'s signature does not hold: {why}")
            problems.append(said.format(where=where, who=s.identity, why=e))
            continue
        role = entries.role_of(signer, players, season.opened.organiser)
        if (signer.identity, signer.fingerprint, role) != (s.identity, s.fingerprint, s.as_):
            said = _("{where}: a signature recorded as {who}'s for {role} is {signer}'s for {actual}")
            shown = {"who": s.identity, "role": s.as_, "signer": signer.identity, "actual": role or "-"}
            problems.append(said.format(where=where, **shown))
            continue
        kept.append(s)
    return tuple(kept)


def _vouched(season: Season, where: str, r: Added, cert: certs.Certificate, problems: list[str]) -> tuple[str, ...]:
    """The record's seat confirmations if the organiser signed them for this league and this
    certificate (at the time the game was recorded); else none, and it is named: the file's claim
    alone (a game added before he signed them too)."""
    if not r.confirmed:
        return ()
    if not r.vouched or season.older:  # (a format-1 league's organiser and keys are the file's word)
        said = _("{where}: seat confirmations not signed by the organiser: not counted as confirmed")
        problems.append(said.format(where=where))
        return ()
    data = organiser.vouch_data(season.opened, cert, r.confirmed)
    try:
        signer = check(data, r.vouched.encode(), season.signers, r.at / 1000, organiser.NAMESPACE, recorded=True)
        if signer.identity == season.opened.organiser:
            return r.confirmed
        why = _("signed by {who}, not the organiser").format(who=signer.identity)
    except BadSignature as e:
        why = str(e)
    said = _("{where}: the seat confirmations ({sides}) are not those the organiser vouched for ({why}): not counted")
    problems.append(said.format(where=where, sides=", ".join(r.confirmed), why=why))
    return ()


def _listed(players: dict[str, tuple[str, ...]]) -> str:
    return "; ".join(f"{side}: {', '.join(names)}" for side, names in sorted(players.items()))
