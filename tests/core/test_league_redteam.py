"""Issue #90, the red team's pass after the organiser's vouching landed: two ways whoever holds a
league file still made a false result count ("confirmed by both players; counted", exit 0).

* The header turned to format 1: an older league's settings are the file's word, so the file
  named a club member its organiser and his key vouched for seat confirmations never given.
* An old ruling of the organiser's copied after his later one (a dispute before it, which anyone
  may append): his overturned word stood again as his last.

And one way to unmake a true result unseen: the organiser's vouching joins the sides with commas,
so ``confirmed: ["british,german"]`` kept his signature whole and the game, confirmed by both
players, read "confirmed by one player only" (below a ``--counts both`` league's level), exit 0.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import msgspec
import pytest

from core.league import organiser, season
from core.league.certificate import Certificate
from core.league.folding import FLAGGED, FROZEN
from core.league.records import Opened
from tests.shared.club import certified, club_keys, confirm_at, new_league, play, rechained
from tui.main import main as fireteam

pytestmark = pytest.mark.subprocess  # ssh-keygen makes the club's keys and signs


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    club_keys(tmp_path)
    return tmp_path


def standings(capsys, league: Path) -> tuple[int, str, str]:
    status = fireteam(["league", "standings", str(league), "--lang", "en"])
    said = capsys.readouterr()
    return status, said.out, said.err


def vouched_league(folder: Path) -> Path:
    """A league counting games both players confirmed, holding one both confirmed at their seats
    and the organiser vouched for."""
    league = new_league(folder, counts="both")
    save = play(folder, "g", seats="german=anna via=invitation; british=bruno via=invitation")
    confirm_at(save, "german", "anna")
    confirm_at(save, "british", "bruno")
    season.add(league, save, certified(save, folder)[0], [], folder / "org")
    return league


def test_a_league_turned_to_format_1_whose_new_organiser_vouches_for_a_changed_result_is_flagged(folder, capsys):
    league = vouched_league(folder)

    def edit(records: list[dict]) -> None:
        records[0]["league"] = 1  # settings unsigned: the file's word
        records[1].update(organiser="carla", signature="")
        game = records[2]
        cert = json.loads(game["certificate"])
        cert["winner"] = "british"
        game.update(certificate=json.dumps(cert, separators=(",", ":")) + "\n", signed=[])
        opened = msgspec.json.decode(json.dumps(records[1]), type=Opened)
        cert_made = msgspec.json.decode(game["certificate"], type=Certificate)
        data = organiser.vouch_data(opened, cert_made, game["confirmed"])
        game["vouched"] = organiser.sign(data, folder / "carla")

    rechained(league, edit)
    status, out, err = standings(capsys, league)
    assert status == 1  # before: 0, "bruno … beat anna …; confirmed by both players; counted"
    assert "club.league:3: a record no league of format 1 holds (a later Fireteam's): the file was changed" in err
    assert "club.league:3: seat confirmations not signed by the organiser: not counted as confirmed" in err
    assert "confirmed by both players" not in out and "unconfirmed; not counted: flagged" in out
    (game,) = season.load(league).games
    assert (game.standing, game.confirmed) == (FLAGGED, ())


def test_a_vouched_pair_of_sides_written_as_one_side_is_flagged(folder, capsys):
    league = vouched_league(folder)
    rechained(league, lambda records: records[2].update(confirmed=["british,german"]))
    status, out, err = standings(capsys, league)
    assert status == 1  # before: 0, "confirmed by one player only; not counted: below the level …", nothing flagged
    said = "club.league:3: the seat confirmations (british,german) are not those the organiser vouched for"
    assert said in err and "not counted: flagged" in out


def test_a_vouching_judged_again_says_it_was_judged_at_the_time_recorded(tmp_path, capsys):
    """The re-check judges the organiser's vouching at the record's time, and said "judged now"."""
    club_keys(tmp_path, options={"org": 'valid-before="20990101"'})
    league = new_league(tmp_path)
    save = play(tmp_path, "g", seats="german=anna via=invitation; british=bruno via=invitation")
    confirm_at(save, "german", "anna")
    season.add(league, save, certified(save, tmp_path)[0], [], tmp_path / "org")
    rechained(league, lambda records: records[2].update(at=4102444800000))  # 2100: past his key's date
    status, _out, err = standings(capsys, league)
    assert status == 1 and "org's key has expired: judged at the time it was recorded (2100-01-01" in err


def test_an_older_leagues_own_games_still_count(tmp_path, capsys):
    league = tmp_path / "old.league"
    shutil.copy(Path(__file__).parent / "leagues" / "format-1.league", league)
    status, out, err = standings(capsys, league)
    assert (status, err) == (0, "") and "against the keys the file itself gives" in out
    assert [g.standing for g in season.load(league).games] == ["counted", "counted"]


def test_an_old_ruling_replayed_after_the_organisers_later_one_is_ignored(folder, capsys):
    league = new_league(folder)
    save = play(folder, "g")  # anna (german) beats bruno
    season.add(league, save, *certified(save, folder, "anna", "bruno"))
    season.dispute(league, "1", "bruno", "I held")
    season.rule(league, "1", "result", "bruno held", folder / "org", winner="british")
    season.dispute(league, "1", "anna", "appeal")
    season.rule(league, "1", "result", "on appeal: anna won", folder / "org", winner="german")
    assert season.load(league).games[0].winner == "german"

    def edit(records: list[dict]) -> None:
        first = next(r for r in records if r.get("t") == "rule")
        records.append({"t": "dispute", "game": first["game"], "by": "bruno", "why": "again", "at": first["at"] + 1})
        records.append(dict(first))  # the overturned ruling, its signature whole

    rechained(league, edit)
    status, out, err = standings(capsys, league)
    assert status == 1  # before: 0, "bruno … beat anna …; confirmed by both players; counted"
    assert "club.league:9: a ruling signed before the game's last one (a ruling replayed): ignored" in err
    (game,) = season.load(league).games
    assert (game.winner, game.standing) == ("german", FROZEN)  # the forged dispute freezes it, visibly
    assert "bruno (Fife and Forfar Yeomanry) beat" not in out


def test_rulings_in_the_order_signed_all_stand(folder):
    """The control: the organiser rules, the game is disputed again, he rules again."""
    league = new_league(folder)
    save = play(folder, "g")
    season.add(league, save, *certified(save, folder, "anna", "bruno"))
    season.dispute(league, "1", "bruno", "I held")
    season.rule(league, "1", "result", "bruno held", folder / "org", winner="british")
    season.dispute(league, "1", "anna", "appeal")
    season.rule(league, "1", "stands", "it stands", folder / "org")
    loaded = season.load(league)
    assert loaded.flagged == [] and loaded.games[0].winner == "british" and loaded.games[0].counted
