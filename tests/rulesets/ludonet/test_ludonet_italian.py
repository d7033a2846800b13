"""Ludonet in Italian and English: the log says the fragment's words in the reader's
language, with exact dice, while the events stay the same data in every language;
the tables' words reach the catalogue; the Italian command names are usable."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from ln_support import ludonet_game, play, rolls, to_phase
from playing import names, refused
from recorded import RecordedGame, effective_facts, worded

from core.game import Game
from core.language.i18n import Domain, Msg, plain
from core.language.reader import reading
from core.log import events as ev
from core.registry import get_ruleset
from core.ruleset import Refused
from core.rulesets.ludonet import tables, words

RECORDED = RecordedGame("ludonet-game", "ludonet", 2026)
SCENARIOS = Path(__file__).resolve().parents[3] / "core" / "rulesets" / "ludonet"


def test_a_shot_its_damage_and_the_end_of_the_fire_phase_in_italian(armoured):
    to_phase(armoured, 1, "fire")
    # Jones is expert (+1): 6 hits within half range (3+); Hans rolls 5 on the damage die: eliminated
    facts = play(armoured, "@paras fire jones hans half dice=6,5")
    facts += play(armoured, "next")
    with reading("it"):
        said = [armoured.describe(e, role="referee") for e in facts]
    assert said[0] == (
        "tiro contro Uffz Hans Vogt (entro metà raggio) di Pte Jones: "
        "1d6 serve 3+ (base 4+, il tiratore è esperto +1): 6 → colpito [dadi al tavolo]"
    )
    assert "danni (tiro di Pte Jones) di Uffz Hans Vogt: 1d6: 5 → eliminato [dadi al tavolo]" in said
    assert "Uffz Hans Vogt fuori combattimento: eliminato" in said
    out = next(e for e in facts if isinstance(e, ev.UnitOut))
    assert out.cause == Msg("eliminated") and plain(out.cause) == "eliminated"


def test_a_vehicle_against_a_figure_reads_its_opposed_roll_in_italian(armoured):
    to_phase(armoured, 1, "fire")
    # 4 + 3 against Smith's 5 + 0: a margin of 2 wounds a figure (ruling LN-VS-INFANTRY)
    facts = play(armoured, "@garrison fire panzer smith half dice=4,4,5")
    with reading("it"):
        said = [armoured.describe(e, role="referee") for e in facts if isinstance(e, ev.Rolled)]
    assert said[1:] == [
        "tiro con il valore di combattimento contro Cpl Smith di Panzer IV: 1d6 (valore di combattimento +3): 4 "
        "→ totale 7 [dadi al tavolo]",
        "tiro con il valore di combattimento contro Panzer IV, per non subire danni di Cpl Smith: 1d6 serve 7+: "
        "5 → totale 5 contro 7: ferito [dadi al tavolo]",
    ]
    assert plain(rolls(facts)[2].outcome) == "total 5 against 7: wound"


def test_a_run_its_fatigue_and_a_morale_test_in_italian(armoured):
    to_phase(armoured, 1, "move-first")
    assert armoured.state.active_side == "paras"
    facts = play(armoured, "@paras move jones 14 mode=run dice=5")  # 5: tired (LN-R012)
    with reading("it"):
        said = [armoured.describe(e, role="referee") for e in facts]
    assert "Pte Jones muove di 14 cm (di corsa)" in said
    assert "stanchezza di Pte Jones: 1d6 serve 5+: 5 → stanco: non può correre per 3 turni [dadi al tavolo]" in said
    to_phase(armoured, 1, "melee")
    play(armoured, "out kurt", "out otto", "out mg42")
    facts = play(armoured, "next")
    facts += play(armoured, "@garrison morale gruppe vogt dice=2")  # 1-2: shaken (LN-R070)
    with reading("it"):
        said = [armoured.describe(e, role="referee") for e in facts]
    assert "nota: test di morale dovuti (LN-R070): Gruppe Vogt (perdite: 3 su 5)" in said
    assert "Gruppe Vogt: 3 perdite già coperte dai suoi test di morale (LN-R070)" in said
    assert (
        "morale di Gruppe Vogt di Guarnigione della fattoria: 1d6 serve 3+: 2 → "
        "morale scosso: ripiega [dadi al tavolo]" in said
    )


def test_the_recorded_game_records_the_same_facts_whatever_the_readers_language(tmp_path):
    made = {}
    for lang in ("it", "en"):
        (tmp_path / lang).mkdir()
        with reading(lang):
            made[lang] = effective_facts(RECORDED.regenerate(tmp_path / lang), languages=False)
    assert made["it"] == made["en"] == effective_facts(RECORDED.save, languages=False)


def test_the_recorded_game_narrates_in_italian_without_an_english_ruleset_word():
    game = Game.open(RECORDED.save, writable=False)
    ended = next(line.event for line in game.log_lines(role="referee") if isinstance(line.event, ev.GameEnded))
    with reading("it"):
        result = Domain("ludonet").render(ended.result)
    assert result.startswith("vince Kampfgruppe von Luck: a Fife and Forfar Yeomanry non resta nulla in gioco")
    assert "perdite: " in result
    words = worded(RECORDED.save)
    assert words and [w for w in words if w and not isinstance(w, Msg)] == []


def test_every_table_word_an_event_carries_is_in_the_catalogue():
    toml = {m.label for m in tables.fire().modifiers} | {m.label for m in tables.melee().modifiers}
    assert toml == set(words.TABLE_WORDS)


@pytest.mark.parametrize("context", ["command", "option", "choice"])
def test_the_italian_names_are_single_words_each_meaning_one_thing(context):
    rs = get_ruleset("ludonet")
    mine = [s for s in rs.commands() if s.handler.__module__ != "core.rulesets.common"]
    it = Domain(rs.domain)
    with reading("it"):
        if context == "command":
            spaces = [{s.name: it.pgettext("command", s.name) for s in mine}]
        elif context == "option":
            spaces = [{p.name: it.pgettext("option", p.name) for p in s.params} for s in mine]
        else:
            spaces = [{c: it.pgettext("choice", c) for c in p.choices} for s in mine for p in s.params]
    english = {s.name for s in rs.commands()}
    for space in spaces:
        assert len(set(space.values())) == len(space), space
        assert all(name and " " not in name and name == name.lower() for name in space.values()), space
        if context == "command":
            assert [k for k, v in space.items() if v in english and v != k] == []


@pytest.mark.parametrize("word", ["pareggio", "pareg", "draw"])
def test_a_draw_typed_in_either_language_records_the_same_result(tmp_path, monkeypatch, word):
    (tmp_path / word).mkdir()
    game = ludonet_game(tmp_path / word, monkeypatch)
    to_phase(game, 1, "move-first")
    (end,) = [e for e in play(game, f"victory {word} both sides withdraw") if isinstance(e, ev.GameEnded)]
    game.close()
    assert plain(end.result).startswith("a draw: both sides withdraw; losses: ")
    with reading("it"):
        assert Domain("ludonet").render(end.result).startswith("pareggio: both sides withdraw; perdite: ")


ENGLISH = (
    "@paras move jones 14 mode=run dice=5",
    "@paras move brown 3 mode=crawl",
    "next",
    "next",
    "next",
    "@paras fire jones hans half dice=6,5",
    "@garrison fire panzer smith half dice=4,4,5",
)
ITALIAN = (
    "@paras muovi jones 14 modo=corsa dice=5",
    "@paras muovi brown 3 modo=carponi",
    "next",
    "next",
    "next",
    "@paras spara jones hans mezzo dice=6,5",
    "@garrison spara panzer smith mezzo dice=4,4,5",
)


def test_commands_typed_in_italian_record_what_the_english_ones_do(tmp_path):
    games = {}
    for lang, script in (("en", ENGLISH), ("it", ITALIAN)):
        (tmp_path / lang).mkdir()
        with reading(lang), pytest.MonkeyPatch.context() as monkeypatch:
            game = ludonet_game(tmp_path / lang, monkeypatch)
            to_phase(game, 1, "move-first")
            play(game, *script)
            game.close()
            games[lang] = [f for f in effective_facts(tmp_path / lang / "ln.ft") if f["t"] != "cmd"]
    assert games["it"] == games["en"]
    assert {"t": "move", "unit": "brown", "cm": 3, "how": ["crawl", {}]} in games["it"]


def test_a_shot_beyond_its_range_is_refused_in_italian_words(tmp_path, monkeypatch):
    """LN-R030's refusal names the weapon or the grenade after the range: "di l'arma di Uffz
    Hans Vogt" was read at a served table (#61): Italian contracts "di l'" to "dell'", so the
    weapon ("l'arma di …", "una granata") follows "per"."""
    game = ludonet_game(tmp_path, monkeypatch, {"weapon.rifle.range": 40, "grenade_range": 10})
    to_phase(game, 1, "fire")
    said = []
    with reading("it"):
        for line in ("@paras fire jones kurt range=41", "grenade brown range=11 hans"):
            said.append(refused(game, line, rule="LN-R030"))
    game.close()
    assert said == [
        "41 cm è oltre il raggio di tiro di 40 cm per l'arma di Pte Jones (LN-R030)",
        "11 cm è oltre il raggio di tiro di 10 cm per una granata (LN-R030)",
    ]


@pytest.mark.parametrize("typed", ["sezione 1", "Section 1", "sez"])
def test_a_team_is_named_in_italian_and_typed_in_either_language(armoured, typed):
    """Found at a table (#61): the Italian roster said "Section 1"; a built-in team reads in the
    reader's language and is typed by either name (ruling I18N-TEAM)."""
    to_phase(armoured, 1, "morale")
    with reading("it"), pytest.raises(Refused) as refused:
        armoured.execute(f"morale {typed}", role="paras")
    names(refused.value, "LN-R070")
    assert str(refused.value) == "Sezione 1 ha perso 0 su 5: nessun test sotto la metà (LN-R070)"


def test_the_built_in_weapons_are_the_rulesets_words():
    """The weapons of the built-in scenarios and forces are named in the reader's language
    (words.WEAPONS, #61: "rifle tira fino a 60 cm" under --lang it); the list and the files agree."""
    files = [*SCENARIOS.glob("scenarios/*.toml"), *SCENARIOS.glob("forces/*.toml")]
    ids = {w["id"] for f in files for w in tomllib.loads(f.read_text(encoding="utf-8")).get("weapons", ())}
    assert ids == set(words.WEAPONS)
    assert set(words.WEAPONS) <= set(get_ruleset("ludonet").terms())


def test_the_rulesets_name_is_said_in_the_readers_language(armoured):
    """#61: under --lang it the header, the game lists and the report said "Ludonet quick
    skirmish"; its name is its catalogue's (ruling I18N-LUDONET-NAME), its id and saves unchanged."""
    ruleset = armoured.ruleset
    with reading("it"):
        said = (ruleset.shown_name(), ruleset.title(), ruleset.title(versioned=False))
    assert said == ("Ludonet, regole rapide", "Ludonet, regole rapide 1996", "Ludonet, regole rapide")
    assert ruleset.shown_name() == "Ludonet quick skirmish" and ruleset.id == "ludonet"
    assert armoured.header.ruleset == "ludonet"
    with reading("it"):  # a book's proper name stays as it is
        assert get_ruleset("linea-di-tiro").title() == "Linea di Tiro 1.0"


def test_a_scenario_without_support_says_so_in_words_not_as_a_dice_result(armoured):
    """#61: "(supporti: colpo nullo)": the list's "none" shared its message with the damage
    result "none" (no effect), so the Italian named a dice result."""
    to_phase(armoured, 1, "fire")
    said = {}
    for lang in ("en", "it"):
        with reading(lang):
            said[lang] = refused(armoured, "barrage nebel smith", rule="LN-AMB-17")
    assert said == {
        "en": "no artillery or aircraft support 'nebel' in this scenario (support: none)",
        "it": "nessun supporto di artiglieria o aereo 'nebel' in questo scenario (supporti: nessuno)",
    }
