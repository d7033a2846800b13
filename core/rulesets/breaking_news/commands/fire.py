"""Breaking News fire commands of the active side: fire and group fire, speculative fire
(§8.0, §8.1, §8.6)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.language.i18n import M
from core.log import events as ev
from core.log.state import Unit
from core.ruleset import CommandSpec, Context, Param, Refused
from core.rulesets.breaking_news import dice_order, hits
from core.rulesets.breaking_news.commands.common import LEADER, check_group, ready_to_act
from core.rulesets.breaking_news.commands.reactions import mark_reacted, record_struck
from core.rulesets.breaking_news.commands.shot import (
    ALSO,
    COVER,
    LINE,
    MODE,
    RANGE,
    SHOT,
    SPLIT,
    WEAPON,
    fire_rule,
    firer_check,
    hit_words,
    moved_facts,
    require_fire_left,
    shoot,
    situation,
    weapon_words,
)
from core.rulesets.breaking_news.ledger import extra
from core.rulesets.breaking_news.rules import fire, support
from core.rulesets.breaking_news.rules.movement import may_fire_after
from core.rulesets.breaking_news.terms import Status
from core.rulesets.breaking_news.words import _


def _fire(ctx: Context, args: dict[str, Any]) -> None:
    firer = ctx.unit(args["unit"])
    group = [firer, *hits.resolve_units(ctx, args.get("with"), side=firer.side)]
    for u in group:  # every firer of the group, before the first suppression test's die
        firer_check(ctx.ruleset, ctx.state, u)
    targets = [ctx.unit(t) for t in args["targets"]]
    sit = situation(ctx, args)
    if len(group) > 1:
        check_group(group)
        if len(targets) > 1 or sit.split:
            raise Refused(_("group fire is at one target (§8.1)"), rule=("ACT-3", "FIRE-13"))
    # §6.4 (ACT-3): the fire of men who just moved is the rest of their action, not another.
    same_action = hits.moved_to_fire(ctx.state, group)
    acting = [u for u in group if ready_to_act(ctx, u, args.get("leader"))]
    dodgers = [t for t in targets if t.has(Status.DODGING)]
    # who was down or out before this fire: it did not put them there (§8.2)
    down_before = {u.id for u in [*targets, *sit.also] if u.out or u.has(Status.SUPPRESSED)}
    for u in acting:
        shoot(ctx, u, targets, sit)
        hits.badge(ctx, ctx.unit(u.id), "fired")
    if not same_action:
        hits.next_action(ctx, group)
    _dodged(ctx, dodgers)
    record_struck(ctx, [u for u in [*targets, *sit.also] if u.id not in down_before])


def _dodged(ctx: Context, dodgers: Sequence[Unit]) -> None:
    """§6.5, §8.2: a dodge is the man's one reaction to the shot it answers, so it
    counts as his reaction to that fire: he cannot fire back at it as well.  The
    dodge is declared before the shot is numbered, hence marked now."""
    for unit in dodgers:
        if not unit.has(Status.DODGING):  # the shot spent it (no shot when no firer was ready)
            mark_reacted(ctx, unit)


def _speculative(ctx: Context, args: dict[str, Any]) -> None:
    firer = ctx.unit(args["unit"])
    if not args["targets"]:
        given = [f"{k}=" for k in ("split", "line", "also") if args.get(k)] + (["cover"] if args.get("cover") else [])
        if given:
            raise Refused(
                _("{given} describe the figures at the position: name them, or fire at nobody").format(
                    given=", ".join(given)
                ),
                rule=("SPEC-1", "SPOT-2"),
            )
    require_fire_left(firer)
    if not ctx.is_referee:
        # A player aims at what he sees: a marker, or a position with nobody he can see
        # (rulings BN-C-MARKER); a figure in sight is fired at, not suspected.
        for t in args["targets"]:
            target = ctx.unit(t)
            if not target.has(Status.HIDDEN) or ctx.role in target.spotted_by or target.side == ctx.role:
                raise Refused(
                    _("{target} is in sight: fire at him (fire), or name a marker (§8.6)").format(target=target.name),
                    rule=("SPEC-1", "AMB-37"),
                )
    if not ready_to_act(ctx, firer, args.get("leader")):
        return
    if args.get("permission"):
        # §8.6, Extras: Rules of Engagement: a 6 for a side that bought them
        need = support.speculative_permission(bool(extra(ctx.state, firer.side, "rules_of_engagement")))
        (face,) = ctx.roll(
            M("permission for speculative fire"),
            1,
            step=dice_order.PERMISSION,
            unit=firer.id,
            target=need,
            rule="§8.6",
            outcome=lambda f: M("allowed") if f[0] >= need else M("not allowed"),
            check=ev.AtLeast(face=need),
        )
        if face < need:
            return  # refused permission does not spend his action
    targets = [ctx.unit(t) for t in args["targets"]]
    # §8.6 "performed like normal fire": after his move it is the rest of his action (§5.0).
    same_action = hits.moved_to_fire(ctx.state, [firer])
    if targets:
        shoot(ctx, firer, targets, situation(ctx, args, speculative=True))
    else:
        _fire_at_nobody(ctx, firer, args)
    if not same_action:
        hits.next_action(ctx, [firer])
    hits.badge(ctx, ctx.unit(firer.id), "fired")


def _fire_at_nobody(ctx: Context, firer: Unit, args: dict[str, Any]) -> None:
    """§8.6 at a position where nobody is: rolled and logged like any speculative shot
    (the firer's side learns no more than from a shot whose saves it cannot see)."""
    weapon = hits.unit_weapon(firer, ctx, args.get("weapon"))
    mode = args.get("mode") or fire.default_mode(weapon)
    need, dice = fire.base_shot(weapon, mode, args["range"])
    moved_cm, _rest = moved_facts(firer)
    why = "" if hits.is_vehicle(firer) else may_fire_after(weapon, moved_cm, fire_rule(firer))
    if why:
        raise Refused(why, rule="SPEC-1")
    hits.reveal(ctx, firer, M("fires"))
    hits.first_fire(ctx, firer.side)
    ctx.roll(
        M(
            "speculative fire with {weapon} at {target}, {cm} cm",
            weapon=weapon_words(weapon, mode),
            target=M("a suspect position"),
            cm=args["range"],
        ),
        dice,
        step=dice_order.TO_HIT,
        target=need,
        rule="§8.6",
        unit=firer.id,
        outcome=lambda f: hit_words(fire.hits(f, need)),
        check=ev.Each(face=need),  # §8.0: each die at the number is a hit
    )


# ------------------------------------------------------------------------ specs

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "fire",
        "Fire at visible enemies: rolls to hit, then the saves of every hit; a suppressed firer tests first.",
        _fire,
        params=(
            Param("unit", "own", "the firer"),
            Param("targets", "enemy", "target(s), a burst may be split", many=True),
            *SHOT,
            Param("with", "text", "other firers of the same fire team (group fire)", optional=True, keyword=True),
            LEADER,
        ),
        rule="§8.0–§8.1, §9.0",
        examples=(
            "fire rossi ahmed range=30 aimed",
            "fire bianchi ahmed bashir range=20 split=2,2 cover",
            "fire rossi ahmed range=30 with=conti,bianchi",
            "fire marino ahmed range=40 weapon=GL also=bashir",
            "fire ariete warsame range=30 weapon=TANKGUN also=kid",
        ),
        phases=("activation",),
        figure_check=firer_check,
        rolls=True,
        dice=(
            dice_order.SUPPRESSION,
            dice_order.TO_HIT,
            dice_order.MISSED_AREA_SHOT,
            dice_order.SAVES,
            dice_order.WOUND,
        ),
        known_elsewhere_as=("shoot",),  # the verb another game fires with
    ),
    CommandSpec(
        "speculative",
        "Speculative fire at a suspect position (§8.6): a player names the hidden figure's marker by its "
        "label (or no one: an empty position); the referee may name who is really there. Saves +2.",
        _speculative,
        params=(
            Param("unit", "unit", "the firer"),
            Param(
                "targets",
                "unit",
                "the marker's label, or the figures actually there (none: an empty position)",
                many=True,
                optional=True,
                markers=True,
            ),
            RANGE,
            MODE,
            WEAPON,
            COVER,
            SPLIT,
            LINE,
            ALSO,
            Param(
                "permission",
                "choice",
                "roll for permission when the players disagree: 5+, 6 under Rules of Engagement",
                optional=True,
                choices=("permission",),
                keyword=True,
            ),
            LEADER,
        ),
        rule="§8.6",
        examples=(
            "speculative marino K7Q range=40 weapon=GL",
            "speculative bianchi range=45",
            "speculative marino dahir range=40",
        ),
        phases=("activation",),
        rolls=True,
        dice=(
            dice_order.PERMISSION,
            dice_order.SUPPRESSION,
            dice_order.TO_HIT,
            dice_order.MISSED_AREA_SHOT,
            dice_order.SAVES,
            dice_order.WOUND,
        ),
    ),
)
