"""A bracketed paste reaches the app as it was pasted, NULs and all (``tui.terminal_parser``, issue 28).

Textual's own parser removes a paste's NULs: ``ros\\0si`` reached the command
line as ``rossi``, so a paste holding that control character was put in
where any other is refused whole.  The local client's driver, an SSH or a
browser seat's, and the keys typed while the client starts all parse with
``TerminalParser``.
"""

from __future__ import annotations

from textual import events

from tui.terminal_parser import TerminalParser
from tui.typeahead import keys

PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"


def parsed(*chunks: str) -> list:
    parser = TerminalParser()
    made = [event for chunk in chunks for event in parser.feed(chunk)]
    return made + list(parser.feed(""))


def test_a_paste_keeps_its_nuls_and_enter_after_it_is_a_key():
    made = parsed(f"{PASTE_START}negotiate breach=\x00{PASTE_END}\r")
    assert [type(e) for e in made] == [events.Paste, events.Key]
    assert made[0].text == "negotiate breach=\x00" and made[1].key == "enter"


def test_a_paste_read_a_character_at_a_time_keeps_its_nuls_too():
    made = parsed(*f"x{PASTE_START}ros\x00si\x00{PASTE_END}y{PASTE_START}ok{PASTE_END}")
    assert [e.key if isinstance(e, events.Key) else e.text for e in made] == ["x", "ros\x00si\x00", "y", "ok"]


def test_a_nul_typed_outside_a_paste_is_still_ctrl_at_and_the_rest_is_textuals():
    made = parsed(f"a\x00{PASTE_START}{PASTE_END}\x1b[A\x1b")
    assert [e.key if isinstance(e, events.Key) else repr(e.text) for e in made] == [
        "a",
        "ctrl+@",
        "''",
        "up",
        "escape",
    ]


def test_an_esc_alone_is_a_key_once_its_wait_is_over():
    parser = TerminalParser()
    assert [e.text for e in parser.feed(f"{PASTE_START}\x00{PASTE_END}\x1b")] == ["\x00"]
    parser._timeout_time = 0.0  # the wait for a sequence after the Esc is over
    assert [e.key for e in parser.tick()] == ["escape"]


def test_keys_typed_while_the_client_starts_keep_a_pastes_nuls():
    made = keys(f"note {PASTE_START}a\x00b{PASTE_END}")
    assert isinstance(made[-1], events.Paste) and made[-1].text == "a\x00b"


def _shown(made: list) -> list:
    return [e.key if isinstance(e, events.Key) else f"paste:{e.text}" for e in made]


def test_a_paste_holding_an_esc_is_never_typed_as_keys():
    """Textual read an ESC in a paste as a sequence's start and, past a few dozen characters,
    typed them as keys: this paste ran ``undo`` (issue 28).  It is one paste, refused whole."""
    made = parsed(f"{PASTE_START}\x1b{'b' * 20}\rundo\r{'c' * 10}{PASTE_END}z")
    assert _shown(made) == [f"paste:\x1b{'b' * 20}\rundo\r{'c' * 10}", "z"]


def test_ctrl_q_inside_a_paste_ends_it_refused_and_answers_however_the_terminal_sends_it():
    for quit in ("\x11", "\x1b[113;5u", "\x1b[27;5;113~"):
        # A paste never closed: what is typed after its start is its text, until Ctrl+Q.
        made = parsed(PASTE_START + "half a paste", "then ty", f"ped\r{quit}", "skipped\r\x11", PASTE_END + "ok")
        assert _shown(made) == [f"paste:half a pastethen typed\r{quit}", "ctrl+q", "ctrl+q", "o", "k"], quit


def test_a_paste_past_its_bound_is_handed_on_unfinished_and_the_rest_skipped_to_its_end():
    parser = TerminalParser(max_paste=10)
    made = [*parser.feed(PASTE_START + "p" * 10 + "\x1b[201"), *parser.feed("~x")]  # 10 characters: taken
    assert _shown(made) == ["paste:" + "p" * 10, "x"]
    made = [*parser.feed(PASTE_START + "q" * 16), *parser.feed("\r" * 20 + PASTE_END + "y")]
    # 10 and the end bracket's length may still be the paste; one more is not: handed on, the
    # rest skipped (the input's limits refuse it, as longer than a line: tui.input_limits).
    assert _shown(made) == ["paste:" + "q" * 16 + "\r", "y"]


def test_an_esc_alone_in_a_paste_is_the_key_and_the_paste_goes_on():
    parser = TerminalParser()
    assert list(parser.feed(PASTE_START + "a\x1b")) == []
    parser._timeout_time = 0.0  # the wait for a sequence after the Esc is over
    assert _shown(parser.tick()) == ["escape"]
    assert _shown(parser.tick()) == []  # once
    assert _shown(parser.feed("b" + PASTE_END)) == ["paste:a\x1bb"]
    assert _shown([*parser.feed(PASTE_START + "c\x1b"), *parser.feed("")]) == []  # ended: dropped, as Textual's
