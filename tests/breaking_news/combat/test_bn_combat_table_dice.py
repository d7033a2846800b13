"""Faces typed at the table complete the faces a line already gives (docs/commands.md, "Dice")."""

from __future__ import annotations

import pytest
from bn_combat_support import rolls
from playing import names

from core.dice.faces import NeedDice
from core.ruleset import Refused


def test_faces_typed_at_the_prompt_complete_the_lines_dice(demo):
    line = "fire conti bashir range=40 dice=6"
    with pytest.raises(NeedDice) as asked:
        demo.execute(line, role="regulars", faces=[])
    assert asked.value.request.text() == "Bashir Ali's save: 1d6, needs 5+"
    # §8.0: the 6 on the line hits; §9.0: the 3 typed at the prompt is the save, failed
    outcome = demo.execute(line, role="regulars", faces=[3])
    assert [r.faces for r in rolls(outcome)] == [(6,), (3,)]
    assert not demo.state.units["bashir"].in_play


def test_the_lines_dice_come_first_and_extra_faces_are_refused(demo):
    with pytest.raises(Refused, match="1 more dice typed than the command rolled") as no:
        demo.execute("fire conti bashir range=40 dice=6", role="regulars", faces=[3, 3])
    names(no.value, "ENG-5")
