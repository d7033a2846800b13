"""``rule? WORDS`` at a plain seat (``tui.lines``; the SSH and browser plain seats are this
client): a rules question answered in whole sentences, in the seat's language, nothing given:
what the rule says first, then the rule by id and name (issue #91); ``?`` offered when the
question names a piece the seat can see; the rules' silence said as such, with the ruling that
decides and the nearest rules as pointers (issues #76, #91)."""

from __future__ import annotations

import re
from contextlib import closing

import pytest
from lines_support import Seat, demo_game, problems_of

from core.log.views import SPECTATOR


@pytest.fixture
def game(tmp_path):
    with closing(demo_game(tmp_path / "game.ft")) as game:
        yield game


@pytest.mark.parametrize("role", ["referee", "regulars", SPECTATOR])
def test_a_rules_question_is_answered_with_its_rules_and_nothing_given(game, role):
    before = game.log_length
    said = Seat(game, role).say("rule? how does a suppressed man recover from suppression?")
    first = re.search(r" Rule (SUP-\d) \((§[\d.]+)\): ", said[0])
    assert first, said  # the lead: what a rule of suppression says, then its id, its cite, name and status
    rule = game.ruleset.rules_map().get(first.group(1))
    said_first = rule.says.removesuffix(f" ({first.group(2)}).")  # its cite with its name, not before
    ruled = f" Ruling {rule.ruling} (docs/rulings.md)." if rule.ruling else ""  # the ruling Fireteam reads it by
    assert said[0] == f"{said_first}. Rule {rule.id} ({first.group(2)}): {rule.title.rstrip('.…')}, enforced.{ruled}"
    assert said[1].startswith("Also: ") and all(line.endswith(".") for line in said) and problems_of(said) == []
    assert game.log_length == before


def test_an_italian_seat_asks_in_italian_and_is_answered_in_italian(game):
    said = Seat(game, "regulars", lang="it").whole("regola? un uomo soppresso può sparare?")
    first = re.match(r"Regola (SUP-[23]) \((§[\d.]+)\): ", said[1])  # (a plain seat says a sentence a line)
    assert first, said
    rule = game.ruleset.rules_map().get(first.group(1))
    assert said[0] == rule.says_it.removesuffix(f" ({first.group(2)}).") + "."  # its cite with its name, not before
    assert said[1].endswith(f"{rule.title_it.rstrip('.…')}, applicata.")
    assert said[2] == f"Decisione {rule.ruling} (docs/rulings.md)."  # the ruling Fireteam reads it by
    assert said[3].startswith("Anche: ")


def test_the_rules_silence_is_said_and_nothing_guessed(game):
    said = Seat(game, "regulars").say("rule? what does flibbertigibbet mean?")
    assert said == ["The rules do not say: nothing in the rules of Breaking News matches that well enough."]


@pytest.mark.parametrize(
    ("lang", "question", "said"),
    [
        ("en", "rule? does rain change anything when we shoot?", "the rules of Breaking News have nothing on weather."),
        ("it", "regola? se piove cambia qualcosa?", "le regole di Breaking News non trattano l'argomento: meteo."),
    ],
)
def test_what_the_book_has_nothing_on_is_named_in_the_seats_language(game, lang, question, said):
    answer = Seat(game, "regulars", lang=lang).say(question)
    assert answer[0] == ("The rules do not say: " if lang == "en" else "Le regole non lo dicono: ") + said
    assert answer[1:] == [] or answer[1].startswith(("Nearest: ", "Le più vicine: ")), answer


@pytest.mark.parametrize(
    ("lang", "question", "topic"),
    [
        ("it", "rule? does rain change anything when we shoot?", "meteo"),
        ("en", "rule? se piove cambia qualcosa?", "weather"),
    ],
)
def test_a_silent_topic_is_named_in_the_readers_language_not_the_questions(game, lang, question, topic):
    """Issue #90, point 10: an Italian reader who asks in English hears the topic in Italian, and an
    English reader who asks in Italian hears it in English."""
    assert Seat(game, "regulars", lang=lang).say(question)[0].endswith(f" {topic}.")


def test_where_the_book_is_silent_and_fireteam_rules_the_ruling_is_named_and_the_rule_only_pointed_to(game):
    said = Seat(game, "regulars").say("rule? what if both sides end the game with equal defeat points?")
    assert said[:1] == [
        "The rules do not say; Fireteam's ruling BN-VIC-DRAW: Equal defeat points at the final count are a "
        "draw: the book names only the loser, the side with the most.",
    ]
    assert said[1].startswith("Nearest: VIC-2, At the end, the side with the most DP loses")
    italian = Seat(game, "regulars", lang="it").say("regola? se alla fine i punti sconfitta sono pari, chi vince?")
    assert italian[0].startswith("Le regole non lo dicono; decisione di Fireteam BN-VIC-DRAW: Punti sconfitta pari")
    assert italian[1].startswith("Le più vicine: VIC-2, Alla fine perde chi ha più punti sconfitta")


def test_fog_which_the_book_is_silent_on_is_not_answered_with_the_sighting_rule_but_pointed_to_it(game):
    said = Seat(game, "regulars").say("rule? does fog change the roll to sight a hidden man?")
    assert said[0] == "The rules do not say: the rules of Breaking News have nothing on fog and mist."
    assert said[1].startswith("Nearest: SPOT-") and len(said) == 2


def test_a_question_naming_a_piece_the_seat_sees_is_offered_the_dry_run(game):
    said = Seat(game, "regulars").whole("rule? can rossi fire at a hidden man?")
    assert said[-1] == "To see what a command would take, without giving it: ? COMMAND rossi (e.g. ? fire rossi)."
    # a hidden militiaman is no piece of the regulars' table: named, he is not offered
    hidden = Seat(game, "regulars").whole("rule? can dahir fire?")
    assert not hidden[-1].startswith("To see what a command would take")
    assert Seat(game).whole("rule? can dahir fire?")[-1].startswith("To see what a command would take")


def test_rule_alone_says_how_to_ask(game):
    said = Seat(game, "regulars").say("rule?")
    assert any("rule? WORDS: a rules question" in line for line in said), said
