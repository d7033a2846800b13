"""``rule? WORDS`` at a plain seat (``tui.lines``; the SSH and browser plain seats are this
client): a rules question answered in whole sentences, in the seat's language, the rule ids
first, nothing given; ``?`` offered when the question names a piece the seat can see; the
rules' silence said as such (issue #76)."""

from __future__ import annotations

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
    assert said[0] == "The rules that answer it, the likeliest first:"
    assert said[1].startswith("SUP-"), said
    assert all(line.endswith(".") for line in said[1:]) and problems_of(said) == []
    assert game.log_length == before


def test_an_italian_seat_asks_in_italian_and_is_answered_in_italian(game):
    said = Seat(game, "regulars", lang="it").say("regola? un uomo soppresso può sparare?")
    assert said[0] == "Le regole che rispondono, la più probabile prima:"
    assert said[1].startswith(("SUP-2 (§10.0, applicata): ", "SUP-3 (§10.0, applicata): ")), said
    assert "soppress" in said[1]


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
    assert Seat(game, "regulars", lang=lang).say(question) == [
        ("The rules do not say: " if lang == "en" else "Le regole non lo dicono: ") + said
    ]


def test_a_question_naming_a_piece_the_seat_sees_is_offered_the_dry_run(game):
    said = Seat(game, "regulars").say("rule? can rossi fire at a hidden man?")
    assert said[-1] == "To see what a command would take, without giving it: ? COMMAND rossi (e.g. ? fire rossi)."
    # a hidden militiaman is no piece of the regulars' table: named, he is not offered
    hidden = Seat(game, "regulars").say("rule? can dahir fire?")
    assert not hidden[-1].startswith("To see what a command would take")
    assert Seat(game).say("rule? can dahir fire?")[-1].startswith("To see what a command would take")


def test_rule_alone_says_how_to_ask(game):
    said = Seat(game, "regulars").say("rule?")
    assert any("rule? WORDS: a rules question" in line for line in said), said
