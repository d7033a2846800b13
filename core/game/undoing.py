"""Undo and redo: what a role may take back or bring back, and the facts that do it
(a side's undo carries hidden commands past its own); the numbers a role knows commands by.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from core.game.bugs import failing_on_bugs
from core.language.i18n import _
from core.log import events as ev
from core.log.numbering import Numbering
from core.log.outcome import Outcome
from core.log.state import SEALED_ORDERS, apply_in_place, copy_state
from core.log.views import (
    REFEREE,
)
from core.ruleset import Refused

if TYPE_CHECKING:
    from core.game.table import Table


#: Facts after which a player may no longer take back his own command alone.
_IRREVERSIBLE_FOR_PLAYERS = (ev.Rolled, ev.Revealed, ev.Opened, ev.Spotted)


def numbering(game: Table, role: str) -> Numbering:
    """The numbers ``role`` is shown commands by (a side counts only what it may see)."""
    numbering = game._numberings.get(role)
    if numbering is None:
        numbering = game._numberings[role] = Numbering(game.history, role)
    return numbering


def shown_cmd(game: Table, cmd: int, role: str) -> int | None:
    return game.numbering(role).shown(cmd)


def undo_target(game: Table, role: str) -> int | None:
    """The command ``role``'s undo would take back: the last in effect that it may see.

    For a side, the commands after it in effect are then all hidden from it;
    its undo carries them past (see ``_undo``), so what a side may undo never
    depends on what it cannot see.
    """
    numbering = game.numbering(role)
    for cmd in reversed(game.history.eff_cmds):
        if numbering.visible(cmd):
            return cmd
    return None


def redo_target(game: Table, role: str) -> int | None:
    cmd = game.history.next_redo()
    return cmd if cmd is not None and game.numbering(role).visible(cmd) else None


def _preview(game: Table, cmd: int | None, role: str) -> str | None:
    return None if cmd is None else f"#{game.shown_cmd(cmd, role)} {game.localize(game.history.issued(cmd).text)}"


def undo_preview(game: Table, role: str) -> str | None:
    """What ``role``'s undo would take back, in words (None if nothing)."""
    return game._preview(game.undo_target(role), role)


def redo_preview(game: Table, role: str) -> str | None:
    return game._preview(game.redo_target(role), role)


def undo(game: Table, *, role: str, by: str = "") -> Outcome:
    by = by or role
    return game._told_if_refused("undo", role, by, lambda: game._undo(role, by))


def _undo(game: Table, role: str, by: str) -> Outcome:
    if game.writer is None:
        raise Refused(_("this game is open read-only (replay)"), rule="ENG-4")
    with failing_on_bugs("undo", role):
        cmd, group, lines = game._undoing(role, by)
    return game._append(cmd, group, lines)


def undo_refusal(game: Table, role: str, by: str = "") -> str | None:
    """Why ``role``'s undo (as ``by``) would be refused, in words, or None if it would not.

    The one check an undo makes, asked by a seat before it puts its confirmation, so a
    player is not asked "y or n" for an undo then refused.
    """
    by = by or role
    cmd = game.undo_target(role)
    if cmd is None:
        return _("nothing to undo")
    if any(type(e) is ev.Confirmed for e in game.history.group(cmd)):
        # A league may count the result on it already (issue #90): the word given stands, for everyone.
        return _("a confirmation of the result is final (a league may count it already): it cannot be undone")
    if role == REFEREE:
        return None
    if game.history.issued(cmd).by != by:
        # Name neither the command nor its author: it may be one this seat never saw.
        return _("the last command is not yours; ask the referee to undo it")
    group = game.history.group(cmd)
    if any(isinstance(e, _IRREVERSIBLE_FOR_PLAYERS) for e in group):
        return _("dice were rolled or something was revealed; only the referee can undo that")
    if any(type(e) is ev.SecretSet and e.key.startswith(SEALED_ORDERS) for e in group):
        # Every side saw it committed: one undone at will could be sealed again until it suited.
        return _("a sealed order is committed to every side; only the referee can undo it")
    return None


def _undoing(game: Table, role: str, by: str) -> tuple[int, list[ev.Event], list[str]]:
    """What ``role``'s undo appends: the command taken back, the events and their lines."""
    why = game.undo_refusal(role, by)
    if why is not None:
        raise Refused(why, rule="ENG-3")
    cmd = game.undo_target(role)
    assert cmd is not None  # (undo_refusal said "nothing to undo" otherwise)
    issued = game.history.issued(cmd)
    eff = game.history.eff_cmds  # in the order they took effect (a redo may follow a later command)
    at = len(eff) - 1
    while eff[at] != cmd:
        at -= 1
    after = list(eff[at + 1 :])
    # Those who saw the command see it taken back, and no one else.
    undone = ev.Undone(cmd=cmd, by=by, at=game.clock(), vis=issued.vis)
    if not after:
        return cmd, [undone], [_("undone: #{cmd} {text}").format(cmd=cmd, text=game.localize(issued.text))]
    group = game._carry_past(cmd, after, by, undone)
    return cmd, group, [game.describe(e, REFEREE) for e in group]


def _carry_past(game: Table, cmd: int, after: list[int], by: str, undone: ev.Undone) -> list[ev.Event]:
    """A side's undo of ``cmd`` with commands hidden from it after it: the events that do it.

    History is a stack, so those commands are taken back first, then ``cmd``,
    and then entered again unchanged (the same facts, the same dice: nothing
    is rolled again), each as a new command that ``carries`` the old one.
    The side sees only its own command taken back, as if the others were not
    there; the referee sees all of it.  Raises Refused if the hidden facts
    no longer apply without ``cmd`` (they would have to be about something
    it made, which a side's command never does to what it cannot see).
    """
    history = game.history
    state = copy_state(game.timeline.state_at(history.length - sum(game._size(c) for c in [cmd, *after])))
    groups = [history.group(c) for c in after]
    try:
        for group in groups:
            apply_in_place(state, group[1:])
    except KeyError:  # the fold's word for a fact about a piece, side or secret the state lacks
        raise Refused(_("the last command is not yours; ask the referee to undo it"), rule="ENG-3") from None
    events: list[ev.Event] = [ev.Undone(cmd=c, by=by, at=undone.at, vis=history.issued(c).vis) for c in reversed(after)]
    events.append(undone)
    next_cmd = history.next_cmd
    for k, (c, group) in enumerate(zip(after, groups, strict=True)):
        head = group[0]
        assert isinstance(head, ev.Issued)
        events.append(msgspec.structs.replace(head, cmd=next_cmd + k, carries=c))
        events.extend(group[1:])
    return events


def _size(game: Table, cmd: int) -> int:
    return game.history.group_end[cmd] - game.history.group_start[cmd]


def redo(game: Table, *, role: str, by: str = "") -> Outcome:
    by = by or role
    return game._told_if_refused("redo", role, by, lambda: game._redo(role, by))


def _redo(game: Table, role: str, by: str) -> Outcome:
    if game.writer is None:
        raise Refused(_("this game is open read-only (replay)"), rule="ENG-4")
    with failing_on_bugs("redo", role):
        cmd, marker, line = game._redoing(role, by)
    return game._append(cmd, [marker], [line])


def _redoing(game: Table, role: str, by: str) -> tuple[int, ev.Redone, str]:
    """What ``role``'s redo appends: the command brought back, its marker and its line."""
    cmd = game.redo_target(role)
    if cmd is None:
        raise Refused(_("nothing to redo"), rule="ENG-3")
    issued = game.history.issued(cmd)
    if role != REFEREE:
        if issued.by != by:
            raise Refused(_("the last undone command is not yours; ask the referee to redo it"), rule="ENG-3")
        undone = game.history.store[game.history.undone_at[cmd]]
        if not isinstance(undone, ev.Undone) or undone.by != by:
            # What the referee took back stays taken back until he brings it back.
            raise Refused(_("the referee took that command back; only the referee can redo it"), rule="ENG-3")
        if any(isinstance(e, _IRREVERSIBLE_FOR_PLAYERS) for e in game.history.group(cmd)):
            # Otherwise a player could bring back a roll the referee took away.
            raise Refused(
                _("that command rolled dice or revealed something; only the referee can redo it"), rule="ENG-3"
            )
    marker = ev.Redone(cmd=cmd, by=by, at=game.clock(), vis=issued.vis)
    return cmd, marker, _("redone: #{cmd} {text}").format(cmd=cmd, text=game.localize(issued.text))
