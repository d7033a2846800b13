"""Rules of the book that no test named before the rules map (issue #27), each through
the commands with exact dice: given these faces, this outcome."""

from __future__ import annotations

import pytest
from bn_combat_support import facts, rolls, status

from core import events as ev
from core.ruleset import Refused


def test_act_3_a_group_move_is_one_action_each_reacting_man_answers_once(rng):
    """§6.4 (digest ACT-3): Emfour and Spc Saw, of one fire team, move 10 cm together: one
    action.  Kalash may fire at one of them (AR at 30 cm: 4, +1 as Irr2: needs 5, a 2
    misses) but not at the other as well; Rocket, another reacting man, has his own
    reaction to the same move (RPG at 20 cm: 4, a 3 misses)."""
    out = rng.execute("move m4 10 saw", role="regulars")
    assert [m.unit for m in facts(out, ev.Moved)] == ["m4", "saw"]
    assert rng.state.vars["action"] == 1
    assert {"moved"} <= set(status(rng, "m4")) and {"moved"} <= set(status(rng, "saw"))
    shot = rolls(rng.execute("react-fire kalash m4 range=30 dice=2", role="irregulars"))[0]
    assert (shot.target, shot.outcome) == (5, "miss")
    with pytest.raises(Refused, match="already reacted to this enemy action"):
        rng.execute("react-fire kalash saw range=30 dice=6", role="irregulars")
    shot = rolls(rng.execute("react-fire rocket saw range=20 dice=3", role="irregulars"))[0]
    assert (shot.target, shot.outcome) == (4, "miss")
