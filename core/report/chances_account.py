"""Each side's chances in plain words: the table by turn, a text sparkline, the swings
and the turn that decided the game (``core.report.chances``), for every renderer."""

from __future__ import annotations

from math import sqrt

from core.language.i18n import N_, _, ngettext
from core.language.numerals import decimal
from core.log import events as ev
from core.log.views import event_visible
from core.report.account import needed, percent, purpose_words, turn_label
from core.report.build import Report
from core.report.chances import DECIDED, DRAW, Z95, Chances, Point, Swing
from core.report.luck import judge
from core.report.model import RollFact

CHANCES = N_("Each side's chances to win")
SWINGS = N_("The rolls that swung the game")
#: The sparkline's steps, lowest to highest: read by height, no colour needed.
BARS = "▁▂▃▄▅▆▇█"


def about(report: Report) -> list[str]:
    """What the chances measure, what they do not, and how sure they are."""
    c = _chances(report)
    margin = Z95 * sqrt(0.25 / c.count)  # the widest 95% half-interval, at 50%
    lines = [
        _(
            "After each step, the game's own orders from there were played again {n} times with fresh dice: "
            "a side's chance is the share of those games it won (fewer {score}). What is measured is the dice "
            "(the same orders, other dice); other orders a player might have given are not."
        ).format(n=decimal(c.count), score=_(report.facts.score_name)),
        _("Each chance is sure to within {margin} either way (95%); at the last step it is the real result.").format(
            margin=percent(margin)
        ),
        _(
            "An order the new dice make impossible (its piece already out, a turn its side did not win, a game "
            "already over) is skipped: beside each chance, how many of those games skipped orders. The referee's "
            "ending ends each of them where it ended this game."
        ),
    ]
    if not c.finished:
        lines.append(_("The game is not over: a chance is that of being ahead where its orders stop."))
    took = _(
        "Measured at {points} points (the start, after each order that rolled dice, the end), seed {seed} "
        "(the same seed gives the same chances), in {seconds} s ({cpu} s of processor time)."
    )
    lines.append(
        took.format(
            points=decimal(len(c.points)),
            seed=c.seed,
            seconds=decimal(round(c.seconds, 1)),
            cpu=decimal(round(c.cpu_seconds, 1)),
        )
    )
    return lines


def _chances(report: Report) -> Chances:
    assert report.chances is not None  # the renderers ask only when it has them
    return report.chances


def by_turn(report: Report) -> tuple[list[str], list[list[str]]]:
    """Each side's chance (and its 95% interval) at the end of each turn."""
    c = _chances(report)
    head = [_("turn")] + [name for _side, name in columns(report)] + [_("orders that no longer fitted")]
    rows = []
    for turn in sorted({p.turn for p in c.points}):
        last = [p for p in c.points if p.turn == turn][-1]
        cells = [_with_interval(last, s) for s, _name in columns(report)]
        rows.append([turn_label(turn), *cells, unfitted(last)])
    return head, rows


def unfitted(p: Point) -> str:
    """The re-rolled games of ``p`` that skipped orders, said beside its chances: "in 45% of
    these games 2 orders no longer fitted" (the orders skipped by such a game, on average)."""
    if not p.count:
        return _("the real result")
    if not p.skipping:
        return _("every order fitted")
    n = round(p.skipped / p.skipping)
    said = ngettext(
        "in {share} of these games {n} order no longer fitted",
        "in {share} of these games {n} orders no longer fitted",
        n,
    )
    return said.format(share=percent(p.skipping / p.count), n=decimal(n))


def columns(report: Report) -> list[tuple[str, str]]:
    """Each side, and "no side ahead" when some re-rolled games ended so."""
    c, f = _chances(report), report.facts
    draws = [(DRAW, _("no side ahead"))] if any(p.chance(DRAW) for p in c.points) else []
    return [(s, f.side_name(s)) for s in c.sides] + draws


def _with_interval(p: Point, side: str) -> str:
    if not p.count:
        return percent(p.chance(side))
    low, high = p.interval(side)
    return f"{percent(p.chance(side))} ({percent(low)}–{percent(high)})"


def sparklines(report: Report) -> list[str]:
    """One line a side: its chance at each point measured, as a bar from ▁ (0%) to █ (100%)."""
    c = _chances(report)
    out = []
    for s, name in columns(report):
        bars = "".join(BARS[min(len(BARS) - 1, int(p.chance(s) * len(BARS)))] for p in c.points)
        out.append(f"{name}: {bars} {percent(c.points[0].chance(s))} → {percent(c.points[-1].chance(s))}")
    return out


def swings(report: Report) -> list[str]:
    c = _chances(report)
    return [swing(report, s) for s in c.swings] or [_("No roll moved the chances.")]


def swing(report: Report, s: Swing) -> str:
    """ "Turn 1: Rossi: save (1d6 needing 2+: 1; a chance of 83.3% to pass) [fire rossi aden]:
    Bersaglieri 58.0% → 21.0% (before: every order fitted; after: in 40% of these games 2
    orders no longer fitted)", the order in the reader's names; a roll that only decided who
    acts first, or one after which more games skipped orders (``Swing.unfitting``), said so first."""
    f = report.facts
    seen = [r for r in s.rolls if event_visible(r, f.role)]
    rolls = "; ".join(_roll(report, r, s.after.turn) for r in seen) or _("a roll you did not see")
    said = _("Turn {turn}: {rolls} [{order}]: {side} {before} → {after} (before: {fitted}; after: {fits})")
    line = said.format(
        turn=s.after.turn,
        rolls=rolls,
        order=report.localize(s.order) if seen else "…",
        side=f.side_name(s.side),
        before=percent(s.before.chance(s.side)),
        after=percent(s.after.chance(s.side)),
        fitted=unfitted(s.before),
        fits=unfitted(s.after),
    )
    if s.acts_first:
        return _("Only who acts first, with the same orders (not what the dice did): {swing}").format(swing=line)
    if s.unfitting():
        return _("Partly orders that no longer fitted, not the dice alone: {swing}").format(swing=line)
    return line


def _roll(report: Report, e: ev.Rolled, turn: int) -> str:
    f, r = report.facts, e.roll
    who = f.names().pieces.get(e.unit, "") if e.unit else f.side_name(e.side) if e.side else ""
    fields = {
        "who": f"{who}: " if who else "",
        "what": purpose_words(r.purpose, f),
        "dice": f"{len(r.faces)}d{r.sides}",
        "need": needed(r.check, len(r.faces)),
        "faces": " ".join(str(x) for x in r.faces),
    }
    judged = judge(RollFact(turn, e.side, who, r))
    if judged is None:
        return _("{who}{what} ({dice}: {faces})").format(**fields)
    if len(judged.chances) == 2:  # passed or failed
        chance = percent(float(judged.chances[1]))
        return _("{who}{what} ({dice} {need}: {faces}; a chance of {chance} to pass)").format(chance=chance, **fields)
    successes = ngettext("{n} success", "{n} successes", judged.successes).format(n=judged.successes)
    expected = decimal(float(judged.expected), 2)
    return _("{who}{what} ({dice} {need}: {faces}; {successes}, {expected} expected)").format(
        successes=successes, expected=expected, **fields
    )


def decided(report: Report) -> str:
    c, f = _chances(report), report.facts
    if c.winner == DRAW:
        return _("No side won: no turn decided the game.")
    point = c.decided()
    assert point is not None  # the winner's chance is 100% at the last step
    if point is c.points[-1] and len(c.points) > 1:
        # Only the recorded result put the winner there: the referee's ruling, or a verdict
        # that reads more than the score the re-rolls count.
        said = _("Only the game's recorded result decided it: just before it, {side}'s chance of winning was {before}.")
        return said.format(side=f.side_name(c.winner), before=percent(c.points[-2].chance(c.winner)))
    said = _(
        "The game was decided in turn {turn}: from an order of that turn on, {side}'s chance of winning "
        "stayed at {least} or more."
    )
    return said.format(turn=point.turn, side=f.side_name(c.winner), least=percent(DECIDED))


def chart(report: Report) -> list[str]:
    """The sparklines one over the other, the names padded to one width, and under them
    the turn marks (each turn's number under its first point; the set-up has none): where
    a bar moved, read without colour, and in which turn."""
    c = _chances(report)
    names = [(s, name) for s, name in columns(report)] + [("", _("turn"))]
    width = max(len(name) for _s, name in names)
    out = []
    for s, name in names[:-1]:
        bars = "".join(BARS[min(len(BARS) - 1, int(p.chance(s) * len(BARS)))] for p in c.points)
        out.append(f"{name.rjust(width)} {bars} {percent(c.points[0].chance(s))} → {percent(c.points[-1].chance(s))}")
    marks = [" "] * len(c.points)
    for i, p in enumerate(c.points):
        label = str(p.turn)
        first = i == 0 or c.points[i - 1].turn != p.turn
        # Under its first point only, whole, and not touching the number before: a turn too
        # short for its number (turns 10, 11 a point each) has none, rather than one misplaced.
        room = i + len(label) <= len(marks) and all(m == " " for m in marks[max(0, i - 1) : i + len(label)])
        if p.turn and first and room:
            marks[i : i + len(label)] = label
    out.append(f"{names[-1][1].rjust(width)} {''.join(marks).rstrip()}")
    return out
