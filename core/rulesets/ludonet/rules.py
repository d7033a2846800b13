"""Ludonet rules as pure functions: inputs and dice faces in, results out.

The source has no numbered sections; each rule cites the digest's rule id
(LN-Rnnn, section B.n).
"""

from __future__ import annotations

from collections.abc import Iterable

from core.events import Mod
from core.rulesets.ludonet.tables import fire, melee, morale


def _mods(table, conditions: Iterable[str], rule: str) -> tuple[Mod, ...]:
    wanted = set(conditions)
    return tuple(Mod(m.label, m.value, rule) for m in table.modifiers if m.id in wanted)


def to_hit_mods(conditions: Iterable[str]) -> tuple[Mod, ...]:
    """LN-R031: one modifier per condition that holds; they add up (ruling LN-MODS)."""
    return _mods(fire(), conditions, "LN-R031")


def to_hit_needed(half_range: bool, mods: Iterable[Mod]) -> int:
    """LN-R030/R031: the face the die itself must show to hit: 4+ within half range,
    5+ beyond, less the modifiers.  Above 6 it cannot hit; no face always hits."""
    base = fire().half if half_range else fire().full
    return base - sum(m.value for m in mods)


def hits(face: int, needed: int) -> bool:
    return face >= needed


def damage(face: int, heavy: bool) -> str:
    """LN-R035/R036: ``none``, ``wound`` or ``eliminated`` for the target's 1d6 (+1 heavy weapon)."""
    table = fire()
    total = face + (table.heavy_damage if heavy else 0)
    if total <= table.no_effect_max:
        return "none"
    return "wound" if total <= table.wound_max else "eliminated"


def melee_mods(conditions: Iterable[str]) -> tuple[Mod, ...]:
    """LN-R051."""
    return _mods(melee(), conditions, "LN-R051")


def melee_winner(a_total: int, b_total: int) -> str:
    """LN-R050: ``a`` or ``b`` eliminates the other; ``tie``: the fight goes on."""
    if a_total == b_total:
        return "tie"
    return "a" if a_total > b_total else "b"


def morale_due(start: int, lost: int) -> bool:
    """LN-R070 (ruling LN-MORALE): half the starting figures or more eliminated."""
    m = morale()
    return lost * m.loss_fraction_den >= start * m.loss_fraction_num and lost > 0


def shaken(face: int) -> bool:
    """LN-R070: a 1 or a 2 and the unit falls back."""
    return face <= morale().shaken_max


def first_player(faces: dict[str, int]) -> str | None:
    """LN-R002 (ruling LN-FIRST): the higher 1d6 moves first all game; None on a tie."""
    best = max(faces.values())
    winners = [side for side, face in faces.items() if face == best]
    return winners[0] if len(winners) == 1 else None
