"""The Ludonet unit ("reparto", LN-R070): its morale test, and reinforcements that
end its retreat (rulings LN-MORALE, LN-REINFORCE)."""

from __future__ import annotations

from typing import Any

from core.language.i18n import M, Text, scenario_words
from core.log import events as ev
from core.log.state import GameState
from core.ruleset import TYPING, CommandSpec, Context, Param, Refused
from core.rulesets.ludonet import dice_order, rules
from core.rulesets.ludonet.commands.melee import locked_with
from core.rulesets.ludonet.pieces import (
    MAN,
    audience,
    find_team,
    is_aircraft,
    require_in_play,
    starting_strength,
    strength,
    team_of,
    team_var,
)
from core.rulesets.ludonet.words import DOMAIN, _, listed, owner

RETREATING = "retreating"


def tested_var(team: str) -> str:
    """The losses the unit's morale tests have answered (LN-R070: a test at half, and one
    at every further loss)."""
    return f"morale_lost.{team}"


def losses(state: GameState, team: str) -> tuple[int, int, int]:
    """(starting strength, figures lost now, losses its tests have answered)."""
    start = starting_strength(state, team)
    last = state.vars.get(tested_var(team), 0)
    return start, max(0, start - strength(state, team)), last if isinstance(last, int) else 0


def due(state: GameState, side: str) -> list[Text]:
    """The side's units whose morale test is due (LN-R070), each with its losses."""
    said: list[Text] = []
    for team in sorted({u.team for u in state.units_of(side) if u.team}):
        start, lost, last = losses(state, team)
        if rules.morale_due(start, lost, last):
            said.append(M("{team} ({lost} of {start} lost)", team=team, lost=lost, start=start))
    return said


def announce_due(ctx: Context) -> None:
    """As the morale phase begins, each side is told which of its units must test."""
    for side in ctx.state.sides:
        if teams := due(ctx.state, side):
            ctx.emit(ev.Noted(text=M("morale tests due (LN-R070): {teams}", teams=listed(teams)), vis=(side,)))


def require_none_due(state: GameState) -> None:
    """LN-R070: a unit at half its losses, or at a further loss, rolls its 1d6; the morale
    phase does not end before every such test is rolled."""
    teams = [team for side in state.sides for team in due(state, side)]
    if teams:
        said = _("morale tests are due first: morale TEAM for {teams} (LN-R070)")
        raise Refused(said.format(teams=DOMAIN.render(listed(teams))), rule=("LN-R070", "LN-AMB-16"))


def _morale(ctx: Context, args: dict[str, Any]) -> None:
    """LN-R070: a unit at half its starting strength or less rolls 1d6, and again at
    each further loss, one test for each (two lost at once beyond half, two tests);
    1-2 and it falls back."""
    s = ctx.state
    team = find_team(s, args["team"])
    start, lost, last = losses(s, team)
    if not rules.morale_due(start, lost, last):
        if start and lost >= start:
            raise Refused(
                _("{team} has nobody left in play to test (LN-R070)").format(team=scenario_words(team)), rule="LN-R070"
            )
        if lost and lost <= last:
            raise Refused(
                _("{team} tested at {last} lost of {start}: it tests again at its next loss (LN-R070)").format(
                    team=scenario_words(team), last=last, start=start
                ),
                rule=("LN-R070", "LN-AMB-16"),
            )
        raise Refused(
            _("{team} has lost {lost} of {start}: no test below half (LN-R070)").format(
                team=scenario_words(team), lost=lost, start=start
            ),
            rule="LN-R070",
        )
    ctx.emit(ev.VarSet(key=tested_var(team), value=rules.losses_tested_after(start, last)))
    (face,) = ctx.roll(
        M("morale of {team}", team=team),
        1,
        step=dice_order.MORALE,
        side=next((u.side for u in s.units.values() if team_of(s, u) == team), ""),
        rule="LN-R070",
        outcome=lambda f: M("shaken: falls back") if rules.shaken(f[0]) else M("holds"),
        check=rules.morale_check(),
    )
    if rules.shaken(face):
        for u in list(s.units.values()):
            if u.in_play and team_of(s, u) == team and not u.has(RETREATING):
                ctx.emit(ev.StatusChanged(unit=u.id, add=(RETREATING,)))


def _reinforce(ctx: Context, args: dict[str, Any]) -> None:
    """LN-R070 (ruling LN-REINFORCE): figures join the unit of ``member``; back at its
    starting strength, a retreating unit stops retreating, else they retreat with it."""
    s = ctx.state
    member = ctx.unit(args["member"])
    team = team_of(s, member)
    if not team:
        raise Refused(_("{unit} belongs to no unit").format(unit=member.name), rule="LN-R070")
    joining = [ctx.unit(u) for u in args["figures"]]
    if not joining:
        raise Refused(_("name the figures that join {team}").format(team=scenario_words(team)), rule=TYPING)
    if len({u.id for u in joining}) != len(joining):
        raise Refused(_("each figure is named once"), rule=TYPING)
    kinds = {u.kind for u in s.units.values() if team_of(s, u) == team}
    for u in joining:
        require_in_play(u)
        if is_aircraft(u):
            raise Refused(_("{unit} is an aircraft: it joins no unit").format(unit=u.name), rule="LN-R070")
        if u.kind not in kinds:
            # LN-R070: reinforcements make up "il numero" of the unit: a tank is not one of
            # a squad's figures, nor a figure one of a troop's tanks
            said = (
                _("{unit} is a vehicle: it makes up no unit of figures")
                if u.kind != MAN
                else _("{unit} is a figure: it makes up no unit of vehicles")
            )
            raise Refused(said.format(unit=u.name), rule="LN-R070")
        for other in locked_with(s, u):
            # LN-R052: a figure still in a melee gets away only by leaving it
            raise Refused(
                _("{unit} is in a melee with {other}: it leaves it first (leave, LN-R052)").format(
                    unit=u.name, other=other.name
                ),
                rule="LN-R052",
            )
        if u.side != member.side:
            raise Refused(
                _("{unit} is not on {whose} side").format(unit=u.name, whose=owner(member.name)), rule="LN-R070"
            )
        if team_of(s, u) == team:
            raise Refused(
                _("{unit} is already in {team}").format(unit=u.name, team=scenario_words(team)), rule="LN-R070"
            )
        if u.has(RETREATING):
            raise Refused(_("{unit} is retreating with its own unit").format(unit=u.name), rule="LN-R070")
    for u in joining:
        ctx.emit(ev.VarSet(key=team_var(u.id), value=team, vis=audience(u)))
    answered = losses(s, team)[2]
    if answered:
        # Ruling LN-REINFORCE: each man who joins makes up a loss its tests answered, so the
        # loss after him is a further loss again, and a unit made up to strength tests at half.
        ctx.emit(ev.VarSet(key=tested_var(team), value=max(0, answered - len(joining))))
    start, now = starting_strength(s, team), strength(s, team)
    retreating = [u for u in s.units.values() if u.in_play and team_of(s, u) == team and u.has(RETREATING)]
    if not retreating:
        return
    vis = audience(member, *joining)
    if rules.retreat_ends(start, now):
        for u in retreating:
            ctx.emit(ev.StatusChanged(unit=u.id, remove=(RETREATING,)))
        text = M("{team} is back to {now} of {start}: the retreat ends (LN-R070)", team=team, now=now, start=start)
    else:
        # LN-R070: "the unit retreats": the men who joined it retreat with it
        for u in joining:
            ctx.emit(ev.StatusChanged(unit=u.id, add=(RETREATING,)))
        text = M("{team} is at {now} of {start}: it keeps retreating (LN-R070)", team=team, now=now, start=start)
    ctx.emit(ev.Noted(text=text, vis=vis))


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "morale",
        "A unit at half strength or less tests morale: 1d6, 1-2 it falls back until reinforced. Dice: 1d6.",
        _morale,
        params=(Param("team", "team", "the unit (its team name, or any word of it)"),),
        rule="LN-R070",
        examples=("morale Section 1", "morale gruppe vogt dice=2"),
        phases=("morale",),
        rolls=True,
        dice=(dice_order.MORALE,),
    ),
    CommandSpec(
        "reinforce",
        "Figures join the unit of a member (in their side's move); back to its starting strength, "
        "a retreating unit stops retreating. No dice.",
        _reinforce,
        params=(
            Param("member", "own", "any figure of the unit reinforced"),
            Param("figures", "own", "the figures that join it", optional=True, many=True),
        ),
        rule="LN-R070",
        examples=("reinforce fritz karl", "reinforce hans karl max"),
        phases=("move-first", "move-second"),
    ),
)
