"""Breaking News combat tables (§6–§11), decoded from the TOML files in ``data/``.

Each loader takes the ruleset variant: where the Italian draft of 9 Dec 2009
prints other numbers (digest §6), its ``[[variant]]`` rows replace the English
ones.  Tests check every number against the book.
"""

from __future__ import annotations

from functools import cache

import msgspec

from core.rulesets.breaking_news.tables import TABLES
from core.rulesets.breaking_news.terms import FireAllowed

# --------------------------------------------------------------------- weapons


class Weapon(msgspec.Struct, frozen=True):
    """One row of the §8.0 firing table and the facts other sections attach to it."""

    id: str
    name: str
    bands: tuple[int, int, int, int]
    dice: int
    movement: str
    vehicle_column: str
    burst_bands: tuple[int, int, int, int] | None = None
    burst_dice: int = 0
    burst: bool = False
    max_cm: int = 150
    min_cm: int = 0
    small_arms: bool = False
    ignores_cover: bool = False
    sniper: bool = False
    crewed: bool = False
    magazine: bool = False
    area_cm: int = 0
    blast: str = ""
    deviation: str = ""
    opportunity: str = "any"
    no_men: bool = False
    indirect: bool = False
    smoke_step_cm: int = 0

    @property
    def has_burst_mode(self) -> bool:
        return self.burst_bands is not None


class _WeaponVariant(msgspec.Struct, frozen=True):
    variant: str
    weapon: str
    bands: tuple[int, int, int, int]


class _Weapons(msgspec.Struct, frozen=True):
    weapons: tuple[Weapon, ...]
    variant: tuple[_WeaponVariant, ...] = ()


@cache
def weapons(variant: str = "") -> dict[str, Weapon]:
    data = TABLES.decode("weapons.toml", _Weapons)
    out = {w.id: w for w in data.weapons}
    for v in data.variant:
        if v.variant == variant:
            out[v.weapon] = msgspec.structs.replace(out[v.weapon], bands=v.bands)
    return out


# ------------------------------------------------------------------------ fire


class Deviation(msgspec.Struct, frozen=True):
    step_cm: int
    directions: tuple[str, str, str, str, str, str]


class Opportunity(msgspec.Struct, frozen=True):
    men_within_cm: int


class FireTable(msgspec.Struct, frozen=True):
    """§8.0 modifiers (digest T-09), range bands, deviation (§8.0.2), opportunity (§8.2)."""

    moved_over_cm: int
    moved: int
    cover: int
    poor_class: int
    poor_classes: tuple[str, ...]
    dodge: int
    sniper_target: int
    lone_crew: int
    special_forces: int
    special_forces_classes: tuple[str, ...]
    suppressed_open_cover_beyond_cm: int
    bands_cm: tuple[int, int, int, int]
    split_within_cm: int
    group_within_cm: int
    deviation: dict[str, Deviation]
    opportunity: Opportunity


fire_table = TABLES.table("fire.toml", FireTable)


class Covering(msgspec.Struct, frozen=True):
    """§8.3 covering fire (digest T-12)."""

    cap: int
    max_cm: int
    dice: int
    bunker_dice: int
    area_cm: int
    values: dict[str, tuple[int, int]]


covering = TABLES.table("covering.toml", Covering)


# --------------------------------------------------------------------- actions


class Action(msgspec.Struct, frozen=True):
    id: str
    name: str
    max_cm: int
    fire: FireAllowed


class Allowance(msgspec.Struct, frozen=True):
    max_cm: int
    fire: FireAllowed


class Obstacle(msgspec.Struct, frozen=True):
    level: int
    allows: dict[str, Allowance] = {}
    helped_as: int = 0


class Allowances(msgspec.Struct, frozen=True):
    dodge_cm: int
    hidden_cm: int
    spot_bonus_cm: int
    panic_cm: int
    carry_cm: int
    retreat_cm: int
    tracked_cm: int
    wheeled_cm: int
    vehicle_dice: int


class _Actions(msgspec.Struct, frozen=True):
    actions: tuple[Action, ...]
    obstacles: tuple[Obstacle, ...]
    allowances: Allowances


_actions = TABLES.table("actions.toml", _Actions)


def actions() -> dict[str, Action]:
    return {a.id: a for a in _actions().actions}


def obstacles() -> dict[int, Obstacle]:
    return {o.level: o for o in _actions().obstacles}


def allowances() -> Allowances:
    return _actions().allowances


# -------------------------------------------------------------------- spotting


class Spotting(msgspec.Struct, frozen=True):
    """§7.0 (digest T-07)."""

    bands: tuple[tuple[int, int], ...]
    jungle_or_night: int
    open: int
    special_forces: int
    special_forces_classes: tuple[str, ...]
    sniper_target: int
    sniper_spotter: int
    friends_within_cm: int


spotting = TABLES.table("spotting.toml", Spotting)


# ----------------------------------------------------------------------- saves


class VehicleSaves(msgspec.Struct, frozen=True):
    """One row of §9.2 (digest T-14): the number needed per weapon column; 0 = unaffected."""

    type: str
    name: str
    light: int
    hmg: int
    light_at: int
    ied: int
    heavy_at: int

    def against(self, column: str) -> int:
        return getattr(self, column)


class Wounded(msgspec.Struct, frozen=True):
    dead_up_to: int


class _SavesVariant(msgspec.Struct, frozen=True):
    variant: str
    heavy_explosion_types: tuple[str, ...]


class Saves(msgspec.Struct, frozen=True):
    """§9.0–§9.3 (digest T-13, T-15) and the vehicle rows of T-14."""

    bonus: int
    speculative_bonus: int
    bombardment_bonus: int
    friendly_bonus: int
    natural_fail: int
    ied: int
    bombardment: int
    vehicle_explosion: int
    vehicle_explosion_heavy: int
    heavy_explosion_types: tuple[str, ...]
    civilian: int
    civilian_vs_special_forces: int
    explodes_by: int
    vehicles: tuple[VehicleSaves, ...]
    wounded: Wounded
    variant: tuple[_SavesVariant, ...] = ()


@cache
def saves(variant: str = "") -> Saves:
    data: Saves = TABLES.decode("saves.toml", Saves)
    for v in data.variant:
        if v.variant == variant:
            data = msgspec.structs.replace(data, heavy_explosion_types=v.heavy_explosion_types)
    return data


def vehicle_saves(variant: str = "") -> dict[str, VehicleSaves]:
    return {v.type: v for v in saves(variant).vehicles}


# --------------------------------------------------------------------- support


class Artillery(msgspec.Struct, frozen=True):
    call: int
    improved: int
    roe: int
    template_cm: int
    drift_dice: int
    save: int
    save_bonus: int


class Mortar(msgspec.Struct, frozen=True):
    template_cm: int
    step_cm: int
    irregular_call: int
    counter_battery: int


class Speculative(msgspec.Struct, frozen=True):
    permission: int
    permission_roe: int
    save_bonus: int


class Friendly(msgspec.Struct, frozen=True):
    corridor_cm: int
    beyond_cm: int
    save_bonus: int


class Smoke(msgspec.Struct, frozen=True):
    template_cm: int
    drift_dice: int


class Ied(msgspec.Struct, frozen=True):
    dud_up_to: int
    trigger_cm: int
    save: int


class Melee(msgspec.Struct, frozen=True):
    suppressed: int
    max_per_side: int


class Storm(msgspec.Struct, frozen=True):
    defender_hits: int
    attacker_hits: int
    trigger_cm: int
    civilian_save: int
    civilian_save_vs_sf: int


class Support(msgspec.Struct, frozen=True):
    artillery: Artillery
    mortar: Mortar
    speculative: Speculative
    friendly: Friendly
    smoke: Smoke
    ied: Ied
    melee: Melee
    storm: Storm


support = TABLES.table("support.toml", Support)
