"""A finished table's chances on a venue's page (issue #62), against a real NATS server.

The table's server measures them from its save (``tui.ssh.venue.table``) and publishes them;
a relay shows them on the table's report (``tui.ssh.venue.watched``).  What a relay reads on
the chances' subject may be forged: too big, of another schema, or with markup in its words.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
import shutil
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import asyncssh
import msgspec
import nats
import pytest
from nats_server import NatsServer, nats_server
from test_venue_nats import GUARD_S, LOG, _permissions, caught_up, demo, publishing

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE, SPECTATOR
from core.report import chances_account
from core.report.build import build
from core.report.chances import chances
from core.report.escape import html_text
from core.report.venue import (
    MAX_CHANCES_BYTES,
    ChancesPoint,
    ChancesRoll,
    ChancesSwing,
    TableChances,
    view_digest,
)
from core.venue import STREAM_CHANCES, STREAM_SPECTATORS, chances_subject, view_bytes
from tui.ssh.host.server import Table
from tui.ssh.venue.connection import NatsOptions, ensure_streams
from tui.ssh.venue.relay import Relay
from tui.ssh.venue.signed import signed_headers
from tui.ssh.venue.table import CHANCES_SEED, TablePublisher

pytestmark = [pytest.mark.server, pytest.mark.subprocess]

#: Re-rolls a step: few, for time; the same count on both sides of the comparison.
COUNT = 2
SAVES = Path(__file__).resolve().parents[2] / "saves"
NOT_YET = "Not measured yet"


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[NatsServer]:
    async with nats_server(tmp_path / "nats") as s:
        yield s


async def _page(relay: Relay, table: str) -> str:
    async with aiohttp.ClientSession() as session:
        response = await session.get(f"{relay.public_url}/report/{table}")
        assert response.status == 200
        return await response.text()


async def test_a_finished_table_s_report_shows_the_chances_and_swings_the_core_measures_of_its_save(
    tmp_path: Path, server: NatsServer
):
    path = tmp_path / "demo.ft"
    shutil.copyfile(SAVES / "demo-game.ft", path)
    game = Game.open(path, clock=lambda: 0)
    publisher = await publishing([Table("demo", game)], server, chances_count=COUNT)
    relay = Relay(NatsOptions(server.url), LOG)
    try:
        await relay.start_web("127.0.0.1", 0)
        await relay.start()
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: "demo" in relay.tables and "demo" in relay.chances)
        expected = chances(Game.open(path, writable=False), COUNT, seed=CHANCES_SEED)
        assert len(expected.swings) == 3
        page = await _page(relay, "demo")
        assert NOT_YET not in page
        # The figures the core gives for this save and seed, rendered as the spectators see the game.
        report = dataclasses.replace(build(relay.tables["demo"].game, SPECTATOR), chances=expected)
        head, rows = chances_account.by_turn(report)
        for cell in [*head, *(c for row in rows for c in row)]:
            assert f"<td>{html_text(cell)}</td>" in page or f"<th>{html_text(cell)}</th>" in page, cell
        for line in [*chances_account.swings(report), chances_account.decided(report)]:
            assert html_text(line) in page, line
        assert "<svg" in page  # the chart, beside the table by turn (read without colour)
        assert publisher._measuring is None  # one measure, done
    finally:
        await relay.close()
        await publisher.close()


async def test_an_unfinished_table_s_report_has_no_chances_and_none_is_measured(tmp_path: Path, server: NatsServer):
    game = demo(tmp_path / "one.ft")
    table = Table("one", game)
    publisher = await publishing([table], server, chances_count=COUNT)
    relay = Relay(NatsOptions(server.url), LOG)
    try:
        # The views in the stream before the relay starts: one started first looks again only after ANNOUNCE_S
        # (2 s; test_two_relays_serve_the_venue_... starts its relays first).
        await caught_up(publisher, table)
        await relay.start_web("127.0.0.1", 0)
        await relay.start()
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: "one" in relay.tables)
        page = await _page(relay, "one")
        assert "chances" not in page.lower() and NOT_YET not in page
        assert publisher._measuring is None and relay.chances == {}
        nc = await nats.connect(server.url)
        try:
            with pytest.raises(nats.js.errors.NotFoundError):
                await nc.jetstream().get_last_msg(STREAM_CHANCES, chances_subject("one"))
        finally:
            await nc.close()
    finally:
        await relay.close()
        await publisher.close()


def _forged(game: Game, view: bytes, order: str, purpose: str) -> TableChances:
    """Chances of the right schema for ``game``'s view, with these words in its one swing."""
    a, b = game.state.sides
    points = [ChancesPoint(0, 0, -1, {a: 1, b: 1}, 2), ChancesPoint(9, 1, 0, {a: 1}, 0)]
    roll = ChancesRoll(ev.Roll(purpose=purpose, faces=(1,)), side=b)
    return TableChances(view_digest(view), 0, 2, [a, b], a, True, points, [ChancesSwing(0, 1, a, order, [roll])])


async def test_a_relay_drops_forged_chances_and_escapes_their_words(tmp_path: Path, server: NatsServer):
    game = demo(tmp_path / "one.ft")
    game.execute("end-game regulars", role=REFEREE)
    view = view_bytes(game, SPECTATOR)
    nc = await nats.connect(server.url)
    relay = Relay(NatsOptions(server.url), LOG)
    table_key, intruder = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))

    async def publish(body: bytes, key: asyncssh.SSHKey | None = table_key) -> None:
        subject = chances_subject("one")
        headers = signed_headers(key, subject, body) if key is not None else None
        await js.publish(subject, body, stream=STREAM_CHANCES, headers=headers)

    try:
        js = nc.jetstream()
        await ensure_streams(js)
        subject = "fireteam.spectator.one"  # the table's view, as a table would publish it: signed
        await js.publish(subject, view, stream=STREAM_SPECTATORS, headers=signed_headers(table_key, subject, view))
        await relay.start_web("127.0.0.1", 0)
        await relay.start()
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: "one" in relay.tables)
        assert NOT_YET in await _page(relay, "one")  # finished, not measured yet

        good = _forged(game, view, "<script>alert(1)</script>", "[red]<b>save</b>")
        forged = [
            b"not json",
            b"{}",
            b'{"view": "' + b"0" * 64 + b'"}',
            msgspec.json.encode(good)[:-1] + b',"extra":1}',
            msgspec.json.encode(msgspec.structs.replace(good, count=0)),
            msgspec.json.encode(msgspec.structs.replace(good, winner="nobody")),
            msgspec.json.encode(msgspec.structs.replace(good, swings=[ChancesSwing(1, 0, "regulars", "", [])])),
            msgspec.json.encode(msgspec.structs.replace(good, swings=[ChancesSwing(0, 1, "regulars", "x" * 1001, [])])),
            b'{"view":"' + b" " * MAX_CHANCES_BYTES + b'"}',
        ]
        for i, body in enumerate(forged, 1):  # one by one: the stream keeps only the last of a subject
            await publish(body)  # signed by the table's key: refused for what they are
            async with asyncio.timeout(GUARD_S):
                await relay.until(lambda i=i: relay.refused_messages >= i)
        assert relay.chances == {}
        assert NOT_YET in await _page(relay, "one")

        # Chances of another view (another game at that table) are not shown with this one.
        other = msgspec.structs.replace(good, view=view_digest(b"another view"))
        await publish(msgspec.json.encode(other))
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: relay.chances.get("one", (None,))[0] == other)
        assert NOT_YET in await _page(relay, "one")

        # Issue #75: chances nobody signed are dropped; chances another key signed are not the table's view's.
        refused = relay.refused_messages
        await publish(msgspec.json.encode(good), key=None)
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: relay.refused_messages > refused)
        assert relay.chances["one"][0] == other
        await publish(msgspec.json.encode(good), key=intruder)
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: relay.chances["one"] == (good, intruder.get_fingerprint()))
        assert NOT_YET in await _page(relay, "one")

        await publish(msgspec.json.encode(good))
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: relay.chances["one"] == (good, table_key.get_fingerprint()))
        page = await _page(relay, "one")
        assert NOT_YET not in page and "<script>" not in page and "<b>" not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;b&gt;save&lt;/b&gt;" in page
    finally:
        await relay.close()
        await nc.close()


async def test_credentials_without_the_chances_still_publish_and_show_the_views(tmp_path: Path):
    """A venue's users made before the chances (docs/ssh.md's, less their chances' lines): the
    table's views go out as before, a finished game's chances are not measured for nothing,
    and a relay shows the table."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "ssh.md").read_text(encoding="utf-8")
    config = _permissions(doc).replace("users = [", 'users = [\n    { user: admin, password: "pw" }', 1)
    chances = r'"[^"]*(?i:chances)[^"]*"'
    config = re.sub(rf",\s*{chances}(?=\s*\])", "", re.sub(rf"{chances},\s*", "", config))
    assert "CHANCES" not in config and "chances" not in config
    async with nats_server(tmp_path / "nats", config) as server:
        at = f"127.0.0.1:{server.port}"
        nc = await nats.connect(f"nats://admin:pw@{at}")
        try:
            await ensure_streams(nc.jetstream())
        finally:
            await nc.close()
        game = demo(tmp_path / "table7.ft")
        game.execute("end-game regulars", role=REFEREE)
        table = Table("table7", game)
        publisher = TablePublisher([table], NatsOptions(f"nats://table7:pw@{at}"), LOG, chances_count=COUNT)
        publisher.start()
        relay = Relay(NatsOptions(f"nats://relay:pw@{at}"), LOG)
        try:
            await caught_up(publisher, table)
            assert publisher._measuring is None and all(t.measured is None for t in publisher._tables)
            await relay.start()  # and a relay of those credentials shows the table
            async with asyncio.timeout(GUARD_S):
                await relay.until(lambda: "table7" in relay.tables)
        finally:
            await relay.close()
            await publisher.close()


async def test_a_server_that_stops_stops_its_measure(tmp_path: Path, server: NatsServer):
    path = tmp_path / "demo.ft"
    shutil.copyfile(SAVES / "demo-game.ft", path)
    table = Table("demo", Game.open(path, clock=lambda: 0))
    publisher = await publishing([table], server, chances_count=10_000)  # hours of re-rolls
    try:
        async with asyncio.timeout(GUARD_S):
            await publisher.until(lambda: publisher._measuring is not None)
        assert _measuring() == ["chances of demo"]
    finally:
        await publisher.close()
    assert _measuring() == []  # ended, not left re-rolling behind a stopped server


def _measuring() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("chances of")]
