"""The seats file: a key maps to one seat (name and role); anything unclear is refused with the reason."""

from __future__ import annotations

import logging
import os

import asyncssh
import pytest

from tui.ssh.seatsfile import Seat, Seats, SeatsError, SeatsFile


@pytest.fixture(scope="module")
def keys():
    return [asyncssh.generate_private_key("ssh-ed25519", comment=f"k{i}") for i in range(3)]


def pub(key) -> str:
    return key.export_public_key().decode().strip()


def test_a_key_finds_its_seat_and_an_unknown_key_none(keys):
    seats = Seats.parse(
        f"""
[[seat]]
name = "anna"
role = "referee"
keys = ["{pub(keys[0])}"]

[[seat]]
name = "bruno"
role = "regulars"
keys = ["{pub(keys[1])}", "{pub(asyncssh.generate_private_key("ssh-rsa", key_size=2048))}"]
"""
    )
    assert seats.seat_for(keys[0].convert_to_public()) == Seat("anna", "referee")
    assert seats.seat_for(keys[1]) == Seat("bruno", "regulars")
    assert seats.seat_for(keys[1]).is_side and not seats.seat_for(keys[0]).is_side
    assert seats.seat_for(keys[2]) is None
    assert seats.by_name("bruno") == Seat("bruno", "regulars")
    assert len(seats) == 2


def test_a_seat_may_wait_for_its_player_without_a_key(keys):
    # A convention: the organiser writes the seats, then invites each player, none of whose keys he has.
    seats = Seats.parse(
        f'[[seat]]\nname = "anna"\nrole = "referee"\nkeys = ["{pub(keys[0])}"]\n'
        '[[seat]]\nname = "bruno"\nrole = "regulars"\n'
        '[[seat]]\nname = "carla"\nrole = "irregulars"\nkeys = []\n'
    )
    assert seats.by_name("bruno") == Seat("bruno", "regulars") and seats.by_name("carla").role == "irregulars"
    assert len(seats) == 3
    assert seats.seat_for(keys[1]) is None  # no key gets in by it: only an invitation


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('[[seat]]\nname = "a b"\nrole = "referee"\nkeys = ["{k0}"]', "a name is one word"),
        ('[[seat]]\nname = "a"\nrole = "the boss"\nkeys = ["{k0}"]', "role must be referee, spectator or a side id"),
        ('[[seat]]\nname = "a"\nrole = "referee"\nkeys = ["ssh-ed25519 bm90IGEga2V5"]', "not an OpenSSH public key"),
        ('[[seat]]\nname = "a"\nrole = "referee"\nkeys = ["{k0}"]\npassword = "x"', "password"),
        ('[[seat]]\nname = "a"\nkeys = ["{k0}"]', "role"),
        (
            '[[seat]]\nname = "a"\nrole = "referee"\nkeys = ["{k0}"]\n'
            '[[seat]]\nname = "a"\nrole = "regulars"\nkeys = ["{k1}"]',
            "the name is used by another seat",
        ),
        (
            '[[seat]]\nname = "a"\nrole = "referee"\nkeys = ["{k0}"]\n'
            '[[seat]]\nname = "b"\nrole = "regulars"\nkeys = ["{k0}"]',
            "this key already belongs to seat 'a'",
        ),
        ("[[seat]\n", "seats.toml"),
    ],
)
def test_a_bad_seats_file_is_refused_with_the_reason(keys, body, message):
    with pytest.raises(SeatsError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Seats.parse(body.format(k0=pub(keys[0]), k1=pub(keys[1])), "seats.toml")


def test_the_file_is_read_again_when_it_changes_and_a_broken_change_keeps_the_old_seats(tmp_path, keys, caplog):
    path = tmp_path / "seats.toml"
    path.write_text(f'[[seat]]\nname = "anna"\nrole = "referee"\nkeys = ["{pub(keys[0])}"]\n')
    source = SeatsFile(path, logging.getLogger("fireteam.serve"))
    assert source.seats.seat_for(keys[1]) is None

    path.write_text(path.read_text() + f'[[seat]]\nname = "bruno"\nrole = "regulars"\nkeys = ["{pub(keys[1])}"]\n')
    os.utime(path, ns=(1, 2_000_000_000))  # a different stamp even on a coarse clock
    assert source.seats.seat_for(keys[1]) == Seat("bruno", "regulars")

    path.write_text("[[seat]]\nname = 'broken'\n")
    os.utime(path, ns=(1, 3_000_000_000))
    with caplog.at_level(logging.ERROR, logger="fireteam.serve"):
        assert source.seats.seat_for(keys[1]) == Seat("bruno", "regulars")
    assert "seats file not reloaded, the previous seats stay" in caplog.text
