"""A command that fails on an error of the program, at a line client: said as an error in
one line (never as a refusal), then where its details are, and the client goes on (issue
45: before, ``fireteam --plain`` ended with a traceback).  The traceback goes to the user's
``errors.log``, never to the terminal a screen reader speaks whole (issue 59)."""

from __future__ import annotations

import stat
import subprocess
import sys

import pytest
from lines_support import Seat, demo_game

from core import folders
from core.ruleset import CommandSpec

FAILED = "Error: the command failed on an error of the program; nothing was recorded."
#: A seat of a server: the traceback is in the host's log.
AT_THE_HOST = "The host has the details in its log."


def broken(ctx, args):
    raise KeyError("aden")


def test_a_bug_in_a_command_is_one_error_line_and_the_client_goes_on(tmp_path):
    game = demo_game(tmp_path / "g.ft")
    game.commands.append(CommandSpec("broken", "a command with a bug", broken, who="referee"))
    before = game.path.read_bytes()
    seat = Seat(game, error_log=tmp_path / "errors.log")
    assert seat.say("broken") == [FAILED, f"The details are in {tmp_path / 'errors.log'}."]
    assert game.path.read_bytes() == before
    assert seat.say("note still here")[-1] == "Note: still here."


def test_a_bug_in_an_undo_is_one_error_line_and_the_client_goes_on(tmp_path, monkeypatch):
    game = demo_game(tmp_path / "g.ft")
    seat = Seat(game)  # a seat of a server's
    seat.say("note to take back")

    def crash(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(game, "_by_the_log", crash)  # (the undo written: its guard and its write)
    seat.say("undo")
    said = seat.say("y")
    assert said == [
        "Error: the command failed on an error of the program; open the game again to see what was recorded.",
        AT_THE_HOST,
    ]
    assert seat.say("note still here")[-1] == "Note: still here."


#: ``fireteam ARGS...`` with a bug in the command its first argument names.
CHILD = """
import sys
from core.game import Game
from tui.main import main

resolve = Game._resolve

def broken(self, parsed, *args, **kwargs):
    if parsed.text == sys.argv[1]:
        raise KeyError("aden")
    return resolve(self, parsed, *args, **kwargs)

Game._resolve = broken
sys.exit(main(sys.argv[2:]))
"""


def with_a_bug(command: str, *args: str, input: str = "") -> subprocess.CompletedProcess[str]:
    """``fireteam ARGS`` where ``command`` fails on an error of the program (its folders: the test's)."""
    return subprocess.run(
        [sys.executable, "-c", CHILD, command, *args], input=input, capture_output=True, text=True, timeout=120
    )


@pytest.mark.subprocess
def test_fireteam_plain_writes_no_traceback_on_the_terminal_but_in_the_error_log(tmp_path):
    save = tmp_path / "g.ft"
    demo_game(save).close()
    errors = folders.folder("state") / "errors.log"  # this test's (tests/conftest.py), as the child's
    done = with_a_bug("note broken", "--plain", str(save), input="note broken\nnote still here\n")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # before: the logger's last resort, the traceback's 15 lines
    lines = done.stdout.splitlines()
    at = lines.index(FAILED)
    assert lines[at + 1 :] == [f"The details are in {errors}.", "Note: still here."]
    logged = errors.read_text(encoding="utf-8")
    assert "command failed, nothing recorded: 'note broken' as referee\nTraceback" in logged
    assert "KeyError: 'aden'" in logged
    assert stat.S_IMODE(errors.stat().st_mode) == 0o600


def test_a_new_game_that_fails_on_a_bug_at_the_start_is_one_error_line_and_the_start_goes_on(tmp_path, monkeypatch):
    """The start's new game (a scenario file may reach a ruleset's bug): before, the error
    ended ``fireteam --plain`` with the traceback of its ``CommandFailed``."""
    from core.game import Game
    from tui.lines.start import StartMenu
    from tui.userdata import UserStore

    resolve = Game._resolve

    def broken(self, parsed, *args, **kwargs):
        if parsed.text.startswith("scenario "):
            raise KeyError("aden")
        return resolve(self, parsed, *args, **kwargs)

    monkeypatch.setattr(Game, "_resolve", broken)
    store = UserStore(tmp_path / "config", tmp_path / "state")
    out: list[str] = []
    menu = StartMenu(store, tmp_path / "saves", out.append)
    menu.start()
    menu.feed("new")
    menu.feed("1")
    out.clear()
    assert menu.feed("1") is None
    assert "".join(out).splitlines() == [FAILED, f"The details are in {store.error_log}."]
    assert not list((tmp_path / "saves").glob("*.ft"))  # no half-made save
    out.clear()
    menu.feed("list")
    assert "".join(out).startswith("No games yet")


@pytest.mark.subprocess
def test_fireteam_plain_demo_that_fails_on_a_bug_says_it_in_two_lines_and_exits_3(tmp_path):
    errors = folders.folder("state") / "errors.log"
    done = with_a_bug("scenario demo", "--plain", "--demo")
    assert done.returncode == 3  # as fireteam script's for an error of the program
    assert done.stderr == (
        "fireteam: the command failed on an error of the program; nothing was recorded\n"
        f"fireteam: the details are in {errors}\n"
    )
    assert "KeyError: 'aden'" in errors.read_text(encoding="utf-8")
