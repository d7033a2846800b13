"""Load game: the saves in ``saves/`` with a summary of each; corrupt ones say why.

Summaries are read in a worker thread with ``Game.open(path, writable=False)``
(each save is its own Game object, so the thread shares nothing with the
screen), newest save first.
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
from textual.widgets import Footer, OptionList
from textual.widgets.option_list import Option

from core.game import Game
from core.savefile import SaveError, SaveLocked
from tui.plain import Plain, plain
from tui.screens.dialogs import LockedScreen

SAVES = Path("saves")


@dataclass(frozen=True)
class SaveSummary:
    path: Path
    ok: bool
    text: str  # what the save holds, or why it cannot be read


def summarise(path: Path) -> SaveSummary:
    try:
        game = Game.open(path, writable=False)
    except SaveError as e:
        return SaveSummary(path, False, f"corrupt save: {e}")
    except OSError as e:
        return SaveSummary(path, False, f"cannot read: {e.strerror or e}")
    state = game.state
    h = game.header
    sides = " vs ".join(s.name for s in state.sides.values()) or "no sides yet"
    phase = game.ruleset.phase(state.phase)
    last = game.history.last_effective()
    when = ""
    if last is not None and game.history.issued(last).at:
        at = datetime.fromtimestamp(game.history.issued(last).at / 1000, UTC).astimezone()
        when = at.strftime("%Y-%m-%d %H:%M")
    lines = [
        f"{game.ruleset.name} {h.ruleset_version}" + (f" ({h.variant})" if h.variant else ""),
        f"{state.scenario or 'no scenario'}: {sides}",
        f"turn {state.turn}, {phase.title if phase else state.phase}" + (f" — {state.result}" if state.result else ""),
        f"{game.history.next_cmd - 1} commands, {game.log_length} events, seed {h.seed}",
        f"last played {when or 'never'} · created {h.created}",
    ]
    lines += [f"note: {n}" for n in game.notes]
    return SaveSummary(path, True, "\n".join(lines))


class LoadGameScreen(Screen):
    BINDINGS = [
        Binding("escape", "cancel", "Back"),
        Binding("enter", "open(False)", "Play", show=True),
        Binding("r", "open(True)", "Replay", show=True),
    ]
    DEFAULT_CSS = """
    LoadGameScreen Horizontal { height: 1fr; }
    LoadGameScreen OptionList { width: 40%; border: round $secondary; }
    LoadGameScreen #save-summary { width: 1fr; border: round $secondary; padding: 0 1; }
    LoadGameScreen .title { text-style: bold reverse; width: 100%; }
    """

    def __init__(self, saves: Path = SAVES) -> None:
        super().__init__()
        self.saves = saves
        self.paths = sorted(saves.glob("*.ft"), key=lambda p: p.stat().st_mtime, reverse=True) if saves.is_dir() else []
        self.summaries: dict[Path, SaveSummary] = {}

    def compose(self) -> ComposeResult:
        yield Plain(f" Load game from {self.saves}/ — Enter plays, r replays, Esc goes back ", classes="title")
        with Horizontal():
            yield OptionList(*[Option(plain(p.name), id=str(i)) for i, p in enumerate(self.paths)], id="saves")
            yield Plain("No saves yet." if not self.paths else "reading…", id="save-summary")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self._read_all()

    @work(thread=True, exclusive=True)
    def _read_all(self) -> None:
        for path in self.paths:
            summary = summarise(path)
            self.app.call_from_thread(self._got, summary)

    def _got(self, summary: SaveSummary) -> None:
        self.summaries[summary.path] = summary
        i = self.paths.index(summary.path)
        options = self.query_one(OptionList)
        label = plain(summary.path.name)
        if not summary.ok:
            label.append(" corrupt", style="bold red")
        options.replace_option_prompt_at_index(i, label)
        self._show()

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
            box.update("reading…")
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
        try:
            game = Game.open(path, writable=not replay)
        except SaveLocked as e:

            def answered(read_only: bool | None) -> None:
                if read_only:
                    self._open_read_only(path)

            self.app.push_screen(LockedScreen(str(path), e.who), answered)
            return
        except SaveError as e:
            self.notify(f"cannot open the save: {e}", severity="error", markup=False)
            return
        except OSError as e:
            self.notify(f"cannot open {path}: {e.strerror or e}", severity="error", markup=False)
            return
        self.app.switch_game(game, replay=replay)  # type: ignore[attr-defined]

    def _open_read_only(self, path: Path) -> None:
        try:
            game = Game.open(path, writable=False)
        except SaveError as e:
            self.notify(f"cannot open the save: {e}", severity="error", markup=False)
            return
        self.app.switch_game(game, replay=True)  # type: ignore[attr-defined]

    def action_cancel(self) -> None:
        self.app.pop_screen()
