# ruff: noqa: F811  (pytest fixtures imported from coretests_support)
"""Table dice is the referee's choice for his whole table (issue #61): a fact of the log,
so every seat of a served table reads it from the save."""

from __future__ import annotations

import pytest
from coretests_support import skirmish  # noqa: F401  (fixtures)

from core.game import Game
from core.ruleset import Refused
from core.state import table_dice
from core.views import REFEREE


def test_the_referee_turns_table_dice_on_and_off_for_every_role(skirmish):
    assert not table_dice(skirmish.state)
    skirmish.execute("table-dice on", role=REFEREE)
    again = Game.open(skirmish.path, writable=False)  # a seat's copy reads it from the save
    for role in (REFEREE, "blue", "red"):
        assert table_dice(again.view(role))
    said = [line.text for line in again.log_lines("blue")]
    assert "table dice on: each player is asked for the faces of his own rolls" in said
    skirmish.execute("table-dice off", role=REFEREE)
    assert not table_dice(skirmish.state)


def test_a_side_may_not_turn_table_dice_on_or_off(skirmish):
    with pytest.raises(Refused, match="only the referee"):
        skirmish.execute("table-dice on", role="blue")
    skirmish.execute("table-dice on", role=REFEREE)
    with pytest.raises(Refused, match="only the referee"):
        skirmish.execute("table-dice off", role="red")
    assert table_dice(skirmish.state)


def test_turning_table_dice_on_twice_is_refused(skirmish):
    skirmish.execute("table-dice on", role=REFEREE)
    with pytest.raises(Refused, match="already on"):
        skirmish.execute("table-dice on", role=REFEREE)
