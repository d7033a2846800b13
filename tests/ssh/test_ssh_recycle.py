"""Seat workers are recycled, never made to walk their whole heap at a busy table
(``tui.ssh.workers.pool``, ``tui.ssh.workers.heap``).

A worker as many of whose seats have left as ever sat in it at once (four at
least) retires: no new connection goes to it, the standby takes its place,
and it serves the seats it has until the last leaves, then stops.  Served by
``fireteam serve --workers 1`` here: one worker takes the connections, one
waits as the standby, and at most one retires at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from ssh_club import WAIT_S, Club, Player, served_by_workers, wait_until
from test_ssh_workers import worker_of

from tui.ssh.host.server import ORGANISER

pytestmark = [pytest.mark.server, pytest.mark.subprocess]

#: With ``--workers 1``: the worker that takes connections, the standby, and one retiring.
MOST_WORKERS = 3
#: Comings and goings a test allows before it gives up on a worker retiring (four are enough, but a
#: loaded machine may give its worker an idle second, in which it walks its heap and counts again).
MOST_ROUNDS = 20
#: Seconds between two of a typing player's keys: well under the idle second (``tui.ssh.workers.heap.IDLE_S``).
KEY_S = 0.1


@pytest.fixture
async def club(tmp_path: Path, caplog) -> AsyncIterator[Club]:
    async with served_by_workers(tmp_path, caplog, workers=1) as club:
        yield club


@contextlib.asynccontextmanager
async def typing(player: Player) -> AsyncIterator[None]:
    """``player`` types a letter and rubs it out, again and again: his worker always has a frame to write, never
    the idle second in which it would walk its heap, as at a busy table."""
    letters = [0]

    async def type_on() -> None:
        while True:
            player.type("\x7f" if letters[0] else "x")
            letters[0] ^= 1
            await asyncio.sleep(KEY_S)

    task = asyncio.create_task(type_on())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        if letters[0]:
            player.type("\x7f")


async def come_and_go(club: Club, seat: str, done: Callable[[], bool]) -> list[int]:
    """``seat`` sits down and leaves, again and again until ``done()``: the workers he sat in, in turn."""
    sat_in: list[int] = []
    while not done():
        assert len(sat_in) < MOST_ROUNDS, f"{seat} came and went {MOST_ROUNDS} times:\n{club.log()}"
        seated, left = club.log().count(f" seated seat={seat} "), club.log().count(f" left seat={seat} ")
        player = await club.connect(seat)
        await wait_until(lambda seated=seated: club.log().count(f" seated seat={seat} ") > seated)
        sat_in.append(worker_of(club, seat))
        await player.close()
        await wait_until(lambda left=left: club.log().count(f" left seat={seat} ") > left)
        assert len(club.server.workers) <= MOST_WORKERS
    return sat_in


def retires(club: Club, index: int) -> Callable[[], bool]:
    return lambda: f"seat worker {index} retires:" in club.log()


def walked_at_a_busy_moment(club: Club) -> list[str]:
    """The lines of a worker's heap walked whole while its seats were drawn to (at an idle moment is no stall)."""
    return [ln for ln in re.findall(r".*heap reclaimed.*", club.log()) if "at an idle moment" not in ln]


def indices(club: Club) -> set[int]:
    return {w.index for w in club.server.workers}


async def rita_s_worker_retires(club: Club) -> tuple[Player, int, list[int]]:
    """Rita sits and types on while irr comes and goes until her worker retires: her, its index, and the workers
    irr sat in."""
    rita = await club.seated("rita", "rita (referee)")
    first = worker_of(club, "rita")
    async with typing(rita):  # never an idle second in her worker
        sat_in = await come_and_go(club, "irr", retires(club, first))
    return rita, first, sat_in


async def test_a_worker_that_many_seats_left_retires_serves_its_last_seat_and_stops_once_it_leaves(club):
    rita, first, sat_in = await rita_s_worker_retires(club)
    assert sat_in[:4] == [first] * 4
    # Retired: the next seat sits in the standby that took its place.
    irr = await club.seated("irr", "irr (Somali militia)")
    await wait_until(lambda: club.log().count(" seated seat=irr ") > len(sat_in))
    assert worker_of(club, "irr") != first
    # Its seat plays on: her command is recorded and shown to the others, and she hears of theirs.
    rita.command('note "from the retiring worker"')
    await irr.wait_for("from the retiring worker")
    irr.command('note "from the new one"')
    await rita.wait_for("from the new one")
    who = await club.run("spec", "who")
    assert "rita (referee)" in who.stdout
    # Kicked, she was its last connection: it stops, and is not replaced (its place was taken as it retired).
    assert club.server.kick("rita", ORGANISER) == 1
    await rita.wait_for("the organiser closed your seat")
    await asyncio.wait_for(rita.closed.wait(), WAIT_S)
    await rita.close()  # (as ssh does once its session has ended)
    await wait_until(lambda: f"seat worker {first} retired: stopped with its last connection" in club.log())
    assert first not in indices(club)
    # Left: the one taking the seats, and the standby started behind it.
    await wait_until(lambda: len(club.server.workers) == 2 and all(w.ready.done() for w in club.server.workers))
    assert walked_at_a_busy_moment(club) == []


async def test_no_more_workers_retire_at_once_than_the_bound_and_a_laden_one_waits_its_turn(club):
    rita, first, _sat_in = await rita_s_worker_retires(club)
    reg = await club.seated("reg", "reg (Bersaglieri)")
    await wait_until(lambda: " seated seat=reg " in club.log())
    second = worker_of(club, "reg")
    assert second != first
    # The second worker is laden too while the first still serves rita: as many retire as may (one).
    waits = rf"seat worker {second} has had \d+ seats leave since its heap was last walked, but 1 workers retire"
    async with typing(reg):
        sat_in = await come_and_go(club, "irr", lambda: re.search(waits, club.log()) is not None)
        assert set(sat_in) == {second}  # it still takes the new seats
        assert not retires(club, second)()
        # Rita leaves: the first worker stops, and the second retires in its place.
        await rita.close()
        await wait_until(lambda: f"seat worker {first} retired: stopped" in club.log())
        await wait_until(retires(club, second))
    assert len(club.server.workers) <= MOST_WORKERS
    reg.command('note "from the second to retire"')
    await wait_until(lambda: club.game.log_lines(role="referee")[-1].text == "note: from the second to retire")
    assert walked_at_a_busy_moment(club) == []


async def test_a_retiring_worker_that_dies_is_not_replaced(club):
    rita, first, _sat_in = await rita_s_worker_retires(club)
    # The new standby, behind the one that took its place, is up.
    await wait_until(lambda: len(club.server.workers) == 3 and all(w.ready.done() for w in club.server.workers))
    others = indices(club) - {first}
    dying = next(w for w in club.server.workers if w.index == first)
    dying.proc.send_signal(signal.SIGKILL)
    await asyncio.wait_for(rita.closed.wait(), WAIT_S)
    await wait_until(
        lambda: f"seat worker {first} stopped (status -9) while retiring, with 1 connections" in club.log()
    )
    # Nothing starts in its place: the standby that took it takes the seats, a standby waits behind it.
    assert indices(club) == others and not club.server._standby_starting
    rita = await club.seated("rita", "rita (referee)")
    assert indices(club) == others and "starting another" not in club.log()
