"""What the game screen says, and what it does not (issue #61): the defeat points only for a
ruleset that scores them."""

from __future__ import annotations

import pytest
from waiting import settled, type_text, until

from core.game import Game
from core.views import REFEREE
from tui.app import FireteamApp
from tui.panes.phase import PhasePane
from tui.panes.roster import RosterPane

SIZE = (100, 30)


def phase_text(app) -> str:
    return str(app.screen.query_one(PhasePane).render())


def roster_rows(app) -> list[str]:
    return app.screen.query_one(RosterPane).view.rows_text()


@pytest.mark.parametrize(
    ("ruleset", "scores"),
    [("breaking-news", True), ("bassa-intensita", False), ("linea-di-tiro", False), ("ludonet", False)],
)
async def test_defeat_points_are_shown_only_where_the_ruleset_scores_them(tmp_path, ruleset, scores):
    game = Game.new(tmp_path / "g.ft", ruleset, seed=3)
    game.execute("scenario demo", role=REFEREE)
    first = next(iter(game.state.sides))
    app = FireteamApp(game, role=REFEREE)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert ("Defeat points" in phase_text(app)) is scores
        assert any(" DP 0 " in row for row in roster_rows(app)) is scores
        # A referee's ruling gives a side some where the book keeps none: then they are shown.
        await type_text(pilot, f"dp {first} 5 a ruling", "enter")
        await until(pilot, lambda: "Defeat points" in phase_text(app), "the defeat points shown")
        assert any(" DP 5 " in row for row in roster_rows(app))
    game.close()
