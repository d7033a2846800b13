"""The charts of counts (defeat points, losses) have whole-number ticks (issue #26):
in the report's SVG charts and in the client's Report screen alike."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from contextlib import closing
from pathlib import Path

import pytest

from core.game import Game
from core.report import build
from core.report.charts import losses, score
from core.report.ticks import whole_ticks

SAVES = Path(__file__).resolve().parents[2] / "saves"
GAMES = sorted(p.name for p in SAVES.glob("*.ft"))


def y_labels(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    for group in root.iter():
        if group.tag.endswith("}g") and "axis y" in (group.get("class") or ""):
            return [t.text for t in group.iter() if t.tag.endswith("}text") and t.text]
    raise AssertionError("no y axis")


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("step", [None, 20])  # the whole game, and its first events (no score yet)
def test_the_score_and_losses_charts_tick_whole_numbers(name, step):
    with closing(Game.open(SAVES / name, writable=False)) as game:
        report = build(game, "referee", step)
        for chart in (score(report), losses(report)):
            labels = y_labels(chart.svg)
            assert len(labels) >= 2, (chart.name, labels)
            assert all(label.lstrip("-").isdigit() for label in labels), (chart.name, labels)


def test_whole_ticks_keep_to_a_few_round_steps():
    assert whole_ticks([]) == [0, 1]
    assert whole_ticks([0, 0]) == [0, 1]
    assert whole_ticks([0.5, 3]) == [0, 1, 2, 3]
    assert whole_ticks([30]) == [0, 5, 10, 15, 20, 25, 30]
    assert whole_ticks([137]) == [0, 20, 40, 60, 80, 100, 120, 140]
    assert whole_ticks([-3, 4]) == [-3, -2, -1, 0, 1, 2, 3, 4]
