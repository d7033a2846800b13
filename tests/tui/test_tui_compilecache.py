"""The client keeps what its start compiled (core.compilecache: regular expressions, the
code dataclasses write) once its first frame is drawn, and the next start compiles none of it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from core import compilecache

DEMO = Path(__file__).resolve().parents[2] / "saves" / "demo-game.ft"

CHILD = """
import asyncio, sys
from pathlib import Path
from core import compilecache
compilecache.install()  # as the fireteam command does, first
from tui.app import FireteamApp, open_or_follow

keep = compilecache.keep
at_keep = []

def counted():  # the first frame is drawn: what the start compiled, then kept
    at_keep.append(compilecache._compiled)
    keep()

compilecache.keep = counted

async def start():
    game, _ = open_or_follow(Path(sys.argv[1]), False)
    app = FireteamApp(game, remote=sys.argv[2] == "remote")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
    game.close()
    print(*at_keep)

asyncio.run(start())
"""


def _start(tmp_path: Path, where: str = "local") -> list[int]:
    """What a client's start had compiled (not found kept) when its first frame was drawn."""
    save = tmp_path / "demo.ft"
    shutil.copy(DEMO, save)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "TEXTUAL"))}
    env["FIRETEAM_CACHE_DIR"] = str(tmp_path / "cache")
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(save), where],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    return [int(n) for n in out.stdout.split()]


@pytest.mark.skipif(not compilecache.SUPPORTED, reason="kept only where the compiler's steps are known")
def test_the_next_start_compiles_none_of_the_first_s_patterns(tmp_path):
    first = _start(tmp_path)
    assert len(first) == 1 and first[0] > 50  # Textual's, Rich's, ours: compiled, then kept
    assert list((tmp_path / "cache" / compilecache.SUBFOLDER).glob("*" + compilecache._SUFFIX))
    assert _start(tmp_path) == [0]


@pytest.mark.skipif(not compilecache.SUPPORTED, reason="kept only where the compiler's steps are known")
def test_an_ssh_seat_s_start_keeps_none(tmp_path):
    # A server compiles what its players' typing makes too (a word a command did not
    # know): nothing of its process is written.
    assert _start(tmp_path, "remote") == []
    assert not (tmp_path / "cache" / compilecache.SUBFOLDER).exists()
