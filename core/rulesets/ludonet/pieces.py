"""What a Ludonet piece is: its kind, the roles that change the rules for it, and the
numbers the scenario sets for it (``Unit.stats``) because the fragment leaves them out.

Kinds: ``man`` (a figure), ``vehicle``, ``aircraft``.  Roles: ``expert`` (LN-R031,
LN-R051), ``heavy`` (LN-R010, LN-R036), ``aa`` (an anti-aircraft weapon, LN-R062),
``indirect`` (a mortar or artillery piece, LN-R020).
Stats (rulings LN-VEHICLES, LN-AIR): ``cv`` (the combat value of LN-R041, 0 for a
figure without one), ``move`` (a vehicle's move in cm, LN-R011), ``passes`` (an
aircraft's passes, at most three).  The scenario's weapons reach the state as
variables (ruling LN-WEAPONS): ``weapon.ID.range`` (cm), ``weapon.ID.heavy`` and
``weapon.ID.anti_aircraft``; ``grenade_range`` is how far a grenade is thrown.
"""

from __future__ import annotations

from core.language.i18n import M, Text, scenario_words
from core.log.state import GameState, Unit
from core.log.views import narrowest, unit_audience
from core.ruleset import TYPING, Refused
from core.rulesets.ludonet.words import _

GRENADE_RANGE = "grenade_range"

MAN, VEHICLE, AIRCRAFT = "man", "vehicle", "aircraft"
KINDS = (MAN, VEHICLE, AIRCRAFT)

#: A figure with this role carries a heavy weapon (LN-R010, LN-R036; ruling LN-HEAVY).
HEAVY = "heavy"
#: Commandos, paratroopers, rangers and the like (LN-R031, LN-R051).
EXPERT = "expert"
#: An anti-aircraft weapon (LN-R062).
AA = "aa"
#: A mortar or artillery piece: it may fire without a line of sight (LN-R020).
INDIRECT = "indirect"

COMBAT, MOVE, PASSES = "cv", "move", "passes"


def audience(*units: Unit) -> tuple[str, ...]:
    """Who may read a note about these pieces: a hidden one's name stays with those
    who can see it (views.py)."""
    return narrowest(unit_audience(u) for u in units)


def name_in_line_about(other: Unit, subject: Unit) -> Text:
    """``other``'s name in a fact about ``subject``: everyone who reads the fact sees
    ``subject``; a hidden ``other`` is named only if they all see it too."""
    readers, seers = unit_audience(subject), unit_audience(other)
    if not seers or (readers and set(readers) <= set(seers)):
        return other.name
    return M("an unseen enemy")


def require_in_play(unit: Unit) -> None:
    if not unit.in_play:
        # what took it out: an aircraft's passes spent or anti-aircraft fire (B.9), a
        # vehicle's fire result (B.7), a figure's second wound (B.6)
        raise Refused(
            _("{unit} is out of action").format(unit=unit.name),
            rule=("LN-R060", "LN-R062") if is_aircraft(unit) else "LN-R041" if is_vehicle(unit) else "LN-R037",
        )


def is_vehicle(unit: Unit) -> bool:
    return unit.kind == VEHICLE


def is_aircraft(unit: Unit) -> bool:
    return unit.kind == AIRCRAFT


def combat_value(unit: Unit) -> int:
    """LN-R041: the scenario's combat value; a vehicle must have one, a figure without
    one counts 0 (ruling LN-VEHICLES)."""
    if COMBAT in unit.stats:
        return unit.stats[COMBAT]
    if unit.kind != MAN:
        raise Refused(
            _("the scenario gives {unit} no combat value (stats.cv, LN-R041)").format(unit=unit.name), rule="LN-R041"
        )
    return 0


def vehicle_move(unit: Unit) -> int:
    """LN-R011: a vehicle's move is the scenario's (stats.move, cm)."""
    if MOVE not in unit.stats:
        raise Refused(
            _("the scenario gives {unit} no move (stats.move in cm, LN-R011)").format(unit=unit.name),
            rule=("LN-R011", "LN-AMB-04"),
        )
    return unit.stats[MOVE]


def aboard(state: GameState, vehicle: Unit) -> list[Unit]:
    """The figures in play the scenario put aboard ``vehicle`` (variable ``aboard.ID``)."""
    return [u for u in state.units.values() if u.in_play and state.vars.get(f"aboard.{u.id}") == vehicle.id]


def _weapon_flag(state: GameState, unit: Unit, flag: str) -> bool:
    return any(state.vars.get(f"weapon.{w}.{flag}") for w in unit.weapons)


def is_heavy(state: GameState, unit: Unit) -> bool:
    """LN-R010/R036 (ruling LN-HEAVY): the role ``heavy``, or a weapon the scenario calls heavy."""
    return HEAVY in unit.roles or _weapon_flag(state, unit, "heavy")


def is_anti_aircraft(state: GameState, unit: Unit) -> bool:
    """LN-R062: the role ``aa``, or a weapon the scenario calls anti-aircraft."""
    return AA in unit.roles or _weapon_flag(state, unit, "anti_aircraft")


def weapon_range(state: GameState, unit: Unit) -> int | None:
    """The range of the piece's first weapon the scenario gives one (LN-AMB-02)."""
    for w in unit.weapons:
        value = state.vars.get(f"weapon.{w}.range")
        if isinstance(value, int) and value > 0:
            return value
    return None


# ------------------------------------------------------------------- the reparto


def team_var(unit_id: str) -> str:
    """The variable that records a figure sent to reinforce another unit (LN-R070)."""
    return f"team.{unit_id}"


def team_of(state: GameState, unit: Unit) -> str:
    """The unit ("reparto") a piece belongs to now: its set-up team, unless it has
    since joined another as a reinforcement."""
    return str(state.vars.get(team_var(unit.id), unit.team))


def starting_strength(state: GameState, team: str) -> int:
    """LN-R070: the pieces a unit started the fight with (its set-up members); aircraft
    come and go and are no part of a unit's strength (ruling LN-MORALE)."""
    return sum(1 for u in state.units.values() if u.team == team and not is_aircraft(u))


def strength(state: GameState, team: str) -> int:
    """The unit's pieces in play now, reinforcements included."""
    return sum(1 for u in state.units.values() if u.in_play and team_of(state, u) == team and not is_aircraft(u))


def find_team(state: GameState, name: str) -> str:
    """A unit by its team name, any case (refused with the names there are)."""
    teams = sorted({u.team for u in state.units.values() if u.team})
    match = [t for t in teams if t.lower() == name.lower()]
    if not match:
        units = ", ".join(scenario_words(t) for t in teams)
        raise Refused(_("no unit {name!r} (units: {units})").format(name=name, units=units), rule=TYPING)
    return match[0]
