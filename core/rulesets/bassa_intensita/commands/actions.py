"""Bassa Intensità commands of the initiative winner's choice, movement, actions and
observation, each held to the golden rule (BI-R030)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from core.language.i18n import M
from core.language.numerals import decimal
from core.log import events as ev
from core.log.state import GameState, Unit
from core.log.views import REFEREE_ONLY, unit_audience, unit_visible
from core.ruleset import MAX_DISTANCE_CM, CommandSpec, Context, Param, Refused, flag
from core.rulesets.bassa_intensita import dice_order, rules
from core.rulesets.bassa_intensita.commands.common import (
    ISOLATED,
    LEAD,
    badges,
    in_own_tier,
    isolated,
    light_of,
    passes_isolation,
    quality,
    ready,
    roll_under,
    scout,
    very_easy_done,
)
from core.rulesets.bassa_intensita.phases import (
    MOVE_PHASES,
    TIER_PHASES,
)
from core.rulesets.bassa_intensita.rules import damage
from core.rulesets.bassa_intensita.tables import (
    move_modes,
    move_modifiers,
    observation,
    special,
    vehicle_types,
)
from core.rulesets.bassa_intensita.terms import Kind, Status
from core.rulesets.bassa_intensita.words import _, listing, render, whose, word

# ------------------------------------------------------------------ initiative order


def _order(ctx: Context, args: dict[str, Any]) -> None:
    """A.5.1: the initiative winner chooses to move first or second."""
    s = ctx.state
    winner = s.active_side
    first = winner if args["choice"] == "first" else s.other_side(winner)
    if s.vars.get("first_mover") == first:
        raise Refused(_("{first} already moves first").format(first=first), rule=("ENG-7", "BI-AMB-11"))
    ctx.emit(ev.VarSet(key="first_mover", value=first))


# ----------------------------------------------------------------------- movement


def _move(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R040..R042: move a man on foot up to his mode's allowance less its modifiers,
    or a vehicle up to its type's (BI-R045), in his side's movement."""
    s = ctx.state
    unit = ctx.unit(args["unit"])
    if unit.side != s.active_side:
        raise Refused(
            _("{unit} cannot move: it is {owner} movement (A.5.1)").format(
                unit=unit.name, owner=render(whose(s.side_name(s.active_side)))
            ),
            rule=("ENG-2", "BI-R030"),
        )
    ready(unit, "move")
    if unit.has(Status.SHOCKED) and not args["away"]:
        raise Refused(
            _("{unit} is shocked: no move towards the enemy; say `away` if this move is not (BI-R182)").format(
                unit=unit.name
            ),
            rule="BI-R182",
        )
    if unit.kind != Kind.MAN:
        _move_vehicle(ctx, unit, args)
        return
    if args["onroad"] is not None:
        raise Refused(_("onroad= is a vehicle's: a man on foot moves by his mode (BI-R040)"), rule="BI-R040")
    mode = move_modes()[args["mode"]]
    via: list[str] = args["via"]
    walks_on = unit.has(Status.DISMOUNTED)  # BI-R042: out of a truck or car this turn, at -50%
    auto = [
        m
        for m, on in (
            ("wounded", unit.has(Status.WOUNDED)),
            ("stand-up", unit.has(Status.PRONE)),
            ("car", walks_on and "car" not in via),
            ("under-fire", unit.has(Status.UNDER_FIRE) and "under-fire" not in via),
        )
        if on
    ]
    allowance = rules.foot_allowance(mode.cm, [*via, *auto])
    if unit.has(Status.GASSED):
        allowance = -(-allowance // 2)  # BI-R232: half in tear gas
        auto.append("gassed")
    cm = args["cm"]
    whole = any(move_modifiers()[i].whole_turn for i in via)
    if whole and cm != 0:
        raise Refused(_("that takes his whole move: give 0 cm (BI-R042)"), rule="BI-R042")
    if not whole and not 0 < cm <= allowance:
        labels = [word(move_modifiers()[i].label if i in move_modifiers() else "in tear gas") for i in [*via, *auto]]
        if labels:
            text = _("{mode} movement is 1 to {cm} cm ({why}) (BI-R040, BI-R042)")
        else:
            text = _("{mode} movement is 1 to {cm} cm (BI-R040, BI-R042)")
        raise Refused(
            text.format(mode=render(word(mode.id)), cm=allowance, why=render(listing(labels))),
            rule=("BI-R040", "BI-R042"),
        )
    if mode.not_twice_running and unit.has(Status.RAN):
        raise Refused(
            _("{unit} ran last turn and may not run this turn (BI-R041)").format(unit=unit.name), rule="BI-R041"
        )
    # he took his isolation test, if any, as he got out (BI-R024)
    if not walks_on and not passes_isolation(ctx, unit, isolated(ctx, unit, args)):
        return
    how = listing([word(mode.id), *(word(move_modifiers()[i].label) for i in via)])
    ctx.emit(ev.Moved(unit=unit.id, cm=cm, how=how))
    # a weapon carried off its position is no longer emplaced (A.9.3, ruling BI-EMPLACED)
    gone = tuple(b for b in (Status.PRONE, Status.EMPLACED, Status.DISMOUNTED) if unit.has(b))
    ctx.emit(
        ev.StatusChanged(
            unit=unit.id, add=("moved", *((mode.id,) if mode.id in ("cautious", "running") else ())), remove=gone
        )
    )


def _move_vehicle(ctx: Context, unit: Unit, args: dict[str, Any]) -> None:
    """BI-R045/R046: a vehicle's allowance by type and ground, halved by mobility hits;
    a stabilised one that moves under half of it may still fire (BI-R240)."""
    vtype = damage.vehicle_type(unit)
    if vtype is None:
        raise Refused(
            _("{unit} has no vehicle type among its roles ({types})").format(
                unit=unit.name, types=", ".join(vehicle_types())
            ),
            rule=("BI-R045", "BI-AMB-14"),
        )
    if vtype.id == "helicopter":
        from core.rulesets.bassa_intensita.commands.air import helicopter_move  # a helicopter's own rules

        if args["onroad"] is not None:
            raise Refused(_("a helicopter flies 2d6 x 10 cm: no road to name (BI-R255)"), rule="BI-R255")

        helicopter_move(ctx, unit, args["cm"])
        return
    halvings = 2 if unit.has(Status.SLOWED_TWICE) else 1 if unit.has(Status.SLOWED) else 0
    on_road = args["ground"] == "road"
    allowance = rules.vehicle_allowance(vtype.road, vtype.off_road, on_road, halvings, unit.has(Status.IMMOBILISED))
    if allowance == 0:
        raise Refused(_("{unit} is immobilised (A.12)").format(unit=unit.name), rule=("BI-R140", "BI-AMB-39"))
    cm = args["cm"]
    if args["onroad"] is not None:
        steady, how = _mixed_move(vtype, Fraction(cm), Fraction(args["onroad"]), halvings), M("partly on the road")
    elif not 0 < cm <= allowance:
        raise Refused(
            _("a {vehicle} moves 1 to {allowance} cm {ground} (BI-R045)").format(
                vehicle=render(word(vtype.name)), allowance=allowance, ground=render(word(args["ground"]))
            ),
            rule="BI-R045",
        )
    else:
        steady, how = 2 * cm < allowance, word(args["ground"])
    if not passes_isolation(ctx, unit, isolated(ctx, unit, args)):
        return
    ctx.emit(ev.Moved(unit=unit.id, cm=cm, how=how))
    # where it now stands, for a panic's flight at its allowance there (ruling BI-PANIC)
    if on_road and not unit.has(Status.ON_ROAD):
        ctx.emit(ev.StatusChanged(unit=unit.id, add=("on-road",)))
    elif not on_road and unit.has(Status.ON_ROAD):
        ctx.emit(ev.StatusChanged(unit=unit.id, remove=("on-road",)))
    badges(ctx, unit, "moved-stabilised" if steady and "stabilised" in unit.roles else "moved")


def _cm(value: Fraction) -> str:
    """A distance in a refusal: whole, or to two decimals, in the reader's notation."""
    return decimal(int(value)) if value.denominator == 1 else decimal(float(value), 2)


def _mixed_move(vtype, cm: Fraction, on_road_cm: Fraction, halvings: int) -> bool:
    """A move partly on the road and partly off it (digest A.6.2's note, map row BI-R045a):
    both allowances are spent in proportion, what is left off the road rounded up; returns
    whether it stays under half of them (BI-R240).  Refuses a road part longer than the
    move, or an off-road part beyond what is left."""
    road = rules.vehicle_allowance(vtype.road, vtype.off_road, True, halvings, False)
    off = rules.vehicle_allowance(vtype.road, vtype.off_road, False, halvings, False)
    most = min(cm, Fraction(road))
    if not 0 < on_road_cm <= most:
        raise Refused(
            _("of a move of {cm} cm, 1 to {most} cm may be on the road (BI-R045a)").format(cm=_cm(cm), most=_cm(most)),
            rule="BI-R045a",
        )
    left = rules.off_road_left(road, off, on_road_cm)
    if cm - on_road_cm > left:
        raise Refused(
            _("after {road} cm on the road a {vehicle} has {left} cm left off it (BI-R045a)").format(
                road=_cm(on_road_cm), vehicle=render(word(vtype.name)), left=left
            ),
            rule="BI-R045a",
        )
    return 2 * (on_road_cm * off + (cm - on_road_cm) * road) < road * off


# ------------------------------------------------------------------------- actions


def _act(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R065/R066: any activity other than moving and firing, rolled by difficulty."""
    unit = ctx.unit(args["unit"])
    in_own_tier(ctx, unit)
    ready(unit, "act")
    difficulty = args["difficulty"]
    if unit.has(Status.WOUNDED):
        difficulty = rules.shift_difficulty(difficulty, 1)  # BI-R110: one level harder
    chance = rules.action_chance(quality(unit), difficulty)
    if chance <= 0:
        if unit.has(Status.WOUNDED):
            raise Refused(
                _("that action is impossible for a wounded man (BI-R069, BI-R110)"), rule=("BI-R069", "BI-R110")
            )
        raise Refused(_("that action is impossible (BI-R069, BI-R110)"), rule=("BI-R069", "BI-R110"))
    what = args["what"] or M("an action")
    if not passes_isolation(ctx, unit, isolated(ctx, unit, args)):
        return
    if chance >= rules.D10:
        text = M("{unit}: {what} (very easy, done; BI-R066)", unit=unit.name, what=what)
        ctx.emit(ev.Noted(text=text, vis=unit_audience(unit)))
    else:
        purpose = M("{what} ({difficulty})", what=what, difficulty=word(difficulty))
        roll_under(ctx, purpose, unit, chance, (), "BI-R066", M("done"), M("failed"), step=dice_order.ACTION)
    badges(ctx, unit, "acted")


def _aim(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R085 (ruling BI-AIM): Aim is a very easy action; next turn the man's fire is
    aimed (+1).  A wounded man finds it easy, not very easy: he rolls (BI-R110)."""
    unit = ctx.unit(args["unit"])
    in_own_tier(ctx, unit)
    ready(unit, "act")
    if not passes_isolation(ctx, unit, isolated(ctx, unit, args)):
        return
    if unit.has(Status.WOUNDED):
        chance = rules.action_chance(quality(unit), "easy")
        if chance < rules.D10 and not roll_under(
            ctx,
            M("aim (easy, wounded)"),
            unit,
            chance,
            (),
            "BI-R110",
            M("aimed"),
            M("failed"),
            step=dice_order.WOUNDED_AIM,
        ):
            badges(ctx, unit, "acted")
            return
    badges(ctx, unit, "acted", "aiming")


def _emplace(ctx: Context, args: dict[str, Any]) -> None:
    """A.9.3 notes (4) and (6), BI-R068: emplacing a heavy weapon is a Very Easy action, his
    activity for the turn; it stays emplaced until he moves (ruling BI-EMPLACED).  A wounded
    man finds it easy: he rolls (BI-R110)."""
    unit = ctx.unit(args["unit"])
    in_own_tier(ctx, unit)
    ready(unit, "act")
    if unit.kind != Kind.MAN:
        raise Refused(_("a weapon on a vehicle is mounted: nothing to emplace (A.9.3)"), rule=("BI-WN6", "BI-WN4"))
    if unit.has(Status.EMPLACED):
        raise Refused(_("{unit}'s weapon is already emplaced").format(unit=unit.name), rule=("BI-WN6", "BI-R068"))
    if not passes_isolation(ctx, unit, isolated(ctx, unit, args)):
        return
    if not very_easy_done(ctx, unit, M("emplace the weapon (easy, wounded)"), M("emplaced")):
        badges(ctx, unit, "acted")
        return
    ctx.emit(
        ev.Noted(
            text=M("{unit} emplaces his weapon (very easy, done; A.9.3, BI-R068)", unit=unit.name),
            vis=unit_audience(unit),
        )
    )
    badges(ctx, unit, "acted", "emplaced")


def _reload(ctx: Context, args: dict[str, Any]) -> None:
    """A.9.3 notes (5) and (6), BI-R068 (ruling BI-CREW): a weapon served by one crewman
    that must be reloaded (or its barrel changed) is reloaded by a Very Easy action, his
    activity for the turn.  A wounded man finds it easy: he rolls (BI-R110)."""
    unit = ctx.unit(args["unit"])
    in_own_tier(ctx, unit)
    ready(unit, "act")
    if not unit.has(Status.MUST_RELOAD):
        raise Refused(_("{unit} has nothing to reload (A.9.3)").format(unit=unit.name), rule=("BI-WN5", "BI-R068"))
    if not passes_isolation(ctx, unit, isolated(ctx, unit, args)):
        return
    if very_easy_done(ctx, unit, M("reload (easy, wounded)"), M("reloaded")):
        ctx.emit(ev.StatusChanged(unit=unit.id, remove=(Status.MUST_RELOAD,)))
        ctx.emit(
            ev.Noted(
                text=M("{unit} reloads his weapon (very easy, done; A.9.3, BI-R068)", unit=unit.name),
                vis=unit_audience(unit),
            )
        )
    badges(ctx, unit, "acted")


# --------------------------------------------------------------------- observation


def _observer_column(observer: Unit) -> str:
    """BI-R165/R167: infantry, an "open" vehicle (hatch open, commander out) or a closed one."""
    if observer.kind == Kind.MAN:
        return "infantry"
    return "open_vehicle" if "open" in observer.roles else "closed_vehicle"


#: The hidden enemies a side has tried to observe in this end-of-phase step, for the referee:
#: ``secret.looked.<side>`` = ``TURN:PHASE:ID,ID...`` (BI-R164).
LOOKED = "secret.looked."


def _one_attempt(ctx: Context, side: str, target: Unit) -> None:
    """BI-R164: "Massimo un tentativo per ogni elemento di terreno" whatever the number of
    observers; an enemy not inside a feature gets one of its own (digest BI-AMB-46).  The
    engine knows no features: it keeps one attempt per hidden enemy at the end of each
    phase; one per feature, for men sharing a wood, is the referee's (ruling BI-OBSERVE).
    The exception of the movement phase, a moving enemy observed at any moment (BI-R162),
    is not limited."""
    s = ctx.state
    if s.phase in MOVE_PHASES:
        return
    step = f"{s.turn}:{s.phase}:"
    raw = str(s.vars.get(f"{LOOKED}{side}", ""))
    tried = raw.removeprefix(step).split(",") if raw.startswith(step) else []
    if target.id in tried:
        raise Refused(
            _("{side} has tried to observe {target} at the end of this phase already: one attempt (BI-R164)").format(
                side=s.side_name(side), target=target.name
            ),
            rule="BI-R164",
        )
    ctx.emit(ev.VarSet(key=f"{LOOKED}{side}", value=step + ",".join([*tried, target.id]), vis=REFEREE_ONLY))


def _may_observe(s: GameState, observer: Unit, target: Unit) -> None:
    """BI-R160..R163: an observer in play looks for an enemy in play he does not see yet; in
    the movement phase, a moving one (BI-R162)."""
    if observer.side == target.side or not observer.in_play or not target.in_play:
        raise Refused(_("an observer in play looks for an enemy in play"), rule="BI-R160")
    if unit_visible(target, observer.side):
        raise Refused(
            _("{target} is already seen by {side} (BI-R163)").format(
                target=target.name, side=s.side_name(observer.side)
            ),
            rule="BI-R163",
        )
    if s.phase in MOVE_PHASES and (target.side != s.active_side or not target.has(Status.MOVED)):
        raise Refused(_("during movement only moving enemies may be observed (BI-R162)"), rule="BI-R162")


def _observe(ctx: Context, args: dict[str, Any]) -> None:
    """BI-R160..R165: the referee rolls an observation attempt as an action of the
    matrix's difficulty.  It is not an action: it costs the observer nothing (BI-R166)."""
    s = ctx.state
    observer = ctx.unit(args["observer"])
    target = ctx.unit(args["target"])
    _may_observe(s, observer, target)
    column = _observer_column(observer)
    night = bool(args["night"]) or light_of(s) != "day"
    hidden_sniper = "sniper" in target.roles and target.has(Status.HIDDEN)
    if hidden_sniper:
        # BI-R210: only enemy infantry, only in a turn he fires, as a difficult observation
        if column != "infantry":
            raise Refused(_("a hidden sniper is seen only by infantry (BI-R210)"), rule="BI-R210")
        if not target.has(Status.FIRED) or target.has(Status.HELD_FIRE):
            raise Refused(
                _("{target} has not fired this turn: he cannot be seen (BI-R210)").format(target=target.name),
                rule="BI-R210",
            )
        difficulty = rules.observation_difficulty(special().sniper.seen_as, target_fired=False, night=night)
    else:
        moving = target.has(Status.MOVED) or "helicopter" in target.roles  # BI-R258: always heard
        row = f"{'infantry' if target.kind == Kind.MAN else 'vehicle'}-{'moving' if moving else 'still'}"
        row += "-cover" if args["cover"] else "-open"
        base = getattr(observation()[row], column)
        fired = any(target.has(b) for b in ("shot-single", "shot-auto"))
        difficulty = rules.observation_difficulty(base, target_fired=fired, night=night)
    if scout(observer) and (not observer.has(Status.MOVED) or observer.has(Status.CAUTIOUS)):
        difficulty = rules.shift_difficulty(difficulty, -special().scout.observe_steps)  # BI-R212
    if observer.has(Status.WOUNDED):
        # BI-R164: rolled "come se stesse eseguendo una Azione", whose difficulty a wound
        # worsens by one level (BI-R110; ruling BI-WOUND-EFFECTS)
        difficulty = rules.shift_difficulty(difficulty, 1)
        if rules.action_chance(quality(observer), difficulty) <= 0:
            raise Refused(
                _("{observer} is wounded: observing {target} there is one level harder, beyond him (BI-R110)").format(
                    observer=observer.name, target=target.name
                ),
                rule="BI-R110",
            )
    chance = rules.action_chance(quality(observer), difficulty)
    if chance <= 0 and hidden_sniper:
        raise Refused(
            _(
                "{observer} cannot see {target}: a hidden sniper is a difficult observation, "
                "one step harder at night: NO (BI-R210, BI-R165)"
            ).format(observer=observer.name, target=target.name),
            rule=("BI-R210", "BI-R165"),
        )
    if chance <= 0:
        raise Refused(
            _("{observer} cannot observe {target} there ({row}, {column}: NO; BI-R165)").format(
                observer=observer.name, target=target.name, row=row, column=column
            ),
            rule="BI-R165",
        )
    _one_attempt(ctx, observer.side, target)
    # Until it is seen, only the target's own side may learn that the attempt concerned it.
    secret = unit_audience(target)
    if chance >= rules.D10 or roll_under(
        ctx,
        M("observation ({difficulty})", difficulty=word(difficulty)),
        observer,
        chance,
        (),
        "BI-R165",
        M("spotted"),
        M("nothing seen"),
        vis=secret,
        step=dice_order.OBSERVATION,
    ):
        ctx.emit(ev.Spotted(unit=target.id, by_side=observer.side))


# ------------------------------------------------------------------------- the list


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "order",
        "The initiative winner chooses to move first or second (he moves first unless he says otherwise). No dice.",
        _order,
        params=(Param("choice", "choice", choices=("first", "second")),),
        rule="A.5.1",
        examples=("order second",),
        phases=("cover",),
    ),
    CommandSpec(
        "move",
        "Move a man on foot: cautious 8, normal 16, running 24 cm (not two turns running), less the "
        "modifiers (wounded and standing up counted by the engine); or a vehicle by its type and ground. "
        "Dice: 1d10 isolation test if isolated.",
        _move,
        params=(
            Param("unit", "own"),
            Param("cm", "distance", "distance in cm", hi=MAX_DISTANCE_CM),
            Param("mode", "choice", optional=True, default="normal", choices=tuple(move_modes()), keyword=True),
            # the referee names those the engine cannot see (BI-R042); a wound it counts itself
            Param(
                "via",
                "choice",
                "movement modifiers, as many as apply (BI-R042)",
                optional=True,
                choices=tuple(k for k, m in move_modifiers().items() if not m.auto),
                many=True,
                keyword=True,
            ),
            Param(
                "ground",
                "choice",
                "a vehicle's ground",
                optional=True,
                default="off-road",
                choices=("road", "off-road"),
                keyword=True,
            ),
            Param(
                "onroad",
                "distance",
                "of a vehicle's move partly on the road, the cm on it (BI-R045a)",
                optional=True,
                keyword=True,
                hi=MAX_DISTANCE_CM,
            ),
            flag("away", "not towards the enemy (a shocked man)"),
            ISOLATED,
            LEAD,
        ),
        rule="BI-R040",
        examples=(
            "move marra 16",
            "move deiana 8 cautious",
            "move sanna 20 running isolated",
            "move omar 6 via=window",
            "move puma 80 road",
            "move truck 70 onroad=40",
        ),
        phases=MOVE_PHASES,
        rolls=True,
        dice=(
            dice_order.ISOLATION,
            dice_order.HELICOPTER_FLIGHT,
        ),
    ),
    CommandSpec(
        "act",
        "An action other than moving or firing: very-easy (automatic), easy, normal or difficult (BI-R066); "
        "one level harder for a wounded man. Dice: 1d10 isolation test if isolated, then 1d10 under the chance.",
        _act,
        params=(
            Param("unit", "own"),
            Param("difficulty", "choice", choices=("very-easy", "easy", "normal", "difficult")),
            ISOLATED,
            LEAD,
            Param("what", "text", "what he does", optional=True, prose=True),
        ),
        rule="BI-R066",
        examples=("act pinna normal dress the wound", "act sanna very-easy emplace the LMG"),
        phases=TIER_PHASES,
        rolls=True,
        dice=(
            dice_order.ISOLATION,
            dice_order.ACTION,
        ),
    ),
    CommandSpec(
        "aim",
        "Take aim (a very easy action): next turn his fire is aimed, +1 (BI-R085). Dice: none, or 1d10 "
        "isolation test if isolated; a wounded man rolls 1d10 (easy).",
        _aim,
        params=(Param("unit", "own"), ISOLATED, LEAD),
        rule="BI-R085",
        examples=("aim marra",),
        phases=TIER_PHASES,
        rolls=True,
        dice=(
            dice_order.ISOLATION,
            dice_order.WOUNDED_AIM,
        ),
    ),
    CommandSpec(
        "emplace",
        "Emplace his machine gun, automatic grenade launcher or gun (a very easy action): until he "
        "moves it may fire; an LMG not emplaced fires as an assault rifle (A.9.3, BI-R068). Dice: none, "
        "or 1d10 isolation test if isolated; a wounded man rolls 1d10 (easy).",
        _emplace,
        params=(Param("unit", "own"), ISOLATED, LEAD),
        rule="A.9.3, BI-R068",
        examples=("emplace pinna",),
        phases=TIER_PHASES,
        rolls=True,
        dice=(
            dice_order.ISOLATION,
            dice_order.ACTION,
        ),
    ),
    CommandSpec(
        "reload",
        "Reload a weapon served by one crewman, or change its barrel (a very easy action): an MG or LMG "
        "after a burst at an area, a recoilless gun after each shot (A.9.3, BI-R068). Dice: none, or 1d10 "
        "isolation test if isolated; a wounded man rolls 1d10 (easy).",
        _reload,
        params=(Param("unit", "own"), ISOLATED, LEAD),
        rule="A.9.3, BI-R068",
        examples=("reload pinna",),
        phases=TIER_PHASES,
        rolls=True,
        dice=(
            dice_order.ISOLATION,
            dice_order.ACTION,
        ),
    ),
    CommandSpec(
        "observe",
        "Roll an observation attempt at a hidden enemy (the referee, who knows where it is). "
        "Dice: 1d10 under the observer's chance for the difficulty (none if very easy).",
        _observe,
        params=(
            Param("observer", "unit"),
            Param("target", "unit"),
            flag("cover", "the target is in cover"),
            flag("night", "it is night (one step harder)"),
        ),
        rule="BI-R165",
        examples=("observe marra said cover",),
        phases=(*MOVE_PHASES, "observe", "end"),
        who="referee",
        rolls=True,
        dice=(dice_order.OBSERVATION,),
    ),
)
