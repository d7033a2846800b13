"""What each role may see: pure projections of the state and the log.

Roles: ``referee`` sees everything; a side id sees its own units, the enemy
units that are not hidden or that it has spotted, its own secrets and any that
were revealed; ``spectator`` sees only what is public.

A hidden unit standing on the table (in a ruleset that puts markers down,
``Ruleset.hidden_markers``) is seen by those who may not see it as a marker: a
label drawn at random when it was hidden (``MarkerLabels``), recorded for the
referee alone (``MarkerPlaced``).  A view lists the labels in label order and
nothing else about them, so a marker says what the table says: one is there.

Events carry ``vis`` (the sides allowed to see them); ``Context.emit`` fills it
in for any fact about a unit that is hidden at that moment, so a handler cannot
forget.  A command's marker is as private as the most private of its facts.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import msgspec

from core.language.i18n import N_, _
from core.log import events as ev
from core.log.state import HIDDEN, SECRET_VARS, GameState, Unit, copy_state
from core.refusal import Refused

REFEREE = "referee"
SPECTATOR = "spectator"

#: ``vis`` of something only the referee may see.
REFEREE_ONLY: tuple[str, ...] = (REFEREE,)
#: The status of a unit waiting off the table: it has no marker on it.
OFF_TABLE = "off-table"
#: The letters and digits of a marker's label: none that reads as another (no I, O, 0, 1).
_LABEL_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
_LABEL_DIGITS = "23456789"
#: Draws before giving up on a free label (4,608 exist; a table holds far fewer).
_MOST_DRAWS = 10_000


def roles(state: GameState) -> list[str]:
    return [REFEREE, *state.sides, SPECTATOR]


def sides_for(state: GameState, role: str) -> list[str]:
    """The sides in the order ``role`` is shown them: a side's own first (at 80x24 the
    enemy listed first put a second side's figures below the fold), then the others as
    the scenario gives them; the referee and a spectator see the scenario's order."""
    return sorted(state.sides, key=lambda side: side != role)


def unit_visible(unit: Unit, role: str) -> bool:
    if role == REFEREE or unit.side == role:
        return True
    if HIDDEN not in unit.status:
        return True
    return role in unit.spotted_by


#: Whose roll or question it is, to a role that may not see the unit: kept in English, as a
#: name is, and put in the reader's words where it is said (``core.log.narrate.whose``), since
#: the request is made in the submitter's language and may be asked at another's seat.
UNSEEN = N_("an unseen unit")


def roller(state: GameState, unit_id: str, side: str, role: str) -> str:
    """Whose roll it is, as ``role`` may be told: the unit's name if it may see the
    unit, else :data:`UNSEEN` (a hidden enemy's name and side stay hidden); a
    side's roll names the side; anything else is the referee's."""
    unit = state.units.get(unit_id) if unit_id else None
    if unit is not None:
        return unit.name if unit_visible(unit, role) else UNSEEN
    if side in state.sides:
        return state.sides[side].name
    return side or REFEREE


def roll_owner(state: GameState, unit_id: str, side: str, role: str) -> str:
    """The side whose roll it is, as ``role`` may be told (``roller``'s name, as a side's id):
    the unit's side if it may see the unit, else the side named; "" for the referee's roll
    and for an unseen unit's (telling its side would tell that it is there)."""
    unit = state.units.get(unit_id) if unit_id else None
    if unit is not None:
        return unit.side if unit_visible(unit, role) and unit.side in state.sides else ""
    return side if side in state.sides else ""


def unit_audience(unit: Unit) -> tuple[str, ...]:
    """Who may see facts about ``unit`` now: () if everyone."""
    if HIDDEN not in unit.status:
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


def on_the_table_as_marker(unit: Unit) -> bool:
    """Whether ``unit`` is a marker on the table now (for those who cannot see it)."""
    return bool(unit.marker) and unit.in_play and HIDDEN in unit.status and OFF_TABLE not in unit.status


def markers_for(state: GameState, role: str) -> tuple[str, ...]:
    """The labels of the markers ``role`` sees on the table, in label order."""
    return tuple(
        sorted(u.marker for u in state.units.values() if on_the_table_as_marker(u) and not unit_visible(u, role))
    )


def marker_unit(state: GameState, label: str) -> Unit | None:
    """The unit under the marker ``label`` (any case), if one is on the table."""
    wanted = label.upper()
    for u in state.units.values():
        if u.marker == wanted and on_the_table_as_marker(u):
            return u
    return None


class MarkerLabels:
    """Labels for a command's new markers: a letter, a digit, a letter (``K7Q``).

    A label is the HMAC-SHA256 of the command's number and the draw's count,
    keyed by the game's seed: as secret as the seed, which decides the dice too,
    and so the same when a script is run again.  Nothing of the unit goes in:
    not its id, name, team or side, nor its place in the scenario.  Without a
    seed (a command resolved outside a game) the labels come from ``secrets``.
    A label that a unit id, a word of a unit's name or another marker already
    uses is drawn again, so a typed label names one thing.
    """

    def __init__(self, seed: int | None = None, cmd: int = 0) -> None:
        self._key = None if seed is None else f"fireteam-marker:{seed}".encode()
        self._cmd = cmd
        self._drawn = 0

    def _pick(self) -> str:
        import hmac  # (labels are drawn by commands: not at a client's start)
        import secrets

        if self._key is None:
            return secrets.choice(_LABEL_LETTERS) + secrets.choice(_LABEL_DIGITS) + secrets.choice(_LABEL_LETTERS)
        digest = hmac.new(self._key, f"{self._cmd}:{self._drawn}".encode(), hashlib.sha256).digest()
        self._drawn += 1
        n = int.from_bytes(digest[:8], "big")  # 64 bits for 4,608 labels: no bias worth the name
        first, n = _LABEL_LETTERS[n % len(_LABEL_LETTERS)], n // len(_LABEL_LETTERS)
        digit, n = _LABEL_DIGITS[n % len(_LABEL_DIGITS)], n // len(_LABEL_DIGITS)
        return first + digit + _LABEL_LETTERS[n % len(_LABEL_LETTERS)]

    def draw(self, state: GameState) -> str:
        taken = {u.marker for u in state.units.values()}
        for u in state.units.values():
            taken |= {u.id.upper(), *(w.upper() for w in u.name.split())}
        for _draw in range(_MOST_DRAWS):
            label = self._pick()
            if label not in taken:
                return label
        raise Refused(_("no marker label is free: too many hidden units on the table"), rule="ENG-6")


def view_state(state: GameState, role: str) -> GameState:
    """The state as ``role`` may know it (a copy; the referee's view is the state)."""
    if role == REFEREE:
        return state
    out = copy_state(state)
    out.markers = markers_for(state, role)
    out.units = {k: u for k, u in out.units.items() if unit_visible(u, role)}
    for u in out.units.values():
        if u.side != role:
            u.spotted_by = ()  # who else spotted it is not this side's business
    out.secrets = {k: s for k, s in out.secrets.items() if s.revealed or s.owner == role}
    out.vars = {k: v for k, v in out.vars.items() if not k.startswith(SECRET_VARS)}
    # How many events the fold took counts hidden ones too: it would tick when the enemy acts unseen.
    out.event_count = 0
    return out
