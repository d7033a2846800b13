# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""A mistyped verb, option or choice is answered with the nearest names (difflib), in
the reader's language; and every ruleset ends its game with one common verb."""

from __future__ import annotations

import pytest
from coretests_support import demo  # noqa: F401  (fixtures)
from playing import parse_refusal as refusal
from playing import refused

from core.language.reader import reading
from core.log.views import REFEREE
from core.refusal import TYPING


def test_a_mistyped_word_is_answered_with_the_nearest(demo):
    assert refusal(demo, "nxet", rule=TYPING) == "no command 'nxet'; did you mean next?"
    assert refusal(demo, "mark ahmed supressed", rule=TYPING) == "no status 'supressed'; did you mean suppressed?"
    assert refusal(demo, "fire conti bashir rnage=40", rule=TYPING) == "no option for fire 'rnage'; did you mean range?"
    assert refusal(demo, "fire conti bashir range=40 brust", "regulars", rule=TYPING).endswith("; did you mean burst?")
    assert refusal(demo, "frobnicate", rule=TYPING) == "no command 'frobnicate'"  # nothing near: no guess


def test_a_verb_of_another_game_is_answered_with_this_games_verb(demo):
    """``shoot`` is no command, and ``move``'s help speaks of "move and shoot": the refusal names
    ``fire``, in the reader's words (#61)."""
    assert refusal(demo, "shoot conti bashir", "regulars", rule=TYPING) == "no command 'shoot'; did you mean fire?"
    with reading("it"):
        assert refusal(demo, "shoot", rule=TYPING) == "comando 'shoot': non esiste; forse intendevi spara?"


@pytest.mark.parametrize(
    ("ruleset", "english", "italian"),
    [
        ("bassa-intensita", "fire", "spara"),
        ("ludonet", "fire", "spara"),
        ("linea-di-tiro", "at or mg", "controcarro o mg"),
    ],
)
def test_shoot_names_the_ruleset_s_own_fire(tmp_path, ruleset, english, italian):
    """Not ``shift`` or ``spot``, whose letters are near (#61)."""
    from core.game import Game

    game = Game.new(tmp_path / "g.ft", ruleset, seed=1)
    game.execute("scenario demo", role=REFEREE)
    assert refusal(game, "shoot", rule=TYPING) == f"no command 'shoot'; did you mean {english}?"
    with reading("it"):
        assert refusal(game, "shoot", rule=TYPING) == f"comando 'shoot': non esiste; forse intendevi {italian}?"
    game.close()


def test_the_nearest_in_the_readers_language(demo):
    with reading("it"):
        assert (
            refusal(demo, "tira 2d6 sogla=5", rule=TYPING)
            == "opzione di tira 'sogla': non esiste; forse intendevi soglia?"
        )
        assert refusal(demo, "nxet", rule=TYPING) == "comando 'nxet': non esiste; forse intendevi next?"


def test_every_ruleset_ends_its_game_with_end_game():
    from core.registry import BUILTIN, get_ruleset
    from core.ruleset import END_GAME

    own = {}
    for ruleset_id in BUILTIN:
        ruleset = get_ruleset(ruleset_id)
        (spec,) = [s for s in ruleset.commands() if END_GAME in s.aliases]
        own[ruleset_id] = spec.name
        assert ruleset.end_phases == spec.phases  # what the phase pane says is what the command allows
    assert own == {
        "breaking-news": "victory",
        "bassa-intensita": "victory",
        "linea-di-tiro": "result",
        "ludonet": "victory",
    }


def test_end_game_ends_a_breaking_news_game(demo):
    demo.execute("next", role=REFEREE)  # to the initiative: the game may end from here on (§14.0)
    assert demo.parse("end-game", REFEREE).spec.name == "victory"
    demo.execute("end-game the light fails", role=REFEREE)
    assert demo.state.result and demo.state.phase == "ended"


@pytest.mark.parametrize("ruleset", ["linea-di-tiro", "ludonet"])
def test_end_game_without_its_result_says_what_to_give_in_the_words_typed(tmp_path, ruleset):
    """``end-game`` alone: the refusal names the verb as typed (not the ruleset's own,
    ``victory``/``result``) and what the missing argument is (#26)."""
    from core.game import Game

    game = Game.new(tmp_path / "g.ft", ruleset, seed=1)
    game.execute("scenario demo", role=REFEREE)
    said = refusal(game, "end-game", rule=TYPING)
    assert said.startswith("end-game: missing ") and "usage: end-game " in said, said
    assert "draw" in said  # what a result is: a side or draw, and why
    game.close()


def test_a_command_refused_in_this_phase_is_named_as_typed(demo):
    """``end-game`` once the game is over: the refusal names ``end-game``, the verb the
    referee typed, not Breaking News's own ``victory`` (#26)."""
    demo.execute("next", role=REFEREE)
    demo.execute("end-game", role=REFEREE)
    assert demo.state.phase == "ended"
    assert refused(demo, "end-game militia", rule="ENG-2") == "end-game is not allowed in the ended phase"
    assert refused(demo, "victory militia", rule="ENG-2") == "victory is not allowed in the ended phase"


def test_a_bare_number_is_answered_with_the_option_it_meant(demo):
    """``fire rossi aden 30``: the 30 is no unit; the refusal says what it meant,
    ``range=30``, the distance the command still wants (#26)."""
    demo.execute("next", role=REFEREE)
    demo.execute("next dice=6,6,1,1", role=REFEREE)  # Bersaglieri active
    assert refusal(demo, "fire rossi aden 30", rule=TYPING) == "no unit '30' on that side; did you mean range=30?"
    said = refusal(demo, "spot rossi aden 20in", rule=TYPING)
    assert said.startswith("spot: unexpected '20in'; usage: ") and said.endswith("; did you mean range=20in?")
    assert (
        refusal(demo, "fire rossi aden range=30 40", rule=TYPING) == "no unit '40' on that side"
    )  # range is given: no guess
    with reading("it"):
        assert (
            refusal(demo, "fire rossi aden 30", rule=TYPING)
            == "nessuna unità '30' in quella parte; forse intendevi distanza=30?"
        )


def test_victory_in_linea_di_tiro_is_answered_with_its_name_there(tmp_path):
    """#48: a referee used to the other rulesets types victory; Linea di Tiro calls it result."""
    from core.game import Game

    game = Game.new(tmp_path / "g.ft", "linea-di-tiro", seed=3, clock=lambda: 0)
    game.execute("scenario demo", role=REFEREE)
    assert refusal(game, "victory us", rule=TYPING) == "no command 'victory'; did you mean result?"
    with reading("it"):
        assert refusal(game, "victory us", rule=TYPING).endswith("; forse intendevi risultato?")
