"""The history's batch checks (``History._fitting``) against its run-by-run checks.

A batch of events whose commands all fit is taken with the questions asked once for
the whole batch; any other batch goes run by run, through the checks that name what
is wrong.  Whatever the events and however they are cut into batches, both ways must
come to the same history, or refuse with the same words at the same event.
"""

from __future__ import annotations

import msgspec
import pytest
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from core.log import events as ev
from core.log.history import MAX_COMMAND_EVENTS, History, HistoryError
from core.storage.store import EventStore

REF = "referee"

# One step of a stream: a command (its number off by ``skew``, claiming ``claim``
# facts and followed by ``facts``), an undo or redo (of the right command, or of
# one ``skew`` away), or a fact outside any command.
_command = st.tuples(
    st.just("cmd"),
    st.sampled_from((0, 0, 0, 0, 0, 0, 1, -1)),  # skew
    st.integers(0, 4),  # facts that follow
    st.sampled_from((0, 0, 0, 0, 0, 0, 1, -1, MAX_COMMAND_EVENTS)),  # claimed minus followed
    st.booleans(),  # seen by every side (else the redo branch is kept)
)
_turn = st.tuples(st.sampled_from(("undo", "redo")), st.sampled_from((0, 0, 0, 0, 1)))
_stray = st.just(("fact",))
STREAMS = st.lists(st.one_of(_command, _command, _command, _turn, _stray), max_size=60)


def _events(steps: list[tuple]) -> list[ev.Event]:
    """The events of ``steps``, numbered as a writer would (the skews aside)."""
    out: list[ev.Event] = []
    next_cmd, live, undone = 1, [], []
    for step in steps:
        if step[0] == "cmd":
            _, skew, facts, extra, seen = step
            claim = max(0, facts + extra) if extra != MAX_COMMAND_EVENTS else MAX_COMMAND_EVENTS + 1
            out.append(ev.Issued(cmd=next_cmd + skew, n=claim, by=REF, text="x", vis=() if seen else ("a",)))
            out.extend(ev.Noted(text=f"{next_cmd}.{k}") for k in range(facts))
            live.append(next_cmd)
            next_cmd += 1
        elif step[0] == "undo":
            cmd = (live[-1] if live else 1) + step[1]
            out.append(ev.Undone(cmd=cmd, by=REF))
            if live and step[1] == 0:
                undone.append(live.pop())
        elif step[0] == "redo":
            cmd = (undone[-1] if undone else 1) + step[1]
            out.append(ev.Redone(cmd=cmd, by=REF))
            if undone and step[1] == 0:
                live.append(undone.pop())
        else:
            out.append(ev.Noted(text="stray"))
    return out


class RunByRun(History):
    """A history that never finds a batch fitting: every run checked on its own."""

    def _fitting(self, *args: object) -> None:
        return None


def _outcome(events: list[ev.Event], cuts: list[int], kind: type[History] = History) -> object:
    """Feed ``events`` in batches cut at ``cuts``: the history found, or the refusal."""
    history = kind(EventStore())
    bounds = [0, *sorted(c for c in set(cuts) if 0 < c < len(events)), len(events)]
    try:
        for a, b in zip(bounds, bounds[1:], strict=False):
            batch = events[a:b]
            history.store.append(batch, [msgspec.json.encode(e) for e in batch])
            history.feed(batch, a)
    except HistoryError as e:
        return ("refused", str(e))
    return (
        history.group_start.tolist(),
        history.group_end.tolist(),
        bytes(history.live),
        history.eff_cmds.tolist(),
        history.redoable.tolist(),
        history.length,
        history.run_step.tolist(),
        history.run_store.tolist(),
        dict(history.undone_at),
        history.pending(),
    )


@pytest.mark.long
@settings(max_examples=examples(400), deadline=None)
@given(steps=STREAMS, cuts=st.lists(st.integers(0, 400), max_size=6))
def test_batches_checked_at_once_as_run_by_run(steps: list[tuple], cuts: list[int]):
    events = _events(steps)
    assert _outcome(events, cuts) == _outcome(events, cuts, RunByRun)


def test_a_batch_that_fits_is_taken_at_once():
    """The generated streams are not all refusals: a well-formed one goes the quick way."""
    events = _events([("cmd", 0, 2, 0, True), ("cmd", 0, 1, 0, True), ("undo", 0), ("cmd", 0, 0, 0, True)])
    history = History(EventStore())
    history.store.append(events, [msgspec.json.encode(e) for e in events])
    assert history._fitting(events, 0, history.store.kinds[:], [0, 3, 5, 6], bytearray(b"\x01\x01\x02\x01")) is not None
    history.feed(events, 0)
    # Command 3, seen by every side, abandoned the redo of command 2.
    assert history.eff_cmds.tolist() == [1, 3] and history.redoable.tolist() == []
    assert history.length == 4 and history.group_end.tolist() == [0, 3, 5, 7]


def test_a_batch_that_does_not_fit_names_the_command():
    """Command 2 claims one fact more than follows it: refused as before, at its next marker."""
    events = _events([("cmd", 0, 2, 0, True), ("cmd", 0, 1, 1, True), ("cmd", 0, 0, 0, True)])
    history = History(EventStore())
    history.store.append(events, [msgspec.json.encode(e) for e in events])
    with pytest.raises(HistoryError, match="^event 6: "):
        history.feed(events, 0)


# Streams whose batches mostly fit, cut in two places anywhere: a run of commands ending
# inside its last command, at its end, or at an undo; a command claiming the wrong count
# or numbered wrong at the end of a batch; a redo kept past a hidden command.
FITTING = [
    [("cmd", 0, 0, 0, True), ("cmd", 0, 2, 0, True), ("cmd", 0, 0, 0, True), ("cmd", 0, 3, 0, True)],
    [("cmd", 0, 1, 0, True), ("cmd", 0, 2, 0, True), ("undo", 0), ("cmd", 0, 2, 0, True), ("cmd", 0, 1, 0, True)],
    [("cmd", 0, 2, 0, True), ("undo", 0), ("redo", 0), ("cmd", 0, 0, 0, True), ("cmd", 0, 2, 0, True), ("undo", 0)],
    [("cmd", 0, 1, 0, True), ("undo", 0), ("cmd", 0, 1, 0, False), ("redo", 0), ("cmd", 0, 2, 0, True)],
    [("cmd", 0, 1, 0, True), ("cmd", 0, 2, 1, True)],
    [("cmd", 0, 1, 0, True), ("cmd", 0, 2, -1, True), ("cmd", 0, 1, 0, True)],
    [("cmd", 0, 1, 0, True), ("cmd", 1, 2, 0, True)],
    [("cmd", 0, 1, 0, True), ("cmd", 0, 1, MAX_COMMAND_EVENTS, True)],
    [("cmd", 0, 1, 0, True), ("undo", 1), ("cmd", 0, 1, 0, True)],
]


@pytest.mark.parametrize("steps", FITTING)
def test_batches_cut_anywhere_are_taken_as_run_by_run(steps: list[tuple]):
    events = _events(steps)
    for a in range(len(events) + 1):
        for b in range(a, len(events) + 1):
            assert _outcome(events, [a, b]) == _outcome(events, [a, b], RunByRun), (a, b)


def test_commands_of_more_facts_than_a_byte_counts_are_taken_as_run_by_run():
    """A count or a span past 255 is checked the slow way (``_fitting`` compares them as
    bytes): the same history, however the batch is cut."""
    steps = [("cmd", 0, 254, 0, True), ("cmd", 0, 255, 0, True), ("cmd", 0, 300, 0, True), ("undo", 0)]
    steps += [("cmd", 0, 1, 0, True)]
    events = _events(steps)
    whole = _outcome(events, [])
    assert whole[0] != "refused" and whole[3] == [1, 2, 4]  # eff_cmds: command 3 undone
    for cuts in ([], [100], [300], [256, 600], [len(events) - 3]):
        assert _outcome(events, cuts) == _outcome(events, cuts, RunByRun) == whole
    history = History(EventStore())
    first = events[:256]  # command 1 (254 facts) and the marker of command 2
    history.store.append(first, [msgspec.json.encode(e) for e in first])
    assert history._fitting(first, 0, history.store.kinds[:], [0, 255], bytearray(b"\x01\x01")) is not None
    second = events[: 255 + 257]  # command 2 whole (255 facts) and command 3's marker
    history = History(EventStore())
    history.store.append(second, [msgspec.json.encode(e) for e in second])
    assert history._fitting(second, 0, history.store.kinds[:], [0, 255, 511], bytearray(b"\x01\x01\x01")) is None
