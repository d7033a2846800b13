"""While a player types his own dice at a served table with table dice (issue #77), every other
seat that may see the roll is told whose dice are awaited, until they come or the command is
withdrawn: SSH screens (seats in the server's process and in seat workers), plain seats, a
spectator's screen; a roll hidden from a side sends its seat not a byte."""

from __future__ import annotations

import pytest
from ssh_club import Club, Player, wait_until

from core.log.state import TABLE_DICE, table_dice

FIRE = "fire rossi noor range=20"  # the Bersaglieri's Sgt Rossi at the militia's Ahmed Noor, needs 3+ (§8.0)
WAITING = "waiting for Bersaglieri's dice"
PLAIN = {"command": "plain", "env": {"NO_COLOR": "1"}}


def said(player: Player) -> str:
    return "".join(player.raw).replace("\r\n", "\n")


async def heard(player: Player, text: str) -> None:
    await wait_until(lambda: text in said(player), show=lambda: said(player))


async def told_then_withdrawn(club: Club) -> None:
    """The Bersaglieri's seat gives its fire and withdraws it at its prompt (Esc), then gives it again
    and types a miss: the militia's, the referee's and the spectator's screens say whose dice, each time
    until they come or the command is withdrawn."""
    reg = await club.seated("reg", "reg (Bersaglieri)")
    others = [await club.seated("irr", "irr ("), await club.seated("rita", "rita (referee)")]
    others.append(await club.seated("spec", "Watching"))
    await reg.gives(FIRE, "Sgt Rossi's fire")
    for other in others:
        await other.wait_for(WAITING)
    assert WAITING not in reg.text()  # his own prompt asks him
    reg.type("\x1b")  # withdrawn at its prompt
    for other in others:
        await wait_until(lambda other=other: WAITING not in other.text(), show=other.text)
    await reg.gives(FIRE, "Sgt Rossi's fire")
    for other in others:
        await other.wait_for(WAITING)
    length = club.game.log_length
    reg.type("1\r")  # a miss (needs 3+): the dice came
    await wait_until(lambda: club.game.log_length > length, show=reg.text)
    for other in others:
        await wait_until(lambda other=other: WAITING not in other.text(), show=other.text)


@pytest.mark.server
async def test_every_other_screen_says_whose_dice(club: Club):
    for line in ("next", "next", f"{TABLE_DICE} on"):  # the Bersaglieri active
        club.game.execute(line, role="referee")
    await told_then_withdrawn(club)


@pytest.mark.server
@pytest.mark.subprocess
async def test_every_other_screen_says_whose_dice_in_seat_workers(workers_club: Club):
    """The seats in seat worker processes: the table's game tells every worker (``wire.Rolling``), and
    the Esc at a seat in a worker reaches the table (``wire.Unasked``)."""
    rita = await workers_club.seated("rita", "rita (referee)")
    for line in ("next", "next", f"{TABLE_DICE} on"):  # given where the workers see it
        rita.command(line)
    await wait_until(lambda: table_dice(workers_club.game.state), show=rita.text)
    await told_then_withdrawn(workers_club)
    assert workers_club.game.rolling.rolls == ()


@pytest.mark.server
async def test_plain_seats_hear_whose_dice_once_and_that_they_are_awaited_no_more(club: Club):
    for line in ("next", "next", f"{TABLE_DICE} on"):
        club.game.execute(line, role="referee")
    reg, irr = await club.connect("reg", **PLAIN), await club.connect("irr", **PLAIN)
    await heard(reg, "reg (Bersaglieri)> ")
    await heard(irr, "irr (Somali militia)> ")
    told = len(said(irr))
    reg.type(FIRE + "\r")
    await heard(irr, "Waiting for Bersaglieri's dice.\n")
    reg.type("\r")  # an empty line withdraws his own command
    await heard(irr, "No longer waiting for dice: nothing was recorded.\n")
    await wait_until(lambda: said(irr).endswith("> "), show=lambda: said(irr))
    assert said(irr)[told:] == (  # one line each, and its prompt again
        "\nWaiting for Bersaglieri's dice.\nirr (Somali militia)> "
        "\nNo longer waiting for dice: nothing was recorded.\nirr (Somali militia)> "
    )
    assert "Waiting for" not in said(reg)


@pytest.mark.server
@pytest.mark.parametrize("drawn", [True, False], ids=["hidden roll asked", "no roll asked"])
async def test_a_roll_hidden_from_a_side_sends_its_plain_seat_not_a_byte(club: Club, drawn: bool):
    """A/B: ``objectives regulars random`` draws the Bersaglieri's markers for their eyes only (rulings
    BN-OBJ-RANDOM).  Asked at their seat and withdrawn, or never given: the referee's seat hears of it
    or not, the militia's seat hears the same bytes either way (the referee's note after, and nothing else)."""
    club.game.execute(f"{TABLE_DICE} on", role="referee")  # still deploying
    reg, irr, rita = [await club.connect(seat, **PLAIN) for seat in ("reg", "irr", "rita")]
    await heard(reg, "reg (Bersaglieri)> ")
    await heard(irr, "irr (Somali militia)> ")
    await heard(rita, "rita (referee)> ")
    before = len(said(irr))
    if drawn:
        reg.type("objectives regulars random\r")
        await heard(reg, "Bersaglieri's main objective")
        await heard(rita, "Waiting for Bersaglieri's dice.\n")
        reg.type("\r")
        await heard(rita, "No longer waiting for dice: nothing was recorded.\n")
    rita.type('note "dusk falls"\r')
    await heard(irr, "dusk falls")
    await wait_until(lambda: said(irr).endswith("> "), show=lambda: said(irr))
    assert said(irr)[before:] == '\n#5 rita: note "dusk falls".\nNote: dusk falls.\nirr (Somali militia)> '
