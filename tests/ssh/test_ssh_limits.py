"""Nobody can stall or drop the table: floods, unauthenticated connections, sessions, resizes, early drops.

Each test plays the attacker with real SSH clients (asyncssh, or raw sockets
where an attacker would not bother with SSH) against a server on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest
from ssh_club import SEATS, WAIT_S, Club, served_by_workers, served_table, wait_until

from tui.ssh.limits import Gate, Limits

pytestmark = [pytest.mark.server, pytest.mark.subprocess]


def in_process(tmp_path, caplog, limits: Limits):
    """``fireteam serve --workers 0`` with these limits: the seats share this process's loop."""
    return served_table(tmp_path, caplog, limits=limits)


@contextlib.asynccontextmanager
async def with_workers(tmp_path, caplog, limits: Limits) -> AsyncIterator[Club]:
    """``fireteam serve --workers 1`` with these limits (no standby): the seats share the worker's loop, as the
    seats in one process share this one's."""
    async with served_by_workers(tmp_path, caplog, limits, workers=1, standby=False) as club:
        yield club


# ------------------------------------------------------------------ input


async def test_a_flood_from_one_seat_leaves_the_others_playing_and_its_own_seat_open(tmp_path, caplog):
    # All seats in one loop (--workers 0), the case where a flood froze the whole server.
    async with in_process(tmp_path, caplog, Limits()) as club:
        rita, irr = await club.connect("rita"), await club.connect("irr")
        await asyncio.gather(rita.wait_for("type a command"), irr.wait_for("type a command"))
        irr.type("\0" * 300_000)  # (head -c 300000 /dev/zero) | ssh -tt ...
        irr.type("x" * 20_000)  # a long paste, without bracketed paste
        rita.command('note "the referee is not held up"')
        await wait_until(lambda: club.game.log_lines(role="referee")[-1].text == "note: the referee is not held up")
        await irr.wait_for("Input dropped")  # told, on its own screen
        await wait_until(lambda: "input refused seat=irr role=irregulars" in club.log())
        assert not irr.closed.is_set() and "irr" in [s.seat.name for s in club.server.sessions]
        rita.command('note "and irr still plays"')
        await irr.wait_for("and irr still plays")


async def test_ctrl_q_at_the_heels_of_a_flood_still_leaves_the_table(tmp_path, caplog):
    # The flood empties the seat's bucket; the Ctrl+Q in what it drops is kept (tui.input_limits).
    async with in_process(tmp_path, caplog, Limits()) as club:
        irr = await club.seated("irr", "type a command")
        irr.type("x" * 50_000 + "\x11")
        await wait_until(lambda: "irr" not in [s.seat.name for s in club.server.sessions])
        await wait_until(lambda: "left seat=irr role=irregulars" in club.log())


async def test_a_line_longer_than_the_limit_is_cut_and_the_refusal_logged(tmp_path, caplog):
    async with in_process(tmp_path, caplog, Limits(line_length=200)) as club:
        reg = await club.seated("reg", "type a command")
        reg.type("note " + "y" * 400)
        await wait_until(lambda: "a line longer than 200 characters: 205 characters dropped" in club.log())
        reg.type("\r")
        await wait_until(lambda: club.game.log_lines(role="referee")[-1].text.startswith("note: yyy"))
        assert club.game.log_lines(role="referee")[-1].text == "note: " + "y" * 195
        # The next line starts afresh.
        reg.command('note "short"')
        await wait_until(lambda: club.game.log_lines(role="referee")[-1].text == "note: short")
        # A command given without a terminal is held to the same length.
        answer = await club.run("reg", "status " + "z" * 300)
        assert answer.exit_status == 1 and "at most 200" in answer.stdout
        assert "refused seat=reg role=regulars from=127.0.0.1:" in club.log()
        assert "a command of 307 characters (limit 200)" in club.log()


async def test_a_storm_of_window_changes_is_one_redraw(tmp_path, caplog):
    async with in_process(tmp_path, caplog, Limits(resize_delay_s=0.2)) as club:
        rita, spec = await club.connect("rita"), await club.connect("irr")
        await asyncio.gather(rita.wait_for("type a command"), spec.wait_for("type a command"))
        app = club.session("irr").app
        driver = club.session("irr")._driver
        told, tell = [], driver._post_size
        driver._post_size = lambda: (told.append(1), tell())  # every resize the app is told of
        for n in range(900):  # (within the connection's budget of window changes: 1000 at once)
            spec.chan.change_terminal_size(80 + n % 40, 30)
        spec.resize(90, 33)
        await wait_until(lambda: tuple(app.size) == (90, 33))
        rita.command('note "after the storm"')
        await spec.wait_for("after the storm")
        assert len(told) < 200, f"{len(told)} resizes reached the app"
        # An absurd size is drawn at the largest the server draws.
        spec.chan.change_terminal_size(100_000, 100_000)
        await wait_until(lambda: tuple(app.size) == (500, 200))


async def test_window_changes_kept_up_redraw_at_most_at_the_resize_rate(tmp_path, caplog):
    """Issue 28: a client sending window changes without end redrew its seat every 50 ms (each
    storm's last size after ``resize_delay_s``): redraws from window changes are also held to
    ``resize_rate`` a second (``resize_burst`` at once), and the last size still wins."""
    limits = Limits(resize_delay_s=0.01, resize_rate=2.0, resize_burst=3)
    async with in_process(tmp_path, caplog, limits) as club:
        reg = await club.seated("reg", "type a command")
        app, driver = club.session("reg").app, club.session("reg")._driver
        told, tell = [], driver._post_size
        driver._post_size = lambda: (told.append(1), tell())
        loop = asyncio.get_running_loop()
        start = loop.time()
        for n in range(60):  # a change every 50 ms for 3 s, each one after the last redraw's delay
            reg.chan.change_terminal_size(80 + n % 40, 30)
            await asyncio.sleep(0.05)
        reg.resize(90, 33)
        await wait_until(lambda: tuple(app.size) == (90, 33))
        took = loop.time() - start
        assert len(told) <= limits.resize_burst + limits.resize_rate * took + 1, (len(told), took)


@pytest.mark.parametrize("mode", ["workers", "in process"])
async def test_a_client_flooding_window_changes_is_disconnected_and_the_other_seats_play_on(tmp_path, caplog, mode):
    """Issue 28: redraws were held to the resize rate, but receiving thousands of window
    changes a second still took the worker's loop from the other seats (a command took 1.5 s):
    a connection over its budget of window changes is disconnected, saying why, and its address
    counts a penalty."""
    limits = Limits(window_change_rate=10.0, window_change_burst=100, penalty_s=600.0, penalty_max_s=600.0)
    serve = with_workers if mode == "workers" else in_process
    async with serve(tmp_path, caplog, limits) as club:
        rita, irr = await club.connect("rita"), await club.connect("irr")
        await asyncio.gather(rita.wait_for("type a command"), irr.wait_for("type a command"))
        for n in range(2000):
            irr.chan.change_terminal_size(80 + n % 40, 30)
        await asyncio.wait_for(irr.closed.wait(), 60)
        # (The reason travels in the SSH disconnect message, but a client still sending finds
        # its connection reset before it reads it: the log is where it is sure to be.)
        await wait_until(lambda: "more window changes than 100 at once and 10 a second" in club.log())
        assert "disconnected seat=irr role=irregulars from=127.0.0.1:" in club.log()
        rita.command('note "after the flood"')
        await wait_until(lambda: club.game.log_lines(role="referee")[-1].text == "note: after the flood")
        await rita.wait_for("after the flood")
        # Counted among the penalties of the limit on connections not logged in: its address waits.
        await wait_until(lambda: club.server.gate.penalised("127.0.0.1") > 0)


async def test_window_changes_within_the_budget_keep_the_connection(tmp_path, caplog):
    limits = Limits(window_change_rate=10.0, window_change_burst=100)
    async with in_process(tmp_path, caplog, limits) as club:
        reg = await club.seated("reg", "type a command")
        for n in range(99):  # a window's corner dragged: a hundred at once
            reg.chan.change_terminal_size(80 + n % 40, 30)
        reg.resize(90, 33)
        app = club.session("reg").app
        await wait_until(lambda: tuple(app.size) == (90, 33))
        await reg.gives('note "still here"', "still here")
        assert not reg.closed.is_set() and "window changes" not in club.log()


# -------------------------------------------------------------- connections


def _banner_only(port: int) -> socket.socket:
    """A TCP connection that says it speaks SSH and then nothing more."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"SSH-2.0-idle\r\n")
    return sock


async def _closed_by_server(sock: socket.socket) -> None:
    """Return when the server has closed ``sock`` (reading what it sent first)."""
    loop = asyncio.get_running_loop()
    sock.setblocking(False)
    while True:
        try:
            data = await loop.sock_recv(sock, 4096)
        except ConnectionResetError:
            return
        if not data:
            return


@pytest.mark.parametrize("mode", ["workers", "in process"])
async def test_connections_that_do_not_log_in_are_limited_per_address_and_given_a_grace_time(tmp_path, caplog, mode):
    limits = Limits(unauth_per_address=3, unauth_total=5, login_grace_s=2.0)
    serve = with_workers if mode == "workers" else in_process
    async with serve(tmp_path, caplog, limits) as club:
        idle = [_banner_only(club.port) for _ in range(3)]
        await wait_until(lambda: _waiting(club) == 3)
        over = _banner_only(club.port)
        await asyncio.wait_for(_closed_by_server(over), 10)  # refused at once, long before the grace time
        await wait_until(lambda: "have not logged in yet (limit 3)" in club.log())
        assert "3 connections from this address have not logged in yet (limit 3)" in club.log()
        # A real player from the same address waits for the grace time to clear the idle ones...
        await asyncio.gather(*(asyncio.wait_for(_closed_by_server(s), 30) for s in idle))
        for sock in [*idle, over]:
            sock.close()
        await wait_until(lambda: _waiting(club) == 0)
        await club.seated("rita", "rita (referee)")


async def _flood(port: int, address: str, stop: asyncio.Event, made: list[int]) -> None:
    """Keep a banner-only connection open from ``address`` (a loopback one): as soon as the
    server closes it, open another (after a pause when it was refused at once)."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((address, 0))
            await loop.sock_connect(sock, ("127.0.0.1", port))
            await loop.sock_sendall(sock, b"SSH-2.0-idle\r\n")
            made[0] += 1
            start = loop.time()
            closed = asyncio.ensure_future(_closed_by_server(sock))
            stopped = asyncio.ensure_future(stop.wait())
            await asyncio.wait([closed, stopped], return_when=asyncio.FIRST_COMPLETED)
            closed.cancel()
            stopped.cancel()
            if loop.time() - start < 1:
                await asyncio.sleep(0.2)
        except OSError:
            await asyncio.sleep(0.2)
        finally:
            sock.close()


@pytest.mark.parametrize("mode", ["workers", "in process"])
async def test_a_player_logs_in_through_a_flood_of_idle_connections_from_many_addresses(tmp_path, caplog, mode):
    """Issue 28: 2,500 banner-only connections from many addresses refused every real login for
    40 s: the limit was a hard cut-off, and each idle connection held its place for the whole
    login grace.  Now (OpenSSH's answer) new ones are refused at random past 10 waiting, the idle
    ones are closed after a short grace while many wait, and their addresses refused a while:
    the player, from an address of his own, gets in while the flood goes on."""
    serve = with_workers if mode == "workers" else in_process
    async with serve(tmp_path, caplog, Limits()) as club:
        stop, made = asyncio.Event(), [0]
        # 20 addresses of 127.0.0.0/8, 10 connections each: twice as many as may wait in all.
        flood = [asyncio.ensure_future(_flood(club.port, f"127.0.0.{2 + n // 10}", stop, made)) for n in range(200)]
        try:
            await wait_until(lambda: _waiting(club) >= 90)  # the flood holds (nearly) every place
            start = asyncio.get_running_loop().time()
            tries = 0
            while True:
                tries += 1
                try:
                    got = await club.run("rita", "status")
                    break
                except (OSError, asyncssh.Error):
                    assert asyncio.get_running_loop().time() - start < 45, f"refused {tries} times"
                    await asyncio.sleep(0.5)
            took = asyncio.get_running_loop().time() - start
            assert got.exit_status == 0 and got.stdout.endswith("you: rita (referee)\n")
            print(f"logged in after {took:.1f} s and {tries} tries; {made[0]} flood connections")
            assert not stop.is_set() and made[0] > 200  # the flood went on all along
            # (He may have been let in at random before the first sweep: the flood is swept all the same.)
            await wait_until(lambda: "that had not begun to log in within 5 s" in club.log())
        finally:
            stop.set()
            await asyncio.gather(*flood, return_exceptions=True)


class _StalledLogin(asyncssh.SSHClient):
    """A client that finishes the key exchange, asks to log in, and then says nothing more."""

    async def public_key_auth_requested(self) -> None:
        await asyncio.Event().wait()  # never: the server must close it


async def _stalled_flood(port: int, address: str, stop: asyncio.Event, made: list[int]) -> None:
    """Keep a stalled login open from ``address``: as soon as the server closes it, open another (after a
    pause when it was refused at once)."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        start = loop.time()
        login = asyncio.ensure_future(
            asyncssh.connect(
                "127.0.0.1",
                port,
                username="stall",
                local_addr=(address, 0),
                client_factory=_StalledLogin,
                client_keys=(),
                known_hosts=None,
                agent_path=None,
                preferred_auth="publickey",
            )
        )
        made[0] += 1
        stopped = asyncio.ensure_future(stop.wait())
        await asyncio.wait([login, stopped], return_when=asyncio.FIRST_COMPLETED)
        stopped.cancel()
        login.cancel()
        with contextlib.suppress(asyncio.CancelledError, OSError, asyncssh.Error):
            (await login).abort()
        if loop.time() - start < 1:
            await asyncio.sleep(0.2)


def _openssh_login(port: int, key: Path) -> subprocess.CompletedProcess[str]:
    """``ssh -p PORT player@127.0.0.1 status`` with OpenSSH's client, as a player types it (no agent,
    no questions, no configuration of this machine's)."""
    return subprocess.run(
        ["ssh", "-F", "/dev/null", "-p", str(port), "-i", str(key), "-o", "BatchMode=yes"]
        + ["-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null"]
        + ["-o", "LogLevel=ERROR", "-o", "ConnectTimeout=60", "player@127.0.0.1", "status"],
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "SSH_AUTH_SOCK": ""},
    )


@pytest.mark.skipif(
    shutil.which("ssh") is None, reason="OpenSSH's client is not installed (apt-get install openssh-client)"
)
@pytest.mark.parametrize("mode", ["workers", "in process"])
async def test_an_openssh_login_gets_in_at_once_through_a_flood_of_stalled_logins_from_20_addresses(
    tmp_path, caplog, mode
):
    """Issue 53: about 100 connections from 20 addresses that finished the key exchange, asked to log in
    and stalled held every place the whole 60 s login grace: a real OpenSSH login was refused 29 times
    out of 29.  Now a stalled login holds its place 10 s while many wait (its address then counts a
    penalty), and an address with none waiting always finds a place: the player gets in at his first
    try, every time, while the flood goes on."""
    serve = with_workers if mode == "workers" else in_process
    async with serve(tmp_path, caplog, Limits()) as club:
        key = tmp_path / "rita_key"
        key.write_bytes(club.keys["rita"].export_private_key("openssh"))
        key.chmod(0o600)
        stop, made = asyncio.Event(), [0]
        # 20 addresses of 127.0.0.0/8, 5 stalled logins each: every place of the 100.
        flood = [
            asyncio.ensure_future(_stalled_flood(club.port, f"127.0.0.{2 + n // 5}", stop, made)) for n in range(100)
        ]
        try:
            gate = club.server.gate
            await wait_until(lambda: gate.logging_in >= 80)
            took = []
            for _ in range(3):
                start = time.monotonic()
                login = await asyncio.to_thread(_openssh_login, club.port, key)
                took.append(time.monotonic() - start)
                assert login.returncode == 0, login.stderr  # at the first try
                assert login.stdout.endswith("you: rita (referee)\n")
                assert gate.logging_in >= 50  # the flood holds on
            print(f"\nOpenSSH logins through the stalled flood ({mode}): {', '.join(f'{t:.1f}' for t in took)} s")
            assert not stop.is_set() and made[0] >= 100
        finally:
            stop.set()
            await asyncio.gather(*flood, return_exceptions=True)


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_gate_drops_at_random_past_start_and_all_at_full():
    """OpenSSH's MaxStartups 10:30:100: none refused below 10 waiting, 30% at 10, rising to all at 100
    (for an address holding places already: a newcomer's is the next test's)."""
    gate = Gate(Limits(unauth_per_address=1000), logging.getLogger("test"), chance=lambda: 0.0)
    assert [gate._drop(n) for n in (10, 55, 100)] == [0.3, 0.65, 1.0]
    admitted = [gate.admit(f"10.0.0.1:{n}") for n in range(12)]
    assert admitted == [True] * 10 + [False] * 2  # a chance of 0.0 is below every drop past 10
    lucky = Gate(Limits(unauth_per_address=1000), logging.getLogger("test"), chance=lambda: 0.99)
    # A chance of 0.99 is refused once the drop passes 99%: at 99 waiting.
    assert sum(lucky.admit(f"10.0.0.1:{n}") for n in range(150)) == 99
    assert lucky.waiting == 99


def test_idle_connections_are_closed_after_the_short_grace_and_their_address_refused_a_while():
    clock, closed = _Clock(), []
    gate = Gate(Limits(), logging.getLogger("test"), clock=clock, chance=lambda: 1.0)
    # One address at its limit of 10, all idle: they would hold it for the whole 60 s login grace.
    for n in range(10):
        assert gate.admit(f"10.0.0.1:{n}", lambda n=n: closed.append(n))
    assert not gate.admit("10.0.0.1:99")
    keen = "10.0.0.1:5"
    gate.authenticating(keen)  # its client finished the key exchange: spared
    clock.now += 4.9
    assert gate.sweep() == 0
    clock.now += 0.2
    assert gate.sweep() == 9 and sorted(closed) == [0, 1, 2, 3, 4, 6, 7, 8, 9]
    assert gate.waiting == 1
    assert gate.penalised("10.0.0.1") == 9.0  # 1 s each, up to 10
    assert not gate.admit("10.0.0.1:100") and gate.admit("10.0.0.2:1")  # others are not held to it
    clock.now += 9.1
    assert gate.admit("10.0.0.1:101")
    # Few waiting, from addresses under their limit: an idle one keeps the whole login grace.
    clock.now += 30
    assert gate.sweep() == 0


def _waiting(club: Club) -> int:
    return club.server.gate.waiting


async def test_refusals_are_logged_without_flooding_the_log(tmp_path, caplog):
    async with in_process(tmp_path, caplog, Limits(unauth_per_address=1, login_grace_s=30)) as club:
        first = _banner_only(club.port)
        await wait_until(lambda: _waiting(club) == 1)
        for _ in range(30):
            sock = _banner_only(club.port)
            await asyncio.wait_for(_closed_by_server(sock), 10)
            sock.close()
        refusals = [r for r in club.log().splitlines() if "have not logged in yet" in r]
        assert 1 <= len(refusals) <= 3, refusals  # one line now and then, however many were refused
        first.close()


async def test_sessions_per_connection_and_terminals_per_seat_are_capped(tmp_path, caplog):
    limits = Limits(sessions_per_connection=2, terminals_per_seat=2)
    async with in_process(tmp_path, caplog, limits) as club:
        reg = await club.seated("reg", "type a command")
        # A second session on the same connection is fine; a third is refused.
        second_chan, _ = await reg.conn.create_session(asyncssh.SSHClientSession, "who")
        await second_chan.wait_closed()  # a finished session no longer counts
        extra = [await reg.conn.create_session(asyncssh.SSHClientSession, term_type="xterm")]
        with pytest.raises(asyncssh.ChannelOpenError):
            await reg.conn.create_session(asyncssh.SSHClientSession, term_type="xterm")
        await wait_until(lambda: "session refused seat=reg from=127.0.0.1:" in club.log())
        assert "2 sessions open on this connection (limit 2)" in club.log()
        for chan, _ in extra:
            chan.close()
        # Two terminals for a seat, over two connections; the third is turned away with the reason.
        await wait_until(lambda: sum(s.seat.name == "reg" for s in club.server.sessions) == 1)
        await club.seated("reg", "type a command")
        third = await club.seated("reg", "has 2 terminals open already")
        await asyncio.wait_for(third.closed.wait(), WAIT_S)
        assert third.exit_status == 1
        assert "refused seat=reg role=regulars from=127.0.0.1:" in club.log()
        assert "2 terminals open already (limit 2)" in club.log()


async def test_sessions_dropped_at_any_moment_leave_no_error(tmp_path, caplog):
    random.seed(14)
    # Two workers and the standby, as served: seats dropped as their workers retire (laden) and the standby
    # takes their place are part of "any moment".
    limits = Limits(terminals_per_seat=100, unauth_per_address=100)
    async with served_by_workers(tmp_path, caplog, limits) as club:

        async def drop(delay: float) -> None:
            player = await club.connect(random.choice(list(SEATS)))
            await asyncio.sleep(delay)
            player.conn.abort()

        for _ in range(3):
            await asyncio.gather(*(drop(random.uniform(0, 0.9)) for _ in range(10)))
        await club.seated("rita", "rita (referee)")
        await wait_until(lambda: sum(w.connections for w in club.server.workers) == 1)
        await wait_until(lambda: club.log().count(" left seat=") == club.log().count(" seated seat=") - 1)
        log = club.log()
        assert "crashed" not in log and "Traceback" not in log, log


def test_a_flood_that_stalls_after_the_key_exchange_is_cleared_at_the_crowded_grace_and_leaves_newcomers_a_place():
    """Issue 53: connections that finished the key exchange (asked for a user) and then stalled were
    spared by every sweep and held their places the whole 60 s login grace; with 20 addresses holding
    every place, a player from another address was refused 29 times out of 29."""
    clock, closed = _Clock(), []
    gate = Gate(Limits(), logging.getLogger("test"), clock=clock, chance=lambda: 0.0)  # every random drop hits
    flood = [f"127.0.0.{2 + n // 5}:{n}" for n in range(100)]  # 20 addresses, 5 each: every place
    for peer in flood[:10]:  # two addresses
        assert gate.admit(peer, lambda peer=peer: closed.append(peer))
    assert not any(gate.admit(f"127.0.0.{a}:99") for a in (2, 3))  # past 10 waiting, they are refused at random
    newcomer = "127.0.0.200:1"
    assert gate.admit(newcomer, lambda: closed.append(newcomer))  # ... a newcomer is not
    for peer in [*flood[:10], newcomer]:
        gate.authenticating(peer)
    clock.now += 9.9
    assert gate.sweep() == 0  # the idle grace (5 s) is not theirs: they began to authenticate
    clock.now += 0.2
    assert gate.sweep() == 11 and sorted(closed) == sorted([*flood[:10], newcomer])
    assert gate.penalised("127.0.0.2") > 0  # their addresses count a penalty, as idle ones do
    # A newcomer finds a place even with the total full, up to unauth_start more.
    full = Gate(Limits(unauth_per_address=100), logging.getLogger("test"), clock=clock, chance=lambda: 1.0)
    assert sum(full.admit(f"127.0.0.{2 + n % 20}:{n}") for n in range(200)) == 100  # the flood: up to the total
    assert full.admit("127.0.0.1:1") and not full.admit("127.0.0.1:2")  # a newcomer, once
    assert sum(full.admit(f"10.0.0.{n}:1") for n in range(20)) == 9  # newcomers, up to unauth_start more
