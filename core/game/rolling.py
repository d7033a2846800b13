"""A roll asked at its own seat at a served table with table dice (issue #77): whose dice the
other seats wait for.

A command's first rolls of its own side are asked at the seat that gave it, as at one screen
(``Awaiting.hold`` holds nothing then): the seat types them at its own prompt and gives the
command again with them.  Meanwhile every other seat that may see the roll is told whose dice
are awaited (``core.log.outcome.OwnRoll``, one per seat at its prompt), and told no more once they come, the
command is withdrawn at its prompt (``unasked``), or that seat leaves.  A roll hidden from a
side (its fact's audience, ``events.Event.vis``) says nothing to it, not even that dice are
awaited.  This is a notice beside the held-dice protocol: it holds nothing, refuses nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from core.language.i18n import _, scenario_words
from core.log.outcome import DiceNeeded, OwnRoll, Result
from core.log.views import REFEREE

if TYPE_CHECKING:
    from core.log.replay import Timeline


class Rolling:
    """The seats at their own prompt for their command's roll (``rolls``), and who is told when they change."""

    def __init__(self, timeline: Timeline) -> None:
        self._timeline = timeline
        #: The seats at their own prompt for their command's roll, whose dice the others are told are awaited.
        self.rolls: tuple[OwnRoll, ...] = ()
        self._listeners: list[Callable[[], None]] = []

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener`` whenever the rolls asked at their own seats (``rolls``) change."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def change(self, rolls: tuple[OwnRoll, ...]) -> None:
        """The rolls asked at their own seats are ``rolls`` now: every listener told if they
        changed (a seat worker's copy is set so from the table's news)."""
        if rolls == self.rolls:
            return
        self.rolls = rolls
        for listener in list(self._listeners):
            listener()

    def asked(self, role: str, by: str, result: Result, *, at_seats: bool) -> Result:
        """What the command seat ``by`` gave came to (``result``), as the others are told of it:
        its own prompt for the dice if it asks them at this seat (``at_seats``: a served table,
        holding no command), nothing else (the command went on, was held for another seat,
        refused or carried out)."""
        now = tuple(r for r in self.rolls if r.by != by)
        if isinstance(result, DiceNeeded) and at_seats:
            now = (*now, OwnRoll(role, by, result.vis))
        self.change(now)
        return result

    def unasked(self, by: str) -> None:
        """Seat ``by`` put its own prompt down (the command withdrawn, nothing recorded), or left."""
        self.change(tuple(r for r in self.rolls if r.by != by))

    def keep(self, seated: set[str]) -> None:
        """Only ``seated`` are left at the table: the others' rolls are awaited no more."""
        self.change(tuple(r for r in self.rolls if r.role in seated))

    def said(self, role: str, by: str) -> str:
        """What seat ``by`` of ``role`` is told of the rolls asked at other seats' own prompts:
        whose dice are awaited ("" for none it may know of)."""
        sides = self._timeline.state.sides
        said: list[str] = []
        for r in self.rolls:
            if r.by == by or not (role == REFEREE or not r.vis or role in r.vis):
                continue
            if r.role in sides:  # named as the roster names it
                line = _("waiting for {side}'s dice").format(side=scenario_words(sides[r.role].name))
            else:
                line = _("waiting for the referee's dice")
            if line not in said:
                said.append(line)
        return "; ".join(said)
