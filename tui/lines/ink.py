"""The line client's few colours: a roll's outcome, a refusal, a question; none when the reader asks for none.

Colour is never the only cue: every coloured word says what it means
(``Refused:``, the outcome's own words), so a line reads the same without it.
No colour is written when ``NO_COLOR`` is set to anything (no-color.org), when
``TERM`` is ``dumb`` or unset, or when the output is not a terminal (a pipe, a
file, a bot); only the SGR codes below are ever written, never a cursor
movement.
"""

from __future__ import annotations

from collections.abc import Mapping

_RESET = "\x1b[0m"
_GOOD = "\x1b[1;32m"
_BAD = "\x1b[1;31m"
_STRONG = "\x1b[1m"


def colour_wanted(environ: Mapping[str, str], terminal: bool) -> bool:
    """Whether lines written to this output may be coloured."""
    term = environ.get("TERM", "")
    return terminal and not environ.get("NO_COLOR") and term not in ("", "dumb")


class Ink:
    """Wraps words in colour, or leaves them as they are (``on`` false)."""

    __slots__ = ("on",)

    def __init__(self, on: bool = False) -> None:
        self.on = on

    def _wrap(self, code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if self.on and text else text

    def good(self, text: str) -> str:
        """A roll that succeeded."""
        return self._wrap(_GOOD, text)

    def bad(self, text: str) -> str:
        """A roll that failed, a refusal, the end of the game."""
        return self._wrap(_BAD, text)

    def strong(self, text: str) -> str:
        """A word to find at a glance (an outcome neither good nor bad)."""
        return self._wrap(_STRONG, text)

    def outcome(self, text: str, succeeded: bool | None) -> str:
        return self.good(text) if succeeded else self.bad(text) if succeeded is False else self.strong(text)
