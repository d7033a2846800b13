"""An event as plain lines (one fact a line, readable at a plain seat and by a screen reader) or JSON.

Every name is hostile text (a league's signers file, a certificate): plain lines show it with
each character that does not print escaped (``core.secrets.shown``); JSON gives the ids (results,
rulings, sides) as the code names them, the same in every language.  The relay's pages (pairings,
tables, clock and standings, issue #92's second part) are built on ``as_data`` and these lines.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

import msgspec

from core.event import league as leagues
from core.event import standings
from core.event.records import DRAW, NO_SHOW
from core.event.state import DRAWN, WIN, Event, Round, Table
from core.language.i18n import _, ngettext
from core.secrets import shown


def receipt(head: bytes) -> str:
    """The file's head after an append, as a player keeps it (its first 16 hex digits name it)."""
    return _("receipt {digest}").format(digest=leagues.receipt(head))


def settings(event: Event) -> list[str]:
    o = event.opened
    system = _("Swiss") if o.system == "swiss" else _("round robin")
    lines = [
        _("Event {name}: {system}, {rounds} rounds, {ruleset} {scenario} ({a} against {b})").format(
            name=o.name,
            system=system,
            rounds=o.rounds,
            ruleset=o.ruleset,
            scenario=o.scenario,
            a=o.sides[0],
            b=o.sides[1],
        ),
        _("League {league}, organiser {organiser}; a bye is worth {bye} points").format(
            league=event.league.name, organiser=o.organiser, bye=o.bye
        ),
    ]
    in_play = [p.name for p in event.players.values() if not p.dropped]
    dropped = [p.name for p in event.players.values() if p.dropped]
    lines.append(
        ngettext("{n} player: {names}", "{n} players: {names}", len(in_play)).format(
            n=len(in_play), names=", ".join(in_play) or "-"
        )
    )
    if dropped:
        lines.append(_("Dropped: {names}").format(names=", ".join(dropped)))
    return [shown(line) for line in lines]


def table_state(event: Event, table: Table) -> str:
    """What became of a table: playing, its certified result, or the ruling that ended it."""
    if table.game is not None:
        results = table.results(event.opened.sides)
        if results[table.a] == DRAWN:
            return _("a draw, certified")
        winner = table.a if results[table.a] == WIN else table.b
        return _("{name} won, certified").format(name=winner)
    r = table.ruling
    if r is None:
        return _("playing")
    if r.kind == NO_SHOW:
        return _("ruling: {names} did not come").format(names=", ".join(r.absent))
    outcome = _("a draw") if r.outcome == DRAW else _("both lose")
    return _("ruling: unfinished at time, {outcome}").format(outcome=outcome)


def clock_line(rnd: Round, table: Table | None = None, now_ms: int | None = None) -> str:
    """``round 2 ends 15:30, 42 min left`` (the table's, with its extension; the minutes rounded
    up), that its time is up, or that its clock has not started."""
    if not rnd.started or not rnd.minutes:
        return _("round {r}: clock not started").format(r=rnd.number)
    ends = rnd.ends_at(table) if table is not None else rnd.started + rnd.minutes * 60_000
    now = int(time.time() * 1000) if now_ms is None else now_ms
    at = datetime.fromtimestamp(ends / 1000).strftime("%H:%M")
    if now >= ends:
        return _("round {r}: time is up ({at})").format(r=rnd.number, at=at)
    left = -(-(ends - now) // 60_000)
    return _("round {r} ends {at}, {left} min left").format(r=rnd.number, at=at, left=left)


def pairings(event: Event, number: int | None = None) -> list[str]:
    """The round's tables, one a line (the current round's unless ``number``)."""
    if not event.rounds:
        return [_("No round is paired yet.")]
    rnd = event.rounds[(number or len(event.rounds)) - 1]
    a, b = event.opened.sides
    lines = [_("Round {r} of {n}").format(r=rnd.number, n=event.opened.rounds), clock_line(rnd)]
    for t in rnd.tables:
        said = _("Table {t}: {a} ({side_a}) against {b} ({side_b}): {state}")
        line = said.format(t=t.number, a=t.a, side_a=a, b=t.b, side_b=b, state=table_state(event, t))
        if t.extra_minutes:
            line += " " + _("(+{m} min)").format(m=t.extra_minutes)
        lines.append(line)
    for name in rnd.byes:
        lines.append(_("Bye: {name} ({points} points)").format(name=name, points=event.opened.bye))
    return [shown(line) for line in lines]


def standing_lines(event: Event) -> list[str]:
    rows = standings.table(event)
    a, b = event.opened.sides
    lines = [_("Standings after {r} of {n} rounds").format(r=_rounds_done(event), n=event.opened.rounds)]
    for row in rows:
        said = _(
            "{place}. {name}: {points} points; {won} won, {drawn} drawn, {lost} lost, {byes} byes; "
            "Buchholz {buchholz}; {side_a} {first}, {side_b} {second}"
        )
        line = said.format(side_a=a, side_b=b, **vars(row))
        lines.append(line + (" " + _("(dropped)") if row.dropped else ""))
    return [shown(line) for line in lines]


def _rounds_done(event: Event) -> int:
    return sum(1 for rnd in event.rounds if not rnd.open_tables())


def as_data(event: Event, head: bytes) -> dict[str, Any]:
    """The whole event as plain data (``--json``; the pages' source): ids as the code names them."""
    o = event.opened
    rounds = []
    for rnd in event.rounds:
        tables = []
        for t in rnd.tables:
            r = t.ruling
            tables.append(
                {
                    "table": t.number,
                    o.sides[0]: t.a,
                    o.sides[1]: t.b,
                    "results": t.results(o.sides),
                    "game": msgspec.json.decode(t.game.game.certificate)["game"] if t.game else None,
                    "ruling": msgspec.to_builtins(r) if r is not None else None,
                    "ends_at_ms": rnd.ends_at(t),
                    "extra_minutes": t.extra_minutes,
                }
            )
        rounds.append(
            {
                "round": rnd.number,
                "started_ms": rnd.started,
                "minutes": rnd.minutes,
                "tables": tables,
                "byes": list(rnd.byes),
            }
        )
    return {
        "event": event.id,
        "receipt": head.hex(),
        "name": o.name,
        "league": event.league.id,
        "ruleset": o.ruleset,
        "scenario": o.scenario,
        "sides": list(o.sides),
        "system": o.system,
        "rounds": o.rounds,
        "minutes": o.minutes,
        "bye": o.bye,
        "engine": o.engine,
        "players": [
            {"name": p.name, "key": p.key, "rating": p.rating, "joined": p.joins, "dropped": bool(p.dropped)}
            for p in event.players.values()
        ],
        "paired": rounds,
        "standings": [vars(row) for row in standings.table(event)],
    }
