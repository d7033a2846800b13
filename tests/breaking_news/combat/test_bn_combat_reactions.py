"""Breaking News reactions during the active player's activation: opportunity fire
(§8.2), covering fire and its test (§8.3, EX-04), dodging and going to ground (§6.5)."""

from __future__ import annotations

from bn_combat_support import facts, next_turn, rolls, status
from playing import refused

from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE
from core.refusal import TYPING


def test_reacting_player_may_only_react(rng):
    """§5.0: only the active player's figures act; the reacting player's react; the active side cannot
    react.

    Digest: ACT-1, ACT-2, OPP-1.
    """
    refused(rng, "@irregulars fire kalash sarge range=20", "react", rule="ACT-2")
    refused(rng, "@regulars react-fire sarge kalash range=20", rule="ACT-2")  # not the reacting side


def test_a_figure_of_the_reacting_side_is_told_the_active_side_by_its_name(tmp_path):
    """The refusal names the active side as the players know it, not by its id (#26), and the
    command the figure may fire with instead (#61)."""
    from bn_combat_support import new_game

    demo = new_game(tmp_path, "demo", active="irregulars")
    assert refused(demo, "fire conti bashir range=40", rule="ACT-1") == (
        "Pte Conti is not on the active side (Somali militia); it may only react: react-fire"
    )
    demo.close()


def test_opportunity_fire_range_and_once_per_action(rng):
    """§8.2: Kalash answers Emfour's move within 50 cm (needs 4 + 1: a 2 misses), once; a new move, a new
    reaction.

    Digest: ACT-2, AMB-17, DIFF-32, OPP-3, OPP-4.
    """
    rng.execute("move m4 10", role="regulars")
    refused(rng, "@irregulars react-fire kalash m4 range=60", "50 cm", rule="OPP-3")
    out = rng.execute("react-fire kalash m4 range=30 dice=2", role="irregulars")
    assert rolls(out)[0].target == 5  # Irr2 +1
    refused(rng, "@irregulars react-fire kalash m4 range=30 dice=2", "already reacted", rule="OPP-4")
    rng.execute("move saw 4", role="regulars")  # a new enemy action
    rng.execute("react-fire kalash saw range=30 dice=2", role="irregulars")


def test_opportunity_fire_at_vehicles_has_no_range_limit_and_rpg_fires_once(rng):
    """§8.2: Rocket answers the Abrams' move at 80 cm (no limit at vehicles): RPG needs 6, a 6 hits; the
    tank front saves on 1+; his RPG fires by opportunity once a turn.

    Digest: OPP-3, OPP-4.
    """
    rng.execute("move abrams 10 dice=6,6", role="regulars")  # the tank moves: Rocket may answer it (§8.2)
    out = rng.execute("react-fire rocket abrams range=80 dice=6,3", role="irregulars")
    to_hit, vsave = rolls(out)
    assert to_hit.target == 6 and vsave.target == 1 and vsave.outcome == "saved"  # tank front vs RPG: 1+
    rng.execute("move m4 3", role="regulars")
    refused(rng, "@irregulars react-fire rocket m4 range=20", "already fired his RPG", rule="OPP-3")


def test_suppressed_figures_cannot_react(rng):
    """§8.2, §10.0: suppressed Kid can neither fire by opportunity nor dodge.

    Digest: AMB-16, AMB-49, OPP-1, SUP-2.
    """
    rng.execute("mark kid suppressed", role=REFEREE)
    refused(rng, "@irregulars react-fire kid sarge range=20", "suppressed", rule="SUP-2")
    refused(rng, "@irregulars react-dodge kid 2", "suppressed", rule="SUP-2")


def test_ex04_covering_fire_worth_nine_against_a_bunker(rng):
    """EX-04 through the commands: Emfour's AR and Saw's LMG at 32 cm, Elite: 2 + 4 + 3 = 9.  Omar's MG in
    the bunker rolls 3d6 = 9 and takes a hit before firing; he saves (4+, +1) and is pinned.

    Digest: AMB-61, COV-3, COV-5, COV-6, OPP-7, T-12.
    """
    out = rng.execute("covering m4 saw area=bunker range=32", role="regulars")
    assert rng.state.vars["covering"] == "bunker=9"
    assert "worth 9" in facts(out, ev.Noted)[-1].text
    assert {"covering", "fired"} <= set(status(rng, "m4"))
    # 3d6 = 9: the MG in the bunker takes a hit before firing; he saves (4+, leader +1) and is pinned.
    rng.execute("move sarge 10", role="regulars")  # the Rangers advance: the MG answers the move (§8.2)
    out = rng.execute("react-fire omar sarge range=32 area=bunker bunker dice=3,3,3,4", role="irregulars")
    test, save = rolls(out)
    assert (len(test.faces), test.target, test.outcome) == (3, 9, "hit before reacting")
    assert save.outcome.startswith("saved") and "suppressed" in status(rng, "omar")
    assert not any(r.purpose.startswith("fires") for r in rolls(out))


def test_a_covering_fire_hit_in_a_bunker_tests_the_whole_crew_behind_protection(rng):
    """§8.3's example: the machine-gun in the bunker that fires despite the covering
    fire takes one hit, saved by each man involved; §9.0: a man behind protection adds
    1 (the leader's +1 is the same one, not another); §10.0: one who saves in cover
    drops out of sight (ruling BN-C-COVERING-HIT).  Omar's MMG, served by Kalash, rolls
    3d6 = 9 against 9: hit.  Omar (4+) saves on 3 + 1; Kalash (5+) on 4 + 1.

    Digest: AMB-33, COV-6, SAVE-3.
    """
    rng.execute("covering m4 saw area=bunker range=32", role="regulars")
    rng.execute("move sarge 10", role="regulars")  # the Rangers advance: the MG answers the move (§8.2)
    out = rng.execute("react-fire omar sarge range=32 area=bunker bunker crew=kalash dice=3,3,3,3,4", role="irregulars")
    test, *crew_saves = facts(out, ev.Rolled)
    assert test.roll.outcome == "hit before reacting"
    assert [(r.unit, r.roll.target, [m.label for m in r.roll.mods]) for r in crew_saves] == [
        ("omar", 4, ["team leader"]),
        ("kalash", 5, ["behind protection"]),
    ]
    for man in ("omar", "kalash"):
        assert {"suppressed", "hidden"} <= set(status(rng, man))
    assert not any(r.purpose.startswith("fires") for r in rolls(out))


def test_the_crew_of_a_weapon_is_one_fire_team(rng):
    rng.execute("covering m4 saw area=bunker range=32", role="regulars")
    rng.execute("move sarge 10", role="regulars")  # the Rangers advance: the MG answers the move (§8.2)
    refused(rng, "@irregulars react-fire omar sarge range=32 area=bunker bunker crew=tali1", "fire team", rule="ACT-3")
    refused(rng, "@irregulars react-fire omar sarge range=32 area=bunker crew=kalash lone", "one crew", rule=TYPING)


def test_covering_fire_test_passed_on_ten(rng):
    """§8.3: Omar's MG in the bunker rolls 3d6 = 10 against 9: he reacts, and his burst is rolled.

    Digest: COV-5, OPP-7.
    """
    rng.execute("covering m4 saw area=bunker range=32", role="regulars")
    rng.execute("move sarge 10", role="regulars")  # the Rangers advance: the MG answers the move (§8.2)
    out = rng.execute("react-fire omar sarge range=32 area=bunker bunker dice=4,3,3,1,1,1,1", role="irregulars")
    test, shot = rolls(out)
    assert test.outcome == "reacts" and shot.purpose.startswith("fire with")
    # §8.3: the covering fire hits at or under the area's value: a roll under, said so
    assert (test.target, test.under, test.total) == (9, True, True)


def test_covering_fire_adds_a_bonus_per_group_and_ends_with_the_turn(rng):
    """§8.3: two groups on the road: Sgt Stone's AR 3 + Elite 3, then Rook's AR 3 + Recruit 0: 9; an area
    nobody covers has no test; the cover ends with the turn.

    Digest: AMB-33, COV-4, COV-7.
    """
    rng.execute("covering sarge area=road range=20", role="regulars")  # AR 3 + Elite 3
    rng.execute("covering rook area=road range=20", role="regulars")  # AR 3 + Recruit 0
    assert rng.state.vars["covering"] == "road=9"
    refused(rng, "@irregulars react-dodge kalash 2 area=house", "no covering fire", rule="OPP-7")
    rng.execute("next", role=REFEREE)
    rng.execute("next", role=REFEREE)
    assert rng.state.vars["covering"] == ""


def test_covering_fire_reaches_50_cm(rng):
    """§8.3: covering fire reaches 50 cm: Spc Saw at 55 cm is refused.

    Digest: COV-1.
    """
    refused(rng, "@regulars covering saw area=far range=55", "50 cm", rule="COV-1")


def test_dodge_and_going_to_ground(rng):
    """§6.5: a dodge moves 5 cm at most into cover; a man with no cover near goes to ground and is
    suppressed.

    Digest: AMB-16, MOV-6, SUP-1, T-04.
    """
    refused(rng, "@irregulars react-dodge kalash 6", "cm must be a distance from 0 to 5 cm: .*not '6'", rule=TYPING)
    out = rng.execute("react-dodge kalash 4", role="irregulars")
    assert facts(out, ev.Moved)[0].cm == 4 and "dodging" in status(rng, "kalash")
    rng.execute("react-ground kid", role="irregulars")
    assert "suppressed" in status(rng, "kid")


def test_sniper_fire_cannot_be_dodged(rng):
    """§6.5: Kalash dodges, but Ghost's sniper rifle at 40 cm needs 3 − 1 (Special Forces) = 2, no +1: a 2
    hits.

    Digest: AMB-26, MOV-6.
    """
    rng.execute("react-dodge kalash 2", role="irregulars")
    out = rng.execute("fire ghost kalash range=40 dice=2,6", role="regulars")
    to_hit = rolls(out)[0]
    assert to_hit.target == 2 and [m.label for m in to_hit.mods] == ["Special Forces"]  # 3 - 1, no dodge


def test_a_dodge_under_covering_fire_tests_first(rng):
    """§6.5, §8.3: Kalash, in the yard under covering fire worth 8, tests before he dodges: 2 + 2 is a
    hit, and he does not move.

    Digest: AMB-33, COV-5, DIFF-18, DIFF-33, MOV-6.
    """
    rng.execute("covering saw area=yard range=20", role="regulars")  # LMG 5 + Elite 3 = 8
    out = rng.execute("react-dodge kalash 3 area=yard dice=2,2,5", role="irregulars")
    assert rolls(out)[0].outcome == "hit before reacting"
    assert not facts(out, ev.Moved) and "dodging" not in status(rng, "kalash")


def test_turn_badges_clear_at_the_next_turn(rng):
    rng.execute("fire sarge kalash range=30 dice=1", role="regulars")
    next_turn(rng, "regulars")
    assert "fired" not in status(rng, "sarge")


def test_answering_fire_is_simultaneous(rng):
    """§8.2: a man the enemy's fire kills or suppresses may still answer that fire.

    Digest: OPP-5.
    """
    rng.execute("fire sarge kalash range=30 dice=4,2", role="regulars")
    assert plain(rng.state.units["kalash"].out)
    out = rng.execute("react-fire kalash sarge range=30 dice=5,2", role="irregulars")
    assert any("simultaneous" in n.text for n in facts(out, ev.Noted))
    assert rolls(out)[0].outcome == "1 hit"
    rng.execute("fire m4 rocket range=30 dice=4,6", role="regulars")
    assert "suppressed" in status(rng, "rocket")
    rng.execute("react-fire rocket m4 range=30 dice=1", role="irregulars")
    rng.execute("move saw 3", role="regulars")
    refused(rng, "@irregulars react-fire rocket saw range=30", "suppressed", rule="SUP-2")
    refused(rng, "@irregulars react-fire kalash saw range=30", "out of action", rule="SAVE-2")


def test_a_dodge_is_spent_on_a_shot_that_rolls_no_dice(rng):
    """§6.5: a man who dodges makes the enemy's roll one worse, against the shot he
    dodged.  At 120 cm an aimed AR needs 6; his dodge makes it 7, so the shot rolls no
    dice (§8.0) — and the dodge is over: the next shot at him needs a plain 6.

    Digest: FIRE-6.
    """
    rng.execute("react-dodge kalash 2", role="irregulars")
    out = rng.execute("fire m4 kalash range=120 aimed", role="regulars")
    assert not rolls(out)
    assert any("no hit possible" in n.text for n in facts(out, ev.Noted))
    assert "dodging" not in status(rng, "kalash")
    out = rng.execute("fire sarge kalash range=120 aimed dice=6,1", role="regulars")
    to_hit = rolls(out)[0]
    assert to_hit.target == 6 and "target dodges" not in [m.label for m in to_hit.mods]
    assert plain(rng.state.units["kalash"].out) == "killed by regulars"


def test_a_man_suppressed_earlier_does_not_answer_a_later_shot_as_simultaneous(rng):
    """§8.2 makes simultaneous only the fire that put him down; §10.0: a suppressed
    figure cannot react by opportunity.  Rocket is suppressed by Emfour's shot; Sgt
    Stone's later shot at him misses (a 1): it did not suppress him, so he cannot
    answer it.

    Digest: OPP-5.
    """
    rng.execute("fire m4 rocket range=30 dice=4,6", role="regulars")
    assert "suppressed" in status(rng, "rocket")
    rng.execute("fire sarge rocket range=30 dice=1", role="regulars")
    refused(rng, "@irregulars react-fire rocket sarge range=30", "suppressed and cannot react", rule="SUP-2")


def test_a_man_who_dodged_a_shot_does_not_fire_back_at_it(rng):
    """§6.5, §8.2: one reaction to each enemy move or fire.  Kalash dodges Emfour's
    shot (it misses, a 1): the dodge was his reaction to it, so he cannot also fire
    back at it; he may react to the enemy's next action.

    Digest: AMB-16.
    """
    rng.execute("react-dodge kalash 2", role="irregulars")
    out = rng.execute("fire m4 kalash range=30 dice=1", role="regulars")
    assert "target dodges" in [m.label for m in rolls(out)[0].mods]
    refused(rng, "@irregulars react-fire kalash m4 range=30", "already reacted to this enemy action", rule="OPP-1")
    rng.execute("move saw 3", role="regulars")
    rng.execute("react-fire kalash saw range=30 dice=2", role="irregulars")


def test_a_group_s_move_and_its_fire_are_one_action_each_enemy_figure_reacting_once(rng):
    """§6.4 (ACT-3): "the combined move+fire counts as one group action; each reacting model
    may react once per group action".  Saw and Emfour (fire team Alpha) move and shoot, then
    fire together at Kid: Kalash, who answered the move, may not answer the fire; Omar, who let
    the move go, may.  The next action of Alpha's side is a new one: Kalash answers it.
    (Fireteam counted the fire as a second action, and Kalash fired twice.)"""
    out = rng.execute("move saw 5 also=m4", role="regulars")
    assert [line for line in out.lines if line.startswith("action")] == ["action 1 of this activation"]
    rng.execute("react-fire kalash m4 range=30 dice=2", role="irregulars")
    out = rng.execute("fire saw kid range=30 with=m4 dice=1,1,1,1,1", role="regulars")
    assert not [line for line in out.lines if line.startswith("action")]  # still action 1
    refused(
        rng, "@irregulars react-fire kalash saw range=30 dice=2", "already reacted to this enemy action", rule="OPP-1"
    )
    rng.execute("react-fire omar saw range=30 dice=1,1,1,1", role="irregulars")
    out = rng.execute("move sarge 5", role="regulars")
    assert [line for line in out.lines if line.startswith("action")] == ["action 2 of this activation"]
    rng.execute("react-fire kalash sarge range=30 dice=2", role="irregulars")


def test_a_figure_that_moves_and_then_fires_gives_one_reaction_too(rng):
    """§5.0, §6.1: a figure's move and his fire in that move are his one action: Kalash,
    having answered Emfour's move, may not answer Emfour's fire."""
    rng.execute("move m4 5", role="regulars")
    rng.execute("react-fire kalash m4 range=30 dice=2", role="irregulars")
    rng.execute("fire m4 kid range=30 dice=1", role="regulars")
    refused(
        rng, "@irregulars react-fire kalash m4 range=30 dice=2", "already reacted to this enemy action", rule="OPP-1"
    )
