"""Where dice faces come from.

A ruleset asks a :class:`Dice` for faces and records every face in the event
that used it; replay reads those faces back and never rolls again.

* :class:`SeededDice` is the game's generator.  Its stream for a command is a
  pure function of the game's seed and the command's number in the file, so the
  same command replayed from a script gives the same faces, and a command issued
  again after an undo gets fresh ones (the earlier roll stays in the log).
* :class:`ManualDice` takes faces typed by a referee rolling real dice, or fixed
  by a script.  When it runs out it raises :class:`NeedDice`, naming what is
  wanted (a :class:`DiceRequest`), so a client can ask for those faces and
  resolve the command again.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import msgspec

from core.events import Check, Mod
from core.language.i18n import CORE_DOMAIN, Domain, Text, _, render
from core.narrate import check_base, check_need, describe_mod, whose
from core.refusal import Refused


class DiceRequest(msgspec.Struct, frozen=True, omit_defaults=True):
    """The next roll a command needs from the table, as the asking role may be told it.

    It crosses the SSH pool's wire (``tui/ssh/wire.py``), so it holds only what
    that role may know: ``whose`` is already a name it may see, never a unit id.
    :meth:`text` is the one place a request is put in words.
    """

    #: Dice this roll takes, and how many of them are still to be typed.
    count: int
    sides: int
    purpose: Text
    missing: int = 0
    #: Whose roll it is: a unit's name, a side, or "referee".
    whose: str = ""
    #: What it needs, as ``events.Roll`` records it (after the modifiers).
    target: int | None = None
    under: bool = False
    total: bool = False
    mods: tuple[Mod, ...] = ()
    #: The command's dice, in the order it asks for them (``CommandSpec.dice``).
    order: tuple[str, ...] = ()
    #: The catalogue of the purpose's and the order's words (``Ruleset.domain``).
    domain: str = CORE_DOMAIN
    #: How the roll's outcome is decided (``core.events.Check``): what the prompt says
    #: the bare dice must show, as the log and the dice pane will.
    check: Check | None = None
    #: How often the command already made this roll (the same purpose, the same
    #: roller): a tie's roll-off asks the same question again, and a prompt that
    #: said nothing of it would look like one that did not take the faces.
    again: int = 0
    #: Which of ``order`` this roll is (0 for its first step), so a prompt marks where
    #: the command is; None when unknown (a request of an older Fireteam, or a roll
    #: that names no step of the order).  A repeated roll (``again``) is the same step.
    step: int | None = None

    def text(self) -> str:
        """``Sgt Rossi's save: 1d6, needs 2+ (base 3+, team leader +1)``; the missing dice
        when some were typed."""
        purpose = render(self.purpose, self.domain)
        what = whose(self.whose, purpose) if self.whose else purpose
        if self.again:
            # TRANSLATORS: a roll the command makes once more, e.g. an initiative tied.
            what = _("{roll} again").format(roll=what)
        dice = f"{self.count}d{self.sides}"
        if self.check is not None:
            base, needed = check_base(self.check), check_need(self.check, self.count)
            said = [base] if base else []
            need = ", " + _("needs {need}").format(need=needed) if needed else ""
        else:  # told no check (a request of an older Fireteam): the target alone
            said = []
            need = ", " + self._need() if self.target is not None else ""
        said += [describe_mod(m, self.domain) for m in self.mods]
        mods = " (" + ", ".join(said) + ")" if said else ""
        return f"{what}: {dice}{need}{mods}{self._more()}"

    def _more(self) -> str:
        if 0 < self.missing < self.count:
            typed = self.count - self.missing
            return "; " + _("{typed} typed, {missing} more to type").format(typed=typed, missing=self.missing)
        return ""

    def _need(self) -> str:
        per_die = not self.total and self.count > 1
        if self.under:
            if self.total:
                said = _("needs {target} or less total")
            elif per_die:
                said = _("needs {target} or less per die")
            else:
                said = _("needs {target} or less")
        elif self.total:
            said = _("needs {target}+ total")
        elif per_die:
            said = _("needs {target}+ per die")
        else:
            said = _("needs {target}+")
        return said.format(target=self.target)

    def order_text(self) -> str:
        """The command's dice order in one line ("" when it declares none)."""
        book = Domain(self.domain)
        return _("; then ").join(book.gettext(d) for d in self.order)

    def current(self) -> int | None:
        """The index in ``order`` of the step this roll is, or None when it is not known
        (a step a hostile or older peer sent that is not in the order counts as unknown)."""
        if self.step is None or not 0 <= self.step < len(self.order):
            return None
        return self.step

    def step_text(self) -> str:
        """``now step 2 of 4: to hit: the weapon's dice, per target`` ("" when the step is unknown)."""
        at = self.current()
        if at is None:
            return ""
        # TRANSLATORS: where a command's dice are: the step rolled now, of its dice in order.
        return _("now step {n} of {total}: {step}").format(
            n=at + 1, total=len(self.order), step=Domain(self.domain).gettext(self.order[at])
        )


def step_index(order: tuple[str, ...], step: str | tuple[str, ...]) -> int | None:
    """Which step of ``order`` a roll naming ``step`` is: the first of its phrases (a
    roll shared by commands that word the step differently names each wording) that
    the order holds, or None when it holds none."""
    for phrase in (step,) if isinstance(step, str) else step:
        if phrase in order:
            return order.index(phrase)
    return None


class UnplacedRoll(AssertionError):
    """A roll that names no step of its command's dice order (``CommandSpec.dice``):
    the order and the code that rolls have drifted apart.  Raised only when
    :data:`CHECK_STEPS` is set, as the tests set it; a game just leaves the step unmarked."""


#: Whether a roll that names no step of its command's order is a bug to raise
#: (:class:`UnplacedRoll`).  The tests set it (tests/conftest.py), so every command
#: they play with exact faces proves its rolls are placed in its order.
CHECK_STEPS = False


class NeedDice(Exception):
    """More faces are needed than were given.

    ``unit`` and ``side`` say whose roll it is for :class:`core.game.Game`, which
    puts the name the asking role may see in ``request.whose`` (``views.roller``)
    and never lets ``unit`` leave it.
    """

    def __init__(self, request: DiceRequest, *, unit: str = "", side: str = "") -> None:
        super().__init__(request.text())
        self.request = request
        self.unit = unit
        self.side = side

    @property
    def count(self) -> int:
        """How many faces are still wanted."""
        return self.request.missing or self.request.count

    @property
    def sides(self) -> int:
        return self.request.sides

    @property
    def purpose(self) -> Text:
        return self.request.purpose


class Dice:
    manual = False

    def roll(self, count: int, sides: int = 6, purpose: Text = "roll") -> tuple[int, ...]:
        raise NotImplementedError

    def shuffle(self, items: list, purpose: Text = "shuffle") -> list:
        """A shuffled copy of ``items`` (card decks)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            (j,) = self.roll(1, i + 1, purpose)
            out[i], out[j - 1] = out[j - 1], out[i]
        return out


class SeededDice(Dice):
    def __init__(self, seed: int, cmd: int) -> None:
        self._rng = random.Random(f"fireteam:{seed}:{cmd}")

    def roll(self, count: int, sides: int = 6, purpose: Text = "roll") -> tuple[int, ...]:
        r = self._rng.randrange
        return tuple(r(sides) + 1 for _ in range(count))


class ManualDice(Dice):
    manual = True

    def __init__(self, faces: Iterable[int] = ()) -> None:
        self._faces = list(faces)
        self._used = 0

    def roll(self, count: int, sides: int = 6, purpose: Text = "roll") -> tuple[int, ...]:
        left = len(self._faces) - self._used
        if left < count:
            raise NeedDice(DiceRequest(count, sides, purpose, missing=count - max(left, 0)))
        faces = tuple(self._faces[self._used : self._used + count])
        for f in faces:
            if not 1 <= f <= sides:
                raise Refused(
                    _("{purpose}: a d{sides} cannot show {face}").format(purpose=render(purpose), sides=sides, face=f)
                )
        self._used += count
        return faces

    @property
    def unused(self) -> int:
        return len(self._faces) - self._used


def parse_faces(text: str) -> list[int]:
    """'6,4,3' or '6 4 3' or '643' (single digits) → [6, 4, 3]."""
    text = text.strip()
    if not text:
        return []
    parts = text.replace(",", " ").split()
    if len(parts) == 1 and parts[0].isdigit() and len(parts[0]) > 1 and "0" not in parts[0]:
        parts = list(parts[0])
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise ValueError(_("dice faces must be numbers, not {text}").format(text=repr(text))) from None
