"""An event file made, read and added to: ``fireteam event new|enter|drop|pair|clock|add|rule``.

Framed and written as a league file and a save (``core.storage.journal``): created never over a
file, appended to under its lock, one record a write, synced before the command returns; a torn
last line is set aside by the next append, any other damage refused naming its line.  Each
command reads the file under its lock, builds its record, checks it by the rules every record of
the file is checked by when read (``core.event.state``), then appends it, or nothing: a command
fails before or after a whole record, never halfway.  Each append gives a receipt: the file's
head after it (a SHA-256 chain over its records), which names everything up to it.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from core import __version__
from core.event import league as leagues
from core.event import pairing, signing
from core.event.records import (
    EVENT_FORMAT,
    AnyRecord,
    Clocked,
    Dropped,
    Entered,
    EventHeader,
    Opened,
    Paired,
    Played,
    Record,
    Ruled,
    decode_record,
)
from core.event.state import Event, NotAllowed, apply, fits, opened_by, text
from core.language.i18n import _
from core.storage import journal
from core.storage.decoding import FORMAT_VERSION
from core.storage.errors import SaveError

EventJournal = journal.Journal[EventHeader, AnyRecord]


def _now() -> int:
    return int(time.time() * 1000)


def league_path(event_path: Path, given: str) -> Path:
    """The league file the settings name: as given, beside the event file when relative."""
    path = Path(given)
    return path if path.is_absolute() else event_path.parent / path


def read(path: Path) -> tuple[EventJournal, Event]:
    """The event file at ``path``, every record checked (SaveError naming the line that fails)."""
    j = framed(path)
    return j, fold(path, j.records)


def framed(path: Path) -> EventJournal:
    """The event file's records as framed (chain and checks), not yet folded."""
    j = journal.read(path, EventHeader, decode_record)
    if j.header.event != EVENT_FORMAT:
        said = _("{path}: an event of format {n}; this Fireteam reads format {known}")
        raise SaveError(said.format(path=path, n=j.header.event, known=EVENT_FORMAT))
    return j


def load(path: Path) -> Event:
    return read(path)[1]


def fold(path: Path, records: list[AnyRecord], before: Callable[[Event, AnyRecord], None] | None = None) -> Event:
    """The event ``records`` make, each checked (SaveError naming the line that fails); ``before``,
    if given, is called with the event as it stands and each record about to be applied."""
    if not records or not isinstance(records[0], Opened):
        raise SaveError(_("{path}:2: an event file begins with its settings").format(path=path))
    opened = records[0]
    league = leagues.load(league_path(path, opened.league))
    try:
        event = opened_by(opened, league)
    except NotAllowed as e:
        raise SaveError(_("{path}:2: {why}").format(path=path, why=e)) from None
    for line, record in enumerate(records[1:], start=3):
        if before is not None:
            before(event, record)
        try:
            apply(event, record)
        except NotAllowed as e:
            said = _("{path}:{line}: {why}; the record is not one Fireteam wrote (was the file edited?)")
            raise SaveError(said.format(path=path, line=line, why=e)) from None
    return event


def new(
    path: Path,
    league_file: Path,
    key: Path,
    *,
    name: str,
    ruleset: str,
    scenario: str,
    system: str,
    rounds: int,
    minutes: int,
    bye: int | None,
    seeding: str,
) -> tuple[Event, bytes]:
    """A new event file (never over a file) beside ``league_file``, its settings signed with the organiser's ``key``."""
    league = leagues.load(league_file)
    title, sides = pairing.scenario_of(ruleset, scenario)
    given = os.path.relpath(league_file.resolve(), path.resolve().parent)
    opened = Opened(
        at=_now(),
        name=text(name),
        league=given,
        league_id=league.id,
        organiser=league.organiser,
        ruleset=ruleset,
        scenario=scenario,
        title=title,
        sides=sides,
        system=system,
        rounds=rounds,
        minutes=minutes,
        bye=league.points[0] if bye is None else bye,
        seeding=seeding,
        salt=secrets.token_hex(16),
        engine=pairing.engine(),
    )
    opened = signing.signed("", opened, key)  # type: ignore[assignment]
    event = opened_by(opened, league)
    created = datetime.now(UTC).isoformat(timespec="seconds")
    header = EventHeader(fireteam=FORMAT_VERSION, event=EVENT_FORMAT, engine=__version__, created=created)
    journal.create(path, header, [opened], decode_record)
    return event, framed(path).head


def append(path: Path, make: Callable[[Event], Record]) -> tuple[Event, bytes]:
    """The record ``make`` builds for the event as it stands under its lock, checked and appended:
    the event after it, and the receipt (the file's head)."""

    folded: list[Event] = []

    def records(j: EventJournal) -> list[Record]:
        # The file is folded once, under the lock (every signature judged once): the record is
        # checked on that event, which is then the event after it: folding the file again
        # would judge every signature again to the same end.
        event = fold(path, j.records)
        record = make(event)
        apply(event, record)
        folded.append(event)
        return [record]

    done = journal.append(path, framed, records, decode_record)
    return folded[0], done.head


def enter(path: Path, name: str, key: Path) -> tuple[Event, bytes]:
    """Enter the club player ``name`` (late, once rounds are paired), signed with the organiser's ``key``."""

    def make(event: Event) -> Record:
        member = event.league.member(name) or name  # the club's spelling of his name
        club = event.league.key_of(member)
        rating = pairing.entry_rating(event, member)
        record = Entered(
            at=_now(), name=member, key=club.fingerprint if club else "", rating=rating, late=bool(event.rounds)
        )
        return signing.signed(event.id, record, key)

    return append(path, make)


def drop_statement(event: Event, name: str, by: str) -> Dropped:
    """The drop record ``by`` signs (the player himself or the organiser)."""
    player = event.player(name)
    return Dropped(name=player.name, by=by)


def drop(path: Path, name: str, by: str, key: Path | None, signature: str = "") -> tuple[Event, bytes]:
    """``name`` leaves the event, by his own signature or the organiser's (``by`` signs with ``key``,
    or gave ``signature`` of the statement ``drop_statement`` makes)."""

    def make(event: Event) -> Record:
        record = drop_statement(event, name, by)
        if key is not None:
            return signing.signed(event.id, record, key)
        return _with(record, signature)

    return append(path, make)


def _with(record: Record, signature: str) -> Record:
    import msgspec

    return msgspec.structs.replace(record, at=_now(), signature=signature)


def pair(path: Path) -> tuple[Event, bytes]:
    """Pair the next round (the engine's pairing, from the file)."""
    return append(path, lambda event: _timed(pairing.next_round(event)))


def _timed(record: Paired) -> Paired:
    import msgspec

    return msgspec.structs.replace(record, at=_now())


def clock(path: Path, key: Path, minutes: int | None, table: int = 0) -> tuple[Event, bytes]:
    """Start the current round's clock (``table`` 0: the event's minutes unless given), or extend a table's."""

    def make(event: Event) -> Record:
        current = event.current
        if current is None:
            raise NotAllowed(_("no round is paired yet"))
        given = minutes if minutes is not None else event.opened.minutes
        return signing.signed(event.id, Clocked(at=_now(), round=current.number, minutes=given, table=table), key)

    return append(path, make)


def add(
    path: Path, save: Path, cert: Path, sigs: list[Path], table: int, round_number: int = 0, key: Path | None = None
) -> tuple[Event, bytes]:
    """A certified game of a table: checked against the event first, then added to the league
    (as ``league add`` does: every check of the save, the certificate and the signatures; its seat
    confirmations vouched for with the organiser's ``key``), then to the event.  Run again after a
    failure between the two, it finds the league's record."""
    event = load(path)
    round_number = round_number or (event.current.number if event.current else 1)
    given = leagues.load_certificate(cert)
    fits(event, round_number, table, given)
    game = leagues.add(league_path(path, event.opened.league), save, cert, sigs, key)
    return append(path, lambda _event: Played(at=_now(), round=round_number, table=table, game=game))


def rule(
    path: Path, key: Path, table: int, kind: str, why: str, absent: tuple[str, ...] = (), outcome: str = ""
) -> tuple[Event, bytes]:
    """The organiser's ruling on an open table of the current round."""

    def make(event: Event) -> Record:
        current = event.current
        if current is None:
            raise NotAllowed(_("no round is paired yet"))
        record = Ruled(at=_now(), round=current.number, table=table, kind=kind, why=why, absent=absent, outcome=outcome)
        return signing.signed(event.id, record, key)

    return append(path, make)


def rederive(path: Path) -> tuple[list[int], list[int]]:
    """Each round's pairing derived again by the engine from the records before it: the rounds it
    pairs the same, and those it pairs otherwise (a file edited, or another engine)."""
    same: list[int] = []
    differ: list[int] = []

    def again(event: Event, record: AnyRecord) -> None:
        if isinstance(record, Paired):
            made = pairing.next_round(event)
            ok = (made.tables, made.byes) == (record.tables, record.byes)
            (same if ok else differ).append(record.round)

    fold(path, framed(path).records, before=again)
    return same, differ
