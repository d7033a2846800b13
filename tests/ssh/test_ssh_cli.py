"""``fireteam serve`` as a host runs it: data folder, host key, seats file, log, signals."""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import stat
from pathlib import Path

import asyncssh
import pytest
from ssh_club import demo_game, fireteam_process, listening_port, make_keys, read_until, seats_toml

from core.game import Game
from core.refusal import LOG as CORE_LOG
from core.scenarios import files as scenario_files
from core.storage.errors import SaveError
from tui.ssh.host.hostfiles import host_key
from tui.ssh.host.tables import open_tables
from tui.ssh.main import serve_main

pytestmark = pytest.mark.subprocess


def test_the_host_key_is_made_once_private_and_then_kept(tmp_path):
    key, created = host_key(tmp_path)
    assert created
    path = tmp_path / "ssh_host_ed25519_key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again, created_again = host_key(tmp_path)
    assert not created_again
    assert again.get_fingerprint() == key.get_fingerprint()


def test_without_a_save_a_new_demo_game_is_set_up_in_saves(tmp_path):
    [table] = open_tables([], tmp_path / "saves")
    try:
        assert table.game.path.parent == tmp_path / "saves"
        assert table.name == table.game.path.stem and table.name.startswith("demo-")
        assert table.game.state.scenario == "Checkpoint at Afgooye"
    finally:
        table.game.close()
    assert Game.open(table.game.path, writable=False).state.scenario == "Checkpoint at Afgooye"


def test_a_missing_seats_file_or_save_is_a_clear_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FIRETEAM_DATA_DIR", str(tmp_path / "data"))
    args = argparse.Namespace(
        saves=[tmp_path / "nope.ft"], host="127.0.0.1", port=0, seats=None, workers=None, event=None, organiser_key=None
    )
    assert serve_main(args) == 2
    err = capsys.readouterr().err
    assert f"no seats file at {tmp_path / 'data' / 'seats.toml'}" in err
    assert '[[seat]]\nname = "anna"\nrole = "referee"' in err
    keys = make_keys(["anna"])
    (tmp_path / "data" / "seats.toml").write_text(seats_toml(keys, {"anna": "referee"}))
    assert serve_main(args) == 2
    assert f"{tmp_path / 'nope.ft'}: no such save" in capsys.readouterr().err
    # The server's read policy ends with it: this process may read any scenario file again.
    assert scenario_files.restrict_reads(None) is None


def test_a_server_that_stopped_leaves_the_core_s_log_as_it_found_it(tmp_path, monkeypatch, capsys):
    """``fireteam serve`` gives the core's log its own handlers (a command's bug goes to serve.log
    and stderr); left there once it stopped, closed, they broke the next error logged in the process
    (another test's, under the whole suite: its stderr got logging's own report, issue #77)."""
    monkeypatch.setenv("FIRETEAM_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FIRETEAM_STATE_DIR", str(tmp_path / "state"))
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "seats.toml").write_text(seats_toml(make_keys(["anna"]), {"anna": "referee"}))
    before = list(CORE_LOG.handlers)
    args = argparse.Namespace(
        saves=[tmp_path / "nope.ft"], host="127.0.0.1", port=0, seats=None, workers=None, event=None, organiser_key=None
    )
    assert serve_main(args) == 2  # (stopped once its log was made: no such save)
    assert CORE_LOG.handlers == before
    capsys.readouterr()
    try:
        raise KeyError("aden")
    except KeyError:
        CORE_LOG.exception("a bug after the server stopped")
    assert "Logging error" not in capsys.readouterr().err


def test_a_save_another_fireteam_writes_is_refused_and_no_lock_is_kept(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FIRETEAM_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "seats.toml").write_text(seats_toml(make_keys(["anna"]), {"anna": "referee"}))
    demo_game(tmp_path / "free.ft").close()
    busy = demo_game(tmp_path / "busy.ft")  # held by this process, as by another terminal
    try:
        args = argparse.Namespace(
            saves=[tmp_path / "free.ft", tmp_path / "busy.ft"],
            host="127.0.0.1",
            port=0,
            seats=None,
            workers=None,
            event=None,
            organiser_key=None,
        )
        assert serve_main(args) == 2
        err = capsys.readouterr().err
        assert "busy.ft: another Fireteam is writing this save" in err and f"process {os.getpid()}" in err
        Game.open(tmp_path / "free.ft").close()  # the lock serve took on the first save was let go
    finally:
        busy.close()
    [table] = open_tables([tmp_path / "busy.ft"])
    try:  # and serve holds the lock while it serves: a second writer is refused
        with pytest.raises(SaveError, match="another Fireteam is writing"):
            Game.open(tmp_path / "busy.ft")
    finally:
        table.game.close()


async def test_fireteam_serve_end_to_end(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    keys = make_keys(["anna"])
    (data / "seats.toml").write_text(seats_toml(keys, {"anna": "referee"}))
    demo_game(tmp_path / "club.ft").close()
    (tmp_path / "club.ft").chmod(0o644)  # made by a client under the usual umask: every account reads it
    env = {"FIRETEAM_DATA_DIR": str(data), "FIRETEAM_STATE_DIR": str(tmp_path / "state")}
    proc = await fireteam_process(tmp_path, "serve", "--port", "0", str(tmp_path / "club.ft"), env=env)
    try:
        out = await read_until(proc, "listening on", 30)
        port = listening_port(out)
        assert "Created the host key" in out
        # Issue 28: the save (which names hidden units) stayed readable by every account while served.
        assert f"{tmp_path / 'club.ft'} was readable by other accounts of this host: now by its owner only" in out
        assert stat.S_IMODE((tmp_path / "club.ft").stat().st_mode) == 0o600
        key = asyncssh.read_private_key(data / "ssh_host_ed25519_key")
        assert f"host key fingerprint: {key.get_fingerprint()}" in out
        # The client checks the server against the printed key, as a player's known_hosts would.
        known = asyncssh.import_known_hosts(f"[127.0.0.1]:{port} {key.export_public_key().decode()}")
        async with asyncssh.connect(
            "127.0.0.1", port, username="x", client_keys=[keys["anna"]], known_hosts=known, agent_path=None
        ) as conn:
            result = await asyncio.wait_for(conn.run("status"), 10)
        assert result.stdout.startswith("club: Checkpoint at Afgooye\nturn 0, deployment\n")
        assert result.stdout.endswith("you: anna (referee)\n")
    finally:
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 15) == 0
    assert f"log: {tmp_path / 'state' / 'serve.log'}" in out  # state, not data (core.folders)
    log = Path(tmp_path / "state" / "serve.log").read_text()
    # The seat was served by a seat worker (one per core by default), which tags its lines.
    assert re.search(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO worker=\d+ login seat=anna role=referee", log, re.M)
    assert "query seat=anna role=referee" in log
    assert "server closed" in log
