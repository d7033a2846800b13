"""A command that fails on a bug at the table process reaches the seat as a failure,
never as a refusal (issue 33): the table logs it, answers with the game's ``Failure``, and
the seat's replica returns that value, which its screen shows as an error of the program.
Every kind of seat says it in the same one line (and that the host's log has the
details) and goes on (issue 45): a plain seat over SSH, in the server's process or in a
seat worker, and a browser seat."""

from __future__ import annotations

import socket
import threading

import pytest
from ssh_club import SEATS, WAIT_S, demo_game, make_keys, seat_workers, wait_until

from core.log.outcome import Failure
from core.ruleset import CommandSpec
from tui.ssh.host.server import Table
from tui.ssh.workers import wire
from tui.ssh.workers.replica import ReplicaGame, TableLink

pytestmark = [pytest.mark.server, pytest.mark.subprocess]

FAILED = "the command failed on an error of the program; nothing was recorded"
#: A bug outside the checks that write nothing: the next open says whether it was recorded.
AFTER_CHECKS = "the command failed on an error of the program; open the game again to see what was recorded"


def with_bug(game) -> None:
    game.commands.append(CommandSpec("broken", "a bug", lambda ctx, args: {}["aden"], who="any"))


async def test_a_plain_seat_over_ssh_says_a_bug_in_one_line_and_goes_on(club):
    await _a_plain_seat_goes_on(club)


async def test_a_plain_seat_in_a_seat_worker_says_a_bug_in_one_line_and_goes_on(one_worker_club):
    await _a_plain_seat_goes_on(one_worker_club)


async def _a_plain_seat_goes_on(club) -> None:
    with_bug(club.game)
    reg = await club.connect("reg", command="plain", env={"NO_COLOR": "1"})

    def raw() -> str:
        return "".join(reg.raw)

    await wait_until(lambda: "reg (Bersaglieri)> " in raw(), WAIT_S, raw)
    reg.type("broken\r")
    await wait_until(lambda: "Error: " + FAILED + "." in raw(), WAIT_S, raw)
    # the traceback is in the host's log, not the seat's (issue 59)
    await wait_until(lambda: "The host has the details in its log." in raw(), WAIT_S, raw)
    reg.type("note still here\r")
    await wait_until(lambda: "Note: still here." in raw(), WAIT_S, raw)
    assert reg.exit_status is None  # the seat is still up
    assert "Refused" not in raw()


async def test_a_browser_seat_says_a_bug_in_one_line_and_goes_on(tmp_path, caplog):
    from test_web_door import seat
    from web_club import web_table

    async with web_table(tmp_path, caplog) as web:
        with_bug(web.game)
        token, _ = web.invitations.create("reg")
        browser = await seat(web, token)
        try:
            await browser.wait_for("reg (Bersaglieri)")
            await browser.command("broken")
            await browser.wait_for(FAILED)
            await browser.command("note still here")
            await browser.wait_for("still here")
            assert "note still here" in web.game.path.read_text()
        finally:
            await browser.close()


def test_the_table_answers_a_bug_as_a_failure(tmp_path):
    game = demo_game(tmp_path / "table.ft")
    server = seat_workers(tmp_path, [Table("table", game)], make_keys(SEATS), SEATS)
    game.commands.append(CommandSpec("broken", "a bug", lambda ctx, args: {}["aden"], who="referee"))
    before = game.path.read_bytes()
    answer = server._record(None, wire.Submit(1, "table", "broken", "referee", "rita", None, "en"))
    assert answer == wire.Settled(1, Failure(FAILED))

    def crash(*args, **kwargs):  # a bug outside the game's command (the table's own)
        raise RuntimeError("boom")

    game.execute = crash  # type: ignore[method-assign]
    answer = server._record(None, wire.Submit(2, "table", "undo", "referee", "rita", None, "en"))
    assert answer == wire.Settled(2, Failure(AFTER_CHECKS))
    assert game.path.read_bytes() == before


def test_a_seat_s_replica_answers_a_failure_not_a_refusal(tmp_path):
    game = demo_game(tmp_path / "table.ft")
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    with ours, theirs:
        replica = ReplicaGame.of_table(game.path, "table", TableLink(ours, timeout=30))

        def table() -> None:
            request, _fd = wire.receive(theirs, wire.REQUEST)
            wire.send(theirs, wire.Settled(request.seq, Failure(FAILED)))

        thread = threading.Thread(target=table)
        thread.start()
        assert replica.submit("note x", role="referee", by="rita") == Failure(FAILED)
        thread.join()
        replica.close()
