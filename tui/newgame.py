"""New game: choose a ruleset and variant, a scenario, the sides' rosters, a
save name and a seed, then start.

Everything offered comes from the rulesets themselves (``core.ruleset.available()``,
``Ruleset.variants``, ``Ruleset.scenarios``).  When the ruleset has a ``roster``
command and the scenario brings no figures of its own (Breaking News' ``open``),
each side gets a roster: a file, or one the ruleset ships in its
``scenarios/rosters`` folder.  The rosters are fielded with that command, so its
points validation is the one that applies: a roster it refuses stops the start
and says why, and no save is left behind.  Objectives are then chosen with the
ruleset's own commands during deployment.
"""

from __future__ import annotations

import shlex
import sys
from datetime import datetime
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static

from core.game import Game
from core.ruleset import Refused, Ruleset, available, get_ruleset
from core.savefile import SaveError

SAVES = Path("saves")


def scenarios_of(ruleset: Ruleset) -> dict:
    return dict(getattr(ruleset, "scenarios", {}) or {})


def default_name(ruleset_id: str, scenario: str, now: datetime | None = None) -> str:
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    return f"{ruleset_id}-{scenario or 'game'}-{stamp}.ft"


def takes_rosters(ruleset: Ruleset, scenario_id: str) -> bool:
    """Whether the sides of this scenario are fielded from rosters."""
    sc = scenarios_of(ruleset).get(scenario_id)
    has_command = any(spec.name == "roster" for spec in ruleset.commands())
    return has_command and sc is not None and not getattr(sc, "units", ())


def shipped_rosters(ruleset: Ruleset) -> list[str]:
    """Names of the rosters a ruleset ships beside its scenarios (``scenarios/rosters/*.toml``)."""
    module = sys.modules.get(type(ruleset).__module__)
    if module is None or not getattr(module, "__file__", None):
        return []
    folder = Path(module.__file__).parent / "scenarios" / "rosters"
    return sorted(p.stem for p in folder.glob("*.toml"))


def start_game(
    path: Path,
    ruleset_id: str,
    variant: str,
    scenario: str,
    seed: int | None,
    rosters: dict[str, str] | None = None,
    clock=None,
) -> Game:
    """Create the save, set the scenario up and field the rosters (side → file).

    Raises Refused (with the ruleset's reason), SaveError or OSError; a game
    that could not start leaves no save behind.
    """
    if path.exists():
        raise Refused(f"{path} already exists; choose another name")
    path.parent.mkdir(parents=True, exist_ok=True)
    kwargs = {"clock": clock} if clock is not None else {}
    game = Game.new(path, ruleset_id, variant, seed=seed, **kwargs)
    try:
        if scenario:
            game.execute(f"scenario {scenario}")
        for side, roster in (rosters or {}).items():
            if roster.strip():
                try:
                    game.execute(f"roster {shlex.quote(roster.strip())} {side}")
                except Refused as e:
                    raise Refused(f"roster for {side}: {e}") from None
    except Refused:
        game.close()
        path.unlink(missing_ok=True)
        raise
    return game


class NewGameScreen(Screen):
    BINDINGS = [
        Binding("escape", "cancel", "Back"),
        Binding("ctrl+s", "start", "Start"),
    ]
    DEFAULT_CSS = """
    NewGameScreen { align: center top; }
    NewGameScreen > VerticalScroll { width: 100%; max-width: 100; height: 1fr; padding: 0 2; }
    NewGameScreen .title { text-style: bold reverse; width: 100%; margin: 0 0 1 0; }
    NewGameScreen Label { margin: 1 0 0 0; text-style: bold; }
    NewGameScreen #scenario-about { color: $text-muted; height: auto; }
    NewGameScreen #new-error { color: $error; text-style: bold; margin: 1 0 0 0; }
    NewGameScreen Horizontal { height: auto; margin: 1 0 0 0; }
    NewGameScreen #rosters { height: auto; }
    NewGameScreen Button { margin: 0 2 0 0; }
    """

    def __init__(self, saves: Path = SAVES, ruleset: str = "") -> None:
        super().__init__()
        self.saves = saves
        self.rulesets = available()
        #: The ruleset offered first (the one being played, usually).
        self.first = ruleset if ruleset in self.rulesets else (self.rulesets[0] if self.rulesets else "")

    def compose(self) -> ComposeResult:
        first = self.first
        with VerticalScroll():
            yield Static(" New game ", classes="title")
            yield Label("Ruleset")
            yield Select(
                [(get_ruleset(r).name, r) for r in self.rulesets], value=first, allow_blank=False, id="ruleset"
            )
            yield Label("Variant")
            yield Select([("standard", "")], value="", allow_blank=False, id="variant")
            yield Label("Scenario")
            yield Select([], allow_blank=True, prompt="(none: set up by hand)", id="scenario")
            yield Static("", id="scenario-about")
            yield Vertical(id="rosters")
            yield Label("Save as (in saves/)")
            yield Input(id="save-name")
            yield Label("Seed (blank: random)")
            yield Input(type="integer", id="seed", placeholder="e.g. 42 to replay the same dice")
            yield Static(
                Text(
                    "Objectives, deployment and the rest of set-up are done with the ruleset's "
                    "commands once the game starts (F2 lists them).",
                    style="dim",
                )
            )
            with Horizontal():
                yield Button("Start (Ctrl+S)", variant="primary", id="start")
                yield Button("Back (Esc)", id="back")
            yield Static("", id="new-error")
        yield Footer()

    def on_mount(self) -> None:
        self._ruleset_changed()
        self.query_one("#ruleset", Select).focus()

    def _ruleset(self) -> Ruleset:
        return get_ruleset(str(self.query_one("#ruleset", Select).value))

    @on(Select.Changed, "#ruleset")
    def _ruleset_changed(self) -> None:
        ruleset = self._ruleset()
        variant = self.query_one("#variant", Select)
        variant.set_options([(v or "standard", v) for v in ruleset.variants])
        variant.value = ruleset.variants[0]
        scenario = self.query_one("#scenario", Select)
        scs = scenarios_of(ruleset)
        scenario.set_options([(getattr(sc, "title", sid), sid) for sid, sc in scs.items()])
        if scs:
            scenario.value = next(iter(scs))
        self._scenario_changed()

    @on(Select.Changed, "#scenario")
    def _scenario_changed(self) -> None:
        ruleset = self._ruleset()
        sid = self._scenario_id()
        sc = scenarios_of(ruleset).get(sid)
        about = self.query_one("#scenario-about", Static)
        if sc is None:
            about.update("No scenario: the game starts empty, in its set-up phase.")
        else:
            sides = " vs ".join(s.name for s in getattr(sc, "sides", ()))
            units = len(getattr(sc, "units", ()))
            about.update(f"{getattr(sc, 'description', '')}\n{sides} · {units} figures")
        self.query_one("#save-name", Input).value = default_name(ruleset.id, sid)
        self._show_rosters(ruleset, sid)

    def _show_rosters(self, ruleset: Ruleset, sid: str) -> None:
        box = self.query_one("#rosters", Vertical)
        box.remove_children()
        if not takes_rosters(ruleset, sid):
            return
        shipped = shipped_rosters(ruleset)
        hint = f"a roster file, or one of: {', '.join(shipped)}" if shipped else "a roster file"
        widgets = []
        for side in getattr(scenarios_of(ruleset)[sid], "sides", ()):
            widgets.append(Label(f"Roster for {side.name} ({side.id})"))
            widgets.append(Input(placeholder=hint, id=f"roster-{side.id}", classes="roster"))
        box.mount_all(widgets)

    def rosters(self) -> dict[str, str]:
        return {box.id.removeprefix("roster-"): box.value for box in self.query("Input.roster") if box.id}

    def _scenario_id(self) -> str:
        value = self.query_one("#scenario", Select).value
        return "" if value is Select.NULL else str(value)

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        error = self.query_one("#new-error", Static)
        name = self.query_one("#save-name", Input).value.strip()
        if not name:
            error.update("give the save a name")
            return
        if not name.endswith(".ft"):
            name += ".ft"
        seed_text = self.query_one("#seed", Input).value.strip()
        seed = int(seed_text) if seed_text else None
        ruleset = self._ruleset()
        variant = str(self.query_one("#variant", Select).value)
        try:
            game = start_game(
                self.saves / Path(name).name, ruleset.id, variant, self._scenario_id(), seed, self.rosters()
            )
        except (Refused, SaveError, ValueError) as e:
            error.update(f"✗ {e}")
            return
        except OSError as e:
            error.update(f"✗ cannot write {name}: {e.strerror or e}")
            return
        self.app.switch_game(game)  # type: ignore[attr-defined]

    @on(Button.Pressed, "#back")
    def action_cancel(self) -> None:
        self.app.pop_screen()
