"""Ludonet rules as pure functions: inputs and dice faces in, results out.

The source has no numbered sections; each rule cites the digest's rule id
(LN-Rnnn, section B.n).
"""

from __future__ import annotations

from collections.abc import Iterable

from core.language.i18n import M
from core.log.events import AtLeast, Mod
from core.rulesets.ludonet.tables import areas, fire, melee, morale, vehicles, visibility


def _mods(table, conditions: Iterable[str], rule: str) -> tuple[Mod, ...]:
    wanted = set(conditions)
    return tuple(Mod(M(m.label), m.value, rule) for m in table.modifiers if m.id in wanted)


def seen_in_woods(distance_cm: int, prone: bool) -> bool:
    """LN-R020: a figure in woods or scrub is seen up to 20 cm standing, 12 cm lying down."""
    v = visibility()
    return distance_cm <= (v.woods_prone_cm if prone else v.woods_standing_cm)


def to_hit_mods(conditions: Iterable[str]) -> tuple[Mod, ...]:
    """LN-R031: one modifier per condition that holds; they add up (ruling LN-MODS)."""
    return _mods(fire(), conditions, "LN-R031")


def range_band(distance_cm: int, weapon_range_cm: int) -> str | None:
    """LN-R030 (ruling LN-MODS, LN-AMB-06): ``half`` within half the range (inclusive),
    ``full`` within the range, None beyond it."""
    if distance_cm * 2 <= weapon_range_cm:
        return "half"
    return "full" if distance_cm <= weapon_range_cm else None


def to_hit_needed(half_range: bool, mods: Iterable[Mod]) -> int:
    """LN-R030/R031: the face the die itself must show to hit: 4+ within half range,
    5+ beyond, less the modifiers.  Above 6 it cannot hit; no face always hits."""
    base = fire().half if half_range else fire().full
    return base - sum(m.value for m in mods)


def hits(face: int, needed: int) -> bool:
    return face >= needed


def to_hit_check(half_range: bool, mods: Iterable[Mod]) -> AtLeast:
    """LN-R030/R031 as a roll records it: the modifiers change the die, not the
    target, so the die needs :func:`to_hit_needed` and the base stays 4 (or 5)."""
    mods = tuple(mods)
    return AtLeast(face=to_hit_needed(half_range, mods), base=to_hit_needed(half_range, ()))


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


def leaves_melee(leaver_total: int, opponent_total: int) -> bool:
    """LN-R052 (ruling LN-LEAVE): the figure gets away unless the opponent's last
    roll (with its +2) beats it; it never harms the opponent."""
    return opponent_total <= leaver_total


def face_to_cut_down(leaver_total: int, opponent_mods: int) -> int:
    """LN-R052: the face the opponent's last roll needs to beat the leaver's total."""
    return leaver_total - opponent_mods + 1


# ------------------------------------------------------------------------ vehicles


def opposed_result(shooter_total: int, target_total: int, target_is_vehicle: bool) -> str:
    """LN-R041: the shooter's total (1d6 + combat value) against the target's.

    A vehicle is ``immobilised`` or ``destroyed``; a figure is ``wound``-ed or
    ``eliminated`` (ruling LN-VS-INFANTRY); ``none`` when the target's total is as
    high or higher."""
    table = vehicles()
    margin = shooter_total - target_total
    if margin < table.immobilise_min:
        return "none"
    if margin < table.destroy_min:
        return "immobilised" if target_is_vehicle else "wound"
    return "destroyed" if target_is_vehicle else "eliminated"


def face_to_come_through(shooter_total: int, target_cv: int) -> int:
    """LN-R041: the face the target needs to match the shooter's total and take no damage."""
    return shooter_total - target_cv


def immobilised_until(turn: int) -> int:
    """LN-R041 (ruling LN-IMMOBILISED): hit in turn t, a vehicle cannot move in the
    next two turns; it may move again after the end of turn t + 2."""
    return turn + vehicles().immobilised_turns


# ------------------------------------------------------------------ aircraft, AA


def air_hits(face: int) -> bool:
    """LN-R061: an aircraft hits on 5 or 6, never modified."""
    return face >= areas().aircraft.hit_on


def aa_hits(face: int) -> bool:
    """LN-R062: anti-aircraft fire hits on 5 or 6."""
    return face >= areas().anti_aircraft.hit_on


def passes_allowed(scenario_passes: int | None) -> int:
    """LN-R060: at most three passes; the scenario may allow an aircraft fewer."""
    most = areas().aircraft.passes
    return most if scenario_passes is None else max(0, min(scenario_passes, most))


# -------------------------------------------------------------------------- morale


def morale_due(start: int, lost: int, losses_tested: int = 0) -> bool:
    """LN-R070 (ruling LN-MORALE): half the starting figures or more lost, and a loss its
    tests have not answered yet ("and at every further loss": a test for each); a unit
    with nobody left has nobody to test."""
    return lost >= first_test_at(start) and max(0, losses_tested) < lost < start


def first_test_at(start: int) -> int:
    """LN-R070: the losses that bring a unit of ``start`` figures to half of them."""
    m = morale()
    return -(-start * m.loss_fraction_num // m.loss_fraction_den)


def losses_tested_after(start: int, losses_tested: int) -> int:
    """LN-R070: the losses a unit's tests have answered once it takes one more: the first
    answers the loss that brought it to half, each later one the next loss."""
    return max(losses_tested + 1, first_test_at(start))


def retreat_ends(start: int, strength: int) -> bool:
    """LN-R070: reinforcements end a retreat once the unit is back to the number of
    figures it started the fight with."""
    return strength >= start


def shaken(face: int) -> bool:
    """LN-R070: a 1 or a 2 and the unit falls back."""
    return face <= morale().shaken_max


def morale_check() -> AtLeast:
    """LN-R070 as a roll records it: the unit holds on anything over a 2."""
    return AtLeast(face=morale().shaken_max + 1)


def first_player(faces: dict[str, int]) -> str | None:
    """LN-R002 (ruling LN-FIRST): the higher 1d6 moves first all game; None on a tie."""
    best = max(faces.values())
    winners = [side for side, face in faces.items() if face == best]
    return winners[0] if len(winners) == 1 else None


# ---------------------------------------------------------------------- the end


def last_standing(strength: dict[str, int]) -> tuple[str, ...] | None:
    """Ruling LN-END: None while every side has a piece in play; else the sides that
    still have one (one side: it wins; none: a draw)."""
    if all(strength.values()):
        return None
    return tuple(side for side, n in strength.items() if n)
