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

:class:`Ruleset` is the contract (what a ruleset must give, what it may); the
registry (``core.registry``: ``get_ruleset``, ``available``, ``register``) finds the
built-in rulesets and those installed packages declare.  See
``docs/architecture.md`` ("The ruleset interface") for a minimal ruleset.
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, TypeVar

import msgspec

from core.dice.faces import Dice
from core.dice.handler import HandlerDice
from core.language.i18n import Domain, Text, _, scenario_words
from core.log import events as ev
from core.log.narrate import (
    possessive,  # noqa: F401  (the words a ruleset's narration uses)
    scenario_fact,
)
from core.log.questions import Answers, NeedAnswer, Question  # noqa: F401  (what a handler asks)
from core.log.state import HIDDEN, GameState, Unit, apply_one
from core.log.views import (  # noqa: F401  (roles live in views)
    REFEREE,
    REFEREE_ONLY,
    SPECTATOR,
    MarkerLabels,
    unit_audience,
    with_vis,
)
from core.params import (  # noqa: F401  (a command's parameters, as a ruleset declares them)
    MAX_DISTANCE_CM,
    Param,
    flag,
)
from core.refusal import (  # noqa: F401  (what a handler raises to refuse a command, and names for a typo)
    TYPING,
    Refused,
)
from core.scenarios.choices import SetupChoice  # noqa: F401  (a scenario's choices, as a ruleset offers them)

if TYPE_CHECKING:
    from core.explain.rulesmap import RulesMap
    from core.scenarios.schema import Format


# ------------------------------------------------------------------ turn structure


#: Whose move a phase is (see :class:`Phase`).
Actor = Literal["active", "reacting", "both", "card", "referee"]
#: The actors that make a phase one side's (``Ruleset.sequence_step``): the active side's,
#: or the side the card drawn names.
ACTING: tuple[Actor, ...] = ("active", "card")


class Phase(msgspec.Struct, frozen=True):
    """One state of a ruleset's turn machine.

    ``actor`` says whose move it is: ``active`` (the initiative winner),
    ``reacting``, ``both`` (simultaneous, e.g. by quality tiers), ``card`` (the
    side named by the last card drawn) or ``referee``.
    """

    id: str
    title: str
    actor: Actor
    expects: str
    rule: str = ""
    #: The phase's main commands in the order the book's sequence of play gives them
    #: (each ruleset cites the section): Tab on an empty line offers them first, in this
    #: order, then the phase's other commands (``core.commands.complete``).
    commands: tuple[str, ...] = ()


# ------------------------------------------------------------------------ commands


#: The verb that ends the game in every ruleset: an alias of each ruleset's own
#: (``victory``, ``result``), so a referee who plays several needs only this one.
END_GAME = "end-game"


#: Who may issue a command (see :class:`CommandSpec`).
Who = Literal["referee", "side"]


Handler = Callable[["Context", dict[str, Any]], None]
#: The handler of a built-in that needs the game (``CommandSpec.game_handler``): given the game
#: (``core.game.front.Front``, which the plugin interface does not import), the context, the
#: arguments and the seat that typed the line.
GameHandler = Callable[[Any, "Context", dict[str, Any], str], None]
#: A built-in that is a step of the log (``CommandSpec.log_step``): given the game, the role and
#: the seat, what it writes (the command it names, its events, their lines).
LogStep = Callable[[Any, str, str], tuple[int, list[ev.Event], list[str]]]


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
    who: Who = "side"
    aliases: tuple[str, ...] = ()
    #: What a referee used to another ruleset may call it (Linea di Tiro's ``result``:
    #: ``victory``), or the word for what it does (its ``next``: ``draw``, a card): such
    #: a word, in English or as the catalogue names it (a ``command``), is answered
    #: "did you mean", before the commands whose help merely speaks of it.
    known_elsewhere_as: tuple[str, ...] = ()
    #: The commands of other games this one has no rule for, each with what a referee who types
    #: it is told (a message of the spec's catalogue, ``{command}`` this one's name): where
    #: the scenario's conditions decide a game, ``dp`` (defeat points, #61).
    lacks: tuple[tuple[str, str], ...] = ()
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
    #: The command's checks of the side it names, given by a role (a player names only
    #: his own; a morale test must be due), raising :class:`Refused`: the handler makes
    #: them by calling this same function, and completion offers only the sides it lets
    #: through (:meth:`Ruleset.side_offered`).
    side_check: Callable[[Ruleset, GameState, str, str], None] | None = None
    #: A built-in command that needs the game, not only its state (``core.game.builtins``; a
    #: ruleset's commands never do: a rule is a function of the state, the arguments and the
    #: dice).  The game calls ``game_handler`` in place of ``handler`` (``confirm``: who played
    #: each side is the log's, and who confirms the seat's); it checks who and when itself,
    #: not by the ruleset's turn.
    game_handler: GameHandler | None = None
    #: A built-in that is a step of the log, not a command of the rules (``undo``, ``redo``):
    #: no handler, no dice, no phase nor turn; what ``log_step`` returns is written as it is.
    log_step: LogStep | None = None
    #: Whether the game opens the sealed dice's key so far and seals them with a new one, first
    #: in the command (``dice-key``: ``core.game.sealing``).
    reseals: bool = False


# ------------------------------------------------------------------------- context


class Context(msgspec.Struct, HandlerDice):
    """What a command handler sees, and where it puts the events it decides on.

    ``state`` is a private working copy: every emitted fact is folded into it at
    once, so a handler can read the consequences of its own earlier events.  Its
    rolls (:meth:`roll`, :meth:`shuffle`, :meth:`at_step`) are ``core.dice.handler``'s.
    """

    state: GameState
    dice: Dice
    role: str
    ruleset: Ruleset
    events: list[ev.Event] = msgspec.field(default_factory=list)
    #: A dry run stops at the first roll and reports it (``core.dice.handler.RollAhead``).
    dry_run: bool = False
    #: Where the labels of new markers come from (``Game`` keys them by its seed).
    labels: MarkerLabels = msgspec.field(default_factory=MarkerLabels)
    #: The command's dice, in order (``CommandSpec.dice``): each roll names its step of it.
    order: tuple[str, ...] = ()
    #: The steps a handler and its helpers put their rolls under (:meth:`at_step`),
    #: outermost first, over what the rolls name.
    within: tuple[str | tuple[str, ...], ...] = ()
    #: The answers given with the command (``core.log.questions``), taken as :meth:`ask` asks.
    answers: Answers = msgspec.field(default_factory=lambda: Answers(None))

    def ask(self, question: Question, *, unit: str = "", side: str = "") -> str:
        """The answer to ``question`` (one of its ``choices``): the next one given with the
        command, its default when none were given, else :class:`NeedAnswer`.  A dry run
        (the odds) takes the default, or the first choice.  ``unit``/``side``: whose it is,
        as for :meth:`roll`."""
        if self.dry_run:
            return question.default or question.choices[0]
        return self.answers.next(msgspec.structs.replace(question, domain=self.ruleset.domain), unit=unit, side=side)

    def emit(self, *events: ev.Event) -> None:
        for e in events:
            apply_one(self.state, e)
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

    def unit(self, unit_id: str) -> Unit:
        return self.state.units[unit_id]

    @property
    def is_referee(self) -> bool:
        return self.role == REFEREE


def _newly_hidden(e: ev.Event) -> str:
    """The unit ``e`` hides (added hidden, or made hidden), or ""."""
    if isinstance(e, ev.StatusChanged) and HIDDEN in e.add:
        return e.unit
    if isinstance(e, ev.UnitAdded) and HIDDEN in e.unit.status:
        return e.unit.id
    return ""


class Ruleset(ABC):
    """The contract every ruleset keeps: what it must give, what it may give.

    **Required** (a class that leaves one out cannot be made, and the
    registry refuses it): ``id``, ``name``, ``version``, ``domain``, ``phases`` (class
    attributes, :data:`REQUIRED`, checked by :func:`missing_members`) and :meth:`commands`.

    **Optional**, each with its default here and nowhere else: the variants, the
    scenarios and their file format, the turn machine's :meth:`advance`,
    :meth:`check_turn` and :meth:`sequence_step`, what the game shows of the
    ruleset's words (``terms``, ``describe_var`` …), the names its code declares
    for the tests (``statuses``, ``secret_vars``), how a scenario's break point counts
    and ends (:meth:`pieces_lost`, :meth:`end_broken`).

    **Provided** (not meant to be overridden): :meth:`phase`, :meth:`expects`,
    :meth:`can_end`, :meth:`describe_named`, :meth:`rules_map`.

    A minimal ruleset a newcomer can copy is in docs/architecture.md ("The ruleset
    interface"); the four built-ins are put together the same way: class
    attributes, ``scenarios`` read from the ``scenarios/`` folder beside the
    package, ``commands()`` = the ``scenario`` command, the ruleset's own, the
    shared referee tools (``core.rulesets.common``).
    """

    # ------------------------------------------------------------------ required

    #: The id saves record and the registry knows it by (:data:`RULESET_ID`).
    id: ClassVar[str]
    #: The ruleset's name in English, a message of its catalogue where it is not a proper
    #: name (``N_``): every place that shows it shows :meth:`shown_name`.
    name: ClassVar[str]
    #: The rulebook's version this ruleset plays (each save's header keeps it).
    version: ClassVar[str]
    #: The gettext catalogue of the book's words (``core.language.i18n.Domain``): declared
    #: here, never derived from where the code lies (``CORE_DOMAIN`` for none of its own).
    domain: ClassVar[str]
    #: The turn machine's states, ``setup`` first (a new game begins there).
    phases: ClassVar[tuple[Phase, ...]]

    @abstractmethod
    def commands(self) -> Iterable[CommandSpec]:
        """Everything a player or the referee may type, but the commands every game
        has (``next``, ``undo``, ``note`` …: ``core.game.builtins.builtin_commands``)."""

    # ------------------------------------------------------------------ optional

    #: The variants a game may be played in (``""``: the book as written).
    variants: tuple[str, ...] = ("",)
    #: Each variant but the book as written in words (a message of the ruleset's
    #: catalogue): every place that names a game's rules names its variant so, never
    #: by its id (:meth:`variant_name`, :meth:`title`).
    variant_names: Mapping[str, str] = {}
    #: The variants that are books of their own (Breaking News' Italian draft): their title
    #: names them without the version of the book as written, which is not theirs.
    own_books: frozenset[str] = frozenset()
    #: The digest of the rulebook (a file of the rules folder) its rules cite.
    rule_source: str = ""
    #: Whether a hidden unit stands on the table under a marker, which the other
    #: sides see and may name by its label (``core.log.views``).  Off when the book
    #: keeps hidden units off the table (the referee notes where they are).  A
    #: unit waiting off the table has the status ``off-table`` (no marker then).
    hidden_markers: bool = False
    #: The dice ``next`` may ask for, in order (``CommandSpec.dice`` of ``next``).
    next_dice: tuple[str, ...] = ()
    #: The words for what ``next`` does here (``CommandSpec.known_elsewhere_as`` of ``next``).
    next_known_as: tuple[str, ...] = ()
    #: The demo's two sides, by id: ``players``' example names them (help's examples parse in the demo).
    demo_sides: tuple[str, str] = ("regulars", "irregulars")
    #: The phases in which the referee may end the game with :data:`END_GAME` (the
    #: ``phases`` of the command that has it as an alias; empty: any phase; None:
    #: the ruleset has no such command).
    end_phases: tuple[str, ...] | None = None
    #: The scenarios' file format (``core.scenarios.schema.Format``): what a scenario
    #: file of this ruleset may say, checked; None for a ruleset that reads no files.
    scenario_format: Format | None = None
    #: The prefixes of the keys that end in a piece's id (``secret.dies.<piece>``), and of
    #: those whose value is a piece's id: ``describe_named`` names the piece by its name.
    piece_keys: tuple[str, ...] = ()
    piece_values: tuple[str, ...] = ()
    #: The secret variables its rules keep (``secret.deck``), declared once: a name ending
    #: in ``.`` is a family keyed by a piece's id (``secret.dies.<piece>``).  With
    #: :meth:`statuses`, ``tests/core/test_core_declared_names.py`` checks that every such
    #: name the ruleset's code writes or reads is declared, so a typo fails a test.
    secret_vars: tuple[str, ...] = ()
    #: The prefixes of the variables that name the scenario's kinds of piece, which a side
    #: reads only as such: its own pieces' classes it sees on them, the enemy's hidden
    #: ones it is not told (Linea di Tiro's ``profile.<id>``).
    referee_vars: tuple[str, ...] = ()
    #: Whether the book scores defeat points (Breaking News, §14.0).  A ruleset that does
    #: not has no ``dp`` (``core.rulesets.common.NO_DEFEAT_POINTS``) and shows them only
    #: where an older save's ``dp`` gave a side some (:meth:`shows_defeat_points`):
    #: "Defeat points 0 · 0" on every screen of a game that never counts them told its
    #: players a rule it does not have.
    defeat_points: bool = False

    def __init__(self, variant: str = "") -> None:
        missing = missing_members(type(self))
        if missing:
            raise TypeError(f"{type(self).__qualname__} does not give {', '.join(missing)}")
        if variant not in self.variants:
            raise ValueError(f"{self.name} has no variant {variant!r}; choose from {', '.join(self.variants)}")
        self.variant = variant

    @property
    def scenarios(self) -> Mapping[str, Any]:
        """The built-in scenarios by id, each a file decoded by ``scenario_format``
        (``core.rulesets.common.load_scenarios``, read when first asked for) or a
        ready table (``core.scenarios.schema.Scenario``); none by default."""
        return {}

    def advance(self, ctx: Context) -> None:
        """Close the current phase and begin the next (``next`` command)."""
        raise Refused("this ruleset has no turn sequence", rule="ENG-8")

    def check_turn(self, state: GameState, parsed: Any, role: str) -> None:
        """Refuse a side's command that is not its turn to give (the referee may always act);
        by default every command may be given at any time."""
        return None

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

    def side_offered(self, state: GameState, spec: CommandSpec, side: str, role: str) -> bool:
        """Whether completion offers ``side`` to ``role`` for ``spec``: whether its
        ``side_check`` lets it through (every side where it has none, and out of the
        command's phases, where it refuses every side alike)."""
        if spec.side_check is None or (spec.phases and state.phase not in spec.phases):
            return True
        return self.side_passes(spec.side_check, state, side, role)

    def side_passes(
        self, check: Callable[[Ruleset, GameState, str, str], None], state: GameState, side: str, role: str
    ) -> bool:
        """Whether ``check`` (a ``CommandSpec.side_check``) lets ``side`` through for ``role``."""
        try:
            check(self, state, side, role)
        except Refused:
            return False
        return True

    def setup_choices(self, scenario_id: str) -> tuple[SetupChoice, ...]:
        """What the New game screen may choose for this scenario beyond the scenario
        itself (the mission, optional rules, extras …); none by default."""
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

    def statuses(self) -> frozenset[str]:
        """Every status (badge) the ruleset's pieces may show, declared once beside its
        tables; a name ending in ``*`` is a family (``aboard-*``: aboard the vehicle its
        id names).  None by default: a ruleset declares its own."""
        return frozenset()

    def describe_var(self, key: str, value: int | str) -> str | None:
        """A ruleset counter or flag (``VarSet``) in plain words; None for the bare ``key = value``."""
        return None

    def says_var(self, key: str, value: int | str) -> bool:
        """Whether :meth:`describe_var` has words for ``key = value``; a ruleset whose words cost more
        to write than to tell (a table read for a name) tells it without writing them."""
        return self.describe_var(key, value) is not None

    def describe_secret(self, key: str, value: int | str) -> str | None:
        """A secret as it reads once opened (``secrets``, the end), where it says more than the
        line that set it (Linea di Tiro's deck: its 54 cards in order, which its shuffle's line
        does not list); None: as :meth:`describe_var` says it."""
        return None

    def class_name(self, cls: str) -> str:
        """The troop class's name for display ("R3" → "Veteran")."""
        return cls

    def dice_that_apply(self, state: GameState, spec: CommandSpec, args: Mapping[str, Any]) -> tuple[str, ...]:
        """The steps of ``spec``'s dice (``CommandSpec.dice``) that ``args``, given now, may roll: a step whose
        words name a condition ("if suppressed", "with the wounded rule") that the game before the command
        rules out is left out, so that a player hears the dice that apply.  All of them by default."""
        return spec.dice

    def weapon_name(self, weapon: str) -> str:
        """A weapon's name for display, in the reader's language ("AR" → "Assault rifle"); by default
        the weapon's id as the ruleset's words say it."""
        return Domain(self.domain).term(weapon)

    def piece_class(self, state: GameState, cls: str) -> str:
        """A piece's class as shown: as the game's own state names it (``scenario_class``), else
        its book's name for it (``class_name``)."""
        return self.scenario_class(state, cls) or self.class_name(cls)

    def scenario_class(self, state: GameState, cls: str) -> str | None:
        """The name the game's own state gives a class (a class a scenario file defines: Linea di
        Tiro's profiles); None for a book's class, the default."""
        return None

    def note_for_a_side(self, text: Text) -> Text:
        """A note as a side or a spectator reads it: a note may name the referee's command
        (the save keeps it as it was recorded); by default the note itself."""
        return text

    def note_for_the_referee(self, text: Text) -> Text:
        """A note as the referee reads it: a command it names in the reader's words where
        the save keeps a value by its id; by default the note itself."""
        return text

    def status_words(self, status: str, name: Callable[[str], str]) -> str:
        """A status (badge) in the log's words; ``name`` names a piece by its id, for a
        badge that holds one (Bassa Intensità's ``aboard-<vehicle>``)."""
        return Domain(self.domain).term(status)

    def success_hurts_unit(self, roll: ev.Roll) -> bool:
        """Whether a success of ``roll`` is bad for the side of the unit it names (a
        roll whether a vehicle's armour is penetrated): the after-action report then
        counts its luck for the other side.  By default a success is the unit's own."""
        return False

    def options_in_force(self, state: GameState) -> list[tuple[str, str]] | None:
        """The optional rules the game is played with, each as its section and in words (the
        reader's language): what the game screen and the report name; None for a ruleset
        that has no optional rules."""
        return None

    def sequence_step(self, state: GameState) -> tuple[object, ...]:
        """The step of the sequence of play ``state`` stands at, as the after-action
        report's re-rolls match a game's orders to a re-rolled game
        (``core/report/reroll.py``): the orders given the n-th time the game came to a step
        are given when a re-rolled game comes to that step the n-th time.  By default the
        turn, the phase and the side it is ``active`` for (or the card's side); a ruleset
        whose dice decide which side acts when names each side's stretch of play so that
        the side's orders come when that side acts in the re-rolled game (Breaking News: a
        side's turns as the Active Player, whatever turn it wins the initiative in)."""
        phase = self.phase(state.phase)
        acting = phase is not None and phase.actor in ACTING
        return (state.turn, state.phase, state.active_side if acting else "")

    def pieces_lost(self, state: GameState, side: str) -> tuple[int, int]:
        """How many of ``side``'s pieces it has lost, and of how many, as its scenario's break
        point counts them (``core.scenarios.breaking``): by default every piece of the side,
        lost once out of action."""
        pieces = state.units_of(side)
        return sum(1 for u in pieces if u.out), len(pieces)

    def end_broken(self, ctx: Context, losers: tuple[str, ...], why: Text) -> None:
        """End the game: ``losers`` reached the scenario's break point (``why``): the other
        side wins, or none if every side did; by default the end fact at once, each side's
        score its pieces lost (ruling CORE-BREAK-AT, CORE-RESULT-DATA)."""
        from core.scenarios.breaking import standing  # (not at import: a client's start reads no scenario module)

        s, winner = ctx.state, standing(ctx.state, losers)
        scores = {side: self.pieces_lost(s, side)[0] for side in s.sides}
        ctx.emit(ev.GameEnded(result=why, winner=winner, draw=not winner, scores=scores))

    # ------------------------------------------------------------------ provided

    def phase(self, phase_id: str) -> Phase | None:
        for p in self.phases:
            if p.id == phase_id:
                return p
        return None

    def variant_name(self, variant: str | None = None) -> str:
        """``variant`` (the game's own by default) in words, in the reader's language:
        "" for the book as written, its id only where the ruleset gives it no name."""
        variant = self.variant if variant is None else variant
        if not variant:
            return ""
        name = self.variant_names.get(variant)
        return Domain(self.domain).gettext(name) if name else variant

    def shown_name(self) -> str:
        """The ruleset's name in the reader's language (a proper name, as Linea di Tiro, is
        its catalogue's as it is)."""
        return Domain(self.domain).gettext(self.name)

    def title(self, version: str = "", variant: str | None = None, *, versioned: bool = True) -> str:
        """The rules a game is played by, in words: ``Breaking News 1.5.1``, and its
        variant where it has one (``Breaking News 1.5.1, optional rules``; a book of its
        own without the version: ``Breaking News, Italian draft of 9 December 2009``);
        ``version``: the one a save records, if not this ruleset's; without it where not
        ``versioned`` (a list of games: ``Breaking News, Italian draft …``)."""
        variant = self.variant if variant is None else variant
        versioned = versioned and variant not in self.own_books
        name = self.shown_name()
        named = f"{name} {version or self.version}" if versioned else name
        said = self.variant_name(variant)
        return _("{rules}, {variant}").format(rules=named, variant=said) if said else named

    def expects(self, state: GameState) -> Text:
        """What the phase waits for, in the ruleset's words (a message of its catalogue)."""
        p = self.phase(state.phase)
        return p.expects if p else ""

    def can_end(self, state: GameState) -> bool:
        """Whether the referee may end the game now with :data:`END_GAME`: once set up, until it ended."""
        phases = self.end_phases
        if phases is None or state.phase == "setup" or state.result:
            return False
        return not phases or state.phase in phases

    def describe_named(self, state: GameState, key: str, value: int | str) -> str | None:
        """``describe_var`` with the pieces the key and value name by id (``piece_keys``,
        ``piece_values``) named as the players know them: the phrases only show them."""
        key, value = self._named(state, key, value)
        said = self.describe_var(key, value)
        return said if said is not None else scenario_fact(state, key, value)

    def has_words(self, state: GameState, key: str, value: int | str) -> bool:
        """Whether :meth:`describe_named` has words for ``key = value``, told without writing them
        (``says_var``): the log pane asks it of every variable of a game it draws (``Reading.inner``)."""
        key, value = self._named(state, key, value)
        return self.says_var(key, value) or scenario_fact(state, key, value) is not None

    def _named(self, state: GameState, key: str, value: int | str) -> tuple[str, int | str]:
        units = state.units
        for prefix in self.piece_keys:
            uid = key.removeprefix(prefix)
            if key.startswith(prefix) and uid in units:
                key = prefix + scenario_words(units[uid].name)  # a piece named in words, read so
                break
        if isinstance(value, str) and value in units and key.startswith(self.piece_values):
            value = scenario_words(units[value].name)
        return key, value

    def shows_defeat_points(self, state: GameState) -> bool:
        """Whether the sides' defeat points are shown: where the book scores them
        (:attr:`defeat_points`), or where a save recorded some (a referee's ``dp`` before #61)."""
        return self.defeat_points or any(side.defeat_points or side.dp_by_category for side in state.sides.values())

    def rules_map(self) -> RulesMap | None:
        """The ruleset's rules map (``core.explain.rulesmap``): ``data/rules_map.toml`` beside its
        package's tables, read once; None for a ruleset that has none."""
        return _rules_map(Path(sys.modules[type(self).__module__].__file__ or "").parent / "data" / "rules_map.toml")


#: The class attributes every ruleset must set (:class:`Ruleset`, "Required").
REQUIRED = ("domain", "id", "name", "phases", "version")


def missing_members(cls: type[Ruleset]) -> list[str]:
    """What ``cls`` leaves out of what every ruleset must give, in alphabetical order:
    its abstract methods, and the required class attributes it does not set."""
    unset = [name for name in REQUIRED if getattr(cls, name, None) is None]
    return sorted([*getattr(cls, "__abstractmethods__", ()), *unset])


@cache
def _rules_map(path: Path) -> RulesMap | None:
    from core.explain.rulesmap import load  # only the rules screen and `fireteam rules` read a map

    return load(path) if path.is_file() else None


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
