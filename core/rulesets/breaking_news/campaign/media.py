"""Extras: Media — journalists on the table: the multipliers they put on the Regular
player's defeat points (digest T-20) and the independent journalist's 2d6 move."""

from __future__ import annotations

from typing import Any

from core.language.i18n import M
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import CommandSpec, Context, Param, Refused
from core.rulesets.breaking_news import dice_order, hits
from core.rulesets.breaking_news.ledger import army, regular_vs_irregular
from core.rulesets.breaking_news.tables import Journalists, media
from core.rulesets.breaking_news.terms import Kind, Status
from core.rulesets.breaking_news.words import _

#: The ledger columns that take the civilians-and-buildings multiplier.
CIVILIANS_BUILDINGS = ("civilians", "buildings")
MAIN_OBJECTIVE = "objective-main"
#: The column where the final count books what the multipliers add: the multiplied
#: total already holds it, so it counts for nothing there.
MULTIPLIERS = "media"


def journalist_kind(unit: Unit) -> str:
    """ "embedded", "independent" or "" (not a journalist)."""
    if unit.kind != Kind.JOURNALIST:
        return ""
    return "independent" if "independent" in unit.roles else "embedded"


def journalists_in_game(state: GameState) -> list[Journalists]:
    """The kinds of journalist bought for this game; they count wherever they are,
    and after they are captured or killed (rulings BN-MEDIA-ALWAYS)."""
    table = media()
    kinds = {journalist_kind(u) for u in state.units.values()} - {""}
    return [table[k] for k in sorted(kinds)]


def factor(category: str, is_regular: bool, present: list[Journalists]) -> int:
    """The multiplier of one ledger column (T-20, AMB-54): the Regular player's points ×2,
    civilians and buildings ×3 or ×4 instead (the larger if both kinds are present); the
    opponent's main-objective points doubled "in positive" by embedded journalists."""
    if category == MULTIPLIERS:
        return 0
    if not present:
        return 1
    if is_regular:
        if category in CIVILIANS_BUILDINGS:
            return max(j.civilians_buildings for j in present)
        return max(j.all for j in present)
    if category == MAIN_OBJECTIVE:
        return max(j.opponent_main_objective for j in present)
    return 1


def multiplied(by_category: dict[str, int], is_regular: bool, present: list[Journalists]) -> int:
    """A side's defeat points after the journalist multipliers."""
    return sum(points * factor(category, is_regular, present) for category, points in by_category.items())


def standing(state: GameState, side: str) -> int:
    """A side's defeat points as they stand, with the journalist multipliers."""
    s = state.sides[side]
    present = journalists_in_game(state) if regular_vs_irregular(state) else []
    return multiplied(s.dp_by_category, army(state, side) == "regular", present)


# --------------------------------------------------------------------- commands


def _press(ctx: Context, args: dict[str, Any]) -> None:
    """Extras: Media — the Irregular player moves an independent journalist 2d6 cm."""
    u = ctx.unit(args["unit"])
    if journalist_kind(u) != "independent":
        raise Refused(
            _("{name} is not an independent journalist; only they move 2d6 cm (Extras: Media)").format(name=u.name),
            rule="EXT-10",
        )
    hits.require_in_play(u)
    if ctx.role in ctx.state.sides and army(ctx.state, ctx.role) != "irregular":
        raise Refused(_("the Irregular player moves the independent journalists (Extras: Media)"), rule="EXT-10")
    if u.has(Status.ACTED):
        # a move a turn, as every figure's (§6.0's allowances are a turn's)
        raise Refused(_("{name} has moved this turn (Extras: Media)").format(name=u.name), rule="EXT-10")
    dice = media()["independent"].move_dice
    faces = ctx.roll(
        M("move"),
        dice,
        step=dice_order.JOURNALIST,
        total=True,
        rule="Extras: Media",
        unit=u.id,
        outcome=lambda f: M("{cm} cm", cm=sum(f)),
        check=ev.Read(),
    )
    ctx.emit(ev.Moved(unit=u.id, cm=sum(faces), how=M("journalist, 2d6")))
    hits.badge(ctx, ctx.unit(u.id), "acted")


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "press",
        "Move an independent journalist 2d6 cm (the Irregular player moves them).",
        _press,
        params=(Param("unit", "unit", "the journalist"),),
        rule="Extras: Media",
        examples=("press lupo",),
        phases=("activation",),
        rolls=True,
        dice=(dice_order.JOURNALIST,),
    ),
)
