"""A log line's words as the clients show them: a roll's outcome first.

The log pane (``tui.panes.log``), the command line's answer and the line
client (``tui.lines``) all take their lines from ``Game.log_lines(role)``, the
role's own words and numbers; a roll's outcome is put first on its line, so
that a row cut at a pane's edge, a one-line answer, or a braille display's
first cells still say what the roll meant.  No Textual here.
"""

from __future__ import annotations

from core.game import LogLine
from core.language.i18n import CORE_DOMAIN, Names, naming, render
from core.log import events as ev


def outcome_first(line: LogLine, domain: str = CORE_DOMAIN, names: Names | None = None) -> tuple[str, str] | None:
    """A roll's (outcome, the rest of its line): a row cut at the pane's edge, or a
    message line, still shows what the roll meant.  None when the line has no outcome.
    ``domain``: the ruleset's, in which the line was narrated; ``names``: the game's, by
    which it named the sides (``core.log.narrate.sides_of``)."""
    e = line.event
    if not isinstance(e, ev.Rolled) or not e.roll.outcome:
        return None
    with naming(names or Names()):
        outcome = render(e.roll.outcome, domain)
    tail = f" → {outcome}"
    at = line.text.rfind(tail)
    if at < 0:
        return None
    return outcome, line.text[:at] + line.text[at + len(tail) :]


def summary(lines: list[LogLine], domain: str = CORE_DOMAIN, names: Names | None = None) -> str:
    """What a command did on one line: the game's result first, where it ended it, then the
    outcomes of its rolls, then its lines (without those), so that a line cut at the
    terminal's edge keeps them (a command ending the game began with its secrets opened at
    the end, ``secret.dice = 159ec1e6…``, and the result was past the edge).  The game's
    inner variables (``LogLine.inner``) are left out, as the log pane leaves them."""
    ended, outcomes, texts = [], [], []
    for line in lines:
        if line.inner:
            continue
        if isinstance(line.event, ev.GameEnded):
            ended.append(line.text)
            continue
        split = outcome_first(line, domain, names)
        if split:
            outcomes.append(split[0])
        texts.append(split[1] if split else line.text)
    said = " · ".join([*ended, ", ".join(outcomes)] if outcomes else ended)
    rest = "; ".join(texts)
    return f"{said} · {rest}" if said and rest else said or rest
