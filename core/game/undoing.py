"""Undo and redo: what a role may take back or bring back, and the facts that do it
(a side's undo carries hidden commands past its own).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from core.language.i18n import _
from core.log import events as ev
from core.log.state import SEALED_ORDERS, apply_in_place, copy_state
from core.log.views import (
    REFEREE,
)
from core.ruleset import Refused

if TYPE_CHECKING:
    from core.game.reading import Reading
    from core.log.replay import Timeline


#: Facts after which a player may no longer take back his own command alone.
_IRREVERSIBLE_FOR_PLAYERS = (ev.Rolled, ev.Revealed, ev.Opened, ev.Spotted)

#: What an undo or a redo writes: the command it names, its events, and their lines.
Written = tuple[int, list[ev.Event], list[str]]


class Undoing:
    """What each role's undo and redo would do in one game, and the facts that do it; the game
    writes them (``Game.undo``, ``Game.redo``)."""

    def __init__(self, timeline: Timeline, reading: Reading, localize: Callable[[str], str]) -> None:
        self._timeline = timeline
        self._reading = reading  # the numbers a role knows commands by, the referee's lines
        self._localize = localize  # a recorded line in the reader's names (``Game.localize``)

    def undo_target(self, role: str) -> int | None:
        """The command ``role``'s undo would take back: the last in effect that it may see.

        For a side, the commands after it in effect are then all hidden from it;
        its undo carries them past (see :meth:`undone`), so what a side may undo never
        depends on what it cannot see.
        """
        numbering = self._reading.numbering(role)
        for cmd in reversed(self._timeline.history.eff_cmds):
            if numbering.visible(cmd):
                return cmd
        return None

    def redo_target(self, role: str) -> int | None:
        cmd = self._timeline.history.next_redo()
        return cmd if cmd is not None and self._reading.numbering(role).visible(cmd) else None

    def _preview(self, cmd: int | None, role: str) -> str | None:
        if cmd is None:
            return None
        shown = self._reading.numbering(role).shown(cmd)
        return f"#{shown} {self._localize(self._timeline.history.issued(cmd).text)}"

    def undo_preview(self, role: str) -> str | None:
        """What ``role``'s undo would take back, in words (None if nothing)."""
        return self._preview(self.undo_target(role), role)

    def redo_preview(self, role: str) -> str | None:
        return self._preview(self.redo_target(role), role)

    def undo_refusal(self, role: str, by: str = "") -> str | None:
        """Why ``role``'s undo (as ``by``) would be refused, in words, or None if it would not.

        The one check an undo makes, asked by a seat before it puts its confirmation, so a
        player is not asked "y or n" for an undo then refused.
        """
        by = by or role
        cmd = self.undo_target(role)
        if cmd is None:
            return _("nothing to undo")
        history = self._timeline.history
        if any(type(e) is ev.Confirmed for e in history.group(cmd)):
            # A league may count the result on it already (issue #90): the word given stands, for everyone.
            return _("a confirmation of the result is final (a league may count it already): it cannot be undone")
        if role == REFEREE:
            return None
        if history.issued(cmd).by != by:
            # Name neither the command nor its author: it may be one this seat never saw.
            return _("the last command is not yours; ask the referee to undo it")
        group = history.group(cmd)
        if any(isinstance(e, _IRREVERSIBLE_FOR_PLAYERS) for e in group):
            return _("dice were rolled or something was revealed; only the referee can undo that")
        if any(type(e) is ev.SecretSet and e.key.startswith(SEALED_ORDERS) for e in group):
            # Every side saw it committed: one undone at will could be sealed again until it suited.
            return _("a sealed order is committed to every side; only the referee can undo it")
        return None

    def undone(self, role: str, by: str, at: int) -> Written:
        """What ``role``'s undo (as seat ``by``, at time ``at``) writes, or Refused."""
        why = self.undo_refusal(role, by)
        if why is not None:
            raise Refused(why, rule="ENG-3")
        cmd = self.undo_target(role)
        assert cmd is not None  # (undo_refusal said "nothing to undo" otherwise)
        history = self._timeline.history
        issued = history.issued(cmd)
        eff = history.eff_cmds  # in the order they took effect (a redo may follow a later command)
        i = len(eff) - 1
        while eff[i] != cmd:
            i -= 1
        after = list(eff[i + 1 :])
        # Those who saw the command see it taken back, and no one else.
        undone = ev.Undone(cmd=cmd, by=by, at=at, vis=issued.vis)
        if not after:
            return cmd, [undone], [_("undone: #{cmd} {text}").format(cmd=cmd, text=self._localize(issued.text))]
        group = self._carry_past(cmd, after, by, undone)
        return cmd, group, [self._reading.describe(e, REFEREE) for e in group]

    def _carry_past(self, cmd: int, after: list[int], by: str, undone: ev.Undone) -> list[ev.Event]:
        """A side's undo of ``cmd`` with commands hidden from it after it: the events that do it.

        History is a stack, so those commands are taken back first, then ``cmd``,
        and then entered again unchanged (the same facts, the same dice: nothing
        is rolled again), each as a new command that ``carries`` the old one.
        The side sees only its own command taken back, as if the others were not
        there; the referee sees all of it.  Raises Refused if the hidden facts
        no longer apply without ``cmd`` (they would have to be about something
        it made, which a side's command never does to what it cannot see).
        """
        history = self._timeline.history
        size = sum(history.group_end[c] - history.group_start[c] for c in [cmd, *after])
        state = copy_state(self._timeline.state_at(history.length - size))
        groups = [history.group(c) for c in after]
        try:
            for group in groups:
                apply_in_place(state, group[1:])
        except KeyError:  # the fold's word for a fact about a piece, side or secret the state lacks
            raise Refused(_("the last command is not yours; ask the referee to undo it"), rule="ENG-3") from None
        events: list[ev.Event] = [
            ev.Undone(cmd=c, by=by, at=undone.at, vis=history.issued(c).vis) for c in reversed(after)
        ]
        events.append(undone)
        next_cmd = history.next_cmd
        for k, (c, group) in enumerate(zip(after, groups, strict=True)):
            head = group[0]
            assert isinstance(head, ev.Issued)
            events.append(msgspec.structs.replace(head, cmd=next_cmd + k, carries=c))
            events.extend(group[1:])
        return events

    def redone(self, role: str, by: str, at: int) -> Written:
        """What ``role``'s redo (as seat ``by``, at time ``at``) writes, or Refused."""
        cmd = self.redo_target(role)
        if cmd is None:
            raise Refused(_("nothing to redo"), rule="ENG-3")
        history = self._timeline.history
        issued = history.issued(cmd)
        if role != REFEREE:
            if issued.by != by:
                raise Refused(_("the last undone command is not yours; ask the referee to redo it"), rule="ENG-3")
            undone = history.store[history.undone_at[cmd]]
            if not isinstance(undone, ev.Undone) or undone.by != by:
                # What the referee took back stays taken back until he brings it back.
                raise Refused(_("the referee took that command back; only the referee can redo it"), rule="ENG-3")
            if any(isinstance(e, _IRREVERSIBLE_FOR_PLAYERS) for e in history.group(cmd)):
                # Otherwise a player could bring back a roll the referee took away.
                raise Refused(
                    _("that command rolled dice or revealed something; only the referee can redo it"), rule="ENG-3"
                )
        marker = ev.Redone(cmd=cmd, by=by, at=at, vis=issued.vis)
        return cmd, [marker], [_("redone: #{cmd} {text}").format(cmd=cmd, text=self._localize(issued.text))]
