"""Victory (§14.0): how the game ends and the final count.

The game ends when a side fails morale while losing on defeat points (morale.py),
when a side leaves the field (``exfiltrate``), after the scenario's last turn, or
when the referee calls it (``victory``).  It then passes to the ``final`` phase,
where the referee records the last facts (captures), and ``next`` (or
``victory``) makes the final count: outstanding losses scored, the negotiation
roll, every secret shown, the journalist multipliers applied.  The side with
more defeat points loses; equal points are a draw (rulings BN-VIC-DRAW).
"""

from __future__ import annotations

from typing import Any

from core.language.i18n import M, Msg, Text
from core.log import events as ev
from core.log.state import GameState
from core.log.views import REFEREE_ONLY
from core.ruleset import END_GAME, CommandSpec, Context, Param, Refused, Ruleset
from core.rulesets.breaking_news import dice_order
from core.rulesets.breaking_news.campaign import defeat, forces, media, negotiation, objectives
from core.rulesets.breaking_news.ledger import charge, regular_vs_irregular, set_var, var
from core.rulesets.breaking_news.terms import Kind
from core.rulesets.breaking_news.words import _, listing
from core.scenarios.breaking import standing

FINAL = "final"


#: Why the game ended, kept in ``game_over`` as an id (a var holds no words) with
#: its side or turn after a colon (``morale:regulars``); the referee's own reason as typed.
#: narration.py puts them in words.
LAST_TURN, MORALE, EXFILTRATION, REFEREE = "last-turn", "morale", "exfiltration", "referee"
#: The sides that reached the scenario's break point, after a colon, comma-separated (ruling CORE-BREAK-AT).
BROKEN = "broken"


def game_over(ctx: Context, reason: str) -> None:
    """The game ends: on to the final count."""
    if ctx.state.phase == FINAL:
        return
    set_var(ctx, "game_over", reason)
    ctx.emit(ev.PhaseBegan(turn=ctx.state.turn, phase=FINAL))


def broken(ctx: Context, losers: tuple[str, ...], why: Text) -> None:
    """``losers`` reached the scenario's break point (``why``, ruling CORE-BREAK-AT): the game
    is over at once, as after a rout (§14.0), and the final count names the side still
    standing the winner; once the game is over, nothing more."""
    if ctx.state.phase == FINAL:
        return
    # The count, for the referee: it holds pieces a side may not have seen (the final count opens them).
    ctx.emit(ev.Noted(text=why, vis=REFEREE_ONLY))
    game_over(ctx, f"{BROKEN}:{','.join(losers)}")


def broken_sides(state: GameState) -> tuple[str, ...]:
    """The sides whose break point ended the game (none: it ended otherwise, or goes on)."""
    why, _sep, sides = str(var(state, "game_over", "")).partition(":")
    return tuple(side for side in sides.split(",") if side in state.sides) if why == BROKEN else ()


def final_points(state: GameState) -> dict[str, int]:
    return {side: media.standing(state, side) for side in state.sides}


def breakdown(state: GameState, side: str) -> Msg:
    """A side's ledger in words, column by column, with its multiplier."""
    s = state.sides[side]
    present = media.journalists_in_game(state) if regular_vs_irregular(state) else []
    regular = s.army == "regular"
    parts = []
    for category, points in sorted(s.dp_by_category.items()):
        if not points:
            continue
        times = media.factor(category, regular, present)
        if times != 1:
            parts.append(M("{category} {points} ×{times}", category=M(category), points=points, times=times))
        else:
            parts.append(M("{category} {points}", category=M(category), points=points))
    return listing(parts)


def ending(state: GameState) -> ev.GameEnded:
    """The end fact of the final count (§14.0: "the loser is the player with most Defeat
    Points"; equal points are a draw, ruling BN-VIC-DRAW): the side with fewer defeat
    points wins, unless the scenario's break point ended the game (ruling CORE-BREAK-AT):
    then the side that did not reach it, and each side's score is its defeat points with the journalists'
    multipliers (Extras: Media), the same in the Italian draft (its 14.0)."""
    points = final_points(state)
    (a, pa), (b, pb) = sorted(points.items(), key=lambda kv: kv[1])
    name = {s.id: s.name for s in state.sides.values()}
    losers = broken_sides(state)
    if losers:  # the scenario's break point decides, the defeat points stay each side's score
        winner = standing(state, losers)
        if not winner:
            return ev.GameEnded(
                result=M("a draw: both sides reached the scenario's break point"), draw=True, scores=points
            )
        loser = state.other_side(winner)
        said = M(
            "{a} win: {b} reached the scenario's break point ({a} {pa}, {b} {pb} defeat points)",
            a=name[winner],
            b=name[loser],
            pa=points[winner],
            pb=points[loser],
        )
        return ev.GameEnded(result=said, winner=winner, scores=points)
    if pa == pb:
        said = M("a draw: {a} and {b} both have {points} defeat points", a=name[a], b=name[b], points=pa)
        return ev.GameEnded(result=said, draw=True, scores=points)
    said = M("{a} win with {pa} defeat points against {pb} for {b} (§14.0)", a=name[a], pa=pa, pb=pb, b=name[b])
    return ev.GameEnded(result=said, winner=a, scores=points)


def finish(ctx: Context) -> None:
    """The final count (§14.0) and the end of the game."""
    if len(ctx.state.sides) != 2:
        raise Refused(_("a final count needs two sides"), rule=("VIC-2", "ENG-7"))
    defeat.settle(ctx)
    negotiation.end_roll(ctx)
    objectives.reveal_all(ctx)
    for side in list(ctx.state.sides):
        total = media.standing(ctx.state, side)
        ctx.emit(
            ev.Noted(
                text=M(
                    "{side}: {breakdown} = {total} defeat points",
                    side=side,
                    breakdown=breakdown(ctx.state, side),
                    total=total,
                )
            )
        )
        added = total - ctx.state.sides[side].defeat_points
        if added:
            # booked as points of their own, so every reader of the ledger sees the final count
            ctx.emit(
                ev.DefeatPoints(
                    side=side,
                    points=added,
                    reason=M("what the journalists' multipliers add (Extras: Media)"),
                    category=media.MULTIPLIERS,
                )
            )
    ctx.emit(ending(ctx.state))


# --------------------------------------------------------------------- commands


def _victory(ctx: Context, args: dict[str, Any]) -> None:
    if ctx.state.turn < 1:
        raise Refused(_("the game has not started"), rule=("VIC-1", "ENG-2"))
    if ctx.state.phase != FINAL:
        game_over(ctx, args["reason"] or REFEREE)
    finish(ctx)


def _exfiltrate_side(ruleset: Ruleset, state: GameState, side: str, role: str) -> None:
    if role in state.sides and role != side:
        raise Refused(_("a player takes only his own side off the field"), rule=("VIC-1", "ENG-1"))


def _exfiltrate(ctx: Context, args: dict[str, Any]) -> None:
    side = args["side"]
    _exfiltrate_side(ctx.ruleset, ctx.state, side, ctx.role)
    for u in list(ctx.state.units.values()):
        if u.side == side and u.in_play and u.kind != Kind.CIVILIAN:
            ctx.emit(ev.UnitOut(unit=u.id, cause=M(forces.LEFT)))
    charge(ctx, side, "exfiltration", M("{side} leave the field by their own table edge", side=side))
    game_over(ctx, f"{EXFILTRATION}:{side}")


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "victory",
        "End the game now (or after its end) and make the final count of defeat points.",
        _victory,
        params=(Param("reason", "text", "why the game ends", optional=True, prose=True),),
        rule="§14.0",
        examples=("victory", "victory last turn played"),
        phases=("initiative", "activation", "end", FINAL),  # BreakingNews.end_phases
        aliases=(END_GAME,),
        who="referee",
        rolls=True,
        dice=(dice_order.NEGOTIATION,),
    ),
    CommandSpec(
        "exfiltrate",
        "A side leaves the field by its own table edge: 5 defeat points, and the game ends.",
        _exfiltrate,
        params=(Param("side", "side"),),
        rule="§14.0",
        examples=("exfiltrate irregulars",),
        phases=("activation", "end"),
        side_check=_exfiltrate_side,
    ),
)
