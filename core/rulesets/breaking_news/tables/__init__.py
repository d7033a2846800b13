"""Breaking News tables, decoded from the TOML files in ``data/`` into typed structs.

Each data file names its rulebook section; tests check the numbers against the book.
Where the Italian draft of 9 Dec 2009 prints other numbers, its rows carry
``variant = "it-2009-12-09"`` and replace the English row with the same id in that
variant (:func:`_overlay`).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Protocol, TypeVar

import msgspec

from core.ruleset import Tables

TABLES = Tables(Path(__file__).parents[1] / "data")

T = TypeVar("T")


class _Row(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def variant(self) -> str: ...


R = TypeVar("R", bound=_Row)


def _overlay(rows: Iterable[R], variant: str) -> dict[str, R]:
    """The English rows, with those of ``variant`` put in place of their namesakes."""
    rows = list(rows)
    out = {r.id: r for r in rows if not r.variant}
    out.update({r.id: r for r in rows if variant and r.variant == variant})
    return out


# ------------------------------------------------------------------- §3.0 classes


class TroopClass(msgspec.Struct, frozen=True):
    """§3.0 troop classes (digest T-01)."""

    id: str
    name: str
    side: str
    init_morale: int
    spotting: int
    fire: int
    covering: int
    melee: int
    save: int
    suppression: int
    points: int


class _Troops(msgspec.Struct, frozen=True):
    classes: tuple[TroopClass, ...]


@cache
def troop_classes() -> dict[str, TroopClass]:
    data = TABLES.decode("troops.toml", _Troops)
    return {c.id: c for c in data.classes}


# --------------------------------------------------------------------- leadership


class Leadership(msgspec.Struct, frozen=True):
    """Leadership levels 1–4 (digest T-02)."""

    level: int
    modifier: int
    cost: int


class _Leadership(msgspec.Struct, frozen=True):
    levels: tuple[Leadership, ...]


@cache
def leadership() -> dict[int, Leadership]:
    return {lv.level: lv for lv in TABLES.decode("leadership.toml", _Leadership).levels}


def leadership_modifier(level: int) -> int:
    """The modifier of a leadership level; 0 for a man with none."""
    row = leadership().get(level)
    return row.modifier if row else 0


# ----------------------------------------------------------------- army points


class WeaponCost(msgspec.Struct, frozen=True):
    id: str
    cost: int
    #: What may carry it: "man", or the vehicle types that mount it (BN-PTS-MOUNT).
    on: tuple[str, ...] = ("man",)


class VehicleCost(msgspec.Struct, frozen=True):
    id: str
    base: int
    plus_weapons: bool


class ArmyPoints(msgspec.Struct, frozen=True):
    """ "Calculating points" (digest T-17); class costs are the §3.0 PTS column."""

    medic: int
    weapons: tuple[WeaponCost, ...]
    vehicles: tuple[VehicleCost, ...]

    def weapon_cost(self, weapon: str) -> int | None:
        return next((w.cost for w in self.weapons if w.id == weapon.upper()), None)

    def vehicle(self, kind: str) -> VehicleCost | None:
        return next((v for v in self.vehicles if v.id == kind), None)

    def carriers(self, weapon: str) -> tuple[str, ...]:
        """Who may carry the weapon: "man" and vehicle types; () if it is not listed."""
        return next((w.on for w in self.weapons if w.id == weapon.upper()), ())


army_points = TABLES.table("army_points.toml", ArmyPoints)


# ------------------------------------------------------------------------ extras


class Extra(msgspec.Struct, frozen=True):
    """One EXTRA (digest T-18)."""

    id: str
    name: str
    cost: int
    per: str
    variant: str = ""
    army: str = ""
    requires: str = ""
    excludes: tuple[str, ...] = ()
    max_level: int = 0
    special_level: int = 0
    platoon_cost: int = 0


class _Extras(msgspec.Struct, frozen=True):
    extras: tuple[Extra, ...]


@cache
def extras(variant: str = "") -> dict[str, Extra]:
    return _overlay(TABLES.decode("extras.toml", _Extras).extras, variant)


# ------------------------------------------------------------------- negotiation


class NegotiationLevel(msgspec.Struct, frozen=True):
    """Extras: Negotiation (digest T-19)."""

    level: int
    cost: int
    dp_per_turn: int
    variant: str = ""
    only: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return str(self.level)


class _Negotiation(msgspec.Struct, frozen=True):
    levels: tuple[NegotiationLevel, ...]
    keep_away_cm: int


@cache
def negotiation(variant: str = "") -> dict[int, NegotiationLevel]:
    rows = _overlay(TABLES.decode("negotiation.toml", _Negotiation).levels, variant)
    return {r.level: r for r in rows.values()}


@cache
def negotiation_keep_away_cm() -> int:
    return TABLES.decode("negotiation.toml", _Negotiation).keep_away_cm


# ---------------------------------------------------------------- defeat points


class DefeatLine(msgspec.Struct, frozen=True):
    """One line of the §14.0 defeat points list (digest T-16)."""

    id: str
    points: int
    category: str
    rule: str
    variant: str = ""
    roe_points: int = 0
    trigger: str = ""

    def value(self, roe: bool) -> int:
        return self.roe_points if roe and self.roe_points else self.points


class _DefeatPoints(msgspec.Struct, frozen=True):
    lines: tuple[DefeatLine, ...]


@cache
def defeat_points(variant: str = "") -> dict[str, DefeatLine]:
    return _overlay(TABLES.decode("defeat_points.toml", _DefeatPoints).lines, variant)


# ------------------------------------------------------------------------- media


class Journalists(msgspec.Struct, frozen=True):
    """Extras: Media (digest T-20): multipliers of the Regular player's defeat points."""

    id: str
    moved_by: str
    all: int
    civilians_buildings: int
    opponent_main_objective: int
    move_dice: int = 0


class _Media(msgspec.Struct, frozen=True):
    journalists: tuple[Journalists, ...]


@cache
def media() -> dict[str, Journalists]:
    return {j.id: j for j in TABLES.decode("media.toml", _Media).journalists}
