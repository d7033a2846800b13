"""Bassa Intensità tables, decoded from the TOML files in ``data/`` into typed structs.

Each data file names its rulebook heading and the digest's section; the tests
check the numbers against the book.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import msgspec

DATA = Path(__file__).parent / "data"


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


class _Tiers(msgspec.Struct, frozen=True):
    tiers: tuple[Tier, ...]


class _Difficulties(msgspec.Struct, frozen=True):
    difficulties: tuple[Difficulty, ...]


class _Modes(msgspec.Struct, frozen=True):
    modes: tuple[MoveMode, ...]


class _Weapons(msgspec.Struct, frozen=True):
    weapons: tuple[Weapon, ...]


class _Modifiers(msgspec.Struct, frozen=True):
    modifiers: tuple[HitModifier, ...]


class _Observation(msgspec.Struct, frozen=True):
    rows: tuple[ObservationRow, ...]


def _load(name: str, kind: type) -> msgspec.Struct:
    return msgspec.toml.decode((DATA / name).read_bytes(), type=kind)


@cache
def tiers() -> tuple[Tier, ...]:
    """Best first: the order of the fire-and-actions phase (BI-R061)."""
    return _load("quality.toml", _Tiers).tiers


@cache
def tier_by_id() -> dict[str, Tier]:
    return {t.id: t for t in tiers()}


@cache
def difficulties() -> tuple[Difficulty, ...]:
    """The ladder of BI-R069, easiest first."""
    return _load("actions.toml", _Difficulties).difficulties


@cache
def difficulty_by_id() -> dict[str, Difficulty]:
    return {d.id: d for d in difficulties()}


@cache
def move_modes() -> dict[str, MoveMode]:
    return {m.id: m for m in _load("movement.toml", _Modes).modes}


@cache
def weapons() -> dict[str, Weapon]:
    return {w.id: w for w in _load("weapons.toml", _Weapons).weapons}


@cache
def hit_modifiers() -> dict[str, HitModifier]:
    return {m.id: m for m in _load("hit_modifiers.toml", _Modifiers).modifiers}


@cache
def observation() -> dict[str, ObservationRow]:
    return {r.target: r for r in _load("observation.toml", _Observation).rows}
