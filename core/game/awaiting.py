"""A command held at a served table with table dice until the seat whose roll (or
answer) it is next gives it (issue #61): who is asked, and what every seat is told meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from core.language.i18n import _, render, scenario_words
from core.log.outcome import AnswerNeeded, Awaited, DiceNeeded, Failure, Held, Refusal, Result
from core.log.views import (
    REFEREE,
)

if TYPE_CHECKING:
    from core.log.replay import Timeline


class Awaiting:
    """The command a table holds for a seat's dice or answer, one per table (``held``), why the
    last one ended unrecorded (``dropped``), and who is told when either changes."""

    def __init__(self, timeline: Timeline, domain: str) -> None:
        self._timeline = timeline
        self._domain = domain  # the ruleset's catalogue, which a question's words are in
        #: The command held for another seat's dice or answer (:meth:`hold`).
        self.held: Awaited | None = None
        #: Why the last held command ended unrecorded (its answer refused, or withdrawn), for
        #: the seat that gave it, which learns it only as news; None once another is held.
        self.dropped: Refusal | Failure | None = None
        self._listeners: list[Callable[[], None]] = []

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener`` whenever the held command (``held``) changes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def change(self, held: Awaited | None, dropped: Refusal | Failure | None = None) -> None:
        """Hold ``held`` (None: none; ``dropped``: why the one held ended unrecorded), and tell
        every listener (a seat worker's copy is told so)."""
        self.held, self.dropped = held, dropped
        for listener in list(self._listeners):
            listener()

    def hold(
        self, held: Awaited, result: DiceNeeded | AnswerNeeded, seated: set[str], *, first: bool = False
    ) -> Result:
        """At a served table with table dice (``seated``: the roles with a seat there), ``held``
        waits for the seat whose roll it is next (issue #61): the roll's side, the referee when
        that side has no seat here, else the submitter; a question is the submitter's.  A
        command's first rolls of its own seat are asked there as at one screen (``result`` goes
        back); once held, every step is told."""
        asked = held.role
        if isinstance(result, DiceNeeded) and result.request.side not in ("", held.role):
            if result.request.side in seated:
                asked = result.request.side
            elif REFEREE in seated:
                asked = REFEREE
        if first and asked == held.role:
            return result
        request = result.request if isinstance(result, DiceNeeded) else None
        question = result.question if isinstance(result, AnswerNeeded) else None
        vis = result.vis if isinstance(result, DiceNeeded) else ()
        self.change(msgspec.structs.replace(held, asked=asked, request=request, question=question, vis=vis))
        assert self.held is not None
        return Held(self.held)

    def went_on(
        self, role: str, by: str, faces: list[int] | None, answer: str | None, localize: Callable[[str], str]
    ) -> Awaited | Refusal:
        """The held command gone on with the faces (or the answer) its asked seat gave, or the
        referee, who may answer any, for the game to give again (no longer held meanwhile: told
        once it is held again, or ends); neither, it is withdrawn (by its submitter, or the
        referee).  A refusal says why not (``localize``: a recorded line in the reader's names)."""
        held = self.held
        if held is None or not hears(held, role):  # (nothing is awaited that this seat may know of)
            return Refusal("", role, by, _("no command is waiting for dice"))
        if faces is None and answer is None:
            if role not in (held.role, REFEREE):
                return Refusal(held.text, role, by, _("only its player or the referee may withdraw it"))
            said = _("cancelled: {command} (nothing was recorded)").format(command=localize(held.text))
            withdrawn = Refusal(held.text, role, by, said)
            self.change(None, withdrawn)
            return withdrawn
        if role not in (held.asked, REFEREE):
            return Refusal(held.text, role, by, self.said(role))
        giver = by if by != held.by else ""  # (another seat's faces say who typed them: issue #74)
        self.held = None
        return msgspec.structs.replace(
            held,
            faces=[*held.faces, *(faces or ())],
            answers=[*held.answers, *([answer] if answer is not None else [])],
            givers=[*held.givers, *[""] * (len(held.faces) - len(held.givers)), *[giver] * len(faces or ())],
        )

    def after(self, went_on: Awaited, result: Result, seated: set[str]) -> Result:
        """What the held command gone on with (:meth:`went_on`) came to: held again for its next
        roll or answer, or ended (a refusal or a failure said to its submitter's seat)."""
        if isinstance(result, DiceNeeded | AnswerNeeded):
            return self.hold(went_on, result, seated)
        self.change(None, result if isinstance(result, Refusal | Failure) else None)
        return result

    def keep(self, seated: set[str]) -> None:
        """Only ``seated`` are left at the table: a held command whose submitter left is withdrawn
        (nothing was recorded); a roll whose asked seat left is asked of the referee, else of
        its submitter."""
        held = self.held
        if held is None:
            return
        if held.role not in seated:
            self.change(None)
        elif held.asked not in seated:
            self.change(msgspec.structs.replace(held, asked=REFEREE if REFEREE in seated else held.role))

    def said(self, role: str) -> str:
        """What ``role``'s seat is told of the held command: whose dice are awaited, and the
        roll itself at the seats that may know it (its submitter's, the asked one's, the referee's);
        nothing at a seat the roll is hidden from (``hears``)."""
        held = self.held
        if held is None or not hears(held, role):
            return ""
        sides = self._timeline.state.sides

        def name(r: str) -> str:
            return scenario_words(sides[r].name) if r in sides else _("the referee")  # as the roster names it

        if held.request is None:
            said = _("waiting for {side}'s answer").format(side=name(held.role))
            roll = held.question.asked if held.question is not None else ""
            roll = render(roll, self._domain) if roll else ""
        else:
            owner = held.request.side or held.role
            if held.asked == REFEREE and owner != REFEREE:
                said = _("waiting for the referee to give {side}'s dice").format(side=name(owner))
            else:
                said = _("waiting for {side}'s dice").format(side=name(owner))
            roll = held.request.text()
        return f"{said}: {roll}" if roll and role in (held.role, held.asked, REFEREE) else said


def hears(held: Awaited, role: str) -> bool:
    """Whether ``role``'s seat may know that ``held`` is awaited: the roll's audience (``vis``, as
    ``Rolling.said`` tells a roll typed at its own seat), its submitter, the asked seat."""
    return not held.vis or role in (held.role, held.asked, REFEREE, *held.vis)
