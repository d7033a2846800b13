"""The end of a Ludonet game (ruling LN-END).

The fragment gives no victory rules: a scenario's objectives decide.  The game ends

* when a side has no figure or vehicle left in play (checked as each turn ends):
  the other side wins, or it is a draw if neither has any;
* after the scenario's last turn (``turns``): the game passes to the
  ``final`` phase, where the referee judges the scenario's conditions
  (``victory``, shown there) and records the result with ``victory``;
* whenever the referee records a result with ``victory``.

Scenario variables read (set by the scenario at set-up): ``turns`` (the last
turn; absent or 0: no limit) and ``victory`` (the victory conditions in words;
absent: none stated).
"""

from __future__ import annotations

from typing import Any

from core import events as ev
from core.commands import match_prefix
from core.ruleset import CommandSpec, Context, Param, Refused
from core.rulesets.ludonet import rules
from core.rulesets.ludonet.pieces import AIRCRAFT
from core.state import GameState

FINAL = "final"
TURNS = "turns"
VICTORY = "victory"
DRAW = "draw"


def last_turn(state: GameState) -> int:
    value = state.vars.get(TURNS, 0)
    return value if isinstance(value, int) and value > 0 else 0


def ground_strength(state: GameState) -> dict[str, int]:
    """Figures and vehicles in play per side (aircraft come and go: they do not count)."""
    return {side: sum(1 for u in state.units_of(side) if u.in_play and u.kind != AIRCRAFT) for side in state.sides}


def losses(state: GameState) -> str:
    parts = []
    for side in state.sides.values():
        pieces = [u for u in state.units_of(side.id) if u.kind != AIRCRAFT]
        parts.append(f"{side.name} {sum(1 for u in pieces if not u.in_play)} of {len(pieces)}")
    return "losses: " + ", ".join(parts)


def result(state: GameState, winner: str, reason: str) -> str:
    head = "a draw" if winner == DRAW else f"{state.sides[winner].name} win"
    return f"{head}: {reason}; {losses(state)}"


def check(ctx: Context) -> bool:
    """As a turn ends: True if the game is over (recorded, or gone to the final phase)."""
    s = ctx.state
    standing = rules.last_standing(ground_strength(s))
    if standing is not None:
        if standing:
            (winner,) = standing
            loser = s.sides[s.other_side(winner)].name
            ctx.emit(ev.GameEnded(result=result(s, winner, f"{loser} have nothing left in play (ruling LN-END)")))
        else:
            ctx.emit(ev.GameEnded(result=result(s, DRAW, "neither side has anything left in play (ruling LN-END)")))
        return True
    last = last_turn(s)
    if last and s.turn >= last:
        conditions = s.vars.get(VICTORY, "")
        ctx.emit(ev.PhaseBegan(turn=s.turn, phase=FINAL))
        said = f" The scenario's victory conditions: {conditions}" if conditions else ""
        ctx.emit(
            ev.Noted(
                text=f"turn {last}, the scenario's last, is over: the referee records the result "
                f"with victory SIDE|draw REASON.{said}"
            )
        )
        return True
    return False


def _victory(ctx: Context, args: dict[str, Any]) -> None:
    s = ctx.state
    if s.result:
        raise Refused(f"the game is over: {s.result}")
    if s.turn < 1:
        raise Refused("the game has not started")
    words = (args["result"] or "").split(maxsplit=1)
    if not words:
        raise Refused("say who won: victory SIDE|draw REASON")
    winner = match_prefix(words[0], [*s.sides, DRAW], "side")
    reason = words[1] if len(words) > 1 else "the referee's ruling"
    ctx.emit(ev.GameEnded(result=result(s, winner, reason)))


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "victory",
        "The referee ends the game and records its result: the winning side (or draw) and why. No dice.",
        _victory,
        params=(Param("result", "text", "SIDE or draw, then the reason"),),
        rule="ruling LN-END",
        examples=("victory paras the farm is taken", "victory draw neither side holds the bridge"),
        who="referee",
    ),
)
