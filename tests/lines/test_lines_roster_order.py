"""A side's seat hears its own side first in the roster; the referee hears the scenario's order (#61)."""

from __future__ import annotations

from lines_support import Seat, demo_game

from core.log.views import REFEREE


def side_lines(said: list[str]) -> list[str]:
    """The roster's side lines: "Somali militia (irregulars): 6 of 7 figures in play." """
    return [line for line in said if " figures in play" in line or " figure in play" in line]


def test_a_side_hears_its_own_side_first_and_the_referee_the_scenarios_order(tmp_path):
    game = demo_game(tmp_path / "g.ft")
    first, second = list(game.state.sides)
    try:
        referee = side_lines(Seat(game, REFEREE).say("roster"))
        assert [line.split(":")[0] for line in referee] == [
            f"{game.state.sides[s].name} ({s})" for s in (first, second)
        ]
        own = side_lines(Seat(game, second).say("roster"))
        assert own[0].startswith(f"{game.state.sides[second].name} ({second})")
        assert own[1].startswith(f"{game.state.sides[first].name} ({first})")
        assert side_lines(Seat(game, first).say("roster"))[0].startswith(game.state.sides[first].name)
    finally:
        game.close()
