"""Extras: Negotiation (digest T-19, EXT-12).

The negotiating side takes defeat points every turn the negotiation holds; the
opponent who accepts keeps 15 cm away.  If the opponent fires first, the
negotiator's negotiation points are struck off and the opponent takes 10 (and,
in the English draft, the standard 5 for firing first).  At the end of the
game the negotiator rolls 1d6: at or under his level, his negotiation points
are cancelled.  The level (1 for everyone) also sets the civilians' control roll.
"""

from __future__ import annotations

from typing import Any

from core.language.i18n import M, Msg
from core.log import events as ev
from core.log.state import GameState
from core.ruleset import CommandSpec, Context, Param, Refused
from core.rulesets.breaking_news import dice_order
from core.rulesets.breaking_news.commands.common import own_side, side_for
from core.rulesets.breaking_news.ledger import army, charge, extra, set_var, var
from core.rulesets.breaking_news.tables import negotiation, negotiation_keep_away_cm
from core.rulesets.breaking_news.terms import PhaseId
from core.rulesets.breaking_news.words import IT, _

RUNNING, BROKEN, ENDED = "running", "broken", "ended"
CATEGORY = "negotiation"


def level(state: GameState, side: str) -> int:
    """Everyone has level 1; higher levels are bought (Extras: Negotiation, Civilians)."""
    return max(1, extra(state, side, "negotiation"))


def running(state: GameState) -> str:
    """The side whose negotiation holds, or ''."""
    return next((s for s in state.sides if var(state, f"negotiation.{s}", "") == RUNNING), "")


def points(state: GameState, side: str) -> int:
    return state.sides[side].dp_by_category.get(CATEGORY, 0)


def accrue(ctx: Context) -> None:
    """End of turn: the negotiator takes his level's points for the turn."""
    side = running(ctx.state)
    if not side:
        return
    lv = level(ctx.state, side)
    rate = negotiation(ctx.ruleset.variant)[lv].dp_per_turn
    charge(ctx, side, "negotiation", M("negotiation holds another turn (level {level})", level=lv), points=rate)


def broken_by(ctx: Context, firer: str) -> bool:
    """The first shot of the game.  True if it broke a negotiation (the firer is the
    negotiator's opponent); a negotiator who fires first ends his own negotiation and
    keeps his points (rulings BN-NEG-SELF)."""
    side = running(ctx.state)
    if not side:
        return False
    if firer == side:
        set_var(ctx, f"negotiation.{side}", ENDED)
        ctx.emit(ev.Noted(text=M("{side} fired first: the negotiation is over", side=side)))
        return False
    _break(ctx, side, firer, M("fired first"))
    return True


def _break(ctx: Context, negotiator: str, breaker: str, how: Msg) -> None:
    set_var(ctx, f"negotiation.{negotiator}", BROKEN)
    held = points(ctx.state, negotiator)
    if held:
        charge(
            ctx,
            negotiator,
            "negotiation",
            M("{side} {how}: the negotiation points are struck off", side=breaker, how=how),
            points=-held,
        )
    charge(ctx, breaker, "negotiation-broken", M("{side} {how} and broke the negotiation", side=breaker, how=how))


def end_roll(ctx: Context) -> None:
    """End of the game: 1d6 at or under the level cancels the negotiation points."""
    for side in ctx.state.sides:
        held = points(ctx.state, side)
        if held <= 0:
            continue
        lv = level(ctx.state, side)
        (face,) = ctx.roll(
            M("negotiation"),
            1,
            step=(dice_order.NEXT_NEGOTIATION, dice_order.NEGOTIATION),
            side=side,
            target=lv,
            under=True,
            rule="Extras: Negotiation",
            outcome=lambda f, lv=lv: M("points cancelled") if f[0] <= lv else M("points stand"),  # type: ignore[misc]  # a lambda binding a value by default argument: mypy cannot infer it
            check=ev.AtLeast(face=lv, under=True),  # Extras: Negotiation, at or under the level
        )
        if face <= lv:
            charge(
                ctx,
                side,
                "negotiation",
                M("negotiation roll {face} at or under level {level}", face=face, level=lv),
                points=-held,
            )
        set_var(ctx, f"negotiation.{side}", ENDED)


# --------------------------------------------------------------------- commands


def _may_declare_now(ctx: Context) -> None:
    s = ctx.state
    if ctx.ruleset.variant == IT:
        # "deve essere giocata al primo turno, a prescindere da chi ha l'iniziativa" (DIFF-58)
        if s.turn != 1:
            raise Refused(
                _("negotiation is declared in the first turn (Italian draft, Extras: Negotiation)"), rule="DIFF-58"
            )
    elif not (s.phase == PhaseId.DEPLOYMENT or (s.turn == 1 and s.phase == PhaseId.INITIATIVE)):
        raise Refused(
            _("negotiation is declared at the start of the game, before the first initiative (Extras: Negotiation)"),
            rule="DIFF-58",
        )


def _negotiate(ctx: Context, args: dict[str, Any]) -> None:
    side = side_for(ctx, args["side"], "negotiate {side}")
    other = ctx.state.other_side(side)
    if args["breach"]:
        if not ctx.is_referee:
            raise Refused(_("the referee rules that the negotiation was breached"), rule=("EXT-12", "DIFF-57"))
        if running(ctx.state) != side:
            raise Refused(
                _("{side} is not negotiating").format(side=ctx.state.side_name(side)), rule=("EXT-12", "DIFF-57")
            )
        _break(ctx, side, other, M("came within {cm} cm", cm=negotiation_keep_away_cm()))
        return
    if ctx.ruleset.variant != IT and army(ctx.state, side) != "regular":
        raise Refused(
            _("the Regular player negotiates (English draft, Extras: Negotiation)"), rule=("EXT-12", "DIFF-57")
        )
    _may_declare_now(ctx)
    if var(ctx.state, f"negotiation.{side}", ""):
        raise Refused(
            _("{side} has already negotiated this game").format(side=ctx.state.side_name(side)),
            rule=("EXT-12", "DIFF-57"),
        )
    if running(ctx.state):
        raise Refused(
            _("{running} is already negotiating").format(running=running(ctx.state)), rule=("EXT-12", "DIFF-57")
        )
    if var(ctx.state, "first_fire", ""):
        raise Refused(_("shots have been fired: too late to negotiate"), rule=("EXT-12", "DIFF-57"))
    lv = level(ctx.state, side)
    rate = negotiation(ctx.ruleset.variant)[lv].dp_per_turn
    set_var(ctx, f"negotiation.{side}", RUNNING)
    ctx.emit(
        ev.Noted(
            text=M(
                "{side} negotiate at level {level}: {rate} defeat points to {side} each turn it holds; "
                "{other} keep at least {cm} cm away (Extras: Negotiation)",
                side=side,
                level=lv,
                rate=rate,
                other=other,
                cm=negotiation_keep_away_cm(),
            )
        )
    )


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "negotiate",
        "Declare a negotiation (or, as the referee, `negotiate SIDE breach`: the other side came within 15 cm).",
        _negotiate,
        params=(
            Param("side", "side", "the negotiating side", optional=True, default=""),
            Param(
                "breach",
                "choice",
                "the opponent broke the 15 cm distance",
                choices=("breach",),
                optional=True,
                keyword=True,
            ),
        ),
        rule="Extras: Negotiation",
        examples=("negotiate regulars", "negotiate regulars breach"),
        phases=("deployment", "initiative", "activation", "end"),
        side_check=own_side,
    ),
)
