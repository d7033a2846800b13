"""What a command came to, as one value: every front end shows a command through it.

A command given at any door (the Textual client, the line client, an SSH or
browser seat, ``fireteam script``) ends in one of four ways, and
:meth:`core.game.Game.submit` says which as a :data:`Result`:

* :class:`Outcome`: carried out; its events were written and synced;
* :class:`Refusal`: refused, with why, in the issuer's words; nothing was written;
* :class:`DiceNeeded`: the table's dice are wanted for its next roll (the request
  says which); nothing was written yet;
* :class:`AnswerNeeded`: the table must answer a question the game cannot decide
  (``core.log.questions``); nothing was written yet;
* :class:`Held`: at a served table with table dice, the command waits for another
  seat's dice (:class:`Awaited`, issue #61); nothing was written yet;
* :class:`Failure`: an error of the program, logged with its traceback for the
  host (``core.refusal.LOG``); the message says whether anything was recorded.

A front end matches on the value; none decides for itself what an exception
means, and a program error never ends a seat or a client.  The values are tagged
(msgspec's ``tag=True``): a seat worker's game is answered with the very value the
table's game made (``tui.ssh.workers.wire.Settled``).
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from core.dice.faces import DiceRequest, NeedDice
from core.language.i18n import _
from core.log import events as ev
from core.log.questions import NeedAnswer, Question
from core.refusal import LOG, CommandFailed, Refused


class Outcome(msgspec.Struct, tag=True):
    """A command carried out: the events appended, and the same in plain words (a listener,
    ``Game.subscribe``, is given only the events its role may see, in its words)."""

    cmd: int
    events: list[ev.Event]
    lines: list[str]


class Refusal(msgspec.Struct, frozen=True, tag=True):
    """A command that was refused: nothing was written, the issuer was told ``why``, and
    ``rules`` names the rule that refused it (ids of a rules map, or ``core.refusal.TYPING``)."""

    text: str
    role: str
    by: str
    why: str
    rules: tuple[str, ...] = ()


class DiceNeeded(msgspec.Struct, frozen=True, tag=True):
    """The command waits for the table's dice: ``request`` is its next roll. Nothing was written."""

    request: DiceRequest
    #: Who may know of the roll (its fact's audience; () everyone): at a served table, the
    #: other seats that are told whose dice are awaited (``core.game.rolling``, issue #77).
    vis: tuple[str, ...] = ()


class AnswerNeeded(msgspec.Struct, frozen=True, tag=True):
    """The command waits for the answer to ``question``. Nothing was written."""

    question: Question


class Awaited(msgspec.Struct, frozen=True):
    """A command held at a served table with table dice until the seat ``asked`` gives its
    next roll's faces (``request``) or its answer (``question``) (issue #61): one per table.

    The request and the question are said as the command's own role may be told them (its
    roll, ``Game._handle``): a seat other than the submitter's, the asked one's and the
    referee's is shown whose dice are awaited, never the roll; a seat that may not know of the
    roll (``vis``) is told nothing of it, not even that dice are awaited (``Game.awaiting.said``)."""

    #: The line as recorded (``Parsed.text``): its names of units and sides in ``lang``.
    text: str
    role: str
    by: str
    #: The faces and the answers the command was given so far, in order.
    faces: list[int]
    answers: list[str]
    #: The role whose seat is asked now: the roll's side, the referee when that side has no
    #: seat, or the submitter (its own rolls, and every question).
    asked: str
    request: DiceRequest | None = None
    question: Question | None = None
    #: Who typed each of ``faces``, where it was not the submitter (the seat's name; "" for
    #: his own): the roll records it (``Rolled.given_by``, issue #74).  Shorter than ``faces``
    #: when the first were his.
    givers: list[str] = msgspec.field(default_factory=list)
    #: Who may know of the roll asked now: its fact's audience (``DiceNeeded.vis``; () everyone).
    #: The submitter's, the asked and the referee's seats always do.
    vis: tuple[str, ...] = ()
    #: The language the line was given in (``Parsed.lang``, "" English): whichever seat goes on
    #: with it, the line is read again in it, and recorded so (``Issued.lang``).
    lang: str = ""


class OwnRoll(msgspec.Struct, frozen=True):
    """A seat at its own prompt for its command's roll at a served table (issue #77): the other
    seats that may see the roll are told whose dice are awaited (``core.game.rolling``)."""

    #: The role whose seat types the dice (the command's), and that seat's name (``Issued.by``).
    role: str
    by: str
    #: Who may know of the roll: its fact's audience (() everyone; the referee always).
    vis: tuple[str, ...] = ()


class Held(msgspec.Struct, frozen=True, tag=True):
    """The command waits at the table for another seat's dice (``awaited``). Nothing was written yet."""

    awaited: Awaited


class Failure(msgspec.Struct, frozen=True, tag=True):
    """The command failed on an error of the program; ``message`` is its one line for the player."""

    message: str


Result = Outcome | Refusal | DiceNeeded | AnswerNeeded | Held | Failure


def settle(act: Callable[[], Outcome], text: str, role: str, by: str) -> Result:
    """What ``act`` (a command carried out by the game, which raises to refuse) came to."""
    try:
        return act()
    except Refused as e:
        return Refusal(text, role, by, str(e), e.rules)
    except NeedDice as need:
        return DiceNeeded(need.request, need.vis)
    except NeedAnswer as need:
        return AnswerNeeded(need.question)
    except CommandFailed as e:  # logged already, with its traceback; nothing was written
        return Failure(str(e))
    except Exception:
        # Past the checks that write nothing: whether the save holds the command is
        # for the next open to say. The line may name hidden pieces: the host's log only.
        LOG.exception("command failed: %r as %s", text, role)
        return Failure(_("the command failed on an error of the program; open the game again to see what was recorded"))


def said(result: Refusal | Failure) -> str:
    """The one line every front end shows for a command not carried out."""
    return result.why if isinstance(result, Refusal) else result.message
