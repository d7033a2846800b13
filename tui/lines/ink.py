"""The line client's few colours: a roll's outcome, a refusal, the end of the game; none when the reader asks for none.

Colour is never the only cue: every coloured word says what it means
(``Refused:``, the outcome's own words), so a line reads the same without it.
No colour is written when ``NO_COLOR`` is set to anything (no-color.org), when
``TERM`` is ``dumb`` or unset, or when the output is not a terminal (a pipe, a
file, a bot); only the SGR codes below are ever written, never a cursor
movement.

A line to colour is an :class:`Inked`: its text and the span to colour, kept
apart until the line is written (:func:`shown`), so that what came from
outside (a name, a roll's outcome read from a save) is made visible first
(``tui.visible``) and can never pass for a colour code of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NamedTuple

from tui.lines.spoken import spoken
from tui.visible import visible

Kind = Literal["good", "bad", "strong"]
_CODES: dict[str, str] = {"good": "\x1b[1;32m", "bad": "\x1b[1;31m", "strong": "\x1b[1m"}
_RESET = "\x1b[0m"


class Inked(NamedTuple):
    """A line with ``text[start:end]`` in the colour of ``kind``."""

    text: str
    start: int
    end: int
    kind: Kind

    def after(self, prefix: str) -> Inked:
        """The same line behind ``prefix``, its colour where it was."""
        n = len(prefix)
        return Inked(prefix + self.text, self.start + n, self.end + n, self.kind)


#: A line as the answers give it: plain text, or text with a span to colour.
Line = str | Inked


def inked(text: str, kind: Kind, rest: str = "") -> Inked:
    """``text`` coloured, then ``rest`` as it is."""
    return Inked(text + rest, 0, len(text), kind)


def outcome_kind(succeeded: bool | None) -> Kind:
    """A roll's colour: green if it succeeded, red if it failed, bold if it has no single success."""
    return "good" if succeeded else "bad" if succeeded is False else "strong"


def prefixed(prefix: str, line: Line) -> Line:
    return line.after(prefix) if isinstance(line, Inked) else prefix + line


def shown(line: Line, colour: bool) -> str:
    """The line as written: made visible, its cards in words (``tui.lines.spoken``), and its
    span coloured when ``colour``."""
    if not isinstance(line, Inked):
        return visible(spoken(line))
    text, start, end, kind = line
    head, span, tail = (visible(spoken(part)) for part in (text[:start], text[start:end], text[end:]))
    return f"{head}{_CODES[kind]}{span}{_RESET}{tail}" if colour and span else head + span + tail


def colour_wanted(environ: Mapping[str, str], terminal: bool) -> bool:
    """Whether lines written to this output may be coloured."""
    term = environ.get("TERM", "")
    return terminal and not environ.get("NO_COLOR") and term not in ("", "dumb")
