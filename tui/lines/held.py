"""The line client's share of the table's dice asked at other seats: a command the table holds
for a seat's roll or answer (issue #61), and a roll another seat types at its own prompt (issue
#77); what ``LineClient`` says of them and gives to them (it mixes this in)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from core.dice.faces import DiceRequest
from core.dice.given import roll_given
from core.log.outcome import Awaited, Failure, Outcome, Refusal, Result
from core.log.questions import Question
from core.log.views import REFEREE
from tui.i18n import _, given_words
from tui.lines import answers

if TYPE_CHECKING:
    from core.game import Game
    from tui.lines.ink import Line


class Faces(msgspec.Struct):
    """A command waiting for the faces of the table's dice."""

    text: str
    typed: list[int]
    request: DiceRequest
    #: The answers to its questions given so far (``core.log.questions``).
    answers: list[str] = msgspec.field(default_factory=list)
    #: The command the table holds for this seat's dice (issue #61): the faces go on with it there.
    held: Awaited | None = None


class Asked(msgspec.Struct):
    """A command waiting for the answer to its question (``core.log.questions``)."""

    text: str
    typed: list[int] | None
    answers: list[str]
    question: Question
    held: Awaited | None = None


class HeldRolls:
    """What a seat is told of the dice the table waits for at another seat, and what it gives."""

    game: Game
    role: str
    verbose: bool
    #: The question this seat is asked now (``LineClient``'s: the faces, an answer, undo's y or n).
    _question: object
    _shown_awaiting: Awaited | None
    _submitting: bool
    _own_cmd: int
    #: Whose dice other seats type at their own prompts, as this seat was last told it (issue #77).
    _shown_rolling: str = ""
    #: The log's length when it was told.
    _rolling_from: int = 0

    if TYPE_CHECKING:  # ``LineClient``'s, which mixes this in

        @property
        def by(self) -> str: ...
        def say(self, *lines: Line) -> None: ...
        def _refused(self, why: str, rules: tuple[str, ...] = ()) -> None: ...
        def _settled(self, result: Result) -> None: ...
        def _catch_up(self) -> None: ...

    def _give_held(self, held: Awaited, *, faces: list[int] | None = None, answer: str | None = None) -> None:
        """This seat's faces (or answer) for the command the table holds; neither: withdraw it,
        if it is this seat's player's or the referee's to withdraw (else it is asked again)."""
        if faces is None and answer is None and self.role not in (held.role, REFEREE):
            self._refused(_("only its player or the referee may withdraw it"))
            return
        self._question = None
        if self.game.awaiting.held != held:
            return  # gone on or withdrawn meanwhile: said as the news comes
        self._submitting = True
        try:
            result = self.game.answer_held(role=self.role, by=self.by, faces=faces, answer=answer)
        finally:
            self._submitting = False
        if isinstance(result, Outcome) and held.by == self.by:
            self._own_cmd = result.cmd  # (another's command, gone on with this seat's dice, is said whole)
        self._catch_up()
        if isinstance(result, Refusal | Failure):
            self._settled(result)
        self._held_news(told=True)

    def _given_elsewhere(self) -> None:
        """The roll this seat was asked, gone on at another (a seat sharing its side, the referee): asked no
        more, and said whose faces went on with it, before what they did (issue #77); the next line is a
        command again, at the seat's own prompt."""
        question = self._question
        if not isinstance(question, Faces | Asked) or question.held is None or self.game.awaiting.held == question.held:
            return
        self._question = None
        given = roll_given(self.game, question.held)
        if given is not None:
            self.say(answers.sentence(given_words(*given)))

    def _held_news(self, *, told: bool = False) -> None:
        """The command held at the table for a seat's dice, said once as it changes (issue #61):
        this seat's own roll asked as its own are; any other, whose dice are awaited, one line;
        this seat's command dropped at another (``told``: not, this seat dropped it), why."""
        held = self.game.awaiting.held
        if held == self._shown_awaiting:
            return
        was, self._shown_awaiting = self._shown_awaiting, held
        dropped = self.game.awaiting.dropped
        if held is None and not told and dropped is not None and was and (was.role, was.by) == (self.role, self.by):
            self._settled(dropped)
        question = self._question
        if isinstance(question, Faces | Asked) and question.held is not None:
            self._question = None  # the command as it stood: asked no more
        if held is None:
            return
        if held.asked == self.role and held.request is not None:
            self._question = Faces(self.game.localize(held.text), held.faces, held.request, held.answers, held=held)
            self.say(*answers.table_dice(held.request, first=not held.faces, verbose=self.verbose, held=True))
        elif held.asked == self.role and held.question is not None:
            self._question = Asked(self.game.localize(held.text), held.faces, held.answers, held.question, held=held)
            self.say(*answers.question(held.question))
        elif self.role == REFEREE and held.request is not None:
            said = self.game.awaiting.said(self.role)
            give = _("Type its faces to give them yourself, or {cancel} to withdraw it.").format(cancel=_("cancel"))
            self.say(answers.sentence(said) + " " + give)
        elif said := self.game.awaiting.said(self.role):  # ("": a roll hidden from this seat)
            self.say(answers.sentence(said))

    def _rolling_news(self) -> None:
        """Whose dice other seats type at their own prompts (issue #77), said once as it changes;
        and that they are awaited no more when nothing came of them (the command withdrawn at its
        prompt: nothing recorded, nothing held), so that no one waits on."""
        said = self.game.rolling.said(self.role, self.by)
        if said == self._shown_rolling:
            return
        if said:
            self.say(answers.sentence(said))
            self._rolling_from = self.game.log_length
        elif self.game.log_length == self._rolling_from and self.game.awaiting.held is None:
            self.say(answers.sentence(_("no longer waiting for dice: nothing was recorded")))
        self._shown_rolling = said
