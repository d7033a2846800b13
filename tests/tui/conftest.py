from __future__ import annotations

from pathlib import Path

import pytest

from core.game import Game


def demo_game(path: Path, seed: int = 7) -> Game:
    """The demo scenario with a fixed seed and a fixed clock: same dice, same screens."""
    game = Game.new(path, "breaking-news", seed=seed, clock=lambda: 0)
    game.execute("scenario demo")
    return game


@pytest.fixture
def game(tmp_path: Path):
    g = demo_game(tmp_path / "demo.ft")
    yield g
    g.close()
