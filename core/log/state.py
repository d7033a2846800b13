"""The state of a game, and the fold that builds it from events.

State is a pure function of the effective events: ``fold(events, start)``
returns a new state and never changes ``start``.  Inside, one private copy is
updated in place, which is what makes folding a million events cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from itertools import compress
from typing import Any

import msgspec

from core.language.i18n import Text
from core.log import events as ev

#: The status of a piece its own side (and the referee, and any side that spotted it) may
#: see, and no one else (docs/rulings.md CORE-HIDDEN): the one status the core reads itself.
HIDDEN = "hidden"
#: The start of the key of a variable only the referee sees (a hidden piece's bookkeeping,
#: a ruleset's ``secret_vars``): no side's view holds one.
SECRET_VARS = "secret."
#: The variable holding a game's sealed dice key (hex; ``core.dice.faces.SealedDice``): a
#: referee's secret, committed as every secret is, opened at the end.
DICE_KEY = SECRET_VARS + "dice"
#: The variable saying whether the players roll real dice and type their faces: "on" or
#: "off", set by the referee's ``table-dice`` for the whole table (docs/ssh.md, *Table
#: dice*). A fact of the log, so every seat of a served table reads it from the save.
TABLE_DICE = "table-dice"
#: The start of the key of a side's sealed order (``seal``, ``core.game``): ``order.SIDE.N``, the
#: side's N-th.  Its commitment is public (``core.secrets.commitments``): that it exists is what
#: the other sides may know of it.
SEALED_ORDERS = "order."


class Unit(msgspec.Struct, omit_defaults=True):
    id: str
    name: str
    side: str
    team: str = ""
    kind: str = "man"
    cls: str = ""
    weapons: tuple[str, ...] = ()
    leadership: int = 0
    roles: tuple[str, ...] = ()
    #: Sorted status badges: hidden, suppressed, wounded, down, retreating, ...
    status: tuple[str, ...] = ()
    #: Sides (other than its own) that have spotted this unit while hidden.
    spotted_by: tuple[str, ...] = ()
    #: How far it moved this turn: an int, or a Decimal once a move had a fraction.
    moved_cm: int | Decimal = 0
    #: Why it is out of action (the ``UnitOut`` words, core.language.i18n.Text); "" while in play.
    out: Text = ""
    #: The scenario's numbers for this piece (see ``UnitSpec.stats``).
    stats: dict[str, int] = msgspec.field(default_factory=dict)
    #: The label of its marker while it is hidden on the table (``MarkerPlaced``).
    marker: str = ""

    @property
    def in_play(self) -> bool:
        return not self.out

    def has(self, status: str) -> bool:
        return status in self.status


class Side(msgspec.Struct, omit_defaults=True):
    id: str
    name: str
    army: str = ""
    defeat_points: int = 0
    #: Defeat points by category (the journalist multipliers apply per category).
    #: Kept as totals, not a list, so the state stays the same size all game long.
    dp_by_category: dict[str, int] = msgspec.field(default_factory=dict)


class Secret(msgspec.Struct, omit_defaults=True):
    owner: str
    value: str
    revealed: bool = False
    #: The salt of its commitment (core.secrets.commitments); "" in older saves.
    salt: str = ""


class GameState(msgspec.Struct, omit_defaults=True):
    scenario: str = ""
    turn: int = 0
    phase: str = "setup"
    active_side: str = ""
    reacting_side: str = ""
    card: str = ""
    sides: dict[str, Side] = msgspec.field(default_factory=dict)
    units: dict[str, Unit] = msgspec.field(default_factory=dict)
    secrets: dict[str, Secret] = msgspec.field(default_factory=dict)
    vars: dict[str, Any] = msgspec.field(default_factory=dict)
    #: The scenario file's own words in other languages (``GameSetUp.words``).
    words: dict[str, dict[str, str]] = msgspec.field(default_factory=dict)
    #: How the game ended (the ``GameEnded`` words, core.language.i18n.Text).
    result: Text = ""
    #: The result as data (``GameEnded``): the winning side's id, or ``draw``; neither
    #: while the game goes on, or where its save is from before them (words only).
    winner: str = ""
    draw: bool = False
    #: Each side's score at the end, as its ruleset counts it (docs/rulings.md).
    scores: dict[str, int] = msgspec.field(default_factory=dict)
    #: In a side's or the spectator's view only: the labels of the markers on the
    #: table whose units it may not see, in label order (``core.log.views``).
    markers: tuple[str, ...] = ()
    #: How many effective events this state is the fold of.
    event_count: int = 0

    def units_of(self, side: str) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side]

    def side_name(self, side: str) -> str:
        """A side as its players know it: its name (its id where there is no such side)."""
        found = self.sides.get(side)
        return found.name if found else side

    def other_side(self, side: str) -> str:
        for s in self.sides:
            if s != side:
                return s
        return ""


_state_encoder = msgspec.msgpack.Encoder()
_state_decoder = msgspec.msgpack.Decoder(GameState)


def copy_state(state: GameState) -> GameState:
    """A deep copy, made field by field: each unit, side and secret (the structs the fold
    changes in place) and their dicts are the copy's own; what is never changed in place
    (strings, numbers, tuples, the frozen words of ``out`` and ``result``, the ``scores`` an end
    sets whole) is shared.
    Twice as fast as a msgpack round trip, which also ran every message's checks again
    (``Msg.__post_init__``) on words already checked when made: a handler works on a
    copy of the table, and a re-rolled game makes tens of them (issue #62)."""
    replace = msgspec.structs.replace
    return replace(
        state,
        sides={k: replace(s, dp_by_category=s.dp_by_category.copy()) for k, s in state.sides.items()},
        units={k: replace(u, stats=u.stats.copy()) for k, u in state.units.items()},
        secrets={k: replace(s) for k, s in state.secrets.items()},
        vars=state.vars.copy() if _SHARED.issuperset(map(type, state.vars.values())) else _copy_value(state.vars),
    )


#: The types of variable values a copy may share: never changed in place.
_SHARED = frozenset({int, str, bool, float, Decimal, type(None)})


def _copy_value(value: Any) -> Any:
    """A variable's value as its own (a ``VarSet`` sets a number or a string; a state read
    from elsewhere may hold lists and dicts)."""
    if isinstance(value, dict):
        return {k: _copy_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_value(v) for v in value]
    return value


def encode_state(state: GameState) -> bytes:
    return _state_encoder.encode(state)


def decode_state(data: bytes) -> GameState:
    return _state_decoder.decode(data)


# ---------------------------------------------------------------------------- fold


def _sorted_union(old: tuple[str, ...], add: tuple[str, ...], remove: tuple[str, ...]) -> tuple[str, ...]:
    badges = {*old, *add}  # one set, not three (a status change is one fact in thirty of a game)
    if remove:
        badges.difference_update(remove)
    return tuple(sorted(badges))


def _setup(s: GameState, e: ev.GameSetUp) -> None:
    s.scenario = e.scenario
    s.words = {language: dict(said) for language, said in e.words.items()}
    for spec in e.sides:
        s.sides[spec.id] = Side(spec.id, spec.name, spec.army)


def _unit(s: GameState, e: ev.UnitAdded) -> None:
    u = e.unit
    s.units[u.id] = Unit(
        u.id,
        u.name,
        u.side,
        u.team,
        u.kind,
        u.cls,
        u.weapons,
        u.leadership,
        u.roles,
        tuple(sorted(u.status)),
        stats=dict(u.stats),
    )


def _phase(s: GameState, e: ev.PhaseBegan) -> None:
    if e.turn != s.turn:
        for u in s.units.values():
            u.moved_cm = 0
    s.turn, s.phase, s.active_side, s.reacting_side, s.card = e.turn, e.phase, e.active, e.reacting, e.card


def _move(s: GameState, e: ev.Moved) -> None:
    u = s.units[e.unit]
    if type(e.cm) is int and type(u.moved_cm) is int:  # the usual case, and most of a long game's fold
        u.moved_cm += e.cm
        return
    total = u.moved_cm + (Decimal(e.cm) if isinstance(e.cm, str) else e.cm)
    u.moved_cm = int(total) if total == int(total) else total


def _status(s: GameState, e: ev.StatusChanged) -> None:
    u = s.units[e.unit]
    u.status = _sorted_union(u.status, e.add, e.remove)
    if HIDDEN in e.add:
        u.spotted_by = ()
    if HIDDEN in e.remove:
        u.marker = ""  # the marker is lifted: the unit stands there for all to see


def _marker(s: GameState, e: ev.MarkerPlaced) -> None:
    s.units[e.unit].marker = e.label


def _spot(s: GameState, e: ev.Spotted) -> None:
    u = s.units[e.unit]
    if e.by_side not in u.spotted_by:
        u.spotted_by = (*u.spotted_by, e.by_side)


def _out(s: GameState, e: ev.UnitOut) -> None:
    s.units[e.unit].out = e.cause


def _back(s: GameState, e: ev.UnitBack) -> None:
    s.units[e.unit].out = ""


def _dp(s: GameState, e: ev.DefeatPoints) -> None:
    side = s.sides[e.side]
    side.defeat_points += e.points
    key = e.category or "other"
    side.dp_by_category[key] = side.dp_by_category.get(key, 0) + e.points


def _secret(s: GameState, e: ev.SecretSet) -> None:
    s.secrets[e.key] = Secret(e.owner, e.value, salt=e.salt)


def _reveal(s: GameState, e: ev.Revealed) -> None:
    s.secrets[e.key].revealed = True


def table_dice(state: GameState) -> bool:
    """Whether the table rolls real dice (its referee's ``table-dice on``)."""
    return state.vars.get(TABLE_DICE) == "on"


def team_morale(state: GameState, side: str, team: str) -> object:
    """A ruleset's morale state for a team, if it keeps one in ``vars`` (the roster shows it)."""
    for key in (f"morale.{side}.{team}", f"morale.{team}"):
        if key in state.vars:
            return state.vars[key]
    return None


def _var(s: GameState, e: ev.VarSet) -> None:
    s.vars[e.key] = e.value


def _end(s: GameState, e: ev.GameEnded) -> None:
    s.result = e.result
    s.phase = "ended"
    # What a save says is read as far as it agrees with itself: a winner that is no side,
    # or a winner beside a draw, is no result known as data (the words still stand).
    known = e.winner in s.sides and not e.draw
    s.winner, s.draw = (e.winner if known else ""), (e.draw and not e.winner)
    s.scores = {side: points for side, points in e.scores.items() if side in s.sides}


def _nothing(s: GameState, e: ev.Event) -> None:
    pass


#: Each event type's fold rule (a rule takes its own type of event: ``Any`` here).
_APPLY: dict[type[ev.Event], Callable[[GameState, Any], None]] = {
    ev.Issued: _nothing,
    ev.Undone: _nothing,
    ev.Redone: _nothing,
    ev.Rolled: _nothing,  # rolls live in the log; their effects are separate facts
    ev.SealedRoll: _nothing,
    ev.BoundRoll: _nothing,
    ev.SharedRoll: _nothing,
    ev.GameSetUp: _setup,
    ev.UnitAdded: _unit,
    ev.PhaseBegan: _phase,
    ev.Moved: _move,
    ev.StatusChanged: _status,
    ev.MarkerPlaced: _marker,
    ev.Spotted: _spot,
    ev.UnitOut: _out,
    ev.UnitBack: _back,
    ev.DefeatPoints: _dp,
    ev.SecretSet: _secret,
    ev.Revealed: _reveal,
    ev.Committed: _nothing,  # the proof lives in the log (core.secrets.commitments)
    ev.Opened: _nothing,
    ev.VarSet: _var,
    ev.Noted: _nothing,
    ev.Seated: _nothing,  # who sits where: the log's (``Reading.players``), no piece of the table
    ev.ScenarioRead: _nothing,
    ev.GameEnded: _end,
    ev.Confirmed: _nothing,  # a player's word on the result: the log's (``core.league.confirming``)
}
assert set(_APPLY) == set(ev.EVENT_TYPES), "every event type needs a fold rule"


#: The event types that change the state (the rest only live in the log).
CHANGING: frozenset[type[ev.Event]] = frozenset(t for t, rule in _APPLY.items() if rule is not _nothing)
_acts = CHANGING.__contains__


def apply_in_place(state: GameState, events: list[ev.Event] | tuple[ev.Event, ...]) -> GameState:
    """Fold ``events`` into ``state`` itself.  Only for states the caller owns."""
    table = _APPLY
    # The events that do nothing (commands, rolls...: most of a game) are passed
    # over in C, not called one by one.
    for e in compress(events, map(_acts, map(type, events))):
        table[type(e)](state, e)
    state.event_count += len(events)
    return state


def apply_one(state: GameState, event: ev.Event) -> GameState:
    """Fold one event into ``state`` itself, as :func:`apply_in_place` does: for a handler's
    context, which folds each fact as it is emitted (a re-rolled game emits thousands)."""
    _APPLY[type(event)](state, event)
    state.event_count += 1
    return state


def apply_picked(state: GameState, events: list[ev.Event], picked: bytes | bytearray, count: int) -> GameState:
    """Fold into ``state`` itself the events ``events[i]`` whose ``picked[i]`` is 1,
    which stand for ``count`` events: those of a type in ``CHANGING`` among them.

    For a fold that picked them by what it knows of each event (``core.log.replay``: the
    store keeps a byte for each event's kind), so no look at each event's type is
    needed to pass over those that do nothing, nor a list of the rest."""
    table = _APPLY
    for e in compress(events, picked):
        table[type(e)](state, e)
    state.event_count += count
    return state


def fold(events: list[ev.Event] | tuple[ev.Event, ...], start: GameState | None = None) -> GameState:
    """The state after ``events``, starting from ``start`` (or an empty game)."""
    state = GameState() if start is None else copy_state(start)
    return apply_in_place(state, events)
