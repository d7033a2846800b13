"""``fireteam certify SAVE``: a finished game's result as a small file its players sign.

The certificate is derived from the save alone, and only once ``fireteam verify`` passes
on it: the game's id, its ruleset, scenario, players, result and scores, verify's counts,
and the SHA-256 of the save's bytes.  It is one line of JSON, the same bytes in every
language and from every run on the same save (nothing of the reader, the clock or the
place is in it), so that a player can sign it with his own SSH key the standard OpenSSH
way (``ssh-keygen -Y sign -f KEY -n fireteam-result FILE``, docs/league.md) and anyone can
derive it again from the save and compare (``core.league.season``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from core import __version__
from core.language.i18n import _, ngettext
from core.league.names import folded
from core.log import events as ev
from core.log.recordint import RecordInt
from core.storage.errors import SaveError

if TYPE_CHECKING:  # (a save's game and its verification: certify's, not a reader's of certificates)
    from core.game import Game
    from core.secrets.verify import Verified

#: The namespace every result signature is made in: a signature of another kind of file
#: (a git commit, a login) does not count as one of a result (ssh-keygen(1), "-n").
NAMESPACE = "fireteam-result"
#: The certificate format: 2 names every player of a side and the game's play (issue #90), 3 each
#: side's name as its scenario writes it (issue #91: a user's scenario's sides were shown by id).
FORMAT = 3
#: The formats a league file may hold.
READ_FORMATS = (1, 2, 3)
#: The formats ``league add`` takes: a format-2 certificate lacks only the sides' names (shown by
#: the built-in's names, else by id), nothing a result's trust stands on, so a club's certificates
#: signed before 0.3.0 are added without signing again; format 1 named one player a side.
ADDED_FORMATS = (2, 3)
#: A certificate is a few hundred bytes; a file past this is not one.
MAX_CERTIFICATE_BYTES = 64 << 10
#: The suffix of a certificate written next to its save.
SUFFIX = ".result"


class NotCounted(SaveError):
    """A save, certificate or signature read but not counted in the league, and why (exit status 1: nothing was
    written); a file that cannot be read is a SaveError (2)."""


class Player(msgspec.Struct, frozen=True, omit_defaults=True):
    """Who sat for a side: one of the save's ``Seated`` facts (issue #74's record 2); a side may
    have several (partners, a replacement: issue #90)."""

    side: str
    name: str
    key: str = ""  # the OpenSSH key's fingerprint, "SHA256:…", when the seat was bound to a key
    via: str = ""  # "key" | "invitation" | "named"
    #: How many of the side's commands in effect were given at his seat (his name the command's
    #: ``by``): 0 at a single table, where the side's commands are the side's, nobody's seat.
    commands: RecordInt = 0


class Checked(msgspec.Struct, frozen=True):
    """What ``fireteam verify`` checked in the save: its summary as counts."""

    commitments: RecordInt
    sealed_rolls: RecordInt
    typed_rolls: RecordInt
    seeded_rolls: RecordInt
    commands: RecordInt
    #: Commands an older Fireteam recorded whose facts this one's rules give otherwise (verify's exit
    #: status 3): the result is certified saying so, never silently (docs/league.md).
    rules_changed: RecordInt = 0


class Certificate(msgspec.Struct, frozen=True):
    fireteam_result: RecordInt
    #: The game's id: the digest of the save's first commitment (its dice key's, in a game
    #: with sealed dice), else of its header line (a game with seeded dice and no secret).
    game: str
    ruleset: str
    ruleset_version: str
    variant: str
    #: The Fireteam that created the save (its header's ``engine``).
    engine: str
    scenario: str
    players: tuple[Player, ...]
    #: The winning side's id; "" with ``draw``.
    winner: str
    draw: bool
    #: Each side's score at the end, as its ruleset counts it (docs/league.md).
    scores: dict[str, RecordInt]
    checked: Checked
    save_sha256: str
    #: The time of the command that ended the game (unix milliseconds, as the save records it).
    ended_at: RecordInt
    #: The game's play: the SHA-256 of its ruleset, scenario, commands in effect (who gave each as
    #: which role, and its words), every roll's faces and its players (names folded), and nothing
    #: of its time or its secrets' salts; the same game played again from the same seed under a
    #: new id has the same play (``core.league.adding``).  "" in format 1.
    play: str = ""
    #: The Fireteam that certified it (left out of the comparison with the save: a newer one
    #: derives the same result).
    certified_by: str = ""
    #: Each side's name, by id, as the game's scenario writes it (``GameSetUp.sides``), and the
    #: scenario file's own words for those names in other languages (language -> {name: words},
    #: from ``GameSetUp.words``); a built-in's names are translated by the catalogues where shown.
    #: Signed with the rest, compared with the save's.  Empty in formats 1 and 2.
    sides: dict[str, str] = {}
    side_words: dict[str, dict[str, str]] = {}

    def encoded(self) -> bytes:
        """The certificate's bytes, as written and signed: one line of JSON and a newline."""
        return msgspec.json.encode(self) + b"\n"

    def of_side(self, side: str) -> tuple[Player, ...]:
        """Every player who sat for ``side``, in the order they sat."""
        return tuple(p for p in self.players if p.side == side)


#: The fields a certificate is compared on with the one its save gives: all but who certified
#: it, and the save's digest, which is checked first, on its own (a save changed since).
COMPARED = tuple(f for f in Certificate.__struct_fields__ if f not in ("certified_by", "save_sha256"))


def certify(save: Path) -> tuple[Certificate, Verified]:
    """The certificate of ``save`` and what verify found; SaveError if verify fails or the
    game is not over with its result recorded as data."""
    from core.secrets.verify import verify

    verified = verify(save)
    if verified.role != "referee":
        said = _("{path}: a side's copy: a result is certified from the full save")
        raise NotCounted(said.format(path=save))
    refused(save, verified, _("no certificate"))
    return derive(save, verified), verified


def refused(save: Path, verified: Verified, consequence: str) -> None:
    """NotCounted unless a club may count what ``verified`` says of ``save`` (``Verified.countable``):
    it verifies, or it meets rules changed since an older version recorded it, which is said."""
    if not verified.ok:
        said = _("{path}: does not verify ({lines}); `fireteam verify {path}` says why: {consequence}")
        raise NotCounted(said.format(path=save, lines=_failed_count(verified), consequence=consequence))
    if verified.newer:
        assert verified.replayed is not None
        said = _("{path}: written in part by Fireteam {version}, newer than this one: {consequence}; use {version}")
        version = verified.replayed.newer[-1].written_by
        raise NotCounted(said.format(path=save, version=version, consequence=consequence))


def rules_changed_said(cert: Certificate) -> str:
    """What ``certify`` and ``league add`` say of a result an older Fireteam recorded in part whose
    facts this one's rules give otherwise ("" if none): it counts, never silently."""
    n = cert.checked.rules_changed
    if not n:
        return ""
    said = ngettext(
        "recorded in part by an older Fireteam: {n} command gives other facts under this version's rules "
        "(rules changed since: CHANGELOG.md; `fireteam verify` names it); the certificate says so",
        "recorded in part by an older Fireteam: {n} commands give other facts under this version's rules "
        "(rules changed since: CHANGELOG.md; `fireteam verify` names them); the certificate says so",
        n,
    )
    return said.format(n=n)


def _failed_count(verified: Verified) -> str:
    failed = len(verified.failed) + len(verified.stray) + len(verified.failed_rolls)
    if verified.replayed is not None:
        failed += len(verified.replayed.differs) + len(verified.replayed.claims)
    return ngettext("{n} check failed", "{n} checks failed", failed).format(n=failed)


def derive(save: Path, verified: Verified) -> Certificate:
    """The certificate the save gives, ``verified`` being what verify found in it (not
    judged here: ``certify`` refuses a save that fails)."""
    from core.game import Game

    data = _read(save)
    game = Game.open(save, writable=False)
    try:
        data, timeline, later = certified_part(game, data)
        header = game.header
        scenario = game.state.scenario
        sides = {side_id: side.name for side_id, side in game.state.sides.items()}
        side_words = {
            language: {name: words[name] for name in sides.values() if name in words}
            for language, words in game.state.words.items()
        }
    finally:
        game.close()
    first = next((e for e in timeline if isinstance(e, ev.Committed)), None)
    game_id = first.digest if first is not None else hashlib.sha256(data.split(b"\n", 1)[0]).hexdigest()
    end = next((e for e in reversed(timeline) if isinstance(e, ev.GameEnded)), None)
    if end is None:
        raise NotCounted(_("{path}: the game has not ended: no result to certify").format(path=save))
    winner, draw, scores = _result(end)
    if not winner and not draw:
        said = _("{path}: its end records no winner nor a draw (a save from before results were data): no certificate")
        raise NotCounted(said.format(path=save))
    players = _players(timeline)
    dice = verified.dice
    replayed = verified.replayed
    checked = Checked(
        commitments=len(verified.checks),
        sealed_rolls=len(dice.rolls),
        typed_rolls=dice.typed,
        seeded_rolls=dice.seeded,
        commands=replayed.commands - later if replayed is not None else 0,
        rules_changed=len(replayed.changed) if replayed is not None else 0,
    )
    return Certificate(
        fireteam_result=FORMAT,
        game=game_id,
        ruleset=header.ruleset,
        ruleset_version=header.ruleset_version,
        variant=header.variant,
        engine=header.engine,
        scenario=scenario,
        players=players,
        winner=winner,
        draw=draw,
        scores=scores,
        checked=checked,
        save_sha256=hashlib.sha256(data).hexdigest(),
        ended_at=_ended_at(timeline, end),
        play=_play(header.ruleset, header.variant, scenario, timeline),
        certified_by=__version__,
        sides=sides,
        side_words={language: words for language, words in sorted(side_words.items()) if words},
    )


def certified_part(game: Game, data: bytes) -> tuple[bytes, list[ev.Event], int]:
    """What a certificate covers of a save whose bytes are ``data``: its lines before its first
    confirmation in effect (``Confirmed``, written at a seat after the end), or all of them where
    there is none; the effective facts before it; and how many commands the file holds after it.
    So a player's confirmation, and any after it, change nothing of the certificate he confirmed
    (docs/league.md, "Confirming at the seat")."""
    events = game.history.store.slice(0, len(game.history.store))
    i = 0
    while i < len(events):
        e = events[i]
        size = 1 + e.n if type(e) is ev.Issued else 1
        group = events[i + 1 : i + size]
        if type(e) is ev.Issued and game.history.is_live(e.cmd) and any(type(f) is ev.Confirmed for f in group):
            lines = data.split(b"\n", i + 1)  # the header's line, then one line a fact
            timeline = game.history.timeline()
            cut = next(k for k, f in enumerate(timeline) if type(f) is ev.Confirmed) - 1  # (its command's Issued)
            later = sum(1 for f in events[i:] if type(f) is ev.Issued and not f.carries)
            return b"\n".join(lines[: i + 1]) + b"\n", timeline[:cut], later
        i += size
    return data, game.history.timeline(), 0


def digest(cert: Certificate) -> str:
    """What a player's confirmation at his seat names: the SHA-256 (hex) of the certificate's bytes."""
    return hashlib.sha256(cert.encoded()).hexdigest()


#: How a seat bound to its player was seated: by his key, or by his invitation (``Seated.via``).
BOUND = ("key", "invitation")


def confirmed_sides(save: Path, cert: Certificate) -> tuple[str, ...]:
    """The sides one of whose players confirmed ``cert`` itself at a seat bound to him
    (``Confirmed`` in effect naming its digest): the command given at that player's own seat
    (its ``by`` his name, as a served seat gives it, not the side's role), and that seat sat by
    his key or his invitation (``Seated.via``), so that neither the referee's screen, a single
    table's seat for a side, nor another player's seat confirms for him (issue #90)."""
    from core.game import Game

    game = Game.open(save, writable=False)
    try:
        timeline = game.history.timeline()
    finally:
        game.close()
    bound = {(p.side, p.name) for p in cert.players if p.via in BOUND}
    mine = digest(cert)
    found: set[str] = set()
    issued: ev.Issued | None = None
    for e in timeline:
        if type(e) is ev.Issued:
            issued = e
        elif type(e) is ev.Confirmed and e.result == mine and issued is not None:
            at_his_seat = issued.by == e.name and issued.role == e.side
            if at_his_seat and (e.side, e.name) in bound:
                found.add(e.side)
    return tuple(sorted(found))


def _result(end: ev.GameEnded) -> tuple[str, bool, dict[str, int]]:
    """The end fact's winner, draw and scores (record 1 of issue #74)."""
    return end.winner, end.draw, dict(end.scores)


def _players(timeline: list[ev.Event]) -> tuple[Player, ...]:
    """Every player who sat for a side (each ``Seated`` fact in effect, once: a partner and a
    replaced player are both named), by side then in the order they sat, with how many of the
    side's commands each gave at his own seat."""
    seated: dict[tuple[str, str, str], ev.Seated] = {}
    given: dict[tuple[str, str], int] = {}
    for e in timeline:
        if type(e) is ev.Seated:
            seated.setdefault((e.side, e.name, e.key), e)
        elif type(e) is ev.Issued and e.role:  # given at a seat of its own (``by`` a seat's name)
            given[e.role, e.by] = given.get((e.role, e.by), 0) + 1
    order = sorted(seated.values(), key=lambda e: e.side)  # (stable: the order they sat, within a side)
    return tuple(
        Player(side=e.side, name=e.name, key=e.key, via=e.via, commands=given.get((e.side, e.name), 0)) for e in order
    )


def _play(ruleset: str, variant: str, scenario: str, timeline: list[ev.Event]) -> str:
    """The SHA-256 (hex) of what was played: the ruleset, the scenario, each command in effect
    (as which role, its words) but those that seat players, every roll's faces, and the players
    (each side's names, folded) — none of its times, ids or salts."""
    commands: list[tuple[str, str]] = []
    faces: list[tuple[int, ...]] = []
    players: set[tuple[str, str]] = set()
    seating = False
    for e in timeline:
        if type(e) is ev.Issued:
            if seating:
                commands.pop()
            commands.append((e.acting, e.text))
            seating = False
        elif type(e) is ev.Seated:
            seating = True
            players.add((e.side, folded(e.name)))
        elif type(e) is ev.Rolled:
            faces.append(tuple(e.roll.faces))
    if seating:
        commands.pop()
    played = [ruleset, variant, scenario, commands, faces, sorted(players)]
    return hashlib.sha256(msgspec.json.encode(played)).hexdigest()


def _ended_at(timeline: list[ev.Event], end: ev.GameEnded) -> int:
    at = 0
    for e in timeline:
        if isinstance(e, ev.Issued):
            at = e.at
        elif e is end:
            return at
    return at


def _read(save: Path) -> bytes:
    try:
        return save.read_bytes()
    except OSError as e:
        said = _("{path}: cannot read: {error}; check the name and the file's permissions")
        raise SaveError(said.format(path=save, error=e.strerror)) from None


def load(path: Path) -> tuple[Certificate, bytes]:
    """A certificate file (hostile input: its size, its JSON, its format): (it, its bytes); a
    certificate of an older format is refused saying how to go on."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_CERTIFICATE_BYTES + 1)
    except OSError as e:
        said = _("{path}: cannot read: {error}; check the name and the file's permissions")
        raise SaveError(said.format(path=path, error=e.strerror)) from None
    if len(data) > MAX_CERTIFICATE_BYTES:
        raise SaveError(_("{path}: larger than a certificate can be: not one").format(path=path))
    try:
        cert = msgspec.json.decode(data, type=Certificate)
    except (msgspec.ValidationError, msgspec.DecodeError) as e:
        raise SaveError(_("{path}: not a result certificate: {error}").format(path=path, error=e)) from None
    if cert.fireteam_result in READ_FORMATS and cert.fireteam_result not in ADDED_FORMATS:
        said = _(
            "{path}: a certificate of format {n}, made by an older Fireteam (it names one player a side): "
            "certify the save again (fireteam certify SAVE -o NEW.result) and sign that one"
        )
        raise NotCounted(said.format(path=path, n=cert.fireteam_result))
    if cert.fireteam_result not in ADDED_FORMATS:
        said = _("{path}: a certificate of format {n}; this Fireteam reads format {known}")
        raise SaveError(said.format(path=path, n=cert.fireteam_result, known=FORMAT))
    return cert, data


def differences(given: Certificate, derived: Certificate) -> list[str]:
    """The fields in which a certificate differs from the one its save gives, in the given one's
    format (a format-2 certificate names no sides)."""
    if given.fireteam_result == 2:
        derived = msgspec.structs.replace(derived, fireteam_result=2, sides={}, side_words={})
    return [f for f in COMPARED if getattr(given, f) != getattr(derived, f)]


def default_path(save: Path) -> Path:
    return save.with_name(save.name + SUFFIX)


def write(cert: Certificate, target: Path) -> None:
    """Write ``cert`` to a new file (never over one), synced."""
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        said = _("{path}: already exists; choose another name with -o (a certificate is never overwritten)")
        raise SaveError(said.format(path=target)) from None
    except OSError as e:
        raise SaveError(_("{path}: cannot create: {error}").format(path=target, error=e.strerror)) from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(cert.encoded())
            out.flush()
            os.fsync(out.fileno())
    except OSError as e:
        with contextlib.suppress(OSError):
            target.unlink()
        raise SaveError(_("{path}: cannot write: {error}").format(path=target, error=e.strerror)) from None
