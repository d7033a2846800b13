"""Fixtures for the Breaking News campaign tests."""

from __future__ import annotations

import pytest
from bn_campaign_support import IT, new_game


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
