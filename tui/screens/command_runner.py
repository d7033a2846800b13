"""What one seat's command line gives the game: a line typed or filled in a form, run with the dice and
answers it asks for; and the client's own words read before the ruleset's (``?``, ``help``, ``odds``,
``rule?``, ``why``), which answer and give nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Input

from core.explain import WORD as RULES_WORD
from core.log.outcome import AnswerNeeded, DiceNeeded, Failure, Held, Refusal
from core.log.state import TABLE_DICE
from core.log.views import REFEREE
from core.refusal import CommandFailed
from core.ruleset import CommandSpec, Refused
from tui.commandline import CommandInput, CommandLine
from tui.i18n import _, pgettext
from tui.plain import visible
from tui.screens.client import ClientApp
from tui.screens.held_rolls import odds_title, owner_named
from tui.textual_internals import withdraw_notices

if TYPE_CHECKING:
    from core.game import Game
    from tui.screens.held_rolls import HeldRolls
    from tui.screens.line_answers import LineAnswers
    from tui.screens.seat import SeatScreen

# ``why``, ``? COMMAND`` and ``confirm`` (``tui.screens.asking``) and ``rule?``'s answers are imported
# as they are first asked for: a game's first frame needs only their words (``reading_words``).


def reading_words() -> frozenset[str]:
    """The client's words that read the game and give nothing, in English and the reader's
    language, casefolded: what the command line guides as no typing error."""
    words = ("?", "why", "help", "odds", "copy", RULES_WORD)
    return frozenset(w.casefold() for word in words for w in (word, pgettext("command", word)))


class CommandRunner:
    """The seat's commands, from its command line, the action picker or the palette."""

    def __init__(self, screen: SeatScreen, answers: LineAnswers, held: HeldRolls) -> None:
        self.screen = screen
        self.answers = answers
        self.held = held

    @property
    def game(self) -> Game:
        return self.screen.game

    @property
    def role(self) -> str:
        return self.screen.role

    def line(self) -> CommandLine:
        return self.screen.part(CommandLine)

    def entered(self, text: str) -> None:
        """A command given on the command line (run as Enter is handled: ``CommandInput``)."""
        app = self.screen.app
        app.clear_notifications()  # the last answer's notice would cover this line's answer
        verb, _sep, rest = text.strip().partition(" ")
        from tui.screens import asking

        if asking.asked(self, verb, rest.strip()):  # `why`, `? COMMAND`: nothing given
            return
        if self._reads(verb, "?", "help"):
            # No ruleset's command: what a newcomer types first (``help fire`` too), answered with the help.
            self.screen.action_help(rest.strip())
            return
        if self._reads(verb, "odds"):
            # The line client's reading word, here too: a command's chances, nothing given.
            self.show_odds(rest.strip())
            return
        if self._reads(verb, RULES_WORD):
            # A rules question (``core.explain.rulesask``): answered, nothing given.
            self.show_rules_answer(rest.strip())
            return
        if self._reads(verb, "copy") and not rest.strip():
            # The player's own copy of the game, as F10 keeps it and the plain seat's word (issue #91).
            self.screen.action_keep_copy()
            return
        self.run(text)
        if isinstance(app, ClientApp) and app.store is not None:
            # Remembered for this save, in a thread (a disk may be slow), once it shows.
            client, store = app, app.store
            lines, path = list(self.screen.part(CommandInput).history), self.game.path
            self.screen.call_after_refresh(
                lambda: app.run_worker(lambda: client.write_user_data(store.save_history, path, lines), thread=True)
            )

    def _reads(self, verb: str, *words: str) -> bool:
        """Whether ``verb`` is one of the client's reading ``words`` (in English or the reader's words),
        and no command of the ruleset (which then wins)."""
        said = {w.casefold() for word in words for w in (word, pgettext("command", word))}
        return verb.casefold() in said and not self.is_verb(verb)

    def is_verb(self, word: str) -> bool:
        """Whether the ruleset has a command called ``word`` (which then wins over the client's)."""
        return any(word.casefold() in (n.casefold() for n in self.game.names(spec)) for spec in self.game.commands)

    def show_rules_answer(self, question: str) -> None:
        """``rule? WORDS``: the rules a question is about, best first, in a notice (``core.explain.rulesask``)."""
        from core.explain import rulesask

        view = self.game.view(self.role)
        try:
            said = rulesask.answer_lines(self.game.ruleset, question, ((u.id, u.name) for u in view.units.values()))
        except Refused as e:
            self.line().error(str(e))
            return
        self.screen.app.notify("\n".join(said), title=pgettext("command", RULES_WORD), timeout=30, markup=False)

    def show_odds(self, text: str) -> None:
        """``odds COMMAND``: what the command would roll first and its exact chances, without
        giving it; the command is put back on the line, to be given with Enter or mended."""
        from tui.lines import answers  # the line client's words for them (no Textual there)

        line = self.line()
        try:
            said = answers.odds(self.game, self.role, text)
        except Refused as e:
            line.error(str(e))
            if text:  # the command back, to mend (as a refused command comes back)
                line.give_back(text)
            return
        except CommandFailed as e:
            self.answers.not_done(Failure(str(e)))
            return
        # the chance first on the one line (the roll it is for opens the whole, in the notice)
        line.hint(Text(visible(" ".join(said[1:]) or said[0]), no_wrap=True, overflow="ellipsis"), "ok")
        self.screen.app.notify("\n".join(said), title=odds_title(text), timeout=20, markup=False)
        if text:
            line.give_back(text)

    def run(self, text: str, faces: list[int] | None = None, answers: list[str] | None = None) -> None:
        """Run a command line; ask for physical dice when the game needs them, and the
        answers to its questions (``core.log.questions``) as it asks them."""
        screen, game, line = self.screen, self.game, self.line()
        if faces is None and screen.table_dice:
            faces = []
        answers = list(answers or [])  # this client can ask: the game asks rather than take defaults
        before = game.log_length
        result = game.submit(text, role=self.role, by=screen.by, faces=faces, answers=answers)
        if isinstance(result, DiceNeeded | AnswerNeeded):
            self._ask(text, result, faces, answers)
            return
        if isinstance(result, Refusal | Failure):
            self.answers.not_done(result)
            line.give_back(text)
            return
        if line.input.value == text:  # a command from a form, shown on the line while it ran
            line.input.value = ""
        if isinstance(result, Held):  # another seat's dice now: this one is shown whose
            self.held.show()
            return
        self.answers.done(result.cmd, text, before)

    def _ask(self, text: str, result: DiceNeeded | AnswerNeeded, faces: list[int] | None, answers: list[str]) -> None:
        """The prompt for the dice (or the answer) the command needs, then the command again with them."""
        from tui.screens.dialogs import DicePrompt, QuestionPrompt

        app = self.screen.app
        typed = list(faces) if faces is not None else None

        def got(new: list[int] | None) -> None:
            if new is None:
                self._own_roll_dropped(text)
            else:
                self.run(text, [*(typed or []), *new], answers)

        def answered(answer: str | None) -> None:
            if answer is None:
                self._own_roll_dropped(text)
            else:
                self.run(text, typed, [*answers, answer])

        # The line's candidates for the words just entered would stay under the prompt.
        waiting = _("{command}: waiting for its dice").format(command=text)
        if isinstance(result, AnswerNeeded):
            waiting = _("{command}: waiting for an answer").format(command=text)
        self.line().hint(Text(visible(waiting), no_wrap=True, overflow="ellipsis"))
        if isinstance(result, AnswerNeeded):
            app.push_screen(QuestionPrompt(result.question, text), answered)
            return
        # The odds asked of it would cover the prompt for their 20 s: the prompt says the roll now.
        withdraw_notices(app, odds_title(text))
        owner = owner_named(self.game, self.role, result.request)
        app.push_screen(DicePrompt(result.request, text, typed or [], self.game.ruleset.domain, owner), got)

    def _own_roll_dropped(self, text: str) -> None:
        """This seat's prompt for its own command's roll (or answer) closed with nothing given:
        nothing was recorded, and the seats told whose dice were awaited are told no more (#77)."""
        self.game.unasked(self.screen.by)
        line = self.line()
        line.error(_("cancelled: {command} (nothing was recorded)").format(command=text))
        line.give_back(text)

    def start(self, spec: CommandSpec) -> None:
        """Run a command from the palette or the picker: a form when it takes arguments."""
        from tui.screens import asking

        if self.screen.replay or asking.started(self, spec.name):
            return
        if not spec.params:
            self.run(spec.name)
            return

        def done(text: str | None) -> None:
            if text:
                box = self.line().input
                with box.prevent(Input.Changed):  # shown while it runs: the hint is then its ✓ or ✗, not its usage
                    box.value = text
                self.run(text)

        from tui.screens.forms import ActionForm  # imported when first used: a faster start

        state, ruleset, role = self.screen.vp.state(), self.game.ruleset, self.role

        def side_offered(side: str) -> bool:  # the sides Tab offers for it
            return ruleset.side_offered(state, spec, side, role)

        self.screen.app.push_screen(ActionForm(spec, state, role, ruleset.domain, side_offered), done)

    def pick(self) -> None:
        """The action picker: a command chosen from a list, then its form."""
        from tui.screens.forms import ActionPicker  # imported when first used: a faster start

        def picked(spec: CommandSpec | None) -> None:
            if spec is not None:
                self.start(spec)

        state, game = self.screen.vp.state(), self.game
        phase = game.ruleset.phase(state.phase)
        main = phase.commands if phase is not None else ()  # the phase's own, in its order, as Tab offers them
        self.screen.app.push_screen(ActionPicker(game.commands, state, self.role, game.ruleset.domain, main), picked)

    def whole_answer(self) -> None:
        """The command line's last answer whole, which its row cut with … (#48)."""
        from tui.screens.dialogs import AnswerScreen

        said = self.line().last_answer()
        if not said:
            self.screen.app.bell()
            return
        self.screen.app.push_screen(AnswerScreen(said))

    def toggle_table_dice(self) -> None:
        """The referee turns table dice on or off for his whole table (a command every seat reads
        from the log); a side's seat is told whose choice it is."""
        on = self.screen.table_dice
        if self.role != REFEREE:
            self.line().error(
                _("Table dice are the referee's choice for the whole table: now ON")
                if on
                else _("Table dice are the referee's choice for the whole table: now OFF")
            )
            return
        self.run(f"{TABLE_DICE} {'off' if on else 'on'}")
