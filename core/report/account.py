"""The report in plain words: the turn-by-turn account, the moments, the dice.

Every renderer (Markdown, HTML, the client's text) writes these same
sentences; each escapes them for its own format, since they quote the save.
"""

from __future__ import annotations

from core.report.build import Report
from core.report.luck import RollLuck, SideLuck
from core.report.model import Facts, Moment, TurnFacts


def title(report: Report) -> str:
    f = report.facts
    return f"After-action report: {f.scenario or 'a game'}"


def summary(report: Report) -> list[str]:
    """Who played what, from whose view, and how it ended."""
    f = report.facts
    sides = " against ".join(s.name for s in f.sides) or "no sides yet"
    lines = [f"{f.ruleset} {f.ruleset_version}: {sides}."]
    if f.origin is not None:
        lines.append(
            f"A what-if game: it leaves the original {f.origin.path} (sha256 {f.origin.sha256}) "
            f"after step {f.origin.step} and goes its own way from there."
        )
    lines.append(_viewpoint(f))
    if f.step < f.steps:
        lines.append(f"Up to step {f.step} of {f.steps}.")
    lines.append(f"Result: {f.result}." if f.result else "No result yet: the game is not over.")
    return lines


def _viewpoint(f: Facts) -> str:
    if f.role == "referee":
        return "As the referee saw it: every fact, hidden or not."
    if f.role == "spectator":
        return "As a spectator saw it: public facts only."
    return f"As {f.side_name(f.role)} saw it: their own units and secrets, and what they spotted of the enemy."


def forces(report: Report) -> list[tuple[str, list[str]]]:
    """Each side's units the reader knows of, with their fate."""
    f = report.facts
    out = []
    for s in f.sides:
        lines = []
        for u in (u for u in f.units if u.side == s.id):
            fate = f"out of action in turn {u.out_turn}: {u.out}" if u.out else "in play at the end"
            cls = f" ({u.cls})" if u.cls else ""
            lines.append(f"{u.name}{cls}: {fate}")
        army = f" — {s.army}" if s.army else ""
        out.append((f"{s.name}{army}", lines or ["no unit seen"]))
    return out


def turn_heading(t: TurnFacts) -> str:
    return "Set-up and deployment" if t.turn == 0 else f"Turn {t.turn}"


def turn_account(report: Report, t: TurnFacts) -> list[str]:
    """What happened in one turn, in sentences."""
    f = report.facts
    name = f.side_name
    said: list[str] = []
    if t.cards:
        said.append(f"Cards drawn: {', '.join(t.cards)}.")
    if t.active:
        said.append(
            f"{' then '.join(name(s) for s in t.active)} {'had' if len(t.active) == 1 else 'took'} the initiative."
        )
    said.extend(f"“{n}”" for n in t.notes)
    for unit, side in t.spotted:
        said.append(f"{name(side)} spotted {unit}.")
    for side in f.sides:
        rolls = report.luck.of_turn.get(side.id, {}).get(t.turn, [])
        if rolls:
            made = sum(j.successes for j in rolls)
            expected = float(sum(j.expected for j in rolls))
            times = "once" if len(rolls) == 1 else f"{len(rolls)} times"
            said.append(f"{side.name} rolled {times} against a target: {_successes(made)}, {expected:.1f} expected.")
    for loss in t.losses:
        said.append(f"{loss.unit} ({name(loss.side)}) was put out of action: {loss.cause}.")
    for back in t.returns:
        said.append(f"{back.unit} ({name(back.side)}) came back into action.")
    for p in t.points:
        said.append(f"{name(p.side)} scored {p.points} defeat points: {p.reason}.")
    for key, value in t.revealed:
        said.append(f"Revealed: {key}" + (f" was {value}." if value else "."))
    if t.result:
        said.append(f"The game ended: {t.result}.")
    return said or ["Nothing the reader saw changed the balance."]


def score_heading(report: Report) -> str:
    name = report.facts.score_name
    return "Losses" if name == "losses" else f"Losses and {name}"


def score_caption(report: Report) -> str:
    name = report.facts.score_name
    if name == "losses":
        return "Units put out of action in each turn (this ruleset scores no points: losses are the score)."
    return f"Units put out of action in each turn, and each side's {name} so far (more is worse)."


def score_table(report: Report) -> tuple[list[str], list[list[str]]]:
    """Header and rows: per turn, each side's losses in it and its score so far."""
    f = report.facts
    head = ["turn"]
    for s in f.sides:
        head.append(f"{s.name}: lost")
        if f.score_name != "losses":
            head.append(f"{s.name}: {f.score_name} so far")
    rows = []
    for i, t in enumerate(f.turns):
        row = ["set-up" if t.turn == 0 else str(t.turn)]
        for s in f.sides:
            row.append(str(f.losses_by_turn[s.id][i]))
            if f.score_name != "losses":
                row.append(str(f.score_by_turn[s.id][i]))
        rows.append(row)
    return head, rows


def moment(report: Report, m: Moment) -> str:
    f = report.facts
    change = ", ".join(f"{f.side_name(s)} {v:+d}" for s, v in m.change.items() if v)
    by = f" (“{m.command}”)" if m.command else ""
    return (
        f"Turn {m.turn}{by}: {'; '.join(m.facts)}. {f.score_name.capitalize()}: {change}; "
        f"a swing of {m.swing} to {f.side_name(m.favours)}."
    )


def side_luck(report: Report, s: SideLuck) -> str:
    name = report.facts.side_name(s.side)
    if not s.rolls:
        return f"{name}: no roll with a target seen."
    how = "exactly" if s.exact else "by the normal approximation"
    return (
        f"{name}: {_successes(s.successes)} in {len(s.rolls)} rolls against {float(s.expected):.2f} expected; "
        f"the chance of doing at least this well was {_pct(s.p_at_least)}, "
        f"of doing this badly or worse {_pct(s.p_at_most)} ({how})."
    )


def roll(report: Report, j: RollLuck, lucky: bool) -> str:
    r = j.fact.roll
    who = f"{j.fact.unit}: " if j.fact.unit else ""
    need = f"{r.target} or less" if r.under else f"{r.target}+"
    need += " total" if r.total else ""
    faces = " ".join(str(x) for x in r.faces)
    odds = j.p_at_least if lucky else j.p_at_most
    chance = "at least this well" if lucky else "this badly or worse"
    return (
        f"Turn {j.fact.turn}, {report.facts.side_name(j.fact.side)}: {who}{r.purpose} "
        f"({len(r.faces)}d{r.sides} needing {need}: {faces}) — {_successes(j.successes)}, "
        f"{float(j.expected):.2f} expected; a chance of {_pct(float(odds))} of doing {chance}."
    )


def _successes(n: int) -> str:
    return "1 success" if n == 1 else f"{n} successes"


def _pct(p: float) -> str:
    """70.4%; a chance below 0.1% with two significant digits (0.0052%), never "0.0%"."""
    return f"{p * 100:.1f}%" if p >= 0.001 else f"{p * 100:.2g}%"
