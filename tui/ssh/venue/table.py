"""``fireteam serve --nats URL``: a table publishes each role's view to the venue's JetStream.

The save stays the truth.  After each command (``Game.subscribe``, called once the
command is synced to the file) the publisher wakes, works out which roles' views changed
(``core.venue.TableViews``) and publishes those, each with its message id and fenced by
``Nats-Expected-Last-Subject-Sequence``: a publish lands only if the subject's last
message is the one this table published last.  Commands that come while a publish is
under way are taken together by the next one (a view is the whole log).

* NATS gone: the table plays on (nothing here is awaited by a command).  When NATS is
  back, the publisher reads what the stream holds and sends what it lacks: the newest view
  of each role, from the game (from its file), with the next message id.  A view that did
  land before the answer was lost is a duplicate by its id and is dropped by the stream.
* A second ``fireteam serve`` with the same table: a table is claimed on
  ``fireteam.writer.TABLE`` when publishing starts (fenced the same way); a claim held by
  another server is refused unless ``--nats-take-over`` (that server's laptop is gone) or it
  names this host and this save (this server holds the save's lock: that one crashed), and
  a server whose fenced publish is refused because another took the table over stops
  publishing it and says so.  Its players play on; its save is its own.
* Every view and every chances message is signed with the server's SSH host key
  (``tui.ssh.venue.signed``): a relay shows each table's key fingerprint, and believes no
  unsigned message (docs/ssh.md, *Who published a message*).

**A finished table's chances** (issue #62; ``core.report.venue``): once a game is over and
every secret opened (the spectators' rule, ``build.no_chances``), the server measures each
side's chances from the save (a relay cannot: they re-roll hidden orders too) and publishes
them on ``fireteam.chances.TABLE``.  In a thread, from the save opened read-only (the
game's own objects stay the event loop's), one table at a time, ``chances_count`` re-rolls
a step with a fixed seed; stopped with the server.  Chances already on the stream for the
same view are not measured again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import asyncssh
import msgspec

from core.game import Game
from core.log.views import REFEREE, SPECTATOR
from core.report.build import no_chances
from core.report.chances import DEFAULT_COUNT, chances
from core.report.venue import chances_bytes, read_chances, view_digest
from core.venue import (
    STREAM_CHANCES,
    STREAM_SIDES,
    STREAM_SPECTATORS,
    STREAM_WRITERS,
    Claim,
    Publication,
    TableViews,
    VenueError,
    chances_subject,
    count_in,
    read_claim,
    roles,
    view_bytes,
    view_subject,
    writer_subject,
)
from tui.ssh.host.server import Table
from tui.ssh.venue.caster import ScreenCaster
from tui.ssh.venue.connection import REQUEST_S, NatsOptions, connect_until_done, ensure_streams
from tui.ssh.venue.signed import signed_headers, signer

#: JetStream's error code for a publish whose expected last subject sequence is not the subject's.
WRONG_LAST_SEQUENCE = 10071


#: How many message ids in a row a view is published under that the stream drops as repeats of its
#: earlier run's (each one view of the stream's duplicate window, two minutes) before the table gives up
#: until its next command (a flood of ids published ahead by someone else).
MAX_REPEATED_IDS = 1000

#: The seed of the chances a table publishes: the same save gives the same chances.
CHANCES_SEED = 0


class Refused(Exception):
    """Another server holds the table (its claim, or a fenced publish refused)."""


class _Stopped(Exception):
    """The server stops: the chances being measured are left."""


class _Fenced:
    """One table's publishing: its views, its claim, and the last sequence of each of its subjects."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.views = TableViews(table.name)
        self.last: dict[str, int] = {}  # subject → its last sequence, as this table knows it
        self.claim_seq = 0
        self.refused = ""
        #: The chances measured (the digest of the spectators' view they are of, and their message).
        self.measured: tuple[str, bytes] | None = None
        #: The digest of the view whose chances the stream holds ("" none).
        self.chances_sent = ""


class TablePublisher:
    """Publishes the views of ``tables`` while the server runs (``start``, ``close``)."""

    def __init__(
        self,
        tables: Sequence[Table],
        options: NatsOptions,
        log: logging.Logger,
        *,
        take_over: bool = False,
        host: str | None = None,
        chances_count: int = DEFAULT_COUNT,
        key: asyncssh.SSHKey | None = None,
    ) -> None:
        self.options = options
        #: What signs every message published: the server's SSH host key (a key of its own when none is given).
        self.key = key or asyncssh.generate_private_key("ssh-ed25519")
        #: Re-rolls a step of a finished table's chances; 0: none measured (the stream out of reach).
        self.chances_count = chances_count
        self._measuring: asyncio.Task[None] | None = None
        self._thread: threading.Thread | None = None
        self._stop_measuring = threading.Event()
        self.log = log
        self.take_over = take_over
        self.claim = Claim(
            writer=secrets.token_hex(8),
            host=host or socket.gethostname(),
            since=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        )
        self._tables = [_Fenced(t) for t in tables]
        for t in self._tables:
            _subjects(t.table)  # a name no subject can hold stops the server before it starts
        #: Tables opened since the publishing began, not yet followed on NATS (``add``).
        self._added: list[_Fenced] = []
        self._wake = asyncio.Event()
        self._back = asyncio.Event()
        self._progress = asyncio.Condition()
        self._unsubscribe: list[Callable[[], None]] = []
        self._task: asyncio.Task[None] | None = None
        self._nc: Any = None
        #: The spectators' screens the relays want (``tui.ssh.venue.caster``), once connected.
        self.screens: ScreenCaster | None = None

    # ----------------------------------------------------------------- the server's side

    def start(self) -> None:
        # The referee's view is among those published: every command wakes it, hidden ones too.
        self._unsubscribe = [
            t.table.game.subscribe(lambda _outcome: self._wake.set(), role=REFEREE) for t in self._tables
        ]
        self._wake.set()  # the views as they stand at start
        self._task = asyncio.get_running_loop().create_task(self._run(), name="venue publisher")

    def add(self, table: Table) -> None:
        """A table opened while the server runs (an event's next round): claimed and published by
        the next pass; VenueError if its name can be no subject's."""
        _subjects(table)
        t = _Fenced(table)
        self._tables.append(t)
        self._added.append(t)
        if self._task is not None:
            self._unsubscribe.append(table.game.subscribe(lambda _outcome: self._wake.set(), role=REFEREE))
        self._wake.set()

    def _may_send(self, table: str) -> bool:
        """A table's screens are sent only while this server holds it (its claim, unrefused)."""
        return any(t.table.name == table and t.claim_seq and not t.refused for t in self._tables)

    def refused(self) -> dict[str, str]:
        """Each table this server may not publish, and why."""
        return {t.table.name: t.refused for t in self._tables if t.refused}

    async def until(self, check: Callable[[], bool]) -> None:
        """Wait until ``check()`` holds, looked at after each pass of the publisher (tests, the bench)."""
        async with self._progress:
            await self._progress.wait_for(check)

    def published(self, table: str, role: str = SPECTATOR) -> bytes | None:
        """The last view of ``role`` at ``table`` the stream acknowledged."""
        for t in self._tables:
            if t.table.name == table:
                return t.views.sent.get(role)
        return None

    async def close(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []
        self._stop_measuring.set()  # the thread ends at its next re-rolled game
        if self._measuring is not None:
            self._measuring.cancel()
            self._measuring = None
        if self._thread is not None and self._thread.is_alive():
            await asyncio.to_thread(self._thread.join, REQUEST_S)
        if self._task is not None:
            self._task.cancel()
            # Waited for within a bound: a task inside the NATS client that swallowed its
            # cancellation once held a server's stop for good (its error, if any, was logged).
            done, _pending = await asyncio.wait({self._task}, timeout=REQUEST_S)
            if not done:
                self.log.warning("venue: the publisher did not stop within %.0f s; its connection is closed", REQUEST_S)
            self._task = None
        if self.screens is not None:
            await self.screens.close()
            self.screens = None
        nc, self._nc = self._nc, None
        if nc is not None and nc.is_connected:
            js = nc.jetstream(timeout=REQUEST_S)
            for t in self._tables:
                if t.claim_seq and not t.refused:
                    await self._release(js, t)
        if nc is not None:
            await nc.close()

    # ----------------------------------------------------------------- publishing

    async def _run(self) -> None:
        self._nc = await connect_until_done(
            self.options, "fireteam serve", self.log, on_reconnect=self._back.set, on_disconnect=self._back.clear
        )
        js = self._nc.jetstream(timeout=REQUEST_S)
        # Another server's claim ends this one's publishing at once (the fence refuses its next view anyway).
        for t in self._tables:  # its own tables' claims only: a table's credentials may read no other's
            await self._nc.subscribe(writer_subject(t.table.name), cb=self._claimed)
        self._added.clear()  # (followed above, those added meanwhile too)
        self.screens = ScreenCaster(self._nc, [t.table for t in self._tables], self.log, may_send=self._may_send)
        await self.screens.start()
        self._back.set()
        while True:
            await self._back.wait()
            try:
                if await ensure_streams(js, optional=(STREAM_CHANCES,)):
                    if self.chances_count:
                        self.log.warning(
                            "venue: the chances' stream %s cannot be reached with these credentials "
                            "(see docs/ssh.md): finished tables' chances are not published",
                            STREAM_CHANCES,
                        )
                    self.chances_count = 0
                for t in self._tables:
                    await self._resume_fenced(js, t)
                while True:
                    await self._wake.wait()
                    self._wake.clear()
                    await self._pass(js)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # NATS gone, or an answer lost: the table plays on
                self.log.warning("NATS: views not published (%s); sent again once NATS answers", e or type(e).__name__)
                if self._nc.is_connected:
                    self._back.clear()
                    await asyncio.sleep(1.0)  # connected yet failing (JetStream not ready): try again shortly
                    self._back.set()
                self._wake.set()  # what was missed goes out after the resume

    async def _claimed(self, msg: Any) -> None:
        held = read_claim(msg.data)
        if held is None or held.released or held.writer == self.claim.writer:
            return
        for t in self._tables:
            if not t.refused and msg.subject == writer_subject(t.table.name):
                t.refused = f"fireteam serve on {held.host!r} took it over (since {held.since})"
                self.log.error("venue: table %s is no longer published from here: %s", t.table.name, t.refused)
        async with self._progress:
            self._progress.notify_all()

    async def _pass(self, js: Any) -> None:
        while self._added:  # tables opened since the publishing began: followed, then claimed
            added = self._added.pop(0)
            await self._nc.subscribe(writer_subject(added.table.name), cb=self._claimed)
            if self.screens is not None:
                await self.screens.add(added.table)
        for t in self._tables:
            if not t.claim_seq:
                await self._resume_fenced(js, t)
            if t.refused:
                continue
            try:
                changes = t.views.changes(t.table.game)
            except VenueError as e:
                self.log.error("venue: table %s not published: %s", t.table.name, e)
                continue
            for publication in changes:
                try:
                    await self._publish(js, t, publication)
                except Refused as e:
                    t.refused = str(e)
                    self.log.error("venue: table %s is no longer published from here: %s", t.table.name, e)
                    break
            else:
                await self._publish_chances(js, t)
        self._measure_next()
        async with self._progress:
            self._progress.notify_all()

    async def _publish(self, js: Any, t: _Fenced, p: Publication) -> None:
        from nats.js.errors import APIError

        stream = STREAM_SPECTATORS if p.role == SPECTATOR else STREAM_SIDES
        signed = signed_headers(self.key, p.subject, p.body)
        dropped: list[str] = []  # the ids the stream took for repeats
        while True:
            fence = str(t.last.get(p.subject, 0))
            headers = {"Nats-Msg-Id": p.msg_id, "Nats-Expected-Last-Subject-Sequence": fence, **signed}
            try:
                ack = await js.publish(p.subject, p.body, stream=stream, headers=headers)
            except APIError as e:
                if e.err_code != WRONG_LAST_SEQUENCE:
                    raise
                # Either another server published this subject, or the stream lost what it acknowledged
                # (a NATS server stopped hard before its sync): the claim says which.
                self.log.info(
                    "venue: table %s: the stream refused the view of %s (its last message is not the one this "
                    "server published last): read again and published again",
                    t.table.name,
                    p.role,
                )
                await self._check_claim(js, t)
                await self._resume(js, t)
                self._wake.set()  # published again, from what the stream holds now
                return
            if not ack.duplicate or await self._holds(js, p, ack.seq):
                break  # (a duplicate of this very view: sent again after its answer was lost)
            # An id this table used in an earlier run, within the stream's duplicate window (its count
            # started again from a view it did not sign): the stream kept what it holds, this view is lost.
            dropped.append(p.msg_id)
            if len(dropped) > MAX_REPEATED_IDS:
                self.log.error(
                    "venue: table %s: the stream dropped the view of %s as a repeat of %d message ids in a row "
                    "(%s … %s): not published; tried again after the next command",
                    t.table.name,
                    p.role,
                    len(dropped),
                    dropped[0],
                    dropped[-1],
                )
                return
            p = t.views.counted_on(p)
        if dropped:
            self.log.warning(
                "venue: table %s: the stream dropped the view of %s as a repeat of an earlier message id "
                "(%s%s): published again as %s",
                t.table.name,
                p.role,
                dropped[0],
                f" … {dropped[-1]}" if len(dropped) > 1 else "",
                p.msg_id,
            )
        t.last[p.subject] = ack.seq
        t.views.published(p)

    async def _holds(self, js: Any, p: Publication, seq: int) -> bool:
        """Whether the subject's last message, at ``seq``, is ``p``'s view, signed by this server."""
        msg = await _last(js, STREAM_SPECTATORS if p.role == SPECTATOR else STREAM_SIDES, p.subject)
        return msg is not None and msg.seq == seq and msg.data == p.body and self._ours(msg)

    # ----------------------------------------------------------------- the chances

    async def _publish_chances(self, js: Any, t: _Fenced) -> None:
        """The chances measured, if they are of the view the stream holds and it has not got them."""
        view = t.views.sent.get(SPECTATOR)
        if t.measured is None or view is None or t.refused:
            return
        digest, body = t.measured
        if not body or digest != view_digest(view) or digest == t.chances_sent:
            return
        msg_id = f"{t.table.name}.chances.{digest[:32]}"  # sent again after a lost answer: a duplicate
        subject = chances_subject(t.table.name)
        headers = {"Nats-Msg-Id": msg_id, **signed_headers(self.key, subject, body)}
        await js.publish(subject, body, stream=STREAM_CHANCES, headers=headers)
        t.chances_sent = digest
        self.log.info("venue: the chances of table %s published", t.table.name)

    def _measure_next(self) -> None:
        """Start measuring the chances of a finished table that lacks them (one at a time)."""
        if self._measuring is not None or self._stop_measuring.is_set() or not self.chances_count:
            return
        for t in self._tables:
            view = t.views.sent.get(SPECTATOR)
            if t.refused or view is None or no_chances(t.table.game, SPECTATOR, None):
                continue
            digest = view_digest(view)
            if digest != t.chances_sent and (t.measured is None or t.measured[0] != digest):
                self._measuring = asyncio.get_running_loop().create_task(
                    self._measure(t, view), name=f"chances of {t.table.name}"
                )
                return

    async def _measure(self, t: _Fenced, view: bytes) -> None:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[bytes | None] = loop.create_future()
        count, stop = self.chances_count, self._stop_measuring

        def work() -> None:
            try:
                result: tuple[bytes | None, BaseException | None] = (_measured(t.table.game, view, count, stop), None)
            except BaseException as e:
                result = (None, e)
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody waits for it
                loop.call_soon_threadsafe(_settle, done, *result)

        # A thread of its own, named, that ``close`` waits for (the default executor's would not say).
        self._thread = threading.Thread(target=work, name=f"chances of {t.table.name}", daemon=True)
        self._thread.start()
        try:
            body = await done
            # None: the save's view is another (an undo meanwhile): that view's pass measures it.
            t.measured = (view_digest(view), body or b"")
        except _Stopped:
            return
        except Exception as e:  # a save that no longer opens, a message too big: said, not measured again
            t.measured = (view_digest(view), b"")
            self.log.error("venue: the chances of table %s not measured: %s", t.table.name, e)
        self._measuring = None
        self._wake.set()  # published by the next pass, which also starts the next table's

    async def _resume_fenced(self, js: Any, t: _Fenced) -> None:
        if t.refused:
            return
        try:
            await self._resume(js, t)
        except Refused as e:
            t.refused = str(e)
            self.log.error("venue: table %s is no longer published from here: %s", t.table.name, e)

    async def _resume(self, js: Any, t: _Fenced) -> None:
        """Claim the table (or check the claim), and read what the stream holds of each of its views."""
        if not t.claim_seq:
            await self._claim(js, t)
            if t.refused:
                return
        else:
            await self._check_claim(js, t)
        for role in roles(t.table.game):
            subject = view_subject(t.table.name, role)
            stream = STREAM_SPECTATORS if role == SPECTATOR else STREAM_SIDES
            msg = await _last(js, stream, subject)
            if msg is None:
                t.last[subject] = 0
                t.views.sent.pop(role, None)
                continue
            t.last[subject] = msg.seq
            msg_id = (msg.headers or {}).get("Nats-Msg-Id", "")
            if self._ours(msg):
                t.views.resume(role, msg.data or b"", msg_id)
            else:
                # Another key's (this table's server before a new host key, or someone without its key):
                # published again, signed by this one, with a count past both (an id of its own run
                # repeated, within the stream's duplicate window, is dropped and counted on: ``_publish``).
                self.log.warning(
                    "venue: table %s: the stream holds a view of %s this server did not sign (%s, message id %r): "
                    "its own is published over it",
                    t.table.name,
                    role,
                    f"signed by {by}" if (by := signer(msg.subject, msg.data or b"", msg.headers)) else "unsigned",
                    msg_id[:100],
                )
                t.views.sent.pop(role, None)
                t.views.count[role] = max(t.views.count.get(role, 0), count_in(msg_id, t.table.name, role))
        if not self.chances_count:
            return
        msg = await _last(js, STREAM_CHANCES, chances_subject(t.table.name))
        try:
            ours = msg is not None and self._ours(msg)
            t.chances_sent = read_chances(msg.subject, msg.data or b"")[1].view if ours else ""
        except VenueError:
            t.chances_sent = ""

    def _ours(self, msg: Any) -> bool:
        """Whether this server's key signed ``msg``, as a relay checks it."""
        return signer(msg.subject, msg.data or b"", msg.headers) == self.key.get_fingerprint()

    async def _claim(self, js: Any, t: _Fenced) -> None:
        from nats.js.errors import APIError

        subject = writer_subject(t.table.name)
        msg = await _last(js, STREAM_WRITERS, subject)
        held = read_claim(msg.data or b"") if msg is not None else None
        save = str(t.table.game.path.resolve())
        # A claim of this host for this very save: its server is gone, since this one holds the save's
        # lock (a table restarted after a crash, on the same machine, publishes again by itself).
        crashed = held is not None and held.host == self.claim.host and held.save == save
        if (
            held is not None
            and not held.released
            and held.writer != self.claim.writer
            and not (self.take_over or crashed)
        ):
            t.refused = (
                f"fireteam serve on {held.host!r} publishes it (since {held.since}); if that server is gone, "
                "start this one with --nats-take-over"
            )
            self.log.error("venue: table %s not published: %s", t.table.name, t.refused)
            return
        expected = str(msg.seq if msg is not None else 0)
        try:
            ack = await js.publish(
                subject,
                msgspec.json.encode(msgspec.structs.replace(self.claim, save=save)),
                stream=STREAM_WRITERS,
                headers={"Nats-Expected-Last-Subject-Sequence": expected},
            )
        except APIError as e:
            if e.err_code != WRONG_LAST_SEQUENCE:
                raise
            t.refused = "another fireteam serve claimed it at the same moment"
            self.log.error("venue: table %s not published: %s", t.table.name, t.refused)
            return
        t.claim_seq = ack.seq
        self.log.info("venue: publishing table %s (%s)", t.table.name, "taken over" if held else "claimed")

    async def _check_claim(self, js: Any, t: _Fenced) -> None:
        msg = await _last(js, STREAM_WRITERS, writer_subject(t.table.name))
        held = read_claim(msg.data or b"") if msg is not None else None
        if held is None:  # the stream lost the claim (a hard stop of its server): claimed again
            t.claim_seq = 0
            await self._claim(js, t)
            if t.refused:
                raise Refused(t.refused)
        elif held.writer != self.claim.writer:
            raise Refused(f"fireteam serve on {held.host!r} took it over (since {held.since})")

    async def _release(self, js: Any, t: _Fenced) -> None:
        from nats.js.errors import APIError

        released = msgspec.structs.replace(self.claim, released=True)
        subject = writer_subject(t.table.name)
        try:
            await js.publish(
                subject,
                msgspec.json.encode(released),
                stream=STREAM_WRITERS,
                headers={"Nats-Expected-Last-Subject-Sequence": str(t.claim_seq)},
            )
        except APIError:
            pass  # taken over meanwhile: it is not ours to release
        except Exception as e:  # NATS gone at the end: the next server takes it over by hand
            self.log.warning("venue: table %s not released (%s)", t.table.name, e)


def _subjects(table: Table) -> None:
    """VenueError if a view of ``table`` can have no subject (its name is no venue's word)."""
    for role in roles(table.game):
        view_subject(table.name, role)


def _settle(done: asyncio.Future[bytes | None], result: bytes | None, error: BaseException | None) -> None:
    if done.done():  # the task was cancelled: the server stops
        return
    if error is not None:
        done.set_exception(error)
    else:
        done.set_result(result)


def _measured(game: Game, view: bytes, count: int, stop: threading.Event) -> bytes | None:
    """The chances message of ``game``'s save, if its spectators' view is still ``view`` (in a thread:
    the save opened read-only, none of the live game's objects touched but its path)."""
    copy = Game.open(game.path, writable=False)
    try:
        if view_bytes(copy, SPECTATOR) != view or no_chances(copy, SPECTATOR, None):
            return None  # an undo meanwhile: the next pass measures what stands

        def progress(_done: int, _total: int) -> None:
            if stop.is_set():
                raise _Stopped

        return chances_bytes(chances(copy, count, seed=CHANCES_SEED, progress=progress), view)
    finally:
        copy.close()


async def _last(js: Any, stream: str, subject: str) -> Any:
    """The last message of ``subject`` in ``stream``, or None."""
    from nats.js.errors import NotFoundError

    try:
        return await js.get_last_msg(stream, subject, direct=True)  # by subject: a per-table permission can allow it
    except NotFoundError:
        return None
