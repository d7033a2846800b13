"""The server freezes its heap once the seats settle, and a departed seat is still freed."""

from __future__ import annotations

import asyncio
import gc
import logging
import weakref

import asyncssh
import pytest
from ssh_club import demo_game

from tui.ssh import heap as ssh_heap
from tui.ssh.heap import HeapSettler
from tui.ssh.seats import Seats
from tui.ssh.server import FireteamServer, Table


class Node:
    """Something a reference cycle keeps alive, as a widget tree keeps an app."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def settler(caplog):
    caplog.set_level(logging.INFO, logger="test.heap")
    s = HeapSettler(logging.getLogger("test.heap"), delay=0)
    yield s
    s.close()
    assert gc.get_freeze_count() == 0


def test_settling_freezes_what_is_alive_and_the_next_settling_frees_what_was_dropped(settler, caplog):
    node = Node()
    gone = weakref.ref(node)
    settler.settle()
    assert gc.get_freeze_count() > 0
    assert "heap settled:" in caplog.text and "objects frozen" in caplog.text
    del node
    gc.collect()
    assert gone() is not None  # frozen: a collection leaves it alone
    settler.settle()
    assert gone() is None


async def _past(delay: float) -> None:
    """Return once the loop has run every timer due within ``delay`` seconds of now.

    Timers fire in the order they fall due, so a timer of our own set a moment
    later than the settler's fires after it: waiting for it waits for the loop,
    not for the clock to reach a guess.
    """
    reached = asyncio.Event()
    asyncio.get_running_loop().call_later(delay + 0.001, reached.set)
    await reached.wait()


async def test_settling_waits_while_the_server_is_busy(settler, monkeypatch):
    busy, cpu = [True], [0.0]
    looked_often = asyncio.Event()

    def process_time() -> float:  # while busy, a full second of CPU between any two looks
        cpu[0] += 1.0 if busy[0] else 0.0
        if cpu[0] > 3:
            looked_often.set()
        return cpu[0]

    monkeypatch.setattr(ssh_heap.time, "process_time", process_time)
    settled = asyncio.Event()
    monkeypatch.setattr(settler, "settle", settled.set)
    settler.seats_changed()
    first = [asyncio.ensure_future(e.wait()) for e in (looked_often, settled)]
    await asyncio.wait(first, return_when=asyncio.FIRST_COMPLETED)
    for waiter in first:
        waiter.cancel()
    assert looked_often.is_set() and not settled.is_set()  # it looked again and again, and never settled while busy
    busy[0] = False
    await settled.wait()


async def test_a_closed_settler_does_nothing_more(settler, monkeypatch):
    monkeypatch.setattr(ssh_heap.time, "process_time", lambda: 0.0)  # idle: a look would settle at once
    settled = []
    monkeypatch.setattr(settler, "settle", lambda: settled.append(True))
    settler.seats_changed()
    settler.close()
    settler.seats_changed()
    await _past(settler.delay)  # any look the settler had set up is due by now
    assert not settled and gc.get_freeze_count() == 0


@pytest.fixture
def collector_on():
    """The collector as a server runs it (the test process may have paused it), and as it was after."""
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


async def _looks(settler: HeapSettler, count: int) -> None:
    """Let the settler look ``count`` times more at whether the frames are still being written."""
    for _ in range(count):
        await _past(settler.look)


async def test_the_collector_waits_until_a_commands_frames_are_out(collector_on):
    settler = HeapSettler(logging.getLogger("test.heap"), look=0.01, longest=3600)
    try:
        settler.command()
        assert not gc.isenabled() and settler.collector_waits
        await _looks(settler, 3)
        assert not gc.isenabled()  # no frame yet: the seats are taking the command in
        for _ in range(3):  # a frame a look
            settler.wrote()
            settler.command()  # (another command meanwhile: the same pause)
            await _looks(settler, 1)
            assert not gc.isenabled()  # still drawing
        await _looks(settler, 1)  # a look with nothing written: the frames are out
        assert gc.isenabled() and not settler.collector_waits
    finally:
        settler.close()


async def test_the_collector_waits_no_longer_than_the_longest_pause(collector_on):
    settler = HeapSettler(logging.getLogger("test.heap"), look=0.001, longest=0)
    try:
        settler.command()  # a command no seat of this process redraws for, or one after another
        assert not gc.isenabled()
        await _looks(settler, 1)
        assert gc.isenabled()
        settler.command()  # the next command pauses it again
        assert not gc.isenabled()
    finally:
        settler.close()


async def test_a_pause_of_someone_else_is_theirs_to_end(collector_on):
    settler = HeapSettler(logging.getLogger("test.heap"), look=0.001, longest=0)
    gc.disable()  # the client's start, a big save's load...
    try:
        settler.command()
        assert not settler.collector_waits
        await _looks(settler, 1)
        assert not gc.isenabled()  # not resumed under their feet
    finally:
        gc.enable()
        settler.close()


async def test_closing_the_settler_resumes_the_collector_it_paused(collector_on):
    settler = HeapSettler(logging.getLogger("test.heap"), look=60)
    settler.command()
    assert not gc.isenabled()
    settler.close()
    assert gc.isenabled()
    settler.command()  # closed: nothing more
    assert gc.isenabled()


async def test_a_served_game_pauses_the_collector_before_any_seat_hears_of_a_command(tmp_path, collector_on):
    game = demo_game(tmp_path / "table.ft")
    server = FireteamServer([Table("table", game)], Seats({}), asyncssh.generate_private_key("ssh-ed25519"))
    heard = []
    stop = game.subscribe(lambda outcome: heard.append(gc.isenabled()))  # as a seat's app listens
    try:
        game.execute('note "the collector waits"')
        assert heard == [False]
    finally:
        stop()
        await server.close()
        game.close()
    assert gc.isenabled()
