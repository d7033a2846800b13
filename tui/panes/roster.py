"""The roster pane: sides, their teams and figures, with class, weapons and status badges.

A tree (side → team → figure) over the role's view of the state, then the hidden
enemies' markers the role sees on the table, by label (nothing else is known of
them), drawn by :class:`tui.panes.rosterview.RosterView`.  ``/`` opens a
filter that narrows the tree to matching figures (name, id, team, class,
weapon or status) and puts the cursor on the first; Enter on a figure sends
its id to the command line.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input

from core.language.i18n import CORE_DOMAIN, Domain, naming
from core.log.narrate import sides_of
from core.log.state import GameState, Unit, team_morale
from core.log.views import sides_for
from core.ruleset import Ruleset
from tui.badges import badges, in_order
from tui.i18n import N_, _, book, number, scenario_words, shown, side_name
from tui.keymap import keys_of
from tui.panes.rosterview import Item, RosterView
from tui.plain import Plain, PlainInput, plain, visible_text


def unit_matches(unit: Unit, ruleset: Ruleset, text: str) -> bool:
    t = text.lower()
    fields = [
        unit.id,
        unit.name,
        scenario_words(unit.name),
        unit.team,
        scenario_words(unit.team),
        unit.cls,
        ruleset.class_name(unit.cls),
        unit.kind,
        *unit.weapons,
    ]
    fields += [*unit.status, *unit.roles]
    words = book(ruleset)  # the reader's words for them too
    fields += [words.term(w) for w in (*unit.weapons, *unit.status, *unit.roles)]
    return any(t in f.lower() for f in fields if f)


def unit_label(unit: Unit, domain: str = "", named: Callable[[str], str] | None = None, cls: str = "") -> Text:
    """Name, ★ for a leader, status badges, then class and weapons: what a narrow
    roster cuts at its edge is the kit, which the details line repeats.  ``domain``:
    the ruleset's, for its words (weapons, statuses) in the reader's language;
    ``named``: its words for a badge that holds a piece's id (``tui.badges.word``);
    ``cls``: the class as shown, where a scenario names it (Linea di Tiro's profiles)."""
    words = Domain(domain or CORE_DOMAIN)
    text = Text()
    name = scenario_words(unit.name)  # a built-in piece named in words, in the reader's language
    text.append(name, style="strike dim" if unit.out else "bold" if "commander" in unit.roles else "")
    if "leader" in unit.roles or "commander" in unit.roles:
        text.append(" ★", style="yellow")
    text.append_text(badges(unit.status, unit.out, domain, named))
    # a book's class word in the reader's language (Bassa Intensità's veteran, A.3 BI-R010); a code (R3) as written
    shown_cls = cls or (unit.cls and words.gettext(unit.cls))
    kit = " ".join(x for x in (shown_cls, *(words.term(w) for w in unit.weapons)) if x)
    if kit:
        text.append(f" {kit}", style="dim")
    elif unit.kind != "man":
        text.append(f" {words.term(unit.kind)}", style="dim italic")
    if unit.marker:
        text.append(" " + _("marker {label}").format(label=unit.marker), style="dim")
    return visible_text(text, lines=False)


def markers_label(markers: tuple[str, ...]) -> Text:
    text = Text(_("Hidden markers"), style="bold underline")
    text.append(" " + _("{count} on the table").format(count=len(markers)), style="dim")
    return visible_text(text, lines=False)


def marker_details(label: str) -> Text:
    return Text(
        _(
            "marker {label}: a hidden enemy on the table. Name it to sight him (react-spot UNIT {label} range=…) "
            "or to fire speculatively (speculative UNIT {label} range=…)."
        ).format(label=label)
    )


def unit_details(unit: Unit, ruleset: Ruleset, state: GameState) -> Text:
    words = book(ruleset)
    text = Text()
    text.append(scenario_words(unit.name), style="bold")
    text.append(f" ({unit.id})", style="dim")
    named = ruleset.piece_class(state, unit.cls) if unit.cls else ""  # a scenario's class by its name
    cls = words.gettext(named) if named else named if unit.cls else words.term(unit.kind)
    if unit.cls and cls != unit.cls:
        cls = f"{cls} ({unit.cls})"
    where = side_name(state, unit.side)
    text.append(f" · {cls} · {where}" + (f", {scenario_words(unit.team)}" if unit.team else ""))
    if unit.weapons:
        text.append(" · " + ", ".join(words.term(w) for w in unit.weapons))
    if unit.roles:
        text.append(" · " + ", ".join(words.term(r) for r in unit.roles), style="italic")
    if unit.leadership:
        text.append(" · " + _("leadership {value}").format(value=unit.leadership))
    if unit.moved_cm:
        text.append(" · " + _("moved {distance} cm this turn").format(distance=number(unit.moved_cm)))
    if unit.status:
        text.append(" · " + ", ".join(words.term(st) for st in in_order(unit.status)), style="bold")
    if unit.marker:
        text.append(" · " + _("under marker {label}").format(label=unit.marker))
    if unit.spotted_by:
        spotters = ", ".join(side_name(state, s) for s in unit.spotted_by)  # sides, by name
        text.append(" " + _("(spotted by {units})").format(units=spotters))
    if unit.out:
        cause = shown(unit.out, ruleset, state)
        text.append(" · " + _("out of action: {cause}").format(cause=cause), style="bold red")
    return text


#: The statuses a team's line counts, each with its short word.
TEAM_COUNTS = (
    # TRANSLATORS: short for "suppressed", counted on a team's line of the roster ("2 sup")
    ("suppressed", N_("sup")),
    # TRANSLATORS: short for "wounded" ("1 wnd")
    ("wounded", N_("wnd")),
    # TRANSLATORS: short for "retreating" ("1 retr")
    ("retreating", N_("retr")),
)


def team_label(name: str, units: list[Unit], morale: object, domain: str = "") -> Text:
    in_play = sum(1 for u in units if u.in_play)
    text = Text(scenario_words(name) if name else _("(no team)"), style="bold")
    text.append(f" {in_play}/{len(units)}", style="dim")
    losses = len(units) - in_play
    if losses:
        text.append(" " + _("losses {count}").format(count=losses), style="red")
    for status, label in TEAM_COUNTS:
        n = sum(1 for u in units if u.in_play and status in u.status)
        if n:
            text.append(f" {n} {_(label)}", style="yellow")
    if morale not in (None, ""):
        shown = Domain(domain or CORE_DOMAIN).term(morale) if isinstance(morale, str) else morale
        text.append(" " + _("morale {state}").format(state=shown), style="magenta")
    return visible_text(text, lines=False)


class RosterPane(Vertical):
    BINDINGS = [
        # As the log's filter; no printable key: one typed here goes to the command line (#61).
        Binding("ctrl+k", "filter", "Filter", show=True),
        Binding("escape", "clear_filter", "Clear filter", show=False),
    ]

    DEFAULT_CSS = """
    RosterPane #roster-filter { display: none; height: 1; border: none; padding: 0 1; }
    RosterPane.-filtering #roster-filter { display: block; }
    RosterPane #unit-details { display: none; height: 3; color: $text-muted; }
    RosterPane.-detailed:focus-within #unit-details { display: block; }
    Screen.-short RosterPane #unit-details, Screen.-tiny RosterPane #unit-details { height: 2; }
    """
    # The details line keeps its height whatever it shows: were it to grow as the
    # cursor moves onto a figure, the roster's view would shrink under the cursor
    # it had just scrolled to, and the highlighted row would leave the screen.  It
    # shows while the roster has the focus and its cursor is on a row: else its
    # rows are the tree's (at 80x24 the other side's figures were
    # below the view over blank rows, #48).

    class UnitChosen(Message):
        def __init__(self, unit_id: str) -> None:
            super().__init__()
            self.unit_id = unit_id

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._ruleset: Ruleset | None = None
        self._state: GameState | None = None
        self._role = ""
        self._shape: tuple[object, ...] = ()
        self._filter = ""
        self._details = Text()  # what the details line shows

    def compose(self) -> ComposeResult:
        # The filter box is hidden until used: mounted after the first frame
        # (``add_hidden``), or when first needed, whichever comes first.
        yield RosterView(id="roster-view")
        yield Plain("", id="unit-details")

    @property
    def view(self) -> RosterView:
        return self.query_one("#roster-view", RosterView)

    def add_hidden(self) -> None:
        self._filter_box()

    def _filter_box(self) -> Input:
        found = self.query_children("#roster-filter")
        if found:
            return found.first(Input)
        box = PlainInput(placeholder=self._filter_placeholder(), id="roster-filter")
        self.mount(box, before=self.view)
        return box

    @staticmethod
    def _filter_placeholder() -> str:
        return _("filter: name, team, class, weapon, status")

    # ------------------------------------------------------------------ drawing

    def show(self, ruleset: Ruleset, state: GameState, role: str = "") -> None:
        """Show ``state`` as ``role`` sees it: his own side first (``core.log.views.sides_for``)."""
        self._ruleset, self._state, self._role = ruleset, state, role
        self._draw(state)

    def _draw(self, state: GameState, first_match: bool = False) -> None:
        """Relabel the rows if they are the same items, else make them again (then, if
        ``first_match``, with the cursor on the first figure or marker)."""
        with naming(sides_of(state)):  # a user's scenario file's own words for the reader's language
            self._draw_named(state, first_match)

    def _draw_named(self, state: GameState, first_match: bool) -> None:
        groups = self._groups(state)
        shape: tuple[object, ...] = tuple(
            (side, tuple((team, tuple(u.id for u in us)) for team, us in teams)) for side, teams in groups
        )
        shape += (("markers", self._markers(state)),)
        if shape == self._shape and not first_match:
            self._relabel(state, groups)
        else:
            self._rebuild(state, groups, first_match)
            self._shape = shape
        self._show_details()

    def retranslate(self) -> None:
        """The reader's language changed: every label is made again at the next ``show``."""
        self._filter_box().placeholder = self._filter_placeholder()
        self._shape = ()

    @property
    def _domain(self) -> str:
        return self._ruleset.domain if self._ruleset is not None else ""

    def _groups(self, state: GameState) -> list[tuple[str, list[tuple[str, list[Unit]]]]]:
        out = []
        for side in sides_for(state, self._role):
            teams: dict[str, list[Unit]] = {}
            for u in state.units_of(side):
                if self._filter and self._ruleset and not unit_matches(u, self._ruleset, self._filter):
                    continue
                teams.setdefault(u.team, []).append(u)
            out.append((side, list(teams.items())))
        return out

    def _markers(self, state: GameState) -> tuple[str, ...]:
        return tuple(m for m in state.markers if not self._filter or self._filter.lower() in m.lower())

    def _side_label(self, state: GameState, side_id: str) -> Text:
        side = state.sides[side_id]
        units = state.units_of(side_id)
        text = Text(scenario_words(side.name), style="bold underline")
        if self._ruleset is not None and self._ruleset.shows_defeat_points(state):
            # TRANSLATORS: short for "defeat points", on a side's line of the roster
            points = _("DP {points}").format(points=side.defeat_points)
            text.append(" " + points, style="bold red" if side.defeat_points else "dim")
        text.append(f" · {sum(u.in_play for u in units)}/{len(units)}", style="dim")
        return visible_text(text, lines=False)

    def _items(self, state: GameState, groups) -> list[Item]:
        """The rows, in order: each side, its teams and their figures, then the markers."""
        items = []
        for side, teams in groups:
            items.append(Item(("side", side), self._side_label(state, side), 0, group=True))
            for team, units in teams:
                label = team_label(team, units, team_morale(state, side, team), self._domain)
                items.append(Item(("team", side, team), label, 1, group=True))
                items += [
                    Item(
                        ("unit", u.id), unit_label(u, self._domain, self._badge_words(state), self._class(state, u)), 2
                    )
                    for u in units
                ]
        markers = self._markers(state)
        if markers:
            items.append(Item(("markers",), markers_label(markers), 0, group=True))
            # in label order: the order they were put down is not shown
            items += [Item(("marker", label), plain(label), 1) for label in markers]
        return items

    def _class(self, state: GameState, unit: Unit) -> str:
        """A class the scenario defines by its name (Linea di Tiro's profile ``pzgren`` is
        *Panzergrenadier half-squad*); a book's class by its own short code (``R3``)."""
        ruleset = self._ruleset
        if ruleset is None or not unit.cls:
            return ""
        return ruleset.scenario_class(state, unit.cls) or ""

    def _badge_words(self, state: GameState) -> Callable[[str], str] | None:
        """The ruleset's words for a badge that names a piece by id (BI's ``aboard-truck``):
        the piece by its name, where this role sees it."""
        ruleset = self._ruleset
        if ruleset is None:
            return None
        units = state.units
        return lambda status: ruleset.status_words(
            status, lambda uid: scenario_words(units[uid].name) if uid in units else uid
        )

    def _rebuild(self, state: GameState, groups, first_match: bool = False) -> None:
        items = self._items(state, groups)
        first = next((i.key for i in items if i.key[0] in ("unit", "marker")), None) if first_match else None
        self.view.show(items, first)

    def _relabel(self, state: GameState, groups) -> None:
        self.view.relabel({item.key: item.label for item in self._items(state, groups)})

    def _show_details(self) -> None:
        text = self._details_text()
        if text != self._details:
            self._details = text
            self.query_one("#unit-details", Plain).update(text, layout=False)  # its height is fixed
        self.set_class(self.view.cursor_key is not None, "-detailed")

    def _details_text(self) -> Text:
        key = self.view.cursor_key
        state, ruleset = self._state, self._ruleset
        if key is None or state is None or ruleset is None:
            return Text()
        if key[0] == "unit" and key[1] in state.units:
            with naming(sides_of(state)):
                return unit_details(state.units[key[1]], ruleset, state)
        if key[0] == "marker":
            return marker_details(key[1])
        if key[0] == "side" and key[1] in state.sides:
            side = state.sides[key[1]]
            units = state.units_of(side.id)
            said = _("{side} ({id}, {army}) · {in_play} of {count} in play").format(
                side=scenario_words(side.name),
                id=side.id,
                army=side.army or _("army"),
                in_play=sum(u.in_play for u in units),
                count=len(units),
            )
            if not ruleset.shows_defeat_points(state):
                return Text(said)
            words = book(ruleset)
            cats = ", ".join(f"{words.term(k)} {v}" for k, v in sorted(side.dp_by_category.items())) or _("none")
            return Text(
                _("{side} · defeat points {points}: {categories}").format(
                    side=said, points=side.defeat_points, categories=cats
                )
            )
        return Text()

    # ------------------------------------------------------------------- events

    @on(RosterView.Highlighted)
    def _highlighted(self, event: RosterView.Highlighted) -> None:
        event.stop()
        self._show_details()

    @on(RosterView.Below)
    def _below(self, event: RosterView.Below) -> None:
        """The border says that rows lie below the view (the other side's figures, at
        80x24), and how to reach them from the command line: the roster's first key (Ctrl+S)."""
        event.stop()
        if not event.count:
            self.border_subtitle = ""
        elif self.view.has_focus:
            self.border_subtitle = _("▼ {count} more (↓ PgDn)").format(count=event.count)
        else:
            keys = keys_of(self, "roster", first=True)
            self.border_subtitle = _("▼ {count} more ({keys})").format(count=event.count, keys=keys)

    @on(RosterView.Chosen)
    def _chosen(self, event: RosterView.Chosen) -> None:
        event.stop()  # a marker's label goes to the command line as a unit's id does
        self.post_message(self.UnitChosen(event.key[1]))

    def action_filter(self) -> None:
        self.add_class("-filtering")
        self._filter_box().focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_filter":  # Esc falls through to the screen when there is no filter
            return self.has_class("-filtering")
        return True

    def action_clear_filter(self) -> None:
        box = self._filter_box()
        box.value = ""
        self.remove_class("-filtering")
        self.view.focus()

    @on(Input.Changed, "#roster-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._filter = event.value.strip()
        if self._state is not None:
            self._draw(self._state, first_match=bool(self._filter))

    @on(Input.Submitted, "#roster-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.view.focus()
