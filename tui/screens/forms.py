"""Forms for those who would rather not type: pick an action, fill its fields.

Built from a command's ``CommandSpec.params`` alone, so every command a
ruleset adds gets a form with no code here.  The form only writes a command
line; that line runs exactly as if typed (same checks, same messages).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence
from typing import Any

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.strip import Strip
from textual.widgets import Button, Input, OptionList, Select, SelectionList
from textual.widgets.option_list import Option, OptionDoesNotExist

from core.commands import teams, usage
from core.language.i18n import CORE_DOMAIN, Domain
from core.log.state import GameState
from core.log.views import REFEREE
from core.ruleset import CommandSpec, Param
from tui.i18n import N_, _, scenario_words
from tui.plain import Plain, PlainInput, PlainLabel, plain
from tui.screens.dialogs import DIALOG_CSS, Dialog


def allowed_now(spec: CommandSpec, state: GameState, role: str, domain: str = CORE_DOMAIN) -> str:
    """Why ``spec`` cannot be given now ("" if it can, as far as the form can tell)."""
    if role != REFEREE and spec.who == REFEREE:
        return _("referee only")
    if spec.phases and state.phase not in spec.phases:
        words = Domain(domain)
        return _("in {phases}").format(phases=", ".join(words.pgettext("phase", p) for p in spec.phases))
    return ""


def param_options(
    param: Param,
    state: GameState,
    role: str,
    domain: str = CORE_DOMAIN,
    side_offered: Callable[[str], bool] | None = None,
) -> list[tuple[str, str]]:
    """(label, value) choices for a parameter, from what ``role`` can see; a coded
    choice (``A1``) labelled with what it means (``domain``: the ruleset's words); of
    the sides, only those the command takes now (``side_offered``, as Tab offers them),
    then the other words a side's place takes (``draw``)."""
    if param.kind in ("unit", "own", "enemy"):
        units = [u for u in state.units.values() if u.in_play]
        if role in state.sides:
            if param.kind == "own":
                units = [u for u in units if u.side == role]
            elif param.kind == "enemy":
                units = [u for u in units if u.side != role]
        markers = (
            [(_("hidden marker {label}").format(label=label), label) for label in state.markers]
            if param.markers
            else []
        )
        side = {sid: scenario_words(s.name) for sid, s in state.sides.items()}
        return [(f"{u.name} ({u.id}, {side.get(u.side, u.side)})", u.id) for u in units] + markers
    if param.kind == "side":
        sides = [s for s in state.sides.values() if side_offered is None or side_offered(s.id)]
        return [(f"{scenario_words(s.name)} ({s.id})", s.id) for s in sides] + [(c, c) for c in param.choices]
    if param.kind == "team":
        return [(team, team) for team in teams(state, role)]
    if param.kind == "choice":
        if not param.meanings:
            return [(c, c) for c in param.choices]
        words = Domain(domain)
        return [(f"{c} — {words.gettext(m)}", c) for c, m in zip(param.choices, param.meanings, strict=True)]
    return []


def command_text(spec: CommandSpec, values: dict[str, Any]) -> str:
    """The command line for ``values`` (param name → str, list or None)."""
    words = [spec.name]
    for p in spec.params:
        v = values.get(p.name)
        if v in (None, "", []):
            continue
        items = v if isinstance(v, list) else [v]
        for item in items:
            item = str(item)
            if p.keyword and p.kind == "choice":
                words.append(shlex.quote(item))
            elif p.keyword:
                words.append(f"{p.name}={shlex.quote(item)}")
            elif p.kind in ("text", "team"):  # the rest of the line, spaces and all
                words.append(item)
            else:
                words.append(shlex.quote(item))
    return " ".join(words)


def picker_order(
    specs: list[CommandSpec], state: GameState, role: str, phase_commands: Sequence[str] = ()
) -> list[CommandSpec]:
    """The actions in the order the picker lists them: those of the current phase
    first, its main ones (``phase_commands``: ``Phase.commands``) in the order its rules
    play them, as Tab offers them (Breaking News' activation listed reveal, intelligence,
    board… before move and fire); then the others possible now, then those not possible
    now (greyed)."""
    order = {name: i for i, name in enumerate(phase_commands)}

    def rank(spec: CommandSpec) -> tuple[int, int]:
        if allowed_now(spec, state, role):
            return 2, 0
        if spec.phases and state.phase in spec.phases:
            return 0, order.get(spec.name, len(order))
        return 1, 0

    return sorted(specs, key=rank)  # stable: the ruleset's own order within each group


def matches(spec: CommandSpec, query: str, domain: str = CORE_DOMAIN) -> bool:
    """Whether the picker's filter keeps ``spec``: every word typed is in its name, an alias or
    its help, in English or in the reader's language."""
    words = Domain(domain)
    said = (words.pgettext("command", spec.name), words.gettext(spec.help)) if spec.help else ()
    haystack = " ".join((spec.name, *spec.aliases, spec.help, *said)).lower()
    return all(word in haystack for word in query.lower().split())


def by_name_first(specs: list[CommandSpec], query: str, domain: str = CORE_DOMAIN) -> list[CommandSpec]:
    """``specs`` with those the filter names come first: the command called what is
    typed, then those whose name begins with it, then those whose help mentions it
    (``fire`` picks fire, not move, whose help speaks of a fire team).  Stable: the
    picker's own order within each group."""
    typed = query.strip().lower()
    if not typed:
        return specs

    def rank(spec: CommandSpec) -> int:
        names = names_of(spec, domain)
        if typed in names:
            return 0
        return 1 if any(n.startswith(typed) for n in names) else 2

    return sorted(specs, key=rank)


def names_of(spec: CommandSpec, domain: str = CORE_DOMAIN) -> list[str]:
    """What ``spec`` is called, lowercased: its name, its aliases, the reader's name for it."""
    return [n.lower() for n in (spec.name, *spec.aliases, Domain(domain).pgettext("command", spec.name))]


class ActionPicker(Dialog[CommandSpec | None]):
    """Choose an action; those not possible now are listed with the reason.

    Focus starts in the filter box: typing narrows the list, Enter picks the
    first action left that is possible now, ↓ moves into the list.  An action
    named exactly that is not possible now is not traded for another: Enter says
    why it cannot be given (``fire`` in set-up opened the score form, #48).
    """

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="ActionPicker")
        + "ActionPicker OptionList { height: auto; max-height: 20; } ActionPicker #picker-filter { margin: 0; }"
        + "ActionPicker #picker-why { display: none; } ActionPicker #picker-why.-said { display: block; }"
    )
    BINDINGS = [
        Binding("escape", "cancel", N_("Cancel")),
        Binding("down", "to_list", N_("To the list"), show=False),
    ]

    def __init__(
        self,
        specs: list[CommandSpec],
        state: GameState,
        role: str,
        domain: str = CORE_DOMAIN,
        phase_commands: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self.specs = picker_order(specs, state, role, phase_commands)
        self.state = state
        self.role = role
        self.domain = domain

    def compose(self) -> ComposeResult:
        with Vertical():
            yield PlainLabel(_("Choose an action (type to filter, Enter picks, Esc cancels)"), classes="title")
            yield PlainInput(placeholder=_("filter: a command's name or a word of its help"), id="picker-filter")
            yield Plain("", classes="error", id="picker-why")
            yield OptionList(*self._options(""))

    def _options(self, query: str) -> list[Option]:
        options = []
        words = Domain(self.domain)
        for spec in by_name_first(self.specs, query, self.domain):
            if not matches(spec, query, self.domain):
                continue
            why = allowed_now(spec, self.state, self.role, self.domain)
            label = Text(spec.name, style="bold", no_wrap=True, overflow="ellipsis")
            name = words.pgettext("command", spec.name)
            if name != spec.name:  # the reader's name for it too
                label.append(f" ({name})", style="bold")
            label.append(f"  {words.gettext(spec.help) if spec.help else ''}", style="dim")
            if why:
                label.append(f"  ({why})", style="italic")
            options.append(Option(label, id=spec.name, disabled=bool(why)))
        return options

    def on_mount(self) -> None:
        self.query_one("#picker-filter", Input).focus()

    def shown(self) -> list[str]:
        """The names the list shows now, in order."""
        listing = self.query_one(OptionList)
        return [str(listing.get_option_at_index(i).id) for i in range(listing.option_count)]

    @on(Input.Changed, "#picker-filter")
    def _filter(self, event: Input.Changed) -> None:
        listing = self.query_one(OptionList)
        listing.clear_options()
        listing.add_options(self._options(event.value))
        listing.highlighted = next((i for i, o in enumerate(listing.options) if not o.disabled), None)
        self.query_one("#picker-why", Plain).remove_class("-said")

    @on(Input.Submitted, "#picker-filter")
    def _enter(self, event: Input.Submitted) -> None:
        event.stop()
        listing = self.query_one(OptionList)
        typed = event.value.strip().lower()
        named = next((s for s in self.specs if typed and typed in names_of(s, self.domain)), None)
        why = allowed_now(named, self.state, self.role, self.domain) if named is not None else ""
        first = next((o for o in listing.options if not o.disabled), None)
        if why or first is None:
            self.app.bell()
            if why and named is not None:  # (a reason is only given for a command named)
                said = self.query_one("#picker-why", Plain)
                said.update(_("{command} cannot be given now: {why}").format(command=named.name, why=why))
                said.add_class("-said")
            return
        self.dismiss(next(s for s in self.specs if s.name == first.id))

    def action_to_list(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(next(s for s in self.specs if s.name == event.option.id))


class TickList(SelectionList[str]):
    """A list of things to pick, each ticked ``[x]`` or not ``[ ]``: Textual's box shows ``▐X▌``
    whether picked or not, only its colour differs, and a game of the Italian draft was
    played believing §9.3 was on (#61).  The box is as wide as Textual's, which lays the
    labels out after it."""

    def render_line(self, y: int) -> Strip:
        line = OptionList.render_line(self, y)  # the label, without Textual's box
        index = self.scroll_offset.y + y
        try:
            value = self.get_option_at_index(index).value
        except OptionDoesNotExist:
            return line
        picked = value in self.selected
        style = next(iter(line)).style or self.rich_style
        if picked:
            style += Style(bold=True)
        # The index lets a click on the box pick the option, as on Textual's own.
        return Strip([Segment("[x] " if picked else "[ ] ", style + Style(meta={"option": index})), *line])


class ActionForm(Dialog[str | None]):
    """One field per parameter; Ctrl+S or Enter on the last field gives the command line."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="ActionForm")
        + """
    ActionForm .field-label { margin: 1 0 0 0; }
    ActionForm SelectionList { height: auto; max-height: 8; }
    ActionForm #form-preview { margin: 1 0 0 0; color: $accent; }
    """
    )
    BINDINGS = [Binding("escape", "cancel", N_("Cancel")), Binding("ctrl+s", "submit", N_("Run"))]

    def __init__(
        self,
        spec: CommandSpec,
        state: GameState,
        role: str,
        domain: str = CORE_DOMAIN,
        side_offered: Callable[[str], bool] | None = None,
    ) -> None:
        super().__init__()
        self.spec = spec
        self.state = state
        self.role = role
        self.domain = domain
        self.side_offered = side_offered
        self.words = Domain(domain)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield PlainLabel(f"{self.spec.name}: {self.words.render(self.spec.help)}", classes="title")
            yield Plain(Text(usage(self.spec) + (f"   {self.spec.rule}" if self.spec.rule else ""), style="dim"))
            with VerticalScroll():
                for p in self.spec.params:
                    label = (
                        p.name.replace("_", " ")
                        + ("" if p.optional else " *")
                        + (f" — {self.words.render(p.help)}" if p.help else "")
                    )
                    yield PlainLabel(label, classes="field-label")
                    yield self._field(p)
            yield Plain("", id="form-preview")
            if getattr(self.app, "page", False):  # a browser's page: a phone has no Ctrl, its tap runs it
                yield Button(_("Run"), id="form-run", compact=True)
                yield Plain(Text(_("Tab: next field   Run: give the command   Esc: cancel"), style="dim"))
            else:
                yield Plain(Text(_("Tab: next field   Ctrl+S: run   Esc: cancel"), style="dim"))

    def _field(self, p: Param):
        options = param_options(p, self.state, self.role, self.domain, self.side_offered)
        if options and p.many:
            return TickList(*[(plain(label), value) for label, value in options], id=f"field-{p.name}")
        if options:
            return Select(
                [(plain(label), value) for label, value in options],
                allow_blank=True,
                prompt=_("(choose)") if not p.optional else _("(none)"),
                id=f"field-{p.name}",
            )
        if p.kind == "int":
            placeholder = _("a whole number from {lo} to {hi}").format(lo=p.lo, hi=p.hi)
        elif p.kind == "distance":
            placeholder = _("a distance from {lo} to {hi} {measure} (25.5, 10in)").format(
                lo=p.lo, hi=p.hi, measure=p.measure
            )
        else:
            placeholder = _("text")
        if p.default is not None:
            placeholder += " " + _("(default {value})").format(value=p.default)
        return PlainInput(placeholder=placeholder, type="integer" if p.kind == "int" else "text", id=f"field-{p.name}")

    def on_mount(self) -> None:
        self._preview()
        if self.spec.params:  # the first field has the focus, not the form's scroll box
            self.query_one(f"#field-{self.spec.params[0].name}").focus()

    def values(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for p in self.spec.params:
            w = self.query_one(f"#field-{p.name}")
            if isinstance(w, SelectionList):
                out[p.name] = list(w.selected)
            elif isinstance(w, Select):
                out[p.name] = None if w.value is Select.NULL else w.value
            elif isinstance(w, Input):
                out[p.name] = w.value.strip()
        return out

    def text(self) -> str:
        return command_text(self.spec, self.values())

    def _preview(self) -> None:
        self.query_one("#form-preview", Plain).update(Text("› " + self.text()))

    @on(Input.Changed)
    @on(Select.Changed)
    @on(SelectionList.SelectedChanged)
    def _changed(self) -> None:
        self._preview()

    @on(Input.Submitted)
    @on(Button.Pressed, "#form-run")
    def _enter(self) -> None:
        self.action_submit()

    def action_submit(self) -> None:
        self.dismiss(self.text())
