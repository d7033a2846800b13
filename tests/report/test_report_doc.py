"""docs/report-demo.md and its charts are what `fireteam report` makes of the demo game."""

from __future__ import annotations

from pathlib import Path

from tui.main import main as fireteam

ROOT = Path(__file__).resolve().parents[2]
COMMAND = "fireteam report saves/demo-game.ft -o docs/report-demo.md"


def test_the_committed_demo_report_is_what_the_command_makes(tmp_path):
    assert COMMAND in (ROOT / "docs" / "report.md").read_text(encoding="utf-8")
    assert fireteam(["report", str(ROOT / "saves" / "demo-game.ft"), "-o", str(tmp_path / "report-demo.md")]) == 0
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == ["report-demo-losses.svg", "report-demo-luck.svg", "report-demo-score.svg", "report-demo.md"]
    for name in made:
        committed = (ROOT / "docs" / name).read_text(encoding="utf-8")
        assert committed == (tmp_path / name).read_text(encoding="utf-8"), f"docs/{name} is stale: run {COMMAND}"


def test_the_readme_links_the_report_and_shows_a_chart():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/report.md" in readme
    assert "](docs/report-demo-score.svg)" in readme
