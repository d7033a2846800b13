"""Spectators watch one shared screen per language and size, drawn once
(``tui.ssh.seating.sharedscreen``, ``tui.ssh.seating.stands``).

Real SSH clients with a terminal, read through the VT emulator.  Nothing is
timed: each test waits for what it expects to appear (or a state to be reached).
"""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import asyncssh
import pytest
from ssh_club import SEATS, WAIT_S, Club, Player, served_table, wait_until
from ssh_memory import widget_strings

from core.log.views import SPECTATOR
from tui.app import FireteamApp
from tui.ssh.limits import Limits
from tui.ssh.seating import seat
from tui.ssh.seating.sharedscreen import State
from tui.ssh.seating.stands import SHARED_SIZES, shared_size

pytestmark = pytest.mark.server

#: The demo's hidden irregulars: no spectator may see them (tests/ssh/test_ssh_table.py).
HIDDEN = ("Dahir Omar", "Egal Jama", "Farah Yusuf")
#: What the watching screen says on its last row.
WATCHING = "Watching: spectators cannot give commands"
#: More spectator seats than the fixture's one (each seat may have 4 terminals open).
CROWD = {**SEATS, "spec2": SPECTATOR, "spec3": SPECTATOR}


@pytest.fixture
async def crowd(tmp_path: Path, caplog):
    """The demo table with three spectator seats (``spec``, ``spec2``, ``spec3``)."""
    async with served_table(tmp_path, caplog, roles=CROWD) as club:
        yield club


def _apps(club: Club) -> list[FireteamApp]:
    """Every app running in the server: the players' own, and the shared screens."""
    own = [s.app for s in club.server.sessions if s.app is not None]
    return own + [screen.app for screen in club.server.stands.screens]


def _rows(player: Player, width: int, height: int) -> list[str]:
    return [row[:width] for row in player.text().splitlines()[:height]]


async def _note(club: Club, rita: Player, text: str, *watchers: Player) -> None:
    rita.command(f"note {text}")
    await asyncio.gather(*(p.wait_for(text) for p in watchers))


async def test_many_spectators_share_one_app(crowd):
    rita = await crowd.seated("rita", "rita (referee)")
    spectators = [await crowd.connect(seat) for seat in ("spec", "spec2", "spec3", "spec", "spec2")]
    await asyncio.gather(*(s.wait_for("Checkpoint at Afgooye", WATCHING) for s in spectators))
    # Five spectators at one size and language: one shared screen, one app, beside the referee's own.
    assert len(crowd.server.stands.screens) == 1
    screen = crowd.server.stands.screens[0]
    assert screen.viewers == 5 and screen.size == shared_size(100, 40)
    assert len(_apps(crowd)) == 2
    assert [s.app for s in crowd.server.sessions if s.seat.role == SPECTATOR] == [None] * 5
    await _note(crowd, rita, "all five see this", *spectators)
    texts = {s.text() for s in spectators}
    assert len(texts) == 1  # the very same screen, byte for byte drawn
    # The frame of a command is drawn once, whatever the number of spectators.
    frames = screen.frames
    await _note(crowd, rita, "and this", *spectators)
    assert 1 <= screen.frames - frames <= 4


async def test_a_late_spectator_sees_the_whole_current_screen(crowd):
    rita, early = await crowd.connect("rita"), await crowd.connect("spec")
    await asyncio.gather(rita.wait_for("rita (referee)"), early.wait_for(WATCHING))
    await _note(crowd, rita, "before the late one came", early)
    late = await crowd.connect("spec2")
    # He is sent the whole screen at once, not only what changes from now on.
    await late.wait_for("before the late one came", "Roster", "Action log", WATCHING)
    await wait_until(lambda: late.text() == early.text(), WAIT_S, lambda: f"{late.text()}\n---\n{early.text()}")


async def test_a_spectator_of_another_size_gets_the_shared_size_framed(crowd):
    rita = await crowd.connect("rita")
    exact = await crowd.connect("spec", size=(120, 40))
    wide = await crowd.connect("spec2", size=(133, 47))
    await asyncio.gather(rita.wait_for("rita (referee)"), exact.wait_for(WATCHING), wide.wait_for(WATCHING))
    assert shared_size(133, 47) == (120, 40)
    assert [s.size for s in crowd.server.stands.screens] == [(120, 40)]
    await _note(crowd, rita, "framed", exact, wide)
    # Drawn from his top left corner at the shared size; the rest of his terminal is blank.
    await wait_until(lambda: _rows(wide, 120, 40) == _rows(exact, 120, 40), WAIT_S, wide.text)
    rows = wide.text().splitlines()
    assert all(not row[120:].strip() for row in rows) and not "".join(rows[40:]).strip()


async def test_sizes_pick_the_largest_shared_size_that_fits():
    assert shared_size(80, 24) == (80, 24)
    assert shared_size(119, 100) == (100, 30)
    assert shared_size(500, 200) == max(SHARED_SIZES)
    smallest = min(SHARED_SIZES, key=lambda s: s[0] * s[1])
    assert shared_size(40, 10) == smallest == (80, 16)  # too small for any: the smallest, cut at his edges
    # A phone's browser page (60 columns at least, 16 rows): upright, and held sideways.
    assert shared_size(64, 72) == (60, 64)
    assert shared_size(64, 60) == (60, 48)  # a shorter phone's
    assert shared_size(93, 19) == (80, 16)


async def test_a_spectator_cannot_resize_the_shared_screen_he_moves_to_another(crowd):
    rita = await crowd.connect("rita")
    stays, moves = await crowd.connect("spec", size=(100, 30)), await crowd.connect("spec2", size=(100, 30))
    await asyncio.gather(rita.wait_for("rita (referee)"), stays.wait_for(WATCHING), moves.wait_for(WATCHING))
    first = crowd.server.stands.screens[0]
    moves.resize(160, 50)
    await moves.wait_for(WATCHING)
    await wait_until(lambda: len(crowd.server.stands.screens) == 2)
    await wait_until(lambda: crowd.session("spec2").screen is not first)
    assert crowd.session("spec2").screen.size == (160, 50)
    # The shared screen he left is as it was, and still drawn for the one who stayed.
    assert first.size == (100, 30) and first.app.size == (100, 30) and first.viewers == 1
    await _note(crowd, rita, "after the move", stays, moves)
    assert len(moves.text().splitlines()[0].rstrip()) > 100  # drawn 160 wide now


async def test_spectators_keys_reach_no_game(crowd):
    rita, spec = await crowd.connect("rita"), await crowd.connect("spec")
    await asyncio.gather(rita.wait_for("rita (referee)"), spec.wait_for(WATCHING))
    spec.command("note a spectator was here")
    # Told on his own terminal (its last row, for a few seconds: the raw bytes are read, not
    # the screen, which a loaded machine may look at too late), and the screen is sent whole again after it.
    await wait_until(lambda: "Spectators watch: they cannot give commands. Ctrl+Q leaves." in "".join(spec.raw))
    await spec.wait_for(WATCHING)
    spec.type("\x1a")  # Ctrl+Z
    await wait_until(lambda: "Spectators cannot undo: they watch. Ctrl+Q leaves." in "".join(spec.raw))
    assert "Spectators" not in "".join(rita.raw)
    await _note(crowd, rita, "the referee still plays", spec)
    assert [line for line in crowd.log().splitlines() if line.startswith("command ")] == [
        "command game=table #2 seat=rita role=referee: note the referee still plays"
    ]  # only the referee's note
    assert "a spectator was here" not in crowd.log()
    spec.type("\x11")  # Ctrl+Q
    await asyncio.wait_for(spec.closed.wait(), WAIT_S)
    assert spec.exit_status == 0


async def test_ctrl_c_leaves_too(crowd):
    spec = await crowd.seated("spec", WATCHING)
    spec.type("\x03")
    await asyncio.wait_for(spec.closed.wait(), WAIT_S)
    assert spec.exit_status == 0
    await wait_until(lambda: not crowd.server.sessions)


async def test_each_language_has_its_screen(tmp_path, caplog):
    async with served_table(tmp_path, caplog, langs={"spec": "it"}) as club:
        italian = await club.connect("spec")
        english = await club.connect("rita")  # a referee: his own app
        await asyncio.gather(italian.wait_for("Forze"), english.wait_for("Roster"))
        assert [s.name.split()[1] for s in club.server.stands.screens] == ["lang=it"]


async def test_no_hidden_information_reaches_the_shared_screen(crowd):
    rita = await crowd.connect("rita")
    spectators = [await crowd.connect(seat) for seat in ("spec", "spec2")]
    await asyncio.gather(rita.wait_for("rita (referee)"), *(s.wait_for(WATCHING) for s in spectators))
    rita.command("mark dahir pinned")
    await _note(crowd, rita, "after a hidden mark", *spectators)
    late = await crowd.seated("spec3", "after a hidden mark")
    screen = crowd.server.stands.screens[0]
    strings = widget_strings(screen.app)
    for name in HIDDEN:
        assert not any(name in s for s in strings)
        for spectator in (*spectators, late):
            assert name not in spectator.text()
            assert name not in "".join(spectator.raw)


async def test_a_slow_spectator_delays_nobody_and_is_sent_the_whole_screen_when_he_reads_again(tmp_path, caplog):
    limits = Limits(spectator_buffer=2048, spectator_behind_s=3600)
    async with served_table(tmp_path, caplog, roles=CROWD, limits=limits) as club:
        rita = await club.connect("rita")
        fast = await club.connect("spec")
        # A small SSH window: what he does not read stays unsent at the server.
        slow = await club.connect("spec2", window=4096)
        await asyncio.gather(rita.wait_for("rita (referee)"), fast.wait_for(WATCHING), slow.wait_for(WATCHING))
        screen = club.server.stands.screens[0]
        assert slow.chan is not None
        slow.chan.pause_reading()
        n = 0
        while screen.state(club.session("spec2"))[0] is not State.BEHIND:
            n += 1
            assert n < 200, "he never fell behind"
            # Each note reaches the fast spectator while the slow one reads nothing.
            await _note(club, rita, f"note number {n:03d}", fast)
        await _note(club, rita, "while he is behind", fast)
        assert screen.state(club.session("spec2"))[2] >= 1  # frames skipped, not queued for him
        assert "spectator behind seat=spec2" in club.log()
        slow.chan.resume_reading()
        # Once his backlog drains he is sent the whole screen: the newest note too.
        await slow.wait_for("while he is behind")
        state, wholes, _skipped = screen.state(club.session("spec2"))
        assert state is State.LIVE and wholes >= 2
        await _note(club, rita, "and live again", fast, slow)


async def _on_a_slow_network(club: Club, seat: str) -> tuple[Player, asyncio.Transport]:
    """A spectator whose SSH window is wide open (2 MB, the client's default) but whose network takes little:
    his socket's receive buffer is small, and the transport under his SSH connection (returned) may be paused."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", club.port))
    conn = await asyncssh.connect(
        sock=sock, username="player", client_keys=[club.keys[seat]], known_hosts=None, agent_path=None
    )
    player = Player(100, 40)
    chan, _ = await conn.create_session(lambda: player, term_type="xterm-256color", term_size=(100, 40))
    player.conn, player.chan = conn, chan
    club.players.append(player)
    return player, conn._transport


async def test_a_spectator_on_a_slow_network_falls_behind_before_his_ssh_window_fills(tmp_path, caplog):
    """The bytes he does not take pile up in the server's connection, not in his channel (whose window is
    open): he falls behind all the same, long before 2 MB."""
    limits = Limits(spectator_buffer=2048, spectator_behind_s=3600)
    async with served_table(tmp_path, caplog, roles=CROWD, limits=limits) as club:
        rita, fast = await club.connect("rita"), await club.connect("spec")
        slow, network = await _on_a_slow_network(club, "spec2")
        await asyncio.gather(rita.wait_for("rita (referee)"), fast.wait_for(WATCHING), slow.wait_for(WATCHING))
        screen = club.server.stands.screens[0]
        session = club.session("spec2")
        # The server's side of his connection: a small send buffer, as on a slow path the kernel's stays small.
        served = session._channel._chan.get_extra_info("connection")._transport
        served.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        network.pause_reading()  # his machine reads his socket no more: the server's sending stalls
        n = 0
        while screen.state(session)[0] is not State.BEHIND:
            n += 1
            assert n < 200, f"he never fell behind ({session.buffered()} bytes unsent)"
            await _note(club, rita, f"note number {n:03d}", fast)
        assert "spectator behind seat=spec2" in club.log()
        network.resume_reading()
        await _note(club, rita, "read again", fast)
        await slow.wait_for("read again")


async def test_a_spectator_behind_for_too_long_is_cut_off_with_a_message(tmp_path, caplog, monkeypatch):
    # The message waits for his terminal to read again; the connection goes anyway after a grace (5 s),
    # which a loaded machine can spend before this test reads again (seen with six workers on two cores).
    monkeypatch.setattr(seat, "EXIT_GRACE_S", WAIT_S)
    limits = Limits(spectator_buffer=2048, spectator_behind_s=0.5)
    async with served_table(tmp_path, caplog, roles=CROWD, limits=limits) as club:
        rita, fast = await club.connect("rita"), await club.connect("spec")
        slow = await club.connect("spec2", window=4096)
        await asyncio.gather(rita.wait_for("rita (referee)"), fast.wait_for(WATCHING), slow.wait_for(WATCHING))
        assert slow.chan is not None
        slow.chan.pause_reading()
        n = 0
        while "spectator cut off seat=spec2" not in club.log():
            n += 1
            assert n < 2000, "he was never cut off"
            await _note(club, rita, f"note number {n:04d}", fast)
        slow.chan.resume_reading()
        await asyncio.wait_for(slow.closed.wait(), WAIT_S)
        assert "took none of the table's output" in "".join(slow.raw)
        assert slow.exit_status == 1
        await _note(club, rita, "the others go on", fast)
        assert [s.seat.name for s in club.server.sessions if s.seat.role == SPECTATOR] == ["spec"]
