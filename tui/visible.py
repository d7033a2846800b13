"""Text from outside the code made visible: every character that would not show as itself, as its escape.

A player's command, a save, a scenario or a refusal may hold any character.
Shown on a terminal, a control character would act (move the cursor, clear
the screen, set the window's title) and a bidirectional override would turn
the words around it; so each is written as its escape (``\\x1b``,
``\\u202e``).  The Textual client's widgets apply it through ``tui.plain``;
the line client (``tui.lines``), which imports no Textual, applies it to
every line it writes.
"""

from __future__ import annotations

import re

#: What would not show as itself: control characters (C0, DEL, C1), the line and
#: paragraph separators, and the bidirectional embeddings, overrides and isolates.
#: (Patterns, compiled by ``re`` when first used: most text is printable, and told so
#: without them, a start's first frame included.)
_OTHERS = "\\x7f-\\x9f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069"
IN_A_LINE = "[\\x00-\\x1f" + _OTHERS + "]"
#: A widget of several lines shows a line feed as a new line.
IN_LINES = "[\\x00-\\x09\\x0b-\\x1f" + _OTHERS + "]"


def _escape(match: re.Match[str]) -> str:
    return ascii(match.group())[1:-1]  # "\x1b", "\n", "\u2028"


def visible(text: str, *, lines: bool = False) -> str:
    """``text`` with every character that would not show as itself written as its
    escape (a line feed too, unless ``lines``: for a widget of several lines)."""
    if _printable(text, lines):
        return text
    return re.sub(IN_LINES if lines else IN_A_LINE, _escape, text)


def shows_as_is(text: str, *, lines: bool = False) -> bool:
    """Whether :func:`visible` leaves ``text`` as it is."""
    return _printable(text, lines) or re.search(IN_LINES if lines else IN_A_LINE, text) is None


def _printable(text: str, lines: bool) -> bool:
    # str.isprintable refuses every character the patterns name, and a few more (a no-break
    # space, a zero-width joiner): those few are asked of the pattern.
    return (text.replace("\n", "") if lines else text).isprintable()
