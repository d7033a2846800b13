"""What a command is given with besides its line: :class:`Given`, the one list of the keywords
``Game.execute`` and ``Game.submit`` take.  Every game that carries commands out (a seat
worker's copy too), and a screen's type of a game (``core.game.front``), takes it whole
(``**given: Unpack[Given]``), so a keyword added here is added to every one of them.
"""

# (No ``from __future__ import annotations`` here: ``Required`` must count at run time too,
# in ``Given.__required_keys__``.)
from typing import Required, TypedDict


class Given(TypedDict, total=False):
    """What a command is given with.  ``role`` alone is required: a caller that forgets it
    fails rather than acting as the referee."""

    #: Whose command it is, checked and answered as that role's.
    role: Required[str]
    #: The seat that typed it, where another than the role's own ("": the role's).
    by: str
    #: Physical dice typed apart from the line: they follow the line's own ``dice=``, as the
    #: rolls it did not give; ``NeedDice`` is raised when they run out.
    faces: list[int] | None
    #: The issuer's client's random bytes that the command's sealed dice mix with the key
    #: (``core.dice.faces.CONTRIBUTION_BYTES`` of them); None: the ones its seat sent
    #: (``core.dice.faces.sent_contribution``), else this process draws them.
    contribution: bytes | None
    #: The table's answers to the command's questions (``core.log.questions``), after the
    #: line's own ``answers=``; None: each question takes its default.  ``NeedAnswer`` is
    #: raised when they run out.
    answers: list[str] | None
    #: The commitment of the sealed key in force when the issuer drew ``contribution`` ("" for
    #: none); None for a contribution drawn in this process now.  A key opened and replaced
    #: since cannot roll it: the command is refused (docs/secrets.md, "Sealed dice").
    saw: str | None
    #: The seat's count of its shares it named with ``contribution`` (``core.dice.shares``),
    #: which must be its next.
    nonce: int | None
    #: The seat that typed each of ``faces``, where another than ``by`` did ("" for his own;
    #: issue #74): its rolls say so.  Only a table's own held command names them (``Game.answer_held``).
    givers: list[str] | None
    #: The language the line was given in, where it is not the reader's (a held command another
    #: seat goes on with, ``Awaited.lang``): it is read and recorded in it.
    given_in: str
