"""Load game: the saves in the data folder's ``saves/`` (``core.folders``) with a summary of each; corrupt ones say why.

Summaries are read in a worker thread with ``Game.open(path, writable=False)``
(each save is its own Game object, so the thread shares nothing with the
screen), newest save first.  A side's copy (``fireteam export -o saves/NAME.json``)
is listed with the saves and opens read-only, as its side's game (``core.secrets.sidecopy``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from core import folders
from core.game import Game
from core.language.reader import reader, reading
from core.log.narrate import result_of
from core.secrets.sidecopy import looks_like_side_copy, open_copy, open_to_read
from core.storage.errors import SaveError, SaveLocked
from tui.i18n import N_, _, ngettext, phase_name, scenario_words
from tui.panes.footer import KeysFooter
from tui.plain import Plain, plain
from tui.screens.client import client_app
from tui.screens.dialogs import LockedScreen


@dataclass(frozen=True)
class SaveSummary:
    path: Path
    ok: bool
    text: str  # what the save holds, or why it cannot be read


def summarise(path: Path) -> SaveSummary:
    try:
        game = open_to_read(path)
    except SaveError as e:
        return SaveSummary(path, False, _("corrupt save: {error}").format(error=e))
    except OSError as e:
        return SaveSummary(path, False, _("cannot read: {error}").format(error=e.strerror or e))
    state = game.state
    h = game.header
    sides = _(" vs ").join(scenario_words(s.name) for s in state.sides.values()) or _("no sides yet")
    phase = game.ruleset.phase(state.phase)
    where = phase_name(game.ruleset, phase) if phase else state.phase
    last = game.history.last_effective()
    when = ""
    if last is not None and game.history.issued(last).at:
        at = datetime.fromtimestamp(game.history.issued(last).at / 1000, UTC).astimezone()
        when = at.strftime("%Y-%m-%d %H:%M")
    commands = game.history.next_cmd - 1
    lines = [
        game.ruleset.title(h.ruleset_version),
        f"{scenario_words(state.scenario) or _('no scenario')}: {sides}",
        _("turn {turn}, {phase}").format(turn=state.turn, phase=where)
        + (f" — {result_of(state, game.ruleset.domain, brief=True)}" if state.result else ""),
        ", ".join(
            (
                ngettext("{count} command", "{count} commands", commands).format(count=commands),
                ngettext("{count} event", "{count} events", game.log_length).format(count=game.log_length),
                _("seed {seed}").format(seed=h.seed),
            )
        ),
        _("last played {when} · created {created}").format(when=when or _("never"), created=h.created),
    ]
    lines += [_("note: {note}").format(note=n) for n in game.notes]
    if game.copy_role:
        lines.append(_("the copy of {role}: it opens read-only").format(role=game.copy_role))
    return SaveSummary(path, True, "\n".join(lines))


class LoadGameScreen(Screen):
    BINDINGS = [
        Binding("escape", "cancel", N_("Back")),
        Binding("enter", "open(False)", N_("Play"), show=True),
        Binding("r", "open(True)", N_("Replay"), show=True),
    ]
    DEFAULT_CSS = """
    LoadGameScreen Horizontal { height: 1fr; }
    LoadGameScreen OptionList { width: 40%; border: round $secondary; }
    LoadGameScreen #save-summary { width: 1fr; border: round $secondary; padding: 0 1; }
    LoadGameScreen .title { text-style: bold reverse; width: 100%; }
    """

    def __init__(self, saves: Path | None = None) -> None:
        super().__init__()
        self.saves = saves if saves is not None else folders.saves()  # the data folder's (core.folders)
        saves = self.saves
        found = [*saves.glob("*.ft"), *filter(looks_like_side_copy, saves.glob("*.json"))] if saves.is_dir() else []
        self.paths = sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)
        self.summaries: dict[Path, SaveSummary] = {}

    def compose(self) -> ComposeResult:
        yield Plain(
            " " + _("Load game from {folder}/ — Enter plays, r replays, Esc goes back").format(folder=self.saves) + " ",
            classes="title",
        )
        with Horizontal():
            yield OptionList(*[Option(self._label(p), id=str(i)) for i, p in enumerate(self.paths)], id="saves")
            yield Plain(_("No saves yet.") if not self.paths else _("reading…"), id="save-summary")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self._read_all(reader())

    def attention(self) -> Widget | None:
        """With no save to list, the words saying so (``tui.focus_cursor``): the terminal's cursor goes
        there, not on the empty list's border beside them, where a braille display would show it."""
        return None if self.query_one(OptionList).option_count else self.query_one("#save-summary")

    @work(thread=True, exclusive=True)
    def _read_all(self, who) -> None:
        # A thread does not inherit the app's reader (an SSH seat's language): it is handed over.
        with reading(who):
            for path in self.paths:
                summary = summarise(path)
                self.app.call_from_thread(self._got, summary)

    def _got(self, summary: SaveSummary) -> None:
        self.summaries[summary.path] = summary
        i = self.paths.index(summary.path)
        options = self.query_one(OptionList)
        label = self._label(summary.path)
        if not summary.ok:
            label.append(" " + _("corrupt"), style="bold red")
        options.replace_option_prompt_at_index(i, label)
        self._show()

    def _label(self, path: Path) -> Text:
        """A save's line in the list: its name, as text."""
        return plain(path.name)

    def _current(self) -> Path | None:
        index = self.query_one(OptionList).highlighted
        return self.paths[index] if index is not None and 0 <= index < len(self.paths) else None

    @on(OptionList.OptionHighlighted)
    def _show(self) -> None:
        path = self._current()
        box = self.query_one("#save-summary", Plain)
        if path is None:
            return
        summary = self.summaries.get(path)
        if summary is None:
            box.update(_("reading…"))
        else:
            box.update(Text(summary.text, style="" if summary.ok else "bold red"))

    @on(OptionList.OptionSelected)
    def _selected(self) -> None:
        self.action_open(False)

    def action_open(self, replay: bool) -> None:
        path = self._current()
        if path is None:
            return
        summary = self.summaries.get(path)
        if summary is not None and not summary.ok:
            self.notify(summary.text, severity="error", markup=False)
            return
        self.open_path(path, replay)

    def open_path(self, path: Path, replay: bool) -> None:
        """Play (or replay) the save at ``path``; a locked one is offered read-only."""
        try:
            game = open_copy(path) if looks_like_side_copy(path) else Game.open(path, writable=not replay)
        except SaveLocked as e:

            def answered(read_only: bool | None) -> None:
                if read_only:
                    self._open_read_only(path)

            self.app.push_screen(LockedScreen(str(path), e.who), answered)
            return
        except SaveError as e:
            self.notify(_("cannot open the save: {error}").format(error=e), severity="error", markup=False)
            return
        except OSError as e:
            self.notify(
                _("cannot open {save}: {error}").format(save=path, error=e.strerror or e),
                severity="error",
                markup=False,
            )
            return
        client_app(self).switch_game(game, replay=replay)

    def _open_read_only(self, path: Path) -> None:
        try:
            game = Game.open(path, writable=False)
        except SaveError as e:
            self.notify(_("cannot open the save: {error}").format(error=e), severity="error", markup=False)
            return
        client_app(self).switch_game(game, replay=True)

    def action_cancel(self) -> None:
        self.app.pop_screen()
