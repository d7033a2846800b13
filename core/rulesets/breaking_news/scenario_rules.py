"""What a Breaking News scenario file adds to the common one (scenario_format.py):
the mission, the last turn, the points limit, which sides play as a platoon, what
their forces are and the EXTRAS they bought.

    mission = 2            # §4.1; 0 = the scenario sets its own objectives
    turns = 6              # the last turn (0 = until a side breaks or leaves)
    points = 150           # the army limit the sides were built to
    platoon = ["regulars"] # §13.0
    [forces]
    regulars = "msu"       # for the restricted extras
    [extras.regulars]      # as a roster's [extras] (docs/rosters.md)
    negotiation = 2
"""

from __future__ import annotations

import msgspec

from core.language.i18n import M
from core.log import events as ev
from core.ruleset import Context
from core.rulesets.breaking_news.campaign import army, objectives
from core.rulesets.breaking_news.ledger import set_var
from core.rulesets.common import Scenario


class ScenarioRules(msgspec.Struct, frozen=True):
    id: str
    mission: int = 0
    turns: int = 0
    points: int = 0
    platoon: tuple[str, ...] = ()
    forces: dict[str, str] = {}
    extras: dict[str, army.RosterExtras] = {}


def rosters(sc: Scenario, rules: ScenarioRules) -> dict[str, army.Roster]:
    """Each side of a scenario as a roster, to cost and check it."""
    out = {}
    for side in sc.sides:
        units = tuple(army.roster_unit(u) for u in sc.units if u.side == side.id)
        out[side.id] = army.Roster(
            name=side.name,
            army=side.army,
            force=rules.forces.get(side.id, ""),
            platoon=side.id in rules.platoon,
            limit=rules.points,
            units=units,
            extras=rules.extras.get(side.id, army.RosterExtras()),
        )
    return out


def apply(ctx: Context, sc: Scenario, rules: ScenarioRules) -> None:
    """After the common set-up: the game's rules and each side's force."""
    for key, value in (("mission", rules.mission), ("turns", rules.turns), ("points", rules.points)):
        if value:
            set_var(ctx, key, value)
    if rules.mission:
        mission = M(objectives.MISSIONS[rules.mission])
        ctx.emit(ev.Noted(text=M("mission {n}: {what} (§4.1)", n=rules.mission, what=mission)))
    for side, roster in rosters(sc, rules).items():
        army.record_force(ctx, side, roster.extras, roster.force, roster.platoon)
        cost = army.total_cost(roster, ctx.ruleset.variant)
        if rules.points:
            text = M(
                "{side}: {force}, {cost} points of {limit}", side=side, force=roster.name, cost=cost, limit=rules.points
            )
        else:
            text = M("{side}: {force}, {cost} points", side=side, force=roster.name, cost=cost)
        ctx.emit(ev.Noted(text=text))
