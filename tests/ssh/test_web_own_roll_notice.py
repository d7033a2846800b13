"""Browser seats, over their websocket, while a player types his own dice (issue #77): the terminal
page's screen and the plain page's answers say whose dice are awaited, and stop saying it when the
command is withdrawn at its prompt."""

from __future__ import annotations

import pytest
from ssh_club import wait_until
from test_web_door import invited, plain_seat
from web_club import WebClub

from core.log.state import TABLE_DICE

pytestmark = [pytest.mark.server, pytest.mark.subprocess]

FIRE = "fire rossi noor range=20"  # the Bersaglieri's Sgt Rossi at the militia's Ahmed Noor, needs 3+ (§8.0)


async def test_a_browsers_screen_and_plain_page_say_whose_dice(web: WebClub):
    for line in ("next", "next", f"{TABLE_DICE} on"):  # the Bersaglieri active
        web.game.execute(line, role="referee")
    token, _ = web.invitations.create("rita")
    async with await invited(web, "irr") as screen, await plain_seat(web, token) as page:
        await screen.wait_for("irr (Somali militia)")
        await page.wait_for("The game at this table is called table.")
        reg = await web.club.seated("reg", "reg (Bersaglieri)")
        told = len(page.answers)
        await reg.gives(FIRE, "Sgt Rossi's fire")
        await screen.wait_for("waiting for Bersaglieri's dice")
        await page.wait_for("Waiting for Bersaglieri's dice.\n")
        reg.type("\x1b")  # withdrawn at its prompt
        await wait_until(lambda: "waiting for Bersaglieri's dice" not in screen.text(), show=screen.text)
        await page.wait_for("No longer waiting for dice: nothing was recorded.\n")
        assert page.answers[told:] == (  # one line each, nothing else
            "Waiting for Bersaglieri's dice.\nNo longer waiting for dice: nothing was recorded.\n"
        )
