"""The Fireteam Textual app: one game, one role, one seat.

Several apps may share one :class:`core.game.Game` in one process (one per SSH
seat).  Each subscribes to the game and, when any seat's command changes it,
redraws its own panes from its own role's view.  The listener only posts a
message to its app: the game's outcome (which holds events hidden from some
roles) is never kept, and the redraw happens in the app's own task.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen

from core.game import Game, Outcome
from core.ruleset import Refused
from core.savefile import SaveError, SaveLocked
from core.views import REFEREE, SPECTATOR
from tui.palette import GameCommands
from tui.screens.dialogs import LockedScreen
from tui.screens.game import GameScreen

SAVES = Path("saves")
DEMO_RULESET = "breaking-news"
DEMO_SCENARIO = "demo"
#: How often a game open read-only looks for what its writer appended.
FOLLOW_EVERY_S = 0.5


class GameChanged(Message):
    """Some seat changed the game; redraw."""


class FireteamApp(App):
    CSS_PATH = "fireteam.tcss"
    TITLE = "Fireteam"
    COMMANDS = App.COMMANDS | {GameCommands}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    #: Under 22 rows the dice pane gives its rows to the log; under 30 it is shorter; from 40, taller.
    VERTICAL_BREAKPOINTS = [(0, "-tiny"), (22, "-short"), (30, "-tall"), (40, "-taller")]
    BINDINGS = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
        Binding("f12", "screenshot", "Save a screenshot (SVG)", show=False),
    ]

    def __init__(
        self,
        game: Game,
        *,
        role: str = REFEREE,
        seat: str = "",
        replay: bool = False,
        remote: bool = False,
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.role = role
        self.seat = seat
        self.replay = replay
        self.remote = remote
        #: Games this app opened itself (new game, load game) and so must close.
        self.owns_game = False
        self._unsubscribe = None
        self._redraw_queued = False
        #: Who writes the save, when it was opened read-only because another process does.
        self.locked_by = ""

    # ---------------------------------------------------------------- lifecycle

    async def on_mount(self) -> None:
        # The game screen sits on the (blank) default screen, so switching games
        # can replace it like any pushed screen.
        await self.push_screen(self._game_screen())
        self._unsubscribe = self.game.subscribe(self._game_changed)
        for note in self.game.notes:
            self.notify(note, title="The save was repaired on opening", severity="warning", timeout=10, markup=False)
        if not self.remote:
            self.set_interval(FOLLOW_EVERY_S, self._follow_save)
        if self.locked_by:
            self.push_screen(LockedScreen(str(self.game.path), self.locked_by), self._locked_answer)

    def _locked_answer(self, read_only: bool | None) -> None:
        if not read_only:
            self.exit(return_code=0)
        else:
            self.notify(f"read-only: following the game written by {self.locked_by}", timeout=8, markup=False)

    def _follow_save(self) -> None:
        """A game open read-only takes in what its writer (another process) appends."""
        game = self.game
        if game.writable or getattr(game, "follow_failed", False):
            return
        try:
            game.follow()
        except SaveError as e:
            game.follow_failed = True  # type: ignore[attr-defined]
            self.notify(f"stopped following the save: {e}", severity="error", timeout=15, markup=False)

    def on_unmount(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.owns_game:
            self.game.close()

    def _game_changed(self, outcome: Outcome) -> None:
        # Called synchronously by whichever seat ran the command, maybe another
        # app's task: only queue a message here (see the module docstring).
        # Several changes before the app gets to it make one redraw.
        if not self._redraw_queued:
            self._redraw_queued = True
            self.post_message(GameChanged())

    def on_game_changed(self, message: GameChanged) -> None:
        self._redraw_queued = False
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen) and screen.game is self.game:
                screen.refresh_game(force=False)

    def switch_game(self, game: Game, *, replay: bool = False) -> None:
        """Play (or replay) another game in this app: new game and load game (never remote)."""
        if self.remote:
            raise Refused("a shared table cannot switch games")
        if self._unsubscribe is not None:
            self._unsubscribe()
        old, owned = self.game, self.owns_game
        self.game, self.replay, self.owns_game = game, replay, True
        self._unsubscribe = game.subscribe(self._game_changed)
        if owned and old is not game:
            old.close()
        self.call_later(self._show_game)

    def _game_screen(self) -> GameScreen:
        return GameScreen(self.game, role=self.role, seat=self.seat, replay=self.replay, remote=self.remote)

    async def _show_game(self) -> None:
        while len(self.screen_stack) > 2:
            await self.pop_screen()
        await self.switch_screen(self._game_screen())
        for note in self.game.notes:
            self.notify(note, title="The save was repaired on opening", severity="warning", timeout=10, markup=False)

    # ------------------------------------------------------------- remote seats

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if self.remote and command.title in ("Screenshot",):
                continue  # it would write to the server's disk
            yield command

    def action_screenshot(self) -> None:
        if self.remote:
            self.notify("screenshots are not saved on a shared table", severity="warning", markup=False)
            return
        path = self.save_screenshot(path=".")
        self.notify(f"screenshot saved: {path}", markup=False)

    def action_suspend_process(self) -> None:
        if not self.remote:
            super().action_suspend_process()


# --------------------------------------------------------------------- entry


def new_demo_game(saves: Path = SAVES) -> Game:
    saves.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = saves / f"demo-{stamp}.ft"
    n = 1
    while path.exists():
        n += 1
        path = saves / f"demo-{stamp}-{n}.ft"
    game = Game.new(path, DEMO_RULESET, seed=None)
    game.execute(f"scenario {DEMO_SCENARIO}")
    return game


def open_game(save: Path | None, replay: bool) -> Game:
    """The game to show: a save, or a new demo game.  Raises SaveError or OSError."""
    if save is None:
        if replay:
            raise SaveError("--replay needs a save to replay")
        return new_demo_game()
    if not save.exists():
        raise SaveError(f"{save}: no such save")
    return Game.open(save, writable=not replay)


def check_role(game: Game, role: str) -> str | None:
    """Why ``role`` cannot watch this game (None if it can)."""
    if role in (REFEREE, SPECTATOR) or role in game.state.sides:
        return None
    sides = ", ".join(game.state.sides) or "none yet"
    return f"--as {role}: not a role of this game (referee, spectator, or a side: {sides})"


def open_or_follow(save: Path | None, replay: bool) -> tuple[Game, str]:
    """``open_game``, or, when another process writes the save, the save opened
    read-only (to follow that game) and who writes it."""
    try:
        return open_game(save, replay), ""
    except SaveLocked as e:
        return Game.open(e.path, writable=False), e.who


def run_app(save: Path | None, replay: bool, role: str) -> int:
    try:
        game, locked_by = open_or_follow(save, replay)
    except SaveError as e:
        print(f"fireteam: cannot open the save: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"fireteam: cannot open {save}: {e.strerror or e}", file=sys.stderr)
        return 2
    problem = check_role(game, role)
    if problem:
        game.close()
        print(f"fireteam: {problem}", file=sys.stderr)
        return 2
    app = FireteamApp(game, role=role, replay=replay or bool(locked_by))
    app.owns_game = True
    app.locked_by = locked_by
    app.run()
    return app.return_code or 0
