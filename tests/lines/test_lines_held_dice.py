"""The referee's plain seat and a roll held for another seat (issue #61): the asked seat may
stay and never answer, so the referee keeping the books types its faces himself, or
withdraws the command with a word; given these faces, this outcome."""

from __future__ import annotations

import msgspec
import pytest
from lines_support import Seat
from playing import play

from core.dice.faces import NeedDice
from core.game import Game
from core.game.asking import answered
from core.language.reader import reading
from core.log import events as ev
from core.log.state import TABLE_DICE
from core.log.views import REFEREE
from tui.lines import answers

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
    assert game.awaiting.held is not None and game.awaiting.held.asked == "irregulars"
    return referee.out[told:]


def test_the_referees_faces_answer_a_roll_asked_of_a_seated_side(tmp_path):
    game, firer, defender, referee = seated_table(tmp_path)
    told = fire_held(game, firer, referee)
    assert told[-1] == (
        f"Waiting for Somali militia's dice: {SAVE}. Type its faces to give them yourself, or cancel to withdraw it."
    )
    assert referee.say("1 2") == ["Refused: type exactly 1 die (you typed 2)."] and game.awaiting.held is not None
    length = game.log_length
    referee.say("4")  # the save fails (needs 5+)
    assert game.awaiting.held is None and game.log_length > length and game.state.units["bashir"].out
    assert game.history.issued(game.history.next_cmd - 1).by == "anna"  # the firer's command still
    assert defender.say("4")[0].startswith("Refused:")  # asked no more: his faces are no command
    game.close()


def test_the_referees_word_withdraws_it(tmp_path):
    game, firer, defender, referee = seated_table(tmp_path)
    fire_held(game, firer, referee)
    length = game.log_length
    assert referee.say("cancel") == [f"Refused: cancelled: {FIRE} (nothing was recorded)."]
    assert game.awaiting.held is None and game.log_length == length
    assert firer.out[-1] == f"Refused: cancelled: {FIRE} (nothing was recorded)."
    game.close()


def test_a_sides_faces_are_no_answer_to_anothers_roll(tmp_path):
    game, firer, defender, referee = seated_table(tmp_path)
    fire_held(game, firer, referee)
    assert firer.say("4")[0].startswith("Refused:") and game.awaiting.held is not None
    assert firer.out[-1] != "" and game.awaiting.held.faces == [6]
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
    assert game.awaiting.held is not None and game.awaiting.held.asked == "irregulars"
    defender.say("1")  # 1 + 2 = 3
    assert game.awaiting.held is None and game.state.units["bashir"].out
    game.close()


def test_the_defenders_save_is_asked_with_the_hit_that_makes_it(tmp_path):
    """Held for the defender's seat, the save was asked with no word of what hit him (the hit
    was said only after the save): the hit's outcome and whose first, as the results say it."""
    game, firer, defender, referee = seated_table(tmp_path)
    asked = len(defender.out)
    fire_held(game, firer, referee)
    # (whose dice, while the firer typed his own: issue #77)
    assert defender.out[asked:] == ["Waiting for Bersaglieri's dice.", f"1 hit, Pte Conti. {SAVE}; chance 33.3%."]
    assert firer.out[-1] == f"Waiting for Somali militia's dice: {SAVE}."  # his own hit: said with the result
    game.close()


def test_the_defenders_save_in_italian_names_the_hit_too(tmp_path):
    game, firer, _defender, referee = seated_table(tmp_path)
    defender = Seat(game, "irregulars", seat="bea", lang="it")
    asked = len(defender.out)
    fire_held(game, firer, referee)
    assert defender.out[asked:] == [
        "In attesa dei dadi di Reparto Bersaglieri.",
        "1 colpo, Pte Conti. Tiro salvezza di Bashir Ali: 1d6, serve 5+; probabilità 33,3%.",
    ]
    game.close()


def test_a_save_of_a_man_the_firer_cannot_see_is_an_unseen_units_in_both_languages(tmp_path):
    """Speculative fire at a hidden man's marker (§8.6): the save is his, and the firer, who
    may not see him, is asked it as an unseen unit's, in his own language (#61)."""
    game, _firer, _defender, _referee = seated_table(tmp_path)
    game.execute("mark bashir hidden", role=REFEREE)
    marker = game.state.units["bashir"].marker
    for lang, save in (
        ("en", "An unseen unit's save: 1d6, needs 3+; chance 66.7%."),
        ("it", "Tiro salvezza di un'unità non vista: 1d6, serve 3+; probabilità 66,7%."),
    ):
        firer = Seat(game, "regulars", seat="anna", lang=lang)
        firer.say(f"speculative conti {marker} range=40")
        assert firer.say("6") == [save]  # hit (needs 4+): the hidden man's save
        assert firer.say("cancel" if lang == "en" else "annulla")[0].startswith(("Refused", "Rifiutato"))
        assert game.awaiting.held is None
    game.close()


def test_a_hit_by_a_firer_the_defender_cannot_see_does_not_name_him(tmp_path):
    """The hit a held save answers, by a firer the defender's side may not see (the roll shown
    him, the firer hidden since): "1 hit." and no name, in English and Italian (#61)."""
    game, firer, _defender, referee = seated_table(tmp_path)
    fire_held(game, firer, referee)
    request = game.awaiting.held.request
    assert referee.say("cancel")[0].startswith("Refused: cancelled")
    (hit,) = (e for e in play(game, f"{FIRE} dice=6,6") if isinstance(e, ev.Rolled) and e.unit == "conti")
    need = NeedDice(request, unit="bashir")
    assert answered(game.state, [hit], need, "irregulars") == (hit.roll.outcome, "Pte Conti", hit.roll.purpose)
    game.execute("mark conti hidden", role=REFEREE)
    assert answered(game.state, [hit], need, "irregulars") == (hit.roll.outcome, "", "")  # the hit said, not whose
    unnamed = msgspec.structs.replace(request, answered_by="")
    assert answers.table_dice(unnamed, first=True, verbose=False, held=True) == [f"1 hit. {SAVE}; chance 33.3%."]
    with reading("it"):
        assert answers.table_dice(unnamed, first=True, verbose=False, held=True) == [
            "1 colpo. Tiro salvezza di Bashir Ali: 1d6, serve 5+; probabilità 33,3%."
        ]
    game.close()


@pytest.mark.parametrize(
    ("lang", "asked"),
    [
        ("en", "Pte Deiana's damage: 1d10 (shot by a sniper +1)."),
        ("it", "Danni di Pte Deiana: 1d10 (colpito da un cecchino +1)."),
    ],
)
def test_a_hidden_snipers_hit_is_asked_of_its_target_without_a_word_of_him(tmp_path, lang, asked):
    """Bassa Intensità's hidden marksman (BI-R210) hits, unseen: the target's seat is asked its
    damage die with neither the hit nor the sniper's name, in English and Italian (#61)."""
    game = Game.new(tmp_path / "bi.ft", "bassa-intensita", seed=11)
    game.execute("scenario demo", role=REFEREE)
    play(game, "next dice=5,2", *["next"] * 6, f"{TABLE_DICE} on")
    assert game.state.phase == "fire-regular"
    game.seated = lambda: {"folgore", "militia", REFEREE}
    sniper, target = Seat(game, "militia", seat="anna"), Seat(game, "folgore", seat="bea", lang=lang)
    told = len(target.out)
    sniper.say("fire said deiana range=50")
    sniper.say("2")  # he risks the shot: 2 or less for a Regular
    sniper.say("3")  # and hits: 3 or less
    assert game.awaiting.held is not None and game.awaiting.held.asked == "folgore"
    assert target.out[told:] == [asked]
    game.close()


def test_a_seat_sharing_a_side_is_told_the_faces_its_partner_gave_and_asked_no_more(tmp_path):
    """Issue #77: two plain seats of the militia are both asked its save; bruno types it.  Bea was asked
    again ("Type 1 die:") for a roll already answered, then took her next line for its faces' answer; she
    is told what was given, before what it did, and is back at her own prompt, her next line a command."""
    game, firer, bea, referee = seated_table(tmp_path)
    bruno = Seat(game, "irregulars", seat="bruno")
    fire_held(game, firer, referee)
    assert bea.client.prompt == bruno.client.prompt == "Type 1 die: "
    told = len(bea.out)
    assert bruno.say("4")  # the save fails (needs 5+)
    assert game.awaiting.held is None and game.state.units["bashir"].out
    heard = bea.out[told:]
    assert heard[0] == "Given by bruno: 4."
    assert "Bashir Ali out of action: killed by Bersaglieri." in heard[1:]  # what they did, after whose they were
    assert bea.client.prompt == "bea (Somali militia)> "
    length = game.log_length
    assert bea.say('note "pull back"') == ["Note: pull back."]  # a command again, not faces
    assert game.log_length > length
    assert not [line for line in bruno.out if line.startswith("Given by")]  # he typed them
    game.close()


def test_a_seat_sharing_a_side_asked_a_roll_its_partner_gave_is_asked_the_next_one(tmp_path):
    """The command goes on to another roll of the same side: the partner's faces said, the next asked anew."""
    game, firer, bea, referee = seated_table(tmp_path)
    bruno = Seat(game, "regulars", seat="bruno")
    firer.say("melee conti bashir")
    firer.say("3")  # 3 + 3 = 6
    assert game.awaiting.held is not None and game.awaiting.held.asked == "irregulars"
    bea.say("4")  # 4 + 2 = 6: a tie (§11.0), both again: the attacker's asked at both regulars' seats
    held = game.awaiting.held
    assert held is not None and held.asked == "regulars"
    assert firer.client.prompt == bruno.client.prompt == "Type 1 die: "
    told = len(firer.out)
    bruno.say("5")  # 5 + 3 = 8
    assert firer.out[told] == "Given by bruno: 5."
    assert game.awaiting.held is not None and game.awaiting.held.asked == "irregulars"  # the defender's again
    assert firer.client.prompt == "anna (Bersaglieri)> "
    game.close()


def test_a_held_roll_hidden_from_a_side_says_nothing_at_its_plain_seat(tmp_path):
    """The referee's ``objectives irregulars random`` (the militia's markers, for their eyes only:
    rulings BN-OBJ-RANDOM) held for the militia's die: the Bersaglieri's plain seat hears nothing of
    it, and a command it gives meanwhile is refused saying only that the table is busy."""
    game = Game.new(tmp_path / "g.ft", "breaking-news", seed=3)
    for line in ("scenario demo", f"{TABLE_DICE} on"):  # still deploying
        game.execute(line, role=REFEREE)
    game.seated = lambda: {"regulars", "irregulars", REFEREE}
    anna, bea, rita = (
        Seat(game, "regulars", seat="anna"),
        Seat(game, "irregulars", seat="bea"),
        Seat(game, REFEREE, seat="rita"),
    )
    told = len(anna.out)
    rita.say("objectives irregulars random")
    assert game.awaiting.held is not None and game.awaiting.held.asked == "irregulars"
    assert rita.out[-1].startswith("Waiting for Somali militia's dice: Somali militia's main objective: 1d5.")
    assert bea.out[-1] == "Somali militia's main objective: 1d5."
    assert anna.out[told:] == []
    assert anna.say("note hello") == ["Refused: the table is busy with another command; give yours again in a moment."]
    game.close()
