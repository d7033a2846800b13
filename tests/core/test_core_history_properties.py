"""Property tests: any sequence of commands, undos and redos keeps the state equal to
the fold of the effective history, survives a reload, and seeks correctly.

The alphabet is the Breaking News demo with the referee tools, plus a side's player
now and then (whose commands are often refused: a refusal must write nothing).
The effective history is checked against a model kept here as a plain stack of
command groups, independent of ``core.log.history``.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import closing
from pathlib import Path

import pytest
from coretests_support import builtins, new_demo, tiny_chunks
from examples import examples
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from core.dice.faces import NeedDice
from core.game import Game
from core.log import events as ev
from core.log.state import fold
from core.log.views import REFEREE, event_visible
from core.ruleset import Refused

pytestmark = pytest.mark.long

UNITS = ("rossi", "ahmed", "dahir", "lupo", "civ1")
STATUSES = ("suppressed", "hidden", "wounded")
SIDES = ("regulars", "irregulars")

_referee_line = st.one_of(
    st.builds(lambda u, s: f"mark {u} {s}", st.sampled_from(UNITS), st.sampled_from(STATUSES)),
    st.builds(lambda u, s: f"clear {u} {s}", st.sampled_from(UNITS), st.sampled_from(STATUSES)),
    st.builds(lambda u: f"out {u} shot", st.sampled_from(UNITS)),
    st.builds(lambda u: f"back {u}", st.sampled_from(UNITS)),
    st.builds(lambda s, n: f"dp {s} {n}", st.sampled_from(SIDES), st.integers(-3, 5)),
    st.sampled_from(("roll 2d6", "roll 3d6 target=5", "roll 1d6 dice=4", "note smoke", "next")),
    st.sampled_from(("reveal marker.1", "reveal marker.4")),
)
_player_line = st.builds(
    lambda side, text: f"@{side} {text}", st.sampled_from(SIDES), st.sampled_from(("note hello", "next", "undo"))
)
LINES = st.lists(
    st.one_of(_referee_line, _referee_line, st.sampled_from(("undo", "undo", "redo")), _player_line),
    max_size=30,
)


class Model:
    """Effective commands as a stack of event groups, and the redo stack."""

    def __init__(self, game: Game) -> None:
        first = game.history.group(1)
        self.effective: list[list[ev.Event]] = [first]
        self.redo: list[list[ev.Event]] = []

    def timeline(self) -> list[ev.Event]:
        return [e for group in self.effective for e in group]

    def take(self, events: list[ev.Event]) -> None:
        """One outcome's events: a command, an undo, a redo, or a side's undo that
        carries the commands hidden from it past (undos, then the carried copies)."""
        i = 0
        while i < len(events):
            first = events[i]
            if isinstance(first, ev.Undone):
                assert self.effective[-1][0].cmd == first.cmd
                self.redo.append(self.effective.pop())
                i += 1
            elif isinstance(first, ev.Redone):
                assert self.redo[-1][0].cmd == first.cmd
                self.effective.append(self.redo.pop())
                i += 1
            else:
                assert isinstance(first, ev.Issued)
                group = events[i : i + 1 + first.n]
                self.effective.append(group)
                if first.carries:  # only its original leaves the redo branch
                    self.redo = [g for g in self.redo if g[0].cmd != first.carries]
                elif not first.vis:  # a command hidden from someone keeps the branch
                    self.redo.clear()
                i += len(group)


def play(game: Game, lines: list[str], model: Model) -> None:
    for line in lines:
        role = "referee"
        if line.startswith("@"):
            role, _, line = line[1:].partition(" ")
        size = game.path.stat().st_size
        before = builtins(game.state)
        try:
            outcome = game.execute(line, role=role)
        except (Refused, NeedDice):
            # A refused command writes nothing and changes nothing.
            assert game.path.stat().st_size == size
            assert builtins(game.state) == before
            continue
        model.take(outcome.events)
        assert game.history.timeline() == model.timeline()
        assert builtins(game.state) == builtins(fold(game.history.timeline()))


def check_reload(game: Game, model: Model) -> None:
    """A save reopened (read-only and writable) has the same state, timeline and redo."""
    game.close()
    for writable in (False, True):
        with closing(Game.open(game.path, writable=writable)) as again:
            assert again.history.timeline() == model.timeline()
            assert builtins(again.state) == builtins(game.state)
            assert again.timeline.phases == phases_of(model.timeline())
            assert again.history.next_redo() == game.history.next_redo()
            assert again.history.last_effective() == game.history.last_effective()
            assert again.undoing.undo_preview(role="referee") == game.undoing.undo_preview(role="referee")
            if writable and model.redo:
                # Redo still works after a reload.
                outcome = again.execute("redo", role=REFEREE)
                model.take(outcome.events)
                assert again.history.timeline() == model.timeline()
                assert builtins(again.state) == builtins(fold(model.timeline()))


def phases_of(timeline: list[ev.Event]) -> list[tuple[int, ev.PhaseBegan]]:
    """Each phase's start in ``timeline``: the step just after it, and the event."""
    return [(i + 1, e) for i, e in enumerate(timeline) if isinstance(e, ev.PhaseBegan)]


def check_seeking(game: Game, steps: list[int]) -> None:
    timeline = game.history.timeline()
    assert game.timeline.phases == phases_of(timeline)
    for k in steps:
        k = k % (len(timeline) + 1)
        assert builtins(game.timeline.state_at(k)) == builtins(fold(timeline[:k]))
    phase_steps = {i + 1 for i, e in enumerate(timeline) if isinstance(e, ev.PhaseBegan)}
    for k in steps:
        k = k % (len(timeline) + 1)
        nxt = game.timeline.next_phase(k)
        assert nxt == len(timeline) or nxt in phase_steps
        assert nxt == min([s for s in phase_steps if s > k], default=len(timeline))
        prev = game.timeline.previous_phase(k)
        assert prev == max([s for s in phase_steps if s < k], default=0)
    for turn in {e.turn for e in timeline if isinstance(e, ev.PhaseBegan)}:
        start = game.timeline.turn_start(turn)
        first = min(i + 1 for i, e in enumerate(timeline) if isinstance(e, ev.PhaseBegan) and e.turn == turn)
        assert start == first
        assert isinstance(timeline[start - 1], ev.PhaseBegan) and timeline[start - 1].turn == turn
    assert game.timeline.turn_start(999) is None


#: 60 examples keep the file near 10 s; FIRETEAM_EXAMPLES=2000 hunts harder.
_settings = settings(
    max_examples=int(os.environ.get("FIRETEAM_EXAMPLES", examples(60))),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@_settings
@given(lines=LINES, steps=st.lists(st.integers(0, 10_000), min_size=1, max_size=6))
def test_state_is_the_fold_of_the_effective_history_and_survives_reload(lines, steps):
    with tempfile.TemporaryDirectory() as tmp:
        game = new_demo(Path(tmp) / "g.ftlog")
        model = Model(game)
        play(game, lines, model)
        check_seeking(game, steps)
        check_reload(game, model)


@_settings
@given(lines=LINES, steps=st.lists(st.integers(0, 10_000), min_size=1, max_size=6))
@example(  # an undo in a later load batch than the command it undoes, then longer commands
    lines=[
        "out rossi shot",
        "mark rossi hidden",
        "mark rossi suppressed",
        "undo",
        "out ahmed shot",
        "undo",
        "mark rossi suppressed",
    ],
    steps=[0],
)
def test_same_with_tiny_chunks_and_snapshots(lines, steps):
    """Chunks of 8 events, a 2-chunk cache and a snapshot every 4 steps: a small game
    crosses the boundaries (sealing, cache eviction, load batches, snapshots, rewinds)."""
    with tiny_chunks(), tempfile.TemporaryDirectory() as tmp:
        game = new_demo(Path(tmp) / "g.ftlog")
        model = Model(game)
        play(game, lines, model)
        check_seeking(game, steps)
        check_reload(game, model)


def test_reload_when_an_undo_and_later_commands_share_a_load_batch(tmp_path):
    """Loading folds the file a batch (chunk) at a time.  An undo whose command was
    folded in an earlier batch, followed in the same batch by commands that make the
    history longer again, must not leave the undone command in the state."""
    for pad in range(8):
        with tiny_chunks():
            game = new_demo(tmp_path / f"g{pad}.ftlog")
            for _ in range(pad):  # shift everything by one event
                game.execute("note pad", role=REFEREE)
                game.execute("undo", role=REFEREE)
            game.execute("dp regulars 5", role=REFEREE)
            game.execute("dp regulars 5", role=REFEREE)
            game.execute("undo", role=REFEREE)
            game.execute("dp irregulars 2 two facts in one", role=REFEREE)
            game.execute("roll 3d6", role=REFEREE)
            game.execute("dp irregulars 2", role=REFEREE)
            game.close()
            again = Game.open(game.path, writable=False)
            assert again.state.sides["regulars"].defeat_points == 5
            assert again.state.sides["irregulars"].defeat_points == 4
            assert builtins(again.state) == builtins(game.state) == builtins(fold(again.history.timeline()))


def test_reload_across_a_real_load_batch_boundary(tmp_path):
    """The same at full size: the undone command ends exactly at the first chunk's end."""
    import core.storage.store

    game = new_demo(tmp_path / "big.ftlog")
    if len(game.history.store) % 2:
        game.execute("note pad", role=REFEREE)
        game.execute("undo", role=REFEREE)  # three events: makes the length even
    while len(game.history.store) < core.storage.store.CHUNK - 2:
        suppressed = "suppressed" in game.state.units["ahmed"].status
        game.execute("clear ahmed suppressed" if suppressed else "mark ahmed suppressed", role=REFEREE)
    game.execute("dp regulars 5", role=REFEREE)
    assert len(game.history.store) == core.storage.store.CHUNK
    game.execute("undo", role=REFEREE)
    game.execute("dp irregulars 3", role=REFEREE)
    game.execute("dp irregulars 3", role=REFEREE)
    game.close()
    again = Game.open(game.path, writable=False)
    assert again.state.sides["regulars"].defeat_points == 0
    assert again.state.sides["irregulars"].defeat_points == 6
    assert builtins(again.state) == builtins(game.state)


# ------------------------------------------- players' commands (the small test ruleset)

_SKIRMISH_UNITS = ("alpha", "bravo", "ghost", "gunner")
_seat_line = st.one_of(
    st.builds(
        lambda r, u, n: f"@{r} walk {u} {n}",
        st.sampled_from(("blue", "red")),
        st.sampled_from(_SKIRMISH_UNITS),
        st.integers(1, 9),
    ),
    st.builds(
        lambda r, a, b: f"@{r} shoot {a} {b}",
        st.sampled_from(("blue", "red")),
        st.sampled_from(_SKIRMISH_UNITS),
        st.sampled_from(_SKIRMISH_UNITS),
    ),
    st.builds(lambda r: f"@{r} peek plan", st.sampled_from(("blue", "red", "referee"))),
    st.builds(
        lambda r, c: f"@{r} {c}",
        st.sampled_from(("blue", "red", "referee", "spectator")),
        st.sampled_from(("undo", "redo", "note hi")),
    ),
    st.builds(lambda u, s: f"mark {u} {s}", st.sampled_from(_SKIRMISH_UNITS), st.sampled_from(("hidden", "pinned"))),
    st.builds(lambda u, s: f"clear {u} {s}", st.sampled_from(_SKIRMISH_UNITS), st.sampled_from(("hidden", "pinned"))),
)


@_settings
@given(lines=st.lists(_seat_line, max_size=30), steps=st.lists(st.integers(0, 10_000), min_size=1, max_size=6))
def test_players_and_referee_together(lines, steps):
    """Seats undo and redo their own commands (never others', never rolls or reveals);
    whatever is accepted, the state stays the fold and survives reload."""
    from coretests_support import new_skirmish, skirmish_registered

    with skirmish_registered(), tiny_chunks(), tempfile.TemporaryDirectory() as tmp:
        game = new_skirmish(Path(tmp) / "g.ftlog")
        model = Model(game)
        for line in lines:
            role, _, text = line[1:].partition(" ") if line.startswith("@") else ("referee", "", line)
            last = game.history.last_effective()
            try:
                outcome = game.execute(text, role=role)
            except (Refused, NeedDice):
                continue
            if isinstance(outcome.events[0], ev.Undone) and role != "referee":
                # A side undoes the last command it can see, its own; any after it are hidden from it.
                undone = [e.cmd for e in outcome.events if isinstance(e, ev.Undone)]
                issued = game.history.issued(undone[-1])
                assert issued.by == role and event_visible(issued, role)
                assert not any(isinstance(e, ev.Rolled | ev.Revealed) for e in game.history.group(undone[-1]))
                assert undone[0] == last
                assert not any(event_visible(game.history.issued(c), role) for c in undone[:-1])
            model.take(outcome.events)
            assert game.history.timeline() == model.timeline()
            assert builtins(game.state) == builtins(fold(game.history.timeline()))
        check_seeking(game, steps)
        check_reload(game, model)
