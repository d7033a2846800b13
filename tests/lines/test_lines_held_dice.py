"""The referee's plain seat and a roll held for another seat (issue #61): the asked seat may
stay and never answer, so the referee keeping the books types its faces himself, or
withdraws the command with a word; given these faces, this outcome."""

from __future__ import annotations

from lines_support import Seat

from core.game import Game
from core.state import TABLE_DICE
from core.views import REFEREE

FIRE = "fire conti bashir range=40"  # the regulars' Pte Conti at the irregulars' Bashir Ali
SAVE = "Bashir Ali's save: 1d6, needs 5+"


def seated_table(tmp_path) -> tuple[Game, Seat, Seat, Seat]:
    game = Game.new(tmp_path / "g.ft", "breaking-news", seed=3)
    for line in ("scenario demo", "next dice=3", "next dice=6,6,1,1", f"{TABLE_DICE} on"):  # regulars active
        game.execute(line, role=REFEREE)
    game.seated = lambda: {"regulars", "irregulars", REFEREE}
    firer, defender = Seat(game, "regulars", seat="anna"), Seat(game, "irregulars", seat="bea")
    return game, firer, defender, Seat(game, REFEREE, seat="rita")


def fire_held(game: Game, firer: Seat, referee: Seat) -> list[str]:
    """The firer's hit (needs 4+, §8.0): the save held for the defender; what the referee is told."""
    told = len(referee.out)
    firer.say(FIRE)
    firer.say("6")
    assert game.awaiting is not None and game.awaiting.asked == "irregulars"
    return referee.out[told:]


def test_the_referees_faces_answer_a_roll_asked_of_a_seated_side(tmp_path):
    game, firer, defender, referee = seated_table(tmp_path)
    told = fire_held(game, firer, referee)
    assert told[-1] == (
        f"Waiting for Somali militia's dice: {SAVE}. Type its faces to give them yourself, or cancel to withdraw it."
    )
    assert referee.say("1 2") == ["Refused: type exactly 1 die (you typed 2)."] and game.awaiting is not None
    length = game.log_length
    referee.say("4")  # the save fails (needs 5+)
    assert game.awaiting is None and game.log_length > length and game.state.units["bashir"].out
    assert game.history.issued(game.history.next_cmd - 1).by == "anna"  # the firer's command still
    assert defender.say("4")[0].startswith("Refused:")  # asked no more: his faces are no command
    game.close()


def test_the_referees_word_withdraws_it(tmp_path):
    game, firer, defender, referee = seated_table(tmp_path)
    fire_held(game, firer, referee)
    length = game.log_length
    assert referee.say("cancel") == [f"Refused: cancelled: {FIRE} (nothing was recorded)."]
    assert game.awaiting is None and game.log_length == length
    assert firer.out[-1] == f"Refused: cancelled: {FIRE} (nothing was recorded)."
    game.close()


def test_a_sides_faces_are_no_answer_to_anothers_roll(tmp_path):
    game, firer, defender, referee = seated_table(tmp_path)
    fire_held(game, firer, referee)
    assert firer.say("4")[0].startswith("Refused:") and game.awaiting is not None
    assert firer.out[-1] != "" and game.awaiting.faces == [6]
    game.close()


def test_a_tied_melee_asks_the_attackers_plain_seat_again_after_the_defenders(tmp_path):
    """§11.0, both again on a tie: the attacker's roll again is asked at his own plain seat."""
    game, firer, defender, referee = seated_table(tmp_path)
    firer.say("melee conti bashir")
    firer.say("3")  # 3 + 3 = 6
    asked = len(firer.out)
    assert defender.say("4") == ["Waiting for Bersaglieri's dice."]  # 4 + 2 = 6: a tie; not his roll to see
    # asked as his own, after the roll it answers: the defender's, which tied
    assert firer.out[asked:] == ["Total 6, Bashir Ali. Pte Conti's melee again: 1d6 (Pte Conti melee +3)."]
    firer.say("5")  # 5 + 3 = 8
    assert game.awaiting is not None and game.awaiting.asked == "irregulars"
    defender.say("1")  # 1 + 2 = 3
    assert game.awaiting is None and game.state.units["bashir"].out
    game.close()


def test_the_defenders_save_is_asked_with_the_hit_that_makes_it(tmp_path):
    """Held for the defender's seat, the save was asked with no word of what hit him (the hit
    was said only after the save): the hit's outcome and whose first, as the results say it."""
    game, firer, defender, referee = seated_table(tmp_path)
    asked = len(defender.out)
    fire_held(game, firer, referee)
    assert defender.out[asked:] == [f"1 hit, Pte Conti. {SAVE}; chance 33.3%."]
    assert firer.out[-1] == f"Waiting for Somali militia's dice: {SAVE}."  # his own hit: said with the result
    game.close()


def test_the_defenders_save_in_italian_names_the_hit_too(tmp_path):
    game, firer, _defender, referee = seated_table(tmp_path)
    defender = Seat(game, "irregulars", seat="bea", lang="it")
    asked = len(defender.out)
    fire_held(game, firer, referee)
    assert defender.out[asked:] == [
        "1 colpo, Pte Conti. Tiro salvezza di Bashir Ali: 1d6, serve 5+; probabilità 33,3%."
    ]
    game.close()
