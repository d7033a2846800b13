"""The ruleset plugin interface.

A ruleset is three things:

* **tables** — data files beside its code, decoded by msgspec into typed structs;
* **rules** — pure functions from (state, inputs, dice faces) to results;
* **a turn structure** — a state machine of :class:`Phase` values, advanced by
  :meth:`Ruleset.advance`, and the :class:`CommandSpec` list that says what may
  be done, by whom, in which phase.

A command handler gets a :class:`Context` (the current state, read only, the
dice, the issuing role) and emits events into it, or raises :class:`Refused`
with the reason.  Handlers never touch files, clocks or the screen, so the same
command gives the same events in a client, a script or over SSH.

See ``docs/architecture.md`` for how the four seed rulesets map onto this.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec

from core import dice as dice_steps
from core import events as ev
from core.dice import Dice, NeedDice, UnplacedRoll, step_index
from core.language.i18n import CORE_DOMAIN, Domain, Text
from core.narrate import possessive  # noqa: F401  (the words a ruleset's narration uses)
from core.refusal import Refused  # noqa: F401  (what a handler raises to refuse a command)
from core.state import HIDDEN, GameState, Unit, apply_in_place
from core.views import (  # noqa: F401  (roles live in views)
    REFEREE,
    REFEREE_ONLY,
    SPECTATOR,
    MarkerLabels,
    unit_audience,
    with_vis,
)

if TYPE_CHECKING:
    from core.rulesmap import RulesMap


class RollAhead(Exception):
    """Raised by :meth:`Context.roll` in a dry run: the roll a command would make first."""

    def __init__(
        self,
        purpose: str,
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


# ------------------------------------------------------------------ turn structure


class Phase(msgspec.Struct, frozen=True):
    """One state of a ruleset's turn machine.

    ``actor`` says whose move it is: ``active`` (the initiative winner),
    ``reacting``, ``both`` (simultaneous, e.g. by quality tiers), ``card`` (the
    side named by the last card drawn) or ``referee``.
    """

    id: str
    title: str
    actor: str
    expects: str
    rule: str = ""
    #: The phase's main commands in the order the book's sequence of play gives them
    #: (each ruleset cites the section): Tab on an empty line offers them first, in this
    #: order, then the phase's other commands (``core.commands.complete``).
    commands: tuple[str, ...] = ()


# ------------------------------------------------------------------------ commands


#: No bound of an ``int`` parameter goes beyond this: every sum or product a rule
#: makes of a few of them stays far inside what the save and the state can hold.
INT_LIMIT = 1_000_000
#: The units a ``distance`` parameter may measure in.
MEASURES = ("cm", "in")
#: The longest distance a command takes, in cm: 10 m, beyond any table or weapon.
MAX_DISTANCE_CM = 1_000


#: The verb that ends the game in every ruleset: an alias of each ruleset's own
#: (``victory``, ``result``), so a referee who plays several needs only this one.
END_GAME = "end-game"


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
    kind: str
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

    def __post_init__(self) -> None:
        if not -INT_LIMIT <= self.lo <= self.hi <= INT_LIMIT:
            raise ValueError(f"parameter {self.name}: bounds {self.lo}..{self.hi} not within ±{INT_LIMIT:,}")
        if self.meanings and len(self.meanings) != len(self.choices):
            raise ValueError(f"parameter {self.name}: {len(self.meanings)} meanings for {len(self.choices)} choices")
        if self.measure not in MEASURES:
            raise ValueError(f"parameter {self.name}: measure {self.measure!r} is not one of {', '.join(MEASURES)}")


Handler = Callable[["Context", dict[str, Any]], None]


class CommandSpec(msgspec.Struct, frozen=True):
    name: str
    help: str
    handler: Handler
    params: tuple[Param, ...] = ()
    rule: str = ""
    examples: tuple[str, ...] = ()
    #: Phases in which it may be used (empty: any phase).
    phases: tuple[str, ...] = ()
    #: Who may issue it: ``referee`` only, or ``side`` (a side's player for its
    #: own units; the referee may always act for any side).
    who: str = "side"
    aliases: tuple[str, ...] = ()
    #: Whether it rolls dice (the client offers physical-dice entry for these).
    rolls: bool = False
    #: The dice it asks for, in the order it rolls them, each a short phrase such
    #: as "to hit: 1d6 per shot" or "each hit's save: 1d6 per hit" (a roll that
    #: happens only sometimes says when: "if a 6: the wound, 1d6").  A referee
    #: rolling real dice reads it before the first face is asked for; the help
    #: and docs/commands.md show it.  Every command that can roll declares it
    #: (tests/core/test_core_dice_order.py).
    dice: tuple[str, ...] = ()
    #: Whether the command's text can be shown to everyone even when some of its
    #: facts are private (it names no hidden unit and types no secret: ``next``,
    #: ``scenario demo``).  Otherwise the text is as private as its most private fact.
    public_text: bool = False
    #: The command's checks of the figure in its first place that nothing else on the
    #: line can change (is he on the table, may he fire now, has he a weapon at all),
    #: raising :class:`Refused`: the handler makes them by calling this same function,
    #: and completion offers the figures it refuses after the others
    #: (:meth:`Ruleset.offered_first`), so the two cannot say different things.
    figure_check: Callable[[Ruleset, GameState, Unit], None] | None = None


# ------------------------------------------------------------------ set-up choices


class SetupChoice(msgspec.Struct, frozen=True):
    """A choice the New game screen offers for a scenario, as a command line to run.

    When the game starts, the scenario is set up (and the sides' rosters fielded);
    then each choice that was changed runs ``command`` with ``{value}`` (and
    ``{side}``) filled in, as the referee, in the order the ruleset gives them.  A
    choice left at ``default`` runs nothing: the default is the game as the
    scenario sets it up.  ``multiple``: any number of ``choices`` may be picked
    (none at first, ``default`` is ""), and the command runs once per value picked,
    in the order of ``choices``.  ``per_side``: the choice is offered, and its
    command run, once for each side of the scenario.  ``labels``, one per choice,
    say what each value means (the value itself when empty).
    """

    id: str
    label: str
    choices: tuple[str, ...]
    default: str
    command: str
    per_side: bool = False
    multiple: bool = False
    labels: tuple[str, ...] = ()
    help: str = ""
    rule: str = ""

    def __post_init__(self) -> None:
        if self.labels and len(self.labels) != len(self.choices):
            raise ValueError(f"setup choice {self.id}: one label per choice")
        if self.default not in (self.choices if not self.multiple else ("",)):
            raise ValueError(f"setup choice {self.id}: default {self.default!r} is not one of its choices")

    def options(self) -> list[tuple[str, str]]:
        """(label, value) for each choice."""
        return list(zip(self.labels or self.choices, self.choices, strict=True))

    def command_lines(self, picked: str | Sequence[str], side: str = "") -> list[str]:
        """The command lines for what was picked (for ``side`` when ``per_side``)."""
        if self.multiple:
            chosen = {picked} if isinstance(picked, str) else set(picked)
            values = [c for c in self.choices if c in chosen]
        else:
            values = [] if picked == self.default else [str(picked)]
        return [self.command.format(value=v, side=side) for v in values]


# ------------------------------------------------------------------------- context


class Context(msgspec.Struct):
    """What a command handler sees, and where it puts the events it decides on.

    ``state`` is a private working copy: every emitted fact is folded into it at
    once, so a handler can read the consequences of its own earlier events.
    """

    state: GameState
    dice: Dice
    role: str
    ruleset: Ruleset
    events: list[ev.Event] = msgspec.field(default_factory=list)
    #: A dry run stops at the first roll and reports it (:class:`RollAhead`).
    dry_run: bool = False
    #: Where the labels of new markers come from (``Game`` keys them by its seed).
    labels: MarkerLabels = msgspec.field(default_factory=MarkerLabels)
    #: The command's dice, in order (``CommandSpec.dice``): each roll names its step of it.
    order: tuple[str, ...] = ()
    #: The steps a handler and its helpers put their rolls under (:meth:`at_step`),
    #: outermost first, over what the rolls name.
    within: tuple[str | tuple[str, ...], ...] = ()

    def emit(self, *events: ev.Event) -> None:
        for e in events:
            apply_in_place(self.state, (e,))
            unit_id = getattr(e, "unit", None)
            if not e.vis and isinstance(unit_id, str) and unit_id in self.state.units:
                # A fact about a unit that is hidden once the fact holds stays
                # with those who can see the unit (views.py).
                audience = unit_audience(self.state.units[unit_id])
                if audience:
                    e = with_vis(e, audience)
            self.events.append(e)
            hidden = _newly_hidden(e)
            if hidden and self.ruleset.hidden_markers:
                # The book puts a marker down where he was: its label, for the referee only.
                self.emit(ev.MarkerPlaced(unit=hidden, label=self.labels.draw(self.state), vis=REFEREE_ONLY))

    def roll(
        self,
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
    ) -> tuple[int, ...]:
        """Roll (or take typed faces), record the roll as an event, return the faces.

        ``step`` is which of the command's dice (``CommandSpec.dice``) this roll is:
        the step's phrase, as the command's order words it (a roll several commands
        share names each of their wordings).  A referee rolling real dice is shown
        where in the order he is (``DiceRequest.step``).

        ``unit`` is whose roll it is, or else ``side`` (a side's roll no unit makes:
        initiative, morale); with neither it is the referee's.  They, ``target``,
        ``under``, ``total`` and ``mods`` are what a referee rolling real dice is
        told (:class:`core.dice.DiceRequest`), so pass them for every roll.
        ``check`` is how ``outcome`` is decided (``core.events.Check``): the dice
        pane's chance, the odds before the roll and the report's luck read it and
        nothing else, so every roll gives one.
        """
        if self.dry_run:
            raise RollAhead(purpose, count, sides, target, tuple(mods), total, under, check)
        at = self._step(purpose, step)
        try:
            faces = self.dice.roll(count, sides, purpose)
        except NeedDice as need:
            asked = msgspec.structs.replace(
                need.request, target=target, under=under, total=total, mods=tuple(mods), check=check, step=at
            )
            raise NeedDice(asked, unit=unit, side=side) from None
        text = outcome(faces) if callable(outcome) else outcome
        self.emit(
            ev.Rolled(
                roll=ev.Roll(
                    purpose, faces, sides, target, tuple(mods), total, text, rule, self.dice.manual, under, check
                ),
                unit=unit,
                side=side if not unit else "",
                vis=vis,
            )
        )
        return faces

    def shuffle(self, items: list, purpose: Text, *, step: str | tuple[str, ...] = ()) -> list:
        """A shuffled copy of ``items`` (card decks), ``step`` as for :meth:`roll`."""
        at = self._step(purpose, step)
        try:
            return self.dice.shuffle(items, purpose)
        except NeedDice as need:
            raise NeedDice(msgspec.structs.replace(need.request, step=at)) from None

    @contextmanager
    def at_step(self, step: str | tuple[str, ...]) -> Iterator[None]:
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

    def _step(self, purpose: Text, step: str | tuple[str, ...]) -> int | None:
        """The index in the command's order of the step the roll is rolled :meth:`at_step`,
        or else of the one it names; a roll that names none, in an order of one step, is
        that step.  A roll placed on no step of the order is a bug when the tests check
        (``core.dice.CHECK_STEPS``)."""
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

    def unit(self, unit_id: str) -> Unit:
        return self.state.units[unit_id]

    @property
    def is_referee(self) -> bool:
        return self.role == REFEREE

    def acting_side(self, unit: Unit) -> str:
        return unit.side


def _newly_hidden(e: ev.Event) -> str:
    """The unit ``e`` hides (added hidden, or made hidden), or ""."""
    if isinstance(e, ev.StatusChanged) and HIDDEN in e.add:
        return e.unit
    if isinstance(e, ev.UnitAdded) and HIDDEN in e.unit.status:
        return e.unit.id
    return ""


class Ruleset:
    """Base class for rulesets.  Subclasses set the class attributes and commands."""

    id: str = ""
    name: str = ""
    version: str = ""
    variants: tuple[str, ...] = ("",)
    phases: tuple[Phase, ...] = ()
    rule_source: str = ""
    #: Whether a hidden unit stands on the table under a marker, which the other
    #: sides see and may name by its label (``core.views``).  Off when the book
    #: keeps hidden units off the table (the referee notes where they are).  A
    #: unit waiting off the table has the status ``off-table`` (no marker then).
    hidden_markers: bool = False
    #: The dice ``next`` may ask for, in order (``CommandSpec.dice`` of ``next``).
    next_dice: tuple[str, ...] = ()
    #: The phases in which the referee may end the game with :data:`END_GAME` (the
    #: ``phases`` of the command that has it as an alias; empty: any phase; None:
    #: the ruleset has no such command).
    end_phases: tuple[str, ...] | None = None

    def can_end(self, state: GameState) -> bool:
        """Whether the referee may end the game now with :data:`END_GAME`: once set up, until it ended."""
        phases = self.end_phases
        if phases is None or state.phase == "setup" or state.result:
            return False
        return not phases or state.phase in phases

    @property
    def domain(self) -> str:
        """The catalogue of the book's words (``core.language.i18n``): the ruleset's package name."""
        module = type(self).__module__
        return module.split(".")[2] if module.startswith("core.rulesets.") else CORE_DOMAIN

    def __init__(self, variant: str = "") -> None:
        if variant not in self.variants:
            raise ValueError(f"{self.name} has no variant {variant!r}; choose from {', '.join(self.variants)}")
        self.variant = variant

    def commands(self) -> Iterable[CommandSpec]:
        return ()

    def terms(self) -> Iterable[str]:
        """The book's words the ruleset shows from data rather than from code (statuses,
        weapons, qualities, results read from its tables): each is translated with the
        context ``term`` (``core.language.i18n.Domain.term``), and the catalogue lists them all."""
        return ()

    def phrases(self) -> Iterable[str]:
        """Words from the ruleset's data that its events hold as ``M(word)`` (a table's
        row, a modifier's label, a weapon's name): rendered as messages, so the
        catalogue lists them without a context."""
        return ()

    def phase(self, phase_id: str) -> Phase | None:
        for p in self.phases:
            if p.id == phase_id:
                return p
        return None

    def advance(self, ctx: Context) -> None:
        """Close the current phase and begin the next (``next`` command)."""
        raise Refused("this ruleset has no turn sequence")

    def check_turn(self, state: GameState, parsed: Any, role: str) -> None:
        """Refuse a side's command that is not its turn to give (the referee may always act)."""

    def offered_first(self, state: GameState, spec: CommandSpec, unit: Unit) -> bool:
        """Whether completion offers ``unit`` for ``spec`` among the first, before the figures
        the command would refuse whatever else is typed: those its ``figure_check``
        refuses (a civilian carrying no weapon, to ``fire``); a ruleset may add its own.
        Out of the command's phases it refuses every figure alike: none is put last."""
        if spec.figure_check is None or (spec.phases and state.phase not in spec.phases):
            return True
        try:
            spec.figure_check(self, state, unit)
        except Refused:
            return False
        return True

    def expects(self, state: GameState) -> str:
        p = self.phase(state.phase)
        return p.expects if p else ""

    def setup_choices(self, scenario_id: str) -> tuple[SetupChoice, ...]:
        """What the New game screen may choose for this scenario beyond the scenario
        itself (the mission, optional rules, extras …); none by default."""
        return ()

    #: The prefixes of the keys that end in a piece's id (``secret.dies.<piece>``), and of
    #: those whose value is a piece's id: ``describe_named`` names the piece by its name.
    piece_keys: tuple[str, ...] = ()
    piece_values: tuple[str, ...] = ()

    #: The secret variables its rules keep (``secret.deck``), declared once: a name ending
    #: in ``.`` is a family keyed by a piece's id (``secret.dies.<piece>``).  With
    #: :meth:`statuses`, ``tests/core/test_core_declared_names.py`` checks that every such
    #: name the ruleset's code writes or reads is declared, so a typo fails a test.
    secret_vars: tuple[str, ...] = ()

    def statuses(self) -> frozenset[str]:
        """Every status (badge) the ruleset's pieces may show, declared once beside its
        tables; a name ending in ``*`` is a family (``aboard-*``: aboard the vehicle its
        id names).  None by default: a ruleset declares its own."""
        return frozenset()

    #: The prefixes of the variables that name the scenario's kinds of piece, which a side
    #: reads only as such: its own pieces' classes it sees on them, the enemy's hidden
    #: ones it is not told (Linea di Tiro's ``profile.<id>``).
    referee_vars: tuple[str, ...] = ()

    def describe_var(self, key: str, value: int | str) -> str | None:
        """A ruleset counter or flag (``VarSet``) in plain words; None for the bare ``key = value``."""
        return None

    def class_name(self, cls: str) -> str:
        """The troop class's name for display ("R3" → "Veteran")."""
        return cls

    def describe_named(self, state: GameState, key: str, value: int | str) -> str | None:
        """``describe_var`` with the pieces the key and value name by id (``piece_keys``,
        ``piece_values``) named as the players know them: the phrases only show them."""
        units = state.units
        for prefix in self.piece_keys:
            uid = key.removeprefix(prefix)
            if key.startswith(prefix) and uid in units:
                key = prefix + units[uid].name
                break
        if isinstance(value, str) and value in units and key.startswith(self.piece_values):
            value = units[value].name
        return self.describe_var(key, value)

    def note_for_a_side(self, text: Text) -> Text:
        """A note as a side or a spectator reads it: a note may name the referee's command
        (the save keeps it as it was recorded); by default the note itself."""
        return text

    def status_words(self, status: str, name: Callable[[str], str]) -> str:
        """A status (badge) in the log's words; ``name`` names a piece by its id, for a
        badge that holds one (Bassa Intensità's ``aboard-<vehicle>``)."""
        return Domain(self.domain).term(status)

    def piece_class(self, state: GameState, cls: str) -> str:
        """A piece's class as shown, where the game's own state may name it (a class a
        scenario file defines); ``class_name`` by default."""
        return self.class_name(cls)

    def rules_map(self) -> RulesMap | None:
        """The ruleset's rules map (``core.rulesmap``): ``data/rules_map.toml`` beside its
        package's tables, read once; None for a ruleset that has none."""
        return _rules_map(Path(sys.modules[type(self).__module__].__file__ or "").parent / "data" / "rules_map.toml")

    def success_hurts_unit(self, roll: ev.Roll) -> bool:
        """Whether a success of ``roll`` is bad for the side of the unit it names (a
        roll whether a vehicle's armour is penetrated): the after-action report then
        counts its luck for the other side.  By default a success is the unit's own."""
        return False


@cache
def _rules_map(path: Path) -> RulesMap | None:
    from core.rulesmap import load  # only the rules screen and `fireteam rules` read a map

    return load(path) if path.is_file() else None


_REGISTRY: dict[str, Callable[[str], Ruleset]] = {}

#: The built-in rulesets: id → the package that registers it when imported.
#: Only the ruleset a game uses is imported (a ruleset is dozens of modules and
#: data tables; the client starts faster without the three it does not show).
BUILTIN = {
    "bassa-intensita": "core.rulesets.bassa_intensita",
    "breaking-news": "core.rulesets.breaking_news",
    "linea-di-tiro": "core.rulesets.linea_di_tiro",
    "ludonet": "core.rulesets.ludonet",
}


def register(ruleset_id: str, factory: Callable[[str], Ruleset]) -> None:
    _REGISTRY[ruleset_id] = factory


def get_ruleset(ruleset_id: str, variant: str = "") -> Ruleset:
    if ruleset_id not in _REGISTRY and ruleset_id in BUILTIN:
        importlib.import_module(BUILTIN[ruleset_id])
    try:
        factory = _REGISTRY[ruleset_id]
    except KeyError:
        known = ", ".join(available()) or "none"
        raise ValueError(f"unknown ruleset {ruleset_id!r} (known: {known})") from None
    return factory(variant)


def available() -> list[str]:
    return sorted({*_REGISTRY, *BUILTIN})


# ------------------------------------------------------------------------ tables

T = TypeVar("T")


class Tables:
    """A ruleset's folder of TOML tables (``data/``), each file decoded into its typed
    struct (msgspec checks every field) when first asked for, then kept: a game reads
    only the tables its commands use."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def decode(self, name: str, kind: type[T]) -> T:
        """The file ``name`` decoded now (for a table built from several files)."""
        return msgspec.toml.decode((self.folder / name).read_bytes(), type=kind)

    def table(self, name: str, kind: type[T]) -> Callable[[], T]:
        """A function giving the file ``name`` as a ``kind``, decoded at its first call."""
        return cache(partial(self.decode, name, kind))
