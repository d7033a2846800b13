"""Breaking News tables, decoded from the TOML files in ``data/`` into typed structs.

Each data file names its rulebook section; tests check the numbers against the book.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import msgspec

DATA = Path(__file__).parent / "data"


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
    data = msgspec.toml.decode((DATA / "troops.toml").read_bytes(), type=_Troops)
    return {c.id: c for c in data.classes}
