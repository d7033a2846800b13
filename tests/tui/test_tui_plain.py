"""The client keeps to ``tui/plain.py``'s rules: what comes from outside is shown as text.

The rules are checked on the source (a new widget that would read markup fails
here before anyone types a bracket), and the helpers on hostile strings.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from rich.text import Text
from textual import events
from textual.app import App
from waiting import settled

from tui.plain import Plain, PlainInput, PlainLabel, plain, visible, visible_text
from tui.visible import IN_A_LINE

TUI = Path(__file__).resolve().parents[2] / "tui"
#: Widgets that read a bare string as markup: the client uses Plain and PlainLabel instead.
MARKUP_WIDGETS = {"Static", "Label", "Input"}
HOSTILE = ["[b]bold", "[a=b]", "[/]", "[@click=app.quit]x", "a\x1b]0;title\x07b", "c\x1b[2Jd", "e\u2028f", "g\u202eh"]


def _sources() -> list[tuple[Path, ast.Module]]:
    return [(p, ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(TUI.rglob("*.py")) if p.name != "plain.py"]


def _name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


@pytest.mark.long
def test_no_widget_of_the_client_reads_markup():
    found = []
    for path, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) in MARKUP_WIDGETS:
                found.append(f"{path.name}:{node.lineno}: {_name(node.func)}(…): use Plain, PlainLabel, PlainInput")
            if isinstance(node, ast.ClassDef) and any(_name(b) in MARKUP_WIDGETS for b in node.bases):
                found.append(f"{path.name}:{node.lineno}: class {node.name} derives from a markup widget")
            if isinstance(node, ast.Call) and _name(node.func) == "notify":
                markup = [k for k in node.keywords if k.arg == "markup"]
                if not markup or not (isinstance(markup[0].value, ast.Constant) and markup[0].value.value is False):
                    found.append(f"{path.name}:{node.lineno}: notify(…) without markup=False")
            if isinstance(node, ast.Attribute) and node.attr == "from_markup":
                found.append(f"{path.name}:{node.lineno}: from_markup")
    assert found == []


@pytest.mark.parametrize("text", HOSTILE)
def test_visible_shows_every_character_and_hides_none(text):
    shown = visible(text)
    assert all(c.isprintable() for c in shown)
    assert shown.encode().decode("unicode_escape") == text  # every character still there, as its escape
    assert plain(text).plain == shown


def test_what_is_printable_is_shown_without_the_pattern_and_as_it_is():
    # visible() returns a printable text untouched, not asking its pattern: so every character
    # the pattern escapes must be one str.isprintable refuses.
    escaped = [c for c in map(chr, range(0x3000)) if re.fullmatch(IN_A_LINE, c)]
    assert len(escaped) == 32 + 33 + 2 + 5 + 4  # C0, DEL and C1, the separators, the bidi controls
    assert not any(c.isprintable() for c in escaped)
    # Not printable, yet no control: a no-break space and a zero-width joiner are shown as they are.
    assert visible("a\u00a0b\u200dc") == "a\u00a0b\u200dc"
    assert visible("one\ntwo", lines=True) == "one\ntwo"
    assert visible("one\ntwo") == "one\\ntwo"


def test_visible_text_keeps_the_styles():
    text = Text("roll ")
    text.append("for\x1b[31m", style="bold")
    text.append(" done", style="green")
    shown = visible_text(text, lines=False)
    assert shown.plain == "roll for\\x1b[31m done"
    assert [(s.start, s.end, s.style) for s in shown.spans] == [(5, 16, "bold"), (16, 21, "green")]
    assert visible_text(Text("as it was")).plain == "as it was"


async def test_plain_widgets_show_markup_as_it_was_written():
    class Show(App):
        def compose(self):
            yield Plain("[b]x[/b] [a=b]", id="s")
            yield PlainLabel("[@click=app.quit]y", id="l")

    app = Show()
    async with app.run_test() as pilot:
        assert str(app.query_one("#s").render()) == "[b]x[/b] [a=b]"
        assert str(app.query_one("#l").render()) == "[@click=app.quit]y"
        app.query_one("#s", Plain).update("[/] z\x1b[2J")
        await settled(pilot)
        assert str(app.query_one("#s").render()) == "[/] z\\x1b[2J"


@pytest.mark.parametrize(
    ("pasted", "held"),
    [
        ("[b]as typed[/b]", "[b]as typed[/b]"),
        ("a copied line\r\n", "a copied line"),  # the line break that ends it is left out
        ("with\ta tab", "with a tab"),
    ],
)
async def test_a_paste_of_one_line_goes_in_as_it_is(pasted, held):
    class Ask(App):
        def compose(self):
            yield PlainInput(id="box")

    app = Ask()
    async with app.run_test() as pilot:
        box = app.query_one("#box", PlainInput)
        box.focus()
        box.post_message(events.Paste(pasted))
        await settled(pilot)
        assert box.value == held


@pytest.mark.parametrize(
    ("pasted", "why"),
    [
        ("note a\x1b]0;x\x07b", "the paste holds the control character \\x1b (character 7): nothing was put in"),
        ("form\x0cfeed", "the paste holds the control character \\x0c (character 5): nothing was put in"),
        ("sep\u2028arated", "the paste holds the control character \\u2028 (character 4): nothing was put in"),
        ("note one\rmark ahmed pinned", "the paste holds 2 lines: a box takes one"),
        ("a\nb\r\nc\n", "the paste holds 3 lines: a box takes one"),
    ],
)
async def test_a_paste_holding_a_control_character_or_several_lines_is_refused_whole_saying_why(pasted, why):
    class Ask(App):
        def compose(self):
            yield PlainInput(id="box", value="kept")

    app = Ask()
    async with app.run_test() as pilot:
        box = app.query_one("#box", PlainInput)
        box.focus()
        box.post_message(events.Paste(pasted))
        await settled(pilot)
        assert box.value == "kept"  # nothing of it went in
        assert [n.message for n in app._notifications] == [why]
