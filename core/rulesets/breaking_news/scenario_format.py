"""Breaking News's scenario files (docs/scenarios.md): the common format, with the
mission, points limit, platoons, restricted forces and EXTRAS of
scenario_rules.py, the troop classes, vehicle types and weapons of the book's
tables, and journalists and civilians as pieces (§10, §11)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from core.ruleset import Context
from core.rulesets.breaking_news import scenario_rules
from core.rulesets.breaking_news.campaign import army
from core.rulesets.breaking_news.campaign.objectives import MISSIONS
from core.rulesets.breaking_news.options import OPTIONS
from core.rulesets.breaking_news.scenario_rules import ScenarioRules
from core.rulesets.breaking_news.tables import army_points, troop_classes
from core.rulesets.breaking_news.tables.combat import weapons
from core.rulesets.breaking_news.terms import Kind
from core.rulesets.breaking_news.words import DOMAIN, _, whose
from core.scenarios.files import Problem, dotted
from core.scenarios.schema import MAX_SIDES, BaseScenario, Format, Id, Label, Side, Unit, as_units, table, unknown


class NewsScenario(BaseScenario, frozen=True):
    #: §4.1; 0: the scenario sets its own objectives.
    mission: Annotated[int, Meta(ge=0, le=3)] = 0
    #: The army limit the sides were built to (Calculating points; 0: none).
    points: Annotated[int, Meta(ge=0, le=9999)] = 0
    #: Sides that play as a platoon (§13.0).
    platoon: Annotated[tuple[Id, ...], Meta(max_length=MAX_SIDES)] = ()
    #: What a side's force is, for the restricted extras.
    forces: Annotated[dict[Id, Label], Meta(max_length=MAX_SIDES)] = {}
    extras: Annotated[dict[Id, army.RosterExtras], Meta(max_length=MAX_SIDES)] = {}


class NewsFormat(Format):
    ruleset_id = "breaking-news"
    schema = NewsScenario
    kinds = {
        "man": "a fighting man",
        "vehicle": "a vehicle (its type is its cls: Calculating points)",
        "journalist": "a journalist (§11): embedded or independent",
        "civilian": "a civilian (§10)",
    }
    roles = {
        "commander": "the main commander (§5.0)",
        "leader": "a leader (§5.0, §13.0)",
        "medic": "a medic (§9.3)",
        "sniper": "a sniper",
        "driver": "a vehicle's driver",
        "helicopter": "the vehicle is a helicopter",
        "tracked": "the vehicle is tracked",
        "embedded": "an embedded journalist (§11)",
        "independent": "an independent journalist (§11)",
        "ambush": "held off the table for an ambush (Extras: Ambush)",
        "infiltrator": "deploys after everyone else (Extras: Infiltrators)",
        "crew": "crew of the vehicle it is aboard",
        "night-visors": "has night visors: no +2 to his sightings at night (§7.0)",
    }
    stats = {"ammo": "a light weapon's ammunition at the start, with the optional rule (§8.0.3)"}
    options = dict(OPTIONS)
    armies = ("regular", "irregular")
    #: Breaking News's combat keeps who is aboard which vehicle as a secret (ledger.py).
    aboard_key = "secret.aboard.{unit}"

    def classes(self, sc: Any, unit: Unit) -> Iterable[str]:
        if unit.kind == Kind.MAN:
            return troop_classes()
        if unit.kind == Kind.VEHICLE:
            return [v.id for v in army_points().vehicles]
        return ()

    def weapons(self, sc: Any) -> Iterable[str]:
        return weapons()

    def carries(self, kind: str, cls: str, weapon: str) -> bool:
        """May a piece of this kind and class carry the weapon (BN-PTS-MOUNT)?"""
        return not army.mount_error(weapon, cls if kind == Kind.VEHICLE else "man")

    def check_more(self, sc: NewsScenario) -> Iterator[Problem]:
        sides = [s.id for s in sc.sides]
        if sc.mission and sc.mission not in MISSIONS:
            yield unknown(("mission",), str(sc.mission), "mission", [str(m) for m in MISSIONS])
        for i, side in enumerate(sc.platoon):
            if side not in sides:
                yield unknown(("platoon", i), side, "side", sides)
        for key, force in sc.forces.items():
            if key not in sides:
                yield unknown(("forces", key), key, "side", sides)
            if force not in army.FORCES:
                yield unknown(("forces", key), force, "force", [f for f in army.FORCES if f])
        for key in sc.extras:
            if key not in sides:
                yield unknown(("extras", key), key, "side", sides)
        # Extras, Media: war correspondents only in games of Regulars against Irregulars
        # (a force checked on its own has one side: the scenario that fields it decides)
        against = len(sc.sides) < 2 or {s.army for s in sc.sides} == {"regular", "irregular"}
        for i, u in enumerate(sc.units):
            if u.kind == Kind.JOURNALIST and not against:
                yield Problem(
                    ("units", i, "kind"),
                    _("journalists are for games of Regulars against Irregulars only (Extras: Media)"),
                )
        table = set(weapons())
        for i, u in enumerate(sc.units):
            for j, w in enumerate(u.weapons):
                # an unknown id is the common check's; here only who may carry it (BN-PTS-MOUNT)
                if w in table and not self.carries(u.kind, u.cls, w):
                    why = army.mount_error(w, army.carrier(u))
                    yield Problem(
                        ("units", i, "weapons", j),
                        _("{key} = {weapon!r}: {why}").format(
                            key=dotted(("units", i, "weapons", j)), weapon=w, why=why
                        ),
                    )

    def check_whole(self, sc: NewsScenario) -> Iterator[Problem]:
        # One main commander a side that fields men (§5.0, INI-1: the initiative adds his
        # Leadership; §12.0: his loss counts 2 at the morale test), as a roster must have
        # (army.validate_roster; ruling BN-ONE-COMMANDER).
        for i, side in enumerate(sc.sides):
            theirs = [u for u in sc.units if u.side == side.id]
            problem = army.commander_problem(theirs) if any(u.kind == Kind.MAN for u in theirs) else None
            if problem is not None:
                yield Problem(("sides", i), _("side {side}: {problem}").format(side=side.id, problem=problem))

    def rules(self, sc: NewsScenario) -> ScenarioRules:
        return ScenarioRules(
            id=sc.id,
            mission=sc.mission,
            turns=sc.turns,
            points=sc.points,
            platoon=sc.platoon,
            forces=dict(sc.forces),
            extras=dict(sc.extras),
        )

    # Breaking News's forces are its rosters (army.py, docs/rosters.md).
    force_schema = army.Roster
    forces_dir = army.ROSTERS

    def force_units(self, force: army.Roster, side: str) -> tuple[Unit, ...]:
        # a roster's list_cls prices the figure; it does not enter the game (army.roster_unit)
        return as_units([msgspec.structs.replace(u, list_cls="") for u in force.units], side)

    def force_points(self, force: army.Roster) -> int:
        return army.total_cost(force)

    def check_force(self, force: army.Roster, side: Side | None, sc: Any = None) -> list[Problem]:
        out = super().check_force(force, side, sc)
        limit = (sc.points if sc is not None else 0) or force.limit
        out += [Problem((), message) for message in army.validate_roster(force, limit)]
        return out

    def merge_forces(self, sc: NewsScenario, fielded: list[Any]) -> tuple[NewsScenario, list[Problem]]:
        merged, clashes = super().merge_forces(sc, fielded)
        extras, forces, platoon = dict(sc.extras), dict(sc.forces), list(sc.platoon)
        for f in fielded:
            roster: army.Roster = f.force
            if f.side in extras:
                clashes.append(
                    Problem(
                        ("rosters", f.side),
                        _("force {file}: the scenario buys {side} extras too").format(
                            file=f.file, side=DOMAIN.render(whose(f.side))
                        ),
                    )
                )
            extras[f.side] = roster.extras
            if roster.force:
                forces[f.side] = roster.force
            if roster.platoon and f.side not in platoon:
                platoon.append(f.side)
        return msgspec.structs.replace(merged, extras=extras, forces=forces, platoon=tuple(platoon)), clashes

    def points(self, sc: NewsScenario) -> dict[str, int]:
        """Each side's cost (Calculating points): its figures and its extras."""
        rosters = scenario_rules.rosters(table(sc), self.rules(sc))
        return {side: army.total_cost(roster) for side, roster in rosters.items()}

    def setup(self, ctx: Context, sc: NewsScenario) -> None:
        self.emit_table(ctx, sc)
        # mission, turns and points are Breaking News's own keys (ledger.py)
        self.emit_facts(ctx, sc, turns=False)
        scenario_rules.apply(ctx, table(sc), self.rules(sc))


FORMAT = NewsFormat()
