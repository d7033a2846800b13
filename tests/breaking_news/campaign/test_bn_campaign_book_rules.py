"""Rules of the book around the fight that no test named before the rules map (issue
#27), each through the commands with exact dice: given these faces, this outcome."""

from __future__ import annotations

from bn_campaign_support import events, new_game, rolls, run
from playing import refused

from core.log import events as ev
from core.log.views import REFEREE
from core.rulesets.breaking_news.campaign import army
from core.rulesets.breaking_news.campaign.army import Roster, RosterExtras, RosterUnit


def test_wnd_2_a_stabilised_man_is_no_loss(demo):
    """§9.3 (digest WND-2, DP-5): a wounded man a medic reaches is stabilised: he fights no
    more, but counts neither for morale nor for defeat points.  Conti and Bianchi are
    badly wounded; Ferri, the medic, stabilises Conti: the Bersaglieri lose 10 (Bianchi
    alone), and their morale test counts one loss: 4 dice (Veterans), a 1 at least.

    Digest: AMB-47.
    """
    run(demo, "option wounded on", "next", "next dice=6,6,1,1")
    run(demo, "out conti wounded by irregulars", "out bianchi wounded by irregulars")
    demo.execute("medic ferri conti", role="regulars")
    demo.execute("next", role=REFEREE)
    assert demo.state.sides["regulars"].dp_by_category == {"casualties": 10}
    (test,) = rolls(demo.execute("morale regulars dice=1,1,1,1", role="regulars"))
    assert (len(test.faces), test.target, test.outcome) == (4, 1, "passed")


def test_wnd_2_an_evacuated_man_is_out_of_danger_as_with_a_medic(demo):
    """§9.3 (digest WND-2, T-15, AMB-47; ruling BN-C-WOUNDED): a wounded man carried off the
    table is out of danger, as one a medic reaches.  Conti and Bianchi are badly wounded;
    Conti is evacuated: the Bersaglieri lose 10 (Bianchi alone), and their morale test
    counts one loss: 4 dice, a 1 at least.  Rossi, unhurt, is no wounded man to evacuate."""
    run(demo, "option wounded on", "next", "next dice=6,6,1,1")
    run(demo, "out conti wounded by irregulars", "out bianchi wounded by irregulars")
    refused(demo, "@regulars evacuate rossi", "not a wounded man", rule="WND-2")
    out = demo.execute("evacuate conti", role="regulars")
    assert [(e.unit, e.cause) for e in events(out, ev.UnitOut)] == [("conti", "stabilised, wounded by irregulars")]
    demo.execute("next", role=REFEREE)
    assert demo.state.sides["regulars"].dp_by_category == {"casualties": 10}
    (test,) = rolls(demo.execute("morale regulars dice=1,1,1,1", role="regulars"))
    assert (len(test.faces), test.target, test.outcome) == (4, 1, "passed")


def test_ext_10_the_irregular_player_moves_an_independent_journalist_2d6_once_a_turn(tmp_path):
    """Extras: Media (digest EXT-10): the Irregular player moves the independent journalists
    2d6 cm.  Reed rolls 3 and 4: 7 cm; he has moved for the turn; the Regular player may not
    move him."""
    game = new_game(tmp_path, "open")
    run(game, "roster bersaglieri regulars", "roster militia irregulars")
    run(game, "objectives regulars 4 2 5", "objectives irregulars 3 1 5", "next", "next dice=1,1,6,6")
    refused(game, "@regulars press reed dice=3,4", "the Irregular player moves", rule="EXT-10")
    out = game.execute("press reed dice=3,4", role="irregulars")
    (moved,) = events(out, ev.Moved)
    assert (moved.unit, moved.cm) == ("reed", 7)
    refused(game, "@irregulars press reed dice=6,6", "has moved this turn", rule="EXT-10")


def test_pts_4_an_extra_that_gives_points_lowers_the_total():
    """Calculating points (digest PTS-4): the army's points are its men, vehicles and
    extras, and an extra that gives points takes them off: a Veteran commander with
    leadership 1 (12 + 5) and Rules of Engagement (−40) total −23."""
    boss = RosterUnit(id="boss", name="boss", cls="R3", weapons=("AR",), leadership=1, roles=("commander",))
    plain = Roster(name="t", army="regular", units=(boss,))
    roe = Roster(name="t", army="regular", units=(boss,), extras=RosterExtras(rules_of_engagement=True))
    assert (army.total_cost(plain), army.total_cost(roe)) == (17, -23)
