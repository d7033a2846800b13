"""Issue #90, point 7: the league re-checks what it reads.

Whoever holds the file edited it and chained its CRC-32 checks again: a winner changed inside a
stored certificate, a game record repeated, ``"win":3`` raised to 30, a key added to the signers;
``standings`` and the relay's ``/standings`` showed it all as signed and counted.  The last game
deleted left no trace; a player could ``undo`` his own ``confirm`` after the game was counted.
Now every stored signature is checked again, the season's settings carry the organiser's
signature, every ``add`` prints a receipt the standings can be checked against, and a
confirmation is final.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from core.game import Game
from core.league import season
from core.league.certificate import NotCounted
from core.league.folding import FLAGGED, Tampered
from core.league.records import Ruled, decode_record
from core.ruleset import Refused
from core.storage.journal import append
from tests.shared.club import certified, club_keys, confirm_at, new_league, play, rechained
from tui.main import main as fireteam

pytestmark = pytest.mark.subprocess  # ssh-keygen makes the club's keys and signs

OLDER = Path(__file__).parent / "leagues" / "format-1.league"


@pytest.fixture
def league(tmp_path: Path) -> Path:
    """A league of two games, each signed by both players."""
    club_keys(tmp_path)
    path = new_league(tmp_path)
    for n, end in enumerate(("victory german held", "victory british held")):
        save = play(tmp_path, f"g{n}", end=end)
        season.add(path, save, *certified(save, tmp_path, "anna", "bruno"))
    return path


def standings_of(league: Path, capsys, *more: str) -> tuple[int, str, str]:
    status = fireteam(["league", "standings", str(league), *more])
    said = capsys.readouterr()
    return status, said.out, said.err


def test_the_honest_league_holds(league, capsys):
    status, out, err = standings_of(league, capsys)
    assert status == 0 and err == ""
    assert "settings signed by the organiser org (SHA256:" in out and out.count("confirmed by both players") == 2


def test_a_winner_changed_inside_a_stored_certificate_is_flagged_naming_its_line(league, capsys):
    def edit(records: list[dict]) -> None:
        cert = json.loads(records[2]["certificate"])
        cert["winner"] = "british"
        records[2]["certificate"] = json.dumps(cert, separators=(",", ":")) + "\n"

    rechained(league, edit)
    status, out, err = standings_of(league, capsys)
    assert status == 1  # before: 0, "confirmed by both players; counted"
    assert "club.league:3: anna's signature does not hold" in err and "club.league:3: bruno's" in err
    (game,) = [g for g in season.load(league).games if g.number == 1]
    assert game.standing == FLAGGED and not game.counted
    assert "1. bruno: 3 points (1 played" in out  # only the second game counts


def test_a_repeated_game_record_is_flagged(league, capsys):
    rechained(league, lambda records: records.append(records[2]))
    status, _out, err = standings_of(league, capsys)
    assert status == 1 and "club.league:5: repeats game 1 (line 3)" in err
    assert [g.counted for g in season.load(league).games] == [True, True, False]


@pytest.mark.parametrize(
    "edit",
    [
        lambda records: records[1].update(win=30),
        lambda records: records[1].update(counts="any", organiser="anna"),
        lambda records: records[1].update(signers=records[1]["signers"] + records[1]["signers"].split("\n")[2] + "\n"),
    ],
    ids=["points raised", "organiser changed", "a key added"],
)
def test_the_seasons_settings_changed_refuse_the_league(league, capsys, edit):
    rechained(league, edit)
    status, out, err = standings_of(league, capsys)
    assert status == 1 and out == ""  # before: 60 points, "confirmed by both players"
    assert "club.league:2: the season's settings (points, organiser, keys) are not those its organiser signed" in err
    with pytest.raises(Tampered):
        season.load(league)


def test_a_deleted_last_game_is_seen_against_its_receipt(league, capsys):
    receipt = season.load(league).games[-1].receipt
    assert standings_of(league, capsys, "--receipt", receipt)[0] == 0
    rechained(league, lambda records: records.pop())
    status, _out, err = standings_of(league, capsys, "--receipt", receipt)
    assert status == 1 and f"the receipt {receipt} names no record of this file" in err


def test_a_receipt_is_printed_by_every_add(tmp_path, capsys):
    club_keys(tmp_path)
    league = new_league(tmp_path)
    save = play(tmp_path, "g")
    cert, sigs = certified(save, tmp_path, "anna")
    assert fireteam(["league", "add", str(league), str(save), str(cert), *map(str, sigs)]) == 0
    out = capsys.readouterr().out
    receipt = season.load(league).head.hex()[:16]
    assert f"receipt: {receipt}" in out


def test_a_ruling_the_organiser_did_not_sign_is_ignored(league, capsys):
    game = season.load(league).games[0]
    season.dispute(league, "1", "bruno", "not so")

    def forged(_j) -> list[Ruled]:
        return [Ruled(at=1, game=game.cert.game, ruling="result", why="I say so", winner="british")]

    append(league, lambda p: season.read(p)[0], forged, decode_record)
    status, _out, err = standings_of(league, capsys)
    assert status == 1 and "club.league:6: a ruling the organiser did not sign" in err
    assert season.load(league).games[0].winner == "german"


def test_a_confirmation_cannot_be_undone(tmp_path):
    club_keys(tmp_path)
    league = new_league(tmp_path)
    save = play(tmp_path, "g", seats="german=anna via=invitation; british=bruno via=invitation")
    confirm_at(save, "german", "anna")
    confirm_at(save, "british", "bruno")
    added = season.add(league, save, *certified(save, tmp_path), tmp_path / "org")
    assert added.level == "confirmed by both players"
    for role, by in (("british", "bruno"), ("referee", "referee")):
        game = Game.open(save)
        try:
            assert "cannot be undone" in (game.undoing.undo_refusal(role, by) or "")
            with pytest.raises(Refused, match="a confirmation of the result is final") as no:
                game.undo(role=role, by=by)
            assert no.value.rules == ("ENG-3",)
        finally:
            game.close()


def test_an_older_league_is_read_said_older_and_not_written_to(tmp_path, capsys):
    older = tmp_path / "older.league"
    shutil.copy(OLDER, older)
    status, out, _err = standings_of(older, capsys)
    assert status == 0 and "an older league (format 1)" in out
    assert out.count("confirmed by both players") == 2 and "the organiser ruled (result)" in out
    with pytest.raises(NotCounted, match="a league of format 1.*fireteam league new NEW"):
        season.dispute(older, "1", "anna", "late")
    assert older.read_bytes() == OLDER.read_bytes()


def test_an_older_certificate_is_refused_saying_how_to_go_on(tmp_path):
    import msgspec

    from core.league import certificate

    save = play(tmp_path, "g")
    cert, _verified = certificate.certify(save)
    older = tmp_path / "older.result"
    older.write_bytes(msgspec.json.encode(msgspec.structs.replace(cert, fireteam_result=1, play="")) + b"\n")
    with pytest.raises(NotCounted, match=r"format 1, made by an older Fireteam.*fireteam certify SAVE"):
        certificate.load(older)
