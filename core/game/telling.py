"""Who is told of a game's changes: each listener what its role may see of each change, and
those told of every refusal (the server's log).

A change a role may see none of, that leaves its view as it was, tells its listeners nothing,
so a seat cannot even tell that one happened; one that takes a piece out of its sight (the
referee's ``mark farah hidden``) tells it so, with no event.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from core.log.outcome import Outcome, Refusal
from core.log.views import REFEREE, event_visible

if TYPE_CHECKING:
    from core.game.reading import Reading
    from core.log.state import GameState


class Telling:
    """A game's listeners, each with its role, and what each role was last told."""

    def __init__(self, reading: Reading) -> None:
        self._reading = reading  # each role's view, and the facts in its words
        self._listeners: list[tuple[str, Callable[[Outcome], None]]] = []
        #: Each listening side's view as its listeners were last told it (:meth:`_seen`).
        self._told: dict[str, GameState] = {}
        self._refusal_listeners: list[Callable[[Refusal], None]] = []

    def subscribe(self, listener: Callable[[Outcome], None], *, role: str) -> Callable[[], None]:
        """Call ``listener`` after every change ``role`` may see, with what it may see of it (each
        seat of a shared table listens).  The server's log and its like listen as the referee."""
        if role != REFEREE:
            self._told[role] = self._reading.view(role)  # (told of every change since, its other listeners know it)
        entry = (role, listener)
        self._listeners.append(entry)
        return lambda: self._listeners.remove(entry)

    def subscribe_refusals(self, listener: Callable[[Refusal], None]) -> Callable[[], None]:
        """Call ``listener`` whenever a command, undo or redo is refused (the server logs them)."""
        self._refusal_listeners.append(listener)
        return lambda: self._refusal_listeners.remove(listener)

    def refused(self, refusal: Refusal) -> None:
        for listener in list(self._refusal_listeners):
            listener(refusal)

    def tell(self, outcome: Outcome) -> None:
        """Tell each listener what its role may see of ``outcome``, and one that may see nothing, nothing."""
        seen: dict[str, Outcome | None] = {}
        for role, listener in list(self._listeners):
            if role not in seen:
                seen[role] = self._seen(outcome, role)
            told = seen[role]
            if told is not None:
                listener(told)

    def _seen(self, outcome: Outcome, role: str) -> Outcome | None:
        """``outcome`` as ``role`` may know it: the events it may see, in its words; None if it
        may see none and its view is as it was."""
        if role == REFEREE:
            return outcome
        events = [e for e in outcome.events if event_visible(e, role)]
        view, told = self._reading.view(role), self._told.get(role)
        self._told[role] = view
        if not events and view == told:
            return None
        return Outcome(outcome.cmd, events, [self._reading.describe(e, role) for e in events])
