"""End to end, real SSH clients: a side counts only what it sees, and its undo does not
depend on what the referee did unseen (issue 14, "Nothing hidden leaks")."""

from __future__ import annotations

import asyncio

import pytest
from ssh_club import Club, Player, wait_until
from ssh_vt import drawn

pytestmark = [pytest.mark.server, pytest.mark.subprocess]


@pytest.fixture(params=["one process", "seat worker"])
def table(request) -> Club:
    return request.getfixturevalue("club" if request.param == "one process" else "one_worker_club")


async def _to_activation(club: Club, rita) -> None:
    game = club.game
    for _ in range(2):  # deployment → initiative → activation: the regulars are active (seed 7)
        before = game.log_length
        rita.command("next")
        await wait_until(lambda before=before: game.log_length > before)
    assert game.state.phase == "activation" and game.state.active_side == "regulars"


async def _given(club: Club, player, line: str) -> int:
    """Have ``player`` give ``line``; the file's number of the command."""
    before = club.game.log_length
    player.command(line)
    await wait_until(lambda: club.game.log_length > before)
    return club.game.history.last_effective()


async def test_a_side_numbers_only_what_it_sees_and_undoes_past_hidden_commands(table):
    club = table
    game = club.game
    rita, reg = await asyncio.gather(club.connect("rita"), club.connect("reg"))
    await asyncio.gather(rita.wait_for("type a command"), reg.wait_for("type a command"))
    await _to_activation(club, rita)

    move = await _given(club, reg, "move conti 3")
    mine = game.reading.numbering("regulars").shown(move)
    await _given(club, rita, "mark dahir pinned")  # hidden from the regulars
    note = await _given(club, reg, "note all quiet")
    assert note == move + 2
    # The file says #move+2; the regulars' log goes on from their own last number.
    await reg.wait_for(f"#{mine + 1} » reg: note all quiet")
    assert f"#{note} » reg" not in reg.text()
    await _given(club, rita, "mark egal suppressed")  # hidden, and after the note
    await rita.wait_for("mark egal suppressed")
    await reg.wait_for(f"Ctrl+Z undoes #{mine + 1} note all quiet")

    reg.command("undo")
    await wait_until(lambda: not game.history.is_live(note))
    await reg.wait_for(f"Ctrl+Z undoes #{mine} move conti 3", f"undid command #{mine + 1}")
    # The referee's hidden marks still hold: carried past the undo, same facts.
    assert {"pinned"} <= set(game.state.units["dahir"].status)
    assert {"suppressed"} <= set(game.state.units["egal"].status)
    await rita.wait_for("again after an undo")
    assert "Egal" not in reg.text() and "again after an undo" not in reg.text()


async def test_a_player_cannot_redo_what_the_referee_undid(club):
    game = club.game
    rita, reg = await asyncio.gather(club.connect("rita"), club.connect("reg"))
    await asyncio.gather(rita.wait_for("type a command"), reg.wait_for("type a command"))
    await _to_activation(club, rita)
    move = await _given(club, reg, "move conti 3")
    rita.command("undo")
    await wait_until(lambda: not game.history.is_live(move))
    await reg.gives("redo", "only the referee can redo it")
    assert not game.history.is_live(move)
    # What he took back himself he may bring back.
    reg.type("\x15")  # Ctrl+U: the refused line was given back to him to edit
    note = await _given(club, reg, "note mine")
    reg.command("undo")
    await wait_until(lambda: not game.history.is_live(note))
    reg.command("redo")
    await wait_until(lambda: game.history.is_live(note))


async def test_a_sides_undo_past_a_hidden_command_answers_with_its_own_number(table):
    """Issue 28: a side's ``undo`` typed on the command line, with a hidden referee command
    after the side's, answered ``✓ #None undo`` through a seat worker (the last command it read
    back was the hidden one, carried past the undo): it names the command undone."""
    club = table
    game = club.game
    rita, reg = await asyncio.gather(club.connect("rita"), club.connect("reg"))
    await asyncio.gather(rita.wait_for("type a command"), reg.wait_for("type a command"))
    await _to_activation(club, rita)
    note = await _given(club, reg, "note x")
    mine = game.reading.numbering("regulars").shown(note)
    await _given(club, rita, "mark egal pinned")  # hidden from the regulars
    reg.command("undo")
    await wait_until(lambda: not game.history.is_live(note))
    await reg.wait_for(f"✓ #{mine} undo")
    assert "#None" not in reg.text()


async def _keyed(player: Player) -> str:
    """What ``player``'s terminal is sent as a key is typed on its empty command line and the
    line is emptied again (Ctrl+U), until it shows the line's placeholder once more."""
    start = len("".join(player.raw))
    await player.typed("x", "› x")
    await player.typed("\x15", "› type a command")
    return "".join(player.raw)[start:]


@pytest.fixture(params=["one process", "one seat worker"])
def one_process(request) -> Club:
    return request.getfixturevalue("club" if request.param == "one process" else "one_worker_club")


async def test_a_change_a_side_cannot_see_sends_its_seat_nothing(one_process):
    """Issue #60: the referee's command on a fighter hidden from the regulars, and his undo and
    redo of it, send the regulars' terminal not a byte (a repaint alone would tell them something
    happened).  Both seats are in one process (the server's, or one seat worker): a seat's app
    hears of a change before the referee's screen shows it, so whatever it would draw comes
    before the echo of a key the regulars type after it, or with it."""
    club = one_process
    rita, reg = await asyncio.gather(club.connect("rita"), club.connect("reg"))
    await asyncio.gather(rita.wait_for("type a command"), reg.wait_for("type a command"))
    await _keyed(reg)  # (its first frames are out)
    typed = await _keyed(reg)
    start = len("".join(reg.raw))
    for line, said in (
        ("mark dahir pinned", "Dahir Omar now pinned"),
        ("undo", "rita undid command #"),
        ("redo", "rita redid command #"),
    ):
        await rita.typed("\x15" + line + "\r", said)
    await _keyed(reg)
    # The key's echo and nothing besides (how Textual splits its frames varies: rows and words are compared).
    sent = "".join(reg.raw)[start:]
    assert drawn(sent) == drawn(typed), sent
