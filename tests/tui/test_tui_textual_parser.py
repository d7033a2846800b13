"""The terminal parser Textual's drivers read a terminal's bytes with (a private module), pinned.

An SSH seat's driver, the local one and the typeahead read input with it, exactly as a local
terminal's is read (``tui.textual_internals``); ``tui.terminal_parser`` reads a bracketed paste
itself with the parser's protocol.  A Textual upgrade that changes any of it fails here.
"""

from __future__ import annotations

import time

from textual import events
from textual.constants import ESCAPE_DELAY

from tui.textual_internals import BRACKETED_PASTE_END, BRACKETED_PASTE_START, Read1, XTermParser


def parsed(*chunks: str) -> list:
    parser = XTermParser(debug=False)
    return [event for chunk in chunks for event in parser.feed(chunk)]


def test_the_parser_makes_keys_of_characters_and_sequences():
    """An SSH seat's driver and the typeahead read a terminal's input with it, as Textual's drivers do."""
    keys = [e.key for e in parsed("a", "\x1b[A", "\r", "\x7f", "\x03", "é") if isinstance(e, events.Key)]
    assert keys == ["a", "up", "enter", "backspace", "ctrl+c", "é"]


def test_the_parser_reads_a_sequence_split_across_reads():
    keys = [e.key for e in parsed("\x1b[", "1;5", "C") if isinstance(e, events.Key)]
    assert keys == ["ctrl+right"]


def test_a_bracketed_paste_is_one_paste_event():
    (paste,) = [e for e in parsed("\x1b[200~note [b]x[/b]\x1b[201~") if isinstance(e, events.Paste)]
    assert paste.text == "note [b]x[/b]"


def test_the_parser_takes_a_paste_s_nuls_out_and_reads_a_character_a_read1():
    """Why, and how, ``tui.terminal_parser`` reads a paste itself: ``parse`` is a generator asking
    for one character at a time (``Read1``), and its paste is the characters between the
    brackets less the NULs."""
    parser = XTermParser(debug=False)
    assert isinstance(parser._awaiting, Read1)
    (paste,) = [
        e for e in parser.feed(f"{BRACKETED_PASTE_START}a\x00b{BRACKETED_PASTE_END}") if isinstance(e, events.Paste)
    ]
    assert paste.text == "ab"


def test_a_new_parse_generator_starts_afresh_and_a_paste_s_start_is_read_whole_first():
    """What ``tui.terminal_parser`` relies on to read a paste itself: once Textual's ``parse`` has
    read a paste's start bracket it has handed nothing on and asks for the next character; and
    another ``parse`` of the same parser (its state is the generator's own) is out of the paste."""
    parser = XTermParser(debug=False)
    made: list = []
    gen = parser.parse(made.append)
    wanted = next(gen)
    for character in BRACKETED_PASTE_START:
        assert isinstance(wanted, Read1)
        wanted = gen.send(character)
    assert made == [] and wanted == Read1()
    gen.close()
    fresh = parser.parse(made.append)
    next(fresh)
    fresh.send("a")
    assert [e.key for e in made] == ["a"]  # a key, not a paste's text


def test_a_lone_escape_is_a_key_once_the_input_ends_or_the_parser_ticks():
    """The typeahead ends its input with an empty feed; the SSH driver calls ``tick()`` after a wait."""
    assert [e for e in parsed("\x1b") if isinstance(e, events.Key)] == []
    assert [e.key for e in parsed("\x1b", "") if isinstance(e, events.Key)] == ["escape"]
    parser = XTermParser(debug=False)
    assert not [e for e in parser.feed("\x1b") if isinstance(e, events.Key)]
    ticked: list[str] = []
    deadline = time.monotonic() + 60
    while not ticked and time.monotonic() < deadline:  # it waits out ESCAPE_DELAY by its own clock
        time.sleep(ESCAPE_DELAY)
        ticked = [e.key for e in parser.tick() if isinstance(e, events.Key)]
    assert ticked == ["escape"]


def test_mouse_reports_are_events_not_keys():
    """A seat's driver counts keys against its limits and passes mouse events on."""
    made = parsed("\x1b[<0;10;5M", "\x1b[<0;10;5m")
    assert [type(e) for e in made] == [events.MouseDown, events.MouseUp]
    assert (made[0].x, made[0].y) == (9, 4)
