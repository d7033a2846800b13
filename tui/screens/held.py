"""The submitter's screen while his command waits for another seat's dice (issue #61).

At a served table with table dice, a roll is asked at its owner's own seat
(``core.game.Game.hold``): the seat that gave the command is shown whose dice are
awaited until the command goes on or ends, and may withdraw it with Esc.  The referee, who
may take any held roll, takes one of his own command's (his ``next``: a side's secret
objective die, a morale test) with the key that takes another's, Ctrl+T or F3 (issue #91).
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen

from tui.i18n import N_, _
from tui.input_limits import LINE_LENGTH
from tui.keymap import bound_keys
from tui.plain import Plain, PlainLabel, refused_paste, visible
from tui.screens.dialogs import DIALOG_CSS


class HeldScreen(ModalScreen[bool]):
    """Whose dice the seat's command waits for; Esc withdraws it (dismissed with True); the
    referee's key for a held roll (``take_key``, given to his screen only) closes it with
    :attr:`taken` set, for the roll's prompt at his screen.

    What is typed meanwhile (a referee types on, his next command) is kept, not run, and
    said so in the box: the game screen puts it on its command line once the box closes,
    whether the command went on or was withdrawn. Nothing typed is silently lost (#61)."""

    DEFAULT_CSS = DIALOG_CSS.format(name="HeldScreen")
    BINDINGS = [Binding("escape", "withdraw", N_("Withdraw the command"))]

    def __init__(self, said: str, command: str, take_key: str = "") -> None:
        super().__init__()
        self.said = said
        self.command = command
        #: The referee's key that takes the held roll, in words ("": not this seat's to take).
        self.take_key = take_key
        #: What was typed while the box was up, for the command line.
        self.typed = ""
        #: Whether the referee took the roll to give it himself.
        self.taken = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield PlainLabel(self.said, classes="title", id="held-said")
            yield Plain(Text(visible(_("command: {command}").format(command=self.command)), style="dim"))
            if self.take_key:
                take = _("{key}: give them yourself").format(key=self.take_key)
                yield Plain(Text(visible(take), style="bold"), id="held-take")
            yield Plain(Text(visible(_("Esc withdraws it: nothing is recorded")), style="dim"))
            yield Plain("", id="held-typed")

    def on_key(self, event: events.Key) -> None:
        if self.take_key and event.key in bound_keys(self, "table-dice"):
            event.stop()
            self.taken = True
            self.dismiss(False)
            return
        if event.key == "backspace":
            self.typed = self.typed[:-1]
        elif event.is_printable and event.character:
            self._keep(event.character)
        elif event.key != "enter" or not self.typed:  # Enter on what is typed: said again, not run
            return
        event.stop()
        self._say_kept()

    def on_paste(self, event: events.Paste) -> None:
        event.stop()
        why = refused_paste(event.text)
        if why:  # as the command line refuses it: whole, said why
            self.query_one("#held-typed", Plain).update(Text(visible(f"✗ {why}"), style="bold"))
            return
        self._keep(event.text.strip("\r\n").replace("\t", " "))
        self._say_kept()

    def _keep(self, text: str) -> None:
        # No more than a command line takes between two Enters (tui.input_limits).
        self.typed = (self.typed + text)[:LINE_LENGTH]

    def _say_kept(self) -> None:
        said = _("kept on your command line, not run while this command waits: {typed}").format(typed=self.typed)
        self.query_one("#held-typed", Plain).update(Text(visible(said), style="bold") if self.typed else "")

    def action_withdraw(self) -> None:
        self.dismiss(True)
