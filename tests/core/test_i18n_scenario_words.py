"""A built-in scenario's own words in the reader's language (#61): its title, sides'
names and victory are recorded as the file writes them, in English, and translated
where they are shown; a user's file is shown as its author wrote it."""

from __future__ import annotations

import io
from contextlib import closing

import msgspec
import msgspec.inspect
import pytest
from two_languages import DEMO, balad, set_up

from core.cli.main import run_script
from core.game import Game
from core.language.i18n import M, render, scenario_words
from core.language.reader import reading
from core.log import events as ev
from core.log.views import REFEREE
from core.report import build, render_md


def _log(game: Game, lang: str) -> list[str]:
    with reading(lang):
        return [line.text for line in game.log_lines(REFEREE)]


def test_a_game_set_up_in_italian_records_the_english_words_and_reads_in_each_language(tmp_path):
    save = tmp_path / "it.ft"
    with closing(set_up(save, "it", "demo")) as game:
        raw = save.read_bytes().decode("utf-8")
        assert "Checkpoint at Afgooye" in raw and "Somali militia" in raw
        assert "Posto di blocco" not in raw and "Milizia somala" not in raw
        assert "Scenario Checkpoint at Afgooye: Bersaglieri vs Somali militia" in _log(game, "en")
        assert "Scenario Posto di blocco ad Afgooye: Reparto Bersaglieri contro Milizia somala" in _log(game, "it")
        with reading("it"):
            report = render_md.render(build(game, REFEREE))
        assert report.startswith("# Rapporto dopo l'azione: Posto di blocco ad Afgooye\n")
        assert "Reparto Bersaglieri contro Milizia somala." in report


def test_a_users_scenario_file_is_shown_as_written(tmp_path):
    mine = tmp_path / "mine.toml"
    text = DEMO.read_text(encoding="utf-8")
    text = text.replace('title = "Checkpoint at Afgooye"', 'title = "Checkpoint at Balad"')
    mine.write_text(text.replace('name = "Somali militia"', 'name = "Balad militia"'), encoding="utf-8")
    with closing(set_up(tmp_path / "mine.ft", "it", str(mine))) as game:
        assert "Scenario Checkpoint at Balad: Reparto Bersaglieri contro Balad militia" in _log(game, "it")


def test_a_side_name_a_rule_recorded_in_a_message_reads_in_the_readers_language():
    # As the rulesets' results record it ("{side} win", side=the side's name).
    said = M("{side}: {losses}", side="Somali militia", losses="2")
    with reading("it"):
        assert render(said) == "Milizia somala: 2"
        assert scenario_words("Sgt Rossi") == "Sgt Rossi"  # a piece's name is its own
        assert scenario_words("") == ""
    with reading("en"):
        assert render(said) == "Somali militia: 2"


def test_a_hostile_saves_long_strings_are_looked_up_but_never_kept():
    from core.language.i18n import SCENARIO_CACHED, _scenario_words

    long = "x" * (SCENARIO_CACHED + 1)
    with reading("it"):
        before = _scenario_words.cache_info().currsize
        assert render(M("{side}: {losses}", side=long, losses=2)) == f"{long}: 2"
        assert _scenario_words.cache_info().currsize == before


def test_a_scenarios_rules_stay_in_the_referees_view_in_words_and_its_support_details_do_not(tmp_path):
    """The scenario's length, sight, victory, objectives and support are what a referee reads
    before play: in words, in his language, never taken for inner variables (#61); a
    support's side, kind and count, which its name already says, are."""
    script = tmp_path / "convoy.script"
    script.write_text("scenario convoy\n", encoding="utf-8")
    with reading("it"):
        assert run_script(script, tmp_path / "convoy.ft", 1, "bassa-intensita", "", out=io.StringIO()) == 0
    with closing(Game.open(tmp_path / "convoy.ft")) as game:
        with reading("it"):
            lines = game.log_lines(REFEREE)
        shown = [line.text for line in lines if not line.inner]
        inner = [line.text for line in lines if line.inner]
        assert "visibilità: 20 cm" in shown
        assert "obiettivo far-edge: Bordo opposto del tavolo: l'uscita della strada sul bordo nord" in shown
        assert "l'obiettivo far-edge vale 10 punti" in shown
        assert "l'obiettivo far-edge è di Convoglio italiano" in shown
        assert "supporto fuori tavolo: sezione mortai da 81 mm" in shown
        assert any(text.startswith("vittoria: Il convoglio vince") for text in shown)
        assert "support.mortars.count = 1" in inner and "support.mortars.side = convoy" in inner
        with reading("en"):
            english = [line.text for line in game.log_lines(REFEREE) if not line.inner]
        assert "objective far-edge: Far table edge: the road's exit on the north edge" in english


def test_a_hidden_objectives_worth_reads_in_the_readers_language():
    assert scenario_words("Radar set: the hut by the aerial (10 points)", "it") == (
        "Stazione radar: la baracca vicino all'antenna (10 punti)"
    )
    assert scenario_words("Radar set: the hut by the aerial (1 points)", "it").endswith("(1 punto)")
    assert scenario_words("My well: my farm (10 points)", "it") == "My well: my farm (10 punti)"


# ------------------------------------------------------------------ a file in two languages (#77)


def test_a_users_file_gives_its_words_in_italian_and_the_save_keeps_its_own(tmp_path):
    with closing(set_up(tmp_path / "two.ft", "it", str(balad(tmp_path)))) as game:
        assert "Scenario Posto di blocco a Balad: Reparto Bersaglieri contro Milizia di Balad" in _log(game, "it")
        assert "Scenario Checkpoint at Balad: Bersaglieri vs Balad militia" in _log(game, "en")
        # a hostile file's words are text: its markup is shown as typed, never drawn
        assert any("[bold]Mercante[/bold]" in line for line in _log(game, "it"))
        setup = next(e for e in game.history.timeline() if isinstance(e, ev.GameSetUp))
        assert setup.scenario == "Checkpoint at Balad"  # as the file writes it, in every language
        # a hidden piece's words would tell the other side of him: not among what all read
        assert "Dahir Omar" not in setup.words["it"] and setup.words["it"]["Balad militia"] == "Milizia di Balad"


def test_a_file_with_no_italian_falls_back_to_its_own_words(tmp_path):
    mine = tmp_path / "plain.toml"
    mine.write_text(DEMO.read_text(encoding="utf-8").replace('"Somali militia"', '"Balad militia"'), encoding="utf-8")
    with closing(set_up(tmp_path / "plain.ft", "it", str(mine))) as game:
        assert "Scenario Posto di blocco ad Afgooye: Reparto Bersaglieri contro Balad militia" in _log(game, "it")


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ('[translations.fr]\n"Balad militia" = "Milice"\n', "translations.fr"),
        ('[translations.it]\n"Nobody here" = "Nessuno"\n', "'Nobody here' is no text of this scenario"),
        ('[translations.it]\n"Sgt Rossi" = "' + "x" * 61 + '"\n', "one line of at most 60 characters"),
        ('[translations.it]\n"Sgt Rossi" = "Sgt\\u001b[31mRossi"\n', "control"),
    ],
)
def test_a_files_translations_are_checked_with_their_limits(tmp_path, extra, said):
    from core.registry import get_ruleset
    from core.rulesets.common import parse_scenario
    from core.scenarios.files import ScenarioError

    text = DEMO.read_text(encoding="utf-8") + extra
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(get_ruleset("breaking-news").scenario_format, text, "bad.toml")
    assert said in str(refused.value)


def test_a_file_translates_at_most_its_limit_of_texts():
    from core.scenarios.schema import MAX_TRANSLATED, BaseScenario

    assert MAX_TRANSLATED == 600
    field = msgspec.inspect.type_info(BaseScenario).fields
    translations = next(f for f in field if f.name == "translations").type
    assert translations.value_type.max_length == MAX_TRANSLATED


def test_a_hostile_saves_overlong_words_are_left_unused():
    from core.language.i18n import OWN_WORDS_MAX, Names, naming

    long = "y" * (OWN_WORDS_MAX + 1)
    with reading("it"), naming(Names(words={"it": {"Balad militia": long, "Balad": "Balad (it)"}})):
        assert scenario_words("Balad militia") == "Balad militia"
        assert scenario_words("Balad") == "Balad (it)"


def test_a_users_file_gives_its_own_italian_to_the_report_too(tmp_path):
    """The report names from its first event, before the set-up brought the file's words: it
    kept the English ones in an Italian report (#77)."""
    with closing(set_up(tmp_path / "two.ft", "it", str(balad(tmp_path)))) as game:
        with reading("it"):
            italian = render_md.render(build(game, REFEREE))
        with reading("en"):
            english = render_md.render(build(game, REFEREE))
    assert "Posto di blocco a Balad" in italian and "Milizia di Balad" in italian
    assert "Balad militia" not in italian and "Checkpoint at Balad" not in italian
    assert "Balad militia" in english and "Milizia di Balad" not in english
