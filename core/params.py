"""A command's parameters (``core.ruleset.CommandSpec.params``): what each takes, and the
bounds the parser holds every value a handler gets within (``core.commands.parsing``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import msgspec

from core.log.state import Unit

#: No bound of an ``int`` parameter goes beyond this: every sum or product a rule
#: makes of a few of them stays far inside what the save and the state can hold.
INT_LIMIT = 1_000_000
#: The units a ``distance`` parameter may measure in.
MEASURES = ("cm", "in")
#: The longest distance a command takes, in cm: 10 m, beyond any table or weapon.
MAX_DISTANCE_CM = 1_000


#: What a command's parameter takes (see :class:`Param`).
ParamKind = Literal["unit", "own", "enemy", "side", "int", "distance", "choice", "text", "team"]


class Param(msgspec.Struct, frozen=True):
    """A command argument.

    kinds: ``unit`` (any unit the issuer can see), ``own`` (one of the issuer's
    units), ``enemy`` (an enemy unit the issuer can see), ``side``, ``int``,
    ``distance``, ``choice``, ``text`` (the rest of the line), ``team`` (a team
    the issuer can see a member of, by the rest of the line: its name, or words
    each beginning a word of it; the handler gets its whole name).
    ``many`` takes every remaining positional word of that kind.

    A ``distance`` is a tape measure's reading, from ``lo`` to ``hi`` in the
    ruleset's ``measure`` (the unit its tables are in): ``25``, ``25.5`` (up to
    two decimals), or in the other unit with its suffix (``10in``, ``10"``,
    ``25cm``), converted exactly (1 in = 2.54 cm).  The handler gets an ``int``
    when the value is whole and an exact ``Decimal`` otherwise, so a band's edge
    compares the value as measured (``core.commands.distance``).

    An ``int`` is a whole number from ``lo`` to ``hi``: the parser refuses any
    other, naming the bounds, so no handler sees a number its rule cannot use (a
    count it would loop over, a value the save could not hold).  A parameter that
    declares none gets 0 to 9,999, which is safe for any rule.
    """

    name: str
    kind: ParamKind
    help: str = ""
    optional: bool = False
    default: Any = None
    choices: tuple[str, ...] = ()
    many: bool = False
    #: Keyword only: given as ``name=value`` (or as a bare flag for choices of one word).
    keyword: bool = False
    #: For ``int`` and ``distance``: the least and the most accepted, inclusive.
    lo: int = 0
    hi: int = 9_999
    #: For ``distance``: the unit the ruleset's tables measure in, ``cm`` or ``in``.
    measure: str = "cm"
    #: For ``unit`` and ``enemy``: a hidden enemy's marker may be named by its label
    #: (``K7Q``), for the commands a book lets aim at a marker (spotting, speculative fire).
    markers: bool = False
    #: For a ``choice`` whose values are codes (``A1`` … ``A7``): what each means, in
    #: the order of ``choices`` (messages of the ruleset's catalogue), shown beside
    #: the code wherever it is offered (completion, the Actions form, the help).
    meanings: tuple[str, ...] = ()
    #: For a ``many`` place of units: a word that names no unit but a team (as ``team``
    #: finds it) stands for those of its members this lets through (``deploy``: those
    #: waiting off the table), so that a team is named at once.
    team_members: Callable[[Unit], bool] | None = None
    #: For ``text``: the player's own words (a reason, a note), no name of the game's: help's
    #: examples give them in the reader's language, as the catalogues' ``example`` messages (#61).
    prose: bool = False
    #: For ``text``: its words are ``SIDE=VALUE`` (``players regulars=anna``), not options: each
    #: SIDE found as a side is (its id, its name, its name in the reader's language) and recorded
    #: by its id, and the handler gets them so (``core.commands.parsing``).
    side_pairs: bool = False
    #: For ``text``: a secret's key (``reveal``): Tab offers the referee the keys of the secrets
    #: not open yet, the sealed orders first (issue #77).
    secret_key: bool = False

    def __post_init__(self) -> None:
        if not -INT_LIMIT <= self.lo <= self.hi <= INT_LIMIT:
            raise ValueError(f"parameter {self.name}: bounds {self.lo}..{self.hi} not within ±{INT_LIMIT:,}")
        if self.meanings and len(self.meanings) != len(self.choices):
            raise ValueError(f"parameter {self.name}: {len(self.meanings)} meanings for {len(self.choices)} choices")
        if self.measure not in MEASURES:
            raise ValueError(f"parameter {self.name}: measure {self.measure!r} is not one of {', '.join(MEASURES)}")


def flag(name: str, help: str) -> Param:
    """A keyword of one word that switches something on: the handler gets ``name`` when it is
    typed, False when not."""
    return Param(name, "choice", help, optional=True, default=False, choices=(name,), keyword=True)
