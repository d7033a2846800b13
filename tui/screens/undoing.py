"""The game screen's undo and redo: what each would take back, named for the seat, and the box
that asks before either is done (``GameScreen`` mixes this in)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widget import Widget

from core.game.front import Front
from core.log.outcome import AnswerNeeded, DiceNeeded, Failure, Refusal, Result
from core.log.views import REFEREE, SPECTATOR
from tui.commandline import CommandLine
from tui.i18n import _
from tui.keymap import keys_of
from tui.panes.log import LogView
from tui.plain import visible

if TYPE_CHECKING:
    from tui.screens.dialogs import ConfirmBox  # imported when first needed: not for the first frame


class UndoRedo:
    """Undo and redo at this seat, each asked in the screen's confirm box first."""

    game: Front
    role: str
    _confirm: ConfirmBox | None

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

    def _own_command(self, cmd: int | None) -> str | None:
        """``#n text`` if this seat gave command ``cmd`` (which its role may see), numbered as it knows it."""
        if cmd is None:
            return None
        issued = self.game.history.issued(cmd)
        if issued.by != self.by:
            return None
        return f"#{self.game.reading.numbering(self.role).shown(cmd)} {issued.text}"

    def undo_preview(self) -> str | None:
        """What undo would take back, named for this seat (None if it may not undo).

        It depends only on what this role may see (``Undoing.undo_target``).
        """
        if self.role == REFEREE:
            return self.game.undoing.undo_preview(REFEREE)
        return self._own_command(self.game.undoing.undo_target(self.role))

    def redo_preview(self) -> str | None:
        if self.role == REFEREE:
            return self.game.undoing.redo_preview(REFEREE)
        return self._own_command(self.game.undoing.redo_target(self.role))

    def _undo_hint(self) -> str:
        if self.replay:
            return ""
        preview = self.undo_preview()
        return (
            _("{keys} undoes {command}").format(keys=keys_of(self, "undo", first=True), command=preview)
            if preview
            else ""
        )

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
        why = (
            _("a spectator cannot undo")
            if self.role == SPECTATOR
            else self.game.undoing.undo_refusal(self.role, self.by)
        )
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
                if self.game.undoing.redo_target(self.role) is None
                else _("the command to redo is not yours")
            )
            return
        self._confirm_then(
            _("Redo {command}?").format(command=preview),
            _("Its struck-through lines count again, as they were, with the same dice; every seat sees it."),
            lambda: self.game.submit("redo", role=self.role, by=self.by),
            _("↷ redone: {command}").format(command=preview),
        )
