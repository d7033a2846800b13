"""A bot at a plain SSH seat (issue #61): every line it pipes is taken, in order, and answered, the lines
sent as the seat opens too; the seat ends when its input does, with ``fireteam --plain``'s exit status
(``plain --strict``: 1 if a line was refused).  Before, a bot's input arriving with its request for the
seat was dropped without a word (the seat was not open yet), and its end closed the channel's way back,
so that the answers were never written and the session never ended: ``printf 'note "bot1"\\nundo\\ny\\n' |
ssh -p PORT anna@HOST plain`` hung four times of four.  Driven by OpenSSH's own client, which sends its
input with its request, and by asyncssh's, with and without seat workers."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest
from ssh_club import SEATS, WAIT_S, Club, demo_game, make_keys, no_standby, seat_workers, seats_toml, wait_until

from core.game import Game
from core.log import events as ev
from tui.ssh.host.server import FireteamServer, Table
from tui.ssh.seatsfile import Seats

pytestmark = [pytest.mark.server, pytest.mark.subprocess]

MODES = ["in process", "workers"]
#: A bot's lines: two notes, the second undone (undo asks y or n first), a third.
BOT = 'note "bot1"\nnote "bot2"\nundo\ny\nnote "bot3"\n'


def answers(game: Game) -> list[str]:
    """The answers to ``BOT``, in their order: the note undone by the number the irregulars know it by in
    ``game`` (they count what they may see; a served table writes who sits as a command of its own, #74)."""
    n = shown(game, "irr", 'note "bot2"')
    return [
        "Note: bot1.",
        "Note: bot2.",
        f'Undo #{n} note "bot2"? y or n:',
        f'Irr undid command #{n}: note "bot2".',
        "Note: bot3.",
    ]


with_openssh = pytest.mark.skipif(
    shutil.which("ssh") is None, reason="OpenSSH's client is not installed (apt-get install openssh-client)"
)


@contextlib.asynccontextmanager
async def served(mode: str, folder: Path, caplog, tables: tuple[str, ...] = ("table",)) -> AsyncIterator[Club]:
    """The demo game at each of ``tables`` (the first the club's), its seats in this process or in a seat worker."""
    caplog.set_level(logging.INFO, logger="fireteam.serve")
    keys = make_keys(SEATS)
    games = [demo_game(folder / f"{name}.ft") for name in tables]
    at = [Table(name, game) for name, game in zip(tables, games, strict=True)]
    key = asyncssh.generate_private_key("ssh-ed25519")
    if mode == "workers":
        server: FireteamServer | object = seat_workers(folder, at, keys, SEATS, workers=1)
        log = folder / "serve.log"
    else:
        server, log = FireteamServer(at, Seats.parse(seats_toml(keys, SEATS)), key), None
    with no_standby() if mode == "workers" else contextlib.nullcontext():
        port = await server.start("127.0.0.1", 0)  # type: ignore[attr-defined]
        club = Club(server, port, keys, games[0], [], caplog, log)  # type: ignore[arg-type]
        try:
            yield club
        finally:
            await club.close()
            for game in games:
                game.close()


def recorded(game: Game) -> list[tuple[str, ...]]:
    """The commands given and undone, in the order the save holds them (the set-up's left out)."""
    events = game.history.store.slice(0, game.log_length)
    out: list[tuple[str, ...]] = []
    for e in events:
        if isinstance(e, ev.Issued) and e.by != "referee":
            out.append((e.by, e.text))
        elif isinstance(e, ev.Undone):
            out.append((e.by, "undid", game.history.issued(e.cmd).text))
    return out


def shown(game: Game, by: str, text: str, role: str = "irregulars") -> int:
    """The number ``role`` is shown the command ``text`` given by ``by`` by (the one given, of one)."""
    cmds = [
        e.cmd
        for e in game.history.store.slice(0, game.log_length)
        if isinstance(e, ev.Issued) and e.by == by and e.text == text
    ]
    assert len(cmds) == 1, cmds
    number = game.reading.numbering(role).shown(cmds[0])
    assert number is not None
    return number


BOT_RECORDED = [
    ("irr", 'note "bot1"'),
    ("irr", 'note "bot2"'),
    ("irr", "undid", 'note "bot2"'),
    ("irr", 'note "bot3"'),
]


def answered_in_order(out: str, answers: list[str]) -> None:
    lines = out.splitlines()
    at = [lines.index(answer) if answer in lines else -1 for answer in answers]
    assert -1 not in at and at == sorted(at), out
    assert at[3] == at[2] + 1  # the answer to the question right after it


async def openssh(club: Club, tmp: Path, command: str, lines: str, *, hold: str = "") -> tuple[int, str]:
    """``printf LINES | ssh -p PORT anna@127.0.0.1 COMMAND`` with OpenSSH's client, as irr (the user name is
    free: the key says who logs in); ``hold``: the input stays open until the seat has said this."""
    key = tmp / "irr_key"
    key.write_bytes(club.keys["irr"].export_private_key("openssh"))
    key.chmod(0o600)
    proc = await asyncio.create_subprocess_exec(
        "ssh", "-F", "/dev/null", "-p", str(club.port), "-i", str(key), "-o", "BatchMode=yes",
        "-o", "IdentitiesOnly=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "LogLevel=ERROR", "anna@127.0.0.1", command,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "SSH_AUTH_SOCK": ""},
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(lines.encode())
    await proc.stdin.drain()
    out = b""
    try:
        if hold:
            while hold.encode() not in out:
                chunk = await asyncio.wait_for(proc.stdout.read(4096), WAIT_S)
                assert chunk, out.decode()
                out += chunk
        proc.stdin.close()
        rest, err = await asyncio.wait_for(proc.communicate(), WAIT_S)
    except (TimeoutError, AssertionError):
        proc.kill()
        await proc.wait()
        raise AssertionError(f"no answer in {WAIT_S:.0f} s; said so far:\n{out.decode()}") from None
    return proc.returncode or 0, (out + rest).decode() + err.decode()


@with_openssh
@pytest.mark.parametrize("mode", MODES)
async def test_a_bot_s_lines_piped_through_openssh_are_all_taken_in_order_and_answered(tmp_path, caplog, mode):
    async with served(mode, tmp_path, caplog) as club:
        status, out = await openssh(club, tmp_path, "plain", BOT)
        assert status == 0, out
        assert recorded(club.game) == BOT_RECORDED
        answered_in_order(out, answers(club.game))
        assert "\r" not in out and "irr (Somali militia)>" not in out  # lines, no prompt
        await wait_until(lambda: "left seat=irr role=irregulars game=table status=0" in club.log(), WAIT_S, club.log)


@with_openssh
async def test_the_documented_one_liner_works_as_written(tmp_path, caplog):
    # docs/ssh.md, "Plain seats": printf 'note from a bot\nundo\ny\n' | ssh -p 2222 club-pc.local plain
    async with served("in process", tmp_path, caplog) as club:
        status, out = await openssh(club, tmp_path, "plain", "note from a bot\nundo\ny\n")
        assert status == 0, out
        lines = out.splitlines()
        n = shown(club.game, "irr", "note from a bot")
        undone = [f"Undo #{n} note from a bot? y or n:", f"Irr undid command #{n}: note from a bot."]
        assert lines[lines.index("Note: from a bot.") + 2 :] == undone  # (and the line between: what undo does)


@with_openssh
@pytest.mark.parametrize("mode", MODES)
async def test_a_line_sent_as_the_seat_opens_is_answered_while_the_input_stays_open(tmp_path, caplog, mode):
    # (printf 'note "bot2"\n'; sleep 6) | ssh ... plain: the line was dropped, and the seat ended at the input's end.
    async with served(mode, tmp_path, caplog) as club:
        status, out = await openssh(club, tmp_path, "plain", 'note "bot2"\n', hold="Note: bot2.")
        assert status == 0 and "Note: bot2." in out, out
        assert recorded(club.game) == [("irr", 'note "bot2"')]


@with_openssh
@pytest.mark.parametrize("mode", MODES)
async def test_plain_strict_ends_with_status_1_if_a_line_was_refused(tmp_path, caplog, mode):
    async with served(mode, tmp_path, caplog) as club:
        status, out = await openssh(club, tmp_path, "plain --strict", "nxet\nnote after\n")
        assert status == 1, out
        assert "Refused: no command 'nxet'; did you mean next?" in out and "Note: after." in out
        status, out = await openssh(club, tmp_path, "plain --strict", "note fine\n")
        assert status == 0 and "Note: fine." in out, out
        status, out = await openssh(club, tmp_path, "plain", "nxet\n")  # not strict: 0, as fireteam --plain
        assert status == 0 and "Refused:" in out, out


@pytest.mark.parametrize("mode", MODES)
async def test_lines_that_come_with_the_choice_of_a_game_are_taken_after_it(tmp_path, caplog, mode):
    # Several games: the menu reads the bot's "2", and hands the rest of the same read to the seat,
    # which is not open yet: before, that rest was dropped.
    async with served(mode, tmp_path, caplog, tables=("north", "south")) as club:
        async with asyncssh.connect(
            "127.0.0.1", club.port, username="bot", client_keys=[club.keys["irr"]], known_hosts=None, agent_path=None
        ) as conn:
            done = await asyncio.wait_for(conn.run("plain", input="2\n" + BOT), WAIT_S)
        out = str(done.stdout)
        assert done.exit_status == 0, out
        south = next(t.game for t in club.server.tables if t.name == "south")
        assert recorded(south) == BOT_RECORDED and recorded(club.game) == []
        answered_in_order(out, answers(south))


@pytest.mark.parametrize("mode", MODES)
async def test_a_bot_through_asyncssh_without_a_terminal_and_strict(tmp_path, caplog, mode):
    async with served(mode, tmp_path, caplog) as club:
        async with asyncssh.connect(
            "127.0.0.1", club.port, username="bot", client_keys=[club.keys["irr"]], known_hosts=None, agent_path=None
        ) as conn:
            done = await asyncio.wait_for(conn.run("plain --strict", input=BOT + "nxet\n"), WAIT_S)
        out = str(done.stdout)
        assert done.exit_status == 1, out
        assert recorded(club.game) == BOT_RECORDED
        answered_in_order(out, answers(club.game))
        assert out.splitlines()[-1] == "Refused: no command 'nxet'; did you mean next?"


async def test_a_line_cut_by_the_input_limit_is_dropped_whole_never_given_in_part(tmp_path, caplog):
    from ssh_club import served_table

    from tui.ssh.limits import Limits

    # 40 characters at once, then as many as a second brings (the next read comes after a round trip).
    async with served_table(tmp_path, caplog, limits=Limits(input_rate=100_000.0, input_burst=40)) as club:
        async with asyncssh.connect(
            "127.0.0.1", club.port, username="bot", client_keys=[club.keys["irr"]], known_hosts=None, agent_path=None
        ) as conn:
            bot = await conn.create_process("plain --strict")
            bot.stdin.write("note first line of the bot\nnote second line\n")  # 44: "note second l" taken
            said = ""
            while "characters" not in said:
                said += await asyncio.wait_for(bot.stdout.read(4096), WAIT_S)
            bot.stdin.write("note third\n")
            bot.stdin.write_eof()
            done = await asyncio.wait_for(bot.wait(), WAIT_S)
        out = said + str(done.stdout)
        assert "Note: first line of the bot." in out and "Note: third." in out, out
        assert recorded(club.game) == [("irr", "note first line of the bot"), ("irr", "note third")]
        assert done.exit_status == 1  # a refusal, for --strict


@pytest.mark.parametrize("mode", MODES)
async def test_the_end_of_the_input_at_the_menu_of_games_leaves_it(tmp_path, caplog, mode):
    async with served(mode, tmp_path, caplog, tables=("north", "south")) as club:
        async with asyncssh.connect(
            "127.0.0.1", club.port, username="bot", client_keys=[club.keys["irr"]], known_hosts=None, agent_path=None
        ) as conn:
            done = await asyncio.wait_for(conn.run("plain", input="nothing to choose\n"), WAIT_S)
        assert done.exit_status == 0 and "No game" in str(done.stdout), done.stdout
        assert recorded(club.game) == []
