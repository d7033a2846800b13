"""A line editor for a terminal at the far end of a connection: keys in, what to echo and whole lines out.

An SSH plain seat (``tui.ssh.seating.plain``) reads its player's keys raw and
edits his line here.  :class:`LineEditor` is given the keys as they come
(:meth:`LineEditor.keys`) and says what to write back to the terminal and when
a line is entered; what the table says meanwhile goes through it too
(:meth:`LineEditor.show`), so that it can take the half-typed line off its row
and put it back after.  It writes nothing itself and knows the terminal only
by its width.

It is written for screen readers and braille displays, which read out what is
written to the terminal: whatever the terminal, a key typed at the end of the
line is echoed alone, Backspace is ``\\b \\b``, and a row is edited with
characters, backspaces and spaces only (what follows the cursor written again
after a key typed or erased before it).  A cursor sequence is written only to
go to another row (a line longer than the terminal is wide: ``CSI A``, ``CSI
B``) or forward over what is typed (→, End: ``CSI C``).  The line is written
whole only when it is replaced (↑, ↓, a completion that changed its letters,
Ctrl+R) or put back after the table's news.

The keys (readline's, and asyncssh's editor's, which this one replaced):
Enter; ← → (Ctrl+B, Ctrl+F); Home, End (Ctrl+A, Ctrl+E); Backspace; Delete;
↑ ↓ (Ctrl+P, Ctrl+N) through the history the owner gives (:meth:`set_history`),
the line being typed kept below it; Tab to complete (the owner's
:data:`Completer`); Ctrl+U erases the line, Ctrl+K its end, Ctrl+W the word
before the cursor, Ctrl+Y puts back what they erased; Ctrl+C drops the line;
Ctrl+D leaves on an empty line (:class:`Ended`) and erases a character on
another; Ctrl+R writes the line again.  Any other key (a function key, Alt+a
key, a control character) rings the bell, at most once for what arrived
together, and is never typed; a bracketed paste's markers are ignored, its
text typed.  Carriage return and line feed together are one Enter.

Where the cursor is, is counted in cells from the start of the row the prompt
began on: a wide character (CJK, most emoji) takes two, a combining mark none
(it goes with the character before it: the cursor and Backspace move over
both); a wide character that would start in a row's last cell starts the next
row, as terminals draw it, the cell it skips written as a space.  After a
write that ends at the end of a row, a space and a backspace put the cursor at
the start of the next, where the terminal is (its wrap is otherwise pending).
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass

#: Tab: given the line and the cursor, the line and cursor to take, False to ring the bell, True for nothing.
Completer = Callable[[str, int], tuple[str, int] | bool]

#: The width taken for a terminal that says none.
DEFAULT_WIDTH = 80
#: The longest escape sequence read as one key: a longer one is dropped, and the bell rung.
LONGEST_SEQUENCE = 16

ESC = "\x1b"
BELL = "\a"


@dataclass(frozen=True)
class Entered:
    """A whole line typed (Enter)."""

    line: str


@dataclass(frozen=True)
class Ended:
    """Ctrl+D on an empty line: the player leaves."""


#: Every key bound, as terminals send it, to the name of the editor's method for it.
KEYS: dict[str, str] = {
    "\r": "_enter",
    "\n": "_enter",
    ESC + "OM": "_enter",  # the keypad's Enter in application mode
    "\x7f": "_backspace",
    "\x08": "_backspace",
    ESC + "[3~": "_delete",
    "\x04": "_delete_or_leave",
    "\x02": "_left",
    ESC + "[D": "_left",
    ESC + "OD": "_left",
    "\x06": "_right",
    ESC + "[C": "_right",
    ESC + "OC": "_right",
    "\x01": "_home",
    ESC + "[H": "_home",
    ESC + "OH": "_home",
    ESC + "[1~": "_home",
    ESC + "[7~": "_home",
    "\x05": "_end",
    ESC + "[F": "_end",
    ESC + "OF": "_end",
    ESC + "[4~": "_end",
    ESC + "[8~": "_end",
    "\x10": "_previous",
    ESC + "[A": "_previous",
    ESC + "OA": "_previous",
    "\x0e": "_next",
    ESC + "[B": "_next",
    ESC + "OB": "_next",
    "\t": "_complete",
    "\x15": "_erase_line",
    "\x0b": "_erase_to_end",
    "\x17": "_erase_word",
    "\x19": "_put_back",
    "\x03": "_interrupt",
    "\x12": "_redraw",
    ESC + "[200~": "_nothing",  # a bracketed paste's start and end: its text is typed as keys
    ESC + "[201~": "_nothing",
}


def cells_of(ch: str) -> int:
    """The cells a character takes on a terminal: 2 for a wide one, 0 for a combining mark."""
    if ch < "\u0300":  # (where the combining marks begin: every printable character before is narrow)
        return 1
    if unicodedata.category(ch) in ("Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def _sequence_done(seq: str) -> bool:
    """Whether ``seq`` (begun with ESC) is a whole key: a CSI sequence ends at its final byte, SS3
    after one character, anything else (Alt and a key) after one."""
    if len(seq) < 2:
        return False
    if seq[1] == "[":
        return len(seq) > 2 and not " " <= seq[-1] <= "?"  # parameters and intermediates, then the final byte
    if seq[1] == "O":
        return len(seq) > 2
    return True


class LineEditor:
    """One terminal's line (see the module's doc): ``width`` its columns, ``max_length`` the longest line
    typed (the bell rings for more), ``complete`` what Tab does (None: the bell)."""

    def __init__(self, *, width: int, max_length: int, complete: Completer | None = None) -> None:
        self.width = width if width > 0 else DEFAULT_WIDTH
        self.max_length = max_length
        self.complete = complete
        #: The line typed so far, and where the cursor is in it.
        self.line = ""
        self.pos = 0
        self._row = ""  # what was written on the row before the line: the prompt
        self._cells = [0]  # where the cursor sits at each position of the line, its end last
        self._at = 0  # where the terminal's cursor is
        self._out: list[str] = []
        self._rung = False  # the bell, once for what arrived together
        self._sequence = ""  # an escape sequence begun
        self._after_cr = False  # a line feed right after a carriage return ends no second line
        self._history: list[str] = []
        self._browsing = 0  # the history line shown; len(history): the line being typed
        self._typing = ""  # the line being typed, while ↑ shows older ones
        self._erased = ""  # what Ctrl+U, Ctrl+K or Ctrl+W took, for Ctrl+Y

    # ------------------------------------------------------------ the owner's

    def set_history(self, lines: list[str]) -> None:
        """The lines ↑ brings back, oldest first (↑ starts again from the newest)."""
        self._history = list(lines)
        self._browsing = len(self._history)
        self._typing = ""

    def keys(self, data: str) -> Iterator[str | Entered | Ended]:
        """What the terminal sent, taken key by key: yields what to write to it, and each line entered
        (or the player leaving) in its turn.  Each line is yielded before the keys after it are taken,
        so its answer (:meth:`show`) comes before their echo."""
        self._rung = False
        i, n = 0, len(data)
        while i < n:
            ch = data[i]
            i += 1
            after_cr, self._after_cr = self._after_cr, False
            if self._sequence:
                if ch == ESC or not " " <= ch <= "~":  # cut short by another key: dropped
                    self._sequence = ""
                    self._ring()
                    i -= 1
                    continue
                if len(self._sequence) == LONGEST_SEQUENCE:  # too long for a key: dropped to its end
                    if not " " <= ch <= "?":
                        self._sequence = ""
                        self._ring()
                    continue
                self._sequence += ch
                if not _sequence_done(self._sequence):
                    continue
                key, self._sequence = self._sequence, ""
            elif ch == ESC:
                self._sequence = ch
                continue
            elif ch == "\n" and after_cr:
                continue
            elif ch.isprintable():
                j = i
                while j < n and data[j].isprintable():
                    j += 1
                self._insert(data[i - 1 : j])
                i = j
                continue
            else:
                key = ch
            self._after_cr = key == "\r"
            action = KEYS.get(key)
            if action is None:
                self._ring()
                continue
            event = getattr(self, action)()
            if event is not None:
                if self._out:
                    yield self._flush()
                yield event
        if self._out:
            yield self._flush()

    def show(self, text: str) -> str:
        """What to write to show ``text`` (the table's lines; what follows its last line feed, such as
        a prompt, begins the row the line is typed on): the line typed is taken off the screen
        (backspaces, spaces), ``text`` written, and the line put back after it."""
        if self.line:
            start, end = self._cells[0], self._cells[-1]
            self._move(start)
            self._write(" " * (end - start), end)
            self._move(start)
        _, newline, tail = text.rpartition("\n")
        self._row = tail if newline else self._row + tail
        if newline and self._at and self._at % self.width == 0:
            text = text[1:] if text.startswith("\n") else text  # the prompt filled its row: the cursor is below it
        self._out.append(text.replace("\n", "\r\n"))
        self._at = _end_of(self._row, self.width)
        if tail and self._at and self._at % self.width == 0:
            self._out.append(" \b")  # the terminal's wrap is pending: made, so the cursor is where it is counted
        self._cells = [self._at]
        self._relayout(0)
        self._rewrite(0, self._at)
        return self._flush()

    def resize(self, width: int) -> str:
        """The terminal is ``width`` columns now: what to write.  Nothing if the prompt and the line fit on
        one row, before and after; else they are written again below, since a terminal may or may not
        have moved what it showed (a screen reader hears them once more)."""
        width = width if width > 0 else DEFAULT_WIDTH
        old, self.width = self.width, width
        end = self._cells[-1]
        self._cells = [_end_of(self._row, width)]
        self._relayout(0)
        if end < old and self._cells[-1] < width:
            self._at = self._cells[self.pos]
            return ""
        self._out.append("\r\n" + self._row)
        self._at = self._cells[0]
        if self._at and self._at % width == 0:
            self._out.append(" \b")
        self._rewrite(0, self._at)
        return self._flush()

    # ------------------------------------------------------------ writing

    def _flush(self) -> str:
        out = "".join(self._out)
        self._out.clear()
        return out

    def _ring(self) -> None:
        if not self._rung:
            self._rung = True
            self._out.append(BELL)

    def _move(self, to: int) -> None:
        """The cursor to cell ``to``: back along a row with backspaces, to another row or forward with CSI."""
        width = self.width
        (row, col), (to_row, to_col) = divmod(self._at, width), divmod(to, width)
        if to_row < row:
            self._out.append(f"\x1b[{row - to_row}A")
        elif to_row > row:
            self._out.append(f"\x1b[{to_row - row}B")
        if to_col < col:
            self._out.append("\b" * (col - to_col))
        elif to_col > col:
            self._out.append(f"\x1b[{to_col - col}C")
        self._at = to

    def _write(self, text: str, to: int) -> None:
        """Write ``text``, which takes the cursor from where it is to cell ``to``."""
        if not text:
            return
        self._out.append(text)
        if to > self._at and to % self.width == 0:
            self._out.append(" \b")  # see show()
        self._at = to

    def _relayout(self, i: int) -> None:
        """Where the cursor sits at each position from ``i`` on (those before unchanged)."""
        del self._cells[i + 1 :]
        at, width, rest = self._cells[i], self.width, self.line[i:]
        if rest.isascii():  # one cell each
            self._cells.extend(range(at + 1, at + 1 + len(rest)))
            return
        for ch in rest:
            taken = cells_of(ch)
            if taken == 2 and at % width == width - 1:
                at += 1  # a wide character starts the next row
            at += taken
            self._cells.append(at)

    def _rewrite(self, i: int, old_end: int) -> None:
        """The line changed from position ``i`` on: written again from there, what it held past its
        new end (up to ``old_end``) covered with spaces, and the cursor put at its position.  It is written
        from the start of the character at ``i`` with its combining marks: a mark is drawn over the
        character written just before it."""
        i = _cluster_start(self.line, i)
        self._move(self._cells[i])
        width, cells, text = self.width, self._cells, self.line[i:]
        if not text.isascii():
            parts = []
            for k, ch in enumerate(text, i):
                if cells[k] % width == width - 1 and cells_of(ch) == 2:
                    parts.append(" ")  # the cell a wide character skips
                parts.append(ch)
            text = "".join(parts)
        end = cells[-1]
        self._write(text + " " * (old_end - end), max(end, old_end))
        self._move(cells[self.pos])

    def _replace(self, line: str, pos: int) -> None:
        """The line becomes ``line``, the cursor at ``pos``: written again from where it differs."""
        old, old_end = self.line, self._cells[-1]
        same = len(os.path.commonprefix([old, line]))
        same = min(_cluster_start(old, same), _cluster_start(line, same))
        self.line, self.pos = line, pos
        self._relayout(same)
        self._rewrite(same, old_end)

    def _cut(self, i: int, j: int) -> None:
        """Take ``line[i:j]`` out, the cursor going to ``i`` (the character its marks went with written again)."""
        old_end, start = self._cells[-1], _cluster_start(self.line, i)
        self.line, self.pos = self.line[:i] + self.line[j:], i
        self._relayout(start)
        self._rewrite(start, old_end)

    # ------------------------------------------------------------ the keys

    def _insert(self, text: str) -> None:
        room = self.max_length - len(self.line)
        if self.pos == 0 and text and cells_of(text[0]) == 0:
            self._ring()  # a combining mark with no character to go with: it would mark the prompt's last
            text = text.lstrip("".join(ch for ch in text if cells_of(ch) == 0))
        if len(text) > room:
            self._ring()
            text = text[: max(0, room)]
        if text:
            at, old_end = self.pos, self._cells[-1]
            self.line = self.line[:at] + text + self.line[at:]
            self.pos = at + len(text)
            self._relayout(at)
            self._rewrite(at, old_end)

    def _enter(self) -> Entered:
        line, end = self.line, self._cells[-1]
        self._move(end)
        if not (end and end % self.width == 0):  # (else the cursor is on a row of its own already)
            self._out.append("\r\n")
        self.line, self.pos, self._row, self._cells, self._at = "", 0, "", [0], 0
        self._browsing, self._typing = len(self._history), ""
        return Entered(line)

    def _backspace(self) -> None:
        if self.pos == 0:
            self._ring()
        else:
            self._cut(_cluster_start(self.line, self.pos - 1), self.pos)

    def _delete(self) -> None:
        if self.pos == len(self.line):
            self._ring()
        else:
            self._cut(self.pos, _cluster_end(self.line, self.pos))

    def _delete_or_leave(self) -> Ended | None:
        if not self.line:
            return Ended()
        self._delete()
        return None

    def _left(self) -> None:
        if self.pos == 0:
            self._ring()
        else:
            self.pos = _cluster_start(self.line, self.pos - 1)
            self._move(self._cells[self.pos])

    def _right(self) -> None:
        if self.pos == len(self.line):
            self._ring()
        else:
            self.pos = _cluster_end(self.line, self.pos)
            self._move(self._cells[self.pos])

    def _home(self) -> None:
        self.pos = 0
        self._move(self._cells[0])

    def _end(self) -> None:
        self.pos = len(self.line)
        self._move(self._cells[-1])

    def _previous(self) -> None:
        if self._browsing == 0:
            self._ring()
            return
        if self._browsing == len(self._history):
            self._typing = self.line
        self._browsing -= 1
        line = self._history[self._browsing]
        self._replace(line, len(line))

    def _next(self) -> None:
        if self._browsing >= len(self._history):
            self._ring()
            return
        self._browsing += 1
        line = self._history[self._browsing] if self._browsing < len(self._history) else self._typing
        self._replace(line, len(line))

    def _complete(self) -> None:
        taken = self.complete(self.line, self.pos) if self.complete is not None else False
        if taken is False or (isinstance(taken, tuple) and len(taken[0]) > self.max_length):
            self._ring()
        elif isinstance(taken, tuple):
            self._replace(*taken)

    def _erase_line(self) -> None:
        self._erased = self.line or self._erased
        self._replace("", 0)

    def _erase_to_end(self) -> None:
        self._erased = self.line[self.pos :] or self._erased
        self._cut(self.pos, len(self.line))

    def _erase_word(self) -> None:
        line, i = self.line, self.pos
        while i > 0 and line[i - 1] == " ":
            i -= 1
        while i > 0 and line[i - 1] != " ":
            i -= 1
        if i == self.pos:
            self._ring()
            return
        self._erased = line[i : self.pos]
        self._cut(i, self.pos)

    def _put_back(self) -> None:
        self._insert(self._erased)

    def _interrupt(self) -> None:
        self._browsing, self._typing = len(self._history), ""
        self._replace("", 0)

    def _redraw(self) -> None:
        self._rewrite(0, self._cells[-1])

    def _nothing(self) -> None:
        pass


def _cluster_start(line: str, i: int) -> int:
    """Where the character at ``i`` begins, with the combining marks after it (back over them)."""
    while 0 < i < len(line) and cells_of(line[i]) == 0:
        i -= 1
    return i


def _cluster_end(line: str, i: int) -> int:
    """Just past the character at ``i`` and the combining marks after it."""
    i += 1
    while i < len(line) and cells_of(line[i]) == 0:
        i += 1
    return i


def _end_of(text: str, width: int) -> int:
    """The cell a terminal's cursor reaches writing ``text`` at the start of a row (escape sequences,
    such as colours, take none)."""
    at, i, n = 0, 0, len(text)
    while i < n:
        ch = text[i]
        i += 1
        if ch == ESC:
            if i < n and text[i] == "[":
                i += 1
                while i < n and " " <= text[i] <= "?":
                    i += 1
            i += 1
        elif ch == "\r":
            at = 0
        elif ch.isprintable():
            taken = cells_of(ch)
            if taken == 2 and at % width == width - 1:
                at += 1
            at += taken
    return at
