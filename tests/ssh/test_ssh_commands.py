"""``ssh host COMMAND`` without a terminal, sessions without a terminal, and choosing among several games."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest
from ssh_club import SEATS, WAIT_S, Player, demo_game, make_keys, seats_toml

from core.log.views import REFEREE
from tui.ssh.host.server import FireteamServer, Table
from tui.ssh.seatsfile import Seats

pytestmark = pytest.mark.server


async def test_status_without_a_terminal_is_plain_text_as_the_seat_sees_it(club):
    reg = await club.run("reg", "status")
    irr = await club.run("irr", "status")
    assert reg.exit_status == 0 and irr.exit_status == 0
    assert reg.stdout.splitlines() == [
        "table: Checkpoint at Afgooye",
        "turn 0, deployment",
        "Bersaglieri (regulars): 7/7 in play, 0 DP",
        "Somali militia (irregulars): 6/6 in play, 0 DP",  # the two hidden men are not counted
        "you: reg (regulars)",
    ]
    assert "Somali militia (irregulars): 8/8 in play, 0 DP" in irr.stdout.splitlines()
    assert "\x1b" not in reg.stdout


async def test_other_commands_answer_and_unknown_ones_say_what_exists(club):
    await club.seated("rita", "rita (referee)")
    who = await club.run("spec", "who")
    assert who.stdout == "table: rita (referee)\n"
    games = await club.run("spec", "games")
    assert games.stdout == "table: Checkpoint at Afgooye, turn 0, deployment; 1 seated\n"
    unknown = await club.run("spec", "launch missiles")
    assert unknown.exit_status == 1
    assert unknown.stdout.startswith("unknown command 'launch'\n")
    assert "games: table" in unknown.stdout
    assert "query seat=spec role=spectator" in club.log()


async def test_a_session_without_a_terminal_gets_a_clear_message(club):
    async with asyncssh.connect(
        "127.0.0.1", club.port, username="p", client_keys=[club.keys["reg"]], known_hosts=None, agent_path=None
    ) as conn:
        result = await asyncio.wait_for(conn.run(), 10)  # a shell, no pty
    assert result.exit_status == 1
    assert "needs a terminal" in result.stdout


@pytest.fixture
async def two_games(tmp_path):
    seats = {**SEATS, "blue": "blufor"}  # a side that neither game has
    keys = make_keys(seats)
    games = [demo_game(tmp_path / "north.ft"), demo_game(tmp_path / "south.ft")]
    games[1].execute('note "the southern table"', role=REFEREE)
    server = FireteamServer(
        [Table("north", games[0]), Table("south", games[1])],
        Seats.parse(seats_toml(keys, seats)),
        asyncssh.generate_private_key("ssh-ed25519"),
    )
    port = await server.start()
    conns: list[asyncssh.SSHClientConnection] = []

    async def connect(seat: str, *, username: str = "player", command: str | None = None) -> Player:
        conn = await asyncssh.connect(
            "127.0.0.1", port, username=username, client_keys=[keys[seat]], known_hosts=None, agent_path=None
        )
        conns.append(conn)
        player = Player(100, 40)
        chan, _ = await conn.create_session(lambda: player, command, term_type="xterm", term_size=(100, 40))
        player.conn, player.chan = conn, chan
        return player

    yield server, connect
    for conn in conns:
        conn.abort()
    await server.close()
    for game in games:
        game.close()


async def test_with_several_games_a_seat_picks_one(two_games):
    server, connect = two_games
    # From a menu...
    menu = await connect("reg")
    await menu.wait_for("1) north", "2) south", "Type a number")
    await menu.typed("7\r", "No game 7")
    await menu.typed("2\r", "reg (Bersaglieri)", "the southern table")
    # ...by the SSH user name...
    by_user = await connect("irr", username="north")
    await by_user.wait_for("irr (Somali militia)", "Turn 0: deployment")
    assert "the southern table" not in by_user.text()
    # ...or by the command, with a terminal (ssh -t host south).
    by_command = await connect("rita", command="south")
    await by_command.wait_for("rita (referee)", "the southern table")
    assert {(s.seat.name, s.table.name) for s in server.sessions} == {
        ("reg", "south"),
        ("irr", "north"),
        ("rita", "south"),
    }
    # A command at one table is not seen at the other.
    by_command.command('note "south only"')
    await menu.wait_for("south only")
    assert "south only" not in by_user.text()


async def test_a_game_that_does_not_exist_or_a_side_that_is_not_in_it(two_games):
    server, connect = two_games
    nowhere = await connect("reg", command="west")
    await asyncio.wait_for(nowhere.closed.wait(), WAIT_S)
    assert nowhere.exit_status == 1
    assert "There is no game 'west' here. Games: north, south" in nowhere.text()
    # A seat whose side is not one of the game's is turned away with the reason.
    player = await connect("blue", username="north")
    await asyncio.wait_for(player.closed.wait(), WAIT_S)
    assert player.exit_status == 1
    assert "plays 'blufor', which is not a side of 'north' (sides: regulars, irregulars)" in player.text()
