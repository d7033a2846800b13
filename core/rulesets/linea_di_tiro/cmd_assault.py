"""Linea di Tiro assaults (C.9, "Assalto"): a tank overrunning infantry or a gun,
infantry assaulting a tank, and melee between infantry.

Opportunity shots that come before an assault (a gun or infantry attacked from
the front) are given first with ``at``/``mg ... opportunity``."""

from __future__ import annotations

from typing import Any

from core import events as ev
from core.ruleset import MAX_DISTANCE_CM, CommandSpec, Context, Param, Refused, possessive
from core.rulesets.linea_di_tiro import assault, rules
from core.rulesets.linea_di_tiro.cmd_fire import morale_mods
from core.rulesets.linea_di_tiro.commands import recover
from core.rulesets.linea_di_tiro.pieces import (
    activated,
    check_target,
    is_gun,
    is_tank,
    profile,
    require_able_to_fire,
    say,
    spend_attack,
    sum_mods,
)
from core.rulesets.linea_di_tiro.tables import assault as assault_table
from core.rulesets.linea_di_tiro.tables import movement
from core.state import Unit


def _flag(name: str, help: str) -> Param:
    return Param(name, "choice", help, optional=True, default=False, choices=(name,), keyword=True)


def _require_moving(ctx: Context, piece: Unit, what: str) -> None:
    option = activated(ctx, piece)
    if ctx.state.active_side != piece.side or option not in movement().options:
        raise Refused(f"{piece.name} {what} in the course of its move: activate it with A1, A2 or A5 first")


def _close_assault_roll(ctx: Context, infantry: Unit, tank: Unit, why: str) -> bool:
    """LT-R101: 1d6 at or under the infantry's rating (+1 no MG, -1 protected)."""
    table = assault_table()
    p_inf, p_tank = profile(ctx, infantry), profile(ctx, tank)
    rating = table.rating_of(infantry.roles, bool(p_inf.at), infantry.stats)
    has_mg = bool(p_tank.mg) and table.no_mg_role not in tank.roles
    mods = assault.close_assault_mods(tank_has_mg=has_mg, protected=table.protected_role in tank.roles)
    need = assault.close_assault_need(rating.rating, mods)
    (face,) = ctx.roll(
        f"{why} at {tank.name}, {rating.label} {rating.rating}",
        1,
        target=need,
        under=True,
        mods=mods,
        rule="LT-R101",
        unit=infantry.id,
        outcome=lambda f: "tank destroyed" if assault.close_assault_destroys(f[0], need) else "no effect",
    )
    if assault.close_assault_destroys(face, need):
        ctx.emit(ev.UnitOut(unit=tank.id, cause="destroyed in a close assault"))
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
        raise Refused(f"{tank.name} is not a tank: only tanks overrun (LT-R100)")
    if is_tank(profile(ctx, target)):
        raise Refused(f"{target.name} is a tank: tanks overrun infantry and guns (LT-R100)")
    require_able_to_fire(tank)
    _require_moving(ctx, tank, "overruns")
    p_inf = profile(ctx, target)
    portable_at = not p_inf.vehicle and (bool(p_inf.at) or assault_table().portable_at_role in target.roles)
    if assault.overrun_test_needed(portable_at, target.has("immobilised")):
        mods = morale_mods(target, args["plus"])
        value = p_inf.morale
        (face,) = ctx.roll(
            f"morale test against {possessive(tank.name)} overrun, morale {value}",
            1,
            mods=mods,
            total=True,
            rule="LT-R100",
            unit=target.id,
            outcome=lambda f: (
                "passed: it strikes first"
                if rules.morale_result(f[0] + sum_mods(mods), value) == "steady"
                else "failed: it stays in place"
            ),
        )
        if rules.morale_result(face + sum_mods(mods), value) == "steady":
            if _close_assault_roll(ctx, target, tank, "first strike"):
                return
        else:
            say(ctx, target, f"{target.name} fails its test and stays in place under the tank (LT-R100)")
    in_open = bool(args["open"])
    face = None
    if not in_open:
        need = assault_table().overrun_cover_max
        (face,) = ctx.roll(
            f"overrun of {target.name} in cover",
            1,
            target=need,
            under=True,
            rule="LT-R100",
            unit=tank.id,
            outcome=lambda f: "destroyed" if assault.overrun_destroys(False, f[0]) else "survives",
        )
    if assault.overrun_destroys(in_open, face):
        ctx.emit(ev.UnitOut(unit=target.id, cause="overrun by a tank"))
    else:
        say(ctx, target, f"{target.name} survives {possessive(tank.name)} overrun (LT-R100)")


def _close_assault(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R101: infantry assaults a tank from the flank or rear, when no infantry
    friendly to the tank is adjacent; 1d6 at or under its rating destroys the tank."""
    infantry, tank = ctx.unit(args["infantry"]), ctx.unit(args["tank"])
    check_target(infantry, tank)
    if profile(ctx, infantry).vehicle:
        raise Refused(f"{infantry.name} is not infantry (LT-R101)")
    if not is_tank(profile(ctx, tank)):
        raise Refused(f"{tank.name} is not a tank: infantry assaults infantry and guns with melee (LT-R102)")
    if infantry.has("immobilised"):
        raise Refused(f"{infantry.name} is immobilised and cannot move to assault (ruling LT-IMMOBILISED)")
    why = assault.can_assault_tank(args["side"] in ("flank", "rear"), args["escort"])
    if why:
        raise Refused(why)
    spend_attack(ctx, infantry, bool(args["ready"]))
    if not _close_assault_roll(ctx, infantry, tank, "close assault"):
        say(ctx, tank, f"{tank.name} survives the close assault (LT-R101)")


def _melee(ctx: Context, args: dict[str, Any]) -> None:
    """LT-R102/R103: each side rolls 1d6 + morale (+2 entrenched, -1 attacked from
    behind, -2 immobilised, -3 a gun); the higher captures or destroys the other, a tie
    destroys both; immobilised infantry that wins recovers."""
    attacker, defender = ctx.unit(args["attacker"]), ctx.unit(args["defender"])
    check_target(attacker, defender)
    p_att, p_def = profile(ctx, attacker), profile(ctx, defender)
    if p_att.vehicle:
        raise Refused(
            f"{attacker.name} cannot start a melee: "
            + ("guns cannot (LT-R103)" if is_gun(p_att) else "a tank overruns (overrun)")
        )
    if is_tank(p_def):
        raise Refused(f"{defender.name} is a tank: assault it with closeassault (LT-R101)")
    if attacker.has("immobilised"):
        raise Refused(f"{attacker.name} is immobilised and cannot move to assault (ruling LT-IMMOBILISED)")
    spend_attack(ctx, attacker, bool(args["ready"]))
    behind = args["side"] == "rear"
    totals = []
    for piece, other, p, mods in (
        (attacker, defender, p_att, assault.melee_mods(False, False, attacker.has("immobilised"), False)),
        (
            defender,
            attacker,
            p_def,
            assault.melee_mods(bool(args["entrenched"]), behind, defender.has("immobilised"), is_gun(p_def)),
        ),
    ):
        all_mods = (ev.Mod("morale", p.morale, "LT-R102"), *mods)
        (face,) = ctx.roll(
            f"melee with {other.name}, 1d6 + morale",
            1,
            mods=all_mods,
            total=True,
            rule="LT-R102",
            unit=piece.id,
            outcome=lambda f, m=all_mods: f"total {f[0] + sum_mods(m)}",
        )
        totals.append(face + sum_mods(all_mods))
    winner = assault.melee_winner(*totals)
    text = f"melee {attacker.name} {totals[0]} against {defender.name} {totals[1]}"
    if winner == "both":
        ctx.emit(ev.Noted(text=f"{text}: a tie, both are destroyed (LT-R102)"))
        for piece in (attacker, defender):
            ctx.emit(ev.UnitOut(unit=piece.id, cause="destroyed in a melee"))
        return
    won, lost = (attacker, defender) if winner == "attacker" else (defender, attacker)
    ctx.emit(ev.Noted(text=f"{text}: {won.name} wins and captures or destroys {lost.name} (LT-R102)"))
    ctx.emit(ev.UnitOut(unit=lost.id, cause=f"captured or destroyed in a melee with {won.name}"))
    if won.has("immobilised"):
        recover(ctx, won)
        say(ctx, won, f"{won.name} wins the melee and is no longer immobilised (LT-R102)")


_SIDE = Param(
    "side",
    "choice",
    "where the assault comes from",
    optional=True,
    default="front",
    choices=("front", "flank", "rear"),
    keyword=True,
)
_READY = _flag("ready", "assault with a prepared attack (out of the activation)")

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
            _flag("open", "the target is in the open: destroyed without a roll"),
            Param("plus", "int", "morale situations: +1 each (LT-R081)", optional=True, default=0, keyword=True),
        ),
        rule="LT-R100",
        examples=("overrun sherman1 grenadiers", "overrun panzer gis open"),
        phases=("card",),
        rolls=True,
        dice=(
            "infantry in the open: its morale test, 1d6 + modifiers",
            "if steady: its first strike, 1d6 at or under its rating",
            "infantry in cover: the overrun, 1d6",
        ),
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
            _READY,
        ),
        rule="LT-R101",
        examples=("closeassault grenadiers sherman1 rear", "closeassault bazooka panzer flank escort=12"),
        phases=("card",),
        rolls=True,
        dice=("close assault: 1d6 at or under the infantry's rating",),
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
            _flag("entrenched", "the defender is entrenched: +2"),
            _READY,
        ),
        rule="LT-R102",
        examples=("melee gis grenadiers", "melee gis grenadiers rear", "melee gis pak entrenched"),
        phases=("card",),
        rolls=True,
        dice=("each side's melee: 1d6 + morale, the attacker first",),
    ),
)
