"""Linea di Tiro assaults (C.9, "Assalto"): a tank overrunning infantry or a gun,
infantry assaulting a tank, and melee between infantry.

Opportunity shots that come before an assault (a gun or infantry attacked from
the front) are given first with ``at``/``mg ... opportunity``."""

from __future__ import annotations

from typing import Any

from core.language.i18n import M, Text
from core.log import events as ev
from core.log.state import Unit
from core.ruleset import MAX_DISTANCE_CM, CommandSpec, Context, Param, Refused, flag
from core.rulesets.linea_di_tiro import dice_order, rules
from core.rulesets.linea_di_tiro.commands.fire import morale_mods, record_attack
from core.rulesets.linea_di_tiro.pieces import (
    activated,
    check_target,
    is_gun,
    is_tank,
    profile,
    recover,
    require_able_to_fire,
    require_tested,
    say,
    spend_attack,
    sum_mods,
)
from core.rulesets.linea_di_tiro.rules import assault
from core.rulesets.linea_di_tiro.scenario_vars import aboard
from core.rulesets.linea_di_tiro.tables import Profile, movement
from core.rulesets.linea_di_tiro.tables import assault as assault_table
from core.rulesets.linea_di_tiro.terms import Status
from core.rulesets.linea_di_tiro.words import _, whose


def _require_moving(ctx: Context, piece: Unit) -> None:
    """LT-R100: a tank overruns in the course of its move."""
    option = activated(ctx, piece)
    if ctx.state.active_side != piece.side or option not in movement().options:
        raise Refused(
            _("{unit} overruns in the course of its move: activate it with A1, A2 or A5 first").format(unit=piece.name),
            rule=("LT-R100", "LT-AMB-23"),
        )


def _require_on_foot(ctx: Context, piece: Unit) -> None:
    """LT-R101/R102 with A6 (ruling LT-MOVE): an assault is made in contact, on foot; a piece
    aboard moves only with its vehicle until A6 gets it off."""
    if aboard(ctx.state, piece):
        raise Refused(
            _("{unit} is aboard a vehicle: A6 gets it off first (LT-R020)").format(unit=piece.name), rule="LT-R020"
        )


def _immobilised(piece: Unit) -> str:
    return _("{unit} is immobilised and cannot move to assault (ruling LT-IMMOBILISED)").format(unit=piece.name)


def _close_assault_roll(ctx: Context, infantry: Unit, tank: Unit, first_strike: bool) -> bool:
    """LT-R101: 1d6 at or under the infantry's rating (+1 no MG, -1 protected)."""
    table = assault_table()
    p_inf, p_tank = profile(ctx, infantry), profile(ctx, tank)
    rating = table.rating_of(infantry.roles, bool(p_inf.at), infantry.stats)
    has_mg = bool(p_tank.mg) and table.no_mg_role not in tank.roles
    mods = assault.close_assault_mods(tank_has_mg=has_mg, protected=table.protected_role in tank.roles)
    need = assault.close_assault_need(rating.rating, mods)
    args: dict[str, Text | int] = {"tank": tank.name, "rating": M(rating.label), "value": rating.rating}
    if first_strike:
        purpose = M("first strike at {tank}, {rating} {value}", **args)
    else:
        purpose = M("close assault at {tank}, {rating} {value}", **args)
    (face,) = ctx.roll(
        purpose,
        1,
        step=dice_order.CLOSE_ASSAULT,
        target=need,
        under=True,
        mods=mods,
        rule="LT-R101",
        unit=infantry.id,
        outcome=lambda f: M("tank destroyed") if assault.close_assault_destroys(f[0], need) else M("no effect"),
        check=ev.AtLeast(face=need, under=True, base=rating.rating),  # LT-R101
    )
    if assault.close_assault_destroys(face, need):
        ctx.emit(ev.UnitOut(unit=tank.id, cause=M("destroyed in a close assault")))
        return True
    return False


def _overrun(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R100: a tank runs over infantry (or a gun) in the course of its move.  Infantry
    with portable AT weapons, not immobilised, tests morale: passing, it strikes first
    (the close-assault roll); failing, it stays in place.  Then, unless the tank is
    destroyed, the infantry is destroyed in the open, and in cover on 1d6 of 4 or less."""
    tank, target = ctx.unit(args["tank"]), ctx.unit(args["target"])
    check_target(tank, target)
    if not is_tank(profile(ctx, tank)):
        raise Refused(_("{unit} is not a tank: only tanks overrun (LT-R100)").format(unit=tank.name), rule="LT-R100")
    if is_tank(profile(ctx, target)):
        raise Refused(
            _("{unit} is a tank: tanks overrun infantry and guns (LT-R100)").format(unit=target.name), rule="LT-R100"
        )
    require_able_to_fire(tank)
    require_tested(ctx, tank)  # the overrun is in its move, and an attack (LT-R051)
    _require_moving(ctx, tank)
    p_inf = profile(ctx, target)
    # LT-R100: infantry with portable AT weapons; a gun has its opportunity shot instead.
    portable_at = (
        not p_inf.vehicle
        and not is_gun(target, p_inf)
        and (bool(p_inf.at) or assault_table().portable_at_role in target.roles)
    )
    if assault.overrun_test_needed(portable_at, target.has(Status.IMMOBILISED)):
        mods = morale_mods(target, args["plus"])
        value = p_inf.morale
        (face,) = ctx.roll(
            M("morale test against {whose} overrun, morale {value}", whose=whose(tank.name), value=value),
            1,
            step=dice_order.OVERRUN_MORALE,
            mods=mods,
            total=True,
            rule="LT-R100",
            unit=target.id,
            outcome=lambda f: (
                M("passed: it strikes first")
                if rules.morale_result(f[0] + sum_mods(mods), value) == "steady"
                else M("failed: it stays in place")
            ),
            check=rules.steady_check(value, sum_mods(mods)),
        )
        if rules.morale_result(face + sum_mods(mods), value) == "steady":
            with ctx.at_step(dice_order.OVERRUN_FIRST_STRIKE):
                struck = _close_assault_roll(ctx, target, tank, first_strike=True)
            if struck:
                return
        else:
            say(ctx, target, M("{unit} fails its test and stays in place under the tank (LT-R100)", unit=target.name))
    in_open = bool(args["open"])
    cover_face: int | None = None  # rolled only in cover
    if not in_open:
        need = assault_table().overrun_cover_max
        (cover_face,) = ctx.roll(
            M("overrun of {target} in cover", target=target.name),
            1,
            step=dice_order.OVERRUN_IN_COVER,
            target=need,
            under=True,
            rule="LT-R100",
            unit=tank.id,
            outcome=lambda f: M("destroyed") if assault.overrun_destroys(False, f[0]) else M("survives"),
            check=ev.AtLeast(face=need, under=True),  # LT-R100
        )
    if assault.overrun_destroys(in_open, cover_face):
        ctx.emit(ev.UnitOut(unit=target.id, cause=M("overrun by a tank")))
    else:
        say(ctx, target, M("{unit} survives {whose} overrun (LT-R100)", unit=target.name, whose=whose(tank.name)))
    # LT-R052: the overrun is the tank's attack ("subisce l'attacco del carro"); the piece
    # that survives it may answer it with a prepared attack (ruling LT-REPLY)
    record_attack(ctx, tank, target)


def _close_assault(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R101: infantry assaults a tank from the flank or rear, when no infantry
    friendly to the tank is adjacent; 1d6 at or under its rating destroys the tank."""
    infantry, tank = ctx.unit(args["infantry"]), ctx.unit(args["tank"])
    check_target(infantry, tank)
    p_inf = profile(ctx, infantry)
    if p_inf.vehicle or is_gun(infantry, p_inf):
        raise Refused(_("{unit} is not infantry (LT-R101)").format(unit=infantry.name), rule="LT-R101")
    if not is_tank(profile(ctx, tank)):
        raise Refused(
            _("{unit} is not a tank: infantry assaults infantry and guns with melee (LT-R102)").format(unit=tank.name),
            rule=("LT-R101", "LT-R102"),
        )
    if infantry.has(Status.IMMOBILISED):
        raise Refused(_immobilised(infantry), rule=("LT-R081", "LT-AMB-21"))
    _require_on_foot(ctx, infantry)
    why = assault.can_assault_tank(args["side"] in ("flank", "rear"), args["escort"])
    if why:
        raise Refused(why, rule=("LT-R101", "LT-AMB-24"))
    # an attack of the activation: a prepared attack is kept for a reply or an ambush (ruling LT-REPLY)
    spend_attack(ctx, infantry, use_ready=False)
    if not _close_assault_roll(ctx, infantry, tank, first_strike=False):
        say(ctx, tank, M("{unit} survives the close assault (LT-R101)", unit=tank.name))
    # LT-R052: the close assault is an attack; the tank that survives it may answer it
    record_attack(ctx, infantry, tank)


def _may_start_melee(attacker: Unit, defender: Unit, p_att: Profile, p_def: Profile) -> None:
    """LT-R102/R103: infantry starts a melee with infantry or guns: not a gun (LT-R103), not
    a tank (it overruns), not at a tank (a close assault), not immobilised (ruling LT-IMMOBILISED)."""
    if is_gun(attacker, p_att):
        raise Refused(
            _("{unit} cannot start a melee: guns cannot (LT-R103)").format(unit=attacker.name),
            rule=("LT-R103", "LT-AMB-26"),
        )
    if p_att.vehicle:
        raise Refused(
            _("{unit} cannot start a melee: a tank overruns (overrun)").format(unit=attacker.name),
            rule=("LT-R102", "LT-R100"),
        )
    if is_tank(p_def):
        raise Refused(
            _("{unit} is a tank: assault it with closeassault (LT-R101)").format(unit=defender.name), rule="LT-R101"
        )
    if attacker.has(Status.IMMOBILISED):
        raise Refused(_immobilised(attacker), rule=("LT-R081", "LT-AMB-21"))


def _melee(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R102/R103: each side rolls 1d6 + morale (+2 entrenched, -1 attacked from
    behind, -2 immobilised, -3 a gun); the higher captures or destroys the other, a tie
    destroys both; immobilised infantry that wins recovers."""
    attacker, defender = ctx.unit(args["attacker"]), ctx.unit(args["defender"])
    check_target(attacker, defender)
    p_att, p_def = profile(ctx, attacker), profile(ctx, defender)
    _may_start_melee(attacker, defender, p_att, p_def)
    _require_on_foot(ctx, attacker)
    # an attack of the activation: a prepared attack is kept for a reply or an ambush (ruling LT-REPLY);
    # hand to hand, no fire, so the attacker is seen no further for it (LT-R033)
    spend_attack(ctx, attacker, use_ready=False, fires=False)
    behind = args["side"] == "rear"
    totals = []
    for piece, other, p, mods in (
        (attacker, defender, p_att, assault.melee_mods(False, False, attacker.has(Status.IMMOBILISED), False)),
        (
            defender,
            attacker,
            p_def,
            assault.melee_mods(
                bool(args["entrenched"]), behind, defender.has(Status.IMMOBILISED), is_gun(defender, p_def)
            ),
        ),
    ):
        all_mods = (ev.Mod(M("morale"), p.morale, "LT-R102"), *mods)
        (face,) = ctx.roll(
            M("melee with {other}, 1d6 + morale", other=other.name),
            1,
            step=dice_order.MELEE,
            mods=all_mods,
            total=True,
            rule="LT-R102",
            unit=piece.id,
            outcome=lambda f, m=all_mods: M("total {total}", total=f[0] + sum_mods(m)),  # type: ignore[misc]  # a lambda binding a value by default argument: mypy cannot infer it
            check=ev.Opposed(),  # LT-R102: against the other's total
        )
        totals.append(face + sum_mods(all_mods))
    winner = assault.melee_winner(*totals)
    score = M(
        "melee {attacker} {a} against {defender} {d}",
        attacker=attacker.name,
        a=totals[0],
        defender=defender.name,
        d=totals[1],
    )
    if winner == "both":
        ctx.emit(ev.Noted(text=M("{melee}: a tie, both are destroyed (LT-R102)", melee=score)))
        for piece in (attacker, defender):
            ctx.emit(ev.UnitOut(unit=piece.id, cause=M("destroyed in a melee")))
        return
    won, lost = (attacker, defender) if winner == "attacker" else (defender, attacker)
    ctx.emit(
        ev.Noted(
            text=M(
                "{melee}: {winner} wins and captures or destroys {loser} (LT-R102)",
                melee=score,
                winner=won.name,
                loser=lost.name,
            )
        )
    )
    ctx.emit(ev.UnitOut(unit=lost.id, cause=M("captured or destroyed in a melee with {winner}", winner=won.name)))
    if won.has(Status.IMMOBILISED):
        recover(ctx, won)
        say(ctx, won, M("{unit} wins the melee and is no longer immobilised (LT-R102)", unit=won.name))


_SIDE = Param(
    "side",
    "choice",
    "where the assault comes from",
    optional=True,
    default="front",
    choices=("front", "flank", "rear"),
    keyword=True,
)

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "overrun",
        "A tank overruns infantry or a gun during its move (LT-R100). Dice: the infantry's morale test "
        "(if it has portable AT weapons and is not immobilised), its first strike (if it passed), "
        "then the tank's d6 (if the target is in cover).",
        _overrun,
        params=(
            Param("tank", "own"),
            Param("target", "enemy"),
            flag("open", "the target is in the open: destroyed without a roll"),
            Param("plus", "int", "morale situations: +1 each (LT-R081)", optional=True, default=0, keyword=True),
        ),
        rule="LT-R100",
        examples=("overrun sherman1 grenadiers", "overrun panzer gis open"),
        phases=("card",),
        rolls=True,
        dice=(dice_order.OVERRUN_MORALE, dice_order.OVERRUN_FIRST_STRIKE, dice_order.OVERRUN_IN_COVER),
    ),
    CommandSpec(
        "closeassault",
        "Infantry assaults a tank from the flank or rear (LT-R101): 1d6 at or under its rating "
        "(1 improvised, 3 trained, 5 tank hunters; +1 no MG, -1 protected). Dice: one d6.",
        _close_assault,
        params=(
            Param("infantry", "own"),
            Param("tank", "enemy"),
            _SIDE,
            Param(
                "escort",
                "distance",
                "cm to the nearest infantry friendly to the tank (none: leave out)",
                optional=True,
                keyword=True,
                hi=MAX_DISTANCE_CM,
            ),
        ),
        rule="LT-R101",
        examples=("closeassault grenadiers sherman1 rear", "closeassault bazooka panzer flank escort=12"),
        phases=("card",),
        rolls=True,
        dice=(dice_order.CLOSE_ASSAULT,),
    ),
    CommandSpec(
        "melee",
        "Infantry assaults infantry or a gun (LT-R102): each rolls 1d6 + morale; the higher wins, "
        "a tie destroys both. Dice: the attacker's d6, then the defender's.",
        _melee,
        params=(
            Param("attacker", "own"),
            Param("defender", "enemy"),
            _SIDE,
            flag("entrenched", "the defender is entrenched: +2"),
        ),
        rule="LT-R102",
        examples=("melee gis grenadiers", "melee gis grenadiers rear", "melee gis pak entrenched"),
        phases=("card",),
        rolls=True,
        dice=(dice_order.MELEE,),
    ),
)
