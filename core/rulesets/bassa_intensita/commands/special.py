"""Special rules (A.16): mines and booby traps, their detection, flash-bangs and tear
gas.  Snipers and scouts are in the fire and observation commands; rubber bullets
are a weapon (``rubber``, shot as a carbine); stabilised armament is in movement."""

from __future__ import annotations

from typing import Any

from core.language.i18n import M
from core.log import events as ev
from core.log.state import Unit
from core.log.views import unit_audience
from core.ruleset import CommandSpec, Context, Param, Refused, flag
from core.rulesets.bassa_intensita import casualties, dice_order, rules
from core.rulesets.bassa_intensita.commands.common import (
    carrier_of,
    flying,
    he_terrain,
    in_own_tier,
    isolated,
    passes_isolation,
    quality,
    reachable,
    ready,
    roll_under,
)
from core.rulesets.bassa_intensita.phases import TIER_PHASES
from core.rulesets.bassa_intensita.rules import damage
from core.rulesets.bassa_intensita.tables import indirect, special
from core.rulesets.bassa_intensita.terms import Kind, Status
from core.rulesets.bassa_intensita.words import _, render, whose, word


def _mine(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R220..R223 (ruling BI-MINES, digest BI-AMB-59): what a mine or a trap does to
    the man or vehicle that sets it off (or, for an AT mine, a man within 4 cm of it)."""
    unit = ctx.unit(args["unit"])
    if not unit.in_play:
        raise Refused(_("{unit} is out of action").format(unit=unit.name), rule=("BI-R220", "BI-R110"))
    carrier = carrier_of(ctx, unit)
    if flying(ctx, unit) is not None:
        # BI-R221/R222: mines strike what crosses the minefield, not what flies over it
        raise Refused(
            _("{unit} is in the air: it crosses no minefield (BI-R221)").format(unit=unit.name), rule="BI-R221"
        )
    if carrier is not None:
        raise Refused(
            _("{unit} is aboard {carrier}: the mine goes off under the vehicle (BI-R221)").format(
                unit=unit.name, carrier=carrier.name
            ),
            rule="BI-R221",
        )
    kind = args["kind"]
    m = special().mines
    armour = damage.armour_column(unit)
    cause = {"ap": M("an anti-personnel mine"), "at": M("an anti-tank mine"), "trap": M("a booby trap")}[kind]
    if kind == "trap":
        if unit.kind != Kind.MAN:
            raise Refused(_("a booby trap catches one man at a door or window (BI-R223)"), rule="BI-R223")
        with ctx.at_step(dice_order.MINE_AP):
            casualties.he_burst(ctx, unit, cause, zone=m.trap_zone, terrain=m.trap_terrain, big=False)
        return
    if unit.kind != Kind.MAN and armour:
        if kind == "ap":
            ctx.emit(
                ev.Noted(
                    text=M("an anti-personnel mine does nothing to {owner} armour (BI-R221)", owner=whose(unit.name)),
                    vis=unit_audience(unit),
                )
            )
            return
        with ctx.at_step(dice_order.MINE_AT):
            casualties.vehicle_hit(ctx, unit, None, cause, pen_row=m.at_penetration)
        return
    if unit.kind != Kind.MAN and kind == "at":
        (face,) = ctx.roll(
            M("{cause} going off under it", cause=cause),
            1,
            step=dice_order.MINE_GOES_OFF,
            rule="BI-R222",
            unit=unit.id,
            outcome=lambda f: M("destroyed") if f[0] <= m.at_destroys else M("it survives"),
            check=ev.AtLeast(face=m.at_destroys + 1),  # BI-R222: it survives
        )
        if face <= m.at_destroys:
            casualties.destroyed(ctx, unit, M(casualties.DESTROYED_BY, cause=cause))
        return
    zone = args["zone"]
    if kind == "at" and zone == "short":
        zone = "long"  # an AT mine has no short distance for men (BI-R222: 0 cm)
    with ctx.at_step(dice_order.MINE_AT if kind == "at" else dice_order.MINE_AP):
        casualties.he_burst(ctx, unit, cause, zone=zone, terrain=he_terrain(args["cover"]), big=False)


def _detect(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R224: a man still or moving cautiously looks for a minefield (within 10 cm) or a
    trap (within 1 cm); engineers find them more easily.  Not an action: no isolation
    test, and it costs him nothing."""
    unit = ctx.unit(args["unit"])
    if unit.kind != Kind.MAN or not unit.in_play:
        raise Refused(_("a man in play looks for mines"), rule=("BI-R224", "BI-R110"))
    carrier = carrier_of(ctx, unit)
    if (unit.has(Status.MOVED) and not unit.has(Status.CAUTIOUS)) or (
        carrier is not None and (carrier.has(Status.MOVED) or flying(ctx, carrier) is not None)
    ):
        # BI-R224: infantry still or moving cautiously; aboard a vehicle that moved, or a
        # helicopter in the air, he is neither
        raise Refused(
            _("{unit} moved too fast this turn to look for mines (BI-R224)").format(unit=unit.name), rule="BI-R224"
        )
    row = next(d for d in special().detection if d.what == args["what"])
    engineer = "engineer" in unit.roles
    difficulty = row.engineer_difficulty if engineer else row.difficulty
    reach = row.engineer_cm if engineer else row.cm
    if unit.has(Status.WOUNDED):
        # "si usa la stessa procedura delle Azioni", whose difficulty a wound worsens by one
        # level (BI-R110; ruling BI-WOUND-EFFECTS)
        difficulty = rules.shift_difficulty(difficulty, 1)
    chance = rules.action_chance(quality(unit), difficulty)
    if chance <= 0:
        raise Refused(
            _("{unit} is wounded: finding a {what} is one level harder, beyond him (BI-R110, BI-R224)").format(
                unit=unit.name, what=render(word(row.what))
            ),
            rule=("BI-R110", "BI-R224"),
        )
    search = M(
        "search for a {what} within {cm} cm ({difficulty})", what=word(row.what), cm=reach, difficulty=word(difficulty)
    )
    roll_under(ctx, search, unit, chance, (), "BI-R224", M("found it"), M("nothing found"), step=dice_order.SEARCH)


def _thrown(ctx: Context, args: dict[str, Any], what: str) -> tuple[Unit, list[Unit]]:
    thrower = ctx.unit(args["thrower"])
    in_own_tier(ctx, thrower)  # thrown as a hand grenade: fire, in his tier (ruling BI-GAS)
    ready(thrower, "fire", ctx.state.phase)
    men = [ctx.unit(t) for t in args["targets"]]
    for man in men:
        reachable(ctx, man)
    if not passes_isolation(ctx, thrower, isolated(ctx, thrower, args)):
        return thrower, []
    ctx.emit(ev.StatusChanged(unit=thrower.id, add=("fired", "shot-single")))
    return thrower, [m for m in men if m.kind == Kind.MAN and m.in_play]


def _flashbang(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R231: every man within 5 cm of a flash-bang is shocked; no roll."""
    _thrower, men = _thrown(ctx, args, "flash-bang")
    for man in men:
        casualties.shock(ctx, man)


def _gas(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R232 (ruling BI-GAS): every man within 10 cm moves and hits at half, for as
    long as smoke lasts (6 + 1d6 turns)."""
    thrower, men = _thrown(ctx, args, "tear gas")
    if not men:
        return
    t = indirect().smoke
    (face,) = ctx.roll(
        M("gas duration"),
        1,
        step=dice_order.GAS,
        rule="BI-R232",
        unit=thrower.id,
        outcome=lambda f: M("{n} turns", n=t.base + f[0]),
        check=ev.Read(),
    )
    last = ctx.state.turn + t.base + face - 1
    for man in men:
        ctx.emit(ev.StatusChanged(unit=man.id, add=("gassed",)))
    n = 1 + sum(1 for k in ctx.state.vars if k.startswith("gas."))
    ctx.emit(ev.VarSet(key=f"gas.{n}", value=f"{','.join(m.id for m in men)}|{last}"))


def clear_gas(ctx: Context) -> None:
    """At the end of a turn the gas whose time is over lifts from the men it held."""
    for key, value in list(ctx.state.vars.items()):
        if key.startswith("gas.") and value:
            ids, _sep, last = str(value).rpartition("|")
            if int(last) <= ctx.state.turn:
                ctx.emit(ev.VarSet(key=key, value=""))
                for uid in ids.split(","):
                    if ctx.state.units[uid].has(Status.GASSED):
                        ctx.emit(ev.StatusChanged(unit=uid, remove=("gassed",)))


_THROWN = (
    Param("thrower", "own"),
    Param("targets", "unit", "every man within reach", many=True),
    flag("isolated", "beyond command distance"),
)

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "mine",
        "A man or vehicle sets off a mine (ap, at) or a booby trap (trap): AP and traps hit men and soft "
        "vehicles as HE, AT mines penetrate armour as an AT rocket and destroy soft vehicles on 1-3. "
        "Dice: 1d10 to be hit (or 1d10 penetration, or 1d6 for a soft vehicle), then damage.",
        _mine,
        params=(
            Param("unit", "unit"),
            Param("kind", "choice", "ap, at or trap", choices=("ap", "at", "trap")),
            Param(
                "zone",
                "choice",
                "short (2 cm AP) or long (4 cm)",
                optional=True,
                default="short",
                choices=("short", "long"),
            ),
            Param("cover", "choice", "his cover", optional=True, choices=("light", "heavy", "trench"), keyword=True),
        ),
        rule="BI-R221",
        examples=("mine karim ap", "mine truck at", "mine omar trap"),
        who="referee",
        rolls=True,
        dice=(
            dice_order.MINE_GOES_OFF,
            # the men aboard a soft vehicle it destroys are each hit (ruling BI-OCCUPANTS)
            dice_order.DAMAGE,
            dice_order.MINE_AP,
            dice_order.MINE_AT,
        ),
    ),
    CommandSpec(
        "detect",
        "A man still or moving cautiously looks for a minefield (within 10 cm) or a booby trap (within 1 cm); "
        "engineers do better. Not an action. Dice: 1d10 under the chance.",
        _detect,
        params=(Param("unit", "unit"), Param("what", "choice", choices=("minefield", "trap"))),
        rule="BI-R224",
        examples=("detect marra minefield",),
        who="referee",
        rolls=True,
        dice=(dice_order.SEARCH,),
    ),
    CommandSpec(
        "flashbang",
        "Throw a flash-bang: every man named (within 5 cm of it) is shocked; the thrower's fire. "
        "Dice: none, or 1d10 isolation test if isolated.",
        _flashbang,
        params=_THROWN,
        rule="BI-R231",
        examples=("flashbang marra omar karim",),
        phases=TIER_PHASES,
        rolls=True,
        dice=(dice_order.ISOLATION,),
    ),
    CommandSpec(
        "gas",
        "Throw tear gas: every man named (within 10 cm) moves and hits at half while it lasts (6 + 1d6 turns); "
        "the thrower's fire. Dice: 1d10 isolation test if isolated, then 1d6.",
        _gas,
        params=_THROWN,
        rule="BI-R232",
        examples=("gas marra omar karim",),
        phases=TIER_PHASES,
        rolls=True,
        dice=(
            dice_order.ISOLATION,
            dice_order.GAS,
        ),
    ),
)
