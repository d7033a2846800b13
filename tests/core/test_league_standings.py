"""The league's standings from games made directly: points, each tie-break deciding, ratings, escaping."""

from __future__ import annotations

import html
import json
import math
from pathlib import Path

import pytest

from core.language.reader import reading
from core.league import render, standings
from core.league.certificate import Certificate, Checked, Player
from core.league.folding import FROZEN, VOIDED, Game, Season
from core.league.rating import BASE, fit
from core.league.records import Opened
from core.report.style import STYLE

ALICE, BOB, CARLA, DINO, ERIN = "alice", "bob", "carla", "dino", "erin"


def game(
    n: int, a: str, b: str, winner: str | None, scores: tuple[int, int] = (0, 0), ruleset: str = "ludonet"
) -> Game:
    """Game ``n``: ``a`` holds side "x", ``b`` side "y"; ``winner`` a player, or None for a draw."""
    cert = Certificate(
        fireteam_result=1,
        game=f"{n:064x}",
        ruleset=ruleset,
        ruleset_version="1",
        variant="",
        engine="0.1.0",
        scenario="tanks",
        players=(Player("x", a), Player("y", b)),
        winner="" if winner is None else ("x" if winner == a else "y"),
        draw=winner is None,
        scores={"x": scores[0], "y": scores[1]},
        checked=Checked(0, 0, 0, 0, 1),
        save_sha256=f"{n:064x}",
        ended_at=0,
    )
    return Game(n, cert, {"x": (a,), "y": (b,)}, (), cert.winner, cert.draw)


def season(*games: Game, points: tuple[int, int, int] = (3, 1, 0)) -> Season:
    opened = Opened(name="Club <b>", win=points[0], draw=points[1], loss=points[2], signers="", organiser="org")
    return Season(Path("club.league"), opened, [], list(games))


def rows(s: Season) -> dict[str, standings.Row]:
    return {r.player: r for r in standings.table(s).rows}


def test_league_points_are_the_clubs():
    s = season(game(1, ALICE, BOB, ALICE), game(2, ALICE, CARLA, None), points=(2, 1, -1))
    r = rows(s)
    assert (r[ALICE].points, r[BOB].points, r[CARLA].points) == (3, -1, 1)
    assert (r[ALICE].won, r[ALICE].drawn, r[ALICE].lost, r[ALICE].played) == (1, 1, 0, 2)
    assert [x.player for x in standings.table(s).rows] == [ALICE, CARLA, BOB]


def test_head_to_head_decides_a_tie():
    # alice and bob each win two; alice beat bob: she is ahead, and it says why.
    s = season(
        game(1, ALICE, BOB, ALICE),
        game(2, BOB, CARLA, BOB),
        game(3, BOB, DINO, BOB),
        game(4, ALICE, CARLA, CARLA),
        game(5, ALICE, DINO, ALICE),
    )
    t = standings.table(s)
    top = t.rows[:2]
    assert [r.player for r in top] == [ALICE, BOB]
    assert top[0].points == top[1].points == 6
    assert top[0].decided == standings.HEAD_TO_HEAD


def test_strength_of_schedule_decides_when_head_to_head_is_level():
    # alice and bob never met, each won his one game: alice's opponent drew his other game
    # (0.5 points a game), bob's lost his (0); erin, with a win and a draw, is ahead of both.
    s = season(
        game(1, ALICE, CARLA, ALICE), game(2, BOB, DINO, BOB), game(3, CARLA, ERIN, None), game(4, DINO, ERIN, ERIN)
    )
    t = standings.table(s)
    assert [r.player for r in t.rows[:3]] == [ERIN, ALICE, BOB]
    assert t.rows[1].decided == standings.SCHEDULE
    assert t.rows[1].schedule == pytest.approx(0.5) and t.rows[2].schedule == 0


def test_score_margin_decides_when_schedule_is_level():
    # Each ruleset's scores count what a side lost: alice lost 1 to carla's 9, bob 4 to dino's 6:
    # alice's share of the losses is (9 - 1) / 10, bob's (6 - 4) / 10.
    s = season(game(1, ALICE, CARLA, ALICE, (1, 9)), game(2, BOB, DINO, BOB, (4, 6)))
    t = standings.table(s)
    assert [r.player for r in t.rows[:2]] == [ALICE, BOB]
    assert t.rows[0].decided == standings.MARGIN
    assert (t.rows[0].margin, t.rows[1].margin) == (pytest.approx(0.8), pytest.approx(0.2))


def test_games_played_decides_last_and_a_full_tie_shares_the_place():
    # Draws worth nothing: everyone level on points, head-to-head, schedule and margin.
    s = season(game(1, ALICE, BOB, None), game(2, ALICE, CARLA, None), game(3, BOB, CARLA, None), points=(3, 0, 0))
    t = standings.table(s)
    assert {r.place for r in t.rows} == {1} and t.rows[0].decided == standings.SHARED
    s = season(game(1, ALICE, BOB, None), game(2, CARLA, DINO, None), game(3, ALICE, BOB, None), points=(3, 0, 0))
    t = standings.table(s)
    assert [r.player for r in t.rows] == [ALICE, BOB, CARLA, DINO]
    assert [r.place for r in t.rows] == [1, 1, 3, 3]
    assert t.rows[1].decided == standings.PLAYED


def test_a_disputed_game_is_frozen_and_a_void_one_never_counts():
    frozen, void = game(1, ALICE, BOB, ALICE), game(2, ALICE, CARLA, ALICE)
    frozen.status, void.status = FROZEN, VOIDED
    r = rows(season(frozen, void, game(3, BOB, CARLA, BOB)))
    assert (r[ALICE].played, r[ALICE].points) == (0, 0)
    assert r[BOB].points == 3


def test_the_fit_is_bradley_terry_with_its_prior():
    # One game, a win: with a prior of deviation s the posterior mode solves r/s^2 = K(1 - e) exactly.
    ratings = fit([(ALICE, BOB, 1.0, 1.0)])
    (a, ea), (b, eb) = ratings[ALICE], ratings[BOB]
    k = math.log(10) / 400
    d = (a - BASE) - (b - BASE)
    e = 1 / (1 + math.exp(-k * d))
    assert a - BASE == pytest.approx(200.0**2 * k * (1 - e), abs=0.05)
    assert a - BASE == pytest.approx(-(b - BASE), abs=1e-6)
    assert 0 < ea < 200 and ea == pytest.approx(eb)


def test_more_games_narrow_the_band_and_the_stronger_player_rates_higher():
    few = fit([(ALICE, BOB, 1.0, 1.0), (BOB, ALICE, 0.5, 1.0)])
    many = fit([(ALICE, BOB, 1.0, 1.0), (BOB, ALICE, 0.5, 1.0)] * 10)
    assert many[ALICE][1] < few[ALICE][1]
    assert many[ALICE][0] > many[BOB][0]


def test_ratings_are_per_ruleset():
    s = season(game(1, ALICE, BOB, ALICE), game(2, ALICE, BOB, BOB, ruleset="bassa-intensita"))
    r = rows(s)
    assert set(r[ALICE].ratings) == {"ludonet", "bassa-intensita"}
    assert r[ALICE].ratings["ludonet"][0] > BASE > r[ALICE].ratings["bassa-intensita"][0]
    assert r[ALICE].ratings["ludonet"][2] == 1


HOSTILE = "<script>alert(1)</script>|*x*](http://e)"


def test_html_escapes_every_name():
    s = season(game(1, HOSTILE, BOB, HOSTILE))
    page = render.page(standings.table(s), "Club <b>", "en")
    assert "<script>" not in page and "<b>" not in page
    assert html.escape(HOSTILE, quote=True) in page


def demo_game(n: int, a: str, b: str) -> Game:
    """Game ``n`` of Breaking News' demo (``Checkpoint at Afgooye``): ``a`` for the Bersaglieri beat ``b``."""
    cert = Certificate(
        fireteam_result=1, game=f"{n:064x}", ruleset="breaking-news", ruleset_version="1", variant="",
        engine="0.1.0", scenario="Checkpoint at Afgooye", players=(Player("regulars", a), Player("irregulars", b)),
        winner="regulars", draw=False, scores={"regulars": 20, "irregulars": 50}, checked=Checked(0, 0, 0, 0, 1),
        save_sha256=f"{n:064x}", ended_at=0,
    )  # fmt: skip
    return Game(n, cert, {"regulars": (a,), "irregulars": (b,)}, (), cert.winner, cert.draw)


def test_the_page_is_styled_as_the_report_and_fits_a_phone():
    """Issue #91: the standings page had no style and no viewport (the relay's report page is styled)."""
    page = render.page(standings.table(season(game(1, ALICE, BOB, ALICE))), "Club", "en")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert f"<style>{render.PAGE_STYLE}</style>" in page and STYLE in render.PAGE_STYLE  # the report's
    assert f'style-src {render.PAGE_STYLE_SOURCE}"' in page and "<script" not in page
    assert "overflow-x: auto" in render.PAGE_STYLE  # its wide table scrolls within a phone's width


def test_italian_standings_say_games_in_italian_and_name_the_sides_as_their_scenario_does():
    """Issue #91: Italian standings said "Games", and "anna (regulars)" by the sides' ids."""
    t = standings.table(season(demo_game(1, ALICE, BOB)))
    with reading("it"):
        page, md, text = render.page(t, "Club", "it"), render.markdown(t, "Club"), render.text(t, "Club")
    assert "<h2>Partite</h2>" in page and "## Partite" in md and "Games" not in page + md
    for said in (page, md, text):
        assert "alice (Reparto Bersaglieri)" in said and "bob (Milizia somala)" in said, said
        assert "(regulars)" not in said
    assert "alice (Bersaglieri) beat bob (Somali militia)" in render.text(t, "Club")
    assert json.loads(render.as_json(t, "Club"))["games"][0]["winner"] == "regulars"  # ids in JSON
    unknown = standings.table(season(game(1, ALICE, BOB, ALICE)))  # "tanks": no built-in scenario's title
    assert "alice (x) beat bob (y)" in render.text(unknown, "Club")


def test_markdown_escapes_every_name():
    md = render.markdown(standings.table(season(game(1, HOSTILE, BOB, HOSTILE))), "Club")
    row = next(line for line in md.splitlines() if "script" in line)
    assert row.count(" | ") == 10  # eleven cells: the name's bar is escaped, not a column
    assert "](" not in row.replace("\\](", "") and "<" not in row.replace("\\<", "")


def test_text_and_json_in_both_languages():
    t = standings.table(season(game(1, ALICE, BOB, ALICE), game(2, ALICE, BOB, None)))
    assert "1. alice: 4 points" in render.text(t, "Club")
    with reading("it"):
        italian = render.text(t, "Club")
    assert "1. alice: 4 punti" in italian
    data = json.loads(render.as_json(t, "Club"))
    assert data["standings"][0]["player"] == ALICE and data["games"][1]["draw"] is True
    assert data["games"][0]["confirmed"] == "unconfirmed"  # (no signature: nobody's word, not the organiser's)


def test_the_band_is_the_inverse_hessians():
    # Two players, one draw: by symmetry both at 1500; the Hessian is [[t+w, -w], [-w, t+w]] with
    # t the prior's precision and w = K²/4, so each variance is (t+w) / (t(t+2w)).
    ratings = fit([(ALICE, BOB, 0.5, 1.0)])
    k, t = math.log(10) / 400, 1 / 200.0**2
    w = k * k / 4
    assert ratings[ALICE][0] == pytest.approx(BASE)
    assert ratings[ALICE][1] == pytest.approx(math.sqrt((t + w) / (t * (t + 2 * w))))
