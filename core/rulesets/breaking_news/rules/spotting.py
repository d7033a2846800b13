"""Breaking News sighting (§7.0) as pure functions."""

from __future__ import annotations

from dataclasses import dataclass

from core.language.i18n import M
from core.log.events import Mod
from core.ruleset import TYPING, Refused
from core.rulesets.breaking_news.tables.combat import spotting
from core.rulesets.breaking_news.words import DOMAIN, _


def base_need(range_cm: int) -> int:
    """The number needed by distance (digest T-07); each band includes its upper value."""
    if range_cm < 0:
        raise Refused(_("a range cannot be negative"), rule=TYPING)
    for upper, need in spotting().bands:
        if range_cm <= upper:
            return need
    raise Refused(
        _("nothing can be sighted beyond {bands} cm (§7.0, AMB-03)").format(bands=spotting().bands[-1][0]),
        rule="AMB-03",
    )


@dataclass(frozen=True)
class SpotFacts:
    jungle_or_night: bool = False  # typed: the target is in jungle (or it is night)
    night_without_visors: bool = False  # the scenario is played at night, the spotter has no visors
    open: bool = False
    target_class: str = ""
    target_sniper: bool = False
    spotter_sniper: bool = False
    spotter_class_mod: int = 0  # the spotter's Spotting value (§3.0)
    spotter_class: str = ""


def spot_mods(facts: SpotFacts) -> tuple[Mod, ...]:
    t = spotting()
    mods: list[Mod] = []
    # §7.0 "+2 target in Jungle or at night (without night visors)": one modifier,
    # so jungle at night is +2, not +4 (ruling BN-C-NIGHT).
    if facts.jungle_or_night:
        mods.append(Mod(M("jungle or night"), t.jungle_or_night, "§7.0"))
    elif facts.night_without_visors:
        mods.append(Mod(M("at night, without night visors"), t.jungle_or_night, "§7.0"))
    if facts.open:
        mods.append(Mod(M("target in the open"), t.open, "§7.0"))
    if facts.target_class in t.special_forces_classes:
        mods.append(Mod(M("target is Special Forces"), t.special_forces, "§7.0"))
    if facts.target_sniper:
        mods.append(Mod(M("target is a sniper"), t.sniper_target, "§7.0"))
    if facts.spotter_sniper:
        mods.append(Mod(M("spotter is a sniper"), t.sniper_spotter, "§7.0"))
    if facts.spotter_class_mod:
        mods.append(Mod(M("spotter {cls}", cls=facts.spotter_class), facts.spotter_class_mod, "§3.0"))
    return tuple(mods)


def spot_need(range_cm: int, mods: tuple[Mod, ...]) -> int:
    """The modified number: 1 or less always succeeds, 7 or more never (AMB-20)."""
    return base_need(range_cm) + sum(m.value for m in mods)


def require_possible(need: int, mods: tuple[Mod, ...]) -> None:
    """§7.0: a failed sighting spends the spotter's one attempt of the turn and gives
    the hidden figure a bonus move; a sighting that needs 7 or more is no attempt at
    all, so it is refused and costs neither (ruling BN-C-SPOT-IMPOSSIBLE)."""
    if need > 6:
        why = ", ".join(f"{DOMAIN.render(m.label)} {m.value:+d}" for m in mods)
        raise Refused(
            _("that sighting needs {need} on 1d6 ({why}): it cannot succeed, so it is not tried (§7.0)").format(
                need=need, why=why
            ),
            rule=("SPOT-4", "AMB-20"),
        )


def spot_succeeds(face: int | None, need: int) -> bool:
    if need <= 1:
        return True
    if need > 6 or face is None:
        return False
    return face >= need
