"""A side's copy kept at its seat as the game goes (issue #74): ``ssh -p PORT HOST copy > mine.ft``
on the player's own machine, held later against the referee's save by ``fireteam verify --side-copy``."""

from __future__ import annotations

import msgspec
import pytest
from forged import rewrite
from ssh_club import Club, Player, wait_until

from core.log import events as ev
from core.log.state import TABLE_DICE
from core.log.views import REFEREE
from core.secrets.sidecopy import decode
from tui.main import main as fireteam

pytestmark = pytest.mark.server

FIRE = "fire rossi noor range=20"  # the Bersaglieri's Sgt Rossi at the militia's Ahmed Noor


def said(player: Player) -> str:
    return "".join(player.raw).replace("\r\n", "\n")


async def fire_typed_at_the_seats(club: Club) -> None:
    """The Bersaglieri's plain seat fires and types its 6; the militia's types the save's 4."""
    for line in ("next", "next", f"{TABLE_DICE} on"):  # the Bersaglieri active
        club.game.execute(line, role=REFEREE)
    reg = await club.connect("reg", command="plain", env={"NO_COLOR": "1"})
    irr = await club.connect("irr", command="plain", env={"NO_COLOR": "1"})
    await wait_until(lambda: "reg (Bersaglieri)> " in said(reg), show=lambda: said(reg))
    await wait_until(lambda: "irr (Somali militia)> " in said(irr), show=lambda: said(irr))
    length = club.game.log_length
    reg.type(FIRE + "\r")
    await wait_until(lambda: "Type 1 die: " in said(reg), show=lambda: said(reg))
    reg.type("6\r")
    await wait_until(lambda: "Type 1 die: " in said(irr), show=lambda: said(irr))
    irr.type("4\r")  # fails (needs 5+)
    await wait_until(lambda: club.game.awaiting.held is None and club.game.log_length > length, show=lambda: said(irr))


def the_save(event: ev.Event) -> bool:
    return isinstance(event, ev.Rolled) and event.roll.manual and event.roll.faces == (4,)


async def test_a_copy_kept_at_the_seat_convicts_the_referees_save_changed_after_it(club: Club, tmp_path, capsys):
    await fire_typed_at_the_seats(club)
    kept = await club.run("irr", "copy")  # ssh -p PORT HOST copy > mine.ft, at the militia's machine
    assert kept.exit_status == 0
    mine = tmp_path / "mine.ft"
    mine.write_text(kept.stdout, encoding="utf-8")
    copy = decode(mine.read_bytes(), mine)
    assert copy.role == "irregulars"
    step = next(s for s, e in copy.events if the_save(e))
    club.game.execute('note "the evening goes on"', role=REFEREE)
    save = club.game.path
    # The honest save, played on: the copy is its first steps.
    assert fireteam(["verify", str(save), "--side-copy", str(mine)]) == 0
    assert f"the copy was kept at step {copy.steps} of the {copy.steps + 2}" in capsys.readouterr().out

    def retyped(events):  # the referee's save says the militia rolled a 5: Ahmed Noor saved
        k = next(k for k, e in enumerate(events) if the_save(e))
        events[k] = msgspec.structs.replace(events[k], roll=msgspec.structs.replace(events[k].roll, faces=(5,)))
        return events

    rewrite(save, retyped)
    assert fireteam(["verify", str(save), "--side-copy", str(mine)]) == 1
    out = capsys.readouterr().out
    assert f"step {step}: the copy holds the event " in out and '"faces":[4]' in out and '"faces":[5]' in out


async def test_copy_names_a_game_and_gives_nothing_for_a_wrong_one(club: Club):
    wrong = await club.run("reg", "copy elsewhere")
    assert wrong.exit_status == 1 and wrong.stdout == "copy GAME: which game's copy; games: table\n"
    named = await club.run("reg", "copy table")
    assert named.exit_status == 0
    assert decode(named.stdout.encode(), "reply").role == "regulars"


async def test_a_plain_seats_word_names_the_command_its_own_machine_runs(club: Club):
    """A terminal cannot receive a file from the server: ``copy`` (``copia``) at a plain SSH seat says
    the command that keeps it, with the seat's game and role, and the port and address the player
    reached the server by (issue #91: it said ``ssh -p PORT HOST``)."""
    irr = await club.connect("irr", command="plain", env={"NO_COLOR": "1"})
    await wait_until(lambda: "irr (Somali militia)> " in said(irr), show=lambda: said(irr))
    irr.type("copy\r")
    command = f"ssh -p {club.port} 127.0.0.1 copy table > table-irregulars.ft"
    await wait_until(lambda: f"from another terminal: {command}" in said(irr), show=lambda: said(irr))


async def test_copy_is_a_word_of_the_screen_seats_command_line_too(club: Club):
    """Issue #91: at an SSH screen seat only F10 kept the copy; ``copy`` on the command line was a
    command of no ruleset, refused."""
    irr = await club.seated("irr", "irr")
    app = club.app("irr")
    irr.type("copy\r")
    command = f"ssh -p {club.port} 127.0.0.1 copy table > table-irregulars.ft"
    await wait_until(
        lambda: any(command in str(n.message) for n in app._notifications), show=lambda: str(list(app._notifications))
    )
