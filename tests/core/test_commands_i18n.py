"""The command language in Italian and English: names matched in the reader's language
first, then in English; the same events from a line typed in either; the record in
English, shown back in the reader's names; a decimal comma in Italian only."""

from __future__ import annotations

import shutil
from decimal import Decimal

import playing
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from examples import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playing import parse_refusal as refusal
from recorded import effective_facts, recorded_games

import core.commands.naming
import core.language.i18n
from core.cli.commands_doc import COMMANDS_MD, updated
from core.cli.main import run_script, script_lines
from core.commands import distance, example_words, localize_line, match_prefix, names, spec_domain, title
from core.game import Game
from core.game.builtins import builtin_commands
from core.language.catalogues import DOMAINS, RULESET_DOMAINS, read
from core.language.i18n import CORE_DOMAIN, LOCALE_DIR, plain
from core.language.reader import reading
from core.log import events as ev
from core.log.views import REFEREE
from core.refusal import TYPING
from core.registry import BUILTIN, get_ruleset
from core.ruleset import Refused

#: What the test catalogues call every name of a ruleset: nothing English begins so.
MARK = "zz"


@pytest.fixture
def test_names(tmp_path, monkeypatch):
    """Catalogues where every command, option and choice of each ruleset has an Italian
    name of its own (``zz`` + its English name), whatever its translators have done
    so far; the core's shared commands keep their real Italian names."""
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, locale)
    for domain, ruleset_id in RULESET_DOMAINS.items():
        cat = Catalog(locale="it", domain=domain)
        for variant in get_ruleset(ruleset_id).variants:
            r = get_ruleset(ruleset_id, variant)
            for spec in r.commands():
                if spec.handler.__module__ == "core.rulesets.common":
                    continue
                for name in (spec.name, *spec.aliases):
                    cat.add(name, MARK + name, context="command")
                for p in spec.params:
                    cat.add(p.name, MARK + p.name, context="option")
                    for c in p.choices if p.kind == "choice" else ():
                        cat.add(c, MARK + c.lower(), context="choice")
        with (locale / "it" / "LC_MESSAGES" / f"{domain}.po").open("wb") as f:
            write_po(f, cat)
    monkeypatch.setattr(core.language.i18n, "LOCALE_DIR", locale)
    core.language.i18n.forget_catalogues()
    yield
    core.language.i18n.forget_catalogues()


@pytest.fixture
def bn(tmp_path):
    game = Game.new(tmp_path / "bn.ft", "breaking-news", seed=7)
    game.execute("scenario demo", role=REFEREE)
    yield game
    game.close()


# ------------------------------------------------------------------ the same events


@pytest.mark.long
@pytest.mark.parametrize("recorded", recorded_games(), ids=lambda g: g.name)
def test_a_recorded_game_typed_in_italian_writes_the_events_of_its_english_script(tmp_path, test_names, recorded):
    """Every line of a recorded game given its Italian names (as an Italian reader sees
    the log) and played by an Italian reader writes exactly the events the English
    script writes, its records in English included."""
    english = recorded.script.read_text(encoding="utf-8")
    with reading("it"):
        game = Game.new(tmp_path / "names.ft", recorded.ruleset, seed=recorded.seed)
        specs = game.commands
        domain = game.ruleset.domain
        game.close()
        italian = "\n".join(localize_line(line, specs, domain) for line in script_lines(english)) + "\n"
    changed = [
        (a, b) for a, b in zip(script_lines(english), script_lines(italian), strict=True) if a != b and a.strip()
    ]
    assert len(changed) >= 10, "the Italian script must differ from the English one"
    (tmp_path / "it.script").write_text(italian, encoding="utf-8")
    (tmp_path / "en.script").write_text(english, encoding="utf-8")
    with reading("it"):
        assert run_script(tmp_path / "it.script", tmp_path / "it.ft", recorded.seed, recorded.ruleset, "") == 0
    assert run_script(tmp_path / "en.script", tmp_path / "en.ft", recorded.seed, recorded.ruleset, "") == 0
    assert effective_facts(tmp_path / "it.ft", languages=False) == effective_facts(tmp_path / "en.ft", languages=False)


@pytest.mark.parametrize("ruleset", list(BUILTIN))
def test_the_shared_commands_in_italian_write_the_events_of_their_english(tmp_path, ruleset):
    """With the shipped catalogues: ``tira``, ``segna``, ``fuori``, ``nota`` (the core's own
    Italian names) in every ruleset (``ps`` in those that score defeat points: Breaking News)."""
    lines = {
        "it": ["tira 3d6 soglia=4 scopo=fumo dadi=4,1,6", "fuori {other} colpito", "nota la nebbia sale", "tira 2D6"],
        "en": ["roll 3d6 target=4 purpose=fumo dice=4,1,6", "out {other} colpito", "note la nebbia sale", "roll 2D6"],
    }
    events = {}
    for language, typed in lines.items():
        with reading(language):
            game = Game.new(tmp_path / f"{language}.ft", ruleset, seed=11)
            game.execute("scenario demo", role=REFEREE)
            unit, other = list(game.state.units)[:2]
            for text in (*typed, f"{'segna' if language == 'it' else 'mark'} {unit} pinned"):
                game.execute(text.format(other=other), role=REFEREE)
            game.close()
        events[language] = effective_facts(tmp_path / f"{language}.ft", languages=False)
    assert events["it"] == events["en"]
    # ... each command recording the language it was given in, so that every reader reads it again so
    assert {e.get("lang") for e in effective_facts(tmp_path / "it.ft") if e["t"] == "cmd"} == {"it"}
    assert {e.get("lang") for e in effective_facts(tmp_path / "en.ft") if e["t"] == "cmd"} == {None}
    issued = [e["text"] for e in events["it"] if e["t"] == "cmd"]
    assert issued[1:4] == ["roll 3d6 target=4 purpose=fumo dice=4,1,6", f"out {other} colpito", "note la nebbia sale"]


def test_an_italian_reader_sees_the_english_record_in_italian(bn):
    with reading("it"):
        out = bn.execute("tira 3d6 soglia=4 scopo=fumo dadi=4,1,6", role=REFEREE)
        assert bn.history.issued(out.cmd).text == "roll 3d6 target=4 purpose=fumo dice=4,1,6"
        assert out.lines[0] == "» arbitro: tira 3d6 soglia=4 scopo=fumo dadi=4,1,6"
        assert plain(out.events[-1].roll.outcome) == "2 successes"
        assert bn.describe(out.events[0], role="referee") == out.lines[0]
        assert bn.log_lines(role="referee")[-2].text == out.lines[0]
    # the English reader reads the same record in English
    assert bn.log_lines(role="referee")[-2].text == "» referee: roll 3d6 target=4 purpose=fumo dice=4,1,6"


def test_a_line_shown_in_italian_keeps_units_text_and_prefixes(bn):
    specs, domain = bn.commands, bn.ruleset.domain
    with reading("it"):
        assert localize_line("mark ahmed pinned", specs, domain) == "segna ahmed inchiodato"
        assert localize_line('note "mark ahmed pinned" roll', specs, domain) == 'nota "mark ahmed pinned" roll'
        assert localize_line("ma ahmed pin", specs, domain) == "ma ahmed pin"
        assert localize_line("roll 2d6 target=5 purpose=roll", specs, domain) == "tira 2d6 soglia=5 scopo=roll"
        assert localize_line('note "unclosed', specs, domain) == 'note "unclosed'
        assert localize_line("", specs, domain) == ""
    assert localize_line("mark ahmed pinned", specs, domain) == "mark ahmed pinned"


def test_help_gives_an_examples_own_words_in_the_readers_language_and_a_log_line_as_typed(bn):
    """Help's examples said "fuori ahmed fled the table" to an Italian reader (#61): the words of
    a ``prose`` text are the catalogue's (msgctxt ``example``), in their quotes, a text by name
    up to the next option by name; a recorded line (no ``prose`` given) keeps them as typed."""
    specs, domain = bn.commands, bn.ruleset.domain
    with reading("it"):
        said = [
            localize_line(line, specs, domain, example_words)
            for line in (
                "out ahmed fled the table",
                'note "smoke drifts north"',
                "react-fire egal rossi range=25 area=market bunker crew=jama",
                "roll 3d6 target=4 purpose=smoke dice=4,1,6",
                "out ahmed nothing the catalogue has",
            )
        ]
        assert localize_line("out ahmed fled the table", specs, domain) == "fuori ahmed fled the table"
    assert said == [
        "fuori ahmed fuggito dal tavolo",
        'nota "il fumo va verso nord"',
        "reagisci-spara egal rossi distanza=25 area=bunker del mercato serventi=jama",
        "tira 3d6 soglia=4 scopo=fumo dadi=4,1,6",
        "fuori ahmed nothing the catalogue has",
    ]
    assert localize_line("out ahmed fled the table", specs, domain, example_words) == "out ahmed fled the table"


# ------------------------------------------------------------------ matching


def test_a_prefix_is_matched_in_the_readers_language_first_then_in_english(bn, test_names):
    with reading("it"):
        assert bn.parse("segn ahmed pinned", REFEREE).args == {"unit": "ahmed", "status": "pinned"}
        assert bn.parse("mark ahmed pinned", REFEREE).args == {"unit": "ahmed", "status": "pinned"}
        assert bn.parse("ma ahmed inch", REFEREE).args == {"unit": "ahmed", "status": "pinned"}
        # "ri" is rientra or ripeti in Italian: refused, naming them, though English
        # has no other reading to offer
        assert refusal(bn, "ri", rule=TYPING) == "'ri' può essere rientra o ripeti"
        # "re" begins no Italian name: English decides (and it is ambiguous there)
        assert refusal(bn, "re ahmed", rule=TYPING).startswith("'re' può essere ")


def test_accents_are_optional_in_italian_names():
    with reading("it"):
        assert match_prefix("unita", ["unit", "under"], "option", lambda w: {"unit": "unità"}.get(w, w)) == "unit"
        assert match_prefix("unit", ["unit", "under"], "option", lambda w: {"unit": "unità"}.get(w, w)) == "unit"


def test_a_ruleset_command_by_its_italian_name_is_recorded_by_its_english_one(bn, test_names):
    shooter = next(u for u in bn.state.units.values() if u.side == "regulars")
    target = next(u for u in bn.state.units.values() if u.side == "irregulars")
    with reading("it"):
        italian = bn.parse(f"zzfire {shooter.id} {target.id} zzrange=25,5 zzaimed", REFEREE)
        english = bn.parse(f"fire {shooter.id} {target.id} range=25.5 aimed", REFEREE)
    assert (italian.spec, italian.args) == (english.spec, english.args)
    assert italian.args["range"] == Decimal("25.5")
    assert italian.text == english.text == f"fire {shooter.id} {target.id} range=25.5 aimed"
    with reading("it"):
        assert localize_line(english.text, bn.commands, bn.ruleset.domain) == (
            f"zzfire {shooter.id} {target.id} zzrange=25,5 zzaimed"
        )


def test_a_caller_that_names_no_domain_still_finds_a_rulesets_names(bn, test_names):
    """The client's command line asks ``find_verb`` and ``usage`` with the specs alone."""
    from core.commands import find_verb, usage

    with reading("it"):
        fire = find_verb("zzfi", bn.commands)
        assert fire.name == "fire" and usage(fire).startswith("zzfire ")
        assert find_verb("tira", bn.commands).name == "roll"


def test_an_ambiguous_italian_prefix_is_refused(bn, test_names):
    with reading("it"):
        message = refusal(bn, "zzre", rule=TYPING)
    assert message.startswith("'zzre' può essere zzreact-dodge, zzreact-fire")


def test_an_unknown_word_in_italian_lists_the_italian_names(bn):
    with reading("it"):
        assert refusal(bn, "tira 2d6 colore=rosso", rule=TYPING) == (
            "opzione di tira 'colore': non esiste (scegli fra formula, soglia, sotto, scopo)"
        )
        assert refusal(bn, "segna ahmed", rule=TYPING) == "segna: manca «stato»; uso: segna unità stato"
        assert refusal(bn, "", rule=TYPING) == "comando vuoto"
        assert refusal(bn, "tira 2d6 dadi=a,b", rule=TYPING) == "le facce dei dadi devono essere numeri, non 'a,b'"
    assert refusal(bn, "roll 2d6 dice=a,b", rule=TYPING) == "dice faces must be numbers, not 'a,b'"


def test_english_is_unchanged(bn, test_names):
    """An English reader's names are the English ones alone: an Italian name is no command."""
    assert refusal(bn, "segna ahmed pinned", rule=TYPING).startswith("no command 'segna'")
    assert bn.parse("ma ahmed pin", REFEREE).text == "ma ahmed pin"
    assert bn.complete("ma", role="referee") == ["mark"]


# ------------------------------------------------------------------ completion and help


def test_completion_offers_the_readers_language(bn, test_names):
    with reading("it"):
        assert bn.complete("seg", role="referee") == ["segna"]
        assert bn.complete("segna ahmed inc", role="referee") == ["inchiodato"]
        assert bn.complete("tira 2d6 so", role="referee") == ["soglia=", "sotto="]
        assert bn.complete("tira 2d6 da", role="referee") == ["dadi="]
        assert bn.complete("mark ahmed sop", role="referee") == ["soppresso"]
        # No Italian name begins so: English; the roll-off is made for the set-up phase the game is in.
        assert bn.complete("rol", role="referee") == ["rolloff", "roll"]
        assert bn.usage(next(s for s in bn.commands if s.name == "roll")) == (
            "tira formula [soglia=…] [sotto=…] [scopo=…]"
        )
    assert bn.complete("tira", role="referee") == []


def test_help_has_both_names(bn):
    roll = next(s for s in bn.commands if s.name == "roll")
    with reading("it"):
        assert names(roll, bn.ruleset.domain) == bn.names(roll) == ("tira", "roll")
        assert title(roll, bn.ruleset.domain) == "tira (roll)"
    assert names(roll, bn.ruleset.domain) == ("roll", "roll")
    assert title(roll, bn.ruleset.domain) == "roll"


def test_docs_list_every_command_in_both_languages():
    """docs/commands.md's section is the generator's: ``python -m core.cli.commands_doc``."""
    text = COMMANDS_MD.read_text(encoding="utf-8")
    assert updated(text) == text, "docs/commands.md is stale: run python -m core.cli.commands_doc"
    assert "| `tira` · `roll` |" in text


def test_every_italian_name_can_be_typed_and_names_one_thing():
    """A name with a space could not be typed as one word; two options of one command
    (or two commands, or two choices of one option) under one name could not be told
    apart, nor an option called as ``dice=`` is.  Checks the catalogues as they are."""

    def said(context: str, word: str, domain: str) -> str:
        return core.language.i18n.translations("it", domain).pgettext(context, word).strip().lower()

    bad = []
    for ruleset_id in BUILTIN:
        for variant in get_ruleset(ruleset_id).variants:
            r = get_ruleset(ruleset_id, variant)
            specs = [*r.commands(), *builtin_commands(r)]
            verbs = [(n, spec_domain(s, r.domain)) for s in specs for n in (s.name, *s.aliases)]
            groups = [("command", verbs)]
            for s in specs:
                d = spec_domain(s, r.domain)
                groups.append(("option", [("dice", CORE_DOMAIN), *((p.name, d) for p in s.params)]))
                groups += [("choice", [(c, d) for c in p.choices]) for p in s.params if p.kind == "choice"]
            for context, words in groups:
                seen: dict[str, str] = {}
                for w, d in words:
                    name = said(context, w, d)
                    if name != w.lower() and not core.commands.naming._TYPABLE.fullmatch(name):
                        bad.append(f"{r.domain}: {context} {w!r} is {name!r}, which cannot be typed as one word")
                    elif seen.get(name, w) != w:
                        bad.append(f"{r.domain}: {context} {w!r} and {seen[name]!r} are both {name!r}")
                    seen.setdefault(name, w)
    assert sorted(set(bad)) == []


def test_the_fireteam_catalogue_holds_the_shared_commands():
    have = {(m.context, m.id): m.string for m in read("it", "fireteam") if m.id}
    assert have[("command", "roll")] == "tira" and have[("command", "note")] == "nota"
    assert have[("command", "next")] == "avanti" and have[("option", "dice")] == "dadi"
    assert "fireteam" in DOMAINS


# ------------------------------------------------------------------ numbers


def test_a_decimal_comma_is_a_distance_in_italian_only():
    with reading("it"):
        assert distance("25,5", "gittata", 0, 100) == Decimal("25.5")
        assert distance("25,5cm", "gittata", 0, 100) == Decimal("25.5")
        assert distance("25.5", "gittata", 0, 100) == Decimal("25.5")
        for bad in ("25,5,5", "25,555", "2,5.5", ",5"):
            with pytest.raises(Refused) as refused:
                distance(bad, "gittata", 0, 100)
            playing.names(refused.value, TYPING)
            assert "(25 o 25,5)" in str(refused.value)
    with pytest.raises(Refused) as refused:
        distance("25,5", "range", 0, 100)
    playing.names(refused.value, TYPING)
    assert str(refused.value) == (
        "range must be a distance from 0 to 100 cm: a number with at most two decimals after a point "
        "(25 or 25.5), or 10in or 10\"; not '25,5'"
    )


def test_limits_use_the_readers_thousands_separator(bn):
    with reading("it"):
        assert (
            refusal(bn, "nota " + "x" * 2_100, rule=TYPING)
            == "un comando ha al più 2.000 caratteri; questo ne ha 2.105"
        )
    assert (
        refusal(bn, "note " + "x" * 2_100, rule=TYPING) == "a command is at most 2,000 characters; this one has 2,105"
    )


# ------------------------------------------------------------------ hostile input


@pytest.mark.long
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from(list("tirasegnzz fuocmk=,.'\"25dh6àè\u202e\t")), max_size=40))
def test_any_italian_line_is_parsed_or_refused_and_its_record_reads_the_same_in_english(bn, text):
    """Whatever an Italian reader types is refused or parsed; what is recorded parses,
    in English, to the same command; and it is shown back without an error."""
    with reading("it"):
        try:
            parsed = bn.parse(text, REFEREE)
        except Refused:
            return
        shown = localize_line(parsed.text, bn.commands, bn.ruleset.domain)
        again = bn.parse(shown, REFEREE)
    english = bn.parse(parsed.text, REFEREE)
    assert (english.spec, english.args, english.faces) == (parsed.spec, parsed.args, parsed.faces)
    assert (again.spec, again.args) == (parsed.spec, parsed.args)


def test_events_hold_no_words_from_the_shared_tools(bn):
    """A free roll's purpose and outcome and a referee's defeat points are messages."""
    out = bn.execute("roll 2d6 target=4 dice=5,1", role=REFEREE)
    assert out.events[-1].roll.purpose == core.language.i18n.M("free roll")
    assert out.events[-1].roll.outcome == core.language.i18n.M("{hits} success", hits=1)
    out = bn.execute("dp regulars 2", role=REFEREE)
    assert isinstance(out.events[-1], ev.DefeatPoints) and out.events[-1].reason == core.language.i18n.M(
        "referee's ruling"
    )
    with reading("it"):
        assert "tiro libero" in bn.describe(bn.log_lines(role="referee")[-3].event, role="referee")
        assert bn.describe(out.events[-1], role="referee").endswith("decisione dell'arbitro")
    out = bn.execute(f"out {next(iter(bn.state.units))}", role=REFEREE)
    with reading("it"):
        assert bn.describe(out.events[-1], role="referee").endswith("tolto dall'arbitro")
