"""The spectators' screens of a venue (issue 51): drawn once at the table (its shared screens), their
frames and key frames on core NATS, and served by relays to browsers' terminals, against a real
NATS server.  Every wait is on a message (a websocket's, NATS's) or a state; timeouts are last guards.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import msgspec
import nats
import pytest
from nats_server import NatsServer, nats_server
from rich.color import ColorSystem
from ssh_vt import Screen as Terminal
from test_venue_nats import GUARD_S, LOG, caught_up, demo, publishing, twin

from core.log.views import REFEREE
from core.venue import VenueError
from tui.ssh.host.server import Table
from tui.ssh.seating.sharedscreen import State
from tui.ssh.venue.connection import NatsOptions, ensure_streams
from tui.ssh.venue.frames import (
    Screen,
    checked_screen,
    frame_headers,
    read_frame,
    read_want,
    screen_subject,
    want_bytes,
    want_subject,
)
from tui.ssh.venue.relay import Relay

pytestmark = [pytest.mark.server, pytest.mark.subprocess]


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[NatsServer]:
    async with nats_server(tmp_path / "nats") as s:
        yield s


class Watcher:
    """A browser's terminal before a table's screen at a relay (as screen.mjs is)."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.told: dict = {}
        self.term: Terminal | None = None
        self.received = 0

    async def until(self, check) -> str:
        async with asyncio.timeout(GUARD_S):
            while self.term is None or not check(self.term.text()):
                msg = await self.ws.receive()
                if msg.type == aiohttp.WSMsgType.TEXT:
                    self.told = msgspec.json.decode(msg.data)
                    self.term = Terminal(self.told["cols"], self.told["rows"])
                    continue
                assert msg.type == aiohttp.WSMsgType.BINARY, msg
                assert self.term is not None, "bytes before the size"
                self.received += len(msg.data)
                self.term.feed(msg.data.decode())
        return self.term.text()


async def watch(session: aiohttp.ClientSession, relay: Relay, table: str, cols=100, rows=30) -> Watcher:
    url = relay.public_url.replace("http", "ws", 1) + f"/frames/{table}?lang=en&cols={cols}&rows={rows}"
    return Watcher(await session.ws_connect(url))


async def test_a_relay_serves_the_tables_spectators_screen_live_to_late_joiners_and_never_a_hidden_fact(
    tmp_path: Path, server: NatsServer
):
    plain = demo(tmp_path / "plain.ft")
    hidden = twin(plain, tmp_path / "hidden.ft")
    tables = [Table("plain", plain), Table("hidden", hidden)]
    publisher = await publishing(tables, server)
    relay = Relay(NatsOptions(server.url), LOG)
    try:
        # The views in the stream before the relay starts: one started first looks again only after ANNOUNCE_S
        # (2 s; test_two_relays_serve_the_venue_... starts its relays first).
        await caught_up(publisher, *tables)
        await relay.start_web("127.0.0.1", 0)
        await relay.start()
        async with aiohttp.ClientSession() as session:
            page = await session.get(relay.public_url + "/screen/plain")
            assert page.status == 200 and "style-src 'self' 'unsafe-inline'" in page.headers["Content-Security-Policy"]
            assert (await session.get(relay.public_url + "/xterm.mjs")).status == 200
            first = await watch(session, relay, "plain", cols=130, rows=45)
            text = await first.until(lambda t: "Conti" in t)
            assert (first.told["cols"], first.told["rows"]) == (120, 40)  # the largest shared size that fits
            plain.execute("move conti 3", role=REFEREE)
            text = await first.until(lambda t: "move conti 3" in t)
            # A late joiner is sent the whole screen at once: what the first one sees.
            late = await watch(session, relay, "plain", cols=130, rows=45)
            assert await late.until(lambda t: "move conti 3" in t) == text

            # The leak oracle, on screens: the same game with the referee's hidden marks besides.
            watchers = {"plain": first, "hidden": await watch(session, relay, "hidden", cols=130, rows=45)}
            hidden.execute("move conti 3", role=REFEREE)
            await watchers["hidden"].until(lambda t: "move conti 3" in t)
            for line in ("mark dahir pinned", "move rossi 2", "mark egal suppressed", "move greco 1"):
                if not line.startswith("mark"):
                    plain.execute(line, role=REFEREE)
                hidden.execute(line, role=REFEREE)
            shown = {name: await w.until(lambda t: "move greco 1" in t) for name, w in watchers.items()}
            title = {name: text.splitlines()[0] for name, text in shown.items()}
            assert "plain.ft" in title["plain"] and "hidden.ft" in title["hidden"]  # each save's own name
            assert shown["plain"].splitlines()[1:] == shown["hidden"].splitlines()[1:]  # and not a cell more
            assert "pinned" not in shown["hidden"] and "suppressed" not in shown["hidden"]
            # One drawing per screen at the table, whatever the number of watchers: two of plain's, one screen.
            assert len(publisher.screens.viewers) == 2 and len(relay.screens) == 2
    finally:
        await relay.close()
        await publisher.close()


async def test_a_table_draws_a_screen_only_for_a_relay_that_asks_and_a_key_frame_at_most_once_a_second(
    tmp_path: Path, server: NatsServer
):
    game = demo(tmp_path / "one.ft")
    table = Table("one", game)
    publisher = await publishing([table], server)
    nc = await nats.connect(server.url)
    frames: asyncio.Queue = asyncio.Queue()
    screen = Screen("one", "en", (80, 24))

    async def got(msg) -> None:
        await frames.put(read_frame(msg.headers, msg.data))

    try:
        await caught_up(publisher, table)
        assert publisher.screens is not None and publisher.screens.viewers == {}  # nobody asked: nothing drawn
        await nc.subscribe(screen_subject(screen), cb=got)
        for bad in (b"{}", b'{"lang": "xx", "cols": 80, "rows": 24}', b'{"lang": "en", "cols": 81, "rows": 24}'):
            await nc.publish(want_subject("one"), bad)
        await nc.publish(want_subject("one"), want_bytes(screen, key=True))
        async with asyncio.timeout(GUARD_S):
            key = await frames.get()
        assert key.key and "\x1b[2J" in key.text and list(publisher.screens.viewers) == [screen]
        assert publisher.screens.refused == 3
        game.execute("move conti 3", role=REFEREE)
        async with asyncio.timeout(GUARD_S):
            frame = await frames.get()
            while "conti" not in frame.text.lower():
                frame = await frames.get()
        assert not frame.key and frame.run == key.run and frame.number > key.number
        # Asked for key frames in a burst: the table sends them at most once a second.
        viewer = publisher.screens.viewers[screen]
        keys_before = viewer.keys
        for _ in range(20):
            await nc.publish(want_subject("one"), want_bytes(screen, key=True))
        async with asyncio.timeout(GUARD_S):
            while not (await frames.get()).key:
                pass
        await nc.flush()
        assert viewer.keys - keys_before <= 2
    finally:
        await nc.close()
        await publisher.close()


class SlowViewer:
    """A watcher whose unsent bytes the test sets."""

    color_system = None  # no colours: the relay brings them down for him

    def __init__(self) -> None:
        self.unsent = 0
        self.got: list[str] = []
        self.cut = False
        self.sent = asyncio.Event()

    async def sent_again(self) -> None:
        self.sent.clear()
        async with asyncio.timeout(GUARD_S):
            await self.sent.wait()

    def buffered(self) -> int:
        return self.unsent

    def send(self, data: str) -> None:
        self.got.append(data)
        self.sent.set()

    def fell_behind(self, seconds: float) -> None:
        self.cut = True

    def screen_ended(self, failed: bool) -> None:
        pass


async def test_a_slow_watcher_is_skipped_then_sent_the_whole_screen_and_a_forged_frame_reaches_nobody(
    tmp_path: Path, server: NatsServer
):
    nc = await nats.connect(server.url)
    relay = Relay(NatsOptions(server.url), LOG)
    screen = Screen("one", "en", (80, 24))
    subject = screen_subject(screen)

    async def frame(n: int, text: str, key: bool = False, run: str = "ab12") -> None:
        await nc.publish(subject, text.encode(), headers=frame_headers(run, n, key))

    try:
        await ensure_streams(nc.jetstream())  # as a table makes them: a relay waits for them
        await relay.start()
        slow, quick = SlowViewer(), SlowViewer()
        quick.color_system = ColorSystem.STANDARD

        # The first key frame is sent as a table sends it: in answer to the relay's requests for one (asked
        # again every few seconds while it has none; the same key frame taken twice is kept once), so that one
        # frame lost on a loaded machine does not hang the test: the claim here is what comes after it.
        async def answer(msg) -> None:
            asking = relay.screens.get(screen)
            if (asking is None or not asking.in_sync) and read_want("one", msg.data)[1]:
                await frame(1, "\x1b[H\x1b[2J\x1b[38;2;255;0;0mKEY", key=True)

        wants = await nc.subscribe(want_subject("one"), cb=answer)
        held = await relay.watch_screen(slow, "slow", screen)
        await relay.watch_screen(quick, "quick", screen)
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: held.in_sync)
        await wants.unsubscribe()  # the key frames after a gap below are the test's own
        assert quick.got == ["\x1b[H\x1b[2J\x1b[31mKEY"]  # true colour brought down to his terminal's
        slow.unsent = 10**9
        for n, text in ((2, "two"), (3, "three")):
            await frame(n, text)
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: held.number >= 3)
        assert quick.got[1:] == ["two", "three"]
        assert held.state(slow)[0] is State.BEHIND and slow.got == ["\x1b[H\x1b[2JKEY"]  # no colours: none
        slow.unsent = 0
        await slow.sent_again()  # the relay looks at the watchers behind every quarter second
        assert held.state(slow)[0] is State.LIVE
        assert slow.got[-1] == "\x1b[H\x1b[2JKEYtwothree"  # the key frame and the frames after it

        # Forged: a window title, a clipboard write, 8-bit controls, no headers, not UTF-8, a gap.
        for bad in ("\x1b]0;pwned\x07", "\x1b]52;c;ZXZpbA==\x07", "\x9b2J", "\x1bPq\x1b\\"):
            await frame(4, bad)
        await nc.publish(subject, b"no headers")
        await nc.publish(subject, b"\xff\xfe", headers=frame_headers("ab12", 4, False))
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: held.refused >= 6)
        taken = held.frames
        await frame(9, "after a gap")  # 4 to 8 were lost: nothing sent on until a key frame
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: held.frames > taken and not held.in_sync)
        assert quick.got[-1] == "three" and slow.got[-1].endswith("three")
        await frame(10, "\x1b[H\x1b[2JNEW", key=True)
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: held.in_sync)
        assert quick.got[-1] == slow.got[-1] == "\x1b[H\x1b[2JNEW"
    finally:
        await relay.close()
        await nc.close()


def test_a_screen_and_a_frame_s_headers_are_checked():
    assert checked_screen("one", "it", (100, 30)) == Screen("one", "it", (100, 30))
    for bad in (("one", "en", (99, 30)), ("one", "xx", (100, 30)), ("o*", "en", (100, 30))):
        with pytest.raises(VenueError):
            checked_screen(*bad)
    with pytest.raises(VenueError):
        read_frame({"Fireteam-Run": "zz", "Fireteam-Frame": "1", "Fireteam-Key": "0"}, b"x")
    with pytest.raises(VenueError):
        read_frame(frame_headers("ab", 1, False), b"x" * ((1 << 20) + 1))
