"""A command held at the table for a seat's roll or answer (issue #61), as one seat's game screen
shows it: whose dice are awaited, the prompt at the seat asked, the held box at its giver's, and what
the command came to once given or withdrawn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.screen import Screen

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
    from tui.screens.held import HeldScreen
    from tui.screens.line_answers import LineAnswers
    from tui.screens.seat import SeatScreen


def odds_title(command: str) -> str:
    """The title of the notice ``odds COMMAND`` shows: its command's dice prompt withdraws it."""
    return _("odds: {command}").format(command=command)


def owner_named(game: Front, role: str, request: DiceRequest) -> str:
    """The name of the side whose roll ``request`` is, at another side's seat ("" else: the
    seat's own roll, the referee's, and any at the referee's seat, who types every side's)."""
    side = game.state.sides.get(request.side) if request.side != role != REFEREE else None
    return scenario_words(side.name) if side is not None else ""


class HeldRolls:
    """What a seat is shown of the command held at its table, and what it gives to it."""

    def __init__(self, screen: SeatScreen, answers: LineAnswers) -> None:
        self.screen = screen
        self.answers = answers
        #: The command held at the table as this screen last showed it.
        self._shown: Awaited | None = None
        self._prompt: Screen | None = None  # its prompt or its submitter's notice, while up
        self._held_from = 0  # the log's length as it was held
        #: The phase pane's line as last shown: whose dice are awaited ("": none).
        self._shown_waiting = ""

    @property
    def game(self) -> Front:
        """The screen's game, as this part uses one (``core.game.front.Front``)."""
        return self.screen.game

    def show(self) -> None:
        """The command held at this table for a seat's dice (issue #61): every seat says whose
        dice are awaited on the phase pane's line; the seat asked is given the prompt, and
        its submitter is shown whose dice his command waits for (Esc withdraws it).  A roll
        another seat types at its own prompt is said on the same line (issue #77)."""
        if self.screen.replay:
            return
        held = self.game.awaiting.held
        if held != self._shown:
            self._show_held(held)
        self._waiting_line(held)

    def _waiting_line(self, held: Awaited | None) -> None:
        """The phase pane's line: whose dice the table waits for, held or typed at their own seat."""
        screen, game = self.screen, self.game
        said = game.awaiting.said(screen.role)
        if self.referee_may_take(held):
            # The key first: a narrow screen's line is cut at its end, and the roll is long (#61).
            said = _("{key}: give them yourself · {waiting}").format(
                waiting=said,
                key=keys_of(screen, "table-dice", first=True),
            )
        said = " · ".join(part for part in (said, game.rolling.said(screen.role, screen.by)) if part)
        if said == self._shown_waiting:
            return
        self._shown_waiting = said
        phase = screen.part(PhasePane)
        phase.border_subtitle = plain(said)
        phase.set_class(bool(said), "-awaiting")  # a short screen's pane gets its bottom border back for it

    def _show_held(self, held: Awaited | None) -> None:
        screen, game = self.screen, self.game
        was, self._shown = self._shown, held
        if was is not None and was.role == screen.role and was.by == screen.by and held is None:
            # This seat's command, gone on at another seat: recorded, or dropped there (and why).
            dropped = game.awaiting.dropped
            if game.log_length > self._held_from:
                self.answers.done(game.history.next_cmd - 1, was.text, self._held_from)
            elif dropped is not None:
                self.answers.not_done(dropped)
            else:
                screen.part(CommandLine).hint("")
        elif held is not None and was is None:
            self._held_from = game.log_length
        stale, self._prompt = self._prompt, None
        if stale is not None and stale in screen.app.screen_stack:  # the command as it stood: asked no more
            stale.pop_until_active()  # (dismiss pops the top screen: a box opened over it goes first)
            stale.dismiss(None)
            if was is not None and was.asked == screen.role:  # its roll, gone on at another seat (issue #77)
                from core.dice.given import roll_given  # (a roll typed at another seat: not for the first frame)

                given = roll_given(game, was)
                if given is not None:
                    said = Text(visible(given_words(*given)), no_wrap=True, overflow="ellipsis")
                    screen.part(CommandLine).hint(said, "ok")
        if held is None or screen.watching:
            return
        if held.asked == screen.role:
            self.prompt(held)
        elif held.role == screen.role:
            from tui.screens.held import HeldScreen

            take = keys_of(screen, "table-dice", first=True) if self.referee_may_take(held) else ""
            box = HeldScreen(game.awaiting.said(screen.role), game.localize(held.text), take)
            self._prompt = box
            screen.app.push_screen(box, lambda withdraw: self._held_closed(held, box, bool(withdraw)))

    def _held_closed(self, held: Awaited, box: HeldScreen, withdraw: bool) -> None:
        """The box of this seat's held command closed: what was typed in it goes on the
        command line (#61), the command is withdrawn if Esc closed it, and the roll's prompt
        opens here if the referee took it (his own ``next``'s, issue #91)."""
        if box.typed:
            line = self.screen.part(CommandLine).input
            line.value = box.typed
            line.cursor_position = len(box.typed)
        if withdraw:
            self._withdraw(held)
        elif box.taken and self.game.awaiting.held == held:
            self.prompt(held)

    def referee_may_take(self, held: Awaited | None) -> bool:
        """Whether this is the referee's screen and ``held`` a roll asked of another seat, which
        may stay and never answer: the referee keeping the books gives it, or withdraws it."""
        if self.screen.role != REFEREE or self.screen.watching or held is None:
            return False
        return held.asked != REFEREE and held.request is not None

    def prompt(self, held: Awaited) -> None:
        """This seat's roll (or answer) of a command held at the table, however it came here."""
        from tui.screens.dialogs import DicePrompt, QuestionPrompt

        screen, game, role = self.screen, self.game, self.screen.role

        def gave(faces: list[int] | None = None, answer: str | None = None) -> None:
            if game.awaiting.held != held:
                return  # withdrawn, or answered by the referee, meanwhile
            if faces is None and answer is None:
                if role in (held.role, REFEREE):
                    self._withdraw(held)
                    return
                # Another's command: not this seat's to withdraw; its dice are asked again.
                screen.part(CommandLine).error(_("only its player or the referee may withdraw it"))
                self._shown = None
                self.show()
                return
            before = game.log_length
            self._answered(game.answer_held(role=role, by=screen.by, faces=faces, answer=answer), held, before)

        if held.request is not None:
            withdraw_notices(screen.app, odds_title(held.text))
            # Another side's line may name what this seat may not see (a hidden firer): not shown.
            line = (
                game.localize(held.text)
                if role in (held.role, REFEREE)
                else _("given by the referee")  # the book's words, not a seat's role ("dato dall'arbitro")
                if held.role == REFEREE
                else _("given by {side}").format(side=role_words(held.role, game.state))
            )
            # The faces before were typed at the giver's seat: "typed so far" there only, not at a
            # defender's seat, whose player typed none of them (issue #61).
            typed = held.faces if role == held.role else []
            dice = DicePrompt(
                held.request,
                line,
                typed,
                game.ruleset.domain,
                owner_named(game, role, held.request),
                answering=role != held.role,
            )
            self._prompt = dice
            screen.app.push_screen(dice, lambda faces: gave(faces=faces))
        elif held.question is not None:
            question = QuestionPrompt(held.question, game.localize(held.text))
            self._prompt = question
            screen.app.push_screen(question, lambda answer: gave(answer=answer))

    def _withdraw(self, held: Awaited) -> None:
        game = self.game
        if game.awaiting.held == held:
            self._answered(game.answer_held(role=self.screen.role, by=self.screen.by), held, game.log_length)

    def _answered(self, result: Result, held: Awaited, before: int) -> None:
        """What a held command came to once this seat gave its dice (or withdrew it)."""
        self.show()  # (first: what it came to is said last, on the line)
        if isinstance(result, Outcome):
            self.answers.done(result.cmd, held.text, before)
        elif isinstance(result, Refusal | Failure):
            self.answers.not_done(result)
        # (Held: it went on, and is held for its next roll; answer_held never asks itself.)
