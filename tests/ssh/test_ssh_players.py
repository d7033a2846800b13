"""People in the log (issue #74): a roll typed at another seat than its command's records who
typed it (``Rolled.given_by``), and every seat that may see the roll is told so, over real SSH."""

from __future__ import annotations

import pytest
from ssh_club import Club, Player, served_table, wait_until

from core.log import events as ev
from core.log.state import TABLE_DICE
from core.log.views import REFEREE

pytestmark = pytest.mark.server

FIRE = "fire rossi noor range=20"  # the Bersaglieri's Sgt Rossi at the militia's Ahmed Noor
GIVEN = "gave Ahmed Noor's save: 1d6 needing 5+: 4 [table dice]."


def said(player: Player) -> str:
    return "".join(player.raw).replace("\r\n", "\n")


async def heard(player: Player, text: str) -> None:
    await wait_until(lambda: text in said(player), show=lambda: said(player))


async def plain(club: Club, seat: str, prompt: str) -> Player:
    player = await club.connect(seat, command="plain", env={"NO_COLOR": "1"})
    await heard(player, prompt)
    return player


async def fired_and_asked(club: Club) -> Player:
    """Table dice on; the Bersaglieri's plain seat fires and types its 6 (a hit): the militia's
    save is held for the militia's seat."""
    for line in ("next", "next", f"{TABLE_DICE} on"):  # the Bersaglieri active
        club.game.execute(line, role=REFEREE)
    reg = await plain(club, "reg", "reg (Bersaglieri)> ")
    reg.type(FIRE + "\r")
    await heard(reg, "Type 1 die: ")
    reg.type("6\r")
    await wait_until(lambda: club.game.awaiting.held is not None and club.game.awaiting.held.asked == "irregulars")
    return reg


def the_save(club: Club) -> ev.Rolled:
    group = club.game.history.group(club.game.history.eff_cmds[-1])
    return [e for e in group if isinstance(e, ev.Rolled)][-1]


async def test_the_referees_typed_faces_are_recorded_and_said_at_the_asked_seat(club: Club):
    irr = await plain(club, "irr", "irr (Somali militia)> ")
    rita = await plain(club, "rita", "rita (referee)> ")
    reg = await fired_and_asked(club)
    await heard(irr, "Type 1 die: ")  # asked, and silent: the referee gives it
    await heard(rita, "Type its faces to give them yourself")
    length = club.game.log_length
    rita.type("4\r")  # fails (needs 5+)
    await wait_until(lambda: club.game.awaiting.held is None and club.game.log_length > length, show=lambda: said(rita))
    save = the_save(club)
    assert (save.roll.faces, save.roll.manual, save.given_by) == ((4,), True, "rita")
    await heard(irr, f"Failed: out of action. Rita {GIVEN}")  # the asked seat is told who gave it
    await heard(reg, f"Failed: out of action. Rita {GIVEN}")  # and so is the firer, whose command it was
    logged = "rita gave Ahmed Noor's save: 1d6 needing 5+: 4 → failed: out of action [table dice]"
    assert logged in [line.text for line in club.game.log_lines("irregulars")]  # every log's line too


async def test_a_partner_seats_answer_is_said_at_the_other_seat_of_the_side(tmp_path, caplog):
    roles = {"rita": "referee", "reg": "regulars", "irr": "irregulars", "irr2": "irregulars"}
    async with served_table(tmp_path, caplog, roles=roles) as club:
        irr = await plain(club, "irr", "irr (Somali militia)> ")
        irr2 = await plain(club, "irr2", "irr2 (Somali militia)> ")
        await fired_and_asked(club)
        await heard(irr2, "Type 1 die: ")
        length = club.game.log_length
        irr2.type("4\r")
        await wait_until(
            lambda: club.game.awaiting.held is None and club.game.log_length > length, show=lambda: said(irr2)
        )
        assert the_save(club).given_by == "irr2"
        await heard(irr, f"Failed: out of action. Irr2 {GIVEN}")


async def test_a_seat_bound_to_a_key_writes_who_sits_for_its_side_once(club: Club):
    """Sat down before any roll of its side: the militia's seat writes its player and his key's
    fingerprint in the log, a public fact every seat reads; sitting again writes nothing more."""
    irr = await plain(club, "irr", "irr (Somali militia)> ")
    fingerprint = club.keys["irr"].get_fingerprint("sha256")
    assert [(s.side, s.name, s.key, s.via) for s in club.game.reading.players()] == [
        ("irregulars", "irr", fingerprint, "key")
    ]
    assert not any(isinstance(e, ev.Rolled) and e.side == "irregulars" for e in club.game.history.timeline())
    line = f"irr sits for Somali militia, by the SSH key {fingerprint}"
    assert line in [x.text for x in club.game.log_lines("regulars")]
    await irr.close()
    length = club.game.log_length
    await plain(club, "irr", "irr (Somali militia)> ")
    assert club.game.log_length == length and len(club.game.reading.players()) == 1
    rita = await plain(club, "rita", "rita (referee)> ")  # the referee's seat is no side's player
    assert len(club.game.reading.players()) == 1 and "rita" in said(rita)
