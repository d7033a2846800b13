"""``fireteam serve --event EVENT``: the server opens the tables of the event's current round,
seats their players from the pairing, shows the round clock at every seat, and adds each game to
the event and the league by itself once both players confirmed it (docs/event.md).

* **Tables.** Each table of the current round is a game of its own (``core.event.tables``): its
  save made once beside the event file, its players named by their club keys in its first
  commands, before any roll.  When the organiser pairs the next round (``fireteam event pair``,
  on this machine or any that writes the same file), the server sees the file change within
  about a second (``POLL_S``) and opens the new round's tables beside the old ones, which stay
  open to look at.
* **Seats.** The server writes a seats file for the round (``EVENT-tables/seats.toml``, replaced
  whole each round, never edited by hand): each player at his table of the round only, for the
  side the pairing gave him, by the keys of his in the league's allowed signers; the organiser
  the referee of every table; the others (a bye, a player who dropped or is not paired yet) as
  spectators.  The server reads it as any seats file: a player whose table changed is told to
  connect again, and sits at his new table.  Keys an invitation bound are kept across rounds.
* **Clock.** Every seat of a table shows the round's clock as the event file holds it, with the
  table's extension (``round 2 ends 15:30, 42 min left``), in its own language; the organiser
  starts and extends it (``fireteam event clock``), never the server.
* **Results.** When a table's game has ended and a player of each side has confirmed it at his
  own seat, the server certifies the save and adds the game exactly as ``fireteam event add
  --key`` does (``core.event.tables.finish``), one table at a time, in a thread: the server is
  the tables' host, so it vouches for those seat confirmations with the organiser's key it was
  started with (``--organiser-key``; a key not his is refused as it starts).  What that refuses
  (a seat not bound to its player, a save that does not verify) is logged and shown at the
  table's seats in place of its clock; the table stays open for the organiser (a ruling, or
  ``event add`` with the players' signatures).

An event's server draws its seats in its own process (``--workers 0``): its tables come and go.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from core.event import eventfile, render
from core.event import league as leagues
from core.event import tables as event_tables
from core.event.league import folded
from core.event.state import Event, NotAllowed
from core.game import Game
from core.language.i18n import _
from core.log.outcome import Outcome
from core.log.views import REFEREE, SPECTATOR
from core.storage.errors import SaveError
from tui.ssh.host.tables import Table
from tui.ssh.seatsfile import Seat, bound_keys, seats_text

if TYPE_CHECKING:
    from tui.ssh.host.server import FireteamServer
    from tui.ssh.venue.table import TablePublisher

#: How often the event file is looked at (one stat), and the clocks said again if a minute went by.
POLL_S = 1.0
#: The seats file the server writes for the round, in the event's tables folder.
SEATS_NAME = "seats.toml"


class EventTables:
    """The tables of the event file at ``path`` (see the module's doc)."""

    def __init__(self, path: Path, log: logging.Logger, key: Path) -> None:
        self.path = path
        self.log = log
        self.event = eventfile.load(path)  # SaveError if it cannot be read, or is not an event
        #: The organiser's key, checked now (NotCounted if not his): it vouches for the seats' confirmations.
        self.key = key
        leagues.check_key(self.event.league, key)
        self.seats_path = event_tables.folder(path) / SEATS_NAME
        #: Every table opened, by name, and what it is of the event.
        self.tables: dict[str, Table] = {}
        self.seatings: dict[str, event_tables.Seating] = {}
        #: Why a table's confirmed game was not added (shown at its seats), by table.
        self.refused: dict[str, str] = {}
        self._finishing: set[str] = set()
        self._one_at_a_time = asyncio.Lock()
        self._shown: dict[str, tuple[int, int]] = {}  # table → (its end, minutes left) as last said
        self._stamp = self._stat()
        self._server: FireteamServer | None = None
        self._publisher: TablePublisher | None = None
        self._task: asyncio.Task[None] | None = None
        self._stops: list[asyncio.Task[None]] = []

    def _stat(self) -> tuple[int, int, int]:
        try:
            st = os.stat(self.path)
        except OSError:
            return (0, 0, 0)
        return (st.st_size, st.st_mtime_ns, st.st_ino)

    # ------------------------------------------------------------------ the round's tables

    def open_round(self) -> list[Table]:
        """The current round's tables not open yet, opened (their saves made), and the seats file
        written for the round: the tables opened now.  NotAllowed or SaveError if a table's save is
        not its game, or cannot be made (nothing is opened then)."""
        opened, failed = self._open_games()
        if failed:
            for _seating, game in opened:
                game.close()
            raise NotAllowed("; ".join(failed))
        return self._register(opened)

    def _open_games(self) -> tuple[list[tuple[event_tables.Seating, Game]], list[str]]:
        """The games of the current round's tables not open yet (a table ended by a ruling, with no
        save, is not opened), and why each that could not be was not."""
        opened, failed = [], []
        for seating in event_tables.seatings(self.path, self.event):
            ended = self.event.rounds[seating.round - 1].table(seating.table).ended
            if seating.name in self.tables or (ended and not seating.save.exists()):
                continue
            try:
                opened.append((seating, event_tables.open_game(self.event, seating)))
            except (NotAllowed, SaveError, OSError) as e:
                failed.append(f"{seating.name}: {e}")
        return opened, failed

    def _register(self, opened: list[tuple[event_tables.Seating, Game]]) -> list[Table]:
        """The games opened, served as tables (on the server, once attached), and the round's seats."""
        tables = []
        for seating, game in opened:
            table = Table(seating.name, game, notice=partial(self.notice, seating.name))
            self.tables[seating.name], self.seatings[seating.name] = table, seating
            self._shown[seating.name] = self._clock(seating.name, int(time.time() * 1000))  # (said as a seat sits)
            tables.append(table)
            if self._server is not None:
                self._follow(table)
        self.write_seats()
        return tables

    def write_seats(self) -> None:
        """The round's seats file, replaced whole (written beside it, synced, renamed over it)."""
        event = self.event
        keys: dict[str, list[str]] = {}
        for signer in event.league.signers:
            if not signer.revoked:
                keys.setdefault(signer.fingerprint, []).append(signer.key)
        seats: list[tuple[Seat, list[str]]] = []
        organiser = event.opened.organiser
        if folded(organiser) not in event.players:  # (an organiser who plays sits at his table)
            mine = [s.key for s in event.league.signers if s.identity == organiser and not s.revoked]
            seats.append((Seat(organiser, REFEREE), mine))
        where = {}
        for seating in event_tables.seatings(self.path, event):
            for side, player in seating.players.items():
                where[player.name] = Seat(player.name, side, tables=(seating.name,))
        for player in event.players.values():
            seats.append((where.get(player.name, Seat(player.name, SPECTATOR)), keys.get(player.key, [])))
        current = event.current.number if event.current else 0
        heading = (
            f"Written by fireteam serve --event {self.path.name} for round {current}: do not edit,\n"
            "it is written again for each round (docs/event.md)."
        )
        text = seats_text(seats, bound_keys(self.seats_path), heading)
        self.seats_path.parent.mkdir(parents=True, exist_ok=True)
        part = self.seats_path.with_name(self.seats_path.name + ".new")
        with open(part, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(part, self.seats_path)

    def notice(self, name: str) -> str:
        """What the seats of table ``name`` show beside the game, in the reader's language: the
        round's clock, or that the game is in the event (its receipt), or why it was not added."""
        seating = self.seatings[name]
        rnd = self.event.rounds[seating.round - 1]
        table = rnd.table(seating.table)
        if table.game is not None:
            return _("round {r}, table {t}: the game is in the event").format(r=rnd.number, t=table.number)
        if table.ruling is not None:
            return _("round {r}, table {t}: ended by the organiser's ruling").format(r=rnd.number, t=table.number)
        if name in self.refused:
            said = _("round {r}, table {t}: the game was not added to the event: {why}")
            return said.format(r=rnd.number, t=table.number, why=self.refused[name])
        return render.clock_line(rnd, table)

    # ------------------------------------------------------------------ following

    def attach(self, server: FireteamServer, publisher: TablePublisher | None = None) -> None:
        """Serve the tables opened so far on ``server`` (and the venue's ``publisher``), and from now
        on each table the event's next rounds open."""
        self._server, self._publisher = server, publisher
        for table in self.tables.values():
            table.game.subscribe(partial(self._played, table.name), role=REFEREE)
            self._finish_if_confirmed(table.name)  # confirmed before a restart

    def _follow(self, table: Table) -> None:
        assert self._server is not None
        self._server.add_table(table)
        if self._publisher is not None:
            self._publisher.add(table)
        table.game.subscribe(partial(self._played, table.name), role=REFEREE)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="event file")

    async def close(self) -> None:
        for task in [self._task, *self._stops]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._task = None

    def close_games(self) -> None:
        for table in self.tables.values():
            table.game.close()

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(POLL_S)
            try:
                await self.check()
            except Exception:  # a bug: logged with its traceback, and the tables go on being followed
                self.log.exception("event: %s not followed this time", self.path)

    async def check(self) -> None:
        """Read the event file again if it changed: a new round's tables opened; the clocks said."""
        stamp = self._stat()
        if stamp != self._stamp:
            self._stamp = stamp
            try:
                event = await asyncio.to_thread(eventfile.load, self.path)
            except (SaveError, OSError) as e:
                self.log.error("event: %s not read again, the tables stay as they are: %s", self.path, e)
            else:
                await self._changed(event)
        self._tick()

    async def _changed(self, event: Event) -> None:
        before = self.event.current.number if self.event.current else 0
        self.event = event
        now = event.current.number if event.current else 0
        if now != before or not self.tables:
            # Made in a thread (a save each, its first commands): the seats at the tables go on meanwhile.
            games, failed = await asyncio.to_thread(self._open_games)
            for why in failed:
                self.log.error("event: a table of round %d not opened: %s", now, why)
            opened = self._register(games)
            self.log.info("event: round %d paired: %d tables opened", now, len(opened))
        else:
            self.write_seats()  # a late entry or a drop: his seat as a spectator, or gone

    def _tick(self) -> None:
        """Each table's seats told when its clock changed (news: started, extended, up; else a
        minute gone, which only the screens show again)."""
        now = int(time.time() * 1000)
        for name in self.seatings:
            before, shown = self._shown.get(name), self._clock(name, now)
            if shown != before:
                self._shown[name] = shown
                news = before is None or before[0] != shown[0] or (shown[1] == 0 and before[1] != 0)
                self.tables[name].notice_changed(news)

    def _clock(self, name: str, now: int) -> tuple[int, int]:
        """What table ``name``'s clock says: when its time is up (-1 once it has ended; 0 before the
        round's clock starts), and the minutes left (rounded up; -1 without a clock)."""
        seating = self.seatings[name]
        rnd = self.event.rounds[seating.round - 1]
        table = rnd.table(seating.table)
        ends = rnd.ends_at(table)
        return (-1 if table.ended else ends, max(0, -(-(ends - now) // 60_000)) if ends else -1)

    # ------------------------------------------------------------------ results

    def _played(self, name: str, _outcome: Outcome) -> None:
        self._finish_if_confirmed(name)

    def _finish_if_confirmed(self, name: str) -> None:
        table = self.tables[name]
        if name in self._finishing or not event_tables.confirmed(table.game):
            return
        rnd = self.event.rounds[self.seatings[name].round - 1]
        if rnd.table(self.seatings[name].table).ended:
            return
        self._finishing.add(name)
        self._stops.append(asyncio.get_running_loop().create_task(self._finish(name), name=f"finish {name}"))

    async def _finish(self, name: str) -> None:
        seating = self.seatings[name]
        async with self._one_at_a_time:  # one table's certificate and adds at a time: the others' seats go on
            try:
                event, head = await asyncio.to_thread(event_tables.finish, self.path, seating, self.key)
            except (NotAllowed, SaveError, OSError) as e:
                self.refused[name] = str(e)
                self._finishing.discard(name)
                self.log.error("event: table %s not added: %s", name, e)
            else:
                self.refused.pop(name, None)
                self.event = event
                self.log.info("event: table %s added, receipt %s", name, render.receipt(head))
        self.tables[name].notice_changed(True)
