"""Luck you can measure: the game's own orders played again with fresh dice, many times.

Each re-rolled game starts from the table at a step (the start, or where a what-if
left its original) and gives the game's later orders as they were given, by the
role that gave them (a seat's command as its side's), with new dice: seeded from
the re-rolls' own seed and the game's number among them, so the same seed gives the
same re-rolls.  Typed dice are not kept: the dice are what is re-rolled.

**When each order is given.**  New dice change who acts when: who deploys first,
who has the initiative, whose card comes up.  So the orders are not given in the
game's sequence but in the re-rolled game's own.  Each order was given at a step of
the sequence of play, which the ruleset names from the state it was given in
(``Ruleset.sequence_step``: by default the turn, the phase and the side it is
active for; Breaking News: a side's turns as the Active Player; Linea di Tiro: a
side's cards of each kind), and the n-th time the game had come to that step: the
*stretch* it belongs to, read from the game's history by folding it command by
command.  A re-rolled game, whenever it stands at a stretch, gives that stretch's
orders in the game's order; once they are all given (the ``next`` that closed the
stretch is its last order) and the game still stands there, the referee moves it on
with a ``next`` of his own, as he would for a stretch the real game never had (the
side that won an initiative it lost).  A reaction is given in the stretch of the
activation it answered; the end of a Breaking News turn with the turn it ends.

**The referee's ending.**  An ``end-game`` (``core.ruleset.END_GAME``: a ruling that ended
the game where it stood) belongs to its place in the game, the turn and phase it was given
in, not to a side's stretch: a re-rolled game is ended there, whoever is acting, before
any order that would take it past that place (rulings CORE-REROLL).  A re-rolled game that
comes past the place without standing at it is ended as soon as it does.

**Orders that cannot be given.**  An order refused in its stretch (its piece is out
of action, its target gone, its test no longer due) is skipped with the words of its
refusal.  An order whose stretch never comes (a side won fewer initiatives, a card
never came up, the game ended sooner) is skipped saying so, but a ``next``: it had
nothing to close, and is not counted.  A re-rolled game goes
no further than the turn the game ended in, and stops where the referee's ``next``
is refused (a deployment left unfinished): the orders left are skipped with why.

Each re-rolled game is scored as the report scores the real one (``score_of``:
defeat points when the game scores them, else pieces lost; more is worse), and the
side with the lowest score wins it.  Nothing is written: the orders are resolved on
a working copy of the state, with the rules' own handlers, and folded as a game
folds them.
"""

from __future__ import annotations

import random
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import msgspec

from core.commands import Parsed, parse
from core.dice.faces import Dice, NeedDice, SeededDice
from core.dice.handler import RollAhead
from core.game import SEAL_DICE, Game
from core.language.i18n import Domain, _
from core.language.reader import lang
from core.log import events as ev
from core.log.state import HIDDEN, GameState, apply_in_place, copy_state
from core.log.views import OFF_TABLE, REFEREE, MarkerLabels
from core.refusal import TYPING, Refused
from core.ruleset import END_GAME, CommandSpec, Context, Ruleset

#: Re-rolls a report makes by default, and the most it will make.
DEFAULT_REROLLS = 1000
MAX_REROLLS = 100_000
DRAW = ""


@dataclass(frozen=True)
class Order:
    cmd: int
    text: str
    role: str
    #: The stretch of play it was given in: the step (``Ruleset.sequence_step``) and
    #: the how-manieth time the game had come to that step (1 the first time).
    stretch: tuple = ()
    #: The turn, phase and active side it was given in, as a skip's words say them.
    turn: int = 0
    phase: str = ""
    active: str = ""
    #: Whether it is ``next``, which moves the game on: one whose stretch never came had
    #: nothing to close, and is not counted as skipped.
    moves_on: bool = False
    #: Whether it is the referee's ending (``END_GAME``) that ended the game: given at its
    #: place (its turn and phase), not in its stretch.
    ends: bool = False


@dataclass(frozen=True)
class Plan:
    """A game's orders to give again, from the state at the step the re-rolls start from."""

    start: GameState
    orders: tuple[Order, ...]
    #: The turn the game ended in: a re-rolled game goes no further.
    last_turn: int
    #: Each stretch's orders, in the game's order (but the ending).
    by_stretch: dict[tuple, list[Order]]
    #: The referee's ending, given at its place (``Order.ends``), if the game had one.
    ending: Order | None = None


#: The order a referee moves a re-rolled game on with, where the game gave none.
MOVE_ON = Order(0, "next", REFEREE)


@dataclass
class Rerolled:
    """One game played again: each side's score at its end, and the orders skipped."""

    scores: dict[str, int]
    skipped: list[tuple[str, str]] = field(default_factory=list)

    @property
    def winner(self) -> str:
        return winner_of(self.scores)


@dataclass
class Rerolls:
    """What ``count`` re-rolled games gave, beside the real one."""

    seed: int
    start: int  # the step they started from
    score_name: str
    sides: list[str]
    real: dict[str, int]
    games: list[Rerolled]
    seconds: float = 0.0
    #: The processor time they took: on a machine shared with other work, what they cost.
    cpu_seconds: float = 0.0

    @property
    def count(self) -> int:
        return len(self.games)

    def wins(self) -> Counter[str]:
        """How many re-rolled games each side won (``DRAW``: no side had the lowest score)."""
        return Counter(g.winner for g in self.games)

    def margin(self, side: str, scores: dict[str, int]) -> int:
        """How far ``side`` came out ahead (the best other score less its own; more is better)."""
        others = [v for s, v in scores.items() if s != side]
        return (min(others) if others else 0) - scores.get(side, 0)

    def mean_win_margin(self, side: str) -> float:
        won = [self.margin(side, g.scores) for g in self.games if g.winner == side]
        return sum(won) / len(won) if won else 0.0

    def better_than_real(self, side: str) -> float:
        """The share of re-rolled games in which ``side`` came out better than it really did:
        "this game's dice were worse than that share of them" for ``side``."""
        real = self.margin(side, self.real)
        return sum(1 for g in self.games if self.margin(side, g.scores) > real) / max(1, self.count)

    def skipped(self) -> Counter[str]:
        """Each order skipped, by how many re-rolled games skipped it."""
        return Counter(text for g in self.games for text in dict(g.skipped))

    def why_skipped(self, text: str) -> str:
        """The words most re-rolled games skipped the order ``text`` with."""
        said = Counter(why for g in self.games for order, why in g.skipped if order == text)
        return said.most_common(1)[0][0] if said else ""

    def mean_skipped(self) -> float:
        return sum(len(g.skipped) for g in self.games) / max(1, self.count)


def winner_of(scores: dict[str, int]) -> str:
    if not scores:
        return DRAW
    best = min(scores.values())
    lowest = [s for s, v in scores.items() if v == best]
    return lowest[0] if len(lowest) == 1 else DRAW


def recorded_winner(state: GameState) -> str | None:
    """The side the game's recorded end names as its winner (``GameEnded.winner``), ``DRAW``
    for a draw: a referee's ruling included; None while the game is under way, or for a save
    from before the end held its result as data (its words only)."""
    if state.winner:
        return state.winner
    return DRAW if state.draw else None


def score_kind(events: Iterable[ev.Event]) -> str:
    """The report's score: "defeat points" when the game scores them, else "losses"."""
    return "defeat points" if any(type(e) is ev.DefeatPoints for e in events) else "losses"


def score_of(events: Iterable[ev.Event], state: GameState, kind: str) -> dict[str, int]:
    """Each side's score after ``events`` (a side's defeat points, or its pieces out of action)."""
    scores = dict.fromkeys(state.sides, 0)
    if kind == "defeat points":
        for e in events:
            if type(e) is ev.DefeatPoints:
                scores[e.side] = scores.get(e.side, 0) + e.points
        return scores
    for u in state.units.values():
        if u.out:
            scores[u.side] = scores.get(u.side, 0) + 1
    return scores


def plan(game: Game, start: int = 0) -> Plan:
    """The effective commands after step ``start``, as given (``dice-key`` is no order), each
    with the stretch of play it was given in: the game's history folded command by command."""
    history, ruleset = game.history, game.ruleset
    first = game.timeline.state_at(start)
    state = copy_state(first)
    stretches, parses = Stretches(ruleset), Parses(game)
    out, step = [], 0
    for cmd in history.eff_cmds:
        begins = step
        step += history.group_end[cmd] - history.group_start[cmd]
        if begins < start:
            continue
        issued = history.issued(cmd)
        if issued.text != SEAL_DICE:
            at, spec = stretches.at(state), _spec(parses, issued, state)
            moves_on = spec is not None and spec.name == MOVE_ON.text
            ends = spec is not None and END_GAME in (spec.name, *spec.aliases)
            ends = ends and any(type(e) is ev.GameEnded for e in history.group(cmd))
            where = (state.turn, state.phase, state.active_side)
            out.append(Order(cmd, issued.text, issued.acting, at, *where, moves_on=moves_on, ends=ends))
        apply_in_place(state, history.group(cmd))
    by_stretch: dict[tuple, list[Order]] = {}
    for order in out:
        if not order.ends:
            by_stretch.setdefault(order.stretch, []).append(order)
    ending = next((order for order in out if order.ends), None)
    return Plan(first, tuple(out), state.turn, by_stretch, ending)


def _spec(parses: Parses, issued: ev.Issued, state: GameState) -> CommandSpec | None:
    """The command ``issued`` was on ``state`` (None if it does not parse there now)."""
    role = issued.acting if issued.acting in state.sides else REFEREE
    try:
        return parses.parse(Order(issued.cmd, issued.text, role), state, role).spec
    except Refused:
        return None


class Stretches:
    """Where a game stands in its sequence of play, read state by state as it goes on:
    its step (``Ruleset.sequence_step``) and the how-manieth time it came to that step.
    It comes to a step anew when the step changes or a new turn begins (a Linea di Tiro
    card: the same side's second number card in a row is a step of its own)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self._step_of = ruleset.sequence_step
        self._came: Counter[tuple] = Counter()
        self._where: tuple | None = None
        self._at: tuple = ()

    def at(self, state: GameState) -> tuple:
        step = self._step_of(state)
        where = (step, state.turn)
        if where != self._where:
            self._where = where
            self._came[step] += 1
            self._at = (step, self._came[step])
        return self._at


class _Fresh(SeededDice):
    """One re-rolled game's dice, rolled as the game's own (``SeededDice``) from a stream of its own:
    the re-rolls' seed and its number."""

    def __init__(self, seed: int, game: int) -> None:
        self._rng = random.Random(f"fireteam-reroll:{seed}:{game}")


class Parses:
    """Each order parsed once for every table it is given at that parse reads alike.

    ``core.commands.parse`` reads of the state only the sides and, of each unit, its id,
    name, side, team, whether the role sees it and the label of the marker over it (and
    the phase, for the commands a refusal suggests); the same line from the same role
    on a table alike in those parses to the same command, or is refused in the same
    words.  Re-rolled games give the same orders on tables that mostly differ in
    wounds and statuses, so most parses are one look-up: the re-rolls' time was
    three-fifths parsing.  Kept for one :func:`reroll` (nothing on disk).
    """

    def __init__(self, game: Game) -> None:
        self._game = game
        self._known: dict[tuple, Parsed | str] = {}
        #: Each table as parse reads it (``_what_parse_reads``), by a number of its own.
        self._tables: dict[tuple, int] = {}

    def table(self, state: GameState, role: str) -> int:
        """The number of ``state`` as ``role``'s parse reads it (alike tables, one number)."""
        return self._tables.setdefault(_what_parse_reads(state, role), len(self._tables))

    def parse(self, order: Order, state: GameState, role: str, table: int | None = None) -> Parsed:
        """``order`` as ``role`` gives it on ``state``, or Refused as ``parse`` would refuse it;
        ``table``: ``self.table(state, role)`` where the caller knows it (:class:`Reads`)."""
        key = (order.text, role, state.phase, lang(), self.table(state, role) if table is None else table)
        known = self._known.get(key)
        if known is None:
            game, ruleset = self._game, self._game.ruleset
            phase = ruleset.phase(state.phase)
            try:
                known = parse(order.text, game.commands, state, role, ruleset.domain, phase.commands if phase else ())
            except Refused as e:
                known = str(e)
            self._known[key] = known
        if isinstance(known, str):
            raise Refused(known, rule=TYPING)
        # A handler gets arguments of its own, as from a parse of its own.
        args = {k: list(v) if isinstance(v, list) else v for k, v in known.args.items()}
        return msgspec.structs.replace(known, args=args)


def _what_parse_reads(state: GameState, role: str) -> tuple:
    """The sides, and each unit's id, name, side, team, whether ``role`` sees it
    (``views.unit_visible``) and the label of the marker it stands under
    (``views.on_the_table_as_marker``): written out here, as this runs for every order."""
    referee = role == REFEREE
    return (
        tuple(state.sides),
        tuple(
            (
                u.id,
                u.name,
                u.side,
                u.team,
                referee or u.side == role or HIDDEN not in u.status or role in u.spotted_by,
                u.marker if u.marker and HIDDEN in u.status and OFF_TABLE not in u.status and u.in_play else "",
            )
            for u in state.units.values()
        ),
    )


#: The facts that can change what ``parse`` reads of a table (``_what_parse_reads``): a
#: unit added or put out of action or back, a marker put down, a unit spotted; and a
#: status change that hides or shows a unit or takes it off the table or back
#: (``_SHOWN``: any other status leaves it as it was).
_CHANGE_READS = frozenset({ev.GameSetUp, ev.UnitAdded, ev.UnitOut, ev.UnitBack, ev.MarkerPlaced, ev.Spotted})
_SHOWN = frozenset({HIDDEN, OFF_TABLE})


class Reads:
    """What ``parse`` reads of one re-rolled game's table (``Parses.table``), for each
    role: worked out again only after a fact that can change it.  Most orders change no
    unit's name, side, visibility or marker; working it out for every order (and hashing
    it for every look-up) was a few hundredths of a re-rolled game's time, for nothing."""

    def __init__(self, parses: Parses) -> None:
        self._parses = parses
        self._of: dict[str, int] = {}

    def of(self, state: GameState, role: str) -> int:
        known = self._of.get(role)
        if known is None:
            known = self._of[role] = self._parses.table(state, role)
        return known

    def after(self, events: Iterable[ev.Event]) -> None:
        """Forget what ``events``, folded into the table, may have changed."""
        for e in events:
            if type(e) in _CHANGE_READS or (type(e) is ev.StatusChanged and not _SHOWN.isdisjoint((*e.add, *e.remove))):
                self._of.clear()
                return


def play_once(game: Game, plan: Plan, dice: Dice, kind: str, parses: Parses | None = None) -> Rerolled:
    """The orders of ``plan`` played with ``dice``, each in its stretch of the re-rolled
    game's own sequence of play, the referee's ending at its place (see the module);
    nothing is written."""
    parses = parses or Parses(game)
    state = copy_state(plan.start)
    emitted: list[ev.Event] = []
    skipped: list[tuple[str, str]] = []
    waiting = {at: deque(given) for at, given in plan.by_stretch.items() if given}
    stretches, reads = Stretches(game.ruleset), Reads(parses)
    left = sum(len(given) for given in waiting.values())
    ending = Place(game.ruleset, plan.ending) if plan.ending is not None else None
    # The referee moves a turn on at most once a phase: a ruleset whose next went round
    # and round would otherwise never end the game.
    moved_on, turn = 0, state.turn
    stopped = ""

    def done(order: Order, why: str, after: GameState, events: list[ev.Event]) -> GameState:
        """The table after ``order`` (as it was if it was refused, with why)."""
        if why:
            skipped.append((order.text, why))
        emitted.extend(events)
        reads.after(events)
        return after

    while (left or ending is not None) and state.turn <= plan.last_turn and not state.result:
        here = waiting.get(stretches.at(state))
        if ending is not None and (ending.passed(state) or (ending.at(state) and not here)):
            state, ending = done(ending.order, *_carry_out(game, parses, state, ending.order, dice, reads)), None
            continue
        if here:
            why, after, events = _carry_out(game, parses, state, here[0], dice, reads)
            if ending is not None and not why and ending.at(state) and ending.left(after):
                # The order would take the game past the referee's ending: he ends it first.
                state, ending = done(ending.order, *_carry_out(game, parses, state, ending.order, dice, reads)), None
                continue
            left -= 1
            state = done(here.popleft(), why, after, events)
            continue
        moved_on, turn = (moved_on + 1, turn) if state.turn == turn else (1, state.turn)
        stopped, after, events = _carry_out(game, parses, state, MOVE_ON, dice, reads)
        if stopped or moved_on > len(game.ruleset.phases):
            break
        state = done(MOVE_ON, "", after, events)
    never = _never_given(game.ruleset, state, stopped)
    left_over = {id(order) for given in waiting.values() for order in given if not order.moves_on}
    if ending is not None:
        left_over.add(id(ending.order))
    skipped += [(order.text, never(order)) for order in plan.orders if id(order) in left_over]
    return Rerolled(score_of(emitted, state, kind), skipped)


class Place:
    """Where in the game the referee's ending was given: its turn and phase, in the order
    of the ruleset's phases; a re-rolled game stands at it, has left it, or is past it."""

    def __init__(self, ruleset: Ruleset, order: Order) -> None:
        self.order = order
        self._index = {p.id: i for i, p in enumerate(ruleset.phases)}
        self._place = (order.turn, self._index.get(order.phase, -1))

    def _of(self, state: GameState) -> tuple[int, int]:
        return state.turn, self._index.get(state.phase, -1)

    def at(self, state: GameState) -> bool:
        return self._of(state) == self._place

    def passed(self, state: GameState) -> bool:
        return self._of(state) > self._place

    def left(self, after: GameState) -> bool:
        """Whether a state an order led to from the place is no longer at it (or ended)."""
        return bool(after.result) or not self.at(after)


def _never_given(ruleset: Ruleset, state: GameState, stopped: str) -> Callable[[Order], str]:
    """The words an order never given is skipped with: the re-rolled game stopped where its
    referee could not move it on, or ended, or went no further, before the order's step came."""
    if stopped and not state.result:
        said = _("the re-rolled game stopped before it: {why}").format(why=stopped)
        return lambda order: said
    if state.result:
        words = _("the re-rolled game ended before its step came ({moment})")
    else:
        words = _("its step never came in the re-rolled game ({moment})")

    def moment(order: Order) -> str:
        phase = Domain(ruleset.domain).pgettext("phase", order.phase)
        if order.active:
            said = _("turn {turn}, {phase} phase, {side} active").format(
                turn=order.turn, phase=phase, side=state.side_name(order.active)
            )
        else:
            said = _("turn {turn}, {phase} phase").format(turn=order.turn, phase=phase)
        return words.format(moment=said)

    return moment


def _carry_out(
    game: Game, parses: Parses, state: GameState, order: Order, dice: Dice, reads: Reads
) -> tuple[str, GameState, list[ev.Event]]:
    """("", the state after ``order``, its events), or (why it cannot be given, ``state``
    unchanged, no events); the caller takes them in (``play_once``)."""
    ruleset = game.ruleset
    role = order.role if order.role in state.sides else REFEREE
    try:
        parsed = parses.parse(order, state, role, reads.of(state, role))
        if parsed.spec.phases and state.phase not in parsed.spec.phases:
            return _("not allowed in the {phase} phase").format(phase=state.phase), state, []
        ruleset.check_turn(state, parsed, role)
        labels = MarkerLabels(game.header.seed, order.cmd)
        ctx = Context(copy_state(state), dice, role, ruleset, labels=labels, order=parsed.spec.dice)
        parsed.spec.handler(ctx, parsed.args)
    except (Refused, NeedDice, RollAhead) as e:
        return str(e), state, []
    except (KeyError, ValueError) as e:  # a fact about a piece this game no longer has
        return repr(e), state, []
    if not ctx.events:
        return _("nothing to do"), state, []
    return "", ctx.state, ctx.events


def reroll(
    game: Game,
    count: int = DEFAULT_REROLLS,
    *,
    seed: int = 0,
    start: int = 0,
    progress: Callable[[int, int], None] | None = None,
    parses: Parses | None = None,
) -> Rerolls:
    """``count`` re-rolled games of ``game``'s orders after step ``start`` (see the module);
    ``parses``: one kept across several calls on the same game (the chances re-roll from
    every step: its parses serve them all)."""
    if not 0 < count <= MAX_REROLLS:
        raise ValueError(_("re-rolls: from 1 to {most}").format(most=MAX_REROLLS))
    if not 0 <= start <= game.timeline.length:
        raise ValueError(_("step must be between 0 and {steps}").format(steps=game.timeline.length))
    history = game.history.timeline()
    kind = score_kind(history)
    before = history[:start]
    given = plan(game, start)
    state = given.start
    # Defeat points scored before the start stay scored: only what follows is re-rolled.
    offset = score_of(before, state, kind) if kind == "defeat points" else dict.fromkeys(state.sides, 0)
    began, began_cpu = time.perf_counter(), time.process_time()
    games = []
    parses = parses or Parses(game)
    for k in range(count):
        played = play_once(game, given, _Fresh(seed, k), kind, parses)
        if kind == "defeat points":
            played.scores = {s: offset.get(s, 0) + v for s, v in played.scores.items()}
        games.append(played)
        if progress is not None:
            progress(k + 1, count)
    real = score_of(history, game.state, kind)
    took = time.perf_counter() - began, time.process_time() - began_cpu
    return Rerolls(seed, start, kind, list(game.state.sides), real, games, *took)
