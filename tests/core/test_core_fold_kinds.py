"""The fold passes over the events that change nothing by their kind byte in the store.

The store keeps one byte for each event; a fact that changes the state (``FACT``) and
one that only lives in the log (``LOGGED``: a roll, a note, a commitment) have kinds
of their own, so the timeline picks the events its rules are called for without a
look at each event's type (``core.log.replay.Timeline._take``).  These tests hold the
kinds to the fold's own rules, and the picked fold to the plain one.
"""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import msgspec
import pytest
from coretests_support import builtins, new_demo, tiny_chunks
from examples import examples
from hypothesis import example, given, settings
from hypothesis import strategies as st

from core.game import Game
from core.log import events as ev
from core.log.history import History
from core.log.replay import Timeline
from core.log.state import CHANGING, GameState, apply_in_place, apply_one, fold
from core.log.views import REFEREE
from core.storage.store import _KIND, FACT, ISSUED, LOGGED, PHASE, REDONE, UNDONE, VAR, EventStore, kinds_of

#: The events with a kind of their own (the rest are facts, told by whether they change the state).
OWN_KIND = {ev.Issued: ISSUED, ev.Undone: UNDONE, ev.Redone: REDONE, ev.VarSet: VAR, ev.PhaseBegan: PHASE}


def test_a_fact_kind_says_whether_it_changes_the_state():
    for t in ev.EVENT_TYPES:
        assert _KIND[t] == OWN_KIND.get(t, FACT if t in CHANGING else LOGGED), t.__name__
    move = ev.Moved(unit="u", cm=3, how="move")
    note = ev.Noted(text="x")
    assert kinds_of([move, note, ev.Issued(cmd=1, n=2, by="referee", text="t")]) == bytes([FACT, LOGGED, ISSUED])
    # The ones a long game is made of, by name: a roll and a note change nothing, a move does.
    assert ev.Rolled not in CHANGING and ev.Noted not in CHANGING and ev.Moved in CHANGING
    # Seven kinds, the highest a phase's (an open cache's entry holds kinds up to ``PHASE``).
    assert sorted({FACT, ISSUED, UNDONE, REDONE, LOGGED, VAR, PHASE}) == list(range(PHASE + 1))


def _played(path) -> Game:
    """A game crossing chunks, snapshots and runs: phases, facts of both kinds, undos and redos."""
    game = new_demo(path)
    for i in range(30):
        game.execute(f"note {i}", role=REFEREE)
        if i % 5 == 0:
            game.execute("next", role=REFEREE)
        if i % 7 == 6:
            game.execute("undo", role=REFEREE)
            if i % 14 == 13:
                game.execute("redo", role=REFEREE)
    return game


def test_the_picked_fold_finds_the_plain_folds_state_and_phases(tmp_path):
    with tiny_chunks(chunk=8, cache=2, every=4):  # (the store is read with the chunks it was made with)
        game = _played(tmp_path / "g.ft")
        game.close()
        timeline = Game.open(tmp_path / "g.ft", writable=False).timeline
        events = timeline.history.timeline()
        assert len(timeline.history.run_step) > 1  # the undos cut the history into runs
        assert builtins(timeline.state) == builtins(fold(events))
        phases = [(step + 1, e) for step, e in enumerate(events) if isinstance(e, ev.PhaseBegan)]
        assert len(phases) > 3 and timeline.phases == phases
        for step in range(timeline.length + 1):
            assert builtins(timeline.state_at(step)) == builtins(fold(events[:step]))


def test_a_timeline_with_a_fold_of_its_own_is_given_every_event(tmp_path):
    """A side's copy folds what holds for it (``Timeline.apply``): it sees every event, not the picked ones."""
    seen: list[ev.Event] = []

    def apply(state, events):
        seen.extend(events)
        return apply_in_place(state, events)

    with tiny_chunks(chunk=8, cache=2, every=4):
        game = _played(tmp_path / "g.ft")
        store = game.history.store
        everything = store.slice(0, len(store))
        history = History(EventStore())
        history.store.append(everything, [msgspec.json.encode(e) for e in everything])
        history.feed(everything, 0)
        own = Timeline(history, every=4, apply=apply)
        own.catch_up()
        assert builtins(seen) == builtins(history.timeline())
        assert builtins(own.state) == builtins(game.state)


# ------------------------------------------------------------- any well-formed history
#
# Commands of facts that change the state (a phase, a variable) and facts that only live
# in the log (notes), undone and redone, some hidden from a side (a redo past one puts
# a command back before others in the store), fed in batches cut anywhere and folded
# after each, as a load does: the same state, phases and seeks as folding the effective
# events themselves.

_FACTS = st.lists(st.sampled_from(("phase", "var", "note")), max_size=4)
_STEPS = st.lists(
    st.one_of(st.tuples(st.just("cmd"), _FACTS, st.booleans()), st.just(("undo",)), st.just(("redo",))),
    max_size=80,
)


def _history_events(steps: list[tuple]) -> list[ev.Event]:
    out: list[ev.Event] = []
    live: list[int] = []
    undone: list[int] = []
    for step in steps:
        if step[0] == "cmd":
            _, facts, seen = step
            cmd = len([e for e in out if isinstance(e, ev.Issued)]) + 1
            out.append(ev.Issued(cmd=cmd, n=len(facts), by="referee", text="x", vis=() if seen else ("a",)))
            for k, fact in enumerate(facts):
                if fact == "phase":
                    out.append(ev.PhaseBegan(turn=cmd, phase=f"p{k}"))
                elif fact == "var":
                    out.append(ev.VarSet(key=f"v{k}", value=cmd))
                else:
                    out.append(ev.Noted(text=f"{cmd}.{k}"))
            if seen:
                undone.clear()  # a command every side sees abandons the redo branch
            live.append(cmd)
        elif step[0] == "undo" and live:
            undone.append(live.pop())
            out.append(ev.Undone(cmd=undone[-1], by="referee"))
        elif step[0] == "redo" and undone:
            live.append(undone.pop())
            out.append(ev.Redone(cmd=live[-1], by="referee"))
    return out


@pytest.mark.long
@settings(max_examples=examples(300), deadline=None)
# A redo past a hidden command: command 2 goes back in effect after command 3, so the
# store's stretches run backwards and the fold takes the events one stretch at a time.
@example(
    steps=[("cmd", ("var",), True), ("cmd", ("phase", "var"), True), ("undo",), ("cmd", ("note",), False), ("redo",)],
    cuts=[],
    every=8,
)
@given(steps=_STEPS, cuts=st.lists(st.integers(0, 300), max_size=6), every=st.sampled_from((1, 2, 3, 8)))
def test_a_fold_batch_by_batch_finds_the_effective_events_state(steps, cuts, every):
    events = _history_events(steps)
    history = History(EventStore())
    timeline = Timeline(history, every=every)
    bounds = [0, *sorted(c for c in set(cuts) if 0 < c < len(events)), len(events)]
    for a, b in zip(bounds, bounds[1:], strict=False):
        history.store.append(events[a:b], [msgspec.json.encode(e) for e in events[a:b]])
        history.feed(events[a:b], a)
        timeline.catch_up()
    effective = history.timeline()
    assert builtins(timeline.state) == builtins(fold(effective))
    assert timeline.phases == [(k + 1, e) for k, e in enumerate(effective) if isinstance(e, ev.PhaseBegan)]
    for step in range(len(effective) + 1):
        assert builtins(timeline.state_at(step)) == builtins(fold(effective[:step]))
    # The stretches of the store the fold reads are the history's ranges.
    for a in range(len(effective) + 1):
        for b in range(a, len(effective) + 2):
            steps_at, starts, ends = history.stretches(a, b)
            assert list(zip(starts, ends, strict=True)) == list(history.ranges(a, b))
            assert steps_at == [
                a + sum(e - s for s, e in zip(starts[:k], ends[:k], strict=True)) for k in range(len(starts))
            ]


def test_a_handlers_fold_of_one_fact_at_a_time_is_the_games_fold():
    """``Context.emit`` folds each fact as it comes (``apply_one``): the demo game's facts
    so folded make the state its own fold makes."""
    with closing(Game.open(Path(__file__).resolve().parents[2] / "saves" / "demo-game.ft", writable=False)) as game:
        state = GameState()
        for e in game.history.timeline():
            apply_one(state, e)
        assert state == apply_in_place(GameState(), game.history.timeline()) == game.state
