"""Bassa Intensità's weapon notes (A.9.3, unnumbered in the digest), checked from the book:
a machine gun not on a vehicle fires only when emplaced, a light MG not emplaced fires as an
assault rifle, and emplacing is a Very Easy action (BI-R068) that moving undoes."""

from __future__ import annotations

from typing import Any

import pytest
from bi_table import PIECES, TABLE, BookTable, goto, play, refused, rolls

from core import registry
from core.game import Game
from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE
from core.ruleset import Context
from core.rulesets.common import Scenario

U = ev.UnitSpec
GUNNERS = (
    U(id="mario", name="Pte Mario", side="blue", team="M", cls="regular", weapons=("lmg",)),
    U(id="dario", name="Pte Dario", side="blue", team="M", cls="regular", weapons=("mg",)),
)
GUNS = Scenario(id="guns", title="Guns", sides=TABLE.sides, units=(*PIECES, *GUNNERS))


class _Guns(BookTable):
    def __init__(self, variant: str = "") -> None:
        super().__init__(variant)
        self.scenarios = {**self.scenarios, "guns": GUNS}

    def _scenario(self, ctx: Context, args: dict[str, Any]) -> None:
        super()._scenario(ctx, args)
        if args["name"] == "guns":
            ctx.emit(ev.VarSet(key="scenario.turns", value=6))
            ctx.emit(ev.VarSet(key="scenario.night", value="day"))


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.setitem(registry._REGISTRY, "bassa-intensita", _Guns)
    g = Game.new(tmp_path / "guns.ft", "bassa-intensita", seed=7)
    g.execute("scenario guns", role=REFEREE)
    yield g
    g.close()


def test_a_machine_gun_not_emplaced_cannot_fire_and_fires_once_emplaced(game):
    """A.9.3 note (6): Dario's MG, not on a vehicle, "cannot fire" until emplaced; emplacing is
    his Very Easy action for turn 1 (no die, BI-R068); in turn 2 it fires its 3 shots (1d10 each).

    Rules: BI-R068, BI-WN6.
    """
    goto(game, "fire-regular", 1)
    refused(game, "@blue fire dario omar range=30 dice=10,10,10", "must be emplaced", rule="BI-WN6")
    facts = play(game, "@blue emplace dario")
    assert not rolls(facts) and game.state.units["dario"].has("emplaced")
    goto(game, "fire-regular", 2)
    facts = play(game, "@blue fire dario omar range=30 dice=10,10,10")
    assert [r.faces for r in rolls(facts, "A.9.4")] == [(10,), (10,), (10,)]


def test_a_light_mg_not_emplaced_fires_at_the_assault_rifle_ranges(game):
    """A.9.3 note (4): Mario's LMG, not emplaced, fires "as an assault rifle": at 100 cm it is
    out of range (the assault rifle reaches 90; the LMG's own long range is 120), and at 20 cm it
    is at normal range (the rifle's short ends at 15; the LMG's at 20).  Emplaced, 100 cm is the
    LMG's long range and 20 cm its short range.

    Rules: BI-R075, BI-WN4.
    """
    goto(game, "fire-regular", 1)
    refused(game, "@blue fire mario omar range=100", "100 cm is out of range", rule="BI-R075")
    facts = play(game, "@blue fire mario omar range=20 dice=10,10")
    assert [plain(r.purpose) for r in rolls(facts, "A.9.4")] == [
        "fire with his Assault rifle at Omar (normal range)"
    ] * 2
    play(game, "next")  # the regulars' tier ends
    goto(game, "fire-regular", 2)
    play(game, "@blue emplace mario")
    goto(game, "fire-regular", 3)
    facts = play(game, "@blue fire mario omar range=100 dice=10,10")
    assert [plain(r.purpose) for r in rolls(facts, "A.9.4")] == [
        "fire with his Light machine gun at Omar (long range)"
    ] * 2


def test_moving_undoes_the_emplacement(game):
    """A.9.3, ruling BI-EMPLACED: Dario emplaces his MG in turn 1, moves 10 cm in turn 2: in
    turn 2's fire phase his MG cannot fire.

    Rules: BI-R068, BI-WN6.
    """
    goto(game, "fire-regular", 1)
    play(game, "@blue emplace dario")
    goto(game, "move-first", 2)
    play(game, "@blue move dario 10")
    assert not game.state.units["dario"].has("emplaced")
    goto(game, "fire-regular", 3)
    refused(game, "@blue fire dario omar range=30", "must be emplaced", rule="BI-WN6")
