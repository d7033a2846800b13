"""What ``role`` saw of a game, turn by turn: the facts a report is made of.

Only the effective history counts (what was undone did not happen), and of it
only the events ``role`` may see (``core.log.views.event_visible``): a side's report
knows no more than its log does, a spectator's only what is public.  Units are
named as the log names them, and only those some seen fact is about.
"""

from __future__ import annotations

from collections.abc import Callable

from core.language.i18n import Text, _, naming, render, scenario_words
from core.log import events as ev
from core.log.ending import result_said
from core.log.narrate import names_of
from core.log.state import GameState, apply_in_place
from core.log.views import OFF_TABLE, event_visible
from core.report.model import Facts, Loss, Moment, Origin, Points, RollFact, SideFacts, TurnFacts, UnitFacts
from core.ruleset import Ruleset
from core.storage.decoding import Header

#: How many decisive moments a report names.
MOMENTS = 3


class _Command:
    """The facts of one command, for the decisive moments."""

    def __init__(self, turn: int, text: str) -> None:
        self.turn = turn
        self.text = text
        self.points: dict[str, int] = {}
        self.losses: dict[str, int] = {}
        self.words: list[str] = []


def collect(
    events: list[ev.Event],
    header: Header,
    ruleset: Ruleset,
    role: str,
    steps: int,
    step: int | None = None,
    apply: Callable[[GameState, list[ev.Event]], GameState] = apply_in_place,
) -> Facts:
    """The facts of ``events`` (the effective history up to ``step``) as ``role`` saw them;
    ``apply`` folds them (``Timeline.apply``: a side's copy folds what holds)."""
    state = GameState()
    with naming(names_of(state)):  # a side an event names by id reads as its name, as in the log
        return _collect(state, events, header, ruleset, role, steps, step, apply)


def _collect(
    state: GameState,
    events: list[ev.Event],
    header: Header,
    ruleset: Ruleset,
    role: str,
    steps: int,
    step: int | None,
    apply: Callable[[GameState, list[ev.Event]], GameState],
) -> Facts:
    reading = _Reading(state, ruleset, role)
    for e in events:
        apply(state, [e])
        reading.read(e)
    reading.class_at_end()
    sides = [SideFacts(s.id, scenario_words(s.name), s.army) for s in state.sides.values()]
    turns = [reading.turns.get(t, TurnFacts(t)) for t in range(0, max(reading.turns) + 1)]
    losses, score = _scores(turns, [s.id for s in sides], reading.any_points)
    parent = getattr(header, "parent", None)
    options = ruleset.options_in_force(state)
    return Facts(
        ruleset=ruleset.name,
        ruleset_version=header.ruleset_version,
        rules=ruleset.title(header.ruleset_version),
        domain=ruleset.domain,
        scenario=scenario_words(state.scenario),
        role=role,
        sides=sides,
        units=list(reading.units.values()),
        turns=turns,
        score_name="defeat points" if reading.any_points else "losses",
        score_by_turn=score,
        losses_by_turn=losses,
        moments=_moments(reading.commands, [s.id for s in sides], reading.any_points),
        result=reading.result,
        winner=reading.winner,
        draw=reading.draw,
        step=steps if step is None else step,
        steps=steps,
        origin=Origin(parent.path, parent.sha256, parent.step) if parent is not None else None,
        options=[words for _rule, words in options] if options is not None else None,
    )


class _Reading:
    """What ``role`` has seen of a game read event by event, each folded into ``state``
    before it is read: the turns, the units some seen fact is about, the commands."""

    def __init__(self, state: GameState, ruleset: Ruleset, role: str) -> None:
        self.state = state
        self.ruleset = ruleset
        self.role = role
        self.turns: dict[int, TurnFacts] = {0: TurnFacts(0)}
        self.units: dict[str, UnitFacts] = {}
        self.commands: list[_Command] = []
        #: The command the events read now came of, and whose it was (the role it was given as).
        self.command = _Command(0, "")
        self.acting = ""
        self.any_points = False
        self.result = ""
        self.winner, self.draw = "", False
        #: Whether play has begun (turn 1), and the units seen on the table since.
        self.playing = False
        self.came_on: set[str] = set()

    def words(self, text: Text) -> str:
        return render(text, self.ruleset.domain)

    def side_named(self, sid: str) -> str:
        return scenario_words(self.state.side_name(sid))

    def known(self, uid: str) -> UnitFacts:
        if uid not in self.units:
            u = self.state.units.get(uid)
            if u is None:
                # A side's copy: a piece it saw act but never saw set up (hidden then).
                self.units[uid] = UnitFacts(uid, _("an unseen piece"), "", "", "")
            else:
                cls = self.ruleset.piece_class(self.state, u.cls) if u.cls else ""
                self.units[uid] = UnitFacts(uid, scenario_words(u.name), u.side, u.kind, cls)
        return self.units[uid]

    def read(self, e: ev.Event) -> None:
        """Take in ``e``, already folded into the state."""
        state = self.state
        if isinstance(e, ev.Issued):
            self.acting = e.acting
            self.command = _Command(state.turn, e.text if event_visible(e, self.role) else "")
            self.commands.append(self.command)
            return
        if not event_visible(e, self.role):
            return
        self.on_the_table(e)
        turn = self.turns.setdefault(state.turn, TurnFacts(state.turn))
        match e:
            case ev.UnitAdded():
                self.known(e.unit.id)
            case ev.PhaseBegan():
                if e.active and e.active not in turn.active:
                    turn.active.append(e.active)
                if e.card:
                    turn.cards.append(e.card)
            case ev.Noted() if self.command.text.split(" ", 1)[0] == "note":
                # A `note` command is the table's own narration; the ruleset's
                # notes explain its rules, which the log already holds.
                turn.notes.append(self.words(e.text))
            case ev.Spotted():
                turn.spotted.append((self.known(e.unit).name, e.by_side))
            case ev.UnitOut():
                self.unit_out(e, turn)
            case ev.UnitBack():
                self.unit_back(e, turn)
            case ev.DefeatPoints():
                self.defeat_points(e, turn)
            case ev.Revealed():
                # what the secret was in the ruleset's words for its key, as the log says it
                turn.revealed.append((e.key, e.value, self.ruleset.describe_named(state, e.key, e.value) or ""))
            case ev.Rolled():
                unit = self.known(e.unit) if e.unit else None
                side = _favoured(e.roll, unit, e.side, self.acting, state, self.ruleset)
                turn.rolls.append(RollFact(state.turn, side, scenario_words(unit.name) if unit else "", e.roll))
            case ev.GameEnded():
                self.winner, self.draw = self.state.winner, self.state.draw  # as the fold read them
                said = result_said(self.words(e.result), self.winner, self.draw, self.state.scores, self.side_named)
                turn.result = self.result = said
            case ev.Moved() | ev.StatusChanged():
                self.known(e.unit)

    def on_the_table(self, e: ev.Event) -> None:
        """Note the units on the table once play has begun: those there as turn 1 begins, and
        any that comes on after (added, or taken off the table's edge), for their fate."""
        state = self.state
        if not self.playing and state.turn >= 1:
            self.playing = True
            self.came_on.update(uid for uid, u in state.units.items() if OFF_TABLE not in u.status)
        elif self.playing and isinstance(e, ev.StatusChanged | ev.UnitAdded):
            uid = e.unit if isinstance(e, ev.StatusChanged) else e.unit.id
            piece = state.units.get(uid)
            if piece is not None and OFF_TABLE not in piece.status:
                self.came_on.add(uid)

    def unit_out(self, e: ev.UnitOut, turn: TurnFacts) -> None:
        u = self.known(e.unit)
        u.out, u.out_turn = self.words(e.cause), self.state.turn
        turn.losses.append(Loss(scenario_words(u.name), u.side, u.out))
        self.command.losses[u.side] = self.command.losses.get(u.side, 0) + 1
        self.command.words.append(_("{unit} out of action: {cause}").format(unit=scenario_words(u.name), cause=u.out))

    def unit_back(self, e: ev.UnitBack, turn: TurnFacts) -> None:
        u = self.known(e.unit)
        turn.returns.append(Loss(scenario_words(u.name), u.side, u.out))
        u.out = ""
        self.command.losses[u.side] = self.command.losses.get(u.side, 0) - 1
        self.command.words.append(_("{unit} back in action").format(unit=scenario_words(u.name)))

    def defeat_points(self, e: ev.DefeatPoints, turn: TurnFacts) -> None:
        self.any_points = True
        reason = self.words(e.reason)
        turn.points.append(Points(e.side, e.points, reason))
        self.command.points[e.side] = self.command.points.get(e.side, 0) + e.points
        said = _("{side}: {points} defeat points, {reason}")
        side = scenario_words(self.state.sides[e.side].name)
        self.command.words.append(said.format(side=side, points=f"{e.points:+d}", reason=reason))

    def class_at_end(self) -> None:
        """Each unit's class as the game's end knows it (a hidden piece is set up before
        its scenario's profiles), and whether it came on the table, and is off it."""
        for uid, u in self.units.items():
            piece = self.state.units.get(uid)
            if piece is not None and piece.cls:
                u.cls = self.ruleset.piece_class(self.state, piece.cls)
            u.came_on = piece is None or not self.playing or uid in self.came_on  # None: a piece unseen
            u.off_table = piece is not None and OFF_TABLE in piece.status


def _scores(
    turns: list[TurnFacts], sides: list[str], by_points: bool
) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """Each side's losses turn by turn (those back in action taken off), and its running
    score: its defeat points where the game counts them, else its losses."""
    losses = {
        s: [sum(1 for x in t.losses if x.side == s) - sum(1 for x in t.returns if x.side == s) for t in turns]
        for s in sides
    }
    per_turn = {s: [sum(p.points for p in t.points if p.side == s) for t in turns] for s in sides}
    score = {s: _running(per_turn[s] if by_points else losses[s]) for s in per_turn}
    return losses, score


def _favoured(
    roll: ev.Roll, unit: UnitFacts | None, rolled_for: str, acting: str, state: GameState, ruleset: Ruleset
) -> str:
    """The side a success of ``roll`` is good for: its unit's (the other side's when
    the ruleset says a success goes against the unit), else the side it names
    (``Rolled.side``: a side's morale test, its deployment roll, whoever typed it),
    else the side whose command it was (``acting``); "" when none says (a roll the
    referee made for no unit and no side)."""
    if unit is not None and unit.side:
        return state.other_side(unit.side) if ruleset.success_hurts_unit(roll) else unit.side
    if rolled_for in state.sides:
        return rolled_for
    return acting if acting in state.sides else ""


def _running(values: list[int]) -> list[int]:
    out, total = [], 0
    for v in values:
        total += v
        out.append(total)
    return out


def _moments(commands: list[_Command], sides: list[str], by_points: bool) -> list[Moment]:
    """The commands that moved the balance most, in the order they came."""
    found = []
    for c in commands:
        change = {s: (c.points if by_points else c.losses).get(s, 0) for s in sides}
        if not change or not any(change.values()):
            continue
        swing = max(change.values()) - min(change.values())
        if len(sides) < 2:
            swing = abs(next(iter(change.values())))
        favours = min(change, key=lambda s: change[s]) if swing else ""
        found.append(Moment(c.turn, c.text, change, favours, swing, tuple(c.words)))
    biggest = {id(m) for m in sorted(found, key=lambda m: -m.swing)[:MOMENTS] if m.swing > 0}
    return [m for m in found if id(m) in biggest]
