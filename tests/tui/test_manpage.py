"""``man fireteam``: docs/fireteam.1 is what ``python -m tui.manpage`` makes of the parsers now."""

from __future__ import annotations

import shutil
import subprocess
import sys
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
