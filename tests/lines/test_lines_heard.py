"""What the line client says, as a screen reader reads it aloud (issue #49): the result of a game
first, its commitments in one sentence, no echo of one's own command, no folder in ``status``,
statuses and team lines in words, Italian in Italian."""

from __future__ import annotations

import re
import shutil
import sys
from contextlib import closing
from pathlib import Path

import pytest
from lines_support import Seat, demo_game, played_game

from core.game import Game, LogLine
from core.log import events as ev
from core.log.views import REFEREE
from tui.bench import spoken
from tui.lines import answers
from tui.lines import heard as lines_heard
from tui.lines.ink import inked

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rulesets"))
from linea_di_tiro_support import FIRST, new_game, play  # noqa: E402  (test folders are not packages)

SAVES = Path(__file__).resolve().parents[2] / "saves"
LDT_RESULT = "result us two half-squads hold the far bank and the rearguard is destroyed"


#: Who won the recorded Linea di Tiro game, and the pieces each side lost: the end's data.
LDT_WON = "US 30th Infantry won (US 30th Infantry 0, Rearguard 2)"


def the_end_again(seat: Seat, command: str) -> list[str]:
    """Undo the game's last command, then give it again: the answer to the game's end."""
    seat.say("undo")
    seat.say("y")
    return seat.say(command)


def test_breaking_news_end_says_the_result_first_and_its_fourteen_commitments_in_one_sentence(tmp_path):
    game = played_game(tmp_path / "demo.ft")
    seat = Seat(game)
    said = the_end_again(seat, "next")
    assert said[0].startswith("Game over: Somali militia won (Bersaglieri 50, Somali militia 20) — Somali militia win")
    assert said[1] == "All 14 secrets opened at the end match their commitments; secrets reads them."
    assert said[-1] == "more says 3 more lines."  # the scores' working (issue #91: the end heard in 60 s)
    assert seat.say("more")[-1] == "Note: Somali militia: casualties 20 = 20 defeat points."
    assert not any("matches its commitment" in line for line in said)
    assert not any(line.startswith("#") for line in said)  # the command typed, not said back
    opened = seat.say("secrets")
    assert opened[0] == "16 secrets opened, in the log's order:"  # two of them during the game
    assert len(opened) == 17 and all("(matches its commitment)" in line for line in opened[1:])  # (no digest)
    game.close()


def test_linea_di_tiro_end_says_the_result_before_the_deck(tmp_path):
    shutil.copyfile(SAVES / "linea-di-tiro-game.ft", tmp_path / "ldt.ft")
    game = Game.open(tmp_path / "ldt.ft")
    seat = Seat(game)
    said = the_end_again(seat, LDT_RESULT)
    assert said[0].startswith(f"Game over: {LDT_WON} — US 30th Infantry win")
    assert not any("of spades" in line for line in said)  # the shuffled deck: on request
    assert said[1] == "All 10 secrets opened at the end match their commitments; secrets reads them."
    assert any("the deck is shuffled: 6 of clubs, 6 of spades" in line for line in seat.say("secrets"))
    game.close()


def test_a_game_opened_at_its_end_says_its_result_before_anything_else(tmp_path):
    """The greeting takes 7 s at eSpeak NG's default rate: after it, Linea di Tiro's result was
    heard in 19 s; before it, in 12."""
    shutil.copyfile(SAVES / "linea-di-tiro-game.ft", tmp_path / "ldt.ft")
    game = Game.open(tmp_path / "ldt.ft", writable=False)
    seat = Seat(game, read_only="a replay")
    assert seat.out[0].startswith(f"Game over: {LDT_WON} — US 30th Infantry win: two half-squads hold the far bank")
    assert seat.out[1].startswith("Fireteam, in plain lines.")
    assert [line.startswith("Game over") for line in seat.out].count(True) == 1  # said once
    assert seat.out[2] == "Turn 15: the game has ended."  # then where it stands, as status says it
    assert seat.say("status")[0].startswith("Game over:")
    game.close()
    going = Seat(played_game_before_its_end(tmp_path / "demo.ft"))
    assert going.out[0].startswith("Fireteam, in plain lines.")  # a game going on: the greeting first
    going.client.game.close()


def played_game_before_its_end(path: Path) -> Game:
    game = played_game(path)
    game.undo(role=REFEREE, by="referee")
    return game


def test_a_commitment_that_does_not_match_is_said_in_full(tmp_path, monkeypatch):
    from tui.lines.answers import log

    game = played_game(tmp_path / "demo.ft")
    seat = Seat(game)
    monkeypatch.setattr(log, "matches", lambda e: e.key != "objective.die")
    said = the_end_again(seat, "next")
    assert said[0].startswith("Game over:")
    assert said[1] == "1 of 14 secrets opened at the end do NOT match their commitments:"
    assert "secret objective die" in seat.say("more")[0]  # (its working kept for more, as the scores')
    game.close()


DIGEST = re.compile(r"\b[0-9a-f]{16}\b")


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_commitment_is_said_without_its_digest_which_the_record_keeps(tmp_path, lang):
    """Sixteen hex digits take 5 s aloud and no listener compares them: a new demo game's fourteen
    commitments were 107 of the 261 s its scenario's answer took.  ``log`` at a plain seat says
    none either (issue #91); the save and ``fireteam log`` keep them, and the game checks each."""
    seat = Seat(demo_game(tmp_path / "new.ft"), lang=lang)
    seat.say("undo" if lang == "en" else "annulla")
    seat.say("y" if lang == "en" else "s")
    said = seat.say("scenario demo")
    committed = [line for line in said if line.startswith(("Commitment to a secret of", "Impegno su un segreto di"))]
    assert len(committed) == 13 and not any(DIGEST.search(line) for line in said)
    assert committed[0] in ("Commitment to a secret of Somali militia.", "Impegno su un segreto di Milizia somala.")
    logged = seat.say("log 500" if lang == "en" else "registro 500")
    commitments = ("Commitment", "Undone: Commitment", "Impegno", "Annullato: Impegno")
    assert sum(line.startswith(commitments) for line in logged) == 2 * 13
    assert not any(DIGEST.search(line) for line in logged)
    record = seat.client.game.log_lines(REFEREE)
    assert sum(bool(DIGEST.search(line.text)) for line in record) == 2 * 13  # the record's, the undone ones too
    seat.client.game.close()


JOINS = {
    "en": ("Sgt Rossi joins Bersaglieri: Veteran, Assault rifle.", "Egal Yusuf joins Somali militia, hidden: "),
    "it": (
        "Sgt Rossi si unisce a Reparto Bersaglieri: Veterani, Fucile d'assalto.",
        "Egal Yusuf si unisce a Milizia somala, nascosto: ",
    ),
}


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_piece_joins_with_its_class_and_weapons_by_their_names(tmp_path, lang):
    """The log's line says "Sgt Rossi joins Bersaglieri Veteran with AR": a table's codes, read
    aloud as letters, where the roster says words."""
    joins, hidden = JOINS[lang]
    seat = Seat(demo_game(tmp_path / "new.ft"), lang=lang)
    seat.say("undo" if lang == "en" else "annulla")
    seat.say("y" if lang == "en" else "s")
    said = seat.say("scenario demo")
    assert joins in said and any(line.startswith(hidden) for line in said)
    assert not any(" with AR" in line or " con AR" in line for line in said)
    logged = seat.say("log 500" if lang == "en" else "registro 500")
    assert sum(line.endswith(joins) for line in logged) == 2  # log too: the undone scenario's line and this one's
    seat.client.game.close()


def test_defeat_points_are_said_once_a_side_has_some(tmp_path):
    """Linea di Tiro, Bassa Intensità and Ludonet keep none: their status and roster said
    "Defeat points: US 30th Infantry 0; Rearguard 0." (4 s aloud) and "0 defeat points" a side."""
    shutil.copyfile(SAVES / "linea-di-tiro-game.ft", tmp_path / "ldt.ft")
    ldt = Game.open(tmp_path / "ldt.ft", writable=False)
    seat = Seat(ldt)
    said = seat.out + seat.say("roster")
    assert not any("efeat points" in line for line in said), said
    assert "US 30th Infantry (us): 4 of 4 figures in play." in said
    ldt.close()
    new = Seat(demo_game(tmp_path / "new.ft"))  # Breaking News before any is scored
    assert not any("efeat points" in line for line in new.out + new.say("roster"))
    new.say("dp regulars 5 casualties")
    assert "Defeat points: Bersaglieri 5; Somali militia 0." in new.say("status")
    assert "Somali militia (irregulars): 8 of 8 figures in play; 0 defeat points." in new.say("roster")
    new.client.game.close()


def test_status_names_the_save_not_its_folder(tmp_path):
    game = played_game(tmp_path / "demo.ft")
    seat = Seat(game, save="demo.ft")
    said = seat.say("status")
    assert "The save is demo.ft." in said and not any(str(tmp_path) in line for line in said)
    game.close()


def test_a_figure_with_no_status_is_not_ready_and_linea_di_tiro_s_badges_are_words(tmp_path):
    game = played_game(tmp_path / "demo.ft")
    assert "Pte Conti: no status; Veteran, Assault rifle." in Seat(game).say("roster")
    game.close()
    shutil.copyfile(SAVES / "linea-di-tiro-game.ft", tmp_path / "ldt.ft")
    ldt = Game.open(tmp_path / "ldt.ft", writable=False)
    roster = Seat(ldt).say("roster")
    assert "Capt Miller's HQ: no status; Rifle half-squad." in roster
    assert "1st squad, second half: fired 1 time, 2 prepared attacks; Rifle half-squad." in roster
    assert (
        "Team 1st Platoon: 3 of 3 in play; 1 prepared attack: 1 figure; fired 1 time: 1 figure; "
        "2 prepared attacks: 1 figure."
    ) in roster
    assert any("activation option 5 (full speed)" in line for line in roster)
    assert not any(" ready" in line for line in roster)
    ldt.close()


def test_italian_says_a_hit_in_italian(tmp_path):
    game = played_game(tmp_path / "demo.ft")
    said = Seat(game, lang="it").say("registro 200")
    hits = [line for line in said if line.startswith(("1 colpo.", "2 colpi."))]
    assert hits and not any(line.startswith(("1 hit", "2 hit")) for line in said)
    game.close()


# ------------------------------------------------- a fire with the table's dice (issue #61)


@pytest.fixture
def game(tmp_path):
    """A new demo game (before play), closed after the test."""
    with closing(demo_game(tmp_path / "game.ft")) as game:
        yield game


def heard_fire(seat: Seat) -> list[str]:
    """What ``seat`` hears of a fire with the table's dice, its questions' prompts included
    (``fireteam bench --spoken``'s fire, which times it), the game set up for it first."""
    for line in spoken.SET_UP:
        seat.client.game.execute(line, role=REFEREE)
    heard = []
    for typed in spoken.FIRE:
        heard += seat.say(typed)
        if seat.client.asking:
            heard.append(seat.client.prompt.strip())
    return heard


@pytest.mark.parametrize("lang", ["en", "it"])
def test_a_fire_with_the_table_s_dice_says_its_questions_and_its_outcome_first(lang):
    heard = spoken.fire(lang)
    if lang == "en":
        assert heard == [
            "Pte Greco's fire with Assault rifle aimed at Aden Farah, 20 cm: 1d6, needs 3+; chance 66.7%.",
            "Type 1 die:",
            "Aden Farah's save: 1d6, needs 4+; chance 50.0%.",  # its modifiers under verbose
            "Type 1 die:",
            "1 hit, Pte Greco.",  # its outcome first, not the 6 just typed
            "Failed: out of action, Aden Farah.",  # said once: not again as his status
        ]
    else:
        assert heard[1] == "Scrivi 1 dado:" and heard[4] == "1 colpo, Pte Greco."
        assert heard[0].endswith(": 1d6, serve 3+; probabilità 66,7%.")
        assert heard[2] == "Tiro salvezza di Aden Farah: 1d6, serve 4+; probabilità 50,0%."


# ------------------------------------------------- every answer heard in under 30 s (issue #91)

#: The longest an answer of ``fireteam bench --spoken`` may take to hear, as ``tui.lines.heard``
#: estimates it from its letters, digits and signs at eSpeak NG's measured rates (the bar is 30 s,
#: which the bench measures; the estimate may fall 8% short of it on a long answer).  Before issue
#: #91, by eSpeak NG: why 68 s in English and 73 s in Italian, ? fire 88 s and 83 s.
HEARD_S = 27.5


@pytest.mark.parametrize("lang", ["en", "it"])
@pytest.mark.parametrize("answer", ["fire", "why", "ask", "rule", "end", "confirm"])
def test_every_answer_is_heard_in_under_30_seconds(answer, lang):
    heard = spoken.ANSWERS[answer](lang)
    assert lines_heard.seconds(heard, lang) <= HEARD_S, heard
    assert not any(DIGEST.search(line) for line in heard)


@pytest.mark.parametrize("lang", ["en", "it"])
def test_why_leads_with_the_roll_its_chance_and_what_its_rule_says_and_more_says_the_rest(lang):
    """Issue #91: who rolled what and the need, the chance, the rule's statement; the rule's name,
    its section, the book's number and the modifier after, with ``more`` (the need said once)."""
    heard = spoken.why(lang)
    assert heard[:2] == (
        ["Aden Farah's save: 1d6 needing 4+: 2, failed: out of action [table dice]", "Before the roll: 50.0%."]
        if lang == "en"
        else ["tiro salvezza di Aden Farah: 1d6 serve 4+: 2, fallito: fuori combattimento [dadi al tavolo]",
              "Prima del tiro: 50,0%."]
    )  # fmt: skip
    assert heard[2].startswith(
        ("A man saves each hit on his class value", "Salvezza per colpo col valore della classe")
    ) and heard[2].endswith(("a 1 always fails.", "l'1 fallisce."))  # its cite said with its name, after
    assert heard[3] == ("more says 4 more lines." if lang == "en" else "altro dice altre 4 righe.")
    with spoken.demo(lang) as seat:
        spoken.heard_fire(seat)
        seat.say(spoken.WHY[lang])
        said = seat.say(seat.word("more"))
    assert said == (
        [
            "Rule T-13 (§9.0): Infantry saving throws, enforced.",
            "The book's number before the modifiers: 5+.",
            "Modifier: team leader +1 (§9.0).",
            "more says 1 more line.",  # its other rules by name
        ]
        if lang == "en"
        else [
            "Regola T-13 (§9.0): Tiri salvezza della fanteria, applicata.",
            "Il numero del regolamento prima dei modificatori: 5+.",
            "Modificatore: leader della squadra +1 (§9.0).",
            "altro dice ancora 1 riga.",
        ]
    )


@pytest.mark.parametrize("lang", ["en", "it"])
def test_asking_ahead_leads_with_the_need_the_chance_and_the_rule_s_statement_begun(lang):
    """``? fire …``: the roll and its need, its chance alone (the need not said again), and the firing
    table's first clause (the table itself, 25 s aloud, with ``more``)."""
    heard = spoken.ask(lang)
    assert heard[0].endswith(("4d6, needs 5+ per die.", "4d6, serve 5+ per dado."))
    assert heard[1:] == (
        ["Before the roll: 33.3% a die, 80.2% at least one.", "Each die at or over the number hits;",
         "more says 5 more lines."]
        if lang == "en"
        else ["Prima del tiro: 33,3% a dado, 80,2% almeno uno.", "Ogni dado pari o sopra il numero è un colpo;",
              "altro dice altre 4 righe."]
    )  # fmt: skip
    with spoken.demo(lang) as seat:
        seat.say(spoken.ASK[lang])
        assert seat.say(seat.word("more"))[0].startswith(("at 25/50/100/150 cm: AR 3/4/5/6", "a 25/50/100/150 cm: AR"))


def test_more_says_the_rest_of_an_answer_and_nothing_is_lost(game):
    """The answer cut for speech, then said by ``more`` page by page, is every word of the whole
    answer ``verbose on`` gives, in its order (cut after a sentence or a clause, nothing else)."""
    seat = Seat(game, "regulars")
    heard_fire(seat)
    whole = Seat(game, "regulars", verbose=True).say("why")
    first = seat.say("why")
    assert first[-1] == "more says 4 more lines."
    second = seat.say("more")
    assert second[0] == "Rule T-13 (§9.0): Infantry saving throws, enforced."  # the rule's name, after what it says
    assert lines_heard.seconds(second, "en") <= HEARD_S
    said = first[:-1] + second[:-1] + seat.whole("more")
    assert " ".join(said).split() == " ".join(whole).split()
    assert seat.say("more") == ["Nothing more: the last answer was said whole."]
    seat.say("why")
    seat.say("status")
    assert seat.say("more") == ["Nothing more: the last answer was said whole."]  # more goes on with the last answer


def test_another_seat_hears_the_fire_in_full(game):
    # Brief is for a seat's own command: the defender hears the counters that give him his answer.
    irregulars = Seat(game, "irregulars")
    heard_fire(Seat(game))
    assert "Hit by action 1, may still answer it: Aden Farah." in irregulars.out


def test_verbose_brings_back_the_order_the_step_the_faces_and_the_counters(game):
    seat = Seat(game)
    assert seat.say("verbose") == [
        "Brief: a roll is asked in one sentence and its outcome said first; verbose on says it all."
    ]
    assert seat.say("verbose on") == ["Verbose: rolls are asked and said back in full."]
    heard = heard_fire(seat)
    assert heard[0] == "Table dice: Pte Greco's fire with Assault rifle aimed at Aden Farah, 20 cm: 1d6, needs 3+."
    assert any(line.startswith("Its dice, in order: 1. to hit") for line in heard)
    assert "Type 1 die, 1 to 6 (an empty line cancels):" in heard
    assert (
        "1 hit. Pte Greco's fire with Assault rifle aimed at Aden Farah, 20 cm: 1d6 needing 3+: 6 [table dice]."
        in heard
    )
    assert "Action 1 of this activation." in heard and "Bersaglieri fired first." in heard
    assert seat.say("verbose off")[0].startswith("Brief: ")
    seat.say("roll 1d6 target=4")
    assert seat.client.prompt == "Type 1 die: "
    seat.say("")  # cancelled
    assert seat.say("verbose loud") == [
        "Refused: verbose on or verbose off: how much the answers say (verbose alone: which)."
    ]


def test_verbose_in_italian_is_dettagli(game):
    seat = Seat(game, lang="it")
    assert seat.say("dettagli sì") == ["Dettagli: i tiri sono chiesti e riletti per intero."]
    assert seat.client.verbose
    assert seat.say("dettagli no")[0].startswith("In breve: ")
    assert not seat.client.verbose


def test_help_at_the_dice_question_says_the_roll_in_full_and_asks_again(game):
    seat = Seat(game)
    for line in ("next", "next", "table-dice on", "fire rossi noor range=20"):
        seat.say(line)
    said = seat.say("help")
    assert said[0] == "Table dice: Sgt Rossi's fire with Assault rifle aimed at Ahmed Noor, 20 cm: 1d6, needs 3+."
    assert any(line.startswith("Its dice, in order: 1. to hit") for line in said)
    assert said[-1] == "Type the faces, or an empty line to cancel the command."
    assert seat.client.asking and seat.client.prompt == "Type 1 die: "
    assert seat.say("6")[0] == "Ahmed Noor's save: 1d6, needs 5+; chance 33.3%."


def test_verbose_is_remembered_through_the_front_and_holds_when_it_cannot_be(game):
    kept: list[bool] = []
    seat = Seat(game, remember=kept.append)
    seat.say("verbose on")
    seat.say("verbose off")
    assert kept == [True, False]

    def unwritable(on: bool) -> None:
        raise PermissionError(13, "Permission denied")

    seat = Seat(game, remember=unwritable)
    assert seat.say("verbose on") == [
        "The setting is not kept for the next session: [Errno 13] Permission denied.",
        "Verbose: rolls are asked and said back in full.",
    ]
    assert seat.client.verbose


def test_a_command_whose_lines_are_all_counters_still_says_them(tmp_path):
    # Left out only beside the command's outcomes: a command that sets a counter alone is not silent.
    counter = LogLine(
        index=1, cmd=4, text="action 1 of this activation", event=ev.VarSet(key="action", value="1"), undone=False
    )
    said = LogLine(
        index=2, cmd=4, text="Sgt Rossi now fired", event=ev.StatusChanged(unit="rossi", add=("fired",)), undone=False
    )
    others = LogLine(
        index=3, cmd=5, text="action 2 of this activation", event=ev.VarSet(key="action", value="2"), undone=False
    )
    assert answers.brief([counter, said, others], own=4) == [said, others]
    assert answers.brief([counter, others], own=4) == [counter, others]
    assert answers.brief([counter, said], own=0) == [counter, said]


def bassa_intensita_at_the_veterans_fire(path: Path) -> Game:
    """The Bassa Intensità demo at its Veterans' fire, the table's dice on (Cpl Sanna fires)."""
    game = Game.new(path, "bassa-intensita", seed=3)
    game.execute("scenario demo", role=REFEREE)
    game.execute("next dice=5,2", role=REFEREE)
    while game.state.phase == "fire-elite" or not game.state.phase.startswith("fire-"):
        game.execute("next", role=REFEREE)
    game.execute("table-dice on", role=REFEREE)
    return game


@pytest.mark.parametrize("lang", ["en", "it"])
def test_each_morale_check_a_fire_makes_due_is_said_once(tmp_path, lang):
    """Bassa Intensità's brief result said each check twice, as a status ("Yusuf Ali now due a
    morale check, now under fire for morale.") and as its note ("Note: Yusuf Ali must check
    morale: his commander was killed or wounded"): the note, which says why, once."""
    game = bassa_intensita_at_the_veterans_fire(tmp_path / "bi.ft")
    seat = Seat(game, lang=lang)
    seat.say("fire sanna omar range=30" if lang == "en" else "spara sanna omar distanza=30")
    seat.say("2")  # a hit: Omar Haji, who leads his men, wounded (7)
    seat.say("7")  # the damage; then the weapon's second shot
    said = seat.say("10")  # a miss: the command's results
    assert said[:2] == (
        ["Hit: roll damage (A.12), Cpl Sanna.", "Wounded, Omar Haji."]
        if lang == "en"
        else ["Colpito: tirare i danni (A.12), Cpl Sanna.", "Ferito, Omar Haji."]
    )
    marksman = "Said the marksman" if lang == "en" else "Said il tiratore scelto"  # a name in words (#77)
    for name in (marksman, "Yusuf Ali", "Karim Nur", "Tariq Nur", "Omar Haji"):
        about = [line for line in said if name in line and "morale" in line]
        assert len(about) == 1, (name, said)
        assert about[0].endswith(("(M6, A.13.1).", "(M7, A.13.1).")), about  # the one that says why
    game.close()


def linea_di_tiro_sherman_to_fire(path: Path) -> Game:
    """Linea di Tiro's demo, the Sherman activated with two attacks to make, the table's dice on."""
    game = new_game(path, FIRST)
    play(game, "next", "next", "@german activate panzer A1", "next", "next", "next")
    play(game, "@us activate sherman1 A4 prepare=0")
    game.execute("table-dice on", role=REFEREE)
    return game


def test_linea_di_tiro_s_plain_result_leads_with_its_outcome(tmp_path):
    """The Sherman's attacks left and its attacks made came first ("Sherman Easy ora un attacco
    ancora, tolto «due attacchi ancora»", "ora ha tirato una volta"), then the outcome, then
    "Impegno su un segreto di arbitro.": the outcome alone; verbose says the rest, the referee's
    commitment as Italian has it."""
    game = linea_di_tiro_sherman_to_fire(tmp_path / "ldt.ft")
    seat = Seat(game, "us", lang="it")
    seat.say("controcarro easy panzer")
    assert seat.say("6 5") == ["Totale modificato 11, colonna 0: nessun effetto, Sherman Easy."]
    game.undo(role=REFEREE, by="referee")  # the same shot again, verbose
    seat.say("dettagli sì")
    seat.say("controcarro easy panzer")
    said = seat.say("6 5")
    assert any(line.startswith("Totale modificato 11, colonna 0: nessun effetto.") for line in said)
    assert "Sherman Easy ora ha tirato una volta." in said
    assert "Impegno su un segreto dell'arbitro." in said
    game.close()


def test_an_answer_is_cut_after_a_sentence_a_clause_or_a_comma_never_inside_one():
    short = ["Before the roll: 50.0% to roll 4+ on 1d6."]
    assert lines_heard.first_heard(short, "en") == (short, [])  # heard within the budget: as it is
    clauses = "; ".join(f"clause {n} of a statement read at length, with its words" for n in range(12))
    now, rest = lines_heard.first_heard(["The roll. It failed.", clauses], "en", budget=8.0)
    assert now[:2] == ["The roll.", "It failed."]  # a line's sentences, when the whole does not fit
    pieces = now + rest
    assert all(lines_heard.line_seconds(p, "en") <= 8.0 for p in pieces[2:])
    assert " ".join(pieces[2:]) == clauses  # every clause, in order, its mark kept
    assert all(p.endswith(";") for p in pieces[2:-1])
    lead, kept = lines_heard.first_heard(["The roll. It failed.", clauses], "en", budget=8.0, lead=True)
    assert lead == ["The roll.", "It failed.", "clause 0 of a statement read at length, with its words;"]  # begun
    assert " ".join(lead + kept) == " ".join(pieces)  # the same words, the first clause moved into the answer
    assert lines_heard.first_heard(["The roll. It failed.", "No clause in it, a sentence read at length."], "en",
                                   budget=3.0, lead=True)[0] == ["The roll.", "It failed."]  # fmt: skip
    coloured = inked("Failed: out of action. " + clauses, "bad")
    assert lines_heard.first_heard([coloured, "Then this."], "en", budget=8.0) == ([coloured], ["Then this."])


def test_the_estimate_counts_digits_and_signs_above_letters():
    """``25/50/100/150`` is "twenty-five slash fifty slash one hundred…" aloud: the estimate says so."""
    words = lines_heard.line_seconds("at every band of range", "en")
    numbers = lines_heard.line_seconds("at 25/50/100/150 cm", "en")
    assert numbers > words
    assert lines_heard.seconds(["a", "b"], "it") == lines_heard.line_seconds("a", "it") + lines_heard.line_seconds(
        "b", "it"
    )
