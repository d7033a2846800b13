"""Fixtures for the Breaking News combat tests: a game at the regulars' activation,
on the demo scenario or on the combat test range (scenarios/combat.toml)."""

from __future__ import annotations

from contextlib import closing

import pytest
from bn_combat_support import new_game


@pytest.fixture
def demo(tmp_path):
    with closing(new_game(tmp_path, "demo")) as game:
        yield game


@pytest.fixture
def rng(tmp_path, monkeypatch):
    """The combat test range, regulars active."""
    with closing(new_game(tmp_path, "combat", monkeypatch=monkeypatch)) as game:
        yield game


@pytest.fixture
def rng_it(tmp_path, monkeypatch):
    """The combat test range under the Italian draft of 9 Dec 2009."""
    with closing(new_game(tmp_path, "combat", variant="it-2009-12-09", monkeypatch=monkeypatch)) as game:
        yield game
