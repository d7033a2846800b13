"""The ``fireteam`` client on a pseudo-terminal of its own, as a shell starts it (for the tests of tui/).

``Child`` runs a fresh ``python`` with the ``fireteam`` command's entry point
on a pty that is its controlling terminal, drains what it draws, and lets a
test type into it; ``commands`` reads a save with core's API.  Nothing here
waits on a clock: each wait is for an event, with a generous deadline.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import pytest

from core.game import Game
from core.log import events as ev

DEMO = Path(__file__).resolve().parents[2] / "saves" / "demo-game.ft"
#: Only ever an upper bound on waiting for something that happens (CI shares two cores).
PATIENCE_S = 120
#: The ``fireteam`` console script, run as it is installed.
ENTRY = "import sys; from tui.main import entry; sys.exit(entry())"


def readable(fd: int, timeout: float) -> bool:
    """Whether ``fd`` has something to read (or has hung up) within ``timeout`` seconds: polled,
    as ``select`` refuses a descriptor numbered past 1023, which a long test run reaches."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(timeout * 1000))


def _as_a_shell_starts_it() -> None:
    """In the child before it runs: the pty its controlling terminal, and Ctrl+C's signal at its
    default, as a shell sets them for a job in the foreground.  A child inherits an ignored
    signal, and a Python started with SIGINT ignored never turns Ctrl+C into KeyboardInterrupt:
    whatever the test process had come to ignore must not decide what the client does."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Child:
    """A process on a fresh pseudo-terminal (100x30) that is its controlling terminal; its output drained."""

    def __init__(self, code: str, *args: str, cwd: Path) -> None:
        self.master, self.slave = pty.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        #: The terminal's modes as the child finds them (a shell's: echo, lines, Ctrl+C).
        self.modes = termios.tcgetattr(self.slave)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "LC_", "LANG"))}
        env.update(LC_ALL="C", TERM="xterm-256color", HOME=str(cwd))
        for folder in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
            env[folder] = str(cwd / folder.lower())  # a user's settings, history and cache are never touched
        self.output = b""
        self._seen = threading.Condition()
        self._stop = threading.Event()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", code, *args],
            stdin=self.slave,
            stdout=self.slave,
            stderr=self.slave,
            cwd=cwd,
            env=env,
            start_new_session=True,
            preexec_fn=_as_a_shell_starts_it,  # noqa: PLW1509  (single-threaded until here)
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        # The terminal's side is read as a terminal would: a full pty would stall the child.
        while not self._stop.is_set():
            if readable(self.master, 0.1):
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    return
                with self._seen:
                    self.output += data
                    self._seen.notify_all()

    def type(self, keys: bytes) -> None:
        """Type ``keys`` (all of them: a terminal passes a long write on as the child reads it)."""
        view = memoryview(keys)
        while view:
            view = view[os.write(self.master, view) :]

    def wait_for_output(self, text: bytes) -> None:
        with self._seen:
            assert self._seen.wait_for(lambda: text in self.output, PATIENCE_S), self.output[-2000:]

    def exit_code(self) -> int:
        return self.proc.wait(PATIENCE_S)

    def modes_now(self) -> list:
        return termios.tcgetattr(self.slave)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._stop.set()
        self._reader.join()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture(name="child")
def child_fixture():
    started: list[Child] = []

    def start(code: str, *args: str, cwd: Path) -> Child:
        started.append(Child(code, *args, cwd=cwd))
        return started[-1]

    yield start
    for child in started:
        child.close()


def commands(save: Path) -> list[str]:
    """The commands in a save, as typed (core's reading of it, never the client's)."""
    game = Game.open(save, writable=False)
    try:
        return [e.text for e in game.history.store.slice(0, game.log_length) if isinstance(e, ev.Issued)]
    finally:
        game.close()


def until_command(save: Path, command: str) -> None:
    """Wait until the save holds ``command`` (read again as it grows)."""
    deadline = time.monotonic() + PATIENCE_S
    while command not in commands(save):
        assert time.monotonic() < deadline, f"the save never got {command!r}"
        time.sleep(0.1)
