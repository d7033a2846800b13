"""Breaking News saving throws as pure functions (§9.0–§9.3).

A man rolls 1d6 per hit; each die plus the modifier must reach his save value,
and a natural 1 always kills.  Vehicles save by type and weapon (§9.2).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.language.i18n import M
from core.log.events import All, Mod
from core.rulesets.breaking_news.tables.combat import saves as save_table
from core.rulesets.breaking_news.tables.combat import support, vehicle_saves

#: Where a hit came from; decides the save value and the bonus.
NORMAL = "fire"
SPECULATIVE = "speculative"
FRIENDLY = "friendly"
BOMBARDMENT = "bombardment"
IED = "ied"
EXPLOSION = "explosion"  # inside a vehicle that blew up
STORM_CIVILIAN = "storm-civilian"  # a civilian or hostage in a stormed building


@dataclass(frozen=True)
class SaveFacts:
    leader: bool = False  # the team/section leader (§9.0)
    protected: bool = False  # behind protection
    source: str = NORMAL
    heavy_vehicle: bool = False  # EXPLOSION: inside a heavily-armoured vehicle (or tank, IT)
    vs_special_forces: bool = False  # STORM_CIVILIAN: the attackers are Special Forces


def save_value(class_save: int, facts: SaveFacts) -> int:
    """The number needed: the class's (§3.0) unless §9.1/§11.1 replace it (digest T-13)."""
    t = save_table()
    s = support()
    match facts.source:
        case "ied":
            return t.ied
        case "bombardment":
            return s.artillery.save
        case "explosion":
            return t.vehicle_explosion_heavy if facts.heavy_vehicle else t.vehicle_explosion
        case "storm-civilian":
            return t.civilian_vs_special_forces if facts.vs_special_forces else t.civilian
    return class_save


def save_mods(facts: SaveFacts) -> tuple[Mod, ...]:
    """§9.0: one +1 if any of leader, protection, friendly fire, speculative fire applies
    (not cumulative); §8.6 and §8.4 make it +2 against speculative fire and
    bombardment.  The largest applicable bonus is taken, never a sum (AMB-42, AMB-44).
    §9.1: the men in a vehicle that explodes have no protection to count: the vehicle
    that covered them (§8.8) is what blew up; a leader keeps his +1 (BN-C-EXPLOSION-SAVE)."""
    t = save_table()
    candidates: list[Mod] = []
    if facts.source == SPECULATIVE:
        candidates.append(Mod(M("speculative fire"), t.speculative_bonus, "§8.6"))
    if facts.source == BOMBARDMENT:
        candidates.append(Mod(M("bombardment"), t.bombardment_bonus, "§8.4"))
    if facts.source == FRIENDLY:
        candidates.append(Mod(M("friendly fire"), t.friendly_bonus, "§8.7"))
    if facts.leader:
        candidates.append(Mod(M("team leader"), t.bonus, "§9.0"))
    if facts.protected and facts.source != EXPLOSION:
        candidates.append(Mod(M("behind protection"), t.bonus, "§9.0"))
    if not candidates:
        return ()
    return (max(candidates, key=lambda m: m.value),)


def save_passes(face: int, value: int, mods: tuple[Mod, ...]) -> bool:
    """One die: a natural 1 always fails a man (§9.0); otherwise die + mods >= value."""
    if face <= save_table().natural_fail:
        return False
    return face + sum(m.value for m in mods) >= value


def all_saved(faces: tuple[int, ...], value: int, mods: tuple[Mod, ...]) -> bool:
    """A man with several hits must pass every save (§9.0)."""
    return all(save_passes(f, value, mods) for f in faces)


def save_check(value: int, mods: tuple[Mod, ...]) -> All:
    """:func:`all_saved` as a roll records it (§9.0): every die, the modifiers added
    to the die (so the face it needs is the value less them), a natural 1 failing."""
    return All(face=max(value - sum(m.value for m in mods), save_table().natural_fail + 1), base=value)


# --------------------------------------------------------------------- vehicles


@dataclass(frozen=True)
class VehicleResult:
    passed: bool
    exploded: bool = False


def vehicle_save_value(vehicle_type: str, column: str, variant: str = "") -> int:
    """§9.2 (digest T-14): the number needed, 0 if unaffected, 7 if it cannot pass."""
    return vehicle_saves(variant)[vehicle_type].against(column)


def vehicle_save_mods(value: int, bombardment: bool) -> tuple[Mod, ...]:
    """§8.4: "all the models in the area" of a bombardment save with +2, a vehicle as well;
    one with no save at all on that column (an impossible 7) has none to improve
    (ruling BN-C-VEHICLE-SAVE)."""
    if bombardment and value <= 6:
        return (Mod(M("bombardment"), save_table().bombardment_bonus, "§8.4"),)
    return ()


def vehicle_save(face: int, value: int, bonus: int = 0) -> VehicleResult:
    """Knocked out on a fail; a fail by 3 or more explodes it (§9.2), the roll counted
    with its bonus.  No natural-1 rule for vehicles (the Italian draft limits it to
    infantry; VSAVE-3)."""
    rolled = face + bonus
    if rolled >= value:
        return VehicleResult(True)
    return VehicleResult(False, value - rolled >= save_table().explodes_by)


def vehicle_save_check(value: int, bonus: int = 0) -> All:
    """§9.2: the vehicle comes through only if every die reaches the value (less its bonus)."""
    return All(face=max(value - bonus, 1), base=value) if bonus else All(face=value)


def explosion_heavy(vehicle_class: str, variant: str = "") -> bool:
    """§9.1: occupants of a heavily-armoured vehicle save at 2+ (the Italian draft adds the tank)."""
    return vehicle_class in save_table(variant).heavy_explosion_types


# ---------------------------------------------------------------------- wounded


def wound(face: int) -> int:
    """§9.3 (optional): 0 = dead; otherwise the turns he survives without a medic."""
    return 0 if face <= save_table().wounded.dead_up_to else face
