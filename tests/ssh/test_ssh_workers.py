"""End to end with the seats in worker processes (``fireteam serve --workers N``): one and no standby where
the claim is the way between a seat's process and the table's, two where it is seats spread over workers, and
the standby too where it is a worker replaced.

The table process (here, the test's) writes the save; the seats' apps run in
real worker processes, reached by real SSH clients on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import re
import signal

import asyncssh
import pytest
from ssh_club import SEATS, WAIT_S, WATCHING, Club, demo_game, make_keys, seat_workers, wait_until
from test_ssh_plain import plain, wait_raw
from test_ssh_table import HIDDEN, regulars_secrets

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from tui.ssh.host.server import Table
from tui.ssh.limits import Limits
from tui.ssh.workers.handle import Duty
from tui.ssh.workers.pool import HEARTBEAT_MISSES, SeatWorkers

pytestmark = [pytest.mark.server, pytest.mark.subprocess]


def worker_of(club, seat: str) -> int:
    """The index of the worker that seated ``seat`` last (from the shared log)."""
    found = re.findall(rf"worker=(\d+) seated seat={seat} ", club.log())
    assert found, f"{seat} is not seated:\n{club.log()}"
    return int(found[-1])


def all_up(server: SeatWorkers) -> bool:
    """Two workers take the seats, and a standby is ready behind them."""
    duties = [w.duty for w in server.workers if w.ready.done()]
    return len(server.workers) == 3 and duties.count(Duty.TAKING) == 2 and duties.count(Duty.STANDBY) == 1


async def test_seats_in_different_workers_play_at_one_table_each_with_its_view(two_workers_club):
    club = two_workers_club
    # One by one: spread in turn.  The regulars' terminal is tall enough for the log to show
    # the set-up's secrets with their commitments, and wide enough for their words in full.
    rita, reg, irr = [
        await club.connect(s, size=(160, 60) if s == "reg" else (100, 40)) for s in ("rita", "reg", "irr")
    ]
    await asyncio.gather(
        rita.wait_for("rita (referee)"), reg.wait_for("reg (Bersaglieri)"), irr.wait_for("irr (Somali militia)")
    )
    await wait_until(lambda: " seated seat=irr " in club.log())
    assert {worker_of(club, "rita"), worker_of(club, "reg")} == {1, 2}
    reg.command('note "smoke over the market"')
    await asyncio.gather(*(p.wait_for("smoke over the market") for p in (rita, reg, irr)))
    irr.command('note "shots from the minaret"')
    await asyncio.gather(*(p.wait_for("shots from the minaret") for p in (rita, reg, irr)))
    # Recorded once, by the table, with the seat that gave it.
    issued = [ln.event for ln in club.game.log_lines(role="referee") if isinstance(ln.event, ev.Issued)]
    assert [(e.by, e.text) for e in issued[-2:]] == [
        ("reg", 'note "smoke over the market"'),
        ("irr", 'note "shots from the minaret"'),
    ]
    assert "command game=table #" in club.log() and "seat=irr role=irregulars: note" in club.log()
    # Each worker's copy shows each seat its own view, down to the bytes sent.
    await irr.wait_for(*HIDDEN)
    assert not any(name in "".join(reg.raw) for name in HIDDEN)
    secrets = regulars_secrets(club.game)
    assert all(key in "".join(reg.raw) for key in secrets)
    assert not any(key in "".join(irr.raw) for key in secrets)


async def test_refusals_and_the_undo_rules_come_back_from_the_table(one_worker_club):
    club = one_worker_club
    rita, reg, spec = [await club.connect(s) for s in ("rita", "reg", "spec")]
    await asyncio.gather(rita.wait_for("rita (referee)"), reg.wait_for("reg (Bersaglieri)"), spec.wait_for(WATCHING))
    before = club.game.log_length
    spec.command('note "I want to play"')  # a spectator's keys reach no app: he is told so, nothing is sent
    await wait_until(lambda: "Spectators watch: they cannot give commands" in "".join(spec.raw))
    assert club.game.log_length == before
    reg.command('note "mine"')
    await rita.wait_for("mine")
    mine = club.game.history.last_effective()
    reg.command("undo")
    await rita.wait_for(f"undid command #{mine}")
    assert club.game.history.last_effective() == mine - 1
    rita.command('note "the referee speaks"')
    await reg.wait_for("the referee speaks")
    length = club.game.log_length
    await reg.gives("undo", "the last command is not yours; ask the referee to undo it")
    assert club.game.log_length == length
    # Refusals are logged by the table, like the commands it records.
    assert "refused game=table seat=reg role=regulars: undo (the last command is not yours" in club.log()


async def test_physical_dice_are_asked_for_and_recorded_through_the_table(one_worker_club):
    club = one_worker_club
    rita = await club.seated("rita", "type a command")
    await rita.typed("\x1bOR", "live, TABLE DICE")  # F3: table dice the table's title: a fact of the log now
    rita.command("roll 2d6 target=5")
    # the seat is told what DiceRequest.text() says, and the command's order of dice on the help key
    await rita.wait_for("referee's free roll: 2d6, needs 5+ per die")
    await rita.typed("\x06", "1. the roll: the dice named")  # Ctrl+F
    rita.command("3 4")
    await wait_until(lambda: isinstance(club.game.log_lines(role="referee")[-1].event, ev.Rolled))
    roll = club.game.log_lines(role="referee")[-1].event.roll
    assert roll.faces == (3, 4) and roll.manual


async def test_who_counts_the_seats_of_every_worker_and_unknown_keys_are_refused(two_workers_club):
    club = two_workers_club
    rita, reg = [await club.connect(s) for s in ("rita", "reg")]
    await asyncio.gather(rita.wait_for("rita (referee)"), reg.wait_for("reg (Bersaglieri)"))
    await wait_until(lambda: " seated seat=reg " in club.log())
    who = await club.run("spec", "who")
    assert who.stdout.startswith("table: ") and "rita (referee)" in who.stdout and "reg (regulars)" in who.stdout
    with pytest.raises(asyncssh.PermissionDenied):
        await club.connect("rita", key=asyncssh.generate_private_key("ssh-ed25519"))
    await wait_until(lambda: "unknown key refused" in club.log())


async def test_a_worker_that_dies_is_replaced_and_the_other_seats_go_on(workers_club):
    club = workers_club
    rita, reg = [await club.connect(s) for s in ("rita", "reg")]
    await asyncio.gather(rita.wait_for("rita (referee)"), reg.wait_for("reg (Bersaglieri)"))
    await wait_until(lambda: " seated seat=reg " in club.log())
    doomed = next(w for w in club.server.workers if w.index == worker_of(club, "reg"))
    assert worker_of(club, "rita") != doomed.index
    standby = next(w for w in club.server.workers if w.duty is Duty.STANDBY)
    doomed.proc.send_signal(signal.SIGKILL)
    await asyncio.wait_for(reg.closed.wait(), WAIT_S)  # its player is cut off...
    rita.command('note "while you were away"')  # ...and the others play on
    await wait_until(lambda: club.game.log_lines(role="referee")[-1].text == "note: while you were away")
    await wait_until(lambda: "starting another" in club.log())
    # The standby took its place at once: he sits down again there, without waiting for a worker to start.
    assert standby.duty is Duty.TAKING
    await club.seated("reg", "reg (Bersaglieri)", "while you were away")
    await wait_until(lambda: club.log().count(" seated seat=reg ") == 2)
    assert worker_of(club, "reg") == standby.index
    await wait_until(lambda: all_up(club.server))  # and a new standby behind it


async def test_each_command_goes_to_its_own_table(tmp_path, caplog, standby_spared):
    keys = make_keys(SEATS)
    games = [demo_game(tmp_path / "north.ft"), demo_game(tmp_path / "south.ft")]
    games[1].execute('note "the southern table"', role=REFEREE)
    server = seat_workers(tmp_path, [Table("north", games[0]), Table("south", games[1])], keys, SEATS, workers=1)
    port = await server.start("127.0.0.1", 0)
    club = Club(server, port, keys, games[0], [], caplog, tmp_path / "serve.log")
    try:
        north_reg = await club.connect("reg", username="north")
        south_rita = await club.connect("rita", username="south")
        south_irr = await club.connect("irr", username="south")
        await asyncio.gather(
            north_reg.wait_for("reg (Bersaglieri)"),
            south_rita.wait_for("the southern table"),
            south_irr.wait_for("the southern table"),
        )
        assert "the southern table" not in north_reg.text()
        south_rita.command('note "south only"')
        await south_irr.wait_for("south only")
        north_reg.command('note "north only"')
        await wait_until(lambda: games[0].log_lines(role="referee")[-1].text == "note: north only")
        assert games[1].log_lines(role="referee")[-1].text == "note: south only"
        assert "north only" not in south_irr.text() and "south only" not in north_reg.text()
        games_reply = await club.run("spec", "games")
        assert "north: Checkpoint at Afgooye, turn 0, deployment; 1 seated" in games_reply.stdout
        assert "south: Checkpoint at Afgooye, turn 0, deployment; 2 seated" in games_reply.stdout
    finally:
        await club.close()
        for game in games:
            game.close()


async def test_the_table_gathers_its_commands_as_it_starts_not_at_the_first_command(
    tmp_path, monkeypatch, standby_spared
):
    # The table process carries out every command: gathering its ruleset's commands (their modules'
    # import) was the first command's, on its way to every seat.
    demo_game(tmp_path / "table.ft").close()
    game = Game.open(tmp_path / "table.ft")
    gathered = []
    ruleset = type(game.ruleset)
    real = ruleset.commands
    monkeypatch.setattr(ruleset, "commands", lambda self: gathered.append(self) or real(self))
    server = seat_workers(tmp_path, [Table("table", game)], make_keys(SEATS), SEATS, workers=1)
    try:
        await server.start("127.0.0.1", 0)
        assert gathered == [game.ruleset]
        game.execute('note "the first command"', role=REFEREE)
        assert gathered == [game.ruleset]  # not again
    finally:
        await server.close()
        game.close()


async def test_a_worker_settles_its_heap_before_it_takes_seats(one_worker_club):
    """What a worker's start made is collected and frozen before it says it is ready: its first seats, which may
    come as a standby takes a retiring worker's place at a busy table, do not wait for a walk of it."""
    indices = [w.index for w in one_worker_club.server.workers]
    # (Each logs that it is ready just after it told the table.)
    await wait_until(lambda: all(f"seat worker {i} ready" in one_worker_club.log() for i in indices))
    lines = one_worker_club.log().splitlines()
    for i in indices:
        ready = next(n for n, ln in enumerate(lines) if f"worker={i} seat worker {i} ready" in ln)
        assert any(f"worker={i} heap settled:" in ln for ln in lines[:ready]), i


async def test_a_worker_that_cannot_start_stops_the_server_with_the_reason(tmp_path, standby_spared):
    keys = make_keys(SEATS)
    game = demo_game(tmp_path / "table.ft")
    server = seat_workers(tmp_path, [Table("table", game)], keys, SEATS, workers=1)
    server.host_key_path = tmp_path / "no-such-key"  # the worker fails as it reads it
    try:
        with pytest.raises(RuntimeError, match=r"seat worker \d stopped while starting \(status 1\)"):
            await server.start("127.0.0.1", 0)
        assert server.workers == []
    finally:
        game.close()


async def test_a_replacement_that_cannot_start_is_tried_again(workers_club):
    club = workers_club
    key = club.server.host_key_path.read_bytes()
    club.server.host_key_path.unlink()  # the next worker fails as it reads it
    club.server.workers[0].proc.send_signal(signal.SIGKILL)
    await wait_until(lambda: "could not start (status 1); trying again" in club.log())
    club.server.host_key_path.write_bytes(key)
    await wait_until(lambda: all_up(club.server))
    await club.seated("rita", "rita (referee)")


async def test_a_worker_that_hangs_is_stopped_and_replaced(tmp_path, caplog):
    keys = make_keys(SEATS)
    game = demo_game(tmp_path / "table.ft")
    server = seat_workers(tmp_path, [Table("table", game)], keys, SEATS)
    # Pinged every second: hung after 3 s without an answer (30 s by default).  Shorter, a worker
    # merely slow to start on a loaded machine was taken for a hung one (0.6 s: seen in a full run).
    server.heartbeat = 1.0
    port = await server.start("127.0.0.1", 0)
    club = Club(server, port, keys, game, [], caplog, tmp_path / "serve.log")
    try:
        rita, reg = [await club.connect(s) for s in ("rita", "reg")]
        await asyncio.gather(rita.wait_for("rita (referee)"), reg.wait_for("reg (Bersaglieri)"))
        # Pings answered: nobody is stopped while all is well.
        await wait_until(lambda: all(w.ponged >= 2 * HEARTBEAT_MISSES for w in server.workers))
        assert "did not answer" not in club.log()
        await wait_until(lambda: " seated seat=reg " in club.log())
        hung = next(w for w in server.workers if w.index == worker_of(club, "reg"))
        hung.proc.send_signal(signal.SIGSTOP)  # alive, but its loop runs no more
        await wait_until(lambda: f"seat worker {hung.index} did not answer for 3 s: stopped" in club.log())
        await asyncio.wait_for(reg.closed.wait(), WAIT_S)
        rita.command('note "still here"')
        await wait_until(lambda: game.log_lines(role="referee")[-1].text == "note: still here")
        await wait_until(lambda: all_up(server))
        await club.seated("reg", "reg (Bersaglieri)", "still here")
    finally:
        await club.close()
        game.close()


async def test_a_busy_worker_is_never_taken_for_a_hung_one(tmp_path, caplog, standby_spared):
    keys = make_keys(SEATS)
    game = demo_game(tmp_path / "table.ft")
    server = seat_workers(tmp_path, [Table("table", game)], keys, SEATS, Limits(input_rate=1e6, input_burst=1 << 20))
    # "Hung" after 3 s without an answer (30 s by default): less than a worker's loop is
    # busy here, seating four players at once and handling their floods.
    server.heartbeat = 1.0
    port = await server.start("127.0.0.1", 0)
    club = Club(server, port, keys, game, [], caplog, tmp_path / "serve.log")
    pids = {w.proc.pid for w in server.workers}
    try:
        # Every seat at once (apps starting, the heap settling), then every seat flooding its input.
        players = await asyncio.gather(*(club.connect(s) for s in SEATS))
        ready = [WATCHING if seat == "spec" else "type a command" for seat in SEATS]
        await asyncio.gather(*(p.wait_for(text) for text, p in zip(ready, players, strict=True)))
        for p in players:
            p.type("note " + "w" * 200 + "\r")
        # (Every seat but the spectator's is recorded: the line is costly to type, the machine may be loaded.)
        await wait_until(
            lambda: sum(ln.text.startswith("note: www") for ln in game.log_lines(role="referee")) == 3, timeout=120
        )
        pinged = [w.pinged for w in server.workers]
        await wait_until(lambda: all(w.ponged > n for w, n in zip(server.workers, pinged, strict=True)))
        assert "did not answer" not in club.log() and "stalled" not in club.log()
        assert {w.proc.pid for w in server.workers} == pids
        assert all(not p.closed.is_set() for p in players)
    finally:
        await club.close()
        game.close()


async def test_a_command_the_stopping_table_will_not_answer_is_refused_at_once_and_the_worker_stops(
    one_worker_club, monkeypatch
):
    """A seat's command in flight as the server stops is never recorded: its worker hears so at once ("the
    server is shutting down"), not once its call's timeout (10 s) has passed, and stops in time, unkilled."""
    club = one_worker_club
    reg = await plain(club, "reg")
    held = asyncio.Event()

    def unanswered(_w, _msg):  # the table takes the command and stops before it answers
        held.set()

    monkeypatch.setattr(club.server, "_record", unanswered)
    reg.type("note never recorded\r")
    await held.wait()
    await club.server.close()
    await wait_raw(reg, "the server is shutting down; nothing was recorded")
    assert "did not stop in time" not in club.log()
    assert not any("never recorded" in ln.text for ln in club.game.log_lines(role="referee"))
