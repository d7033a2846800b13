"""A minimal table app with FireteamApp's contract, to test the server on its own.

It shows the seat's view (status, units, recent log) and takes commands in an
input line, all through the core's role checks, and redraws when any seat's
command lands.  ``crash`` as a command raises inside the app, to test that a
crashed session is logged and closed while the rest go on.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Input, Static

from core.game import Game, Outcome
from core.ruleset import Refused


class TableApp(App[None]):
    CSS = """
    #status { height: 1; }
    #units { height: auto; }
    #log { height: 1fr; }
    #error { height: 1; }
    """

    def __init__(
        self, game: Game, *, role: str = "referee", seat: str = "", replay: bool = False, remote: bool = False
    ) -> None:
        super().__init__()
        self.game = game
        self.role = role
        self.seat = seat or role
        self.remote = remote
        self._unsubscribe = None

    def compose(self) -> ComposeResult:
        for pane in ("status", "units", "log", "error"):
            yield Static(id=pane, markup=False)
        yield Input(id="command", placeholder="command")

    def on_mount(self) -> None:
        self._unsubscribe = self.game.subscribe(self._changed)
        self.refresh_panes()
        self.query_one(Input).focus()

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()

    def _changed(self, outcome: Outcome) -> None:
        # Called inside the issuing seat's task: only post to this app's own queue.
        self.call_later(self.refresh_panes)

    def refresh_panes(self) -> None:
        view = self.game.view(self.role)
        self.query_one("#status", Static).update(
            f"{self.seat} ({self.role}) | turn {view.turn} {view.phase} | {view.scenario}"
        )
        self.query_one("#units", Static).update(
            "\n".join(f"{u.side}: {u.name} [{','.join(u.status)}]" for u in view.units.values())
        )
        lines = self.game.log_lines(self.role)[-12:]
        self.query_one("#log", Static).update("\n".join(("(undone) " if ln.undone else "") + ln.text for ln in lines))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        error = self.query_one("#error", Static)
        if text == "crash":
            raise RuntimeError("crash requested by the test")
        try:
            self.game.execute(text, role=self.role, by=self.seat)
        except Refused as e:
            error.update(f"refused: {e}")
        else:
            error.update("")
