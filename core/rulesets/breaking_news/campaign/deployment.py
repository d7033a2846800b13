"""Deployment (§4.2) and the troops that come on later (Extras: Infiltrators, Ambush).

Each player rolls 1d6 + his squad commander's leadership; the higher is the
First player (ties roll again), and every figure goes ``off-table``.  Then
the Second player fields at least half his force, the First at least half of
his, the Second the rest, the First the rest.  Journalists and civilians are not
part of a force and come on at any point of the deployment.  Infiltrators (role
``infiltrator``) deploy after everyone else; ambushers (role ``ambush``) stay
off the table until their owner springs the ambush at the end of a turn.

A scenario whose figures are simply set up may skip all this: ``next`` in the
deployment phase with nobody deployed yet puts every figure on the table as the
scenario shows (rulings BN-DEP-QUICK).
"""

from __future__ import annotations

from typing import Any

from core.language.i18n import M, Msg
from core.log import events as ev
from core.log.state import GameState, Unit
from core.ruleset import CommandSpec, Context, Param, Refused
from core.rulesets.breaking_news import dice_order
from core.rulesets.breaking_news.campaign import forces, objectives
from core.rulesets.breaking_news.ledger import extra, irregular_side, set_var, var
from core.rulesets.breaking_news.tables import leadership_modifier
from core.rulesets.breaking_news.terms import Kind
from core.rulesets.breaking_news.words import _

OFF = "off-table"
AMBUSH, INFILTRATOR = "ambush", "infiltrator"


def is_force(u: Unit) -> bool:
    """A figure of the force that the 50% rule counts: men and vehicles, not reserves."""
    return u.kind in (Kind.MAN, Kind.VEHICLE) and AMBUSH not in u.roles and INFILTRATOR not in u.roles


def force(state: GameState, side: str) -> list[Unit]:
    return [u for u in state.units.values() if u.side == side and is_force(u)]


def placed(state: GameState, side: str) -> int:
    return sum(1 for u in force(state, side) if OFF not in u.status)


def half(n: int) -> int:
    """ "At least 50%": half, rounded up."""
    return (n + 1) // 2


def all_placed(state: GameState, side: str) -> bool:
    return placed(state, side) == len(force(state, side))


def started(state: GameState) -> bool:
    """Has the deployment roll been made?"""
    return bool(var(state, "first_player", ""))


def missing(state: GameState) -> list[str]:
    """What must still happen before the first turn."""
    out = []
    if not var(state, "first_player", ""):
        out.append(_("the deployment roll (rolloff)"))
    for side in state.sides:
        waiting = [u.name for u in state.units.values() if u.side == side and OFF in u.status and AMBUSH not in u.roles]
        if waiting:
            out.append(_("{side} to deploy {waiting}").format(side=state.side_name(side), waiting=", ".join(waiting)))
    out += objective_steps(state, with_die=True)
    for side in state.sides:
        if extra(state, side, "helicopter") and f"helicopter.{side}.turn" not in state.secrets:
            out.append(
                _("{side} to note the helicopter's landing marker and turn (helicopter)").format(
                    side=state.side_name(side)
                )
            )
    return out


def step(state: GameState) -> Msg | None:
    """Whose step of §4.2's order it is, once the deployment roll is made (the Second
    player fields at least half his force, the First at least half of his, the Second
    the rest, the First the rest), and how; once the forces are placed, what is left before
    the first turn (journalists, civilians, the secret die …) or that next begins it.
    None before the roll."""
    if not var(state, "first_player", "") or not var(state, "second_player", ""):
        return None
    due = _due(state)
    if due is None:
        todo = missing(state)
        if todo:
            return M("before the first turn: {steps}", steps="; ".join(todo))
        return M("everyone is deployed: next begins the first turn")
    side, role, what = due
    return M(
        "{side}, {role}: deploy {what} (deploy TEAM, or figures one by one)",
        side=side,
        role=role,
        what=what,
    )


def whose_step(state: GameState) -> str:
    """The side whose step of §4.2's order it is (``step``); "" before the deployment roll
    and once both forces are placed."""
    due = _due(state)
    return due[0] if due else ""


def _due(state: GameState) -> tuple[str, Msg, Msg] | None:
    """The side whose step of §4.2's order it is, as the First or the Second player, and
    what it fields; None before the deployment roll and once both forces are placed."""
    first, second = var(state, "first_player", ""), var(state, "second_player", "")
    if not first or not second:
        return None
    stage = int(var(state, "deploy.stage", 1))
    # The stage moves on when the other side deploys (_step): read where each side stands.
    if stage == 1 and placed(state, second) < half(len(force(state, second))):
        return second, M("the Second player"), M("at least half their force")
    if stage <= 2 and placed(state, first) < half(len(force(state, first))):
        return first, M("the First player"), M("at least half their force")
    if stage <= 3 and not all_placed(state, second):
        return second, M("the Second player"), M("the rest of their force")
    if not all_placed(state, first):
        return first, M("the First player"), M("the rest of their force")
    return None


def objective_steps(state: GameState, *, with_die: bool) -> list[str]:
    out = []
    m = objectives.mission(state)
    if m:
        for side in state.sides:
            if objectives.defends(state, side) and not objectives.markers(state, side):
                out.append(
                    _("{side} to choose their objectives (objectives {id} MAIN SECOND SECOND)").format(
                        side=state.side_name(side), id=side
                    )
                )
        if with_die and m == 2 and objectives.DIE not in state.secrets:
            out.append(
                _("{irregular_side} to roll the secret objective die (objective-roll)").format(
                    irregular_side=state.side_name(irregular_side(state))
                )
            )
    return out


def quick_start(ctx: Context) -> None:
    """The scenario's set deployment: the figures stay where the scenario puts them
    (ambushers off the table), and the Irregular player's secret die is rolled for
    him if it is due."""
    steps = objective_steps(ctx.state, with_die=False)
    if steps:
        raise Refused(_("before the first turn: {steps}").format(steps="; ".join(steps)), rule=("DEP-3", "OBJ-1"))
    if objectives.mission(ctx.state) == 2 and objectives.DIE not in ctx.state.secrets:
        objectives.roll_die(ctx)
    for u in list(ctx.state.units.values()):
        if AMBUSH in u.roles and OFF not in u.status:
            ctx.emit(ev.StatusChanged(unit=u.id, add=(OFF,)))
    ctx.emit(ev.Noted(text=M("the figures are placed as the scenario sets them up (§4.2 not used)")))


# --------------------------------------------------------------------- commands


def _rolloff(ctx: Context, args: dict[str, Any]) -> None:
    if var(ctx.state, "first_player", ""):
        raise Refused(
            _("{first_player} won the deployment roll already").format(first_player=var(ctx.state, "first_player")),
            rule=("DEP-1", "AMB-05"),
        )
    sides = list(ctx.state.sides)
    if len(sides) != 2:
        raise Refused(_("the deployment roll needs two sides"), rule=("DEP-1", "AMB-05"))
    while True:
        totals = {}
        for side in sides:
            chief = forces.commander(ctx.state, side)
            mod = leadership_modifier(chief.leadership) if chief else 0
            mods = (ev.Mod(M("squad commander's leadership"), mod, "§4.2"),) if mod else ()
            (face,) = ctx.roll(
                M("deployment"),
                1,
                step=(dice_order.NEXT_SETUP, dice_order.ROLLOFF),
                side=side,
                mods=mods,
                total=True,
                rule="§4.2",
                outcome=lambda f, mod=mod: M("total {n}", n=f[0] + mod),  # type: ignore[misc]  # a lambda binding a value by default argument: mypy cannot infer it
                check=ev.Opposed(),  # §4.2: against the other side's roll
            )
            totals[side] = face + mod
        if totals[sides[0]] != totals[sides[1]]:
            break
        ctx.emit(
            ev.Noted(text=M("deployment roll tied at {n}: both roll again (rulings BN-DEP-TIE)", n=totals[sides[0]]))
        )
    first = max(sides, key=lambda s: totals[s])
    second = ctx.state.other_side(first)
    for u in list(ctx.state.units.values()):
        if OFF not in u.status:
            ctx.emit(ev.StatusChanged(unit=u.id, add=(OFF,)))
    set_var(ctx, "first_player", first)
    set_var(ctx, "second_player", second)
    set_var(ctx, "deploy.stage", 1)
    ctx.emit(
        ev.Noted(
            text=M(
                "{first} are the First player and choose a table edge; {second} take the opposite one. "
                "Markers go down one by one, {second} first, at least 10 cm apart and 5 cm from the edges; "
                "then {second} field at least half their force within 30 cm of their edge (§4.2)",
                first=first,
                second=second,
            )
        )
    )


def _deploy(ctx: Context, args: dict[str, Any]) -> None:
    units = [ctx.unit(uid) for uid in args["units"]]
    sides = {u.side for u in units}
    if len(sides) != 1:
        raise Refused(_("deploy one side's figures at a time"), rule="DEP-3")
    (side,) = sides
    first, second = var(ctx.state, "first_player", ""), var(ctx.state, "second_player", "")
    if not first:
        raise Refused(_("roll for deployment first: rolloff (§4.2)"), rule=("DEP-3", "DEP-4"))
    for u in units:
        _check_waiting(ctx.state, u)
    if any(is_force(u) for u in units):
        set_var(ctx, "deploy.stage", _stage_after(ctx.state, side, first, second))
    for u in units:
        ctx.emit(ev.StatusChanged(unit=u.id, remove=(OFF,)))
    if any(INFILTRATOR in u.roles for u in units):
        ctx.emit(ev.Noted(text=M("infiltrators: anywhere on the table, but not within 15 cm of a marker or an enemy")))


def waiting(u: Unit) -> bool:
    """A figure a team's name deploys (``deploy warsame``): one waiting off the table to
    come on now, not one held back for an ambush or to infiltrate (named one by one)."""
    return OFF in u.status and AMBUSH not in u.roles and INFILTRATOR not in u.roles


def _check_waiting(state: GameState, u: Unit) -> None:
    """Refused unless ``u`` waits off the table to come on now (not held back for an ambush,
    nor an infiltrator before everyone else is placed)."""
    if OFF not in u.status:
        raise Refused(_("{name} is on the table already").format(name=u.name), rule=("DEP-3", "DEP-4"))
    if AMBUSH in u.roles:
        raise Refused(
            _("{name} is held back for an ambush: he comes on at the end of a turn (ambush)").format(name=u.name),
            rule=("EXT-2", "DEP-4"),
        )
    if INFILTRATOR in u.roles and not all(all_placed(state, s) for s in state.sides):
        raise Refused(
            _("{name} infiltrates after both sides have deployed (Extras: Infiltrators)").format(name=u.name),
            rule="EXT-1",
        )


def deployable(state: GameState, u: Unit) -> bool:
    """Whether ``deploy`` takes ``u`` now, as its own checks say (§4.2): Tab offers the
    figures of the side whose step it is first, and those it would refuse after them (the
    other side's force, out of its turn; an ambusher; an infiltrator too early).  Before
    the deployment roll every figure is refused alike: those off the table come first."""
    first, second = var(state, "first_player", ""), var(state, "second_player", "")
    if not first:
        return OFF in u.status
    try:
        _check_waiting(state, u)
        if is_force(u):
            _stage_after(state, u.side, first, second)
    except Refused:
        return False
    return True


def _stage_after(s: GameState, side: str, first: str, second: str) -> int:
    """§4.2's order: Second ≥ 50%, First ≥ 50%, Second the rest, First the rest: the step
    the deployment is at once ``side`` has fielded figures of its force, or Refused."""
    stage = int(var(s, "deploy.stage", 1))
    if side == first:
        if stage == 1:
            if placed(s, second) < half(len(force(s, second))):
                raise Refused(
                    _("{second}, the Second player, field at least half their force first (§4.2)").format(
                        second=s.side_name(second)
                    ),
                    rule="DEP-3",
                )
            stage = 2
        elif stage == 3:
            if not all_placed(s, second):
                raise Refused(
                    _("{second} deploy the rest of their force before {first} deploy theirs (§4.2)").format(
                        second=s.side_name(second), first=s.side_name(first)
                    ),
                    rule="DEP-3",
                )
            stage = 4
    else:
        if stage == 2:
            if placed(s, first) < half(len(force(s, first))):
                raise Refused(
                    _("{first}, the First player, field at least half their force now (§4.2)").format(
                        first=s.side_name(first)
                    ),
                    rule="DEP-3",
                )
            stage = 3
    return stage


def _ambush(ctx: Context, args: dict[str, Any]) -> None:
    units = [ctx.unit(uid) for uid in args["units"]]
    sides = {u.side for u in units}
    if len(sides) != 1:
        raise Refused(_("one side's ambush at a time"), rule=("EXT-2", "AMB-57"))
    (side,) = sides
    bought, used = extra(ctx.state, side, "ambush"), int(var(ctx.state, f"ambush_used.{side}", 0))
    if used >= bought:
        raise Refused(
            _("{side} have no ambush left (Extras: Ambush: {bought} bought)").format(
                side=ctx.state.side_name(side), bought=bought
            ),
            rule="EXT-2",
        )
    for u in units:
        if AMBUSH not in u.roles or OFF not in u.status:
            raise Refused(_("{name} is not waiting in ambush").format(name=u.name), rule=("EXT-2", "AMB-57"))
    for u in units:
        ctx.emit(ev.StatusChanged(unit=u.id, remove=(OFF,)))
    set_var(ctx, f"ambush_used.{side}", used + 1)
    set_var(ctx, f"ambush.{side}", 1)
    ctx.emit(
        ev.Noted(
            text=M(
                "{side} spring an ambush: on their own half, not within 15 cm of an objective or an enemy; "
                "+1 to their next initiative (Extras: Ambush)",
                side=side,
            )
        )
    )


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "rolloff",
        "The deployment roll: 1d6 + squad commander's leadership each; the higher is the First player.",
        _rolloff,
        rule="§4.2",
        examples=("rolloff", "rolloff dice=3,5"),
        phases=("deployment",),
        who="referee",
        rolls=True,
        dice=(dice_order.ROLLOFF,),
    ),
    CommandSpec(
        "deploy",
        "Put figures, or a whole team, on the table, in the order of §4.2 (Second half, First half, "
        "Second rest, First rest).",
        _deploy,
        params=(
            Param(
                "units",
                "own",
                "the figures, or a team (its figures still off the table)",
                many=True,
                team_members=waiting,
            ),
        ),
        rule="§4.2",
        examples=("deploy aden ahmed bashir", "deploy warsame"),
        phases=("deployment",),
    ),
    CommandSpec(
        "ambush",
        "End of turn: bring on figures held back for an ambush (+1 to the next initiative).",
        _ambush,
        params=(Param("units", "own", "the ambushers", many=True),),
        rule="Extras: Ambush",
        examples=("ambush dahir egal",),
        phases=("end",),
    ),
)
