"""Covering fire at a terrain feature (BI-R051..R054; ruling BI-COVER-FEATURE).

Declared in the ``cover`` phase by an automatic weapon (``screen``), it is the firer's
fire for the turn and is kept, for the referee, in ``secret.screen.<firer>`` as
"feature|weapon|mode|turn".  It is rolled only if a hidden enemy in that feature tries
to fire that turn: the referee resolves it first (``screened``), at half, against each
such man, and resolving it does not reveal him.
"""

from __future__ import annotations

from typing import Any

from core.language.i18n import M
from core.log import events as ev
from core.ruleset import MAX_DISTANCE_CM, TYPING, CommandSpec, Context, Param, Refused, flag
from core.rulesets.bassa_intensita import dice_order, rules
from core.rulesets.bassa_intensita.commands.common import (
    ISOLATED,
    LEAD,
    fired_at,
    isolated,
    light_of,
    passes_isolation,
    ready,
)
from core.rulesets.bassa_intensita.commands.fire import (
    INTENSIFIER,
    as_emplaced,
    intact,
    intensifier_of,
    loaded,
    reload_due,
    shots,
    weapon_of,
)
from core.rulesets.bassa_intensita.phases import MOVE_PHASES, TIER_PHASES
from core.rulesets.bassa_intensita.terms import Status
from core.rulesets.bassa_intensita.words import _, render, whose, word

#: The longest name of a terrain feature kept in the log.
MAX_FEATURE = 60


def _key(uid: str) -> str:
    return f"secret.screen.{uid}"


def _screen(ctx: Context, args: dict[str, Any]) -> None:
    shooter = ctx.unit(args["shooter"])
    feature = args["feature"].strip()
    if not feature or "|" in feature or len(feature) > MAX_FEATURE:
        raise Refused(
            _("name the feature in 1 to {MAX_FEATURE} characters, without '|'").format(MAX_FEATURE=MAX_FEATURE),
            rule=TYPING,
        )
    ready(shooter, "fire", ctx.state.phase)
    carried = loaded(shooter, intact(shooter, weapon_of(shooter, args["weapon"])))
    # A.9.3 notes (4) and (6): an MG not emplaced cannot fire, an LMG fires as an assault rifle
    weapon = as_emplaced(shooter, carried)
    if not weapon.automatic or weapon.he:
        raise Refused(
            _("only automatic weapons fire at a terrain feature; the {weapon} is not one (BI-R053)").format(
                weapon=render(word(weapon.name))
            ),
            rule="BI-R053",
        )
    mode = args["mode"]
    if mode == "area" and not weapon.area:
        raise Refused(
            _("the {weapon} cannot fire at an area (BI-R072)").format(weapon=render(word(weapon.name))), rule="BI-R072"
        )
    # BI-R024: an isolated soldier rolls before he fires, and covering fire is his fire
    if not passes_isolation(ctx, shooter, isolated(ctx, shooter, args)):
        return
    ctx.emit(ev.StatusChanged(unit=shooter.id, add=("fired", "shot-auto")))
    reload_due(ctx, shooter, weapon, mode == "area")
    ctx.emit(ev.VarSet(key=_key(shooter.id), value=f"{feature}|{carried.id}|{mode}|{ctx.state.turn}"))
    ctx.emit(ev.Noted(text=M("{unit} puts covering fire on {feature} (BI-R053)", unit=shooter.name, feature=feature)))


def _screened(ctx: Context, args: dict[str, Any]) -> None:
    shooter = ctx.unit(args["shooter"])
    target = ctx.unit(args["target"])
    raw = str(ctx.state.vars.get(_key(shooter.id), ""))
    if not raw:
        raise Refused(
            _("{shooter} has no covering fire on a terrain feature").format(shooter=shooter.name),
            rule=("BI-R053", "BI-AMB-17"),
        )
    feature, weapon_id, mode, turn = raw.split("|")
    if int(turn) != ctx.state.turn:
        raise Refused(
            _("{owner} covering fire on {feature} was in turn {turn} (BI-R054)").format(
                owner=render(whose(shooter.name)), feature=feature, turn=turn
            ),
            rule="BI-R054",
        )
    if target.side == shooter.side or not target.in_play or not target.has(Status.HIDDEN):
        raise Refused(
            _("covering fire at {feature} hits only hidden enemies there who try to fire (BI-R053)").format(
                feature=feature
            ),
            rule="BI-R053",
        )
    if target.has(f"screened-by-{shooter.id}"):
        raise Refused(
            _("{target} has already taken {owner} covering fire this turn").format(
                target=target.name, owner=render(whose(shooter.name))
            ),
            rule=("BI-R051", "BI-AMB-16"),
        )
    weapon = as_emplaced(shooter, weapon_of(shooter, weapon_id))  # as when it was declared
    area = mode == "area"
    dist = args["range"]
    band = rules.range_band(weapon, dist, area)
    if band is None:
        raise Refused(
            _("{dist} cm is out of range of the {weapon} (BI-R075)").format(
                dist=dist, weapon=render(word(weapon.name))
            ),
            rule="BI-R075",
        )
    # A.9.4: at night his image intensifier, if he has one, carries his fire further (+1)
    night = rules.night_modifiers(light_of(ctx.state), intensifier_of(shooter, args), dist)
    ctx.emit(ev.StatusChanged(unit=target.id, add=(f"screened-by-{shooter.id}",)))
    shots(
        ctx,
        shooter,
        weapon,
        [target],
        [args["cover"] or ""],
        band=band,
        area=area,
        kind="covering",
        night=night,
        dist=dist,
        args=args,
    )
    # automatic fire (BI-R053): -25% to his next movement (BI-R042), under fire for his morale (BI-R181)
    fired_at(ctx, ctx.unit(target.id))


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "screen",
        "Covering fire at a terrain feature where enemies may hide (automatic weapons only): the firer's fire "
        "for the turn, rolled only if a hidden enemy there tries to fire. Dice now: only an isolated firer's "
        "isolation test, 1d10.",
        _screen,
        params=(
            Param("shooter", "own"),
            Param("feature", "text", "the wood, house... (one word or quoted)", keyword=True, prose=True),
            Param("weapon", "text", "which of his weapons", optional=True, keyword=True),
            Param("mode", "choice", optional=True, default="single", choices=("single", "area"), keyword=True),
            ISOLATED,
            LEAD,
        ),
        rule="BI-R053",
        examples=('screen sanna feature="the orchard" area',),
        phases=("cover",),
        rolls=True,
        dice=(dice_order.ISOLATION,),
    ),
    CommandSpec(
        "screened",
        "A hidden enemy in a screened feature tries to fire: the covering fire strikes him first, at half, "
        "without giving him away. Dice, shot by shot: 1d10 to hit, then before the next shot a hit's damage, "
        "as for fire.",
        _screened,
        params=(
            Param("shooter", "unit"),
            Param("target", "unit"),
            Param("range", "distance", "distance in cm", keyword=True, hi=MAX_DISTANCE_CM),
            flag("prone", "he lies down"),
            Param("cover", "choice", "his cover", optional=True, choices=("light", "heavy", "trench"), keyword=True),
            flag("flank", ""),
            INTENSIFIER,
        ),
        rule="BI-R053",
        examples=("screened sanna said range=40 light",),
        phases=(*MOVE_PHASES, *TIER_PHASES),
        who="referee",
        rolls=True,
        dice=(dice_order.SCREENED_SHOTS,),
    ),
)
