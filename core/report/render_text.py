"""The report as plain text lines, for the client's Report screen (which shows them
as text, never markup) and anything else that wants no format."""

from __future__ import annotations

from core.report import account
from core.report.build import Report


def render(report: Report) -> list[str]:
    out = [account.title(report), "", *account.summary(report), "", "FORCES"]
    for side, units in account.forces(report):
        out += ["", side] + [f"  · {u}" for u in units]
    out += ["", "THE GAME, TURN BY TURN"]
    for t in report.facts.turns:
        out += ["", account.turn_heading(t)] + [f"  · {s}" for s in account.turn_account(report, t)]
    f = report.facts
    out += ["", account.score_heading(report).upper(), "", account.score_caption(report), ""]
    head, rows = account.score_table(report)
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    out += ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in [head, *rows]]
    out += ["", "DECISIVE MOMENTS", ""]
    out += [f"  · {account.moment(report, m)}" for m in f.moments] or ["  · No command moved the balance."]
    out += ["", "THE DICE", ""]
    out += [f"  · {account.side_luck(report, s)}" for s in report.luck.sides]
    out += [f"  Rolls with no target, or rolled for no side, are not counted: {report.luck.unjudged}."]
    out += ["", "The luckiest rolls"] + [f"  · {account.roll(report, j, True)}" for j in report.luck.luckiest]
    out += ["", "The unluckiest rolls"] + [f"  · {account.roll(report, j, False)}" for j in report.luck.unluckiest]
    return out
