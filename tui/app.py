"""The Fireteam Textual app: one game, one role, one seat.

Several apps may share one :class:`core.game.Game` in one process (one per SSH
seat).  Each subscribes to the game as its role and, when any seat's command
changes what that role may see, redraws its own panes from its own role's view
(a command hidden from it calls nothing: not a byte goes to its terminal).  The
listener only posts a message to its app, and the redraw happens in the app's own task.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import msgspec
from rich.terminal_theme import TerminalTheme
from textual import constants, events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.filter import LineFilter, Monochrome, NoColor
from textual.geometry import Offset
from textual.message import Message
from textual.screen import Screen

from core import folders
from core.errorlog import ErrorLog
from core.game import Game
from core.language.reader import LANGUAGE_NAMES, reader
from core.log.outcome import Outcome
from core.refusal import LOG as CORE_LOG
from core.ruleset import Refused
from core.storage.errors import SaveError
from tui.contrast import ContrastGuard, ReadableMonochrome
from tui.focus_cursor import focus_point
from tui.i18n import N_, _
from tui.opening import (
    OpenAhead,
    check_role,
    new_demo_game,
)
from tui.screens.game import GameScreen
from tui.stylesheet import SharedStylesheet
from tui.textual_internals import RepaintsAfterBatch, css_variables, switchable
from tui.themes import HIGH_CONTRAST, HIGH_CONTRAST_ANSI, THEMES
from tui.typeahead import Typeahead
from tui.userdata import Settings, UserStore

if TYPE_CHECKING:
    from textual.command import Provider

    from tui.screens.client import ClientApp
    from tui.screens.loading import LoadingScreen

#: How often a game open read-only looks for what its writer appended.
FOLLOW_EVERY_S = 0.5
#: A big save whose load (started before the app, ``OpenAhead``) ends within this
#: shows no progress bar: the bar's screen would cost the load more than it tells
#: (100,000 events load in 0.3-0.5 s); a longer load shows it from then on.
PROGRESS_AFTER_S = 0.5
#: How often the progress bar is redrawn while a big save loads: every redraw
#: takes the interpreter from the loader, which a hundred redraws slowed by half.
PROGRESS_EVERY_S = 0.25

#: Opens the game, telling a progress callback (bytes read, bytes in all); returns it and who else writes it.
Opener = Callable[[Callable[[int, int], None]], tuple[Game, str]]


#: The command palette entries Textual adds (``App.get_system_commands``), for the catalogue.
TEXTUAL_COMMANDS = (
    N_("Theme"),
    N_("Change the current theme"),
    N_("Quit"),
    N_("Quit the application as soon as possible"),
    N_("Keys"),
    N_("Hide the keys and widget help panel"),
    N_("Show help for the focused widget and a summary of available keys"),
    N_("Minimize"),
    N_("Minimize the widget and restore to normal size"),
    N_("Maximize"),
    N_("Maximize the focused widget"),
)


class GameChanged(Message):
    """Some seat changed the game; redraw."""


def _game_commands() -> type[Provider]:
    """The palette's game commands: imported when the palette first opens, not by a start."""
    from tui.palette import GameCommands

    return GameCommands


class FireteamApp(RepaintsAfterBatch, App):
    CSS_PATH = "fireteam.tcss"
    TITLE = "Fireteam"
    COMMANDS = App.COMMANDS | {_game_commands}  # Textual calls it for the class when the palette opens
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    #: Under 22 rows the dice pane is one line, the last roll; under 30 it is shorter; from 40, taller.
    VERTICAL_BREAKPOINTS = [(0, "-tiny"), (22, "-short"), (30, "-tall"), (40, "-taller")]
    BINDINGS = [
        Binding("ctrl+q", "quit", N_("Quit"), priority=True),
        Binding("ctrl+backslash,f12", "screenshot", N_("Save a screenshot (SVG)"), show=False),
    ]
    QUIT_KEYS: ClassVar[frozenset[str]] = frozenset(
        key
        for binding in BINDINGS
        if isinstance(binding, Binding) and binding.action == "quit"
        for key in binding.key.split(",")
    )

    def __init__(
        self,
        game: Game | None,
        *,
        role: str,
        seat: str = "",
        replay: bool = False,
        remote: bool = False,
        watching: bool = False,
        store: UserStore | None = None,
        opener: Opener | None = None,
        opening: str = "",
        lang: str | None = None,
        typed: str = "",
        start: bool = False,
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        # Nothing is parsed yet: every app of the process shares the rules it parses (``tui.stylesheet``).
        # Its variables are those Textual's own stylesheet was just given (the theme's
        # colours, which cost ~2 ms to compute again).
        self.stylesheet = SharedStylesheet(variables=dict(css_variables(self.stylesheet)))
        for theme in THEMES:  # before the settings name one of them (on_mount)
            self.register_theme(theme)
        self.game = game
        #: Keys typed before the game screen is up (``typed``: before the app ran), held for its command line.
        self.typeahead = Typeahead(typed)
        #: Where settings, histories and screenshots are kept (None: nothing is remembered).
        self.store = None if remote else store
        self.settings = Settings()
        self.role = role
        self.seat = seat
        self.replay = replay
        self.remote = remote
        #: A seat at a browser's page (``tui.ssh.web.door``): its keys are the page's row (Esc, Tab, the
        #: arrows, F1, ^P) and a phone's keyboard, no Ctrl: what a screen says to press is among them.
        self.page = False
        #: How a seat of a shared table keeps its player's copy of the game (``tui.copies``): set by
        #: the seat (``SeatSession.keep_copy``), it returns what to tell him; None at this machine's client.
        self.keep_copy_at_seat: Callable[[], str] | None = None
        #: Drawn once for every spectator of an SSH table (``tui.ssh.seating.sharedscreen``):
        #: no key of theirs reaches it.
        self.watching = watching
        #: Games this app opened itself (new game, load game) and so must close.
        self.owns_game = False
        self._unsubscribe: Callable[[], None] | None = None
        self._redraw_queued = False
        #: Where the core's errors are logged while this app runs (``core.errorlog.ErrorLog``).
        self._error_log: ErrorLog | None = None
        #: Who writes the save, when it was opened read-only because another process does.
        self.locked_by = ""
        #: A game open read-only whose save could not be followed: it is followed no more.
        self._unfollowed: Game | None = None
        #: Whether the cycle collector was paused for the start (``tui.main``), to resume at the first frame.
        self.gc_paused = False
        #: With no game yet: what opens it, in a worker thread, while a progress bar shows.
        self.opener = opener
        self._opening = opening
        #: The language ``--lang`` chose; None: the saved setting, else the reader's as it
        #: stands (the locale's, set by ``run_app``; an SSH seat's, set by the server).
        self.lang = lang
        self._loading: LoadingScreen | None = None
        #: Why the game could not be opened that way (run_app says it once the screen is put back).
        self.load_error = ""
        #: With no game and no opener: the start screen chooses the game (``fireteam`` with no save).
        self.start = start
        self._prepared = False  # the settings and the language, before the first screen (``_prepare``)

    def get_driver_class(self):
        """Textual's driver for this terminal; on Linux and macOS, with what is typed bounded (``tui.local_driver``)."""
        driver = super().get_driver_class()
        # (Not when TEXTUAL_DRIVER names one: ``fireteam bench --flood --unbounded`` runs Textual's own.)
        if constants.DRIVER is None and driver.__name__ == "LinuxDriver":
            from tui.local_driver import LocalDriver

            return LocalDriver
        return driver

    #: Under NO_COLOR: Textual's greys, every character black or white on its own (``tui.contrast``).
    READABLE_MONOCHROME = ReadableMonochrome()
    #: Under the high-contrast theme: every character at 7 to 1 on its background.
    CONTRAST_GUARD = ContrastGuard()

    def get_line_filters(self) -> Sequence[LineFilter]:
        filters = [self.READABLE_MONOCHROME if isinstance(f, Monochrome) else f for f in super().get_line_filters()]
        if self.no_color and not any(isinstance(f, (ReadableMonochrome, NoColor)) for f in filters):
            # NO_COLOR asked after Textual made its filters: an SSH seat whose client sent it (tui.ssh.seating.seat).
            filters.append(self.READABLE_MONOCHROME)
        return [*filters, self.CONTRAST_GUARD] if self.theme == HIGH_CONTRAST.name else filters

    @property
    def cursor_position(self) -> Offset:
        """Where Textual puts the terminal's cursor at the end of each frame: at the focus
        (``tui.focus_cursor``), worked out for the frame being written, so that a braille
        display or a magnifier follows the focus and an idle redraw leaves it where it is."""
        return focus_point(self) or Offset(0, 0)

    @cursor_position.setter
    def cursor_position(self, offset: Offset) -> None:
        # Textual's text boxes set it as they change: the place is worked out when a frame is written.
        pass

    @property
    def ansi_theme(self) -> TerminalTheme:
        # The colours the panes name, bright enough on the high-contrast theme's black.
        return HIGH_CONTRAST_ANSI if self.theme == HIGH_CONTRAST.name else super().ansi_theme

    # ---------------------------------------------------------------- lifecycle

    async def on_event(self, event: events.Event) -> None:
        typed = isinstance(event, events.Key | events.Paste) and not event.is_forwarded
        if typed and not self._quits_loading(event) and self.typeahead.hold(event):
            return  # until the game screen is up (tui.typeahead)
        # A question on the game screen (undo, redo) has the first say on every
        # key, and is dropped by any other input (GameScreen.confirm_key).
        if isinstance(event, events.Key | events.Paste | events.MouseDown) and not event.is_forwarded:
            screen = self.screen
            printable = not isinstance(event, events.Key) or event.is_printable
            if isinstance(screen, GameScreen) and screen.confirm_key(getattr(event, "key", None), printable):
                return
        await super().on_event(event)

    def _quits_loading(self, event: events.Event) -> bool:
        """Whether ``event`` is the quit key pressed while a big save loads: it quits at once
        (held, it would wait for the load to end; elsewhere it keeps its place among the keys)."""
        return self.game is None and getattr(event, "key", None) in self.QUIT_KEYS

    async def _release_typeahead(self) -> None:
        """The game screen's first frame is drawn and its command line focused: the keys held go there."""
        for event in self.typeahead.release():
            await self.on_event(event)

    def get_default_screen(self) -> Screen:
        """The app's first screen: with the game given, the game's own (``GameScreen``).

        Textual's default is a blank screen, under which the game screen was then
        pushed: a second screen composed, styled (twice more: resumed, resized),
        laid out and given its own notification rack and tooltip, never seen,
        before the first frame (~6 ms of a 250 ms start, issue #32).  What the game
        screen is made with (the settings, the language) is settled first
        (``_prepare``, which ``on_mount`` would do later)."""
        if self.game is None and not self._opened_ahead():
            return super().get_default_screen()  # the start screen, or a game still opening, goes over it
        self._prepare()
        return switchable(self._game_screen())  # replaced when another game is shown (``_show_game``)

    def _opened_ahead(self) -> bool:
        """Whether an open started before the app (``OpenAhead``) has ended within
        ``PROGRESS_AFTER_S`` with a game to show, now ``self.game``: its screen is then
        the app's first, as a game given to the app is, not one pushed over a blank
        screen drawn meanwhile (which cost the first frame its compose, styles and
        layout).  The wait joins the loader's thread, which then has the interpreter
        to itself.  A failed open, or a role it has not, is left to ``on_mount``
        (``_opened_soon``)."""
        opener = self.opener
        if self.start or not isinstance(opener, OpenAhead) or not opener.wait(PROGRESS_AFTER_S):
            return False
        try:
            game, locked_by = opener(lambda done, total: None)
        except (SaveError, OSError):
            return False  # raised again there, and said
        if check_role(game, self.role) is not None:
            return False  # (the same game again there, closed and said)
        self.game, self.owns_game, self.locked_by = game, True, locked_by
        self.replay = self.replay or bool(locked_by)
        return True

    def _prepare(self) -> None:
        """Once, before the first screen: the error log, the settings (the theme), the language."""
        if self._prepared:
            return
        self._prepared = True
        if self.store is not None:  # a seat's errors go to the server's log
            self._error_log = ErrorLog(self.store.error_log)
            CORE_LOG.addHandler(self._error_log)
        self._load_settings()
        chosen = self.lang or self.settings.lang
        if chosen and not self.remote:  # a seat's language is the server's to set (its reader, before the app)
            reader().set(chosen)

    async def on_mount(self) -> None:
        self._prepare()
        if self.game is None and self.start:
            await self._show_start()
            return
        if self.game is None:
            assert self.opener is not None, "FireteamApp needs a game, an opener or the start screen"
            if await self._opened_soon():
                return
            from tui.screens.loading import LoadingScreen  # only a big save shows it: not imported otherwise

            self._loading = LoadingScreen(self._opening or _("the save"))
            await self.push_screen(self._loading)
            self.run_worker(self._open_in_thread, thread=True, group="open")
            return
        await self._start()

    async def _show_start(self) -> None:
        from tui.screens.start import StartScreen  # only `fireteam` with no save shows it

        # Keys typed while the client started were not meant as a choice on this screen: dropped.
        self.typeahead.release()
        from tui.gamestart import last_games

        saves = folders.saves()
        recent = last_games(self.store, saves) if self.store is not None else []
        await self.push_screen(StartScreen(recent, saves, new_demo_game))
        if self.gc_paused:
            self.call_after_refresh(self._resume_gc)
        # A save chosen there that another process writes is followed, as from the command line.
        self.set_interval(FOLLOW_EVERY_S, self._follow_save)

    async def _opened_soon(self) -> bool:
        """Whether an open started before the app (``OpenAhead``) ends within
        ``PROGRESS_AFTER_S``: its game (or why it cannot be opened) is then shown
        without a progress bar, whose screen would only have slowed the load."""
        opener = self.opener
        if not isinstance(opener, OpenAhead) or not await asyncio.to_thread(opener.wait, PROGRESS_AFTER_S):
            return False
        try:
            game, locked_by = opener(lambda done, total: None)
        except SaveError as e:
            self._not_opened_because(str(e))
        except OSError as e:
            self._not_opened_because(str(e.strerror or e))
        else:
            await self._opened(game, locked_by)
        return True

    def _open_in_thread(self) -> None:
        told = -PROGRESS_EVERY_S

        from tui.screens.loading import LoadingScreen

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

        # The reasons are put in words in the app's task, which knows its reader (a thread does not).
        try:
            game, locked_by = opener(progress)
        except SaveError as e:
            self.call_from_thread(self._not_opened_because, str(e))
            return
        except OSError as e:
            self.call_from_thread(self._not_opened_because, str(e.strerror or e))
            return
        # (mypy solves Textual's ``T | Awaitable[T]`` for a coroutine of None as Never.)
        self.call_from_thread(self._opened, game, locked_by)  # type: ignore[arg-type]

    def _not_opened_because(self, error: str) -> None:
        self._not_opened(_("cannot open the save: {error}").format(error=error))

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
        if self._loading is not None:
            await self.pop_screen()
            self._loading = None
        await self._start()

    async def _start(self) -> None:
        game = self.game
        assert game is not None, "started without a game"
        bottom = self.screen_stack[0]
        if isinstance(bottom, GameScreen):  # the app's own first screen (``get_default_screen``)
            # Mounted in a task of its own: what follows is done once its first frame is
            # drawn and what that frame left for later mounted, as when it was pushed here.
            await bottom.mounted.wait()
            if bottom.mount_failed:  # its first frame never comes: waiting for it hung the app
                return
            await bottom.wait_for_refresh()
        else:
            # A game opened once the app ran: its screen goes on the (blank) default
            # screen, which it then replaces when the game is switched.
            await self.push_screen(self._game_screen())
        if self.return_code is not None:
            # Told to exit as it started (a remote seat whose player left as it arrived, a user
            # who quit at once): Textual mounted none of the screen's panes, and there is nothing
            # to show or to listen for; what the load found is kept all the same (the open cache's
            # entry: the save's next open is quick).
            game.keep_cache()
            return
        # What the open left for later (the open cache's entry, ``run_app``) is done once the game shows.
        self.call_after_refresh(game.keep_cache)
        if self.gc_paused:
            self.call_after_refresh(self._resume_gc)
        self.call_after_refresh(self._release_typeahead)
        self._unsubscribe = self._listen(game)
        # The screen was composed from the game before it listened: what another seat did
        # meanwhile (a loaded server draws a first frame slowly) is looked for once more.
        self._game_changed(None)
        for note in game.notes:
            self.notify(note, title=_("The save was repaired on opening"), severity="warning", timeout=10, markup=False)
        if not self.remote:
            self.set_interval(FOLLOW_EVERY_S, self._follow_save)
        if self.locked_by:
            # Keys typed so far were for the command line, not answers to this question: dropped.
            self.typeahead.release()
            from tui.screens.dialogs import LockedScreen  # a locked save's question: not otherwise imported

            self.push_screen(LockedScreen(str(game.path), self.locked_by), self._locked_answer)

    def _resume_gc(self) -> None:
        """The first frame is drawn: what the start made stays, out of the collector's way."""
        gc.freeze()
        gc.enable()
        self.gc_paused = False

    def _load_settings(self) -> None:
        if self.store is None:
            return
        self.settings = self.store.load_settings()
        from tui.keymap import checked
        from tui.themes import user_themes

        themes, problems = user_themes(self.store.themes_folder)
        for theme in themes:
            if theme.name in self.available_themes:
                problems.append(_("themes: {name} is a theme already; the file is left out").format(name=theme.name))
            else:
                self.register_theme(theme)
        keymap, wrong_keys = checked(self.settings.keys)
        if keymap:
            self.set_keymap(keymap)  # (what every key named in words is read from: tui.keymap)
        self.store.notices.extend([*problems, *wrong_keys])
        if self.settings.theme:
            if self.settings.theme in self.available_themes:
                self.theme = self.settings.theme
            else:
                self.store.notices.append(
                    _("settings: no theme {theme}; the default is used").format(theme=repr(self.settings.theme))
                )
        self.show_notices()
        self.theme_changed_signal.subscribe(self, lambda theme: self.remember(theme=theme.name))

    def show_notices(self) -> None:
        """Tell the player what was wrong with the files read (once each)."""
        if self.store is not None:
            for note in self.store.notices:
                self.notify_stored(note)
            self.store.notices.clear()

    def notify_stored(self, message: str) -> None:
        self.notify(message, title=_("Your settings"), severity="warning", timeout=10, markup=False)

    def remember(self, **changes) -> None:
        """Change settings and write them (in a thread: a disk may be slow)."""
        if self.store is None:
            return
        self.settings = msgspec.structs.replace(self.settings, **changes)
        store, settings = self.store, self.settings
        self.run_worker(lambda: self.write_user_data(store.save_settings, settings), thread=True, group="settings")

    def write_user_data(self, write: Callable[..., object], *args: object) -> None:
        """Run ``write`` (a ``UserStore`` method; in a worker thread): a failure is told, not raised."""
        try:
            write(*args)
        except OSError as e:
            self.call_from_thread(self._not_written, str(e))

    def _not_written(self, error: str) -> None:
        self.notify_stored(_("could not save your settings or history: {error}").format(error=error))

    def _locked_answer(self, read_only: bool | None) -> None:
        if not read_only:
            self.exit(return_code=0)
        else:
            self.notify(
                _("read-only: following the game written by {who}").format(who=self.locked_by), timeout=8, markup=False
            )

    def _follow_save(self) -> None:
        """A game open read-only takes in what its writer (another process) appends."""
        game = self.game
        if game is None or game.writable or game is self._unfollowed:
            return
        try:
            game.follow()
        except SaveError as e:
            self._unfollowed = game
            self.notify(
                _("stopped following the save: {error}").format(error=e), severity="error", timeout=15, markup=False
            )

    def on_unmount(self) -> None:
        if self._error_log is not None:
            CORE_LOG.removeHandler(self._error_log)
            self._error_log.close()
            self._error_log = None
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.owns_game and self.game is not None:
            self.game.close()

    def _listen(self, game: Game) -> Callable[[], None]:
        """Listen to ``game``'s changes, and to the command its table holds for a seat's dice (issue #61)."""
        stops = (
            game.subscribe(self._game_changed, role=self.role),
            game.awaiting.subscribe(lambda: self._game_changed(None)),
            game.rolling.subscribe(lambda: self._game_changed(None)),  # whose dice another seat types (#77)
        )

        def stop() -> None:
            for each in stops:
                each()

        return stop

    def _game_changed(self, outcome: Outcome | None) -> None:
        # Called synchronously by whichever seat ran the command, maybe another
        # app's task: only queue a message here (see the module docstring).
        # Several changes before the app gets to it make one redraw.
        if not self._redraw_queued:
            self._redraw_queued = True
            self.post_message(GameChanged())

    def on_game_changed(self, message: GameChanged) -> None:
        self._redraw_queued = False
        if self.return_code is not None:
            return  # closing: its screens may have lost their panes already
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen) and screen.game is self.game:
                screen.refresh_game(force=False)
                screen.show_awaiting()
            elif getattr(screen, "game", None) is self.game and hasattr(screen, "refresh_report"):
                # A ReportScreen, named by what it does: its module (and its chart
                # library) is imported when a report is first opened, not at the start.
                screen.refresh_report()

    def switch_game(self, game: Game, *, replay: bool = False) -> None:
        """Play (or replay) another game in this app: new game and load game (never remote)."""
        if self.remote:
            raise Refused(_("a shared table cannot switch games"))
        if self._unsubscribe is not None:
            self._unsubscribe()
        old, owned = self.game, self.owns_game
        self.game, self.replay, self.owns_game = game, replay or bool(game.copy_role), True
        self._unsubscribe = self._listen(game)
        if owned and old is not None and old is not game:
            old.close()
        self.call_later(self._show_game)

    def _game_screen(self) -> GameScreen:
        game = self.game
        assert game is not None, "a game screen without a game"
        # A side's copy is shown as its side's game: it holds nothing more.
        role = game.copy_role or self.role
        return GameScreen(
            game,
            role=role,
            seat=self.seat,
            replay=self.replay,
            remote=self.remote,
            watching=self.watching,
            host=self,
        )

    async def _show_game(self) -> None:
        # Down to the game screen (the first, or the one over the blank default), which is replaced.
        while len(self.screen_stack) > (1 if isinstance(self.screen_stack[0], GameScreen) else 2):
            await self.pop_screen()
        screen = self._game_screen()
        await self.switch_screen(screen)
        for note in screen.game.notes:
            self.notify(note, title=_("The save was repaired on opening"), severity="warning", timeout=10, markup=False)

    # ---------------------------------------------------------------- language

    def set_language(self, lang: str) -> None:
        """Show this app (this seat alone, over SSH) in ``lang`` from now on, and remember it."""
        reader().set(lang)
        self.remember(lang=lang)
        for screen in self.screen_stack:
            retranslate = getattr(screen, "retranslate", None)
            if retranslate is not None:
                retranslate()
        self.screen.refresh_bindings()  # the footer's words
        self.notify(_("Language: {name}").format(name=LANGUAGE_NAMES[lang]), timeout=4, markup=False)

    # ------------------------------------------------------------- remote seats

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if command.title == "Screenshot":
                continue  # Textual's own writes to the current folder or Downloads: ours is below
            # Textual's words, in the reader's language (TEXTUAL_COMMANDS lists them for the catalogue).
            yield command._replace(title=_(command.title), help=_(command.help))
        if not self.remote:  # it would write to the server's disk
            yield SystemCommand(
                _("Screenshot"), _("Save an SVG screenshot in your data folder"), self.action_screenshot
            )

    def keep_copy(self, game: Game, role: str) -> None:
        """The player's own copy of the game so far (``tui.copies``): where his door puts it, said in a notice."""
        if self.keep_copy_at_seat is not None:
            self.notify(self.keep_copy_at_seat(), timeout=20, markup=False)
            return
        from tui.copies import keep_here  # (a side's copy: nothing the first frame needs imported)

        said, kept = keep_here(game, role, self.store)
        self.notify(said, timeout=12 if kept else 20, severity="information" if kept else "error", markup=False)

    def screenshot_folder(self) -> Path:
        return (self.store or UserStore.default()).screenshots

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        """Textual's action, its SVG saved as ``filename`` (None: Textual's name for it) in ``path`` (None:
        the user's screenshots folder, not Textual's Downloads)."""
        if self.remote:
            self.notify(_("screenshots are not saved on a shared table"), severity="warning", markup=False)
            return
        folder = Path(path) if path is not None else self.screenshot_folder()
        try:
            folder.mkdir(parents=True, exist_ok=True, mode=0o700)
            saved = self.save_screenshot(filename, path=str(folder))
        except OSError as e:
            self.notify(
                _("no screenshot: {folder}: {error}").format(folder=folder, error=e.strerror or e),
                severity="error",
                markup=False,
            )
            return
        self.notify(
            _("screenshot saved in {folder}: {name}").format(folder=folder, name=Path(saved).name),
            timeout=8,
            markup=False,
        )

    def action_command_palette(self) -> None:
        """Textual's command palette, its search box in the reader's language."""
        from textual.command import CommandPalette

        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(CommandPalette(id="--command-palette", placeholder=_("Search for commands…")))

    def action_suspend_process(self) -> None:
        if not self.remote:
            super().action_suspend_process()


# --------------------------------------------------------------------- entry


if TYPE_CHECKING:
    # Fireteam's app is what its screens take it for (``tui.screens.client``): mypy checks it here.
    _CLIENT_APP: type[ClientApp] = FireteamApp
