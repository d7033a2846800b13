"""Breaking News reactions and covering fire: opportunity fire, covering fire, dodges and
going to ground (§6.5, §8.2, §8.3)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from core.commands import distance
from core.language.i18n import M
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import TYPING, CommandSpec, Context, Param, Refused
from core.rulesets.breaking_news import dice_order, hits
from core.rulesets.breaking_news.commands.common import LEADER, check_group, ready_to_act
from core.rulesets.breaking_news.commands.shot import SHOT, shoot, situation
from core.rulesets.breaking_news.ledger import set_unit_var, set_var, unit_var, var
from core.rulesets.breaking_news.rules import support
from core.rulesets.breaking_news.rules.movement import may_fire_after
from core.rulesets.breaking_news.tables.combat import allowances, covering, fire_table
from core.rulesets.breaking_news.terms import FireAllowed, Kind, Status
from core.rulesets.breaking_news.words import _, listing


def record_struck(ctx: Context, units: Sequence[Unit]) -> None:
    """§8.2: opportunity fire in answer to fire is simultaneous, so the men this fire
    put down or out may still answer it.  Recorded once per fire (in sight only).
    ``units`` are those the fire found standing: a man it found already suppressed was
    not put down by it, and cannot react at all (§10.0).  The var is ``N:ids:K``: N the
    action's number all game long (what :func:`_struck_now` compares), K its number in
    this turn's activation (what the log says, as it numbers the action itself)."""
    struck = [
        u.id
        for u in units
        if not u.has(Status.HIDDEN) and (ctx.unit(u.id).out or ctx.unit(u.id).has(Status.SUPPRESSED))
    ]
    if struck:
        n, k = hits.action_number(ctx.state), hits.activation_action(ctx.state)
        set_var(ctx, "struck", f"{n}:{','.join(struck)}:{k}")


def _struck_now(ctx: Context, unit: Unit) -> bool:
    """Was ``unit`` put down or out by the enemy's latest action, a fire?"""
    action, _sep, rest = str(var(ctx.state, "struck", "")).partition(":")
    ids = rest.partition(":")[0]  # then the number within the activation, in newer saves
    return action == str(hits.action_number(ctx.state)) and unit.id in ids.split(",")


def _react_fire(ctx: Context, args: dict[str, Any]) -> None:
    firer = ctx.unit(args["unit"])
    simultaneous = _struck_now(ctx, firer)
    if simultaneous:
        if firer.side != ctx.state.reacting_side:
            raise Refused(
                _("{firer} is on the active side; reactions are the reacting player's (§5.0)").format(firer=firer.name),
                rule="ACT-2",
            )
    else:
        hits.require_reacting(ctx, firer)
    targets = [ctx.unit(t) for t in args["targets"]]
    _reaction_gate(ctx, firer, simultaneous)
    weapon = hits.unit_weapon(firer, ctx, args.get("weapon"))
    if weapon.opportunity == "never":
        raise Refused(
            _("the {weapon} cannot fire by opportunity (§8.2)").format(weapon=_(weapon.name)), rule=("OPP-1", "OPP-3")
        )
    if weapon.opportunity == "once" and firer.has(Status.RPG_FIRED):
        raise Refused(
            _("{firer} has already fired his {weapon} by opportunity this turn (§8.2)").format(
                firer=firer.name, weapon=_(weapon.name)
            ),
            rule=("OPP-1", "OPP-3"),
        )
    if hits.is_helicopter(firer) and firer.has(Status.FIRED):
        # §8.4: the gunship "can fire once per turn", by opportunity as well (ART-6).
        raise Refused(
            _("{firer} has fired this turn: a helicopter gunship fires once a turn (§8.4)").format(firer=firer.name),
            rule=("ART-1", "ART-2"),
        )
    limit = fire_table().opportunity.men_within_cm
    if args["range"] > limit and not weapon.sniper and any(not hits.is_vehicle(t) for t in targets):
        raise Refused(
            _("opportunity fire at men reaches {limit} cm (not for snipers or at vehicles) (§8.2)").format(limit=limit),
            rule=("OPP-1", "OPP-3"),
        )
    _answers_the_latest_action(ctx, targets)
    sit = situation(ctx, args, reaction=True)
    hits.reveal(ctx, firer, M("fires"))
    mark_reacted(ctx, ctx.unit(firer.id))
    if simultaneous:
        ctx.emit(
            ev.Noted(text=M("{unit} answers the fire that hit him: the shots are simultaneous (§8.2)", unit=firer.name))
        )
    crew = _crew(ctx, firer, args.get("crew"), sit.lone)
    if not _covering_test(ctx, ctx.unit(firer.id), args.get("area"), bool(args.get("bunker")), crew):
        return
    shoot(ctx, ctx.unit(firer.id), targets, sit)
    if weapon.opportunity == "once":
        hits.badge(ctx, ctx.unit(firer.id), "rpg-fired")
    if hits.is_helicopter(firer):
        hits.badge(ctx, ctx.unit(firer.id), "fired")


def _reaction_gate(ctx: Context, unit: Unit, simultaneous: bool = False) -> None:
    """§10.0: a suppressed figure cannot react (both drafts, ruling BN-C-SUPPRESSED-REACT),
    unless the fire he answers is what suppressed him (§8.2, simultaneous);
    §8.2: one reaction per enemy action."""
    if unit.has(Status.SUPPRESSED) and not unit.has(Status.RETREATING) and not simultaneous:
        # A man retreating after failed morale reacts as normal (§12.0).
        raise Refused(
            _("{unit} is suppressed and cannot react (§10.0)").format(unit=unit.name), rule=("SUP-2", "AMB-49")
        )
    action = hits.action_number(ctx.state)
    if action and reacted_to(ctx.state, unit) == action:
        raise Refused(
            _("{unit} has already reacted to this enemy action (§8.2)").format(unit=unit.name), rule=("OPP-1", "OPP-4")
        )


def _answers_the_latest_action(ctx: Context, targets: Sequence[Unit]) -> None:
    """§8.2: opportunity fire answers "any enemy model or unit that moves or fires": the
    men of the enemy's latest action this turn (a group's any member, and the men aboard a
    vehicle that moved or fired), none other."""
    actors = hits.action_actors(ctx.state)
    if actors is None:  # a save from before the actors were recorded: as it was then
        return
    if not actors:
        raise Refused(
            _("nothing to answer yet: opportunity fire answers an enemy who moves or fires (§8.2)"),
            rule=("OPP-2", "OPP-6"),
        )
    for t in targets:
        # §8.8: a man aboard moves with his vehicle, and is answered with it.
        if t.id not in actors and unit_var(ctx.state, t.id, "aboard", "") not in actors:
            said = _(
                "{target} did not move or fire in the enemy's latest action: "
                "opportunity fire answers those who did (§8.2)"
            )
            raise Refused(said.format(target=t.name), rule=("OPP-2", "OPP-6"))


def mark_reacted(ctx: Context, unit: Unit) -> None:
    """§8.2: one reaction per enemy action: the action he answered, ``N:K``, N counted all game
    long (what his next reaction is checked against), K within this turn's activation (what the
    log says, as it numbers the action: "action 1 of this activation")."""
    action = hits.action_number(ctx.state)
    if action:
        set_unit_var(ctx, unit, "reacted", f"{action}:{hits.activation_action(ctx.state)}")


def reacted_to(state: GameState, unit: Unit) -> int:
    """The number, all game long, of the enemy action ``unit`` last reacted to (0: none); an
    older save's holds it bare."""
    return int(str(unit_var(state, unit.id, "reacted", 0)).partition(":")[0] or 0)


def covering_areas(ctx: Context) -> dict[str, int]:
    """The areas under covering fire this turn, with their uncapped totals (§8.3)."""
    text = str(var(ctx.state, "covering", ""))
    out: dict[str, int] = {}
    for part in text.split(";"):
        if "=" in part:
            name, _sep, value = part.partition("=")
            out[name] = int(value)
    return out


def _crew(ctx: Context, firer: Unit, words: str | None, lone: bool) -> list[Unit]:
    """The men who serve the firer's weapon with him (§8.3's "each miniature involved"):
    figures of his fire team, in play, not himself."""
    crew = hits.resolve_units(ctx, words, side=firer.side)
    if crew and lone:
        raise Refused(_("a weapon with one crew (lone) has no crew to name"), rule=TYPING)
    if crew:
        check_group([firer, *crew])
    for u in crew:
        hits.require_in_play(u)
    return crew


def _covering_test(ctx: Context, unit: Unit, area: str | None, bunker: bool, crew: Sequence[Unit] = ()) -> bool:
    """§8.3: a reacting figure in an area under covering fire rolls 2d6 (3d6 from a
    bunker); at or under the area's value it takes a hit first.  True if it may go on.
    The hit is saved by every man involved: he and the crew of his weapon, each once
    (the book's example of the MG in the bunker); a bunker is protection, +1 to the
    save (§9.0), and a man who saves there drops out of sight (§10.0)
    (ruling BN-C-COVERING-HIT)."""
    if not area:
        return True
    areas = covering_areas(ctx)
    if area not in areas:
        raise Refused(
            _("no covering fire on {area!r} this turn (areas: {areas})").format(
                area=area, areas=", ".join(areas) or _("none")
            ),
            rule=("OPP-7", "COV-5"),
        )
    value = min(covering().cap, areas[area])
    n = support.covering_dice(bunker)
    faces = ctx.roll(
        M("covering-fire test in {area}", area=area),
        n,
        step=dice_order.COVERING_TEST,
        target=value,
        total=True,
        under=True,  # §8.3: the covering fire hits at or under the area's value
        rule="§8.3",
        unit=unit.id,
        outcome=lambda f: M("hit before reacting") if support.covering_hit(f, value) else M("reacts"),
        check=ev.Sum(total=value, under=True),
    )
    if not support.covering_hit(faces, value):
        return True
    enemy = ctx.state.active_side
    with ctx.at_step(dice_order.COVERING_TEST):  # "and if hit its save": the test's own step
        survived = hits.take_hits(ctx, unit, 1, by_side=enemy, protected=bunker)
        for man in crew:
            hits.take_hits(ctx, ctx.unit(man.id), 1, by_side=enemy, protected=bunker)
    if unit.kind == Kind.VEHICLE:
        # §9.2: a vehicle immune to the hit, or that saves it, suffers "no effect"; §10.0's
        # suppression is a soldier's: it reacts as it meant to (ruling BN-C-COVERING-HIT).
        return ctx.unit(unit.id).in_play
    if survived:
        ctx.emit(ev.Noted(text=M("{unit} is pinned by the covering fire: his reaction is lost (§8.3)", unit=unit.name)))
    return False


def _covering(ctx: Context, args: dict[str, Any]) -> None:
    group = [ctx.unit(u) for u in args["units"]]
    words = str(args["range"]).replace("/", ",").split(",")
    ranges = tuple(distance(w.strip(), "range", 0, hits.MAX_CM) for w in words if w.strip())
    if len(ranges) not in (1, len(group)):
        raise Refused(_("give one range, or one per figure ({group})").format(group=len(group)), rule=TYPING)
    area = args["area"]
    firing: list[tuple[Unit, int | Decimal | Fraction]] = []
    for u in group:
        hits.require_active(ctx.state, u, "covering")
        # §5.0 d): covering fire "(you can also move up to 5cm)": after a move of 5 cm or
        # less, named covering or cautious, the covering fire makes it action d).
        moved_to_cover = hits.action_badge(u) in hits.MOVES_TO_COVER
        if hits.has_acted(u) and not moved_to_cover or u.has(Status.FIRED):
            raise Refused(_("{name} has already acted this turn").format(name=u.name), rule=("COV-1", "T-03"))
        # §6.1: an MMG or HMG that moved in its covering action cannot fire, covering fire included.
        why = may_fire_after(hits.unit_weapon(u, ctx, None), u.moved_cm, FireAllowed.PENALTY)
        if why and not hits.is_vehicle(u):
            raise Refused(why, rule=("MOV-3", "T-05"))
    for i, u in enumerate(group):
        if ready_to_act(ctx, u, args.get("leader")):
            firing.append((ctx.unit(u.id), ranges[0] if len(ranges) == 1 else ranges[i]))
    if not firing:
        return
    # §5.0 d): a covering move and its covering fire are one action, answered once (§8.2).
    same_action = hits.moved_to_fire(ctx.state, [u for u, _r in firing], hits.MOVES_TO_COVER)
    parts = []
    for u, r in firing:
        w = hits.unit_weapon(u, ctx, None)
        parts.append((w.id, r))
    # §8.3: one troop bonus per group; a group of mixed classes earns what each of its men
    # does, the smallest, whatever order they are named in (rulings BN-C-COVERING).
    teams: dict[str, int] = {}
    for u, _r in firing:
        t = hits.troop(u)
        bonus = t.covering if t else 0
        key = u.team or u.id
        teams[key] = min(teams.get(key, bonus), bonus)
    value, mods = support.covering_value(parts, teams.values())
    areas = covering_areas(ctx)
    raw = sum(m.value for m in mods)
    areas[area] = areas.get(area, 0) + raw
    for u, _r in firing:
        hits.reveal(ctx, u, M("fires"))
        hits.badge(ctx, ctx.unit(u.id), "covering", "fired")
    hits.first_fire(ctx, firing[0][0].side)
    capped = min(covering().cap, areas[area])
    set_var(ctx, "covering", ";".join(f"{k}={v}" for k, v in areas.items()))
    parts_text = listing([M("{label} {value}", label=m.label, value=m.value) for m in mods])
    ctx.emit(
        ev.Noted(
            text=M(
                "covering fire on {area}: {parts} → worth {value} (max {cap}, §8.3)",
                area=area,
                parts=parts_text,
                value=capped,
                cap=covering().cap,
            )
        )
    )
    if not same_action:
        hits.next_action(ctx, [u for u, _ in firing])


def _dodge(ctx: Context, args: dict[str, Any]) -> None:
    """§6.5: move up to 5 cm into cover; the next shot at him this turn is +1 (not a sniper's)."""
    unit = ctx.unit(args["unit"])
    hits.require_reacting(ctx, unit)
    hits.require_on_foot(ctx, unit)
    _reaction_gate(ctx, unit)
    cm = args["cm"]
    limit = allowances().dodge_cm
    if not 0 <= cm <= limit:
        raise Refused(
            _("a dodge moves {limit} cm at most, to cover within {limit} cm (§6.5)").format(limit=limit),
            rule=("MOV-6", "AMB-16"),
        )
    mark_reacted(ctx, unit)
    if not _covering_test(ctx, unit, args.get("area"), bool(args.get("bunker"))):
        return
    if cm:
        ctx.emit(ev.Moved(unit=unit.id, cm=cm, how=M("dodges to cover")))
    hits.badge(ctx, unit, "dodging")


def _ground(ctx: Context, args: dict[str, Any]) -> None:
    """§6.5: no cover within 5 cm: he throws himself down and is suppressed (§10.0)."""
    unit = ctx.unit(args["unit"])
    hits.require_reacting(ctx, unit)
    hits.require_on_foot(ctx, unit)
    _reaction_gate(ctx, unit)
    mark_reacted(ctx, unit)
    hits.badge(ctx, unit, "suppressed")
    ctx.emit(
        ev.Noted(
            text=M("{unit} goes to ground: suppressed, in cover against fire past 25 cm (§6.5, §10.0)", unit=unit.name)
        )
    )


# ------------------------------------------------------------------------ specs

#: A reacting or dodging figure inside a covering-fire area tests it first (§8.3).
_COVERING_AREA = Param(
    "area", "text", "the covering-fire area he is in (tests first, §8.3)", optional=True, keyword=True, prose=True
)

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "react-fire",
        "Opportunity fire at an enemy who moves or fires (§8.2): within 50 cm of men, once per enemy action.",
        _react_fire,
        params=(
            Param("unit", "own", "the reacting firer"),
            Param("targets", "enemy", "target(s)", many=True),
            *SHOT,
            _COVERING_AREA,
            Param(
                "bunker",
                "choice",
                "he fires from a bunker (3d6 covering test; +1 to the saves)",
                optional=True,
                choices=("bunker",),
                keyword=True,
            ),
            Param(
                "crew",
                "text",
                "the men serving his weapon with him: each saves a covering-fire hit (§8.3)",
                optional=True,
                keyword=True,
            ),
        ),
        rule="§8.2, §8.3",
        examples=(
            "react-fire egal rossi range=25 burst",
            "react-fire egal rossi range=25 area=market bunker crew=jama",
        ),
        phases=("activation",),
        aliases=("opfire",),
        rolls=True,
        dice=(
            dice_order.COVERING_TEST,
            dice_order.TO_HIT,
            dice_order.MISSED_AREA_SHOT,
            dice_order.SAVES,
            dice_order.WOUND,
        ),
    ),
    CommandSpec(
        "covering",
        "Covering fire on an area up to 15x15 cm within 50 cm (§8.3): its value tests enemy reactions there.",
        _covering,
        params=(
            Param("units", "own", "the covering figures", many=True),
            Param("area", "text", "a name for the area", keyword=True, prose=True),
            Param("range", "text", "distance in cm (one, or one per figure: 32,30.5)", keyword=True),
            LEADER,
        ),
        rule="§8.3",
        examples=("covering bianchi conti area=bunker range=32",),
        phases=("activation",),
        rolls=True,
        dice=(dice_order.SUPPRESSION,),
    ),
    CommandSpec(
        "react-dodge",
        "Dodge: move up to 5 cm into cover when fired at; the next shot at him this turn gets +1 (§6.5).",
        _dodge,
        params=(
            Param("unit", "own", "the dodging figure"),
            Param("cm", "distance", "how far he moves (0-5 cm)", optional=True, default=0, hi=5),
            _COVERING_AREA,
            Param("bunker", "choice", "in a bunker: 3d6, save +1", optional=True, choices=("bunker",), keyword=True),
        ),
        rule="§6.5",
        examples=("react-dodge ahmed 4",),
        phases=("activation",),
        aliases=("dodge",),
        rolls=True,
        dice=(dice_order.COVERING_TEST,),
    ),
    CommandSpec(
        "react-ground",
        "No cover within 5 cm: go to ground and be suppressed (§6.5).",
        _ground,
        params=(Param("unit", "own", "the figure"),),
        rule="§6.5, §10.0",
        examples=("react-ground ahmed",),
        phases=("activation",),
    ),
)
