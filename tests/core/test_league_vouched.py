"""Issue #90, the trust audit's R1: a league file's seat confirmations were a bare claim.

A game record's ``confirmed`` (the sides whose player typed ``confirm`` at a seat bound to him)
made its level, and nothing signed it: whoever held the file could change a winner, drop the
signatures, write both sides into ``confirmed`` and chain the CRC-32 checks again, and
``standings`` said "confirmed by both players; counted", exit 0; or append a game never played the
same way, in a ``--counts both`` league too.  A seat's confirmation is the word of the table that
hosted it, and at a club the host is the organiser: now it counts only with his signature of it
(``league add --key``), and the standings flag a claim he did not sign.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import msgspec
import pytest

from core.league import organiser, season, standings
from core.league.certificate import Certificate
from core.league.folding import FLAGGED
from core.league.levels import BOTH, UNCONFIRMED
from tests.shared.club import certified, club_keys, confirm_at, new_league, play, rechained
from tui.main import main as fireteam

pytestmark = pytest.mark.subprocess  # ssh-keygen makes the club's keys and signs

SEATS = "german=anna via=invitation; british=bruno via=invitation"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    club_keys(tmp_path)
    return tmp_path


def seat_confirmed(folder: Path, name: str, seed: int = 7) -> tuple[Path, Path]:
    """A game both players confirmed at their own seats (bound by their invitations), certified."""
    save = play(folder, name, seats=SEATS, seed=seed)
    confirm_at(save, "german", "anna")
    confirm_at(save, "british", "bruno")
    cert, _sigs = certified(save, folder)
    return save, cert


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = fireteam([*args, "--lang", "en"])
    said = capsys.readouterr()
    return status, said.out, said.err


def forged(records: list[dict], line: int, **cert_changes: str) -> None:
    """The game record on ``line`` (its certificate changed by ``cert_changes``) with its
    signatures dropped and both sides written in as confirmed at their seats."""
    record = records[line - 1]  # (the header is line 1)
    cert = json.loads(record["certificate"])
    cert.update(cert_changes)
    record.update(certificate=json.dumps(cert, separators=(",", ":")) + "\n", signed=[])
    record.update(confirmed=["british", "german"])
    record.pop("vouched", None)


def test_seat_confirmations_added_with_the_organisers_key_are_confirmed_by_both_and_counted(folder, capsys):
    """The honest control: a served game confirmed at both seats, in a league counting only those."""
    league = new_league(folder, counts="both")
    save, cert = seat_confirmed(folder, "g")
    status, out, err = run(capsys, "league", "add", str(league), str(save), str(cert), "--key", str(folder / "org"))
    assert (status, err) == (0, "") and "confirmed by both players; counted" in out
    status, out, err = run(capsys, "league", "standings", str(league))
    assert (status, err) == (0, "") and "confirmed by both players; counted" in out
    assert "1. anna: 3 points (1 played" in out


def test_a_forged_seat_confirmation_with_the_winner_changed_is_flagged(folder, capsys):
    league = new_league(folder)
    save = play(folder, "g")
    season.add(league, save, *certified(save, folder, "anna", "bruno"))
    rechained(league, lambda records: forged(records, 3, winner="british"))
    status, out, err = run(capsys, "league", "standings", str(league))
    assert status == 1  # before: 0, "bruno … beat anna …; confirmed by both players; counted"
    assert "club.league:3: seat confirmations not signed by the organiser: not counted as confirmed" in err
    assert "confirmed by both players" not in out and "unconfirmed; not counted: flagged" in out
    (game,) = season.load(league).games
    assert (game.level, game.standing, game.confirmed) == (UNCONFIRMED, FLAGGED, ())


def test_a_vouched_record_with_its_winner_changed_is_flagged(folder, capsys):
    """The organiser's signature kept, the certificate under it changed: it no longer holds."""
    league = new_league(folder)
    save, cert = seat_confirmed(folder, "g")
    season.add(league, save, cert, [], folder / "org")
    rechained(league, lambda records: records[2].update(certificate=records[2]["certificate"].replace("german", "x")))
    status, _out, err = run(capsys, "league", "standings", str(league))
    assert status == 1
    assert "club.league:3: the seat confirmations (british, german) are not those the organiser vouched for" in err
    assert not season.load(league).games[0].counted


def test_seat_confirmations_vouched_by_a_player_not_the_organiser_are_flagged(folder, capsys):
    league = new_league(folder)
    save = play(folder, "g")
    season.add(league, save, *certified(save, folder, "anna", "bruno"))

    def edit(records: list[dict]) -> None:
        forged(records, 3)
        opened = season.load(league).opened
        cert = msgspec.json.decode(records[2]["certificate"], type=Certificate)
        data = organiser.vouch_data(opened, cert, ("british", "german"))
        records[2]["vouched"] = organiser.sign(data, folder / "anna")  # a club key, in the league's namespace

    rechained(league, edit)
    status, _out, err = run(capsys, "league", "standings", str(league))
    assert status == 1 and "club.league:3: the seat confirmations (british, german)" in err
    assert "signed by anna, not the organiser" in err
    assert not season.load(league).games[0].counted


def test_a_never_played_game_appended_with_a_forged_confirmation_does_not_count(folder, capsys):
    """Carla never played bruno: the record is a copy of a real one, new ids, both sides "confirmed"."""
    league = new_league(folder, counts="both")
    save = play(folder, "g")
    season.add(league, save, *certified(save, folder, "anna", "bruno"))
    receipt = season.load(league).games[0].receipt

    def edit(records: list[dict]) -> None:
        made = json.loads(json.dumps(records[2]))
        records.append(made)
        cert = json.loads(made["certificate"])
        fresh = {k: hashlib.sha256(f"never {k}".encode()).hexdigest() for k in ("game", "save_sha256", "play")}
        players = [dict(p, name="carla") if p["name"] == "anna" else p for p in cert["players"]]
        cert.update(fresh, players=players)
        made["certificate"] = json.dumps(cert, separators=(",", ":")) + "\n"
        made.update(signed=[], confirmed=["british", "german"], players={"british": ["bruno"], "german": ["carla"]})

    rechained(league, edit)
    status, out, err = run(capsys, "league", "standings", str(league), "--receipt", receipt)
    assert status == 1  # before: 0, carla "confirmed by both players; counted", bruno a loss he never played
    assert "club.league:4: seat confirmations not signed by the organiser" in err
    rows = {row.player: row for row in standings.table(season.load(league)).rows}
    assert rows["bruno"].played == 1 and ("carla" not in rows or rows["carla"].played == 0)
    assert out.count("confirmed by both players") == 1


def test_a_key_not_the_organisers_is_refused_and_nothing_added(folder, capsys):
    league = new_league(folder)
    save, cert = seat_confirmed(folder, "g")
    before = league.read_bytes()
    status, _out, err = run(capsys, "league", "add", str(league), str(save), str(cert), "--key", str(folder / "anna"))
    assert status == 1 and f"{folder / 'anna'}: anna's key, not the organiser's (org)" in err
    assert league.read_bytes() == before


def test_without_the_key_seat_confirmations_are_left_out_or_the_game_refused(folder, capsys):
    save, cert = seat_confirmed(folder, "g")
    anyone = new_league(folder)
    status, out, _err = run(capsys, "league", "add", str(anyone), str(save), str(cert))
    assert status == 0 and "unconfirmed; counted" in out
    said = (
        "its confirmations at seats (british, german) left out: seat confirmations count only signed by the organiser"
    )
    assert said in out
    assert season.load(anyone).games[0].level == UNCONFIRMED
    both = new_league(folder, "both", counts="both")
    before = both.read_bytes()
    status, _out, err = run(capsys, "league", "add", str(both), str(save), str(cert))
    assert status == 1 and "count only signed by the organiser: --key" in err and "not added" in err
    assert both.read_bytes() == before
    assert season.add(both, save, cert, [], folder / "org").level == BOTH


def test_a_receipt_that_is_not_one_is_said_to_be_none(folder, capsys):
    league = new_league(folder)
    status, _out, err = run(capsys, "league", "standings", str(league), "--receipt", "xyz")
    assert status == 1 and "club.league: xyz is not a receipt" in err
