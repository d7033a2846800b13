"""The submitter's screen while his command waits for another seat's dice (issue #61).

At a served table with table dice, a roll is asked at its owner's own seat
(``core.game.Game.hold``): the seat that gave the command is shown whose dice are
awaited until the command goes on or ends, and may withdraw it with Esc.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen

from tui.i18n import N_, _
from tui.plain import Plain, PlainLabel, visible
from tui.screens.dialogs import DIALOG_CSS


class HeldScreen(ModalScreen[bool]):
    """Whose dice the seat's command waits for; Esc withdraws it (dismissed with True)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="HeldScreen")
    BINDINGS = [Binding("escape", "withdraw", N_("Withdraw the command"))]

    def __init__(self, said: str, command: str) -> None:
        super().__init__()
        self.said = said
        self.command = command

    def compose(self) -> ComposeResult:
        with Vertical():
            yield PlainLabel(self.said, classes="title", id="held-said")
            yield Plain(Text(visible(_("command: {command}").format(command=self.command)), style="dim"))
            yield Plain(Text(visible(_("Esc withdraws it: nothing is recorded")), style="dim"))

    def action_withdraw(self) -> None:
        self.dismiss(True)
