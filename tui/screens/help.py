"""The help screen: every key (read from the bindings themselves) and every command."""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen

from core.commands import usage
from core.ruleset import CommandSpec, Ruleset
from tui.badges import legend
from tui.plain import Plain

KEY_NAMES = {
    "slash": "/",
    "question_mark": "?",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
    "plus": "+",
    "minus": "-",
    "space": "Space",
    "colon": ":",
    "less_than_sign": "<",
    "greater_than_sign": ">",
    "left_curly_bracket": "{",
    "right_curly_bracket": "}",
    "equals_sign": "=",
    "escape": "Esc",
    "enter": "Enter",
    "pageup": "PgUp",
    "pagedown": "PgDn",
}


def key_label(keys: str) -> str:
    out = []
    for key in keys.split(","):
        parts = key.split("+")
        parts[-1] = KEY_NAMES.get(parts[-1], parts[-1])
        out.append("+".join(p.capitalize() if len(p) > 1 and p.islower() else p for p in parts))
    return " / ".join(out)


def key_table(groups: Iterable[tuple[str, list[BindingType]]]) -> Table:
    table = Table(show_header=False, box=None, padding=(0, 1), expand=True)
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column(ratio=1)
    for title, bindings in groups:
        table.add_row(Text(title, style="bold underline"), Text())
        for b in bindings:
            if isinstance(b, Binding) and b.description:
                table.add_row(Text(key_label(b.key)), Text(b.description))
    return table


def command_table(specs: list[CommandSpec], ruleset: Ruleset) -> Table:
    table = Table(show_header=False, box=None, padding=(0, 1), expand=True)
    table.add_column(style="bold green", no_wrap=True)
    table.add_column(ratio=1)
    for spec in specs:
        text = Text(spec.help)
        extra = []
        if spec.rule:
            extra.append(spec.rule)
        if spec.who == "referee":
            extra.append("referee only")
        if spec.phases:
            extra.append("phases: " + ", ".join(spec.phases))
        if spec.aliases:
            extra.append("also: " + ", ".join(spec.aliases))
        if extra:
            text.append("  (" + "; ".join(extra) + ")", style="dim")
        text.append("\n" + usage(spec), style="bold")
        for p in spec.params:
            if p.help or p.choices or p.kind == "int":
                text.append(
                    f"\n  {p.name}: {p.help}"
                    + (f" [{'|'.join(p.choices)}]" if p.choices and len(p.choices) <= 12 else "")
                    + (f" ({p.lo} to {p.hi})" if p.kind == "int" else ""),
                    style="dim",
                )
        if spec.dice:
            text.append("\n  dice, in order: " + "; then ".join(spec.dice), style="yellow")
        for example in spec.examples:
            text.append(f"\n  e.g. {example}", style="italic")
        table.add_row(Text(spec.name), text)
    return table


def badge_table() -> Table:
    table = Table(show_header=False, box=None, padding=(0, 1))
    for badge, meaning in legend():
        table.add_row(badge, Text(meaning))
    return table


LANGUAGE = """\
Commands are one line: a verb, then its arguments.  Verbs, unit names, sides and
choices may be shortened to any unambiguous start (fi ro ah).  name=value sets an
argument by name; dice=6,4,3 gives the faces of real dice.  Quotes group words.
Log filter: unit:NAME side:ID kind:roll|move|status|dp|out|cmd|phase|note plus words."""


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 100%; max-width: 120; height: 100%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    HelpScreen .heading { text-style: bold reverse; margin: 1 0 0 0; }
    """
    BINDINGS = [Binding("escape,q,f1", "close", "Close help")]

    def __init__(self, keys: list[tuple[str, list[BindingType]]], specs: list[CommandSpec], ruleset: Ruleset) -> None:
        super().__init__()
        self.keys = keys
        self.specs = specs
        self.ruleset = ruleset

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Plain(
                Text(
                    f"Fireteam help — {self.ruleset.name} {self.ruleset.version}  (Esc closes, ↑↓ PgUp PgDn scroll)",
                    style="bold",
                )
            )
            yield Plain(" Keys ", classes="heading")
            yield Plain(key_table(self.keys))
            yield Plain(" Commands ", classes="heading")
            yield Plain(LANGUAGE)
            yield Plain(command_table(self.specs, self.ruleset))
            yield Plain(" Status badges ", classes="heading")
            yield Plain(badge_table())

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)
