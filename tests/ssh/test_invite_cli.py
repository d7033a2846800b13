"""``fireteam invite`` as an organiser runs it, and the whole way in: serve --web, invite, a browser and a fresh
SSH key at the table."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import stat
import sys
from pathlib import Path

import aiohttp
import asyncssh
import pytest
from ssh_club import WAIT_S, Player, demo_game, fireteam_process, make_keys, read_until, seats_toml, wait_until

from tui.main import main
from tui.ssh.invitations.store import Invitations

pytestmark = pytest.mark.subprocess

SEATS = {"anna": "referee", "bruno": "regulars", "carla": "irregulars"}


@pytest.fixture
def data(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "seats.toml").write_text(seats_toml(make_keys(SEATS), SEATS))
    monkeypatch.setenv("FIRETEAM_DATA_DIR", str(folder))
    return folder


def invite(*args: str) -> int:
    return main(["--lang", "en", "invite", *args])


def test_an_invitation_prints_a_link_an_ssh_command_and_a_qr_code_once(data, capsys):
    (data / "serve.json").write_text(
        '{"ssh_host": "192.0.2.7", "ssh_port": 2222, "web_url": "http://192.0.2.7:8080", "seats": "", "games": []}'
    )
    assert invite("bruno", "--expires", "2h", "--uses", "2") == 0
    out = capsys.readouterr().out
    link = re.search(r"In a browser: (http://192\.0\.2\.7:8080/join/([A-Za-z0-9_-]{32}))\n", out)
    assert link, out
    token = link.group(2)
    assert f"Over SSH: ssh -p 2222 join-{token}@192.0.2.7\n" in out
    assert "Invitation " in out and "to the seat bruno (regulars): 2 uses, until" in out
    assert "▀" in out or "▄" in out  # the QR code, in half blocks
    (inv,) = Invitations(data).all()
    assert inv.seat == "bruno" and inv.uses == 2 and 7190 < inv.expires - inv.created <= 7200
    assert token not in (data / "invitations.json").read_text()
    assert stat.S_IMODE((data / "invitations.json").stat().st_mode) == 0o600


def test_list_and_revoke(data, capsys):
    assert invite("bruno") == 0
    assert invite("carla") == 0
    assert invite("--spectators") == 0
    capsys.readouterr()
    assert invite("--list") == 0
    listed = capsys.readouterr().out.splitlines()
    assert len(listed) == 3
    assert all("open  0/" in line for line in listed)
    assert any(" spectators " in line and "0/100 uses" in line for line in listed)
    bruno = next(line.split()[0] for line in listed if " bruno " in line)
    assert invite("--revoke", bruno) == 0
    assert f"revoked {bruno} (bruno)" in capsys.readouterr().out
    assert invite("--revoke", bruno) == 1  # nothing open by that name any more
    assert invite("--revoke", "spectators") == 0
    capsys.readouterr()
    assert invite("--list") == 0
    states = capsys.readouterr().out
    assert states.count("revoked") == 2 and states.count("open") == 1


def test_an_invitations_store_that_cannot_be_written_is_said_plainly(data, capsys):
    (data / "invitations.lock").mkdir()  # where the lock goes: no invitation can be written
    assert invite("bruno") == 2
    assert "error: " in (err := capsys.readouterr().err) and "cannot lock the invitations" in err


def test_mistakes_are_said_plainly(data, capsys):
    assert invite("nobody") == 2
    assert "there is no seat 'nobody' in" in capsys.readouterr().err
    assert invite("bruno", "--expires", "forever") == 2
    assert "not a duration" in capsys.readouterr().err
    assert invite("bruno", "--expires", "40d") == 2
    assert invite("bruno", "--uses", "0") == 0  # 0: the default
    assert invite("bruno", "--uses", "501") == 2
    assert invite() == 2
    assert "name a seat, or give --spectators" in capsys.readouterr().err
    # Without a server that recorded a browser address: the SSH command only, and how to get a link.
    assert invite("bruno") == 0
    out = capsys.readouterr().out
    assert "In a browser:" not in out and "Over SSH: ssh -p 2222 join-" in out
    assert "No browser link: start the server with --web PORT" in out


async def test_serve_web_and_invite_seat_a_browser_and_a_fresh_ssh_key(tmp_path):
    """The issue's "done when": the organiser runs serve --web and invite; a browser and an SSH client with no
    key registered are at the table."""
    data = tmp_path / "data"
    data.mkdir()
    keys = make_keys(SEATS)
    (data / "seats.toml").write_text("# the club's seats\n" + seats_toml(keys, SEATS))
    demo_game(tmp_path / "club.ft").close()
    env = {**os.environ, "FIRETEAM_DATA_DIR": str(data), "FIRETEAM_STATE_DIR": str(data), "LANG": "C"}
    server = await fireteam_process(tmp_path, "serve", "--port", "0", "--web", "0", str(tmp_path / "club.ft"), env=env)
    conn = None
    try:
        out = await read_until(server, "fireteam invite", WAIT_S)
        assert re.search(r"browser seats on 127\.0\.0\.1:\d+ — players open http://127\.0\.0\.1:\d+", out)
        inviting = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui.main", "invite", "bruno",
            env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        printed = (await asyncio.wait_for(inviting.communicate(), WAIT_S))[0].decode()
        assert inviting.returncode == 0, printed
        link = re.search(r"In a browser: (\S+)", printed).group(1)
        ssh = re.search(r"Over SSH: ssh -p (\d+) (join-\S+)@(\S+)", printed)
        # A browser: the link, then the page's websocket.
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.get(link) as answer:
                assert answer.status == 200
            origin = link.split("/join/")[0]
            ws = await http.ws_connect(origin.replace("http", "ws", 1) + "/ws", headers={"Origin": origin})
            screen = ""

            async def read() -> None:
                nonlocal screen
                async for message in ws:
                    screen += (
                        message.data.decode("utf-8", "replace") if message.type == aiohttp.WSMsgType.BINARY else ""
                    )

            reader = asyncio.get_running_loop().create_task(read())
            await wait_until(lambda: "bruno (Bersaglieri)" in screen)
            # An SSH client with a key nobody registered.
            fresh = asyncssh.generate_private_key("ssh-ed25519")
            conn = await asyncssh.connect(
                ssh.group(3), int(ssh.group(1)), username=ssh.group(2), client_keys=[fresh],
                known_hosts=None, agent_path=None,
            )  # fmt: skip
            player = Player(100, 40)
            chan, _ = await conn.create_session(lambda: player, term_type="xterm-256color", term_size=(100, 40))
            player.conn, player.chan = conn, chan
            await player.wait_for("bruno (Bersaglieri)")
            player.command("note both doors")
            await wait_until(lambda: "both doors" in screen)
            await ws.close()
            reader.cancel()
        seats = (data / "seats.toml").read_text()
        assert seats.startswith("# the club's seats\n") and 'seat = "bruno"' in seats.split("[[key]]")[1]
    finally:
        if conn is not None:
            conn.abort()
        server.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(server.wait(), WAIT_S) == 0
    token = link.rsplit("/", 1)[1]
    assert token not in (data / "serve.log").read_text()
