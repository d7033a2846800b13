"""The server's processes, as the benchmark of ``fireteam serve`` measures them (``tui.bench.ssh``).

From /proc: the server and its seat workers (each process's children), and
the CPU time and resident memory of them all, as the kernel counts them.
"""

from __future__ import annotations

import os
from pathlib import Path


def _tree(pid: int) -> list[int]:
    """The server and its seat workers."""
    pids = [pid]
    for p in pids:
        try:
            children = Path(f"/proc/{p}/task/{p}/children").read_text().split()
        except OSError:
            continue
        pids += map(int, children)
    return pids


def cpu_by_process(pid: int) -> dict[int, float]:
    """CPU seconds of the server and of each of its seat workers."""
    out: dict[int, float] = {}
    for p in _tree(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # a worker that just ended
        out[p] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
    return out


def cpu_s(pid: int) -> float:
    return sum(cpu_by_process(pid).values())


def rss_mb(pid: int) -> float:
    """Resident memory of the server and its seat workers."""
    total = 0.0
    for p in _tree(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
        except OSError:
            continue
    return total
