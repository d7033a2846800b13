"""A scenario's break point (``[victory] break_at``, docs/scenarios.md; ruling CORE-BREAK-AT):
a side that has lost that percentage of its pieces loses the game, as soon as it has.

The set-up announces it (``victory.break_at``, ``core.log.narrate.scenario_fact``) in every
ruleset that reads scenario files, so every ruleset applies it: after each command the game
carries out (``Game._resolve``), :func:`end_at_break` asks the ruleset how many of each side's
pieces it has lost (``Ruleset.pieces_lost``) and, where a side has reached the break point,
has it end the game its own way (``Ruleset.end_broken``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.language.i18n import M, Msg

if TYPE_CHECKING:
    from core.log.state import GameState
    from core.ruleset import Context

#: The variable the set-up keeps the break point in (docs/scenarios.md, "What the rules read").
BREAK_AT = "victory.break_at"


def break_at(state: GameState) -> int:
    """The scenario's break point, a percentage (0: it has none)."""
    value = state.vars.get(BREAK_AT, 0)
    return value if isinstance(value, int) and 0 < value <= 100 else 0


def broken(lost: int, pieces: int, percent: int) -> bool:
    """Whether ``lost`` of ``pieces`` is at least ``percent`` of them (0: no break point)."""
    return percent > 0 and pieces > 0 and 100 * lost >= percent * pieces


def end_at_break(ctx: Context) -> None:
    """The game's end, if the command just resolved brought a side to the break point (both
    sides at once: a draw); nothing once the game is over or on its way to its end."""
    s, rules = ctx.state, ctx.ruleset
    percent = break_at(s)
    if not percent or s.result:
        return
    counted = {side: rules.pieces_lost(s, side) for side in s.sides}
    losers = tuple(side for side, (lost, pieces) in counted.items() if broken(lost, pieces, percent))
    if losers:
        rules.end_broken(ctx, losers, reason(s, losers, counted, percent))


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
