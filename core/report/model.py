"""The facts a report is made of, as ``role`` saw them (``facts.collect`` fills them in)."""

from __future__ import annotations

from dataclasses import dataclass, field

from core.language.i18n import CORE_DOMAIN, Names
from core.log import events as ev


@dataclass(frozen=True)
class SideFacts:
    id: str
    name: str
    army: str = ""


@dataclass
class UnitFacts:
    """A unit as the reader knows it: named by a fact he saw, and its fate as he saw it."""

    id: str
    name: str
    side: str
    kind: str = ""
    cls: str = ""
    #: Why it is out of action at the end of the report ("" in play), as far as the reader saw.
    out: str = ""
    out_turn: int = 0
    #: Whether it was on the table once play began (a reserve that never entered was not),
    #: and whether it is off the table at the end (gone, or never come).
    came_on: bool = True
    off_table: bool = False


@dataclass(frozen=True)
class Loss:
    unit: str  # its name
    side: str  # its side's id
    cause: str


@dataclass(frozen=True)
class Points:
    side: str
    points: int
    reason: str


@dataclass(frozen=True)
class RollFact:
    """A roll the reader saw, with the side a success of it was good for ("" if no side's)."""

    turn: int
    side: str
    unit: str  # the unit's name ("" if none)
    roll: ev.Roll


@dataclass
class TurnFacts:
    """One turn (turn 0: set-up and deployment)."""

    turn: int
    active: list[str] = field(default_factory=list)  # side ids, in the order they became active
    cards: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # the narration: `note` commands
    spotted: list[tuple[str, str]] = field(default_factory=list)  # (unit name, side id that spotted it)
    losses: list[Loss] = field(default_factory=list)
    returns: list[Loss] = field(default_factory=list)
    points: list[Points] = field(default_factory=list)
    #: each secret revealed: its key, its value, and what it was in the ruleset's words
    revealed: list[tuple[str, str, str]] = field(default_factory=list)
    rolls: list[RollFact] = field(default_factory=list)
    result: str = ""


@dataclass(frozen=True)
class Moment:
    """One of the commands that moved the balance most: ``change`` is each side's
    score change (defeat points or losses: more is worse) that the command brought."""

    turn: int
    command: str  # "" when its text is hidden from the reader
    change: dict[str, int]
    favours: str  # the side that came out of it best
    swing: int  # the spread between the sides' changes
    facts: tuple[str, ...]  # what happened, in words


@dataclass(frozen=True)
class Origin:
    """Where a forked save (a what-if) left its original (``Header.parent``)."""

    path: str
    sha256: str
    step: int


@dataclass
class Facts:
    ruleset: str
    ruleset_version: str
    scenario: str
    role: str
    sides: list[SideFacts]
    units: list[UnitFacts]
    turns: list[TurnFacts]
    #: "defeat points" when the game scores them, else "losses" (both: more is worse).
    score_name: str
    #: Each side's score at the end of each turn (cumulative), turn by turn as ``turns``.
    score_by_turn: dict[str, list[int]]
    losses_by_turn: dict[str, list[int]]
    moments: list[Moment]
    #: The result as every reader is told it: who won and the scores from the end's data,
    #: then its words (``core.log.ending``); "" while the game goes on.
    result: str
    step: int
    steps: int
    origin: Origin | None = None
    #: The catalogue of the ruleset's words (``Ruleset.domain``): the rolls' purposes.
    domain: str = CORE_DOMAIN
    #: The rules as the game was played by, in words, its variant too (``Ruleset.title``):
    #: "Breaking News, Italian draft of 9 December 2009".
    rules: str = ""
    #: The optional rules in force, in words (``Ruleset.options_in_force``); None where the
    #: ruleset has none.
    options: list[str] | None = None
    #: The result as data (``GameEnded``): the winning side's id, or a draw; neither while
    #: the game goes on or where its save is from before them (ruling CORE-RESULT-DATA).
    winner: str = ""
    draw: bool = False

    def names(self) -> Names:
        """The sides and pieces the report knows, by their names (``core.language.i18n.naming``)."""
        return Names({s.id: s.name for s in self.sides}, {u.id: u.name for u in self.units})

    def side_name(self, side: str) -> str:
        for s in self.sides:
            if s.id == side:
                return s.name
        return side
