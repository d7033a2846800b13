"""A ``fireteam report --chances`` killed leaves no worker behind (issue #75: two were left
asleep for 37 minutes after a ``kill -9``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from recorded import SAVES

#: How long the workers have to end once their parent is gone: they end at once (Linux), or within
#: ``PARENT_WATCH_S``; the bound is for a loaded machine, not what is expected.
ENDED_WITHIN_S = 120.0


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid …: comm may hold spaces, so read after its last ")"
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _waited(check, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


@pytest.mark.subprocess
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM])
def test_a_killed_report_leaves_no_worker_behind(tmp_path, how):
    save = SAVES / "demo-game.ft"
    code = (
        "import os, sys; os.cpu_count = lambda: 2; from tui.main import main; "
        "sys.exit(main(['report', sys.argv[1], '--chances', '10000']))"
    )
    report = subprocess.Popen(
        [sys.executable, "-c", code, str(save)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    workers: set[int] = set()
    try:
        # Its workers exist once the chances are under way (two: cpu_count is 2 here).
        assert _waited(lambda: len(_children(report.pid)) >= 2, within=ENDED_WITHIN_S), "no workers started"
        workers = _children(report.pid)
        report.send_signal(how)
        report.wait(timeout=ENDED_WITHIN_S)
        assert _waited(lambda: not any(_alive(w) for w in workers), within=ENDED_WITHIN_S), (
            f"workers {sorted(w for w in workers if _alive(w))} outlived the report"
        )
    finally:
        if report.poll() is None:
            report.kill()
            report.wait()
        for w in workers:  # none is left but by a failure of the test: ended here, by their ids
            if _alive(w):
                os.kill(w, signal.SIGKILL)
