"""Table dice at a served table (issue #61): a roll is asked at its owner's own seat.

A command whose next roll is another seated side's is held at the table, one per table,
until that seat (or the referee) gives its faces; every seat is told whose dice are
awaited; given these faces, this outcome."""

from __future__ import annotations

from core.game import Game
from core.language.reader import reading
from core.log.outcome import DiceNeeded, Held, Outcome, Refusal
from core.log.state import TABLE_DICE
from core.log.views import REFEREE, SPECTATOR

FIRE = "fire conti bashir range=40"  # the regulars' Pte Conti at the irregulars' Bashir Ali
SAVE = "Bashir Ali's save: 1d6, needs 5+"


def served(tmp_path, seated: set[str]) -> tuple[Game, list[str]]:
    g = Game.new(tmp_path / "g.ft", "breaking-news", seed=3)
    for line in ("scenario demo", "next dice=3", "next dice=6,6,1,1", f"{TABLE_DICE} on"):  # regulars active
        g.execute(line, role=REFEREE)
    g.seated = lambda: seated
    told: list[str] = []
    g.awaiting.subscribe(lambda: told.append(g.awaiting.said("regulars")))
    return g, told


def test_the_defenders_save_is_asked_at_the_defenders_seat(tmp_path):
    g, told = served(tmp_path, {"regulars", "irregulars", REFEREE})
    to_hit = g.submit(FIRE, role="regulars", by="anna", faces=[])
    assert isinstance(to_hit, DiceNeeded) and g.awaiting.held is None  # the firer's own roll: asked at his seat
    held = g.submit(FIRE, role="regulars", by="anna", faces=[6])  # a hit (needs 4+, §8.0)
    assert isinstance(held, Held) and held.awaited == g.awaiting.held
    assert (g.awaiting.held.asked, g.awaiting.held.request.text(), g.awaiting.held.faces) == ("irregulars", SAVE, [6])
    assert told == [f"waiting for Somali militia's dice: {SAVE}"]
    assert g.awaiting.said(REFEREE) == g.awaiting.said("irregulars") == told[0]
    assert g.awaiting.said("spectator") == "waiting for Somali militia's dice"  # not the roll
    # One command at a time: any other, and undo, is refused naming whose dice are awaited.
    refused = g.submit("note hello", role=REFEREE)
    assert isinstance(refused, Refusal) and refused.why == told[0]
    assert isinstance(g.submit("undo", role="irregulars"), Refusal)
    # Only the asked seat (or the referee) gives them; the firer may not.
    assert isinstance(g.answer_held(role="regulars", by="anna", faces=[1]), Refusal) and g.awaiting.held is not None
    length = g.log_length
    done = g.answer_held(role="irregulars", by="bea", faces=[4])  # the save fails (needs 5+)
    assert isinstance(done, Outcome) and g.awaiting.held is None and told[-1] == ""
    assert g.state.units["bashir"].out and g.log_length > length
    assert g.history.issued(done.cmd).by == "anna"  # the firer's command, his name on it
    g.close()


def test_the_referee_is_asked_when_the_defender_has_no_seat(tmp_path):
    g, told = served(tmp_path, {"regulars", REFEREE})
    g.submit(FIRE, role="regulars", faces=[])
    held = g.submit(FIRE, role="regulars", faces=[6])
    assert isinstance(held, Held) and held.awaited.asked == REFEREE
    assert told == [f"waiting for the referee to give Somali militia's dice: {SAVE}"]
    done = g.answer_held(role=REFEREE, faces=[5])  # the save holds (needs 5+)
    assert isinstance(done, Outcome) and not g.state.units["bashir"].out
    g.close()


def test_with_no_seat_to_ask_the_submitter_types_every_roll(tmp_path):
    g, told = served(tmp_path, {"regulars"})
    g.submit(FIRE, role="regulars", faces=[])
    save = g.submit(FIRE, role="regulars", faces=[6])
    assert isinstance(save, DiceNeeded) and save.request.text() == SAVE and g.awaiting.held is None and not told
    g.close()


def test_a_local_game_never_holds(tmp_path):
    g, told = served(tmp_path, set())
    g.seated = None  # one person at one screen
    assert isinstance(g.submit(FIRE, role="regulars", faces=[6]), DiceNeeded) and g.awaiting.held is None
    g.close()


def test_the_submitter_or_the_referee_withdraws_it(tmp_path):
    g, told = served(tmp_path, {"regulars", "irregulars"})
    g.submit(FIRE, role="regulars", faces=[6])
    length = g.log_length
    assert isinstance(g.answer_held(role="irregulars"), Refusal) and g.awaiting.held is not None  # not the defender
    withdrawn = g.answer_held(role="regulars")
    assert isinstance(withdrawn, Refusal) and withdrawn.why == f"cancelled: {FIRE} (nothing was recorded)"
    assert g.awaiting.held is None and g.log_length == length and told[-1] == ""
    assert isinstance(g.submit("note again", role="regulars"), Outcome)  # the table goes on
    g.close()


def test_a_seat_that_leaves_is_answered_for(tmp_path):
    seated = {"regulars", "irregulars", REFEREE}
    g, told = served(tmp_path, seated)
    g.submit(FIRE, role="regulars", faces=[6])
    assert g.awaiting.held.asked == "irregulars"
    seated.discard("irregulars")  # the defender's seat left mid-prompt: the referee answers
    g.seats_changed()
    assert (
        g.awaiting.held.asked == REFEREE
        and told[-1] == f"waiting for the referee to give Somali militia's dice: {SAVE}"
    )
    seated.discard(REFEREE)  # and the referee too: the firer types it, as at one screen
    g.seats_changed()
    assert g.awaiting.held.asked == "regulars"
    assert isinstance(g.answer_held(role="regulars", faces=[6]), Outcome)  # the save holds
    assert not g.state.units["bashir"].out
    g.close()


def test_a_command_whose_player_left_is_withdrawn(tmp_path):
    seated = {"regulars", "irregulars"}
    g, told = served(tmp_path, seated)
    g.submit(FIRE, role="regulars", faces=[6])
    length = g.log_length
    seated.discard("regulars")
    g.seats_changed()
    assert g.awaiting.held is None and told[-1] == "" and g.log_length == length
    g.close()


def test_why_a_held_command_was_dropped_is_kept_for_its_submitters_seat(tmp_path):
    """A held command that ends unrecorded (its answer refused by the rules, or withdrawn by
    the referee) leaves why, for the seat that gave it: it must learn its command was dropped."""
    g, told = served(tmp_path, {"regulars", "irregulars", REFEREE})
    g.submit(FIRE, role="regulars", by="anna", faces=[6])
    length = g.log_length
    refused = g.answer_held(role="irregulars", by="bea", faces=[7])  # no d6 shows a 7
    assert isinstance(refused, Refusal) and g.awaiting.held is None and g.log_length == length
    assert g.awaiting.dropped == refused and (refused.role, refused.by) == ("regulars", "anna")
    g.submit(FIRE, role="regulars", by="anna", faces=[6])  # held again: nothing dropped now
    assert g.awaiting.dropped is None
    withdrawn = g.answer_held(role=REFEREE, by="rita")
    assert g.awaiting.dropped == withdrawn and withdrawn.why == f"cancelled: {FIRE} (nothing was recorded)"
    g.close()


def test_after_the_defenders_roll_the_attackers_next_goes_back_to_his_seat(tmp_path):
    """A melee tied (§11.0: both again on a tie) goes back and forth: the attacker's roll again
    is asked at the attacker's seat, then the defender's again at the defender's; these faces."""
    g, told = served(tmp_path, {"regulars", "irregulars", REFEREE})
    melee = "melee conti bashir"  # Pte Conti (melee +3) at Bashir Ali (melee +2)
    assert isinstance(g.submit(melee, role="regulars", by="anna", faces=[]), DiceNeeded)  # his own, at his seat
    assert isinstance(g.submit(melee, role="regulars", by="anna", faces=[3]), Held)  # 3 + 3 = 6
    assert g.awaiting.held.asked == "irregulars"
    assert isinstance(g.answer_held(role="irregulars", by="bea", faces=[4]), Held)  # 4 + 2 = 6: a tie
    assert (g.awaiting.held.asked, g.awaiting.held.request.text(), g.awaiting.held.faces) == (
        "regulars",
        "Pte Conti's melee again: 1d6 (Pte Conti melee +3)",
        [3, 4],
    )
    assert isinstance(g.answer_held(role="irregulars", by="bea", faces=[6]), Refusal)  # not the defender's roll
    assert isinstance(g.answer_held(role="regulars", by="anna", faces=[5]), Held)  # 5 + 3 = 8
    assert (g.awaiting.held.asked, g.awaiting.held.faces) == ("irregulars", [3, 4, 5])
    done = g.answer_held(role="irregulars", by="bea", faces=[1])  # 1 + 2 = 3: the attacker wins
    assert isinstance(done, Outcome) and g.awaiting.held is None and g.state.units["bashir"].out
    g.close()


def test_a_command_held_from_an_italian_seat_goes_on_at_an_english_one(tmp_path):
    """Found at a served table (#61): an Italian seat's ``spara`` held for an English defender's
    save was refused as "no command 'spara'" when his faces came, the firer's roll thrown away:
    the command is held as it is recorded, in English, whoever's language goes on with it."""
    g, told = served(tmp_path, {"regulars", "irregulars"})
    with reading("it"):
        held = g.submit("spara conti bashir distanza=40", role="regulars", by="pia", faces=[6])
    assert isinstance(held, Held) and g.awaiting.held.text == FIRE
    with reading("en"):
        done = g.answer_held(role="irregulars", by="fon", faces=[4])  # the save fails (needs 5+)
    assert isinstance(done, Outcome) and g.state.units["bashir"].out
    g.close()


def test_an_italian_seat_is_told_whose_dice_by_the_sides_italian_name(tmp_path):
    """Found at a served table (#61): the Italian seats read "in attesa dei dadi di Somali
    militia" while their roster said Milizia somala."""
    g, told = served(tmp_path, {"regulars", "irregulars"})
    assert isinstance(g.submit(FIRE, role="regulars", faces=[6]), Held)
    with reading("it"):
        said = g.awaiting.said("spectator")
    assert said == "in attesa dei dadi di Milizia somala"
    g.close()


def test_an_italian_seat_is_asked_a_sides_roll_by_the_sides_italian_name(tmp_path):
    """Found at a served table (#61): the Italian paras' seat was asked "Lancio per il primo
    giocatore di 7th Parachute Battalion: 1d6" while its roster said 7° Battaglione paracadutisti."""
    g = Game.new(tmp_path / "g.ft", "ludonet", seed=3)
    for line in ("scenario demo", f"{TABLE_DICE} on"):
        g.execute(line, role=REFEREE)
    g.seated = lambda: {"paras", "garrison", REFEREE}
    assert isinstance(g.submit("next", role=REFEREE, faces=[]), Held)  # the first player roll (LN-R002)
    with reading("it"):
        said = g.awaiting.said("paras")
    assert said == (
        "in attesa dei dadi di 7° Battaglione paracadutisti: "
        "lancio per il primo giocatore di 7° Battaglione paracadutisti: 1d6"
    )
    g.close()


def test_a_held_roll_hidden_from_a_side_says_nothing_to_it(tmp_path):
    """Found at a served table: the referee's ``objectives irregulars random`` draws the militia's
    markers for their eyes only (rulings BN-OBJ-RANDOM), held for their seat's dice; the regulars'
    seat and the spectators were told "waiting for Somali militia's dice".  A seat that may not see
    a roll hears nothing of it being awaited (as for a roll typed at its own seat, ``Rolling.said``);
    the referee and the militia hear it as before."""
    g = Game.new(tmp_path / "g.ft", "breaking-news", seed=3)
    for line in ("scenario demo", f"{TABLE_DICE} on"):  # still deploying
        g.execute(line, role=REFEREE)
    g.seated = lambda: {"regulars", "irregulars", REFEREE}
    told: list[str] = []
    g.awaiting.subscribe(lambda: told.append(g.awaiting.said("regulars")))
    held = g.submit("objectives irregulars random", role=REFEREE, by="rita", faces=[])
    assert isinstance(held, Held) and g.awaiting.held.asked == "irregulars"
    assert g.awaiting.said("regulars") == g.awaiting.said(SPECTATOR) == "" and told == [""]
    said = "waiting for Somali militia's dice: Somali militia's main objective: 1d5"
    assert g.awaiting.said(REFEREE) == g.awaiting.said("irregulars") == said  # as before
    # Given a command while it is held, the others learn only that the table is busy: not whose dice.
    busy = g.submit("note hello", role="regulars", by="anna")
    assert (
        isinstance(busy, Refusal) and busy.why == "the table is busy with another command; give yours again in a moment"
    )
    assert g.submit("note hello", role=REFEREE, by="rita").why == said
    # Nor may they give its faces, nor withdraw it: for them nothing is awaited.
    for answered in (g.answer_held(role="regulars", by="anna", faces=[2]), g.answer_held(role="regulars", by="anna")):
        assert isinstance(answered, Refusal) and (answered.text, answered.why) == ("", "no command is waiting for dice")
    assert g.awaiting.held is not None and g.awaiting.held.vis == ("irregulars",)
    g.close()
