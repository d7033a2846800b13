"""SetupChoice: the command lines a New game screen's choices stand for."""

from __future__ import annotations

import pytest
from fifth_ruleset import Outpost

from core.ruleset import SetupChoice

MISSION = SetupChoice("mission", "Mission", ("1", "2", "3"), "2", "mission {value}")
OPTIONS = SetupChoice("options", "Optional rules", ("ammo", "wounded"), "", "option {value} on", multiple=True)
OBJECTIVES = SetupChoice(
    "objectives",
    "Objectives",
    ("player", "random"),
    "player",
    "objectives {side} {value}",
    per_side=True,
    labels=("chosen by the player", "at random"),
)


def test_a_choice_left_at_its_default_runs_nothing():
    assert MISSION.command_lines("2") == []
    assert MISSION.command_lines("3") == ["mission 3"]


def test_a_multiple_choice_runs_once_per_value_in_the_order_of_its_choices():
    assert OPTIONS.command_lines(["wounded", "ammo"]) == ["option ammo on", "option wounded on"]
    assert OPTIONS.command_lines([]) == []
    # a lone value is one value, not its letters
    assert OPTIONS.command_lines("ammo") == ["option ammo on"]


def test_a_per_side_choice_names_the_side():
    assert OBJECTIVES.command_lines("random", "regulars") == ["objectives regulars random"]
    assert OBJECTIVES.command_lines("player", "regulars") == []
    assert OBJECTIVES.options() == [("chosen by the player", "player"), ("at random", "random")]
    assert MISSION.options() == [("1", "1"), ("2", "2"), ("3", "3")]


def test_a_choice_is_checked_when_made():
    with pytest.raises(ValueError, match="default '4'"):
        SetupChoice("mission", "Mission", ("1", "2"), "4", "mission {value}")
    with pytest.raises(ValueError, match="one label per choice"):
        SetupChoice("mission", "Mission", ("1", "2"), "1", "mission {value}", labels=("one",))
    with pytest.raises(ValueError, match="default 'ammo'"):
        SetupChoice("options", "Options", ("ammo",), "ammo", "option {value} on", multiple=True)


def test_a_ruleset_offers_none_unless_it_says_so():
    assert Outpost().setup_choices("demo") == ()
