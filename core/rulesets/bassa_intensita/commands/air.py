"""Anti-aircraft fire and helicopters (A.15.2, A.15.3), as commands and rules.

A helicopter is a vehicle piece with the ``helicopter`` role (its type in vehicles.toml);
``landed`` marks one on the ground, ``hovering`` one holding still in the air this turn
so that trained men can fast-rope down (BI-R257), ``rotor-damaged`` one that may have to come down.
An aircraft is not a piece: it is the air strike an observer called (support.py);
``aircraft.<side>`` says what became of that side's aircraft ("down", or
"damaged:<turn>" when it broke off and may come back).
"""

from __future__ import annotations

from math import ceil
from typing import Any

from core.language.i18n import M
from core.log import events as ev
from core.log.state import GameState, Unit
from core.log.views import unit_audience
from core.ruleset import MAX_DISTANCE_CM, CommandSpec, Context, Param, Refused, flag
from core.rulesets.bassa_intensita import casualties, dice_order, rules, squads
from core.rulesets.bassa_intensita.commands.common import (
    fires_wounded,
    in_own_tier,
    isolated,
    passes_isolation,
    ready,
    roll_under,
)
from core.rulesets.bassa_intensita.commands.fire import GASSED, STABILISED
from core.rulesets.bassa_intensita.phases import MOVE_PHASES, TIER_PHASES
from core.rulesets.bassa_intensita.tables import AAWeapon, air, band, hit_modifiers
from core.rulesets.bassa_intensita.terms import Status
from core.rulesets.bassa_intensita.words import _, listing, render, whose, word

#: The keyword AA fire is given for the enemy's aircraft, not a helicopter (BI-R260), and
#: the target its chance is read for.
AIRCRAFT = "aircraft"


def aa_weapon(unit: Unit) -> AAWeapon | None:
    """The first anti-aircraft weapon (BI-R260) the piece carries."""
    for row in air().aa:
        if any(w in unit.weapons and not unit.has(f"weapon-lost-{w}") for w in (row.weapon, *row.carried_by)):
            return row
    return None


def aa_chance(
    row: AAWeapon,
    target: str,
    tier: str,
    opportunity: bool,
    *,
    motivation: int = 0,
    wounded: bool = False,
    gassed: bool = False,
    on_the_move: bool = False,
) -> tuple[int, tuple[ev.Mod, ...]]:
    """BI-R260/R261 (ruling BI-AA-HALF): the table's chance plus the Quality modifier, the
    referee's motivation (BI-R011) and a stabilised vehicle's -1 for firing after its move
    (``on_the_move``, BI-R240), then halved in the movement phase and for each of the
    shooter's own halvings, a wound (BI-R110) or tear gas (BI-R232), rounded up once
    (BI-R082, BI-R083); 0 if NO or nothing is left."""
    base = row.aircraft if target == AIRCRAFT else row.helicopter
    if base is None:
        return 0, ()
    q = air().quality.get(tier, 0)
    mods = [
        ev.Mod(M("{weapon} vs {target}", weapon=word(row.name), target=word(target)), base, "BI-R260"),
        ev.Mod(M("{tier} shooter", tier=word(tier)), q, "BI-R261"),
    ]
    if motivation:
        mods.append(ev.Mod(M("motivation"), motivation, "BI-R011"))
    moving = STABILISED.add if on_the_move else 0
    if moving:
        mods.append(ev.Mod(word(STABILISED.label), moving, "BI-R240"))
    chance = max(0, base + q + motivation + moving)
    table = hit_modifiers()
    halves = [
        word(label)
        for label, on in (
            (table["opportunity"].label, opportunity),
            (table["wounded"].label, wounded),
            (GASSED.label, gassed),
        )
        if on
    ]
    if halves and chance:
        halved = ceil(chance / 2 ** len(halves))
        mods.append(ev.Mod(M("½ for {what}", what=listing(halves, "and")), halved - chance, "BI-R261"))
        chance = halved
    return chance, tuple(mods)


def lapsed(state, side: str, stage: str, source: str, turn: int) -> bool:
    """Whether what a contact (or a lost ranging shot) brought is past: the guns fire their
    ranging shot "nella Fase di Tiro del turno successivo" (BI-R103; a lost one is fired
    again the next turn, ruling BI-RANGING-LOST) and aircraft "attaccano immediatamente
    nella fase di fuoco successiva" (BI-R250), so not in a later turn; unless the aircraft
    broke off damaged and may still come back (BI-R262: ``aircraft_ready`` keeps its turns)."""
    if stage not in ("contacted", "lost") or state.turn <= turn + 1:
        return False
    return not (source.startswith("air") and str(state.vars.get(f"aircraft.{side}", "")).startswith("damaged"))


def aircraft_over(state, side: str) -> bool:
    """BI-R250, BI-R260 (ruling BI-AA-AIRCRAFT): ``side``'s aircraft can be fired at once
    an observer of that side has contacted it, until it has made its attack; never before
    it was called, nor after it was shot down (BI-R262), nor once the fire phase it was
    due in has gone by without its attack (BI-R250).  An observer's stage is
    ``secret.support.<id>`` = stage:source:turn (``attacked`` once its attack is made)."""
    if state.vars.get(f"aircraft.{side}") == "down":
        return False
    for key, value in state.vars.items():
        unit = state.units.get(key.removeprefix("secret.support.")) if key.startswith("secret.support.") else None
        if unit is None or unit.side != side or not value:
            continue
        stage, source, turn = str(value).split(":")
        if source.startswith("air") and stage != "attacked" and not lapsed(state, side, stage, source, int(turn)):
            return True
    return False


def _aa(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R260..R263: fire at a helicopter or at the enemy's aircraft."""
    shooter = ctx.unit(args["shooter"])
    s = ctx.state
    opportunity = s.phase in MOVE_PHASES
    if opportunity and shooter.side != s.reacting_side:
        raise Refused(
            _("{shooter} cannot fire in his own side's movement (BI-R050)").format(shooter=shooter.name), rule="BI-R050"
        )
    if s.phase in TIER_PHASES:
        in_own_tier(ctx, shooter)
    ready(shooter, "fire", s.phase)
    row = aa_weapon(shooter)
    if row is None:
        raise Refused(
            _("{shooter} carries no anti-aircraft weapon (BI-R260)").format(shooter=shooter.name), rule="BI-R260"
        )
    heli = _aa_target(s, shooter, args)
    if row.max_cm is not None and (args["range"] or 0) > row.max_cm:
        raise Refused(
            _("the {weapon} reaches {max_cm} cm (BI-R260): give range=").format(
                weapon=render(word(row.name)), max_cm=row.max_cm
            ),
            rule="BI-R260",
        )
    chance, mods = aa_chance(
        row,
        AIRCRAFT if heli is None else "helicopter",
        shooter.cls,
        opportunity,
        motivation=squads.motivation(shooter),
        wounded=fires_wounded(shooter),
        gassed=shooter.has(Status.GASSED),
        on_the_move=shooter.has(Status.MOVED_STABILISED),
    )
    if chance <= 0:
        raise Refused(
            _("{shooter} cannot hit that with the {weapon} (BI-R260)").format(
                shooter=shooter.name, weapon=render(word(row.name))
            ),
            rule="BI-R260",
        )
    if not passes_isolation(ctx, shooter, isolated(ctx, shooter, args)):
        return
    # A.9.4's night rows: the machine gun and the autocannon fire automatic, a missile or a
    # rocket one round (BI-R084)
    ctx.emit(ev.StatusChanged(unit=shooter.id, add=("fired", "shot-auto" if row.automatic else "shot-single")))
    what = heli.name if heli else M("the aircraft")
    aimed = M("anti-aircraft fire at {target}", target=what)
    if not roll_under(ctx, aimed, shooter, chance, mods, "BI-R260", M("hit"), M("miss"), step=dice_order.AA_FIRE):
        return
    with ctx.at_step(dice_order.AA_HIT):  # the hit's rolls, and a man aboard's damage
        if heli is None:
            aircraft_hit(ctx, s.other_side(shooter.side))
        else:
            helicopter_hit(ctx, heli, row)


def _aa_target(s: GameState, shooter: Unit, args: dict[str, Any]) -> Unit | None:
    """The enemy helicopter AA fire is given, or None for the enemy's aircraft (said by the
    keyword, and over the table: BI-R250, BI-R260)."""
    target, at_aircraft = args["target"], args[AIRCRAFT] == AIRCRAFT
    if target is None and not at_aircraft:
        raise Refused(_("name an enemy helicopter, or say aircraft for the enemy's aircraft (BI-R260)"), rule="BI-R260")
    if target is not None and at_aircraft:
        raise Refused(_("fire at a helicopter or the aircraft, not both (BI-R260)"), rule="BI-R260")
    if at_aircraft:
        if not aircraft_over(s, s.other_side(shooter.side)):
            raise Refused(
                _("no aircraft of {enemy} is over the table to fire at (BI-R250, BI-R260)").format(
                    enemy=s.side_name(s.other_side(shooter.side))
                ),
                rule=("BI-R250", "BI-R260"),
            )
        return None
    heli = next((u for u in s.units.values() if u.id == target or u.name.lower() == target.lower()), None)
    if heli is None or "helicopter" not in heli.roles or heli.side == shooter.side or not heli.in_play:
        raise Refused(
            _("fire at an enemy helicopter in play, or at the enemy's aircraft: aircraft"),
            rule=("BI-R260", "BI-AMB-62"),
        )
    if heli.has(Status.LANDED):
        raise Refused(
            _("{heli} has landed: fire at it as at a vehicle (ruling BI-HELICOPTERS)").format(heli=heli.name),
            rule=("BI-R260", "BI-AMB-62"),
        )
    return heli


def aircraft_hit(ctx: Context, side: str) -> None:
    """BI-R262 (ruling BI-AIRCRAFT-HIT): 1d6 1-3 shot down before it attacks; 4-6 damaged:
    it breaks off, and may come back on a 6 in one of the next three fire phases."""
    t = air().aircraft
    (face,) = ctx.roll(
        M("aircraft hit"),
        1,
        step=dice_order.AA_HIT,
        side=side,
        rule="BI-R262",
        outcome=lambda f: M("shot down") if f[0] <= t.shot_down else M("damaged: it breaks off"),
        check=ev.Read(),  # BI-R262: shot down or damaged
    )
    value = "down" if face <= t.shot_down else f"damaged:{ctx.state.turn}"
    ctx.emit(ev.VarSet(key=f"aircraft.{side}", value=value))


def aircraft_ready(ctx: Context, side: str) -> bool:
    """Before an air attack: a shot-down aircraft never comes; a damaged one comes back
    on a 6 (BI-R262) in the three turns after it broke off, then it has gone home."""
    state = str(ctx.state.vars.get(f"aircraft.{side}", ""))
    if not state:
        return True
    if state == "down":
        raise Refused(
            _("{owner} aircraft was shot down (BI-R262)").format(owner=render(whose(ctx.state.side_name(side)))),
            rule="BI-R262",
        )
    t = air().aircraft
    since = int(state.split(":")[1])
    if ctx.state.turn == since:
        # BI-R262: damaged, it "does not complete its attack" and may try to return "in the
        # next fire phase": never in the turn it was hit (ruling BI-AIRCRAFT-HIT).
        raise Refused(
            _("{owner} damaged aircraft broke off: it may try to come back in the next fire phase (BI-R262)").format(
                owner=render(whose(ctx.state.side_name(side)))
            ),
            rule="BI-R262",
        )
    if ctx.state.turn - since > t.return_turns:
        raise Refused(
            _("{owner} damaged aircraft has gone back to base (BI-R262)").format(
                owner=render(whose(ctx.state.side_name(side)))
            ),
            rule="BI-R262",
        )
    (face,) = ctx.roll(
        M("damaged aircraft's return"),
        1,
        step=dice_order.AIRCRAFT_RETURN,
        target=t.return_on,
        side=side,
        rule="BI-R262",
        outcome=lambda f: M("it comes back and attacks") if f[0] >= t.return_on else M("not this turn"),
        check=ev.AtLeast(face=t.return_on),
    )
    if face >= t.return_on:
        ctx.emit(ev.VarSet(key=f"aircraft.{side}", value=""))
        return True
    return False


def helicopter_hit(ctx: Context, heli: Unit, by: AAWeapon) -> None:
    """BI-R263: 2d6 on the helicopter table, hit by the anti-aircraft weapon ``by``."""
    faces = ctx.roll(
        M("helicopter hit"),
        2,
        step=dice_order.AA_HIT,
        total=True,
        rule="BI-R263",
        unit=heli.id,
        outcome=lambda f: band(air().helicopter, sum(f)).words,
        check=ev.Read(),  # BI-R263: a row of the helicopter table
    )
    row = band(air().helicopter, sum(faces))
    cause = M("anti-aircraft fire")
    match row.id:
        case "exploded":
            casualties.destroyed(ctx, heli, M("exploded under {cause}", cause=cause))
            return
        case "pilot":
            if heli.has(Status.LANDED):
                ctx.emit(ev.StatusChanged(unit=heli.id, add=("immobilised", "damaged")))
            else:
                casualties.destroyed(ctx, heli, M("its pilot killed in flight"))
            return
        case "rotor":
            ctx.emit(ev.StatusChanged(unit=heli.id, add=("rotor-damaged", "damaged")))
        case "weapon":
            casualties.lose_weapon(ctx, heli)
            ctx.emit(ev.StatusChanged(unit=heli.id, add=("damaged",)))
        case "passengers":
            for man in casualties.aboard(ctx.state, heli):
                (f,) = ctx.roll(
                    casualties.HIT_ABOARD,
                    1,
                    step=dice_order.AA_HIT,
                    sides=rules.D10,
                    target=air().passenger_hit,
                    under=True,
                    rule="BI-R263",
                    unit=man.id,
                    outcome=lambda x: M("hit") if x[0] <= air().passenger_hit else M("unhurt"),
                    check=ev.AtLeast(face=air().passenger_hit, under=True),
                )
                if f <= air().passenger_hit:
                    casualties.infantry_hit(ctx, man, cause, under_fire=by.under_fire)
    # A.13.2: the -2 "under HE or automatic fire" is the weapon's to give, not the
    # table's (no row of BI-R263 names it; ruling BI-AA-MORALE).
    casualties.morale_due(ctx, heli, "m7", under_fire=by.under_fire, table_mod=row.morale_mod)


def rotor_checks(ctx: Context) -> None:
    """BI-R263: a helicopter whose engine or rotor is damaged rolls 1d6 "at the start of
    each movement phase": on 1-2 it lands or goes back to base, which is its move for the
    turn (the referee says which and, if it lands, marks it ``landed``)."""
    for heli in list(ctx.state.units.values()):
        if (
            not heli.in_play
            or "helicopter" not in heli.roles
            or heli.has(Status.LANDED)
            or not heli.has(Status.ROTOR_DAMAGED)
        ):
            continue
        (face,) = ctx.roll(
            M("damaged rotor"),
            1,
            step=dice_order.NEXT_ROTOR,
            rule="BI-R263",
            unit=heli.id,
            outcome=lambda f: M("it must land or go home") if f[0] <= air().rotor_fails else M("it holds"),
            check=ev.AtLeast(face=air().rotor_fails + 1),  # BI-R263: it holds
        )
        if face <= air().rotor_fails:
            ctx.emit(ev.StatusChanged(unit=heli.id, add=("moved",)))
            ctx.emit(
                ev.Noted(
                    text=M("{unit} lands or goes back to base: the referee says which", unit=heli.name),
                    vis=unit_audience(heli),
                )
            )


def helicopter_move(ctx: Context, heli: Unit, cm: int) -> bool:
    """BI-R255: it moves up to 2d6 x 10 cm, rolled.  Returns whether it moved.  A damaged
    rotor was rolled for as the movement phase began (:func:`rotor_checks`)."""
    if heli.has(Status.LANDED):
        raise Refused(
            _("{heli} has landed: taking off takes a whole turn (land {id})").format(heli=heli.name, id=heli.id),
            rule=("BI-R256", "BI-R255"),
        )
    faces = ctx.roll(
        M("flight"),
        2,
        step=dice_order.HELICOPTER_FLIGHT,
        total=True,
        rule="BI-R255",
        unit=heli.id,
        outcome=lambda f: M("up to {cm} cm", cm=sum(f) * air().move_per_pip),
        check=ev.Read(),
    )
    allowance = sum(faces) * air().move_per_pip
    moved = min(cm, allowance)
    if moved < cm:
        text = M("{unit} can fly only {cm} cm this turn", unit=heli.name, cm=allowance)
        ctx.emit(ev.Noted(text=text, vis=unit_audience(heli)))
    ctx.emit(ev.Moved(unit=heli.id, cm=moved, how=M("flying")))
    ctx.emit(ev.StatusChanged(unit=heli.id, add=("moved",)))
    return True


def _land(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R256: landing or taking off takes the whole turn; troops get on or off meanwhile."""
    heli = ctx.unit(args["helicopter"])
    if "helicopter" not in heli.roles:
        raise Refused(_("{heli} is not a helicopter").format(heli=heli.name), rule="BI-R256")
    if heli.side != ctx.state.active_side:
        raise Refused(
            _("it is {owner} movement (A.5.1)").format(owner=render(whose(ctx.state.side_name(ctx.state.active_side)))),
            rule=("ENG-2", "BI-R030"),
        )
    ready(heli, "move")
    landed = heli.has(Status.LANDED)
    ctx.emit(ev.Moved(unit=heli.id, cm=0, how=M("takes off") if landed else M("lands")))
    ctx.emit(
        ev.StatusChanged(
            unit=heli.id, add=("moved",) if landed else ("moved", "landed"), remove=("landed",) if landed else ()
        )
    )


def _hover(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R257: the helicopter holds still in the air for the turn, neither landing nor
    taking off, so that men trained to fast-rope can get down (ruling BI-FAST-ROPE)."""
    heli = ctx.unit(args["helicopter"])
    if "helicopter" not in heli.roles:
        raise Refused(_("{heli} is not a helicopter").format(heli=heli.name), rule="BI-R257")
    if heli.side != ctx.state.active_side:
        raise Refused(
            _("it is {owner} movement (A.5.1)").format(owner=render(whose(ctx.state.side_name(ctx.state.active_side)))),
            rule=("ENG-2", "BI-R030"),
        )
    if heli.has(Status.LANDED):
        raise Refused(
            _("{heli} has landed: men get off it as from any vehicle (dismount)").format(heli=heli.name),
            rule=("BI-R257", "BI-R256"),
        )
    ready(heli, "move")
    ctx.emit(ev.Moved(unit=heli.id, cm=0, how=M("hovers in place")))
    ctx.emit(ev.StatusChanged(unit=heli.id, add=("moved", "hovering")))


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "aa",
        "Anti-aircraft fire at a helicopter or at the enemy's aircraft (halved in the movement phase). "
        "Dice: 1d10 under the chance; a hit on an aircraft 1d6, on a helicopter 2d6, then any damage.",
        _aa,
        params=(
            Param("shooter", "own"),
            Param("target", "text", "an enemy helicopter", optional=True),
            flag(AIRCRAFT, "at the enemy's aircraft, not a helicopter"),
            Param(
                "range",
                "distance",
                "distance in cm (the AT rocket reaches 80)",
                optional=True,
                keyword=True,
                hi=MAX_DISTANCE_CM,
            ),
            flag("isolated", "beyond command distance"),
        ),
        rule="BI-R260",
        examples=("aa ali aircraft", "aa tariq mangusta range=60"),
        phases=(*MOVE_PHASES, *TIER_PHASES),
        rolls=True,
        dice=(
            dice_order.ISOLATION,
            dice_order.AA_FIRE,
            dice_order.AA_HIT,
        ),
    ),
    CommandSpec(
        "land",
        "A helicopter lands, or takes off if it has landed: its whole turn (BI-R256). No dice.",
        _land,
        params=(Param("helicopter", "own"),),
        rule="BI-R256",
        examples=("land nh90",),
        phases=MOVE_PHASES,
    ),
    CommandSpec(
        "hover",
        "A flying helicopter holds still for the turn without landing, so that men with the "
        "fast-rope role can rope down (dismount): its whole turn (BI-R257). No dice.",
        _hover,
        params=(Param("helicopter", "own"),),
        rule="BI-R257",
        examples=("hover mangusta",),
        phases=MOVE_PHASES,
    ),
)
