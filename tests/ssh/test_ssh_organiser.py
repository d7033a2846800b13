"""End to end, real SSH clients: the organiser stays in control of who sits at the table
(issue 14): the seats file, edited while players sit, kicks, and the check at start."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest
from ssh_club import (
    SEATS,
    WAIT_S,
    Club,
    demo_game,
    fireteam_process,
    listening_port,
    make_keys,
    read_until,
    seats_toml,
    wait_until,
)
from web_club import web_table

from tui.ssh.main import serve_main
from tui.ssh.seatsfile import SeatsError, SeatsFile, table_roles

pytestmark = [pytest.mark.server, pytest.mark.subprocess]


@pytest.fixture(params=["one process", "seat worker"])
async def seats_club(request, tmp_path: Path, caplog) -> AsyncIterator[Club]:
    """The test table, its seats read from a file that the test edits (``web_table``'s table: its
    door for browsers stays unused)."""
    async with web_table(tmp_path, caplog, workers=int(request.param == "seat worker")) as web:
        if request.param == "one process":
            web.club.server.seats_poll = 0.1
        yield web.club


def _rewrite(path: Path, keys, seats: dict[str, str]) -> None:
    """Write the seats file anew (its size changes, so a same-second change is seen too)."""
    text = seats_toml(keys, seats) + f"# version {len(seats)} {sorted(seats.items())}\n"
    tmp = path.with_suffix(".new")
    tmp.write_text(text)
    os.replace(tmp, path)


async def _seated(club: Club, *names: str):
    players = await asyncio.gather(*(club.connect(n) for n in names))
    await asyncio.gather(*(p.wait_for("type a command") for p in players))
    return players


async def test_removing_a_seat_ends_its_sessions_and_a_changed_role_applies_at_once(seats_club, tmp_path):
    club = seats_club
    rita, reg, irr = await _seated(club, "rita", "reg", "irr")
    seats = dict(SEATS)
    del seats["irr"]
    seats["reg"] = "spectator"
    _rewrite(tmp_path / "seats.toml", club.keys, seats)
    await asyncio.wait_for(irr.closed.wait(), WAIT_S)
    assert "removed your seat from the seats file" in "".join(irr.raw)
    await asyncio.wait_for(reg.closed.wait(), WAIT_S)
    assert "changed your seat's role to spectator" in "".join(reg.raw)
    assert not rita.closed.is_set()
    # The removed key opens nothing; the changed seat sits down in its new role.
    with pytest.raises((asyncssh.PermissionDenied, asyncssh.DisconnectError)):
        await club.connect("irr")
    again = await club.seated("reg", "as spectator")
    rita.command("note still here")
    await again.wait_for("note still here")


async def test_the_referee_kicks_a_seat_and_a_player_may_not(seats_club):
    club = seats_club
    rita, reg = await _seated(club, "rita", "reg")
    refused = await club.run("irr", "kick reg")
    assert refused.exit_status == 1 and "only the referee" in refused.stdout
    assert not reg.closed.is_set()
    done = await club.run("rita", "kick reg")
    assert done.exit_status == 0, done.stdout
    await asyncio.wait_for(reg.closed.wait(), WAIT_S)
    assert "rita closed your seat" in "".join(reg.raw)
    assert not rita.closed.is_set()
    await wait_until(lambda: "kick seat=reg by=rita" in club.log())


@pytest.mark.parametrize(
    ("role", "shown"),
    [("Referee", "'Referee'"), ("regular", "'regular'")],
)
def test_an_unknown_role_is_refused_at_start_with_the_valid_roles(tmp_path, monkeypatch, capsys, role, shown):
    monkeypatch.setenv("FIRETEAM_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "data").mkdir()
    keys = make_keys(["anna", "bob"])
    (tmp_path / "data" / "seats.toml").write_text(seats_toml(keys, {"anna": "referee", "bob": role}))
    demo_game(tmp_path / "club.ft").close()
    args = argparse.Namespace(
        saves=[tmp_path / "club.ft"], host="127.0.0.1", port=0, seats=None, workers=0, event=None, organiser_key=None
    )
    assert serve_main(args) == 2
    err = capsys.readouterr().err
    assert f"unknown role {shown}; the roles are: referee, irregulars, regulars, spectator" in err


def test_a_seats_file_is_checked_again_when_it_changes_and_an_empty_one_warned_of(tmp_path, caplog):
    keys = make_keys(["anna"])
    path = tmp_path / "seats.toml"
    path.write_text("")
    log = logging.getLogger("fireteam.serve.test")
    caplog.set_level(logging.INFO, logger="fireteam.serve.test")
    roles = table_roles([["regulars", "irregulars"]])
    seats = SeatsFile(path, log, roles)
    assert "has no seats: nobody can log in" in caplog.text
    _rewrite(path, keys, {"anna": "Spectator"})
    assert len(seats.seats) == 0
    assert "unknown role 'Spectator'" in caplog.text
    _rewrite(path, keys, {"anna": "regulars"})
    assert seats.seats.by_name("anna").role == "regulars"
    # A game not yet set up has no sides to check against: only the fixed roles' spelling is.
    assert table_roles([["regulars"], []]) is None
    path.write_text(seats_toml(keys, {"anna": "REFEREE"}))
    with pytest.raises(SeatsError, match="unknown role 'REFEREE'; the roles are: referee, spectator"):
        SeatsFile(path, log, None)


async def test_the_organiser_kicks_a_seat_from_the_servers_console(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    keys = make_keys(["anna", "bob"])
    (data / "seats.toml").write_text(seats_toml(keys, {"anna": "referee", "bob": "regulars"}))
    demo_game(tmp_path / "club.ft").close()
    serve = ("serve", "--port", "0", "--workers", "1", str(tmp_path / "club.ft"))
    proc = await fireteam_process(tmp_path, *serve, env={"FIRETEAM_DATA_DIR": str(data)}, stdin=asyncio.subprocess.PIPE)
    try:
        out = await read_until(proc, "listening on", 30)
        port = listening_port(out)
        club = Club(None, port, keys, None, [], None)  # type: ignore[arg-type]
        bob = await club.seated("bob", "type a command")
        proc.stdin.write(b"kick bob\n")
        await proc.stdin.drain()
        await asyncio.wait_for(bob.closed.wait(), WAIT_S)
        assert "the organiser closed your seat" in "".join(bob.raw)
        while "bob: 1 session closed" not in out:
            line = await asyncio.wait_for(proc.stdout.readline(), WAIT_S)
            assert line
            out += line.decode()
    finally:
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 15) == 0
