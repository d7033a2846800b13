"""Fixtures for the Breaking News campaign tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from bn_campaign_support import IT, new_game  # noqa: E402


@pytest.fixture
def demo(tmp_path):
    game = new_game(tmp_path)
    yield game
    game.close()


@pytest.fixture
def demo_it(tmp_path):
    game = new_game(tmp_path, variant=IT)
    yield game
    game.close()
