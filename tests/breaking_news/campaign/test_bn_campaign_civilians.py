"""Extras: Civilians through combat's ``move``: the turn's roll decides who moves them,
that player moves each up to 15 cm whoever is active, and the other player may not
(rulings BN-CIV-CONTROL, BN-CIV-MOVE).  The demo's Regulars have Negotiation 2: the
Irregular player keeps the civilians on a 3 or more."""

from __future__ import annotations

from bn_campaign_support import events, run, to_activation
from playing import refused

from core.log import events as ev
from core.log.views import REFEREE

REGULARS_ACTIVE = "6,6,1,1"


def test_the_civilians_are_moved_only_after_the_roll(demo):
    to_activation(demo, REGULARS_ACTIVE)
    refused(demo, "@irregulars move civ1 10", "roll for the civilians first", rule="EXT-11")
    refused(
        demo, "move civ1 10", "roll for the civilians first", rule="EXT-11"
    )  # the referee too: nobody controls them yet


def test_the_regular_player_moves_them_when_the_roll_fails(demo):
    """Extras: Civilians: the militia's 2 does not beat the Bersaglieri's Negotiation 2: the Regular
    player moves each civilian up to 15 cm, once.

    Digest: EXT-11.
    """
    to_activation(demo, REGULARS_ACTIVE)
    demo.execute("civilians dice=2", role="irregulars")  # 2 does not beat Negotiation 2
    refused(demo, "@irregulars move civ1 10", "regulars move the civilians this turn, not you", rule="EXT-11")
    out = demo.execute("move civ1 10", role="regulars")
    (moved,) = events(out, ev.Moved)
    assert (moved.unit, moved.cm, moved.how) == ("civ1", 10, "moved by regulars")
    refused(demo, "@regulars move civ1 3", "Market trader has moved this turn", rule="EXT-11")
    refused(demo, "@regulars move civ2 16", "a civilian moves 1 to 15 cm a turn", rule="EXT-11")
    refused(demo, "@regulars move civ2 10 run", "civilians just move", rule="EXT-11")
    demo.execute("move civ2 15", role=REFEREE)  # the referee may move them for the player
    assert demo.state.units["civ2"].moved_cm == 15


def test_the_irregular_player_moves_them_in_the_enemys_activation(demo):
    """Extras: Civilians: a 3 beats Negotiation 2: the Irregular player moves them, even in the enemy's
    activation.

    Digest: AMB-59, EXT-11.
    """
    to_activation(demo, REGULARS_ACTIVE)
    demo.execute("civilians dice=3", role="irregulars")
    refused(demo, "@regulars move civ1 10", "irregulars move the civilians this turn, not you", rule="EXT-11")
    run(demo, "move civ1 12", "move civ2 8", role="irregulars")  # reacting, yet his to move
    assert (demo.state.units["civ1"].moved_cm, demo.state.units["civ2"].moved_cm) == (12, 8)
    refused(demo, "@irregulars move ahmed 10", "you may only react", rule="ACT-2")  # his own men still only react


def test_a_player_moves_only_his_own_figures(demo):
    to_activation(demo, REGULARS_ACTIVE)
    refused(demo, "@regulars move ahmed 10", "Ahmed.* is not one of your figures", rule="ENG-1")
