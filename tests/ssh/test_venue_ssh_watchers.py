"""Spectators watching a venue's tables over SSH from a relay (issue 51: ``fireteam relay --port``),
against a real NATS server and real SSH clients with a terminal.  Every wait is on what the
terminal shows or on a state; timeouts are last guards.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest
from nats_server import NatsServer, nats_server
from ssh_club import Player, wait_until
from test_venue_nats import GUARD_S, LOG, caught_up, demo, publishing

from core.log.views import REFEREE
from tui.ssh.host.server import Table
from tui.ssh.venue.connection import NatsOptions
from tui.ssh.venue.relay import Relay
from tui.ssh.venue.sshwatch import MAX_PICK, start_ssh

pytestmark = [pytest.mark.server, pytest.mark.subprocess]


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[NatsServer]:
    async with nats_server(tmp_path / "nats") as s:
        yield s


@pytest.fixture
async def venue(tmp_path: Path, server: NatsServer):
    """Two tables published to NATS, and a relay with an SSH door: (relay, its SSH port, the tables)."""
    tables = [Table("alpha", demo(tmp_path / "alpha.ft")), Table("bravo", demo(tmp_path / "bravo.ft"))]
    publisher = await publishing(tables, server)
    relay = Relay(NatsOptions(server.url), LOG)
    acceptor = None
    try:
        await relay.start_web("127.0.0.1", 0)
        # The views in the stream before the relay starts: one started first looks again only after ANNOUNCE_S
        # (2 s; test_two_relays_serve_the_venue_... starts its relays first).
        await caught_up(publisher, *tables)
        await relay.start()
        async with asyncio.timeout(GUARD_S):
            await relay.until(lambda: all(relay.tables.get(t.name) and relay.tables[t.name].summary for t in tables))
        key = asyncssh.generate_private_key("ssh-ed25519")
        acceptor = await start_ssh(relay, "127.0.0.1", 0, key)
        yield relay, acceptor.get_port(), tables
    finally:
        if acceptor is not None:
            acceptor.close()
        await relay.close()
        await publisher.close()
        for t in tables:
            t.game.close()


async def connect(port: int, username: str, size=(100, 30), env=None) -> Player:
    """A terminal logged in with no key and no password, as a watcher in the hall would."""
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=username, known_hosts=None, agent_path=None, client_keys=None, password=None
    )
    player = Player(*size)
    chan, _ = await conn.create_session(
        lambda: player, term_type="xterm-256color", term_size=size, encoding="utf-8", env=env
    )
    player.conn, player.chan = conn, chan
    return player


async def test_a_watcher_named_after_a_table_watches_its_screen_live_and_leaves_with_q(venue):
    relay, port, tables = venue
    alpha = tables[0].game
    watcher = await connect(port, "alpha", size=(130, 45))
    try:
        await watcher.wait_for("Conti", "alpha.ft")
        # The largest shared size that fits his terminal: the screen a browser of that size is sent.
        assert [s.size for s in relay.screens] == [(120, 40)]
        assert relay.watchers == 1
        alpha.execute("move conti 3", role=REFEREE)
        await watcher.wait_for("move conti 3")
        watcher.type("x")  # any key but the leaving ones reaches nothing
        watcher.type("q")
        async with asyncio.timeout(GUARD_S):
            await watcher.closed.wait()
        await wait_until(lambda: relay.watchers == 0)
        assert not any(relay.screens[s].viewers for s in relay.screens)
    finally:
        await watcher.close()


async def test_any_other_name_is_shown_the_tables_and_picks_one_by_number_or_name(venue):
    relay, port, _tables = venue
    watcher = await connect(port, "hall")
    try:
        shown = await watcher.wait_for("The tables of this venue", "alpha", "bravo")
        assert "1  alpha: Breaking News 1.5.1, Checkpoint at Afgooye, turn 1 (Bersaglieri 0," in shown
        assert "2  bravo: Breaking News 1.5.1" in shown
        assert relay.tables["alpha"].key.startswith("SHA256:")  # each table with its key's fingerprint (#75)
        assert f"signed by {relay.tables['alpha'].key}" in shown
        await watcher.typed("7\r", "no table '7' at this venue")
        await watcher.typed("2\r", "bravo.ft", "Conti")
        assert {s.table for s in relay.screens} == {"bravo"}
    finally:
        await watcher.close()
    second = await connect(port, "hall")
    try:
        await second.wait_for("Type a table's number or name")
        await second.typed("alpha\r", "alpha.ft")
    finally:
        await second.close()


async def test_a_watcher_who_picked_a_table_and_left_leaves_no_error_behind(venue, caplog):
    # Leaving after the pick once told the picker he left (an exception on a question no one
    # asked any more), which asyncio logged as "Future exception was never retrieved" when
    # the session was collected: in whatever test ran then (a full run's stray error).
    relay, port, _tables = venue
    watcher = await connect(port, "hall")
    try:
        await watcher.wait_for("Type a table's number or name")
        await watcher.typed("1\r", "alpha.ft")
    finally:
        await watcher.close()
    # And one whose connection is cut while the tables are listed, before he picks.
    cut = await connect(port, "hall")
    await cut.wait_for("Type a table's number or name")
    cut.conn.abort()
    await wait_until(lambda: relay.watchers == 0)
    await asyncio.sleep(0)  # (the sessions' last callbacks)
    gc.collect()
    assert not [r for r in caplog.records if r.name == "asyncio"], caplog.text


async def test_a_resized_terminal_is_sent_the_shared_size_that_fits_it_now(venue):
    relay, port, _tables = venue
    watcher = await connect(port, "alpha", size=(100, 30))
    try:
        await watcher.wait_for("alpha.ft")
        watcher.resize(130, 45)
        await wait_until(lambda: any(s.size == (120, 40) and relay.screens[s].viewers for s in relay.screens))
        await watcher.wait_for("alpha.ft")
    finally:
        await watcher.close()


async def test_what_a_stranger_sends_reaches_nothing(venue):
    """No command runs; the picker echoes only printable characters, at most MAX_PICK of them;
    Ctrl+C at the picker leaves."""
    relay, port, _tables = venue
    async with asyncssh.connect(
        "127.0.0.1", port, username="hall", known_hosts=None, agent_path=None, client_keys=None
    ) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.run("cat /etc/passwd", check=True)
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.start_sftp_client()
    watcher = await connect(port, "hall")
    try:
        await watcher.wait_for("Type a table's number or name")
        await watcher.typed("\x1b]0;owned\x07\r", "no table ']0;owned' at this venue")
        raw = "".join(watcher.raw)
        assert "\x1b]0;" not in raw and "\x07" not in raw  # the escape's printable part only, as text
        watcher.type("a" * (MAX_PICK + 50) + "\r")
        typed = "(Ctrl+C leaves): " + "a" * MAX_PICK + "\r\nno table '" + "a" * MAX_PICK + "' at this venue"
        await wait_until(lambda: typed in "".join(watcher.raw), show=lambda: "".join(watcher.raw)[-400:])
        watcher.type("\x03")
        async with asyncio.timeout(GUARD_S):
            await watcher.closed.wait()
        await wait_until(lambda: relay.watchers == 0)
    finally:
        await watcher.close()


async def test_one_address_holds_at_most_per_address_connections(venue, monkeypatch):
    """A hall's phones share an address, so the bound is wide; past it a connection is closed at
    once, before any key exchange, and one that goes makes room for another."""
    from tui.ssh.venue import sshwatch

    monkeypatch.setattr(sshwatch, "PER_ADDRESS", 2)
    relay, port, _tables = venue
    first, second = await connect(port, "alpha"), await connect(port, "bravo")
    try:
        await first.wait_for("alpha.ft")
        with pytest.raises((asyncssh.Error, OSError)):
            await connect(port, "alpha")
        await first.close()
        await wait_until(lambda: relay.watchers == 1)  # the server saw it go
        third = await connect(port, "alpha")
        await third.wait_for("alpha.ft")
        await third.close()
    finally:
        await first.close()
        await second.close()
