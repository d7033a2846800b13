"""The season's standings: league points, then the club's tie-breaks; a rating per ruleset beside them.

Only counted games count (a disputed game is frozen until the organiser rules; a void one
never counts).  A player's league points are the club's points for a win, a draw and a
loss (set by ``league new``).  Players level on points are ordered by, in turn:

1. head-to-head: the league points each took in the games between the players so level;
2. strength of schedule: the mean, over his games, of his opponent's points per game
   (robust to uneven numbers of games);
3. score margin: the sum, over his games, of his opponent's score less his own (each
   ruleset's score counts what a side lost: Breaking News its defeat points, the others
   the pieces it lost; docs/rulings.md, "The result as data");
4. games played (more is ahead).

Each player ahead of a player level with him on points says which of them put him there;
players level on all of them share a place.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from core.language.i18n import N_
from core.league import rating
from core.league.season import Game, Season

#: The tie-breaks, in order (their ids, shown in the reader's language).
HEAD_TO_HEAD, SCHEDULE, MARGIN, PLAYED = (
    N_("head-to-head"),
    N_("strength of schedule"),
    N_("score margin"),
    N_("games played"),
)
TIE_BREAKS = (HEAD_TO_HEAD, SCHEDULE, MARGIN, PLAYED)


@dataclass
class Row:
    player: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points: int = 0
    head_to_head: int = 0
    schedule: float = 0.0
    margin: int = 0
    place: int = 0
    #: The tie-break that put this row ahead of the next one, level with it on points ("" if
    #: not level; ``SHARED`` if level on every tie-break).
    decided: str = ""
    #: ruleset → (rating, its standard error, games) where he played it.
    ratings: dict[str, tuple[float, float, int]] = field(default_factory=dict)

    def tie_keys(self) -> tuple[float, ...]:
        return (self.head_to_head, round(self.schedule, 9), self.margin, self.played)


SHARED = N_("level on every tie-break: places shared")


@dataclass
class Table:
    rows: list[Row]
    rulesets: list[str]
    games: list[Game]


def _score(game: Game, side: str) -> float:
    if game.draw:
        return 0.5
    return 1.0 if game.winner == side else 0.0


def table(season: Season) -> Table:
    o = season.opened
    counted = [g for g in season.games if g.counted]
    rows: dict[str, Row] = {}
    for g in season.games:
        for name in g.players.values():
            rows.setdefault(name, Row(name))

    def points(s: float) -> int:
        return o.win if s == 1 else o.draw if s == 0.5 else o.loss

    pairs: list[tuple[Game, str, str, str, str]] = []  # game, side, player, opposite side, opponent
    for g in counted:
        (a, pa), (b, pb) = sorted(g.players.items())
        pairs += [(g, a, pa, b, pb), (g, b, pb, a, pa)]
    for g, side, player, other, _opp in pairs:
        row, s = rows[player], _score(g, side)
        row.played += 1
        row.won += s == 1
        row.drawn += s == 0.5
        row.lost += s == 0
        row.points += points(s)
        row.margin += g.cert.scores.get(other, 0) - g.cert.scores.get(side, 0)
    per_game = {p: r.points / r.played if r.played else 0.0 for p, r in rows.items()}
    faced: dict[str, list[float]] = defaultdict(list)
    for _g, _side, player, _other, opponent in pairs:
        faced[player].append(per_game[opponent])
    for p, r in rows.items():
        r.schedule = sum(faced[p]) / len(faced[p]) if faced[p] else 0.0
    level: dict[int, list[Row]] = defaultdict(list)
    for r in rows.values():
        level[r.points].append(r)
    for group in level.values():
        names = {r.player for r in group}
        for g, side, player, _other, opponent in pairs:
            if player in names and opponent in names and len(names) > 1:
                rows[player].head_to_head += points(_score(g, side))
    ordered = sorted(rows.values(), key=lambda r: (-r.points, *(-k for k in r.tie_keys()), r.player))
    for i, r in enumerate(ordered):
        before = ordered[i - 1] if i else None
        r.place = before.place if before and before.points == r.points and before.tie_keys() == r.tie_keys() else i + 1
        after = ordered[i + 1] if i + 1 < len(ordered) else None
        if after is not None and after.points == r.points:
            differ = [t for t, a, b in zip(TIE_BREAKS, r.tie_keys(), after.tie_keys(), strict=True) if a != b]
            r.decided = differ[0] if differ else SHARED
    rulesets = sorted({g.cert.ruleset for g in counted})
    for ruleset in rulesets:
        results = [(pa, pb, _score(g, a)) for g, a, pa, _b, pb in pairs[::2] if g.cert.ruleset == ruleset]
        count: dict[str, int] = defaultdict(int)
        for pa, pb, _s in results:
            count[pa] += 1
            count[pb] += 1
        for player, (value, error) in rating.fit(results).items():
            rows[player].ratings[ruleset] = (value, error, count[player])
    return Table(ordered, rulesets, season.games)
