"""The plain seat's help read as an Italian player reads it (#61): every word of it one the
Italian command line takes, no description that only says its word again, no "one of" a
single word, and each argument named as the command's usage names it; in every ruleset."""

from __future__ import annotations

import re

import pytest
from lines_support import Seat

from core.commands.naming import local_name, names, spec_domain
from core.game import Game
from core.language.catalogues import DOMAINS, read
from core.language.reader import reading
from core.log.views import REFEREE
from tui.i18n import _
from tui.screens.help import LANGUAGE, command_text

RULESETS = ("breaking-news", "linea-di-tiro", "ludonet", "bassa-intensita")
#: "esci: esci; ...": a word of the seat's, a command or an argument, then what it does, up to
#: the first stop.
WORD_THEN_WHAT = re.compile(r"^([\w-]+)(?: [^:]*)?: ([^;.,(]+)")


@pytest.fixture(scope="module", params=RULESETS)
def demo(request, tmp_path_factory):
    game = Game.new(tmp_path_factory.mktemp(request.param) / "g.ft", request.param, seed=7)
    game.execute("scenario demo", role=REFEREE)
    yield game
    game.close()


def helps(game: Game, lang: str) -> tuple[list[str], dict[str, list[str]]]:
    """The seat's help, and each command's help by its English name, in ``lang``."""
    seat = Seat(game, lang=lang)
    word = "aiuto" if lang == "it" else "help"
    each = {}
    for spec in game.commands:
        with reading(lang):
            mine, _english = names(spec, game.ruleset.domain)
        each[spec.name] = seat.say(f"{word} {mine}")
    return seat.say(word), each


def test_the_italian_help_gives_real_dice_by_the_word_the_italian_line_takes(demo):
    told, _each = helps(demo, "it")
    said = [line for line in told if "6,4,3" in line]
    assert said == ["Un comando può dare le facce di dadi veri: dadi=6,4,3."]
    with reading("it"):
        assert demo.parse("tira 3d6 dadi=6,4,3", REFEREE).faces == [6, 4, 3]


def test_the_client_screens_help_gives_real_dice_in_italian_too():
    with reading("it"):
        said = _(LANGUAGE)
    assert "dadi=6,4,3" in said and "dice=" not in said


@pytest.mark.parametrize("lang", ["en", "it"])
def test_no_help_line_says_only_its_own_word_again(demo, lang):
    told, each = helps(demo, lang)
    same = [line for line in [*told, *(x for lines in each.values() for x in lines)] if _says_itself(line)]
    assert same == []


def _says_itself(line: str) -> bool:
    found = WORD_THEN_WHAT.match(line)
    return found is not None and found.group(1).casefold() == found.group(2).strip().casefold()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_an_argument_of_one_word_is_not_one_of_a_list(demo, lang):
    """``long: ...; one of long``: a flag's single word was offered as a choice among one."""
    _told, each = helps(demo, lang)
    single = re.compile(r"(?:one of|uno fra) [\w-]+\.$")
    assert [line for lines in each.values() for line in lines if single.search(line)] == []


@pytest.mark.parametrize("lang", ["en", "it"])
def test_each_argument_is_named_as_its_usage_names_it(demo, lang):
    """``Uso: tira formula [soglia=…]`` then ``bersaglio: conta i dadi ...``: the argument's line
    took the ruleset's word for another argument of the same English name, not the word the
    command line takes for this one (the command's own catalogue's, as its usage writes it)."""
    _told, each = helps(demo, lang)
    wrong = []
    for name, lines in each.items():
        spec = next(s for s in demo.commands if s.name == name)
        with reading(lang):
            own = spec_domain(spec, demo.ruleset.domain)
            typed = {local_name(kind, word, own) for p in spec.params for kind, word in option_and_choices(p)}
        named = {line.partition(":")[0] for line in lines[2:]} - {"For example", "Per esempio"}
        wrong += [(name, word) for word in named if " " not in word and word not in typed]
    assert wrong == []


def option_and_choices(param) -> list[tuple[str, str]]:
    return [("option", param.name), *(("choice", c) for c in param.choices)]


#: "una immobilizzazione": the Italian article elides before a vowel (un'immobilizzazione).
UNA_BEFORE_A_VOWEL = re.compile(r"(?<![\w'])una [aeiouàèéìòù]", re.IGNORECASE)


@pytest.mark.parametrize("domain", DOMAINS)
def test_no_italian_una_before_a_vowel(domain):
    said = [s for m in read("it", domain) if m.id for s in (m.string if isinstance(m.string, tuple) else (m.string,))]
    assert [s for s in said if UNA_BEFORE_A_VOWEL.search(s)] == []


@pytest.mark.parametrize(("lang", "ruling"), [("en", "ruling"), ("it", "decisione")])
def test_a_command_under_a_ruling_cites_it_in_the_readers_word(tmp_path, lang, ruling):
    """Ludonet's victory is under ruling LN-END, its barrage under LN-R020 and ruling LN-BARRAGE:
    help said "regola ruling LN-END", the book's rule and an English word for the program's own
    decision (docs/rulings.md) (#61)."""
    game = Game.new(tmp_path / "g.ft", "ludonet", seed=7)
    game.execute("scenario demo", role=REFEREE)
    _told, each = helps(game, lang)
    game.close()
    rule = "rule" if lang == "en" else "regola"
    assert f"{rule} LN-R020, {ruling} LN-BARRAGE;" in each["barrage"][0]
    assert f"; {ruling} LN-END;" in each["victory"][0]
    said = [line for lines in each.values() for line in lines]
    assert [line for line in said if f"{rule} {ruling}" in line or (lang == "it" and "ruling" in line)] == []


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_scenario_the_italian_help_names_sets_up_as_named(tmp_path, ruleset):
    """``nome: ...; uno fra demo, open-regulars, aperto``: a scenario's name is typed as its file
    is named, and ``scenario aperto`` found no scenario (the word for open ground in its place)."""
    game = Game.new(tmp_path / "help.ft", ruleset, seed=7)
    listed = next(line for line in helps(game, "it")[1]["scenario"] if line.startswith("nome:"))
    game.close()
    names = listed.removesuffix(".").partition("uno fra ")[2].split(", ")
    assert sorted(names) == sorted(game.ruleset.scenarios)


def test_the_client_screens_help_names_scenarios_as_typed_too(tmp_path):
    game = Game.new(tmp_path / "help.ft", "breaking-news", seed=7)
    (spec,) = (s for s in game.commands if s.name == "scenario")
    with reading("it"):
        said = command_text(spec, game.ruleset.domain).plain
    game.close()
    assert "[demo|open-regulars|open|road-patrol|urban-armour]" in said


#: An article the Italian writes before a field whose word may be of either gender or start
#: with a vowel: "almeno un {name}" gave "almeno un imboscata", "a un {vehicle}" "a un autoblindo".
ARTICLE_BEFORE_A_NAME = re.compile(r"(?<![\w'])(?:un|una|uno|un') ?\{(?:name|vehicle)\}")


@pytest.mark.parametrize("domain", DOMAINS)
def test_no_italian_article_is_built_before_a_word_of_either_gender(domain):
    said = [s for m in read("it", domain) if m.id for s in (m.string if isinstance(m.string, tuple) else (m.string,))]
    assert [s for s in said if ARTICLE_BEFORE_A_NAME.search(s)] == []
