"""The report as one self-contained HTML page: its charts are inline SVG, it loads
nothing and runs nothing (its Content-Security-Policy forbids both).  Its styles are its
own ``<style>`` elements (the page's and each chart's), each allowed by its hash: no
other style applies, and a server that sends the page (a venue's relay) allows the same
ones in its own policy (``Page.style_sources``)."""

from __future__ import annotations

from dataclasses import dataclass

from core.language.i18n import _
from core.language.reader import lang
from core.report import account, chances_account
from core.report.build import Report
from core.report.charts import all_charts
from core.report.escape import html_text as h
from core.report.style import STYLE, style_source


@dataclass(frozen=True)
class Page:
    html: str
    #: The CSP sources that allow its styles and no others: ``'sha256-…'`` of each.
    style_sources: tuple[str, ...]


def render(report: Report, *, chances_note: str = "") -> str:
    return page(report, chances_note=chances_note).html


def page(report: Report, *, chances_note: str = "") -> Page:
    """``chances_note``: said under the chances' heading when the report has none (a venue's
    finished table whose chances its server has not measured yet)."""
    charts = {c.name: c for c in all_charts(report)}
    sources = tuple(dict.fromkeys(style_source(t) for t in (STYLE, *(x for c in charts.values() for x in c.styles))))
    policy = f"default-src 'none'; style-src {' '.join(sources)}; img-src data:"
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{lang()}"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">',
        f"<title>{h(account.title(report))}</title><style>{STYLE}</style></head><body>",
        f"<h1>{h(account.title(report))}</h1>",
    ]
    out += [f"<p>{h(line)}</p>" for line in account.summary(report)]
    out.append(f"<h2>{h(_(account.FORCES))}</h2>")
    for side, units in account.forces(report):
        out += [f"<h3>{h(side)}</h3>", _list(units)]
    out.append(f"<h2>{h(_(account.TURN_BY_TURN))}</h2>")
    for t in report.facts.turns:
        out += [f"<h3>{h(account.turn_heading(t))}</h3>", _list(account.turn_account(report, t))]
    f = report.facts
    out.append(f"<h2>{h(account.score_heading(report))}</h2>")
    head, rows = account.score_table(report)
    out.append(f"<p>{h(account.score_caption(report))}</p>")
    out.append("<table><tr>" + "".join(f"<th>{h(c)}</th>" for c in head) + "</tr>")
    out += ["<tr>" + "".join(f"<td>{h(c)}</td>" for c in row) + "</tr>" for row in rows]
    out.append("</table>")
    out += [_figure(charts["score"].svg), _figure(charts["losses"].svg)]
    out.append(f"<h2>{h(_(account.MOMENTS))}</h2>")
    out.append(_list([account.moment(report, m) for m in f.moments] or [_(account.NO_MOMENT)]))
    out.append(f"<h2>{h(_(account.DICE))}</h2>")
    out.append(_list([account.side_luck(report, s) for s in report.luck.sides]))
    out.append(f"<p>{h(account.unjudged(report))}</p>")
    out.append(f"<p>{h(account.dice_kinds(report))}</p>")
    if report.rerolls is not None:
        out += [f"<h3>{h(_(account.REROLLED))}</h3>", _list(account.rerolled(report))]
    lucky = [account.roll(report, j, True) for j in report.luck.luckiest]
    unlucky = [account.roll(report, j, False) for j in report.luck.unluckiest]
    out += [f"<h3>{h(_(account.LUCKIEST))}</h3>", _list(lucky)]
    out += [f"<h3>{h(_(account.UNLUCKIEST))}</h3>", _list(unlucky)]
    out.append(_figure(charts["luck"].svg))
    if report.chances is not None:
        out += _chances(report, charts["chances"].svg)
    elif chances_note:
        out += [f"<h2>{h(_(chances_account.CHANCES))}</h2>", f"<p>{h(chances_note)}</p>"]
    out.append("</body></html>")
    return Page("\n".join(out) + "\n", sources)


def _chances(report: Report, svg: str) -> list[str]:
    out = [f"<h2>{h(_(chances_account.CHANCES))}</h2>"] + [
        f"<p>{h(line)}</p>" for line in chances_account.about(report)
    ]
    head, rows = chances_account.by_turn(report)
    out.append("<table><tr>" + "".join(f"<th>{h(c)}</th>" for c in head) + "</tr>")
    out += ["<tr>" + "".join(f"<td>{h(c)}</td>" for c in row) + "</tr>" for row in rows]
    out += ["</table>", _figure(svg), f"<h3>{h(_(chances_account.SWINGS))}</h3>", _list(chances_account.swings(report))]
    return [*out, f"<p>{h(chances_account.decided(report))}</p>"]


def _list(items: list[str]) -> str:
    return "<ul>" + "".join(f"<li>{h(i)}</li>" for i in items or [_(account.NONE)]) + "</ul>"


def _figure(svg: str) -> str:
    # pygal's SVG is written by an XML library: every text in it is escaped.
    return f"<figure>{svg}</figure>"
