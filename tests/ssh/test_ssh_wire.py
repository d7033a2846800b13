"""The messages between the table process and its seat workers, and the worker's end of a request."""

from __future__ import annotations

import socket
import threading

import msgspec
import pytest
from playing import names
from ssh_club import demo_game

from core.language.reader import reading
from core.log.outcome import AnswerNeeded, Outcome, Refusal
from core.ruleset import TYPING, Refused
from tui.ssh.workers import wire
from tui.ssh.workers.replica import TableLink

NO = Refusal("note x", "referee", "rita", "no")


def test_a_message_and_a_connections_socket_travel_together():
    table, worker = wire.pair()
    a, b = socket.socketpair()
    with table, worker, a, b:
        wire.send(table, wire.Arrived("127.0.0.1:5555"), a.fileno())
        wire.send(table, wire.Grew("north", 1234))
        msg, fd = wire.receive(worker, wire.NEWS)
        assert msg == wire.Arrived("127.0.0.1:5555") and fd is not None and fd != a.fileno()
        with socket.socket(fileno=fd) as received:  # the same connection, by another descriptor
            received.sendall(b"hello")
            assert b.recv(5) == b"hello"
        assert wire.receive(worker, wire.NEWS) == (wire.Grew("north", 1234), None)
        table.close()
        assert wire.receive(worker, wire.NEWS) is None


def test_a_call_gets_its_own_answer_and_skips_one_it_gave_up_on():
    table, worker = wire.pair()
    with table, worker:
        link = TableLink(worker, timeout=5)

        def answer() -> None:
            request, _ = wire.receive(table, wire.REQUEST)
            wire.send(table, wire.Settled(request.seq - 1, Outcome(1, [], []), 10))  # a late answer to an earlier call
            wire.send(table, wire.Settled(request.seq, NO))

        thread = threading.Thread(target=answer)
        thread.start()
        seq = link.next_seq()
        assert link.call(wire.Submit(seq, "t", "note x", "referee", "rita")) == wire.Settled(seq, NO)
        thread.join()


def test_a_call_refuses_clearly_when_too_long_unanswered_or_the_table_is_gone():
    table, worker = wire.pair()
    with table, worker:
        link = TableLink(worker, timeout=0.2)
        with pytest.raises(Refused, match="the command is too long") as no:
            link.call(wire.Submit(link.next_seq(), "t", "note " + "x" * wire.MAX_PACKET, "referee", "rita"))
        names(no.value, TYPING)  # a limit of the line, as the core's own
        # The link's failures are no rule's refusal: they name none.
        with pytest.raises(Refused, match="did not answer in time") as no:
            link.call(wire.Who(link.next_seq()))
        assert no.value.rules == ()
        table.close()
        with pytest.raises(Refused, match="nothing was recorded") as no:
            link.call(wire.Who(link.next_seq()))
        assert no.value.rules == ()


def test_a_question_and_its_answers_travel_between_a_seat_and_the_table():
    """A command's question (core.log.questions) goes to the seat as data, and the seat's
    answers come back with the command, as the table's dice do (issue #48)."""
    from core.language.i18n import M
    from core.log.questions import Question

    question = Question(M("cover for his morale check"), ("none", "light"), whose="Ali", default="none", rule="BI-R181")
    table, worker = wire.pair()
    with table, worker:
        link = TableLink(worker, timeout=5)

        def answer() -> None:
            request, _ = wire.receive(table, wire.REQUEST)
            assert request.answers == ["heavy", "none"]
            wire.send(table, wire.Settled(request.seq, AnswerNeeded(question)))

        thread = threading.Thread(target=answer)
        thread.start()
        seq = link.next_seq()
        asked = link.call(wire.Submit(seq, "t", "next", "referee", "rita", [], answers=["heavy", "none"]))
        thread.join()
    assert asked == wire.Settled(seq, AnswerNeeded(question))
    assert asked.result.question.text() == "Ali's cover for his morale check (BI-R181)"
    assert asked.result.question.take("L") == "light"


def test_the_refusal_of_the_longest_command_a_seat_may_send_fits_in_an_answer(tmp_path):
    """A refusal answers with the seat's line and why: a request leaves it room, so that even
    the longest is answered rather than left to time out at the seat."""
    line = "note " + "x" * wire.MAX_PACKET
    while True:  # the longest line the link sends
        asked = wire.Submit(1, "t", line, "irregulars", "a-seat-name", None, "it")
        if len(msgspec.msgpack.encode(asked)) <= wire.MAX_REQUEST:
            break
        line = line[:-16]
    game = demo_game(tmp_path / "table.ft")
    with reading("it"):  # (the longer words)
        refused = game.submit(line, role="irregulars", by="a-seat-name")
    game.close()
    assert isinstance(refused, Refusal) and "caratteri" in refused.why
    table, worker = wire.pair()
    with table, worker:
        wire.send(table, wire.Settled(1, refused))
        assert wire.receive(worker, wire.ANSWER)[0] == wire.Settled(1, refused)
