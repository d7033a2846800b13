"""Helpers shared by the core tests (imported by name: tests/core has no package)."""

from __future__ import annotations

import hashlib
from contextlib import contextmanager
from pathlib import Path

import msgspec

import core.savefile
import core.store
from core import events as ev
from core.game import Game
from core.replay import Timeline
from core.savefile import load

DEMO_HIDDEN_UNITS = ("dahir", "egal")
DEMO_HIDDEN_NAMES = ("Dahir", "Egal")
DEMO_SECRET_KEYS = tuple(f"marker.{i}" for i in range(1, 6))


def sha(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def new_demo(path: Path, seed: int = 7) -> Game:
    """A Breaking News game on the demo scenario, with a fixed clock so files are reproducible."""
    game = Game.new(path, "breaking-news", seed=seed, clock=lambda: 1_000)
    game.execute("scenario demo")
    return game


def builtins(obj) -> object:
    return msgspec.to_builtins(obj)


def file_events(path: Path) -> list[ev.Event]:
    """Every event of a save in file order (undone ones too)."""
    store = load(path).history.store
    return store.slice(0, len(store))


def file_lines(path: Path) -> list[bytes]:
    """The file's lines, each with its newline."""
    return Path(path).read_bytes().splitlines(keepends=True)


def unit_ends(events: list[ev.Event]) -> list[int]:
    """Event counts at which the file holds only whole units (commands, undo/redo markers).

    Worked out independently of ``History``: a command marker with ``n`` owns
    the ``n`` events after it.
    """
    ends = [0]
    i = 0
    while i < len(events):
        e = events[i]
        i += 1 + (e.n if isinstance(e, ev.Issued) else 0)
        ends.append(i)
    return ends


@contextmanager
def tiny_chunks(chunk: int = 8, cache: int = 2, every: int = 4):
    """Shrink the store's chunks, its cache and the snapshot spacing so a small game
    crosses every boundary a million-event game would (sealing, eviction, batches, snapshots)."""
    saved = (core.store.CHUNK, core.savefile.CHUNK, core.store.CACHE_CHUNKS, Timeline.__init__.__defaults__)
    core.store.CHUNK = core.savefile.CHUNK = chunk
    core.store.CACHE_CHUNKS = cache
    Timeline.__init__.__defaults__ = (None, every)
    try:
        yield
    finally:
        core.store.CHUNK, core.savefile.CHUNK, core.store.CACHE_CHUNKS, Timeline.__init__.__defaults__ = saved
