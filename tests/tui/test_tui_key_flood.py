"""A flood of keys typed without bracketed paste leaves the client bounded, and Ctrl+Q answers.

A terminal that does not bracket a paste (or a slow paste, or a macro) sends
its text as keys.  Unbounded, 170 KB of them froze the client for over seven
minutes while it grew to 1.9 GB, and Ctrl+Q waited behind them
(``tui.input_limits``, ``tui.local_driver``).  Each test runs the real client
on a pseudo-terminal of its own and floods it; nothing is timed: each wait is
for an event (the child's exit, a command in the save), with a generous
deadline.  ``fireteam bench --flood`` measures the same flood's time and memory.
"""

from __future__ import annotations

import shutil
import time

import pytest
from terminal_child import DEMO, ENTRY, PATIENCE_S, child_fixture, commands  # noqa: F401  (a fixture)

from tui.input_limits import InputLimits

#: 176,000 characters, as a terminal that does not bracket a paste sends them: as keys.
FLOOD = b"abcdefghij " * 16_000


def _started(child, tmp_path):
    save = tmp_path / "demo.ft"
    shutil.copy(DEMO, save)
    client = child(ENTRY, str(save), cwd=tmp_path)
    client.wait_for_output(b"type a command")  # the command line is up
    return client, save


@pytest.mark.subprocess
def test_ctrl_q_typed_right_after_a_flood_of_keys_quits_the_client(child, tmp_path):
    client, _save = _started(child, tmp_path)
    client.type(FLOOD + b"\x11")  # Ctrl+Q at the flood's heels, in the same write
    assert client.exit_code() == 0


@pytest.mark.subprocess
def test_a_flood_leaves_at_most_the_line_limit_on_the_command_line(child, tmp_path):
    client, save = _started(child, tmp_path)
    before = len(commands(save))
    client.type(b"note " + FLOOD)
    # Enter is typed until the note is in the save: an Enter that comes while the flood has
    # used up the characters a second a terminal may type is dropped with the flood.
    deadline = time.monotonic() + PATIENCE_S
    while len(commands(save)) == before:
        assert time.monotonic() < deadline, "the note never reached the save"
        client.type(b"\r")
        time.sleep(0.5)
    limit = InputLimits().line_length
    assert commands(save)[before:] == ["note " + FLOOD[: limit - len("note ")].decode()]
    client.type(b"\x11")
    assert client.exit_code() == 0
