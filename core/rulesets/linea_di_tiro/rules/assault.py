"""Linea di Tiro assaults (digest C.9, book "Assalto") as pure functions:
tanks overrunning infantry, infantry assaulting tanks, and melee."""

from __future__ import annotations

from core.language.i18n import M
from core.log.events import Mod
from core.rulesets.linea_di_tiro.tables import assault
from core.rulesets.linea_di_tiro.words import _


def overrun_test_needed(portable_at: bool, immobilised: bool) -> bool:
    """LT-R100: only infantry with portable AT weapons that is not immobilised tests
    morale (and, passing, strikes first)."""
    return portable_at and not immobilised


def overrun_destroys(in_open: bool, face: int | None) -> bool:
    """LT-R100: infantry that stays in place is destroyed in the open, and in cover on
    1d6 of ``overrun_cover_max`` (4) or less."""
    if in_open:
        return True
    if face is None:
        raise ValueError("infantry in cover needs the tank's die")
    return face <= assault().overrun_cover_max


def close_assault_mods(tank_has_mg: bool, protected: bool) -> tuple[Mod, ...]:
    """LT-R101: +1 against a tank without machine guns, -1 against a specially protected one."""
    table = assault()
    mods = []
    if not tank_has_mg:
        mods.append(Mod(M("tank without machine guns"), table.no_mg_bonus, "LT-R101"))
    if protected:
        mods.append(Mod(M("specially protected tank"), table.protected_malus, "LT-R101"))
    return tuple(mods)


def close_assault_need(rating: int, mods: tuple[Mod, ...]) -> int:
    """LT-R101: the number 1d6 must not exceed."""
    return rating + sum(m.value for m in mods)


def close_assault_destroys(face: int, need: int) -> bool:
    """LT-R101: a die equal to or under the rating destroys the tank; otherwise no effect
    (ruling LT-CLOSE-ASSAULT)."""
    return face <= need


def can_assault_tank(from_flank_or_rear: bool, escort_cm: int | None) -> str:
    """LT-R101: "" if the tank may be assaulted, else why not.  ``escort_cm``: how far the
    nearest infantry friendly to the tank is (None: none in sight)."""
    if escort_cm is not None and escort_cm < 0:
        raise ValueError("a distance cannot be negative")
    if not from_flank_or_rear:
        return _("a tank can be assaulted only on the flank or rear (LT-R101)")
    if escort_cm is not None and escort_cm <= assault().adjacent_cm:
        return _("the tank has friendly infantry adjacent ({cm} cm, {most} cm or less; LT-R101)").format(
            cm=escort_cm, most=assault().adjacent_cm
        )
    return ""


def melee_mods(entrenched: bool, from_behind: bool, immobilised: bool, gun: bool) -> tuple[Mod, ...]:
    """LT-R102/R103: one fighter's modifiers to 1d6 + morale."""
    m = assault().melee
    mods = []
    if entrenched:
        mods.append(Mod(M("entrenched"), m.entrenched, "LT-R102"))
    if from_behind:
        mods.append(Mod(M("attacked from behind"), m.from_behind, "LT-R102"))
    if immobilised:
        mods.append(Mod(M("immobilised"), m.immobilised, "LT-R102"))
    if gun:
        mods.append(Mod(M("a gun"), m.gun, "LT-R103"))
    return tuple(mods)


def melee_winner(attacker_total: int, defender_total: int) -> str:
    """LT-R102: ``attacker`` or ``defender`` wins with the higher total; a tie is ``both``
    destroyed."""
    if attacker_total > defender_total:
        return "attacker"
    if defender_total > attacker_total:
        return "defender"
    return "both"
