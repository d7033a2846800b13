"""What a terminal sends, made into events: Textual's parser, with a bracketed paste as it was pasted.

Textual's ``XTermParser`` removes every NUL from a bracketed paste (a
workaround for its own Windows console reader, which puts one in a paste for
each key that needed a modifier: Textual issue 1661).  A paste from a real
terminal, an SSH peer or a browser's xterm.js has no such NULs: one there was
pasted (or sent by a hostile peer), and removing it hands the box another
text than the one pasted (``ros\\0si`` becomes ``rossi``), which the box
cannot then refuse as it refuses every other control character in a paste
(``tui.plain.refused_paste``, issue 28).  :class:`TerminalParser` gives the
paste back with its NULs, so a NUL is refused alike at the local client, an
SSH seat and a browser seat.  Every other event is Textual's own.

(Textual's Windows driver keeps its own parser, and its own workaround.)
"""

from __future__ import annotations

from collections.abc import Generator

from textual import events
from textual.message import Message

from tui.textual_internals import (
    BRACKETED_PASTE_END,
    BRACKETED_PASTE_START,
    ParseError,
    Peek1,
    Read1,
    TokenCallback,
    XTermParser,
)

_NUL = "\x00"


class TerminalParser(XTermParser):
    """``XTermParser``, but for the NULs of a bracketed paste, which are kept."""

    def __init__(self) -> None:
        #: The last characters read (as long as a paste's brackets), to see one open or close.
        self._tail = ""
        #: The characters of the bracketed paste being read, as sent (None: not in a paste).
        self._pasted: list[str] | None = None
        super().__init__(debug=False)  # debug=True would open keys.log in the current folder

    def parse(self, token_callback: TokenCallback[Message]) -> Generator[Read1 | Peek1, str, None]:
        """Textual's parse, fed the same characters, its paste given back as it was read."""

        def on_token(token: Message) -> None:
            if isinstance(token, events.Paste) and self._pasted is not None:
                pasted = "".join(self._pasted)[: -len(BRACKETED_PASTE_END)]
                self._pasted = None
                # Only if Textual's text is this one less its NULs (else it is Textual's own).
                if _NUL in pasted and pasted.replace(_NUL, "") == token.text:
                    token = events.Paste(pasted)
            token_callback(token)

        textual = super().parse(on_token)
        try:
            wanted = next(textual)
            while True:
                try:
                    character = yield wanted
                except ParseError as error:  # a timeout (an Esc on its own) or the end of the input
                    wanted = textual.throw(error)
                    continue
                read = isinstance(wanted, Read1)  # (a peek reads it again next)
                if read:
                    self._read(character)
                wanted = textual.send(character)
                if read and self._tail == BRACKETED_PASTE_END:
                    self._pasted = None  # the paste was handed on (or was none)
        except StopIteration:
            return

    def _read(self, character: str) -> None:
        self._tail = (self._tail + character)[-len(BRACKETED_PASTE_START) :]
        if self._pasted is not None:
            self._pasted.append(character)
        elif self._tail == BRACKETED_PASTE_START:
            self._pasted = []
