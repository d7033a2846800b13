"""What ``role`` saw of a game, turn by turn: the facts a report is made of.

Only the effective history counts (what was undone did not happen), and of it
only the events ``role`` may see (``core.views.event_visible``): a side's report
knows no more than its log does, a spectator's only what is public.  Units are
named as the log names them, and only those some seen fact is about.
"""

from __future__ import annotations

from collections.abc import Callable

from core import events as ev
from core.language.i18n import Text, _, naming, render
from core.narrate import names_of
from core.report.model import Facts, Loss, Moment, Origin, Points, RollFact, SideFacts, TurnFacts, UnitFacts
from core.ruleset import Ruleset
from core.state import GameState, apply_in_place
from core.storage.savefile import Header
from core.views import event_visible

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
    turns: dict[int, TurnFacts] = {0: TurnFacts(0)}
    units: dict[str, UnitFacts] = {}
    commands: list[_Command] = []
    command = _Command(0, "")
    by = ""
    any_points = False
    result = ""

    def words(text: Text) -> str:
        return render(text, ruleset.domain)

    def known(uid: str) -> UnitFacts:
        if uid not in units:
            u = state.units.get(uid)
            if u is None:
                # A side's copy: a piece it saw act but never saw set up (hidden then).
                units[uid] = UnitFacts(uid, _("an unseen piece"), "", "", "")
            else:
                units[uid] = UnitFacts(uid, u.name, u.side, u.kind, ruleset.piece_class(state, u.cls) if u.cls else "")
        return units[uid]

    for e in events:
        apply(state, [e])
        if isinstance(e, ev.Issued):
            by = e.by
            command = _Command(state.turn, e.text if event_visible(e, role) else "")
            commands.append(command)
            continue
        if not event_visible(e, role):
            continue
        turn = turns.setdefault(state.turn, TurnFacts(state.turn))
        match e:
            case ev.UnitAdded():
                known(e.unit.id)
            case ev.PhaseBegan():
                if e.active and e.active not in turn.active:
                    turn.active.append(e.active)
                if e.card:
                    turn.cards.append(e.card)
            case ev.Noted() if command.text.split(" ", 1)[0] == "note":
                # A `note` command is the table's own narration; the ruleset's
                # notes explain its rules, which the log already holds.
                turn.notes.append(words(e.text))
            case ev.Spotted():
                turn.spotted.append((known(e.unit).name, e.by_side))
            case ev.UnitOut():
                u = known(e.unit)
                u.out, u.out_turn = words(e.cause), state.turn
                turn.losses.append(Loss(u.name, u.side, u.out))
                command.losses[u.side] = command.losses.get(u.side, 0) + 1
                command.words.append(_("{unit} out of action: {cause}").format(unit=u.name, cause=u.out))
            case ev.UnitBack():
                u = known(e.unit)
                turn.returns.append(Loss(u.name, u.side, u.out))
                u.out = ""
                command.losses[u.side] = command.losses.get(u.side, 0) - 1
                command.words.append(_("{unit} back in action").format(unit=u.name))
            case ev.DefeatPoints():
                any_points = True
                reason = words(e.reason)
                turn.points.append(Points(e.side, e.points, reason))
                command.points[e.side] = command.points.get(e.side, 0) + e.points
                said = _("{side}: {points} defeat points, {reason}")
                command.words.append(said.format(side=state.sides[e.side].name, points=f"{e.points:+d}", reason=reason))
            case ev.Revealed():
                # what the secret was in the ruleset's words for its key, as the log says it
                turn.revealed.append((e.key, e.value, ruleset.describe_named(state, e.key, e.value) or ""))
            case ev.Rolled():
                unit = known(e.unit) if e.unit else None
                side = _favoured(e.roll, unit, e.side, by, state, ruleset)
                turn.rolls.append(RollFact(state.turn, side, unit.name if unit else "", e.roll))
            case ev.GameEnded():
                turn.result = result = words(e.result)
            case ev.Moved() | ev.StatusChanged():
                known(e.unit)

    for uid, u in units.items():
        piece = state.units.get(uid)
        if piece is not None and piece.cls:
            # by the game's end: a hidden piece is set up before its scenario's profiles
            u.cls = ruleset.piece_class(state, piece.cls)
    sides = [SideFacts(s.id, s.name, s.army) for s in state.sides.values()]
    ordered = [turns.get(t, TurnFacts(t)) for t in range(0, max(turns) + 1)]
    score_name = "defeat points" if any_points else "losses"
    losses = {
        s.id: [
            sum(1 for x in t.losses if x.side == s.id) - sum(1 for x in t.returns if x.side == s.id) for t in ordered
        ]
        for s in sides
    }
    per_turn = {s.id: [sum(p.points for p in t.points if p.side == s.id) for t in ordered] for s in sides}
    score = {sid: _running(per_turn[sid] if any_points else losses[sid]) for sid in per_turn}
    parent = getattr(header, "parent", None)
    return Facts(
        ruleset=ruleset.name,
        ruleset_version=header.ruleset_version,
        rules=ruleset.title(header.ruleset_version),
        domain=ruleset.domain,
        scenario=state.scenario,
        role=role,
        sides=sides,
        units=list(units.values()),
        turns=ordered,
        score_name=score_name,
        score_by_turn=score,
        losses_by_turn=losses,
        moments=_moments(commands, [s.id for s in sides], any_points),
        result=result,
        step=steps if step is None else step,
        steps=steps,
        origin=Origin(parent.path, parent.sha256, parent.step) if parent is not None else None,
    )


def _favoured(
    roll: ev.Roll, unit: UnitFacts | None, rolled_for: str, by: str, state: GameState, ruleset: Ruleset
) -> str:
    """The side a success of ``roll`` is good for: its unit's (the other side's when
    the ruleset says a success goes against the unit), else the side it names
    (``Rolled.side``: a side's morale test, its deployment roll, whoever typed it),
    else the side that gave the command; "" when none says (a roll the referee made
    for no unit and no side)."""
    if unit is not None and unit.side:
        return state.other_side(unit.side) if ruleset.success_hurts_unit(roll) else unit.side
    if rolled_for in state.sides:
        return rolled_for
    return by if by in state.sides else ""


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
