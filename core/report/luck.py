"""The dice's luck: successes seen against the exact odds of each roll.

A roll is judged by its own odds as its check records them
(``core.log.events.Check``, ``core.dice.probability.check_distribution``): dice read
each on its own count a success per die that met its face; any other roll with
a success (at least k dice, every die, a sum) counts 1 if it passed and 0 if
not, against its exact chance of passing.  A side's luck is the sum of its
rolls' successes; how likely that was comes from the exact distribution of the
sum, the convolution of its rolls' distributions.  Rolls with nothing to count
(opposed rolls, tables, scores; rolls from saves made before checks) are left
out; so are rolls too big to judge (``MAX_ROLL_DICE``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from math import erf, sqrt

from core.dice.probability import check_distribution, check_successes
from core.log.events import Check
from core.report.model import RollFact

#: Dice in one roll beyond which it is not judged (its odds would cost more than they tell).
MAX_ROLL_DICE = 60
#: Successes a side could have beyond which its luck is approximated by the normal
#: law (with continuity correction) instead of the exact convolution.
EXACT_LIMIT = 3000
#: The luckiest and unluckiest rolls named.
EXTREMES = 3


@dataclass(frozen=True)
class Odds:
    """The chance of each number of successes of one kind of roll, and what follows."""

    #: ``chances[k]``: the chance of exactly k successes.
    chances: tuple[Fraction, ...]
    expected: Fraction
    #: ``at_least[k]``: the chance of k successes or more; ``at_most[k]``: k or fewer.
    at_least: tuple[Fraction, ...]
    at_most: tuple[Fraction, ...]
    #: ``expected`` as a float, for the running sums of a long game.
    mean: float
    #: Whether the roll could have gone more than one way.
    uncertain: bool

    @classmethod
    def of(cls, chances: tuple[Fraction, ...]) -> Odds:
        at_most = tuple(accumulate(chances))
        at_least = tuple(reversed(tuple(accumulate(reversed(chances)))))
        expected = sum((k * p for k, p in enumerate(chances)), Fraction(0))
        return cls(chances, expected, at_least, at_most, float(expected), sum(1 for p in chances if p) > 1)


@lru_cache(maxsize=4096)
def odds(check: Check, dice: int, sides: int) -> Odds | None:
    """A game rolls the same few kinds of roll over and over: each is worked out once."""
    chances = check_distribution(check, dice, sides)
    return None if chances is None else Odds.of(chances)


@dataclass(frozen=True)
class RollLuck:
    fact: RollFact
    successes: int
    odds: Odds

    @property
    def chances(self) -> tuple[Fraction, ...]:
        return self.odds.chances

    @property
    def expected(self) -> Fraction:
        return self.odds.expected

    @property
    def p_at_least(self) -> Fraction:
        """The chance of doing at least this well."""
        return self.odds.at_least[self.successes]

    @property
    def p_at_most(self) -> Fraction:
        """The chance of doing this badly or worse."""
        return self.odds.at_most[self.successes]

    @property
    def uncertain(self) -> bool:
        return self.odds.uncertain


@dataclass(frozen=True)
class SideLuck:
    side: str
    rolls: tuple[RollLuck, ...]
    successes: int
    expected: Fraction
    #: The chance of at least (at most) this many successes with these rolls.
    p_at_least: float
    p_at_most: float
    exact: bool


@dataclass(frozen=True)
class Luck:
    sides: tuple[SideLuck, ...]
    luckiest: tuple[RollLuck, ...]
    unluckiest: tuple[RollLuck, ...]
    #: Rolls left out: with nothing to count, too big, or for no side.
    unjudged: int
    #: Each side's successes minus their expectation, cumulative, at the end of each turn.
    by_turn: dict[str, list[float]]
    #: Each side's judged rolls of each turn: ``of_turn[side][turn]``.
    of_turn: dict[str, dict[int, list[RollLuck]]]


def judge(fact: RollFact) -> RollLuck | None:
    """The roll's successes and the chance of each count; None if it has none to count."""
    r = fact.roll
    n = len(r.faces)
    if r.check is None or not 0 < n <= MAX_ROLL_DICE:
        return None
    kind = odds(r.check, n, r.sides)
    successes = check_successes(r.check, r.faces)
    if kind is None or successes is None:
        return None
    return RollLuck(fact, successes, kind)


def convolve(distributions: list[tuple[Fraction, ...]]) -> list[float]:
    """The distribution of the sum of independent counts, ``result[k]`` = P(sum = k)."""
    out = [1.0]
    for dist in distributions:
        d = [float(p) for p in dist]
        nxt = [0.0] * (len(out) + len(d) - 1)
        for i, a in enumerate(out):
            if a:
                for j, b in enumerate(d):
                    nxt[i + j] += a * b
        out = nxt
    return out


def _normal_tail(mean: float, var: float, k: int, upper: bool) -> float:
    if var <= 0:
        return 1.0 if (k <= mean if upper else k >= mean) else 0.0
    z = ((k - 0.5 - mean) if upper else (k + 0.5 - mean)) / sqrt(var)
    below = 0.5 * (1 + erf(z / sqrt(2)))
    return 1 - below if upper else below


def side_luck(side: str, rolls: list[RollLuck]) -> SideLuck:
    successes = sum(r.successes for r in rolls)
    expected = sum((r.expected for r in rolls), Fraction(0))
    most = sum(len(r.chances) - 1 for r in rolls)
    if most <= EXACT_LIMIT:
        dist = convolve([r.chances for r in rolls])
        at_least = min(1.0, sum(dist[successes:]))
        at_most = min(1.0, sum(dist[: successes + 1]))
        exact = True
    else:
        var = sum(float(sum(k * k * p for k, p in enumerate(r.chances)) - r.expected**2) for r in rolls)
        at_least = _normal_tail(float(expected), var, successes, upper=True)
        at_most = _normal_tail(float(expected), var, successes, upper=False)
        exact = False
    return SideLuck(side, tuple(rolls), successes, expected, at_least, at_most, exact)


def assess(facts: list[RollFact], sides: list[str], turns: int) -> Luck:
    """The luck of ``facts`` (every roll the reader saw) for each of ``sides``."""
    judged = [j for j in (judge(f) for f in facts) if j is not None]
    mine = [j for j in judged if j.fact.side in sides]
    by_side: dict[str, list[RollLuck]] = {s: [] for s in sides}
    of_turn: dict[str, dict[int, list[RollLuck]]] = {s: {} for s in sides}
    for j in mine:
        by_side[j.fact.side].append(j)
        of_turn[j.fact.side].setdefault(j.fact.turn, []).append(j)
    by_turn: dict[str, list[float]] = {}
    for s in sides:
        running, row = 0.0, []
        for t in range(turns):
            running += sum(j.successes - j.odds.mean for j in of_turn[s].get(t, ()))
            row.append(running)
        by_turn[s] = row
    varied = [j for j in mine if j.uncertain]
    lucky = sorted((j for j in varied if j.successes > j.expected), key=lambda j: j.p_at_least)
    unlucky = sorted((j for j in varied if j.successes < j.expected), key=lambda j: j.p_at_most)
    return Luck(
        sides=tuple(side_luck(s, by_side[s]) for s in sides),
        luckiest=tuple(lucky[:EXTREMES]),
        unluckiest=tuple(unlucky[:EXTREMES]),
        unjudged=len(facts) - len(mine),
        by_turn=by_turn,
        of_turn=of_turn,
    )
