"""The server freezes its heap once the seats settle, walking only what is new, and a departed seat is still
freed: at an idle moment, or once enough have left (a seat worker, then, asks to retire: ``test_ssh_recycle``)."""

from __future__ import annotations

import asyncio
import gc
import logging
import weakref

import asyncssh
import pytest
from ssh_club import demo_game

from core.log.views import REFEREE
from tui.ssh.host.server import FireteamServer, Table
from tui.ssh.seatsfile import Seats
from tui.ssh.workers import heap as ssh_heap
from tui.ssh.workers.heap import HeapSettler


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


@pytest.mark.long
def test_settling_freezes_what_is_alive_and_never_walks_what_was_frozen(settler, caplog):
    node = Node()
    gone = weakref.ref(node)
    settler.settle()
    assert gc.get_freeze_count() > 0
    assert "heap settled:" in caplog.text and "objects freed" in caplog.text
    del node
    gc.collect()
    assert gone() is not None  # frozen: a collection leaves it alone
    settler.settle()  # a seat arrived: only the objects made since are walked
    assert gone() is not None
    settler.reclaim()  # the heap unfrozen and walked whole
    assert gone() is None
    assert "heap reclaimed after 0 departures" in caplog.text


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
    monkeypatch.setattr(settler, "settle", lambda **_: settled.set())
    settler.seat_arrived()
    first = [asyncio.ensure_future(e.wait()) for e in (looked_often, settled)]
    await asyncio.wait(first, return_when=asyncio.FIRST_COMPLETED)
    for waiter in first:
        waiter.cancel()
    assert looked_often.is_set() and not settled.is_set()  # it looked again and again, and never settled while busy
    busy[0] = False
    await settled.wait()


@pytest.mark.long
async def test_a_closed_settler_does_nothing_more(settler, monkeypatch):
    monkeypatch.setattr(ssh_heap.time, "process_time", lambda: 0.0)  # idle: a look would settle at once
    settled = []
    monkeypatch.setattr(settler, "settle", lambda **_: settled.append(True))
    reclaimed = []
    monkeypatch.setattr(settler, "reclaim", lambda: reclaimed.append(True))
    settler.seat_arrived()
    settler.seat_left(seated=10)
    settler.close()
    settler.seat_arrived()
    settler.seat_left(seated=0)
    await _past(max(settler.delay, settler.idle))  # any look the settler had set up is due by now
    assert not settled and not reclaimed and gc.get_freeze_count() == 0


@pytest.mark.long
async def test_a_departed_seat_is_reclaimed_once_nothing_is_written_to_the_seats(caplog):
    caplog.set_level(logging.INFO, logger="test.heap")
    settler = HeapSettler(logging.getLogger("test.heap"), idle=0.01)
    looks = Looks(settler, "_reclaim_if_idle")
    try:
        node = Node()
        gone = weakref.ref(node)
        settler.settle()
        del node  # the departed seat's app, frozen
        settler.seat_left(seated=10)
        for _ in range(5):  # the other seats are being drawn to: no reclaim under their feet
            settler.wrote()
            await looks(1)
            assert gone() is not None
        await looks(1)  # a look with nothing written
        assert gone() is None
        assert "heap reclaimed after 1 departures" in caplog.text
    finally:
        settler.close()


async def test_at_a_busy_table_departed_seats_are_reclaimed_once_as_many_left_as_sat(settler, monkeypatch):
    """Seven seated, one leaves and another takes his place, six times: the seventh departure
    is reclaimed, as many as ever sat at once."""
    reclaimed = []
    monkeypatch.setattr(settler, "reclaim", lambda: reclaimed.append(settler._departed))
    for _ in range(6):
        settler.seat_left(seated=6)
        settler.seat_arrived()
    assert reclaimed == []
    settler.seat_left(seated=6)
    assert reclaimed == [7]


async def test_a_table_emptying_seat_by_seat_is_reclaimed_as_the_last_leaves(settler, monkeypatch):
    """Twelve seated leave one after another, never idle: the whole heap is walked once nobody
    is left to wait for it, not when half of them still sit."""
    reclaimed = []
    monkeypatch.setattr(settler, "reclaim", lambda: reclaimed.append(settler._departed))
    for seated in range(11, 0, -1):
        settler.seat_left(seated=seated)
    assert reclaimed == []
    settler.seat_left(seated=0)
    assert reclaimed == [12]


@pytest.mark.long
@pytest.mark.parametrize("worker", [False, True], ids=["one process", "seat worker"])
async def test_a_seat_worker_settles_its_heap_without_walking_it(settler, monkeypatch, worker):
    """Settling walks what the seats' arrivals made (10-90 ms at a busy table): a seat worker freezes it unwalked,
    what cycles left of it too, for an idle moment's reclaim or its retirement."""
    monkeypatch.setattr(ssh_heap.time, "process_time", lambda: 0.0)  # idle: the first look settles
    if worker:
        settler.laden = lambda departed: None
    node = Node()
    gone = weakref.ref(node)
    del node  # cyclic garbage, left as a seat's arrival leaves some
    settler.seat_arrived()
    await _past(settler.delay)
    assert gc.get_freeze_count() > 0
    gc.collect()
    assert (gone() is not None) is worker


async def test_a_seat_worker_says_it_is_laden_where_one_process_would_walk_its_heap(settler, monkeypatch):
    """Under the pool, the departure at which ``--workers 0`` walks the whole heap is told to the table instead
    (once); once retired, the worker never walks it at a busy moment, as every seat it still has leaves."""
    reclaimed, told = [], []
    monkeypatch.setattr(settler, "reclaim", lambda: reclaimed.append(settler._departed))
    settler.laden = told.append
    for _ in range(6):
        settler.seat_left(seated=6)
    assert told == []
    settler.seat_left(seated=6)
    assert told == [7] and reclaimed == []
    settler.seat_left(seated=6)
    assert told == [7]
    settler.retire()
    for seated in range(6, -1, -1):
        settler.seat_left(seated=seated)
    assert told == [7] and reclaimed == []


async def test_a_seat_worker_not_retired_walks_its_heap_at_a_busy_moment_only_past_its_bound(settler, monkeypatch):
    """The table may not retire it yet (as many retire already as it allows): its departed seats wait for an idle
    moment, up to ``LADEN_MAX`` times as many as a process without workers would keep."""
    reclaimed, told = [], []
    monkeypatch.setattr(settler, "reclaim", lambda: reclaimed.append(settler._departed))
    settler.laden = told.append
    bound = ssh_heap.LADEN_MAX * 7
    for _ in range(bound - 1):
        settler.seat_left(seated=6)
    assert told == [7] and reclaimed == []
    settler.seat_left(seated=6)
    assert reclaimed == [bound]


async def test_a_retiring_worker_whose_seats_keep_coming_walks_its_heap_only_past_its_bound(settler, monkeypatch):
    """Retired, a worker is handed no connection, but a client's sessions multiplexed on one it holds (OpenSSH's
    ControlMaster) can still sit down and leave: past ``LADEN_MAX`` times the departures since it retired, it walks
    its heap, as one not retired would."""
    reclaimed = []
    monkeypatch.setattr(settler, "reclaim", lambda: reclaimed.append(settler._departed))
    settler.laden = lambda departed: None
    for _ in range(7):
        settler.seat_left(seated=6)
    settler.retire()
    for _ in range(ssh_heap.LADEN_MAX * 7 - 1):
        settler.seat_arrived()
        settler.seat_left(seated=6)
    assert reclaimed == []
    settler.seat_left(seated=6)
    assert reclaimed == [7 + ssh_heap.LADEN_MAX * 7]


@pytest.mark.long
async def test_a_laden_seat_worker_walked_at_an_idle_moment_is_laden_no_longer(caplog):
    caplog.set_level(logging.INFO, logger="test.heap")
    settler = HeapSettler(logging.getLogger("test.heap"), idle=0.01)
    told: list[int] = []
    settler.laden = told.append
    looks = Looks(settler, "_reclaim_if_idle")
    try:
        for _ in range(ssh_heap.RECLAIM_AT_LEAST):
            settler.seat_left(seated=1)
        assert told == [ssh_heap.RECLAIM_AT_LEAST]
        await looks(1)  # a look with nothing written
        assert told == [ssh_heap.RECLAIM_AT_LEAST, 0]
        assert f"heap reclaimed after {ssh_heap.RECLAIM_AT_LEAST} departures, at an idle moment" in caplog.text
    finally:
        settler.close()


@pytest.fixture
def collector_on():
    """The collector as a server runs it (the test process may have paused it), and as it was after."""
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


class Looks:
    """Counts the settler's looks of one kind (``method``, a name), and waits for the next ones.

    The wait returns as the look has run, before its next one can: the settler's
    next look is a timer, run after the waiting test's wake-up however late the
    loop is (a wait on the clock could see two looks on a loaded machine).
    """

    def __init__(self, settler: HeapSettler, method: str) -> None:
        self.count = 0
        self._looked = asyncio.Event()
        look = getattr(settler, method)

        def counted() -> None:
            look()
            self.count += 1
            self._looked.set()

        setattr(settler, method, counted)  # the settler's timers find it there from now on

    async def __call__(self, count: int) -> None:
        target = self.count + count
        while self.count < target:
            self._looked.clear()
            await self._looked.wait()


def _looks_at_frames(settler: HeapSettler) -> Looks:
    """Waits for the settler to look ``count`` times more at whether the frames are still being written."""
    return Looks(settler, "_look_at_frames")


async def test_the_collector_waits_until_a_commands_frames_are_out(collector_on):
    settler = HeapSettler(logging.getLogger("test.heap"), look=0.01, longest=3600)
    looks = _looks_at_frames(settler)
    try:
        settler.command()
        assert not gc.isenabled() and settler.collector_waits
        await looks(3)
        assert not gc.isenabled()  # no frame yet: the seats are taking the command in
        for _ in range(3):  # a frame a look
            settler.wrote()
            settler.command()  # (another command meanwhile: the same pause)
            await looks(1)
            assert not gc.isenabled()  # still drawing
        await looks(1)  # a look with nothing written: the frames are out
        assert gc.isenabled() and not settler.collector_waits
    finally:
        settler.close()


async def test_the_collector_waits_no_longer_than_the_longest_pause(collector_on):
    settler = HeapSettler(logging.getLogger("test.heap"), look=0.001, longest=0)
    looks = _looks_at_frames(settler)
    try:
        settler.command()  # a command no seat of this process redraws for, or one after another
        assert not gc.isenabled()
        await looks(1)
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
        await _past(settler.look)  # any look it had set up is due by now
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
    stop = game.subscribe(lambda outcome: heard.append(gc.isenabled()), role="regulars")  # as a seat's app listens
    try:
        game.execute('note "the collector waits"', role=REFEREE)
        assert heard == [False]
    finally:
        stop()
        await server.close()
        game.close()
    assert gc.isenabled()
