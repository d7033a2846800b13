"""A command that fails on a bug at the table process reaches the seat as a failure,
never as a refusal (issue 33): the table logs it, answers ``Failed``, and the seat's
replica raises ``CommandFailed``, which its screen shows as an error of the program."""

from __future__ import annotations

import socket
import threading

import pytest
from ssh_club import SEATS, demo_game, make_keys, seat_workers

from core.refusal import CommandFailed
from core.ruleset import CommandSpec, Refused
from tui.ssh import wire
from tui.ssh.replica import ReplicaGame, TableLink
from tui.ssh.server import Table

FAILED = "the command failed on an error of the program; nothing was recorded"


def test_the_table_answers_a_bug_as_a_failure(tmp_path):
    game = demo_game(tmp_path / "table.ft")
    server = seat_workers(tmp_path, [Table("table", game)], make_keys(SEATS), SEATS)
    game.commands.append(CommandSpec("broken", "a bug", lambda ctx, args: {}["aden"], who="referee"))
    before = game.path.read_bytes()
    answer = server._record(None, wire.Execute(1, "table", "broken", "referee", "rita", None, "en"))
    assert answer == wire.Failed(1, FAILED)

    def crash(*args, **kwargs):  # a bug outside the game's command (the table's own)
        raise RuntimeError("boom")

    game.undo = crash  # type: ignore[method-assign]
    answer = server._record(None, wire.Undo(2, "table", "referee", "rita", "en"))
    assert answer == wire.Failed(2, "the server failed on this command; the host has the details in its log")
    assert game.path.read_bytes() == before


def test_a_seat_s_replica_raises_a_failure_not_a_refusal(tmp_path):
    game = demo_game(tmp_path / "table.ft")
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    with ours, theirs:
        replica = ReplicaGame.of_table(game.path, "table", TableLink(ours, timeout=30))

        def table() -> None:
            request, _fd = wire.receive(theirs, wire.REQUEST)
            wire.send(theirs, wire.Failed(request.seq, FAILED))

        thread = threading.Thread(target=table)
        thread.start()
        with pytest.raises(CommandFailed, match=FAILED) as failed:
            replica.execute("note x", role="referee", by="rita")
        assert not isinstance(failed.value, Refused)
        thread.join()
        replica.close()
