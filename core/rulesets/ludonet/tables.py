"""Ludonet tables, decoded from the TOML files in ``data/`` into typed structs.

The source is an untitled fragment without numbered sections; each data file
names the digest's section and rule ids, and the tests check the numbers
against the fragment.  Weapon ranges are not in it (digest LN-AMB-02).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import msgspec

DATA = Path(__file__).parent / "data"


class DieMod(msgspec.Struct, frozen=True):
    id: str
    label: str
    value: int


class MoveMode(msgspec.Struct, frozen=True):
    id: str
    it: str
    cm: int


class Movement(msgspec.Struct, frozen=True):
    """LN-R010/R012."""

    heavy: int
    heavy_it: str
    tired_on: int
    tired_turns: int
    modes: tuple[MoveMode, ...]

    def mode(self, mode_id: str) -> MoveMode:
        return next(m for m in self.modes if m.id == mode_id)


class Fire(msgspec.Struct, frozen=True):
    """LN-R030..R037."""

    full: int
    half: int
    heavy_damage: int
    no_effect_max: int
    wound_max: int
    wounds_to_eliminate: int
    modifiers: tuple[DieMod, ...]


class Melee(msgspec.Struct, frozen=True):
    """LN-R050/R051."""

    modifiers: tuple[DieMod, ...]


class Morale(msgspec.Struct, frozen=True):
    """LN-R070."""

    loss_fraction_num: int
    loss_fraction_den: int
    shaken_max: int


def _load(name: str, kind: type) -> msgspec.Struct:
    return msgspec.toml.decode((DATA / name).read_bytes(), type=kind)


@cache
def movement() -> Movement:
    return _load("movement.toml", Movement)


@cache
def fire() -> Fire:
    return _load("fire.toml", Fire)


@cache
def melee() -> Melee:
    return _load("melee.toml", Melee)


@cache
def morale() -> Morale:
    return _load("morale.toml", Morale)
