"""Breaking News's optional rules (§8.0.2, §8.0.3, §9.3): which a game has switched on (``option
NAME on|off``), and how the game screen names those in force.  A module of its own, with nothing of
the rules it switches: the phase pane names them in the first frame (``Ruleset.options_in_force``)."""

from __future__ import annotations

from core.language.i18n import N_
from core.log.state import GameState
from core.rulesets.breaking_news.words import _

#: Optional rules (§8.0.2, §8.0.3, §9.3), switched with ``option NAME on|off``.
OPTIONS = {
    "deviation": N_("§8.0.2 missed area shots deviate"),
    "ammo": N_("§8.0.3 ammunition for light weapons"),
    "wounded": N_("§9.3 wounded men, medics and stabilisation"),
}

#: Each optional rule's section, as the game screen names those in force.
OPTION_RULES = {"deviation": "§8.0.2", "ammo": "§8.0.3", "wounded": "§9.3"}


def option(state: GameState, name: str) -> bool:
    """Whether the optional rule ``name`` is on (a game variable, ``option.NAME``, set by ``option``)."""
    return bool(state.vars.get(f"option.{name}", 0))


def options_in_force(state: GameState) -> list[tuple[str, str]]:
    """The optional rules switched on, each as its section and in words (``Ruleset.options_in_force``)."""
    return [(OPTION_RULES[name], _(label)) for name, label in OPTIONS.items() if option(state, name)]
