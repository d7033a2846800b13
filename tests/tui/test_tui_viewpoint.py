"""A side's replay position counts only the events that side may see, as the game goes on."""

from __future__ import annotations

from core.game import Game
from core.log.views import REFEREE, event_visible
from tui.viewpoint import Viewpoint


def seen_by(game: Game, role: str, upto: int) -> int:
    return sum(event_visible(e, role) for e in game.history.timeline(0, upto))


def test_a_sides_position_follows_commands_undo_and_redo(tmp_path):
    game = Game.new(tmp_path / "g.ft", "breaking-news", seed=3)
    game.execute("scenario demo", role=REFEREE)  # hidden irregulars: events the regulars may not see
    vp = Viewpoint(game, "regulars", step=0)
    referee = Viewpoint(game, "referee", step=0)
    for command in ('note "one"', "next", 'note "two"', "undo", "undo", "redo", 'note "three"'):
        game.execute(command, role=REFEREE)
        for step in (0, game.timeline.length // 2, game.timeline.length):
            vp.step = referee.step = step
            assert vp.shown_position() == (seen_by(game, "regulars", step), seen_by(game, "regulars", None))
            assert referee.shown_position() == (step, game.timeline.length)
    assert seen_by(game, "regulars", None) < game.timeline.length
