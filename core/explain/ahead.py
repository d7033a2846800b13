"""A command asked before it is given (``? COMMAND``): resolved on a copy of the game,
nothing recorded, nothing rolled.

:func:`resolved` gives the facts the command would record on given faces, exactly as
giving it would on dice that showed them: the very path a command takes, short of writing
(``Game.resolved``), on dice that show the faces given (``core.dice.faces.SupposedDice``, typed
or the game's own as the game's dice are).  :func:`ahead` asks it with no faces, to find
the first roll it would need, then once for each face that roll can show (each
combination, up to :data:`MAX_FACES`), to say what each would do: the facts the reader
may see, or the next roll it would need.
A command the rules refuse is refused by :func:`ahead` with the same refusal and rule.
"""

from __future__ import annotations

from itertools import product

import msgspec

from core.dice.faces import DiceRequest, NeedDice, SupposedDice
from core.explain.rulesmap import cited
from core.explain.why import roll_rules
from core.game import Game
from core.language.i18n import _, render
from core.log import events as ev
from core.log.questions import NeedAnswer
from core.log.state import table_dice
from core.log.views import event_visible
from core.refusal import TYPING, Refused

#: The most face combinations of a first roll spelled out one by one (3d6); past it, the
#: odds alone are given.
MAX_FACES = 216


class Faces(msgspec.Struct, frozen=True):
    """What the command would do on each of ``faces`` (combinations of its first roll that
    come to the same): the roll's outcome, the other lines its reader would see, and the
    next roll it would need then ("" if none), or the refusal those faces would meet."""

    faces: tuple[tuple[int, ...], ...]
    outcome: str = ""
    lines: tuple[str, ...] = ()
    then: str = ""
    refused: str = ""


class Ahead(msgspec.Struct, frozen=True):
    """A command asked ahead: its first roll (None if it rolls none), what it would do on
    each face (or, rolling none, ``lines``), and the rule ids that decide it."""

    text: str
    roll: DiceRequest | None
    outcomes: tuple[Faces, ...] = ()
    lines: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()


def roll_said(request: DiceRequest) -> str:
    """A roll ``?`` names, as the table's prompt asks it: what it needs and, read off a table,
    what each range of its faces means (``2d6 (2–7: D: destroyed; 8–12: no effect)``): every
    range the command states when it asks for the roll (issue #91)."""
    meanings = request.meanings_text()
    return f"{request.text()} ({meanings})" if meanings else request.text()


def resolved(game: Game, text: str, role: str, faces: list[int]) -> list[ev.Event]:
    """The facts ``text`` would record, given by ``role`` on ``faces`` (its rolls' faces in
    order, after those the line types itself), as giving it would; nothing is written.
    Raises as giving it would: Refused, NeedDice for a roll past the faces, NeedAnswer."""
    parsed = game.parse(text, role)
    if parsed.spec.log_step is not None:  # (undo, redo: steps of the log, not commands of the rules)
        raise Refused(_("? asks a command of the rules, not {command}").format(command=parsed.spec.name), rule=TYPING)
    supposed = SupposedDice([*(parsed.faces or ()), *faces], manual=table_dice(game.state))
    return game.resolved(text, role, supposed)


def ahead(game: Game, text: str, role: str) -> Ahead:
    """What ``text`` would need and do, face by face, as ``role`` may be told it."""
    spec_rules = cited(game.ruleset.rules_map(), game.parse(text, role).spec.rule)
    try:
        facts = resolved(game, text, role, [])
    except NeedDice as need:
        request = need.request
    except NeedAnswer as asked:
        return Ahead(text, None, lines=(asked.question.text(),), rules=spec_rules)
    else:
        return Ahead(text, None, lines=_said(game, facts, role), rules=_rules(game, facts, role, spec_rules))
    outcomes: dict[Faces, list[tuple[int, ...]]] = {}
    rules = list(spec_rules)
    if request.sides**request.count <= MAX_FACES:
        for faces in product(range(1, request.sides + 1), repeat=request.count):
            does, found = _on(game, text, role, faces)
            rules += found
            outcomes.setdefault(does, []).append(faces)
    said = tuple(msgspec.structs.replace(does, faces=tuple(faces)) for does, faces in outcomes.items())
    return Ahead(text, request, said, rules=tuple(dict.fromkeys(rules)))


def _on(game: Game, text: str, role: str, faces: tuple[int, ...]) -> tuple[Faces, tuple[str, ...]]:
    """What the command does on ``faces`` (its ``faces`` left empty, so that faces that do
    the same compare equal), and the rule ids that decide it."""
    try:
        facts = resolved(game, text, role, list(faces))
    except NeedDice as need:
        return Faces((), then=roll_said(need.request)), ()
    except NeedAnswer as asked:
        return Faces((), then=asked.question.text()), ()
    except Refused as e:
        return Faces((), refused=str(e)), e.rules
    first = next((i for i, e in enumerate(facts) if isinstance(e, ev.Rolled)), None)
    if first is None or not event_visible(facts[first], role):  # (a hidden unit's roll: its faces say nothing)
        return Faces((), lines=_said(game, facts, role)), _rules(game, facts, role, ())
    roll = facts[first]
    assert isinstance(roll, ev.Rolled)
    outcome = render(roll.roll.outcome, game.ruleset.domain)
    rest = facts[:first] + facts[first + 1 :]
    return Faces((), outcome, _said(game, rest, role)), _rules(game, facts, role, ())


def _said(game: Game, facts: list[ev.Event], role: str) -> tuple[str, ...]:
    return tuple(game.describe(e, role) for e in facts if event_visible(e, role) and not game.reading.inner(e))


def _rules(game: Game, facts: list[ev.Event], role: str, first: tuple[str, ...]) -> tuple[str, ...]:
    """``first``, then the rule ids of the rolls among ``facts`` that ``role`` may see."""
    found = list(first)
    for e in facts:
        if isinstance(e, ev.Rolled) and event_visible(e, role):
            found += roll_rules(game.ruleset, e.roll)
    return tuple(dict.fromkeys(found))
