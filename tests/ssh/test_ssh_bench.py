"""``python -m tui.bench.ssh`` runs and prints its figures, spectators' too (tiny sizes; the figures themselves
are never checked against a time: docs/benchmark.md has them)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.subprocess

KEYS = ("all_p95_ms", "spectator_p95_ms", "per_seat_mb", "per_spectator_mb", "server_cpu_ms", "client_cpu_ms")


def test_the_table_bench_prints_every_figure_for_seats_and_spectators(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "tui.bench.ssh", "--seats", "2", "--spectators", "3", "--workers", "1"]
        + ["--commands", "2", "--client-processes", "1", "--churn", "1", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr
    (run,) = json.loads(result.stdout)
    assert (run["seats"], run["spectators"], run["workers"], run["commands"]) == (2, 3, 1, 2)
    for key in KEYS:
        assert isinstance(run[key], float) and run[key] >= 0, key
    # Every spectator was seen receiving each note.
    assert run["spectator_median_ms"] > 0 and run["spectator_max_ms"] >= run["spectator_p95_ms"]
    assert run["per_seat_mb"] > 0
    # Notes were timed while a seat came and went.
    assert run["churn"] == 1 and 0 < run["churn_median_ms"] <= run["churn_max_ms"]


def test_the_window_change_flood_bench_prints_its_figures(tmp_path):
    """``python -m tui.bench.resize_flood`` (docs/ssh.md, *Running on a public address*)."""
    result = subprocess.run(
        [sys.executable, "-m", "tui.bench.resize_flood", "--rate", "5000", "--commands", "2", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr
    run = json.loads(result.stdout)
    assert (run["rate"], run["workers"], run["commands"]) == (5000, 1, 2)
    for phase in ("quiet", "flood", "after"):
        figures = run[phase]
        assert 0 < figures["median_ms"] <= figures["max_ms"] and figures["mean_ms"] > 0, phase
    assert run["sent"] >= 0 and run["disconnected"] >= 0
