"""An event's tables as games: each table of the current round a save whose players are named
before its first roll, and its certified end added to the event and the league by itself.

``fireteam serve --event EVENT`` (``tui.ssh.host.eventtables``) opens, for each table of the
current round, the save ``EVENT-tables/EVENT-rR-tT.ft`` beside the event file: made once, with
the event's ruleset and scenario, then ``players SIDE=NAME key=FINGERPRINT`` for each side, the
player the pairing gave it, by his club key.  So the game's players are facts of the log from its
start, inside its commitments, and a result cannot land on other players: the certificate names
the players the save names, and ``event add`` checks them against the table (``state.fits``).
A save that exists already is the table's only if it names those players first; else it is
refused, naming what it names (a file put there by hand is no table's game).

A table ends by itself when its game has ended and a player of each side confirmed the result at
his own seat (``confirm``, at a seat bound to his key): ``finish`` certifies the save, writes the
certificate beside it and adds the game exactly as ``fireteam event add SAVE CERT --key KEY`` does
(``eventfile.add``: the event's checks, then the league's), the server vouching for those seat
confirmations with the organiser's key it was given (the table's host is the organiser).  Nobody types a result; the
organiser's ruling (``event rule``) is the only other way a table ends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from core.event import eventfile
from core.event.state import Event, NotAllowed, Player
from core.game import Game
from core.game.builtins import PLAYER_NAME
from core.language.i18n import _
from core.league import certificate
from core.log import events as ev
from core.log.views import REFEREE
from core.storage.errors import SaveError

#: The folder of an event's tables, beside its file: ``day.event`` → ``day-tables``.
FOLDER_SUFFIX = "-tables"
#: A table's name is a venue's subject word (``core.venue.NAME``): these characters only.
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")
#: A table's name at most (``core.venue.NAME`` takes 64): room for ``-r30-t500``.
_STEM_CHARS = 48


@dataclass(frozen=True)
class Seating:
    """One table of the current round as a served game: its name, its save, and its two players."""

    round: int
    table: int
    name: str
    save: Path
    #: Side → the player the pairing seats there (the event's first side, then its second).
    players: dict[str, Player]


def folder(event_path: Path) -> Path:
    """Where an event's table saves are kept: beside its file."""
    return event_path.with_name(event_path.stem + FOLDER_SUFFIX)


def table_name(event_path: Path, round_number: int, table: int) -> str:
    """``day-r2-t3``: the table's name at the server, on the venue and in its save's file name."""
    stem = _UNSAFE.sub("-", event_path.stem).strip("-")[:_STEM_CHARS] or "event"
    return f"{stem}-r{round_number}-t{table}"


def seatings(event_path: Path, event: Event) -> list[Seating]:
    """The current round's tables, each as a game to serve (none before round 1)."""
    current = event.current
    if current is None:
        return []
    a, b = event.opened.sides
    out = []
    for t in current.tables:
        name = table_name(event_path, current.number, t.number)
        players = {a: event.player(t.a), b: event.player(t.b)}
        out.append(Seating(current.number, t.number, name, folder(event_path) / f"{name}.ft", players))
    return out


def opening_lines(event: Event, seating: Seating) -> list[str]:
    """The referee's first commands at a table: the scenario, then each side's player by his key."""
    lines = [f"scenario {event.opened.scenario}"]
    for side, player in seating.players.items():
        if not PLAYER_NAME.fullmatch(player.name):
            said = _("{name}: a table seats a player by a name of one word (letters, digits, '.', '_' or '-')")
            raise NotAllowed(said.format(name=repr(player.name)))
        lines.append(f"players {side}={player.name} key={player.key}")
    return lines


def open_game(event: Event, seating: Seating) -> Game:
    """The table's game, its save made (never over a file) with its players named first; or, if
    it exists, opened and checked to be this table's.  SaveError or NotAllowed saying why not."""
    path = seating.save
    if path.exists():
        game = Game.open(path)
        try:
            _is_the_tables(game, seating)
        except BaseException:
            game.close()
            raise
        return game
    lines = opening_lines(event, seating)
    path.parent.mkdir(parents=True, exist_ok=True)
    game = Game.new(path, event.opened.ruleset, seed=None)
    try:
        for line in lines:
            game.execute(line, role=REFEREE)
    except BaseException:
        game.close()
        raise
    return game


def _is_the_tables(game: Game, seating: Seating) -> None:
    """NotAllowed unless ``game`` names the table's players, by their keys, before anyone else."""
    first: dict[str, ev.Seated] = {}
    for seated in game.reading.players():
        first.setdefault(seated.side, seated)
    named = {side: (s.name, s.key) for side, s in first.items()}
    wanted = {side: (p.name, p.key) for side, p in seating.players.items()}
    if named != wanted:
        shown = ", ".join(f"{side}={name}" for side, (name, _key) in sorted(named.items())) or "-"
        said = _("{path}: not table {t}'s game of round {r}: it names {named}")
        raise NotAllowed(said.format(path=seating.save, t=seating.table, r=seating.round, named=shown))


def confirmed(game: Game) -> bool:
    """Whether the game has ended and each of its sides confirmed the result at a seat (the
    certificate then says whether each seat was bound to its player: ``finish`` checks it)."""
    if not game.state.result:
        return False
    sides = {e.side for e in game.history.timeline() if type(e) is ev.Confirmed}
    return set(game.state.sides) <= sides


def finish(event_path: Path, seating: Seating, key: Path) -> tuple[Event, bytes]:
    """The table's certified game added to the event and the league, as ``event add SAVE CERT
    --key KEY`` adds it (``key``: the organiser's); its certificate written beside the save (or,
    from an earlier try, read there and used if it is the one the save gives).  NotAllowed or
    SaveError saying why not: nothing written to the event then."""
    save = seating.save
    cert, _verified = certificate.certify(save)
    path = certificate.default_path(save)
    if path.exists():
        held, _data = certificate.load(path)
        if held != cert:
            said = _("{path}: a certificate that is not the one its save gives now: move it away and finish again")
            raise SaveError(said.format(path=path))
    else:
        certificate.write(cert, path)
    missing = {p.side for p in cert.players} - set(certificate.confirmed_sides(save, cert))
    if missing:
        said = _("table {t}: {sides} did not confirm at a seat bound to their player")
        raise NotAllowed(said.format(t=seating.table, sides=", ".join(sorted(missing))))
    return eventfile.add(event_path, save, path, [], seating.table, seating.round, key)
