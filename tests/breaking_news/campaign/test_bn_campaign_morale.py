"""Morale (§12.0) as commands on the demo: when it falls due, the dice, the leader
counting two, Motivation, the rout that ends the game, and the shaken squad."""

from __future__ import annotations

import pytest
from bn_campaign_support import IT, dp, events, new_game, platoon_roster, rolls, run
from playing import refused

from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE


def _losses_then_end(game, *outs: str) -> None:
    """Turn 1 (regulars active), the given figures taken out, to the end phase."""
    run(game, "next", "next dice=6,6,1,1", *(f"out {o}" for o in outs), "next")


def test_losses_are_scored_when_the_turn_ends(demo):
    """§14.0: when the turn ends Conti costs the Bersaglieri 10; Aden (leader) and Ahmed (wounded) the
    militia 10 + 5.

    Digest: DP-1.
    """
    _losses_then_end(demo, "conti killed by irregulars", "aden killed by regulars", "ahmed wounded by regulars")
    assert demo.state.sides["regulars"].dp_by_category == {"casualties": 10}
    assert demo.state.sides["irregulars"].dp_by_category == {"casualties": 15}  # leader 10 + man 5


def test_no_test_without_losses_this_turn(demo):
    """§12.0: a side that lost nobody this turn has no morale test to roll.

    Digest: MOR-1.
    """
    _losses_then_end(demo)
    refused(demo, "morale regulars", "took no losses this turn", rule="MOR-1")


def test_each_player_rolls_his_own(demo):
    _losses_then_end(demo, "conti killed by irregulars")
    refused(demo, "@irregulars morale regulars", "his own side's morale", rule="MOR-1")


def test_dice_are_the_morale_value_and_losses_count_the_leader_twice(demo):
    """§12.0: the Veterans roll 4 dice; Conti and Rossi lost, the commander counted twice: 3; a 3 passes;
    once a turn.

    Digest: AMB-02, MOR-2, MOR-3.
    """
    _losses_then_end(demo, "conti killed by irregulars", "rossi killed by irregulars")
    out = demo.execute("morale regulars dice=1,2,3,1", role="regulars")
    (roll,) = rolls(out)
    assert (len(roll.faces), roll.target, roll.outcome) == (4, 3, "passed")  # 2 lost, the commander twice
    refused(demo, "@regulars morale regulars", "already tested", rule="MOR-1")


def test_motivation_ignores_the_first_failure_then_the_losing_squad_is_routed(demo):
    """§12.0, Extras: Motivation: the Bersaglieri's first failure (1,1,2,1 against 3) is ignored; in turn
    2, with 4 losses so far, 1,1,2,3 fails while they have more points: routed, 15 for disengagement, and
    the game ends.

    Digest: DIFF-48, EXT-6, MOR-3, MOR-5, MOR-7, VIC-1.
    """
    _losses_then_end(demo, "conti killed by irregulars", "rossi killed by irregulars")
    out = demo.execute("morale regulars dice=1,1,2,1", role="regulars")
    assert any("Motivation" in e.text for e in events(out, ev.Noted))
    assert demo.state.phase == "end"
    run(demo, "next", "next dice=6,6,1,1", "out bianchi killed by irregulars", "next")
    out = demo.execute("morale regulars dice=1,1,2,3", role="regulars")  # 4 losses now
    assert rolls(out)[0].outcome == "failed"
    assert demo.state.phase == "final"
    assert demo.state.sides["regulars"].dp_by_category["disengagement"] == 15
    # the var keeps why as an id; the log says it in words
    said = demo.ruleset.describe_var("game_over", demo.state.vars["game_over"])
    assert said.startswith("the game is over: regulars failed morale")


def test_not_losing_the_squad_is_shaken(demo):
    """§12.0: the militia fail (1,2,1 against 3 losses: two men and the leader counted twice) without
    having more defeat points: every man in play is suppressed and retreating, and the game goes on.

    Digest: AMB-52, MOR-6, SUP-1.
    """
    demo.execute("dp regulars 200 their mortar flattened a mosque", role=REFEREE)
    _losses_then_end(demo, "aden killed by regulars", "ahmed killed by regulars")
    out = demo.execute("morale irregulars dice=1,2,1", role="irregulars")  # 2 lost + leader = 3
    assert rolls(out)[0].outcome == "failed"
    shaken = {e.unit: e.add for e in events(out, ev.StatusChanged)}
    assert shaken == {u: ("suppressed", "retreating") for u in ("bashir", "dahir", "egal")}  # Faysal: off the table
    assert demo.state.phase == "end"
    assert demo.state.vars["morale.irregulars.failed"] == 1


def test_next_rolls_the_tests_still_due(demo):
    """§12.0 (ruling BN-MOR-WHEN): the militia lost Aden and did not roll: next rolls their test (6
    passes) before turn 2.

    Digest: MOR-1.
    """
    _losses_then_end(demo, "aden killed by regulars")
    out = demo.execute("next dice=6,1,1", role=REFEREE)
    assert [(e.side, e.roll.purpose) for e in events(out, ev.Rolled)] == [("irregulars", "morale (squad)")]
    assert demo.state.phase == "initiative" and demo.state.turn == 2


def test_a_routed_force_can_be_captured_in_the_final_count(demo):
    """§12.0: the routed Bersaglieri's men near the enemy are captured by the militia in the final count:
    they count as lost.

    Digest: MOR-5.
    """
    demo.execute("dp regulars 100", role=REFEREE)
    _losses_then_end(demo, "conti killed by irregulars", "rossi killed by irregulars", "greco killed by irregulars")
    run(demo, "morale regulars dice=1,1,1,1", role="regulars")  # Motivation
    run(demo, "next", "next dice=6,6,1,1", "out marino killed by irregulars", "next")
    demo.execute("morale regulars dice=1,1,1,1", role="regulars")
    assert demo.state.phase == "final"
    refused(demo, "@regulars capture bianchi", "irregulars capture Cpl Bianchi, not you", rule="MOR-5")
    demo.execute("capture bianchi", role="irregulars")
    assert plain(demo.state.units["bianchi"].out) == "captured by irregulars"
    assert demo.state.sides["regulars"].dp_by_category["casualties"] == 50


def test_english_doubles_a_killed_leader_italian_any_lost_leader(tmp_path):
    """§12.0: Rossi, the commander, badly wounded: one loss in the English draft (killed counts two), two
    in the Italian (lost counts two).

    Digest: AMB-52.
    """
    en = new_game(tmp_path, name="en.ft")
    it = new_game(tmp_path, name="it.ft", variant="it-2009-12-09")
    for game in (en, it):
        _losses_then_end(game, "rossi wounded by irregulars")
    out_en = en.execute("morale regulars dice=1,1,1,1", role="regulars")
    out_it = it.execute("morale regulars dice=1,1,1,1", role="regulars")
    assert rolls(out_en)[0].target == 1  # wounded, not killed: one loss (DIFF-42)
    assert rolls(out_it)[0].target == 2  # "la perdita del comandante della squadra vale 2"
    assert dp(en, "regulars") == dp(it, "regulars") == 10


def test_platoon_morale_adds_a_die_per_squad_under_50_percent_losses(tmp_path):
    """§13.0: the platoon tests once: Veteran 4 dice + the 1st and 3rd squads (the 2nd lost 2 of 3, the AT
    section 1 of 2): 6; 3 lost and the 2nd squad's leader twice: 4; a 4 passes.

    Digest: AMB-53, PLT-1, PLT-4.
    """
    game = new_game(tmp_path, "open")
    run(game, f"roster {platoon_roster(tmp_path / 'p.toml')} regulars limit=300", "roster militia irregulars")
    run(game, "objectives regulars 4 2 5", "objectives irregulars 3 1 5", "next", "next dice=6,6,1,1")
    for man in ("sgt2nd", "2nd0", "at1"):
        game.execute(f"out {man} killed by irregulars", role=REFEREE)
    game.execute("next", role=REFEREE)
    out = game.execute("morale regulars dice=1,1,1,1,1,4", role="regulars")
    (roll,) = rolls(out)
    # Veteran 4 + the 1st and 3rd squads (2nd has lost 2 of 3, the AT section 1 of 2);
    # 3 lost + the 2nd squad's leader counted twice = 4
    assert (len(roll.faces), roll.target, roll.outcome) == (6, 4, "passed")
    assert roll.purpose == "morale (platoon)"
    assert [e.side for e in events(out, ev.Rolled)] == ["regulars"]


MILITIA = ("aden", "ahmed", "bashir", "dahir", "egal", "faysal")


@pytest.mark.parametrize("variant", ["", IT])
def test_a_squad_with_nobody_left_tests_no_morale_and_leaves_no_field(tmp_path, variant):
    """§12.0 (and the Italian draft's 12.0, "la squadra tira"): the squad rolls its morale dice;
    the militia's six men all lost in turn 1, nobody is left to roll them.  Their losses (7,
    the leader counted two) against 3 dice fail on every face, and with 35 defeat points to
    none they are losing: the test would rout them and charge 15 for leaving the field, which
    nobody is left to leave (their losses are already counted).  `next` rolls no test, charges
    nothing, and the game goes on to turn 2; `morale irregulars` is refused, naming §12.0.
    The Bersaglieri, who lost a man, still test (6 passes).

    Digest: MOR-1, MOR-5, DIFF-42."""
    game = new_game(tmp_path, variant=variant)
    _losses_then_end(game, "conti killed by irregulars", *(f"{m} killed by regulars" for m in MILITIA))
    refused(game, "@irregulars morale irregulars", "nobody left", rule="MOR-1")
    out = game.execute("next dice=6,1,1,1", role=REFEREE)
    assert [(e.side, e.roll.purpose) for e in events(out, ev.Rolled)] == [("regulars", "morale (squad)")]
    assert "disengagement" not in game.state.sides["irregulars"].dp_by_category
    assert dp(game, "irregulars") == 35 and game.state.phase == "initiative" and game.state.turn == 2
    game.close()
