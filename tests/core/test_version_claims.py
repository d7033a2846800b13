# ruff: noqa: F811  (the club, a pytest fixture, imported from test_league_add)
"""Issue #90, point 1: a version is a fact of a session, not of a line.

Each attack is played as the issue writes it, on a short Ludonet game its players named at the
table: the forger adds ``"version"`` to the command that ends the game, gives the win to the loser,
swaps the scores and re-frames the lines (``forged.rewrite``); he certifies it himself where
``certify`` refuses (the certificate derived without being judged) and signs it. Each is refused
by ``verify``, ``certify`` and ``league add``; the honest game passes all three.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import msgspec
import pytest
from forged import rewrite
from test_league_add import certified, club, play  # noqa: F401

import core
from core.game import Game
from core.league import certificate, season
from core.league.season import NotCounted
from core.log import events as ev
from core.log.views import REFEREE
from core.releases import RELEASES, Release
from core.secrets.verify import NEWER, RULES_CHANGED, verify
from core.storage.errors import SaveError
from core.storage.fork import fork
from tests.shared.keys import sign
from tui.main import main as fireteam

pytestmark = pytest.mark.subprocess  # ssh-keygen makes the club's keys and signs

#: The demo as 0.2.0 recorded it (a save written by an older Fireteam, honestly).
RECORDED_BY_0_2 = Path(__file__).resolve().parent / "saves" / "demo-0.2.0.ft"


def _claimed(version: str):
    """The issue's edit: ``version`` on the command that ends the game, its end given to the loser."""

    def edit(events: list[ev.Event]) -> list[ev.Event]:
        end = next(i for i, e in enumerate(events) if type(e) is ev.GameEnded)
        cmd = max(i for i in range(end) if type(events[i]) is ev.Issued)
        events[cmd] = msgspec.structs.replace(events[cmd], version=version)
        events[end] = _swapped(events[end])
        return events

    return edit


def _swapped(end: ev.GameEnded) -> ev.GameEnded:
    a, b = sorted(end.scores)
    loser = a if end.winner == b else b
    return msgspec.structs.replace(end, winner=loser, scores={a: end.scores[b], b: end.scores[a]})


def _forged(tmp_path: Path, version: str) -> Path:
    save = play(tmp_path, f"forged-{version}")
    rewrite(save, _claimed(version))
    return save


def _self_certified(save: Path, keys: dict[str, Path], signer: str) -> tuple[Path, list[Path]]:
    """What the forger brings to league add where certify refuses him: the certificate his save gives."""
    path = certificate.default_path(save)
    certificate.write(certificate.derive(save, verify(save)), path)
    return path, [sign(keys[signer], path)]


@pytest.mark.parametrize("version", ["0.1.0", "0.2.0", "0.2.7"])
def test_a_version_claimed_on_the_command_that_ends_the_game_is_forged(tmp_path, club, capsys, version):
    """0.1.0 recorded no version; 0.2.0 does not write after 0.3.0's session; 0.2.7 was never released."""
    league, keys = club
    save = _forged(tmp_path, version)
    assert fireteam(["verify", str(save)]) == 1
    out = capsys.readouterr().out
    assert f"command #4 at step 39 (victory german held): not believed: it claims Fireteam {version}" in out
    assert "rules changed since" not in out and "forged or damaged" in out
    with pytest.raises(NotCounted, match="does not verify"):
        certificate.certify(save)
    with pytest.raises(NotCounted, match="does not verify"):
        season.add(league, save, *_self_certified(save, keys, "bruno"))
    assert season.load(league).games == []


def test_a_version_newer_than_this_fireteam_has_its_own_status_and_counts_nowhere(tmp_path, club, capsys):
    league, keys = club
    save = _forged(tmp_path, "9.9.0")
    assert fireteam(["verify", str(save)]) == NEWER == 5
    out = capsys.readouterr().out
    assert f"written by Fireteam 9.9.0, newer than this one ({core.__version__}): verify it with 9.9.0" in out
    assert out.splitlines()[-1].endswith("written in part by a Fireteam newer than this one (9.9.0): not judged here")
    with pytest.raises(NotCounted, match="newer than this one"):
        certificate.certify(save)
    with pytest.raises(NotCounted, match="newer than this one"):
        season.add(league, save, *_self_certified(save, keys, "bruno"))
    assert NEWER not in (0, 1, 2, RULES_CHANGED, 4)


def test_the_honest_game_verifies_and_counts(tmp_path, club):
    league, keys = club
    save = play(tmp_path, "honest")
    assert fireteam(["verify", str(save)]) == 0
    game = season.add(league, save, *certified(save, keys, "anna"))
    assert (game.winner, game.cert.checked.rules_changed) == ("german", 0)


def test_a_save_a_newer_fireteam_wrote_is_not_written_by_this_one(tmp_path):
    save = play(tmp_path, "g")
    rewrite(save, lambda events: [msgspec.structs.replace(events[0], version="9.9.0"), *events[1:]])
    with pytest.raises(SaveError, match=r"written by Fireteam 9\.9\.0, newer than this one .*read-only"):
        Game.open(save)
    Game.open(save, writable=False).close()  # read, replayed, verified: not written


def test_a_result_edited_in_a_save_an_older_version_wrote_is_forged(tmp_path, capsys, monkeypatch):
    """No claim at all: 0.2.0's own save, its end given to the loser. The result is the rules' whatever
    version recorded it, unless a release since decides that ruleset's results otherwise."""
    save = tmp_path / "demo.ft"
    shutil.copyfile(RECORDED_BY_0_2, save)
    assert fireteam(["verify", str(save)]) == RULES_CHANGED  # the honest 0.2.0 save (§8.2's reactions since)
    capsys.readouterr()
    rewrite(save, lambda events: [_swapped(e) if type(e) is ev.GameEnded else e for e in events])
    assert fireteam(["verify", str(save)]) == 1
    out = capsys.readouterr().out
    assert "(next): mismatch: its result is not the rules', and no release since 0.2.0 decides it otherwise" in out
    with pytest.raises(NotCounted, match=r"does not verify \(1 check failed\)"):  # (not "1 checks")
        certificate.certify(save)
    # A release that decided Breaking News's results otherwise would make it a rule changed since.
    changed = Release(RELEASES[-1].version, RELEASES[-1].date, results=("breaking-news",))
    monkeypatch.setattr("core.releases.RELEASES", (*RELEASES[:-1], changed))
    assert fireteam(["verify", str(save)]) == RULES_CHANGED


def test_a_save_whose_older_commands_meet_rules_changed_since_is_certified_saying_so(tmp_path, club, capsys):
    """A 0.2.0 session's ``next`` whose facts this version gives otherwise (its dice kept): exit 3,
    and certify and league add count it, each saying so, the certificate too."""
    league, keys = club
    save = play(tmp_path, "older")

    def older(events: list[ev.Event]) -> list[ev.Event]:
        out = []
        for e in events:
            if type(e) is ev.Issued and e.cmd == 1:
                e = msgspec.structs.replace(e, version="0.2.0")
            elif type(e) is ev.VarSet and e.key == "first_player":
                e = msgspec.structs.replace(e, value="german")
            elif type(e) is ev.PhaseBegan and e.turn == 1:
                e = msgspec.structs.replace(e, active="german", reacting="british")
            out.append(e)
        return out

    rewrite(save, older)
    assert fireteam(["verify", str(save)]) == RULES_CHANGED
    assert "(next): recorded by 0.2.0; rules changed since" in capsys.readouterr().out
    assert fireteam(["certify", str(save)]) == 0
    said = "recorded in part by an older Fireteam: 1 command gives other facts under this version's rules"
    assert said in capsys.readouterr().out
    cert = certificate.default_path(save)
    assert certificate.load(cert)[0].checked.rules_changed == 1
    sig = sign(keys["anna"], cert)
    assert fireteam(["league", "add", str(league), str(save), str(cert), str(sig)]) == 0
    assert said in capsys.readouterr().out


def test_a_fork_keeps_the_version_of_a_session_whose_first_command_was_undone(tmp_path):
    """A what-if copies the commands in effect: the one that named its session's version may be left
    behind, and the commands after it are still that session's."""
    save = play(tmp_path, "parent")
    rewrite(save, lambda events: [msgspec.structs.replace(events[0], version="0.2.0"), *events[1:]])
    game = Game.open(save)
    game.execute("note the second evening", role=REFEREE)  # names this version: undone below
    game.execute("undo", role=REFEREE)
    game.execute("note after the undo", role=REFEREE)
    steps = game.timeline.length
    game.close()
    done = fork(save, steps, tmp_path / "whatif.ft")
    what_if = Game.open(done.to, writable=False)
    issued = [e for e in what_if.history.store.slice(0, len(what_if.history.store)) if type(e) is ev.Issued]
    what_if.close()
    assert [(e.text, e.version) for e in issued][-2:] == [
        ("victory german held", ""),
        ("note after the undo", core.__version__),
    ]
    assert issued[0].version == "0.2.0"
    assert verify(done.to).status == 0


def test_an_end_a_break_point_gives_is_a_rule_changed_since_and_an_end_the_rules_do_not_give_is_forged():
    """0.3.0 ends games at a scenario's break point (``Release.ends``): a 0.2.0 command that went on
    where the rules now end the game met a rule changed since; the reverse, an end the file records
    that the rules do not give, is no rule's (a forger's early end, with the winner he chose)."""
    from core.secrets.rederive import _result_changed_since  # (the rule alone, without a save)

    went_on = [ev.VarSet(key="turn", value=2)]
    ended = [*went_on, ev.GameEnded(result="x", winner="german")]
    assert _result_changed_since("0.2.0", "ludonet", recorded=went_on, derived=ended)
    assert not _result_changed_since("0.2.0", "ludonet", recorded=ended, derived=went_on)
    assert not _result_changed_since("0.3.0", "ludonet", recorded=went_on, derived=ended)  # none since
    other = [*went_on, ev.GameEnded(result="x", winner="british")]
    assert not _result_changed_since("0.2.0", "ludonet", recorded=other, derived=ended)  # no release changed winners
