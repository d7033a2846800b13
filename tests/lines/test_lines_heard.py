"""What the line client says, as a screen reader reads it aloud (issue #49): the result of a game
first, its commitments in one sentence, no echo of one's own command, no folder in ``status``,
statuses and team lines in words, Italian in Italian."""

from __future__ import annotations

import shutil
from pathlib import Path

from lines_support import Seat, played_game

from core.game import Game

SAVES = Path(__file__).resolve().parents[2] / "saves"
LDT_RESULT = "result us two half-squads hold the far bank and the rearguard is destroyed"


def the_end_again(seat: Seat, command: str) -> list[str]:
    """Undo the game's last command, then give it again: the answer to the game's end."""
    seat.say("undo")
    seat.say("y")
    return seat.say(command)


def test_breaking_news_end_says_the_result_first_and_its_fourteen_commitments_in_one_sentence(tmp_path):
    game = played_game(tmp_path / "demo.ft")
    seat = Seat(game)
    said = the_end_again(seat, "next")
    assert said[0].startswith("Game over: Somali militia win")
    assert said[-1] == "All 14 secrets opened at the end match their commitments; secrets reads them."
    assert not any("matches its commitment" in line for line in said)
    assert not any(line.startswith("#") for line in said)  # the command typed, not said back
    opened = seat.say("secrets")
    assert opened[0] == "16 secrets opened, in the log's order:"  # two of them during the game
    assert len(opened) == 17 and all("(matches its commitment " in line for line in opened[1:])
    game.close()


def test_linea_di_tiro_end_says_the_result_before_the_deck(tmp_path):
    shutil.copyfile(SAVES / "linea-di-tiro-game.ft", tmp_path / "ldt.ft")
    game = Game.open(tmp_path / "ldt.ft")
    seat = Seat(game)
    said = the_end_again(seat, LDT_RESULT)
    assert said[0].startswith("Game over: US 30th Infantry win")
    assert not any("of spades" in line for line in said)  # the shuffled deck: on request
    assert said[-1] == "All 9 secrets opened at the end match their commitments; secrets reads them."
    assert any("the deck is shuffled: 6 of clubs, 6 of spades" in line for line in seat.say("secrets"))
    game.close()


def test_a_commitment_that_does_not_match_is_said_in_full(tmp_path, monkeypatch):
    from tui.lines import answers

    game = played_game(tmp_path / "demo.ft")
    seat = Seat(game)
    monkeypatch.setattr(answers, "matches", lambda e: e.key != "objective.die")
    said = the_end_again(seat, "next")
    assert said[0].startswith("Game over:")
    wrong = said.index("1 of 14 secrets opened at the end do NOT match their commitments:")
    assert "secret objective die" in said[wrong + 1]
    game.close()


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
