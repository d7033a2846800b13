"""A command held at a served table with table dice until the seat whose roll (or
answer) it is next gives it (issue #61): who is asked, and what every seat is told meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from core.language.i18n import _, render, scenario_words
from core.log.outcome import AnswerNeeded, Awaited, DiceNeeded, Failure, Held, Outcome, Refusal, Result, settle
from core.log.views import (
    REFEREE,
)

if TYPE_CHECKING:
    from core.game.table import Table


def subscribe_awaiting(game: Table, listener: Callable[[], None]) -> Callable[[], None]:
    """Call ``listener`` whenever the command held for a seat's dice (``awaiting``) changes."""
    game._awaiting_listeners.append(listener)
    return lambda: game._awaiting_listeners.remove(listener)


def set_awaiting(game: Table, held: Awaited | None, dropped: Refusal | Failure | None = None) -> None:
    """Hold ``held`` (None: none; ``dropped``: why the one held ended unrecorded), and tell
    every listener (a seat worker's copy is told so)."""
    game.awaiting, game.held_dropped = held, dropped
    for listener in list(game._awaiting_listeners):
        listener()


def _hold(game: Table, held: Awaited, result: DiceNeeded | AnswerNeeded, *, first: bool = False) -> Result:
    """At a served table with table dice, ``held`` waits for the seat whose roll it is next
    (issue #61): the roll's side, the referee when that side has no seat here, else the
    submitter; a question is the submitter's.  A command's first rolls of its own seat are
    asked there as at one screen (``result`` goes back); once held, every step is told."""
    asked = held.role
    if isinstance(result, DiceNeeded) and result.request.side not in ("", held.role):
        seated = game.seated() if game.seated is not None else set()
        if result.request.side in seated:
            asked = result.request.side
        elif REFEREE in seated:
            asked = REFEREE
    if first and asked == held.role:
        return result
    request = result.request if isinstance(result, DiceNeeded) else None
    question = result.question if isinstance(result, AnswerNeeded) else None
    vis = result.vis if isinstance(result, DiceNeeded) else ()
    game.set_awaiting(msgspec.structs.replace(held, asked=asked, request=request, question=question, vis=vis))
    assert game.awaiting is not None
    return Held(game.awaiting)


def answer_held(
    game: Table, *, role: str, by: str = "", faces: list[int] | None = None, answer: str | None = None
) -> Result:
    """Go on with the held command with the faces (or the answer) its asked seat gave, or
    the referee, who may answer any; neither: withdraw it (its submitter, or the referee)."""
    by = by or role
    held = game.awaiting
    if held is None or not hears(held, role):  # (nothing is awaited that this seat may know of)
        return Refusal("", role, by, _("no command is waiting for dice"))
    if faces is None and answer is None:
        if role not in (held.role, REFEREE):
            return Refusal(held.text, role, by, _("only its player or the referee may withdraw it"))
        withdrawn = Refusal(
            held.text,
            role,
            by,
            _("cancelled: {command} (nothing was recorded)").format(command=game.localize(held.text)),
        )
        game.set_awaiting(None, withdrawn)
        return withdrawn
    if role not in (held.asked, REFEREE):
        return Refusal(held.text, role, by, game.awaited_said(role))
    giver = by if by != held.by else ""  # (another seat's faces say who typed them: issue #74)
    went_on = msgspec.structs.replace(
        held,
        faces=[*held.faces, *(faces or ())],
        answers=[*held.answers, *([answer] if answer is not None else [])],
        givers=[*held.givers, *[""] * (len(held.faces) - len(held.givers)), *[giver] * len(faces or ())],
    )

    def act() -> Outcome:
        return game.execute(
            held.text,
            role=held.role,
            by=held.by,
            faces=went_on.faces,
            answers=went_on.answers,
            givers=went_on.givers,
            given_in=held.lang,
        )

    game.awaiting = None  # (it goes on: told once it is held again, or ends)
    result = settle(act, held.text, held.role, held.by)
    if isinstance(result, DiceNeeded | AnswerNeeded):
        return game._hold(went_on, result)
    game.set_awaiting(None, result if isinstance(result, Refusal | Failure) else None)
    return result


def seats_changed(game: Table) -> None:
    """A seat left the table: a held command whose submitter left is withdrawn (nothing was
    recorded); a roll whose asked seat left is asked of the referee, else of its submitter.
    A roll asked at its own seat of a role no longer seated is awaited no more (``rolling``)."""
    if game.seated is None:
        return
    seated = game.seated()
    game.set_rolling(tuple(r for r in game.rolling if r.role in seated))
    held = game.awaiting
    if held is None:
        return
    if held.role not in seated:
        game.set_awaiting(None)
    elif held.asked not in seated:
        game.set_awaiting(msgspec.structs.replace(held, asked=REFEREE if REFEREE in seated else held.role))


def hears(held: Awaited, role: str) -> bool:
    """Whether ``role``'s seat may know that ``held`` is awaited: the roll's audience (``vis``, as
    ``rolling.rolling_said`` tells a roll typed at its own seat), its submitter, the asked seat."""
    return not held.vis or role in (held.role, held.asked, REFEREE, *held.vis)


def awaited_said(game: Table, role: str) -> str:
    """What ``role``'s seat is told of the held command: whose dice are awaited, and the
    roll itself at the seats that may know it (its submitter's, the asked one's, the referee's);
    nothing at a seat the roll is hidden from (``hears``)."""
    held = game.awaiting
    if held is None or not hears(held, role):
        return ""
    sides = game.state.sides

    def name(r: str) -> str:
        return scenario_words(sides[r].name) if r in sides else _("the referee")  # as the roster names it

    if held.request is None:
        said = _("waiting for {side}'s answer").format(side=name(held.role))
        roll = held.question.asked if held.question is not None else ""
        roll = render(roll, game.ruleset.domain) if roll else ""
    else:
        owner = held.request.side or held.role
        if held.asked == REFEREE and owner != REFEREE:
            said = _("waiting for the referee to give {side}'s dice").format(side=name(owner))
        else:
            said = _("waiting for {side}'s dice").format(side=name(owner))
        roll = held.request.text()
    return f"{said}: {roll}" if roll and role in (held.role, held.asked, REFEREE) else said
