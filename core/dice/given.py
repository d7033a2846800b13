"""Who gave a roll held at the table (issue #61) that this seat was asked too, and its faces: two
seats sharing a side are both asked their side's roll, and the one that did not type it is told
who did and what, not asked again (issue #77).  Who typed each face is the held command's record
(``Awaited.givers``), then its rolls' (``Rolled.given_by``, issue #74)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from core.log import events as ev

if TYPE_CHECKING:
    from core.game.front import Front
    from core.log.outcome import Awaited


class Given(NamedTuple):
    """The seat that typed a roll (its name), and the faces it typed, in order."""

    by: str
    faces: list[int]


def roll_given(game: Front, was: Awaited) -> Given | None:
    """Who gave ``was``'s roll, and its faces, now that the table no longer holds it as it stood: the
    command held again for its next roll, with them; or carried out, its rolls recorded.  None: not a
    roll, or withdrawn or refused (nothing was given)."""
    request = was.request
    if request is None:
        return None
    count = request.missing or request.count
    start, now = len(was.faces), game.awaiting.held
    if now is not None:
        if (now.text, now.role, now.by) != (was.text, was.role, was.by) or now.faces[:start] != was.faces:
            return None  # another command altogether
        faces, givers = now.faces[start : start + count], now.givers[start : start + count]
        return Given((givers[0] if givers else "") or was.by, faces) if faces else None
    history = game.history
    if game.awaiting.dropped is not None or not history.eff_cmds:
        return None
    group = history.group(history.eff_cmds[-1])
    issued = group[0] if group else None
    if not isinstance(issued, ev.Issued) or (issued.text, issued.by) != (was.text, was.by):
        return None
    typed = [(e.given_by, face) for e in group if isinstance(e, ev.Rolled) and e.roll.manual for face in e.roll.faces]
    given = typed[start : start + count]
    if len(given) != count:
        return None
    return Given(given[0][0] or was.by, [face for _by, face in given])
