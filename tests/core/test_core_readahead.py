# ruff: noqa: F811  (a pytest fixture imported from coretests_support)
"""A big save's bytes read ahead (core.storage.readahead): the open cache's restore takes them
only while the file is the one read, and the game restored is the game a full load makes."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from coretests_support import big_save  # noqa: F401  (a fixture)

from core.game import Game
from core.log.state import encode_state
from core.log.views import REFEREE
from core.storage import readahead, savefile
from core.storage.opencache import OpenCache
from core.storage.readahead import ReadAhead
from tui.opening import CACHE_FROM_BYTES


@pytest.fixture
def cached(big_save, tmp_path) -> tuple[Path, OpenCache]:
    """A copy of the big save, and a cache holding its entry (made by a full load)."""
    path = tmp_path / "game.ft"
    shutil.copyfile(big_save, path)
    cache = OpenCache(tmp_path / "cache")
    Game.open(path, cache=cache, writable=False).close()
    return path, cache


@pytest.fixture
def reads(monkeypatch) -> list[int]:
    """The sizes of the reads the open cache makes of a save, past its header line."""
    seen: list[int] = []

    class Counted:
        def __init__(self, fd, mode):
            self._f = open(fd, mode)  # noqa: SIM115 (closed as the cache's own ``with`` closes it)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self._f.close()

        def read(self, n=-1):
            data = self._f.read(n)
            seen.append(len(data))
            return data

        def __getattr__(self, name):
            return getattr(self._f, name)

    monkeypatch.setattr("core.storage.opencache.open", Counted, raising=False)
    return seen


def _seen(game: Game) -> tuple:
    return (
        encode_state(game.state),
        [line.text for line in game.log_lines(REFEREE, 0)],
        bytes(game.history.store.kinds),
    )


def test_a_restore_takes_the_bytes_read_ahead(cached, reads):
    path, cache = cached
    ahead = ReadAhead(path)
    cache.ahead = ahead
    game = Game.open(path, cache=cache, writable=False)
    assert reads == []  # the save was not read again: its bytes and their hash were the read-ahead's
    assert cache.ahead is None and ahead.take(os.open(path, os.O_RDONLY)) is None  # given once
    assert _seen(game) == _seen(Game.open(path, writable=False))


@pytest.mark.parametrize("change", ["appended", "rewritten", "replaced"])
def test_a_file_changed_since_it_was_read_ahead_is_read_again(cached, reads, change):
    path, cache = cached
    ahead = ReadAhead(path)
    ahead._thread.join()
    data = path.read_bytes()
    if change == "appended":  # another writer's command
        other = Game.open(path)
        other.execute('note "meanwhile"', role=REFEREE)
        other.close()
    elif change == "rewritten":  # the same size, the same bytes: only its times tell
        path.write_bytes(data)
    else:  # another file in its place
        path.unlink()
        path.write_bytes(data)
    cache.ahead = ahead
    game = Game.open(path, cache=cache, writable=False)
    assert reads == [os.path.getsize(path)]  # read again, whole
    assert _seen(game) == _seen(Game.open(path, writable=False))


def test_only_a_save_the_open_cache_takes_is_read_ahead(tmp_path, big_save, monkeypatch):
    assert readahead.FROM_BYTES == CACHE_FROM_BYTES
    monkeypatch.setattr(readahead, "FROM_BYTES", 1000)  # (the generated save is smaller than a big one)
    small = tmp_path / "small.ft"
    small.write_bytes(b"x" * 1000)
    assert ReadAhead.of(small) is None and ReadAhead.of(None) is None
    assert ReadAhead.of(tmp_path / "missing.ft") is None
    ahead = ReadAhead.of(big_save)
    assert ahead is not None
    fd = os.open(big_save, os.O_RDONLY)
    try:
        read = ahead.take(fd)
    finally:
        os.close(fd)
    assert read is not None and read[0] == big_save.read_bytes()
    # (Not imported by the module, which the client imports before the rest: the figure is the same.)
    assert readahead.UP_TO_BYTES == savefile.MAX_FILE_BYTES


def test_a_fifo_named_like_the_save_is_not_waited_on(tmp_path):
    fifo = tmp_path / "game.ft"
    os.mkfifo(fifo)
    ahead = ReadAhead(fifo)
    ahead._thread.join(timeout=60)  # (it returns at once; the guard is only against a hang)
    assert not ahead._thread.is_alive()
    fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        assert ahead.take(fd) is None
    finally:
        os.close(fd)
