"""The scenario-level facts Linea di Tiro reads, as the ``VarSet`` variables a
scenario sets up.  The book leaves them to each scenario (digest C.0, part D);
each has a default for a scenario that does not set it.  The keys follow the
scenario file format's (docs/scenarios.md); docs/rulings.md (LT-SCENARIO-VARS)
lists them.
"""

from __future__ import annotations

from core.log.state import GameState, Unit

#: C.2 LT-R010 (LT-AMB-05): what a joker does in this scenario, in words (default: none).
JOKER_EFFECT = "joker.effect"
#: C.10 LT-R090 (LT-AMB-07): 1 if a joker starts a called artillery attack (default 1).
JOKER_ARTILLERY = "joker.artillery"
#: LT-AMB-32: how many cards the game lasts (default 0: until the referee records the result).
TURNS = "turns"
#: LT-AMB-32: the victory conditions in words, repeated by the result (default "").
VICTORY = "victory"
#: C.10 LT-R090 (LT-AMB-27): ``support.<id>`` with ``.kind`` = ``artillery``, ``.side``,
#: ``.count`` (its sections: 10 cm squares, default 1) and ``.he`` (its HE attack factor).
SUPPORT = "support."
ARTILLERY_KIND = "artillery"

#: C.3 LT-R020 (A6): the vehicle a piece is aboard ("" on foot), set by the scenario's
#: ``aboard`` (the scenario format's ``aboard_key``) and by A6.
ABOARD_VAR = "aboard.{unit}"

#: The turn (card number) on which a side's artillery fires: the joker that started it
#: or the face card spent to continue it.
ARTILLERY_CARD = "artillery_card."

KEYS = {
    JOKER_EFFECT: "text",
    JOKER_ARTILLERY: "0 or 1",
    TURNS: "int",
    VICTORY: "text",
    "support.<id>.kind": "artillery",
    "support.<id>.side": "side id",
    "support.<id>.count": "int",
    "support.<id>.he": "int",
    "aboard.<piece>": "vehicle id",
}


def _int(state: GameState, key: str, default: int) -> int:
    value = state.vars.get(key, default)
    return value if isinstance(value, int) and value >= 0 else default


def artillery_support(state: GameState, side: str) -> str:
    """The id of the side's artillery support ("" if it has none); the first by id."""
    ids = sorted(
        key[len(SUPPORT) : -len(".kind")]
        for key, value in state.vars.items()
        if key.startswith(SUPPORT) and key.endswith(".kind") and value == ARTILLERY_KIND
    )
    return next((i for i in ids if state.vars.get(f"{SUPPORT}{i}.side") == side), "")


def artillery_factor(state: GameState, side: str) -> int:
    """The HE attack factor of the side's artillery (0: it has none)."""
    found = artillery_support(state, side)
    return _int(state, f"{SUPPORT}{found}.he", 0) if found else 0


def artillery_sections(state: GameState, side: str) -> int:
    found = artillery_support(state, side)
    return (_int(state, f"{SUPPORT}{found}.count", 1) or 1) if found else 1


def aboard(state: GameState, unit: Unit) -> bool:
    """Whether the piece is aboard a vehicle (A6, or the scenario's ``aboard``)."""
    return unit.has("in-vehicle") or bool(state.vars.get(ABOARD_VAR.format(unit=unit.id)))


def joker_starts_artillery(state: GameState) -> bool:
    return _int(state, JOKER_ARTILLERY, 1) != 0


def game_cards(state: GameState) -> int:
    return _int(state, TURNS, 0)


def joker_effect(state: GameState) -> str:
    return str(state.vars.get(JOKER_EFFECT, ""))


def victory(state: GameState) -> str:
    return str(state.vars.get(VICTORY, ""))
