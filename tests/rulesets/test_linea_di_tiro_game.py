# ruff: noqa: F811  (pytest fixtures imported from linea_di_tiro_support)
"""Linea di Tiro voluntary rout, the scenario's jokers and artillery, and the end
of the game with its recorded result."""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import pytest
from linea_di_tiro_support import artillery, game, inject, new_game, notes, piece, play, rolls  # noqa: F401  (fixtures)
from playing import refused

from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE
from core.refusal import TYPING
from core.rulesets.linea_di_tiro import scenario_vars
from core.secrets.commitments import matches

RULINGS = Path(__file__).resolve().parents[2] / "docs" / "rulings.md"


def test_a_piece_may_rout_of_its_own_will(game):
    """Rules: LT-R082, LT-AMB-33."""
    play(game, "next")  # 7♥: us
    facts = play(game, "@us rout gis")
    assert [(e.unit, e.cm) for e in facts if isinstance(e, ev.Moved)] == [("gis", 30)]
    assert game.state.units["gis"].has("retreating")
    assert notes(facts) == ["GIs, first half flees 30 cm, back to the enemy, a voluntary rout (LT-R080)"]
    refused(game, "@us rout gis", "already fleeing", rule="LT-R082")
    refused(game, "@us activate gis A2", "fleeing under this card", rule="LT-R051")
    play(game, "@us next")  # Q♠: german; a side may rout out of its card too
    play(game, "@us rout bazooka")
    assert game.state.units["bazooka"].has("retreating")


def test_the_joker_says_the_scenarios_effect(game):
    """Rules: LT-AMB-05."""
    inject(game, ev.VarSet(key=scenario_vars.JOKER_EFFECT, value="the church bell rings: +1 to every morale test"))
    facts = play(game, "next", "next", "next")
    assert "joker: the church bell rings: +1 to every morale test (LT-R010)" in notes(facts)


def test_without_a_scenario_effect_the_joker_says_so(game):
    """Rules: LT-AMB-05."""
    facts = play(game, "next", "next", "next")
    assert "joker: the scenario gives it no effect (LT-R010)" in notes(facts)


@pytest.fixture
def shelled(tmp_path):
    """German artillery (HE 4) called by a company command on Q♠, opening on the joker."""
    with closing(new_game(tmp_path / "art.ft", ["Q♠", "Joker", "7♥", "K♠", "3♣"])) as g:
        inject(
            g,
            piece("hauptmann", "german", "rifles", team="Zug 1", roles=("company-command",)),
            *artillery("german", 4),
        )
        play(g, "next", "@german unitmove call-artillery by=hauptmann on the crossroads")
        yield g


def test_tab_offers_barrage_only_the_side_whose_artillery_fires_on_this_card(shelled):
    """Rules: LT-R090 (#48): on the card the joker opens, the German artillery fires, the
    US has none; before it, no side's does, and the command is refused as Tab said."""
    g = shelled

    def sides(text: str) -> list[str]:  # the side ids among the candidates (the defence= choices follow)
        return [c for c in g.complete(text, "referee") if c in g.state.sides]

    assert sides("barrage ") == []
    play(g, "next")  # the joker
    assert sides("barrage ") == ["german"]
    assert g.complete("barrage kampf", "referee") == ["german"]
    refused(
        g, "barrage us gis defence=still-open", "US 2nd Armored's artillery does not fire on this card", rule="LT-R090"
    )


def test_artillery_attacks_every_unit_in_the_square_on_its_card(shelled):
    """Rules: LT-R090, LT-AMB-27, LT-AMB-31."""
    g = shelled
    refused(g, "barrage german gis defence=still-open", "does not fire on this card", rule="LT-R090")
    facts = play(g, "next")  # the joker
    assert g.state.vars["artillery.german"] == "firing"
    # HE 4 against stationary infantry 3: column +1, a 1 immobilises
    facts = play(g, "barrage german gis defence=still-open dice=1")
    r = rolls(facts)[0]
    assert plain(r.purpose) == "artillery fire on GIs, first half (10 cm square), HE, attack 4 - " + (
        "infantry stationary in the open 3 = +1"
    )
    assert plain(r.outcome) == "modified total 1, column +1: I: immobilised, loses its ready attacks"
    refused(g, "barrage german gis defence=still-open", "already taken this card's artillery attack", rule="LT-R090")
    play(g, "barrage german sherman1 dice=1")  # a tank: defence 5, column -1, 1 → I: a tank tests morale
    assert g.state.units["sherman1"].in_play
    play(g, "next")  # 7♥: the artillery does not fire on it
    refused(g, "barrage german bazooka defence=still-open", "does not fire on this card", rule="LT-R090")
    play(g, "next", "@german unitmove continue-artillery")  # K♠: a face card continues it
    # the barrage that immobilised the GIs was their first HE attack in a row; this
    # second one gets +1 (LT-R061): 4 + 1 - 3, column +2, where a 4 is no effect
    facts = play(g, "barrage german gis defence=still-open dice=4")
    assert plain(rolls(facts)[0].outcome) == "modified total 4, column +2: no effect"
    assert g.state.units["gis"].has("he-2")


def test_a_scenario_whose_jokers_start_no_artillery(tmp_path):
    with closing(new_game(tmp_path / "no-art.ft", ["Q♠", "Joker"])) as g:
        inject(
            g,
            piece("hauptmann", "german", "rifles", roles=("company-command",)),
            *artillery("german", 4),
            ev.VarSet(key=scenario_vars.JOKER_ARTILLERY, value=0),
        )
        play(g, "next")
        refused(g, "@german unitmove call-artillery by=hauptmann", "a joker starts no artillery", rule="LT-R090")


def test_artillery_reaches_hidden_pieces_and_stays_hidden(tmp_path):
    """Rules: LT-R090, LT-AMB-28."""
    with closing(new_game(tmp_path / "us-art.ft", ["K♥", "Joker"])) as g:
        inject(
            g,
            piece("captain", "us", "rifles", team="HQ", roles=("company-command",)),
            *artillery("us", 5),
        )
        play(g, "next", "@us unitmove call-artillery by=captain", "next")
        facts = play(g, "barrage us pak dice=6")  # the hidden gun: no effect
        assert plain(rolls(facts)[0].outcome).endswith("no effect")
        assert not [ln for ln in g.log_lines("us") if "Pak" in ln.text]


def test_the_game_ends_after_the_scenarios_cards_with_a_recorded_result(game):
    """Rules: LT-AMB-32."""
    inject(
        game,
        ev.VarSet(key=scenario_vars.TURNS, value=2),
        ev.VarSet(key=scenario_vars.VICTORY, value="hold the crossroads"),
    )
    assert "the last card of the game (2, the scenario's turns)" not in notes(play(game, "next"))
    assert "the last card of the game (2, the scenario's turns)" in notes(play(game, "next"))
    refused(game, "next", "2 cards have been played", rule="LT-AMB-32")
    play(game, "out grenadiers")
    refused(game, "result nobody", "no side 'nobody'", rule=TYPING)
    refused(game, "@us result us", "only the referee", rule="ENG-1")
    *openings, end = play(game, "result us")
    # The end opens every secret with the salt of its commitment: the hidden gun, the shuffled deck.
    assert [o.key for o in openings] == ["unit.pak", "secret.deck"]
    assert openings[1].value == game.state.vars["secret.deck"]
    assert all(map(matches, openings))
    assert isinstance(end, ev.GameEnded) and plain(end.result) == (
        "US 2nd Armored win: hold the crossroads "
        "(US 2nd Armored lost 0 of 4; Kampfgruppe Heinz lost 1 of 3; after 2 cards)"
    )
    assert (end.winner, end.draw, end.scores) == ("us", False, {"us": 0, "german": 1})
    assert game.state.phase == "ended"
    refused(game, "next", rule="LT-AMB-32")


def test_a_draw_with_the_referees_words(game):
    """Rules: LT-AMB-32."""
    play(game, "next")
    play(game, "result draw night falls on both")
    assert plain(game.state.result).startswith("a draw: night falls on both (")
    assert plain(game.state.result).endswith("; after 1 card)")  # one card, not "1 cards"
    assert (game.state.winner, game.state.draw) == ("", True)


def test_every_scenario_variable_is_documented():
    text = RULINGS.read_text(encoding="utf-8")
    for key in scenario_vars.KEYS:
        assert f"`{key}`" in text, key


def test_a_word_several_pieces_share_is_answered_with_which_is_which(tmp_path):
    """``activate baker``: three Shermans; the refusal names each by the id to type and
    its name (#26): ids alone (s1, s2 or s3) said nothing of which is which."""
    from core.game import Game

    game = Game.new(tmp_path / "lt.ft", "linea-di-tiro", seed=3)
    game.execute("scenario breakout", role=REFEREE)
    game.execute("next", role=REFEREE)
    assert refused(game, "activate baker A5", rule=TYPING) == (
        "'baker' could be s1 (Sherman Baker 1), s2 (Sherman Baker 2) or s3 (Sherman Baker 3)"
    )
    game.close()


def test_an_artillery_roll_is_the_sides_and_as_private_as_its_hidden_target(shelled):
    """LT-R090 with LT-R030: no piece fires a barrage, so its roll is the side's; aimed at a
    hidden piece it is told only to those who see the piece (issue #33)."""
    g = shelled
    inject(g, piece("scout", "us", "rifles", status=("hidden",)))
    play(g, "next")  # the joker
    facts = play(g, "barrage german scout defence=still-open dice=6")
    said = [(e.unit, e.side, e.vis) for e in facts if isinstance(e, ev.Rolled)]
    assert said == [("", "german", ("us",))]
    facts = play(g, "barrage german gis defence=still-open dice=6")
    assert [(e.unit, e.side, e.vis) for e in facts if isinstance(e, ev.Rolled)] == [("", "german", ())]
