"""Ludonet tables, decoded from the TOML files in ``data/`` into typed structs.

The source is an untitled fragment without numbered sections; each data file
carries the digest's section (``section``) and rule ids (``rule``), and the
tests check the numbers against the fragment.  What the fragment leaves out
(weapon ranges, combat values, vehicle movement: digest LN-AMB-02/04) is set per
piece by the scenario (``Unit.stats``), not here.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from core.ruleset import Tables

TABLES = Tables(Path(__file__).parent / "data")


class DieMod(msgspec.Struct, frozen=True):
    id: str
    label: str
    value: int


class Sourced(msgspec.Struct, frozen=True, kw_only=True):
    """A table with the digest section and rule ids it encodes."""

    section: str
    rule: str


class MoveMode(msgspec.Struct, frozen=True):
    id: str
    it: str
    cm: int


class Movement(Sourced, frozen=True):
    """LN-R010/R012."""

    heavy: int
    heavy_it: str
    tired_on: int
    tired_turns: int
    modes: tuple[MoveMode, ...]

    def mode(self, mode_id: str) -> MoveMode:
        return next(m for m in self.modes if m.id == mode_id)


class Fire(Sourced, frozen=True):
    """LN-R030..R037."""

    full: int
    half: int
    heavy_damage: int
    no_effect_max: int
    wound_max: int
    wounds_to_eliminate: int
    modifiers: tuple[DieMod, ...]


class Leaving(msgspec.Struct, frozen=True):
    """LN-R052: the opponent's bonus on its last roll at a figure leaving the melee."""

    rule: str
    opponent_bonus: int


class Melee(Sourced, frozen=True):
    """LN-R050..R052."""

    modifiers: tuple[DieMod, ...]
    leaving: Leaving


class Morale(Sourced, frozen=True):
    """LN-R070."""

    loss_fraction_num: int
    loss_fraction_den: int
    shaken_max: int


class Visibility(Sourced, frozen=True):
    """LN-R020: how far a figure inside woods or scrub is seen."""

    woods_standing_cm: int
    woods_prone_cm: int


class Vehicles(Sourced, frozen=True):
    """LN-R041: the opposed combat-value roll, by the shooter's margin."""

    immobilise_min: int
    immobilise_it: str
    destroy_min: int
    destroy_it: str
    immobilised_turns: int


class Grenade(Sourced, frozen=True):
    """LN-R038."""

    radius_cm: int


class Aircraft(Sourced, frozen=True):
    """LN-R060/R061."""

    passes: int
    hit_on: int
    diameter_cm: int


class AntiAircraft(Sourced, frozen=True):
    """LN-R062."""

    hit_on: int


class Artillery(Sourced, frozen=True):
    """Ruling LN-BARRAGE (LN-R020 gives no procedure)."""

    hit_on: int
    radius_cm: int
    heavy: bool


class Areas(msgspec.Struct, frozen=True):
    grenade: Grenade
    aircraft: Aircraft
    anti_aircraft: AntiAircraft
    artillery: Artillery


movement = TABLES.table("movement.toml", Movement)
fire = TABLES.table("fire.toml", Fire)
melee = TABLES.table("melee.toml", Melee)
morale = TABLES.table("morale.toml", Morale)
vehicles = TABLES.table("vehicles.toml", Vehicles)
areas = TABLES.table("areas.toml", Areas)
visibility = TABLES.table("visibility.toml", Visibility)
