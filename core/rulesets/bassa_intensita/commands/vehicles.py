"""Men and vehicles (A.4, A.6): mounting, dismounting, and an armed transport turned
combat vehicle.  A man aboard carries the badge ``aboard-<vehicle id>`` (and
``in-vehicle``), so he is seen and hidden with himself.

Men get on and off a helicopter only while it stands ``landed`` (BI-R256); trained
men (the ``fast-rope`` role) may also rope down from one ``hovering`` (BI-R257)."""

from __future__ import annotations

from typing import Any

from core.language.i18n import M, Msg
from core.log import events as ev
from core.ruleset import CommandSpec, Context, Param, Refused, flag
from core.rulesets.bassa_intensita import casualties, dice_order
from core.rulesets.bassa_intensita.commands.common import isolated, passes_isolation, ready
from core.rulesets.bassa_intensita.phases import MOVE_PHASES
from core.rulesets.bassa_intensita.rules import damage
from core.rulesets.bassa_intensita.terms import Kind, Status
from core.rulesets.bassa_intensita.words import _, render, whose


def _vehicle(ctx: Context, unit_id: str):
    v = ctx.unit(unit_id)
    if v.kind == Kind.MAN or damage.vehicle_type(v) is None:
        raise Refused(_("{unit} is not a vehicle").format(unit=v.name), rule=("BI-R026", "BI-R027"))
    return v


def _airborne(vehicle) -> bool:
    """A helicopter that has not landed (BI-R256)."""
    return "helicopter" in vehicle.roles and not vehicle.has(Status.LANDED)


def _how(vehicle) -> Msg:
    """BI-R042: an armoured vehicle takes the man's whole move; a truck or car half of it."""
    return M("a whole turn (armoured)") if damage.armour_column(vehicle) else M("half his move")


def _mount(ctx: Context, args: dict[str, Any]) -> None:
    man = ctx.unit(args["man"])
    vehicle = _vehicle(ctx, args["vehicle"])
    if man.kind != Kind.MAN or man.side != vehicle.side:
        raise Refused(_("a man mounts a vehicle of his own side"), rule=("BI-R026", "BI-R027"))
    inside = next((b.removeprefix("aboard-") for b in man.status if b.startswith("aboard-")), "")
    if inside:
        # BI-R042: getting out of a vehicle is a move of its own, before he gets into another
        raise Refused(
            _("{man} is aboard {vehicle}: he gets out first (dismount {id})").format(
                man=man.name, vehicle=ctx.unit(inside).name, id=man.id
            ),
            rule=("BI-R026", "BI-R256"),
        )
    if not vehicle.in_play:
        raise Refused(_("{vehicle} is out of action").format(vehicle=vehicle.name), rule=("BI-R026", "BI-R110"))
    if man.side != ctx.state.active_side:
        raise Refused(
            _("it is {owner} movement (A.5.1)").format(owner=render(whose(ctx.state.side_name(ctx.state.active_side)))),
            rule=("ENG-2", "BI-R030"),
        )
    if vehicle.has(Status.COMBAT_VEHICLE):
        raise Refused(
            _("{vehicle} was made a combat vehicle: it takes no troops back (BI-R027)").format(vehicle=vehicle.name),
            rule="BI-R027",
        )
    if _airborne(vehicle):
        raise Refused(
            _("{vehicle} is in the air: men board a helicopter only once it has landed (BI-R256)").format(
                vehicle=vehicle.name
            ),
            rule="BI-R256",
        )
    capacity = vehicle.stats.get("capacity")
    if capacity is not None and len(casualties.aboard(ctx.state, vehicle)) >= capacity:
        raise Refused(
            _("{vehicle} carries {capacity} men and is full").format(vehicle=vehicle.name, capacity=capacity),
            rule=("BI-R026", "BI-R027"),
        )
    ready(man, "mount")
    if not passes_isolation(ctx, man, isolated(ctx, man, args)):
        return
    ctx.emit(ev.Moved(unit=man.id, cm=0, how=M("mounts {vehicle}: {how}", vehicle=vehicle.name, how=_how(vehicle))))
    ctx.emit(
        ev.StatusChanged(unit=man.id, add=("moved", f"aboard-{vehicle.id}", "in-vehicle"), remove=("prone", "emplaced"))
    )


def _dismount(ctx: Context, args: dict[str, Any]) -> None:
    man = ctx.unit(args["man"])
    badge = next((b for b in man.status if b.startswith("aboard-")), "")
    if not badge:
        raise Refused(_("{man} is not aboard a vehicle").format(man=man.name), rule=("BI-R026", "BI-R256"))
    if man.side != ctx.state.active_side:
        raise Refused(
            _("it is {owner} movement (A.5.1)").format(owner=render(whose(ctx.state.side_name(ctx.state.active_side)))),
            rule=("ENG-2", "BI-R030"),
        )
    vehicle = ctx.unit(badge.removeprefix("aboard-"))
    how = M("dismounts from {vehicle}: {how}", vehicle=vehicle.name, how=_how(vehicle))
    if _airborne(vehicle):
        if not vehicle.has(Status.HOVERING):
            raise Refused(
                _(
                    "{vehicle} is in the air: men get off once it has landed (BI-R256), "
                    "or rope down while it hovers (hover {id}, BI-R257)"
                ).format(vehicle=vehicle.name, id=vehicle.id),
                rule=("BI-R256", "BI-R257"),
            )
        if "fast-rope" not in man.roles:
            raise Refused(
                _("{man} is not trained to fast-rope (BI-R257): {vehicle} must land").format(
                    man=man.name, vehicle=vehicle.name
                ),
                rule="BI-R257",
            )
        how = M("fast-ropes down from {vehicle}: {how}", vehicle=vehicle.name, how=_how(vehicle))
    ready(man, "mount")
    if not passes_isolation(ctx, man, isolated(ctx, man, args)):
        return
    ctx.emit(ev.Moved(unit=man.id, cm=0, how=how))
    # BI-R042: getting out of a truck or car is -50% of his move, and he may walk on with the rest
    walks_on = not damage.armour_column(vehicle) and not _airborne(vehicle) and "helicopter" not in vehicle.roles
    ctx.emit(
        ev.StatusChanged(
            unit=man.id, add=("moved", *((Status.DISMOUNTED,) if walks_on else ())), remove=(badge, "in-vehicle")
        )
    )


def _combat(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R027: once its troops are off, an armed transport may become a combat vehicle:
    free of command distance, always isolated for morale, and it takes nobody back."""
    vehicle = _vehicle(ctx, args["vehicle"])
    vtype = damage.vehicle_type(vehicle)
    if vtype.combat or vehicle.has(Status.COMBAT_VEHICLE):
        raise Refused(_("{vehicle} is already a combat vehicle").format(vehicle=vehicle.name), rule="BI-R027")
    if not vehicle.weapons:
        raise Refused(
            _("{vehicle} is unarmed: only an armed transport may fight (BI-R027)").format(vehicle=vehicle.name),
            rule="BI-R027",
        )
    if casualties.aboard(ctx.state, vehicle):
        raise Refused(
            _("{vehicle} still carries troops: they dismount first (BI-R027)").format(vehicle=vehicle.name),
            rule="BI-R027",
        )
    ctx.emit(ev.StatusChanged(unit=vehicle.id, add=("combat-vehicle",)))


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "mount",
        "A man gets into a vehicle of his side: his move for the turn (BI-R042). No dice, "
        "but 1d10 isolation test first if isolated.",
        _mount,
        params=(Param("man", "own"), Param("vehicle", "own"), flag("isolated", "beyond command distance")),
        rule="BI-R042",
        examples=("mount russo truck",),
        phases=MOVE_PHASES,
        rolls=True,
        dice=(dice_order.ISOLATION,),
    ),
    CommandSpec(
        "dismount",
        "A man gets out of the vehicle he is aboard: his move for the turn, but out of a truck or "
        "car he may walk on with move at -50% (BI-R042); from a "
        "helicopter only once it has landed, or by fast-rope while it hovers (BI-R257). No dice, "
        "but 1d10 isolation test first if isolated.",
        _dismount,
        params=(Param("man", "own"), flag("isolated", "beyond command distance")),
        rule="BI-R042",
        examples=("dismount marra",),
        phases=MOVE_PHASES,
        rolls=True,
        dice=(dice_order.ISOLATION,),
    ),
    CommandSpec(
        "combat",
        "Make an armed transport, its troops off, a combat vehicle: always isolated for morale, "
        "no troops back aboard (BI-R027). No dice.",
        _combat,
        params=(Param("vehicle", "own"),),
        rule="BI-R027",
        examples=("combat puma",),
    ),
)
