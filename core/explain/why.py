"""Which rule: the rule ids a refusal, a roll or a step of the log names, found in the maps.

A refusal names its rules as data (``core.refusal.Refused.rules``); a roll as its
``rule`` words them (``LN-R030``, ``§8.2``, ``ruling LN-BARRAGE``) and its modifiers'
``rule``: :func:`roll_rules` reads them as ids of the ruleset's map or the engine's
(``core.explain.rulesmap.cited``).  :func:`reasons` gives each id's row of its map: what the
rule says, its title and note, its status, section and the ruling taken.  A step of
the log is explained from the lines its reader may see (``Game.log_lines``): a roll hidden
from a side is not among them, so its ``why`` says nothing of it.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.explain.rulesmap import Entry, cited, find
from core.log import events as ev
from core.refusal import TYPING
from core.ruleset import Ruleset

#: The most rule ids one explanation names (a roll citing a whole section names its rules
#: first in the map's order).
MAX_REASONS = 8


def reasons(ruleset: Ruleset, ids: Iterable[str]) -> list[Entry | None]:
    """The rows of ``ids`` in the ruleset's map or the engine's, in order, each once (None for
    :data:`TYPING`: no rule, a typing error); an id of neither map is left out."""
    rmap = ruleset.rules_map()
    out: list[Entry | None] = []
    for rule_id in dict.fromkeys(ids):
        entry = None if rule_id == TYPING else find(rmap, rule_id)
        if entry is not None or rule_id == TYPING:
            out.append(entry)
    return out[:MAX_REASONS]


def roll_rules(ruleset: Ruleset, roll: ev.Roll) -> tuple[str, ...]:
    """The rule ids a roll names: its own rule's, then its modifiers' (each once)."""
    rmap = ruleset.rules_map()
    found = [*cited(rmap, roll.rule)]
    for m in roll.mods:
        found += cited(rmap, m.rule) if m.rule else ()
    return tuple(dict.fromkeys(found))
