"""A rating per ruleset: one Bradley–Terry fit over the whole season, with a Gaussian prior.

The static case of Coulom's Whole-History Rating: every player's strength ``r`` (on the Elo
scale, 400 points a factor of ten in the odds) is the maximum of the season's likelihood,
``P(i beats j) = 1 / (1 + 10^((r_j - r_i) / 400))`` (a draw half a win each), times a
Gaussian prior of mean 0 and deviation ``PRIOR_SD`` on each, which keeps a player of two
games near the middle and makes the fit exist when someone has won every game.  The fit is
Newton's method (the log-posterior is concave); the uncertainty of each rating is the
square root of its diagonal entry in the inverse of the Hessian (the Laplace
approximation).  Sequential Elo or Glicko would be noisier at 5–20 games a player in a
dice-heavy game (docs/league.md).
"""

from __future__ import annotations

import math

#: Shown as 1500 + r.
BASE = 1500.0
#: The prior's deviation, in rating points: about the spread of a club's strengths.
PRIOR_SD = 200.0
_K = math.log(10) / 400
MAX_STEPS = 50


def fit(games: list[tuple[str, str, float, float]], prior_sd: float = PRIOR_SD) -> dict[str, tuple[float, float]]:
    """``games`` as (player, opponent, the player's score: 1, 0.5 or 0, its weight: 1 for a game
    between two players, less for each pair of opponents in a team game): each player's
    (rating, its standard error)."""
    names = sorted({p for a, b, _s, _w in games for p in (a, b)})
    at = {p: i for i, p in enumerate(names)}
    n, tau = len(names), 1 / prior_sd**2
    r = [0.0] * n
    for _ in range(MAX_STEPS):
        grad = [-tau * x for x in r]
        hess = [[tau if i == j else 0.0 for j in range(n)] for i in range(n)]
        for a, b, s, weight in games:
            i, j = at[a], at[b]
            e = 1 / (1 + math.exp(-_K * (r[i] - r[j])))
            w = weight * _K * _K * e * (1 - e)
            grad[i] += weight * _K * (s - e)
            grad[j] -= weight * _K * (s - e)
            hess[i][i] += w
            hess[j][j] += w
            hess[i][j] -= w
            hess[j][i] -= w
        inverse = _inverse(hess)
        step = [sum(inverse[i][k] * grad[k] for k in range(n)) for i in range(n)]
        r = [x + d for x, d in zip(r, step, strict=True)]
        if max(map(abs, step), default=0.0) < 0.01:
            break
    return {p: (BASE + r[i], math.sqrt(inverse[i][i])) for p, i in at.items()} if n else {}


def _inverse(m: list[list[float]]) -> list[list[float]]:
    """The inverse of a symmetric positive definite matrix, by Gauss–Jordan elimination."""
    n = len(m)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(m)]
    for c in range(n):
        pivot = a[c][c]
        a[c] = [x / pivot for x in a[c]]
        for i in range(n):
            if i != c and a[i][c]:
                f = a[i][c]
                a[i] = [x - f * y for x, y in zip(a[i], a[c], strict=True)]
    return [row[n:] for row in a]
