"""``man fireteam``: docs/fireteam.1 is what ``python -m tui.manpage`` makes of the parsers now."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[2]


def made() -> str:
    done = subprocess.run(
        [sys.executable, "-m", "tui.manpage"], capture_output=True, text=True, cwd=ROOT, timeout=120, check=True
    )
    return done.stdout


def test_the_committed_page_is_in_step_with_the_parsers():
    page = made()
    assert page == (ROOT / "docs" / "fireteam.1").read_text(), "run: python -m tui.manpage > docs/fireteam.1"
    for command in ("script", "log", "paths", "completion", "serve"):
        assert f".SS {command}\n" in page, command
    assert "FIRETEAM_STATE_DIR" in page and str(ROOT) not in page  # no path of the machine that made it


def test_man_reads_it():
    if shutil.which("man") is None:
        pytest.skip("no man here")
    done = subprocess.run(
        ["man", "-l", str(ROOT / "docs" / "fireteam.1")],
        capture_output=True, text=True, timeout=120, env={"MANWIDTH": "80", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "fireteam - a terminal referee" in done.stdout and "--json" in done.stdout


def test_the_readmes_command_installs_it_where_man_finds_it(tmp_path):
    """An editable install has no data files: the README says the one command that puts the page where
    a full install would, and man finds it there once the environment's bin is on the PATH."""
    if shutil.which("man") is None or shutil.which("install") is None:
        pytest.skip("no man or install here")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (command,) = [line for line in readme.splitlines() if line.startswith("install ") and "docs/fireteam.1" in line]
    # Where the data files of pyproject.toml go in a full install, as the command puts it.
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["data-files"]
    assert declared["share/man/man1"] == ["docs/fireteam.1"] and ".venv/share/man/man1/fireteam.1" in command
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    shutil.copytree(ROOT / "docs", tmp_path / "docs", ignore=shutil.ignore_patterns("*.md", "*.svg"))
    subprocess.run(command, shell=True, cwd=tmp_path, check=True, timeout=60)
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "LANG": "C.UTF-8"}
    found = subprocess.run(["man", "-w", "fireteam"], capture_output=True, text=True, env=env, timeout=60)
    assert found.stdout.strip() == str(venv / "share" / "man" / "man1" / "fireteam.1"), found.stderr


def test_an_option_of_two_values_names_both_in_the_page():
    """An option whose metavar is a tuple (``nargs=2``, as a table server's ``--table NAME SAVE``)
    is said as its usage says it; the page's maker added the tuple to a str (a TypeError: mypy)."""
    import argparse

    from tui.manpage import _options

    parser = argparse.ArgumentParser()
    parser.add_argument("--table", nargs=2, metavar=("NAME", "SAVE"), help="a table")
    parser.add_argument("pair", nargs=2, metavar=("FROM", "TO"), help="a pair")
    lines = _options(parser)
    assert lines[-6:] == [".TP", "\\fB\\-\\-table\\fR NAME SAVE", "a table", ".TP", "\\fIFROM TO\\fR", "a pair"]
