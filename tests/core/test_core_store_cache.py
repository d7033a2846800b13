"""The store's decoded chunks as a save loads: only a few kept, the rest decoded again when read."""

from __future__ import annotations

from coretests_support import builtins, new_demo, tiny_chunks

from core.game import Game
from core.state import fold
from core.storage.store import LOADING_CACHE_CHUNKS


def test_a_load_keeps_few_chunks_decoded_and_decodes_the_others_again(tmp_path):
    with tiny_chunks(chunk=8, cache=48):
        game = new_demo(tmp_path / "g.ft")
        for i in range(40):
            game.execute(f"note {i}")
            if i % 7 == 6:
                game.execute("undo")
        written = builtins(game.history.store.slice(0, len(game.history.store)))
        game.close()
        again = Game.open(tmp_path / "g.ft", writable=False)
        store = again.history.store
        assert len(written) > 10 * 8  # many more chunks than a load keeps
        assert 0 < len(store._cache) <= LOADING_CACHE_CHUNKS
        assert builtins(store.slice(0, len(store))) == written
        assert builtins(again.state) == builtins(fold(again.history.timeline()))
