"""A venue on NATS (issue 51), against a real NATS server started from the project's dependencies.

Two tables publish their roles' views (``tui.ssh.venue.table``); relays follow the spectators'
(``tui.ssh.venue.relay``).  Every wait is on an event (a pass of the publisher, a view taken in
by a relay, a message on a websocket); timeouts are last guards only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import asyncssh
import msgspec
import nats
import pytest
from nats_server import NatsServer, nats_server

from core.game import Game
from core.log.views import REFEREE, SPECTATOR
from core.venue import STREAM_SIDES, STREAM_SPECTATORS, STREAM_WRITERS, read_claim, view_bytes
from tui.main import main as fireteam
from tui.ssh.host.server import Table
from tui.ssh.venue.connection import NatsOptions, ensure_streams
from tui.ssh.venue.relay import Relay
from tui.ssh.venue.signed import signed_headers
from tui.ssh.venue.table import TablePublisher

pytestmark = [pytest.mark.server, pytest.mark.subprocess]

#: A last guard: on a loaded machine NATS and the relays answer in milliseconds.
GUARD_S = 120.0
LOG = logging.getLogger("fireteam.venue.test")


def demo(path: Path) -> Game:
    game = Game.new(path, "breaking-news", seed=7, clock=lambda: 0)
    game.execute("scenario demo", role=REFEREE)
    game.execute("next", role=REFEREE)
    game.execute("next", role=REFEREE)  # deployment → initiative → activation: the regulars are active
    return game


def twin(game: Game, path: Path) -> Game:
    """The same save under another name (the same header to the second): a second laptop's copy."""
    shutil.copyfile(game.path, path)
    return Game.open(path, clock=lambda: 0)


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[NatsServer]:
    async with nats_server(tmp_path / "nats") as s:
        yield s


@pytest.fixture
async def client(server: NatsServer) -> AsyncIterator[object]:
    nc = await nats.connect(server.url)
    yield nc
    await nc.close()


async def publishing(tables: list[Table], server: NatsServer, **options) -> TablePublisher:
    publisher = TablePublisher(tables, NatsOptions(server.url), LOG, **options)
    publisher.start()
    return publisher


def venue_relays(server: NatsServer, count: int) -> list[Relay]:
    """``count`` relays of one venue: each given the others' keys (``fireteam relay --relay-keys``)."""
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(count)]
    return [Relay(NatsOptions(server.url), LOG, key=key, relay_keys=tuple(keys)) for key in keys]


async def caught_up(publisher: TablePublisher, *tables: Table) -> None:
    """Until the stream acknowledged every role's view of ``tables`` as the game stands now."""

    def done() -> bool:
        return all(
            publisher.published(t.name, role) == view_bytes(t.game, role)
            for t in tables
            for role in [*t.game.state.sides, "spectator"]
        )

    async with asyncio.timeout(GUARD_S):
        await publisher.until(done)


async def last(nc, stream: str, subject: str):
    return await nc.jetstream().get_last_msg(stream, subject)


async def test_each_role_s_subject_holds_what_fireteam_export_writes_and_the_referee_s_view_never_leaves(
    tmp_path: Path, server: NatsServer, client, capsys
):
    one, two = demo(tmp_path / "one.ft"), demo(tmp_path / "two.ft")
    tables = [Table("one", one), Table("two", two)]
    publisher = await publishing(tables, server)
    try:
        one.execute("move conti 3", role=REFEREE)
        one.execute("mark dahir pinned", role=REFEREE)
        two.execute("move rossi 2", role=REFEREE)
        await caught_up(publisher, *tables)
        for t in tables:
            for role in ("regulars", "irregulars", "spectator"):
                out = tmp_path / f"{t.name}-{role}.json"
                assert fireteam(["export", str(t.game.path), "--as", role, "-o", str(out)]) == 0
                stream, subject = (
                    (STREAM_SPECTATORS, f"fireteam.spectator.{t.name}")
                    if role == "spectator"
                    else (STREAM_SIDES, f"fireteam.side.{t.name}.{role}")
                )
                msg = await last(client, stream, subject)
                assert msg.data + b"\n" == out.read_bytes()
        pinned = await last(client, STREAM_SIDES, "fireteam.side.one.irregulars")
        assert b"pinned" in pinned.data  # their own piece's mark: the irregulars see it
        for subject in ("fireteam.spectator.one", "fireteam.side.one.regulars"):
            stream = STREAM_SPECTATORS if "spectator" in subject else STREAM_SIDES
            assert b"pinned" not in (await last(client, stream, subject)).data
        # No subject of any stream is the referee's.
        js = client.jetstream()
        for stream in (STREAM_SPECTATORS, STREAM_SIDES):
            info = await js.stream_info(stream, subjects_filter=">")
            assert info.state.subjects and not any("referee" in s for s in info.state.subjects)
            assert set(info.state.subjects.values()) == {1}  # one message kept per subject: the newest view
    finally:
        await publisher.close()
    claim = read_claim((await last(client, STREAM_WRITERS, "fireteam.writer.one")).data)
    assert claim is not None and claim.released  # a server that stops lets go of its tables


async def test_the_leak_oracle_finds_the_spectator_and_side_subjects_byte_identical(
    tmp_path: Path, server: NatsServer, client
):
    """The same game twice, at two tables, one with the referee's hidden marks besides: what the
    spectators and the regulars are given, bodies and message ids, does not differ by a byte."""
    plain = demo(tmp_path / "plain.ft")
    hidden = twin(plain, tmp_path / "hidden.ft")
    tables = [Table("plain", plain), Table("hidden", hidden)]
    publisher = await publishing(tables, server)
    watched = {"spectator": [], "regulars": []}

    async def record(msg) -> None:
        table, role = msg.subject.split(".")[2], msg.subject.split(".")[-1]
        role = "spectator" if msg.subject.startswith("fireteam.spectator.") else role
        if role in watched:
            watched[role].append((table, msg.headers["Nats-Msg-Id"].split(".", 1)[1], msg.data))

    sub = await client.subscribe("fireteam.>", cb=record)
    try:
        await caught_up(publisher, *tables)
        for line in ("move conti 3", "mark dahir pinned", "move rossi 2", "mark egal suppressed", "next", "undo"):
            plain_too = not line.startswith("mark")
            if plain_too:
                plain.execute(line, role=REFEREE)
            hidden.execute(line, role=REFEREE)
            await caught_up(publisher, *tables)
        await client.flush()
        for role, seen in watched.items():
            at = {name: [(mid, body) for table, mid, body in seen if table == name] for name in ("plain", "hidden")}
            assert at["plain"] == at["hidden"], role
            assert len(at["plain"]) >= 4  # each move, the turn's end and the undo: views that did change
        for stream, subject in (
            (STREAM_SPECTATORS, "fireteam.spectator.{}"),
            (STREAM_SIDES, "fireteam.side.{}.regulars"),
        ):
            a = await last(client, stream, subject.format("plain"))
            b = await last(client, stream, subject.format("hidden"))
            assert a.data == b.data
        # The irregulars saw their pieces marked: theirs differ (the oracle compares what should not).
        a = await last(client, STREAM_SIDES, "fireteam.side.plain.irregulars")
        b = await last(client, STREAM_SIDES, "fireteam.side.hidden.irregulars")
        assert a.data != b.data
    finally:
        await sub.unsubscribe()
        await publisher.close()


async def test_nats_stopped_and_started_again_mid_game_loses_nothing(tmp_path: Path, server: NatsServer):
    game = demo(tmp_path / "one.ft")
    table = Table("one", game)
    publisher = await publishing([table], server)
    relay = Relay(NatsOptions(server.url), LOG)
    try:
        # The views in the stream before the relay starts: one started first looks again only after ANNOUNCE_S
        # (2 s; test_two_relays_serve_the_venue_... starts its relays first).
        await caught_up(publisher, table)
        await relay.start()
        await server.stop()
        # The table plays on while NATS is gone: each command is in its save, none waits for NATS.
        for line in ("move conti 3", "move rossi 2", "mark dahir pinned"):
            game.execute(line, role=REFEREE)
        await server.start()
        await caught_up(publisher, table)
        async with asyncio.timeout(GUARD_S):
            await relay.until(
                lambda: "one" in relay.tables and relay.tables["one"].body == view_bytes(game, "spectator")
            )
        assert any("move rossi 2" in line for line in relay.tables["one"].lines)
        nc = await nats.connect(server.url)
        try:
            spectator = await last(nc, STREAM_SPECTATORS, "fireteam.spectator.one")
            assert spectator.data == view_bytes(game, "spectator")
            # One view more than before, whatever was re-sent: a view sent twice is a duplicate by its id.
            assert spectator.headers["Nats-Msg-Id"] == "one.spectator.2"
        finally:
            await nc.close()
    finally:
        await relay.close()
        await publisher.close()


async def test_a_table_restarted_after_a_crash_on_the_same_machine_publishes_again_by_itself(
    tmp_path: Path, server: NatsServer
):
    """Issue #75: after a ``kill -9`` the same table, started again on the same machine, published
    nothing until ``--nats-take-over``.  Its claim names the save it wrote: a server of that host
    that opened that save holds its lock, so the claim's server is gone."""
    game = demo(tmp_path / "one.ft")
    crashed = await publishing([Table("one", game)], server, host="laptop-a")
    await caught_up(crashed, Table("one", game))
    await crashed._nc.close()  # its connection gone with its process: nothing released
    await crashed.close()
    game.execute("move rossi 2", role=REFEREE)
    again = await publishing([Table("one", game)], server, host="laptop-a")
    try:
        await caught_up(again, Table("one", game))
        assert not again.refused()
    finally:
        await again.close()
    # Another save of that host (a copy of the table) is still refused: its server may be alive.
    other = twin(game, tmp_path / "copy.ft")
    held = await publishing([Table("one", game)], server, host="laptop-a")
    try:
        await caught_up(held, Table("one", game))
        copy = await publishing([Table("one", other)], server, host="laptop-a")
        try:
            async with asyncio.timeout(GUARD_S):
                await copy.until(lambda: "one" in copy.refused())
            assert "--nats-take-over" in copy.refused()["one"]
        finally:
            await copy.close()
    finally:
        await held.close()


async def test_a_second_laptop_opening_the_same_table_is_refused_by_the_fence(tmp_path: Path, server: NatsServer):
    for laptop in ("first", "second"):
        (tmp_path / laptop).mkdir()
    first = demo(tmp_path / "first" / "one.ft")
    second = twin(first, tmp_path / "second" / "one.ft")
    one = await publishing([Table("one", first)], server, host="laptop-a")
    try:
        await caught_up(one, Table("one", first))
        two = await publishing([Table("one", second)], server, host="laptop-b")
        try:
            async with asyncio.timeout(GUARD_S):
                await two.until(lambda: "one" in two.refused())
            assert "laptop-a" in two.refused()["one"] and "--nats-take-over" in two.refused()["one"]
            second.execute("move rossi 2", role=REFEREE)  # the refused laptop plays on, publishing nothing
            first.execute("move conti 3", role=REFEREE)
            await caught_up(one, Table("one", first))
        finally:
            await two.close()
        # A third, told the first laptop is gone, takes the table over; the first is then fenced off.
        third_game = twin(first, tmp_path / "one-taken.ft")
        third = await publishing([Table("one", third_game)], server, host="laptop-c", take_over=True)
        try:
            await caught_up(third, Table("one", third_game))
            async with asyncio.timeout(GUARD_S):
                await one.until(lambda: "one" in one.refused())
            first.execute("move greco 1", role=REFEREE)  # published nowhere: the table was taken over
            third_game.execute("move rossi 2", role=REFEREE)
            await caught_up(third, Table("one", third_game))
            assert "laptop-c" in one.refused()["one"]
            nc = await nats.connect(server.url)
            try:
                held = await last(nc, STREAM_SPECTATORS, "fireteam.spectator.one")
                assert held.data == view_bytes(third_game, "spectator")  # nothing of the fenced laptop's
            finally:
                await nc.close()
        finally:
            await third.close()
    finally:
        await one.close()


async def _feed(session: aiohttp.ClientSession, base: str, path: str):
    return await session.ws_connect(base.replace("http", "ws", 1) + path)


async def _until_message(ws, check) -> dict:
    async with asyncio.timeout(GUARD_S):
        while True:
            msg = await ws.receive()
            assert msg.type == aiohttp.WSMsgType.BINARY, msg
            data = msgspec.json.decode(msg.data)
            if check(data):
                return data


async def test_two_relays_serve_the_venue_and_a_relay_killed_moves_its_watchers(tmp_path: Path, server: NatsServer):
    one, two = demo(tmp_path / "one.ft"), demo(tmp_path / "two.ft")
    tables = [Table("one", one), Table("two", two)]
    publisher = await publishing(tables, server)
    relays = venue_relays(server, 2)
    try:
        for relay in relays:  # before the table has made the venue's streams: they wait for them
            await relay.start_web("127.0.0.1", 0)
            await relay.start()
        a, b = relays
        await caught_up(publisher, *tables)
        async with asyncio.timeout(GUARD_S):
            await a.until(lambda: b.public_url in a.live_relays() and len(a.tables) == 2)
        async with aiohttp.ClientSession() as session:
            venue = await _feed(session, a.public_url, "/live")
            data = await _until_message(venue, lambda d: len(d["tables"]) == 2)
            row = data["tables"][0]
            assert (row["table"], row["ruleset"], row["turn"]) == ("one", "Breaking News 1.5.1", 1)
            assert row["scenario"] and [s["side"] for s in row["scores"]] == ["Bersaglieri", "Somali militia"]
            page = await session.get(a.public_url + "/")
            assert page.status == 200 and "script-src 'self'" in page.headers["Content-Security-Policy"]

            watcher = await _feed(session, a.public_url, "/live/two")
            data = await _until_message(watcher, lambda d: d["summary"] is not None)
            told = data["relays"]
            assert sorted(told) == sorted([a.public_url, b.public_url])
            await a.close()  # killed: the watcher goes to another relay it was told of, as relay.js does
            try:
                msg = await watcher.receive()
            except aiohttp.ClientError:  # the relay's end went before the close could be answered
                pass
            else:
                assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
            other = next(url for url in told if url != a.public_url)
            watcher = await _feed(session, other, "/live/two")
            two.execute("move rossi 2", role=REFEREE)
            data = await _until_message(watcher, lambda d: any("move rossi 2" in line for line in d["lines"]))
            assert data["summary"]["table"] == "two"

            # A finished table's report, as the spectators saw it.
            two.execute("end-game regulars", role=REFEREE)
            data = await _until_message(watcher, lambda d: d["summary"]["result"])
            report = await session.get(other + "/report/two")
            text = await report.text()
            assert report.status == 200 and "After-action report" in text and "Bersaglieri" in text
            assert (await session.get(other + "/report/nosuch")).status == 404
    finally:
        for relay in relays:
            await relay.close()
        await publisher.close()


async def test_a_relay_refuses_what_is_not_a_spectators_view(tmp_path: Path, server: NatsServer, client):
    game = demo(tmp_path / "one.ft")
    table = Table("one", game)
    publisher = await publishing([table], server)
    relay = Relay(NatsOptions(server.url), LOG)
    try:
        # The views in the stream before the relay starts: one started first looks again only after ANNOUNCE_S
        # (2 s; test_two_relays_serve_the_venue_... starts its relays first).
        await caught_up(publisher, table)
        await relay.start()
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: "one" in relay.tables)
        js = client.jetstream()
        regulars = view_bytes(game, "regulars")  # a side's view put on a spectator subject
        forged = [b"not json", b"{}", regulars, b'{"fireteam_copy":1,' + b"9" * 5000 + b"}", b"<script>x</script>"]
        for i, body in enumerate(forged):
            await js.publish(f"fireteam.spectator.forged{i}", body, stream=STREAM_SPECTATORS)
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: relay.refused_messages >= len(forged))
        assert sorted(relay.tables) == ["one"]
        await client.publish("fireteam.relay.x", b'{"url": "javascript:alert(1)"}')
        await client.publish("fireteam.relay.y", b"x" * 10_000)
        game.execute("move conti 3", role=REFEREE)
        await caught_up(publisher, table)
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: relay.tables["one"].body == view_bytes(game, "spectator"))
        assert relay.live_relays() == []  # no relay announced an address a page could open
    finally:
        await relay.close()
        await publisher.close()


async def test_a_view_is_shown_with_its_signer_s_fingerprint_and_one_nobody_or_another_key_signed_is_not_the_table_s(
    tmp_path: Path, server: NatsServer, client
):
    """Issue #75: anyone who could publish on a spectator subject was shown as the table.  A view now
    comes with the fingerprint of the key that signed it (the table's SSH host key): one unsigned, or
    whose signature is not its key's, is dropped; one signed by another key than the table's first is
    shown, saying so loudly."""
    game = demo(tmp_path / "one.ft")
    table = Table("one", game)
    host_key = asyncssh.generate_private_key("ssh-ed25519")
    publisher = await publishing([table], server, key=host_key)
    relay = Relay(NatsOptions(server.url), LOG)
    intruder = asyncssh.generate_private_key("ssh-ed25519")
    ours, theirs = host_key.get_fingerprint(), intruder.get_fingerprint()
    try:
        # The views in the stream before the relay starts: one started first looks again only after ANNOUNCE_S
        # (2 s; test_two_relays_serve_the_venue_... starts its relays first).
        await caught_up(publisher, table)
        await relay.start_web("127.0.0.1", 0)
        await relay.start()
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: "one" in relay.tables and relay.tables["one"].body == view_bytes(game, SPECTATOR))
        async with aiohttp.ClientSession() as session:
            venue = await _feed(session, relay.public_url, "/live")
            row = (await _until_message(venue, lambda d: len(d["tables"]) == 1))["tables"][0]
            assert (row["table"], row["key"], row["key_warning"]) == ("one", ours, "")

            # A made-up state of the table (another game's view), published by someone without its key.
            made_up = demo(tmp_path / "made-up.ft")
            made_up.execute("end-game irregulars", role=REFEREE)
            forged = view_bytes(made_up, "spectator")
            subject, js = "fireteam.spectator.one", client.jetstream()
            tampered = signed_headers(host_key, subject, view_bytes(game, "spectator"))  # the table's, another body
            for headers in (None, tampered):
                refused = relay.refused_messages
                await js.publish(subject, forged, stream=STREAM_SPECTATORS, headers=headers)
                async with asyncio.timeout(GUARD_S):
                    await relay.until(lambda refused=refused: relay.refused_messages > refused)
                assert relay.tables["one"].body == view_bytes(game, "spectator") and relay.tables["one"].key == ours

            signed = signed_headers(intruder, subject, forged)
            await js.publish(subject, forged, stream=STREAM_SPECTATORS, headers=signed)
            row = (await _until_message(venue, lambda d: d["tables"][0]["key"] == theirs))["tables"][0]
            assert row["result"] and "KEY CHANGED" in row["key_warning"]
            assert ours in row["key_warning"] and theirs in row["key_warning"]

            # The table's next view, signed by its key: its own again, no warning.
            game.execute("move conti 3", role=REFEREE)
            row = (await _until_message(venue, lambda d: d["tables"][0]["key"] == ours))["tables"][0]
            assert row["key_warning"] == "" and not row["result"]
    finally:
        await relay.close()
        await publisher.close()


async def test_a_relay_address_is_offered_to_pages_only_when_a_relay_of_the_venue_signed_it(server: NatsServer, client):
    """Issue #75: a forged relay address was offered to every page.  An announcement is believed only
    signed by a key the relay was given (``--relay-keys``)."""
    relay, known = venue_relays(server, 2)
    intruder = asyncssh.generate_private_key("ssh-ed25519")
    await ensure_streams(client.jetstream())  # as a table makes them: a relay starts on the venue's streams
    try:
        await relay.start()
        await relay._nc.flush()  # its subscription to the announcements is the server's before any is sent

        async def announce(url: str, key: asyncssh.SSHKey | None) -> None:
            subject, body = "fireteam.relay.someone", msgspec.json.encode({"url": url})
            await client.publish(subject, body, headers=signed_headers(key, subject, body) if key else None)

        def heard() -> bool:  # (or a forged address believed: the assertion below says so at once)
            return "https://known.example" in relay.relays and (relay.refused_messages >= 2 or len(relay.relays) > 1)

        async with asyncio.timeout(GUARD_S):
            # All three said again each second, as a relay of the venue says its own each period, until
            # the known one is believed and the two others refused: an address said once is "live" for
            # three announcement periods only (6 s), which a loaded machine can let pass before the
            # check runs, and what is published while the relay's connection is down is never heard.
            # The second is a period, not a verdict.
            while not heard():
                await announce("https://unsigned.example", None)
                await announce("https://intruder.example", intruder)
                await announce("https://known.example", known.key)  # after the others: heard in order
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(1):
                        await relay.until(heard)
        assert list(relay.relays) == ["https://known.example"]  # the only address believed, so the only one offered
    finally:
        await relay.close()


def _permissions(doc: str) -> str:
    """The server configuration docs/ssh.md gives (its users, with passwords in clear for the test)."""
    start = doc.index("    authorization {")
    block = doc[start : doc.index("\n\n", start)]
    return "\n".join(line[4:] for line in block.splitlines()).replace('"$2a$11$..."', '"pw"') + "\n"


async def test_the_relays_credentials_of_the_docs_read_the_spectators_stream_only(tmp_path: Path):
    doc = (Path(__file__).resolve().parents[2] / "docs" / "ssh.md").read_text(encoding="utf-8")
    admin = '{ user: admin, password: "pw" }'
    config = _permissions(doc).replace("users = [", f"users = [\n    {admin}", 1)
    async with nats_server(tmp_path / "nats", config) as server:
        at = f"127.0.0.1:{server.port}"
        nc = await nats.connect(f"nats://admin:pw@{at}")
        try:
            await ensure_streams(nc.jetstream())  # a venue makes the streams once
        finally:
            await nc.close()
        game = demo(tmp_path / "table7.ft")
        table = Table("table7", game)
        publisher = TablePublisher([table], NatsOptions(f"nats://table7:pw@{at}"), LOG, chances_count=2)
        publisher.start()
        relay = Relay(NatsOptions(f"nats://relay:pw@{at}"), LOG)
        await relay.start()
        try:
            await caught_up(publisher, table)
            async with asyncio.timeout(GUARD_S):
                await relay.until(lambda: "table7" in relay.tables)
            errors: list[Exception] = []
            seen = asyncio.Event()
            # The server's refusal of the consumer a JetStream subscription asks for (its request is never answered).
            consumer = f'"$js.api.consumer.create.{STREAM_SIDES.lower()}'
            refused = asyncio.Event()

            async def error(e: Exception) -> None:
                errors.append(e)
                seen.set()
                if "permissions violation" in str(e).lower() and consumer in str(e).lower():
                    refused.set()

            spy = await nats.connect(f"nats://relay:pw@{at}", error_cb=error)
            try:
                await spy.subscribe("fireteam.side.>")
                async with asyncio.timeout(GUARD_S):
                    await seen.wait()
                assert "permissions violation" in str(errors[0]).lower()
                # Refused by the server as asked, not given up on once the request's wait (5 s) has passed.
                subscribing = asyncio.ensure_future(
                    spy.jetstream().subscribe("fireteam.side.>", stream=STREAM_SIDES, ordered_consumer=True)
                )
                heard = asyncio.ensure_future(refused.wait())
                async with asyncio.timeout(GUARD_S):
                    await asyncio.wait([subscribing, heard], return_when=asyncio.FIRST_COMPLETED)
                heard.cancel()
                if subscribing.done():  # answered: only with a refusal
                    with pytest.raises(Exception, match="(?i)permission|no responders"):
                        subscribing.result()
                else:
                    subscribing.cancel()
            finally:
                await spy.close()
            # A finished table's chances: the table may publish them, the relay read them.
            game.execute("end-game regulars", role=REFEREE)
            async with asyncio.timeout(GUARD_S):
                await relay.until(lambda: "table7" in relay.chances)
        finally:
            await relay.close()
            await publisher.close()


async def test_with_the_docs_credentials_only_a_table_publishes_its_chances_and_only_a_relay_an_address(tmp_path: Path):
    """Issue #75: anyone who could publish on the venue's NATS was believed (a forged relay address
    offered to every page, made-up chances shown as a table's).  With docs/ssh.md's credentials a
    relay may not publish a table's chances or views, nor a table another's or a relay's address."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "ssh.md").read_text(encoding="utf-8")
    async with nats_server(tmp_path / "nats", _permissions(doc)) as server:
        at = f"127.0.0.1:{server.port}"
        forged = {
            "relay": ["fireteam.chances.table7", "fireteam.spectator.table7", "fireteam.screen.table7.x"],
            "table7": ["fireteam.relay.table7", "fireteam.chances.table8", "fireteam.spectator.table8"],
        }
        for user, subjects in forged.items():
            errors: list[Exception] = []
            refused = asyncio.Event()

            async def error(e: Exception, errors=errors, refused=refused) -> None:
                errors.append(e)
                refused.set()

            nc = await nats.connect(f"nats://{user}:pw@{at}", error_cb=error)
            try:
                for subject in subjects:
                    refused.clear()
                    await nc.publish(subject, b'{"url": "https://forged.example"}')
                    async with asyncio.timeout(GUARD_S):
                        await refused.wait()
                    assert "permissions violation" in str(errors[-1]).lower() and subject in str(errors[-1])
            finally:
                await nc.close()


async def test_a_forged_view_is_replaced_by_the_restarted_tables_first_publish_and_the_table_says_so(
    tmp_path: Path, server: NatsServer, client, caplog
):
    """Issue #90, point 9: a view forged on the table's spectator subject stayed on the relay after
    the table restarted, until its next command: its first publish, numbered again from 1 (the
    stream held no view of its own to count from), was a repeat of its earlier run's message id,
    which the stream dropped as a duplicate, and the table believed it published.  Now the
    restarted table's first publish replaces the forged view, and its log names both."""
    caplog.set_level(logging.INFO, logger=LOG.name)
    game = demo(tmp_path / "one.ft")
    table = Table("one", game)
    host_key = asyncssh.generate_private_key("ssh-ed25519")
    first = await publishing([table], server, key=host_key)
    await caught_up(first, table)
    await first.close()
    relay = Relay(NatsOptions(server.url), LOG)
    try:
        await relay.start()
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: "one" in relay.tables and relay.tables["one"].key == host_key.get_fingerprint())
        made_up = demo(tmp_path / "made-up.ft")
        made_up.execute("end-game irregulars", role=REFEREE)
        forged, subject = view_bytes(made_up, SPECTATOR), "fireteam.spectator.one"
        intruder = asyncssh.generate_private_key("ssh-ed25519")
        await client.jetstream().publish(
            subject, forged, stream=STREAM_SPECTATORS, headers=signed_headers(intruder, subject, forged)
        )
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: relay.tables["one"].key == intruder.get_fingerprint())
        again = await publishing([table], server, key=host_key)  # the table restarted, no command since
        try:
            async with asyncio.timeout(GUARD_S):
                await relay.until(lambda: relay.tables["one"].key == host_key.get_fingerprint())
                # the relay can hear the view before the table has read its ack and logged what the
                # stream dropped: closing the table then would cut that short
                while not any("as a repeat" in r.getMessage() for r in caplog.records):
                    await asyncio.sleep(0.05)
            assert relay.tables["one"].body == view_bytes(game, SPECTATOR)
        finally:
            await again.close()
    finally:
        await relay.close()
    said = "\n".join(r.getMessage() for r in caplog.records if r.name == LOG.name)
    assert f"holds a view of spectator this server did not sign (signed by {intruder.get_fingerprint()}" in said
    assert "dropped the view of spectator as a repeat of an earlier message id (one.spectator.1)" in said
