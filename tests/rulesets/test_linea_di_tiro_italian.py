# ruff: noqa: F811  (pytest fixtures imported from linea_di_tiro_support)
"""Linea di Tiro in Italian and English: the log says the book's words in the reader's
language, with exact dice, while the events stay the same data in every language;
the tables' words reach the catalogue; the Italian command names are usable."""

from __future__ import annotations

from pathlib import Path

import pytest
from linea_di_tiro_support import FIRST, game, new_game, play, rolls  # noqa: F401  (fixtures)
from playing import names
from recorded import RecordedGame, effective_facts, worded

from core.game import Game
from core.language.i18n import Domain, Msg, plain
from core.language.reader import reading
from core.log import events as ev
from core.refusal import TYPING
from core.registry import get_ruleset
from core.ruleset import Refused
from core.rulesets.linea_di_tiro import tables, words


def test_an_anti_tank_shot_and_its_rout_are_narrated_in_italian(game):
    play(game, "next", "next", "@german activate panzer A1")  # Q♠: the panzer prepares an attack
    play(game, "next", "next", "next")  # Joker, 3♣, K♦: us
    activated = play(game, "@us activate sherman1 A4 prepare=0")
    play(game, "@us at sherman1 panzer dice=6,6")  # 12: no effect, which the panzer answers
    # 6 against front 5: column +1; 2 + 3 = 5 → R, the Sherman routs without a test
    facts = play(game, "@german at panzer sherman1 ready dice=2,3")
    with reading("it"):
        said = [game.describe(e, role="referee") for e in activated + facts]
    assert "nota: Sherman Easy: A4, preparare o eseguire 2 attacchi (LT-R020)" in said
    assert (
        "tiro controcarro contro Sherman Easy, attacco 6 - protezione 5 = +1 di Panzer IV: 2d6: 2 3 = 5 "
        "→ totale modificato 5, colonna +1: R: ritirata/rotta senza test [dadi al tavolo]"
    ) in said
    assert "Sherman Easy muove di 30 cm (fugge, spalle al nemico)" in said
    assert "nota: Sherman Easy fugge di 30 cm, spalle al nemico, in rotta senza test (LT-R080)" in said
    # The same events read in English, as they did before they were kept as data.
    assert (
        "Panzer IV's AT fire at Sherman Easy, attack 6 - protection 5 = +1: 2d6: 2 3 = 5 "
        "→ modified total 5, column +1: R: routs without a test [table dice]"
    ) in [game.describe(e, role="referee") for e in facts]


def test_a_morale_test_names_its_result_and_modifiers_in_italian(game):
    play(game, "next")  # 7♥: us
    # 6 + 1 = 7 against morale 4: above it, under twice it: the Sherman falls back 5 cm
    facts = play(game, "@us morale sherman1 plus=1 dice=6")
    (roll,) = rolls(facts)
    assert plain(roll.outcome) == "modified total 7: fall-back"
    with reading("it"):
        said = [game.describe(e, role="referee") for e in facts]
    assert (
        "test di morale, morale 4 di Sherman Easy: 1d6 serve 3 o meno (base 4 o meno, situazioni +1): 6 "
        "→ totale modificato 7: indietreggia [dadi al tavolo]"
    ) in said
    assert "Sherman Easy muove di 5 cm (indietreggia, fronte al nemico)" in said
    assert "nota: Sherman Easy indietreggia di 5 cm, fronte al nemico (LT-R080)" in said


def test_the_result_keeps_the_referees_words_and_translates_the_rest(game):
    play(game, "next", "out grenadiers")
    (end,) = [e for e in play(game, "result us the hamlet is ours") if isinstance(e, ev.GameEnded)]
    assert isinstance(end.result, Msg)
    with reading("it"):
        said = Domain("linea_di_tiro").render(end.result)
    assert said == (
        "vince 2ª Divisione corazzata USA: the hamlet is ours "
        "(2ª Divisione corazzata USA ha perso 0 su 4; Kampfgruppe Heinz ha perso 1 su 3; carte giocate: 1)"
    )
    assert plain(end.result) == (
        "US 2nd Armored win: the hamlet is ours "
        "(US 2nd Armored lost 0 of 4; Kampfgruppe Heinz lost 1 of 3; after 1 card)"
    )


def test_the_recorded_game_records_the_same_facts_whatever_the_readers_language(tmp_path):
    recorded = RecordedGame("linea-di-tiro-game", "linea-di-tiro", 9)
    made = {}
    for lang in ("it", "en"):
        (tmp_path / lang).mkdir()
        with reading(lang):
            made[lang] = effective_facts(recorded.regenerate(tmp_path / lang), languages=False)
    assert made["it"] == made["en"] == effective_facts(recorded.save, languages=False)


def test_no_event_of_the_recorded_game_holds_an_english_sentence():
    words = worded(RecordedGame("linea-di-tiro-game", "linea-di-tiro", 9).save)
    assert words and [w for w in words if w and not isinstance(w, Msg)] == []


def test_every_table_word_an_event_carries_is_in_the_catalogue():
    toml = {o.title for o in tables.options().values()}
    toml |= {r.label for r in tables.assault().ratings}
    toml |= {m.label for m in tables.at_table().modifiers}
    toml |= {d.label for d in tables.mg_table().defences}
    toml |= {r.label for r in tables.spotting().targets}
    assert toml == set(words.TABLE_WORDS)


@pytest.mark.parametrize("context", ["command", "option", "choice"])
def test_the_italian_names_are_single_words_each_meaning_one_thing(context):
    rs = get_ruleset("linea-di-tiro")
    mine = [s for s in rs.commands() if s.handler.__module__ != "core.rulesets.common"]
    it = Domain(rs.domain)
    with reading("it"):
        if context == "command":
            names = {s.name: it.pgettext("command", s.name) for s in mine}
            english = {s.name for s in rs.commands()}
            spaces = [names]
        elif context == "option":
            spaces = [{p.name: it.pgettext("option", p.name) for p in s.params} for s in mine]
        else:
            spaces = [{c: it.pgettext("choice", c) for c in p.choices} for s in mine for p in s.params]
    for space in spaces:
        assert len(set(space.values())) == len(space), space
        assert all(name and " " not in name and name == name.lower() or name == key for key, name in space.items())
        if context == "command":
            # An Italian name is never another command's English name.
            assert [k for k, v in space.items() if v in english and v != k] == []


@pytest.mark.parametrize("word", ["pareggio", "draw", "Pareggio"])
def test_a_draw_typed_in_either_language_records_the_same_result(tmp_path, word):
    g = new_game(tmp_path / "lt.ft", FIRST)
    play(g, "next")
    (end,) = [e for e in play(g, f"result {word} night falls") if isinstance(e, ev.GameEnded)]
    g.close()
    assert plain(end.result).startswith("a draw: night falls (US 2nd Armored lost 0 of 4;")
    with reading("it"):
        assert Domain("linea_di_tiro").render(end.result).startswith("pareggio: night falls (")


def _facts(path: Path) -> list[dict]:
    """Every fact of the game but the commands as typed (``Issued``), without their
    random salts (``effective_facts``)."""
    return [f for f in effective_facts(path) if f["t"] != "cmd"]


ENGLISH = (
    "next",
    "next",
    "@german activate panzer A1",
    "next",
    "next",
    "next",
    "@us activate sherman1 A4 prepare=0",
    "@us at sherman1 panzer dice=6,6",
    "@german at panzer sherman1 ready dice=2,3",
    "@us morale sherman1 plus=1 dice=6",
)
ITALIAN = (
    "next",
    "next",
    "@german attiva panzer A1",
    "next",
    "next",
    "next",
    "@us attiva sherman1 A4 prepara=0",
    "@us controcarro sherman1 panzer dice=6,6",
    "@german controcarro panzer sherman1 pronto dice=2,3",
    "@us morale sherman1 situazioni=1 dice=6",
)


def test_commands_typed_in_italian_record_what_the_english_ones_do(tmp_path):
    games = {}
    for lang, script in (("en", ENGLISH), ("it", ITALIAN)):
        with reading(lang):
            g = new_game(tmp_path / f"{lang}.ft", FIRST)
            play(g, *script)
            g.close()
            games[lang] = _facts(tmp_path / f"{lang}.ft")
    assert games["it"] == games["en"]
    shot = [f["roll"] for f in games["it"] if f["t"] == "roll"][1]  # the panzer's reply
    assert shot["outcome"] == [
        "modified total {total}, column {column}: {result}",
        {"total": 5, "column": "+1", "result": ["R: routs without a test", {}]},
    ]


def test_an_attack_survived_is_not_said_to_owe_a_reply():
    """#61: every attack a piece survives is noted for LT-R052, whether it holds a prepared
    attack or not: the log said "a prepared reply was due" after an attack on one that held none."""
    ruleset = get_ruleset("linea-di-tiro")
    said = ruleset.describe_var("secret.last-attack", "first:stug:3")
    assert said == "an attack survived: its target may answer it, if it holds a prepared attack (LT-R052)"
    with reading("it"):
        said = ruleset.describe_var("secret.last-attack", "first:stug:3")
    assert said == "un attacco subito: il bersaglio può rispondere, se ha un attacco preparato (LT-R052)"


def test_the_joker_is_the_books_jolly_in_italian_and_joker_in_the_save(game):
    """LT-R002/R010 (#61): the Italian book calls the special card *jolly*: the shuffled deck
    opened (``secrets``) and a table's own deck say so, and a table types it so; the save keeps
    the card's id.  The shuffle's own log line counts the cards, not lists them (#77)."""
    shuffled = next(line.event for line in game.log_lines("referee") if getattr(line.event, "key", "") == "secret.deck")
    assert str(shuffled.value).count("Joker") == 2
    with reading("it"):
        assert game.describe(shuffled, role="referee") == (
            "il mazzo è mischiato: 54 carte, il loro ordine segreto fino alla fine (LT-R002)"
        )
        said = game.ruleset.describe_secret(shuffled.key, shuffled.value)
    assert said is not None and said.count("Jolly") == 2 and "Joker" not in said
    asked = game.submit("next", role="referee", faces=[], answers=[])
    with reading("it"):
        assert "Jolly (joker)" in asked.question.options()
        assert asked.question.take("jolly") == "Joker"
    assert asked.question.take("joker") == "Joker"
    with reading("it"):
        drawn = game.submit("next", role="referee", faces=[], answers=["jolly"])
    table = next(e for e in drawn.events if isinstance(e, ev.VarSet) and e.key == "deck.table")
    assert str(table.value).endswith(":Joker")
    with reading("it"):
        assert game.describe(table, role="referee") == "il tavolo ha pescato Jolly dal proprio mazzo"


def test_an_mg_shot_without_a_defence_names_the_defences_in_italian(game):
    """#61: under --lang it the refusal read `difesa=moving-open|bound-open|…`, the English
    codes, while the help and the command line take the catalogue's (`fermo-scoperto`)."""
    play(game, "next", "@us activate gis A2")
    with reading("it"), pytest.raises(Refused) as refused:
        play(game, "@us mg gis grenadiers")
    names(refused.value, "LT-R060b")
    said = str(refused.value)
    assert said.startswith("di' cosa sta facendo Grenadiers: difesa=movimento-scoperto|balzo-scoperto|")
    assert "|fermo-scoperto|" in said and "open" not in said
    # One word for open ground, the book's (C.7.1 "allo scoperto"), as the assault's `open` says it.
    assert "aperto|" not in said.replace("mezzo-aperto|", "")
    with reading("it"):
        assert Domain("linea_di_tiro").pgettext("choice", "open") == "scoperto"
    # Typed back as the refusal names it, it is taken.
    with reading("it"):
        play(game, "@us mg gis grenadiers difesa=fermo-scoperto dice=6")


def test_a_refusal_asks_one_question_with_every_word_it_may_mean(game):
    """#61: `attiva s1 2` answered "...; forse intendevi a2?; forse intendevi prepara=2?": two
    questions, one of them asked again where the refusal already asked one."""
    play(game, "next")
    said = {}
    for lang in ("en", "it"):
        with reading(lang), pytest.raises(Refused) as refused:
            play(game, "@us activate sherman1 2")
        names(refused.value, TYPING)
        said[lang] = str(refused.value)
    assert said == {
        "en": "no option '2'; did you mean A2 or prepare=2?",
        "it": "azione '2': non esiste; forse intendevi a2 o prepara=2?",
    }


def test_a_piece_typed_as_its_name_run_together_is_suggested_by_its_id(tmp_path):
    """#61: `controcarro baker1 panther` answered "nessuna unità 'baker1'" with Sherman Baker 1
    (s1) on the table; a word that is a piece's name, spaces left out, or part of it, or a word
    of it misspelt, names the piece to type; a word in no name is refused as before."""
    game = Game.new(tmp_path / "lt.ft", "linea-di-tiro", seed=5)
    play(game, "scenario breakout", "next")
    said = {}
    lines = (
        ("en", "at baker1 panther"),
        ("it", "controcarro baker1 panther"),
        ("it", "at zzz panther"),
        ("en", "at s1 pnather"),  # a name misspelt (#61: "nessuna unità 'hnas'", no word of Hans)
        ("it", "controcarro s1 pnather"),
    )
    for lang, line in lines:
        with reading(lang), pytest.raises(Refused) as refused:
            play(game, f"@us {line}")
        names(refused.value, TYPING)
        said[lang, line] = str(refused.value)
    game.close()
    assert said == {
        ("en", "at baker1 panther"): "no unit 'baker1' on that side; did you mean s1 (Sherman Baker 1)?",
        (
            "it",
            "controcarro baker1 panther",
        ): "nessuna unità 'baker1' in quella parte; forse intendevi s1 (Sherman Baker 1)?",
        ("it", "at zzz panther"): "nessuna unità 'zzz' in quella parte",
        ("en", "at s1 pnather"): "no unit 'pnather' on that side; did you mean panther (Panther 312)?",
        (
            "it",
            "controcarro s1 pnather",
        ): "nessuna unità 'pnather' in quella parte; forse intendevi panther (Panther 312)?",
    }
