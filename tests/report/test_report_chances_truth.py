"""Chances that say what they measure (issue #77): the referee's ending at its place in every
re-rolled game, the orders that no longer fitted counted beside each chance, the rolls that
only decided who acts first named as such, the last point the recorded result (a ruling
too), and the orders quoted in the report's language."""

from __future__ import annotations

import dataclasses

import pytest
from recorded import SAVES
from test_report_reroll_sequence import Duel, _once, _play

from core.game import Game
from core.language.i18n import M
from core.language.reader import reading
from core.log import events as ev
from core.log.views import REFEREE
from core.registry import register, unregister
from core.report import chances_account, render_md
from core.report.build import build
from core.report.chances import Chances, Point, Swing, acts_first, chances
from core.report.reroll import DRAW, recorded_winner, reroll
from core.ruleset import END_GAME, CommandSpec, Context, Param, Refused


def _victory(ctx: Context, args: dict) -> None:
    winner, draw = ("", True) if args["winner"] == "draw" else (args["winner"], False)
    ctx.emit(ev.GameEnded(result=M("ruled: {reason}", reason=args["reason"] or "-"), winner=winner, draw=draw))


class Ruled(Duel):
    """The re-rolls' Duel (1d6 each for the initiative, the winner fires, the other reacts) with
    the referee's ending, the end-game every ruleset has; once ended, it goes no further."""

    id = "test-ruled-duel"

    def advance(self, ctx: Context) -> None:
        if ctx.state.result:
            raise Refused("the game is over")
        super().advance(ctx)

    def commands(self):
        winner = Param("winner", "side", choices=("draw",))
        ending = CommandSpec(
            "victory",
            "The referee ends the game.",
            _victory,
            params=(winner, Param("reason", "text", optional=True)),
            aliases=(END_GAME,),
            who="referee",
        )
        return [*super().commands(), ending]


#: Blue wins turn 1, red turn 2; every shot misses; the referee ends the game in red's end
#: phase of turn 2, giving it to blue.
RULED = (
    "setup",
    "next dice=6,1",
    "@blue fire b1 r1 dice=1",
    "@blue next",
    "next",
    "next dice=1,6",
    "@red fire r1 b1 dice=1",
    "@red next",
    "end-game blue the bridge is held",
)


@pytest.fixture
def ruled(tmp_path):
    register(Ruled)
    game = Game.new(tmp_path / "r.ft", Ruled.id)
    _play(game, RULED)
    yield game
    game.close()
    unregister(Ruled.id)


def test_the_referees_ending_ends_a_rerolled_game_at_its_place_not_in_its_sides_turn(ruled):
    """Red wins turn 1 (1 against 6): its orders, the ending's stretch, come in turn 1, but the
    ending waits for its place (turn 2, end phase).  Blue wins turn 2 (6 against 1) and fires;
    the next that would close turn 2 is where the referee ends the game.  Nothing skipped,
    every face used (red's miss, the initiative, blue's miss)."""
    played, unused = _once(ruled, [1, 6, 1, 6, 1, 1])
    assert played.skipped == []
    assert unused == 0


def test_a_rerolled_game_that_never_gives_the_ending_sides_turn_still_ends_there(ruled):
    """Blue wins both initiatives: red's turn never comes (its shot skipped, saying so), yet the
    referee's ending ends the game in turn 2's end phase as it did this game."""
    played, unused = _once(ruled, [6, 1, 1, 6, 1])
    never = "the re-rolled game ended before its step came (turn 2, activation phase, Red active)"
    assert played.skipped == [("fire r1 b1 dice=1", never)]
    assert unused == 0


def test_each_point_counts_the_rerolled_games_that_skipped_orders(ruled):
    c = chances(ruled, 200, seed=4)
    measured = [p for p in c.points if p.count]
    assert measured and any(p.skipping for p in measured)
    for p in measured:
        again = reroll(ruled, 200, seed=4, start=p.step)
        assert p.skipping == sum(1 for g in again.games if g.skipped)
        assert p.skipped == sum(len(g.skipped) for g in again.games)
    text = render_md.render(dataclasses.replace(build(ruled, REFEREE), chances=c))
    first = c.points[0]
    share = f"{100 * first.skipping / first.count:.1f}%"
    n = round(first.skipped / first.skipping)
    assert f"in {share} of these games {n} order{'s' if n != 1 else ''} no longer fitted" in text
    assert "| orders that no longer fitted |" in text


def test_the_last_point_is_the_recorded_result_the_ruling_included(ruled):
    """Every shot missed: on the score no side is ahead, but the referee gave the game to blue."""
    assert recorded_winner(ruled.state) == "blue"
    c = chances(ruled, 100)
    assert c.winner == "blue" and c.points[-1].wins == {"blue": 1} and c.points[-1].count == 0
    text = render_md.render(dataclasses.replace(build(ruled, REFEREE), chances=c))
    assert "No side won" not in text
    assert "Only the game's recorded result decided it: just before it, Blue's chance of winning was" in text


def test_a_ludonet_game_the_referee_ended_for_the_paras_ends_its_chances_with_the_paras(tmp_path):
    game = Game.new(tmp_path / "ln.ft", "ludonet", seed=4)
    for line in ("scenario demo", "next", "next", "next", "next"):
        game.execute(line, role=REFEREE)
    game.execute("fire bren hans range=40", role="paras")
    game.execute("end-game paras the farm is taken", role=REFEREE)
    assert recorded_winner(game.state) == "paras"
    with reading("it"):
        text = render_md.render(build(game, REFEREE, chances_count=40))
    assert "nessuna parte in vantaggio: ███▁ 100,0% → 0%" in text
    assert "7° Battaglione paracadutisti: ▁▁▁█ 0% → 100,0%" in text
    assert "Nessuna parte ha vinto" not in text


def test_a_draw_recorded_is_no_side_ahead_and_a_save_from_before_the_result_as_data_reads_its_score():
    from core.log.state import GameState

    assert recorded_winner(GameState(result="a draw", draw=True)) == DRAW
    assert recorded_winner(GameState(result="blue win")) is None  # words only: the score decides


def test_an_initiative_only_decides_who_acts_first_a_shot_does_more(ruled):
    h = ruled.history
    groups = {h.issued(cmd).text: h.group(cmd) for cmd in h.eff_cmds}
    assert acts_first(groups["next dice=6,1"]) and acts_first(groups["next dice=1,6"])
    assert not acts_first(groups["fire b1 r1 dice=1"])
    assert not acts_first(groups["setup"])  # no roll


def test_a_swing_that_only_decided_who_acts_first_is_named_so(ruled):
    report = build(ruled, REFEREE)
    before, after = Point(0, 0, -1, {"blue": 50, "red": 50}, 100), Point(5, 1, 1, {"blue": 90, "red": 10}, 100)
    cmd = ruled.history.eff_cmds[1]
    rolls = tuple(e for e in ruled.history.group(cmd) if isinstance(e, ev.Rolled))
    swing = Swing(before, after, "blue", "next dice=6,1", rolls, acts_first=True)
    c = Chances(0, 100, ["blue", "red"], [before, after], "blue", True, [swing])
    line = chances_account.swing(dataclasses.replace(report, chances=c), swing)
    assert line.startswith("Only who acts first, with the same orders (not what the dice did): Turn 1:")
    assert "(before: every order fitted; after: every order fitted)" in line


def test_a_swing_after_which_more_games_skipped_orders_is_named_so(ruled):
    report = build(ruled, REFEREE)
    before = Point(0, 0, -1, {"blue": 50, "red": 50}, 200, skipping=20, skipped=20)
    after = Point(5, 1, 2, {"blue": 90, "red": 10}, 200, skipping=150, skipped=300)
    swing = Swing(before, after, "blue", "fire b1 r1 dice=1", ())
    c = Chances(0, 200, ["blue", "red"], [before, after], "blue", True, [swing])
    line = chances_account.swing(dataclasses.replace(report, chances=c), swing)
    assert line.startswith("Partly orders that no longer fitted, not the dice alone:")
    assert "(before: in 10.0% of these games 1 order no longer fitted; " in line
    assert "after: in 75.0% of these games 2 orders no longer fitted)" in line
    fewer = Point(5, 1, 2, {"blue": 90, "red": 10}, 200, skipping=25, skipped=25)
    assert not Swing(before, fewer, "blue", "fire b1 r1 dice=1", ()).unfitting()


def test_the_swings_quote_their_orders_in_the_reports_language():
    game = Game.open(SAVES / "demo-game.ft", writable=False)
    h = game.history
    index = next(i for i, cmd in enumerate(h.eff_cmds) if h.issued(cmd).text == "react-fire bashir bianchi range=26")
    rolls = tuple(e for e in h.group(h.eff_cmds[index]) if isinstance(e, ev.Rolled))
    before, after = Point(0, 4, -1, {"irregulars": 74}, 100), Point(1, 4, index, {"irregulars": 97}, 100)
    swing = Swing(before, after, "irregulars", h.issued(h.eff_cmds[index]).text, rolls)
    c = Chances(0, 100, ["regulars", "irregulars"], [before, after], "irregulars", True, [swing])
    with reading("it"):
        line = chances_account.swing(dataclasses.replace(build(game, REFEREE), chances=c), swing)
    assert "[reagisci-spara bashir bianchi distanza=26]" in line
    with reading("en"):
        line = chances_account.swing(dataclasses.replace(build(game, REFEREE), chances=c), swing)
    assert "[react-fire bashir bianchi range=26]" in line


def test_the_chances_chart_has_a_line_for_no_side_ahead(ruled):
    from core.report.charts import chances as chances_chart

    c = chances(ruled, 100)
    assert any(p.chance(DRAW) for p in c.points)
    svg = chances_chart(dataclasses.replace(build(ruled, REFEREE), chances=c)).svg
    assert svg.count('class="legend reactive activate-serie"') == 3 and ">no side ahead</text>" in svg


def test_the_rerolls_say_the_recorded_result_when_a_ruling_decided(ruled):
    text = render_md.render(build(ruled, REFEREE, rerolls=50))
    assert "In this game, Blue won." in text and "no side came out ahead" not in text
