"""A plain seat names a built-in scenario and its sides in its reader's language (#61)."""

from __future__ import annotations

from contextlib import closing

from lines_support import Seat, demo_game


def test_the_plain_seat_says_the_demos_title_and_sides_in_italian(tmp_path):
    with closing(demo_game(tmp_path / "new.ft")) as game:
        italian = Seat(game, lang="it")
        assert any("scenario Posto di blocco ad Afgooye;" in line for line in italian.out)
        assert "Milizia somala (irregulars): 8 di 8 figure in gioco." in italian.say("forze")
        english = Seat(game, lang="en")
        assert any("scenario Checkpoint at Afgooye;" in line for line in english.out)
        assert "Somali militia (irregulars): 8 of 8 figures in play." in english.say("roster")
