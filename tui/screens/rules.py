"""The Rules screen: every rule of the game's ruleset and what Fireteam does with it
(``core.explain.rulesmap``), by section, searchable and filtered by status."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Input

from core.explain.rulesmap import MEANINGS, STATUSES, Entry, by_section, words
from core.ruleset import Ruleset
from tui.i18n import N_, _
from tui.plain import Plain, PlainInput
from tui.screens.dialogs import PageDialog

#: How each status is drawn.
STYLES = {
    "enforced": "bold green",
    "partial": "bold yellow",  # a part is left to the referee, as his own rules are
    "ruling": "bold cyan",
    "variant": "bold magenta",
    "referee": "bold yellow",
    "not-applicable": "dim",
    "todo": "bold red",
}
#: The filters Tab steps through: every rule, then each status.
FILTERS = ("", *STATUSES)


def details(rule: Entry, ruleset: Ruleset) -> Text:
    """The rule's title, what the status names (its command, ruling or variant, by its name),
    then the note."""
    out = Text(rule.title, style="bold") if rule.title else Text()
    if rule.title and (rule.command or rule.ruling or rule.variant or rule.why):
        out.append("\n")
    named = [
        (_("command"), rule.command),
        (_("ruling"), rule.ruling),
        (_("variant"), ruleset.variant_name(rule.variant)),
    ]
    first = True
    for label, value in named:
        if value:
            if not first:
                out.append("; ")
            first = False
            out.append(f"{label} ", style="dim")
            out.append(value, style="italic")
    if rule.why:
        out.append(("  " if not first else "") + rule.why)
    return out


def rules_table(rules: list[Entry], ruleset: Ruleset, query: str = "") -> RenderableType:
    """The rules by section: id, status, what it names; matches of ``query`` highlighted."""
    if not rules:
        return Text(_("No rule matches."), style="italic")
    wide = max(len(_(w)) for w in STATUSES.values())
    parts: list[RenderableType] = []
    for section, group in by_section(rules):
        parts.append(Text(section, style="bold underline"))
        table = Table(show_header=False, box=None, padding=(0, 1), expand=True)
        table.add_column(no_wrap=True, width=max(len(r.id) for r in rules))
        table.add_column(no_wrap=True, width=wide)
        table.add_column(ratio=1, overflow="fold")
        for r in group:
            row = [Text(r.id, style="bold"), Text(_(STATUSES[r.status]), style=STYLES[r.status]), details(r, ruleset)]
            if query:
                for cell in row:
                    cell.highlight_words([query], style="bold black on yellow", case_sensitive=False)
            table.add_row(*row)
        parts.append(table)
    return Group(*parts)


#: The list is drawn again once typing in the search pauses this long, not at each key: Breaking News'
#: whole map takes about a third of a second to draw, which each key typed would otherwise wait for.
SEARCH_PAUSE_S = 0.15


class RulesScreen(PageDialog[None]):
    """Every rule of the ruleset's map with its status.  The search box has the focus:
    typing narrows the list to the rules whose id, section, status or notes hold the
    words; Tab and Shift+Tab step the status shown (all, enforced, ruling …)."""

    DEFAULT_CSS = """
    RulesScreen { align: center middle; }
    RulesScreen > Vertical {
        width: 100%; height: 100%;
        border: heavy $primary; background: $surface; padding: 0 1;
    }
    RulesScreen #rules-search { border: none; height: 1; padding: 0; margin: 0; background: $boost; }
    RulesScreen #rules-filter { margin: 0 0 1 0; }
    RulesScreen VerticalScroll { height: 1fr; }
    """
    BINDINGS = [
        Binding("escape", "close", N_("Back")),
        Binding("tab", "status(1)", N_("Next status"), priority=True),
        Binding("shift+tab", "status(-1)", N_("Previous status"), priority=True),
    ]

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__()
        self.ruleset = ruleset
        rmap = ruleset.rules_map()
        self.rules: tuple[Entry, ...] = rmap.rules if rmap else ()
        self.status = ""
        # what a search finds in a rule: its words, and its status as the reader reads it
        self.found = {r.id: f"{words(r)} {_(STATUSES[r.status])}".lower() for r in self.rules}
        self._typing: Timer | None = None  # the search typed, not drawn yet

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Plain(
                Text(
                    _(
                        "Rules of {rules}: what Fireteam does with each"
                        "  (Esc back; type to search; Tab, Shift+Tab: the status shown; ↑↓ PgUp PgDn scroll)"
                    ).format(rules=self.ruleset.title()),
                    style="bold",
                )
            )
            yield PlainInput(placeholder=_("search the rules: an id, a section, a word"), id="rules-search")
            yield Plain(id="rules-filter")
            with VerticalScroll():
                yield Plain(id="rules-list")

    def on_mount(self) -> None:
        self.query_one("#rules-search", Input).focus()
        self.show()

    def shown(self) -> list[Entry]:
        """The rules of the status chosen whose words hold the search's."""
        query = self.query_one("#rules-search", Input).value.strip().lower()
        return [
            r
            for r in self.rules
            if (not self.status or r.status == self.status) and (not query or query in self.found[r.id])
        ]

    def show(self) -> None:
        if self._typing is not None:
            self._typing.stop()
            self._typing = None
        query = self.query_one("#rules-search", Input).value.strip()
        shown = self.shown()
        self.query_one("#rules-filter", Plain).update(self._filter_line(len(shown)))
        if not self.rules:
            body: RenderableType = Text(_("{ruleset} has no rules map yet.").format(ruleset=self.ruleset.shown_name()))
        else:
            body = rules_table(shown, self.ruleset, query)
        self.query_one("#rules-list", Plain).update(body)

    def _filter_line(self, count: int) -> Text:
        counts = {s: sum(r.status == s for r in self.rules) for s in STATUSES}
        out = Text()
        for status in FILTERS:
            if status and not counts[status]:
                continue
            label = f"{_(STATUSES[status]) if status else _('all')} {counts[status] if status else len(self.rules)}"
            style = "reverse bold" if status == self.status else (STYLES[status] if status else "bold")
            out.append(f" {label} ", style=style)
            out.append(" ")
        out.append("  " + _("{count} shown").format(count=count), style="dim")
        if self.status:
            out.append("\n" + _(MEANINGS[self.status]), style="italic")
        return out

    @on(Input.Changed, "#rules-search")
    def _search(self, event: Input.Changed) -> None:
        if self._typing is not None:
            self._typing.stop()
        self._typing = self.set_timer(SEARCH_PAUSE_S, self.show)

    def action_status(self, step: int) -> None:
        present = [s for s in FILTERS if not s or any(r.status == s for r in self.rules)]
        i = present.index(self.status) if self.status in present else 0
        self.status = present[(i + step) % len(present)]
        self.show()
