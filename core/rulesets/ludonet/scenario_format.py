"""Ludonet's scenario files (docs/scenarios.md): the common format, with what the
rules' fragment leaves to the scenario (digest B.0, B.10): each weapon's range
and whether it is heavy (LN-R030, LN-R036), the grenade range (LN-R038), the
combat values of vehicles and aircraft (LN-R041, LN-R061) and the aircraft's
passes (at most three each, LN-R060)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any

from msgspec import Meta

from core.log import events as ev
from core.ruleset import Context
from core.rulesets.ludonet.terms import Kind
from core.rulesets.ludonet.words import _
from core.scenarios.files import Problem
from core.scenarios.schema import MAX_ENTRIES, BaseForce, BaseScenario, Cm, Format, Label, Strict, Unit

#: Each aircraft may make at most three passes (LN-R060).
MAX_PASSES = 3


class Weapon(Strict, frozen=True):
    """A weapon of this scenario: the fragment gives no ranges (ruling LN-WEAPONS)."""

    id: Annotated[str, Meta(min_length=1, max_length=32, pattern=r"^[^\x00-\x1f\x7f]*$")]
    #: Full range in cm; half of it is "within half range" (LN-R030).
    range: Annotated[int, Meta(ge=1, le=1000)]
    name: Label = ""
    #: A heavy weapon: +1 to the damage die (LN-R036).
    heavy: bool = False
    #: It may fire at vehicles (the opposed combat-value roll, LN-R041).
    anti_tank: bool = False
    anti_aircraft: bool = False


class LudonetScenario(BaseScenario, frozen=True):
    weapons: Annotated[tuple[Weapon, ...], Meta(max_length=MAX_ENTRIES)] = ()
    #: How far a grenade is thrown, cm (LN-R038; 0: not set).
    grenade_range: Cm = 0


class LudonetForce(BaseForce, frozen=True):
    """A force brings the weapons of its pieces."""

    weapons: Annotated[tuple[Weapon, ...], Meta(max_length=MAX_ENTRIES)] = ()


class LudonetFormat(Format):
    ruleset_id = "ludonet"
    schema = LudonetScenario
    kinds = {
        "man": "a figure (1 figure = 1 soldier)",
        "vehicle": "a vehicle, with its combat value (LN-R041)",
        "aircraft": "an aircraft, with its passes and combat value (LN-R060)",
    }
    roles = {
        "expert": "commando, paratrooper, ranger or experienced (LN-R031, LN-R051)",
        "heavy": "carries a heavy weapon (LN-R010, LN-R036)",
        "aa": "an anti-aircraft piece (LN-R062, ruling LN-WEAPONS)",
        "indirect": "fires indirectly (mortars: ruling LN-BARRAGE)",
        "leader": "the unit's leader",
        "crew": "crew of the vehicle it is aboard",
    }
    stats = {
        "cv": "combat value of a vehicle, aircraft or anti-tank team (LN-R041)",
        "move": "a vehicle's movement in cm (the fragment gives none)",
        "passes": "an aircraft's passes over the table, at most 3 (LN-R060)",
        "strength": "the unit's starting strength, if not its figures (LN-R070)",
    }
    options = {"igo-ugo": "one side moves, then the other (LN-AMB-01)"}
    support_kinds = {
        "aircraft": "aircraft off the table (count), each with its passes in ammo (LN-R060)",
        "artillery": "indirect fire: the fragment gives no procedure (referee's rules)",
    }

    force_schema = LudonetForce
    forces_dir = Path(__file__).parent / "forces"

    def force_extras(self, force: LudonetForce) -> dict[str, Any]:
        return {"weapons": force.weapons}

    def classes(self, sc: Any, unit: Unit) -> Iterable[str]:
        return ()

    def weapons(self, sc: LudonetScenario) -> Iterable[str]:
        return [w.id for w in sc.weapons]

    def check_more(self, sc: LudonetScenario) -> Iterator[Problem]:
        ids = [w.id for w in sc.weapons]
        for i, w in enumerate(sc.weapons):
            if ids.index(w.id) != i:
                why = _("{field} = {value}: used twice").format(field=f"weapons[{i}].id", value=repr(w.id))
                yield Problem(("weapons", i, "id"), why)
        for i, u in enumerate(sc.units):
            passes = u.stats.get("passes")
            if passes is not None and not 1 <= passes <= MAX_PASSES:
                yield Problem(
                    ("units", i, "stats", "passes"),
                    _("units[{i}].stats.passes = {passes}: an aircraft makes 1 to {most} passes (LN-R060)").format(
                        i=i, passes=passes, most=MAX_PASSES
                    ),
                )
        for i, s in enumerate(sc.support):
            if s.kind == Kind.AIRCRAFT and s.ammo > MAX_PASSES:
                yield Problem(
                    ("support", i, "ammo"),
                    _("support[{i}].ammo = {ammo}: an aircraft makes at most {most} passes (LN-R060)").format(
                        i=i, ammo=s.ammo, most=MAX_PASSES
                    ),
                )

    def setup(self, ctx: Context, sc: LudonetScenario) -> None:
        super().setup(ctx, sc)
        for w in sc.weapons:
            ctx.emit(ev.VarSet(key=f"weapon.{w.id}.range", value=w.range))
            for flag in ("heavy", "anti_tank", "anti_aircraft"):
                if getattr(w, flag):
                    ctx.emit(ev.VarSet(key=f"weapon.{w.id}.{flag}", value=1))
        if sc.grenade_range:
            ctx.emit(ev.VarSet(key="grenade_range", value=sc.grenade_range))


FORMAT = LudonetFormat()
