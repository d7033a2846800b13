"""The Fireteam Textual app: one game, one role, one seat.

Several apps may share one :class:`core.game.Game` in one process (one per SSH
seat).  Each subscribes to the game and, when any seat's command changes it,
redraws its own panes from its own role's view.  The listener only posts a
message to its app: the game's outcome (which holds events hidden from some
roles) is never kept, and the redraw happens in the app's own task.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable, Iterable
from datetime import datetime
from functools import partial
from pathlib import Path

import msgspec
from textual import events
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
from tui.screens.loading import LoadingScreen
from tui.userdata import Settings, UserStore

SAVES = Path("saves")
DEMO_RULESET = "breaking-news"
DEMO_SCENARIO = "demo"
#: How often a game open read-only looks for what its writer appended.
FOLLOW_EVERY_S = 0.5
#: A save larger than this is opened inside the client, with a progress bar
#: (a million events take seconds); a smaller one before it starts.
LOAD_IN_APP_BYTES = 8 << 20
#: How often the progress bar is redrawn while a big save loads: every redraw
#: takes the interpreter from the loader, which a hundred redraws slowed by half.
PROGRESS_EVERY_S = 0.25

#: Opens the game, telling a progress callback (bytes read, bytes in all); returns it and who else writes it.
Opener = Callable[[Callable[[int, int], None]], tuple[Game, str]]


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
        Binding("ctrl+backslash,f12", "screenshot", "Save a screenshot (SVG)", show=False),
    ]

    def __init__(
        self,
        game: Game | None,
        *,
        role: str = REFEREE,
        seat: str = "",
        replay: bool = False,
        remote: bool = False,
        store: UserStore | None = None,
        opener: Opener | None = None,
        opening: str = "the save",
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        self.game = game
        #: Where settings, histories and screenshots are kept (None: nothing is remembered).
        self.store = None if remote else store
        self.settings = Settings()
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
        #: Whether the cycle collector was paused for the start (``tui.main``), to resume at the first frame.
        self.gc_paused = False
        #: With no game yet: what opens it, in a worker thread, while a progress bar shows.
        self.opener = opener
        self._opening = opening
        self._loading: LoadingScreen | None = None
        #: Why the game could not be opened that way (run_app says it once the screen is put back).
        self.load_error = ""

    # ---------------------------------------------------------------- lifecycle

    async def on_event(self, event: events.Event) -> None:
        # A question on the game screen (undo, redo) has the first say on every
        # key, and is dropped by any other input (GameScreen.confirm_key).
        if isinstance(event, events.Key | events.Paste | events.MouseDown) and not event.is_forwarded:
            screen = self.screen
            if isinstance(screen, GameScreen) and screen.confirm_key(getattr(event, "key", None)):
                return
        await super().on_event(event)

    async def on_mount(self) -> None:
        self._load_settings()
        if self.game is None:
            assert self.opener is not None, "FireteamApp needs a game or an opener"
            self._loading = LoadingScreen(self._opening)
            await self.push_screen(self._loading)
            self.run_worker(self._open_in_thread, thread=True, group="open")
            return
        await self._start()

    def _open_in_thread(self) -> None:
        told = -PROGRESS_EVERY_S

        loading, opener = self._loading, self.opener
        assert loading is not None and opener is not None

        def progress(done: int, total: int) -> None:
            nonlocal told
            now = time.monotonic()
            if now - told >= PROGRESS_EVERY_S or done >= total:
                told = now
                # Posted, not called (call_from_thread waits for the screen's
                # turn): the loader goes on reading while the bar is drawn.
                loading.post_message(LoadingScreen.Progress(done, total))

        try:
            game, locked_by = opener(progress)
        except SaveError as e:
            self.call_from_thread(self._not_opened, f"cannot open the save: {e}")
            return
        except OSError as e:
            self.call_from_thread(self._not_opened, f"cannot open the save: {e.strerror or e}")
            return
        self.call_from_thread(self._opened, game, locked_by)

    def _not_opened(self, why: str) -> None:
        self.load_error = why
        self.exit(return_code=2)

    async def _opened(self, game: Game, locked_by: str) -> None:
        problem = check_role(game, self.role)
        if problem:
            game.close()
            self._not_opened(problem)
            return
        self.game, self.owns_game, self.locked_by = game, True, locked_by
        self.replay = self.replay or bool(locked_by)
        await self.pop_screen()
        await self._start()

    async def _start(self) -> None:
        # The game screen sits on the (blank) default screen, so switching games
        # can replace it like any pushed screen.
        await self.push_screen(self._game_screen())
        if self.gc_paused:
            self.call_after_refresh(self._resume_gc)
        self._unsubscribe = self.game.subscribe(self._game_changed)
        for note in self.game.notes:
            self.notify(note, title="The save was repaired on opening", severity="warning", timeout=10, markup=False)
        if not self.remote:
            self.set_interval(FOLLOW_EVERY_S, self._follow_save)
        if self.locked_by:
            self.push_screen(LockedScreen(str(self.game.path), self.locked_by), self._locked_answer)

    def _resume_gc(self) -> None:
        """The first frame is drawn: what the start made stays, out of the collector's way."""
        gc.freeze()
        gc.enable()
        self.gc_paused = False

    def _load_settings(self) -> None:
        if self.store is None:
            return
        self.settings = self.store.load_settings()
        if self.settings.theme:
            if self.settings.theme in self.available_themes:
                self.theme = self.settings.theme
            else:
                self.store.notices.append(f"settings: no theme {self.settings.theme!r}; the default is used")
        self.show_notices()
        self.theme_changed_signal.subscribe(self, lambda theme: self.remember(theme=theme.name))

    def show_notices(self) -> None:
        """Tell the player what was wrong with the files read (once each)."""
        if self.store is not None:
            for note in self.store.notices:
                self.notify_stored(note)
            self.store.notices.clear()

    def notify_stored(self, message: str) -> None:
        self.notify(message, title="Your settings", severity="warning", timeout=10, markup=False)

    def remember(self, **changes) -> None:
        """Change settings and write them (in a thread: a disk may be slow)."""
        if self.store is None:
            return
        self.settings = msgspec.structs.replace(self.settings, **changes)
        store, settings = self.store, self.settings
        self.run_worker(lambda: self._write(store.save_settings, settings), thread=True, group="settings")

    def _write(self, write, *args) -> None:
        try:
            write(*args)
        except OSError as e:
            self.call_from_thread(self.notify_stored, f"could not save your settings or history: {e}")

    def _locked_answer(self, read_only: bool | None) -> None:
        if not read_only:
            self.exit(return_code=0)
        else:
            self.notify(f"read-only: following the game written by {self.locked_by}", timeout=8, markup=False)

    def _follow_save(self) -> None:
        """A game open read-only takes in what its writer (another process) appends."""
        game = self.game
        if game is None or game.writable or getattr(game, "follow_failed", False):
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
        if self.owns_game and self.game is not None:
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
            elif getattr(screen, "game", None) is self.game and hasattr(screen, "refresh_report"):
                # A ReportScreen, named by what it does: its module (and its chart
                # library) is imported when a report is first opened, not at the start.
                screen.refresh_report()

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
            if command.title == "Screenshot":
                continue  # Textual's own writes to the current folder or Downloads: ours is below
            yield command
        if not self.remote:  # it would write to the server's disk
            yield SystemCommand("Screenshot", "Save an SVG screenshot in your data folder", self.action_screenshot)

    def screenshot_folder(self) -> Path:
        return (self.store or UserStore.default()).screenshots

    def action_screenshot(self) -> None:
        if self.remote:
            self.notify("screenshots are not saved on a shared table", severity="warning", markup=False)
            return
        folder = self.screenshot_folder()
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            path = self.save_screenshot(path=str(folder))
        except OSError as e:
            self.notify(f"no screenshot: {folder}: {e.strerror or e}", severity="error", markup=False)
            return
        self.notify(f"screenshot saved in {folder}: {Path(path).name}", timeout=8, markup=False)

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


def open_game(save: Path | None, replay: bool, progress: Callable[[int, int], None] | None = None) -> Game:
    """The game to show: a save, or a new demo game.  Raises SaveError or OSError."""
    if save is None:
        if replay:
            raise SaveError("--replay needs a save to replay")
        return new_demo_game()
    if not save.exists():
        raise SaveError(f"{save}: no such save")
    return Game.open(save, writable=not replay, progress=progress)


def check_role(game: Game, role: str) -> str | None:
    """Why ``role`` cannot watch this game (None if it can)."""
    if role in (REFEREE, SPECTATOR) or role in game.state.sides:
        return None
    sides = ", ".join(game.state.sides) or "none yet"
    return f"--as {role}: not a role of this game (referee, spectator, or a side: {sides})"


def open_or_follow(
    save: Path | None, replay: bool, progress: Callable[[int, int], None] | None = None
) -> tuple[Game, str]:
    """``open_game``, or, when another process writes the save, the save opened
    read-only (to follow that game) and who writes it."""
    try:
        return open_game(save, replay, progress), ""
    except SaveLocked as e:
        return Game.open(e.path, writable=False, progress=progress), e.who


def _big(save: Path | None) -> bool:
    try:
        return save is not None and save.stat().st_size > LOAD_IN_APP_BYTES
    except OSError:
        return False  # opened the usual way, which says why it cannot be


def run_app(save: Path | None, replay: bool, role: str) -> int:
    if _big(save):
        assert save is not None
        opener = partial(open_or_follow, save, replay)
        app = FireteamApp(None, role=role, replay=replay, store=UserStore.default(), opener=opener, opening=save.name)
        app.gc_paused = not gc.isenabled()  # resumed at the game's first frame, as below
        app.run()
        if app.load_error:
            print(f"fireteam: {app.load_error}", file=sys.stderr)
        return app.return_code or 0
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
    app = FireteamApp(game, role=role, replay=replay or bool(locked_by), store=UserStore.default())
    app.owns_game = True
    app.locked_by = locked_by
    app.gc_paused = not gc.isenabled()
    app.run()
    return app.return_code or 0
