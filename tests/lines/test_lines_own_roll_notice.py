"""Plain seats while a player types his own dice at a served table with table dice (issue #77):
every other seat that may see the roll hears whose dice are awaited, once; hears that they are
awaited no more if the command is withdrawn; and a side that may not see the roll hears nothing."""

from __future__ import annotations

from lines_support import Seat

from core.game import Game
from core.log.state import TABLE_DICE
from core.log.views import REFEREE, SPECTATOR

FIRE = "fire conti bashir range=40"  # the Bersaglieri's Pte Conti at the militia's Bashir Ali, needs 4+ (§8.0)
WAITING = "Waiting for Bersaglieri's dice."


def table(tmp_path, *, deployment: bool = False) -> tuple[Game, Seat, Seat, Seat, Seat, Seat]:
    """The firer (anna), his partner at the Bersaglieri (carlo), the militia (bea), the referee (rita)
    and a spectator (sam), each at a plain seat; the Bersaglieri active, or still deploying."""
    game = Game.new(tmp_path / "g.ft", "breaking-news", seed=3)
    lines = ("scenario demo",) if deployment else ("scenario demo", "next dice=3", "next dice=6,6,1,1")
    for line in (*lines, f"{TABLE_DICE} on"):
        game.execute(line, role=REFEREE)
    game.seated = lambda: {"regulars", "irregulars", REFEREE}
    return (
        game,
        Seat(game, "regulars", seat="anna"),
        Seat(game, "regulars", seat="carlo"),
        Seat(game, "irregulars", seat="bea"),
        Seat(game, REFEREE, seat="rita"),
        Seat(game, SPECTATOR, seat="sam"),
    )


def test_the_other_seats_hear_whose_dice_once_while_he_types_his_own(tmp_path):
    game, anna, carlo, bea, rita, sam = table(tmp_path)
    before = {seat: len(seat.out) for seat in (carlo, bea, rita, sam)}
    assert anna.say(FIRE) == [
        "Pte Conti's fire with Assault rifle aimed at Bashir Ali, 40 cm: 1d6, needs 4+; chance 50.0%."
    ]
    assert WAITING not in anna.out  # his own prompt asks him
    for seat, n in before.items():
        assert seat.out[n:] == [WAITING], seat.client.role
    length = game.log_length
    assert anna.say("3")  # a miss (needs 4+): the dice came, the command recorded
    assert game.log_length > length
    for seat, n in before.items():
        assert seat.out.count(WAITING) == 1 and not [line for line in seat.out[n:] if line.startswith("No longer")]
    game.close()


def test_a_command_withdrawn_at_its_prompt_is_awaited_no_more(tmp_path):
    game, anna, carlo, bea, rita, sam = table(tmp_path)
    anna.say(FIRE)
    told = len(bea.out)
    assert anna.say("") == [f"Cancelled: {FIRE}; nothing was recorded."]
    assert bea.out[told:] == rita.out[-1:] == ["No longer waiting for dice: nothing was recorded."]
    assert game.rolling.rolls == ()
    game.close()


def test_in_italian(tmp_path):
    game, anna, _carlo, _bea, _rita, _sam = table(tmp_path)
    bea = Seat(game, "irregulars", seat="bea", lang="it")
    told = len(bea.out)
    anna.say(FIRE)
    anna.say("")
    assert bea.out[told:] == [
        "In attesa dei dadi di Reparto Bersaglieri.",
        "Non più in attesa di dadi: non è stato registrato nulla.",
    ]
    game.close()


def test_a_roll_hidden_from_a_side_says_not_a_byte_to_it(tmp_path):
    """A/B: ``objectives regulars random`` draws the Bersaglieri's markers for their eyes only (rulings
    BN-OBJ-RANDOM); its roll at anna's prompt is told to the referee and her partner, and to the
    militia and the spectator nothing at all, as with no command given (an open roll is told them)."""
    hidden = table(tmp_path / "hidden", deployment=True)
    quiet = table(tmp_path / "quiet", deployment=True)
    for game, anna, carlo, bea, rita, sam in (hidden, quiet):
        before = {seat: len(seat.out) for seat in (carlo, bea, rita, sam)}
        if game is hidden[0]:
            assert anna.say("objectives regulars random")[-1].startswith("Bersaglieri's main objective")
            assert game.rolling.rolls != ()
            assert carlo.out[before[carlo] :] == rita.out[before[rita] :] == [WAITING]
        assert bea.out[before[bea] :] == sam.out[before[sam] :] == []
        game.close()
