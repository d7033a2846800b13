"""Extras: Civilians — who moves them this turn.

Once a turn, before the civilians are moved (all together, at the start of the
activation), the player who brought them rolls 1d6 and must beat the opponent's
Negotiation level (everyone has at least 1); otherwise the opponent moves them
this turn, up to 15 cm each.  Defeat points for civilians are in defeat.py.
"""

from __future__ import annotations

from typing import Any

from core.language.i18n import M
from core.log import events as ev
from core.log.state import GameState
from core.ruleset import CommandSpec, Context, Refused
from core.rulesets.breaking_news import dice_order
from core.rulesets.breaking_news.campaign import negotiation
from core.rulesets.breaking_news.ledger import set_var, var
from core.rulesets.breaking_news.terms import Kind
from core.rulesets.breaking_news.words import _

MOVE_CM = 15


def owner(state: GameState) -> str:
    """The side the civilians were brought by (the Irregular player, AMB-56)."""
    return next((u.side for u in state.units.values() if u.kind == Kind.CIVILIAN), "")


def controller(state: GameState) -> str:
    """Who moves the civilians this turn ('' until the roll is made)."""
    if int(var(state, "civilians.turn", 0)) != state.turn:
        return ""
    return str(var(state, "civilians.control", ""))


def _civilians(ctx: Context, args: dict[str, Any]) -> None:
    side = owner(ctx.state)
    if not side:
        raise Refused(_("there are no civilians in this game"), rule=("EXT-11", "AMB-59"))
    if not any(u.kind == Kind.CIVILIAN and u.in_play for u in ctx.state.units.values()):
        raise Refused(_("no civilian is left on the table"), rule=("EXT-11", "AMB-59"))
    if ctx.role in ctx.state.sides and ctx.role != side:
        raise Refused(
            _("{side} roll for the civilians (Extras: Civilians)").format(side=ctx.state.side_name(side)),
            rule=("EXT-11", "AMB-59"),
        )
    if controller(ctx.state):
        raise Refused(
            _("the civilians' roll is made this turn: {controller} move them").format(controller=controller(ctx.state)),
            rule=("EXT-11", "AMB-59"),
        )
    other = ctx.state.other_side(side)
    need = negotiation.level(ctx.state, other)
    (face,) = ctx.roll(
        M("control of the civilians"),
        1,
        step=dice_order.CIVILIANS,
        side=side,
        target=need + 1,
        rule="Extras: Civilians",
        outcome=lambda f: M("{side} move them", side=side if f[0] > need else other),
        check=ev.AtLeast(face=need + 1),  # Extras: Civilians, over the other side's level
    )
    who = side if face > need else other
    set_var(ctx, "civilians.turn", ctx.state.turn)
    set_var(ctx, "civilians.control", who)
    ctx.emit(
        ev.Noted(
            text=M("{side} move the civilians this turn, up to {cm} cm each (Extras: Civilians)", side=who, cm=MOVE_CM)
        )
    )


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "civilians",
        "Roll for the civilians this turn: beat the enemy's Negotiation level to move them yourself.",
        _civilians,
        rule="Extras: Civilians",
        examples=("civilians", "civilians dice=4"),
        phases=("activation",),
        rolls=True,
        dice=(dice_order.CIVILIANS,),
    ),
)
