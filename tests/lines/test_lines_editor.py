"""The line editor of a plain SSH seat (``tui.lines.editor``), as a pure class: keys in, the exact bytes
echoed out, and the lines entered.  What a screen reader hears is what is written: a key typed is
echoed alone, Backspace is ``\\b \\b``, a row is edited with characters, backspaces and spaces,
and a cursor sequence is written only to change rows or to go forward.  A strict terminal (xterm's
wrap, which waits for the next character at a row's end) checks that whatever is typed, the screen
shows the prompt and the line, the cursor where the editor says."""

from __future__ import annotations

import re
import unicodedata

import pytest
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from tui.lines.editor import Ended, Entered, LineEditor

PROMPT = "reg> "
UP, DOWN, RIGHT, LEFT = "\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D"
HOME, END, DELETE = "\x1b[H", "\x1b[F", "\x1b[3~"


def editor(*, width: int = 80, history: tuple[str, ...] = (), complete=None, max_length: int = 1000) -> LineEditor:
    ed = LineEditor(width=width, max_length=max_length, complete=complete)
    ed.set_history(list(history))
    ed.show(PROMPT)
    return ed


@pytest.fixture
def ed() -> LineEditor:
    """An editor as :func:`editor` makes it by default."""
    return editor()


def typed(ed: LineEditor, *chunks: str) -> tuple[str, list[Entered | Ended]]:
    """What the editor writes for ``chunks`` arriving one after the other, and the lines entered."""
    out, events = [], []
    for chunk in chunks:
        for item in ed.keys(chunk):
            (out if isinstance(item, str) else events).append(item)
    return "".join(out), events


# ------------------------------------------------------------------ exact bytes


def test_each_key_typed_is_echoed_alone(ed):
    assert [typed(ed, key)[0] for key in "note x"] == list("note x")
    assert typed(ed, "\r") == ("\r\n", [Entered("note x")])


def test_backspace_backs_over_one_character_with_a_space(ed):
    typed(ed, "note x")
    assert typed(ed, "\x7f") == ("\b \b", [])
    assert typed(ed, "\b") == ("\b \b", [])  # Ctrl+H, as some terminals send Backspace
    assert typed(ed, "y\r") == ("y\r\n", [Entered("notey")])
    assert typed(editor(), "\x7f") == ("\a", [])  # nothing to erase: the bell


def test_moving_back_is_backspaces_and_forward_a_cursor_sequence(ed):
    typed(ed, "abc")
    assert typed(ed, LEFT) == ("\b", [])
    assert typed(ed, "\x02") == ("\b", [])  # Ctrl+B
    assert typed(ed, RIGHT) == ("\x1b[1C", [])
    assert typed(ed, "\x01") == ("\b\b", [])  # Ctrl+A
    assert typed(ed, "\x05") == ("\x1b[3C", [])  # Ctrl+E
    assert typed(ed, HOME, END) == ("\b\b\b\x1b[3C", [])
    assert typed(ed, RIGHT) == ("\a", [])  # at the end already
    assert typed(ed, "\x1bOD") == ("\b", [])  # ← in application mode


def test_a_key_typed_inside_the_line_writes_what_follows_it_again_and_comes_back(ed):
    typed(ed, "ac", LEFT)
    assert typed(ed, "b") == ("bc\b", [])
    assert typed(ed, "\x7f") == ("\bc \b\b", [])  # Backspace inside: the rest moves left
    assert typed(ed, DELETE) == (" \b", [])  # Delete: the character under the cursor
    assert typed(ed, "\r") == ("\r\n", [Entered("a")])


def test_enter_in_the_middle_of_the_line_goes_to_its_end_first(ed):
    assert typed(ed, "abc", LEFT, LEFT, "\r") == ("abc\b\b\x1b[2C\r\n", [Entered("abc")])


def test_the_history_brings_lines_back_and_keeps_the_one_being_typed():
    ed = editor(history=("note long", "x"))
    assert typed(ed, "ab") == ("ab", [])
    assert typed(ed, UP) == ("\b\bx \b", [])  # the line written from where it differs, the rest covered
    assert typed(ed, "\x10") == ("\bnote long", [])  # Ctrl+P
    assert typed(ed, UP) == ("\a", [])  # the oldest
    assert typed(ed, DOWN) == ("\b" * 9 + "x" + " " * 8 + "\b" * 8, [])
    assert typed(ed, "\x0e") == ("\bab", [])  # Ctrl+N, and below the newest: what was being typed
    assert typed(ed, DOWN) == ("\a", [])
    assert typed(ed, UP, "\r") == ("\b\bx \b\r\n", [Entered("x")])


def test_set_history_starts_again_from_the_newest():
    ed = editor(history=("one",))
    typed(ed, UP)
    ed.set_history(["one", "two"])
    assert typed(ed, UP) == ("\b\b\btwo", [])


def test_ctrl_u_erases_the_line_and_ctrl_y_puts_it_back(ed):
    typed(ed, "abc", LEFT)
    assert typed(ed, "\x15") == ("\b\b   \b\b\b", [])
    assert typed(ed, "\x19") == ("abc", [])
    assert typed(ed, LEFT, LEFT, "\x0b") == ("\b\b  \b\b", [])  # Ctrl+K: to the end
    assert typed(ed, " de f", "\x17") == (" de f\b \b", [])  # Ctrl+W: the word before the cursor
    assert typed(ed, "\x17") == ("\b\b\b   \b\b\b", [])  # (and the spaces before it)
    assert typed(ed, "\x19\r") == ("de \r\n", [Entered("a de ")])


def test_ctrl_c_drops_the_line(ed):
    assert typed(ed, "abc", "\x03") == ("abc\b\b\b   \b\b\b", [])
    assert typed(ed, "d\r") == ("d\r\n", [Entered("d")])


def test_ctrl_d_leaves_on_an_empty_line_and_erases_on_another(ed):
    assert typed(ed, "ab", HOME, "\x04") == ("ab\b\bb \b\b", [])
    assert typed(ed, "\x15", "\x04") == (" \b", [Ended()])


def test_a_carriage_return_and_a_line_feed_are_one_enter_even_when_cut_apart(ed):
    lines = [Entered("a"), Entered("b"), Entered("c"), Entered("")]
    assert typed(ed, "a\r\nb\r", "\nc\n\n") == ("a\r\nb\r\nc\r\n\r\n", lines)


def test_each_line_is_yielded_before_the_keys_after_it_are_echoed(ed):
    seen = []
    for item in ed.keys("note a\rno"):
        seen.append(item)
        if isinstance(item, Entered):
            seen.append(ed.show("Note: a.\n" + PROMPT))  # its answer, and the prompt again
    assert seen == ["note a\r\n", Entered("note a"), "Note: a.\r\nreg> ", "no"]


def test_other_keys_ring_the_bell_once_and_type_nothing(ed):
    assert typed(ed, "a\x1bOP\x1b[15~\x1bxb\x00\x1b[1;5C") == ("a\ab", [])  # F1, F5, Alt+x, NUL, Ctrl+→
    assert typed(ed, "\x1b", "[", "2", "4", "~", "c") == ("\ac", [])  # a sequence cut across reads
    assert typed(ed, "\x1b\r") == ("\a\r\n", [Entered("abc")])  # Esc and then Enter: Enter still
    assert typed(ed, "\x1b[" + "1" * 5000 + "A", "d") == ("\ad", [])  # too long for a key: dropped whole


def test_a_bracketed_paste_is_its_text():
    assert typed(editor(), "\x1b[200~note pasted\x1b[201~") == ("note pasted", [])


def test_the_line_is_held_to_its_longest():
    ed = editor(max_length=5)
    assert typed(ed, "abcdefg") == ("\aabcde", [])
    assert typed(ed, "h") == ("\a", [])
    assert typed(ed, "\r") == ("\r\n", [Entered("abcde")])


def test_tab_adds_what_completes_alone_and_rewrites_only_a_changed_word():
    calls = []

    def complete(line: str, pos: int):
        calls.append((line, pos))
        return {"not": ("note ", 5), "NOTE x": ("note x", 6), "fire": False}.get(line, True)

    ed = editor(complete=complete)
    assert typed(ed, "not\t") == ("note ", [])  # only what Tab added
    assert typed(ed, "\x15NOTE x\t") == ("\b" * 5 + " " * 5 + "\b" * 5 + "NOTE x" + "\b" * 6 + "note x", [])
    assert typed(ed, "\x15fire\t") == ("\b" * 6 + " " * 6 + "\b" * 6 + "fire\a", [])  # False: the bell
    assert typed(ed, "\x15y\t") == ("\b" * 4 + " " * 4 + "\b" * 4 + "y", [])  # True: nothing (the owner lists)
    assert calls == [("not", 3), ("NOTE x", 6), ("fire", 4), ("y", 1)]
    assert typed(editor(), "no\t") == ("no\a", [])  # no completer: the bell


def test_news_take_the_half_typed_line_off_its_row_and_put_it_back_after_them(ed):
    typed(ed, "note half", LEFT)
    out = ed.show("\nrita: note meanwhile.\n" + PROMPT)
    assert out == "\b" * 8 + " " * 9 + "\b" * 9 + "\r\nrita: note meanwhile.\r\nreg> note half\b"
    assert typed(ed, "\r") == ("\x1b[1C\r\n", [Entered("note half")])


def test_a_line_longer_than_the_terminal_changes_rows_with_cursor_sequences():
    ed = editor(width=10)  # "reg> " takes 5 of the 10 columns
    assert typed(ed, "abcde") == ("abcde \b", [])  # at a row's end: a space and back, to be at the next row
    assert typed(ed, "f") == ("f", [])
    assert typed(ed, HOME) == ("\x1b[1A\x1b[4C", [])  # row 1, column 1 to row 0, column 5
    assert typed(ed, END) == ("\x1b[1B\b\b\b\b", [])
    assert typed(ed, "\x7f") == ("\b \b", [])
    # The last of the row erased: up to it, a space over it, and the cursor made to wait at the end of that row.
    assert typed(ed, "\x7f") == ("\x1b[1A\x1b[9C  \b\x1b[1A\x1b[9C", [])
    assert typed(ed, "\r") == ("\r\n", [Entered("abcd")])


def test_a_line_that_ends_at_the_row_s_end_enters_without_an_empty_row():
    ed = editor(width=10)
    assert typed(ed, "abcde\r") == ("abcde \b", [Entered("abcde")])


def test_wide_characters_take_two_cells_and_start_the_next_row_whole(ed):
    assert typed(ed, "日本") == ("日本", [])
    assert typed(ed, "\x7f") == ("\b\b  \b\b", [])
    narrow = editor(width=10)
    assert typed(narrow, "abcd日") == ("abcd 日", [])  # the row's last cell skipped, as terminals do
    assert typed(narrow, LEFT) == ("\x1b[1A\x1b[7C", [])  # back before it: the end of the row above


def test_a_combining_mark_goes_with_its_character(ed):
    assert typed(ed, "cafe\u0301") == ("cafe\u0301", [])
    assert typed(ed, LEFT) == ("\b", [])  # over é, one cell
    assert typed(ed, END, "\x7f") == ("\x1b[1C\b \b", [])  # Backspace takes both
    assert ed.line == "caf"
    assert typed(ed, "e", "\u0301") == ("e\be\u0301", [])  # a mark typed alone: its character written again
    assert typed(ed, "\x01\u0301") == ("\b\b\b\b\a", [])  # none to go with at the line's start: the bell


def test_a_resize_writes_nothing_for_a_line_on_one_row_and_the_line_again_below_for_a_longer_one():
    ed = editor(width=20)
    typed(ed, "note")
    assert ed.resize(15) == ""
    typed(ed, " longer", LEFT)
    assert ed.resize(12) == "\r\nreg> note longer\b"  # it spans two rows now
    assert typed(ed, HOME) == ("\x1b[1A\x1b[2C", [])


# ------------------------------------------------------------------ any keys, on a strict terminal


class Terminal:
    """Enough of xterm to check the editor: rows as wide as the terminal, a wrap that waits for the next
    character at a row's end (any cursor move then is an error: its place differs between terminals),
    wide characters and combining marks, and only the bytes the editor may write."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.rows: list[list[str]] = [[" "] * width]
        self.x = self.y = 0
        self.pending = False  # the wrap waits for the next character

    def feed(self, data: str) -> None:
        for m in re.finditer(r"\x1b\[(\d+)([ABC])|(.)", data, re.DOTALL):
            count, move, ch = m.group(1), m.group(2), m.group(3)
            if move:
                assert not self.pending, f"a cursor move at a row's end: {data!r}"
                n = int(count)
                if move == "A":
                    assert self.y - n >= 0, data
                    self.y -= n
                elif move == "B":
                    assert self.y + n < len(self.rows), f"down to a row never written: {data!r}"
                    self.y += n
                else:
                    assert self.x + n < self.width, data
                    self.x += n
            elif ch == "\b":
                assert not self.pending, f"a backspace at a row's end: {data!r}"
                assert self.x > 0, data
                self.x -= 1
            elif ch == "\r":
                self.x, self.pending = 0, False
            elif ch == "\n":
                self._down()
                self.pending = False
            elif ch == "\a":
                pass
            else:
                assert ch.isprintable(), f"{ch!r} written in {data!r}"
                self._put(ch)

    def _down(self) -> None:
        self.y += 1
        if self.y == len(self.rows):
            self.rows.append([" "] * self.width)

    def _put(self, ch: str) -> None:
        if unicodedata.category(ch) in ("Mn", "Me"):
            assert self.pending or self.x > 0, "a combining mark at a row's start"
            x, y = (self.width - 1, self.y) if self.pending else (self.x - 1, self.y)
            while self.rows[y][x] == "":
                x -= 1
            self.rows[y][x] += ch
            return
        wide = unicodedata.east_asian_width(ch) in "WF"
        if self.pending or (wide and self.x == self.width - 1):
            self.x, self.pending = 0, False
            self._down()
        self.rows[self.y][self.x] = ch
        if wide:
            self.rows[self.y][self.x + 1] = ""
        self.x += 2 if wide else 1
        if self.x == self.width:
            self.x, self.pending = self.width - 1, True

    def cursor(self) -> tuple[int, int]:
        return (self.y + 1, 0) if self.pending else (self.y, self.x)

    def lines(self) -> list[str]:
        return ["".join(row).rstrip() for row in self.rows]


def screen_of(lines: list[str], width: int) -> list[str]:
    """What a terminal shows of these lines, each from a row's start (its rows, the last one's cursor)."""
    term = Terminal(width)
    for n, line in enumerate(lines):
        if n:
            term.feed("\r\n")
        term.feed(line)
    return term.lines()


KEY = st.sampled_from(
    ["\r", "\x7f", "\x04", "\t", "\x15", "\x0b", "\x17", "\x19", "\x03", "\x12", "\x1bOP", "\x1b"]
    + [UP, DOWN, RIGHT, LEFT, HOME, END, DELETE]
)
TEXT = st.text(st.sampled_from("ab ,日e\u0301x"), min_size=1, max_size=12)


@pytest.mark.long
@settings(max_examples=examples(300), deadline=None)
@given(
    width=st.integers(4, 14),
    prompt=st.text(st.sampled_from("p> 本"), max_size=17),
    steps=st.lists(st.one_of(KEY, TEXT, st.just("news")), max_size=40),
)
def test_whatever_is_typed_the_screen_shows_the_prompt_and_the_line(width, prompt, steps):
    ed = LineEditor(width=width, max_length=30, complete=lambda line, pos: (line[:pos] + "xx" + line[pos:], pos + 2))
    ed.set_history(["note one", "日本 x"])
    term = Terminal(width)
    shown: list[str] = []  # every line of the screen above the one being typed
    term.feed(ed.show(prompt))
    for step in steps:
        if step == "news":
            term.feed(ed.show("\nnews\n" + prompt))
            shown += [prompt, "news"]
            continue
        for item in ed.keys(step):
            if isinstance(item, str):
                term.feed(item)
            elif isinstance(item, Entered):
                shown.append(prompt + item.line)
                term.feed(ed.show(prompt))
            else:
                assert ed.line == ""
        expected = screen_of([*shown, prompt + ed.line], width)
        assert term.lines()[: len(expected)] == expected
        assert all(not line for line in term.lines()[len(expected) :])
        at = screen_of([*shown, prompt + ed.line[: ed.pos]], width)
        cursor = Terminal(width)
        cursor.feed("\r\n".join([*shown, prompt + ed.line[: ed.pos]]))
        assert term.cursor() == cursor.cursor(), (at, ed.line, ed.pos)


@settings(max_examples=examples(200), deadline=None)
@given(text=st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=20))
def test_typing_at_the_end_of_a_short_line_writes_only_the_characters(text):
    ed = editor()
    printable = "".join(ch for ch in text if ch.isprintable())
    if any(unicodedata.category(ch) in ("Mn", "Me") for ch in printable) or not printable:
        return
    out, _ = typed(ed, printable)
    assert out == printable
    assert "\x1b" not in typed(ed, "\x7f" * len(printable))[0]


@pytest.mark.parametrize("width", [80, 12])
def test_no_escape_sequence_edits_a_line_that_fits_its_row(width):
    ed = editor(width=width)
    out, _ = typed(ed, "abc", LEFT, "x", "\x7f", HOME, DELETE, "\x15", "dé", "\x17", "z", "\x03")
    assert "\x1b" not in out and "\a" not in out
