"""Whole-number ticks for the charts of counts (defeat points, losses): no 0.2 of a man on an axis."""

from __future__ import annotations

import math

#: At most this many ticks on an axis.
MOST_TICKS = 11


def whole_ticks(values: list[float] | list[int], most: int = MOST_TICKS) -> list[int]:
    """Ticks from 0 (or the lowest value, if below) to at least the highest value
    (at least 1), in whole steps of 1, 2, 5, 10, 20, 50… (the smallest that keeps
    to ``most`` ticks: a text chart has a row for each at most)."""
    most = max(2, most)
    lo = math.floor(min(0, *values)) if values else 0
    hi = max(1, math.ceil(max(values))) if values else 1
    step = 1
    while math.ceil(hi / step) - math.floor(lo / step) > most - 1:
        step = step * 5 // 2 if str(step)[0] == "2" else step * 2  # 1, 2, 5, 10, 20, 50…
    return list(range(math.floor(lo / step) * step, math.ceil(hi / step) * step + 1, step))
