"""Joining by an invitation over SSH: ``ssh join-TOKEN@host`` with a key nobody registered binds it to the seat.

A real server and real asyncssh clients (ssh_club); the seats file is a real
file, so that the key the invitation binds is appended to it and read again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import stat
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest
from ssh_club import SEATS, Club, demo_game, make_keys, seat_workers, seats_toml

import tui.ssh.invitations.store as invitations_module
from tui.ssh.host.server import FireteamServer, Table
from tui.ssh.invitations.redeem import redeem_invitation
from tui.ssh.invitations.store import InvitationRefused, Invitations, InvitationsError, parse_duration
from tui.ssh.seatsfile import Seats, SeatsError, SeatsFile, append_key

pytestmark = [pytest.mark.server, pytest.mark.subprocess]

#: The organiser's own lines, which a bound key must leave as they are.
ORGANISER_LINES = "# Club night: the seats (hand-written, keep my comments)\n"


@contextlib.asynccontextmanager
async def invited_table(
    folder: Path, caplog, *, workers: bool = False, more_seats: str = ""
) -> AsyncIterator[tuple[Club, Invitations]]:
    caplog.set_level(logging.INFO, logger="fireteam.serve")
    keys = make_keys(SEATS)
    game = demo_game(folder / "table.ft")
    invitations = Invitations(folder)
    if workers:
        server = seat_workers(folder, [Table("table", game)], keys, SEATS, workers=1)
        server.invitations = invitations
        seats_path = folder / "seats.toml"
    else:
        seats_path = folder / "seats.toml"
        seats_path.write_text(seats_toml(keys, SEATS) + more_seats)
        server = FireteamServer(
            [Table("table", game)],
            SeatsFile(seats_path, logging.getLogger("fireteam.serve")),
            asyncssh.generate_private_key("ssh-ed25519"),
            invitations=invitations,
        )
    seats_path.write_text(ORGANISER_LINES + seats_path.read_text())
    port = await server.start("127.0.0.1", 0)
    club = Club(server, port, keys, game, [], caplog, folder / "serve.log" if workers else None)
    try:
        yield club, invitations
    finally:
        await club.close()
        game.close()


async def test_a_fresh_key_joins_by_invitation_and_is_then_the_seats(tmp_path, caplog):
    async with invited_table(tmp_path, caplog) as (club, invitations):
        token, inv = invitations.create("reg", uses=1)
        fresh = asyncssh.generate_private_key("ssh-ed25519")
        player = await club.seated("reg", "reg (Bersaglieri)", key=fresh, username=f"join-{token}")
        # The key is the seat's now, in the seats file: appended, the organiser's lines untouched.
        text = (tmp_path / "seats.toml").read_text()
        assert text.startswith(ORGANISER_LINES + '[[seat]]\nname = "rita"')
        assert f"# bound by invitation {inv.id} on " in text
        assert Seats.parse(text).seat_of(fresh.public_data).name == "reg"
        assert invitations.all()[0].used == 1
        assert invitations.all()[0].keys == [fresh.get_fingerprint()]
        # A command from that seat lands in the save and shows on the referee's terminal.
        rita = await club.seated("rita", "rita (referee)")
        player.command("note through the invitation")
        await rita.wait_for("through the invitation")
        await player.close()
        # The same key comes back with any user name, no token needed (and the invitation, used up, is not).
        await club.seated("reg", "reg (Bersaglieri)", key=fresh, username="bruno")
        log = club.log()
        assert token not in log
        assert "user='join-…'" in log
        assert f"invitation {inv.id} bound a key to seat=reg" in log


async def test_a_seat_written_with_no_key_is_taken_by_its_invitation(tmp_path, caplog):
    newcomer = '\n[[seat]]\nname = "newcomer"\nrole = "regulars"\n'
    async with invited_table(tmp_path, caplog, more_seats=newcomer) as (club, invitations):
        token, _inv = invitations.create("newcomer", uses=1)
        fresh = asyncssh.generate_private_key("ssh-ed25519")
        await club.seated("newcomer", "newcomer (Bersaglieri)", key=fresh, username=f"join-{token}")
        assert Seats.parse((tmp_path / "seats.toml").read_text()).seat_of(fresh.public_data).name == "newcomer"


async def test_a_forged_expired_revoked_or_used_up_token_lets_no_key_in(tmp_path, caplog):
    async with invited_table(tmp_path, caplog) as (club, invitations):
        token, inv = invitations.create("irr", uses=1)
        revoked, gone = invitations.create("irr")
        invitations.revoke(gone.id)
        # Made 13 hours ago, for 12 hours.
        expired, _ = Invitations(tmp_path, clock=lambda: time.time() - 13 * 3600).create("irr", expires_s=12 * 3600)
        used = asyncssh.generate_private_key("ssh-ed25519")
        await club.seated("irr", "irr (Somali militia)", key=used, username=f"join-{token}")
        before = (tmp_path / "seats.toml").read_text()
        tokens = (token, revoked, expired, "A" * 32)
        for name in [f"join-{t}" for t in tokens] + ["join-" + token[:-1] + "!", "join-"]:
            with pytest.raises(asyncssh.PermissionDenied):
                await club.connect("irr", key=asyncssh.generate_private_key("ssh-ed25519"), username=name)
        assert (tmp_path / "seats.toml").read_text() == before
        log = club.log()
        assert not any(t in log for t in tokens)
        assert log.count("(no open invitation has that token)") == len(tokens)


async def test_two_fresh_keys_at_once_on_an_invitation_of_one_use_seat_one_of_them(tmp_path, caplog):
    async with invited_table(tmp_path, caplog) as (club, invitations):
        token, _inv = invitations.create("reg", uses=1)
        keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]
        logins = await asyncio.gather(
            *(club.connect("reg", key=key, username=f"join-{token}") for key in keys), return_exceptions=True
        )
        # The other is refused: at its key, or once its key's signature is checked, the use gone.
        refused = (asyncssh.PermissionDenied, asyncssh.ChannelOpenError)
        assert sum(isinstance(login, refused) for login in logins) == 1
        seats = Seats.load(tmp_path / "seats.toml")
        assert sorted(seats.seat_of(key.public_data) is None for key in keys) == [False, True]
        assert invitations.all()[0].used == 1 and len(invitations.all()[0].keys) == 1


async def test_a_registered_key_with_a_token_logs_in_as_its_own_seat_and_uses_nothing(tmp_path, caplog):
    async with invited_table(tmp_path, caplog) as (club, invitations):
        token, _inv = invitations.create("reg")
        await club.seated("rita", "rita (referee)", username=f"join-{token}")
        assert invitations.all()[0].used == 0


async def test_the_store_is_its_owners_only_and_holds_no_token(tmp_path):
    invitations = Invitations(tmp_path)
    token, inv = invitations.create("reg")
    mode = stat.S_IMODE(os.stat(tmp_path / "invitations.json").st_mode)
    assert mode == 0o600
    assert token not in (tmp_path / "invitations.json").read_text()
    assert inv.hash in (tmp_path / "invitations.json").read_text()


async def test_through_seat_workers_the_table_process_binds_the_key(tmp_path, caplog, standby_spared):
    async with invited_table(tmp_path, caplog, workers=True) as (club, invitations):
        token, inv = invitations.create("reg")
        fresh = asyncssh.generate_private_key("ssh-ed25519")
        await club.seated("reg", "reg (Bersaglieri)", key=fresh, username=f"join-{token}")
        assert Seats.load(tmp_path / "seats.toml").seat_of(fresh.public_data).name == "reg"
        assert invitations.all()[0].used == 1
        assert token not in club.log()


def test_a_store_that_cannot_be_read_refuses_every_token_and_is_never_written_over(tmp_path):
    invitations = Invitations(tmp_path)
    token, _ = invitations.create("reg")
    (tmp_path / "invitations.json").write_text('{"version": 1, "invitations": [{"id": ')
    with pytest.raises(InvitationsError, match="mend or remove the file"):
        invitations.check(token)
    with pytest.raises(InvitationsError):
        invitations.create("irr")
    assert (tmp_path / "invitations.json").read_text() == '{"version": 1, "invitations": [{"id": '


def test_a_store_that_cannot_be_written_refuses_the_token_saying_why(tmp_path, monkeypatch):
    invitations = Invitations(tmp_path)
    token, _ = invitations.create("reg")
    # A store that would grow past its limit is not written: nor is the use counted, on disk or here.
    monkeypatch.setattr(invitations_module, "MAX_STORE_BYTES", (tmp_path / "invitations.json").stat().st_size)
    with pytest.raises(InvitationsError, match="would grow past"):
        invitations.join(token)
    assert invitations.all()[0].used == 0
    assert invitations.browsers_by_invitation() == {}
    monkeypatch.undo()
    # The store's next version cannot be made (a full disk would do the same): nothing is used.
    (tmp_path / f"invitations.json.{os.getpid()}.tmp").mkdir()
    with pytest.raises(InvitationsError, match="cannot write the invitations"):
        invitations.join(token)
    assert invitations.all()[0].used == 0
    # Nor can the lock be taken.
    (tmp_path / "invitations.lock").unlink()
    (tmp_path / "invitations.lock").mkdir()
    with pytest.raises(InvitationsError, match="cannot lock the invitations"):
        invitations.create("irr")


def test_a_key_is_bound_only_once_its_use_is_on_disk_and_a_failed_bind_gives_the_use_back(tmp_path, monkeypatch):
    invitations = Invitations(tmp_path)
    token, _ = invitations.create("reg", uses=1)
    key = asyncssh.generate_private_key("ssh-ed25519")
    bound: list[int] = []  # the uses on disk as the key was bound

    def bind(inv) -> None:
        bound.append(invitations.all()[0].used)

    def may(inv) -> None:
        pass

    # The use cannot be counted (a store that would grow past its limit; a full disk alike): no key is bound.
    monkeypatch.setattr(invitations_module, "MAX_STORE_BYTES", (tmp_path / "invitations.json").stat().st_size)
    with pytest.raises(InvitationsError, match="would grow past"):
        invitations.bind(token, key, may, bind)
    assert bound == [] and invitations.all()[0].used == 0
    monkeypatch.undo()

    # A key that may not be bound uses nothing.
    def owned(inv) -> None:
        raise InvitationRefused("the key already belongs to seat 'irr'")

    with pytest.raises(InvitationRefused, match="already belongs"):
        invitations.bind(token, key, owned, bind)
    assert bound == [] and invitations.all()[0].used == 0

    # A bind that fails (the seats file cannot be written) gives the use back.
    def fails(inv) -> None:
        raise InvitationRefused("could not bind the key: No space left on device")

    with pytest.raises(InvitationRefused, match="could not bind"):
        invitations.bind(token, key, may, fails)
    assert invitations.all()[0].used == 0 and invitations.all()[0].keys == []

    grant = invitations.bind(token, key, may, bind)
    assert bound == [1] and grant.seat == "reg"  # counted on disk before the key was bound
    assert invitations.all()[0].keys == [key.get_fingerprint()]


async def test_a_key_whose_invitation_cannot_be_used_now_is_refused_and_the_organiser_told_why(tmp_path, caplog):
    async with invited_table(tmp_path, caplog) as (club, invitations):
        token, _inv = invitations.create("reg", uses=1)
        (tmp_path / "invitations.lock").unlink()
        (tmp_path / "invitations.lock").mkdir()
        fresh = asyncssh.generate_private_key("ssh-ed25519")
        with pytest.raises((asyncssh.PermissionDenied, asyncssh.ChannelOpenError)):
            await club.connect("reg", key=fresh, username=f"join-{token}")
        assert "cannot lock the invitations" in club.log()
        assert Seats.load(tmp_path / "seats.toml").seat_of(fresh.public_data) is None
        await club.seated("rita", "rita (referee)")  # the table goes on


async def test_a_key_whose_use_cannot_be_counted_is_not_bound(tmp_path, caplog, monkeypatch):
    # Bound first and counted after, a store that could not be written would leave the key in the
    # seats file and the invitation open for one key more than its uses.
    async with invited_table(tmp_path, caplog) as (club, invitations):
        token, _inv = invitations.create("reg", uses=1)
        monkeypatch.setattr(invitations_module, "MAX_STORE_BYTES", (tmp_path / "invitations.json").stat().st_size)
        before = (tmp_path / "seats.toml").read_text()
        fresh = asyncssh.generate_private_key("ssh-ed25519")
        with pytest.raises((asyncssh.PermissionDenied, asyncssh.ChannelOpenError)):
            await club.connect("reg", key=fresh, username=f"join-{token}")
        assert "would grow past" in club.log()
        assert (tmp_path / "seats.toml").read_text() == before and invitations.all()[0].used == 0


def test_a_browsers_invitation_to_a_seat_not_in_the_seats_file_is_refused_and_uses_nothing(tmp_path):
    # The seat was taken out of the file after the invitation was made (fireteam invite checks it then).
    seats = Seats.parse(seats_toml(make_keys(SEATS), SEATS))
    invitations = Invitations(tmp_path)
    token, inv = invitations.create("gone")
    log = logging.getLogger("fireteam.serve")
    with pytest.raises(InvitationRefused, match="there is no seat 'gone'"):
        redeem_invitation(invitations, seats, log, token, "192.0.2.1:5000")
    assert invitations.all()[0].used == 0 and invitations.browsers_by_invitation() == {}
    # A seat that is there, and a spectator link, let the browser in.
    for seat in ("reg", ""):
        token, _ = invitations.create(seat)
        assert redeem_invitation(invitations, seats, log, token, "192.0.2.1:5000").cookie


def test_uses_and_expiry(tmp_path):
    now = [1_000_000.0]
    invitations = Invitations(tmp_path, clock=lambda: now[0])
    token, inv = invitations.create("reg", expires_s=3600, uses=1)
    first = invitations.join(token)
    assert first.cookie and first.seat == "reg"
    with pytest.raises(InvitationRefused, match="used up"):
        invitations.join(token)
    assert invitations.browser(first.cookie).invitation == inv.id  # used up: its browser stays
    now[0] += 3600
    with pytest.raises(InvitationRefused, match="expired"):
        invitations.browser(first.cookie)
    # Ended a week ago: dropped from the store at its next write, with its browsers.
    now[0] += 7 * 24 * 3600 + 1
    invitations.create("irr")
    assert [i.seat for i in invitations.all()] == ["irr"]
    assert invitations.browsers_by_invitation() == {}


def test_a_bound_key_of_a_seat_taken_out_goes_with_it(tmp_path):
    keys = make_keys(["a", "b"])
    body = seats_toml(keys, {"a": "referee"})
    fresh = asyncssh.generate_private_key("ssh-ed25519")
    path = tmp_path / "seats.toml"
    path.write_text(body.rstrip("\n"))  # no newline at the end: the record starts on a line of its own
    append_key(path, "a", fresh, "bound by invitation x1 on 2026-11-21 23:42 UTC, from 192.0.2.1:4000")
    assert Seats.load(path).seat_of(fresh.public_data).name == "a"
    path.write_text(path.read_text().replace('name = "a"', 'name = "z"'))
    assert Seats.load(path).seat_of(fresh.public_data) is None
    with pytest.raises(SeatsError):
        append_key(path, 'a"\nrole = "referee', fresh, "x")


@pytest.mark.parametrize(("text", "seconds"), [("12h", 43200), ("30m", 1800), ("2d", 172800), ("90", 90), (" 5 s ", 5)])
def test_durations(text, seconds):
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "0h", "31d", "1w", "-1h", "1.5h", "12h; rm -rf"])
def test_bad_durations(text):
    with pytest.raises(ValueError):
        parse_duration(text)
