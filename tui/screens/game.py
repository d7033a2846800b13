"""The game screen: four panes over one game, live (with the command line) or in replay.

Live, the panes show ``game.view(role)``; in replay they show the game as it
stood after ``step`` effective events (``Timeline.state_at`` through
``Game.view(role, step)``), and a replay bar takes the command line's place.
Watching (the screen the SSH table draws once for all its spectators), a line
saying so takes the place of the command line and the footer: no key of a
spectator's reaches it.

The screen is its compose and the wiring between the parts it holds, each owning its state and
reaching the screen only through ``tui.screens.seat.SeatScreen``: the replay bar and its keys
(``replay_bar``), a command held for a seat's dice (``held_rolls``), undo and redo (``undo_redo``),
what the command line gives the game (``command_runner``) and what it says back (``line_answers``),
and the help, rules and palette (``game_menu``).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import msgspec
from textual import events, on
from textual.app import App, ComposeResult
from textual.containers import Container
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget

from core.game import Game, LogLine
from core.language.reader import LANGUAGE_NAMES
from core.log import events as ev
from core.log.narrate import sides_of
from core.log.state import encode_state, table_dice
from core.log.views import REFEREE
from tui.commandline import CommandInput, CommandLine
from tui.compositor import RowsCompositor
from tui.i18n import _, role_words, scenario_words
from tui.keymap import GAME_BINDINGS
from tui.panes.dice import DicePane
from tui.panes.log import LogPane, LogView
from tui.panes.phase import PhasePane
from tui.panes.roster import RosterPane
from tui.plain import Plain, PlainInput, plain
from tui.screens.client import ClientApp, client_app, size_classes
from tui.screens.command_runner import CommandRunner, reading_words
from tui.screens.held_rolls import HeldRolls
from tui.screens.line_answers import LineAnswers
from tui.screens.undo_redo import UndoRedo
from tui.textual_internals import mount_overlays, overlays_later, unshown, use_compositor
from tui.viewpoint import Viewpoint

if TYPE_CHECKING:
    from tui.screens.replay_bar import ReplayBar
    from tui.screens.seat import Part

RECENT_ROLLS = 6
#: The smallest terminal the game screen works in (columns, rows): below it the log
#: would have no room, so the screen says so instead of drawing the panes.
MIN_SIZE = (60, 16)


class FooterRoom(Widget):
    """The footer's row, blank, until the footer is mounted in its place."""

    DEFAULT_CSS = """
    FooterRoom { dock: bottom; height: 1; background: $footer-background; }
    """

    def render(self) -> str:
        return ""


class WatchLine(Plain):
    """The watching screen's last row: what a spectator may do (leave)."""

    DEFAULT_CSS = """
    WatchLine { dock: bottom; height: 1; padding: 0 1; background: $footer-background; }
    """


def _watch_line() -> str:
    return _("Watching: spectators cannot give commands. Ctrl+Q leaves.")


@overlays_later  # the notifications' rack and the tooltip: mounted once the first frame is drawn (``_add_hidden``)
class GameScreen(Screen):
    BINDINGS = [*GAME_BINDINGS]

    def __init__(
        self,
        game: Game,
        *,
        role: str,
        seat: str = "",
        replay: bool = False,
        remote: bool = False,
        host: App | None = None,
        watching: bool = False,
    ) -> None:
        """``role``: whose screen it is, what it shows (no default: a screen built without saying
        whose it is would show the referee's).  ``host``: the app that will show it, whose size
        and settings it starts with (passed in: a screen not yet mounted has no app of its own to ask)."""
        # Born with the size classes its first resize would give it: given then,
        # they would restyle every widget once more before the first frame.
        super().__init__(classes=" ".join(size_classes(host)))
        # After a command only the log's rows are drawn again, and only they are rendered (``tui.compositor``).
        use_compositor(self, RowsCompositor())
        self.game = game
        self.role = role
        if role != REFEREE:
            # Table dice is the referee's choice: a side's Ctrl+T only says which it is (#61),
            # so his key bar does not offer it.
            unshown(self, "table-dice")
        self.seat = seat
        self.replay = replay or not game.writable
        self.remote = remote
        #: Drawn for spectators who only watch: no command line, no footer, no key of theirs reaches it.
        self.watching = watching and not self.replay
        # Focused as its panes are mounted, before the first frame: Textual's own
        # choice (the first focusable widget, the roster) would be drawn in the first
        # frame and moved by ``on_mount`` in the next, every widget restyled between.
        focus = "LogView" if self.replay else "CommandInput" if self.typing else None
        if focus is not None:
            # (Textual types it a class's; it reads it from the screen, so this screen's is its own.)
            self.AUTO_FOCUS = focus  # type: ignore[misc]
        self.vp = Viewpoint(game, role, game.timeline.length if self.replay else None)
        settings = getattr(host, "settings", None)  # remembered (tui.userdata)
        self.speed = settings.replay_speed if settings else 2  # the replay's, an index into replay_bar.SPEEDS
        self.cursor_blink = settings.cursor_blink if settings else True
        #: What the command line says of a command, a held command, undo and redo, and what it gives the game.
        self.answers = LineAnswers(self)
        self.held = HeldRolls(self, self.answers)
        self.undo_redo = UndoRedo(self, self.answers)
        self.runner = CommandRunner(self, self.answers, self.held)
        self._selected: LogLine | None = None
        self._seen_length = -1
        self._seen_end = self.vp.length  # the effective length last shown
        self._shown_title = ""
        self._shown_view: tuple[bytes, str] | None = None  # (the role's view, the undo hint) last shown
        self._names: dict[str, str] = {}  # unit id → name, in that view
        self._side_names: dict[str, str] = {}  # side id → name: Tab's candidates say a side's too
        self._parts: dict[type[Widget], Widget] = {}  # the panes, once found (``part``)
        self._resumed = False
        #: The size Textual last laid the screen out at, as it resumed or was resized (``on_resize``).
        self._laid_out_at: Size | None = None
        #: Set once ``on_mount`` has run: the app's first screen is mounted in a task of
        #: its own, which the app's start waits on (``FireteamApp._start``).
        self.mounted = asyncio.Event()
        #: ``on_mount`` raised: the screen will draw nothing, and Textual closes the app with the error
        #: once the app's start, waiting on this screen, has returned.
        self.mount_failed = False

    @property
    def by(self) -> str:
        return self.seat or self.role

    @property
    def table_dice(self) -> bool:
        """Whether every roll asks for the faces of real dice: the table's, its referee's
        ``table-dice`` (a fact of the log, so every seat of a served table reads the same)."""
        return table_dice(self.game.state)

    @property
    def typing(self) -> bool:
        """Whether this screen has a command line (live, and not watching)."""
        return not self.replay and not self.watching

    # ---------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        # What the first frame does not show (the undo and redo box, the notice of a
        # terminal too small, the panes' search and filter lines) is mounted once
        # that frame is drawn (``_add_hidden``): every widget is styled before the
        # first frame, which then comes sooner.
        phase = PhasePane(id="phase")
        self._shown_title = self._title()
        phase.border_title = plain(self._shown_title)
        yield phase
        with Container(id="main"):
            roster = RosterPane(id="roster")
            roster.border_title = _("Roster")
            yield roster
            log = LogPane(id="log")
            log.border_title = _("Action log")
            yield log
            dice = DicePane(id="dice")
            dice.domain = self.game.ruleset.domain
            dice.border_title = _("Last roll")
            yield dice
        if self.replay:
            from tui.screens.replay_bar import ReplayBar  # a replay's alone: a live screen's start imports none of it

            yield ReplayBar(
                self.game,
                self.role,
                self.vp,
                speed=self.speed,
                remote=self.remote,
                moved=self.refresh_game,
                id="replay-bar",
            )
        elif self.watching:
            yield WatchLine(_watch_line())
            return  # no footer either: none of its keys would reach this screen
        else:
            yield CommandLine(
                self._who(),
                self._complete,
                lambda: self.game.commands,
                self.runner.entered,
                # Over SSH a blinking cursor is a frame sent twice a second to every
                # seat, idle or not, and drawn by the server: a steady one costs nothing.
                blink=self.cursor_blink and not self.remote,
                domain=self.game.ruleset.domain,
                names=lambda: {**self._side_names, **self._names},
                readings=reading_words(),
                id="command",
            )
        # The footer's row: the footer itself (Textual's, rebuilt only when its keys
        # change) has no keys until the screen's bindings are settled, after the first
        # frame; it is mounted then (``_add_hidden``), its styles parsed and applied then.
        yield FooterRoom()

    def _who(self) -> str:
        """Who types on the command line: the role (a side by its name), after the seat's player."""
        role = role_words(self.role, self.game.state)
        return role if not self.seat or self.seat == self.role else f"{self.seat} ({role})"

    def _title(self) -> str:
        scenario = scenario_words(self.game.state.scenario) or _("no scenario yet")  # every role's view has it
        mode = _("replay") if self.replay else _("live, TABLE DICE") if self.table_dice else _("live")
        who = (
            _("referee") if self.role == REFEREE else _("as {role}").format(role=role_words(self.role, self.game.state))
        )
        # The save's name last: on a short screen the phase pane has no bottom border.
        return f"{self.game.ruleset.title(versioned=False)} · {scenario} · {who} · {mode} · {self.game.path.name}"

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if not self._resumed:
            # Shown for the first time: its widgets were styled as they were mounted, a
            # moment ago, and each widget's own CSS (scoped, Textual's default) styles
            # only it and what it holds, mounted after it.  Textual would style all
            # of them again (a screen coming back from under a dialog needs that).
            self._resumed = True
            event.refresh_styles = False
        self._laid_out_at = self.app.size  # (Textual lays it out at the app's size as it resumes)

    def on_mount(self) -> None:
        try:
            self._mount()
        except BaseException:
            self.mount_failed = True
            raise
        finally:
            self.mounted.set()

    def _mount(self) -> None:
        if self.app.return_code is not None:
            # The app is closing before it was ever shown (a remote seat that left as
            # it arrived): its panes may be gone already, and there is nothing to show.
            return
        self._check_size()
        self.query_one(LogPane).bind(self.vp)
        self.refresh_game()
        self.call_after_refresh(self._add_hidden_next_turn)
        self.app.sub_title = self.game.path.name
        self.show_notice()
        if self.replay:
            self._focus(self.query_one(LogView))
        elif self.typing:
            box = self.query_one(CommandInput)
            app = self.app
            if isinstance(app, ClientApp) and app.store is not None:
                box.recall(app.store.load_history(self.game.path))
                app.show_notices()
            self._focus(box)

    def show_notice(self) -> None:
        """The table's notice, when a server gives one (an event's round clock:
        ``tui.ssh.seating.notice``), in the lower border of the phase pane."""
        notice = getattr(self.app, "table_notice", None)
        if notice is not None:
            self.part(PhasePane).border_subtitle = plain(notice())

    def _focus(self, widget: Widget) -> None:
        """Focus ``widget`` now unless the screen's auto-focus has (``AUTO_FOCUS``, set in ``__init__``)."""
        if self.focused is not widget:
            widget.focus()

    def _add_hidden_next_turn(self) -> None:
        """The first frame is drawn: the hidden widgets are mounted in a turn of the event loop of their own.
        Textual handles the messages queued for a screen in one turn; at a seat worker, where many seats share
        the loop, the others' keys and frames then wait for the frame alone, not for these mounts as well."""
        asyncio.get_running_loop().call_soon(self.call_later, self._add_hidden)

    def _add_hidden(self) -> None:
        """The widgets the first frame does not show, mounted once it is drawn (or sooner, when asked for)."""
        if not self.is_attached:
            return
        self.call_later(mount_overlays, self)
        self._too_small()
        for room in self.query_children(FooterRoom):
            from tui.panes.footer import KeysFooter  # with Textual's footer: not for the first frame

            self.mount(KeysFooter(compact=True), after=room)
            room.remove()
        if self.typing:
            self.undo_redo.confirm_box()
        self.query_one(LogPane).add_hidden()
        self.query_one(RosterPane).add_hidden()
        if self.typing:
            # The ruleset's commands (and the modules they import) are gathered now,
            # not by the first key typed: the line's hint and completion need them.
            _ = self.game.commands

    def _too_small(self) -> Plain:
        found = self.query_children("#too-small")
        if found:
            return found.first(Plain)
        notice = Plain("", id="too-small")
        self.mount(notice)
        return notice

    def part(self, kind: type[Part]) -> Part:
        """The screen's one widget of ``kind`` (a pane composed with the screen, never
        replaced): found once, then kept.

        Textual's ``query_one`` by type walks the screen's widgets at every call
        (it keeps only what it found by id): a key redrawing the panes asked it
        some ten times, 0.5-0.9 ms of its CPU (issue #32).
        """
        found = self._parts.get(kind)
        if found is None:
            found = self._parts[kind] = self.query_one(kind)
        assert isinstance(found, kind)  # (kept under its own class)
        return found

    def _replay_bar(self) -> ReplayBar:
        """The replay bar, in the command line's place on a screen in replay (``compose``)."""
        from tui.screens.replay_bar import ReplayBar

        return self.part(ReplayBar)

    def _complete(self, text: str) -> list[str]:
        return self.game.complete(text, self.role)

    # ---------------------------------------------------------------- refresh

    def refresh_game(self, *, force: bool = True) -> None:
        """Redraw every pane from the game (after any seat's command, or a replay step)."""
        if not force and self._seen_length == self.game.log_length and self.vp.live:
            return
        asking = self.undo_redo.asking()
        if asking is not None:
            asking.answer(False)  # another seat changed the game: the question may be stale, nothing is done
        self._seen_length = self.game.log_length
        self.answers.forget_undone()
        end, self._seen_end = self._seen_end, self.vp.length
        if self.vp.step is not None:
            if not self.game.writable and self.vp.step == end:
                # Following another process's game from its end: stay at the end.
                self.vp.step = self.vp.length
            self.vp.step = min(self.vp.step, self.vp.length)
        state = self.vp.state()
        # Most commands (a note, a roll) leave the role's view as it was: then the
        # phase and roster panes have nothing new to show.  (The bytes are of the
        # role's own view, what this screen may hold anyway, less the count of
        # events folded, which every event moves, hidden ones too.)
        shown = (encode_state(msgspec.structs.replace(state, event_count=0)), self.undo_redo.hint())
        if shown != self._shown_view:
            self._shown_view = shown
            self._names = {uid: u.name for uid, u in state.units.items()}
            self._side_names = {sid: scenario_words(side.name) for sid, side in state.sides.items()}
            phase = self.part(PhasePane)
            ends = self.role == REFEREE and self.vp.live and not self.replay  # only the referee ends a game
            phase.show(self.game.ruleset, state, undo_hint=shown[1], referee=ends)
            title = self._title()
            if title != self._shown_title:  # setting a border title repaints the pane, even the same title
                self._shown_title = title
                phase.border_title = plain(title)
                if self.typing:  # who types: a side by its name, in the reader's words
                    self.part(CommandLine).set_prompt(self._who())
            self.part(RosterPane).show(self.game.ruleset, state, self.role)
        self.part(LogPane).sync()
        self._show_dice()
        if self.replay:
            self._replay_bar().show(state)
        # No refresh_bindings() here: what the footer offers depends on the mode
        # and the screen stack (Textual refreshes it when those change), never on
        # the game, and refreshing it rebuilds the footer and lays out the screen.

    def retranslate(self) -> None:
        """The reader's language changed (``FireteamApp.set_language``): say everything again in it."""
        if not self.is_mounted:
            return
        self.query_one(RosterPane).border_title = _("Roster")
        self.query_one(LogPane).border_title = _("Action log")
        self.query_one(RosterPane).retranslate()
        self.query_one(LogPane).retranslate()
        self.query_one(DicePane).retranslate()
        if self.typing:
            self.query_one(CommandLine).retranslate()
        elif self.watching:
            self.query_one(WatchLine).update(_watch_line())
        self._shown_view = None  # the phase pane, the roster and the title are drawn again
        self._shown_title = ""
        self._check_size()
        self.refresh_game()

    def on_resize(self, event: events.Resize) -> None:
        if event.size == self._laid_out_at:
            # The size it was laid out at: Textual sends the app's first size twice more as the
            # screen starts (once when the app takes it, once at its first idle), and each laid
            # every widget out again, before the first frame, to where it was.
            event.prevent_default()
            return
        self._laid_out_at = event.size
        self._check_size()

    def _check_size(self) -> None:
        width, height = self.app.size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        if small:
            self._too_small().update(
                _("Terminal too small: {width}x{height}.\nFireteam needs at least {min_width}x{min_height}.").format(
                    width=width, height=height, min_width=MIN_SIZE[0], min_height=MIN_SIZE[1]
                )
            )
        self.set_class(small, "-too-small")

    def _show_dice(self) -> None:
        selected = self._selected if self._selected is not None and not self.part(LogView).follow else None
        pane = self.part(DicePane)
        pane.names = sides_of(self.game.state)
        pane.show(self.vp.recent_rolls(RECENT_ROLLS), self._names, selected)

    @on(LogView.LineHighlighted)
    def _line_highlighted(self, event: LogView.LineHighlighted) -> None:
        self._selected = event.line
        if self.is_mounted:
            self._show_dice()

    @on(LogView.LineChosen)
    def _line_chosen(self, event: LogView.LineChosen) -> None:
        from tui.screens.dialogs import DetailsScreen

        line = event.line
        facts = self.game.reading.facts_seen(line.cmd, self.role) if isinstance(line.event, ev.Issued) else None
        self.app.push_screen(
            DetailsScreen(
                line,
                self._names,
                referee=self.role == REFEREE,
                domain=self.game.ruleset.domain,
                facts=facts,
                naming=sides_of(self.game.state),
            )
        )

    @on(RosterPane.UnitChosen)
    def _unit_chosen(self, event: RosterPane.UnitChosen) -> None:
        if self.typing:
            self.query_one(CommandLine).insert_unit(event.unit_id)

    # ------------------------------------------------------------- the wiring

    def attention(self) -> Widget | None:
        return self.undo_redo.attention()

    def confirm_key(self, key: str | None, printable: bool = False) -> bool:
        return self.undo_redo.confirm_key(key, printable)

    def show_awaiting(self) -> None:
        self.held.show()

    def action_undo(self) -> None:
        self.undo_redo.undo()

    def action_redo(self) -> None:
        self.undo_redo.redo()

    def action_pick_action(self) -> None:
        self.runner.pick()

    def action_whole_answer(self) -> None:
        """F9: the command line's last answer whole, which its row cut with … (#48)."""
        self.runner.whole_answer()

    def action_toggle_dice(self) -> None:
        """Ctrl+T: the referee turns table dice on or off for his whole table; a side's seat is told
        whose choice it is.  While a command is held for another seat's roll, the referee's key opens
        that roll's prompt at his screen instead: his faces answer it, his Esc withdraws it (issue #61)."""
        held = self.game.awaiting.held
        if held is not None and self.held.referee_may_take(held):
            self.held.prompt(held)  # one command at a time: while a roll is held for a seat, the key gives it
        else:
            self.runner.toggle_table_dice()

    def action_help(self, query: str = "") -> None:
        from tui.screens import game_menu  # (here and below: by a key, or the footer once the first frame is drawn)

        game_menu.show_help(self, query)

    def action_rules(self) -> None:
        from tui.screens import game_menu

        game_menu.show_rules(self)

    def palette_actions(self) -> list[tuple[str, str, str]]:
        from tui.screens import game_menu

        return game_menu.palette_actions(self)

    def action_language(self, code: str) -> None:
        set_language = getattr(self.app, "set_language", None)
        if set_language is not None and code in LANGUAGE_NAMES:
            set_language(code)

    def action_keep_copy(self) -> None:
        """Ctrl+_ / F10: the player's own copy of the game so far, his role's (``tui.copies``), kept
        where his door puts it: this machine's data folder, his browser's downloads, or the command
        his own machine runs to receive it (issue #74)."""
        client_app(self).keep_copy(self.game, self.role)

    # The replay's keys, each the replay bar's.

    def action_step(self, direction: int) -> None:
        self._replay_bar().step(direction)

    def action_phase(self, direction: int) -> None:
        self._replay_bar().by_phase(direction, by_turn=False)

    def action_turn(self, direction: int) -> None:
        self._replay_bar().by_phase(direction, by_turn=True)

    def action_edge(self, direction: int) -> None:
        self._replay_bar().edge(direction)

    def action_jump_turn(self) -> None:
        self._replay_bar().jump_turn()

    def action_play(self) -> None:
        self._replay_bar().play()

    def action_speed(self, direction: int) -> None:
        self._replay_bar().faster(direction)

    def action_play_from_here(self) -> None:
        self._replay_bar().play_from_here()

    # ------------------------------------------------------------ both modes

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        from tui.screens import game_menu

        if not game_menu.mode_allows(action, replay=self.replay, remote=self.remote):
            return False
        return action != "leave_replay" or self._can_leave_replay()

    def _can_leave_replay(self) -> bool:
        return (
            self.replay
            and self.app.screen_stack[-1] is self
            and any(isinstance(s, GameScreen) for s in self.app.screen_stack[:-1])
        )

    def on_key(self, event: events.Key) -> None:
        """A printable key typed in a pane (the log, the roster) goes to the command line, focused
        with it (#61): a phone's first tap lands in a pane, and its one-key bindings ate what
        was typed next.  The panes keep their keys behind a modifier or on the arrows; a key
        bound where the focus is (the replay's, a user's keymap) stays the binding's."""
        if not (self.typing and event.is_printable and event.character):
            return
        if isinstance(self.focused, PlainInput):
            # A box takes its own printable keys: one that comes here from a pane was sent to
            # the pane before the focus moved on to the box (the keys typed fast after the
            # first, #61: they were dropped).  It goes in after those before it.
            event.stop()
            event.prevent_default()
            self.focused.typed(event.character)
            return
        bound_here = self.active_bindings.get(event.key)
        if bound_here is not None and bound_here.enabled:
            return
        event.stop()
        event.prevent_default()
        box = self.part(CommandInput)
        box.focus()
        # Put in here, not posted: the keys after it, which reach the pane until the
        # focus moves, come here in their turn and go in after it.
        box.typed(event.character)

    def on_paste(self, event: events.Paste) -> None:
        """A paste in a pane goes to the command line as a key typed there does (the phone's Paste key)."""
        if not self.typing:
            return
        event.stop()
        # One that comes here while a box has the focus was sent to a pane before the focus moved on.
        box = self.focused if isinstance(self.focused, PlainInput) else self.part(CommandInput)
        box.focus()
        text = box.pasted(event.text)
        if text:
            box.typed(text)

    def action_focus_pane(self, pane: str) -> None:
        if pane == "roster":
            self.query_one(RosterPane).view.focus()
        elif pane == "log":
            self.query_one(LogView).focus()
        elif self.typing:
            self.query_one(CommandInput).focus()

    def action_report(self) -> None:
        from tui.screens.report import ReportScreen

        # In replay, up to the step on screen (as this role counts them); live, the whole game so far.
        step = None if self.vp.step is None else self.vp.shown_position()[0]
        self.app.push_screen(ReportScreen(self.game, self.role, step, remote=self.remote))

    def action_open_replay(self) -> None:
        self.app.push_screen(
            GameScreen(self.game, role=self.role, seat=self.seat, replay=True, remote=self.remote, host=self.app)
        )

    def action_leave_replay(self) -> None:
        self._replay_bar().stop()
        self.app.pop_screen()

    async def action_quit_replay(self) -> None:
        if self._can_leave_replay():
            self.action_leave_replay()
        else:  # opened alone (fireteam SAVE --replay, the start screen's r): nothing to go back to
            self._replay_bar().stop()
            await self.app.action_quit()

    def action_new_game(self) -> None:
        from tui.screens.newgame import NewGameScreen

        self.app.push_screen(NewGameScreen(ruleset=self.game.ruleset.id))

    def action_load_game(self) -> None:
        from tui.screens.loadgame import LoadGameScreen

        self.app.push_screen(LoadGameScreen())
