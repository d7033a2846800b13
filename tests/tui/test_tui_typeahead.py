"""Keys typed while the client starts reach its command line; the terminal is left as found.

The start is a real one where it matters: a fresh ``python`` running the
``fireteam`` command's entry point on a pseudo-terminal of its own (its
controlling terminal, as a shell gives it), the keys written to the
terminal right after the spawn, the save then read with core's API.  Nothing
here waits on a clock: each wait is for an event (a command in the save, a
word on the terminal, the child's exit), with a generous deadline.
"""

from __future__ import annotations

import fcntl
import os
import pty
import shutil
import struct
import termios
import threading
import time

import pytest
from skirmish import game_fixture  # noqa: F401  (a fixture)
from terminal_child import (  # noqa: F401  (a fixture)
    DEMO,
    ENTRY,
    PATIENCE_S,
    child_fixture,
    commands,
    readable,
    until_command,
)
from textual import events
from waiting import piloted, press, settled, until

from core.game import Game
from core.log import events as ev
from core.log.views import REFEREE
from tui.app import FireteamApp
from tui.commandline import CommandInput
from tui.opening import open_or_follow
from tui.screens.dialogs import LockedScreen
from tui.screens.game import GameScreen
from tui.typeahead import QuietTerminal, keys


@pytest.mark.subprocess
def test_keys_typed_as_the_client_starts_run_as_if_typed_once_it_is_up(child, tmp_path):
    save = tmp_path / "demo.ft"
    shutil.copy(DEMO, save)
    before = commands(save)
    client = child(ENTRY, str(save), cwd=tmp_path)
    client.type(b"note typed early\r")  # at once: the client is still starting
    until_command(save, "note typed early")
    client.type(b"note typed later\r")
    until_command(save, "note typed later")
    client.type(b"\x11")  # Ctrl+Q
    assert client.exit_code() == 0
    assert commands(save) == [*before, "note typed early", "note typed later"]  # each once, in order
    assert client.modes_now() == client.modes


@pytest.mark.subprocess
def test_a_save_that_cannot_be_opened_leaves_the_terminal_as_found(child, tmp_path):
    client = child(ENTRY, str(tmp_path / "missing.ft"), cwd=tmp_path)
    client.type(b"note typed early\r")
    assert client.exit_code() == 2
    assert b"no such save" in client.output
    assert client.modes_now() == client.modes


@pytest.mark.subprocess
def test_ctrl_c_during_the_start_gives_it_up_quietly_and_leaves_the_terminal_as_found(child, tmp_path):
    # The start is held in the middle (where the client would open the save) until Ctrl+C.
    code = (
        "import os, sys, time, tui.run\n"
        "def starting(**kwargs):\n"
        "    os.write(1, b'STARTING\\r\\n')\n"
        "    time.sleep(600)\n"
        "tui.run.run_app = starting\n" + ENTRY
    )
    save = tmp_path / "demo.ft"
    shutil.copy(DEMO, save)
    client = child(code, str(save), cwd=tmp_path)
    client.wait_for_output(b"STARTING")
    client.type(b"\x03")
    assert client.exit_code() == 130
    assert b"Traceback" not in client.output
    assert client.modes_now() == client.modes


@pytest.mark.subprocess
def test_a_crash_in_the_client_leaves_the_terminal_as_found(child, tmp_path):
    code = (
        "import tui.app\n"
        "async def crash(self):\n"
        "    raise RuntimeError('broken on purpose')\n"
        "tui.app.FireteamApp._start = crash\n" + ENTRY
    )
    save = tmp_path / "demo.ft"
    shutil.copy(DEMO, save)
    client = child(code, str(save), cwd=tmp_path)
    assert client.exit_code() != 0
    assert b"broken on purpose" in client.output
    assert client.modes_now() == client.modes


# ---------------------------------------------------------------- the terminal, in this process


def _shell_terminal(typed: bytes, cols: int = 10) -> tuple[int, int, list]:
    """A pty (master, slave, its modes) into which ``typed`` was typed, and echoed, in a shell's modes."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, cols, 0, 0))
    found = termios.tcgetattr(slave)
    os.write(master, typed)
    _readuntil(master, typed.replace(b"\r", b"\r\n"))  # echoed, Enter made a line feed
    return master, slave, found


def test_what_was_typed_before_the_terminal_was_quieted_is_taken_and_its_echo_wiped():
    master, slave, found = _shell_terminal(b"note abcdefghijkl\rx")
    try:
        tty = QuietTerminal(slave)
        tty.quiet()
        # Back to where the echo began: two rows for the 17 columns of the first line at 10 wide, one for "x".
        assert _readuntil(master, b"\x1b[J") == b"\r\x1b[2A\x1b[J"
        os.write(master, b"y\r")  # typed since: no echo, Enter as the raw terminal passes it
        assert _readuntil(slave, b"y\r") == b"y\r"  # left for Textual's driver
        assert tty.take_typed() == "note abcdefghijkl\rx"
        tty.restore()
        assert termios.tcgetattr(slave) == found
    finally:
        os.close(master)
        os.close(slave)


def test_what_was_typed_before_a_headless_command_is_given_back():
    master, slave, found = _shell_terminal(b"ls\r")
    try:
        tty = QuietTerminal(slave)
        tty.quiet()
        tty.restore()
        try:
            fcntl.ioctl(slave, termios.TIOCSTI, b"\n")
        except OSError:
            pytest.skip("this system lets no program put keys back in a terminal (TIOCSTI)")
        assert _readuntil(slave, b"\n") == b"\n"  # (that probe's empty line)
        tty.give_back()
        assert _readuntil(slave, b"ls\n") == b"ls\n"  # as the shell would have read it
        assert termios.tcgetattr(slave) == found
    finally:
        os.close(master)
        os.close(slave)


def test_a_terminal_that_is_not_one_is_left_alone(tmp_path):
    with (tmp_path / "keys").open("w+b") as f:
        f.write(b"note x\n")
        f.seek(0)
        tty = QuietTerminal(f.fileno())
        tty.quiet()
        assert tty.take_typed() == ""
        tty.restore()
        assert f.read() == b"note x\n"


def _waiting(fd: int) -> int:
    """Bytes a terminal holds to be read."""
    return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]


def _readuntil(fd: int, end: bytes) -> bytes:
    """What comes out of ``fd`` up to and with ``end`` (a terminal passes bytes on in its own time)."""
    out = b""
    deadline = time.monotonic() + PATIENCE_S
    while not out.endswith(end):
        assert time.monotonic() < deadline, out
        if readable(fd, 0.1):
            out += os.read(fd, 1)
    return out


def test_the_early_bytes_are_the_keys_textual_makes_of_them():
    assert [k.key for k in keys("no\x1b[A\t\r")] == ["n", "o", "up", "tab", "enter"]


# ---------------------------------------------------------------- the app


def _noted(game: Game) -> list[str]:
    return [e.text for e in game.history.store.slice(0, game.log_length) if isinstance(e, ev.Issued)]


async def test_keys_typed_before_the_app_ran_go_to_the_command_line(game):
    async with piloted(game, typed="note before\r") as (app, pilot):
        await until(pilot, lambda: "note before" in _noted(game), "the note")
        assert isinstance(app.focused, CommandInput)


async def test_keys_typed_while_a_big_save_loads_go_to_the_game_once_it_is_shown(game):
    from tui.screens.loading import LoadingScreen

    path = game.path
    game.close()
    go_on = threading.Event()

    def opener(progress):
        assert go_on.wait(PATIENCE_S)
        return open_or_follow(path, False, progress)

    async with piloted(None, opener=opener, opening=path.name) as (app, pilot):
        await until(pilot, lambda: isinstance(app.screen, LoadingScreen), "the loading screen")
        await press(pilot, *"note", "space", *"loading", "enter", workers=False)
        go_on.set()
        await until(pilot, lambda: app.game is not None and "note loading" in _noted(app.game), "the note")
        assert isinstance(app.screen, GameScreen)


async def test_ctrl_q_while_a_big_save_loads_quits_at_once(game):
    path = game.path
    game.close()
    go_on = threading.Event()

    def opener(progress):
        assert go_on.wait(PATIENCE_S)
        return open_or_follow(path, False, progress)

    app = FireteamApp(None, role=REFEREE, opener=opener, opening=path.name)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await press(pilot, "n", "ctrl+q", workers=False)
            await until(pilot, lambda: app.return_code is not None, "the quit")
    finally:
        go_on.set()
    assert app.return_code == 0


async def test_keys_typed_ahead_never_answer_the_question_the_start_ends_on(game):
    # "early" holds r (open read-only): held keys are for the command line, not for a question.
    followed, who = open_or_follow(game.path, replay=False)
    app = FireteamApp(followed, role=REFEREE, replay=True, typed="note typed early\r")
    app.owns_game, app.locked_by = True, who
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LockedScreen), "the question")
        assert app.typeahead.held is None  # from the question on, keys are its own: none is held
        await settled(pilot)
        assert isinstance(app.screen, LockedScreen)
        await press(pilot, "enter")  # its answer (open read-only)
        await until(pilot, lambda: isinstance(app.screen, GameScreen), "the game")


def test_held_keys_are_limited():
    from tui.typeahead import HELD_LIMIT, Typeahead

    typeahead = Typeahead()
    for _ in range(HELD_LIMIT + 10):
        assert typeahead.hold(events.Key("x", "x"))
    assert len(typeahead.release()) == HELD_LIMIT
    assert not typeahead.hold(events.Key("x", "x"))  # released: keys go their usual way
