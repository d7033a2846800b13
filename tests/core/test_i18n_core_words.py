"""The core's own words in Italian and English: the log's narration, dice requests and
odds, the headless commands (``--lang``, the locale, argparse's words) and the report.

English stays what it was (the other tests of the core hold it byte for byte);
here the same facts are told in Italian, from exact events and exact dice."""

from __future__ import annotations

import json
import re
from contextlib import closing
from fractions import Fraction
from pathlib import Path

import msgspec
import pytest
from playing import names

from core.dice.faces import DiceRequest
from core.dice.probability import odds_summary, percent
from core.language import i18n
from core.language.i18n import M
from core.language.reader import reading, set_process_language
from core.log import events as ev
from core.log.narrate import describe
from core.log.state import Unit
from core.log.views import REFEREE
from tui.main import main as fireteam

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "saves" / "demo-game.ft"
BOOK = "narration_test"  # a ruleset's domain, made for these tests
UNITS = {"u1": Unit(id="u1", name="Sgt Rossi", side="regulars")}

BOOK_PO = r"""
msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\n"
"Language: it\n"

msgid "save"
msgstr "tiro salvezza"

msgid "cover"
msgstr "copertura"

msgid "saved"
msgstr "salvo"

msgid "rubble"
msgstr "macerie"

msgid "hit by {unit}"
msgstr "colpito da {unit}"

msgid "the building falls"
msgstr "l'edificio crolla"

msgid "{side} hold the village"
msgstr "{side} tengono il villaggio"

msgctxt "term"
msgid "pinned"
msgstr "inchiodato"

msgctxt "phase"
msgid "activation"
msgstr "attivazione"
"""


@pytest.fixture(autouse=True)
def english_after():
    """Every test here leaves the process in English, as it found it."""
    yield
    set_process_language("en")


@pytest.fixture
def book(tmp_path, monkeypatch):
    """A ruleset catalogue of a few words, beside the real core and client catalogues."""
    where = tmp_path / "it" / "LC_MESSAGES"
    where.mkdir(parents=True)
    for domain in ("fireteam", "client"):
        (where / f"{domain}.po").symlink_to(i18n.LOCALE_DIR / "it" / "LC_MESSAGES" / f"{domain}.po")
    (where / f"{BOOK}.po").write_text(BOOK_PO, encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.forget_catalogues()
    yield BOOK
    i18n.forget_catalogues()


def said(e: ev.Event, domain: str = BOOK, lang: str = "it") -> str:
    with reading(lang):
        return describe(e, UNITS, domain=domain)


# ------------------------------------------------------------------ narration


def test_a_roll_says_whose_it_is_in_the_italian_order_with_its_modifiers_and_outcome(book):
    roll = ev.Roll(purpose=M("save"), sides=6, faces=(4,), target=3, mods=(ev.Mod(M("cover"), -1),), outcome=M("saved"))
    e = ev.Rolled(roll=roll, unit="u1")
    assert said(e) == "tiro salvezza di Sgt Rossi: 1d6 serve 3+ (copertura -1): 4 → salvo"
    assert said(e, lang="en") == "Sgt Rossi's save: 1d6 needing 3+ (cover -1): 4 → saved"


def test_a_side_whose_name_ends_in_s_has_its_roll_said_whole_in_both(book):
    roll = ev.Roll(purpose=M("save"), sides=6, faces=(2, 5), target=9, total=True, manual=True)
    e = ev.Rolled(roll=roll, side="regulars")
    assert said(e) == "tiro salvezza di regulars: 2d6 serve 9+ in totale: 2 5 = 7 [dadi al tavolo]"
    assert said(e, lang="en") == "regulars' save: 2d6 needing 9+ total: 2 5 = 7 [table dice]"


def test_a_move_of_a_decimal_distance_is_written_with_a_comma_in_italian(book):
    e = ev.Moved(unit="u1", cm="25.5", how=M("rubble"))
    assert said(e) == "Sgt Rossi muove di 25,5 cm (macerie)"
    assert said(e, lang="en") == "Sgt Rossi moves 25.5 cm (rubble)"
    assert said(ev.Moved(unit="u1", cm=12)) == "Sgt Rossi muove di 12 cm"


def test_out_of_action_defeat_points_and_game_over_in_italian(book):
    assert said(ev.UnitOut(unit="u1", cause=M("hit by {unit}", unit="Ahmed Noor"))) == (
        "Sgt Rossi fuori combattimento: colpito da Ahmed Noor"
    )
    fell = M("the building falls")
    assert said(ev.DefeatPoints(side="regulars", points=3, reason=fell)) == (
        "3 punti sconfitta a regulars: l'edificio crolla"
    )
    assert said(ev.DefeatPoints(side="regulars", points=1, reason=fell)) == (
        "1 punto sconfitta a regulars: l'edificio crolla"
    )
    # No verb to agree with a side's name, plural or not (issue #77: "Bersaglieri scores").
    assert said(ev.DefeatPoints(side="regulars", points=3, reason=fell), lang="en") == (
        "3 defeat points to regulars: the building falls"
    )
    assert said(ev.DefeatPoints(side="regulars", points=1, reason=fell), lang="en") == (
        "1 defeat point to regulars: the building falls"
    )
    won = M("{side} hold the village", side="irregulars")
    assert said(ev.GameEnded(result=won)) == "Partita finita: irregulars tengono il villaggio"
    assert said(ev.GameEnded(result=won), lang="en") == "Game over: irregulars hold the village"


def test_a_status_the_book_says_as_a_verb_reads_as_italian_when_taken_off():
    """Breaking News's *fired* is "ha sparato": taken off, it read "non più «ha sparato»";
    now "tolto «ha sparato»" (ruling I18N-NO-LONGER, #77); put on, "ora ha sparato"."""
    bn = "breaking_news"
    assert said(ev.StatusChanged(unit="u1", add=("fired",)), bn) == "Sgt Rossi ora ha sparato"
    assert said(ev.StatusChanged(unit="u1", remove=("fired",)), bn) == "Sgt Rossi tolto «ha sparato»"
    assert said(ev.StatusChanged(unit="u1", remove=("fired",)), bn, lang="en") == "Sgt Rossi no longer fired"


def test_statuses_and_phases_are_the_rulesets_terms(book):
    assert said(ev.StatusChanged(unit="u1", add=("pinned",), remove=("hidden",))) == (
        "Sgt Rossi ora inchiodato, tolto «nascosto»"
    )
    began = ev.PhaseBegan(turn=3, phase="activation", active="regulars", card="Q")
    assert said(began) == "Turno 3: attivazione, attivo regulars, carta Q"
    assert said(began, lang="en") == "Turn 3: activation, regulars active, card Q"


def test_an_older_saves_english_sentence_is_shown_as_written(book):
    assert said(ev.UnitOut(unit="u1", cause="killed by irregulars")) == (
        "Sgt Rossi fuori combattimento: killed by irregulars"
    )


def test_a_dice_request_and_its_odds_in_italian(book):
    asked = DiceRequest(2, 6, M("save"), missing=1, whose="Sgt Rossi", target=4, domain=BOOK)
    with reading("it"):
        assert asked.text() == "tiro salvezza di Sgt Rossi: 2d6, serve 4+ per dado; 1 inseriti, 1 ancora da inserire"
        assert odds_summary(3, 5) == "serve 5+ su 3 dadi: 70,4% almeno uno"
        assert percent(Fraction(1, 3)) == "33,3%"
    with reading("en"):
        assert asked.text() == "Sgt Rossi's save: 2d6, needs 4+ per die; 1 typed, 1 more to type"
        assert odds_summary(3, 5) == "needs 5+ on 3 dice: 70.4% at least one"


# ----------------------------------------------------------------- the commands


def test_fireteam_log_narrates_the_demo_in_italian_and_in_english(capsys):
    assert fireteam(["log", str(DEMO), "--lang", "it"]) == 0
    italian = capsys.readouterr().out.splitlines()
    assert fireteam(["log", str(DEMO), "--lang", "en"]) == 0
    english = capsys.readouterr().out.splitlines()
    assert len(italian) == len(english)
    assert "    Scenario Posto di blocco ad Afgooye: Reparto Bersaglieri contro Milizia somala" in italian
    assert "    Scenario Checkpoint at Afgooye: Bersaglieri vs Somali militia" in english
    assert "    Sgt Rossi si unisce a Reparto Bersaglieri (Veterani) con AR" in italian
    assert "    Sgt Rossi joins Bersaglieri Veteran with AR" in english
    assert "» arbitro: scenario demo" in italian and "» referee: scenario demo" in english  # who gave it
    assert any(line.startswith("    Turno 1: ") for line in italian)
    assert not any(line.startswith("    Turn ") for line in italian)
    assert any(" muove di " in line for line in italian)
    assert any(" fuori combattimento: " in line for line in italian)
    assert any(line.startswith("    Partita finita: ") for line in italian)
    assert any(line.startswith("    Game over: ") for line in english)


def test_the_language_may_come_before_the_command(capsys):
    assert fireteam(["--lang", "it", "log", str(DEMO)]) == 0
    assert "    Sgt Rossi si unisce a Reparto Bersaglieri (Veterani) con AR" in capsys.readouterr().out.splitlines()


def test_replay_json_is_the_same_in_every_language(capsys):
    out = {}
    for lang in ("it", "en"):
        assert fireteam(["replay", str(DEMO), "--json", "--lang", lang]) == 0
        out[lang] = capsys.readouterr().out
    assert out["it"] == out["en"]
    assert json.loads(out["it"])["total_events"] > 0


def test_the_locale_chooses_italian_when_no_lang_is_given(capsys, monkeypatch):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    assert fireteam(["log", str(DEMO)]) == 0
    assert "    Sgt Rossi si unisce a Reparto Bersaglieri (Veterani) con AR" in capsys.readouterr().out.splitlines()
    # --lang wins over the locale
    assert fireteam(["log", str(DEMO), "--lang", "en"]) == 0
    assert "    Sgt Rossi joins Bersaglieri Veteran with AR" in capsys.readouterr().out.splitlines()


def test_argparse_help_and_errors_are_in_italian(capsys):
    with pytest.raises(SystemExit) as done:
        fireteam(["log", "--help", "--lang", "it"])
    assert done.value.code == 0
    shown = capsys.readouterr().out
    assert shown.startswith("uso: fireteam log ")
    assert "argomenti posizionali:" in shown
    assert "mostra questo aiuto ed esce" in shown
    with pytest.raises(SystemExit) as done:
        fireteam(["log", "--lang", "it"])
    assert done.value.code == 2
    assert "fireteam log: errore: servono questi argomenti: path" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        fireteam(["log", str(DEMO), "--lang", "fr"])
    assert "argument --lang: invalid choice: 'fr' (choose from 'en', 'it')" in capsys.readouterr().err


def test_a_headless_error_is_in_the_readers_language(capsys, tmp_path):
    missing = tmp_path / "nowhere.ft"
    assert fireteam(["log", str(missing), "--lang", "it"]) == 2
    assert capsys.readouterr().err == f"{missing}: salvataggio inesistente; controlla il nome\n"
    assert fireteam(["log", str(missing)]) == 2
    assert capsys.readouterr().err == f"{missing}: no such save file; check the name\n"


def test_the_report_in_italian(capsys):
    assert fireteam(["report", str(DEMO), "--lang", "it"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# Rapporto dopo l'azione: Posto di blocco ad Afgooye\n")
    for heading in ("## Forze", "## La partita, turno per turno", "## Momenti decisivi", "## I dadi"):
        assert f"\n{heading}\n" in text
    assert "### Preparazione e schieramento" in text
    assert "Milizia somala ha avuto l'iniziativa." in text
    # numbers with the Italian decimal comma
    assert re.search(
        r"\n- Milizia somala ha tirato (una volta|\d+ volte) contro un obiettivo: .*, \d+,\d attesi\.\n", text
    )
    assert "After-action" not in text and "expected" not in text


def test_the_html_report_says_its_language(capsys):
    assert fireteam(["report", str(DEMO), "--format", "html", "--lang", "it"]) == 0
    page = capsys.readouterr().out
    assert '<html lang="it">' in page
    assert "<h2>Forze</h2>" in page


@pytest.mark.parametrize(
    "command",
    [
        ["script"],
        ["replay"],
        ["log"],
        ["report"],
        ["salvage"],
        ["fork"],
        ["export"],
        ["verify"],
        ["scenarios"],
        ["scenario"],
        ["scenario", "check"],
        ["bench"],
    ],
)
def test_every_headless_command_takes_lang_and_helps_in_italian(command, capsys):
    with pytest.raises(SystemExit) as done:
        fireteam([*command, "--help", "--lang", "it"])
    assert done.value.code == 0
    shown = capsys.readouterr().out
    assert shown.startswith(f"uso: fireteam {' '.join(command)} ")
    assert "--lang {en,it}" in shown
    assert "la lingua di ciò che viene mostrato" in shown


def test_verify_and_salvage_report_in_italian(capsys, tmp_path):
    assert fireteam(["verify", str(DEMO), "--lang", "it"]) == 0
    *_, secrets, dice, facts = capsys.readouterr().out.splitlines()
    assert facts.startswith("fatti: ") and facts.endswith(": ognuno dà i fatti registrati")
    assert re.fullmatch(
        rf"{re.escape(str(DEMO))}: \d+ impegni verificati, partita finita: ogni segreto corrisponde al suo impegno",
        secrets,
    )
    assert dice.startswith("dadi: 0 tiri sigillati ricalcolati: ")
    torn = tmp_path / "torn.ft"
    data = DEMO.read_bytes()
    torn.write_bytes(data[: data.index(b"\n", len(data) // 2) + 20])  # a torn last line
    assert fireteam(["salvage", str(torn), "--lang", "it"]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"{tmp_path / 'torn.salvaged.ft'}: tenuti ")
    assert "ultima riga incompleta (una scrittura interrotta)" in said
    assert said.endswith(f"{torn} non è stato modificato\n")


def test_the_clients_text_report_in_italian():
    from core.game import Game
    from core.report import build
    from core.report.render_text import render

    with closing(Game.open(DEMO, writable=False)) as game, reading("it"):
        lines = render(build(game, REFEREE))
    assert lines[0] == "Rapporto dopo l'azione: Posto di blocco ad Afgooye"
    for heading in ("FORZE", "LA PARTITA, TURNO PER TURNO", "MOMENTI DECISIVI", "I DADI", "I tiri più fortunati"):
        assert heading in lines


def test_a_hidden_piece_opened_at_the_end_reads_as_the_piece_not_as_json():
    spec = ev.UnitSpec(id="dahir", name="Dahir Omar", side="irregulars")
    e = ev.Opened(key="unit.dahir", value=msgspec.json.encode(spec).decode(), salt="s", digest="0" * 64)
    assert describe(e).startswith("opened at the end: Dahir Omar of irregulars was a hidden piece (")
    with reading("it"):
        assert describe(e).startswith("aperto alla fine: Dahir Omar di irregulars era un pezzo nascosto (")
    # A value that is not a piece (a hostile or older save) is shown as it is.
    odd = ev.Opened(key="unit.x", value="[not json", salt="s", digest="0" * 64)
    assert describe(odd).startswith("opened at the end: unit.x = [not json (")


def test_a_command_refused_in_the_wrong_phase_names_the_phase_and_what_it_expects_in_italian(tmp_path):
    from core.game import Game
    from core.ruleset import Refused

    game = Game.new(tmp_path / "x.ft", "breaking-news", seed=1)
    game.execute("scenario demo", role=REFEREE)
    with reading("it"), pytest.raises(Refused) as info:
        game.execute("fire rossi ahmed range=10", role=REFEREE)
    names(info.value, "ENG-2")
    assert str(info.value).startswith("spara non è ammesso nella fase schieramento; ora: obiettivi, tiro-schieramento,")
    with pytest.raises(Refused) as info:
        game.execute("fire rossi ahmed range=10", role=REFEREE)
    names(info.value, "ENG-2")
    assert str(info.value).startswith("fire is not allowed in the deployment phase; now: objectives, rolloff,")
