"""A scenario's break point (``[victory] break_at``, docs/scenarios.md; ruling CORE-BREAK-AT,
issue #91): a side that has lost that share of its pieces loses the game, as soon as it has,
in every ruleset whose scenario announces it.  Exact dice where a rule's roll makes the loss."""

from __future__ import annotations

import pytest
from linea_di_tiro_support import faces_for, stacked
from playing import play, refused

from core.game import Game
from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE
from core.rulesets.breaking_news.campaign.victory import final_points
from core.scenarios.breaking import broken

BN_BREAK = """
[victory]
summary = "Hold the checkpoint."
break_at = 50
"""


def ended(facts: list[ev.Event]) -> ev.GameEnded | None:
    return next((e for e in facts if isinstance(e, ev.GameEnded)), None)


@pytest.mark.parametrize(
    ("lost", "pieces", "percent", "is_broken"),
    [
        (1, 4, 50, False),
        (2, 4, 50, True),
        (1, 2, 50, True),
        (1, 3, 50, False),
        (2, 3, 50, True),
        (3, 3, 100, True),
        (2, 3, 100, False),
        (0, 0, 50, False),
        (0, 4, 0, False),
    ],
)
def test_a_side_is_broken_at_the_share_it_has_lost(lost, pieces, percent, is_broken):
    """docs/scenarios.md: "a side that has lost this percentage of its pieces loses": at it or past
    it, never short of it; 0 is no break point, and a side of no pieces loses none."""
    assert broken(lost, pieces, percent) is is_broken


def test_linea_di_tiro_ends_when_the_allies_lose_their_second_sherman_of_four(tmp_path):
    """Bocage breakout, `break_at = 50` (LT-AMB-32, ruling LT-END): the Panther's AT fire, 8
    against a Sherman's front 5, column +3; a 2 destroys.  The first Sherman lost is 1 of the
    Americans' 4 pieces: the game goes on; the second is 2 of 4, 50%: it ends in that command,
    the Germans win, the scores the pieces lost, and `next` draws no card for anyone."""
    game = Game.new(tmp_path / "lt.ft", "linea-di-tiro", seed=5)
    deck = faces_for(stacked(["7♠", "8♥"]))
    play(game, f"scenario breakout dice={','.join(map(str, deck))}", "next", "@german activate panther A4 prepare=0")
    first = play(game, "@german at panther s1 dice=1,1")
    assert game.state.units["s1"].out and ended(first) is None and not game.state.result
    second = play(game, "@german at panther s2 dice=1,1")
    end = ended(second)
    assert end is not None and game.state.units["s2"].out
    assert (end.winner, end.draw, end.scores) == ("german", False, {"us": 2, "german": 0})
    assert "Combat Command B lost 2 of their 4 pieces, the scenario's break point of 50%" in plain(end.result)
    refused(game, "next", "the game is over", rule="ENG-2")
    game.close()


def test_bassa_intensita_ends_when_the_militia_lose_two_of_three(tmp_path):
    """The convoy (`break_at = 50`, BI-END): a rifle's damage die of 10 kills (A.12.1, BI-R111);
    Abdi is 1 of the militia's 3 (33%), Farah 2 of 3 (67%): the convoy wins there and then."""
    game = Game.new(tmp_path / "bi.ft", "bassa-intensita", seed=3)
    play(game, "scenario convoy", "next")
    assert ended(play(game, "hit abdi weapon=rifle dice=10")) is None and not game.state.result
    end = ended(play(game, "hit farah weapon=rifle dice=10"))
    assert end is not None
    assert (end.winner, end.draw, end.scores) == ("convoy", False, {"convoy": 0, "militia": 2})
    assert plain(end.result).startswith("Italian convoy win: Road militia lost 2 of their 3 pieces")
    game.close()


def test_ludonet_ends_when_the_garrison_loses_two_of_three(tmp_path):
    """The night raid (`break_at = 50`, LN-END): the garrison's second sentry lost is 2 of 3."""
    game = Game.new(tmp_path / "ln.ft", "ludonet", seed=3)
    play(game, "scenario night-raid")
    assert ended(play(game, "out sentry1 knifed")) is None
    end = ended(play(game, "out sentry2 knifed"))
    assert end is not None
    assert (end.winner, end.draw, end.scores) == ("commandos", False, {"commandos": 0, "garrison": 2})
    game.close()


def test_breaking_news_goes_to_the_final_count_and_the_broken_side_loses(tmp_path):
    """A Breaking News scenario with `break_at = 50`: the Bersaglieri's third man lost is 3 of their
    6 (§12.0's losses: killed, badly wounded; the journalist is no piece of theirs): the game is
    over at once (§14.0's final count follows, as after a rout), and the count names the
    militia the winners whatever the defeat points, which stay each side's score."""
    demo = (Game.new(tmp_path / "x.ft", "breaking-news").ruleset.scenarios["demo"]).text
    path = tmp_path / "broken.toml"
    path.write_text(demo.replace("points = 125\n", "points = 125\n" + BN_BREAK, 1), encoding="utf-8")
    game = Game.new(tmp_path / "bn.ft", "breaking-news", seed=3)
    play(game, f"scenario {path}", "next", "next dice=6,6,1,1", "dp irregulars 200 their mortar flattened a mosque")
    play(game, "out conti killed by irregulars", "out greco wounded by irregulars")
    assert game.state.phase == "activation"
    facts = play(game, "out marino killed by irregulars")
    assert game.state.phase == "final" and ended(facts) is None
    said = [(plain(e.text), e.vis) for e in facts if isinstance(e, ev.Noted)]
    assert ("Bersaglieri lost 3 of their 6 pieces, the scenario's break point of 50%", (REFEREE,)) in said
    over = game.ruleset.describe_var("game_over", game.state.vars["game_over"])
    assert over == "the game is over: regulars reached the scenario's break point"
    assert ended(play(game, "out aden killed by regulars", "out bashir killed by regulars")) is None  # over already
    end = ended(play(game, "next"))
    assert end is not None and (end.winner, end.draw) == ("irregulars", False)
    # §14.0 would make the Bersaglieri the winners on defeat points: the break point decides
    assert end.scores == {"regulars": 60, "irregulars": 215} == final_points(game.state)
    assert plain(end.result) == (
        "Somali militia win: Bersaglieri reached the scenario's break point "
        "(Somali militia 215, Bersaglieri 60 defeat points)"
    )
    game.close()


def test_no_break_point_no_end(tmp_path):
    """The Linea di Tiro demo sets none: every American piece lost, the game goes on until the
    referee records its result (LT-END)."""
    game = Game.new(tmp_path / "lt.ft", "linea-di-tiro", seed=5)
    play(game, "scenario demo", "next")
    for piece in ("sherman1", "sherman2", "gis", "bazooka"):
        assert ended(play(game, f"out {piece}")) is None
    assert not game.state.result
    game.close()


def test_the_set_up_announces_what_the_game_applies(tmp_path):
    """The line the set-up says is the rule the game keeps (docs/scenarios.md)."""
    game = Game.new(tmp_path / "lt.ft", "linea-di-tiro", seed=5)
    lines = game.execute("scenario breakout", role=REFEREE).lines
    assert "a side that loses 50% of its pieces loses the game" in lines
    game.close()
