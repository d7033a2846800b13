"""What each role may see: pure projections of the state and the log.

Roles: ``referee`` sees everything; a side id sees its own units, the enemy
units that are not hidden or that it has spotted, its own secrets and any that
were revealed; ``spectator`` sees only what is public.

Events carry ``vis`` (the sides allowed to see them); ``Context.emit`` fills it
in for any fact about a unit that is hidden at that moment, so a handler cannot
forget.  A command's marker is as private as the most private of its facts.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from core import events as ev
from core.state import GameState, Unit, copy_state

REFEREE = "referee"
SPECTATOR = "spectator"

#: ``vis`` of something only the referee may see.
REFEREE_ONLY: tuple[str, ...] = (REFEREE,)


def roles(state: GameState) -> list[str]:
    return [REFEREE, *state.sides, SPECTATOR]


def unit_visible(unit: Unit, role: str) -> bool:
    if role == REFEREE or unit.side == role:
        return True
    if "hidden" not in unit.status:
        return True
    return role in unit.spotted_by


def roller(state: GameState, unit_id: str, side: str, role: str) -> str:
    """Whose roll it is, as ``role`` may be told: the unit's name if it may see the
    unit, else "an unseen unit" (a hidden enemy's name and side stay hidden); a
    side's roll names the side; anything else is the referee's."""
    unit = state.units.get(unit_id) if unit_id else None
    if unit is not None:
        return unit.name if unit_visible(unit, role) else "an unseen unit"
    return side or REFEREE


def unit_audience(unit: Unit) -> tuple[str, ...]:
    """Who may see facts about ``unit`` now: () if everyone."""
    if "hidden" not in unit.status:
        return ()
    return (unit.side, *unit.spotted_by)


def with_vis(event: ev.Event, vis: tuple[str, ...]) -> ev.Event:
    return msgspec.structs.replace(event, vis=vis)


def event_visible(event: ev.Event, role: str) -> bool:
    return role == REFEREE or not event.vis or role in event.vis


def narrowest(audiences: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    """The audience that may see every one of ``audiences`` (() = everyone)."""
    result: set[str] | None = None
    for vis in audiences:
        if vis:
            result = set(vis) if result is None else result & set(vis)
    if result is None:
        return ()
    return tuple(sorted(result)) or REFEREE_ONLY


def view_state(state: GameState, role: str) -> GameState:
    """The state as ``role`` may know it (a copy; the referee's view is the state)."""
    if role == REFEREE:
        return state
    out = copy_state(state)
    out.units = {k: u for k, u in out.units.items() if unit_visible(u, role)}
    for u in out.units.values():
        if u.side != role:
            u.spotted_by = ()  # who else spotted it is not this side's business
    out.secrets = {k: s for k, s in out.secrets.items() if s.revealed or s.owner == role}
    out.vars = {k: v for k, v in out.vars.items() if not k.startswith("secret.")}
    # How many events the fold took counts hidden ones too: it would tick when the enemy acts unseen.
    out.event_count = 0
    return out
