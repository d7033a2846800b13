"""The report as Markdown, its charts as SVG files beside it."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from core.language.i18n import _
from core.report import account, chances_account
from core.report.build import Report
from core.report.charts import all_charts
from core.report.escape import md


def chart_files(path: Path) -> dict[str, Path]:
    """Where the charts of the report written to ``path`` go: beside it, named after it."""
    return {name: path.with_name(f"{path.stem}-{name}.svg") for name in ("score", "losses", "luck", "chances")}


def render(report: Report, charts: dict[str, str] | None = None) -> str:
    """The Markdown text; ``charts`` maps a chart's name to the file it links (none: no charts)."""
    out = [f"# {md(account.title(report))}", ""]
    out += [md(line) + "  " for line in account.summary(report)]
    out += ["", f"## {_(account.FORCES)}", ""]
    for side, units in account.forces(report):
        out += [f"**{md(side)}**", ""] + [f"- {md(u)}" for u in units] + [""]
    out += [f"## {_(account.TURN_BY_TURN)}", ""]
    for t in report.facts.turns:
        out += [f"### {md(account.turn_heading(t))}", ""]
        out += [f"- {md(s)}" for s in account.turn_account(report, t)] + [""]
    f = report.facts
    out += [f"## {md(account.score_heading(report))}", "", md(account.score_caption(report)), ""]
    head, rows = account.score_table(report)
    out += [_row(head), "|" + "---|" * len(head)] + [_row(r) for r in rows] + [""]
    out += _chart(charts, "score", _("Score over the turns")) + _chart(charts, "losses", _("Losses per turn"))
    out += [f"## {_(account.MOMENTS)}", ""]
    out += [f"- {md(account.moment(report, m))}" for m in f.moments] or [f"- {_(account.NO_MOMENT)}"]
    out += ["", f"## {_(account.DICE)}", ""]
    out += [f"- {md(account.side_luck(report, s))}" for s in report.luck.sides]
    out += ["", md(account.unjudged(report)), "", md(account.dice_kinds(report)), ""]
    if report.rerolls is not None:
        out += [f"**{_(account.REROLLED)}**", ""] + [f"- {md(line)}" for line in account.rerolled(report)] + [""]
    out += [f"**{_(account.LUCKIEST)}**", ""]
    out += [f"- {md(account.roll(report, j, True))}" for j in report.luck.luckiest] or [f"- {_(account.NONE)}"]
    out += ["", f"**{_(account.UNLUCKIEST)}**", ""]
    out += [f"- {md(account.roll(report, j, False))}" for j in report.luck.unluckiest] or [f"- {_(account.NONE)}"]
    out += [""] + _chart(charts, "luck", _("Luck over the game"))
    if report.chances is not None:
        out += _chances(report, charts)
    return "\n".join(out).rstrip("\n") + "\n"


def _chances(report: Report, charts: dict[str, str] | None) -> list[str]:
    out = [f"## {_(chances_account.CHANCES)}", ""] + [md(line) + "  " for line in chances_account.about(report)] + [""]
    # A text sparkline a side: read by the bars' heights, with no colour and no image (a list,
    # not a code block, whose text md() could not make inert).
    out += [f"- {md(line)}" for line in chances_account.sparklines(report)] + [""]
    head, rows = chances_account.by_turn(report)
    out += [_row(head), "|" + "---|" * len(head)] + [_row(r) for r in rows] + [""]
    out += _chart(charts, "chances", _("Each side's chance to win"))
    out += [f"**{_(chances_account.SWINGS)}**", ""] + [f"- {md(s)}" for s in chances_account.swings(report)]
    return out + ["", md(chances_account.decided(report)), ""]


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(md(c) for c in cells) + " |"


def _chart(charts: dict[str, str] | None, name: str, alt: str) -> list[str]:
    if not charts:
        return []
    return [f"![{alt}]({charts[name]})", ""]


def write(report: Report, path: Path) -> list[Path]:
    """Write the report to ``path`` and its charts beside it; return every file written."""
    files = chart_files(path)
    if report.chances is None:
        del files["chances"]
    written = []
    for chart in all_charts(report):
        write_text(files[chart.name], chart.svg)
        written.append(files[chart.name])
    write_text(path, render(report, {name: p.name for name, p in files.items()}))
    return [path, *written]


def write_text(path: Path, text: str) -> None:
    """Whole or not at all: a reader never sees half a file, and a write that fails (a full
    disk) leaves no temporary file; OSError says why."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
