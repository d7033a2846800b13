"""Each unit's fate in the report's forces (issue #77): a piece that never came on is not "in play at
the end"; one that came on and left the table says so."""

from __future__ import annotations

import pytest
from test_report_reroll_sequence import PIECES, Duel

from core.game import Game
from core.log import events as ev
from core.log.views import OFF_TABLE, REFEREE
from core.registry import register, unregister
from core.report import account
from core.report.build import build
from core.ruleset import CommandSpec, Context, Param


def _setup(ctx: Context, args: dict) -> None:
    """The Duel's table, and Blue 3 in reserve: off the table when play begins."""
    ctx.emit(ev.GameSetUp(scenario="Duel", sides=(ev.SideSpec("blue", "Blue"), ev.SideSpec("red", "Red"))))
    for uid, name, side in PIECES:
        ctx.emit(ev.UnitAdded(unit=ev.UnitSpec(uid, name, side)))
    ctx.emit(ev.UnitAdded(unit=ev.UnitSpec("b3", "Blue 3", "blue", status=(OFF_TABLE,))))
    ctx.emit(ev.PhaseBegan(turn=1, phase="initiative"))


def _enter(ctx: Context, args: dict) -> None:
    ctx.emit(ev.StatusChanged(unit=args["unit"], remove=(OFF_TABLE,)))


def _leave(ctx: Context, args: dict) -> None:
    ctx.emit(ev.StatusChanged(unit=args["unit"], add=(OFF_TABLE,)))


class Reserves(Duel):
    id = "test-reserves-duel"

    def commands(self):
        setup = CommandSpec("setup", "Set the table.", _setup, who="referee", phases=("setup",))
        piece = (Param("unit", "unit"),)
        moves = [
            CommandSpec("enter", "A piece comes on.", _enter, params=piece, who="referee"),
            CommandSpec("leave", "A piece leaves by the edge.", _leave, params=piece, who="referee"),
        ]
        return [setup, *moves, *(c for c in super().commands() if c.name != "setup")]


@pytest.fixture
def game(tmp_path):
    register(Reserves)
    game = Game.new(tmp_path / "r.ft", Reserves.id)
    yield game
    game.close()
    unregister(Reserves.id)


def _fates(game: Game) -> dict[str, str]:
    (_blue, units), _red = account.forces(build(game, REFEREE))
    return dict(line.split(": ", 1) for line in units)


def test_a_reserve_that_never_came_on_is_not_in_play_at_the_end(game):
    game.execute("setup", role=REFEREE)
    game.execute("next dice=6,1", role=REFEREE)
    assert _fates(game) == {"Blue 1": "in play at the end", "Blue 2": "in play at the end", "Blue 3": "never came on"}


def test_a_piece_that_came_on_and_left_is_off_the_table_at_the_end_and_one_that_came_on_is_in_play(game):
    game.execute("setup", role=REFEREE)
    game.execute("enter b3", role=REFEREE)  # Blue 3 comes on
    game.execute("leave b2", role=REFEREE)  # Blue 2 leaves by the edge
    fates = _fates(game)
    assert fates["Blue 3"] == "in play at the end" and fates["Blue 2"] == "off the table at the end"
