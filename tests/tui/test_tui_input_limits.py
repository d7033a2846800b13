"""The bounds on what a terminal types (``tui.input_limits``), shared by the local client and the SSH seats.

Given what a terminal sends and a clock that stands still, exactly what goes
on to the parser, what reaches the app, and what the terminal is told.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from examples import examples
from hypothesis import example, given, settings
from hypothesis import strategies as st
from textual import events
from textual.constants import ESCAPE_DELAY

from core.language.i18n import plain
from tui.input_limits import PASTE_END, PASTE_START, BoundedInput, InputLimits
from tui.plain import refused_paste
from tui.terminal_parser import TerminalParser

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "shared"))
import hostile  # noqa: E402  (test folders are not packages)


class StandIn:
    """An app that handles what it is given at once (the pump never waits)."""

    def call_later(self, callback) -> bool:
        return False


class Terminal:
    """One terminal's input through :class:`BoundedInput`, parsed as the drivers parse it."""

    def __init__(self, **limits) -> None:
        self.limits = InputLimits(**{"rate": 1.0, "burst": 100, **limits})
        self.now = 0.0
        self.delivered: list = []
        self.refused: list[str] = []
        self.input = BoundedInput(
            StandIn(),
            self.limits,
            deliver=self.delivered.append,
            refuse=lambda why: self.refused.append(plain(why)),
            clock=lambda: self.now,
        )
        self.parser = TerminalParser(max_paste=self.limits.line_length)

    async def type(self, data: str) -> None:
        admitted = self.input.admit(data)
        parsed = [*self.parser.feed(admitted.text)] if admitted.text else []
        self.input.queue([*parsed, *admitted.kept], dropped=admitted.dropped, cut_paste=admitted.cut_paste)
        await asyncio.sleep(0)
        while self.input._pump is not None:
            await asyncio.sleep(0)

    @property
    def keys(self) -> list[str]:
        """What reached the app: a character typed, a key's name, or a paste."""
        return [
            (m.character if m.is_printable else m.key)
            if isinstance(m, events.Key)
            else f"paste:{m.text}"
            if isinstance(m, events.Paste)
            else type(m).__name__  # a focus or mouse report
            for m in self.delivered
        ]


async def test_what_goes_past_the_burst_is_dropped_and_said():
    term = Terminal()
    await term.type("x" * 150)
    assert term.keys == ["x"] * 100
    assert term.refused == ["50 characters of input dropped: more than 1 a second (bursts of 100)"]


@pytest.mark.parametrize(
    ("sent", "key"),
    [
        ("\x11", "ctrl+q"),  # as most terminals send it
        ("\x1b[113;5u", "ctrl+q"),  # kitty's keyboard protocol (Textual asks for it)
        ("\x1b[27;5;113~", "ctrl+q"),  # xterm's modifyOtherKeys
        ("\x1b[27u", "escape"),  # kitty's
        ("\x1b", "escape"),  # a lone ESC, the flood's next character right behind it
    ],
)
async def test_ctrl_q_and_esc_in_what_the_burst_drops_still_answer(sent, key):
    term = Terminal()
    await term.type("x" * 150 + sent + "y" * 10)
    # Ctrl+Q is handed on at once (it leaves), Esc in its turn (it ends what was typed).
    assert term.keys == (["ctrl+q"] + ["x"] * 100 if key == "ctrl+q" else ["x"] * 100 + ["escape"])


async def test_ctrl_q_is_handed_on_at_once_and_esc_is_never_dropped_however_full_the_backlog():
    term = Terminal(burst=10_000, backlog=5)
    term.input._pump = asyncio.get_running_loop().create_future()  # the app is busy: nothing is handed on
    term.input.queue([events.Key("x", "x") for _ in range(20)] + [events.Key("escape", "\x1b")])
    term.input.queue([events.Key("ctrl+q", "\x11")])
    assert [m.key for m in term.delivered] == ["ctrl+q"]  # before the keys waiting
    assert [m.key for m in term.input._backlog] == ["x"] * 5 + ["escape"]
    assert term.refused == ["15 keys dropped: 5 were still waiting to be handled"]
    term.input._pump = None


async def test_a_flood_of_esc_and_ctrl_q_past_the_burst_keeps_one_of_each():
    # Each kept as a key, a megabyte of ESCs past the burst was a million events (half a gigabyte,
    # seconds of the loop) that no backlog dropped: one Esc and one Ctrl+Q answer as well.
    term = Terminal()
    await term.type("x" * 100 + "\x1b" * 50_000 + "\x11" * 50_000 + "\x1b[27u" * 1000 + "y")
    assert term.keys == ["ctrl+q"] + ["x"] * 100 + ["escape"]
    # The Esc is one typed outside a paste; a paste left open in what is dropped is still skipped to its end.
    term = Terminal()
    await term.type("x" * 100 + PASTE_START + "\x1b\x1b" + PASTE_END + "\x1b" + PASTE_START + "\x1b open")
    assert term.keys == ["x"] * 100 + ["escape"]
    term.now += 1000.0
    await term.type("still the paste" + PASTE_END + "ok")
    assert term.keys == ["x"] * 100 + ["escape", "o", "k"]


async def test_escs_past_a_full_backlog_wait_as_one():
    term = Terminal(burst=10_000, backlog=5)
    term.input._pump = asyncio.get_running_loop().create_future()  # the app is busy: nothing is handed on
    term.input.queue([events.Key("x", "x") for _ in range(20)] + [events.Key("escape", "\x1b")] * 1000)
    term.input.queue([events.Key("escape", "\x1b")] * 1000)
    assert [m.key for m in term.input._backlog] == ["x"] * 5 + ["escape"]
    term.input._pump = None


async def test_a_line_holds_at_most_the_line_length_and_the_next_line_starts_afresh():
    term = Terminal(burst=10_000, line_length=10)
    await term.type("note " + "y" * 20 + "\r" + "z" * 12)
    assert term.keys == [*"note yyyyy", "enter", *"z" * 10]
    assert term.refused == ["a line longer than 10 characters: 17 characters dropped"]  # one notice a chunk
    await term.type(PASTE_START + "a paste" + PASTE_END)  # a paste that would go past the line: whole
    assert term.keys[-1] == "z" and term.refused[-1] == "a line longer than 10 characters: 7 characters dropped"


async def test_a_bracketed_paste_the_burst_cuts_is_dropped_whole_and_what_follows_is_typed():
    term = Terminal(line_length=10_000)
    await term.type(PASTE_START + "p" * 200)  # cut: the rest of the paste comes later
    assert term.keys == []
    assert term.refused[-1] == "a paste of more than 100 characters, dropped whole"
    term.now += 1000.0  # the bucket is full again
    await term.type("p" * 50 + PASTE_END + "ok")
    assert term.keys == ["o", "k"]  # the rest of the paste was skipped, not typed


async def test_a_bracketed_paste_within_what_is_dropped_is_not_taken_for_keys_but_a_ctrl_q_in_it():
    term = Terminal()
    await term.type("x" * 100 + PASTE_START + "a\x1b\r" + PASTE_END + "\x11")
    assert term.keys == ["ctrl+q"] + ["x"] * 100  # only the Ctrl+Q typed after the paste
    term = Terminal()
    await term.type("x" * 100 + PASTE_START + "\x11\x1b" + PASTE_END)
    assert term.keys == ["ctrl+q"] + ["x"] * 100  # a Ctrl+Q is never a paste's (tui.terminal_parser)


async def test_a_paste_that_starts_in_what_is_dropped_is_skipped_to_its_end_but_for_ctrl_q():
    term = Terminal()
    await term.type("x" * 100 + PASTE_START + "\x11")
    assert term.keys == ["ctrl+q"] + ["x"] * 100  # Ctrl+Q at once, before the keys waiting
    term.now += 1000.0
    await term.type("pasted\r\x11" + PASTE_END + "ok")
    assert term.keys == ["ctrl+q"] + ["x"] * 100 + ["ctrl+q", "o", "k"]


async def test_a_ctrl_q_in_the_rest_of_a_paste_the_burst_cut_still_answers():
    term = Terminal(line_length=10_000)
    await term.type(PASTE_START + "p" * 200 + "\x11")
    assert term.keys == ["ctrl+q"] and term.refused[-1] == "a paste of more than 100 characters, dropped whole"
    term.now += 1000.0
    await term.type("p\rq\x1b[113;5u" + PASTE_END + "ok")  # as kitty's protocol sends it
    assert term.keys == ["ctrl+q", "ctrl+q", "o", "k"]


async def test_a_paste_left_open_gives_way_to_ctrl_q_and_is_refused():
    """Issue 28: a paste opened and never closed took every later key as its text, Ctrl+Q included."""
    term = Terminal(burst=10_000)
    await term.type("note " + PASTE_START + "half a paste")
    await term.type("then typed keys, Enter\r")
    assert term.keys == [*"note "]  # in the paste still
    await term.type("\x11")
    assert term.keys == [*"note ", "ctrl+q", "paste:half a pastethen typed keys, Enter\r\x11"]
    assert refused_paste(term.keys[-1][6:]) == "the paste holds 2 lines: a box takes one"
    assert refused_paste("half a paste\x11") == (
        "the paste holds the control character \\x11 (character 13): nothing was put in"
    )
    await term.type("more" + PASTE_END + "ok")  # the rest of it is skipped, up to its end
    assert term.keys[-2:] == ["o", "k"]


async def test_a_paste_left_open_is_refused_as_too_long_once_past_a_line():
    term = Terminal(burst=10_000, line_length=50)
    await term.type(PASTE_START + "p" * 40)
    await term.type("q" * 40 + "\r" * 10)
    # Past a line (and its end bracket's length): refused as a line too long, the rest skipped.
    assert term.keys == [] and term.refused == ["a line longer than 50 characters: 57 characters dropped"]
    await term.type("r" * 20 + "\x11")
    assert term.keys == ["ctrl+q"]
    await term.type(PASTE_END + "ok")
    assert term.keys == ["ctrl+q", "o", "k"]


@pytest.mark.long
@settings(max_examples=int(os.environ.get("FIRETEAM_EXAMPLES", examples(150))), deadline=None, database=None)
@given(
    stream=hostile.key_streams(),
    cuts=st.lists(st.integers(0, 4000), max_size=8),
    quit_after=st.booleans(),
)
@example(stream=PASTE_START + "a paste left open", cuts=[], quit_after=True)  # the case that lost Ctrl+Q
@example(stream="\x1b[27;5;113" + PASTE_START + "\x1b[113;5", cuts=[3, 20], quit_after=True)
def test_any_keys_cut_anywhere_stay_within_the_limits_and_ctrl_q_still_answers(stream, cuts, quit_after):
    """Issue 28, the client's keys fuzzed: whatever a terminal sends, read in whatever chunks,
    nothing raises, the app is handed no more than the limits let through, a bracketed paste
    arrives whole or not at all, and a Ctrl+Q after it is always handed on."""

    async def run() -> Terminal:
        term = Terminal(burst=2000, backlog=64, line_length=200)
        at = 0
        for cut in sorted(cuts):
            await term.type(stream[at:cut])
            at = max(at, cut)
        await term.type(stream[at:])
        if quit_after:  # pressed a moment later: the drivers' tick has ended what the parser held
            await asyncio.sleep(ESCAPE_DELAY + 0.02)  # the parser's own clock, not a wait on the code
            term.input.queue(list(term.parser.tick()))
            quits.append(term.keys.count("ctrl+q"))
            await term.type("\x11")
        return term

    quits: list[int] = []

    term = asyncio.run(run())
    keys = [k for k in term.keys if not k.startswith("paste:")]  # and other events
    assert len(term.input._backlog) <= term.limits.backlog + 1  # Esc is kept past it
    assert len(keys) <= len(stream) + quit_after  # never more keys than characters
    pastes = [k for k in term.keys if k.startswith("paste:")]
    assert all(len(p) - 6 <= len(stream) for p in pastes)
    if quit_after:  # whatever came before, a paste left open included, Ctrl+Q answers
        assert term.keys.count("ctrl+q") == quits[0] + 1
