"""The screen shown while a big save loads: its name and a progress bar.

The save is read in a worker thread (``FireteamApp`` with an opener), which
reports through ``core.storage.savefile.load``'s progress callback; this screen only
draws what it is told.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import ProgressBar

from tui.i18n import _
from tui.plain import PlainLabel


class LoadingScreen(Screen[None]):
    DEFAULT_CSS = """
    LoadingScreen { align: center middle; }
    LoadingScreen > Vertical { width: 60; max-width: 100%; height: auto; border: heavy $primary; padding: 0 1; }
    LoadingScreen ProgressBar { margin: 1 0 0 0; }
    """

    def __init__(self, name: str) -> None:
        super().__init__()
        self.save_name = name

    def compose(self) -> ComposeResult:
        with Vertical():
            yield PlainLabel(_("Opening {name}…").format(name=self.save_name), id="loading-title")
            yield ProgressBar(total=None, show_eta=True, id="loading-bar")

    class Progress(Message):
        """Bytes taken in, bytes in all: posted by the loader's thread."""

        def __init__(self, done: int, total: int) -> None:
            super().__init__()
            self.done, self.total = done, total

    def on_loading_screen_progress(self, message: Progress) -> None:
        self.progress(message.done, message.total)

    def progress(self, done: int, total: int) -> None:
        self.query_one(ProgressBar).update(total=max(total, 1), progress=done)
