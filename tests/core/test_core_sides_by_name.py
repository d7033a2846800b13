"""Sides are found by any word of their name, as units are (#48): every command that
takes a side, in every ruleset, and a refusal that names the choices in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.game import Game
from core.language.i18n import plain
from core.ruleset import Refused

CLOCK = 1_700_000_000_000


def new_game(tmp_path: Path, ruleset: str) -> Game:
    game = Game.new(tmp_path / "g.ft", ruleset, seed=3, clock=lambda: CLOCK)
    game.execute("scenario demo")
    return game


def refusal(game: Game, text: str, role: str = "referee") -> str:
    with pytest.raises(Refused) as refused:
        game.execute(text, role=role)
    return str(refused.value)


@pytest.mark.parametrize(
    ("ruleset", "typed", "side"),
    [
        ("breaking-news", "somali", "irregulars"),
        ("breaking-news", "Somali militia", "irregulars"),
        ("breaking-news", "bers", "regulars"),
        ("bassa-intensita", "folgore", "folgore"),
        ("bassa-intensita", "village", "militia"),
        ("linea-di-tiro", "kampf", "german"),
        ("linea-di-tiro", "armored", "us"),
        ("ludonet", "parachute", "paras"),
        ("ludonet", "farm garrison", "garrison"),
    ],
)
def test_a_side_is_found_by_any_word_of_its_name(tmp_path, ruleset, typed, side):
    game = new_game(tmp_path, ruleset)
    parsed = game.parse(f"dp {typed} 3 shot")
    assert (parsed.args["side"], parsed.args["points"], parsed.args["reason"]) == (side, 3, "shot")


def test_a_word_that_names_no_side_is_refused_naming_the_sides_in_words(tmp_path):
    game = new_game(tmp_path, "breaking-news")
    assert refusal(game, "dp xyz 3") == "no side 'xyz'; name Bersaglieri (regulars) or Somali militia (irregulars)"
    assert refusal(game, "dp somaly 3") == "no side 'somaly'; did you mean Somali militia (irregulars)?"


def test_a_word_of_several_sides_is_refused_naming_them(tmp_path):
    game = new_game(tmp_path, "linea-di-tiro")
    game.state.sides["german"].name = "US rearguard"  # two names with a word beginning "u"
    assert refusal(game, "dp u 3") == "'u' could be US 2nd Armored (us) or US rearguard (german)"
    assert game.parse("dp us 3").args["side"] == "us"  # an id typed whole is that side


def test_linea_di_tiro_result_names_the_winner_by_a_word_of_its_name(tmp_path):
    game = new_game(tmp_path, "linea-di-tiro")
    game.execute("result kampf the bridge is held")
    assert "Kampfgruppe Heinz win: the bridge is held" in plain(game.state.result)


def test_ludonet_victory_names_the_winner_by_a_word_of_its_name(tmp_path):
    game = new_game(tmp_path, "ludonet")
    game.execute("next")
    game.execute("victory parachute the farm is taken")
    assert "7th Parachute Battalion" in plain(game.state.result)
    assert refusal(game, "victory nobody").startswith("the game is over")


def test_bassa_intensita_victory_names_the_winner_by_a_word_of_its_name(tmp_path):
    game = new_game(tmp_path, "bassa-intensita")
    game.execute("next")
    game.execute("victory village the patrol is gone")
    assert "Village militia" in plain(game.state.result)
