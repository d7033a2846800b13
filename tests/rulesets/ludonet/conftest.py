"""Fixtures for the Ludonet tests: a game on the demo farm with the pieces the demo
lacks (ln_support.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from ln_support import ludonet_game  # noqa: E402


@pytest.fixture
def armoured(tmp_path, monkeypatch):
    game = ludonet_game(tmp_path, monkeypatch)
    yield game
    game.close()
