"""The report's charts, drawn by pygal as SVG text: the score over the turns, the
losses per turn and side, the luck over the game, and each side's chances when asked for.

The charts are self-contained (no script: pygal's tooltips would load one from
the web) and the same for the same report (pygal draws a random id per chart;
it is set from the chart's name), so a generated document can be checked
against the command that made it.  pygal writes every label through an XML
library, so a name from the save is text in the SVG, never markup.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygal
from pygal.style import Style

from core.language.i18n import _
from core.report.account import score_name, turn_label
from core.report.build import Report
from core.report.chances_account import columns
from core.report.ticks import whole_ticks

_STYLE = Style(
    background="white",
    plot_background="white",
    foreground="#333",
    foreground_strong="#111",
    foreground_subtle="#999",
    colors=("#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad", "#d68910"),
    font_family="DejaVu Sans, Arial, sans-serif",
)
_SIZE = {"width": 720, "height": 360}


@dataclass(frozen=True)
class Chart:
    name: str  # a file name part: "score", "losses", "luck"
    title: str
    svg: str
    #: The text of each of its ``<style>`` elements, as a browser reads it (entities decoded):
    #: what a page's policy allows by its hash (``render_html.Page``).
    styles: tuple[str, ...] = ()


def _config(name: str, title: str, **extra) -> dict:
    return {
        "title": title,
        "style": _STYLE,
        "js": [],  # no script, and nothing fetched from the web
        "disable_xml_declaration": True,
        "explicit_size": True,
        "print_values": False,
        "show_legend": True,
        "legend_at_bottom": True,
        "truncate_legend": -1,
        **_SIZE,
        **extra,
    }


def _tag(element) -> str:
    return element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""


def _without_scripts(root):
    """pygal always writes its configuration (the legends: names from the save) in a
    script for its tooltips; a report needs none, and a page should run nothing.  Its
    comments carry the day it drew the chart, which would make every run differ.  The
    tooltips' layer goes with the script that would show them: its ``style`` attributes
    are the only ones pygal writes, and a page's policy need allow none."""
    for parent in list(root.iter()):
        for child in [c for c in parent if not _tag(c) or _tag(c) == "script"]:
            parent.remove(child)
        for child in [c for c in parent if "tooltip-overlay" in (c.get("class") or "").split()]:
            parent.remove(child)
    return root


def _render(chart, name: str, title: str) -> Chart:
    chart.uuid = f"fireteam-report-{name}"  # pygal's own id is random
    chart.add_xml_filter(_without_scripts)
    styles: list[str] = []

    def keep_styles(root):
        styles.extend(e.text or "" for e in root.iter() if _tag(e) == "style")
        return root

    chart.add_xml_filter(keep_styles)
    return Chart(name, title, chart.render(is_unicode=True), tuple(styles))


def _turns(report: Report) -> list[str]:
    return [turn_label(t.turn) for t in report.facts.turns]


def score(report: Report) -> Chart:
    f = report.facts
    score = score_name(report)
    title = _("{score} over the turns (more is worse)").format(score=score.capitalize())
    chart = pygal.Line(**_config("score", title, x_title=_("turn"), y_title=score))
    chart.x_labels = _turns(report)
    chart.y_labels = whole_ticks([v for s in f.sides for v in f.score_by_turn[s.id]])  # points are whole
    for s in f.sides:
        chart.add(s.name, f.score_by_turn[s.id])
    return _render(chart, "score", title)


def losses(report: Report) -> Chart:
    f = report.facts
    title = _("Losses per turn")
    chart = pygal.Bar(**_config("losses", title, x_title=_("turn"), y_title=_("units out of action")))
    chart.x_labels = _turns(report)
    chart.y_labels = whole_ticks([v for row in f.losses_by_turn.values() for v in row])  # whole units
    for s in f.sides:
        chart.add(s.name, f.losses_by_turn[s.id])
    return _render(chart, "losses", title)


def luck(report: Report) -> Chart:
    f = report.facts
    title = _("Luck over the game: successes above (below) expectation")
    chart = pygal.Line(**_config("luck", title, x_title=_("turn"), y_title=_("successes over expected")))
    chart.x_labels = _turns(report)
    for s in f.sides:
        chart.add(s.name, [round(v, 2) for v in report.luck.by_turn[s.id]])
    return _render(chart, "luck", title)


def chances(report: Report) -> Chart:
    """Each side's chance to win at each point measured (``core.report.chances``), by turn."""
    c = report.chances
    assert c is not None  # drawn only for a report that has them
    title = _("Each side's chance to win, after each order that rolled dice")
    chart = pygal.Line(**_config("chances", title, x_title=_("turn"), y_title=_("chance to win (%)"), range=(0, 100)))
    # A label where a turn begins, none between: a point a step, dozens of them.
    chart.x_labels = [
        turn_label(p.turn) if i == 0 or c.points[i - 1].turn != p.turn else "" for i, p in enumerate(c.points)
    ]
    chart.y_labels = [0, 25, 50, 75, 100]
    for s, name in columns(report):
        chart.add(name, [round(p.chance(s) * 100, 1) for p in c.points])
    return _render(chart, "chances", title)


def all_charts(report: Report) -> list[Chart]:
    drawn = [score(report), losses(report), luck(report)]
    return drawn + [chances(report)] if report.chances is not None else drawn
