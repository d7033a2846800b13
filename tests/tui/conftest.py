from __future__ import annotations

from pathlib import Path

import pytest
from skirmish import patrol_game


@pytest.fixture
def game(tmp_path: Path):
    g = patrol_game(tmp_path / "patrol.ft")
    yield g
    g.close()
