"""A client that drops, hangs or crashes its session never harms the game or the other seats."""

from __future__ import annotations

import asyncio
import sys

import pytest
from ssh_club import WAIT_S, WATCHING, wait_until

pytestmark = pytest.mark.server


async def test_logging_in_while_apps_are_running(club):
    await club.seated("rita", "rita (referee)")
    # Two more logins while an app already runs in the server's loop, one after the other...
    await club.seated("reg", "reg (Bersaglieri)")
    await club.seated("irr", "irr (Somali militia)")
    # ...and two at once.
    spec, rita2 = await asyncio.gather(club.connect("spec"), club.connect("rita"))
    await asyncio.gather(spec.wait_for(WATCHING), rita2.wait_for("rita (referee)"))
    assert sorted(s.seat.name for s in club.server.sessions) == ["irr", "reg", "rita", "rita", "spec"]


async def test_a_dropped_client_does_not_disturb_the_others(club):
    rita, reg, irr = await asyncio.gather(club.connect("rita"), club.connect("reg"), club.connect("irr"))
    await asyncio.gather(rita.wait_for("rita"), reg.wait_for("reg"), irr.wait_for("irr"))
    reg.conn.abort()  # the cable is pulled: no goodbye
    await wait_until(lambda: "reg" not in [s.seat.name for s in club.server.sessions])
    rita.command('note "where did Bruno go?"')
    await irr.wait_for("where did Bruno go?")
    assert "leaving seat=reg role=regulars" in club.log()
    assert "left seat=reg role=regulars game=table status=0" in club.log()


async def test_a_reconnect_resumes_at_the_current_state(club):
    rita, reg = await asyncio.gather(club.connect("rita"), club.connect("reg"))
    # Type only once the referee's command line is there: keys sent before it are not a command.
    await asyncio.gather(rita.wait_for("rita (referee)"), reg.wait_for("reg (Bersaglieri)"))
    await reg.close()
    await rita.gives('note "while you were away"', "while you were away")
    await club.seated("reg", "reg (Bersaglieri)", "while you were away")


async def test_a_client_that_stops_reading_is_cut_off(club):
    rita, irr = await asyncio.gather(club.connect("rita"), club.connect("irr"))
    # A small receive window: the server's output to this seat piles up in its own buffer fast.
    slow = await club.seated("reg", "reg (Bersaglieri)", window=8 * 1024)
    slow.chan.pause_reading()  # the client hangs: it reads nothing more, so it opens no window
    # The screen keeps changing (new log lines, a resize): the output waits, unsent, until the limit.
    for n in range(200):
        if "slow reader cut off seat=reg" in club.log():
            break
        slow.resize(100 + n % 2, 34)
        rita.command(f'note "tick {n}"')
        await asyncio.sleep(0.02)
    await wait_until(lambda: "slow reader cut off seat=reg role=regulars" in club.log())
    await wait_until(lambda: "reg" not in [s.seat.name for s in club.server.sessions])
    # The others were never held up.
    rita.command('note "still going"')
    await irr.wait_for("still going")


async def test_a_crashed_session_is_logged_and_closed_and_the_game_goes_on(club):
    rita, irr = await asyncio.gather(club.connect("rita"), club.connect("irr"))
    await asyncio.gather(rita.wait_for("rita"), irr.wait_for("irr"))
    app = club.session("irr").app

    def explode() -> None:
        raise RuntimeError("a bug in a pane")

    app.call_later(explode)
    await asyncio.wait_for(irr.closed.wait(), WAIT_S)
    assert irr.exit_status == 1
    assert "Your session failed and was closed; the game is safe." in irr.text()
    assert "session crashed seat=irr role=irregulars game=table" in club.log()
    assert "a bug in a pane" in club.log()
    await rita.gives('note "carry on"', "carry on")
    await club.seated("irr", "carry on")


async def test_the_processs_stdout_is_left_alone_by_apps_starting_and_stopping_out_of_order(club):
    out, err = sys.stdout, sys.stderr
    first, second = await asyncio.gather(club.connect("rita"), club.connect("reg"))
    await asyncio.gather(first.wait_for("rita (referee)"), second.wait_for("reg (Bersaglieri)"))
    await first.close()  # the first app to start stops first, while the second runs on
    await wait_until(lambda: len(club.server.sessions) == 1)
    assert (sys.stdout, sys.stderr) == (out, err)
    await second.close()
    await wait_until(lambda: not club.server.sessions)
    assert (sys.stdout, sys.stderr) == (out, err)


async def test_keys_typed_while_the_seat_opens_are_not_lost(club, monkeypatch):
    """A player who types at once (his app still starting) finds his keys on the command line."""
    from tui.ssh.host.session import TableSession

    opening, go, received = asyncio.Event(), asyncio.Event(), asyncio.Event()
    build = club.server.app_factory

    def slow_app(game, seat):
        app = build(game, seat)
        run = app.run_async

        async def run_when_allowed(**kwargs):
            opening.set()
            await go.wait()  # the app has not started: no driver takes keys yet
            return await run(**kwargs)

        app.run_async = run_when_allowed
        return app

    data_received = TableSession.data_received

    def noted(self, data, datatype):
        data_received(self, data, datatype)
        received.set()

    monkeypatch.setattr(club.server, "app_factory", slow_app)
    monkeypatch.setattr(TableSession, "data_received", noted)
    reg = await club.connect("reg")
    await opening.wait()
    reg.command('note "typed ahead"')
    await received.wait()
    go.set()
    await reg.wait_for("reg (Bersaglieri)", "typed ahead")
    assert ("reg", 'note "typed ahead"') in [
        (ln.event.by, ln.event.text)
        for ln in club.game.log_lines(role="referee")
        if ln.event.__class__.__name__ == "Issued"
    ]


async def test_keys_that_come_as_the_app_starts_are_not_lost(club, monkeypatch):
    """Keys that reach the seat's driver before its game screen is up wait for its command line."""
    from tui.ssh.seating.driver import SSHDriver

    start = SSHDriver.start_application_mode

    def start_and_type(self):
        start(self)
        self.feed('note "typed as it started"\r')  # as the channel would: the app has no screen yet

    monkeypatch.setattr(SSHDriver, "start_application_mode", start_and_type)
    await club.seated("reg", "reg (Bersaglieri)", "typed as it started")
    assert ("reg", 'note "typed as it started"') in [
        (ln.event.by, ln.event.text)
        for ln in club.game.log_lines(role="referee")
        if ln.event.__class__.__name__ == "Issued"
    ]
