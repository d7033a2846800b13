"""Keeping the server's garbage collector off the seats' backs.

Every seat's app is tens of thousands of long-lived objects (widgets, styles,
rendered lines), and Python's collector walks all of them in each full
collection: with 32 seats that is a pause of a quarter of a second, for every
seat at once, every few commands (each redraw leaves new objects that outlive
the young generations, and enough of them start a full collection).

So once the seats have settled (they stopped coming, and the server is no
longer busy drawing their first screens) the server collects what is not
frozen yet and then freezes what is alive (``gc.freeze``): the collector
leaves frozen objects alone, so that collection, and later full ones, only
walk what was made since the last settling (a new seat's app: tens of
milliseconds), never the whole heap (every seat's: a third of a second to a
second, paid by every seat of the process).  A seat worker does not even
walk that: it freezes it all, unwalked, what cycles left of it included, to
be freed at an idle moment or as the worker retires (below), since at a
table whose seats come and go that walk was a stall of its own, 10-90 ms
after each arrival.

A departed seat's app is freed by its references' counts where it can be;
what a reference cycle keeps alive of it (Textual's app, screens and widgets
hold each other), frozen, waits to be reclaimed: the whole heap unfrozen and
collected, a full walk.  That is done only when no seat is being drawn to
(nothing written to any seat for ``IDLE_S``, no command on its way), so no
seat waits for it.  A busy table is never idle for a second, and its departed
seats are kept, waiting, only until as many have left since the last reclaim
as were ever seated at once since it (``RECLAIM_AT_LEAST`` at least): no more
than as much again as its seats cost at their most.  Counted against the most
seated, not those still seated, a table emptying seat by seat meets it as its
last seat leaves, with nobody left to stall.  Then:

* In the server's own process (``fireteam serve --workers 0``) the heap is
  reclaimed there and then: a stall of every seat of the process (0.6–0.85 s
  at 16 seats), which only a table whose seats come and go without one idle
  second meets.
* In a seat worker (``tui.ssh.workers.pool``) the settler says so instead
  (:attr:`HeapSettler.laden`): the table retires the worker, which is handed
  no new connection and stops once its last has ended, its memory going back
  to the system with no walk at all (:meth:`HeapSettler.retire`).  If the
  table may not retire it yet (as many workers retire already as it allows,
  or none could take its place), the worker keeps waiting for an idle
  moment, and the table retires it as soon as it may.  Only past
  ``LADEN_MAX`` times as many departures does a worker walk its heap at a
  busy moment, so that its memory stays bounded whatever its neighbours'
  players do: one not retired yet, or a retiring one whose clients keep
  opening sessions on the connections it still holds (OpenSSH's
  ``ControlMaster``), the only seats that can still sit down in it.

And while a command reaches the seats of a process (each redraws and sends
its frame, tens of milliseconds for all of them) the collector waits
(:meth:`HeapSettler.command`): a collection then, young generations included
(a few milliseconds each, many more when the machine is loaded), was paid by
every seat still waiting for its frame.  It resumes once the frames are out
(something was written to the seats since the command, and nothing for a
while: :meth:`HeapSettler.wrote`), and collects what they left; at the latest
after ``FAN_OUT_MAX_S``, so that a stream of commands, or a command no seat
of the process redraws for, does not keep it off.  (Resuming after a fixed
time instead would, with commands a little closer together than that, start
a large collection in the middle of the next command's frames; and the
process's share of a core says nothing on a loaded machine, where a process
drawing flat out gets half of one.)
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable

#: Seconds after a seat sits down before the heap is settled.
SETTLE_S = 2.0
#: Seconds with nothing written to any seat after which the server is idle enough to reclaim departed seats.
IDLE_S = 1.0
#: Departures kept frozen, waiting for an idle moment, before they are reclaimed at a busy table anyway
#: (or as many as there are seats, if more), or, in a seat worker, before the worker asks to retire.
RECLAIM_AT_LEAST = 4
#: A seat worker the table may not retire yet walks its heap at a busy moment only once this many times
#: those departures wait: its memory's bound, the leftovers of twice as many seats as ever sat at once.
LADEN_MAX = 2
#: Settling waits while the server used more than this share of a core since the last look.
BUSY_SHARE = 0.5
#: Seconds between two looks, while the collector waits for a command's frames, at whether they are still written.
FAN_OUT_LOOK_S = 0.03
#: The longest the collector waits for the frames, in seconds (a process kept busy by command after command).
FAN_OUT_MAX_S = 1.0


class HeapSettler:
    """Collect and freeze the heap once the seats have stopped coming and going."""

    def __init__(
        self,
        log: logging.Logger,
        delay: float = SETTLE_S,
        look: float = FAN_OUT_LOOK_S,
        longest: float = FAN_OUT_MAX_S,
        idle: float = IDLE_S,
    ) -> None:
        self.log = log
        self.delay = delay
        self.idle = idle
        self.look = look
        self.longest = longest
        self._pending: asyncio.TimerHandle | None = None
        self._reclaim: asyncio.TimerHandle | None = None  # the next look for an idle moment, once a seat left
        self._departed = 0  # seats that left since the last reclaim
        self._most_seated = 0  # the most seats seated at once since the last reclaim
        self._writes_idle = 0  # writes to the seats at the last look for an idle moment
        self._resume: asyncio.TimerHandle | None = None  # the next look, while the collector waits
        self._paused_at = 0.0  # when it started waiting (``time.monotonic``)
        self._writes = 0  # writes to the seats so far
        self._writes_paused = 0  # ... when the collector started waiting
        self._writes_looked = 0  # ... at the last look
        self._closed = False
        self._cpu = 0.0  # process CPU time and wall time at the last look
        self._wall = 0.0
        #: In a seat worker: told, in place of a reclaim at a busy moment, how many departures wait in the
        #: frozen heap (then 0 once an idle moment's reclaim freed them).  None: reclaim (``--workers 0``).
        self.laden: Callable[[int], None] | None = None
        self._told = False  # laden was told of the departures waiting, and not since of a reclaim
        self._retired_at: int | None = None  # the departures counted as the process retired (None: it has not)

    def seat_arrived(self) -> None:
        """A seat sat down: settle the heap once things are quiet again."""
        if self._closed:
            return
        if self._pending is not None:
            self._pending.cancel()
        self._arm()

    def seat_left(self, seated: int) -> None:
        """A seat left, ``seated`` still sit: reclaim what it leaves at the next idle moment (or now, if
        enough have left and this is not a seat worker; a seat worker says it is laden)."""
        if self._closed:
            return
        self._departed += 1
        # Seats only leave one at a time: the most ever seated at once were seated just before a departure.
        self._most_seated = max(self._most_seated, seated + 1)
        enough = max(RECLAIM_AT_LEAST, self._most_seated)
        if self.laden is None:  # the server's own process: walked here and now
            if self._departed >= enough:
                self.reclaim()
                return
        elif self._retired_at is None:  # a seat worker still handed seats
            if self._departed >= LADEN_MAX * enough:
                self.log.warning("heap: %d departures wait and this worker may not retire yet", self._departed)
                self.reclaim()
                return
            if self._departed >= enough and not self._told:
                self._told = True
                self.laden(self._departed)
        elif self._departed - self._retired_at >= LADEN_MAX * enough:
            # Retiring, its seats leave and take nothing more: only a client's sessions multiplexed on a connection
            # it still holds (OpenSSH's ControlMaster) can sit down again and again, and reach this.
            self.log.warning("heap: %d departures since this worker retired, and seats still come", self._departed)
            self.reclaim()
            return
        if self._reclaim is None:
            self._look_for_idle()

    def retire(self) -> None:
        """This process is handed no more seats and stops once its last has left: what they leave is never
        walked at a busy moment (its memory goes back to the system as it stops)."""
        self._retired_at = self._departed

    def _look_for_idle(self) -> None:
        self._writes_idle = self._writes
        self._reclaim = asyncio.get_running_loop().call_later(self.idle, self._reclaim_if_idle)

    def _reclaim_if_idle(self) -> None:
        if self._writes == self._writes_idle and self._resume is None:
            self.reclaim(idle=True)
        else:
            self._look_for_idle()

    def command(self, _outcome: object = None) -> None:
        """A command is reaching every seat of this process (a game's listener): no collection until the
        frames are out.  Not if the collector is off already (someone else's pause): it is theirs to resume."""
        if self._closed or self._resume is not None or not gc.isenabled():
            return  # (a command while it waits: the looks go on until the frames are out)
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # a game changed outside the server's loop: no seat is drawing
            return
        gc.disable()
        self._paused_at = time.monotonic()
        self._writes_paused = self._writes
        self._look_later()

    def wrote(self) -> None:
        """Something was written to a seat's terminal (a frame, or part of one)."""
        self._writes += 1

    @property
    def collector_waits(self) -> bool:
        """The collector is paused for a command's frames."""
        return self._resume is not None

    def _look_later(self) -> None:
        self._writes_looked = self._writes
        self._resume = asyncio.get_running_loop().call_later(self.look, self._look_at_frames)

    def _look_at_frames(self) -> None:
        drawn = self._writes > self._writes_paused and self._writes == self._writes_looked
        if drawn or time.monotonic() - self._paused_at >= self.longest:
            self._resume_collector()
        else:
            self._look_later()  # no frame yet (the seats are taking the command in), or still drawing

    def _resume_collector(self) -> None:
        self._resume = None
        gc.enable()

    def _arm(self) -> None:
        self._cpu, self._wall = time.process_time(), time.monotonic()
        self._pending = asyncio.get_running_loop().call_later(self.delay, self._check)

    def _check(self) -> None:
        busy = (time.process_time() - self._cpu) / max(1e-9, time.monotonic() - self._wall)
        if busy > BUSY_SHARE:  # seats still drawing their first screens: their objects are not made yet
            self._arm()
        else:
            self._pending = None
            # In a seat worker the walk of what is new (10-90 ms as seats come) is not paid at all: what cycles
            # left is frozen with the rest, for an idle moment's reclaim or the worker's retirement.
            self.settle(walk=self.laden is None)

    def settle(self, *, walk: bool = True) -> None:
        """Collect what is not frozen yet (the frozen is not walked), then freeze what is alive (``walk`` False:
        freeze it all, what cycles left of it too, unwalked)."""
        # (No count of the frozen objects in the log: ``gc.get_freeze_count`` walks them all.)
        start = time.perf_counter()
        freed = gc.collect() if walk else 0
        gc.freeze()
        took = (time.perf_counter() - start) * 1000
        if walk:
            self.log.info("heap settled: %d objects freed, in %.0f ms", freed, took)
        else:
            self.log.info("heap settled: frozen unwalked, in %.0f ms", took)

    def reclaim(self, *, idle: bool = False) -> None:
        """Free what departed seats left frozen: the whole heap unfrozen and collected, then frozen again (``idle``:
        with no seat drawn to, the log says)."""
        if self._reclaim is not None:
            self._reclaim.cancel()
            self._reclaim = None
        start = time.perf_counter()
        departed, self._departed = self._departed, 0
        self._most_seated = 0  # (those still seated are counted again as the next one leaves)
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        self.log.info(
            "heap reclaimed after %d departures, at %s moment: %d objects freed, in %.0f ms",
            departed,
            "an idle" if idle else "a busy",
            freed,
            (time.perf_counter() - start) * 1000,
        )
        if self._retired_at is not None:
            self._retired_at = 0
        elif self._told:
            self._told = False
            if self.laden is not None:
                self.laden(0)

    def close(self) -> None:
        """The server stops: nothing stays frozen (the process may go on, as in tests)."""
        self._closed = True
        for timer in (self._pending, self._reclaim):
            if timer is not None:
                timer.cancel()
        self._pending = self._reclaim = None
        if self._resume is not None:
            self._resume.cancel()
            self._resume_collector()
        gc.unfreeze()
