"""The fold passes over the events that change nothing by their kind byte in the store.

The store keeps one byte for each event; a fact that changes the state (``FACT``) and
one that only lives in the log (``LOGGED``: a roll, a note, a commitment) have kinds
of their own, so the timeline picks the events its rules are called for without a
look at each event's type (``core.replay.Timeline._take``).  These tests hold the
kinds to the fold's own rules, and the picked fold to the plain one.
"""

from __future__ import annotations

import msgspec
from coretests_support import builtins, new_demo, tiny_chunks

from core import events as ev
from core.game import Game
from core.history import History
from core.replay import Timeline
from core.state import CHANGING, apply_in_place, fold
from core.storage.store import _KIND, FACT, ISSUED, LOGGED, PHASE, REDONE, UNDONE, EventStore, kinds_of

MARKERS = {ev.Issued: ISSUED, ev.Undone: UNDONE, ev.Redone: REDONE, ev.PhaseBegan: PHASE}


def test_a_fact_kind_says_whether_it_changes_the_state():
    for t in ev.EVENT_TYPES:
        assert _KIND[t] == MARKERS.get(t, FACT if t in CHANGING else LOGGED), t.__name__
    move = ev.Moved(unit="u", cm=3, how="move")
    note = ev.Noted(text="x")
    assert kinds_of([move, note, ev.Issued(cmd=1, n=2, by="referee", text="t")]) == bytes([FACT, LOGGED, ISSUED])
    # The ones a long game is made of, by name: a roll and a note change nothing, a move does.
    assert ev.Rolled not in CHANGING and ev.Noted not in CHANGING and ev.Moved in CHANGING
    # Six kinds, the highest a phase's (an open cache's entry holds kinds up to ``PHASE``).
    assert sorted({FACT, ISSUED, UNDONE, REDONE, LOGGED, PHASE}) == list(range(PHASE + 1))


def _played(path) -> Game:
    """A game crossing chunks, snapshots and runs: phases, facts of both kinds, undos and redos."""
    game = new_demo(path)
    for i in range(30):
        game.execute(f"note {i}")
        if i % 5 == 0:
            game.execute("next")
        if i % 7 == 6:
            game.execute("undo")
            if i % 14 == 13:
                game.execute("redo")
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
