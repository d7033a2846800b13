"""Where dice faces come from.

A ruleset asks a :class:`Dice` for faces and records every face in the event
that used it; replay reads those faces back and never rolls again.

* :class:`SeededDice` is the game's generator.  Its stream for a command is a
  pure function of the game's seed and the command's number in the file, so the
  same command replayed from a script gives the same faces, and a command issued
  again after an undo gets fresh ones (the earlier roll stays in the log).
* :class:`SealedDice` is the dice nobody can foresee (docs/secrets.md, "Sealed
  dice"): each roll is HMAC-SHA256 of the game's sealed key over the share the
  command's seat sent with it (its random bytes and its own count of shares), the
  seat, the line and the roll's place and purpose (:func:`derive_share`), so the
  host, who holds the key, cannot know a roll before the share comes, nor move it
  after, and the seat, which has no key, cannot steer it.
* :class:`ManualDice` takes faces typed by a referee rolling real dice, or fixed
  by a script.  When it runs out it raises :class:`NeedDice`, naming what is
  wanted (a :class:`DiceRequest`), so a client can ask for those faces and
  resolve the command again.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import NamedTuple

import msgspec

from core.dice.probability import check_chance_said, check_summary
from core.language.i18n import CORE_DOMAIN, N_, Domain, Text, _, render, scenario_words
from core.log.events import AtLeast, BoundRoll, Check, Each, Mod, Roll, Rolled, SealedRoll, SharedRoll
from core.log.narrate import check_base, check_need, describe_mod, whose
from core.refusal import Refused


class FaceMeaning(msgspec.Struct, frozen=True, array_like=True):
    """What the faces ``lo`` to ``hi`` of a roll read off a table mean (its outcome)."""

    lo: int
    hi: int
    means: Text


#: The most faces (or totals) a roll's meanings are listed for: a table of a d10, 2d6.
MAX_MEANINGS = 100


def face_meanings(
    outcome: Callable[[tuple[int, ...]], Text], count: int, sides: int, total: bool
) -> tuple[FaceMeaning, ...]:
    """What each face (or, for a total, each total) of a roll read off a table means,
    as its ``outcome`` says, faces that mean the same run together: ``1: near miss;
    2–5: shocked``.  Only a single die or a total can be listed (two dice read apart
    are no one number); none past ``MAX_MEANINGS``, nor when every face means the same."""
    if not (count == 1 or total) or count * sides > MAX_MEANINGS or count < 1 or sides < 1:
        return ()
    out: list[FaceMeaning] = []
    for value in range(count, count * sides + 1):
        # the faces of one way to roll ``value``: the sum alone is what a total reads
        left, faces = value - count, []
        for _die in range(count):
            extra = min(sides - 1, left)
            faces.append(1 + extra)
            left -= extra
        means = outcome(tuple(faces))
        if out and out[-1].means == means:
            out[-1] = FaceMeaning(out[-1].lo, value, means)
        else:
            out.append(FaceMeaning(value, value, means))
    # every face alike (a free roll, a number read as it falls): nothing to tell apart
    return tuple(out) if len(out) > 1 else ()


#: The words ``core.log.views.roller`` names a roll's owner with where it names no piece or side.
ROLLERS = frozenset({N_("referee"), N_("an unseen unit")})


class DiceRequest(msgspec.Struct, frozen=True, omit_defaults=True):
    """The next roll a command needs from the table, as the asking role may be told it.

    It crosses the SSH pool's wire (``tui/ssh/workers/wire.py``), so it holds only what
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
    #: The side that rolls it (its id, a role), when the asking role may know it: the
    #: seat whose player holds these dice at a table with table dice.  "" for the
    #: referee's roll, and for an unseen unit's (its side stays hidden, as its name).
    side: str = ""
    #: What it needs, as ``events.Roll`` records it (after the modifiers).
    target: int | None = None
    under: bool = False
    total: bool = False
    mods: tuple[Mod, ...] = ()
    #: The command's dice, in the order it asks for them (``CommandSpec.dice``).
    order: tuple[str, ...] = ()
    #: The catalogue of the purpose's and the order's words (``Ruleset.domain``).
    domain: str = CORE_DOMAIN
    #: How the roll's outcome is decided (``core.log.events.Check``): what the prompt says
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
    #: For a roll read off a table: what its faces (or totals) mean, as its rule reads them.
    meanings: tuple[FaceMeaning, ...] = ()
    #: The roll of the other side's that this one answers, in this command: its outcome
    #: ("1 hit"), and whose it was by a name the rolling side may see ("" when it may not).
    #: A defender asked for his save at his own seat hears what hit him first.
    answers: Text = ""
    answered_by: str = ""
    #: That roll's purpose, where the rolling side may see whose it was (the shooter, his
    #: weapon, the target: "Sgt Rossi's fire with Assault rifle aimed at Aden Farah, 40 cm"):
    #: the defender's box says what hit him whole (issue #77); "" when it may not.
    answered_for: Text = ""

    def text(self, *, mods: bool = True) -> str:
        """``Sgt Rossi's save: 1d6, needs 2+ (base 3+, team leader +1)``; the missing dice
        when some were typed.  Without ``mods``, what it needs alone (``needs 2+``), when it needs one:
        an opposed roll's modifiers are its score's (``1d6 (Pte Conti melee +3)``)."""
        purpose = render(self.purpose, self.domain)
        # A built-in side's name in the reader's language, as its roster has it (a piece's stays);
        # the referee and an unseen unit in his words too (#61: "quality di referee").
        who = _(self.whose) if self.whose in ROLLERS else scenario_words(self.whose)
        what = whose(who, purpose) if self.whose else purpose
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
        why = " (" + ", ".join(said) + ")" if said and (mods or not need) else ""
        return f"{what}: {dice}{need}{why}{self._more()}"

    def chance_text(self) -> str:
        """The exact chance before the roll, ``needs 5+ on at least one of 4d6: 51.8%``
        ("" for a roll with no chance of its own: read off a table, opposed)."""
        check = self._chanced()
        return "" if check is None else check_summary(check, self.count, self.sides)

    def chance(self) -> str:
        """The exact chance alone, ``51.8%``, for a prompt that has said what the roll needs
        (:meth:`text`); "" as :meth:`chance_text`."""
        check = self._chanced()
        return "" if check is None else check_chance_said(check, self.count, self.sides)

    def _chanced(self) -> Check | None:
        """The check whose chance may be worked out here (None: none, or too many dice or faces)."""
        check = self.check
        if check is None or self.count > MAX_DRAW_FACES or not 0 < self.sides <= MAX_MEANINGS:
            return None
        if isinstance(check, Each) and self.count == 1:  # one die counted on its own: a plain need
            return AtLeast(face=check.face, under=check.under, base=check.base)
        return check

    def meanings_text(self) -> str:
        """``1: near miss; 2–5: shocked; …`` ("" when the roll has none listed)."""
        words = Domain(self.domain)
        said = []
        for m in self.meanings[:MAX_MEANINGS]:
            faces = str(m.lo) if m.lo == m.hi else f"{m.lo}–{m.hi}"
            means = words.render(m.means)
            # An outcome that says its own face (Breaking News' secret objective die,
            # "3: Regular marker 3 …") is not given the face a second time.
            said.append(means if means.startswith(f"{faces}: ") else f"{faces}: {means}")
        return "; ".join(said)

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
    and never lets ``unit`` leave it.  ``vis`` is who may know of the roll (its fact's
    audience): the other seats told whose dice are awaited (``core.game.rolling``).
    """

    def __init__(self, request: DiceRequest, *, unit: str = "", side: str = "", vis: tuple[str, ...] = ()) -> None:
        super().__init__(request.text())
        self.request = request
        self.unit = unit
        self.side = side
        self.vis = vis

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

    def rolled(self, roll: Roll, *, unit: str, side: str, vis: tuple[str, ...]) -> Rolled:
        """The fact of the roll just made (``roll``: its faces and what they decided)."""
        return Rolled(roll=roll, unit=unit, side=side, vis=vis)


class SeededDice(Dice):
    def __init__(self, seed: int, cmd: int) -> None:
        self._rng = random.Random(f"fireteam:{seed}:{cmd}")

    def roll(self, count: int, sides: int = 6, purpose: Text = "roll") -> tuple[int, ...]:
        r = self._rng.randrange
        return tuple(r(sides) + 1 for _ in range(count))


#: Names the derivation in every HMAC input, so a key can never be read as another scheme's.
SCHEME = b"fireteam-dice/1"
#: The scheme of :func:`derive_bound` (the roll's game, command, place and purpose bound), before shares.
BOUND_SCHEME = b"fireteam-dice/2"
#: The scheme of :func:`derive_share`, today's: every input fixed by the seat or the rules, none by the host.
SHARE_SCHEME = b"fireteam-dice/3"
#: Random bytes in a sealed key and in a contribution (as hex: twice as many characters).
KEY_BYTES = 32
CONTRIBUTION_BYTES = 16
#: Faces a single roll may ask for, and the sides a die may have, in a sealed derivation.
MAX_DRAW_FACES = 10_000
_UNIT = 1 << 32  # each face is drawn from 4 bytes of the HMAC stream


def derive(key: bytes, contribution: bytes, draw: int, count: int, sides: int) -> tuple[int, ...]:
    """The faces of draw ``draw`` of a command (0 for its first roll), unbiased, as the
    sealed rolls of saves made before the bound derivation were drawn (``SealedRoll``,
    docs/secrets.md "Older sealed rolls"); :func:`derive_bound` is today's.

    The stream is HMAC-SHA256(key, SCHEME | contribution | draw | block) for blocks
    0, 1, 2…, read 4 bytes at a time as big-endian numbers; a number at or above
    the largest multiple of ``sides`` below 2**32 is passed over (rejection
    sampling, so every face is equally likely), any other gives ``n % sides + 1``.
    A pure function: ``fireteam verify`` calls it to re-derive every roll.
    """
    return _faces((SCHEME, contribution.hex().encode(), b"%d" % draw), key, count, sides)


def derive_bound(
    key: bytes, seal: str, cmd: int, place: int, purpose: Text, contribution: bytes, count: int, sides: int
) -> tuple[int, ...]:
    """The faces of the roll at ``place`` (0, 1, 2… among the command's rolls; a shuffle's
    draws are -1, -2…) of command ``cmd`` of the game whose key's commitment is ``seal``,
    rolled for ``purpose``: :func:`derive`'s stream over

        BOUND_SCHEME | SEAL | CMD | PLACE | SHA-256-HEX(compact JSON of PURPOSE) | CONTRIBUTION-HEX | BLOCK

    so a roll moved to another game (a key is sealed afresh, with its own salt, by every
    game and what-if), another command, another place or another purpose gives other faces
    (docs/secrets.md, "Sealed dice").  A pure function, as :func:`derive`."""
    said = hashlib.sha256(msgspec.json.encode(purpose)).hexdigest().encode()
    head = (BOUND_SCHEME, seal.encode(), b"%d" % cmd, b"%d" % place, said, contribution.hex().encode())
    return _faces(head, key, count, sides)


def derive_share(
    key: bytes,
    seal: str,
    by: str,
    nonce: int,
    place: int,
    purpose: Text,
    line: str,
    contribution: bytes,
    count: int,
    sides: int,
) -> tuple[int, ...]:
    """The faces of the roll at ``place`` (as :func:`derive_bound`'s) of the command that seat ``by``
    gave with its share number ``nonce`` (its own count of shares, 1, 2, 3…), for the command whose
    digest is ``line`` (``core.dice.shares.command_digest``: its name and arguments), rolled for
    ``purpose`` with the key whose commitment is ``seal`` (which names the game): :func:`derive`'s
    stream over

        SHARE_SCHEME | SEAL | HEX(UTF-8 of BY) | NONCE | PLACE | SHA-256-HEX(compact JSON of PURPOSE)
                     | LINE | CONTRIBUTION-HEX | BLOCK

    Every input is fixed before the host sees the share: the key by its commitment (the seal
    the seat saw), the seat's bytes and count by the seat, the command by its player, the place and
    purpose by the rules.  The command's number in the file is not one: commands the host gives
    out of the seat's sight cannot move its roll (docs/secrets.md, "Sealed dice")."""
    said = hashlib.sha256(msgspec.json.encode(purpose)).hexdigest().encode()
    head = (
        SHARE_SCHEME,
        seal.encode(),
        by.encode().hex().encode(),
        b"%d" % nonce,
        b"%d" % place,
        said,
        line.encode(),
        contribution.hex().encode(),
    )
    return _faces(head, key, count, sides)


def _faces(head: tuple[bytes, ...], key: bytes, count: int, sides: int) -> tuple[int, ...]:
    import hmac  # (sealed dice drawn: not at a client's start)

    if not 0 < count <= MAX_DRAW_FACES or not 0 < sides < _UNIT:
        raise ValueError(f"cannot draw {count}d{sides}")
    limit = _UNIT - _UNIT % sides
    faces: list[int] = []
    block = 0
    while len(faces) < count:
        message = b"|".join((*head, b"%d" % block))
        stream = hmac.new(key, message, hashlib.sha256).digest()
        for i in range(0, len(stream), 4):
            n = int.from_bytes(stream[i : i + 4], "big")
            if n < limit:
                faces.append(n % sides + 1)
                if len(faces) == count:
                    break
        block += 1
    return tuple(faces)


class Share(NamedTuple):
    """A seat's share of its next command's sealed dice: its random bytes, the commitment of the
    key in force when it drew them (``saw``: "" when there was none), and its own count of the
    shares it sent (``nonce``: 1, 2, 3…, the one the table said it expects next; None: the next).
    A share that names no key (None: a page from before, or one whose seal was stripped on its way)
    is refused while the dice are sealed; a key sealed after it was drawn cannot roll it, and a
    count other than the seat's next is refused (docs/secrets.md, "Sealed dice")."""

    contribution: bytes
    saw: str | None
    nonce: int | None = None


#: Where the commands given in this context take their issuer's contribution from: a
#: browser seat's page sends one with each line it enters (``tui.ssh.seating.seat``).  None, or
#: a source with nothing to give, and the process running the game draws it.
_sent: ContextVar[Callable[[], Share | None] | None] = ContextVar("fireteam_contribution", default=None)


def contributions_from(source: Callable[[], Share | None]) -> None:
    """Make ``source`` where this context's commands take their contribution, for good (a
    seat's task, before it starts its app: every task the app starts inherits it)."""
    _sent.set(source)


@contextmanager
def shares_given(source: Callable[[], Share | None]) -> Iterator[None]:
    """Make ``source`` where the commands given inside the block take their share: a seat whose
    lines come to it in another task than its own (a plain seat's, fed by its door's connection)."""
    token = _sent.set(source)
    try:
        yield
    finally:
        _sent.reset(token)


def sent_contribution() -> Share | None:
    """The contribution the issuer of a command given now sent with it, and the key's
    commitment he saw then, if any (taken: once)."""
    source = _sent.get()
    return source() if source is not None else None


class SealedDice(Dice):
    """The dice of a game with a sealed key: every roll is :func:`derive_share` of the key, the
    seat's share (its bytes and count), the seat, the line, and the roll's place and purpose."""

    def __init__(self, key: bytes, contribution: bytes, seal: str, *, by: str, nonce: int, line: str, saw: str) -> None:
        self._key = key
        self.contribution = contribution
        #: The commitment (its SHA-256 digest) that the key is the opening of.
        self.seal = seal
        #: The seat whose share it is, its count of shares, and its command's digest (``core.dice.shares``).
        self.by = by
        self.nonce = nonce
        self.line = line
        #: The commitment of the key in force when the contribution was drawn ("" for none).
        self.saw = saw
        self._rolls = 0
        self._shuffled = 0
        #: The place of the roll just made (what the roll's event records as its ``draw``).
        self.last_draw = -1
        #: The share as its seat sent it, to be checked once it rolls (None: drawn by the table).
        self.sent: Share | None = None

    def _derive(self, place: int, purpose: Text, count: int, sides: int) -> tuple[int, ...]:
        return derive_share(
            self._key, self.seal, self.by, self.nonce, place, purpose, self.line, self.contribution, count, sides
        )

    def roll(self, count: int, sides: int = 6, purpose: Text = "roll") -> tuple[int, ...]:
        self.last_draw = self._rolls
        self._rolls += 1
        return self._derive(self.last_draw, purpose, count, sides)

    def shuffle(self, items: list, purpose: Text = "shuffle") -> list:
        """As :meth:`Dice.shuffle`, its draws at places -1, -2… (recorded by no roll), so
        the rolls' places run 0, 1, 2… and one missing is seen."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            self._shuffled += 1
            (j,) = self._derive(-self._shuffled, purpose, 1, i + 1)
            out[i], out[j - 1] = out[j - 1], out[i]
        return out

    @property
    def used(self) -> bool:
        """Whether any draw was made (a roll or a shuffle)."""
        return bool(self._rolls or self._shuffled)

    def rolled(self, roll: Roll, *, unit: str, side: str, vis: tuple[str, ...]) -> SealedRoll:
        """The fact of the roll just made (``roll``: its faces, what they decided)."""
        return SharedRoll(
            roll=roll,
            unit=unit,
            side=side,
            vis=vis,
            seal=self.seal,
            contribution=self.contribution.hex(),
            draw=self.last_draw,
            saw=self.saw,
            by=self.by,
            nonce=self.nonce,
            line=self.line,
        )


class BoundSealedDice(SealedDice):
    """The sealed dice of a save made before shares were counted: each roll is :func:`derive_bound`
    of the key, its command's number, place and purpose and the contribution, recorded as a
    ``BoundRoll`` (``fireteam verify`` plays such a save's commands again with them)."""

    @classmethod
    def like(cls, dice: SealedDice, cmd: int) -> BoundSealedDice:
        older = cls(dice._key, dice.contribution, dice.seal, by=dice.by, nonce=dice.nonce, line=dice.line, saw=dice.saw)
        older.cmd = cmd
        return older

    cmd = 0

    def _derive(self, place: int, purpose: Text, count: int, sides: int) -> tuple[int, ...]:
        return derive_bound(self._key, self.seal, self.cmd, place, purpose, self.contribution, count, sides)

    def rolled(self, roll: Roll, *, unit: str, side: str, vis: tuple[str, ...]) -> SealedRoll:
        contribution = self.contribution.hex()
        return BoundRoll(
            roll=roll,
            unit=unit,
            side=side,
            vis=vis,
            seal=self.seal,
            contribution=contribution,
            draw=self.last_draw,
            cmd=self.cmd,
            saw=self.saw,
        )


class OlderSealedDice(SealedDice):
    """The sealed dice of a save made before the bound derivation: each roll is
    :func:`derive` of the key, the contribution and its draw alone, recorded as a
    ``SealedRoll`` (``fireteam verify`` plays such a save's commands again with them)."""

    @classmethod
    def like(cls, dice: SealedDice) -> OlderSealedDice:
        return cls(dice._key, dice.contribution, dice.seal, by=dice.by, nonce=dice.nonce, line=dice.line, saw=dice.saw)

    def _derive(self, place: int, purpose: Text, count: int, sides: int) -> tuple[int, ...]:
        return derive(self._key, self.contribution, place, count, sides)

    def shuffle(self, items: list, purpose: Text = "shuffle") -> list:
        """The older derivation counted a shuffle's draws with the rolls' (``Dice.shuffle``)."""
        return Dice.shuffle(self, items, purpose)

    def rolled(self, roll: Roll, *, unit: str, side: str, vis: tuple[str, ...]) -> SealedRoll:
        contribution = self.contribution.hex()
        return SealedRoll(
            roll=roll, unit=unit, side=side, vis=vis, seal=self.seal, contribution=contribution, draw=self.last_draw
        )


class ManualDice(Dice):
    manual = True

    def __init__(self, faces: Iterable[int] = ()) -> None:
        self._faces = list(faces)
        self._used = 0
        #: Who typed each face, where another seat than the command's issuer did ("" else).
        self._givers: list[str] = []
        self._giver = ""  # the last roll's
        #: The game's own dice, which draw a roll whose every face decides the same at a
        #: table that types its dice rather than ask it (ruling CORE-CERTAIN; None: every roll typed).
        self.drawer: Dice | None = None
        #: Whether each of the command's rolls, in order, was drawn by the game, as a save
        #: records it (``core.secrets.rederive``); None: drawn when it would be asked.
        self.recorded: tuple[bool, ...] | None = None
        self._rolls = 0

    def typed_by(self, givers: Iterable[str]) -> None:
        """The seat that typed each face, in order ("" for the issuer's own: issue #74)."""
        self._givers = list(givers)

    def roll(self, count: int, sides: int = 6, purpose: Text = "roll") -> tuple[int, ...]:
        left = len(self._faces) - self._used
        if left < count:
            raise NeedDice(DiceRequest(count, sides, purpose, missing=count - max(left, 0)))
        faces = tuple(face_read(f, sides) for f in self._faces[self._used : self._used + count])
        for f in faces:
            if not 1 <= f <= sides:
                raise Refused(
                    _("{purpose}: a d{sides} cannot show {face}").format(purpose=render(purpose), sides=sides, face=f),
                    rule="ENG-5",
                )
        self._giver = self._givers[self._used] if self._used < len(self._givers) else ""
        self._used += count
        self._rolls += 1
        return faces

    def draws(self) -> Dice | None:
        """The game's dice, if they draw the next roll, one that cannot but come to one
        outcome: when the table would be asked for it (no face typed left), or, replayed,
        where the save records it drawn; None: it is typed (an older save typed such a roll)."""
        if self.drawer is None:
            return None
        if self.recorded is not None:
            drawn = self._rolls < len(self.recorded) and self.recorded[self._rolls]
        else:
            drawn = self._used >= len(self._faces)
        if not drawn:
            return None
        self._rolls += 1
        return self.drawer

    def rolled(self, roll: Roll, *, unit: str, side: str, vis: tuple[str, ...]) -> Rolled:
        """The fact of the roll just made, with the seat that typed its faces for another."""
        return Rolled(roll=roll, unit=unit, side=side, vis=vis, given_by=self._giver)

    @property
    def unused(self) -> int:
        return len(self._faces) - self._used


class SupposedDice(ManualDice):
    """Faces supposed, not rolled: a command asked ahead (``core.explain.ahead``) takes them as it
    would take the game's dice, ``manual`` as those are (typed at the table, or the game's
    own), and asks for the next roll past them (:class:`NeedDice`)."""

    def __init__(self, faces: Iterable[int] = (), *, manual: bool) -> None:
        super().__init__(faces)
        self.manual = manual


def face_read(face: int, sides: int) -> int:
    """The face a real die shows, as the engine counts it: a d10 shows 0 for its 10
    (Bassa Intensità A.2, BI-R001: "il risultato di 0 si considererà come 10")."""
    return 10 if sides == 10 and face == 0 else face


def parse_faces(text: str, count: int | None = None) -> list[int]:
    """'6,4,3' or '6 4 3' or '643' (single digits) → [6, 4, 3]; with one die asked
    (``count`` 1), '11' is one face, refused as such, not two (a d10's player typed it)."""
    text = text.strip()
    if not text:
        return []
    parts = text.replace(",", " ").split()
    if len(parts) == 1 and parts[0].isdigit() and len(parts[0]) > 1 and "0" not in parts[0] and count != 1:
        parts = list(parts[0])
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise ValueError(_("dice faces must be numbers, not {text}").format(text=repr(text))) from None
