"""The chances as text (``core.report.chances_account.chart``): the sparklines one over the
other, and each turn's number under its first point, read without colour (issue #62)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from core.game import Game
from core.log.views import REFEREE
from core.report import build
from core.report.chances import Chances, Point
from core.report.chances_account import chart

DEMO = Path(__file__).resolve().parents[2] / "saves" / "demo-game.ft"


def _chart(turns: list[int], regulars: list[int]) -> list[str]:
    """The chart of points in ``turns``, the regulars winning ``regulars[k]`` of 8 games at the k-th."""
    game = Game.open(DEMO, writable=False)
    points = [
        Point(k, turn, k - 1, {"regulars": won, "irregulars": 8 - won}, 8)
        for k, (turn, won) in enumerate(zip(turns, regulars, strict=True))
    ]
    odds = Chances(0, 8, ["regulars", "irregulars"], points, "irregulars", True, [])
    return chart(replace(build(game, REFEREE), chances=odds))


def test_each_side_has_a_bar_a_point_by_height_and_the_turns_are_marked_under_their_first_point():
    lines = _chart([0, 1, 1, 2, 2, 2, 3], [4, 0, 8, 2, 6, 1, 7])
    assert lines == [
        "   Bersaglieri ▅▁█▃▇▂█ 50.0% → 87.5%",
        "Somali militia ▅█▁▇▃█▂ 50.0% → 12.5%",
        "          turn  1 2  3",
    ]


def test_a_turn_too_short_for_its_number_is_not_marked_elsewhere():
    """Turns 9, 10, 11 and 13 a point each: 10 would touch the 9, 12 the 11, and 13 has
    no room for its two digits: they have no mark, rather than one misplaced or cut."""
    lines = _chart([9, 10, 11, 12, 12, 12, 13], [4] * 7)
    assert lines[-1] == "          turn 9 11"
