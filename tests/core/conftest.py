from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from coretests_support import new_demo  # noqa: E402


@pytest.fixture
def demo(tmp_path):
    game = new_demo(tmp_path / "demo.ftlog")
    yield game
    game.close()
