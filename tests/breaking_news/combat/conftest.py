"""Fixtures for the Breaking News combat tests: a game at the regulars' activation,
on the demo scenario or on the combat test range (scenarios/combat.toml)."""

from __future__ import annotations

import pytest
from bn_combat_support import new_game


@pytest.fixture
def demo(tmp_path):
    game = new_game(tmp_path, "demo")
    yield game
    game.close()


@pytest.fixture
def rng(tmp_path, monkeypatch):
    """The combat test range, regulars active."""
    game = new_game(tmp_path, "combat", monkeypatch=monkeypatch)
    yield game
    game.close()


@pytest.fixture
def rng_it(tmp_path, monkeypatch):
    """The combat test range under the Italian draft of 9 Dec 2009."""
    game = new_game(tmp_path, "combat", variant="it-2009-12-09", monkeypatch=monkeypatch)
    yield game
    game.close()
