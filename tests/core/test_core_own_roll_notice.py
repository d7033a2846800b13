"""A roll asked at its own seat at a served table with table dice (issue #77): the other seats
that may see the roll are told whose dice are awaited, until the dice come, the command is
withdrawn at its prompt, or the seat leaves; a roll hidden from a side says nothing to it."""

from __future__ import annotations

from core.game import Game
from core.language.reader import reading
from core.log.outcome import DiceNeeded, Held, Outcome, Refusal
from core.log.state import TABLE_DICE
from core.log.views import REFEREE, SPECTATOR

FIRE = "fire conti bashir range=40"  # the Bersaglieri's Pte Conti at the militia's Bashir Ali, needs 4+ (§8.0)
WAITING = "waiting for Bersaglieri's dice"


def served(tmp_path, seated: set[str], *, deployment: bool = False) -> tuple[Game, list[str]]:
    """Breaking News' demo at a served table with table dice, the Bersaglieri active (or still
    deploying); ``told`` gathers what the militia's seat is told each time the notice changes."""
    g = Game.new(tmp_path / "g.ft", "breaking-news", seed=3)
    lines = ("scenario demo",) if deployment else ("scenario demo", "next dice=3", "next dice=6,6,1,1")
    for line in (*lines, f"{TABLE_DICE} on"):
        g.execute(line, role=REFEREE)
    g.seated = lambda: seated
    told: list[str] = []
    g.rolling.subscribe(lambda: told.append(g.rolling.said("irregulars", "bea")))
    return g, told


def test_every_other_seat_is_told_whose_dice_while_a_player_rolls_his_own(tmp_path):
    g, told = served(tmp_path, {"regulars", "irregulars", REFEREE})
    asked = g.submit(FIRE, role="regulars", by="anna", faces=[])
    assert isinstance(asked, DiceNeeded) and g.awaiting.held is None  # asked at his own seat: nothing held
    assert told == [WAITING]
    assert g.rolling.said(REFEREE, "rita") == g.rolling.said(SPECTATOR, "sam") == WAITING  # a roll all may see
    assert g.rolling.said("regulars", "carlo") == WAITING  # a partner's seat of his side too
    assert g.rolling.said("regulars", "anna") == ""  # not his own seat: its prompt asks him
    assert isinstance(g.submit("note meanwhile", role=REFEREE, by="rita"), Outcome)  # nothing is held
    assert told == [WAITING]
    done = g.submit(FIRE, role="regulars", by="anna", faces=[3])  # a miss (needs 4+): the dice came
    assert isinstance(done, Outcome) and told == [WAITING, ""] and g.rolling.rolls == ()
    g.close()


def test_it_clears_when_the_roll_goes_on_at_another_seat(tmp_path):
    """A hit: the defender's save is held at his seat, told as held rolls are (``Awaiting.said``)."""
    g, told = served(tmp_path, {"regulars", "irregulars", REFEREE})
    g.submit(FIRE, role="regulars", by="anna", faces=[])
    assert isinstance(g.submit(FIRE, role="regulars", by="anna", faces=[6]), Held)
    assert told == [WAITING, ""] and g.awaiting.said("irregulars").startswith("waiting for Somali militia's dice")
    g.close()


def test_it_clears_when_the_command_is_withdrawn_at_its_prompt(tmp_path):
    g, told = served(tmp_path, {"regulars", "irregulars", REFEREE})
    g.submit(FIRE, role="regulars", by="anna", faces=[])
    length = g.log_length
    g.unasked("bea")  # another seat's name: not its prompt
    assert told == [WAITING]
    g.unasked("anna")
    assert told == [WAITING, ""] and g.log_length == length
    g.close()


def test_it_clears_when_the_command_is_refused(tmp_path):
    g, told = served(tmp_path, {"regulars", "irregulars", REFEREE})
    g.submit(FIRE, role="regulars", by="anna", faces=[])
    refused = g.submit(FIRE, role="regulars", by="anna", faces=[7])  # no d6 shows a 7
    assert isinstance(refused, Refusal) and told == [WAITING, ""]
    g.close()


def test_it_clears_when_the_seat_leaves(tmp_path):
    seated = {"regulars", "irregulars", REFEREE}
    g, told = served(tmp_path, seated)
    g.submit(FIRE, role="regulars", by="anna", faces=[])
    seated.discard("irregulars")
    g.seats_changed()
    assert told == [WAITING]  # another's leaving changes nothing
    seated.discard("regulars")
    g.seats_changed()
    assert told == [WAITING, ""]
    g.close()


def test_a_roll_hidden_from_a_side_says_nothing_to_it(tmp_path):
    """``objectives regulars random`` draws the Bersaglieri's markers for their eyes only (rulings
    BN-OBJ-RANDOM): the militia and the spectators are told nothing, not even that dice are awaited."""
    g, told = served(tmp_path, {"regulars", "irregulars", REFEREE}, deployment=True)
    asked = g.submit("objectives regulars random", role="regulars", by="anna", faces=[])
    assert isinstance(asked, DiceNeeded) and asked.vis == ("regulars",)
    assert g.rolling.said(REFEREE, "rita") == g.rolling.said("regulars", "carlo") == WAITING
    assert told == [""]  # the militia's seat: told of a change, but nothing to say
    assert g.rolling.said("irregulars", "bea") == g.rolling.said(SPECTATOR, "sam") == ""
    g.close()


def test_the_referee_typing_a_sides_roll_is_awaited_as_the_referee(tmp_path):
    """No seat of the Bersaglieri: the referee's fire for them asks their dice at his own seat."""
    g, told = served(tmp_path, {"irregulars", REFEREE})
    assert isinstance(g.submit(FIRE, role=REFEREE, by="rita", faces=[]), DiceNeeded)
    assert told == ["waiting for the referee's dice"]
    with reading("it"):
        assert g.rolling.said("irregulars", "bea") == "in attesa dei dadi dell'arbitro"
    g.close()


def test_an_italian_seat_reads_the_side_by_its_italian_name(tmp_path):
    g, told = served(tmp_path, {"regulars", "irregulars"})
    g.submit(FIRE, role="regulars", by="anna", faces=[])
    with reading("it"):
        assert g.rolling.said("irregulars", "bea") == "in attesa dei dadi di Reparto Bersaglieri"
    g.close()


def test_a_local_game_tells_nothing(tmp_path):
    g, told = served(tmp_path, set())
    g.seated = None  # one person at one screen
    assert isinstance(g.submit(FIRE, role="regulars", faces=[]), DiceNeeded)
    assert g.rolling.rolls == () and told == []
    g.close()
