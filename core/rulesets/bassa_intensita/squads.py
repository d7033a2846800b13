"""Squads, leaders and isolation (A.4) read from the state.

A squad or section is a ``team``.  Its leader is the man in play with the ``leader``
or ``section-leader`` role, or the ``leader`` badge (a replacement gets the badge,
BI-R028); a section's replacement leads it at a section leader's distance.  A leader's ability is his
``ability-<tier>`` badge (a replacement's), else his ``ability`` stat (a Quality
chance, 6 Elite … 2 Rabble; BI-R022), else his own Quality.
"""

from __future__ import annotations

from collections import Counter

from core.log.state import GameState, Unit
from core.rulesets.bassa_intensita.tables import command_distance, tier_by_id, tiers
from core.rulesets.bassa_intensita.terms import Status


def is_leader(unit: Unit) -> bool:
    """A squad leader or a section leader (BI-R020: each leads his own men), or the man who
    replaced one (BI-R028)."""
    return "leader" in unit.roles or "section-leader" in unit.roles or unit.has(Status.LEADER)


def team_of(state: GameState, unit: Unit) -> list[Unit]:
    """The other men of his squad or section (in play or not)."""
    if not unit.team:
        return []
    return [u for u in state.units.values() if u.team == unit.team and u.side == unit.side and u.id != unit.id]


def team_leader(state: GameState, side: str, team: str) -> Unit | None:
    """Who commands a squad: its leader in play, the best by Quality if it has two (a
    platoon commander with a squad's sergeant; ruling BI-LEADER)."""
    order = [t.id for t in tiers()]
    leaders = [u for u in state.units.values() if u.side == side and u.team == team and u.in_play and is_leader(u)]
    if not team or not leaders:
        return None
    return min(leaders, key=lambda u: order.index(u.cls) if u.cls in order else len(order))


def commands(state: GameState, unit: Unit) -> bool:
    """Whether he is the one commanding his squad now."""
    leader = team_leader(state, unit.side, unit.team)
    return leader is not None and leader.id == unit.id


def leader_of(state: GameState, unit: Unit) -> Unit | None:
    """His squad's leader in play (None if the squad has none, or he is the leader)."""
    leader = team_leader(state, unit.side, unit.team)
    return None if leader is None or leader.id == unit.id else leader


def leader_lost(state: GameState, unit: Unit) -> bool:
    """BI-R028: his squad's leader was killed (or taken) and nobody has replaced him yet.
    A wounded leader still leads (ruling BI-LEADER, digest BI-AMB-10)."""
    if not unit.team or is_leader(unit):
        return False
    team = team_of(state, unit)
    had = any(is_leader(u) for u in team)
    return had and not any(u.in_play and is_leader(u) for u in team)


def ability(unit: Unit) -> str:
    """A leader's ability as a Quality tier id (BI-R022)."""
    for t in tiers():
        if unit.has(f"ability-{t.id}"):
            return t.id
    chance = unit.stats.get("ability")
    if chance is not None:
        by_chance = {t.chance: t.id for t in tiers()}
        if chance in by_chance:
            return by_chance[chance]
    return unit.cls


def one_level_lower(tier: str) -> str:
    """BI-R028: Elite → Veteran → … → Rabble; Rabble stays Rabble (ruling BI-LEADER-FLOOR)."""
    order = [t.id for t in tiers()]
    return order[min(order.index(tier) + 1, len(order) - 1)] if tier in order else order[-1]


def squad_quality(men: list[Unit]) -> str:
    """The Quality of a squad whose men differ: the most common among them, the better
    one on a tie (ruling BI-SQUAD-QUALITY)."""
    order = [t.id for t in tiers()]
    counts = Counter(u.cls for u in men if u.cls in order)
    if not counts:
        return ""
    return min(counts, key=lambda tier: (-counts[tier], order.index(tier)))


def leads_section(state: GameState, leader: Unit) -> bool:
    """Whether he leads a section, not a squad (BI-R020): he has the section-leader role,
    or he replaced one (BI-R028): the man who takes over a section leads that section, at
    a section leader's command distance, or none if his ability may not lead one (BI-R021)."""
    return "section-leader" in leader.roles or any("section-leader" in u.roles for u in team_of(state, leader))


def command_range(leader: Unit, section: bool) -> int | None:
    """BI-R021: the command distance of this leader in cm; None where he may not lead."""
    row = command_distance().get(ability(leader))
    if row is None:
        return None
    return row.section if section else row.squad


def quality_chance(tier: str) -> int:
    return tier_by_id()[tier].chance


def motivation(unit: Unit) -> int:
    """BI-R011: the referee's ±1 for motivation or fatigue: the piece's ``motivation``
    stat, or a ``motivation+1`` / ``motivation-1`` badge given in play (the badge wins).
    It moves the number, not the tier (ruling BI-MOTIVATION, digest BI-AMB-04)."""
    if unit.has(Status.MOTIVATION_PLUS_1):
        return 1
    if unit.has(Status.MOTIVATION_MINUS_1):
        return -1
    return max(-1, min(1, unit.stats.get("motivation", 0)))


def chance(unit: Unit) -> int | None:
    """The unit's 1d10 chance of success (BI-R010), motivation included; None without a Quality."""
    tier = tier_by_id().get(unit.cls)
    return None if tier is None else tier.chance + motivation(unit)
