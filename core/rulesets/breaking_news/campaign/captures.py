"""Captures: journalists contacted by the Irregulars (Extras: Media, 30 defeat points
to the Regular player), and the men of a routed force left within 10 cm of an
enemy (§12.0), who count as lost (AMB-52)."""

from __future__ import annotations

from typing import Any

from core.language.i18n import M
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import CommandSpec, Context, Param, Refused
from core.rulesets.breaking_news import hits
from core.rulesets.breaking_news.campaign import defeat, forces, media
from core.rulesets.breaking_news.campaign.victory import FINAL
from core.rulesets.breaking_news.ledger import charge, irregular_side, regular_side, regular_vs_irregular, var
from core.rulesets.breaking_news.terms import Kind
from core.rulesets.breaking_news.words import DOMAIN, _


def captor(state: GameState, unit: Unit) -> str:
    """The side that may capture ``unit``, or '' if none may.  Extras: Media: journalists
    of either kind are captured by the Irregulars who contact them, even the independent
    ones the Irregular player himself moves (ruling BN-MEDIA-CAPTURE); §12.0: a routed
    man by the enemy he is left near."""
    if unit.kind == Kind.JOURNALIST:
        return irregular_side(state) if regular_vs_irregular(state) else ""
    return state.other_side(unit.side)


def _capture(ctx: Context, args: dict[str, Any]) -> None:
    for uid in args["units"]:
        u = ctx.unit(uid)
        if u.out:
            raise Refused(
                _("{name} is out of the game already ({out})").format(name=u.name, out=DOMAIN.render(u.out)),
                rule="MOR-5",
            )
        by = captor(ctx.state, u)
        if u.kind == Kind.JOURNALIST and not by:
            raise Refused(
                _("journalists are captured only in games of Regulars against Irregulars (Extras: Media)"),
                rule=("DP-3", "EXT-10"),
            )
        if ctx.role in ctx.state.sides and ctx.role != by:
            if u.kind == Kind.JOURNALIST:
                raise Refused(
                    _("only the Irregulars ({by}) capture journalists, by contacting them (Extras: Media)").format(
                        by=by
                    ),
                    rule=("DP-3", "EXT-10"),
                )
            raise Refused(_("{by} capture {name}, not you").format(by=by, name=u.name), rule=("MOR-5", "ENG-1"))
        if u.kind == Kind.JOURNALIST:
            ctx.emit(ev.StatusChanged(unit=u.id, add=("captured",)))
            ctx.emit(ev.UnitOut(unit=u.id, cause=hits.cause(forces.CAPTURED, by)))
            kind = media.journalist_kind(u)
            reason = M("{unit} ({kind}) captured by {side}", unit=u.name, kind=M(kind), side=by)
            charge(ctx, regular_side(ctx.state), "journalist-captured", reason)
        elif u.kind == Kind.MAN:
            if ctx.state.phase != FINAL or not var(ctx.state, f"morale.{u.side}.failed"):
                raise Refused(
                    _("men are captured when their force is routed: within 10 cm of an enemy (§12.0)"), rule="MOR-5"
                )
            ctx.emit(ev.StatusChanged(unit=u.id, add=("captured",)))
            ctx.emit(ev.UnitOut(unit=u.id, cause=hits.cause(forces.CAPTURED, by)))
        else:
            raise Refused(_("{name} cannot be captured").format(name=u.name), rule="EXT-10")
    defeat.settle(ctx)


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "capture",
        "Irregulars contact a journalist, or the men of a routed force are taken within 10 cm of an enemy.",
        _capture,
        params=(Param("units", "unit", "who is captured", many=True),),
        rule="Extras: Media; §12.0",
        examples=("capture lupo", "capture conti ferri"),
        phases=("activation", "end", FINAL),
    ),
)
