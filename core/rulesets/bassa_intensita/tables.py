"""Bassa Intensità tables, decoded from the TOML files in ``data/`` into typed structs.

Each data file names its rulebook heading and the digest's section; the tests
check the numbers against the book.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TypeVar

import msgspec

from core.language.i18n import Msg
from core.ruleset import Tables
from core.rulesets.bassa_intensita.words import word

TABLES = Tables(Path(__file__).parent / "data")


class Tier(msgspec.Struct, frozen=True):
    """A Quality level (BI-R010): its 1d10 chance and its place in the fire order."""

    id: str
    name: str
    it: str
    chance: int


class Difficulty(msgspec.Struct, frozen=True):
    """An action difficulty (BI-R066), one rung of the ladder of BI-R069."""

    id: str
    it: str
    times: int = 0
    halved: bool = False
    automatic: bool = False
    impossible: bool = False


class MoveMode(msgspec.Struct, frozen=True):
    """A way of moving on foot and its allowance (BI-R040)."""

    id: str
    it: str
    cm: int
    not_twice_running: bool = False


class Weapon(msgspec.Struct, frozen=True):
    """A row of the direct-fire weapons table (A.9.2).  A band left as None does not exist."""

    id: str
    name: str
    it: str
    shots: int
    target: str
    short: int | None = None
    normal: int | None = None
    long: int | None = None
    hit_mod: int = 0
    area: str = ""
    area_short: int | None = None
    area_normal: int | None = None
    area_long: int | None = None
    area_halved: bool = False
    area_mod: int = 0
    vehicle_mod: str = ""
    penetration: str = ""
    he_area: str = ""
    must_emplace: bool = False
    unemplaced_as: str = ""
    lone_shots: int = 0
    lone_reload: str = ""

    @property
    def he(self) -> bool:
        return self.target == "he"

    @property
    def automatic(self) -> bool:
        return self.shots > 1 or bool(self.area)

    def bands(self, area: bool) -> tuple[int | None, int | None, int | None]:
        """The range limits for single-target or area fire (ruling BI-AREA-RANGE)."""
        if area and (self.area_short, self.area_normal, self.area_long) != (None, None, None):
            return self.area_short, self.area_normal, self.area_long
        return self.short, self.normal, self.long


class HitModifier(msgspec.Struct, frozen=True):
    """A direct-fire hit modifier (A.9.4): added to the chance, or halving it."""

    id: str
    category: str
    label: str
    it: str
    add: int = 0
    halves: bool = False
    max_cm: int | None = None


class ObservationRow(msgspec.Struct, frozen=True):
    """One target situation of the observation matrix (BI-R165)."""

    target: str
    it: str
    infantry: str
    open_vehicle: str
    closed_vehicle: str


class Band(msgspec.Struct, frozen=True):
    """A row of a 1d10 (or 1d6) result table: the modified results ``low``..``high``
    (None: "or less" / "or more") and whether it asks for a morale check."""

    id: str
    it: str
    name: str = ""
    low: int | None = None
    high: int | None = None
    morale: bool = False
    morale_mod: int = 0

    @property
    def english(self) -> str:
        """The row in plain English (the catalogue's ``msgid``)."""
        return self.name or self.id.replace("-", " ")

    @property
    def words(self) -> Msg:
        """The row for the log, in the reader's language when shown."""
        return word(self.english)

    def covers(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


class DieMod(msgspec.Struct, frozen=True):
    """A modifier of a die or a chance, with the words the log shows."""

    id: str
    label: str
    it: str
    add: int
    table: str = ""


class Penetration(msgspec.Struct, frozen=True):
    """A row of the armour penetration table (A.12.3): the 1d10 chance against a tank or another armoured vehicle."""

    id: str
    it: str
    name: str
    tank: int
    other: int


class Damage(msgspec.Struct, frozen=True):
    infantry: tuple[Band, ...]
    unarmoured: tuple[Band, ...]
    armoured: tuple[Band, ...]
    modifiers: tuple[DieMod, ...]
    penetration: tuple[Penetration, ...]
    penetration_mods: tuple[DieMod, ...]

    def mods(self, table: str) -> dict[str, DieMod]:
        return {m.id: m for m in self.modifiers if m.table == table}


class Trigger(msgspec.Struct, frozen=True):
    """A reason to check morale (A.13.1): M1..M7."""

    id: str
    label: str
    it: str
    auto: bool = False


class Morale(msgspec.Struct, frozen=True):
    bonus: int
    triggers: tuple[Trigger, ...]
    modifiers: tuple[DieMod, ...]
    effects: tuple[Band, ...]
    effect_modifiers: tuple[DieMod, ...]


class CommandDistance(msgspec.Struct, frozen=True):
    """BI-R021: command distance in cm by the leader's ability; no ``section`` = may not lead one."""

    ability: str
    it: str
    squad: int
    section: int | None = None


class Deviation(Band, frozen=True):
    """A direct HE miss (A.10.1): how far, as a percentage of the range, and which way."""

    direction: str = ""
    percent: int = 0


class Ranging(Band, frozen=True):
    """Where a ranging shot lands (A.11): +1/−1 along (long/short) and across (right/left)."""

    table: str = ""
    long: int = 0
    side: int = 0


class HEArea(msgspec.Struct, frozen=True):
    """A.10.2: the radii in cm of the inner (short) and outer (long) zones."""

    id: str
    it: str
    short: int
    long: int
    max_mm: int = 0
    big: bool = False


class HEChance(msgspec.Struct, frozen=True):
    """A.10.3: the 1d10 chance of a man being hit, by his terrain and zone."""

    terrain: str
    it: str
    short: int
    long: int


class OffsetDice(msgspec.Struct, frozen=True):
    table: str
    count: int
    sides: int


class HighExplosive(msgspec.Struct, frozen=True):
    deviation: tuple[Deviation, ...]
    areas: tuple[HEArea, ...]
    big_bonus: int
    chances: tuple[HEChance, ...]
    ranging: tuple[Ranging, ...]
    offset_dice: tuple[OffsetDice, ...]


class Contact(msgspec.Struct, frozen=True):
    """BI-R102: how hard it is for an observer to contact a kind of support."""

    id: str
    label: str
    it: str
    difficulty: str


class Smoke(msgspec.Struct, frozen=True):
    """BI-R171: how long smoke lasts (``base`` + 1d6 turns) and how much it covers."""

    base: int
    grenade: str
    grenade_reach: int
    dischargers: str
    shell_length_times: int


class Indirect(msgspec.Struct, frozen=True):
    contacts: tuple[Contact, ...]
    shift_cm: int
    smoke: Smoke


class AAWeapon(msgspec.Struct, frozen=True):
    """BI-R260: an anti-aircraft weapon's 1d10 chance (None: NO)."""

    weapon: str
    it: str
    name: str
    aircraft: int | None = None
    helicopter: int | None = None
    max_cm: int | None = None
    carried_by: tuple[str, ...] = ()
    #: A.13.2 "under HE or automatic fire" for the morale check its hit asks for.
    under_fire: bool = False
    #: A.9.4 at night: its gunner is a target "firing automatic" (+2), else single shots (+1).
    automatic: bool = False


class AircraftHit(msgspec.Struct, frozen=True):
    shot_down: int
    return_on: int
    return_turns: int


class Air(msgspec.Struct, frozen=True):
    move_per_pip: int
    rotor_fails: int
    passenger_hit: int
    aa: tuple[AAWeapon, ...]
    quality: dict[str, int]
    aircraft: AircraftHit
    helicopter: tuple[Band, ...]


class Sniper(msgspec.Struct, frozen=True):
    fires_on: int
    veteran: int
    elite: int
    seen_as: str


class Scout(msgspec.Struct, frozen=True):
    command_times: int
    observe_steps: int
    tiers: tuple[str, ...]


class Mines(msgspec.Struct, frozen=True):
    ap_short: int
    ap_long: int
    at_short: int
    at_long: int
    at_destroys: int
    at_penetration: str
    trap_terrain: str
    trap_zone: str


class Detection(msgspec.Struct, frozen=True):
    what: str
    difficulty: str
    cm: int
    engineer_difficulty: str
    engineer_cm: int


class NonLethal(msgspec.Struct, frozen=True):
    rubber_as: str
    rubber_wounded: str
    rubber_seriously_wounded: str
    rubber_dead: str
    flashbang_cm: int
    gas_cm: int


class Special(msgspec.Struct, frozen=True):
    sniper: Sniper
    scout: Scout
    mines: Mines
    detection: tuple[Detection, ...]
    nonlethal: NonLethal


class VehicleType(msgspec.Struct, frozen=True):
    """A vehicle type: movement (BI-R045), armour column (A.12.3), combat vehicle (BI-R025)."""

    id: str
    name: str
    it: str
    road: int
    off_road: int
    armour: str = ""
    combat: bool = False


class _Vehicles(msgspec.Struct, frozen=True):
    stabilised_fire: int
    types: tuple[VehicleType, ...]


class _Command(msgspec.Struct, frozen=True):
    distances: tuple[CommandDistance, ...]


class _Tiers(msgspec.Struct, frozen=True):
    tiers: tuple[Tier, ...]


class _Difficulties(msgspec.Struct, frozen=True):
    difficulties: tuple[Difficulty, ...]


class MoveModifier(msgspec.Struct, frozen=True):
    """BI-R042: a percentage off a man's allowance, or a whole turn's move."""

    id: str
    label: str
    it: str
    percent: int = 0
    whole_turn: bool = False
    auto: bool = False


class _Modes(msgspec.Struct, frozen=True):
    modes: tuple[MoveMode, ...]
    modifiers: tuple[MoveModifier, ...]


class _Weapons(msgspec.Struct, frozen=True):
    weapons: tuple[Weapon, ...]


class _Modifiers(msgspec.Struct, frozen=True):
    modifiers: tuple[HitModifier, ...]


class _Observation(msgspec.Struct, frozen=True):
    rows: tuple[ObservationRow, ...]


@cache
def tiers() -> tuple[Tier, ...]:
    """Best first: the order of the fire-and-actions phase (BI-R061)."""
    return TABLES.decode("quality.toml", _Tiers).tiers


@cache
def tier_by_id() -> dict[str, Tier]:
    return {t.id: t for t in tiers()}


@cache
def difficulties() -> tuple[Difficulty, ...]:
    """The ladder of BI-R069, easiest first."""
    return TABLES.decode("actions.toml", _Difficulties).difficulties


@cache
def difficulty_by_id() -> dict[str, Difficulty]:
    return {d.id: d for d in difficulties()}


@cache
def move_modes() -> dict[str, MoveMode]:
    return {m.id: m for m in TABLES.decode("movement.toml", _Modes).modes}


@cache
def move_modifiers() -> dict[str, MoveModifier]:
    return {m.id: m for m in TABLES.decode("movement.toml", _Modes).modifiers}


@cache
def weapons() -> dict[str, Weapon]:
    return {w.id: w for w in TABLES.decode("weapons.toml", _Weapons).weapons}


#: BI-R230 ("Armi non Letali"): rubber bullets, a weapon the scenario may hand out.
RUBBER = "rubber"


def direct_fire_weapons() -> dict[str, Weapon]:
    """The weapons a shot or a hit by hand may name: A.9.2's table, and rubber bullets, which
    hit as a carbine (BI-R230; their milder damage is casualties.infantry_hit's)."""
    table = dict(weapons())
    table[RUBBER] = msgspec.structs.replace(table[special().nonlethal.rubber_as], id=RUBBER, name="Rubber bullets")
    return table


@cache
def hit_modifiers() -> dict[str, HitModifier]:
    return {m.id: m for m in TABLES.decode("hit_modifiers.toml", _Modifiers).modifiers}


@cache
def observation() -> dict[str, ObservationRow]:
    return {r.target: r for r in TABLES.decode("observation.toml", _Observation).rows}


#: The damage tables of A.12 and their modifiers.
damage = TABLES.table("damage.toml", Damage)
#: The morale tables of A.13.
morale = TABLES.table("morale.toml", Morale)


@cache
def command_distance() -> dict[str, CommandDistance]:
    return {d.ability: d for d in TABLES.decode("command.toml", _Command).distances}


#: A table's row type, whatever columns it adds to :class:`Band`.
AnyBand = TypeVar("AnyBand", bound=Band)


def band(rows: tuple[AnyBand, ...], value: int) -> AnyBand:
    """The row of a result table that covers ``value``."""
    return next(r for r in rows if r.covers(value))


vehicles = TABLES.table("vehicles.toml", _Vehicles)


@cache
def vehicle_types() -> dict[str, VehicleType]:
    return {v.id: v for v in vehicles().types}


#: The HE tables of A.10 and the ranging tables of A.11.
high_explosive = TABLES.table("he.toml", HighExplosive)
#: Indirect fire (A.11) and smoke (A.14.2).
indirect = TABLES.table("indirect.toml", Indirect)
#: Aircraft, helicopters and anti-aircraft fire (A.15).
air = TABLES.table("air.toml", Air)
#: The special rules of A.16.
special = TABLES.table("special.toml", Special)
