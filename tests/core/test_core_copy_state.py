"""``copy_state``: a copy a handler or a re-rolled game may change as it likes.

The copy is made field by field (the re-rolls make tens of them a game, where an
encode and decode cost twice as much): it must hold every mutable part of its own,
so that folding into it never reaches the state it was copied from.
"""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

from core.game import Game
from core.language.i18n import M
from core.log import events as ev
from core.log.state import GameState, Secret, Side, Unit, apply_in_place, copy_state, encode_state

SAVES = Path(__file__).resolve().parents[2] / "saves"


def test_folding_into_a_copy_leaves_the_demo_games_states_as_they_were():
    with closing(Game.open(SAVES / "demo-game.ft", writable=False)) as game:
        events = game.history.timeline()
        for step in range(0, game.timeline.length, 7):
            state = game.timeline.state_at(step)
            before = encode_state(state)
            copied = copy_state(state)
            assert copied == state
            apply_in_place(copied, events[step:])
            assert encode_state(state) == before, step
        assert copied == game.state  # the last copy, folded to the end, is the game's end


def test_every_mutable_part_is_the_copys_own():
    unit = Unit("u1", "Rossi", "a", stats={"q": 4}, out=M("{what} by {side}", what=M("killed"), side="b"))
    side = Side("a", "Alpha", dp_by_category={"men": 2})
    state = GameState(
        sides={"a": side},
        units={"u1": unit},
        secrets={"k": Secret("a", "v")},
        vars={"n": 1, "deck": ["x", "y"], "table": {"row": [1, 2]}},
    )
    before = encode_state(state)
    copied = copy_state(state)
    assert copied == state
    copied.units["u1"].stats["q"] = 1
    copied.units["u1"].status = ("down",)
    copied.sides["a"].dp_by_category["men"] = 9
    copied.sides["a"].defeat_points = 3
    copied.secrets["k"].revealed = True
    copied.vars["deck"].append("z")
    copied.vars["table"]["row"].append(3)
    apply_in_place(copied, [ev.UnitOut(unit="u1", cause="gone"), ev.VarSet(key="n", value=2)])
    assert encode_state(state) == before
