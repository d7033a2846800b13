"""Fixtures for the Ludonet tests: a game on the demo farm with the pieces the demo
lacks (ln_support.py)."""

from __future__ import annotations

import pytest
from ln_support import ludonet_game


@pytest.fixture
def armoured(tmp_path, monkeypatch):
    game = ludonet_game(tmp_path, monkeypatch)
    yield game
    game.close()
