"""Undo and redo at one seat's game screen: what each would take back, named for the seat, and the
box that asks before either is done."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widget import Widget

from core.log.outcome import AnswerNeeded, DiceNeeded, Failure, Refusal, Result
from core.log.views import REFEREE, SPECTATOR
from tui.commandline import CommandLine
from tui.i18n import _
from tui.keymap import keys_of
from tui.panes.log import LogView
from tui.plain import visible
from tui.screens.client import client_app

if TYPE_CHECKING:
    from core.game.front import Front
    from tui.screens.dialogs import ConfirmBox  # imported when first needed: not for the first frame
    from tui.screens.line_answers import LineAnswers
    from tui.screens.seat import SeatScreen


class UndoRedo:
    """Undo and redo at this seat, each asked in the screen's confirm box first."""

    def __init__(self, screen: SeatScreen, answers: LineAnswers) -> None:
        self.screen = screen
        self.answers = answers
        self._confirm: ConfirmBox | None = None  # where undo and redo ask (live only), mounted when first needed

    @property
    def game(self) -> Front:
        """The screen's game, as this part uses one (``core.game.front.Front``)."""
        return self.screen.game

    def confirm_box(self) -> ConfirmBox:
        """Where undo and redo ask (live only), hidden until then."""
        if self._confirm is None:
            from tui.screens.dialogs import ConfirmBox

            # First in the screen so that showing it leaves every other widget's
            # place in Textual's drawing order as it was: only the rows it covers
            # are drawn again.
            self._confirm = ConfirmBox(id="confirm")
            self.screen.mount(self._confirm, before=0)
        return self._confirm

    def attention(self) -> Widget | None:
        """The undo or redo box while it asks: it takes the keys, the focus staying where it was,
        and the terminal's cursor goes to its question (``tui.focus_cursor``)."""
        box = self._confirm
        return box if box is not None and box.asking and box.display else None

    def _own_command(self, cmd: int | None) -> str | None:
        """``#n text`` if this seat gave command ``cmd`` (which its role may see), numbered as it knows it."""
        if cmd is None:
            return None
        game = self.game
        issued = game.history.issued(cmd)
        if issued.by != self.screen.by:
            return None
        return f"#{game.reading.numbering(self.screen.role).shown(cmd)} {issued.text}"

    def undo_preview(self) -> str | None:
        """What undo would take back, named for this seat (None if it may not undo).

        It depends only on what this role may see (``Undoing.undo_target``).
        """
        game, role = self.game, self.screen.role
        if role == REFEREE:
            return game.undoing.undo_preview(REFEREE)
        return self._own_command(game.undoing.undo_target(role))

    def redo_preview(self) -> str | None:
        game, role = self.game, self.screen.role
        if role == REFEREE:
            return game.undoing.redo_preview(REFEREE)
        return self._own_command(game.undoing.redo_target(role))

    def hint(self) -> str:
        """The phase pane's hint: the key that undoes, and what it would take back ("" in replay, or with none)."""
        if self.screen.replay:
            return ""
        preview = self.undo_preview()
        if not preview or self.game.undoing.undo_refusal(self.screen.role, self.screen.by) is not None:
            return ""  # (a confirmation of the result, a side's roll: the key would only be refused)
        keys = keys_of(self.screen, "undo", first=True)  # (its app's keymap; none where it is not shown)
        return _("{keys} undoes {command}").format(keys=keys, command=preview)

    def _confirm_then(self, question: str, detail: str, run: Callable[[], Result], done: str) -> None:
        screen = self.screen

        def carry_out() -> None:
            line = screen.part(CommandLine)
            result = run()
            if isinstance(result, Refusal | Failure | DiceNeeded | AnswerNeeded):
                # (An undo or redo rolls nothing and asks nothing: never asked for here.)
                self.answers.not_done(
                    result if isinstance(result, Refusal | Failure) else Failure(_("undo asked for dice"))
                )
                return
            # The message line no longer speaks of the command as it stood before.
            line.hint(Text(visible(done), no_wrap=True, overflow="ellipsis"), "ok")
            screen.part(LogView).follow_end()
            screen.refresh_game()

        # Carried out as the box closes, before this screen is drawn again: the
        # screen is drawn once, already changed.
        self.confirm_box().ask(question, detail, on_yes=carry_out)

    def confirm_key(self, key: str | None, printable: bool = False) -> bool:
        """Answer the question up (if any) with ``key``: True if the question took the key.

        Typing (a printable key; None: a paste, a click) drops the question, nothing
        done, before it does what it does: Enter, typed after a command, never says
        yes.  Any other key (F5, Ctrl+O, an arrow) is the question's: it stays up and
        the key does nothing, as under a modal screen (F5 once closed it and opened
        the replay); only quitting goes through.
        """
        box = self.asking()
        if box is None:
            return False
        yes, no = ("enter", "y", _("y")), ("escape", "n", _("n"))  # the reader's letters too: Italian "s"
        if key in yes or key in no:
            box.answer(key in yes)
            return True
        if key is not None and not printable:
            return key not in client_app(self.screen).QUIT_KEYS
        box.answer(False)
        return False

    def asking(self) -> ConfirmBox | None:
        """The box, while it asks."""
        box = self._confirm
        return box if box is not None and box.asking else None

    def undo(self) -> None:
        screen, game, role = self.screen, self.game, self.screen.role
        # The undo's own check, asked before the question so a player is not asked then refused.
        why = _("a spectator cannot undo") if role == SPECTATOR else game.undoing.undo_refusal(role, screen.by)
        preview = self.undo_preview()
        if why is not None or preview is None:  # (an undo the game allows has a preview)
            screen.part(CommandLine).error(why or _("nothing to undo"))
            return
        redo = keys_of(screen, "redo", first=True)
        self._confirm_then(
            _("Undo {command}?").format(command=preview),
            _(
                "Its lines stay in the log, struck through, and stop counting; every seat sees it."
                " {keys} brings it back until another command is given."
            ).format(keys=redo),
            lambda: game.submit("undo", role=role, by=screen.by),
            _("↶ undone: {command} ({keys} redoes it)").format(command=preview, keys=redo),
        )

    def redo(self) -> None:
        screen, game, role = self.screen, self.game, self.screen.role
        preview = self.redo_preview()
        if preview is None:
            screen.part(CommandLine).error(
                _("a spectator cannot redo")
                if role == SPECTATOR
                else _("nothing to redo")
                if game.undoing.redo_target(role) is None
                else _("the command to redo is not yours")
            )
            return
        self._confirm_then(
            _("Redo {command}?").format(command=preview),
            _("Its struck-through lines count again, as they were, with the same dice; every seat sees it."),
            lambda: game.submit("redo", role=role, by=screen.by),
            _("↷ redone: {command}").format(command=preview),
        )
