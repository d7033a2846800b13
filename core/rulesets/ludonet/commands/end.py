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

from core.language.i18n import M, Msg, Text
from core.log import events as ev
from core.log.state import GameState
from core.ruleset import END_GAME, CommandSpec, Context, Param, Refused, Ruleset
from core.rulesets.common import NO_DEFEAT_POINTS
from core.rulesets.ludonet import rules
from core.rulesets.ludonet.pieces import AIRCRAFT
from core.rulesets.ludonet.words import DOMAIN, _, listed

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


def lost(state: GameState, side: str) -> int:
    """A side's score at the end (ruling LN-END, docs/rulings.md "The result as data"):
    its figures and vehicles out of play; aircraft come and go, and do not count."""
    return sum(1 for u in state.units_of(side) if u.kind != AIRCRAFT and not u.in_play)


def losses(state: GameState) -> Msg:
    parts: list[Text] = []
    for side in state.sides.values():
        pieces = sum(1 for u in state.units_of(side.id) if u.kind != AIRCRAFT)
        parts.append(M("{side} {lost} of {n}", side=side.name, lost=lost(state, side.id), n=pieces))
    return M("losses: {losses}", losses=listed(parts))


def ending(state: GameState, winner: str, reason: Text) -> ev.GameEnded:
    """The end fact as the game records it: the winner (or a draw), each side's losses,
    and in words with ``reason``, the referee's own words or a ruling's (ruling LN-END)."""
    head = M("a draw") if winner == DRAW else M("{side} win", side=state.sides[winner].name)
    said = M("{result}: {reason}; {losses}", result=head, reason=reason, losses=losses(state))
    scores = {side: lost(state, side) for side in state.sides}
    if winner == DRAW:
        return ev.GameEnded(result=said, draw=True, scores=scores)
    return ev.GameEnded(result=said, winner=winner, scores=scores)


def check(ctx: Context) -> bool:
    """As a turn ends: True if the game is over (recorded, or gone to the final phase)."""
    s = ctx.state
    standing = rules.last_standing(ground_strength(s))
    if standing is not None:
        if standing:
            (winner,) = standing
            loser = s.sides[s.other_side(winner)].name
            why = M("{side} have nothing left in play (ruling LN-END)", side=loser)
            ctx.emit(ending(s, winner, why))
        else:
            why = M("neither side has anything left in play (ruling LN-END)")
            ctx.emit(ending(s, DRAW, why))
        return True
    last = last_turn(s)
    if last and s.turn >= last:
        conditions = s.vars.get(VICTORY, "")
        ctx.emit(ev.PhaseBegan(turn=s.turn, phase=FINAL))
        over = M(
            "turn {turn}, the scenario's last, is over: the referee records the result with victory SIDE|draw REASON.",
            turn=last,
        )
        if conditions:
            # The scenario's own words, shown as written.
            over = M("{over} The scenario's victory conditions: {conditions}", over=over, conditions=conditions)
        ctx.emit(ev.Noted(text=over))
        return True
    return False


def _winner_side(ruleset: Ruleset, state: GameState, side: str, role: str) -> None:
    """Which side ``victory`` may name (its ``side_check``): any, once the game has begun
    and until its result is recorded (ruling LN-END); none before or after."""
    if state.result:
        raise Refused(_("the game is over: {result}").format(result=DOMAIN.render(state.result)), rule="ENG-2")
    if state.turn < 1:
        raise Refused(_("the game has not started"), rule=("LN-AMB-01", "ENG-2"))


def _victory(ctx: Context, args: dict[str, Any]) -> None:
    s = ctx.state
    winner = args["winner"]
    _winner_side(ctx.ruleset, s, winner, ctx.role)
    reason = args["reason"] or M("the referee's ruling")
    ctx.emit(ending(s, winner, reason))


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "victory",
        "The referee ends the game and records its result: the winning side (or draw) and why. No dice.",
        _victory,
        params=(
            Param("winner", "side", "the winning side (any word of its name), or draw", choices=(DRAW,)),
            Param("reason", "text", "why (the scenario's condition met)", optional=True, prose=True),
        ),
        rule="ruling LN-END",
        lacks=(NO_DEFEAT_POINTS,),
        examples=("victory paras the farm is taken", "victory draw neither side holds the bridge"),
        who="referee",
        aliases=(END_GAME,),
        side_check=_winner_side,
    ),
)
