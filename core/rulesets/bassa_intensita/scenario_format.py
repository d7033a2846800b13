"""Bassa Intensità's scenario files (docs/scenarios.md): the common format, with the
book's qualities, weapons and vehicle types, the rules' own roles and stats
(ruling BI-SCENARIO-VARS), night with or without moon (``scenario.night``:
``dark`` or ``moon``, BI-R169), mines and booby traps (BI-R220..R224), and the
support a side may call (batteries BI-R102, aircraft BI-R250..R253)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any

from msgspec import Meta

from core.log import events as ev
from core.ruleset import Context
from core.rulesets.bassa_intensita.tables import air, tier_by_id, vehicle_types, weapons
from core.rulesets.bassa_intensita.terms import Kind
from core.rulesets.bassa_intensita.words import _
from core.scenarios.files import Problem
from core.scenarios.schema import (
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
    "trap": "booby trap on a door or window (BI-R223)",
}


class Mine(Strict, frozen=True):
    id: Id
    kind: Id
    where: Text
    #: The side that laid it; hidden mines are its secret (and the referee's).
    owner: Label = ""
    hidden: bool = True


class BassaScenario(BaseScenario, frozen=True):
    #: At night: a moon lets one see 50 cm instead of 20 (BI-R169).
    moon: bool = False
    mines: Annotated[tuple[Mine, ...], Meta(max_length=MAX_ENTRIES)] = ()


class BassaFormat(Format):
    """The names are the rules' own (ruling BI-SCENARIO-VARS, docs/commands.md)."""

    ruleset_id = "bassa-intensita"
    schema = BassaScenario
    kinds = {
        "man": "a soldier (1 figure = 1 man, A.1)",
        "vehicle": "a vehicle or helicopter: its type is one of its roles, an id of data/vehicles.toml (A.6.2)",
    }
    roles = {
        "commander": "platoon or company commander (A.11 BI-R100)",
        "leader": "squad leader (A.4 BI-R020)",
        "section-leader": "section leader (A.4 BI-R020)",
        "observer": "forward observer (A.11 BI-R100)",
        "emplaced": "starts with its weapon emplaced, until it moves (A.9.3; ruling BI-EMPLACED)",
        "sniper": "sniper (BI-R023, A.16.1)",
        "scout": "scout (A.16.3 BI-R212)",
        "fast-rope": "trained to fast-rope from a hovering helicopter (A.15.2 BI-R257)",
        "engineer": "engineer: finds mines and traps more easily (BI-R224)",
        "frag-vest": "wears a fragmentation vest (A.12.1)",
        "bullet-vest": "wears a bullet-proof vest (A.12.1)",
        "advanced-armour": "a vehicle's advanced armour (BI-R131)",
        "hightech-armour": "a vehicle's high-tech armour (BI-R131)",
        "turret": "the vehicle has a turret (A.12.4)",
        "recoilless": "the piece's gun is recoilless (A.12.3)",
        "stabilised": "stabilised armament (A.16.5 BI-R240)",
        "dischargers": "smoke dischargers (A.14.2)",
        "open": "an observing vehicle with its hatch open (BI-R167)",
    }
    stats = {
        "gun_mm": "calibre of the piece's gun (a battery's): its penetration row and HE area (A.12.3, A.10.2)",
        "capacity": "men a vehicle carries (A.6)",
        "ability": "a leader's ability as a Quality chance, 2 (Rabble) to 6 (Elite), if not his own (BI-R022)",
        "motivation": "the referee's -1, 0 or +1 (A.3 BI-R011)",
        "fanatic": "+1 or +2 to pass morale (A.13.2)",
    }
    #: The bounds of each stat the rules clamp to.
    STAT_RANGES = {"ability": (2, 6), "motivation": (-1, 1), "fanatic": (1, 2), "capacity": (0, 99), "gun_mm": (1, 999)}
    support_kinds = {
        "dedicated": "a battery assigned to the observer: Normal contact (BI-R102; call dedicated)",
        "general": "a battery in general support: Difficult contact (BI-R102; call general)",
        "mortar": "the platoon's light mortar: Easy contact (BI-R102; call mortar)",
        "air-ap": "aircraft with anti-personnel bombs (BI-R252; call air bomb=ap)",
        "air-at": "aircraft with anti-tank bombs (BI-R252; call air bomb=at)",
        "air-napalm": "aircraft with napalm (BI-R252; call air bomb=napalm)",
    }
    forces_dir = Path(__file__).parent / "forces"
    # The rules' own keys (commands/end.py, commands.common.light_of) and badge (commands/vehicles.py);
    # a vehicle's crew is the vehicle (ruling BI-OCCUPANTS): who is aboard is carried.
    turns_key = "scenario.turns"
    victory_key = "scenario.victory"
    aboard_key = ""
    aboard_badge = "aboard-{vehicle}"

    def night_facts(self, sc: BassaScenario) -> list[tuple[str, int | str]]:
        return [("scenario.night", "moon" if sc.moon else "dark")] if sc.night else []

    def classes(self, sc: Any, unit: Unit) -> Iterable[str]:
        return tier_by_id()

    def weapons(self, sc: Any) -> Iterable[str]:
        # the direct-fire table, rubber bullets (BI-R230) and the AA weapons (BI-R260)
        return [*weapons(), "rubber", *(a.weapon for a in air().aa)]

    def role_names(self, sc: Any) -> Iterable[str]:
        return [*self.roles, *vehicle_types()]

    def check_more(self, sc: BassaScenario) -> Iterator[Problem]:
        yield from _composition(sc.units)
        types = vehicle_types()
        for i, u in enumerate(sc.units):
            kinds = [r for r in u.roles if r in types]
            if u.kind == Kind.VEHICLE and len(kinds) != 1:
                yield Problem(
                    ("units", i, "roles"),
                    _("units[{i}].roles: a vehicle names its type once among its roles ({types}; A.6.2)").format(
                        i=i, types=", ".join(types)
                    ),
                )
            if u.kind == Kind.MAN and kinds:
                message = _("units[{i}].kind = 'man': a {type} is a vehicle").format(i=i, type=kinds[0])
                yield Problem(("units", i, "kind"), message)
            for key, (low, high) in self.STAT_RANGES.items():
                value = u.stats.get(key)
                if value is not None and not low <= value <= high:
                    message = _("units[{i}].stats.{key} = {value}: from {low} to {high}").format(
                        i=i, key=key, value=value, low=low, high=high
                    )
                    yield Problem(("units", i, "stats", key), message)
        if sc.moon and not sc.night:
            yield Problem(("moon",), _("moon = true: a moon is for a game at night (night = true)"))
        carried: dict[str, int] = {}
        for u in sc.units:
            if u.aboard:
                carried[u.aboard] = carried.get(u.aboard, 0) + 1
        for i, u in enumerate(sc.units):
            capacity = u.stats.get("capacity")
            if capacity is not None and carried.get(u.id, 0) > capacity:
                message = _("units[{i}].stats.capacity = {capacity}: {men} men are aboard (BI-MOUNT)").format(
                    i=i, capacity=capacity, men=carried[u.id]
                )
                yield Problem(("units", i, "stats", "capacity"), message)
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
                yield Problem(("mines", i, "hidden"), _("hidden = true needs an owner (the side that laid it)"))
            if ids.index(m.id) != i:
                yield Problem(("mines", i, "id"), _("mines[{i}].id = {id}: used twice").format(i=i, id=repr(m.id)))

    def setup(self, ctx: Context, sc: BassaScenario) -> None:
        super().setup(ctx, sc)
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
                _("units[{i}].roles: a {quality} soldier may not lead a section (BI-R021: {qualities} only)").format(
                    i=i, quality=u.cls or _("unrated"), qualities=", ".join(SECTION_LEADERS)
                ),
            )
        if "scout" in u.roles:
            if u.cls not in SCOUTS:
                message = _("units[{i}].roles: scouts are elite or veteran only (BI-R212)").format(i=i)
                yield Problem(("units", i, "roles"), message)
            team = (u.side, u.team)
            scouts[team] = scouts.get(team, 0) + 1
            if scouts[team] == 2:
                message = _("units[{i}].roles: one scout per squad ({team}, BI-R212)").format(i=i, team=repr(u.team))
                yield Problem(("units", i, "roles"), message)


FORMAT = BassaFormat()
