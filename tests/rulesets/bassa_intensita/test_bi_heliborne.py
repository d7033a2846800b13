"""The built-in scenario "heliborne": a fast-rope team comes down from a hovering
helicopter (BI-R257); the man not trained for it waits for the landing (BI-R256)."""

from __future__ import annotations

import pytest
from playing import play, refused

from core.game import Game
from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE


@pytest.fixture
def game(tmp_path):
    g = Game.new(tmp_path / "heli.ft", "bassa-intensita", seed=5)
    g.execute("scenario heliborne", role=REFEREE)
    yield g
    g.close()


def goto(g: Game, phase: str, turn: int) -> None:
    """On to ``phase`` of ``turn``; the raiders win every initiative and move first."""
    while (g.state.turn, g.state.phase) != (turn, phase):
        g.execute("next dice=6,1" if g.state.phase == "initiative" else "next", role=REFEREE)


def aboard(g: Game, vehicle: str) -> set[str]:
    return {u.id for u in g.state.units.values() if u.has(f"aboard-{vehicle}")}


def test_the_rope_team_starts_aboard_and_comes_down_while_the_helicopter_hovers(game):
    """Rules: BI-R257."""
    assert aboard(game, "nh90") == {"ferri", "greco", "neri", "monti"}
    goto(game, "move-first", 1)
    assert game.state.active_side == "raiders"
    refused(game, "@raiders dismount ferri", "rope down while it hovers", rule="BI-R256")
    play(game, "@raiders hover nh90")
    facts = play(game, "@raiders dismount ferri", "@raiders dismount greco", "@raiders dismount neri")
    assert [plain(e.how) for e in facts if isinstance(e, ev.Moved)] == [
        "fast-ropes down from NH90 transport: half his move"
    ]
    refused(game, "@raiders dismount monti", "Pte Monti, medic is not trained to fast-rope", rule="BI-R257")
    assert aboard(game, "nh90") == {"monti"}
    # the gunship flies by its 2d6 x 10 cm while the transport hovers
    facts = play(game, "@raiders move mangusta 50 dice=2,4")
    assert [e.cm for e in facts if isinstance(e, ev.Moved)] == [50]
    # turn 2: the transport lands (its whole turn) and the medic gets off
    goto(game, "move-first", 2)
    assert not game.state.units["nh90"].has("hovering")
    play(game, "@raiders land nh90", "@raiders dismount monti")
    assert aboard(game, "nh90") == set()
