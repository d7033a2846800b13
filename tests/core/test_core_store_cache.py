"""The store's decoded chunks as a save loads: only a few kept, the rest decoded again when read."""

from __future__ import annotations

import pytest
from coretests_support import builtins, new_demo, tiny_chunks

from core.game import Game
from core.log import events as ev
from core.log.history import History
from core.log.replay import Timeline
from core.log.state import fold
from core.log.views import REFEREE
from core.storage.errors import SaveError
from core.storage.savefile import Chain
from core.storage.store import LOADING_CACHE_CHUNKS

pytestmark = pytest.mark.long


def test_a_load_keeps_few_chunks_decoded_and_decodes_the_others_again(tmp_path):
    with tiny_chunks(chunk=8, cache=48):
        game = new_demo(tmp_path / "g.ft")
        for i in range(40):
            game.execute(f"note {i}", role=REFEREE)
            if i % 7 == 6:
                game.execute("undo", role=REFEREE)
        written = builtins(game.history.store.slice(0, len(game.history.store)))
        game.close()
        again = Game.open(tmp_path / "g.ft", writable=False)
        store = again.history.store
        assert len(written) > 10 * 8  # many more chunks than a load keeps
        assert 0 < len(store._cache) <= LOADING_CACHE_CHUNKS
        assert builtins(store.slice(0, len(store))) == written
        assert builtins(again.state) == builtins(fold(again.history.timeline()))


def test_a_load_folds_after_every_second_batch_and_once_more_at_its_end(tmp_path, monkeypatch):
    """``Timeline.loading``: half as many calls of the fold as batches, while the load keeps
    both batches decoded; what is left when the load ends is folded then, undos and all."""
    timeline = Timeline(History())
    calls: list[int] = []
    monkeypatch.setattr(timeline, "catch_up", lambda: calls.append(len(calls)))
    after_batch = timeline.loading()
    for _ in range(5):
        after_batch()
    assert calls == [0, 1]  # after batches 2 and 4
    monkeypatch.undo()
    batches = set()
    with tiny_chunks(chunk=8, cache=48, every=4):
        for notes in range(60, 68):  # the last batch folded as the load ends, or after the one before
            path = tmp_path / f"g{notes}.ft"
            game = new_demo(path)
            for i in range(notes):
                game.execute(f"note {i}", role=REFEREE)
                if i % 5 == 4:
                    game.execute("undo", role=REFEREE)
            game.close()
            again = Game.open(path, writable=False)
            batches.add(-(-len(again.history.store) // 8) % 2)
            assert again.timeline.folded == again.timeline.length == len(again.history.timeline())
            assert builtins(again.state) == builtins(fold(again.history.timeline()))
    assert batches == {0, 1}


def _with_a_fact_about_nobody(path, notes: int, undone: bool) -> int:
    """A demo game, ``notes`` notes, then a command moving a unit the game does not have
    (undone straight after, if ``undone``), then more notes; the line of the bad fact."""
    game = new_demo(path)
    for i in range(notes):
        game.execute(f"note {i}", role=REFEREE)
    game.close()
    game = Game.open(path, writable=False)
    chain, cmd, line = Chain(game.saved_check), game.history.next_cmd, len(game.history.store) + 5
    unit, turn = next(iter(game.state.units)), game.state.turn
    game.close()
    with open(path, "ab") as f:
        # A phase and a move the fold applies before it meets the unit it does not have.
        f.write(chain.frame(ev.Issued(cmd=cmd, n=3, by="referee", text="move nobody")))
        f.write(chain.frame(ev.PhaseBegan(turn=turn + 1, phase="activation")))
        f.write(chain.frame(ev.Moved(unit=unit, cm=3, how="move")))
        f.write(chain.frame(ev.Moved(unit="nobody", cm=1, how="move")))
        if undone:
            f.write(chain.frame(ev.Undone(cmd=cmd, by="referee")))
        for k in range(1, 13):
            f.write(chain.frame(ev.Issued(cmd=cmd + k, n=1, by="referee", text="note")))
            f.write(chain.frame(ev.Noted(text=f"after {k}")))
    return line


def test_a_fact_about_nobody_is_judged_on_the_history_in_effect_wherever_the_batches_fall(tmp_path):
    """Undone, it is no part of the game: the save loads (a load that had folded it before
    reading the undo refused it, so whether it loaded hung on where its batches fell).
    In effect, it is refused, naming its line, wherever they fall."""
    with tiny_chunks(chunk=8, cache=48, every=4):
        for notes in range(16):  # the bad command and its undo at every place in the batches
            path = tmp_path / f"undone{notes}.ft"
            _with_a_fact_about_nobody(path, notes, undone=True)
            game = Game.open(path, writable=False)
            effective = game.history.timeline()
            assert not any(isinstance(e, ev.Moved) for e in effective)
            assert builtins(game.state) == builtins(fold(effective))
            assert game.timeline.phases == [(k + 1, e) for k, e in enumerate(effective) if isinstance(e, ev.PhaseBegan)]
            path = tmp_path / f"kept{notes}.ft"
            line = _with_a_fact_about_nobody(path, notes, undone=False)
            with pytest.raises(SaveError, match=rf":{line}: the event refers to 'nobody'"):
                Game.open(path, writable=False)
