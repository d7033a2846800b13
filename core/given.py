"""The faces another seat gave for a roll held at the table (issue #61) that this seat was asked too:
two seats sharing a side are both asked their side's roll, and the one that did not type it is told
what was given, not asked again (issue #77)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core import events as ev

if TYPE_CHECKING:
    from core.game import Game
    from core.outcome import Awaited


def faces_given(game: Game, was: Awaited) -> list[int] | None:
    """The faces given at another seat for ``was``'s roll, now that the table no longer holds it as it
    stood: the command held again for its next roll, with them; or carried out, its rolls recorded.
    None: not a roll, or withdrawn or refused (nothing was given)."""
    request = was.request
    if request is None:
        return None
    count = request.missing or request.count
    now = game.awaiting
    if now is not None:
        if (now.text, now.role, now.by) != (was.text, was.role, was.by) or now.faces[: len(was.faces)] != was.faces:
            return None  # another command altogether
        given = now.faces[len(was.faces) :]
        return given[:count] or None
    history = game.history
    if game.held_dropped is not None or not history.eff_cmds:
        return None
    group = history.group(history.eff_cmds[-1])
    issued = group[0] if group else None
    if not isinstance(issued, ev.Issued) or (issued.text, issued.by) != (was.text, was.by):
        return None
    faces = [face for e in group if isinstance(e, ev.Rolled) and e.roll.manual for face in e.roll.faces]
    given = faces[len(was.faces) : len(was.faces) + count]
    return given if len(given) == count else None
