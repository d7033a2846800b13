"""The game screen's share of a command held at the table for a seat's roll or answer (issue #61):
whose dice are awaited, the prompt at the seat asked, the held box at its giver's (``GameScreen`` mixes this in)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.screen import Screen

from core.dice.given import roll_given
from core.log.outcome import Awaited, Failure, Outcome, Refusal, Result
from core.log.views import REFEREE
from tui.commandline import CommandLine
from tui.i18n import _, given_words, role_words, scenario_words
from tui.keymap import keys_of
from tui.panes.phase import PhasePane
from tui.plain import plain, visible
from tui.textual_internals import withdraw_notices

if TYPE_CHECKING:
    from core.dice.faces import DiceRequest
    from core.game.front import Front


def odds_title(command: str) -> str:
    """The title of the notice ``odds COMMAND`` shows: its command's dice prompt withdraws it."""
    return _("odds: {command}").format(command=command)


class AwaitingRolls:
    """What a seat is shown of the command held at its table, and what it gives to it."""

    game: Front
    role: str
    _shown_awaiting: Awaited | None
    _held_screen: Screen | None
    _held_from: int
    #: The phase pane's line as last shown: whose dice are awaited ("": none).
    _shown_waiting: str = ""

    def show_awaiting(self) -> None:
        """The command held at this table for a seat's dice (issue #61): every seat says whose
        dice are awaited on the phase pane's line; the seat asked is given the prompt, and
        its submitter is shown whose dice his command waits for (Esc withdraws it).  A roll
        another seat types at its own prompt is said on the same line (issue #77)."""
        if self.replay:
            return
        held = self.game.awaiting.held
        if held != self._shown_awaiting:
            self._show_held(held)
        self._waiting_line(held)

    def _waiting_line(self, held: Awaited | None) -> None:
        """The phase pane's line: whose dice the table waits for, held or typed at their own seat."""
        said = self.game.awaiting.said(self.role)
        if self._referee_may_take(held):
            # The key first: a narrow screen's line is cut at its end, and the roll is long (#61).
            said = _("{key}: give them yourself · {waiting}").format(
                waiting=said, key=keys_of(self, "table-dice", first=True)
            )
        said = " · ".join(part for part in (said, self.game.rolling.said(self.role, self.by)) if part)
        if said == self._shown_waiting:
            return
        self._shown_waiting = said
        phase = self._part(PhasePane)
        phase.border_subtitle = plain(said)
        phase.set_class(bool(said), "-awaiting")  # a short screen's pane gets its bottom border back for it

    def _show_held(self, held: Awaited | None) -> None:
        was, self._shown_awaiting = self._shown_awaiting, held
        if was is not None and was.role == self.role and was.by == self.by and held is None:
            # This seat's command, gone on at another seat: recorded, or dropped there (and why).
            dropped = self.game.awaiting.dropped
            if self.game.log_length > self._held_from:
                self._done(self.game.history.next_cmd - 1, was.text, self._held_from)
            elif dropped is not None:
                self._not_done(dropped)
            else:
                self._part(CommandLine).hint("")
        elif held is not None and was is None:
            self._held_from = self.game.log_length
        stale, self._held_screen = self._held_screen, None
        if stale is not None and stale in self.app.screen_stack:  # the command as it stood: asked no more
            stale.pop_until_active()  # (dismiss pops the top screen: a box opened over it goes first)
            stale.dismiss(None)
            if was is not None and was.asked == self.role:  # its roll, gone on at another seat (issue #77)
                given = roll_given(self.game, was)
                if given is not None:
                    said = Text(visible(given_words(*given)), no_wrap=True, overflow="ellipsis")
                    self._part(CommandLine).hint(said, "ok")
        if held is None or self.watching:
            return
        if held.asked == self.role:
            self._prompt_held(held)
        elif held.role == self.role:
            from tui.screens.held import HeldScreen

            box = HeldScreen(self.game.awaiting.said(self.role), self.game.localize(held.text))
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
            if self.game.awaiting.held != held:
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
            dice = DicePrompt(
                held.request,
                line,
                typed,
                self.game.ruleset.domain,
                self._owner(held.request),
                answering=self.role != held.role,
            )
            self._held_screen = dice
            self.app.push_screen(dice, lambda faces: gave(faces=faces))
        elif held.question is not None:
            question = QuestionPrompt(held.question, self.game.localize(held.text))
            self._held_screen = question
            self.app.push_screen(question, lambda answer: gave(answer=answer))

    def _own_roll_dropped(self, text: str) -> None:
        """This seat's prompt for its own command's roll (or answer) closed with nothing given:
        nothing was recorded, and the seats told whose dice were awaited are told no more (#77)."""
        self.game.unasked(self.by)
        line = self._part(CommandLine)
        line.error(_("cancelled: {command} (nothing was recorded)").format(command=text))
        line.give_back(text)

    def _withdraw(self, held: Awaited) -> None:
        if self.game.awaiting.held == held:
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
