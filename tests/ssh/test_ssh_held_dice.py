"""Table dice at a served table (issue #61): each roll is asked at its owner's own screen,
over real SSH, with the seats in the server's process and in seat worker processes."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from ssh_club import SEATS, Club, Player, demo_game, make_keys, seats_toml, wait_until

from core.game import Game
from core.log import events as ev
from core.log.outcome import DiceNeeded, Outcome
from core.log.state import TABLE_DICE, table_dice
from core.log.views import REFEREE
from tui.ssh.host.server import FireteamServer, Table
from tui.ssh.seatsfile import Seat, Seats

FIRE = "fire rossi noor range=20"  # the Bersaglieri's Sgt Rossi at the militia's Ahmed Noor
SAVE = "Ahmed Noor's save: 1d6, needs 5+"


def last_rolls_of(game: Game) -> list[tuple[tuple[int, ...], bool]]:
    group = game.history.group(game.history.eff_cmds[-1])
    return [(e.roll.faces, e.roll.manual) for e in group if isinstance(e, ev.Rolled)]


def last_rolls(club: Club) -> list[tuple[tuple[int, ...], bool]]:
    return last_rolls_of(club.game)


def table_dice_on_game(game: Game) -> None:
    for line in ("next", "next", f"{TABLE_DICE} on"):  # the Bersaglieri active
        game.execute(line, role=REFEREE)


def table_dice_on(club: Club) -> None:
    table_dice_on_game(club.game)


async def fire_with_save_at(club: Club, asked: str, face: str) -> None:
    """The Bersaglieri's seat types his fire's 6 (a hit, needs 3+); the seat ``asked`` is
    prompted for the save while his screen says whose dice are awaited; ``face`` decides."""
    reg = await club.connect("reg")
    other = await club.connect(asked)
    await reg.wait_for("reg (Bersaglieri)")
    await other.wait_for(f"{asked} (")
    length = club.game.log_length
    await reg.gives(FIRE, "Sgt Rossi's fire")
    reg.type("6\r")
    await other.wait_for(SAVE)
    whose = "Somali militia's dice" if asked == "irr" else "the referee to give Somali militia's dice"
    await reg.wait_for(f"waiting for {whose}")
    assert club.game.log_length == length  # held: nothing recorded yet
    other.type(f"{face}\r")
    await wait_until(lambda: club.game.awaiting.held is None and club.game.log_length > length, show=other.text)
    assert last_rolls(club) == [((6,), True), ((int(face),), True)]
    await wait_until(lambda: "waiting for" not in reg.text(), show=reg.text)


@pytest.mark.server
async def test_the_defenders_save_is_typed_at_his_own_screen(club: Club):
    table_dice_on(club)
    await fire_with_save_at(club, "irr", "4")  # fails (needs 5+)
    assert [bool(u.out) for u in club.game.state.units.values() if u.name == "Ahmed Noor"] == [True]


@pytest.mark.server
async def test_the_referee_types_it_when_the_defender_has_no_seat(club: Club):
    table_dice_on(club)
    await fire_with_save_at(club, "rita", "5")  # holds (needs 5+)
    assert [bool(u.out) for u in club.game.state.units.values() if u.name == "Ahmed Noor"] == [False]


@pytest.mark.server
@pytest.mark.subprocess
async def test_the_defenders_save_is_typed_at_his_own_screen_in_another_worker(workers_club: Club):
    """The seats in seat worker processes: the table holds the fire, tells every worker whose
    dice are awaited, and the defender's faces, sent from his worker, decide."""
    rita = await workers_club.seated("rita", "rita (referee)")
    for line in ("next", "next", f"{TABLE_DICE} on"):  # the Bersaglieri active; given where the workers see it
        rita.command(line)
    await wait_until(lambda: table_dice(workers_club.game.state), show=rita.text)
    await fire_with_save_at(workers_club, "irr", "4")  # fails (needs 5+)
    assert [bool(u.out) for u in workers_club.game.state.units.values() if u.name == "Ahmed Noor"] == [True]
    await rita.wait_for("Ahmed Noor out of action")  # every worker's copy read it


@pytest.mark.server
async def test_the_defenders_save_is_asked_at_his_plain_seat(club: Club):
    """Plain seats too: the defender is asked in one sentence, the firer told whose dice are
    awaited in one line; the defender may not withdraw the firer's command."""
    table_dice_on(club)
    reg = await club.connect("reg", command="plain", env={"NO_COLOR": "1"})
    irr = await club.connect("irr", command="plain", env={"NO_COLOR": "1"})

    def said(player: Player) -> str:
        return "".join(player.raw).replace("\r\n", "\n")

    async def heard(player: Player, text: str) -> None:
        await wait_until(lambda: text in said(player), show=lambda: said(player))

    await heard(reg, "reg (Bersaglieri)> ")
    await heard(irr, "irr (Somali militia)> ")
    length = club.game.log_length
    reg.type(FIRE + "\r")
    await heard(reg, "Sgt Rossi's fire with Assault rifle aimed at Ahmed Noor, 20 cm: 1d6, needs 3+; chance 66.7%.")
    reg.type("6\r")
    await heard(
        irr, "\n1 hit, Sgt Rossi. Ahmed Noor's save: 1d6, needs 5+; chance 33.3%.\nType 1 die: "
    )  # the hit first
    await heard(reg, f"Type 1 die: 6\nWaiting for Somali militia's dice: {SAVE}.\n")
    irr.type("\r")  # an empty line: the firer's command is not his to withdraw
    await heard(irr, "Refused: only its player or the referee may withdraw it.")
    assert club.game.awaiting.held is not None
    irr.type("4\r")  # fails (needs 5+)
    await wait_until(lambda: club.game.awaiting.held is None and club.game.log_length > length, show=lambda: said(irr))
    assert last_rolls(club) == [((6,), True), ((4,), True)]
    # His own command, said brief; the save his defender typed, whole, with who gave it (issue #74).
    await heard(
        reg, "\n1 hit, Sgt Rossi.\nFailed: out of action. Irr gave Ahmed Noor's save: 1d6 needing 5+: 4 [table dice].\n"
    )


@pytest.mark.server
@pytest.mark.subprocess
async def test_the_referee_takes_over_a_roll_his_defender_never_answers_in_another_worker(workers_club: Club):
    """The defender stays seated and silent: the referee's Ctrl+T, at his screen in a seat
    worker, opens the held save's prompt; his faces go to the table as a held Submit and decide."""
    rita = await workers_club.seated("rita", "rita (referee)")
    for line in ("next", "next", f"{TABLE_DICE} on"):  # the Bersaglieri active
        rita.command(line)
    await wait_until(lambda: table_dice(workers_club.game.state), show=rita.text)
    reg, irr = await workers_club.connect("reg"), await workers_club.connect("irr")
    await reg.wait_for("reg (Bersaglieri)")
    await irr.wait_for("irr (")
    length = workers_club.game.log_length
    await reg.gives(FIRE, "Sgt Rossi's fire")
    reg.type("6\r")  # a hit (needs 3+)
    await irr.wait_for(SAVE)
    await rita.wait_for("Ctrl+T: give them yourself")  # the line's first words: whole at any width
    await rita.typed("\x14", SAVE, "chance before the roll")  # Ctrl+T the held save's prompt, over his screen
    rita.type("4\r")  # the save fails (needs 5+)
    await wait_until(
        lambda: workers_club.game.awaiting.held is None and workers_club.game.log_length > length, show=rita.text
    )
    assert last_rolls(workers_club) == [((6,), True), ((4,), True)]
    assert [bool(u.out) for u in workers_club.game.state.units.values() if u.name == "Ahmed Noor"] == [True]
    await wait_until(lambda: SAVE not in irr.text(), show=irr.text)  # the defender is asked no more


def test_a_roll_is_never_asked_at_a_seat_of_another_table(tmp_path):
    """``--workers 0`` with two tables: the militia sits at table two only.  At table one the
    Bersaglieri's fire asks the militia's save of its own submitter (no seat of the militia there,
    no referee), not of the seat at table two: held for it, table one would refuse everything
    until the command was withdrawn (issue #77, a slip no test held)."""
    one, two = demo_game(tmp_path / "one.ft"), demo_game(tmp_path / "two.ft")
    try:
        tables = [Table("one", one), Table("two", two)]
        server = FireteamServer(tables, Seats.parse(seats_toml(make_keys(SEATS), SEATS)), make_keys(["host"])["host"])
        server.sessions.append(SimpleNamespace(seat=Seat("irr", "irregulars"), table=tables[1]))
        assert (one.seated(), two.seated()) == (set(), {"irregulars"})
        table_dice_on_game(one)
        assert isinstance(one.submit(FIRE, role="regulars", by="reg", faces=[]), DiceNeeded)
        saved = one.submit(FIRE, role="regulars", by="reg", faces=[6])  # a hit (needs 3+)
        assert isinstance(saved, DiceNeeded) and saved.request.side == "irregulars"  # asked here
        assert one.awaiting.held is None
        assert isinstance(one.submit(FIRE, role="regulars", by="reg", faces=[6, 4]), Outcome)
        assert last_rolls_of(one) == [((6,), True), ((4,), True)]
    finally:
        one.close()
        two.close()


@pytest.mark.server
@pytest.mark.parametrize("drawn", [True, False], ids=["hidden roll held", "no roll held"])
async def test_a_held_roll_hidden_from_a_side_sends_its_plain_seat_and_a_spectator_not_a_byte(club: Club, drawn: bool):
    """A/B: the referee's ``objectives irregulars random`` draws the militia's markers for their eyes
    only (rulings BN-OBJ-RANDOM), held for the militia's seat's die, then withdrawn by the referee; or
    never given.  The militia's seat is asked and the referee told whose dice; the Bersaglieri's plain
    seat and a spectator's receive the same bytes either way (the referee's note after, nothing else)."""
    club.game.execute(f"{TABLE_DICE} on", role=REFEREE)  # still deploying
    plain = {"command": "plain", "env": {"NO_COLOR": "1"}}
    reg, spec, irr, rita = [await club.connect(seat, **plain) for seat in ("reg", "spec", "irr", "rita")]

    def said(player: Player) -> str:
        return "".join(player.raw).replace("\r\n", "\n")

    async def heard(player: Player, text: str) -> None:
        await wait_until(lambda: text in said(player), show=lambda: said(player))

    async def prompted(player: Player) -> None:
        await wait_until(lambda: said(player).endswith("> "), show=lambda: said(player))

    for seat in (reg, spec, irr, rita):
        await prompted(seat)
    before = {seat: len(said(seat)) for seat in (reg, spec)}
    if drawn:
        rita.type("objectives irregulars random\r")
        await heard(irr, "Somali militia's main objective: 1d5")
        await heard(rita, "Waiting for Somali militia's dice: Somali militia's main objective: 1d5. Type its faces")
        rita.type("cancel\r")
        await heard(rita, "cancelled: objectives irregulars random (nothing was recorded)")
        assert club.game.awaiting.held is None
    rita.type('note "dusk falls"\r')
    for seat in (reg, spec):
        await heard(seat, "dusk falls")
        await prompted(seat)
    note = '\n#5 rita: note "dusk falls".\nNote: dusk falls.\n'
    assert {"reg": said(reg)[before[reg] :], "spec": said(spec)[before[spec] :]} == {
        "reg": f"{note}reg (Bersaglieri)> ",
        "spec": f"{note}spec (spectator)> ",
    }
