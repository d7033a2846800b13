"""The report as plain text lines, for the client's Report screen (which shows them
as text, never markup) and anything else that wants no format."""

from __future__ import annotations

from core.language.i18n import _
from core.report import account, chances_account
from core.report.build import Report


def render(report: Report) -> list[str]:
    out = [account.title(report), "", *account.summary(report)]
    if report.chances is not None:
        out += chances_lines(report)
    out += ["", _(account.FORCES).upper()]
    for side, units in account.forces(report):
        out += ["", side] + [f"  · {u}" for u in units]
    out += ["", _(account.TURN_BY_TURN).upper()]
    for t in report.facts.turns:
        out += ["", account.turn_heading(t)] + [f"  · {s}" for s in account.turn_account(report, t)]
    f = report.facts
    out += ["", account.score_heading(report).upper(), "", account.score_caption(report), ""]
    out += score_lines(report)
    out += ["", _(account.MOMENTS).upper(), ""]
    out += [f"  · {account.moment(report, m)}" for m in f.moments] or [f"  · {_(account.NO_MOMENT)}"]
    out += ["", _(account.DICE).upper(), ""]
    out += [f"  · {account.side_luck(report, s)}" for s in report.luck.sides]
    out += [f"  {account.unjudged(report)}", f"  {account.dice_kinds(report)}"]
    if report.rerolls is not None:
        out += ["", _(account.REROLLED)] + [f"  · {line}" for line in account.rerolled(report)]
    out += ["", _(account.LUCKIEST)] + [f"  · {account.roll(report, j, True)}" for j in report.luck.luckiest]
    out += ["", _(account.UNLUCKIEST)] + [f"  · {account.roll(report, j, False)}" for j in report.luck.unluckiest]
    return out


def chances_lines(report: Report) -> list[str]:
    """Each side's chances: what they measure, the sparklines over the turns, the table by
    turn, the swings and the turn that decided the game (``core.report.chances_account``)."""
    out = ["", _(chances_account.CHANCES).upper(), ""]
    out += [*chances_account.about(report), "", *chances_account.chart(report), ""]
    head, rows = chances_account.by_turn(report)
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    out += ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in [head, *rows]]
    out += ["", _(chances_account.SWINGS), ""] + [f"  · {s}" for s in chances_account.swings(report)]
    return [*out, "", chances_account.decided(report)]


def score_lines(report: Report) -> list[str]:
    """The score table, each side's name over its own columns: a screen 100 columns wide
    holds two sides' (a head of ``Side: defeat points so far`` for each column took 120)."""
    columns = account.score_columns(report)
    _head, rows = account.score_table(report)
    heads = [head for _side, group in columns for head in group]
    widths = [max(len(r[i]) for r in [heads, *rows]) for i in range(len(heads))]
    sides, at = [], 0
    for side, group in columns:
        span = sum(widths[at : at + len(group)]) + 2 * (len(group) - 1)
        if len(side) > span:  # a long name widens its side's last column
            widths[at + len(group) - 1] += len(side) - span
            span = len(side)
        sides.append(side.rjust(span))
        at += len(group)
    lines = ["  ".join(sides).rstrip()]
    lines += ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in [heads, *rows]]
    return lines
