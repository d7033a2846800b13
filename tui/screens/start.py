"""The start screen: what ``fireteam`` with no save opens.

The last games first (the saves the command histories in the data folder name,
and those of ``saves/``; ``UserStore.recent_saves``), each summarised as the
load game screen does, whose list, summaries and opening it reuses: a save that
cannot be read is listed, marked, and never opened.  Letters for the rest: a
new game, a save file by its path, the built-in demo game, quit.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tui.i18n import N_, _
from tui.panes.footer import KeysFooter
from tui.plain import Plain, plain
from tui.screens.client import client_app
from tui.screens.loadgame import LoadGameScreen

if TYPE_CHECKING:
    from core.game import Game


class StartScreen(LoadGameScreen):
    BINDINGS = [
        Binding("enter", "open(False)", N_("Resume"), show=True),
        Binding("r", "open(True)", N_("Replay"), show=True),
        Binding("n", "new_game", N_("New game"), show=True),
        Binding("o", "open_file", N_("Open a file"), show=True),
        Binding("d", "demo", N_("Demo game"), show=True),
        Binding("escape,q", "quit", N_("Quit"), show=True),
    ]

    def __init__(self, paths: list[Path], saves: Path, new_demo: Callable[[Path], Game]) -> None:
        super().__init__(saves)
        self.paths = paths
        #: Sets up a demo game in a folder: the app's own, as `fireteam --demo` does.
        self.new_demo = new_demo

    def compose(self) -> ComposeResult:
        yield Plain(" " + _("Fireteam — the last games, the most recent first") + " ", classes="title")
        yield Plain(
            Text(
                _("Enter resume · r replay · n new game · o open a file · d demo game · q quit"),
                style="dim",
            )
        )
        with Horizontal():
            yield OptionList(*[Option(self._label(p), id=str(i)) for i, p in enumerate(self.paths)], id="saves")
            yield Plain(
                _("No games yet: n starts a new one, d the demo game, o opens a save file.")
                if not self.paths
                else _("reading…"),
                id="save-summary",
            )
        yield KeysFooter()

    def _label(self, path: Path) -> Text:
        # Saves from several folders: the folder of one not in saves/, dimmed, tells two of one name apart.
        label = plain(path.name)
        if path.parent != self.saves.resolve():
            label.append_text(plain("  " + str(path.parent), "dim"))
        return label

    def action_new_game(self) -> None:
        from tui.screens.newgame import NewGameScreen

        self.app.push_screen(NewGameScreen(saves=self.saves))

    def action_open_file(self) -> None:
        from tui.screens.dialogs import AskScreen

        def answered(text: str | None) -> None:
            if text and text.strip():
                self.open_path(Path(text.strip()).expanduser(), replay=False)

        self.app.push_screen(AskScreen(_("Open a save file"), placeholder=_("its path: saves/mygame.ft")), answered)

    def action_demo(self) -> None:
        try:
            game = self.new_demo(self.saves)
        except OSError as e:
            self.notify(
                _("cannot write {name}: {error}").format(name=self.saves, error=e.strerror or e),
                severity="error",
                markup=False,
            )
            return
        client_app(self).switch_game(game)

    def action_quit(self) -> None:
        self.app.exit()
