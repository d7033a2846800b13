"""What a command of this seat came to, said on its command line: a ✓ naming what it did (taken back
if another seat undoes the command), a refusal as an error (kept for ``why``), or an error of the
program with a notice saying where its details were logged."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from core.errorlog import details_in
from core.log.narrate import sides_of
from core.log.outcome import Failure, Refusal, said
from tui.commandline import CommandLine
from tui.i18n import _
from tui.panes.log import LogView, summary
from tui.plain import visible

if TYPE_CHECKING:
    from core.game.front import Front
    from tui.screens.seat import SeatScreen


class LineAnswers:
    """The command line's last answer about a command, and the last refusal ``why`` explains."""

    def __init__(self, screen: SeatScreen) -> None:
        self.screen = screen
        #: The last refusal on this command line and its rules, until a command is carried out (``why``).
        self.last_refusal: tuple[str, tuple[str, ...]] | None = None
        #: The command the line's last ✓ is about, and that ✓: it goes if another seat undoes the command.
        self._last_ok: tuple[int, Text] | None = None

    @property
    def game(self) -> Front:
        """The screen's game, as this part uses one (``core.game.front.Front``)."""
        return self.screen.game

    def done(self, cmd: int, text: str, before: int) -> None:
        """A command of this seat's carried out (``before``: the log's length before it): what it did, on the line."""
        screen, game = self.screen, self.game
        self.last_refusal = None  # `why` now explains its roll
        screen.part(LogView).follow_end()  # what this seat did shows, wherever a search had left the log
        lines = game.log_lines(screen.role, before, game.log_length)[1:]
        what = summary(lines, game.ruleset.domain, sides_of(game.state)) or text
        answer = Text(
            visible(f"✓ #{game.reading.numbering(screen.role).shown(cmd)} {what}"), no_wrap=True, overflow="ellipsis"
        )
        screen.part(CommandLine).hint(answer, "ok")
        # An undo's ✓ names the command it took back: that one stays said.
        self._last_ok = (cmd, answer) if game.history.is_live(cmd) else None
        screen.refresh_game()

    def not_done(self, result: Refusal | Failure) -> None:
        """A command not carried out, on the line: a refusal as an error; an error of the
        program (not a refusal) with a notice that says where its details were logged."""
        line = self.screen.part(CommandLine)
        if isinstance(result, Refusal):
            self.last_refusal = (said(result), result.rules)  # what `why` explains
            line.error(said(result))
            return
        app = self.screen.app
        store = getattr(app, "store", None)  # (none at a seat of a server: its host's log has them)
        where = _("the host has the details in its log") if store is None else details_in(store.error_log)
        line.failed(said(result))
        app.notify(where, title=said(result), severity="error", timeout=20, markup=False)

    def forget_undone(self) -> None:
        """Another seat's undo took back the command the line's ✓ is about (#61): the ✓ goes."""
        if self._last_ok is not None and not self.game.history.is_live(self._last_ok[0]):
            self.screen.part(CommandLine).forget(self._last_ok[1])
            self._last_ok = None
