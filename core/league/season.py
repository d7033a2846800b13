"""A club's season: its league file made, added to, disputed and ruled, and read.

The functions another command (an event day) calls: ``new``, ``add``, ``dispute``, ``rule``
write; ``load`` reads the season (every signature judged again with ``recheck``:
``core.league.folding``).  Each write appends one record under the file's lock, after reading
the file under that lock (``core.storage.journal.append``), so two adds at once cannot both
take the same game; it is refused, appending nothing, on a league whose settings are not those
its organiser signed, and on an older (format-1) league, which is read only.

``add`` refuses, saying why and appending nothing:

* a certificate that is not one, or of an older format, or a signature that does not verify over
  its bytes in the results' namespace, or whose key is not in the club's allowed signers or is
  not valid there now (its line's ``namespaces``, ``valid-after``, ``valid-before``, ``@revoked``);
* a signature by a club member who neither played in the game nor is the organiser;
  (a player with no key confirms at a seat bound to him instead: ``core.league.levels``)
* a save that does not pass ``fireteam verify``;
* a save whose bytes are not those the certificate names (edited after it was made);
* a certificate whose result differs from the one its save gives (its winner, draw,
  scores, players, play, ruleset, scenario, game id, …: each field named);
* a side no player was seated for, a game of other than two sides, and one player (his name
  folded, or his key) on both sides (``core.league.entries``);
* a game the league holds already, naming it: the same game id (a fork), the same save, or
  the same play (the game played again from its seed);
* a game below the level of confirmation the league counts (``league new --counts``), its seat
  confirmations counted only with the organiser's ``key`` to vouch for them (a key not his is
  refused); without it, the game is added without them where the league counts it all the same.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from pathlib import Path

import msgspec

from core import __version__
from core.language.i18n import _
from core.league import certificate as certs
from core.league import entries, organiser
from core.league.certificate import NotCounted
from core.league.folding import FROZEN, Game, Season, fold
from core.league.levels import COUNT_ANY, COUNTED_LEVELS, COUNTS_SAID, counts
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
from core.league.signatures import BadSignature, check, parse_signers
from core.storage import journal
from core.storage.decoding import FORMAT_VERSION


def _now() -> int:
    return int(time.time() * 1000)


def read(path: Path, recheck: bool = False) -> tuple[journal.Journal[LeagueHeader, AnyRecord], Season]:
    j = journal.read(path, LeagueHeader, decode_record)
    return j, fold(path, j, recheck)


def load(path: Path, recheck: bool = True) -> Season:
    """The season in the league file at ``path``, every stored signature judged again."""
    return read(path, recheck)[1]


def new(
    path: Path,
    name: str,
    signers_file: Path,
    organiser_name: str,
    points: tuple[int, int, int],
    key: Path,
    count: str = COUNT_ANY,
) -> Season:
    """A new league file (never over a file) for the club whose keys ``signers_file`` holds, its
    settings signed by the organiser with ``key`` (``core.league.organiser``)."""
    try:
        text = signers_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise NotCounted(_("{path}: cannot read: {error}").format(path=signers_file, error=e)) from None
    try:
        signers = parse_signers(text)
    except ValueError as e:
        raise NotCounted(f"{signers_file}: {e}") from None
    if not any(s.allows(certs.NAMESPACE) and not s.revoked for s in signers):
        raise NotCounted(_("{path}: no key for results in it").format(path=signers_file))
    if organiser_name not in {s.identity for s in signers if not s.revoked}:
        said = _("{path}: the organiser {name} has no key in it")
        raise NotCounted(said.format(path=signers_file, name=repr(organiser_name)))
    if count not in COUNTED_LEVELS:
        raise NotCounted(_("--counts: one of {choices}").format(choices=", ".join(COUNTED_LEVELS)))
    _text(name)
    win, draw, loss = points
    opened = Opened(
        at=_now(), name=name, win=win, draw=draw, loss=loss, signers=text, organiser=organiser_name, counts=count
    )
    signature = organiser.sign(organiser.settings_data(opened), key)
    _by_the_organiser(organiser.settings_data(opened), signature, opened, key)
    opened = msgspec.structs.replace(opened, signature=signature)
    created = datetime.now(UTC).isoformat(timespec="seconds")
    header = LeagueHeader(fireteam=FORMAT_VERSION, league=LEAGUE_FORMAT, engine=__version__, created=created)
    journal.create(path, header, [opened], decode_record)
    return load(path)


def _by_the_organiser(data: bytes, signature: str, opened: Opened, key: Path) -> None:
    """Refuse a signature of the league's own by any key but a valid one of its organiser's."""
    try:
        signer = check(data, signature.encode(), parse_signers(opened.signers), time.time(), organiser.NAMESPACE)
    except BadSignature as e:
        raise NotCounted(_("{key}: not the organiser's key for this league: {why}").format(key=key, why=e)) from None
    if signer.identity != opened.organiser:
        said = _("{key}: {who}'s key, not the organiser's ({organiser})")
        raise NotCounted(said.format(key=key, who=signer.identity, organiser=opened.organiser))


def _text(text: str) -> str:
    if len(text) > MAX_TEXT or not all(c.isprintable() for c in text):
        raise NotCounted(_("at most {n} printable characters").format(n=MAX_TEXT))
    return text


def add(path: Path, save: Path, cert_path: Path, sig_paths: list[Path], key: Path | None = None) -> Game:
    """Add a game (every check above first), its seat confirmations vouched for with the
    organiser's ``key``; the game as it stands in the league (its ``receipt``: the league's head
    after it; its ``unvouched``: the seat confirmations left out for want of his key)."""
    given, data = certs.load(cert_path)
    signatures = [_read_signature(p) for p in sig_paths]
    from core.secrets.verify import verify  # (a save's check: adding a game's, not reading the league's)

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
    confirmed = certs.confirmed_sides(save, given)

    def make(j: journal.Journal[LeagueHeader, AnyRecord]) -> list[Added]:
        season = _writable(path, j)
        try:
            players = entries.league_names(given, season.club, season.known)
        except NotCounted as e:
            raise NotCounted(f"{cert_path}: {e}") from None
        repeated = season.entered.repeat_of(given)
        if repeated is not None:
            game, how = repeated
            said = _("{cert}: this game is already in the league, as game {n} ({how}): not added")
            raise NotCounted(said.format(cert=cert_path, n=game.number, how=how))
        now = _now()
        signed = _signed(season, given, data, signatures, sig_paths, players, now)
        kept = confirmed if key is not None else ()
        trial = Game(0, given, players, signed, given.winner, given.draw, kept, rule=season.opened.counts)
        if not counts(trial.level, trial.rule):
            said = (
                _("{cert}: {level}, and in this league {rule}: not added")
                if kept == confirmed
                else _(
                    "{cert}: {level} (its seat confirmations count only signed by the organiser: --key), "
                    "and in this league {rule}: not added"
                )
            )
            raise NotCounted(said.format(cert=cert_path, level=_(trial.level), rule=_(COUNTS_SAID[trial.rule])))
        vouched = ""
        if kept and key is not None:
            vouching = organiser.vouch_data(season.opened, given, kept)
            vouched = organiser.sign(vouching, key)
            _by_the_organiser(vouching, vouched, season.opened, key)
        named: dict[str, str | tuple[str, ...]] = dict(players)
        added = Added(at=now, certificate=data.decode(), signed=signed, players=named, confirmed=kept, vouched=vouched)
        return [added]

    game = _append(path, make).games[-1]
    if key is None:
        game.unvouched = confirmed
    return game


def check_key(season: Season, key: Path) -> None:
    """Refuse ``key`` (NotCounted saying why) unless it signs as the league's organiser: a server
    that will vouch for seat confirmations checks it as it starts, not at a game's end."""
    data = organiser.key_check_data(season.opened)
    _by_the_organiser(data, organiser.sign(data, key), season.opened, key)


def _read_signature(path: Path) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read(16 << 10)
    except OSError as e:
        raise NotCounted(_("{path}: cannot read: {error}").format(path=path, error=e.strerror)) from None


def _signed(
    season: Season,
    cert: certs.Certificate,
    data: bytes,
    signatures: list[bytes],
    paths: list[Path],
    players: dict[str, tuple[str, ...]],
    now: int,
) -> tuple[Signed, ...]:
    """Each signature judged now, as ``ssh-keygen -Y verify`` would: whose it is and what it confirms."""
    out: list[Signed] = []
    for armored, sig_path in zip(signatures, paths, strict=True):
        try:
            signer = check(data, armored, season.signers, now / 1000)
        except BadSignature as e:
            raise NotCounted(f"{sig_path}: {e}") from None
        role = entries.role_of(signer, players, season.opened.organiser)
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
        season = _writable(path, j)
        game = season.find(ref)
        if not game.named(by) and by != season.opened.organiser:
            said = _("{who} played no side of game {n} and is not the organiser: only they may dispute it")
            raise NotCounted(said.format(who=repr(by), n=game.number))
        if game.status == FROZEN:
            raise NotCounted(_("game {n} is already disputed").format(n=game.number))
        return [Disputed(at=_now(), game=game.cert.game, by=by, why=why)]

    return _append(path, make).find(ref)


def rule(path: Path, ref: str, ruling: str, why: str, key: Path, winner: str = "", draw: bool = False) -> Game:
    """The organiser's ruling on a disputed game, signed with his ``key``: it stands, is void, or
    counts with ``winner`` (or a draw)."""
    _text(why)
    assert ruling in (STANDS, VOID, RESULT)

    def make(j: journal.Journal[LeagueHeader, AnyRecord]) -> list[Ruled]:
        season = _writable(path, j)
        game = season.find(ref)
        if game.status != FROZEN:
            raise NotCounted(_("game {n} is not disputed: nothing to rule").format(n=game.number))
        if ruling == RESULT and not draw and winner not in game.players:
            said = _("{side} is no side of game {n} (its sides: {sides})")
            raise NotCounted(said.format(side=repr(winner), n=game.number, sides=", ".join(game.players)))
        made = Ruled(at=_now(), game=game.cert.game, ruling=ruling, why=why, winner=winner, draw=draw)
        data = organiser.ruling_data(season.opened, made)
        signature = organiser.sign(data, key)
        _by_the_organiser(data, signature, season.opened, key)
        return [msgspec.structs.replace(made, signature=signature)]

    return _append(path, make).find(ref)


def _writable(path: Path, j: journal.Journal[LeagueHeader, AnyRecord]) -> Season:
    """The season as it stands under the lock, if this Fireteam may append to it."""
    season = fold(path, j)
    if season.older:
        said = _(
            "{path}: a league of format 1, made before its organiser signed its settings: it is read, not added to; "
            "begin a signed season: fireteam league new NEW --signers FILE --organiser NAME --key KEY"
        )
        raise NotCounted(said.format(path=path))
    return season


def _append(path: Path, make: journal.Make) -> Season:
    """Append what ``make`` gives for the league as it stands under its lock; the league after."""
    return fold(path, journal.append(path, lambda p: journal.read(p, LeagueHeader, decode_record), make, decode_record))
