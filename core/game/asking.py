"""What a command still wants of the table, said as the role that gave it may hear it: whose
roll or question it is (a name that role may see; a unit's id goes no further), the command's
order of dice, the other side's roll it answers, and how often it rolled so already.
"""

from __future__ import annotations

import msgspec

from core.dice.faces import NeedDice
from core.language.i18n import Text
from core.log import events as ev
from core.log.questions import NeedAnswer
from core.log.state import GameState
from core.log.views import event_visible, roll_owner, roller, unit_visible
from core.ruleset import Context


def dice_asked(need: NeedDice, ctx: Context, role: str, order: tuple[str, ...]) -> NeedDice:
    """``need`` (the dice a handler ran out of) as ``role`` may hear it; ``order``: the command's dice."""
    side = roll_owner(ctx.state, need.unit, need.side, role)
    outcome, by, purpose = answered(ctx.state, ctx.events, need, side or role)
    asked = msgspec.structs.replace(
        need.request,
        whose=roller(ctx.state, need.unit, need.side, role),
        side=side,
        answers=outcome,
        answered_by=by,
        answered_for=purpose,
        order=order,
        domain=ctx.ruleset.domain,
        again=times_rolled(ctx.events, need),
    )
    return NeedDice(asked, vis=need.vis)


def answer_asked(need: NeedAnswer, state: GameState, role: str) -> NeedAnswer:
    """``need`` (a question a handler asked) as ``role`` may hear it: whose, in a name it may see."""
    whose = roller(state, need.unit, need.side, role) if need.unit or need.side else ""
    return NeedAnswer(msgspec.structs.replace(need.question, whose=whose))


def answered(state: GameState, events: list[ev.Event], need: NeedDice, viewer: str) -> tuple[Text, str, Text]:
    """The roll this one answers, if the command's last roll with an outcome was the other
    side's (a save answers the hit): its outcome, whose it was and its purpose, as ``viewer``
    (the side that rolls now) may be told (whose and the purpose only where it may see the
    roller); ("", "", "") if none, or if ``viewer`` may not see that roll."""
    rolling = state.units.get(need.unit)
    side = rolling.side if rolling is not None else need.side
    last = next((e for e in reversed(events) if isinstance(e, ev.Rolled) and e.roll.outcome), None)
    if last is None or not event_visible(last, viewer):
        return "", "", ""
    theirs = state.units.get(last.unit)
    their_side = theirs.side if theirs is not None else last.side
    if not their_side or their_side == side:
        return "", "", ""
    if theirs is not None:
        seen = unit_visible(theirs, viewer)
        return last.roll.outcome, theirs.name if seen else "", last.roll.purpose if seen else ""
    return last.roll.outcome, state.sides[their_side].name if their_side in state.sides else "", ""


def times_rolled(events: list[ev.Event], need: NeedDice) -> int:
    """How often ``events`` (a command's so far) already hold the roll ``need`` asks
    for: its purpose, by the same unit, or the same side when no unit rolls."""
    purpose = need.request.purpose
    return sum(
        1
        for e in events
        if isinstance(e, ev.Rolled)
        and e.roll.purpose == purpose
        and e.unit == need.unit
        and (need.unit or e.side == need.side)
    )
