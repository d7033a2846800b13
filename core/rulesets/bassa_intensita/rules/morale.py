"""Morale (A.13) as pure functions: the chance to pass and the effect of a failure.
The checks themselves, and when they fall due, are in ``casualties.py``."""

from __future__ import annotations

from core.language.i18n import M
from core.log.events import Mod
from core.rulesets.bassa_intensita.tables import band, morale
from core.rulesets.bassa_intensita.terms import MoraleEffect
from core.rulesets.bassa_intensita.words import word


def pass_chance(
    quality: int,
    mod_ids: list[str],
    *,
    near_seriously_wounded: int = 0,
    fanatic: int = 0,
    table_mod: int = 0,
) -> tuple[int, tuple[Mod, ...]]:
    """BI-R181: Quality + 3, then every modifier that applies (they all add).

    ``near_seriously_wounded``: friendly seriously wounded men within 10 cm (−1 each);
    ``fanatic``: the scenario's +1 or +2; ``table_mod``: what the damage table adds
    (−2 for an immobilised vehicle or a lost main armament).
    Returns the chance and the modifiers as logged; they add up to the chance.
    """
    t = morale()
    rows = {m.id: m for m in t.modifiers}
    mods = [Mod(M("morale"), t.bonus, "BI-R181")]
    mods += [Mod(word(rows[i].label), rows[i].add, "BI-R181") for i in mod_ids]
    if near_seriously_wounded:
        row = rows["seriously-wounded-near"]
        label = M("{n} {what}", n=near_seriously_wounded, what=word(row.label))
        mods.append(Mod(label, row.add * near_seriously_wounded, "BI-R181"))
    if fanatic:
        mods.append(Mod(M("fanatics"), fanatic, "BI-R181"))
    if table_mod:
        mods.append(Mod(M("damage table"), table_mod, "A.12"))
    return quality + sum(m.value for m in mods), tuple(mods)


def effect_mods(*, elite: bool, undamaged_armour: bool) -> tuple[Mod, ...]:
    """BI-R183: −2 for the crew of an undamaged armoured vehicle, −1 for Elite; they stack."""
    rows = {m.id: m for m in morale().effect_modifiers}
    ids = [i for i, on in (("undamaged-armour", undamaged_armour), ("elite", elite)) if on]
    return tuple(Mod(word(rows[i].label), rows[i].add, "BI-R183") for i in ids)


def effect(face: int, mods: tuple[Mod, ...], *, already_shocked: bool) -> str:
    """BI-R182..R184: 'shocked', 'panic' or 'surrender'.  A modified result of 0 or less
    is Shocked (ruling BI-MORALE-LOW); Shocked on a man already Shocked is Panic."""
    value = face + sum(m.value for m in mods)
    result = band(morale().effects, value).id
    return MoraleEffect.PANIC if result == MoraleEffect.SHOCKED and already_shocked else result
