"""What a command asks the table that no die decides and the game cannot know.

A handler asks with ``Context.ask(question)``: the cover a man checking morale lies
in, the card a table that keeps its own deck has drawn.  The answers come as the
dice do: a list given with the command (``Game.submit(answers=…)``, or ``answers=``
on its line), read in the order the handler asks.  When they run out the command
stops with :class:`NeedAnswer`, naming the :class:`Question`, and the front end asks
it and gives the command again with one answer more, as it does for the table's
dice (``core.dice.faces.NeedDice``).  Given with no answers at all (``answers`` None: a
script, a test), a question takes its ``default``; one with none asks all the same.

A question crosses the SSH pool's wire, so it holds only what the asking role may be
told (``whose`` is a name it may see) and data, never code: :meth:`Question.take`
is the one place an answer is checked, by the seat before it sends it and by the
game again when it arrives.
"""

from __future__ import annotations

import unicodedata

import msgspec

from core.language.i18n import CORE_DOMAIN, Domain, Text, _, render
from core.log.narrate import whose as whose_thing
from core.refusal import TYPING, Refused

#: Answers one command may be given: more is a typing error or an attack.
MAX_ANSWERS = 200
#: The longest answer, in characters.
MAX_ANSWER = 40
#: The answers a refusal lists before ``…``.
LISTED = 12


def folded(text: str) -> str:
    """An answer as compared: no case, no accents, no spaces at its ends."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


class Question(msgspec.Struct, frozen=True, omit_defaults=True):
    """One thing a command must be told, with every answer it may take."""

    #: What is asked, about ``whose`` when it names one ("cover for his morale check").
    asked: Text
    #: The answers, as recorded.
    choices: tuple[str, ...]
    #: Another way to type each answer, in step with ``choices`` ("ks" for ``K♠``): "" for none.
    spellings: tuple[str, ...] = ()
    #: What each answer means, in step with ``choices`` ("" for none).
    meanings: tuple[Text, ...] = ()
    #: Answers that name something real that cannot be the answer now, and why (a card
    #: drawn since the last reshuffle): refused with that reason, not as a typing error.
    closed: tuple[str, ...] = ()
    closed_why: Text = ""
    #: Another way to type each of ``closed``, in step with it.
    closed_spellings: tuple[str, ...] = ()
    #: Whose it is (a unit's name the asker may see, a side), as a roll's ``whose``.
    whose: str = ""
    #: Taken when the command is given with no answers at all ("" : none, it is asked).
    default: str = ""
    rule: str = ""
    #: The catalogue of ``asked``, ``meanings`` and ``closed_why`` (``Ruleset.domain``).
    domain: str = CORE_DOMAIN

    def text(self) -> str:
        """``Omar Haji's cover for his morale check (A.13.2)``."""
        asked = render(self.asked, self.domain)
        said = whose_thing(self.whose, asked) if self.whose else asked
        return f"{said} ({self.rule})" if self.rule else said

    def local(self, choice: str) -> str:
        """``choice`` as the reader types it: its name in the ruleset's catalogue (msgctxt
        ``choice``, as a command's choices are named), else its name as a term (a card the
        table drew: the joker, the Italian book's *jolly*), else itself."""
        domain = Domain(self.domain)
        named = domain.pgettext("choice", choice)
        return domain.term(choice) if named == choice else named

    def options(self) -> list[str]:
        """Each answer as the asker may type it, with its meaning: ``heavy (h): +2``."""
        out = []
        for i, english in enumerate(self.choices):
            choice = self.local(english)
            spelt = self.spellings[i] if i < len(self.spellings) else ""
            meaning = render(self.meanings[i], self.domain) if i < len(self.meanings) and self.meanings[i] else ""
            said = f"{choice} ({spelt})" if spelt and spelt != choice else choice
            out.append(f"{said}: {meaning}" if meaning else said)
        return out

    def take(self, typed: str) -> str:
        """The answer ``typed`` names (a choice, its spelling, or a prefix of one choice
        alone); ValueError saying why when it names none."""
        word = folded(typed)
        if not word or len(word) > MAX_ANSWER:
            raise ValueError(_("answer one of: {choices}").format(choices=self._listed()))
        for i, choice in enumerate(self.choices):
            spelt = self.spellings[i] if i < len(self.spellings) else ""
            if word in (folded(choice), folded(self.local(choice)), folded(spelt) if spelt else None):
                return choice
        for i, closed in enumerate(self.closed):
            spelt = self.closed_spellings[i] if i < len(self.closed_spellings) else ""
            if word in (folded(closed), folded(spelt) if spelt else None):
                raise ValueError(
                    _("{answer} cannot be the answer now: {why}").format(
                        answer=closed, why=render(self.closed_why, self.domain)
                    )
                )
        starting = [c for c in self.choices if folded(self.local(c)).startswith(word)]
        if not starting:
            starting = [c for c in self.choices if folded(c).startswith(word)]
        if len(starting) == 1:
            return starting[0]
        raise ValueError(
            _("{typed} is not an answer here; answer one of: {choices}").format(
                typed=repr(typed.strip()[:MAX_ANSWER]), choices=self._listed()
            )
        )

    def _listed(self) -> str:
        """The answers as they are typed (a card's spelling, ``7h``: a keyboard has no
        ``♥``), the first dozen of a long list (a deck's cards) and then ``…``."""
        spellings = self.spellings[:LISTED]
        shown = [
            spellings[i] if i < len(spellings) and spellings[i] else self.local(c)
            for i, c in enumerate(self.choices[:LISTED])
        ]
        return ", ".join(shown + ["…"] if len(self.choices) > LISTED else shown)


class NeedAnswer(Exception):
    """The command must be told ``question``'s answer before it goes on.  ``unit`` and
    ``side`` are whose it is, for :class:`core.game.Game`, which puts in ``whose`` the
    name the asking role may see and never lets ``unit`` leave it."""

    def __init__(self, question: Question, *, unit: str = "", side: str = "") -> None:
        super().__init__(question.text())
        self.question = question
        self.unit = unit
        self.side = side


class Answers:
    """The answers given with a command, taken in the order its handler asks."""

    def __init__(self, given: list[str] | None) -> None:
        self._given = None if given is None else list(given)
        self._used = 0

    def next(self, question: Question, *, unit: str = "", side: str = "") -> str:
        if self._given is None and question.default:
            return question.default
        if self._given is None or self._used >= len(self._given):
            raise NeedAnswer(question, unit=unit, side=side)
        typed = self._given[self._used]
        self._used += 1
        try:
            return question.take(typed)
        except ValueError as e:  # an answer no seat's check let through: a hostile peer's
            raise Refused(str(e), rule=TYPING) from None

    @property
    def unused(self) -> int:
        return 0 if self._given is None else len(self._given) - self._used
