"""Luck you can measure: the game's own orders played again with fresh dice, many times.

Each re-rolled game starts from the table at a step (the start, or where a what-if
left its original) and gives every later order of the game as it was given, by
the role that gave it (a seat's command as its side's), with new dice: seeded
from the re-rolls' own seed and the game's number among them, so the same seed
gives the same re-rolls.  Typed dice are not kept: the dice are what is re-rolled.
An order the new dice made impossible (its unit is out of action, the phase it
belonged to never came, the game ended sooner) is skipped, and counted with the
words of its refusal.  Each re-rolled game is scored as the report scores the real
one (``score_of``: defeat points when the game scores them, else pieces lost;
more is worse), and the side with the lowest score wins it.

Nothing is written: the orders are resolved on a working copy of the state, with
the rules' own handlers, and folded as a game folds them.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import msgspec

from core import events as ev
from core.commands import Parsed, parse
from core.dice import Dice, NeedDice
from core.game import SEAL_DICE, Game
from core.language.i18n import _
from core.language.reader import lang
from core.refusal import Refused
from core.ruleset import Context, RollAhead
from core.state import HIDDEN, GameState, copy_state
from core.views import OFF_TABLE, REFEREE, MarkerLabels

#: Re-rolls a report makes by default, and the most it will make.
DEFAULT_REROLLS = 1000
MAX_REROLLS = 100_000
DRAW = ""


@dataclass(frozen=True)
class Order:
    cmd: int
    text: str
    role: str


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


def orders(game: Game, start: int = 0) -> list[Order]:
    """The effective commands after step ``start``, as given (``dice-key`` is no order)."""
    out, step = [], 0
    history = game.history
    for cmd in history.eff_cmds:
        begins = step
        step += history.group_end[cmd] - history.group_start[cmd]
        if begins < start:
            continue
        issued = history.issued(cmd)
        if issued.text == SEAL_DICE:
            continue
        out.append(Order(cmd, issued.text, issued.by))
    return out


class _Fresh(Dice):
    """One re-rolled game's dice: a stream of its own, from the re-rolls' seed and its number."""

    def __init__(self, seed: int, game: int) -> None:
        self._rng = random.Random(f"fireteam-reroll:{seed}:{game}")

    def roll(self, count: int, sides: int = 6, purpose: object = "roll") -> tuple[int, ...]:
        r = self._rng.randrange
        return tuple(r(sides) + 1 for _ in range(count))


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

    def parse(self, order: Order, state: GameState, role: str) -> Parsed:
        """``order`` as ``role`` gives it on ``state``, or Refused as ``parse`` would refuse it."""
        key = (order.text, role, state.phase, lang(), _what_parse_reads(state, role))
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
            raise Refused(known)
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


def play_once(
    game: Game, start: GameState, given: list[Order], dice: Dice, kind: str, parses: Parses | None = None
) -> Rerolled:
    """The orders ``given`` played from ``start`` with ``dice``; nothing is written.

    An order refused is tried again after each later order that is carried out, until
    its turn is over: the new dice may have changed who goes first (a deployment, an
    initiative), and the order then comes once the other side's are done.  One still
    refused when its turn ends is skipped, with the words of its last refusal.
    """
    parses = parses or Parses(game)
    state = copy_state(start)
    emitted: list[ev.Event] = []
    skipped: list[tuple[str, str]] = []
    # Each order refused: (the order, the situation it was refused in, why).  It is tried
    # again once the situation moved on (a phase, a side's activation) or another role
    # gave an order (the side that had to deploy first): else the rules would refuse it
    # for the same reason.
    waiting: list[tuple[Order, tuple, str]] = []
    for order in given:
        why, _phase_only, state = _carry_out(game, parses, state, order, dice, emitted)
        if why:
            waiting.append((order, _situation(state), why))
            continue
        again, by = True, order.role
        while again and waiting:
            again = False
            now = _situation(state)
            for entry in list(waiting):
                waited, then, _why = entry
                if then[0] < now[0]:  # its turn is over
                    waiting.remove(entry)
                    skipped.append((waited.text, _why))
                elif then != now or by != waited.role:
                    why, phase_only, state = _carry_out(game, parses, state, waited, dice, emitted)
                    if not why:
                        waiting.remove(entry)
                        again, by = True, waited.role
                        break
                    # Refused now only for the phase it waited into ("not allowed in the
                    # end phase"), it keeps the words that say why it could not be given.
                    waiting[waiting.index(entry)] = (waited, _situation(state), _why if phase_only else why)
    skipped.extend((order.text, why) for order, _situation_then, why in waiting)
    return Rerolled(score_of(emitted, state, kind), skipped)


def _situation(state: GameState) -> tuple:
    return (state.turn, state.phase, state.active_side, state.reacting_side, state.card)


def _carry_out(
    game: Game, parses: Parses, state: GameState, order: Order, dice: Dice, emitted: list[ev.Event]
) -> tuple[str, bool, GameState]:
    """("", False, the state after ``order``), or (why it cannot be given now, whether only
    for the phase, ``state`` unchanged)."""
    ruleset = game.ruleset
    role = order.role if order.role in state.sides else REFEREE
    try:
        parsed = parses.parse(order, state, role)
        if parsed.spec.phases and state.phase not in parsed.spec.phases:
            return _("not allowed in the {phase} phase").format(phase=state.phase), True, state
        ruleset.check_turn(state, parsed, role)
        labels = MarkerLabels(game.header.seed, order.cmd)
        ctx = Context(copy_state(state), dice, role, ruleset, labels=labels, order=parsed.spec.dice)
        parsed.spec.handler(ctx, parsed.args)
    except (Refused, NeedDice, RollAhead) as e:
        return str(e), False, state
    except (KeyError, ValueError) as e:  # a fact about a piece this game no longer has
        return repr(e), False, state
    if not ctx.events:
        return _("nothing to do"), False, state
    emitted.extend(ctx.events)
    return "", False, ctx.state


def reroll(
    game: Game,
    count: int = DEFAULT_REROLLS,
    *,
    seed: int = 0,
    start: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Rerolls:
    """``count`` re-rolled games of ``game``'s orders after step ``start`` (see the module)."""
    if not 0 < count <= MAX_REROLLS:
        raise ValueError(_("re-rolls: from 1 to {most}").format(most=MAX_REROLLS))
    if not 0 <= start <= game.timeline.length:
        raise ValueError(_("step must be between 0 and {steps}").format(steps=game.timeline.length))
    history = game.history.timeline()
    kind = score_kind(history)
    before = history[:start]
    state = game.timeline.state_at(start)
    given = orders(game, start)
    # Defeat points scored before the start stay scored: only what follows is re-rolled.
    offset = score_of(before, state, kind) if kind == "defeat points" else dict.fromkeys(state.sides, 0)
    began, began_cpu = time.perf_counter(), time.process_time()
    games = []
    parses = Parses(game)
    for k in range(count):
        played = play_once(game, state, given, _Fresh(seed, k), kind, parses)
        if kind == "defeat points":
            played.scores = {s: offset.get(s, 0) + v for s, v in played.scores.items()}
        games.append(played)
        if progress is not None:
            progress(k + 1, count)
    real = score_of(history, game.state, kind)
    took = time.perf_counter() - began, time.process_time() - began_cpu
    return Rerolls(seed, start, kind, list(game.state.sides), real, games, *took)
