"""``confirm`` at the seats of a served table (issue #74, record 5): a player with no key to sign the
result confirms it at his seat, at the plain SSH seat and at the client's (Textual) SSH seat, in this
process and through a seat worker; the line his seat sends names the certificate's digest, the one
``fireteam certify`` gives for the save; before the end and at the referee's seat it is refused."""

from __future__ import annotations

import hashlib

import pytest
from ssh_club import Club, Player, wait_until

from core.league import certificate
from core.log import events as ev
from core.log.views import REFEREE

pytestmark = pytest.mark.server


def said(player: Player) -> str:
    return "".join(player.raw).replace("\r\n", "\n")


async def heard(player: Player, text: str) -> None:
    await wait_until(lambda: text in said(player), show=lambda: said(player))


def confirmations(club: Club) -> dict[str, ev.Confirmed]:
    return {e.side: e for e in club.game.history.timeline() if isinstance(e, ev.Confirmed)}


def end(club: Club) -> None:
    for line in ("next", "end-game"):  # the demo's set-up played as it stands, then a draw at 0 points each
        club.game.execute(line, role=REFEREE)
    assert club.game.state.result


async def test_a_player_confirms_at_the_plain_and_at_the_clients_ssh_seat(club: Club):
    irr = await club.connect("irr", command="plain", env={"NO_COLOR": "1"})
    await heard(irr, "irr (Somali militia)> ")
    rita = await club.connect("rita", command="plain", env={"NO_COLOR": "1"})
    await heard(rita, "rita (referee)> ")
    reg = await club.seated("reg", "reg (Bersaglieri)")
    irr.type("confirm\r")  # before the end: refused, with its rule
    await heard(irr, "a result is confirmed once the game has ended: not yet")
    end(club)
    rita.type("confirm\r")  # the referee confirms for no side
    await heard(rita, "the referee confirms no side's result")
    irr.type("confirm\r")
    await wait_until(lambda: "irregulars" in confirmations(club), show=lambda: said(irr))
    await heard(irr, "Irr confirms the result for Somali militia")  # (a sentence: its first letter up)
    reg.type("confirm\r")  # the client's command line, over SSH
    await wait_until(lambda: "regulars" in confirmations(club), show=reg.text)
    cert, verified = certificate.certify(club.game.path)
    assert verified.ok
    digest = hashlib.sha256(cert.encoded()).hexdigest()
    got = confirmations(club)
    assert {side: (e.name, e.result) for side, e in got.items()} == {
        "irregulars": ("irr", digest),
        "regulars": ("reg", digest),
    }
    assert certificate.confirmed_sides(club.game.path, cert) == ("irregulars", "regulars")
    irr.type("confirm\r")  # once a side
    await heard(irr, "a side confirms once")


@pytest.mark.subprocess  # (the seat worker)
async def test_a_seat_in_a_worker_process_confirms(one_worker_club: Club):
    club = one_worker_club
    irr = await club.connect("irr", command="plain", env={"NO_COLOR": "1"})
    await heard(irr, "irr (Somali militia)> ")
    rita = await club.connect("rita", command="plain", env={"NO_COLOR": "1"})
    await heard(rita, "rita (referee)> ")
    for line in ("next", "end-game"):  # the referee's seat, through the table: every worker's copy follows
        rita.type(line + "\r")
    await heard(rita, "Game over")
    irr.type("confirm\r")
    await wait_until(lambda: "irregulars" in confirmations(club), show=lambda: said(irr))
    cert, _verified = certificate.certify(club.game.path)
    assert confirmations(club)["irregulars"].result == certificate.digest(cert)
