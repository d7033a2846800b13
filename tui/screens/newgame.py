"""New game: choose a ruleset and variant, a scenario, the sides' rosters, the
ruleset's set-up choices, a save name and a seed, then start.

Everything offered comes from the rulesets themselves (``core.registry.available()``,
``Ruleset.variants``, ``Ruleset.scenarios``, ``Ruleset.setup_choices``).  When the
ruleset has a ``roster`` command and the scenario brings no figures of its own
(Breaking News' ``open``), each side gets a roster: a file, or one the ruleset
ships in its ``scenarios/rosters`` folder.  The rosters are fielded with that
command, then the set-up choices (a mission, optional rules, extras, objectives
…) run as the command lines they stand for, so the ruleset's own checks apply: a
line it refuses stops the start and says why, and no save is left behind.

The scenario list holds the ruleset's built-in scenarios, then the user's own
(``<data>/scenarios/<ruleset>/*.toml``, docs/scenarios.md); a path typed in the
scenario file field replaces the choice.  A file is checked as it is chosen: what
it sets up, or where it is wrong, is shown before anything starts.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Input, Select, SelectionList

from core import folders
from core.game import SEED_LIMIT
from core.refusal import CommandFailed
from core.registry import available, get_ruleset
from core.ruleset import Refused, Ruleset, SetupChoice
from core.rulesets.common import Loaded, parse_scenario
from core.scenarios.files import ScenarioError, is_path, read_text
from core.storage.errors import SaveError
from tui.gamestart import default_name, file_words, scenario_choices, scenarios_of, start_game
from tui.i18n import N_, _, book, ngettext, scenario_words
from tui.keymap import key_label, keys_of
from tui.panes.footer import KeysFooter
from tui.plain import Plain, PlainInput, PlainLabel, plain
from tui.screens.client import client_app
from tui.screens.forms import TickList


def scenario_options(ruleset: Ruleset) -> list[tuple[Text, str]]:
    """(label, value) of every scenario offered (``tui.gamestart.scenario_choices``), shown as text."""
    return [(plain(title), value) for title, value in scenario_choices(ruleset)]


def load_file(ruleset: Ruleset, path: str) -> Loaded | str:
    """The scenario in the file, or why it is refused."""
    fmt = ruleset.scenario_format
    if fmt is None:  # (a plugin's ruleset may read none: its own scenarios only)
        return _("{ruleset} reads no scenario files").format(ruleset=ruleset.shown_name())
    try:
        return parse_scenario(fmt, read_text(Path(path)), path)
    except ScenarioError as e:
        return str(e)


def takes_rosters(ruleset: Ruleset, scenario_id: str) -> bool:
    """Whether the sides of this scenario are fielded from rosters."""
    sc = scenarios_of(ruleset).get(scenario_id)
    has_command = any(spec.name == "roster" for spec in ruleset.commands())
    return has_command and sc is not None and not getattr(sc, "units", ())


def shipped_rosters(ruleset: Ruleset) -> list[str]:
    """Names of the rosters a ruleset ships beside its scenarios (``scenarios/rosters/*.toml``)."""
    module = sys.modules.get(type(ruleset).__module__)
    file = getattr(module, "__file__", None)
    if not file:
        return []
    folder = Path(file).parent / "scenarios" / "rosters"
    return sorted(p.stem for p in folder.glob("*.toml"))


class NewGameScreen(Screen):
    BINDINGS = [
        Binding("escape", "cancel", N_("Back")),
        Binding("ctrl+s", "start", N_("Start")),
    ]
    DEFAULT_CSS = """
    NewGameScreen { align: center top; }
    NewGameScreen > VerticalScroll { width: 100%; max-width: 100; height: 1fr; padding: 0 2; }
    NewGameScreen .title { text-style: bold reverse; width: 100%; margin: 0 0 1 0; }
    NewGameScreen Label { margin: 1 0 0 0; text-style: bold; }
    NewGameScreen #scenario-about { color: $text-muted; height: auto; }
    NewGameScreen #new-error { color: $error; text-style: bold; margin: 1 0 0 0; }
    NewGameScreen Horizontal { height: auto; margin: 1 0 0 0; }
    NewGameScreen #rosters, NewGameScreen #setup { height: auto; }
    NewGameScreen #setup Label { width: 100%; }
    NewGameScreen SelectionList { height: auto; max-height: 8; }
    NewGameScreen #setup-preview { color: $text-muted; height: auto; margin: 1 0 0 0; }
    NewGameScreen Button { margin: 0 2 0 0; }
    """

    def __init__(self, saves: Path | None = None, ruleset: str = "") -> None:
        super().__init__()
        self.saves = saves if saves is not None else folders.saves()  # the data folder's (core.folders)
        self.rulesets = available()
        #: The ruleset offered first (the one being played, usually).
        self.first = ruleset if ruleset in self.rulesets else (self.rulesets[0] if self.rulesets else "")
        #: The set-up choices on screen: each with the side it is for ("" if not
        #: per side) and the id of its widget.
        self.choices: list[tuple[SetupChoice, str, str]] = []
        #: The ruleset, variant and scenario the set-up fields were built for.
        self._setup_for: tuple[str, str, str] | None = None

    def compose(self) -> ComposeResult:
        first = self.first
        with VerticalScroll():
            yield Plain(" " + _("New game") + " ", classes="title")
            yield PlainLabel(_("Ruleset"))
            yield Select(
                [(plain(get_ruleset(r).shown_name()), r) for r in self.rulesets],
                value=first,
                allow_blank=False,
                id="ruleset",
            )
            yield PlainLabel(_("Variant"))
            yield Select([(_("standard"), "")], value="", allow_blank=False, id="variant")
            yield PlainLabel(_("Scenario"))
            yield Select([], allow_blank=True, prompt=_("(none: set up by hand)"), id="scenario")
            yield Plain("", id="scenario-about")
            yield Vertical(id="rosters")
            yield Vertical(id="setup")
            yield Plain("", id="setup-preview")
            yield PlainLabel(_("…or a scenario file (a path; it replaces the choice above)"))
            yield PlainInput(id="scenario-file", placeholder=_("e.g. ~/club/convoy.toml"))
            yield PlainLabel(_("Save as (in {folder})").format(folder=self.saves))
            yield PlainInput(id="save-name")
            yield PlainLabel(_("Seed (blank: random)"))
            yield PlainInput(type="integer", id="seed", placeholder=_("e.g. 42 to replay the same dice"))
            yield Plain(
                Text(
                    _(
                        "Deployment and the rest of set-up are done with the ruleset's "
                        "commands once the game starts ({keys} lists them)."
                    ).format(keys=keys_of(self, "actions")),
                    style="dim",
                )
            )
            with Horizontal():
                keys = {b.action: key_label(b.key) for b in self.BINDINGS if isinstance(b, Binding)}
                yield Button(_("Start ({keys})").format(keys=keys["start"]), variant="primary", id="start")
                yield Button(_("Back ({keys})").format(keys=keys["cancel"]), id="back")
            yield Plain("", id="new-error")
        yield KeysFooter()

    async def on_mount(self) -> None:
        await self._ruleset_changed()
        self.query_one("#ruleset", Select).focus()

    def _ruleset(self) -> Ruleset:
        return get_ruleset(str(self.query_one("#ruleset", Select).value), self._variant())

    def _variant(self) -> str:
        value = self.query_one("#variant", Select).value
        return "" if value is Select.NULL else str(value)

    @on(Select.Changed, "#ruleset")
    async def _ruleset_changed(self) -> None:
        ruleset = get_ruleset(str(self.query_one("#ruleset", Select).value))
        variant = self.query_one("#variant", Select)
        variant.set_options([(plain(ruleset.variant_name(v) or _("standard")), v) for v in ruleset.variants])
        variant.value = ruleset.variants[0]
        scenario = self.query_one("#scenario", Select)
        options = scenario_options(ruleset)
        scenario.set_options(options)
        if options:
            scenario.value = options[0][1]
        await self._scenario_changed()

    @on(Select.Changed, "#variant")
    async def _variant_changed(self) -> None:
        """A variant may price the extras differently: offer its set-up choices."""
        await self._show_setup(self._ruleset(), self._scenario_id())

    @on(Select.Changed, "#scenario")
    @on(Input.Changed, "#scenario-file")
    async def _scenario_changed(self) -> None:
        ruleset = self._ruleset()
        sid = self._scenario_id()
        sc = scenarios_of(ruleset).get(sid)
        about = self.query_one("#scenario-about", Plain)
        if sid and is_path(sid):
            sc = load_file(ruleset, sid)
        if isinstance(sc, str):  # a file refused: where and why, as text
            about.update(Text(sc, style="bold"))
        elif sc is None:
            about.update(_("No scenario: the game starts empty, in its set-up phase."))
        else:
            sides = _(" vs ").join(file_words(sc, s.name) for s in getattr(sc, "sides", ()))
            units = len(getattr(sc, "units", ()))
            description = file_words(sc, getattr(sc, "description", ""))
            figures = ngettext("{sides} · {n} figure", "{sides} · {n} figures", units).format(sides=sides, n=units)
            about.update(Text(f"{description}\n{figures}"))
        self.query_one("#save-name", Input).value = default_name(ruleset.id, sid)
        await self._show_rosters(ruleset, sid)
        await self._show_setup(ruleset, sid)

    async def _show_rosters(self, ruleset: Ruleset, sid: str) -> None:
        box = self.query_one("#rosters", Vertical)
        await box.remove_children()
        if not takes_rosters(ruleset, sid):
            return
        shipped = shipped_rosters(ruleset)
        hint = (
            _("a roster file, or one of: {names}").format(names=", ".join(shipped)) if shipped else _("a roster file")
        )
        widgets: list[Widget] = []
        for side in getattr(scenarios_of(ruleset)[sid], "sides", ()):
            widgets.append(PlainLabel(_("Roster for {side} ({id})").format(side=scenario_words(side.name), id=side.id)))
            widgets.append(PlainInput(placeholder=hint, id=f"roster-{side.id}", classes="roster"))
        await box.mount_all(widgets)

    def rosters(self) -> dict[str, str]:
        return {
            box.id.removeprefix("roster-"): box.value for box in self.query("Input.roster").results(Input) if box.id
        }

    async def _show_setup(self, ruleset: Ruleset, sid: str) -> None:
        """One field per set-up choice (per side where it is per side), at its default.

        Setting the ruleset's fields at mount sends their Changed messages after
        the fact: the choices shown already are kept, with what was picked in them.
        """
        key = (ruleset.id, ruleset.variant, sid)
        if key == self._setup_for:
            return
        self._setup_for = key
        box = self.query_one("#setup", Vertical)
        await box.remove_children()
        # The choices are published once their fields are mounted: before that a
        # Select has no value yet, and the set-up would read as all blanks.
        self.choices = []
        choices: list[tuple[SetupChoice, str, str]] = []
        sides = getattr(scenarios_of(ruleset).get(sid), "sides", ())
        widgets: list[Widget] = []
        for choice in ruleset.setup_choices(sid) if sid else ():
            for side in sides if choice.per_side else (None,):
                side_id = side.id if side is not None else ""
                widget_id = f"setup-{choice.id}" + (f"-{side_id}" if side_id else "")
                words = book(ruleset)
                title = words.gettext(choice.label) if choice.label else ""
                title += f": {scenario_words(side.name)}" if side is not None else ""
                label = Text(title, style="bold", no_wrap=True, overflow="ellipsis")
                for note in (choice.rule, words.gettext(choice.help) if choice.help else ""):
                    if note:
                        label.append(f" · {note}", style="dim")
                widgets.append(PlainLabel(label))
                if choice.multiple:
                    widgets.append(TickList(*_options(choice), id=widget_id, classes="setup"))
                else:
                    widgets.append(
                        Select(_options(choice), value=choice.default, allow_blank=False, id=widget_id, classes="setup")
                    )
                choices.append((choice, side_id, widget_id))
        await box.mount_all(widgets)
        self.choices = choices
        self._preview()

    def setup_lines(self) -> list[str]:
        """The command lines the set-up choices stand for, in the ruleset's order."""
        lines: list[str] = []
        for choice, side, widget_id in self.choices:
            widget = self.query_one(f"#{widget_id}")
            if isinstance(widget, SelectionList):
                picked: str | list[str] = [str(v) for v in widget.selected]
            else:
                assert isinstance(widget, Select)  # (a choice's field is a tick list or a Select)
                picked = "" if widget.value is Select.NULL else str(widget.value)
            lines += choice.command_lines(picked, side)
        return lines

    @on(Select.Changed, ".setup")
    @on(SelectionList.SelectedChanged, ".setup")
    def _preview(self) -> None:
        lines = self.setup_lines()
        text = Text(_("Runs at the start:") + " ", style="dim")
        text.append("; ".join(lines) if lines else _("nothing beyond the scenario"), style="dim italic")
        preview = self.query_one("#setup-preview", Plain)
        preview.update(text)
        preview.display = bool(self.choices)

    def _scenario_id(self) -> str:
        """The scenario to set up: the typed file, else the one chosen."""
        typed = self.query_one("#scenario-file", Input).value.strip()
        if typed:
            return typed if is_path(typed) else f"./{typed}"
        value = self.query_one("#scenario", Select).value
        return "" if value is Select.NULL else str(value)

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        name = self.query_one("#save-name", Input).value.strip()
        if not name:
            self._fail(_("give the save a name"))
            return
        if not name.endswith(".ft"):
            name += ".ft"
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:  # more digits than Python reads
            self._fail("✗ " + _("a seed is a whole number from 0 to {limit}").format(limit=SEED_LIMIT - 1))
            return
        ruleset = self._ruleset()
        try:
            game = start_game(
                self.saves / Path(name).name,
                ruleset.id,
                self._variant(),
                self._scenario_id(),
                seed,
                self.rosters(),
                setup=self.setup_lines(),
            )
        except (Refused, SaveError, ValueError) as e:
            self._fail(f"✗ {e}")
            return
        except CommandFailed as e:  # a set-up line failed on a bug: logged with its traceback
            self._fail(f"⚠ {e}")
            return
        except OSError as e:
            self._fail("✗ " + _("cannot write {name}: {error}").format(name=name, error=e.strerror or e))
            return
        client_app(self).switch_game(game)

    def _fail(self, why: str) -> None:
        error = self.query_one("#new-error", Plain)
        error.update(why)
        error.scroll_visible()

    @on(Button.Pressed, "#back")
    def action_cancel(self) -> None:
        self.app.pop_screen()


def _options(choice: SetupChoice) -> list[tuple[Text, str]]:
    """A set-up choice's (label, value) pairs, the labels shown as text."""
    return [(plain(label), value) for label, value in choice.options()]
