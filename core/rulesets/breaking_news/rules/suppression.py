"""Breaking News suppression test (§10.0) and melee (§11.0–§11.1) as pure functions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.language.i18n import M
from core.log.events import AtLeast, Each, Mod
from core.rulesets.breaking_news.tables.combat import support


def suppression_mods(leader_leadership: int) -> tuple[Mod, ...]:
    """§10.0: the leadership of one Officer/NCO within 5 cm adds to the value (AMB-48)."""
    return (Mod(M("leader within 5 cm"), leader_leadership, "§10.0"),) if leader_leadership else ()


def suppression_passes(face: int, class_value: int, mods: tuple[Mod, ...]) -> bool:
    """Roll at or under the class's suppression value plus the leader; a 6 always fails."""
    return face != 6 and face <= class_value + sum(m.value for m in mods)


def suppression_check(class_value: int, mods: tuple[Mod, ...]) -> AtLeast:
    """:func:`suppression_passes` as a roll records it: at or under the value plus the
    leader, never a 6, so 5 or less at most (§10.0)."""
    return AtLeast(face=min(class_value + sum(m.value for m in mods), 5), under=True, base=class_value)


# ------------------------------------------------------------------------ melee


@dataclass(frozen=True)
class Fighter:
    name: str
    melee: int
    suppressed: bool = False


def melee_mods(fighters: Sequence[Fighter]) -> tuple[Mod, ...]:
    """§11.0: the Melee value (§3.0) of every man in the fight, −2 for each suppressed one."""
    mods = [Mod(M("{unit} melee", unit=f.name), f.melee, "§11.0") for f in fighters]
    penalty = support().melee.suppressed
    mods += [Mod(M("{unit} suppressed", unit=f.name), penalty, "§11.0") for f in fighters if f.suppressed]
    return tuple(mods)


def melee_winner(face_a: int, mods_a: tuple[Mod, ...], face_b: int, mods_b: tuple[Mod, ...]) -> str:
    """'a', 'b' or 'tie' (a tie is fought again, ruling BN-C-MELEE-TIE)."""
    a = face_a + sum(m.value for m in mods_a)
    b = face_b + sum(m.value for m in mods_b)
    return "a" if a > b else "b" if b > a else "tie"


def storm_hits(faces: Sequence[int], defending: bool) -> int:
    """§11.1: defenders hit on 5–6, attackers on 6."""
    s = support().storm
    need = s.defender_hits if defending else s.attacker_hits
    return sum(f >= need for f in faces)


def storm_check(defending: bool) -> Each:
    """:func:`storm_hits` as a roll records it: each die a hit on its own (§11.1)."""
    s = support().storm
    return Each(face=s.defender_hits if defending else s.attacker_hits)


def spread_hits(hits: int, models: Sequence[str]) -> dict[str, int]:
    """Hits spread over the models in the order their owner named them, one each
    before any takes a second (the §11.1 example; the owner chooses, ruling BN-C-STORM-ALLOC)."""
    out = {m: 0 for m in models}
    for i in range(hits):
        out[models[i % len(models)]] += 1
    return {m: n for m, n in out.items() if n}
