"""The end of the game (the book leaves victory to the scenario; rulings BI-END, BI-END-ROUT).

The scenario sets, as variables at set-up: ``scenario.turns`` (the last turn; 0 or
absent: no limit) and ``scenario.victory`` (its victory conditions, in words).  The
game ends:

* by itself when a side has nobody left who can fight (every man and vehicle out of
  action or seriously wounded): the other side wins (checked by ``next``);
* after the last turn: the game passes to the ``final`` phase, where the referee
  reads the scenario's conditions against the table and records the result;
* whenever the referee records it with ``victory SIDE [reason]`` or ``victory draw``.

The result names the winner, the reason and each side's losses; as data, the
winner's id (or a draw) and each side's men and vehicles out of action (``lost``).
"""

from __future__ import annotations

from typing import Any

from core.language.i18n import M, Msg, Text, plain
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import END_GAME, TYPING, CommandSpec, Context, Param, Refused, Ruleset, flag
from core.rulesets.bassa_intensita.casualties import ABANDONED, DESTROYED_BY, DIED_OF_WOUNDS, KILLED_BY
from core.rulesets.bassa_intensita.terms import Status
from core.rulesets.bassa_intensita.words import _, listing, render
from core.rulesets.common import NO_DEFEAT_POINTS

FINAL = "final"


def can_fight(unit: Unit) -> bool:
    return unit.in_play and not unit.has(Status.SERIOUSLY_WOUNDED)


#: How a loss is counted, by the template of its cause (``UnitOut.cause``); any other
#: cause counts as itself.
_LOSS_KIND: dict[str, Msg] = {
    KILLED_BY: M("killed"),
    DESTROYED_BY: M("destroyed"),
    DIED_OF_WOUNDS.id: M("died of his wounds"),
    ABANDONED.id: M("abandoned"),
}


def _loss_kind(cause: Text) -> Text:
    if isinstance(cause, Msg):
        return _LOSS_KIND.get(cause.id, cause)
    return cause.split(" by ")[0].split(",")[0]  # a save from before messages, or a core cause


def lost(state: GameState, side: str) -> int:
    """A side's score at the end (rulings BI-END, docs/rulings.md "The result as data"):
    its men and vehicles out of action (killed, surrendered, destroyed, died of their
    wounds, abandoned); the wounded, even seriously, are not lost."""
    return sum(1 for u in state.units_of(side) if not u.in_play)


def losses(state: GameState, side: str) -> Text:
    """A side's losses in words: killed, surrendered, destroyed... and wounded."""
    counts: dict[str, tuple[Text, int]] = {}

    def count(what: Text) -> None:
        key = plain(what)
        counts[key] = (what, counts.get(key, (what, 0))[1] + 1)

    for u in state.units_of(side):
        if not u.in_play:
            count(_loss_kind(u.out))
        elif u.has(Status.SERIOUSLY_WOUNDED):
            count(M("seriously wounded"))
        elif u.has(Status.WOUNDED):
            count(M("wounded"))
    if not counts:
        return M("no losses")
    return listing([M("{n} {what}", n=n, what=what) for _key, (what, n) in sorted(counts.items())])


def record(ctx: Context, winner: str, reason: Text) -> None:
    """The end fact: ``winner`` ("" for a draw) and ``reason``, with each side's losses."""
    s = ctx.state
    names = {side.id: side.name for side in s.sides.values()}
    head = M("a draw") if not winner else M("{side} win", side=names[winner])
    tally = listing([M("{side}: {losses}", side=names[side], losses=losses(s, side)) for side in s.sides], ";")
    said = M("{head}: {reason}. Losses: {tally}", head=head, reason=reason, tally=tally)
    scores = {side: lost(s, side) for side in s.sides}
    ctx.emit(ev.GameEnded(result=said, winner=winner, draw=not winner, scores=scores))


def decided(ctx: Context) -> bool:
    """If a side can no longer fight, the game ends now with the other side's win."""
    s = ctx.state
    if s.turn < 1 or len(s.sides) != 2:
        return False
    beaten = [side for side in s.sides if not any(can_fight(u) for u in s.units_of(side))]
    if len(beaten) != 1:
        return False
    winner = s.other_side(beaten[0])
    record(ctx, winner, M("{side} have nobody left who can fight", side=s.sides[beaten[0]].name))
    return True


def last_turn_over(ctx: Context) -> bool:
    """After the scenario's last turn (``scenario.turns``), on to the final reckoning."""
    s = ctx.state
    last = s.vars.get("scenario.turns", 0)
    if not isinstance(last, int) or not last or s.turn < last:
        return False
    conditions = s.vars.get("scenario.victory", "")
    if conditions:
        text = M(
            "turn {turn} was the last: the referee records the result by the scenario's conditions: {conditions}",
            turn=s.turn,
            conditions=conditions,
        )
    else:
        text = M("turn {turn} was the last: the referee records the result", turn=s.turn)
    ctx.emit(ev.Noted(text=text))
    ctx.emit(ev.PhaseBegan(turn=s.turn, phase=FINAL))
    return True


def _winner_side(ruleset: Ruleset, state: GameState, side: str, role: str) -> None:
    """Which side ``victory`` may name (its ``side_check``): any, once the game has begun
    and until its result is recorded (BI-END); none before or after."""
    if state.turn < 1:
        raise Refused(_("the game has not started"), rule="ENG-2")
    if state.result:
        raise Refused(_("the game is over: {result}").format(result=render(state.result)), rule="ENG-2")


def _victory(ctx: Context, args: dict[str, Any]) -> None:
    s = ctx.state
    _winner_side(ctx.ruleset, s, args["winner"] or "", ctx.role)
    winner = "" if args["draw"] else args["winner"]
    if not winner and not args["draw"]:
        # what to type, and which side each is by its name: convoy (Italian convoy)
        sides = ", ".join(f"{sid} ({side.name})" for sid, side in s.sides.items())
        raise Refused(_("name the winning side ({sides}) or say draw").format(sides=sides), rule=TYPING)
    reason = args["reason"] or (M("the last turn is over") if s.phase == FINAL else M("the referee ends the game"))
    record(ctx, winner, reason)


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "victory",
        "Record the end of the game: the winning side (or draw) and why, by the scenario's conditions; "
        "the result adds each side's losses.  No dice.",
        _victory,
        params=(
            Param("winner", "side", "the winning side", optional=True),
            flag("draw", "nobody wins"),
            Param("reason", "text", "why (the scenario's condition met)", optional=True, prose=True),
        ),
        rule="BI-END",
        lacks=(NO_DEFEAT_POINTS,),
        examples=("victory folgore the village is searched", "victory draw"),
        who="referee",
        aliases=(END_GAME,),
        side_check=_winner_side,
    ),
)
