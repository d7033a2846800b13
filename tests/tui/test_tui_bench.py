"""``fireteam bench --client`` runs and prints its figures (tiny sizes; the figures
themselves are never checked against a time: docs/benchmark.md has them)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

FIRETEAM = Path(sys.executable).with_name("fireteam")
KEYS = ("command", "undo", "redo", "replay_step")


def test_client_bench_prints_every_figure(tmp_path):
    result = subprocess.run(
        [str(FIRETEAM), "bench", "--client", "--json", "--events", "2000", "--rounds", "1", "--start-rounds", "1"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr
    (line,) = result.stdout.strip().splitlines()
    data = json.loads(line)
    assert data["events"] == 2000
    assert data["start_ratio"] > 0 and data["start_ratio_big"] > 0 and data["start_ratio_it"] > 0
    assert data["start_ratio_big_first_open"] > 0
    assert data["start_it"]["start_s"] > 0 and data["start_it"]["bare_start_s"] > 0
    for key in KEYS:
        assert data[f"{key}_p50_ms"] > 0, key
    # Per save, each key's wall-clock median and CPU time, and the start.
    assert set(data["saves"]) == {"demo", "big"}
    for figures in data["saves"].values():
        for key in (*KEYS, "dialog"):
            assert figures[f"{key}_p50_ms"] >= figures[f"{key}_cpu_ms"] * 0.5 > 0, key
        assert figures["start_s"] > 0 and figures["bare_start_s"] > 0 and figures["start_cpu_ratio"] > 0
    # The top-level figure is the worse of the two saves.
    assert data["undo_p50_ms"] == max(f["undo_p50_ms"] for f in data["saves"].values())
    assert isinstance(data["targets_met"], bool)
    # The bench gave its commands to copies: no save was left behind where it ran.
    assert list(tmp_path.iterdir()) == []


def test_the_targets_are_met_only_when_both_saves_start_and_answer_within_them():
    from tui.bench import KEYS, targets_met

    def results(demo: float, big: float, slowest_key: float) -> dict:
        saves = {name: dict.fromkeys(KEYS, 20.0) for name in ("demo", "big")}
        saves["big"]["undo_p50_ms"] = slowest_key
        return {"start_ratio": demo, "start_ratio_big": big, "start_ratio_big_first_open": 3.0, "saves": saves}

    assert targets_met(results(1.4, 1.5, 50.0))  # the first open (3.0) has no target
    assert not targets_met(results(1.4, 1.51, 20.0))  # the big save's start counts too
    assert not targets_met(results(1.51, 1.4, 20.0))
    assert not targets_met(results(1.4, 1.4, 50.5))
