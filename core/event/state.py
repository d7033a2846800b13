"""An event as its file's records leave it: players, rounds, tables, results; every record checked.

The same checks serve reading and writing: a command builds its record and applies it to the
event as the file stands (``apply``); a file is read by applying its records in order, so a
record an edit made wrong is refused naming its line, exactly as the command would have refused
it.  What each record must satisfy:

* the settings: the first record, signed by the league's organiser, naming this league;
* an entry: signed by the organiser, a club player of the league (his name and his key as the
  league's allowed signers give them), not entered already under this name or one that folds to
  it (Unicode compatibility and case: ``Anna``, ``anna`` and ``ａｎｎａ`` are one player);
  ``late`` exactly when rounds were paired already; a round robin takes no late entry;
* a drop: signed by the player himself or the organiser; an entrant not dropped already;
* a pairing: the next round, not past the event's rounds, once every table of the round before
  has a certified game or a ruling (the tables still open are named); its players entrants in
  play, each once; no two who met before; at most one bye a player (Swiss);
* a clock: the organiser's, of the current round: its start once, a table's extension after;
* a game: of the current round's table, still open; the event's ruleset and scenario; the
  table's players, each on the side the pairing gave him; its players' signatures of its
  certificate good; a game the event holds already refused;
* a ruling: the organiser's, on an open table of the current round: who did not come (one or
  both of its players), or a game unfinished at time and its outcome (a draw, or both lose: a
  winner is only ever a certified game's).

Results are folded from games and rulings only: nothing in the file is a typed result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from core.event import league as leagues
from core.event import signing
from core.event.league import folded
from core.event.records import (
    BOTH_LOSE,
    DRAW,
    MAX_TEXT,
    NO_SHOW,
    ROUND_ROBIN,
    SWISS,
    UNFINISHED,
    Clocked,
    Dropped,
    Entered,
    Opened,
    Paired,
    Played,
    Record,
    Ruled,
)
from core.language.i18n import _

#: At most this many players in an event (a convention's hall, not a city).
MAX_PLAYERS = 1000
MAX_ROUNDS = 30
#: A round's time, or a table's extension, at most (minutes).
MAX_MINUTES = 24 * 60
#: A result as the standings count it.
WIN, DRAWN, LOSS, BYE = "win", "draw", "loss", "bye"


class NotAllowed(leagues.NotCounted):
    """A record that breaks the event's rules, and why (exit status 1: nothing written)."""


def text(value: str) -> str:
    """A name or a reason: printable, at most ``MAX_TEXT`` characters."""
    if not value or len(value) > MAX_TEXT or not value.isprintable():
        raise NotAllowed(_("a name or a reason: 1 to {n} printable characters").format(n=MAX_TEXT))
    return value


@dataclass
class Player:
    name: str
    key: str
    rating: int
    #: The order of entry (1, 2, …): the engine's id for him.
    number: int
    #: The first round he may be paired in.
    joins: int
    #: The last round paired before he dropped (0: still in).
    dropped: int = 0


@dataclass
class Table:
    number: int
    a: str
    b: str
    game: Played | None = None
    ruling: Ruled | None = None
    extra_minutes: int = 0

    @property
    def ended(self) -> bool:
        return self.game is not None or self.ruling is not None

    @property
    def played(self) -> bool:
        """Whether the players met over the table (a game, even unfinished; not a no-show)."""
        return self.game is not None or (self.ruling is not None and self.ruling.kind == UNFINISHED)

    def results(self, sides: tuple[str, str]) -> dict[str, str]:
        """Each player's result at this table (empty while it is open)."""
        if self.game is not None:
            cert = leagues.certificate(self.game.game)
            if cert.draw:
                return {self.a: DRAWN, self.b: DRAWN}
            return {self.a: WIN, self.b: LOSS} if cert.winner == sides[0] else {self.a: LOSS, self.b: WIN}
        r = self.ruling
        if r is None:
            return {}
        if r.kind == NO_SHOW:
            absent = {folded(n) for n in r.absent}
            return {p: LOSS if folded(p) in absent else WIN for p in (self.a, self.b)}
        return dict.fromkeys((self.a, self.b), DRAWN if r.outcome == DRAW else LOSS)


@dataclass
class Round:
    number: int
    tables: list[Table]
    byes: tuple[str, ...]
    #: When the organiser started its clock (unix ms; 0: not started) and for how long.
    started: int = 0
    minutes: int = 0

    def open_tables(self) -> list[Table]:
        return [t for t in self.tables if not t.ended]

    def table(self, number: int) -> Table:
        for t in self.tables:
            if t.number == number:
                return t
        raise NotAllowed(_("round {r} has no table {t}").format(r=self.number, t=number))

    def ends_at(self, table: Table) -> int:
        """When ``table``'s time is up (unix ms; 0: no clock started)."""
        if not self.started or not self.minutes:
            return 0
        return self.started + (self.minutes + table.extra_minutes) * 60_000


@dataclass
class Event:
    opened: Opened
    id: str
    league: leagues.League
    players: dict[str, Player] = field(default_factory=dict)  # folded name → player
    rounds: list[Round] = field(default_factory=list)
    games: set[str] = field(default_factory=set)  # the game ids it holds

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def finished(self) -> bool:
        last = self.current
        return len(self.rounds) == self.opened.rounds and last is not None and not last.open_tables()

    def player(self, name: str) -> Player:
        found = self.players.get(folded(name))
        if found is None:
            raise NotAllowed(_("{name} is not entered in this event").format(name=repr(name)))
        return found

    def players_by_number(self, number: int | None) -> str | None:
        """The name of the player the engine knows as ``number`` (None for none)."""
        return next((p.name for p in self.players.values() if p.number == number), None)

    def in_play(self, round_number: int) -> list[Player]:
        """The players the round numbered ``round_number`` pairs, in order of entry."""
        return [p for p in self.players.values() if p.joins <= round_number and not p.dropped]

    def points(self, result: str) -> int:
        win, draw, loss = self.league.points
        return {WIN: win, DRAWN: draw, LOSS: loss, BYE: self.opened.bye}[result]

    def history(self, name: str) -> list[tuple[int, str, str, str]]:
        """``name``'s rounds: (round, opponent or "", his side or "", his result or "" while open)."""
        out = []
        for rnd in self.rounds:
            if name in rnd.byes:
                out.append((rnd.number, "", "", BYE))
            for t in rnd.tables:
                if name in (t.a, t.b):
                    side = self.opened.sides[0] if name == t.a else self.opened.sides[1]
                    other = t.b if name == t.a else t.a
                    out.append(
                        (rnd.number, other, side if t.played else "", t.results(self.opened.sides).get(name, ""))
                    )
        return out

    def met(self) -> set[frozenset[str]]:
        """Every two players who sat at one table."""
        return {frozenset((t.a, t.b)) for rnd in self.rounds for t in rnd.tables}


def apply(event: Event, record: Record) -> None:
    """``record`` applied to ``event``: NotAllowed (changing nothing) if it breaks the event's rules."""
    if isinstance(record, Opened):
        raise NotAllowed(_("a second event in one event file"))
    _CHECKS[type(record)](event, record)


def opened_by(opened: Opened, league: leagues.League) -> Event:
    """The event its settings make, once they are checked against ``league``."""
    if opened.league_id != league.id:
        said = _("{league}: not the league this event was made with (its season differs)")
        raise NotAllowed(said.format(league=league.path))
    if opened.organiser != league.organiser:
        raise NotAllowed(
            _("the settings name {who}, who is not the league's organiser").format(who=repr(opened.organiser))
        )
    _signed_by(opened, "", league, {opened.organiser})
    if opened.system not in (SWISS, ROUND_ROBIN) or len(set(opened.sides)) != 2:
        raise NotAllowed(_("settings Fireteam does not know"))
    if not 1 <= opened.rounds <= MAX_ROUNDS or not 0 <= opened.minutes <= MAX_MINUTES:
        raise NotAllowed(_("rounds from 1 to {r}, minutes from 0 to {m}").format(r=MAX_ROUNDS, m=MAX_MINUTES))
    return Event(opened, signing.event_id(opened), league)


def _signed_by(record: Record, event: str, league: leagues.League, who: set[str]) -> str:
    """The identity that signed ``record``, one of ``who`` (folded); NotAllowed if none did."""
    try:
        key = signing.signer(event, record, league)
    except leagues.BadSignature as e:
        raise NotAllowed(_("its signature does not count: {why}").format(why=e)) from None
    if folded(key.identity) not in {folded(w) for w in who}:
        said = _("signed by {who}, who may not decide it (only {allowed})")
        raise NotAllowed(said.format(who=repr(key.identity), allowed=", ".join(sorted(who))))
    return key.identity


def _organisers(event: Event, record: Record) -> None:
    _signed_by(record, event.id, event.league, {event.opened.organiser})


def _entry(event: Event, r: Entered) -> None:
    _organisers(event, r)
    text(r.name)
    club = event.league.key_of(r.name)
    if club is None or club.fingerprint != r.key:
        said = _("{name} has no key in the league's allowed signers: an event enters the club's players")
        raise NotAllowed(said.format(name=repr(r.name)))
    if folded(r.name) in event.players:  # (the club's names never fold alike: core.league.signatures)
        raise NotAllowed(_("{name} is entered already").format(name=repr(r.name)))
    if any(p.key == r.key for p in event.players.values()):
        raise NotAllowed(_("{name}'s key is an entrant's already").format(name=repr(r.name)))
    if r.late != bool(event.rounds):
        raise NotAllowed(_("a late entry is one made after round 1 is paired, and only that"))
    if r.late and event.opened.system == ROUND_ROBIN:
        raise NotAllowed(_("a round robin takes no late entry: its rounds are fixed by round 1"))
    if event.finished or len(event.players) >= MAX_PLAYERS:
        raise NotAllowed(_("the event is over, or full ({n} players)").format(n=MAX_PLAYERS))
    number = len(event.players) + 1
    event.players[folded(r.name)] = Player(r.name, r.key, r.rating, number, len(event.rounds) + 1)


def _drop(event: Event, r: Dropped) -> None:
    player = event.player(r.name)
    by = _signed_by(r, event.id, event.league, {player.name, event.opened.organiser})
    if folded(by) != folded(r.by):
        raise NotAllowed(_("the drop says it is by {by}, but {who} signed it").format(by=repr(r.by), who=repr(by)))
    if player.dropped:
        raise NotAllowed(_("{name} dropped already").format(name=repr(player.name)))
    player.dropped = len(event.rounds) or -1  # (-1: before round 1: never paired)


def _pairing(event: Event, r: Paired) -> None:
    if r.round != len(event.rounds) + 1 or r.round > event.opened.rounds:
        said = _("round {r} cannot be paired now: the event has paired {n} of its {total} rounds")
        raise NotAllowed(said.format(r=r.round, n=len(event.rounds), total=event.opened.rounds))
    last = event.current
    if last is not None and last.open_tables():
        said = _("round {r} is not over: tables {tables} have no certified game nor ruling")
        raise NotAllowed(said.format(r=last.number, tables=", ".join(str(t.number) for t in last.open_tables())))
    in_play = {p.name for p in event.in_play(r.round)}
    seated = [n for t in r.tables for n in (t.a, t.b)] + list(r.byes)
    if len(seated) != len(set(seated)) or set(seated) != in_play:
        raise NotAllowed(_("a pairing seats each player in play once, and only them"))
    if sorted(t.number for t in r.tables) != list(range(1, len(r.tables) + 1)):
        raise NotAllowed(_("a pairing's tables are numbered 1 to its count"))
    met = event.met()
    for t in r.tables:
        if frozenset((t.a, t.b)) in met:
            raise NotAllowed(_("{a} and {b} met already: no rematch").format(a=repr(t.a), b=repr(t.b)))
    if event.opened.system == SWISS:
        had = {n for rnd in event.rounds for n in rnd.byes}
        if len(r.byes) > 1 or had & set(r.byes):
            raise NotAllowed(_("at most one bye a round, and one a player"))
    event.rounds.append(Round(r.round, [Table(t.number, t.a, t.b) for t in r.tables], r.byes))


def _current(event: Event, round_number: int) -> Round:
    last = event.current
    if last is None or round_number != last.number:
        said = _("round {r} is not the current round ({current})")
        raise NotAllowed(said.format(r=round_number, current=last.number if last else "-"))
    return last


def open_table(event: Event, round_number: int, table: int) -> Table:
    found = _current(event, round_number).table(table)
    if found.ended:
        raise NotAllowed(_("table {t} of round {r} has ended already").format(t=table, r=round_number))
    return found


def _clock(event: Event, r: Clocked) -> None:
    _organisers(event, r)
    rnd = _current(event, r.round)
    if not 1 <= r.minutes <= MAX_MINUTES:
        raise NotAllowed(_("from 1 to {n} minutes").format(n=MAX_MINUTES))
    if r.table == 0:
        if rnd.started:
            raise NotAllowed(_("round {r}'s clock is running already").format(r=rnd.number))
        rnd.started, rnd.minutes = r.at, r.minutes
        return
    if not rnd.started:
        raise NotAllowed(_("round {r}'s clock has not started").format(r=rnd.number))
    open_table(event, r.round, r.table).extra_minutes += r.minutes


def fits(event: Event, round_number: int, table_number: int, cert: leagues.Certificate) -> Table:
    """The open table whose game ``cert`` is: the event's ruleset and scenario, each side played
    by the table's player the pairing gave it and by no one else (by his key where his seat was
    bound to one, else by name); NotAllowed otherwise.  Checked before a game goes to the league,
    and again after."""
    table = open_table(event, round_number, table_number)
    o = event.opened
    if (cert.ruleset, cert.scenario) != (o.ruleset, o.title):
        said = _("a game of {ruleset} {scenario}: this event plays {want}")
        raise NotAllowed(said.format(ruleset=cert.ruleset, scenario=cert.scenario, want=f"{o.ruleset} {o.title}"))
    for side, name in ((o.sides[0], table.a), (o.sides[1], table.b)):
        player = event.player(name)
        seats = cert.of_side(side)
        if not seats or any(s.key != player.key if s.key else folded(s.name) != folded(player.name) for s in seats):
            said = _("not table {t}'s game: the pairing seats {a} as {side_a} and {b} as {side_b}")
            raise NotAllowed(said.format(t=table.number, a=table.a, side_a=o.sides[0], b=table.b, side_b=o.sides[1]))
    if cert.game in event.games:
        raise NotAllowed(_("this game is in the event already"))
    return table


def _game(event: Event, r: Played) -> None:
    cert = leagues.certificate(r.game)
    table = fits(event, r.round, r.table, cert)
    o = event.opened
    players, problems = event.league.held(_("its league record"), r.game)
    if problems:
        raise NotAllowed("; ".join(problems))
    named = {side: tuple(folded(n) for n in names) for side, names in players.items()}
    if named != {o.sides[0]: (folded(table.a),), o.sides[1]: (folded(table.b),)}:
        raise NotAllowed(_("the league names other players for this game than the table's"))
    event.games.add(cert.game)
    table.game = r


def _ruling(event: Event, r: Ruled) -> None:
    _organisers(event, r)
    table = open_table(event, r.round, r.table)
    text(r.why)
    players = {folded(table.a), folded(table.b)}
    absent = {folded(n) for n in r.absent}
    if r.kind == NO_SHOW:
        if not absent or not absent <= players or r.outcome:
            raise NotAllowed(_("a no-show names who did not come: one or both of the table's players"))
    elif r.kind == UNFINISHED:
        if absent or r.outcome not in (DRAW, BOTH_LOSE):
            raise NotAllowed(_("an unfinished game's outcome: a draw, or both lose (a winner is a certified game's)"))
    else:
        raise NotAllowed(_("a ruling Fireteam does not know"))
    table.ruling = r


_CHECKS: dict[type[Record], Callable[[Event, Any], None]] = {
    Entered: _entry,
    Dropped: _drop,
    Paired: _pairing,
    Clocked: _clock,
    Played: _game,
    Ruled: _ruling,
}
