"""Where the game was decided (issue #62): each side's chances after every step."""

from __future__ import annotations

import re
from fractions import Fraction
from math import sqrt

import pytest
from test_report_rerolls import Volleys

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from core.registry import register, unregister
from core.report import chances_account, render_html, render_md
from core.report.account import percent
from core.report.build import build
from core.report.chances import chances
from core.report.reroll import DRAW, reroll
from core.ruleset import CommandSpec, Context

COUNT = 2000


def _end(ctx: Context, args: dict) -> None:
    ctx.emit(ev.GameEnded(result="over"))


class Duel(Volleys):
    """The re-rolls' Volleys (blue 2d6 at 4+, red 1d6 at 3+, a side broken at two defeat
    points), with an order that ends the game."""

    id = "test-chances-duel"
    name = "Duel"

    def commands(self):
        return [*super().commands(), CommandSpec("finish", "The game ends.", _end, who="referee")]


@pytest.fixture
def duel(tmp_path):
    register(Duel)
    game = Game.new(tmp_path / "d.ft", Duel.id)
    for line in ("setup", "volley blue dice=1,6", "volley red dice=5"):
        game.execute(line, role=REFEREE)
    yield game
    game.close()
    unregister(Duel.id)


BLUE = {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}  # blue's hits, 2d6 at 4+
RED = {0: Fraction(1, 3), 1: Fraction(2, 3)}  # red's hits, 1d6 at 3+


def exact(blue_hits: int | None = None) -> dict[str, Fraction]:
    """Who wins (fewer defeat points) by enumeration of the dice; ``blue_hits``: blue has rolled."""
    out = {"blue": Fraction(0), "red": Fraction(0), DRAW: Fraction(0)}
    for b, pb in (BLUE if blue_hits is None else {blue_hits: Fraction(1)}).items():
        # two hits break red: its volley is refused
        for r, pr in RED.items() if b < 2 else [(0, Fraction(1))]:
            red_dp, blue_dp = b, r
            out["blue" if blue_dp < red_dp else "red" if red_dp < blue_dp else DRAW] += pb * pr
    return out


def _near(p: float, q: Fraction, n: int) -> bool:
    """Within four standard errors: a correct estimate fails this once in 15,000 runs."""
    return abs(p - float(q)) <= 4 * sqrt(float(q) * (1 - float(q)) / n) + 1e-9


def test_the_chances_match_the_exact_odds_at_every_step(duel):
    c = chances(duel, COUNT, seed=3)
    # The start, after blue's volley (setup rolls nothing), and the end.
    assert [p.step for p in c.points] == [0, duel.history.group_end[duel.history.eff_cmds[1]], duel.timeline.length]
    start, after_blue, end = c.points
    for side, q in exact().items():
        assert _near(start.chance(side), q, COUNT), (side, start.chance(side), q)
    for side, q in exact(blue_hits=1).items():  # the real faces 1, 6: one hit
        assert _near(after_blue.chance(side), q, COUNT), (side, after_blue.chance(side), q)
    # At the last step, nothing left to roll: the real result (blue 1 hit, red 1 hit: a draw).
    assert end.count == 0 and end.chance(DRAW) == 1 and end.interval(DRAW) == (1, 1)
    assert exact() == {"blue": Fraction(5, 12), "red": Fraction(1, 6), DRAW: Fraction(5, 12)}


def test_the_start_is_the_rerolls_win_rate_with_the_same_seed(duel):
    c = chances(duel, 500, seed=7)
    assert c.points[0].wins == dict(reroll(duel, 500, seed=7).wins())
    lo, hi = c.points[0].interval("blue")
    assert lo < c.points[0].chance("blue") < hi and hi - lo < 0.1


def test_a_swing_is_the_rerolls_from_either_side_of_its_roll(duel):
    c = chances(duel, 400, seed=1)
    biggest = c.swings[0]
    cmds, h = duel.history.eff_cmds, duel.history
    index = next(i for i, cmd in enumerate(cmds) if h.issued(cmd).text == biggest.order)
    begins, ends = h.group_start[cmds[index]], h.group_end[cmds[index]]
    first = h.group_start[cmds[0]]
    before, after = reroll(duel, 400, seed=1, start=begins - first), reroll(duel, 400, seed=1, start=ends - first)
    for side in ("blue", "red", DRAW):
        assert biggest.before.chance(side) == before.wins()[side] / 400
        assert biggest.after.chance(side) == after.wins()[side] / 400
    assert [r.roll.faces for r in biggest.rolls] and biggest.change != 0


def test_an_order_that_rolls_nothing_leaves_the_chances_as_they_were(duel):
    """Why the chances are measured only where dice rolled: setup rolls none."""
    setup_ends = duel.history.group_end[duel.history.eff_cmds[0]] - duel.history.group_start[duel.history.eff_cmds[0]]
    assert reroll(duel, 300, seed=5).wins() == reroll(duel, 300, seed=5, start=setup_ends).wins()


def test_the_same_seed_gives_the_same_chances(duel):
    assert [p.wins for p in chances(duel, 200, seed=9).points] == [p.wins for p in chances(duel, 200, seed=9).points]


@pytest.mark.subprocess
def test_two_workers_give_the_figures_of_one(duel):
    alone, shared = chances(duel, 300, seed=2), chances(duel, 300, seed=2, workers=2)
    assert [p.wins for p in shared.points] == [p.wins for p in alone.points]


def test_the_report_shows_the_chart_the_swings_and_the_decision(duel, tmp_path):
    duel.execute("finish", role=REFEREE)
    report = build(duel, REFEREE, chances_count=200)
    text = render_md.render(report)
    assert "## Each side's chances to win" in text
    assert "the same orders, other dice" in text and "95%" in text
    # The sparkline: the game ended in a draw, "no side ahead" at 100%.
    assert "Blue: ▄" in text and "no side ahead: " in text and "█ " in text
    assert "\\[volley blue dice=1,6\\]" in text
    assert "No side won: no turn decided the game." in text
    page = render_html.render(report)
    assert "Each side&#x27;s chance to win" in page or "Each side's chance to win" in page
    written = render_md.write(report, tmp_path / "r.md")
    assert tmp_path / "r-chances.svg" in written


def test_a_side_never_sees_the_chances_before_the_end(duel):
    with pytest.raises(ValueError, match="only once the game is over"):
        build(duel, "blue", chances_count=50)
    duel.execute("finish", role=REFEREE)
    shown = render_md.render(build(duel, "blue", chances_count=50))
    assert "Each side's chances to win" in shown


def test_a_report_up_to_a_step_has_no_chances(duel):
    with pytest.raises(ValueError, match="without --step"):
        build(duel, REFEREE, step=2, chances_count=50)


def test_a_game_under_way_gives_the_referee_the_chances_of_leading_where_it_stops(duel):
    c = chances(duel, 100)
    assert not c.finished and c.points[-1].step == duel.timeline.length
    assert "The game is not over" in render_md.render(build(duel, REFEREE, chances_count=100))


def test_a_swing_is_said_from_the_chance_before_its_roll_to_the_chance_after(duel):
    """Issue #77: a swing printed backwards ("25% → 65%" for a roll that dropped a side from 65%
    to 25%) was a slip no test held.  Blue's volley (one hit of two dice) leaves no side ahead
    likelier, blue and red less (exact: 5/12 → 2/3, 5/12 → 1/3, 1/6 → 0): each swing reads from
    the point before its order to the point after it, as the chances' own table has them."""
    duel.execute("finish", role=REFEREE)
    report = build(duel, REFEREE, chances_count=400)
    c = report.chances
    assert c is not None and c.swings
    said = chances_account.swings(report)
    assert len(said) == len(c.swings)
    for line, s in zip(said, c.swings, strict=True):
        index = next(i for i, p in enumerate(c.points) if p.step == s.after.step)
        before, after = c.points[index - 1].chance(s.side), c.points[index].chance(s.side)
        assert f"]: {report.facts.side_name(s.side)} {percent(before)} → {percent(after)}" in line, line
    (volley,) = [line for line in said if "[volley blue dice=1,6]" in line]
    start, after_blue = c.points[0], c.points[1]
    assert after_blue.chance(DRAW) > start.chance(DRAW) and after_blue.chance("red") < start.chance("red")
    moved = re.search(r"\]: (.+) ([\d.]+)% → ([\d.]+)%", volley)
    assert moved is not None, volley
    (side,) = [x for x in ("blue", "red", DRAW) if report.facts.side_name(x) == moved[1]]
    # The direction the side's chance moved: the red's and blue's fell, no side ahead's rose.
    assert (float(moved[2]) < float(moved[3])) == (side == DRAW), volley
