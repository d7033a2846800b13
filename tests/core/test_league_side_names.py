"""A user's scenario's sides named in the standings (issue #91): the certificate (format 3) records
each side's name as the scenario file writes it and the file's own words for it in Italian, signed
with the rest; a name edited after signing is refused as every other forgery is; an older
certificate names a built-in's sides as before.  A name is text from a file: escaped, one line,
length-limited."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import msgspec
import pytest

from core.cli.main import run_script
from core.language.reader import reading
from core.league import certificate, render, season, standings
from core.league.certificate import NotCounted
from core.league.folding import FLAGGED, Game
from tests.shared.club import certified, club_keys, new_league, rechained, signed
from tui.main import main as fireteam

pytestmark = pytest.mark.subprocess  # ssh-keygen makes the club's keys and signs

TANKS = Path(__file__).resolve().parents[2] / "core" / "rulesets" / "ludonet" / "scenarios" / "tanks.toml"
OLDER = Path(__file__).parent / "leagues" / "format-1.league"
#: The user's sides: one with markup a page must not read, one the file gives Italian words for.
BRITISH, GERMAN, GERMAN_IT = "Yeomanry <b>of</b> Fife & Co", "Kampfgruppe Caen", "Gruppo di combattimento Caen"


def user_game(folder: Path, name: str = "mine") -> Path:
    """A Ludonet game of a user's scenario file (the tanks scenario, its sides renamed), ended."""
    mine = folder / f"{name}.toml"
    text = TANKS.read_text(encoding="utf-8").replace('id = "tanks"', 'id = "caen"')
    text = text.replace('name = "Fife and Forfar Yeomanry"', f'name = "{BRITISH}"')
    text = text.replace('name = "Kampfgruppe von Luck"', f'name = "{GERMAN}"')
    mine.write_text(text + f'\n[translations.it]\n"{GERMAN}" = "{GERMAN_IT}"\n', encoding="utf-8")
    script = folder / f"{name}.script"
    script.write_text(
        f"scenario {mine}\nplayers german=anna british=bruno\nnext\nvictory german held\n", encoding="utf-8"
    )
    save = folder / f"{name}.ft"
    assert run_script(script, save, 7, "ludonet", "", out=io.StringIO()) == 0
    return save


@pytest.fixture
def league(tmp_path: Path) -> Path:
    club_keys(tmp_path)
    path = new_league(tmp_path)
    save = user_game(tmp_path)
    season.add(path, save, *certified(save, tmp_path, "anna", "bruno"))
    return path


def test_the_certificate_records_the_sides_names_and_the_files_own_words(tmp_path):
    cert, _verified = certificate.certify(user_game(tmp_path))
    assert cert.fireteam_result == 3
    assert cert.sides == {"british": BRITISH, "german": GERMAN}
    assert cert.side_words == {"it": {GERMAN: GERMAN_IT}}  # only the words of its sides' names


def test_the_standings_name_a_user_scenarios_sides_as_its_file_does(league, capsys):
    assert fireteam(["league", "standings", str(league)]) == 0
    out = capsys.readouterr().out
    assert f"anna ({GERMAN}) beat bruno ({BRITISH}) (0 – 0)" in out  # before: anna (german) beat bruno (british)
    assert fireteam(["league", "standings", str(league), "--lang", "it"]) == 0
    assert f"anna ({GERMAN_IT}) ha battuto bruno ({BRITISH})" in capsys.readouterr().out
    table = standings.table(season.load(league))
    page = render.page(table, "Club", "en")
    assert "Yeomanry &lt;b&gt;of&lt;/b&gt; Fife &amp; Co" in page and "<b>of</b>" not in page  # text, never markup
    with reading("it"):
        assert f"anna ({GERMAN_IT})" in render.page(table, "Club", "it")


def test_a_side_name_edited_after_signing_is_refused_as_any_forgery(league, capsys):
    def edit(records: list[dict]) -> None:
        cert = json.loads(records[2]["certificate"])
        cert["sides"]["german"] = "The Winners"
        records[2]["certificate"] = json.dumps(cert, separators=(",", ":"), ensure_ascii=False) + "\n"

    rechained(league, edit)
    assert fireteam(["league", "standings", str(league)]) == 1
    err = capsys.readouterr().err
    assert "club.league:3: anna's signature does not hold" in err
    (game,) = season.load(league).games
    assert game.standing == FLAGGED and not game.counted


def test_a_side_name_changed_before_signing_differs_from_the_saves(tmp_path):
    club_keys(tmp_path)
    path = new_league(tmp_path)
    save = user_game(tmp_path)
    cert, _sigs = certified(save, tmp_path)
    data = json.loads(cert.read_bytes())
    data["sides"]["german"] = "The Winners"
    cert.write_bytes(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode() + b"\n")
    sigs = [signed(cert, tmp_path / n, n) for n in ("anna", "bruno")]
    with pytest.raises(NotCounted, match="its sides differ"):
        season.add(path, save, cert, sigs)


def test_an_older_certificate_still_reads_and_names_a_built_ins_sides(tmp_path, capsys):
    older = tmp_path / "older.league"
    shutil.copy(OLDER, older)
    assert fireteam(["league", "standings", str(older)]) == 0
    out = capsys.readouterr().out
    assert "anna (Kampfgruppe von Luck) beat bruno (Fife and Forfar Yeomanry)" in out
    cert, _verified = certificate.certify(user_game(tmp_path))
    format_2 = tmp_path / "format-2.result"
    older_cert = msgspec.structs.replace(cert, fireteam_result=2, sides={}, side_words={})  # as 0.2 made it
    format_2.write_bytes(msgspec.json.encode(older_cert) + b"\n")
    given, _data = certificate.load(format_2)  # signed before 0.3.0: added without signing again
    assert certificate.differences(given, cert) == []
    named = msgspec.structs.replace(given, sides={"german": "The Winners"})  # a name slipped into format 2
    assert certificate.differences(named, cert) == ["sides"]


def test_a_long_name_is_cut_and_kept_on_one_line(tmp_path):
    cert, _verified = certificate.certify(user_game(tmp_path))
    long = msgspec.structs.replace(cert, sides={**cert.sides, "german": "Kampf\ngruppe " + "x" * 200})
    game = Game(1, long, {}, (), "german", False)
    named = render.side_name(game, "german")
    assert named.startswith("Kampf gruppe xx") and len(named) == render.MAX_SIDE_NAME and named.endswith("…")
    assert render.side_name(game, "nobody") == "nobody"  # a side the certificate does not name: its id
