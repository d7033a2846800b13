"""What a terminal sends, made into events: Textual's parser, but for a bracketed paste, which is ours.

Everything outside a bracketed paste is Textual's ``XTermParser``'s.  A paste
(what comes between ``ESC [200~`` and ``ESC [201~``) is read here, for three
reasons (issue 28):

* Textual removes every NUL from a paste (a workaround for its own Windows
  console reader, Textual issue 1661).  A paste from a real terminal, an SSH
  peer or a browser's xterm.js has no such NULs: one there was pasted (or sent
  by a hostile peer), and removing it hands the box another text than the one
  pasted (``ros\\0si`` becomes ``rossi``), which the box cannot then refuse as
  it refuses every other control character in a paste
  (``tui.plain.refused_paste``).  The paste is given back as sent.
* Textual reads an ESC inside a paste as the start of a sequence and, past a
  few dozen characters without one it knows, hands those characters on as
  keys: a paste holding an ESC typed its next characters, Enter included, on
  the command line.  Here a paste's characters are only ever its text.
* A paste opened and never closed (a broken or hostile terminal) took every
  later character as its text, Ctrl+Q included.  Here a paste holds at most
  ``max_paste`` characters (a line's length: a longer one could never be put
  in): past that it is handed on as it is so far (the input's limits refuse it,
  as too long for the line), and a Ctrl+Q inside it (as any terminal sends it,
  :data:`tui.input_limits.QUIT_SEQUENCES`) ends it too: it is handed on with the
  Ctrl+Q in it (the box refuses it, as holding a control character), and the
  Ctrl+Q is handed on as the key.  Either way the rest of the paste, up to its
  end, is skipped, never typed, but for a Ctrl+Q in it, which is the key again.
  An Esc alone in a paste (nothing after it within Textual's escape delay) is the
  Esc key, as in Textual's own paste, and the paste goes on.

(Textual's Windows driver keeps its own parser, and its own workaround.)
"""

from __future__ import annotations

from collections.abc import Generator

from textual import events
from textual.constants import ESCAPE_DELAY
from textual.message import Message

from tui.input_limits import LINE_LENGTH, QUIT_KEY, QUIT_SEQUENCES
from tui.textual_internals import (
    BRACKETED_PASTE_END,
    BRACKETED_PASTE_START,
    ParseError,
    Peek1,
    Read1,
    TokenCallback,
    XTermParser,
)

_ESC = "\x1b"
#: The last characters read that are kept: enough to see a paste's bracket or a Ctrl+Q's sequence end.
_TAIL = max(len(BRACKETED_PASTE_START), len(BRACKETED_PASTE_END), *map(len, QUIT_SEQUENCES))


class TerminalParser(XTermParser):
    """``XTermParser``, but for a bracketed paste, read as the module says."""

    def __init__(self, max_paste: int = LINE_LENGTH) -> None:
        #: The most characters a paste may hold before it is handed on unfinished, and the rest skipped.
        self.max_paste = max_paste
        #: The last characters read, to see a paste open or close, or a Ctrl+Q.
        self._tail = ""
        super().__init__(debug=False)  # debug=True would open keys.log in the current folder

    def parse(self, token_callback: TokenCallback[Message]) -> Generator[Read1 | Peek1, str, None]:
        """Textual's parse, fed the same characters, until a paste opens; the paste is ours."""
        while True:
            textual = super().parse(token_callback)  # a new one starts afresh (its state is its own)
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
                        self._tail = (self._tail + character)[-_TAIL:]
                    wanted = textual.send(character)
                    if read and self._tail.endswith(BRACKETED_PASTE_START):
                        break  # Textual took it for a paste's start, and waits for the paste
            except StopIteration:
                return
            textual.close()
            if not (yield from self._paste(token_callback)):
                return  # the input ended inside the paste

    def _paste(self, token_callback: TokenCallback[Message]) -> Generator[Read1, str, bool]:
        """Read a paste to its end bracket and hand it on (or cut it short, as the module says);
        False if the input ended first (the paste is then dropped, as Textual drops it)."""
        pasted: list[str] | None = []  # None: skipping the rest of a paste handed on unfinished
        waited = False  # an ESC was read and nothing came after it in time
        while True:
            timeout = ESCAPE_DELAY if self._tail.endswith(_ESC) and not waited else None
            try:
                character = yield self.read1(timeout)
            except ParseError:
                if self.is_eof:
                    return False
                waited = True  # a timeout: the ESC was pressed on its own
                token_callback(events.Key("escape", _ESC))
                continue
            waited = False
            self._tail = (self._tail + character)[-_TAIL:]
            if self._tail.endswith(BRACKETED_PASTE_END):
                if pasted is not None:
                    token_callback(events.Paste("".join(pasted)[: 1 - len(BRACKETED_PASTE_END)]))
                return True
            quit = self._tail.endswith(QUIT_SEQUENCES)
            if pasted is not None:
                pasted.append(character)
                if quit or len(pasted) > self.max_paste + len(BRACKETED_PASTE_END):
                    token_callback(events.Paste("".join(pasted)))  # refused: a control character, or too long
                    pasted = None
            if quit:
                token_callback(events.Key(QUIT_KEY, "\x11"))
