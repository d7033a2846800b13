"""A scenario's break point (``[victory] break_at``, docs/scenarios.md; ruling CORE-BREAK-AT):
a side that has lost that percentage of its pieces loses the game, as soon as it has.

The set-up announces it (``victory.break_at``, ``core.log.narrate.scenario_fact``) in every
ruleset that reads scenario files, so every ruleset applies it: after each command the game
carries out (``Game._resolve``), :func:`broken_sides` counts each side's pieces lost as its
ruleset counts them (``Ruleset.pieces_lost``) and, where a side has reached the break point,
the ruleset ends the game its own way (``Ruleset.end_broken``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from core.language.i18n import M, Msg
from core.log.state import GameState

#: The variable the set-up keeps the break point in (docs/scenarios.md, "What the rules read").
BREAK_AT = "victory.break_at"


class Broken(NamedTuple):
    """The sides that reached the break point, and why the game ends, in words."""

    losers: tuple[str, ...]
    why: Msg


def break_at(state: GameState) -> int:
    """The scenario's break point, a percentage (0: it has none)."""
    value = state.vars.get(BREAK_AT, 0)
    return value if isinstance(value, int) and 0 < value <= 100 else 0


def broken(lost: int, pieces: int, percent: int) -> bool:
    """Whether ``lost`` of ``pieces`` is at least ``percent`` of them (0: no break point)."""
    return percent > 0 and pieces > 0 and 100 * lost >= percent * pieces


def broken_sides(state: GameState, pieces_lost: Callable[[GameState, str], tuple[int, int]]) -> Broken | None:
    """The sides the game now finds at the scenario's break point (both at once: a draw), each
    side's pieces lost counted by ``pieces_lost``; None where none is, or the game is over."""
    percent = break_at(state)
    if not percent or state.result:
        return None
    counted = {side: pieces_lost(state, side) for side in state.sides}
    losers = tuple(side for side, (lost, pieces) in counted.items() if broken(lost, pieces, percent))
    return Broken(losers, reason(state, losers, counted, percent)) if losers else None


def standing(state: GameState, losers: tuple[str, ...]) -> str:
    """The side left to win when ``losers`` broke: the one side that did not ("" when every
    side did, or more than one did not: no winner, a draw)."""
    left = [side for side in state.sides if side not in losers]
    return left[0] if len(left) == 1 else ""


def reason(state: GameState, losers: tuple[str, ...], counted: dict[str, tuple[int, int]], percent: int) -> Msg:
    """Why the game ended, in words: each side broken, what it lost, and the break point."""
    parts = [
        M(
            "{side} lost {lost} of their {pieces} pieces, the scenario's break point of {percent}%",
            side=state.side_name(side),
            lost=counted[side][0],
            pieces=counted[side][1],
            percent=percent,
        )
        for side in losers
    ]
    said = parts[0]
    for part in parts[1:]:
        said = M("{first}; {second}", first=said, second=part)
    return said
