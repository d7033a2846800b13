"""An event as a TRF16 file (FIDE's tournament report), and the engine's Free Pairings Checker over it.

The checker (``caissify_pairings.fpc``) reads a TRF16 file, derives each round's input from the
rounds before it and pairs it with the same Dutch engine the event uses: a cross-check that what
the event gives the engine (``core.event.pairing.engine_input``) is what the results say.  What
the export writes, in the checker's terms:

* starting numbers: the engine's order (rating, then the event's draw), the rating as entered;
* a game over the board, finished or unfinished at time: the opponent, the colour (the event's
  first side white), ``1``, ``=`` or ``0`` (both lose: ``0`` each);
* a no-show: the present player's forfeit win ``+``, the absent one's forfeit loss ``-``, against
  each other (both absent: ``-`` each);
* a bye: ``U``, the pairing-allocated bye (a win's points);
* a round before a late entry or after a drop: nothing (the checker pairs only the players with
  an entry for the round).

What TRF16 cannot say, so the checker pairs without it: the event's sides within one of even
(pairs the engine is told have met, ``pairing.engine_input``); points other than 1, ½ and 0 for
a win, a draw and a loss, or a bye worth other than a win (caissify's TRF reader knows no points
record); and a no-show's two players kept apart (the event pairs no two players twice; FIDE, and
the checker, let a forfeited pairing be made again).  ``cross_check`` therefore compares the
checker with the engine given the same facts: the file's results without the sides rule, and
without the pairings no game was played at as pairs met.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.event import pairing
from core.event.records import Paired
from core.event.state import BYE, DRAWN, LOSS, WIN, Event

#: A result as TRF16 writes it: over the board, and unplayed (a forfeit).
_PLAYED = {WIN: "1", DRAWN: "=", LOSS: "0"}
_FORFEIT = {WIN: "+", LOSS: "-"}


def players(event: Event) -> list[dict[str, Any]]:
    """The event's players as ``caissify_pairings.trf.write_trf`` takes them, numbered in the engine's order."""
    numbers = {p.name: n for n, p in enumerate(pairing.order(event), start=1)}
    out = []
    for p in event.players.values():
        results: dict[int, dict[str, Any]] = {}
        for r, opponent, side, result in event.history(p.name):
            if result == BYE:
                results[r] = {"opponent": None, "result": "U"}
            elif result:  # (an open table has no result yet: the round is not the checker's)
                colour = "w" if _first(event, r, p.name) else "b"
                code = _PLAYED[result] if side else _FORFEIT[result]
                results[r] = {"opponent": numbers[opponent], "color": colour, "result": code}
        out.append({"starting_number": numbers[p.name], "name": p.name, "rating": p.rating, "results": results})
    return sorted(out, key=lambda p: p["starting_number"])


def _first(event: Event, round_number: int, name: str) -> bool:
    """Whether ``name`` sat on the event's first side in the round (whether or not the game was played)."""
    return any(t.a == name for t in event.rounds[round_number - 1].tables)


def export(event: Event) -> str:
    """The event as a TRF16 file (its rounds so far)."""
    from caissify_pairings.trf import write_trf

    return str(write_trf({"name": event.opened.name}, players(event), event.opened.rounds))


@dataclass(frozen=True)
class Checked:
    """One round: whether the checker pairs it as the engine does from the same facts (the file's
    results, without the sides rule nor a no-show's pair kept apart), and as the file holds it (they
    differ where the rule did)."""

    round: int
    as_engine: bool
    as_file: bool


def cross_check(path: Path) -> list[Checked]:
    """Each Swiss round of the event file at ``path``: the checker's pairing over the event's
    TRF16 export, against the engine's and the file's."""
    from caissify_pairings.fpc import check_trf

    from core.event import eventfile

    unruled: dict[int, set[frozenset[str]]] = {}
    held: dict[int, set[frozenset[str]]] = {}

    def before(event: Event, record: object) -> None:
        if isinstance(record, Paired):
            names = {p.number: p.name for p in event.players.values()}
            arguments = pairing.engine_input(event, record.round, balanced=False)
            # (a pairing lost by no-show is no game to TRF16 and the checker: they may pair it again)
            played = {frozenset((t.a, t.b)) for rnd in event.rounds for t in rnd.tables if t.played}
            met = arguments["previous_pairings"]
            arguments["previous_pairings"] = {pair for pair in met if frozenset(names[n] for n in pair) in played}
            boards = pairing.run_engine(arguments)
            unruled[record.round] = {
                frozenset(names[b[k]] for k in ("white_id", "black_id") if b.get(k)) for b in boards
            }
            held[record.round] = {frozenset((t.a, t.b)) for t in record.tables} | {frozenset((b,)) for b in record.byes}

    event = eventfile.fold(path, eventfile.framed(path).records, before=before)
    names = {n: p.name for n, p in enumerate(pairing.order(event), start=1)}
    report = check_trf(export(event))
    out = []
    for checked in report["rounds"]:
        r = checked["round"]
        pairs = {frozenset(names[p[k]] for k in ("white", "black") if p.get(k)) for p in checked["engine_pairings"]}
        out.append(Checked(r, pairs == unruled[r], pairs == held[r]))
    return out
