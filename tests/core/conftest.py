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


@pytest.fixture
def skirmish(tmp_path):
    from coretests_support import new_skirmish, skirmish_registered

    with skirmish_registered():
        game = new_skirmish(tmp_path / "skirmish.ftlog")
        yield game
        game.close()
