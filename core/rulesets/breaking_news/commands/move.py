"""Breaking News movement, hiding and sighting commands (§6.0–§6.5, §7.0), and the
other whole-action commands: vehicles (§6.3), magazines (§8.0.3), rallying (§10.0),
medics (§9.3)."""

from __future__ import annotations

from typing import Any

from core.language.i18n import N_, M, Msg
from core.log import events as ev
from core.log.state import Unit
from core.ruleset import TYPING, CommandSpec, Context, Param, Refused
from core.rulesets.breaking_news import dice_order, hits, options
from core.rulesets.breaking_news.campaign import civilians
from core.rulesets.breaking_news.commands.common import LEADER, check_group, ready_to_act, suppression_test
from core.rulesets.breaking_news.ledger import set_unit_var, unit_var
from core.rulesets.breaking_news.rules import movement, spotting
from core.rulesets.breaking_news.tables.combat import allowances
from core.rulesets.breaking_news.terms import Action, FireAllowed, Kind, Status
from core.rulesets.breaking_news.words import DOMAIN, _, whose

MOVE_ACTIONS = tuple(Action)


def _move(ctx: Context, args: dict[str, Any]) -> None:
    lead = ctx.unit(args["unit"])
    if lead.kind == Kind.CIVILIAN:
        _civilian_move(ctx, lead, args)
        return
    if ctx.role in ctx.state.sides and lead.side != ctx.role:
        raise Refused(_("{lead} is not one of your figures").format(lead=lead.name), rule="ENG-1")
    group = [lead, *[ctx.unit(u) for u in args["also"]]]
    if len(group) > 1:
        check_group(group)
    if hits.is_vehicle(lead):
        if len(group) > 1:
            raise Refused(_("vehicles move one at a time"), rule=("MOV-2", "ACT-3"))
        _vehicle_move(ctx, lead, args)
        return
    cm = args["cm"]
    action = args.get("action")
    if action == Action.HIDDEN:
        for u in group:
            _hidden_move(ctx, u, cm, args.get("leader"))
        return
    if cm is None:
        raise Refused(_("how far? e.g. move rossi 12 run"), rule=TYPING)
    if cm < 0:
        raise Refused(_("a distance cannot be negative"), rule=TYPING)
    action = action or movement.default_action(cm)
    allowed = movement.action_allowance(action, args.get("obstacle") or 0, bool(args.get("helped")))
    for u in group:
        hits.require_active(ctx.state, u, "move")
        hits.require_on_foot(ctx, u)
        if u.has(Status.PANICKED) and len(group) == 1:
            _panic_move(ctx, u, cm, just_failed=False)
            return
        if hits.has_acted(u):
            raise Refused(_("{name} has already acted this turn").format(name=u.name), rule=("MOV-1", "T-03"))
    for u in group:
        if not ready_to_act(ctx, u, args.get("leader"), moving=True):
            _panic_move(ctx, ctx.unit(u.id), cm, just_failed=True)
            continue
        if ctx.unit(u.id).has(Status.FALLING_BACK) and cm < allowances().retreat_cm:
            raise Refused(
                _("{name} must fall back at least {retreat_cm} cm toward his table edge (§12.0)").format(
                    name=u.name, retreat_cm=allowances().retreat_cm
                ),
                rule="MOR-6",
            )
        if cm > allowed.max_cm:
            raise Refused(
                _("{name} may move {max_cm} cm with that action (§6.0, §6.2)").format(
                    name=u.name, max_cm=allowed.max_cm
                ),
                # an obstacle crossed lowers the action's allowance: its own rule decides (§6.2)
                rule=("MOV-1", "T-06", "MOV-4") if args.get("obstacle") else "MOV-1",
            )
        hits.reveal(ctx, ctx.unit(u.id), M("moves in the open"))
        if cm:
            ctx.emit(ev.Moved(unit=u.id, cm=cm, how=_how(action, args)))
        hits.badge(ctx, ctx.unit(u.id), _badge(action, cm, allowed.fire, bool(args.get("obstacle"))))
    hits.next_action(ctx, group)


def _civilian_move(ctx: Context, civilian: Unit, args: dict[str, Any]) -> None:
    """Extras: Civilians: once the turn's roll is made, its winner moves each civilian
    up to 15 cm, whoever is active; the other player may not (rulings BN-CIV-MOVE)."""
    who = civilians.controller(ctx.state)
    if not who:
        raise Refused(_("roll for the civilians first: civilians (Extras: Civilians)"), rule="EXT-11")
    if ctx.role in ctx.state.sides and ctx.role != who:
        raise Refused(
            _("{who} move the civilians this turn, not you (Extras: Civilians)").format(who=who), rule="EXT-11"
        )
    if args["also"]:
        raise Refused(_("civilians move one at a time: move civ1 12, then move civ2 8"), rule="EXT-11")
    if args.get("action") or args.get("obstacle") or args.get("leader"):
        raise Refused(_("civilians just move: give the distance only, e.g. move civ1 12"), rule="EXT-11")
    hits.require_in_play(civilian)
    if civilian.has(Status.ACTED):
        raise Refused(_("{civilian} has moved this turn").format(civilian=civilian.name), rule="EXT-11")
    cm = args["cm"]
    if cm is None or not 0 < cm <= civilians.MOVE_CM:
        raise Refused(
            _("a civilian moves 1 to {move_cm} cm a turn (Extras: Civilians)").format(move_cm=civilians.MOVE_CM),
            rule="EXT-11",
        )
    ctx.emit(ev.Moved(unit=civilian.id, cm=cm, how=M("moved by {side}", side=who)))
    hits.badge(ctx, ctx.unit(civilian.id), "acted")


_HOW = {"run": N_("run"), "shoot": N_("move and shoot"), "cautious": N_("cautious"), "covering": N_("covering fire")}


def _how(action: str, args: dict[str, Any]) -> Msg:
    if args.get("obstacle"):
        return M("{action}, over a level {level} obstacle", action=M(_HOW[action]), level=args["obstacle"])
    return M(_HOW[action])


def _badge(action: str, cm: int, fire: FireAllowed, obstacle: bool) -> str:
    """The turn badge that says what fire the action still allows."""
    if action == Action.RUN:
        return "ran"
    if action == Action.COVERING:
        return "covering"
    if fire == FireAllowed.PENALTY and obstacle:
        return "climbed"
    return "moved" if cm > 5 else "crept"


def _panic_move(ctx: Context, unit: Unit, cm: int, *, just_failed: bool) -> None:
    """§10.0: a figure in panic may only move up to 10 cm, to reach cover, "if not yet in
    cover": one who dropped out of sight in cover (hidden) stays where he is.  Right after a
    failed test a move he may not make simply does not happen (the roll stands)."""
    limit = allowances().panic_cm
    if not just_failed and unit.has(Status.ACTED):
        raise Refused(_("{unit} has already crawled this turn (§10.0)").format(unit=unit.name), rule="SUP-4")
    if cm and unit.has(Status.HIDDEN):
        if just_failed:
            return
        raise Refused(
            _("{unit} is in panic and already in cover: he does not move this turn (§10.0)").format(unit=unit.name),
            rule="SUP-4",
        )
    if cm > limit:
        if just_failed:
            return
        raise Refused(
            _("{unit} is in panic: he may only move up to {limit} cm to cover (§10.0)").format(
                unit=unit.name, limit=limit
            ),
            rule="SUP-4",
        )
    if cm:
        ctx.emit(ev.Moved(unit=unit.id, cm=cm, how=M("crawls to cover")))
        hits.badge(ctx, ctx.unit(unit.id), "acted")


def _hidden_move(ctx: Context, unit: Unit, cm: int | None, leader: str | None) -> None:
    """§7.0: a hidden figure that stays hidden moves 5 − 1d6 cm and does not fire."""
    hits.require_active(ctx.state, unit)
    hits.require_on_foot(ctx, unit)
    if not unit.has(Status.HIDDEN):
        raise Refused(
            _("{unit} is not hidden; hide him first: hide {unit2}").format(unit=unit.name, unit2=unit.id), rule="MOV-7"
        )
    if hits.has_acted(unit):
        raise Refused(_("{unit} has already acted this turn").format(unit=unit.name), rule="MOV-7")
    if not ready_to_act(ctx, unit, leader):
        return
    (face,) = ctx.roll(
        M("hidden move"),
        1,
        step=dice_order.HIDDEN_MOVE,
        rule="§7.0",
        unit=unit.id,
        outcome=lambda f: M("up to {cm} cm unseen", cm=movement.hidden_allowance(f[0])),
        check=ev.Read(),
    )
    allowed = movement.hidden_allowance(face)
    go = allowed if cm is None else min(cm, allowed)
    if go:
        ctx.emit(ev.Moved(unit=unit.id, cm=go, how=M("hidden")))
    hits.badge(ctx, ctx.unit(unit.id), "crept")


def _vehicle_move(ctx: Context, vehicle: Unit, args: dict[str, Any]) -> None:
    """§6.0: tracked 30 − 2d6 cm, wheeled 45 − 2d6 cm; the roll is the most it may go."""
    if "evacuation" in vehicle.roles:
        raise Refused(
            _("{vehicle} waits on its landing point for stragglers (Extras: Helicopter evacuation)").format(
                vehicle=vehicle.name
            ),
            rule="EXT-3",
        )
    hits.require_active(ctx.state, vehicle)
    if vehicle.moved_cm or vehicle.has(Status.FIRED):
        raise Refused(_("{vehicle} has already acted this turn").format(vehicle=vehicle.name), rule=("MOV-2", "T-03"))
    if hits.driverless(ctx.state, vehicle):
        raise Refused(
            _("{vehicle} has lost its driver: it runs on for a whole move and stops, nobody drives it (§8.8)").format(
                vehicle=vehicle.name
            ),
            rule="VF-2",
        )
    if hits.is_helicopter(vehicle):
        # §8.4: a gunship moves over the table without limit.
        if not args["cm"]:
            raise Refused(_("how far does the helicopter fly? e.g. move apache 60"), rule=TYPING)
        ctx.emit(ev.Moved(unit=vehicle.id, cm=args["cm"], how=M("flies")))
        hits.next_action(ctx, [vehicle])
        return
    tracked = "tracked" in vehicle.roles
    a = allowances()
    faces = ctx.roll(
        M("tracked move") if tracked else M("wheeled move"),
        a.vehicle_dice,
        step=dice_order.VEHICLE_MOVE,
        total=True,
        rule="§6.0",
        unit=vehicle.id,
        outcome=lambda f: M("up to {cm} cm", cm=movement.vehicle_allowance(tracked, f)),
        check=ev.Read(),
    )
    allowed = movement.vehicle_allowance(tracked, faces)
    cm = allowed if args["cm"] is None else min(args["cm"], allowed)
    if cm:
        ctx.emit(ev.Moved(unit=vehicle.id, cm=cm, how=M("drives")))
    hits.next_action(ctx, [vehicle])


def _hide(ctx: Context, args: dict[str, Any]) -> None:
    """§7.0: when activated a figure may be declared hidden (in cover, or crawling)."""
    unit = ctx.unit(args["unit"])
    hits.require_active(ctx.state, unit)
    if unit.has(Status.HIDDEN):
        raise Refused(_("{unit} is already hidden").format(unit=unit.name), rule="SPOT-1")
    if hits.has_acted(unit):
        raise Refused(
            _("{unit} has acted this turn: a figure is declared hidden when he is activated (§7.0)").format(
                unit=unit.name
            ),
            rule="SPOT-1",
        )
    if hits.is_vehicle(unit):
        raise Refused(_("vehicles do not hide"), rule="SPOT-1")
    ctx.emit(ev.Noted(text=M("{unit} goes out of sight: a hidden marker is left where he was (§7.0)", unit=unit.name)))
    ctx.emit(ev.StatusChanged(unit=unit.id, add=("hidden",)))


def _may_look(ctx: Context, spotter: Unit) -> None:
    """What keeps a figure from trying to sight this turn (§7.0, §8.0.3, §10.0)."""
    if spotter.has(Status.LOOKED):
        raise Refused(
            _("{spotter} has already tried to sight this turn (§7.0)").format(spotter=spotter.name),
            rule=("MOV-7", "SPOT-1"),
        )
    if spotter.has(Status.RELOADING) and not hits.italian(ctx):
        # §8.0.3 (English): changing a magazine takes "a full turn (the figure cannot do anything else)".
        raise Refused(
            _("{spotter} is changing his magazine: it takes his whole turn, sighting too (§8.0.3)").format(
                spotter=spotter.name
            ),
            rule="FIRE-12",
        )
    if (
        hits.italian(ctx)
        and spotter.side == ctx.state.reacting_side
        and spotter.has(Status.SUPPRESSED)
        # §12.0 [IT]: "Figure in fase di disingaggio ... reagiscono normalmente se non sono attive".
        and not spotter.has(Status.RETREATING)
    ):
        raise Refused(
            _("{spotter} is suppressed and cannot react, not even to sight (Italian draft §10.0)").format(
                spotter=spotter.name
            ),
            rule=("SUP-1", "SUP-2"),
        )


def _spot(ctx: Context, args: dict[str, Any]) -> None:
    """§7.0: one sighting attempt per figure per turn, as an action or a reaction."""
    spotter = ctx.unit(args["unit"])
    target = ctx.unit(args["target"])
    hits.require_in_play(spotter)
    hits.require_in_play(target)
    if target.side == spotter.side:
        raise Refused(_("sighting is of enemies"), rule="SPOT-3")
    if not target.has(Status.HIDDEN):
        raise Refused(
            _("{target} is not hidden: no sighting needed (§7.0, AMB-19)").format(target=target.name), rule="AMB-19"
        )
    if spotter.side in target.spotted_by:
        raise Refused(
            _("{target} is already sighted by {side}").format(
                target=target.name, side=ctx.state.side_name(spotter.side)
            ),
            rule=("SPOT-3", "SPOT-5"),
        )
    _may_look(ctx, spotter)
    t = hits.troop(spotter)
    facts = spotting.SpotFacts(
        jungle_or_night=bool(args.get("night")),
        # §7.0: a scenario played at night is night for every sighting by itself.
        night_without_visors=bool(ctx.state.vars.get("night")) and "night-visors" not in spotter.roles,
        open=bool(args.get("open")),
        target_class=target.cls,
        target_sniper=hits.is_sniper(target),
        spotter_sniper=hits.is_sniper(spotter),
        spotter_class_mod=t.spotting if t else 0,
        spotter_class=spotter.cls,
    )
    mods = spotting.spot_mods(facts)
    need = spotting.spot_need(args["range"], mods)
    spotting.require_possible(need, mods)
    hits.badge(ctx, spotter, "looked")
    # The roll names neither figure: the spotter's side learns a marker's identity
    # only by sighting it; the hidden side learns who looked only if he is in view.
    vis = (spotter.side, target.side) if not spotter.has(Status.HIDDEN) else (spotter.side,)
    if need > 1:
        (face,) = ctx.roll(
            _sighting_words(target, args["range"]),
            1,
            step=dice_order.SIGHTING,
            target=need,
            mods=mods,
            rule="§7.0",
            unit=spotter.id,  # in view of the hidden side only when it may see him (vis)
            vis=vis,
            outcome=lambda f: M("sighted") if f[0] >= need else M("not sighted"),
            check=ev.AtLeast(face=need, base=spotting.spot_need(args["range"], ())),  # §7.0
        )
    else:
        face = None
    if spotting.spot_succeeds(face, need):
        ctx.emit(ev.Spotted(unit=target.id, by_side=spotter.side))
        ctx.emit(
            ev.Noted(
                text=M("{spotter} sights {target} (§7.0)", spotter=spotter.name, target=target.name),
                vis=(spotter.side, target.side),
            )
        )
        return
    key = f"spot-bonus.{target.id}"
    have = int(ctx.state.secrets[key].value) if key in ctx.state.secrets else 0
    ctx.emit(ev.SecretSet(key=key, owner=target.side, value=str(have + 1), vis=(target.side,)))


def _sighting_words(target: Unit, range_cm: int) -> Msg:
    """A hidden figure's marker as the sides see it: its label, never his name."""
    if target.marker:
        return M("sighting of a hidden figure (marker {marker}) at {cm} cm", marker=target.marker, cm=range_cm)
    return M("sighting of a hidden figure at {cm} cm", cm=range_cm)


def _shift(ctx: Context, args: dict[str, Any]) -> None:
    """§7.0: for each failed sighting, the hidden figure's owner may move it up to 5 cm."""
    unit = ctx.unit(args["unit"])
    hits.require_in_play(unit)
    key = f"spot-bonus.{unit.id}"
    have = int(ctx.state.secrets[key].value) if key in ctx.state.secrets else 0
    if not have:
        raise Refused(_("{unit} has no sighting bonus move left (§7.0)").format(unit=unit.name), rule="SPOT-6")
    limit = allowances().spot_bonus_cm
    if not 0 < args["cm"] <= limit:
        raise Refused(_("a sighting bonus move is up to {limit} cm (§7.0)").format(limit=limit), rule="SPOT-6")
    ctx.emit(ev.SecretSet(key=key, owner=unit.side, value=str(have - 1), vis=(unit.side,)))
    ctx.emit(ev.Moved(unit=unit.id, cm=args["cm"], how=M("bonus move after a failed sighting")))


def _embark(ctx: Context, args: dict[str, Any]) -> None:
    """§6.3: a whole action; the figure starts adjacent to the vehicle."""
    unit, vehicle = ctx.unit(args["unit"]), ctx.unit(args["vehicle"])
    if not hits.is_vehicle(vehicle):
        raise Refused(_("{vehicle} is not a vehicle").format(vehicle=vehicle.name), rule=TYPING)
    hits.require_in_play(vehicle)
    if hits.has_acted(unit):
        raise Refused(_("{unit} has already acted this turn").format(unit=unit.name), rule="MOV-5")
    if unit.has(Status.IN_VEHICLE):
        raise Refused(_("{unit} is already aboard a vehicle").format(unit=unit.name), rule="MOV-5")
    if not ready_to_act(ctx, unit, args.get("leader")):
        return
    hits.reveal(ctx, unit, M("gets into a vehicle"))
    ctx.emit(ev.StatusChanged(unit=unit.id, add=("in-vehicle", "acted")))
    set_unit_var(ctx, ctx.unit(unit.id), "aboard", vehicle.id)
    hits.next_action(ctx, [unit])


def _disembark(ctx: Context, args: dict[str, Any]) -> None:
    """§6.3: a whole action; placed adjacent to the vehicle, prone if he likes."""
    unit = ctx.unit(args["unit"])
    if not unit.has(Status.IN_VEHICLE):
        raise Refused(_("{unit} is not aboard a vehicle").format(unit=unit.name), rule="MOV-5")
    if hits.has_acted(unit):
        raise Refused(_("{unit} has already acted this turn").format(unit=unit.name), rule=("MOV-5", "T-03"))
    if not ready_to_act(ctx, unit, args.get("leader")):
        return
    ctx.emit(ev.StatusChanged(unit=unit.id, add=("acted",), remove=("in-vehicle",)))
    set_unit_var(ctx, ctx.unit(unit.id), "aboard", "")
    hits.next_action(ctx, [unit])


def _reload(ctx: Context, args: dict[str, Any]) -> None:
    """§8.0.3 (optional): changing a magazine takes his whole turn (one action in the Italian draft)."""
    unit = ctx.unit(args["unit"])
    if not options.option(ctx.state, "ammo"):
        raise Refused(_("the ammunition rule is off (option ammo on)"), rule="FIRE-12")
    if not unit.has(Status.EMPTY_MAG):
        raise Refused(_("{unit} magazine is not empty").format(unit=DOMAIN.render(whose(unit.name))), rule="FIRE-12")
    if hits.has_acted(unit):
        raise Refused(
            _("{unit} has already acted this turn: changing magazine takes the whole turn (§8.0.3)").format(
                unit=unit.name
            ),
            rule="FIRE-12",
        )
    if unit.has(Status.LOOKED) and not hits.italian(ctx):
        # English §8.0.3: "the figure cannot do anything else", a sighting included; the
        # Italian draft's "one entire action" leaves him the sighting, which is no action (§7.0).
        raise Refused(
            _("{unit} has tried to sight this turn: changing magazine takes the whole turn (§8.0.3)").format(
                unit=unit.name
            ),
            rule="FIRE-12",
        )
    if not ready_to_act(ctx, unit, args.get("leader")):
        return
    ctx.emit(ev.StatusChanged(unit=unit.id, add=("reloading",), remove=("empty-mag",)))


def _rally(ctx: Context, args: dict[str, Any]) -> None:
    """§10.0: a suppressed figure tests before acting; passing costs nothing."""
    unit = ctx.unit(args["unit"])
    hits.require_active(ctx.state, unit)
    if not unit.has(Status.SUPPRESSED):
        raise Refused(_("{unit} is not suppressed").format(unit=unit.name), rule="SUP-4")
    if unit.has(Status.PANICKED):
        raise Refused(_("{unit} already failed his test this turn (§10.0)").format(unit=unit.name), rule="SUP-4")
    suppression_test(ctx, unit, args.get("leader"))


def _medic(ctx: Context, args: dict[str, Any]) -> None:
    """§9.3 (optional): a medic in contact with a wounded man stabilises him."""
    medic, patient = ctx.unit(args["unit"]), ctx.unit(args["patient"])
    if not options.option(ctx.state, "wounded"):
        raise Refused(_("the wounded rule is off (option wounded on)"), rule="WND-1")
    hits.require_in_play(medic)
    if "medic" not in medic.roles:
        raise Refused(_("{medic} is not a medic").format(medic=medic.name), rule="WND-2")
    what, by = hits.parse_cause(patient.out)
    if what != hits.WOUNDED:
        raise Refused(_("{patient} is not a wounded man awaiting a medic").format(patient=patient.name), rule="WND-2")
    # §10.0: a suppressed medic tests before he goes to the wounded man, and in panic he
    # only crawls to cover (ruling BN-C-WOUNDED).
    if medic.has(Status.SUPPRESSED) and not ready_to_act(ctx, medic, None):
        return
    ctx.emit(ev.UnitOut(unit=patient.id, cause=hits.cause(hits.STABILISED, by)))
    set_unit_var(ctx, ctx.unit(patient.id), "wound", 0)


def _evacuate(ctx: Context, args: dict[str, Any]) -> None:
    """§9.3: a wounded man carried off the table is out of danger (AMB-47)."""
    patient = ctx.unit(args["patient"])
    what, by = hits.parse_cause(patient.out)
    if what != hits.WOUNDED:
        raise Refused(_("{patient} is not a wounded man").format(patient=patient.name), rule=("WND-2", "AMB-47"))
    ctx.emit(ev.UnitOut(unit=patient.id, cause=hits.cause(hits.STABILISED, by)))
    set_unit_var(ctx, ctx.unit(patient.id), "wound", 0)
    ctx.emit(ev.Noted(text=M("{unit} is carried off the table (§9.3)", unit=patient.name)))


def _carry(ctx: Context, args: dict[str, Any]) -> None:
    """§9.3: a comrade carries a wounded man 10 − 1d6 cm (his action)."""
    carrier, patient = ctx.unit(args["unit"]), ctx.unit(args["patient"])
    if hits.parse_cause(patient.out)[0] not in (hits.WOUNDED, hits.STABILISED):
        raise Refused(_("{patient} is not a wounded man").format(patient=patient.name), rule="WND-3")
    if hits.has_acted(carrier):
        raise Refused(_("{carrier} has already acted this turn").format(carrier=carrier.name), rule="WND-3")
    hits.require_on_foot(ctx, carrier)
    # §9.3 with §5.0: the wounded man moves once a turn, however many comrades stand by
    # (rulings BN-C-CARRY-ONCE).
    if unit_var(ctx.state, patient.id, "carried", 0) == ctx.state.turn:
        raise Refused(
            _("{patient} has been carried this turn: a wounded man moves once a turn (§9.3)").format(
                patient=patient.name
            ),
            rule="WND-3",
        )
    if not ready_to_act(ctx, carrier, args.get("leader")):
        return
    (face,) = ctx.roll(
        M("carrying {unit}", unit=patient.name),
        1,
        step=dice_order.CARRYING,
        rule="§9.3",
        unit=carrier.id,
        outcome=lambda f: M("{cm} cm", cm=movement.carry_allowance(f[0])),
        check=ev.Read(),
    )
    cm = movement.carry_allowance(face)
    if cm:
        ctx.emit(ev.Moved(unit=carrier.id, cm=cm, how=M("carrying {unit}", unit=patient.name)))
        ctx.emit(ev.Moved(unit=patient.id, cm=cm, how=M("carried by {unit}", unit=carrier.name)))
    set_unit_var(ctx, patient, "carried", ctx.state.turn)
    hits.badge(ctx, ctx.unit(carrier.id), "acted")
    hits.next_action(ctx, [carrier])


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "move",
        "Move a figure (or a fire team, naming the others after the distance): run 25, move and shoot 15, "
        "cautious 5, covering 5, or a hidden crawl of 5-1d6; vehicles roll 30/45-2d6.",
        _move,
        params=(
            # any figure in sight: the civilians belong to no player's own figures (Extras: Civilians)
            Param("unit", "unit", "the figure (or vehicle, or a civilian you move this turn)"),
            Param("cm", "distance", "distance in cm (or 4in)", optional=True, hi=hits.MAX_CM),
            Param("also", "own", "the rest of the fire team moving with him (§6.4)", many=True, optional=True),
            Param(
                "action",
                "choice",
                "run, shoot (move and shoot), cautious, covering, hidden",
                optional=True,
                choices=MOVE_ACTIONS,
                keyword=True,
            ),
            Param(
                "obstacle",
                "int",
                "the level (1-3) of an obstacle crossed (§6.2)",
                optional=True,
                keyword=True,
                lo=1,
                hi=3,
            ),
            Param(
                "helped",
                "choice",
                "a level-3 obstacle with help or equipment",
                optional=True,
                choices=("helped",),
                keyword=True,
            ),
            LEADER,
        ),
        rule="§5.0, §6.0–§6.4, §7.0",
        examples=(
            "move rossi 12 run",
            "move rossi 10 shoot conti bianchi",
            "move conti 5 run obstacle=2",
            "move dahir hidden",
            "move puma 30",
        ),
        phases=("activation",),
        rolls=True,
        dice=(
            dice_order.SUPPRESSION,
            dice_order.HIDDEN_MOVE,
            dice_order.VEHICLE_MOVE,
        ),
    ),
    CommandSpec(
        "hide",
        "Declare a figure hidden when he activates (§7.0); the enemy loses sight of him.",
        _hide,
        params=(Param("unit", "own", "the figure"),),
        rule="§7.0",
        examples=("hide conti",),
        phases=("activation",),
    ),
    CommandSpec(
        "react-spot",
        "Try to sight a hidden enemy (once per figure per turn, also as a reaction) (§7.0). "
        "Name the hidden figure by his marker's label (the roster lists the markers).",
        _spot,
        params=(
            Param("unit", "own", "the spotter"),
            Param("target", "unit", "the hidden figure: his marker's label", markers=True),
            Param("range", "distance", "distance in cm (or 10in)", keyword=True, hi=hits.MAX_CM),
            Param("open", "choice", "the target is in the open", optional=True, choices=("open",), keyword=True),
            Param(
                "night",
                "choice",
                "jungle (a night scenario counts by itself)",
                optional=True,
                choices=("night",),
                keyword=True,
            ),
        ),
        rule="§7.0",
        examples=("react-spot conti K7Q range=20 open", "react-spot conti dahir range=20.5"),
        phases=("activation",),
        aliases=("spot",),
        rolls=True,
        dice=(dice_order.SIGHTING,),
    ),
    CommandSpec(
        "react-shift",
        "Move a hidden figure up to 5 cm after an enemy failed to sight it (§7.0).",
        _shift,
        params=(Param("unit", "own", "the hidden figure"), Param("cm", "distance", "distance (up to 5 cm)", hi=5)),
        rule="§7.0",
        examples=("react-shift dahir 4",),
        phases=("activation",),
    ),
    CommandSpec(
        "embark",
        "Get into a vehicle (a whole action, from beside it) (§6.3).",
        _embark,
        params=(Param("unit", "own"), Param("vehicle", "own", "the vehicle"), LEADER),
        rule="§6.3",
        examples=("embark neri puma",),
        phases=("activation",),
        rolls=True,
        dice=(dice_order.SUPPRESSION,),
    ),
    CommandSpec(
        "disembark",
        "Get out of a vehicle (a whole action; placed beside it) (§6.3).",
        _disembark,
        params=(Param("unit", "own"), LEADER),
        rule="§6.3",
        examples=("disembark conti",),
        phases=("activation",),
        rolls=True,
        dice=(dice_order.SUPPRESSION,),
    ),
    CommandSpec(
        "reload",
        "Change an empty magazine: his whole turn (optional ammunition rule, §8.0.3).",
        _reload,
        params=(Param("unit", "own"), LEADER),
        rule="§8.0.3",
        examples=("reload conti",),
        phases=("activation",),
        rolls=True,
        dice=(dice_order.SUPPRESSION,),
    ),
    CommandSpec(
        "rally",
        "A suppressed figure tests to act: 1d6 at or under his suppression value plus a leader within 5 cm; 6 fails.",
        _rally,
        params=(Param("unit", "own"), LEADER),
        rule="§10.0",
        examples=("rally conti leader=rossi",),
        phases=("activation",),
        rolls=True,
        dice=(dice_order.RALLY,),
    ),
    CommandSpec(
        "medic",
        "A medic reaches a wounded man and stabilises him (optional wounded rule, §9.3).",
        _medic,
        params=(Param("unit", "own", "the medic"), Param("patient", "own", "the wounded man")),
        rule="§9.3",
        examples=("medic ferri conti",),
        phases=("activation",),
        rolls=True,
        dice=(dice_order.SUPPRESSION,),
    ),
    CommandSpec(
        "carry",
        "Carry a wounded comrade 10-1d6 cm (his action) (§9.3).",
        _carry,
        params=(Param("unit", "own", "the carrier"), Param("patient", "own", "the wounded man"), LEADER),
        rule="§9.3",
        examples=("carry greco conti",),
        phases=("activation",),
        rolls=True,
        dice=(
            dice_order.SUPPRESSION,
            dice_order.CARRYING,
        ),
    ),
    CommandSpec(
        "evacuate",
        "A wounded man is carried off the table: he is out of danger (§9.3).",
        _evacuate,
        params=(Param("patient", "own", "the wounded man"),),
        rule="§9.3",
        examples=("evacuate conti",),
        phases=("activation",),
    ),
)
