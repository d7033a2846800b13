"""A command's handler's dice: how it rolls and shuffles (:meth:`HandlerDice.roll`,
:meth:`HandlerDice.shuffle`), each roll recorded as a fact and placed on its step of the
command's dice (:meth:`HandlerDice.at_step`); in a dry run the first roll is reported, not made
(:class:`RollAhead`: the roll ``core.game.odds`` gives the odds of before a command).

:class:`HandlerDice` is the dice's half of the context a handler is given (``core.ruleset.Context``),
kept apart from it because the context names its ruleset and the ruleset names the context: it asks
of the context only what :class:`DiceContext` names, so this module imports neither.

A roll that cannot but come to one outcome (:func:`certain`; issue #77, ruling CORE-CERTAIN): every face
passes its check, or every face fails it.  At a table that types its dice (table dice on, or
faces typed on the line) such a roll, where the rule reads its faces for that outcome alone
(``Context.roll``'s ``certain_if``), is drawn by the game rather than asked, and the table is
told why (:func:`certain_said`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from typing import Protocol

import msgspec

from core.dice import faces as dice_steps
from core.dice.faces import Dice, ManualDice, NeedDice, UnplacedRoll, face_meanings, step_index
from core.dice.probability import check_chance, check_die
from core.language.i18n import N_, M, Msg, Text
from core.log import events as ev
from core.log.narrate import need_said
from core.log.state import GameState
from core.log.views import unit_audience

#: The notes a certain roll drawn by the game is told with (``core.secrets.rederive`` finds them).
ANY_FACE = N_("no need to roll: any face succeeds (needs {need})")
NO_FACE = N_("no need to roll: no face succeeds (needs {need})")
NOTES = (ANY_FACE, NO_FACE)


def certain(check: ev.Check | None, count: int, sides: int) -> bool | None:
    """True if every face of ``count`` d``sides`` passes ``check`` (dice counted each on its
    own: every die passes), False if every face fails it (every die fails), None if the faces
    decide (or nothing passes or fails: a roll read off a table, an opposed one)."""
    if isinstance(check, ev.Each):
        chance: Fraction | None = check_die(check, sides)
    else:
        chance = check_chance(check, count, sides)
    if chance is None or 0 < chance < 1:
        return None
    return chance == 1


def certain_said(sure: bool, check: ev.Check | None, count: int, sides: int) -> Msg:
    """Why the game drew the roll itself: ``no need to roll: any face succeeds (needs 1+)``,
    the need put on the die's faces (a need of 0+ reads 1+, as the book would write it)."""
    if isinstance(check, ev.AtLeast | ev.All | ev.Each):
        check = msgspec.structs.replace(check, face=min(max(check.face, 1), sides))
    return M(ANY_FACE if sure else NO_FACE, need=need_said(check, count))


class RollAhead(Exception):
    """Raised by :meth:`Context.roll` in a dry run: the roll a command would make first."""

    def __init__(
        self,
        purpose: Text,
        count: int,
        sides: int,
        target: int | None,
        mods: tuple,
        total: bool,
        under: bool = False,
        check: ev.Check | None = None,
    ) -> None:
        super().__init__(purpose)
        self.check = check
        self.under = under
        self.purpose = purpose
        self.count = count
        self.sides = sides
        self.target = target
        self.mods = mods
        self.total = total


class DiceContext(Protocol):
    """What :class:`HandlerDice` rolls with: the context's state, dice and order of the command's dice."""

    state: GameState
    dice: Dice
    dry_run: bool
    order: tuple[str, ...]
    within: tuple[str | tuple[str, ...], ...]

    def emit(self, *events: ev.Event) -> None: ...

    def _step(self, purpose: Text, step: str | tuple[str, ...]) -> int | None: ...


class HandlerDice:
    """The rolls of a command's handler, made through its context (``core.ruleset.Context``)."""

    __slots__ = ()

    def roll(
        self: DiceContext,
        purpose: Text,
        count: int,
        *,
        sides: int = 6,
        target: int | None = None,
        mods: Sequence[ev.Mod] = (),
        total: bool = False,
        under: bool = False,
        rule: str = "",
        unit: str = "",
        side: str = "",
        vis: tuple[str, ...] = (),
        outcome: Callable[[tuple[int, ...]], Text] | Text = "",
        check: ev.Check | None = None,
        step: str | tuple[str, ...] = (),
        meaning: Callable[[tuple[int, ...]], Text] | None = None,
        certain_if: tuple[bool, ...] = (),
    ) -> tuple[int, ...]:
        """Roll (or take typed faces), record the roll as an event, return the faces.

        ``certain_if``: the outcomes (True: every die passes ``check``, False: it fails) on
        which the caller reads these faces for nothing more.  A roll whose every face comes
        to one of them is not asked of a table that types its dice: the game draws it, and says
        why (ruling CORE-CERTAIN).

        ``step`` is which of the command's dice (``CommandSpec.dice``) this roll is:
        the step's phrase, as the command's order words it (a roll several commands
        share names each of their wordings).  A referee rolling real dice is shown
        where in the order he is (``DiceRequest.step``).

        ``unit`` is whose roll it is, or else ``side`` (a side's roll no unit makes:
        initiative, morale); with neither it is the referee's.  They, ``target``,
        ``under``, ``total`` and ``mods`` are what a referee rolling real dice is
        told (:class:`core.dice.faces.DiceRequest`), so pass them for every roll.
        ``check`` is how ``outcome`` is decided (``core.log.events.Check``): the dice
        pane's chance, the odds before the roll and the report's luck read it and
        nothing else, so every roll gives one.  A roll read off a table (``ev.Read``)
        tells a referee rolling real dice what each face means (``DiceRequest.meanings``):
        its ``outcome``, or ``meaning`` where the outcome says more than the table's
        row (the modified total it read).
        """
        if self.dry_run:
            raise RollAhead(purpose, count, sides, target, tuple(mods), total, under, check)
        at = self._step(purpose, step)

        def heard() -> tuple[str, ...]:
            """Who may know of it, as its fact will say (``emit``: a hidden unit's stays with those who see him)."""
            return vis or (unit_audience(self.state.units[unit]) if unit in self.state.units else ())

        dice = self.dice
        if certain_if and isinstance(dice, ManualDice):  # the odds worked out only where the table types its dice
            sure = certain(check, count, sides)
            if sure in certain_if and (drawer := dice.draws()) is not None:
                dice = drawer
                self.emit(ev.Noted(text=certain_said(bool(sure), check, count, sides), vis=heard()))
        try:
            faces = dice.roll(count, sides, purpose)
        except NeedDice as need:
            reads = meaning or outcome
            meanings = face_meanings(reads, count, sides, total) if type(check) is ev.Read and callable(reads) else ()
            asked = msgspec.structs.replace(
                need.request,
                target=target,
                under=under,
                total=total,
                mods=tuple(mods),
                check=check,
                step=at,
                meanings=meanings,
            )
            raise NeedDice(asked, unit=unit, side=side, vis=heard()) from None
        text = outcome(faces) if callable(outcome) else outcome
        roll = ev.Roll(purpose, faces, sides, target, tuple(mods), total, text, rule, dice.manual, under, check)
        side = side if not unit else ""
        self.emit(dice.rolled(roll, unit=unit, side=side, vis=vis))
        return faces

    def shuffle(self: DiceContext, items: list, purpose: Text, *, step: str | tuple[str, ...] = ()) -> list:
        """A shuffled copy of ``items`` (card decks), ``step`` as for :meth:`roll`."""
        at = self._step(purpose, step)
        try:
            return self.dice.shuffle(items, purpose)
        except NeedDice as need:
            raise NeedDice(msgspec.structs.replace(need.request, step=at)) from None

    @contextmanager
    def at_step(self: DiceContext, step: str | tuple[str, ...]) -> Iterator[None]:
        """Every roll made inside is ``step`` of the order (the first of its phrases the
        order holds), over what it names itself: a helper's save rolled as part of another
        step (a covering-fire test's hit) is that step.  An outer ``at_step`` (the
        command's) wins over an inner one (a helper's); where the order holds none of
        them, the rolls are the steps they name."""
        outer = self.within
        self.within = (*outer, step)
        try:
            yield
        finally:
            self.within = outer

    def _step(self: DiceContext, purpose: Text, step: str | tuple[str, ...]) -> int | None:
        """The index in the command's order of the step the roll is rolled :meth:`at_step`,
        or else of the one it names; a roll that names none, in an order of one step, is
        that step.  A roll placed on no step of the order is a bug when the tests check
        (``core.dice.faces.CHECK_STEPS``)."""
        if not self.order:
            return None
        at = next((i for i in (step_index(self.order, w) for w in self.within) if i is not None), None)
        if at is None:
            at = step_index(self.order, step)
        if at is None and not step and len(self.order) == 1:
            at = 0
        if at is None and dice_steps.CHECK_STEPS:
            raise UnplacedRoll(f"the roll {purpose!r} names {step!r}, no step of its command's dice {self.order!r}")
        return at
