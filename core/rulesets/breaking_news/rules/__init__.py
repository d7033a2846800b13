"""Breaking News rules as pure functions: inputs and dice faces in, results out.

Section numbers are those of the English draft 1.5.1; the digest's rule ids
(INI-1, ...) follow in brackets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from core.language.i18n import M
from core.log.events import Mod
from core.rulesets.breaking_news.tables import troop_classes


def initiative_mods(leadership: int, quality: int, penalty: int, ambush: bool) -> tuple[Mod, ...]:
    """§5.0 step 1 [INI-1]: main commander's leadership, troop quality, the
    cumulative -1 of the previous winner [INI-2], +1 after an ambush (Extras)."""
    # a leadership of 0 (no commander left in play, §13.0) adds nothing and is not said:
    # a bare "leadership" read as a modifier with no value (#77)
    mods = [Mod(M("leadership"), leadership, "§5.0")] if leadership else []
    mods.append(Mod(M("troop quality"), quality, "§3.0"))
    if penalty:
        mods.append(Mod(M("previous winner"), -penalty, "§5.0"))
    if ambush:
        mods.append(Mod(M("ambush last turn"), 1, "Extras: Ambush"))
    return tuple(mods)


def initiative_total(faces: tuple[int, ...], mods: Iterable[Mod]) -> int:
    """2d6 summed plus modifiers [INI-1]."""
    return sum(faces) + sum(m.value for m in mods)


def next_penalty(won: bool, penalty: int) -> int:
    """[INI-2] default reading (docs/rulings.md BN-INI-PENALTY): the penalty counts the
    consecutive initiatives a player has won, and resets when he loses one."""
    return penalty + 1 if won else 0


def side_quality(classes: Iterable[str]) -> int:
    """[INI-4] the quality of the majority of the main commander's squad
    (docs/rulings.md BN-INI-QUALITY); ties go to the better class."""
    table = troop_classes()
    counts = Counter(c for c in classes if c in table)
    if not counts:
        return 0
    best = max(counts.values())
    return max(table[c].init_morale for c, n in counts.items() if n == best)
