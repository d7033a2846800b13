"""One rule for where Fireteam's files go (core.folders), and ``fireteam paths`` saying it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core import folders

VARIABLES = {kind: variable for kind, (variable, _function) in folders.KINDS.items()}


@pytest.fixture
def xdg(tmp_path, monkeypatch) -> Path:
    """A user with no FIRETEAM_*_DIR and his XDG folders in the test's."""
    for variable in VARIABLES.values():
        monkeypatch.delenv(variable, raising=False)
    for name in ("DATA", "CONFIG", "STATE", "CACHE"):
        monkeypatch.setenv(f"XDG_{name}_HOME", str(tmp_path / name.lower()))
    return tmp_path


@pytest.mark.skipif(sys.platform != "linux", reason="the XDG folders are Linux's")
def test_the_folders_are_the_xdg_ones_with_no_override(xdg):
    assert folders.where() == {
        "data": xdg / "data" / "fireteam",
        "saves": xdg / "data" / "fireteam" / "saves",
        "config": xdg / "config" / "fireteam",
        "state": xdg / "state" / "fireteam",
        "cache": xdg / "cache" / "fireteam",
    }


@pytest.mark.parametrize("kind", list(folders.KINDS))
def test_each_variable_moves_its_folder_and_no_other(xdg, monkeypatch, kind):
    before = folders.where()
    monkeypatch.setenv(VARIABLES[kind], str(xdg / "elsewhere"))
    after = folders.where()
    moved = {name for name in after if after[name] != before[name]}
    assert moved == ({"data", "saves"} if kind == "data" else {kind})
    assert after[kind] == xdg / "elsewhere"


def test_fireteam_data_dir_moves_the_saves_and_the_scenarios(xdg, monkeypatch):
    from core.scenarios.files import user_scenarios_dir

    monkeypatch.setenv("FIRETEAM_DATA_DIR", str(xdg / "club"))
    assert folders.saves() == xdg / "club" / "saves"
    assert user_scenarios_dir("breaking-news") == xdg / "club" / "scenarios" / "breaking-news"


def test_a_demo_game_goes_into_the_data_folder_never_the_current_one(xdg, monkeypatch):
    from tui.opening import new_demo_game

    monkeypatch.chdir(xdg)
    (xdg / "saves").mkdir()  # a saves/ here is not the rule's
    game = new_demo_game()
    game.close()
    assert game.path.parent == xdg / "data" / "fireteam" / "saves"
    assert list((xdg / "saves").iterdir()) == []


def test_the_client_s_files_follow_the_rule(xdg):
    from tui.userdata import UserStore

    store = UserStore.default()
    assert store.settings_path.parent == xdg / "config" / "fireteam"
    assert store.error_log == xdg / "state" / "fireteam" / "errors.log"
    assert store.history_path(xdg / "game.ft").parent == xdg / "state" / "fireteam" / "history"
    assert store.screenshots == xdg / "data" / "fireteam" / "screenshots"


@pytest.mark.subprocess
def test_fireteam_paths_prints_every_folder_and_its_variable(tmp_path):
    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k not in VARIABLES.values()}
    env.update(FIRETEAM_DATA_DIR=str(tmp_path / "d"), FIRETEAM_STATE_DIR=str(tmp_path / "s"), LANG="C")
    env.update(XDG_CONFIG_HOME=str(tmp_path / "xc"), XDG_CACHE_HOME=str(tmp_path / "xk"))

    def run(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "tui.main", "paths", *args],
            capture_output=True, text=True, env=env, cwd=root, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stdout

    said = json.loads(run("--json"))
    assert said["data"] == str(tmp_path / "d") and said["saves"] == str(tmp_path / "d" / "saves")
    assert said["state"] == str(tmp_path / "s")
    if sys.platform == "linux":
        assert said["config"] == str(tmp_path / "xc" / "fireteam")
        assert said["cache"] == str(tmp_path / "xk" / "fireteam")
    lines = run().splitlines()
    assert lines[0].split() == ["data", str(tmp_path / "d")]
    assert lines[1].endswith("(moved by FIRETEAM_DATA_DIR)")
    assert [line.split()[0] for line in lines[::2]] == ["data", "saves", "config", "state", "cache"]
