"""The scenario-level facts Linea di Tiro reads, as ``VarSet`` variables the
scenario sets up.  The book leaves them to each scenario (digest C.0, part D);
each has a default for a scenario that does not set it.  docs/rulings.md
(LT-SCENARIO-VARS) lists them for the scenario schema.
"""

from __future__ import annotations

from core.state import GameState

#: C.2 LT-R010 (LT-AMB-05): what a joker does in this scenario, in words (default: nothing
#: beyond starting requested artillery).
SCENARIO_JOKER = "scenario.joker"
#: C.10 LT-R090 (LT-AMB-27): ``scenario.artillery.<side>``, the HE attack factor of that
#: side's artillery on the MG/HE table (default 0: the side has none).
SCENARIO_ARTILLERY = "scenario.artillery."
#: C.10 LT-R090: ``scenario.artillery_sections.<side>``, how many sections (10 cm squares)
#: the side's artillery fires (default 1).
SCENARIO_SECTIONS = "scenario.artillery_sections."
#: LT-AMB-32: how many cards the game lasts (default 0: until the referee records the result).
SCENARIO_CARDS = "scenario.cards"
#: LT-AMB-32: the victory conditions in words, repeated when the game ends (default "").
SCENARIO_VICTORY = "scenario.victory"

#: The turn (card number) on which a side's artillery fires: the joker that started it
#: or the face card spent to continue it.
ARTILLERY_CARD = "artillery_card."

KEYS = {
    SCENARIO_JOKER: "text",
    SCENARIO_ARTILLERY + "<side>": "int",
    SCENARIO_SECTIONS + "<side>": "int",
    SCENARIO_CARDS: "int",
    SCENARIO_VICTORY: "text",
}


def _int(state: GameState, key: str, default: int) -> int:
    value = state.vars.get(key, default)
    return value if isinstance(value, int) and value >= 0 else default


def artillery_factor(state: GameState, side: str) -> int:
    return _int(state, SCENARIO_ARTILLERY + side, 0)


def artillery_sections(state: GameState, side: str) -> int:
    return _int(state, SCENARIO_SECTIONS + side, 1) or 1


def game_cards(state: GameState) -> int:
    return _int(state, SCENARIO_CARDS, 0)


def joker_effect(state: GameState) -> str:
    return str(state.vars.get(SCENARIO_JOKER, ""))


def victory(state: GameState) -> str:
    return str(state.vars.get(SCENARIO_VICTORY, ""))
