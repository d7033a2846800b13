"""The league file: an event log framed and written as a save (core.storage.journal), and its club's keys."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from core.league import season
from core.league.records import LeagueHeader, Opened, decode_record
from core.league.signatures import BadSignature, check, parse_signers
from core.storage import journal
from core.storage.errors import SaveError
from tests.shared.keys import keygen, sign, signer_line

pytestmark = pytest.mark.subprocess  # ssh-keygen makes the club's keys and signs


@pytest.fixture
def club(tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    keys = {name: keygen(tmp_path, name) for name in ("anna", "bruno", "org")}
    signers = tmp_path / "allowed_signers"
    signers.write_text("\n".join(signer_line(k, n) for n, k in keys.items()) + "\n")
    return signers, keys


def new_league(tmp_path: Path, signers: Path) -> Path:
    league = tmp_path / "club.league"
    season.new(league, "Club", signers, "org", (3, 1, 0), tmp_path / "org")
    return league


def test_a_new_league_is_a_chained_log_read_back(tmp_path, club):
    league = new_league(tmp_path, club[0])
    j, s = season.read(league)
    assert j.header.league == 2 and j.torn_bytes == 0
    assert isinstance(j.records[0], Opened) and (s.opened.win, s.opened.draw, s.opened.loss) == (3, 1, 0)
    assert [x.identity for x in s.signers] == ["anna", "bruno", "org"]
    lines = league.read_bytes().split(b"\n")
    assert lines[0][9:].startswith(b'{"fireteam":3,"league":2') and lines[2] == b""


def test_a_league_is_never_made_over_a_file(tmp_path, club):
    league = new_league(tmp_path, club[0])
    before = league.read_bytes()
    with pytest.raises(SaveError, match="already exists"):
        season.new(league, "Club", club[0], "org", (3, 1, 0), tmp_path / "org")
    assert league.read_bytes() == before


def test_an_organiser_without_a_key_is_refused(tmp_path, club):
    with pytest.raises(season.NotCounted, match="organiser 'zed' has no key"):
        season.new(tmp_path / "x.league", "Club", club[0], "zed", (3, 1, 0), tmp_path / "org")
    assert not (tmp_path / "x.league").exists()


def test_a_torn_last_line_is_left_out_then_set_aside_by_the_next_append(tmp_path, club):
    league = new_league(tmp_path, club[0])
    whole = league.read_bytes()
    with league.open("ab") as f:
        f.write(b'0badc0de {"t":"dispute","ga')  # a crash mid-append
    j, _s = season.read(league)
    assert len(j.records) == 1 and j.torn_bytes == 27

    def one_more(j: journal.Journal) -> list:
        return [Opened(name="again", win=1, draw=0, loss=0, signers="", organiser="org")]

    journal.append(league, lambda p: season.read(p)[0], one_more, decode_record)
    assert league.read_bytes().startswith(whole)
    assert len(journal.read(league, LeagueHeader, decode_record).records) == 2
    with pytest.raises(SaveError, match=r"club.league:3: a second season"):
        season.read(league)
    (aside,) = tmp_path.glob("club.league.torn-*")
    assert aside.read_bytes() == b'0badc0de {"t":"dispute","ga'


def test_a_damaged_or_moved_line_is_refused_and_the_file_left_alone(tmp_path, club):
    league = new_league(tmp_path, club[0])
    lines = league.read_bytes().split(b"\n")
    edited = lines[1].replace(b'"win":3', b'"win":9')
    league.write_bytes(b"\n".join([lines[0], edited, b""]))
    with pytest.raises(SaveError, match=r"club.league:2: damaged record"):
        season.read(league)
    assert league.read_bytes() == b"\n".join([lines[0], edited, b""])


def test_a_save_is_not_a_league(tmp_path, club):
    with pytest.raises(SaveError, match="invalid header"):
        journal.read(Path("saves/demo-game.ft"), LeagueHeader, decode_record)


def test_a_signature_counts_only_over_its_bytes_in_its_namespace_by_a_club_key(tmp_path, club):
    signers_file, keys = club
    signers = parse_signers(signers_file.read_text())
    cert = tmp_path / "game.result"
    cert.write_bytes(b'{"x":1}\n')
    now = time.time()
    assert check(cert.read_bytes(), sign(keys["anna"], cert).read_bytes(), signers, now).identity == "anna"
    with pytest.raises(BadSignature, match="not the ones that were signed"):
        check(b'{"x":2}\n', cert.with_name("game.result.sig").read_bytes(), signers, now)
    cert.with_name("game.result.sig").unlink()
    with pytest.raises(BadSignature, match="another namespace"):
        check(cert.read_bytes(), sign(keys["anna"], cert, "git").read_bytes(), signers, now)
    cert.with_name("game.result.sig").unlink()
    stranger = keygen(tmp_path, "stranger")
    with pytest.raises(BadSignature, match="not in the club's allowed signers"):
        check(cert.read_bytes(), sign(stranger, cert).read_bytes(), signers, now)


def test_allowed_signers_are_read_as_hostile(tmp_path, club):
    signers_file, keys = club
    line = signer_line(keys["anna"], "anna")
    assert [s.identity for s in parse_signers(f"# the club\n\n{line}\n")] == ["anna"]
    spaces = parse_signers(line.replace("anna ", 'anna namespaces="git,fireteam-result" '))
    assert [(s.identity, s.namespaces) for s in spaces] == [("anna", ("git", "fireteam-result"))]
    assert not parse_signers(line.replace("anna ", 'anna namespaces="git" '))[0].allows("fireteam-result")
    with pytest.raises(ValueError, match="a key is one player"):
        parse_signers(line.replace("anna ", "anna,annie "))
    with pytest.raises(ValueError, match="no patterns"):
        parse_signers(line.replace("anna ", "*@club "))
    with pytest.raises(ValueError, match="certificate authority"):
        parse_signers(line.replace("anna ", "anna cert-authority "))
    with pytest.raises(ValueError, match="line 1"):
        parse_signers("anna ssh-ed25519 AAAAnot-a-key\n")
    ecdsa = keygen(tmp_path, "ec", "ecdsa")
    with pytest.raises(
        ValueError, match="line 2: a key of type ecdsa-sha2-nistp256: Fireteam checks Ed25519 and RSA keys"
    ):
        parse_signers(f"{line}\n{signer_line(ecdsa, 'eva')}\n")
    with pytest.raises(ValueError, match="more than"):
        parse_signers("\n" * 1001)
