"""``fireteam certify`` and ``fireteam league add``: every refusal, each by the one check that makes it.

Games are played by ``fireteam script``'s code with seeded dice, two players named at the table
(``players``); keys are made and certificates signed with ``ssh-keygen``, as a club would.
"""

from __future__ import annotations

import io
import json
import zlib
from pathlib import Path

import msgspec
import pytest

from core.cli.main import run_script
from core.league import certificate, season
from core.league.folding import COUNTED, VOIDED
from core.league.levels import BOTH, ONE_PLAYER, ORGANISER_ONLY, PLAYER_AND_ORGANISER, UNCONFIRMED
from core.league.records import RESULT, STANDS, VOID
from core.league.season import FROZEN, NotCounted
from core.log import events as ev
from core.secrets.verify import verify
from core.storage.errors import SaveError, SaveLocked
from core.storage.writer import SaveWriter
from tests.shared.club import CLUB, club_keys, fingerprint, new_league, play, signed
from tests.shared.club import certified as certified_in
from tests.shared.keys import keygen
from tests.shared.seating import seated
from tui.main import main as fireteam

pytestmark = pytest.mark.subprocess  # ssh-keygen makes the club's keys and signs


@pytest.fixture
def club(tmp_path: Path):
    club_keys(tmp_path)
    return new_league(tmp_path), {name: tmp_path / name for name in CLUB}


def certified(save: Path, keys: dict[str, Path], *signers: str) -> tuple[Path, list[Path]]:
    return certified_in(save, save.parent, *signers)


def _signed(cert: Path, key: Path, name: str) -> Path:
    return signed(cert, key, name)


def rewrite(path: Path, edit) -> None:
    """The save's events edited, encoded again and each line's check chained again: a file that loads."""
    lines = path.read_bytes().splitlines()
    events = edit([msgspec.json.decode(line[9:], type=ev.AnyEvent) for line in lines[1:]])
    check, out = zlib.crc32(lines[0][9:]), [lines[0]]
    for e in events:
        payload = msgspec.json.encode(e)
        check = zlib.crc32(payload, check)
        out.append(b"%08x %b" % (check, payload))
    path.write_bytes(b"\n".join(out) + b"\n")


def test_certify_writes_the_result_the_save_gives(tmp_path, club):
    save = play(tmp_path, "g")
    cert, _sigs = certified(save, club[1])
    data = json.loads(cert.read_bytes())
    assert (data["winner"], data["draw"]) == ("german", False)
    assert {p["side"]: p["name"] for p in data["players"]} == {"german": "anna", "british": "bruno"}
    assert data["ruleset"] == "ludonet" and data["scenario"] == "Tanks at Cagny"
    assert set(data["scores"]) == {"german", "british"}
    assert data["checked"]["commands"] == 4
    # The same save gives the same bytes again.
    again, _v = certificate.certify(save)
    assert again.encoded() == cert.read_bytes()


def test_both_players_signing_confirm_it(tmp_path, club):
    league, keys = club
    save = play(tmp_path, "g")
    game = season.add(league, save, *certified(save, keys, "anna", "bruno"))
    assert game.level == BOTH and game.players == {"german": ("anna",), "british": ("bruno",)}


def test_the_levels_of_confirmation(tmp_path, club):
    league, keys = club
    levels = []
    for n, signers in enumerate((("anna", "org"), ("bruno",), ("org",), ())):
        save = play(tmp_path, f"g{n}", end=f"victory german held {n}")
        levels.append(season.add(league, save, *certified(save, keys, *signers)).level)
    # The organiser is the league's named organiser: only his signature is his word (issue #90).
    assert levels == [PLAYER_AND_ORGANISER, ONE_PLAYER, ORGANISER_ONLY, UNCONFIRMED]


def test_a_save_that_does_not_verify_is_refused(tmp_path, club):
    league, keys = club
    save = play(tmp_path, "g")

    def other_faces(events: list[ev.Event]) -> list[ev.Event]:
        at = next(i for i, e in enumerate(events) if isinstance(e, ev.Rolled) and e.roll.faces)
        roll = events[at]
        faces = tuple(f % roll.roll.sides + 1 for f in roll.roll.faces)
        events[at] = msgspec.structs.replace(roll, roll=msgspec.structs.replace(roll.roll, faces=faces))
        return events

    rewrite(save, other_faces)
    # Its certificate made as certify would, but without verify's check: the forger's.
    cert = certificate.derive(save, verify(save))
    path = tmp_path / "forged.result"
    certificate.write(cert, path)
    sigs = [_signed(path, keys[n], n) for n in ("anna", "bruno")]
    with pytest.raises(NotCounted, match="does not verify"):
        season.add(league, save, path, sigs)
    assert season.load(league).games == []


def test_a_save_changed_after_signing_is_refused(tmp_path, club):
    league, keys = club
    save = play(tmp_path, "g")
    cert, sigs = certified(save, keys, "anna", "bruno")

    def later(events: list[ev.Event]) -> list[ev.Event]:  # a command's time: the rules do not judge it
        first = events[0]
        assert isinstance(first, ev.Issued)
        return [msgspec.structs.replace(first, at=first.at + 1), *events[1:]]

    rewrite(save, later)
    assert verify(save).ok
    with pytest.raises(NotCounted, match="changed or replaced since"):
        season.add(league, save, cert, sigs)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("winner", "british"),
        ("scores", {"german": 0, "british": 9}),
        ("players", [{"side": "german", "name": "carla"}, {"side": "british", "name": "bruno"}]),
    ],
)
def test_an_edited_winner_score_or_player_is_refused(tmp_path, club, field, value):
    league, keys = club
    save = play(tmp_path, "g")
    cert, _sigs = certified(save, keys)
    data = json.loads(cert.read_bytes())
    data[field] = value
    edited = tmp_path / "edited.result"
    edited.write_bytes(json.dumps(data, separators=(",", ":")).encode() + b"\n")
    sigs = [_signed(edited, keys[n], n) for n in ("anna", "bruno")]  # signed again after the edit
    with pytest.raises(NotCounted, match=f"its {field} differ"):
        season.add(league, save, edited, sigs)


def test_a_key_not_in_the_club_is_refused(tmp_path, club):
    league, keys = club
    save = play(tmp_path, "g")
    cert, sigs = certified(save, keys, "anna")
    stranger = keygen(tmp_path, "stranger")
    with pytest.raises(NotCounted, match="not in the club's allowed signers"):
        season.add(league, save, cert, [*sigs, _signed(cert, stranger, "stranger")])
    assert season.load(league).games == []


def test_a_bystanders_signature_is_refused(tmp_path, club):
    league, keys = club
    save = play(tmp_path, "g")
    with pytest.raises(NotCounted, match="'carla', who played no side"):
        season.add(league, save, *certified(save, keys, "anna", "carla"))


def test_the_same_game_twice_is_refused(tmp_path, club):
    league, keys = club
    save = play(tmp_path, "g")
    cert, sigs = certified(save, keys, "anna", "bruno")
    season.add(league, save, cert, sigs)
    with pytest.raises(NotCounted, match="already in the league, as game 1"):
        season.add(league, save, cert, sigs)
    assert len(season.load(league).games) == 1


def test_a_player_on_both_sides_is_refused(tmp_path, club):
    league, keys = club
    save = play(tmp_path, "g", seats="german=anna british=anna")
    with pytest.raises(NotCounted, match="seated on both sides"):
        season.add(league, save, *certified(save, keys, "anna"))


def test_a_disputed_game_is_frozen_until_the_organisers_ruling(tmp_path, club):
    league, keys = club
    save = play(tmp_path, "g")
    season.add(league, save, *certified(save, keys, "anna"))
    with pytest.raises(NotCounted, match="'carla' played no side"):
        season.dispute(league, "1", "carla", "not my game")
    with pytest.raises(NotCounted, match="not disputed"):
        season.rule(league, "1", STANDS, "nothing to rule", keys["org"])
    assert season.dispute(league, "1", "bruno", "the MG was not hidden").status == FROZEN
    game = season.rule(league, "1", RESULT, "the MG was seen", keys["org"], winner="british")
    assert (game.status, game.winner, game.rulings[0].why) == (COUNTED, "british", "the MG was seen")
    season.dispute(league, game.cert.game[:8], "org", "second look")
    assert season.rule(league, "1", VOID, "replay it", keys["org"]).status == VOIDED
    records = [json.loads(line[9:])["t"] for line in league.read_bytes().splitlines()[1:]]
    assert records == ["new", "game", "dispute", "rule", "dispute", "rule"]


def test_the_commands_say_where_and_how_far_confirmed_and_exit_by_what_happened(tmp_path, club, capsys):
    league, keys = club
    save = play(tmp_path, "g")
    assert fireteam(["certify", str(save)]) == 0
    said = capsys.readouterr().out
    assert f"{save}.result: the certificate of {save}: won by german" in said
    assert "ssh-keygen -Y sign -f ~/.ssh/id_ed25519 -n fireteam-result" in said
    cert = certificate.default_path(save)
    sigs = [str(_signed(cert, keys[n], n)) for n in ("anna", "bruno")]
    assert fireteam(["certify", str(save)]) == 2  # never over a certificate
    assert fireteam(["league", "add", str(league), str(save), str(cert), *sigs]) == 0
    assert "anna (Kampfgruppe von Luck) beat bruno (Fife and Forfar Yeomanry)" in capsys.readouterr().out  # (#91)
    assert fireteam(["league", "add", str(league), str(save), str(cert), *sigs]) == 1  # refused
    assert "already in the league" in capsys.readouterr().err
    assert fireteam(["--lang", "it", "league", "standings", str(league)]) == 0
    out = capsys.readouterr().out
    assert "1. anna: 3 punti" in out and "confermata da entrambi i giocatori" in out
    assert fireteam(["league", "standings", str(tmp_path / "none.league")]) == 2


def test_a_seat_bound_to_a_key_is_its_club_identity_and_its_signature(tmp_path, club):
    """A served table seats a key (its fingerprint in Seated): the player is the club's name for
    that key, whatever name he sat by, and a signature by that key confirms his side."""
    league, keys = club
    anna = fingerprint(keys["anna"])
    with seated("ludonet") as (ruleset,):
        script = tmp_path / "k.script"
        script.write_text(f"scenario tanks\nseat german Anna R. {anna}\nseat british bruno\nnext\nvictory british\n")
        save = tmp_path / "k.ft"
        assert run_script(script, save, 7, ruleset, "", out=io.StringIO()) == 0
        game = season.add(league, save, *certified(save, keys, "anna"))
    assert game.players == {"german": ("anna",), "british": ("bruno",)} and game.level == ONE_PLAYER
    assert [s.as_ for s in game.signed] == ["german"]


def test_a_sides_copy_is_no_save_to_certify_or_add(tmp_path, club):
    league, keys = club
    save = play(tmp_path, "g")
    cert, sigs = certified(save, keys, "anna", "bruno")
    copy = tmp_path / "copy.json"
    assert fireteam(["export", str(save), "--as", "german", "-o", str(copy)]) == 0
    with pytest.raises(SaveError, match="a side's copy"):
        certificate.certify(copy)
    with pytest.raises(NotCounted, match="a side's copy"):
        season.add(league, copy, cert, sigs)


def test_the_league_file_is_locked_while_another_writes_it(tmp_path, club):
    league, keys = club
    save = play(tmp_path, "g")
    cert, sigs = certified(save, keys, "anna", "bruno")
    holder = SaveWriter.lock(league)
    try:
        with pytest.raises(SaveLocked):
            season.add(league, save, cert, sigs)
    finally:
        holder.close()
    assert season.add(league, save, cert, sigs).number == 1


def test_a_side_no_player_sat_for_is_refused(tmp_path, club):
    league, keys = club
    save = play(tmp_path, "g", seats="german=anna")
    with pytest.raises(NotCounted, match="no player was seated for british"):
        season.add(league, save, *certified(save, keys, "anna"))


def test_certify_refuses_a_game_not_over_and_an_end_from_before_results_were_data(tmp_path):
    script = tmp_path / "open.script"
    script.write_text("scenario tanks\nplayers german=anna british=bruno\nnext\n", encoding="utf-8")
    assert run_script(script, tmp_path / "open.ft", 7, "ludonet", "", out=io.StringIO()) == 0
    with pytest.raises(NotCounted, match="the game has not ended"):
        certificate.certify(tmp_path / "open.ft")
    old = Path(__file__).parent / "saves" / "linea-di-tiro-before-result.ft"
    with pytest.raises(NotCounted, match="records no winner nor a draw"):
        certificate.certify(old)
    assert fireteam(["certify", str(old), "-o", str(tmp_path / "old.result")]) == 1
    assert not (tmp_path / "old.result").exists()
