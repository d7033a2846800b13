"""The game screen: four panes over one game, live (with the command line) or in replay.

Live, the panes show ``game.view(role)``; in replay they show the game as it
stood after ``step`` effective events (``Timeline.state_at`` through
``Game.view(role, step)``), and a replay bar takes the command line's place.
Watching (the screen the SSH table draws once for all its spectators), a line
saying so takes the place of the command line and the footer: no key of a
spectator's reaches it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

import msgspec
from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Container
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input

from core import events as ev
from core import rulesask
from core.errorlog import details_in
from core.game import Game, LogLine
from core.language.reader import LANGUAGE_NAMES, lang
from core.narrate import sides_of
from core.outcome import AnswerNeeded, Awaited, DiceNeeded, Failure, Held, Outcome, Refusal, Result, said
from core.refusal import CommandFailed
from core.ruleset import CommandSpec, Refused
from core.state import TABLE_DICE, encode_state, table_dice
from core.storage.savefile import SaveError
from core.views import REFEREE, SPECTATOR
from tui.commandline import CommandInput, CommandLine
from tui.compositor import RowsCompositor
from tui.i18n import N_, _, pgettext, phase_words, role_words, scenario_words
from tui.keymap import GAME_BINDINGS, bound, key_label, keys_of, short_key
from tui.panes.dice import DicePane
from tui.panes.log import LogPane, LogView, summary
from tui.panes.phase import PhasePane
from tui.panes.roster import RosterPane
from tui.panes.rosterview import RosterView
from tui.plain import Plain, PlainInput, plain, visible
from tui.screens import asking
from tui.textual_internals import mount_overlays, overlays_later, unshown, use_compositor, withdraw_notices
from tui.viewpoint import Viewpoint, position_after, visible_step

if TYPE_CHECKING:
    from core.dice import DiceRequest
    from tui.screens.dialogs import ConfirmBox  # imported when first needed: not for the first frame

_Part = TypeVar("_Part", bound=Widget)

RECENT_ROLLS = 6
#: The smallest terminal the game screen works in (columns, rows): below it the log
#: would have no room, so the screen says so instead of drawing the panes.
MIN_SIZE = (60, 16)
#: Replay speeds in events per second.
SPEEDS = (1, 2, 4, 8, 16, 32, 64, 128)
TICKS_PER_SECOND = 16
#: The replay bar's row of keys: the ids of the bindings each names, and what they do.
REPLAY_KEYS = (
    (("quit-replay",), N_("leave")),
    (("prev-event", "next-event"), N_("event")),
    (("prev-phase", "next-phase"), N_("phase")),
    (("prev-turn", "next-turn"), N_("turn")),
    (("go-to-turn",), N_("go to turn")),
    (("start", "end"), N_("start/end")),
    (("play-pause",), N_("play")),
    (("faster", "slower"), N_("speed")),
)


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


class ReplayBar(Plain):
    """Where the replay stands: step, turn and phase, speed, playing or paused."""

    DEFAULT_CSS = """
    ReplayBar { height: 2; background: $boost; text-wrap: nowrap; text-overflow: ellipsis; }
    """


def _watch_line() -> str:
    return _("Watching: spectators cannot give commands. Ctrl+Q leaves.")


def odds_title(command: str) -> str:
    """The title of the notice ``odds COMMAND`` shows: its command's dice prompt withdraws it."""
    return _("odds: {command}").format(command=command)


def size_classes(app: App | None) -> set[str]:
    """The breakpoint classes (``-narrow``, ``-short`` …) Textual gives a screen of the app's size."""
    if app is None:
        return set()
    classes = set()
    width, height = app.size
    for extent, breakpoints in ((width, app.HORIZONTAL_BREAKPOINTS), (height, app.VERTICAL_BREAKPOINTS)):
        reached = [(at, name) for at, name in breakpoints or () if extent >= at]
        if reached:
            classes.add(max(reached)[1])
    return classes


@overlays_later  # the notifications' rack and the tooltip: mounted once the first frame is drawn (``_add_hidden``)
class GameScreen(Screen):
    BINDINGS = GAME_BINDINGS

    REPLAY_ACTIONS = {
        "step",
        "phase",
        "turn",
        "jump_turn",
        "edge",
        "play",
        "speed",
        "leave_replay",
        "quit_replay",
        "play_from_here",
    }
    LIVE_ACTIONS = {"pick_action", "toggle_dice", "undo", "redo", "open_replay", "whole_answer"}
    LOCAL_ACTIONS = {"new_game", "load_game"}

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
        #: The last refusal on this command line and its rules, until a command is carried out (``why``).
        self.last_refusal: tuple[str, tuple[str, ...]] | None = None
        #: Drawn for spectators who only watch: no command line, no footer, no key of theirs reaches it.
        self.watching = watching and not self.replay
        # Focused as its panes are mounted, before the first frame: Textual's own
        # choice (the first focusable widget, the roster) would be drawn in the first
        # frame and moved by ``on_mount`` in the next, every widget restyled between.
        if self.replay:
            self.AUTO_FOCUS = "LogView"
        elif self.typing:
            self.AUTO_FOCUS = "CommandInput"
        self.vp = Viewpoint(game, role, game.timeline.length if self.replay else None)
        settings = getattr(host, "settings", None)  # remembered (tui.userdata)
        self.speed = settings.replay_speed if settings else 2  # index into SPEEDS
        self.cursor_blink = settings.cursor_blink if settings else True
        self._player: Timer | None = None
        self._selected: LogLine | None = None
        self._seen_length = -1
        self._seen_end = self.vp.length  # the effective length last shown
        self._shown_title = ""
        #: The command held at the table for a seat's dice as this screen last showed it (issue #61).
        self._shown_awaiting: Awaited | None = None
        self._held_screen: Screen | None = None  # its prompt or its submitter's notice, while up
        self._held_from = 0  # the log's length as it was held
        #: The command the line's last ✓ is about, and that ✓: it goes if another seat undoes the command.
        self._last_ok: tuple[int, Text] | None = None
        self._shown_view: tuple[bytes, str] | None = None  # (the role's view, the undo hint) last shown
        self._names: dict[str, str] = {}  # unit id → name, in that view
        self._side_names: dict[str, str] = {}  # side id → name: Tab's candidates say a side's too
        self._confirm: ConfirmBox | None = None  # where undo and redo ask (live only)
        self._parts: dict[type[Widget], Widget] = {}  # the panes, once found (``_part``)
        self._resumed = False
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
            yield ReplayBar(id="replay-bar")
        elif self.watching:
            yield WatchLine(_watch_line())
            return  # no footer either: none of its keys would reach this screen
        else:
            yield CommandLine(
                self._who(),
                self._complete,
                lambda: self.game.commands,
                self._entered,
                # Over SSH a blinking cursor is a frame sent twice a second to every
                # seat, idle or not, and drawn by the server: a steady one costs nothing.
                blink=self.cursor_blink and not self.remote,
                domain=self.game.ruleset.domain,
                names=lambda: {**self._side_names, **self._names},
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
        if self.replay:
            self._focus(self.query_one(LogView))
        elif self.typing:
            box = self.query_one(CommandInput)
            store = getattr(self.app, "store", None)
            if store is not None:
                box.recall(store.load_history(self.game.path))
                self.app.show_notices()
            self._focus(box)

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
            self._confirm_box()
        self.query_one(LogPane).add_hidden()
        self.query_one(RosterPane).add_hidden()
        if self.typing:
            # The ruleset's commands (and the modules they import) are gathered now,
            # not by the first key typed: the line's hint and completion need them.
            _ = self.game.commands

    def _confirm_box(self) -> ConfirmBox:
        """Where undo and redo ask (live only), hidden until then."""
        if self._confirm is None:
            from tui.screens.dialogs import ConfirmBox

            # First in the screen so that showing it leaves every other widget's
            # place in Textual's drawing order as it was: only the rows it covers
            # are drawn again.
            self._confirm = ConfirmBox(id="confirm")
            self.mount(self._confirm, before=0)
        return self._confirm

    def attention(self) -> Widget | None:
        """The undo or redo box while it asks: it takes the keys, the focus staying where it was,
        and the terminal's cursor goes to its question (``tui.focus_cursor``)."""
        box = self._confirm
        return box if box is not None and box.asking and box.display else None

    def _too_small(self) -> Plain:
        found = self.query_children("#too-small")
        if found:
            return found.first(Plain)
        notice = Plain("", id="too-small")
        self.mount(notice)
        return notice

    def _part(self, kind: type[_Part]) -> _Part:
        """The screen's one widget of ``kind`` (a pane composed with the screen, never
        replaced): found once, then kept.

        Textual's ``query_one`` by type walks the screen's widgets at every call
        (it keeps only what it found by id): a key redrawing the panes asked it
        some ten times, 0.5-0.9 ms of its CPU (issue #32).
        """
        found = self._parts.get(kind)
        if found is None:
            found = self._parts[kind] = self.query_one(kind)
        return found  # type: ignore[return-value]

    def _complete(self, text: str) -> list[str]:
        return self.game.complete(text, self.role)

    # ---------------------------------------------------------------- refresh

    def refresh_game(self, *, force: bool = True) -> None:
        """Redraw every pane from the game (after any seat's command, or a replay step)."""
        if not force and self._seen_length == self.game.log_length and self.vp.live:
            return
        asking = self._asking()
        if asking is not None:
            asking.answer(False)  # another seat changed the game: the question may be stale, nothing is done
        self._seen_length = self.game.log_length
        if self._last_ok is not None and not self.game.history.is_live(self._last_ok[0]):
            # Another seat's undo took back the command the line's ✓ is about (#61).
            self._part(CommandLine).forget(self._last_ok[1])
            self._last_ok = None
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
        shown = (encode_state(msgspec.structs.replace(state, event_count=0)), self._undo_hint())
        if shown != self._shown_view:
            self._shown_view = shown
            self._names = {uid: u.name for uid, u in state.units.items()}
            self._side_names = {sid: scenario_words(side.name) for sid, side in state.sides.items()}
            phase = self._part(PhasePane)
            ends = self.role == REFEREE and self.vp.live and not self.replay  # only the referee ends a game
            phase.show(self.game.ruleset, state, undo_hint=shown[1], referee=ends)
            title = self._title()
            if title != self._shown_title:  # setting a border title repaints the pane, even the same title
                self._shown_title = title
                phase.border_title = plain(title)
                if self.typing:  # who types: a side by its name, in the reader's words
                    self._part(CommandLine).set_prompt(self._who())
            self._part(RosterPane).show(self.game.ruleset, state, self.role)
        self._part(LogPane).sync()
        self._show_dice()
        if self.replay:
            self._show_replay_bar(state)
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

    def on_resize(self) -> None:
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
        selected = self._selected if self._selected is not None and not self._part(LogView).follow else None
        pane = self._part(DicePane)
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
        facts = self.game.facts_seen(line.cmd, self.role) if isinstance(line.event, ev.Issued) else None
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

    # ------------------------------------------------------- commands (live)

    def _own_command(self, cmd: int | None) -> str | None:
        """``#n text`` if this seat gave command ``cmd`` (which its role may see), numbered as it knows it."""
        if cmd is None:
            return None
        issued = self.game.history.issued(cmd)
        if issued.by != self.by:
            return None
        return f"#{self.game.shown_cmd(cmd, self.role)} {issued.text}"

    def undo_preview(self) -> str | None:
        """What undo would take back, named for this seat (None if it may not undo).

        It depends only on what this role may see (``Game.undo_target``).
        """
        if self.role == REFEREE:
            return self.game.undo_preview(REFEREE)
        return self._own_command(self.game.undo_target(self.role))

    def redo_preview(self) -> str | None:
        if self.role == REFEREE:
            return self.game.redo_preview(REFEREE)
        return self._own_command(self.game.redo_target(self.role))

    def _undo_hint(self) -> str:
        if self.replay:
            return ""
        preview = self.undo_preview()
        return (
            _("{keys} undoes {command}").format(keys=keys_of(self, "undo", first=True), command=preview)
            if preview
            else ""
        )

    def _entered(self, text: str) -> None:
        """A command given on the command line (run as Enter is handled: ``CommandInput``)."""
        verb, _sep, rest = text.strip().partition(" ")
        if asking.asked(self, verb, rest.strip()):  # `why`, `? COMMAND`: nothing given
            return
        if verb.casefold() in {"?", "help", pgettext("command", "help").casefold()} and not self._is_verb(verb):
            # No ruleset's command: what a newcomer types first (``help fire`` too), answered with the help.
            self.action_help(rest.strip())
            return
        if verb.casefold() in {"odds", pgettext("command", "odds").casefold()} and not self._is_verb(verb):
            # The line client's reading word, here too: a command's chances, nothing given.
            self.show_odds(rest.strip())
            return
        if verb.casefold() in {rulesask.WORD, pgettext("command", rulesask.WORD).casefold()} and not self._is_verb(
            verb
        ):
            # A rules question (``core.rulesask``): answered, nothing given.
            self.show_rules_answer(rest.strip())
            return
        self.run_command(text)
        store = getattr(self.app, "store", None)
        if store is not None:  # remembered for this save, in a thread (a disk may be slow), once it shows
            lines, path = list(self.query_one(CommandInput).history), self.game.path
            self.call_after_refresh(
                lambda: self.app.run_worker(
                    lambda: self.app.write_user_data(store.save_history, path, lines), thread=True
                )
            )

    def _is_verb(self, word: str) -> bool:
        """Whether the ruleset has a command called ``word`` (which then wins over the client's)."""
        return any(word.casefold() in (n.casefold() for n in self.game.names(spec)) for spec in self.game.commands)

    def show_rules_answer(self, question: str) -> None:
        """``rule? WORDS``: the rules a question is about, best first, in a notice (``core.rulesask``)."""
        view = self.game.view(self.role)
        try:
            said = rulesask.answer_lines(self.game.ruleset, question, ((u.id, u.name) for u in view.units.values()))
        except Refused as e:
            self._part(CommandLine).error(str(e))
            return
        self.notify("\n".join(said), title=pgettext("command", rulesask.WORD), timeout=30, markup=False)

    def show_odds(self, text: str) -> None:
        """``odds COMMAND``: what the command would roll first and its exact chances, without
        giving it; the command is put back on the line, to be given with Enter or mended."""
        from tui.lines import answers  # the line client's words for them (no Textual there)

        line = self._part(CommandLine)
        try:
            said = answers.odds(self.game, self.role, text)
        except Refused as e:
            line.error(str(e))
            if text:  # the command back, to mend (as a refused command comes back)
                line.give_back(text)
            return
        except CommandFailed as e:
            self._not_done(Failure(str(e)))
            return
        # the chance first on the one line (the roll it is for opens the whole, in the notice)
        line.hint(Text(visible(" ".join(said[1:]) or said[0]), no_wrap=True, overflow="ellipsis"), "ok")
        self.notify("\n".join(said), title=odds_title(text), timeout=20, markup=False)
        if text:
            line.give_back(text)

    def run_command(self, text: str, faces: list[int] | None = None, answers: list[str] | None = None) -> None:
        """Run a command line; ask for physical dice when the game needs them, and the
        answers to its questions (``core.questions``) as it asks them."""
        line = self._part(CommandLine)
        if faces is None and self.table_dice:
            faces = []
        answers = list(answers or [])  # this client can ask: the game asks rather than take defaults
        before = self.game.log_length
        result = self.game.submit(text, role=self.role, by=self.by, faces=faces, answers=answers)
        if isinstance(result, DiceNeeded | AnswerNeeded):
            typed = list(faces) if faces is not None else None

            def cancelled() -> None:
                line.error(_("cancelled: {command} (nothing was recorded)").format(command=text))
                line.give_back(text)

            def got(new: list[int] | None) -> None:
                if new is None:
                    cancelled()
                else:
                    self.run_command(text, [*(typed or []), *new], answers)

            def answered(answer: str | None) -> None:
                if answer is None:
                    cancelled()
                else:
                    self.run_command(text, typed, [*answers, answer])

            from tui.screens.dialogs import DicePrompt, QuestionPrompt

            # The line's candidates for the words just entered would stay under the prompt.
            waiting = _("{command}: waiting for its dice").format(command=text)
            if isinstance(result, AnswerNeeded):
                waiting = _("{command}: waiting for an answer").format(command=text)
            line.hint(Text(visible(waiting), no_wrap=True, overflow="ellipsis"))
            if isinstance(result, AnswerNeeded):
                self.app.push_screen(QuestionPrompt(result.question, text), answered)
            else:
                # The odds asked of it would cover the prompt for their 20 s: the prompt says the roll now.
                withdraw_notices(self.app, odds_title(text))
                self.app.push_screen(
                    DicePrompt(
                        result.request, text, typed or [], self.game.ruleset.domain, self._owner(result.request)
                    ),
                    got,
                )
            return
        if isinstance(result, Refusal | Failure):
            self._not_done(result)
            line.give_back(text)
            return
        if line.input.value == text:  # a command from a form, shown on the line while it ran
            line.input.value = ""
        if isinstance(result, Held):  # another seat's dice now: this one is shown whose
            self.show_awaiting()
            return
        self._done(result.cmd, text, before)

    def _done(self, cmd: int, text: str, before: int) -> None:
        """A command of this seat's carried out: what it did, on the line."""
        self.last_refusal = None  # `why` now explains its roll
        line = self._part(CommandLine)
        self._part(LogView).follow_end()  # what this seat did shows, wherever a search had left the log
        said = (
            summary(
                self.game.log_lines(self.role, before, self.game.log_length)[1:],
                self.game.ruleset.domain,
                sides_of(self.game.state),
            )
            or text
        )
        number = self.game.shown_cmd(cmd, self.role)
        answer = Text(visible(f"✓ #{number} {said}"), no_wrap=True, overflow="ellipsis")
        line.hint(answer, "ok")
        # An undo's ✓ names the command it took back: that one stays said.
        self._last_ok = (cmd, answer) if self.game.history.is_live(cmd) else None
        self.refresh_game()

    def show_awaiting(self) -> None:
        """The command held at this table for a seat's dice (issue #61): every seat says whose
        dice are awaited on the phase pane's line; the seat asked is given the prompt, and
        its submitter is shown whose dice his command waits for (Esc withdraws it)."""
        held = self.game.awaiting
        if held == self._shown_awaiting or self.replay:
            return
        was, self._shown_awaiting = self._shown_awaiting, held
        if was is not None and was.role == self.role and was.by == self.by and held is None:
            # This seat's command, gone on at another seat: recorded, or dropped there (and why).
            dropped = self.game.held_dropped
            if self.game.log_length > self._held_from:
                self._done(self.game.history.next_cmd - 1, was.text, self._held_from)
            elif dropped is not None:
                self._not_done(dropped)
            else:
                self._part(CommandLine).hint("")
        elif held is not None and was is None:
            self._held_from = self.game.log_length
        said = self.game.awaited_said(self.role)
        if self._referee_may_take(held):
            # The key first: a narrow screen's line is cut at its end, and the roll is long (#61).
            said = _("{key}: give them yourself · {waiting}").format(
                waiting=said, key=keys_of(self, "table-dice", first=True)
            )
        phase = self._part(PhasePane)
        phase.border_subtitle = plain(said)
        phase.set_class(bool(said), "-awaiting")  # a short screen's pane gets its bottom border back for it
        stale, self._held_screen = self._held_screen, None
        if stale is not None and stale in self.app.screen_stack:  # the command as it stood: asked no more
            stale.pop_until_active()  # (dismiss pops the top screen: a box opened over it goes first)
            stale.dismiss(None)
        if held is None or self.watching:
            return
        if held.asked == self.role:
            self._prompt_held(held)
        elif held.role == self.role:
            from tui.screens.held import HeldScreen

            box = HeldScreen(self.game.awaited_said(self.role), self.game.localize(held.text))
            self._held_screen = box
            self.app.push_screen(box, lambda withdraw: self._held_closed(held, box.typed, bool(withdraw)))

    def _held_closed(self, held: Awaited, typed: str, withdraw: bool) -> None:
        """The box of this seat's held command closed: what was typed in it goes on the
        command line (#61), and the command is withdrawn if Esc closed it."""
        if typed:
            box = self._part(CommandLine).input
            box.value = typed
            box.cursor_position = len(typed)
        if withdraw:
            self._withdraw(held)

    def _referee_may_take(self, held: Awaited | None) -> bool:
        """Whether this is the referee's screen and ``held`` a roll asked of another seat, which
        may stay and never answer: the referee keeping the books gives it, or withdraws it."""
        if self.role != REFEREE or self.watching or held is None:
            return False
        return held.asked != REFEREE and held.request is not None

    def _prompt_held(self, held: Awaited) -> None:
        """This seat's roll (or answer) of a command held at the table, however it came here."""
        from tui.screens.dialogs import DicePrompt, QuestionPrompt

        def gave(faces: list[int] | None = None, answer: str | None = None) -> None:
            if self.game.awaiting != held:
                return  # withdrawn, or answered by the referee, meanwhile
            if faces is None and answer is None:
                if self.role in (held.role, REFEREE):
                    self._withdraw(held)
                    return
                # Another's command: not this seat's to withdraw; its dice are asked again.
                self._part(CommandLine).error(_("only its player or the referee may withdraw it"))
                self._shown_awaiting = None
                self.show_awaiting()
                return
            before = self.game.log_length
            self._answered(self.game.answer_held(role=self.role, by=self.by, faces=faces, answer=answer), held, before)

        if held.request is not None:
            withdraw_notices(self.app, odds_title(held.text))
            # Another side's line may name what this seat may not see (a hidden firer): not shown.
            line = (
                self.game.localize(held.text)
                if self.role in (held.role, REFEREE)
                else _("given by the referee")  # the book's words, not a seat's role ("dato dall'arbitro")
                if held.role == REFEREE
                else _("given by {side}").format(side=role_words(held.role, self.game.state))
            )
            # The faces before were typed at the giver's seat: "typed so far" there only, not at a
            # defender's seat, whose player typed none of them (issue #61).
            typed = held.faces if self.role == held.role else []
            dice = DicePrompt(held.request, line, typed, self.game.ruleset.domain, self._owner(held.request))
            self._held_screen = dice
            self.app.push_screen(dice, lambda faces: gave(faces=faces))
        elif held.question is not None:
            question = QuestionPrompt(held.question, self.game.localize(held.text))
            self._held_screen = question
            self.app.push_screen(question, lambda answer: gave(answer=answer))

    def _withdraw(self, held: Awaited) -> None:
        if self.game.awaiting == held:
            self._answered(self.game.answer_held(role=self.role, by=self.by), held, self.game.log_length)

    def _answered(self, result: Result, held: Awaited, before: int) -> None:
        """What a held command came to once this seat gave its dice (or withdrew it)."""
        self.show_awaiting()  # (first: what it came to is said last, on the line)
        if isinstance(result, Outcome):
            self._done(result.cmd, held.text, before)
        elif isinstance(result, Refusal | Failure):
            self._not_done(result)
        # (Held: it went on, and is held for its next roll; answer_held never asks itself.)

    def _owner(self, request: DiceRequest) -> str:
        """The name of the side whose roll ``request`` is, at another side's seat ("" else: the
        seat's own roll, the referee's, and any at the referee's seat, who types every side's)."""
        side = self.game.state.sides.get(request.side) if request.side != self.role != REFEREE else None
        return scenario_words(side.name) if side is not None else ""

    def _not_done(self, result: Refusal | Failure) -> None:
        """A command not carried out, on the line: a refusal as an error; an error of the
        program (not a refusal) with a notice that says where its details were logged."""
        line = self.query_one(CommandLine)
        if isinstance(result, Refusal):
            self.last_refusal = (said(result), result.rules)  # what `why` explains
            line.error(said(result))
            return
        store = getattr(self.app, "store", None)  # (none at a seat of a server: its host's log has them)
        where = _("the host has the details in its log") if store is None else details_in(store.error_log)
        line.failed(said(result))
        self.notify(where, title=said(result), severity="error", timeout=20, markup=False)

    def start_action(self, spec: CommandSpec) -> None:
        """Run a command from the palette or the picker: a form when it takes arguments."""
        if self.replay:
            return
        if not spec.params:
            self.run_command(spec.name)
            return

        def done(text: str | None) -> None:
            if text:
                box = self.query_one(CommandLine).input
                with box.prevent(Input.Changed):  # shown while it runs: the hint is then its ✓ or ✗, not its usage
                    box.value = text
                self.run_command(text)

        from tui.screens.forms import ActionForm  # imported when first used: a faster start

        state, ruleset = self.vp.state(), self.game.ruleset

        def side_offered(side: str) -> bool:  # the sides Tab offers for it
            return ruleset.side_offered(state, spec, side, self.role)

        self.app.push_screen(ActionForm(spec, state, self.role, ruleset.domain, side_offered), done)

    def action_pick_action(self) -> None:
        from tui.screens.forms import ActionPicker  # imported when first used: a faster start

        def picked(spec: CommandSpec | None) -> None:
            if spec is not None:
                self.start_action(spec)

        state = self.vp.state()
        phase = self.game.ruleset.phase(state.phase)
        main = phase.commands if phase is not None else ()  # the phase's own, in its order, as Tab offers them
        self.app.push_screen(ActionPicker(self.game.commands, state, self.role, self.game.ruleset.domain, main), picked)

    def action_keep_copy(self) -> None:
        """Ctrl+_ / F10: the player's own copy of the game so far, his role's (``tui.copies``), kept
        where his door puts it: this machine's data folder, his browser's downloads, or the command
        his own machine runs to receive it (issue #74)."""
        self.app.keep_copy(self.game, self.role)

    def action_whole_answer(self) -> None:
        """F9: the command line's last answer whole, which its row cut with … (#48)."""
        from tui.screens.dialogs import AnswerScreen

        said = self._part(CommandLine).last_answer()
        if not said:
            self.app.bell()
            return
        self.app.push_screen(AnswerScreen(said))

    def action_toggle_dice(self) -> None:
        """Ctrl+T: the referee turns table dice on or off for his whole table (a command
        every seat reads from the log); a side's seat is told whose choice it is.  While a command
        is held for another seat's roll, the referee's key opens that roll's prompt at his screen
        instead: his faces answer it, his Esc withdraws it (issue #61)."""
        held = self.game.awaiting
        if self._referee_may_take(held):
            assert held is not None
            # One command at a time: while a roll is held for a seat, the key gives it (Esc withdraws it).
            self._prompt_held(held)
            return
        if self.role != REFEREE:
            line = self._part(CommandLine)
            line.error(
                _("Table dice are the referee's choice for the whole table: now ON")
                if self.table_dice
                else _("Table dice are the referee's choice for the whole table: now OFF")
            )
            return
        self.run_command(f"{TABLE_DICE} {'off' if self.table_dice else 'on'}")

    def _confirm_then(self, question: str, detail: str, run: Callable[[], Result], done: str) -> None:
        def carry_out() -> None:
            line = self._part(CommandLine)
            result = run()
            if isinstance(result, Refusal | Failure | DiceNeeded | AnswerNeeded):
                # (An undo or redo rolls nothing and asks nothing: never asked for here.)
                self._not_done(result if isinstance(result, Refusal | Failure) else Failure(_("undo asked for dice")))
                return
            # The message line no longer speaks of the command as it stood before.
            line.hint(Text(visible(done), no_wrap=True, overflow="ellipsis"), "ok")
            self._part(LogView).follow_end()
            self.refresh_game()

        # Carried out as the box closes, before this screen is drawn again: the
        # screen is drawn once, already changed.
        self._confirm_box().ask(question, detail, on_yes=carry_out)

    def confirm_key(self, key: str | None, printable: bool = False) -> bool:
        """Answer the question up (if any) with ``key``: True if the question took the key.

        Typing (a printable key; None: a paste, a click) drops the question, nothing
        done, before it does what it does: Enter, typed after a command, never says
        yes.  Any other key (F5, Ctrl+O, an arrow) is the question's: it stays up and
        the key does nothing, as under a modal screen (F5 once closed it and opened
        the replay); only quitting goes through.
        """
        box = self._asking()
        if box is None:
            return False
        yes, no = ("enter", "y", _("y")), ("escape", "n", _("n"))  # the reader's letters too: Italian "s"
        if key in yes or key in no:
            box.answer(key in yes)
            return True
        if key is not None and not printable:
            return key not in self.app.QUIT_KEYS
        box.answer(False)
        return False

    def _asking(self) -> ConfirmBox | None:
        box = self._confirm
        return box if box is not None and box.asking else None

    def action_undo(self) -> None:
        # The undo's own check, asked before the question so a player is not asked then refused.
        why = _("a spectator cannot undo") if self.role == SPECTATOR else self.game.undo_refusal(self.role, self.by)
        preview = self.undo_preview()
        if why is not None or preview is None:  # (an undo the game allows has a preview)
            self.query_one(CommandLine).error(why or _("nothing to undo"))
            return
        redo = keys_of(self, "redo", first=True)
        self._confirm_then(
            _("Undo {command}?").format(command=preview),
            _(
                "Its lines stay in the log, struck through, and stop counting; every seat sees it."
                " {keys} brings it back until another command is given."
            ).format(keys=redo),
            lambda: self.game.submit("undo", role=self.role, by=self.by),
            _("↶ undone: {command} ({keys} redoes it)").format(command=preview, keys=redo),
        )

    def action_redo(self) -> None:
        preview = self.redo_preview()
        if preview is None:
            self.query_one(CommandLine).error(
                _("a spectator cannot redo")
                if self.role == SPECTATOR
                else _("nothing to redo")
                if self.game.redo_target(self.role) is None
                else _("the command to redo is not yours")
            )
            return
        self._confirm_then(
            _("Redo {command}?").format(command=preview),
            _("Its struck-through lines count again, as they were, with the same dice; every seat sees it."),
            lambda: self.game.submit("redo", role=self.role, by=self.by),
            _("↷ redone: {command}").format(command=preview),
        )

    # ------------------------------------------------------------ both modes

    def action_help(self, query: str = "") -> None:
        """The help screen; ``query`` searched there from the start (``help fire``)."""
        # The app's own keys are read from the app, so this screen need not import it.
        # Titles and descriptions stay English here: the help screen shows them in the reader's language.
        palette = Binding(self.app.COMMAND_PALETTE_BINDING, "", N_("Command palette: every action"))
        sections = [
            (N_("Game"), [b for b in self.BINDINGS if self._binding_applies(b)]),
            (N_("Anywhere"), [*self.app.BINDINGS, palette]),
            (N_("Command line"), [*CommandInput.BINDINGS, Binding("right", "", N_("Accept the greyed suggestion"))]),
            (N_("Roster"), RosterView.BINDINGS + RosterPane.BINDINGS),
            (N_("Log"), LogView.BINDINGS + LogPane.BINDINGS),
        ]
        # Each with the keys it has now: the user's, for an id his keymap rebinds.
        keys = [(title, [bound(self, b) for b in bindings]) for title, bindings in sections]
        from tui.screens.help import HelpScreen  # imported when first shown, not at the start

        self.app.push_screen(HelpScreen(keys, self.game.commands, self.game.ruleset, query))

    def action_rules(self) -> None:
        from tui.screens.rules import RulesScreen  # imported when first shown, not at the start

        self.app.push_screen(RulesScreen(self.game.ruleset))

    def _binding_applies(self, b) -> bool:
        action = b.action.split("(")[0]
        if action in self.REPLAY_ACTIONS:
            return self.replay
        if action in self.LIVE_ACTIONS:
            return not self.replay
        if action in self.LOCAL_ACTIONS:
            return not self.remote
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.REPLAY_ACTIONS and not self.replay:
            return False
        if action in self.LIVE_ACTIONS and self.replay:
            return False
        if action in self.LOCAL_ACTIONS and self.remote:
            return False
        return action != "leave_replay" or self._can_leave_replay()

    def _why_not_play_from_here(self) -> str:
        """Why this screen may not start a what-if game ("" if it may)."""
        # A what-if game needs the full save: the referee's, at his own client.
        if self.role != REFEREE:
            return _(
                "a what-if game is the referee's: it starts from the whole save, which holds what {role} may not see"
            ).format(role=role_words(self.role, self.game.state))
        if self.remote:
            return _("a what-if game is made at the referee's own client, not at a shared table's seat")
        return ""

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
        box = self._part(CommandInput)
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
        box = self.focused if isinstance(self.focused, PlainInput) else self._part(CommandInput)
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
        self._stop_player()
        self.app.pop_screen()

    async def action_quit_replay(self) -> None:
        if self._can_leave_replay():
            self.action_leave_replay()
        else:  # opened alone (fireteam SAVE --replay, the start screen's r): nothing to go back to
            self._stop_player()
            await self.app.action_quit()

    def action_new_game(self) -> None:
        from tui.screens.newgame import NewGameScreen

        self.app.push_screen(NewGameScreen(ruleset=self.game.ruleset.id))

    def action_load_game(self) -> None:
        from tui.screens.loadgame import LoadGameScreen

        self.app.push_screen(LoadGameScreen())

    def palette_actions(self) -> list[tuple[str, str, str]]:
        """(name, help, action) for the command palette; only those that apply now.  An action's
        keys end its help, read from its binding as they are now (the user may have rebound them)."""
        undo, redo = self.undo_preview(), self.redo_preview()
        from tui.screens.help import HelpScreen  # (the palette is opened after the start)

        (rules,) = [b for b in HelpScreen.BINDINGS if b.id == "rules"]
        entries = [
            (_("Help"), _("every key and command"), "help"),
            (
                _("Rules"),
                _("every rule of the ruleset and what Fireteam does with it ({help}, then {rules})").format(
                    help=keys_of(self, "help"), rules=key_label(rules.key)
                ),
                "rules",
            ),
            (_("Undo"), _("take back {command}").format(command=undo) if undo else _("take back nothing"), "undo"),
            (_("Redo"), _("bring back {command}").format(command=redo) if redo else _("bring back nothing"), "redo"),
            (_("Actions"), _("pick an action from a list and fill in a form"), "pick_action"),
            (_("Table dice"), _("the referee's choice: real dice typed at every seat, or the game's"), "toggle_dice"),
            (
                _("The last answer, whole"),
                _("the command line's last answer, which its row cuts with …"),
                "whole_answer",
            ),
            (
                _("Keep my copy"),
                _("your side's copy of the game so far, to hold the referee's save against later"),
                "keep_copy",
            ),
            (_("Replay this game"), _("step through the game from the start"), "open_replay"),
            (_("Focus the roster"), _("move the keyboard to the roster"), "focus_pane('roster')"),
            (_("Focus the log"), _("move the keyboard to the action log"), "focus_pane('log')"),
            (_("Focus the command line"), _("move the keyboard to the command line"), "focus_pane('command')"),
            (_("Report"), _("the after-action report: turn by turn, losses, score, the dice's luck"), "report"),
            (_("Leave replay"), _("back to the live game"), "leave_replay"),
            (_("Next event"), _("replay: one event forward"), "step(1)"),
            (_("Previous event"), _("replay: one event back"), "step(-1)"),
            (_("Next phase"), _("replay: to the next phase"), "phase(1)"),
            (_("Previous phase"), _("replay: to the previous phase"), "phase(-1)"),
            (_("Next turn"), _("replay: to the next turn"), "turn(1)"),
            (_("Previous turn"), _("replay: to the previous turn"), "turn(-1)"),
            (_("Go to turn"), _("replay: jump to a turn"), "jump_turn"),
            (_("Play / pause"), _("replay: play at the chosen speed"), "play"),
            (_("Play from here"), _("replay: a what-if game, a new save from this step"), "play_from_here"),
            (_("New game"), _("choose a ruleset and scenario"), "new_game"),
            (_("Load game"), _("open a save from saves/"), "load_game"),
        ]
        by_action = {b.action: b for b in self.BINDINGS}
        entries = [
            (name, f"{said} ({key_label(bound(self, by_action[action]).key)})", action)
            if action in by_action
            else (name, said, action)
            for name, said, action in entries
        ]
        # The other languages, each named in itself (so a reader who cannot read this one finds his own).
        for code, name in LANGUAGE_NAMES.items():
            if code != lang():
                entries.append(
                    (
                        _("Language: {name}").format(name=name),
                        _("show the client in {name} (Language, Lingua); remembered for next time").format(name=name),
                        f"language('{code}')",
                    )
                )
        return [
            e
            for e in entries
            if self.check_action(e[2].split("(")[0], ()) is not False
            and (e[2] != "play_from_here" or not self._why_not_play_from_here())
        ]

    def action_language(self, code: str) -> None:
        set_language = getattr(self.app, "set_language", None)
        if set_language is not None and code in LANGUAGE_NAMES:
            set_language(code)

    # ---------------------------------------------------------------- replay

    def go(self, step: int) -> None:
        self.vp.step = max(0, min(self.vp.length, step))
        self.refresh_game()

    def action_step(self, direction: int) -> None:
        assert self.vp.step is not None
        if self.role == REFEREE:
            self.go(self.vp.step + direction)
        else:
            self.go(visible_step(self.game, self.role, self.vp.step, direction))

    def action_play_from_here(self) -> None:
        """A what-if game from the step shown: a new save next to this one, played live at once."""
        from core.storage.fork import boundary_before, default_target, fork  # what only this key needs, imported then

        assert self.vp.step is not None
        why = self._why_not_play_from_here()
        if why:
            self.notify(why, title=_("Cannot play from here"), severity="warning", markup=False)
            return
        self._stop_player()
        step = boundary_before(self.game, self.vp.step)
        try:
            done = fork(self.game.path, step, default_target(self.game.path, step))
            game = Game.open(done.to)
        except SaveError as e:
            self.notify(str(e), title=_("Cannot play from here"), severity="error", markup=False)
            return
        if step == self.vp.step:
            said = _("{save}: from step {step} of {source}, which is unchanged")
        else:
            said = _(
                "{save}: from step {step} (the start of the command at step {shown}) of {source}, which is unchanged"
            )
        self.app.switch_game(game)  # type: ignore[attr-defined]
        self.app.notify(
            said.format(save=done.to.name, step=step, shown=self.vp.step, source=self.game.path.name),
            title=_("A what-if game"),
            markup=False,
            timeout=10,
        )

    def action_phase(self, direction: int) -> None:
        self._by(direction, by_turn=False)

    def action_turn(self, direction: int) -> None:
        self._by(direction, by_turn=True)

    def _by(self, direction: int, *, by_turn: bool) -> None:
        assert self.vp.step is not None
        tl = self.game.timeline
        self.go(
            tl.next_phase(self.vp.step, by_turn=by_turn)
            if direction > 0
            else tl.previous_phase(self.vp.step, by_turn=by_turn)
        )

    def action_edge(self, direction: int) -> None:
        self.go(0 if direction < 0 else self.vp.length)

    def action_jump_turn(self) -> None:
        def answer(text: str | None) -> None:
            if not text:
                return
            try:
                turn = int(text)
            except ValueError:
                self.notify(_("not a turn number: {text}").format(text=repr(text)), severity="error", markup=False)
                return
            step = self.game.timeline.turn_start(turn)
            if step is None:
                self.notify(
                    _("turn {turn} was never reached: from {first} to {last}").format(
                        turn=turn, first=first, last=last
                    ),
                    severity="error",
                    markup=False,
                )
                return
            self.go(step)

        from tui.screens.dialogs import AskScreen

        reached = self.game.timeline.turns()
        if reached is None:
            self.notify(_("no turn has begun yet"), markup=False)
            return
        first, last = reached
        self.app.push_screen(
            AskScreen(_("Go to turn"), _("a turn from {first} to {last}").format(first=first, last=last)), answer
        )

    def action_play(self) -> None:
        if self._player is not None:
            self._stop_player()
        else:
            if self.vp.step is not None and self.vp.step >= self.vp.length:
                self.vp.step = 0
            self._player = self.set_interval(1 / min(SPEEDS[self.speed], TICKS_PER_SECOND), self._tick)
        self.refresh_game()

    def _stop_player(self) -> None:
        if self._player is not None:
            self._player.stop()
            self._player = None

    def _tick(self) -> None:
        assert self.vp.step is not None
        per_tick = max(1, SPEEDS[self.speed] // TICKS_PER_SECOND)
        step = self.vp.step
        for _step in range(per_tick):
            step = step + 1 if self.role == REFEREE else visible_step(self.game, self.role, step, 1)
        self.go(step)
        if self.vp.step >= self.vp.length:
            self._stop_player()
            self._show_replay_bar(self.vp.state())

    def action_speed(self, direction: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + direction))
        remember = getattr(self.app, "remember", None)
        if remember is not None:
            remember(replay_speed=self.speed)
        if self._player is not None:
            self._stop_player()
            self.action_play()
        else:
            self._show_replay_bar(self.vp.state())

    def _show_replay_bar(self, state) -> None:
        shown, total = self.vp.shown_position()
        text = Text()
        text.append(" ▶ " + _("playing") + " " if self._player else " ‖ " + _("paused") + " ", style="bold reverse")
        text.append("  " + _("step {shown}/{total}").format(shown=shown, total=total), style="bold")
        name = phase_words(self.game.ruleset, state.phase)
        text.append(visible("  " + _("turn {turn} · {phase}").format(turn=state.turn, phase=name)))
        text.append("  " + _("speed {speed}/s").format(speed=SPEEDS[self.speed]), style="dim")
        if self.role == REFEREE:  # a position in the file counts the hidden events too
            line = position_after(self.game, self.vp.step or 0) + 1
            text.append("  " + _("file line {line}").format(line=line), style="dim")
        else:
            text.append("  " + _("as {role}").format(role=role_words(self.role, state)), style="bold yellow")
        # Leaving first: the row is cut at the screen's edge, and how to leave is what a newcomer looks for.
        # Each key as it is bound now (the user's keymap: tui.keymap).
        keys = Text(
            "".join("  " + " ".join(short_key(self, key) for key in ids) + " " + _(what) for ids, what in REPLAY_KEYS),
            style="dim",
        )
        # Two lines always (its height is fixed): a new step repaints the bar, never lays out the screen.
        self.query_one(ReplayBar).update(Text("\n").join([text, keys]), layout=False)
