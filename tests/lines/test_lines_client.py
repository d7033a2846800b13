"""The line client (``tui.lines``): every pane one word away, in whole sentences; commands as
the Textual client gives them; undo and redo asked first; the table's dice asked for; what
others do written as it happens, as the role may read it and no more."""

from __future__ import annotations

import shutil
from contextlib import closing

import pytest
from lines_support import DEMO_SAVE, Seat, demo_game, played_game, problems_of

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE, SPECTATOR
from core.secrets.copycheck import compare
from core.secrets.sidecopy import read
from tui.copies import keep_here
from tui.lines.spoken import unhashed
from tui.userdata import UserStore

READING = ["status", "roster", "phase", "log", "log 40", "dice", "help", "help fire", "help log", "who rossi"]


@pytest.fixture
def game(tmp_path):
    """A new demo game (before play), closed after the test."""
    with closing(demo_game(tmp_path / "game.ft")) as game:
        yield game


@pytest.fixture
def seat(game) -> Seat:
    """The referee's line client of that game."""
    return Seat(game)


@pytest.mark.parametrize("role", ["referee", "regulars", "irregulars", SPECTATOR])
def test_every_reading_word_answers_in_whole_sentences(tmp_path, role):
    game = played_game(tmp_path / "game.ft")
    seat = Seat(game, role)
    assert problems_of(seat.out) == []  # the greeting and the status
    for word in READING:
        said = seat.say(word)
        assert said, word
        assert problems_of(said) == [], word
    game.close()


@pytest.mark.parametrize("save", ["bassa-intensita-game", "linea-di-tiro-game", "ludonet-game"])
def test_every_ruleset_answers_in_whole_sentences(tmp_path, save):
    # The recorded game of each other ruleset, played to its end, read by every role.
    shutil.copyfile(DEMO_SAVE.with_name(f"{save}.ft"), tmp_path / "game.ft")
    game = Game.open(tmp_path / "game.ft")
    for role in ["referee", *game.state.sides, SPECTATOR]:
        seat = Seat(game, role)
        assert problems_of(seat.out) == [], role
        for word in [*READING, "log 500"]:
            said = seat.say(word)
            assert said and problems_of(said) == [], (role, word)
    game.close()


def test_a_card_is_read_in_words(tmp_path):
    # Linea di Tiro's cards (8♠) were spelled out by a screen reader ("8 black spade suit").
    shutil.copyfile(DEMO_SAVE.with_name("linea-di-tiro-game.ft"), tmp_path / "game.ft")
    game = Game.open(tmp_path / "game.ft")
    # the shuffle's log line counts the cards (#77); the order is read where the secret is opened
    log = Seat(game).say("log 500")
    assert "The deck is shuffled: 54 cards, their order kept secret until the end (LT-R002)." in log
    opened = Seat(game).say("secrets")
    shuffled = next(line for line in opened if "the deck is shuffled: " in line)
    assert "the deck is shuffled: 6 of clubs, 6 of spades, king of hearts, 3 of hearts," in shuffled
    assert ", Joker, jack of diamonds, " in shuffled
    assert "Card drawn: 8 of spades." in Seat(game).say("status")
    segreti = Seat(game, lang="it").say("segreti")
    assert any("il mazzo è mischiato: 6 di fiori, 6 di picche, re di cuori," in line for line in segreti)
    game.close()


def test_the_reading_words_answer_before_play_too(seat):
    for word in [*READING, "odds fire rossi ahmed range=30", "odds note x"]:
        said = seat.say(word)
        assert said and problems_of(said) == [], (word, said)


def test_status_says_the_most_important_first(tmp_path):
    game = played_game(tmp_path / "game.ft")
    said = Seat(game, "regulars").say("status")
    assert said[0].startswith("Game over: Somali militia won (Bersaglieri 30, Somali militia 20) — Somali militia win")
    assert said[1] == "Turn 6: the game has ended."
    assert "Defeat points: Bersaglieri 30 (casualties 10, first-fire 5, media 15); Somali militia 20." in said
    assert any(line.startswith("You are side Bersaglieri, at Breaking News 1.5.1") for line in said)
    game.close()


def test_the_roster_says_each_figure_state_first(tmp_path):
    game = played_game(tmp_path / "game.ft")
    said = Seat(game, "regulars").say("roster")
    assert "Bersaglieri (regulars): 6 of 7 figures in play; 30 defeat points." in said
    assert "Sgt Rossi, leader: suppressed; Veteran, Assault rifle." in said
    assert "Cpl Bianchi: out of action; Veteran, Light machine gun." in said
    game.close()


def test_the_roster_holds_what_the_role_may_see(game):
    said = Seat(game, "regulars").say("roster")
    # The hidden militiamen are markers on the regulars' table, nothing more.
    assert not any("Dahir Omar" in line or "Egal Yusuf" in line for line in said)
    assert said[-1].startswith("2 hidden markers on the table: ")
    referee = Seat(game).say("roster")
    assert any(line.startswith("Dahir Omar: hidden, under marker ") for line in referee)


def test_log_n_gives_the_last_lines_as_the_log_pane_numbers_them(tmp_path):
    game = played_game(tmp_path / "game.ft")
    seat = Seat(game, "regulars")
    said = seat.say("log 3")
    assert said[0].startswith("The last 3 lines of the log, of ")
    shown = game.log_lines("regulars")[-3:]
    assert len(said) == 4
    for line, log in zip(said[1:], shown, strict=True):  # (said without a digest: tui.lines.spoken)
        assert unhashed(log.text).split(" → ")[0].rstrip(".").lower() in line.lower()
    issued = [line for line in game.log_lines("regulars") if isinstance(line.event, ev.Issued)][-1]
    said = seat.say("log 40")
    assert any(line.startswith(f"#{issued.number} ") for line in said)  # the side's own numbers
    assert seat.say("log 0")[0].startswith("Refused: log N")
    game.close()


def test_a_roll_says_its_outcome_first(tmp_path):
    game = played_game(tmp_path / "game.ft")
    said = Seat(game).say("dice")
    assert said[0] == "Last roll: Points cancelled. #91 Bersaglieri's negotiation, 1d6."
    assert said[1] == "Faces: 1 met."
    assert "Before the roll: 33.3% to roll 2 or less on 1d6." in said
    game.close()


def test_a_note_typed_lands_in_the_save(tmp_path):
    path = tmp_path / "game.ft"
    game = demo_game(path)
    seat = Seat(game, "regulars", seat="bruno")
    said = seat.say("note smoke drifts north")
    assert said == ["Note: smoke drifts north."]  # its own command is not said back (issue #49)
    assert seat.say("log 2")[1] == "#2 bruno: note smoke drifts north."  # the log has it, numbered
    game.close()
    again = Game.open(path, writable=False)
    notes = [e for e in again.history.store.slice(0, again.log_length) if isinstance(e, ev.Noted)]
    assert notes[-1].text == "smoke drifts north"
    assert again.history.issued(again.history.eff_cmds[-1]).by == "bruno"


def test_a_refused_command_says_why_and_records_nothing(game, seat):
    length = game.log_length
    said = seat.say("nxet")
    assert said == ["Refused: no command 'nxet'; did you mean next?"]
    assert game.log_length == length


def test_undo_asks_first_and_does_nothing_on_no(game, seat):
    seat.say("note first")
    said = seat.say("undo")
    assert said[0].startswith("Its lines stay in the log")
    assert seat.client.asking and seat.client.prompt == "Undo #2 note first? y or n: "
    length = game.log_length
    assert seat.say("maybe") == ["Answer y or n."]
    assert seat.say("n") == ["Nothing was undone."]
    assert game.log_length == length and not seat.client.asking
    seat.say("undo")
    said = seat.say("y")
    assert said == ["Referee undid command #2: note first."]
    assert list(game.history.eff_cmds) == [1]
    seat.say("redo")
    assert seat.client.prompt == "Redo #2 note first? y or n: "
    seat.say("y")
    assert list(game.history.eff_cmds) == [1, 2]


def test_a_side_is_not_asked_to_undo_what_is_not_its_own(game):
    seat = Seat(game, "regulars")
    # The game's own check words it (Undoing.undo_refusal), as every seat and the script say it.
    assert seat.say("undo") == ["Refused: the last command is not yours; ask the referee to undo it."]
    assert not seat.client.asking


@pytest.mark.parametrize(
    ("lang", "word", "refusal"),
    [
        ("en", "undo", "Refused: dice were rolled or something was revealed; only the referee can undo that."),
        ("it", "annulla", "Rifiutato: sono stati tirati dadi o rivelato qualcosa; solo l'arbitro può annullarlo."),
    ],
)
def test_a_side_is_refused_an_undo_of_dice_before_it_is_asked(game, lang, word, refusal):
    """Issue #61: a side's undo of its own command that rolled dice asked "y or n" and only
    then said that the referee alone may undo it."""
    seat = Seat(game, "irregulars", lang=lang)
    seat.say("objective-roll")  # the Irregulars' own roll (§4.1)
    length = game.log_length
    (said,) = seat.say(word)
    assert said.startswith(refusal)
    assert not seat.client.asking and game.log_length == length


def test_another_seat_command_drops_the_question(game):
    referee, regulars = Seat(game), Seat(game, "regulars")
    regulars.say("note mine")
    regulars.say("undo")
    assert regulars.client.asking
    referee.say("note the referee's")
    assert regulars.out[-3] == "The question is dropped, the game changed: nothing was undone."
    assert not regulars.client.asking
    (late,) = regulars.say("y")  # a late yes undoes nothing
    assert late.startswith("Refused: no command 'y'; now: objectives, objective-roll, deploy, ")
    assert len(game.history.eff_cmds) == 3


def test_a_change_the_side_cannot_see_says_nothing_and_leaves_its_question(game):
    """Issue #60: the referee's command on a fighter hidden from the regulars, and his undo and
    redo of it, write nothing at the regulars' seat, nor drop the question it is asked (that
    alone would tell it something happened)."""
    referee, regulars = Seat(game), Seat(game, "regulars")
    regulars.say("note mine")
    mine = game.history.last_effective()
    regulars.say("undo")
    assert regulars.client.asking
    heard = len(regulars.out)
    for line in ("mark dahir pinned", "undo", "redo"):
        referee.say(line)
    assert regulars.out[heard:] == [] and regulars.client.asking
    regulars.say("y")
    assert not game.history.is_live(mine) and "dahir" not in " ".join(regulars.out).lower()


def test_table_dice_asks_for_the_faces_and_uses_them(game, seat):
    # The command the catalogue and every screen name (issue #61: plain alone said `dice table`).
    assert seat.say("table-dice on") == [
        "Table dice: you will be asked for the faces of every roll; "
        "at the question, help says the roll in full and an empty line cancels the command.",
        "Table dice on: each player is asked for the faces of his own rolls.",  # the fact, in the log
    ]
    assert seat.say("roll 2d6") == ["Referee's free roll: 2d6."]
    assert seat.client.prompt == "Type 2 dice: "
    assert seat.say("6") == ["Refused: type exactly 2 dice (you typed 1)."]
    assert seat.say("7 1") == ["Refused: a d6 cannot show 7."]
    assert seat.say("6 4") == ["Total 10."]  # its outcome, not the faces just typed
    assert not seat.client.asking
    rolled = [e for e in game.history.group(game.history.eff_cmds[-1]) if isinstance(e, ev.Rolled)]
    assert rolled[0].roll.faces == (6, 4) and rolled[0].roll.manual


def test_a_command_of_several_rolls_says_the_order_of_its_dice_once_and_each_rolls_step(seat):
    seat.say("next")
    assert seat.say("next")[-1] == "Turn 1: activation, Bersaglieri active."  # the seed's initiative
    seat.say("table-dice on")
    assert seat.say("verbose on") == ["Verbose: rolls are asked and said back in full."]
    first = seat.say("fire rossi noor range=20")
    assert first[0] == "Table dice: Sgt Rossi's fire with Assault rifle aimed at Ahmed Noor, 20 cm: 1d6, needs 3+."
    assert first[1] == "Chance before the roll: needs 3+ on 1d6: 66.7%."  # before the roll, not after
    # Only the steps that apply: no one of his side is suppressed, deviation and the wounded rule are off.
    assert first[2] == (
        "Its dice, in order: 1. to hit: the weapon's dice, per target; "
        "2. each hit's save: 1d6 per hit (a vehicle's own save first, then each man aboard)."
    )
    assert first[3:] == ["Now step 1 of 2: to hit: the weapon's dice, per target."]
    assert seat.say("6") == [  # the order not read out again; where it is now, in words
        "Table dice: Ahmed Noor's save: 1d6, needs 5+.",
        "Chance before the roll: needs 5+ on 1d6: 33.3%.",
        "Now step 2 of 2: each hit's save: 1d6 per hit (a vehicle's own save first, then each man aboard).",
    ]
    assert "Saved: suppressed. Ahmed Noor's save: 1d6 needing 5+: 5 [table dice]." in seat.say("5")


def test_the_dice_steps_said_are_those_the_game_now_makes_apply(seat):
    for line in ("option wounded on", "next", "next", "mark bianchi suppressed", "table-dice on", "verbose on"):
        seat.say(line)
    first = seat.say("fire rossi noor range=20")
    (order,) = [line for line in first if line.startswith("Its dice, in order: ")]
    assert order.startswith("Its dice, in order: 1. if suppressed: his suppression test, 1d6; 2. to hit: ")
    assert "3. each hit's save" in order
    assert order.endswith("4. with the wounded rule, each failed save: the wound, 1d6.")
    assert "deviation" not in order  # the option is off


def test_a_roll_of_a_command_of_one_step_says_no_step(game):
    game.execute("table-dice on", role=REFEREE)
    seat = Seat(game, verbose=True)
    said = seat.say("roll 1d6")
    assert said == [
        "Table dice: referee's free roll: 1d6.",
        "Its dice, in order: 1. the roll: the dice named, each judged against target= or under= if given.",
    ]


def test_phase_names_the_verb_that_ends_the_game_as_it_is_typed(game, seat):
    seat.say("next")
    seat.say("next")
    said = seat.say("phase")
    assert said[0] == "Turn 1, Activation phase; rule §5.0, §13.0."
    assert said[-1] == "end-game ends the game."  # a word to type keeps its case
    assert "end-game" not in " ".join(Seat(game, "regulars").say("phase"))  # the referee's alone
    # In Italian, the verb an Italian referee types (#61: not "end-game chiude la partita").
    assert Seat(game, lang="it").say("fase")[-1] == "fine-partita chiude la partita."


def test_an_empty_line_cancels_the_dice(game):
    game.execute("table-dice on", role=REFEREE)
    seat = Seat(game)
    length = game.log_length
    seat.say("roll 1d6")
    assert seat.client.asking
    assert seat.say("") == ["Cancelled: roll 1d6; nothing was recorded."]
    assert game.log_length == length and not seat.client.asking


def test_dice_on_the_line_complete_the_table_dice(game, seat):
    assert seat.say("roll 3d6 dice=5") == ["Referee's free roll: 3d6; 1 typed, 2 more to type."]
    assert seat.client.prompt == "Type 2 dice: "
    seat.say("2 3")
    rolled = [e for e in game.history.group(game.history.eff_cmds[-1]) if isinstance(e, ev.Rolled)]
    assert rolled[0].roll.faces == (5, 2, 3)


def test_what_others_do_is_written_as_the_role_reads_it(game):
    referee, regulars, spectator = Seat(game), Seat(game, "regulars"), Seat(game, SPECTATOR)
    start = game.log_length
    seen = {seat: len(seat.out) for seat in (referee, regulars, spectator)}
    referee.say("note a public note")
    referee.say("mark omar pinned")  # Dahir Omar is hidden: only the referee and his side may see this
    referee.say("mark rossi pinned")
    for seat, role in ((regulars, "regulars"), (spectator, SPECTATOR)):
        news = seat.out[seen[seat] :]
        lines = game.log_lines(role, start, game.log_length)
        assert len(news) == len(lines)  # a line for each line of its log, no more
        assert not any("Omar" in line or "omar" in line for line in news)
        assert "Sgt Rossi now pinned." in news
    assert "Dahir Omar now pinned." in referee.out[seen[referee] :]


def test_a_side_numbers_what_it_sees_by_its_own_count(game):
    referee, regulars = Seat(game), Seat(game, "regulars")
    referee.say("mark omar pinned")  # hidden from the regulars: they count it not
    before = len(regulars.out)
    referee.say("note after the hidden move")
    assert regulars.out[before] == "#2 referee: note after the hidden move."
    assert referee.say("log 2")[1] == "#3 referee: note after the hidden move."


def test_a_reading_word_with_arguments_the_game_has_is_the_game_command(seat):
    listed = seat.say("roster")
    assert listed[0].startswith("Bersaglieri (regulars):")
    said = seat.say("roster nosuchfile regulars")  # Breaking News's roster FILE SIDE
    assert said[0].startswith("Refused:") and "Bersaglieri (regulars)" not in said[0]


def test_the_reading_words_in_italian(tmp_path):
    game = played_game(tmp_path / "game.ft")
    seat = Seat(game, "regulars", lang="it")
    said = seat.say("stato")
    assert said[1].startswith("Turno 6")
    assert seat.say("forze")[0].startswith("Reparto Bersaglieri (regulars):")
    assert seat.say("aiuto")[0] == "Scrivi un comando e premi Invio. Per leggere la partita:"
    assert seat.say("probabilita fire rossi ahmed range=30")  # without its accent too
    assert problems_of(seat.say("registro 5")) == []
    game.close()


def test_quit_leaves_and_stops_following(game):
    referee, regulars = Seat(game), Seat(game, "regulars")
    assert regulars.say("quit") == ["Goodbye: the game is saved as it stands."]
    assert regulars.client.done
    before = len(regulars.out)
    referee.say("note after")
    assert len(regulars.out) == before


def test_what_came_from_outside_is_written_as_text(tmp_path):
    game = demo_game(tmp_path / "x\x1b]0;pwned\x07.ft")
    rossi = game.timeline.state.units["rossi"]
    rossi.name = "Rossi\x1b[2J\u202e"  # as a hostile scenario file could name him
    seat = Seat(game, colour=True)
    said = seat.say("roster") + seat.say("status") + seat.say("who rossi")
    assert not any(ch in line for line in said for ch in "\x07\u202e")
    assert any("Rossi\\x1b[2J\\u202e" in line for line in said)
    assert any("x\\x1b]0;pwned\\x07.ft" in line for line in said)
    # The only escape sequences written are the few colours, and only around the code's own words.
    escapes = {part.split("m", 1)[0] for line in seat.out for part in line.split("\x1b[")[1:]}
    assert escapes <= {"0", "1", "1;31", "1;32"}


def test_colour_only_when_asked(tmp_path):
    game = played_game(tmp_path / "game.ft")
    plain, coloured = Seat(game), Seat(game, colour=True)
    for seat in (plain, coloured):
        seat.say("dice")
        seat.say("nxet")
    assert not any("\x1b" in line for line in plain.out)
    assert "\x1b[1;31mRefused:\x1b[0m no command 'nxet'; did you mean next?" in coloured.out
    assert any(line.startswith("Last roll: \x1b[1;32mPoints cancelled.\x1b[0m") for line in coloured.out)
    game.close()


def test_no_reading_word_hides_a_command_of_any_ruleset_but_breaking_news_roster():
    # A reading word takes the line only when typed whole; a command of the same name
    # with arguments is the game's (Breaking News's roster FILE SIDE, above).
    from core.commands import names
    from core.game.builtins import builtin_commands
    from core.language.reader import reading
    from core.registry import available, get_ruleset
    from tui.lines.words import folded, own_words

    clashes = set()
    for lang in ("en", "it"):
        with reading(lang):
            own = {folded(word) for word in (*own_words(), *own_words().values())}
            for ruleset_id in available():
                ruleset = get_ruleset(ruleset_id)
                if not type(ruleset).__module__.startswith("core.rulesets."):
                    continue  # a test's own ruleset (tests/tui/skirmish.py has a roster too)
                for spec in [*ruleset.commands(), *builtin_commands(ruleset)]:
                    typed = {folded(n) for n in (*names(spec, ruleset.domain), *spec.aliases)}
                    clashes |= {(ruleset_id, spec.name) for word in typed if word in own}
    assert clashes == {("breaking-news", "roster")}


def test_a_read_only_game_refuses_commands_saying_why(tmp_path):
    played_game(tmp_path / "game.ft").close()
    game = Game.open(tmp_path / "game.ft", writable=False)
    why = "read-only, following the game written by process 7 (fireteam game.ft)"
    seat = Seat(game, read_only=why)
    assert seat.say("note from a follower") == [f"Refused: {why}."]  # not "(replay)": it says whose game it is
    assert seat.say("undo") == [f"Refused: {why}."]  # no question asked of what cannot be done
    assert not seat.client.asking
    assert seat.say("status")[0].startswith("Game over:")  # the reading words still answer
    game.close()


def test_the_prompt_names_who_types_as_the_textual_client_does(game):
    assert Seat(game).client.prompt == "referee> "
    assert Seat(game, "regulars").client.prompt == "Bersaglieri> "  # a side by its name, not its id
    assert Seat(game, "irregulars", seat="carla").client.prompt == "carla (Somali militia)> "
    assert Seat(game, SPECTATOR, lang="it").client.prompt == "spettatore> "


def test_a_figures_weapons_and_class_are_said_by_their_names_not_the_tables_codes(game):
    said = Seat(game).say("who rossi")
    assert said[0] == "Sgt Rossi, leader: no status; Veteran, Assault rifle."
    assert "Weapons: Assault rifle." in said
    italian = Seat(game, lang="it").say("who rossi")
    assert "Armi: Fucile d'assalto." in italian


def test_table_dice_is_the_referees_choice_at_every_plain_seat(game):
    """A side may not turn it on or off; once the referee has, the side's own fire asks
    the side for its dice (issue #61)."""
    referee, regulars = Seat(game), Seat(game, "regulars")
    referee.say("next")
    referee.say("next")  # turn 1: the seed's initiative makes the regulars active
    assert regulars.say("table-dice on") == ["Refused: only the referee may table-dice."]
    assert not regulars.client.table_dice
    assert (
        "The referee chooses whether the table's dice are typed, for every seat (table-dice on or table-dice off)."
        in regulars.say("help")
    )
    assert (
        "table-dice on asks for the faces of every roll, at every seat; table-dice off lets the game roll them again."
        in referee.say("help")
    )
    # One name for it: `dice` says the last roll and takes no choice, pointing to the command.
    assert referee.say("dice table") == [
        "Refused: dice alone says the last roll; table-dice on or table-dice off chooses who rolls (the referee)."
    ]
    referee.say("table-dice on")
    assert regulars.client.table_dice and referee.client.table_dice
    assert regulars.say("table-dice off") == ["Refused: only the referee may table-dice."]
    said = regulars.say("fire rossi noor range=20")
    assert said[-1] == "Sgt Rossi's fire with Assault rifle aimed at Ahmed Noor, 20 cm: 1d6, needs 3+; chance 66.7%."
    assert regulars.say("6")[-1] == "Ahmed Noor's save: 1d6, needs 5+; chance 33.3%."
    assert regulars.say("5")[:2] == ["1 hit, Sgt Rossi.", "Saved: suppressed, Ahmed Noor."]
    referee.say("table-dice off")
    assert not regulars.client.table_dice


def test_help_gives_its_examples_in_the_readers_names(game):
    """#61: an Italian reader's help gave `fire rossi ahmed range=30 aimed` as its example."""
    examples = [line for line in Seat(game, lang="it").say("aiuto spara") if line.startswith("Per esempio")]
    assert examples[0] == "Per esempio: spara rossi ahmed distanza=30 mirato."
    assert "For example: fire rossi ahmed range=30 aimed." in Seat(game).say("help fire")


def test_one_die_asked_reads_a_number_of_two_digits_as_one_face(game, seat):
    """A d10's "11" was refused as two faces ("type exactly 1 die (you typed 2)") at a served
    Bassa Intensità table (#61): one die asked, the digits are one number, refused for its face.
    Several dice asked, "64" is still 6 and 4."""
    seat.say("table-dice on")
    seat.say("roll 1d10")
    assert seat.client.prompt == "Type 1 die: "
    assert seat.say("11") == ["Refused: a d10 cannot show 11."]
    assert seat.say("12") == ["Refused: a d10 cannot show 12."]
    seat.say("10")
    seat.say("roll 2d6")
    assert seat.say("64") == ["Total 10."]
    rolled = [
        e.roll.faces for cmd in game.history.eff_cmds[-2:] for e in game.history.group(cmd) if isinstance(e, ev.Rolled)
    ]
    assert rolled == [(10,), (6, 4)]


def test_copy_keeps_the_sides_copy_in_the_data_folder_never_over_another(game, tmp_path):
    """The line client's word for the key of the Textual client's (issue #74): a new file each time."""
    store = UserStore(tmp_path / "config", tmp_path / "state", data=tmp_path / "data")
    seat = Seat(game, "irregulars", keep_copy=lambda: keep_here(game, "irregulars", store)[0])
    (said,) = seat.say("copy")
    (kept,) = store.copies.iterdir()
    assert said == f"Your copy of the game so far is kept in {store.copies}: {kept.name}."
    assert read(kept).role == "irregulars" and compare(game, kept).ok
    italian = Seat(game, "irregulars", lang="it", keep_copy=lambda: keep_here(game, "irregulars", store)[0])
    (again,) = italian.say("copia")
    assert again.startswith(f"La tua copia della partita fin qui è conservata in {store.copies}: ")
    assert len(list(store.copies.iterdir())) == 2  # (the same second's name taken: another, -2)
