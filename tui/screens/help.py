"""The help screen: every key (read from the bindings themselves) and every command, searchable."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import partial

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Input

from core.commands import local_name, localize_line, spec_domain, usage
from core.language.i18n import CORE_DOMAIN, Domain, translations
from core.language.reader import LANGUAGES, SOURCE
from core.ruleset import CommandSpec, Ruleset
from tui.badges import legend
from tui.i18n import N_, _
from tui.keymap import key_label
from tui.plain import Plain, PlainInput
from tui.screens.dialogs import PageDialog

#: How a search's matches look.
MATCH = "bold black on yellow"


def marked(text: str | Text, query: str, style: str = "") -> Text:
    """``text`` (shown as text, never markup) with every match of ``query`` highlighted."""
    out = Text(text, style=style) if isinstance(text, str) else text
    if query:
        out.highlight_regex(re.compile(re.escape(query), re.IGNORECASE), style=MATCH)
    return out


def _table(first: int | None = None) -> Table:
    # Two columns, the second wrapping to whatever width the screen gives it;
    # the first as wide in every entry, so that entries line up.
    table = Table(show_header=False, box=None, padding=(0, 1), expand=True)
    table.add_column(no_wrap=True, width=first)
    table.add_column(ratio=1, overflow="fold")
    return table


def key_table(title: str, bindings: Sequence[BindingType], query: str = "", *, first: int | None = None) -> Table:
    """The keys of one part of the screen; ``title`` and the descriptions are English, shown translated."""
    table = _table(first)
    table.add_row(marked(_(title), query, "bold underline"), Text())
    for b in bindings:
        if isinstance(b, Binding) and b.description:
            table.add_row(marked(key_label(b.key), query, "bold cyan"), marked(_(b.description), query))
    return table


def command_names(spec: CommandSpec, domain: str = CORE_DOMAIN) -> list[str]:
    """The command's name in every language, English (the canonical one) first, each once."""
    names = [spec.name]
    for code in LANGUAGES:
        if code != SOURCE:
            name = translations(code, domain).pgettext("command", spec.name)
            if name not in names:
                names.append(name)
    return names


def command_text(spec: CommandSpec, domain: str = CORE_DOMAIN) -> Text:
    """A command's help in the reader's language (``domain``: the ruleset's)."""
    words = Domain(domain)
    said = words.render  # a help's words ("" stays "": gettext would give the catalogue's header)

    own = spec_domain(spec, domain)  # the catalogue naming its arguments and choices
    text = Text(said(spec.help))
    extra = []
    if spec.rule:
        extra.append(spec.rule)
    if spec.who == "referee":
        extra.append(_("referee only"))
    if spec.phases:
        extra.append(_("phases: {phases}").format(phases=", ".join(words.pgettext("phase", p) for p in spec.phases)))
    if spec.aliases:
        extra.append(_("also: {names}").format(names=", ".join(local_name("command", a, own) for a in spec.aliases)))
    if extra:
        text.append("  (" + "; ".join(extra) + ")", style="dim")
    text.append("\n" + usage(spec), style="bold")
    for p in spec.params:
        if p.help or p.choices or p.kind in ("int", "distance"):
            text.append(
                f"\n  {local_name('option', p.name, own)}: {said(p.help)}"
                + (
                    # a text's choices (a scenario's name) are taken as typed, not as a choice's word
                    f" [{'|'.join(c if p.kind == 'text' else local_name('choice', c, own) for c in p.choices)}]"
                    if p.choices and len(p.choices) <= 12
                    else ""
                )
                + (" " + _("({lo} to {hi})").format(lo=p.lo, hi=p.hi) if p.kind == "int" else "")
                + (
                    " " + _("({lo} to {hi} {measure}: 25.5, 10in)").format(lo=p.lo, hi=p.hi, measure=p.measure)
                    if p.kind == "distance"
                    else ""
                )
                + (" " + _("(or a hidden marker's label)") if p.markers else ""),
                style="dim",
            )
            for code, meaning in zip(p.choices, p.meanings, strict=False):  # a code, and what it means
                text.append(f"\n    {local_name('choice', code, own)}  {said(meaning)}", style="dim")
    if spec.dice:
        text.append(
            "\n  " + _("dice, in order: {dice}").format(dice=_("; then ").join(said(d) for d in spec.dice)),
            style="yellow",
        )
    for example in spec.examples:  # in the names the reader types (spara … distanza=)
        text.append("\n  " + _("e.g. {example}").format(example=localize_line(example, [spec], domain)), style="italic")
    return text


def command_table(spec: CommandSpec, query: str = "", *, first: int | None = None, domain: str = CORE_DOMAIN) -> Table:
    table = _table(first)
    names = command_names(spec, domain)
    name = Text(names[0], style="bold green")
    for other in names[1:]:
        name.append("\n" + other, style="green")
    table.add_row(marked(name, query), marked(command_text(spec, domain), query))
    return table


def badge_table(query: str = "") -> Table:
    table = _table()
    for badge, meaning in legend():
        table.add_row(marked(badge, query, "bold"), marked(meaning, query))
    return table


LANGUAGE = N_(
    "Commands are one line: a verb, then its arguments.  Verbs, unit names, sides and "
    "choices may be shortened to any unambiguous start (fi ro ah).  name=value sets an "
    "argument by name; dice=6,4,3 gives the faces of real dice.  Quotes group words.\n"
    "Log filter: unit:NAME side:ID kind:roll|move|status|dp|out|cmd|phase|note plus words."
)


class HelpEntry(Plain):
    """One searchable piece of the help: drawn again with a search's matches highlighted."""

    DEFAULT_CSS = "HelpEntry.-current { background: $boost; }"

    def __init__(self, text: str, draw: Callable[[str], RenderableType], names: Iterable[str] = ()) -> None:
        super().__init__(draw(""))
        self.text = text.lower()
        self.draw = draw
        self.names = frozenset(name.casefold() for name in names)  # a command's names, in every language shown

    def search(self, query: str) -> bool:
        found = bool(query) and query.lower() in self.text
        self.update(self.draw(query if found else ""))
        return found


class HelpScreen(PageDialog[None]):
    """Every key, command and badge, to the screen's width, with a search box.

    The box has the focus from the start, so what is typed is searched at
    once; the arrows and pages scroll the help from it.  Typing highlights
    every match; Enter (or n, in the help itself) goes to the next entry that
    has one, N to the previous; / comes back to the box.
    """

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical {
        width: 100%; height: 100%;
        border: heavy $primary; background: $surface; padding: 0 1;
    }
    HelpScreen #help-search { border: none; height: 1; padding: 0; margin: 0 0 1 0; background: $boost; }
    HelpScreen VerticalScroll { height: 1fr; }
    HelpScreen .heading { text-style: bold reverse; margin: 1 0 0 0; }
    """
    BINDINGS = [
        Binding("escape,f1", "close", N_("Close help")),
        Binding("q", "close", N_("Close help"), show=False),
        Binding("f2,ctrl+r", "rules", N_("Rules: what Fireteam does with each rule"), show=False, id="rules"),
        Binding("slash", "search", N_("Search"), show=False),
        Binding("n", "next_match(1)", N_("Next match"), show=False),
        Binding("N", "next_match(-1)", N_("Previous match"), show=False),
    ]

    def __init__(
        self,
        keys: Sequence[tuple[str, Sequence[BindingType]]],
        specs: list[CommandSpec],
        ruleset: Ruleset,
        query: str = "",
    ) -> None:
        """``query``: searched from the start (``help fire`` typed on the command line), the
        command it names, if one does, shown first."""
        super().__init__()
        self.keys = keys
        self.specs = specs
        self.ruleset = ruleset
        self.query_given = query
        self.matches: list[HelpEntry] = []
        self.current = -1

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(
                Text(
                    _(
                        "Fireteam help — {rules}"
                        "  (Esc closes; ↑↓ PgUp PgDn scroll; / search, Enter or n next match, N previous;"
                        " F2 or Ctrl+R the rules)"
                    ).format(rules=self.ruleset.title()),
                    style="bold",
                )
            )
            yield PlainInput(placeholder=_("search the help: type a word"), id="help-search")
            with VerticalScroll():
                yield Plain(" " + _("Keys") + " ", classes="heading")
                first = max(
                    (len(key_label(b.key)) for _t, bs in self.keys for b in bs if isinstance(b, Binding)), default=8
                )
                for title, bindings in self.keys:
                    words = " ".join(
                        f"{key_label(b.key)} {_(b.description)}"
                        for b in bindings
                        if isinstance(b, Binding) and b.description
                    )
                    yield HelpEntry(f"{_(title)} {words}", partial(key_table, title, bindings, first=first))
                yield Plain(" " + _("Commands") + " ", classes="heading")
                language = _(LANGUAGE)
                yield HelpEntry(language, partial(marked, language))
                domain = self.ruleset.domain
                first = max((len(name) for spec in self.specs for name in command_names(spec, domain)), default=8)
                for spec in self.specs:
                    names = command_names(spec, domain)
                    yield HelpEntry(
                        f"{' '.join(names)} {command_text(spec, domain).plain}",
                        partial(command_table, spec, first=first, domain=domain),
                        names,
                    )
                yield Plain(" " + _("Status badges") + " ", classes="heading")
                yield HelpEntry(" ".join(f"{b} {m}" for b, m in legend()), badge_table)

    def on_mount(self) -> None:
        search = self.query_one("#help-search", Input)
        search.focus()
        if self.query_given:
            search.value = self.query_given  # searched as if typed (``_search``)

    @on(Input.Changed, "#help-search")
    def _search(self, event: Input.Changed) -> None:
        query = event.value.strip()
        self.matches = [entry for entry in self.query(HelpEntry) if entry.search(query)]
        # The command the query names is shown first, not the keys and commands before it that mention it.
        named = [i for i, entry in enumerate(self.matches) if query.casefold() in entry.names]
        self.current = named[0] - 1 if named else -1
        self.action_next_match(1)

    @on(Input.Submitted, "#help-search")
    def _enter(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_next_match(1)

    def action_next_match(self, direction: int) -> None:
        for entry in self.query(HelpEntry):
            entry.remove_class("-current")
        if not self.matches:
            if self.query_one("#help-search", Input).value.strip():
                self.app.bell()
            return
        self.current = (self.current + direction) % len(self.matches)
        entry = self.matches[self.current]
        entry.add_class("-current")
        self.query_one(VerticalScroll).scroll_to_widget(entry, animate=False, top=True)

    def action_search(self) -> None:
        self.query_one("#help-search", Input).focus()

    def action_rules(self) -> None:
        from tui.screens.rules import RulesScreen  # imported when first shown

        self.app.push_screen(RulesScreen(self.ruleset))
