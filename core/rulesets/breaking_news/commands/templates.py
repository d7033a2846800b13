"""Breaking News templates: blasts and smoke (§8.0.1, §8.4, §8.5, §8.9, IED)."""

from __future__ import annotations

from typing import Any

from core.language.i18n import M
from core.log import events as ev
from core.ruleset import CommandSpec, Context, Param, Refused
from core.rulesets.breaking_news import dice_order, hits
from core.rulesets.breaking_news.commands.common import LEADER, ready_to_act
from core.rulesets.breaking_news.commands.shot import (
    COVER,
    RANGE,
    WEAPON,
    fire_rule,
    firer_check,
    moved_facts,
    require_in_the_blast,
)
from core.rulesets.breaking_news.ledger import set_var, var
from core.rulesets.breaking_news.rules import fire, saves
from core.rulesets.breaking_news.rules.movement import may_fire_after
from core.rulesets.breaking_news.terms import Status
from core.rulesets.breaking_news.words import _, listing

BLAST_SOURCES = {
    # source: (save source, vehicle column, rule); a weapon's own is its `blast` in weapons.toml
    "grenade": (saves.NORMAL, "light", "§8.0.1"),
    "rpg": (saves.NORMAL, "light_at", "§8.0.1"),
    "launcher": (saves.NORMAL, "light_at", "§8.0.1"),
    "milan": (saves.NORMAL, "heavy_at", "§8.0.1"),
    "mortar": (saves.NORMAL, "light_at", "§8.5"),
    "tank": (saves.NORMAL, "heavy_at", "§8.0.1"),
    "bombardment": (saves.BOMBARDMENT, "heavy_at", "§8.4"),
    "ied": (saves.IED, "ied", "Extras: Explosives"),
}


def _blast(ctx: Context, args: dict[str, Any]) -> None:
    """Every figure under a template takes one hit (§8.0.1, §8.4, §8.5, IED)."""
    source, column, rule = BLAST_SOURCES[args["source"]]
    by = args.get("by") or (ctx.role if ctx.role in ctx.state.sides else "")
    victims = [ctx.unit(u) for u in args["units"]]
    for v in victims:
        require_in_the_blast(ctx, v)
    seen = [v.name for v in victims if not v.has(Status.HIDDEN)]  # hidden men's own rolls stay private
    over = listing(seen, empty=M("no one in sight"))
    ctx.emit(ev.Noted(text=M("{source} template over {who} ({rule})", source=args["source"], who=over, rule=rule)))
    for v in victims:
        hits.take_hits(
            ctx, ctx.unit(v.id), 1, by_side=by, source=source, protected=bool(args.get("cover")), vehicle_column=column
        )


def _smoke(ctx: Context, args: dict[str, Any]) -> None:
    """§8.9: thrown like a grenade (or fired from a launcher); a miss lands 1 cm (3 cm
    from a launcher) per point off, where the opponent chooses."""
    unit = ctx.unit(args["unit"])
    # Thrown or fired as a grenade, smoke is the figure's fire: once, after a move that
    # leaves it to him (§5.0, §6.1), and with that move one action.
    firer_check(ctx.ruleset, ctx.state, unit)
    weapon = hits.unit_weapon(unit, ctx, args.get("weapon") or "GRENADE")
    if not weapon.smoke_step_cm:
        raise Refused(_("smoke is thrown by hand or fired from a grenade launcher (§8.9)"), rule=("SMK-1", "AMB-41"))
    why = may_fire_after(weapon, moved_facts(unit)[0], fire_rule(unit))
    if why:  # smoke is the figure's fire (§8.9): what his move leaves him to fire decides (§6.1)
        raise Refused(why, rule=("SMK-1", "MOV-3", "T-05"))
    same_action = hits.moved_to_fire(ctx.state, [unit])
    if not ready_to_act(ctx, unit, args.get("leader")):
        return
    # §7.0: hidden troops "do not fire, otherwise they are automatically sighted".
    hits.reveal(ctx, ctx.unit(unit.id), M("fires"))
    need, _rest = fire.base_shot(weapon, fire.AIMED, args["range"])
    (face,) = ctx.roll(
        M("smoke from {weapon}, {cm} cm", weapon=M(weapon.name), cm=args["range"]),
        1,
        step=dice_order.SMOKE_PLACEMENT,
        target=need,
        rule="§8.9",
        unit=unit.id,
        outcome=lambda f: M("on the spot") if f[0] >= need else M("off the spot"),
        check=ev.AtLeast(face=need),  # §8.9: off the spot by how much it missed
    )
    off = fire.placement_offset(weapon.smoke_step_cm, need, face)
    where = M("on the spot") if not off else M("{cm} cm off, the opponent chooses the direction", cm=off)
    ctx.emit(ev.Noted(text=M("smoke (10 cm template) lands {where} (§8.9); it drifts next turn", where=where)))
    key = f"smoke.{ctx.state.turn}"
    set_var(ctx, key, int(var(ctx.state, key, 0)) + 1)
    hits.badge(ctx, ctx.unit(unit.id), "fired")
    if not same_action:
        hits.next_action(ctx, [unit])


# ------------------------------------------------------------------------ specs

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "blast",
        "One hit on each figure under a template: grenade, RPG, grenade launcher, Milan, mortar, tank gun, "
        "bombardment (3+, +2) or IED (3+).",
        _blast,
        params=(
            Param("units", "unit", "the figures under the template", many=True),
            Param("source", "choice", "what exploded", choices=tuple(BLAST_SOURCES), keyword=True),
            Param("by", "side", "the side that fired", optional=True, keyword=True),
            COVER,
        ),
        rule="§8.0.1, §8.4, §8.5, §9.1",
        examples=(
            "blast ahmed bashir source=bombardment by=regulars",
            "blast rossi source=ied by=irregulars",
            "blast idris hirsi source=tank by=regulars",
        ),
        rolls=True,
        dice=(
            dice_order.BLAST_SAVES,
            dice_order.WOUND,
        ),
    ),
    CommandSpec(
        "smoke",
        "Throw smoke (or fire it from a grenade launcher): a 10 cm template that drifts next turn (§8.9).",
        _smoke,
        params=(Param("unit", "own", "the thrower"), RANGE, WEAPON, LEADER),
        rule="§8.9",
        examples=("smoke conti range=8", "smoke marino range=40 weapon=GL"),
        phases=("activation",),
        rolls=True,
        dice=(
            dice_order.SUPPRESSION,
            dice_order.SMOKE_PLACEMENT,
        ),
    ),
)
