"""The end of the game (the book leaves victory to the scenario; rulings BI-END, BI-END-ROUT).

The scenario sets, as variables at set-up: ``scenario.turns`` (the last turn; 0 or
absent: no limit) and ``scenario.victory`` (its victory conditions, in words).  The
game ends:

* by itself when a side has nobody left who can fight (every man and vehicle out of
  action or seriously wounded): the other side wins (checked by ``next``);
* after the last turn: the game passes to the ``final`` phase, where the referee
  reads the scenario's conditions against the table and records the result;
* whenever the referee records it with ``victory SIDE [reason]`` or ``victory draw``.

The result names the winner, the reason and each side's losses.
"""

from __future__ import annotations

from typing import Any

from core import events as ev
from core.ruleset import CommandSpec, Context, Param, Refused
from core.state import GameState, Unit

FINAL = "final"


def can_fight(unit: Unit) -> bool:
    return unit.in_play and not unit.has("seriously-wounded")


def losses(state: GameState, side: str) -> str:
    """A side's losses in words: killed, surrendered, destroyed... and wounded."""
    counts: dict[str, int] = {}
    for u in state.units_of(side):
        if not u.in_play:
            what = u.out.split(" by ")[0].split(",")[0]
            counts[what] = counts.get(what, 0) + 1
        elif u.has("seriously-wounded"):
            counts["seriously wounded"] = counts.get("seriously wounded", 0) + 1
        elif u.has("wounded"):
            counts["wounded"] = counts.get("wounded", 0) + 1
    if not counts:
        return "no losses"
    return ", ".join(f"{n} {what}" for what, n in sorted(counts.items()))


def _record(ctx: Context, winner: str, reason: str) -> None:
    s = ctx.state
    names = {side.id: side.name for side in s.sides.values()}
    head = "a draw" if not winner else f"{names[winner]} win"
    tally = "; ".join(f"{names[side]}: {losses(s, side)}" for side in s.sides)
    ctx.emit(ev.GameEnded(result=f"{head}: {reason}. Losses: {tally}"))


def decided(ctx: Context) -> bool:
    """If a side can no longer fight, the game ends now with the other side's win."""
    s = ctx.state
    if s.turn < 1 or len(s.sides) != 2:
        return False
    beaten = [side for side in s.sides if not any(can_fight(u) for u in s.units_of(side))]
    if len(beaten) != 1:
        return False
    winner = s.other_side(beaten[0])
    _record(ctx, winner, f"{s.sides[beaten[0]].name} have nobody left who can fight")
    return True


def last_turn_over(ctx: Context) -> bool:
    """After the scenario's last turn (``scenario.turns``), on to the final reckoning."""
    s = ctx.state
    last = s.vars.get("scenario.turns", 0)
    if not isinstance(last, int) or not last or s.turn < last:
        return False
    conditions = s.vars.get("scenario.victory", "")
    text = f"turn {s.turn} was the last: the referee records the result"
    ctx.emit(ev.Noted(text=text + (f" by the scenario's conditions: {conditions}" if conditions else "")))
    ctx.emit(ev.PhaseBegan(turn=s.turn, phase=FINAL))
    return True


def _victory(ctx: Context, args: dict[str, Any]) -> None:
    s = ctx.state
    if s.turn < 1:
        raise Refused("the game has not started")
    if s.result:
        raise Refused(f"the game is over: {s.result}")
    winner = "" if args["draw"] else args["winner"]
    if not winner and not args["draw"]:
        raise Refused(f"name the winning side ({', '.join(s.sides)}) or say draw")
    reason = args["reason"] or ("the last turn is over" if s.phase == FINAL else "the referee ends the game")
    _record(ctx, winner, reason)


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "victory",
        "Record the end of the game: the winning side (or draw) and why, by the scenario's conditions; "
        "the result adds each side's losses.  No dice.",
        _victory,
        params=(
            Param("winner", "side", "the winning side", optional=True),
            Param("draw", "choice", "nobody wins", optional=True, default=False, choices=("draw",), keyword=True),
            Param("reason", "text", "why (the scenario's condition met)", optional=True),
        ),
        rule="BI-END",
        examples=("victory folgore the village is searched", "victory draw"),
        who="referee",
    ),
)
