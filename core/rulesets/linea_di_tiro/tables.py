"""Linea di Tiro tables, decoded from the TOML files in ``data/`` into typed structs.

The rulebook has no numbered sections: each data file names its heading and the
digest's section and rule ids; the tests check the numbers against the book.
Piece profiles (attack, protection, morale) are not in the book: each scenario
brings its own (``[[profiles]]`` in the scenario file, digest C.0; scenario_format.py).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import msgspec

from core.language.i18n import N_
from core.ruleset import TYPING, Refused, Tables
from core.rulesets.linea_di_tiro.words import _

TABLES = Tables(Path(__file__).parent / "data")


class Suit(msgspec.Struct, frozen=True):
    symbol: str
    name: str
    army: str


class Deck(msgspec.Struct, frozen=True):
    """LT-R002, LT-R010/R011."""

    reshuffle_at: int
    jokers: int
    joker: str
    numbers: tuple[str, ...]
    faces: tuple[str, ...]
    suits: tuple[Suit, ...]

    def cards(self) -> list[str]:
        """The whole deck in a fixed order: every rank of every suit, then the jokers."""
        ranks = (*self.numbers, *self.faces)
        return [f"{r}{s.symbol}" for s in self.suits for r in ranks] + [self.joker] * self.jokers

    def kind(self, card: str) -> str:
        """``number``, ``face`` or ``joker``."""
        if card == self.joker:
            return "joker"
        return "face" if card[:-1] in self.faces else "number"

    def typed(self, card: str) -> str:
        """The card as a keyboard types it: its rank and the suit's initial (``7h``, ``qs``,
        ``10d``), ``joker`` for a joker."""
        if card == self.joker:
            return card.lower()
        suit = next(s for s in self.suits if card.endswith(s.symbol))
        return card.removesuffix(suit.symbol).lower() + suit.name[0]

    def army(self, card: str) -> str:
        """The army the card's suit names ("" for a joker)."""
        return next((s.army for s in self.suits if card.endswith(s.symbol)), "")


class Option(msgspec.Struct, frozen=True):
    """One of the activation options A1–A7 (LT-R020)."""

    id: str
    title: str
    bound: bool = False
    speed: bool = False
    attacks: int = 0
    execute: int = 0
    prepare: int = 0
    mount: bool = False
    recover: bool = False

    @property
    def moves(self) -> bool:
        return self.bound or self.speed or self.mount

    @property
    def shared(self) -> bool:
        """Its attacks are one pool, each prepared or executed (A4), not one of each (A3)."""
        return self.execute + self.prepare > self.attacks


class Column(msgspec.Struct, frozen=True):
    """A band of attack minus protection (or defence): ``low``..``high`` inclusive."""

    label: str
    results: tuple[str, ...]
    low: int | None = msgspec.field(default=None, name="from")
    high: int | None = msgspec.field(default=None, name="to")

    def holds(self, diff: int) -> bool:
        return (self.low is None or diff >= self.low) and (self.high is None or diff <= self.high)


class DieMod(msgspec.Struct, frozen=True):
    id: str
    label: str
    value: int


class Defence(msgspec.Struct, frozen=True):
    """A defence value of C.7.1; ``source``: ``book``, or the ruling of a state it leaves out;
    ``role``: the scenario role that gives a vehicle this defence (``open``, ``light``)."""

    id: str
    label: str
    value: int
    source: str = "book"
    role: str = ""


class FireTable(msgspec.Struct, frozen=True):
    """A combat results table: rows are the modified roll from 1; at ``no_effect_from``
    and above nothing happens."""

    no_effect_from: int
    columns: tuple[Column, ...]
    long_range_max: int | None = None
    he_bonus: int = 0
    he_streak_max: int = 0
    modifiers: tuple[DieMod, ...] = ()
    defences: tuple[Defence, ...] = ()

    def column(self, diff: int) -> Column:
        return next(c for c in self.columns if c.holds(diff))

    def result(self, diff: int, roll: int) -> str:
        """The result letter; rolls below 1 read as 1 (digest C.6)."""
        if roll >= self.no_effect_from:
            return "-"
        return self.column(diff).results[max(roll, 1) - 1]


class Morale(msgspec.Struct, frozen=True):
    flee_times: int
    fall_back_cm: int
    situations: tuple[str, ...]


class _Options(msgspec.Struct, frozen=True):
    options: tuple[Option, ...]


deck = TABLES.table("deck.toml", Deck)


@cache
def options() -> dict[str, Option]:
    return {o.id: o for o in TABLES.decode("activation.toml", _Options).options}


at_table = TABLES.table("at_fire.toml", FireTable)
mg_table = TABLES.table("mg_fire.toml", FireTable)
morale = TABLES.table("morale.toml", Morale)


class SpotRow(msgspec.Struct, frozen=True):
    """One row of the spotting distances (LT-R032): ``cm``, or ``unlimited``."""

    kind: str
    state: str
    label: str
    source: str
    cm: int = 0
    unlimited: bool = False


class Spotting(msgspec.Struct, frozen=True):
    """C.4, LT-R032..R034."""

    fire_factor: int
    max_doublings: int
    vehicle_observer_divisor: int
    recon_role: str
    targets: tuple[SpotRow, ...]

    def row(self, kind: str, state: str) -> SpotRow | None:
        return next((r for r in self.targets if r.kind == kind and r.state == state), None)

    def states(self, kind: str) -> tuple[str, ...]:
        return tuple(r.state for r in self.targets if r.kind == kind)


class Movement(msgspec.Struct, frozen=True):
    """C.5, LT-R040..R042; ``options`` maps an activation option to ``bound`` or ``speed``."""

    bound_cm: int
    speed_times: int
    max_turn_deg: int
    options: dict[str, str]


class Rating(msgspec.Struct, frozen=True):
    role: str
    label: str
    rating: int


class MeleeMods(msgspec.Struct, frozen=True):
    entrenched: int
    from_behind: int
    immobilised: int
    gun: int


class DefaultRating(msgspec.Struct, frozen=True):
    with_at: str
    without_at: str


class Assault(msgspec.Struct, frozen=True):
    """C.9, LT-R100..R103."""

    overrun_cover_max: int
    adjacent_cm: int
    no_mg_bonus: int
    no_mg_role: str
    protected_malus: int
    protected_role: str
    portable_at_role: str
    rating_stat: str
    ratings: tuple[Rating, ...]
    melee: MeleeMods
    default_rating: DefaultRating

    def rating_of(self, roles: tuple[str, ...], has_at: bool, stats: dict[str, int]) -> Rating:
        """A piece's close-assault rating: its own (``stats``), its role's, else the
        default (ruling LT-RATING)."""
        own = stats.get(self.rating_stat)
        if own is not None:
            if own not in {r.rating for r in self.ratings}:
                known = ", ".join(str(r.rating) for r in self.ratings)
                # A scenario file's value: refused as the assault is tried (ruling LT-RATING).
                raise Refused(
                    _("a close-assault rating is one of {known}, not {own} (LT-R101)").format(known=known, own=own),
                    rule=TYPING,
                )
            return Rating(role="", label=N_("its scenario's rating"), rating=own)
        found = next((r for r in self.ratings if r.role in roles), None)
        if found is not None:
            return found
        role = self.default_rating.with_at if has_at else self.default_rating.without_at
        return next(r for r in self.ratings if r.role == role)


class Artillery(msgspec.Struct, frozen=True):
    """C.10, LT-R090."""

    caller_roles: tuple[str, ...]
    square_cm: int


spotting = TABLES.table("spotting.toml", Spotting)
movement = TABLES.table("movement.toml", Movement)
assault = TABLES.table("assault.toml", Assault)
artillery = TABLES.table("artillery.toml", Artillery)


# ------------------------------------------------------------------- piece profiles


class Profile(msgspec.Struct, frozen=True):
    """A kind of piece, from the scenario (digest part D): a unit's ``cls`` names it.

    ``at``/``at_long``: anti-tank attack at normal and long range (0: no AT weapon);
    ``front``/``side``: protection; ``mg``: MG/HE attack factor; ``defence``: the
    MG/HE defence a vehicle always has (infantry's depends on what it is doing).
    """

    id: str
    name: str
    vehicle: bool
    morale: int
    bound: int = 10
    speed: int = 30
    at: int = 0
    at_long: int = 0
    front: int = 0
    side: int = 0
    mg: int = 0
    defence: str = ""
