"""An event's standings, folded from its tables: points, then Buchholz, then wins.

Points are the league's for a win, a draw and a loss (each certified game, or the organiser's
ruling on a table), and the event's for a bye.  Players level on points are ordered by their
Buchholz (the sum of the points of the opponents they met over a table: a no-show meets no one),
then by their wins; level on all three, they share a place.  Each row says how many games its
player played on each of the scenario's sides.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.event.state import BYE, DRAWN, LOSS, WIN, Event


@dataclass
class Row:
    name: str
    points: int = 0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    buchholz: int = 0
    #: Games on the scenario's first side, and on its second.
    first: int = 0
    second: int = 0
    dropped: bool = False
    place: int = 0

    def key(self) -> tuple[int, int, int]:
        return (self.points, self.buchholz, self.won)


def table(event: Event) -> list[Row]:
    rows = {p.name: Row(p.name, dropped=bool(p.dropped)) for p in event.players.values()}
    met: dict[str, list[str]] = {name: [] for name in rows}
    for name, row in rows.items():
        for _r, opponent, side, result in event.history(name):
            if not result:
                continue
            row.points += event.points(result)
            row.byes += result == BYE
            row.won += result == WIN
            row.drawn += result == DRAWN
            row.lost += result == LOSS
            if side:
                row.played += 1
                row.first += side == event.opened.sides[0]
                row.second += side == event.opened.sides[1]
                met[name].append(opponent)
    for name, row in rows.items():
        row.buchholz = sum(rows[o].points for o in met[name])
    ordered = sorted(rows.values(), key=lambda r: (*(-k for k in r.key()), r.name.casefold()))
    for i, row in enumerate(ordered):
        before = ordered[i - 1] if i else None
        row.place = before.place if before is not None and before.key() == row.key() else i + 1
    return ordered
