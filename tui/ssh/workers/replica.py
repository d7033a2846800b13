"""A seat worker's copy of a table's game: it reads locally and asks the table to write.

In ``fireteam serve --workers N`` the seats live in worker processes, and one
process, the table's, holds the game that writes the save.  Each worker
keeps a :class:`ReplicaGame` of every table: opened read-only from the save
and kept level with it by ``Game.follow`` whenever the table says the save
grew.  Everything a seat only looks at (its view, the log, completions, odds,
what undo would take back) is answered from that copy, in the worker; a
command (``undo`` and ``redo`` too) goes to the table (:class:`TableLink`),
which checks and records it exactly as for a seat in its own process, and
answers with what it came to, the value itself (``core.log.outcome``), and the size
the save grew to, so the copy can read the command back before the seat
redraws.  The copy is a ``Game`` that overrides one method,
:meth:`ReplicaGame.submit`, so the client cannot tell the difference.
"""

from __future__ import annotations

import contextlib
import errno
import socket
from pathlib import Path
from typing import Any, Unpack

import msgspec

from core.dice.faces import sent_contribution
from core.game import Game
from core.game.given import Given
from core.language.reader import lang
from core.log.outcome import Failure, Outcome, Refusal, Result
from core.ruleset import TYPING, Refused
from core.storage.errors import SaveError
from tui.ssh.language import _
from tui.ssh.workers import wire

#: How long a seat waits for the table to record its command.
CALL_TIMEOUT_S = 10.0


class TableLink:
    """The worker's end of the request socket: one question at a time, each waited for.

    Waiting blocks the worker's loop, which is what a seat in the table's own
    process does while its command is written and synced: the table answers
    in about a millisecond, and a command must not be overtaken by the redraws
    it causes.
    """

    def __init__(self, sock: socket.socket, timeout: float = CALL_TIMEOUT_S) -> None:
        self._sock = sock
        self._sock.settimeout(timeout)
        self._seq = 0

    def next_seq(self) -> int:
        self._seq += 1
        return self._seq

    def tell(self, msg: wire.Request) -> None:
        """Say something that gets no answer (a seat sat down, a connection closed)."""
        # If the table has gone, the worker is about to hear of it and stop.
        with contextlib.suppress(OSError):
            wire.send(self._sock, msg)

    def call(self, msg: Any) -> wire.Answer:
        try:
            wire.send(self._sock, msg, limit=wire.MAX_REQUEST)
            while True:
                got = wire.receive(self._sock, wire.ANSWER)
                if got is None:
                    raise Refused(_("the server is shutting down; nothing was recorded"))
                answer = got[0]
                if answer.seq == msg.seq:
                    return answer
                # The answer to an earlier question that timed out: already given up on.
        except TimeoutError:
            raise Refused(
                _(
                    "the server did not answer in time; look at the log before trying again "
                    "(the command may have been recorded)"
                )
            ) from None
        except OSError as e:
            if e.errno == errno.EMSGSIZE:
                raise Refused(_("the command is too long"), rule=TYPING) from None  # a limit, as core.commands.MAX_LINE
            raise Refused(
                _("the server cannot be reached ({error}); nothing was recorded").format(error=e.strerror or e)
            ) from None


class ReplicaGame(Game):
    """A read-only copy of a table's game whose commands are carried out by the table."""

    link: TableLink
    table: str

    @classmethod
    def of_table(cls, path: Path, table: str, link: TableLink) -> ReplicaGame:
        game = cls.open(path, writable=False)
        game.table = table
        game.link = link
        return game

    @property
    def writable(self) -> bool:
        return True

    def submit(self, text: str, **given: Unpack[Given]) -> Result:
        role = given["role"]
        by = given.get("by") or role
        # The seat's share of the dice goes with the command (the table holds the key
        # and rolls); none, and the table draws it (docs/secrets.md, "Who makes the contribution").
        contribution, saw, nonce = given.get("contribution"), given.get("saw"), given.get("nonce")
        if contribution is None and (sent := sent_contribution()) is not None:
            contribution, saw, nonce = sent
        faces, answers = given.get("faces"), given.get("answers")
        asked = wire.Submit(
            self.link.next_seq(), self.table, text, role, by, faces, lang(), contribution, answers, saw, nonce
        )
        return self._carried_out(asked)

    def answer_held(
        self, *, role: str, by: str = "", faces: list[int] | None = None, answer: str | None = None
    ) -> Result:
        """The faces (or the answer) for the command the table holds, given at the table (issue #61)."""
        answers = [answer] if answer is not None else None
        by = by or role
        return self._carried_out(
            wire.Submit(self.link.next_seq(), self.table, "", role, by, faces, lang(), answers=answers, held=True)
        )

    def seats_changed(self) -> None:
        """The table's game decides what a seat's leaving does to a held command (its pool is told)."""

    def unasked(self, by: str) -> None:
        """Seat ``by`` put its own roll's prompt down: the table's game tells every seat (issue #77)."""
        self.link.tell(wire.Unasked(self.table, by))

    def _carried_out(self, asked: wire.Submit) -> Result:
        text, role, by = asked.text, asked.role, asked.by
        try:
            answer = self.link.call(asked)
        except Refused as e:  # the table did not answer it, or could not be asked
            return Refusal(text.strip(), role, by, str(e), e.rules)
        assert isinstance(answer, wire.Settled)
        if not isinstance(answer.result, Outcome):
            return answer.result
        # The save now ends with this command: reading up to its size brings it
        # (and any command another seat gave before it) into this copy.
        try:
            outcomes = self.follow(answer.size)
        except SaveError as e:
            return Failure(_("{error}; the command was recorded, reconnect to see it").format(error=e))
        if not outcomes:
            return Failure(_("the server recorded the command but this seat could not read it back; reconnect"))
        # Named by the table's number of what was done: a side's undo that carried hidden
        # commands past it reads back ending with those, whose number the side may not see.
        return msgspec.structs.replace(outcomes[-1], cmd=answer.result.cmd)
