"""A club's season: its league file made, added to, disputed and ruled, and folded.

``new`` creates the file; ``add`` appends a game once every check passes (below);
``dispute`` freezes a game, ``rule`` records the organiser's ruling.  Each appends one
record under the file's lock, after reading the file under that lock
(``core.storage.journal.append``), so two adds at once cannot both take the same game.

``add`` refuses, saying why and appending nothing:

* a certificate that is not one, or a signature that does not verify over its bytes in the
  results' namespace, or whose key is not in the club's allowed signers;
* a signature by a club member who neither played in the game nor is the organiser;
  (a player with no key confirms at his seat instead: his ``Confirmed`` in the save counts when
  it names this certificate's digest; ``core.league.levels``)
* a save that does not pass ``fireteam verify``;
* a save whose bytes are not those the certificate names (edited after it was made);
* a certificate whose result differs from the one its save gives (its winner, draw,
  scores, players, ruleset, scenario, game id, …: each field named);
* a side no player was seated for, a game of other than two sides, and one player (the same
  club identity or key) on both sides;
* a game already in the league (the same game id, or the same save).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import msgspec

from core import __version__
from core.language.i18n import N_, _
from core.league import certificate as certs
from core.league.certificate import NotCounted
from core.league.levels import level_of
from core.league.records import (
    LEAGUE_FORMAT,
    MAX_TEXT,
    RESULT,
    STANDS,
    VOID,
    Added,
    AnyRecord,
    Disputed,
    LeagueHeader,
    Opened,
    Ruled,
    Signed,
    decode_record,
)
from core.league.signatures import BadSignature, Signer, check, parse_signers
from core.secrets.verify import verify
from core.storage import journal
from core.storage.savefile import FORMAT_VERSION, SaveError

ORGANISER = "organiser"
#: A game's standing in the league.
COUNTED, FROZEN, VOIDED = N_("counted"), N_("disputed"), N_("void")


@dataclass(eq=False)
class Game:
    """A game of the season as the records leave it."""

    number: int
    cert: certs.Certificate
    players: dict[str, str]  # side → the league's name of its player
    signed: tuple[Signed, ...]
    winner: str
    draw: bool
    #: The sides whose player confirmed it at his seat (``Confirmed`` in the save).
    confirmed: tuple[str, ...] = ()
    status: str = COUNTED
    disputes: list[Disputed] = field(default_factory=list)
    rulings: list[Ruled] = field(default_factory=list)

    @property
    def level(self) -> str:
        """Its players' signatures and confirmations at their seats; the organiser's word is its
        save's, which passed verify and gave its certificate again as it was added."""
        players = {s.as_ for s in self.signed if s.as_ != ORGANISER} | set(self.confirmed)
        return level_of(players, len(self.players), organiser=True)

    @property
    def counted(self) -> bool:
        return self.status == COUNTED


@dataclass
class Season:
    path: Path
    opened: Opened
    signers: list[Signer]
    games: list[Game] = field(default_factory=list)

    def find(self, ref: str) -> Game:
        """A game by its number in the league or a prefix (8 characters or more) of its id."""
        if ref.isdigit() and 1 <= int(ref) <= len(self.games):
            return self.games[int(ref) - 1]
        found = [g for g in self.games if len(ref) >= 8 and g.cert.game.startswith(ref)]
        if len(found) != 1:
            said = _("{path}: no game {ref} in this league (give its number, or 8 or more characters of its id)")
            raise NotCounted(said.format(path=self.path, ref=repr(ref)))
        return found[0]


def _now() -> int:
    return int(time.time() * 1000)


def read(path: Path) -> tuple[journal.Journal[LeagueHeader, AnyRecord], Season]:
    j = journal.read(path, LeagueHeader, decode_record)
    if j.header.league != LEAGUE_FORMAT:
        said = _("{path}: a league of format {n}; this Fireteam reads format {known}")
        raise SaveError(said.format(path=path, n=j.header.league, known=LEAGUE_FORMAT))
    return j, fold(path, j.records)


def load(path: Path) -> Season:
    return read(path)[1]


def fold(path: Path, records: list[AnyRecord]) -> Season:
    if not records or not isinstance(records[0], Opened):
        raise SaveError(_("{path}:2: a league file begins with the club's season").format(path=path))
    opened = records[0]
    season = Season(path, opened, parse_signers(opened.signers))
    by_id: dict[str, Game] = {}
    for line, r in enumerate(records[1:], start=3):  # the header is line 1, the season line 2
        if isinstance(r, Added):
            try:
                cert = msgspec.json.decode(r.certificate, type=certs.Certificate)
            except (msgspec.ValidationError, msgspec.DecodeError) as e:
                said = _("{path}:{line}: not a certificate: {error}")
                raise SaveError(said.format(path=path, line=line, error=e)) from None
            added = Game(len(season.games) + 1, cert, dict(r.players), r.signed, cert.winner, cert.draw, r.confirmed)
            season.games.append(added)
            by_id[cert.game] = added
            continue
        if isinstance(r, Opened):
            raise SaveError(_("{path}:{line}: a second season in one league file").format(path=path, line=line))
        found = by_id.get(r.game)
        if found is None:
            said = _("{path}:{line}: names a game the league does not hold")
            raise SaveError(said.format(path=path, line=line))
        game = found
        if isinstance(r, Disputed):
            game.disputes.append(r)
            game.status = FROZEN
        else:
            game.rulings.append(r)
            game.status = VOIDED if r.ruling == VOID else COUNTED
            if r.ruling == RESULT:
                game.winner, game.draw = r.winner, r.draw
    return season


def new(path: Path, name: str, signers_file: Path, organiser: str, points: tuple[int, int, int]) -> Season:
    """A new league file (never over a file) for the club whose keys ``signers_file`` holds."""
    try:
        text = signers_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise NotCounted(_("{path}: cannot read: {error}").format(path=signers_file, error=e)) from None
    try:
        signers = parse_signers(text)
    except ValueError as e:
        raise NotCounted(f"{signers_file}: {e}") from None
    if not signers:
        raise NotCounted(_("{path}: no key for results in it").format(path=signers_file))
    if organiser not in {s.identity for s in signers}:
        said = _("{path}: the organiser {name} has no key in it")
        raise NotCounted(said.format(path=signers_file, name=repr(organiser)))
    _text(name)
    win, draw, loss = points
    opened = Opened(at=_now(), name=name, win=win, draw=draw, loss=loss, signers=text, organiser=organiser)
    created = datetime.now(UTC).isoformat(timespec="seconds")
    header = LeagueHeader(fireteam=FORMAT_VERSION, league=LEAGUE_FORMAT, engine=__version__, created=created)
    journal.create(path, header, [opened], decode_record)
    return fold(path, [opened])


def _text(text: str) -> str:
    if len(text) > MAX_TEXT or not all(c.isprintable() for c in text):
        raise NotCounted(_("at most {n} printable characters").format(n=MAX_TEXT))
    return text


def add(path: Path, save: Path, cert_path: Path, sig_paths: list[Path]) -> Game:
    """Add a game (every check above first); the game as it stands in the league."""
    given, data = certs.load(cert_path)
    signatures = [_read_signature(p) for p in sig_paths]
    verified = verify(save)
    if verified.role != "referee":
        raise NotCounted(_("{path}: a side's copy: a result is certified from the full save").format(path=save))
    certs.refused(save, verified, _("not added"))
    derived = certs.derive(save, verified)
    if derived.save_sha256 != given.save_sha256:
        said = _("{save}: not the save {cert} was made from: it was changed or replaced since (its SHA-256 differs)")
        raise NotCounted(said.format(save=save, cert=cert_path))
    differ = certs.differences(given, derived)
    if differ:
        said = _("{cert}: its {fields} differ from what its save gives: not added")
        raise NotCounted(said.format(cert=cert_path, fields=", ".join(differ)))

    def make(j: journal.Journal[LeagueHeader, AnyRecord]) -> list[Added]:
        season = fold(path, j.records)
        players = _players(season, given)
        signed = _signed(season, given, data, signatures, sig_paths, players)
        for game in season.games:
            if game.cert.game == given.game or game.cert.save_sha256 == given.save_sha256:
                said = _("{cert}: this game is already in the league, as game {n}")
                raise NotCounted(said.format(cert=cert_path, n=game.number))
        confirmed = certs.confirmed_sides(save, given)
        return [Added(at=_now(), certificate=data.decode(), signed=signed, players=players, confirmed=confirmed)]

    return _append(path, make).games[-1]


def _read_signature(path: Path) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(16 << 10)
    except OSError as e:
        raise NotCounted(_("{path}: cannot read: {error}").format(path=path, error=e.strerror)) from None


def _players(season: Season, cert: certs.Certificate) -> dict[str, str]:
    """Each side's player by his league name: the club identity of the key he was seated
    with, else the name he was seated by; refused if a side has none or one plays both."""
    by_key = {s.fingerprint: s.identity for s in season.signers}
    sides = sorted(cert.scores) if cert.scores else []
    seated = {p.side: p for p in cert.players}
    names: dict[str, str] = {}
    for side in sorted({*sides, *seated}):
        player = seated.get(side)
        if player is None or not player.name:
            said = _("no player was seated for {side}: a league counts games between players")
            raise NotCounted(said.format(side=side))
        names[side] = by_key.get(player.key, player.name) if player.key else player.name
    if len(names) != 2:
        raise NotCounted(_("a game of {n} sides: a league counts games between two players").format(n=len(names)))
    keys = [p.key for p in cert.players if p.key]
    if len(set(names.values())) < len(names) or len(set(keys)) < len(keys):
        raise NotCounted(_("one player is seated on both sides of this game: it cannot count in a league"))
    return names


def _signed(
    season: Season,
    cert: certs.Certificate,
    data: bytes,
    signatures: list[bytes],
    paths: list[Path],
    players: dict[str, str],
) -> tuple[Signed, ...]:
    seated_keys = {p.key: p.side for p in cert.players if p.key}
    sides_by_name = {name: side for side, name in players.items()}
    out: list[Signed] = []
    for armored, sig_path in zip(signatures, paths, strict=True):
        try:
            signer = check(data, armored, season.signers)
        except BadSignature as e:
            raise NotCounted(f"{sig_path}: {e}") from None
        side = seated_keys.get(signer.fingerprint) or sides_by_name.get(signer.identity)
        role = side or (ORGANISER if signer.identity == season.opened.organiser else "")
        if not role:
            said = _("{path}: signed by {who}, who played no side of this game and is not the organiser")
            raise NotCounted(said.format(path=sig_path, who=repr(signer.identity)))
        out.append(Signed(signer.identity, signer.fingerprint, armored.decode("ascii"), as_=role))
    return tuple(out)


def dispute(path: Path, ref: str, by: str, why: str) -> Game:
    """Freeze a game until the organiser rules: by one of its players or the organiser."""
    _text(by)
    _text(why)

    def make(j: journal.Journal[LeagueHeader, AnyRecord]) -> list[Disputed]:
        season = fold(path, j.records)
        game = season.find(ref)
        if by not in {*game.players.values(), season.opened.organiser}:
            said = _("{who} played no side of game {n} and is not the organiser: only they may dispute it")
            raise NotCounted(said.format(who=repr(by), n=game.number))
        if game.status == FROZEN:
            raise NotCounted(_("game {n} is already disputed").format(n=game.number))
        return [Disputed(at=_now(), game=game.cert.game, by=by, why=why)]

    return _append(path, make).find(ref)


def rule(path: Path, ref: str, ruling: str, why: str, winner: str = "", draw: bool = False) -> Game:
    """The organiser's ruling on a disputed game: it stands, is void, or counts with ``winner`` (or a draw)."""
    _text(why)

    def make(j: journal.Journal[LeagueHeader, AnyRecord]) -> list[Ruled]:
        season = fold(path, j.records)
        game = season.find(ref)
        if game.status != FROZEN:
            raise NotCounted(_("game {n} is not disputed: nothing to rule").format(n=game.number))
        if ruling == RESULT and not draw and winner not in game.players:
            said = _("{side} is no side of game {n} (its sides: {sides})")
            raise NotCounted(said.format(side=repr(winner), n=game.number, sides=", ".join(game.players)))
        return [Ruled(at=_now(), game=game.cert.game, ruling=ruling, why=why, winner=winner, draw=draw)]

    assert ruling in (STANDS, VOID, RESULT)
    return _append(path, make).find(ref)


def _append(path: Path, make: journal.Make) -> Season:
    """Append what ``make`` gives for the league as it stands under its lock; the league after."""
    journal.append(path, lambda p: read(p)[0], make, decode_record)
    return load(path)
