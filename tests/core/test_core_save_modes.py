"""Saves are their owner's only (issue #60): every save and side copy the program
creates names hidden units and secrets, so it is made 0600, whatever the umask lets
others read; the server's tightening of a save made elsewhere is its own (tests/ssh)."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest

from core.cli.main import run_script
from core.game import Game
from core.log.views import REFEREE
from core.storage.salvage import salvage
from tui.main import main as fireteam

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))
from recorded import SAVES  # noqa: E402

DEMO = SAVES / "demo-game.ft"


@pytest.fixture(autouse=True)
def _usual_umask():
    """The umask of most accounts: what it leaves, every other account may read."""
    before = os.umask(0o022)
    yield
    os.umask(before)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_game_the_client_starts_is_its_owners_only(tmp_path):
    game = Game.new(tmp_path / "new.ft", "breaking-news", seed=3)
    game.execute("scenario demo", role=REFEREE)
    game.close()
    assert mode(tmp_path / "new.ft") == 0o600


def test_what_a_crash_left_is_set_aside_owner_only(tmp_path):
    save = tmp_path / "torn.ft"
    save.write_bytes(b'1234abcd {"firete')
    Game.new(save, "breaking-news", seed=3).close()
    (aside,) = tmp_path.glob("torn.ft.torn-*")
    assert mode(aside) == 0o600


def test_a_scripts_save_is_its_owners_only(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("scenario demo\n")
    assert run_script(script, tmp_path / "s.ft", 5, "breaking-news", "") == 0
    assert mode(tmp_path / "s.ft") == 0o600


def test_a_fork_an_export_and_a_salvage_are_their_owners_only(tmp_path):
    assert fireteam(["fork", str(DEMO), "--step", "54", "--save", str(tmp_path / "f.ft")]) == 0
    assert fireteam(["export", str(DEMO), "--as", "regulars", "-o", str(tmp_path / "c.json")]) == 0
    done = salvage(DEMO, tmp_path / "s.ft")
    assert [mode(p) for p in (tmp_path / "f.ft", tmp_path / "c.json", done.to)] == [0o600] * 3
