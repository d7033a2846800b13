"""The season's standings: league points, then the club's tie-breaks; a rating per ruleset beside them.

Only counted games count (a disputed game is frozen until the organiser rules; a void one
never counts; a game below the level the league counts, or flagged by the re-check of its
file, does not: ``core.league.folding``).  A player's league points are the club's points for
a win, a draw and a loss (set by ``league new``); each player of a side with several (partners,
a replacement) takes the side's result: a team game.  Players level on points are ordered by,
in turn:

1. head-to-head: the league points each took in the games against the players so level;
2. strength of schedule: the mean, over his games, of his opponents' points per game
   (robust to uneven numbers of games);
3. score margin: the sum, over his games, of each game's share of what was lost, his
   opponents' loss less his own over both (``margin_of``): each ruleset's score counts what a
   side lost in its own unit (Breaking News its defeat points, the others the pieces it lost;
   docs/rulings.md, "The result as data"), so a game's margin is taken in its own ruleset's
   terms, between -1 and 1, and a mixed league adds like to like (issue #90);
4. games played (more is ahead).

Each player ahead of a player level with him on points says which of them put him there;
players level on all of them share a place.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from core.language.i18n import N_
from core.league import rating
from core.league.folding import Game, Season
from core.league.names import folded

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
    margin: float = 0.0
    place: int = 0
    #: The tie-break that put this row ahead of the next one, level with it on points ("" if
    #: not level; ``SHARED`` if level on every tie-break).
    decided: str = ""
    #: ruleset → (rating, its standard error, games) where he played it.
    ratings: dict[str, tuple[float, float, int]] = field(default_factory=dict)

    def tie_keys(self) -> tuple[float, ...]:
        return (self.head_to_head, round(self.schedule, 9), round(self.margin, 9), self.played)


SHARED = N_("level on every tie-break: places shared")


@dataclass
class Table:
    rows: list[Row]
    rulesets: list[str]
    season: Season

    @property
    def games(self) -> list[Game]:
        return self.season.games


def _score(game: Game, side: str) -> float:
    if game.draw:
        return 0.5
    return 1.0 if game.winner == side else 0.0


def margin_of(game: Game, side: str, other: str) -> float:
    """``side``'s score margin in ``game``: its opponents' loss less its own, over both (each a
    count of what a side lost, in its ruleset's unit): between -1 and 1, 0 where neither lost."""
    theirs, mine = game.cert.scores.get(other, 0), game.cert.scores.get(side, 0)
    return (theirs - mine) / (theirs + mine) if theirs + mine > 0 else 0.0


@dataclass(frozen=True)
class _Seat:
    """One player's part in a counted game: his side, the other, and his opponents (folded names)."""

    game: Game
    side: str
    player: str
    other: str
    opponents: tuple[str, ...]


def table(season: Season) -> Table:
    o = season.opened
    counted = [g for g in season.games if g.counted]
    rows: dict[str, Row] = {}  # by folded name, shown as the league first wrote it
    for g in season.games:
        for names in g.players.values():
            for name in names:
                rows.setdefault(folded(name), Row(name))

    def points(s: float) -> int:
        return o.win if s == 1 else o.draw if s == 0.5 else o.loss

    seats: list[_Seat] = []
    for g in counted:
        (a, pa), (b, pb) = sorted(g.players.items())
        fa, fb = tuple(map(folded, pa)), tuple(map(folded, pb))
        seats += [_Seat(g, a, p, b, fb) for p in fa] + [_Seat(g, b, p, a, fa) for p in fb]
    for seat in seats:
        row, s = rows[seat.player], _score(seat.game, seat.side)
        row.played += 1
        row.won += s == 1
        row.drawn += s == 0.5
        row.lost += s == 0
        row.points += points(s)
        row.margin += margin_of(seat.game, seat.side, seat.other)
    per_game = {p: r.points / r.played if r.played else 0.0 for p, r in rows.items()}
    faced: dict[str, list[float]] = defaultdict(list)
    for seat in seats:
        faced[seat.player].append(sum(per_game[x] for x in seat.opponents) / len(seat.opponents))
    for p, r in rows.items():
        r.schedule = sum(faced[p]) / len(faced[p]) if faced[p] else 0.0
    level: dict[int, set[str]] = defaultdict(set)
    for p, r in rows.items():
        level[r.points].add(p)
    for level_names in level.values():
        for seat in seats:
            if len(level_names) > 1 and seat.player in level_names and level_names.intersection(seat.opponents):
                rows[seat.player].head_to_head += points(_score(seat.game, seat.side))
    ordered = sorted(rows.values(), key=lambda r: (-r.points, *(-k for k in r.tie_keys()), folded(r.player)))
    for i, r in enumerate(ordered):
        before = ordered[i - 1] if i else None
        r.place = before.place if before and before.points == r.points and before.tie_keys() == r.tie_keys() else i + 1
        after = ordered[i + 1] if i + 1 < len(ordered) else None
        if after is not None and after.points == r.points:
            differ = [t for t, a, b in zip(TIE_BREAKS, r.tie_keys(), after.tie_keys(), strict=True) if a != b]
            r.decided = differ[0] if differ else SHARED
    rulesets = sorted({g.cert.ruleset for g in counted})
    for ruleset in rulesets:
        # A team game is one game: each pair of opponents weighs 1/(pairs) of it in the fit.
        results = [
            (seat.player, opponent, _score(seat.game, seat.side), 1 / (len(seat.opponents) * _team(seat)))
            for seat in seats
            if seat.game.cert.ruleset == ruleset and seat.side < seat.other
            for opponent in seat.opponents
        ]
        count: dict[str, int] = defaultdict(int)
        for seat in seats:
            count[seat.player] += seat.game.cert.ruleset == ruleset
        for player, (value, error) in rating.fit(results).items():
            rows[player].ratings[ruleset] = (value, error, count[player])
    return Table(ordered, rulesets, season)


def _team(seat: _Seat) -> int:
    """How many players sat for ``seat``'s side."""
    return len(seat.game.players[seat.side])
