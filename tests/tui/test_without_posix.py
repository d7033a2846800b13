"""The client and the headless commands run where there is no ``fcntl`` nor ``termios`` (Windows).

There is no Windows machine here: a child Python is made to look like one, its
``fcntl``, ``termios``, ``tty`` and ``pty`` unimportable (``sys.modules[name] =
None``) and an ``msvcrt`` standing in for Windows' (a byte-range lock per file,
refused to a second descriptor as Windows refuses it to a second process).
Then the commands a referee and a player use run in it, for real.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from core.storage import lock

#: Prepended to every child's program: the Windows the child sees.
WINDOWS = textwrap.dedent(
    """
    import os, subprocess, sys, types  # (subprocess first: it takes an msvcrt for a Windows)
    for name in ("fcntl", "termios", "tty", "pty"):
        sys.modules[name] = None  # import fails, as on Windows
    msvcrt = types.ModuleType("msvcrt")
    msvcrt.LK_UNLCK, msvcrt.LK_NBLCK = 0, 2
    msvcrt.held = {}  # (file, offset) -> the descriptor holding it
    msvcrt.calls = []

    def same_file(fd):
        try:
            info = os.fstat(fd)
        except OSError:
            return None
        return info.st_dev, info.st_ino

    def locking(fd, mode, nbytes):
        where = (same_file(fd), os.lseek(fd, 0, os.SEEK_CUR))
        msvcrt.calls.append((where[1], mode, nbytes))
        if mode == msvcrt.LK_NBLCK:
            holder = msvcrt.held.get(where)
            # Windows drops a lock when its handle closes: a holder closed since holds nothing.
            if holder is not None and holder != fd and same_file(holder) == where[0]:
                raise PermissionError(13, "Permission denied")
            msvcrt.held[where] = fd

    msvcrt.locking = locking
    sys.modules["msvcrt"] = msvcrt
    """
)

SCRIPT = """\
scenario demo
next
"""


def run_windows(program: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    code = WINDOWS + textwrap.dedent(program)
    root = Path(__file__).resolve().parents[2]
    path = [str(root), str(root / "tests" / "shared")]
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env={**os.environ, **env, "PYTHONPATH": os.pathsep.join(path)},
        capture_output=True,
        text=True,
        timeout=300,  # a last guard only
    )


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, str]:
    return {
        "FIRETEAM_DATA_DIR": str(tmp_path / "data"),
        "FIRETEAM_CONFIG_DIR": str(tmp_path / "config"),
        "FIRETEAM_STATE_DIR": str(tmp_path / "state"),
        "HOME": str(tmp_path / "home"),
        "XDG_CONFIG_HOME": str(tmp_path / "xdg-config"),
        "XDG_DATA_HOME": str(tmp_path / "xdg-data"),
        "XDG_STATE_HOME": str(tmp_path / "xdg-state"),
        "LANG": "C.UTF-8",
    }


@pytest.mark.subprocess
def test_the_headless_commands_run_without_fcntl_and_termios(tmp_path, folders):
    (tmp_path / "turn1.txt").write_text(SCRIPT, encoding="utf-8")
    done = run_windows(
        """
        import contextlib, io, json, sys
        from tui.main import main

        def run(*argv):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                try:
                    code = main(list(argv))
                except SystemExit as e:
                    code = e.code
            return code, out.getvalue()

        assert "fcntl" not in [m for m in sys.modules if sys.modules[m] is not None]
        results = {
            "version": run("--version"),
            "script": run("script", "turn1.txt", "--save", "game.ft", "--seed", "7"),
            "log": run("log", "game.ft"),
            "replay": run("replay", "game.ft", "--json"),
            "export": run("export", "game.ft", "--as", "spectator", "-o", "copy.json"),
            "verify": run("verify", "game.ft"),
            "fork": run("fork", "game.ft", "--step", "54", "--save", "fork.ft"),
            "scenarios": run("scenarios", "--json"),
        }
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            results["serve"] = [run("serve", "--port", "0")[0], err.getvalue()]
        results["posix"] = sorted(m for m in ("fcntl", "termios", "tty", "pty") if sys.modules.get(m) is not None)
        import msvcrt
        results["locks"] = msvcrt.calls
        print("RESULT" + json.dumps(results))
        """,
        tmp_path,
        folders,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.split("RESULT", 1)[1])
    assert results["posix"] == []
    assert results["version"][0] == 0
    assert results["script"][0] == 0 and "2 commands" in results["script"][1]
    assert results["log"][0] == 0 and "scenario demo" in results["log"][1]
    replay = json.loads(results["replay"][1])
    assert replay["scenario"] == "Checkpoint at Afgooye" and replay["phase"] == "initiative"
    assert results["export"][0] == 0 and (tmp_path / "copy.json").is_file()
    assert results["verify"][0] == 0
    assert results["fork"][0] == 0 and (tmp_path / "fork.ft").is_file()
    assert results["scenarios"][0] == 0 and json.loads(results["scenarios"][1])
    assert results["serve"] == [2, "fireteam: the SSH server runs on Linux and macOS only\n"]
    # The writer (script; a fork's new save is made whole, unlocked) locked one byte far past the save's end.
    assert results["locks"] == [[lock.WINDOWS_LOCK_OFFSET, 2, 1]]


@pytest.mark.subprocess
def test_a_second_writer_is_refused_by_the_windows_lock(tmp_path, folders):
    done = run_windows(
        """
        from pathlib import Path
        from core.game import Game
        from core.storage.errors import SaveLocked

        game = Game.new(Path("game.ft"), "breaking-news", seed=1)
        try:
            Game.open(Path("game.ft"))
        except SaveLocked:
            print("REFUSED")
        else:
            print("OPENED TWICE")
        game.close()
        Game.open(Path("game.ft")).close()  # the first writer gone, the next one may write
        print("REOPENED")
        """,
        tmp_path,
        folders,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["REFUSED", "REOPENED"]


@pytest.mark.subprocess
def test_the_client_starts_without_fcntl_and_termios(tmp_path, folders):
    done = run_windows(
        """
        import asyncio, sys
        from pathlib import Path
        from waiting import piloted, press, settled
        from core.game import Game
        from tui.commandline import CommandInput
        from tui.main import _app_parser
        from tui.screens.start import StartScreen
        from tui.typeahead import QuietTerminal
        from tui.userdata import UserStore

        tty = QuietTerminal()
        tty.quiet()  # as ``fireteam`` does first: nothing to quiet here
        tty.restore()
        tty.give_back()

        async def play():
            game = Game.new(Path("game.ft"), "breaking-news", seed=3)
            game.execute("scenario demo", role="referee")
            async with piloted(game, role="referee") as (app, pilot):
                assert isinstance(app.focused, CommandInput)
                await press(pilot, *"next", "enter")
                phase = game.state.phase
            game.close()
            async with piloted(None, role="referee", store=UserStore.default(), start=True) as (start, pilot):
                await settled(pilot)
                screen = type(start.screen).__name__
            return phase, screen

        print("RESULT", *asyncio.run(play()))
        print("POSIX", sorted(m for m in ("fcntl", "termios", "tty", "pty") if sys.modules.get(m) is not None))
        """,
        tmp_path,
        # Textual would pick its Linux driver here (sys.platform is still linux), where
        # Windows has its own: the app is made with Textual's headless one, as run_test runs it.
        {**folders, "TEXTUAL_DRIVER": "textual.drivers.headless_driver:HeadlessDriver"},
    )
    assert done.returncode == 0, done.stderr
    assert "RESULT initiative StartScreen" in done.stdout
    assert "POSIX []" in done.stdout
