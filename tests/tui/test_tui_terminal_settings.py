"""The suite passes whatever the terminal settings of who runs it (issue #77): with ``NO_COLOR=1`` in
the environment (as many who use screen readers or plain terminals set it) three tests of the log's
scroll bar failed, its colours taken away.  The root conftest takes such settings out of the
environment before anything is imported (``TERMINAL_SETTINGS``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Settings a user's terminal may have, each of which changed what a test saw.
SETTINGS = {
    "NO_COLOR": "1",
    "FORCE_COLOR": "1",
    "COLORTERM": "truecolor",
    "COLUMNS": "41",
    "LINES": "12",
    "TEXTUAL_COLOR_SYSTEM": "standard",
    "LANG": "it_IT.UTF-8",
    "LANGUAGE": "it",
}
#: The tests that failed under ``NO_COLOR=1``.
FAILED_UNDER_NO_COLOR = (
    "test_the_log_draws_its_scroll_bar_and_follows_the_mouse",
    "test_the_log_draws_in_new_styles_once_its_own_or_its_panes_change",
    "test_a_row_that_crosses_the_scroll_bar_thumbs_end_is_not_drawn_again",
)


def test_no_terminal_setting_reaches_a_test():
    assert not {name for name in SETTINGS if name != "LANG"} & set(os.environ)
    assert os.environ["LANG"] == "C.UTF-8"


@pytest.mark.subprocess
def test_the_scroll_bar_s_tests_pass_under_no_color_and_the_other_settings():
    env = {**os.environ, **SETTINGS}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-n",
            "0",
            *(f"tests/tui/test_tui_refresh.py::{name}" for name in FAILED_UNDER_NO_COLOR),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "3 passed" in done.stdout
