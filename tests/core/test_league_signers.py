"""Issue #90, point 4: a club's allowed_signers file judged as ``ssh-keygen -Y verify`` judges it.

``valid-before="20200101"`` and ``valid-after="20990101"`` were ignored (the signature counted,
"confirmed by both players", where ssh-keygen refuses both); ``@revoked`` gave an error with
nothing after the colon; a key limited to other namespaces was "not in the club". Keys are real
ones made by ssh-keygen, and each refusal is compared with ssh-keygen's own.
"""

from __future__ import annotations

import base64
import calendar
import subprocess
import time
from pathlib import Path

import pytest

from core.league import season
from core.league.certificate import NAMESPACE, NotCounted
from core.league.signatures import BadSignature, check, parse_signers
from tests.shared.club import CLUB, certified, club_keys, new_league, play, rechained
from tests.shared.keys import sign, signer_line
from tui.main import main as fireteam

pytestmark = pytest.mark.subprocess  # ssh-keygen makes the club's keys and signs


def ssh_keygen_says(signers: Path, identity: str, sig: Path, data: Path) -> str:
    """``ssh-keygen -Y verify``'s refusal (it must refuse)."""
    with open(data, "rb") as f:
        done = subprocess.run(
            ["ssh-keygen", "-Y", "verify", "-f", str(signers), "-I", identity, "-n", NAMESPACE, "-s", str(sig)],
            stdin=f,
            capture_output=True,
            text=True,
        )
    assert done.returncode != 0
    return done.stderr


@pytest.mark.parametrize(
    ("option", "ours", "theirs"),
    [
        ('valid-before="20200101"', "anna's key has expired", "key has expired"),
        ('valid-after="20990101"', "anna's key is not yet valid", "key is not yet valid"),
        (
            'namespaces="git"',
            "anna's key is not permitted for signatures in the namespace fireteam-result",
            "not permitted",
        ),
    ],
)
def test_a_key_outside_its_lines_options_is_refused_with_openssh_reason(tmp_path, option, ours, theirs):
    signers = club_keys(tmp_path, options={"anna": option})
    league = new_league(tmp_path)
    save = play(tmp_path, "g")
    cert, sigs = certified(save, tmp_path, "anna", "bruno")
    with pytest.raises(NotCounted, match=f"the club's keys, line 1: {ours}"):  # counted before: "both players"
        season.add(league, save, cert, sigs)
    assert theirs in ssh_keygen_says(signers, "anna", sigs[0], cert)
    assert season.load(league).games == []


def test_a_key_outside_its_dates_says_which_time_it_was_judged_at(tmp_path, capsys):
    """Issue #90's "valid-after (at the signature's time, or today: say which)": ``league add`` judges
    now and says so; the standings judge at the time the league recorded the game and say so (here a
    record whose time was moved past the key's end and re-chained)."""
    club_keys(tmp_path, options={"anna": 'valid-before="20990101"', "bruno": 'valid-after="20990101"'})
    league = new_league(tmp_path)
    save = play(tmp_path, "g")
    cert, sigs = certified(save, tmp_path, "anna", "bruno")
    with pytest.raises(NotCounted, match=r"line 2: bruno's key is not yet valid: judged now \(20\d\d-"):
        season.add(league, save, cert, sigs)
    season.add(league, save, cert, sigs[:1])
    rechained(league, lambda records: records[2].update(at=calendar.timegm((2100, 1, 1, 0, 0, 0)) * 1000))
    assert fireteam(["league", "standings", str(league)]) == 1
    said = "line 1: anna's key has expired: judged at the time it was recorded (2100-01-01T"
    assert said in capsys.readouterr().out


def test_a_revoked_key_is_refused_naming_its_line(tmp_path):
    signers = club_keys(tmp_path)
    anna = signer_line(tmp_path / "anna", "anna")
    signers.write_text(signers.read_text() + f"@revoked {anna}\n")  # before: "line 5: " and nothing more
    league = new_league(tmp_path)
    save = play(tmp_path, "g")
    cert, sigs = certified(save, tmp_path, "anna")
    with pytest.raises(NotCounted, match=r"revoked in the club's allowed signers \(line 5: @revoked\)"):
        season.add(league, save, cert, sigs)


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("@cert-authority anna {key}", "@cert-authority is no marker of an allowed_signers file"),
        ("@revoked", "line 1: @revoked names no key"),
        ('anna valid-before="2020-01-01" {key}', 'valid-before="2020-01-01": a date YYYYMMDD or a time'),
        ("anna ssh-ed25519 AAAAnot-a-key", "line 1: ssh-ed25519 AAAAnot-a-ke… is not a public key"),
        # @revoked written as a revocation list writes it, and a .pub pasted whole, with no name before the key;
        # a name and a key without its type, a name and a type without the key: before, sshsig's own words
        # ("Not space-separated OpenSSH format public key ('AAAA…')") or a key said not to be one.
        ("@revoked {key}", "line 1: not a player's line: his name, then the first two words of his .pub file"),
        ("{key} anna@home", "line 1: not a player's line"),
        ("anna {base64}", "line 1: not a player's line"),
        ("anna ssh-ed25519", "line 1: not a player's line"),
    ],
)
def test_each_refused_line_says_why(tmp_path, line, said):
    club_keys(tmp_path, ("anna",))
    key = " ".join(signer_line(tmp_path / "anna", "anna").split()[1:])
    with pytest.raises(ValueError, match=said) as e:
        parse_signers(line.format(key=key, base64=key.split()[1]) + "\n")
    assert "OpenSSH format" not in str(e.value) and "('" not in str(e.value)


def test_a_signature_is_judged_at_the_time_asked(tmp_path):
    """``league add`` judges now; the standings judge again at the time the league recorded the game."""
    club_keys(tmp_path, ("anna",))
    line = signer_line(tmp_path / "anna", "anna").replace(
        "anna ", 'anna valid-after="20260101Z",valid-before="202601021200Z" '
    )
    signers = parse_signers(line + "\n")
    data = tmp_path / "data"
    data.write_bytes(b"a result\n")
    armored = sign(tmp_path / "anna", data).read_bytes()
    noon = calendar.timegm(time.strptime("20260102 1200", "%Y%m%d %H%M"))
    assert check(data.read_bytes(), armored, signers, noon).identity == "anna"  # at the bound: still valid
    with pytest.raises(BadSignature, match="expired"):
        check(data.read_bytes(), armored, signers, noon + 1)
    with pytest.raises(BadSignature, match="not yet valid"):
        check(data.read_bytes(), armored, signers, noon - 36 * 3600 - 1)


def test_random_bytes_for_a_signature_say_so_not_a_codec_error(tmp_path):
    club_keys(tmp_path)
    league = new_league(tmp_path)
    save = play(tmp_path, "g")
    cert, _sigs = certified(save, tmp_path)
    noise = tmp_path / "noise.sig"
    noise.write_bytes(bytes(range(256)) * 2)  # before: "'ascii' codec can't decode byte 0x80"
    with pytest.raises(NotCounted, match="noise.sig: not an SSH signature") as e:
        season.add(league, save, cert, [noise])
    assert "codec" not in str(e.value)


def test_random_bytes_inside_a_signatures_armor_say_so_not_that_the_result_changed(tmp_path):
    """Point 9's random bytes, wrapped in ssh-keygen's armor (or a signature cut short): before, "it does
    not verify over these bytes: they are not the ones that were signed", as if the result had been edited."""
    club_keys(tmp_path)
    league = new_league(tmp_path)
    save = play(tmp_path, "g")
    cert, (real,) = certified(save, tmp_path, "anna")
    lines = real.read_text().splitlines()
    noise = tmp_path / "noise.sig"
    noise.write_text("\n".join([lines[0], base64.b64encode(bytes(range(256))).decode(), lines[-1]]) + "\n")
    cut = tmp_path / "cut.sig"
    cut.write_text("\n".join([*lines[:2], lines[-1]]) + "\n")
    for sig in (noise, cut):
        said = f"{sig.name}: not an SSH signature: what lies between its BEGIN and END lines"
        with pytest.raises(NotCounted, match=said) as e:
            season.add(league, save, cert, [sig])
        assert "not the ones that were signed" not in str(e.value)
    assert season.add(league, save, cert, [real]).level  # the honest signature counts


def test_a_key_named_for_two_players_or_a_name_written_two_ways_is_refused(tmp_path):
    club_keys(tmp_path, ("anna", "bruno"))
    anna, bruno = (signer_line(tmp_path / n, n) for n in ("anna", "bruno"))
    with pytest.raises(ValueError, match="line 2: this key is 'anna''s already"):
        parse_signers(f"{anna}\n{anna.replace('anna ', 'annie ')}\n")
    with pytest.raises(ValueError, match="line 2: 'ANNA' is 'anna' \\(line 1\\) written another way"):
        parse_signers(f"{anna}\n{bruno.replace('bruno ', 'ANNA ')}\n")
    assert [s.identity for s in parse_signers(f"{anna}\n{anna}\n")] == ["anna", "anna"]  # one player, one key twice


def test_the_organisers_key_signs_the_season(tmp_path):
    club_keys(tmp_path, CLUB)
    with pytest.raises(NotCounted, match="anna's key, not the organiser's"):
        season.new(tmp_path / "x.league", "Club", tmp_path / "allowed_signers", "org", (3, 1, 0), tmp_path / "anna")
    assert not (tmp_path / "x.league").exists()
