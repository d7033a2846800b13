"""Bassa Intensità's scenario files (docs/scenarios.md): the common format, with the
book's qualities and weapons table, its vehicle kinds and flags, night with or
without moon (BI-R169), mines and booby traps (BI-R220..R224), and the support a
side may call (batteries BI-R102, aircraft BI-R250..R253)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any

from msgspec import Meta

from core import events as ev
from core.ruleset import Context
from core.rulesets.bassa_intensita.tables import tier_by_id, weapons
from core.scenario_files import Problem
from core.scenario_schema import (
    MAX_ENTRIES,
    BaseScenario,
    Format,
    Id,
    Label,
    Strict,
    Text,
    Unit,
    unknown,
)

MINE_KINDS = {
    "ap": "anti-personnel minefield (BI-R221)",
    "at": "anti-tank minefield (BI-R222)",
    "booby-trap": "booby trap on a door or window (BI-R223)",
}


class Mine(Strict):
    id: Id
    kind: Id
    where: Text
    #: The side that laid it; hidden mines are its secret (and the referee's).
    owner: Label = ""
    hidden: bool = True


class BassaScenario(BaseScenario):
    #: At night: a moon lets one see 50 cm instead of 20 (BI-R169).
    moon: bool = False
    mines: Annotated[tuple[Mine, ...], Meta(max_length=MAX_ENTRIES)] = ()


class BassaFormat(Format):
    ruleset_id = "bassa-intensita"
    schema = BassaScenario
    kinds = {
        "man": "a soldier (1 figure = 1 man, A.1)",
        "vehicle": "a vehicle; its type and armour are roles (BI-R045, BI-R130)",
        "helicopter": "a helicopter: a vehicle moving 2d6 × 10 cm (BI-R255)",
        "gun": "a towed gun or on-table mortar",
    }
    vehicle_kinds = ("vehicle", "helicopter")
    roles = {
        "commander": "platoon or company commander (may observe for artillery, BI-R100)",
        "leader": "squad leader (BI-R020)",
        "section-leader": "section leader (BI-R020)",
        "sniper": "sniper (BI-R023, BI-R210)",
        "spotter": "a sniper's spotter (BI-R023)",
        "scout": "scout (BI-R212)",
        "engineer": "engineer: finds mines and traps more easily (BI-R224)",
        "observer": "forward observer (BI-R100)",
        "fanatic": "fanatic (scenario rule)",
        "crew": "crew of the vehicle it is aboard",
        "intensifier": "carries a portable light intensifier: sees 100 cm at night (BI-R169)",
        "tank": "vehicle type: tank (BI-R045)",
        "tracked": "vehicle type: tracked transport (BI-R045)",
        "wheeled": "vehicle type: wheeled 4x4 transport (BI-R045)",
        "civilian-vehicle": "vehicle type: civilian wheeled transport (BI-R045)",
        "armoured": "the vehicle is armoured (BI-R130)",
        "advanced-armour": "advanced armour: -1 to penetration (BI-R131)",
        "high-tech-armour": "high-tech armour: -2 to penetration (BI-R131)",
        "stabilised": "stabilised armament (BI-R240)",
        "turret": "the vehicle has a turret",
        "open": "open vehicle, or hatch open with the commander out (BI-R167)",
        "radio": "the vehicle has a radio (BI-R140)",
        "armed-transport": "armed transport vehicle (BI-R027)",
        "vehicle-intensifier": "vehicle light intensifier: sees 200 cm at night (BI-R169)",
    }
    stats = {
        "quality_mod": "the referee's +1/-1 to the unit's chance (BI-R011)",
        "vest": "body armour worn: 0 none, 1 light, 2 heavy (A.12.1)",
        "move_road": "a vehicle's allowance on road, cm (BI-R045; the type's when absent)",
        "move_off": "a vehicle's allowance off road, cm (BI-R045)",
        "calibre": "a gun's or a battery's calibre in mm (BI-R130, A.11)",
        "ammo": "rounds a piece carries, where the scenario limits them",
    }
    options = {
        "non-lethal": "non-lethal weapons (BI-R230..R232)",
        "he-deviation-d6": "HE deviation rolled on 1d6 as printed (BI-AMB-01)",
        "halve-first": "halve chances before adding modifiers (BI-AMB-03)",
    }
    support_kinds = {
        "battery-dedicated": "a battery assigned to the observer: Normal contact (BI-R102)",
        "battery-general": "a battery in general support: Difficult contact (BI-R102)",
        "mortar-on-table": "the platoon's light mortar: Easy contact (BI-R102)",
        "aircraft-ap": "aircraft with anti-personnel bombs (BI-R252)",
        "aircraft-at": "aircraft with anti-tank bombs (BI-R252)",
        "aircraft-napalm": "aircraft with napalm (BI-R252)",
    }

    forces_dir = Path(__file__).parent / "forces"

    def classes(self, sc: Any, unit: Unit) -> Iterable[str]:
        return tier_by_id()

    def weapons(self, sc: Any) -> Iterable[str]:
        return weapons()

    def check_more(self, sc: BassaScenario) -> Iterator[Problem]:
        yield from _composition(sc.units)
        sides = [s.id for s in sc.sides]
        tiers = tier_by_id()
        for i, s in enumerate(sc.support):
            if s.cls and s.cls not in tiers:
                yield unknown(("support", i, "cls"), s.cls, "quality", tiers)
        ids = [m.id for m in sc.mines]
        for i, m in enumerate(sc.mines):
            if m.kind not in MINE_KINDS:
                yield unknown(("mines", i, "kind"), m.kind, "kind of mine", MINE_KINDS)
            if m.owner and m.owner not in sides:
                yield unknown(("mines", i, "owner"), m.owner, "side", sides)
            if m.hidden and not m.owner:
                yield Problem(("mines", i, "hidden"), "hidden = true needs an owner (the side that laid it)")
            if ids.index(m.id) != i:
                yield Problem(("mines", i, "id"), f"mines[{i}].id = {m.id!r}: used twice")

    def setup(self, ctx: Context, sc: BassaScenario) -> None:
        super().setup(ctx, sc)
        if sc.moon:
            ctx.emit(ev.VarSet(key="moon", value=1))
        for m in sc.mines:
            text = f"{MINE_KINDS[m.kind]}: {m.where}"
            if m.hidden:
                ctx.emit(ev.SecretSet(key=f"mine.{m.id}", owner=m.owner, value=text, vis=(m.owner,)))
            else:
                ctx.emit(ev.VarSet(key=f"mine.{m.id}", value=text))


#: BI-R021: only these may lead a section; BI-R212: only these may have a scout.
SECTION_LEADERS = ("elite", "veteran", "regular")
SCOUTS = ("elite", "veteran")


def _composition(units: Iterable[Unit]) -> Iterator[Problem]:
    """The book's limits on who a squad may have (BI-R021, BI-R212; a squad is a `team`: ruling BI-SQUAD)."""
    scouts: dict[tuple[str, str], int] = {}
    for i, u in enumerate(units):
        if "section-leader" in u.roles and u.cls not in SECTION_LEADERS:
            yield Problem(
                ("units", i, "roles"),
                f"units[{i}].roles: a {u.cls or 'unrated'} soldier may not lead a section (BI-R021: "
                f"{', '.join(SECTION_LEADERS)} only)",
            )
        if "scout" in u.roles:
            if u.cls not in SCOUTS:
                yield Problem(("units", i, "roles"), f"units[{i}].roles: scouts are elite or veteran only (BI-R212)")
            team = (u.side, u.team)
            scouts[team] = scouts.get(team, 0) + 1
            if scouts[team] == 2:
                yield Problem(("units", i, "roles"), f"units[{i}].roles: one scout per squad ({u.team!r}, BI-R212)")


FORMAT = BassaFormat()
