"""The free ``roll`` judges roll-under checks (``roll 1d10 under=7``) in every ruleset that
gives it (the referee's tools, ``core.rulesets.common.REFEREE_TOOLS``)."""

from __future__ import annotations

from contextlib import closing
from fractions import Fraction

import pytest
from playing import refused
from registry_walk import RULESETS, set_up

from core.game import Game
from core.language.i18n import plain
from core.log import events as ev
from core.log.narrate import describe_roll
from core.log.views import REFEREE
from core.refusal import TYPING
from core.rulesets.common import REFEREE_TOOLS
from tui.odds import chance, succeeded


def _roll(game: Game, line: str) -> ev.Roll:
    out = game.execute(line, role=REFEREE)
    (rolled,) = [e for e in out.events if isinstance(e, ev.Rolled)]
    return rolled.roll


#: The free roll every built-in gives, and any ruleset may (the contract asks it of none).
(FREE_ROLL,) = [spec for spec in REFEREE_TOOLS if spec.name == "roll"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_roll_under_counts_dice_at_or_below(tmp_path, ruleset):
    with closing(Game.new(tmp_path / "g.ft", ruleset, seed=3)) as game:
        if FREE_ROLL not in game.commands:
            pytest.skip(f"{ruleset} gives no free roll (the referee's tools' roll): there is none to judge")
        set_up(game)
        hit = _roll(game, "roll 1d10 under=7 dice=7")
        assert (hit.target, hit.under, hit.sides, plain(hit.outcome)) == (7, True, 10, "1 success")
        assert succeeded(hit) is True and chance(hit) == Fraction(7, 10)
        assert "needing 7 or less" in describe_roll(hit)
        miss = _roll(game, "roll 1d10 under=7 dice=8")
        assert plain(miss.outcome) == "0 successes" and succeeded(miss) is False
        several = _roll(game, "roll 3d10 under=4 purpose=quality dice=4,5,1")
        assert (several.purpose, plain(several.outcome)) == ("quality", "2 successes")
        # each die on its own (issue #26): no single success, a chance per die
        assert several.check == ev.Each(face=4, under=True) and succeeded(several) is None
        over = _roll(game, "roll 2d6 target=5 dice=5,4")
        assert (over.under, plain(over.outcome)) == (False, "1 success")
        refused(game, "roll 1d10 target=3 under=7", "not both", rule=TYPING)
        refused(game, "roll 1d10 under=seven", "whole number", rule=TYPING)
