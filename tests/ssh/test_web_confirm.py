"""``confirm`` at the browser's seats (issue #74, record 5): the terminal page and the plain page each send
the line their seat adds the certificate's digest to, as the SSH seats do; the referee's end first."""

from __future__ import annotations

import pytest
from ssh_club import WAIT_S, wait_until
from test_web_door import invited, plain_seat

from core.league import certificate
from core.log import events as ev
from core.log.views import REFEREE

pytestmark = pytest.mark.server


def confirmations(web) -> dict[str, ev.Confirmed]:
    return {e.side: e for e in web.game.history.timeline() if isinstance(e, ev.Confirmed)}


async def test_the_terminal_and_the_plain_pages_confirm(web):
    async with await invited(web, "reg") as browser:
        await browser.wait_for("reg (Bersaglieri)", "as Bersaglieri")
        token, _ = web.invitations.create("irr")
        plain = await plain_seat(web, token)
        try:
            await wait_until(lambda: ["prompt", "irr (Somali militia)>"] in plain.told, WAIT_S, lambda: str(plain.told))
            await plain.line("confirm")  # before the end: refused, with its rule
            await plain.wait_for("a result is confirmed once the game has ended")
            for line in ("next", "end-game"):
                web.game.execute(line, role=REFEREE)
            await browser.command("confirm")
            await wait_until(lambda: "regulars" in confirmations(web), WAIT_S, browser.text)
            await plain.line("confirm")
            await wait_until(lambda: "irregulars" in confirmations(web), WAIT_S, lambda: plain.answers)
            await plain.wait_for("confirms the result for Somali militia")
        finally:
            await plain.close()
    cert, _verified = certificate.certify(web.game.path)
    got = confirmations(web)
    assert {e.result for e in got.values()} == {certificate.digest(cert)}
    assert certificate.confirmed_sides(web.game.path, cert) == ("irregulars", "regulars")
