"""A player's own copy, kept as the game goes (issue #74): the client's key and the line client's word
write the seat's role's copy into the data folder's ``copies/``, a new file each time, which holds
against the save as ``fireteam verify --side-copy`` does."""

from __future__ import annotations

from contextlib import closing

import pytest
from waiting import piloted, settled, told

from core.secrets.copycheck import compare
from core.secrets.sidecopy import read
from tui.bench.screenshots import demo_game
from tui.userdata import UserStore


@pytest.fixture
def store(tmp_path) -> UserStore:
    return UserStore(tmp_path / "config", tmp_path / "state", data=tmp_path / "data")


@pytest.fixture
def game(tmp_path):
    with closing(demo_game(tmp_path / "game.ft")) as game:
        yield game


@pytest.mark.parametrize("key", ["ctrl+underscore", "f10"])
async def test_the_key_keeps_the_sides_copy_in_the_data_folder(game, store, key):
    async with piloted(game, role="regulars", store=store) as (app, pilot):
        await pilot.press(key)
        await settled(pilot)
        (kept,) = store.copies.iterdir()
        said = told(app)
    assert said == [f"your copy of the game so far is kept in {store.copies}: {kept.name}"]
    assert kept.name.startswith("game-regulars-") and kept.suffix == ".ft"
    assert read(kept).role == "regulars"
    assert compare(game, kept).ok
    assert kept.stat().st_mode & 0o777 == 0o600
