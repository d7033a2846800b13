"""The game screen: four panes over one game, live (with the command line) or in replay.

Live, the panes show ``game.view(role)``; in replay they show the game as it
stood after ``step`` effective events (``Timeline.state_at`` through
``Game.view(role, step)``), and a replay bar takes the command line's place.
Watching (the screen the SSH table draws once for all its spectators), a line
saying so takes the place of the command line and the footer: no key of a
spectator's reaches it.

What the screen shows beside its panes and command line is in modules of its own, mixed in:
the replay (``replaying``), a command held for a seat's dice (``awaiting``), undo and redo
(``undoing``), the help, rules and palette (``gamemenu``).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, TypeVar

import msgspec
from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.containers import Container
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input

from core.errorlog import details_in
from core.explain import rulesask
from core.game import Game, LogLine
from core.log import events as ev
from core.log.narrate import sides_of
from core.log.outcome import AnswerNeeded, Awaited, DiceNeeded, Failure, Held, Refusal, said
from core.log.state import TABLE_DICE, encode_state, table_dice
from core.log.views import REFEREE
from core.refusal import CommandFailed
from core.ruleset import CommandSpec, Refused
from tui.commandline import CommandInput, CommandLine
from tui.compositor import RowsCompositor
from tui.i18n import _, pgettext, role_words, scenario_words
from tui.keymap import GAME_BINDINGS
from tui.panes.dice import DicePane
from tui.panes.log import LogPane, LogView, summary
from tui.panes.phase import PhasePane
from tui.panes.roster import RosterPane
from tui.plain import Plain, PlainInput, plain, visible
from tui.screens import asking
from tui.screens.awaiting import AwaitingRolls, odds_title
from tui.screens.gamemenu import GameMenu
from tui.screens.replaying import ReplayBar, Replaying
from tui.screens.undoing import UndoRedo
from tui.textual_internals import mount_overlays, overlays_later, unshown, use_compositor, withdraw_notices
from tui.viewpoint import Viewpoint

if TYPE_CHECKING:
    from tui.screens.dialogs import ConfirmBox  # imported when first needed: not for the first frame

_Part = TypeVar("_Part", bound=Widget)

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
class GameScreen(AwaitingRolls, UndoRedo, GameMenu, Replaying, Screen):
    BINDINGS = GAME_BINDINGS

    #: The game itself, not only what its parts use of one (``core.game.front.Front``): it opens reports and copies.
    game: Game

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
                readings=asking.reading_words(),
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

    # ------------------------------------------------------- commands (live)

    def _entered(self, text: str) -> None:
        """A command given on the command line (run as Enter is handled: ``CommandInput``)."""
        self.app.clear_notifications()  # the last answer's notice would cover this line's answer
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
            # A rules question (``core.explain.rulesask``): answered, nothing given.
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
        """``rule? WORDS``: the rules a question is about, best first, in a notice (``core.explain.rulesask``)."""
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
        answers to its questions (``core.log.questions``) as it asks them."""
        line = self._part(CommandLine)
        if faces is None and self.table_dice:
            faces = []
        answers = list(answers or [])  # this client can ask: the game asks rather than take defaults
        before = self.game.log_length
        result = self.game.submit(text, role=self.role, by=self.by, faces=faces, answers=answers)
        if isinstance(result, DiceNeeded | AnswerNeeded):
            typed = list(faces) if faces is not None else None

            def cancelled() -> None:
                self._own_roll_dropped(text)

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
        number = self.game.reading.numbering(self.role).shown(cmd)
        answer = Text(visible(f"✓ #{number} {said}"), no_wrap=True, overflow="ellipsis")
        line.hint(answer, "ok")
        # An undo's ✓ names the command it took back: that one stays said.
        self._last_ok = (cmd, answer) if self.game.history.is_live(cmd) else None
        self.refresh_game()

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
        if self.replay or asking.started(self, spec.name):
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
        held = self.game.awaiting.held
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

    # ------------------------------------------------------------ both modes

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.REPLAY_ACTIONS and not self.replay:
            return False
        if action in self.LIVE_ACTIONS and self.replay:
            return False
        if action in self.LOCAL_ACTIONS and self.remote:
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

    # ---------------------------------------------------------------- replay
