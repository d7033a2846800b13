"""The panel of an answer that explains (``? COMMAND``, ``why``: ``tui.screens.asking``), whole and
to the screen's size (issue #91).

A notice showed it: at 80x24, ``? fire …``'s eight rules ran past the screen's last row, its chance
cut off, and neither Esc nor PageUp reached it.  The panel holds the lines in the order the line
client says them (the roll and its chance first), wrapped to the screen's width and scrolled by
the arrows and PageUp/PageDown; Esc (or Enter, or q) closes it and the command line has the focus
again.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll

from tui.i18n import N_, _
from tui.plain import Plain, PlainLabel, visible
from tui.screens.dialogs import PageDialog


class AnswerScreen(PageDialog[None]):
    """An answer's lines under its title, scrolled when they do not fit (see the module's doc)."""

    DEFAULT_CSS = """
    AnswerScreen { align: center middle; }
    AnswerScreen > Vertical {
        width: 100; max-width: 100%; height: auto; max-height: 100%;
        border: heavy $primary; background: $surface; padding: 0 1;
    }
    AnswerScreen .title { text-style: bold; width: 100%; }
    AnswerScreen .keys { color: $text-muted; width: 100%; }
    AnswerScreen VerticalScroll { height: auto; }
    AnswerScreen .line { width: 100%; margin: 0 0 1 0; }
    """
    BINDINGS = [
        Binding("escape,enter,q", "close", N_("Close")),
        Binding("home", "scroll('scroll_home')", show=False),
        Binding("end", "scroll('scroll_end')", show=False),
    ]

    def __init__(self, title: str, lines: Sequence[str]) -> None:
        super().__init__()
        self.title_said = title
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield PlainLabel(self.title_said, classes="title", id="answer-title")
            yield Plain(Text(_("Esc closes; ↑↓ PgUp PgDn scroll")), classes="keys")
            with VerticalScroll(id="answer-lines"):
                for line in self.lines:
                    yield Plain(Text(visible(line)), classes="line")

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """Bound the lines' height by the room the title and the keys leave on the screen.

        The CSS's ``max-height: 1fr`` gave the lines the panel's whole height in an auto-height
        panel: at 80x24 an answer a row or two too long was cut at the screen's edge and did not
        scroll (``? fire rossi ahmed range=20 aimed`` lost its last rule).
        """
        box = self.query_one(Vertical)
        head = sum(self.query_one(name).outer_size.height for name in ("#answer-title", ".keys"))
        room = self.size.height - box.styles.gutter.height - head
        self.query_one(VerticalScroll).styles.max_height = max(1, room)
