"""A side's force: its men, its commander, its squads or sections, its quality,
and which of its men count as lost.

A squad-level game (the default) gives each side one squad: its fire teams
(``Unit.team``) are parts of that squad, and the squad tests morale as one
(§12.0; rulings BN-MOR-SQUAD).  A side that plays as a platoon (§13.0, ``platoon``
in the scenario or roster) has squads and independent sections instead: then
``Unit.team`` names the squad or section.

Losses are read from the facts combat records: ``UnitOut`` with a cause
``"<what> by <side>"`` (core.rulesets.breaking_news.hits).  A man killed, badly
wounded, dead of wounds or captured is lost; a stabilised man is not (§9.3), nor
one who left the field on his own feet (exfiltration, the helicopter).
"""

from __future__ import annotations

from collections import defaultdict

from core.language.i18n import N_
from core.log.state import GameState, Unit
from core.rulesets.breaking_news import hits
from core.rulesets.breaking_news.ledger import var
from core.rulesets.breaking_news.rules import side_quality
from core.rulesets.breaking_news.tables import troop_classes
from core.rulesets.breaking_news.terms import Kind

CAPTURED = N_("captured")
LEFT = N_("left the field")
EVACUATED = N_("evacuated by helicopter")

#: Causes that make a man a loss (§12.0 "dead or non-stabilised wounded"; captured: AMB-52).
LOSS_CAUSES = frozenset({hits.KILLED, hits.WOUNDED, hits.DIED, CAPTURED})
#: Causes that mean the man is dead (the English §12.0 doubles a *killed* leader).
DEAD_CAUSES = frozenset({hits.KILLED, hits.DIED})


#: Causes that make a vehicle a loss: knocked out or destroyed by fire (§9.2).
VEHICLE_LOSS_CAUSES = frozenset({hits.KNOCKED_OUT, hits.DESTROYED})


def pieces_lost(state: GameState, side: str) -> tuple[int, int]:
    """A side's fighting pieces lost, of all it has, as a scenario's break point counts them
    (ruling CORE-BREAK-AT): its men lost as §12.0 counts a loss and its vehicles knocked out
    or destroyed; journalists and civilians are no side's fighting pieces, and a man who
    left the field on his own feet is not lost."""
    pieces = [u for u in state.units.values() if u.side == side and u.kind in (Kind.MAN, Kind.VEHICLE)]
    return sum(1 for u in pieces if _piece_lost(u)), len(pieces)


def _piece_lost(unit: Unit) -> bool:
    if unit.kind == Kind.MAN:
        return is_loss(unit)
    return bool(unit.out) and hits.parse_cause(unit.out)[0] in VEHICLE_LOSS_CAUSES


def men(state: GameState, side: str) -> list[Unit]:
    """The fighting men of a side: not vehicles, journalists or civilians."""
    return [u for u in state.units.values() if u.side == side and u.kind == Kind.MAN]


def is_loss(unit: Unit) -> bool:
    return bool(unit.out) and hits.parse_cause(unit.out)[0] in LOSS_CAUSES


def is_dead(unit: Unit) -> bool:
    return bool(unit.out) and hits.parse_cause(unit.out)[0] in DEAD_CAUSES


def is_platoon(state: GameState, side: str) -> bool:
    return bool(var(state, f"platoon.{side}", 0))


def commander(state: GameState, side: str) -> Unit | None:
    """The main commander (§5.0): the figure with the ``commander`` role while he is in
    play, else the highest-ranking leader still in play (§13.0 "or the highest in rank")."""
    in_play = [u for u in men(state, side) if u.in_play]
    chief = next((u for u in in_play if "commander" in u.roles), None)
    if chief is not None:
        return chief
    leaders = [u for u in in_play if "leader" in u.roles]
    return max(leaders, key=lambda u: u.leadership, default=None)


def leadership(state: GameState, side: str) -> int:
    """The main commander's leadership level (0 without one)."""
    chief = commander(state, side)
    return chief.leadership if chief else 0


def sub_units(state: GameState, side: str) -> dict[str, list[Unit]]:
    """The squads and sections of a platoon, or the fire teams of a squad, by name."""
    out: dict[str, list[Unit]] = defaultdict(list)
    for u in men(state, side):
        out[u.team or "-"].append(u)
    return dict(out)


def quality(state: GameState, side: str) -> int:
    """The Initiative/Morale value of the force (§3.0): the majority class of the main
    commander's squad — in a squad game the whole force (rulings BN-INI-QUALITY)."""
    force = men(state, side)
    if is_platoon(state, side):
        chief = commander(state, side) or next((u for u in force if "commander" in u.roles), None)
        if chief is not None:
            force = [u for u in force if u.team == chief.team]
    return side_quality(u.cls for u in force)


def lowest_morale(state: GameState, side: str) -> int:
    """The Morale value a platoon of mixed classes tests with (§13.0): its lowest
    (digest AMB-53, rulings BN-INI-QUALITY)."""
    table = troop_classes()
    values = [table[u.cls].init_morale for u in men(state, side) if u.cls in table]
    return min(values, default=0)


def special_forces(state: GameState, side: str) -> bool:
    """Special Forces (R1) only: Infiltrators and Intelligence 4 are theirs."""
    force = men(state, side)
    return bool(force) and all(u.cls == "R1" for u in force)


def leaders_counted_double(state: GameState, side: str) -> list[Unit]:
    """The leaders whose loss counts as two for morale (§12.0; §13.0, rulings BN-MOR-LEADER):
    the squad commander; in a platoon also every squad or section leader."""
    force = men(state, side)
    if is_platoon(state, side):
        return [u for u in force if hits.is_leader(u)]
    return [u for u in force if "commander" in u.roles]
