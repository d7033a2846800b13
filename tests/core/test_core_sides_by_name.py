"""Sides are found by any word of their name, as units are (#48): every command that
takes a side, in every ruleset, and a refusal that names the choices in words."""

from __future__ import annotations

from pathlib import Path

import pytest
from playing import refused

from core.game import Game
from core.language.i18n import plain
from core.language.reader import reading
from core.log.views import REFEREE
from core.refusal import TYPING

CLOCK = 1_700_000_000_000


def new_game(tmp_path: Path, ruleset: str) -> Game:
    game = Game.new(tmp_path / "g.ft", ruleset, seed=3, clock=lambda: CLOCK)
    game.execute("scenario demo", role=REFEREE)
    return game


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
    line, place = NAMES_A_SIDE[ruleset]
    parsed = game.parse(line.format(typed=typed), REFEREE)
    assert parsed.args[place] == side


#: A command of each ruleset that takes a side, and its argument: ``dp`` where the book scores
#: defeat points, else the game's ending (ruling CORE-NO-DEFEAT-POINTS).
NAMES_A_SIDE = {
    "breaking-news": ("dp {typed} 3 shot", "side"),
    "bassa-intensita": ("victory {typed} shot", "winner"),
    "linea-di-tiro": ("result {typed} shot", "winner"),
    "ludonet": ("victory {typed} shot", "winner"),
}


def test_a_word_that_names_no_side_is_refused_naming_the_sides_in_words(tmp_path):
    game = new_game(tmp_path, "breaking-news")
    assert (
        refused(game, "dp xyz 3", rule=TYPING)
        == "no side 'xyz'; name Bersaglieri (regulars) or Somali militia (irregulars)"
    )
    assert refused(game, "dp somaly 3", rule=TYPING) == "no side 'somaly'; did you mean Somali militia (irregulars)?"


def test_a_word_of_several_sides_is_refused_naming_them(tmp_path):
    game = new_game(tmp_path, "linea-di-tiro")
    game.state.sides["german"].name = "US rearguard"  # two names with a word beginning "u"
    assert refused(game, "result u", rule=TYPING) == "'u' could be US 2nd Armored (us) or US rearguard (german)"
    assert game.parse("result us", REFEREE).args["winner"] == "us"  # an id typed whole is that side


def test_linea_di_tiro_result_names_the_winner_by_a_word_of_its_name(tmp_path):
    game = new_game(tmp_path, "linea-di-tiro")
    game.execute("result kampf the bridge is held", role=REFEREE)
    assert "Kampfgruppe Heinz win: the bridge is held" in plain(game.state.result)


def test_ludonet_victory_names_the_winner_by_a_word_of_its_name(tmp_path):
    game = new_game(tmp_path, "ludonet")
    game.execute("next", role=REFEREE)
    game.execute("victory parachute the farm is taken", role=REFEREE)
    assert "7th Parachute Battalion" in plain(game.state.result)
    assert refused(game, "victory garrison", rule="ENG-2").startswith("the game is over")


def test_bassa_intensita_victory_names_the_winner_by_a_word_of_its_name(tmp_path):
    game = new_game(tmp_path, "bassa-intensita")
    game.execute("next", role=REFEREE)
    game.execute("victory village the patrol is gone", role=REFEREE)
    assert "Village militia" in plain(game.state.result)


def test_a_winner_of_several_words_is_named_whole_not_taken_as_the_reason(tmp_path):
    """``result kampfgruppe heinz the bridge is held``: the side's whole name, then why;
    the second word of a name was the start of the reason."""
    game = new_game(tmp_path, "linea-di-tiro")
    game.execute("result kampfgruppe heinz the bridge is held", role=REFEREE)
    assert plain(game.state.result).startswith("Kampfgruppe Heinz win: the bridge is held (")
    game = new_game(tmp_path / "ln", "ludonet")
    game.execute("next", role=REFEREE)
    game.execute("victory farm garrison the farm is still held", role=REFEREE)
    assert plain(game.state.result).startswith("Farm garrison win: the farm is still held;")


def test_a_draw_is_still_said_in_the_winners_place(tmp_path):
    game = new_game(tmp_path, "linea-di-tiro")
    game.execute("result draw night falls", role=REFEREE)
    assert plain(game.state.result).startswith("a draw: night falls (")


@pytest.mark.parametrize(
    ("ruleset", "command", "started"),
    [
        ("bassa-intensita", "victory", True),  # the demo opens on turn 1
        ("ludonet", "victory", False),  # deployment first: turn 0
    ],
)
def test_tab_offers_the_winner_only_while_the_game_runs(tmp_path, ruleset, command, started):
    """The winner's place offers the sides by any word of their name while the game runs,
    none before it begins or once its result is recorded, as the command refuses them."""
    game = new_game(tmp_path, ruleset)
    sides = list(game.state.sides)

    def offered(text: str) -> list[str]:
        return [c for c in game.complete(text, "referee") if c in sides]

    if not started:
        assert offered(f"{command} ") == []
        assert refused(game, f"{command} {sides[0]}", rule="LN-AMB-01") == "the game has not started"
        game.execute("next", role=REFEREE)
    assert offered(f"{command} ") == sides
    name_word = game.state.side_name(sides[1]).split()[0].lower()
    assert offered(f"{command} {name_word[:3]}") == [sides[1]]
    game.execute(f"{command} {sides[1]} they hold", role=REFEREE)
    assert offered(f"{command} ") == []
    assert refused(game, f"{command} {sides[0]}", rule="ENG-2").startswith("the game is over")


def test_tab_offers_linea_di_tiro_result_the_sides_by_a_word_of_their_name(tmp_path):
    """``result`` took a text: Tab offered nothing for its winner."""
    game = new_game(tmp_path, "linea-di-tiro")
    assert game.complete("result ", "referee")[:2] == ["us", "german"]
    assert game.complete("result kampf", "referee") == ["german"]
    assert game.complete("result ", "referee") == ["us", "german", "draw"]
    assert game.complete("result dr", "referee") == ["draw"]


def test_a_side_is_found_by_its_name_in_the_reader_s_language(tmp_path):
    """Issue #77: under ``--lang it`` a seat is shown "7° Battaglione paracadutisti", and
    ``fine-partita paracadutisti`` was refused with an English hint; the reader's name finds the side,
    whole (of several words) or by any word, and a refusal names the sides in the reader's words."""
    game = new_game(tmp_path, "ludonet")
    game.execute("next", role=REFEREE)
    with reading("it"):
        assert game.parse("fine-partita paracadutisti", REFEREE).args["winner"] == "paras"
        assert game.parse("vittoria guarnigione", REFEREE).args["winner"] == "garrison"
        parsed = game.parse("vittoria 7° battaglione paracadutisti la fattoria è presa", REFEREE)
        assert parsed.args["winner"] == "paras" and parsed.args["reason"] == "la fattoria è presa"
        assert "Guarnigione della fattoria (garrison)" in refused(game, "vittoria xyz", rule=TYPING)
    assert game.parse("victory parachute", REFEREE).args["winner"] == "paras"  # the English name still
