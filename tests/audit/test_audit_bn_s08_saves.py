"""Audit of Breaking News §8.4–§8.9 (support fire, mortars, speculative fire, friendly fire,
vehicles' occupants, smoke) and the saves those sections give, written from the rulebook
and its digest alone: ART-1..6, MORT-1, SPEC-1, FF-1, VF-1, SMK-1, SMK-2 and the support
lines of the quick reference (T-21)."""

from __future__ import annotations

import pytest
from audit_bn_early import is_out, new_game, notes, play, refused, rolls, table

from core.log.views import REFEREE

g = table()


# ------------------------------------------------------------------ ART-1..4


@pytest.mark.audits("ART-1", "T-21")
@pytest.mark.parametrize(
    ("extras", "face", "granted"),
    [
        ((), 3, False),
        ((), 4, True),
        (("improved_support_fire",), 2, False),
        (("improved_support_fire",), 3, True),
        (("rules_of_engagement",), 4, False),
        (("rules_of_engagement",), 5, True),
    ],
)
def test_the_call_for_support_succeeds_on_4_3_with_isf_5_with_roe(tmp_path, extras, face, granted):
    g = new_game(tmp_path, extras=extras, stop="initiative")
    (call,) = rolls(g.execute(f"call-support side=regulars dice={face}", role=REFEREE))
    assert call.outcome == ("granted" if granted else "refused")


@pytest.mark.audits("ART-2", "ART-3")
def test_the_bombardment_lands_next_turn_before_initiative_drifting_4d6(tmp_path):
    g = new_game(tmp_path, stop="initiative")
    g.execute("call-support side=regulars dice=4", role=REFEREE)
    out = g.execute("next dice=6,6,1,1", role=REFEREE)  # turn 1's initiative: nothing lands yet
    assert [r.purpose for r in rolls(out)] == ["initiative", "initiative"]
    play(g, "next", "next")
    out = g.execute("next dice=2,3,4,5,6,6,1,1", role=REFEREE)
    drift, *initiative = rolls(out)
    assert (drift.faces, drift.outcome) == ((2, 3, 4, 5), "14 cm")
    assert [r.purpose for r in initiative] == ["initiative", "initiative"]
    assert "30 cm" in notes(out) and "Militia" in notes(out)  # the bombed player moves it


@pytest.mark.audits("ART-4", "T-21")
@pytest.mark.parametrize(("target", "face", "out"), [("recruit", 1, True), ("recruit", 2, False), ("irr3", 2, False)])
def test_under_the_template_everyone_saves_3_plus_with_2(g, target, face, out):
    # A Recruit's own save is 5+; under a bombardment every class saves 3+ with +2:
    # only a natural 1 fails (AMB-44, literal).
    (save,) = rolls(g.execute(f"blast {target} source=bombardment dice={face}", role=REFEREE))
    assert save.need == 2
    assert is_out(g, target) is out


# ------------------------------------------------------------------ ART-6 the gunship


@pytest.mark.audits("ART-6")
def test_the_gunship_flies_without_limit_and_fires_on_its_last_column(g):
    g.execute("move heli 300", role=REFEREE)
    out = g.execute("fire heli irr1 range=20 dice=1,1,1,1,1", role=REFEREE)
    (fire,) = rolls(out)
    assert (fire.target, len(fire.faces)) == (6, 5)  # the HMG's 150 cm column


@pytest.mark.audits("ART-6")
def test_the_gunship_is_shot_at_always_at_long_range(tmp_path):
    g = new_game(tmp_path, active="irregulars")
    assert rolls(g.execute("fire irpg heli range=20 dice=1", role=REFEREE))[0].target == 6  # RPG's 100 cm column
    assert rolls(g.execute("fire immg heli range=20 dice=1,1,1,1", role=REFEREE))[0].target == 6


# ------------------------------------------------------------------ MORT-1 light mortar


@pytest.mark.audits("MORT-1", "T-10")
def test_a_mortar_hit_hits_everyone_under_its_template(g):
    out = g.execute("fire mortar boss range=30 also=irr2,irr3 dice=4,6,6,1", role=REFEREE)
    assert [r.unit for r in rolls(out)] == ["mortar", "boss", "irr2", "irr3"]
    assert is_out(g, "irr3")


@pytest.mark.audits("MORT-1")
@pytest.mark.parametrize(("cm", "face", "off"), [(30, 3, "3 cm"), (30, 2, "6 cm"), (60, 2, "9 cm")])
def test_a_mortar_miss_lands_3_cm_a_point_where_the_opponent_chooses(g, cm, face, off):
    note = notes(g.execute(f"fire mortar boss range={cm} dice={face}", role=REFEREE))
    assert off in note and "opponent" in note


# ------------------------------------------------------------------ SPEC-1


@pytest.mark.audits("SPEC-1", "SPOT-2")
@pytest.mark.parametrize(("face", "out"), [(1, True), (2, False)])
def test_speculative_fire_at_a_hidden_man_saves_with_2(g, face, out):
    # Irr1 saves 4+; +2 -> 2+; a natural 1 always fails.
    fire, save = rolls(g.execute(f"speculative vet ghost range=30 dice=6,{face}", role=REFEREE))
    assert (fire.need, save.need) == (4, 2)
    assert is_out(g, "ghost") is out


@pytest.mark.audits("SPEC-1", "T-21")
@pytest.mark.parametrize(
    ("extras", "face", "allowed"),
    [((), 4, False), ((), 5, True), (("rules_of_engagement",), 5, False), (("rules_of_engagement",), 6, True)],
)
def test_the_permission_is_5_plus_or_6_with_roe(tmp_path, extras, face, allowed):
    g = new_game(tmp_path, extras=extras)
    out = g.execute(f"speculative vet ghost range=30 permission dice={face}" + (",1" if allowed else ""), role=REFEREE)
    assert rolls(out)[0].outcome == ("allowed" if allowed else "not allowed")
    assert (len(rolls(out)) == 2) is allowed


@pytest.mark.audits("SPEC-1", "SPOT-2")
def test_a_man_in_sight_is_fired_at_not_suspected(g):
    refused(g, "@regulars speculative vet irr1 range=30 dice=1", rule="SPEC-1")


# ------------------------------------------------------------------ FF-1


@pytest.mark.audits("FF-1", "FIRE-14")
@pytest.mark.parametrize(("face", "out"), [(2, True), (3, False)])
def test_a_missed_shot_makes_each_friend_in_the_line_save_with_1(g, face, out):
    # Trained saves 4+; friendly fire +1 -> 3+.
    fire, save = rolls(g.execute(f"fire elite irr1 range=30 line=trained dice=1,{face}", role=REFEREE))
    assert (fire.outcome, save.unit, save.need) == ("miss", "trained", 3)
    assert is_out(g, "trained") is out


@pytest.mark.audits("FF-1")
def test_each_missed_die_of_a_burst_is_a_missed_shot(g):
    # HMG at 30: 5 dice, 5+: 6 hits, four miss -> four friendly-fire saves each.
    out = g.execute("fire hmg irr1 range=30 line=trained dice=6,1,1,1,1,6,6,6,6,6", role=REFEREE)
    fire, hit_save, ff = rolls(out)
    assert (fire.outcome, hit_save.unit, ff.unit, len(ff.faces)) == ("1 hit", "irr1", "trained", 4)


@pytest.mark.audits("FF-1")
def test_a_hit_puts_no_friend_at_risk(g):
    out = g.execute("fire vet irr1 range=30 line=trained dice=6,6", role=REFEREE)
    assert [r.unit for r in rolls(out)] == ["vet", "irr1"]


# ------------------------------------------------------------------ VF-1


@pytest.mark.audits("VF-1")
@pytest.mark.parametrize(("to_hit", "save", "out"), [(3, 0, False), (4, 2, True), (4, 3, False)])
def test_men_in_a_protected_vehicle_count_as_behind_cover(g, to_hit, save, out):
    # Irr1 AR at 20: 3+, cover +1 -> 4+; the driver (R4, 4+) saves with +1 -> 3+.
    g.execute("embark driver hummer", role=REFEREE)
    faces = f"{to_hit},{save}" if save else f"{to_hit}"
    result = rolls(g.execute(f"react-fire irr1 driver range=20 dice={faces}", role=REFEREE))
    assert result[0].target == 4
    if save:
        assert result[1].need == 3
    assert is_out(g, "driver") is out


@pytest.mark.audits("VF-1")
def test_men_in_an_armoured_vehicle_cannot_be_shot_at(g):
    g.execute("embark driver puma", role=REFEREE)
    refused(g, "react-fire irr1 driver range=20 dice=6", rule="VF-1")


# ------------------------------------------------------------------ SMK-1, SMK-2


@pytest.mark.audits("SMK-1")
@pytest.mark.parametrize(
    ("words", "cm", "face", "off"),
    [("", 10, 3, "1 cm"), ("", 10, 1, "3 cm"), ("weapon=GL", 30, 3, "6 cm"), ("weapon=GL", 30, 4, "3 cm")],
)
def test_a_missed_smoke_lands_1_cm_or_3_from_a_launcher_a_point_off(g, words, cm, face, off):
    note = notes(
        g.execute(
            f"smoke bomber range={cm} {words} dice={face}" if not words else f"smoke gl range={cm} {words} dice={face}",
            role=REFEREE,
        )
    )
    assert off in note and "opponent" in note


@pytest.mark.audits("SMK-1")
def test_hand_smoke_reaches_10_cm(g):
    refused(g, "smoke bomber range=10.5 dice=4", rule="T-08")


@pytest.mark.audits("SMK-1")
def test_smoke_on_the_spot_does_not_move(g):
    out = g.execute("smoke bomber range=10 dice=4", role=REFEREE)
    assert rolls(out)[0].outcome != "off the spot"
    assert " cm off" not in notes(out)


@pytest.mark.audits("SMK-2")
@pytest.mark.parametrize(("faces", "way"), [("3,4", "opposite"), ("3,5", "first")])
def test_next_turn_the_smoke_drifts_2d6_even_one_way_odd_the_other(g, faces, way):
    play(g, "smoke bomber range=10 dice=3", "next", "next")
    out = g.execute(f"next dice={faces},6,6,1,1", role=REFEREE)
    drift = rolls(out)[0]
    total = sum(int(f) for f in faces.split(","))
    assert drift.outcome.startswith(f"{total} cm")
    assert ("opposite" in drift.outcome) is (way == "opposite")
    play(g, "next", "next")
    assert "clears" in notes(g.execute("next dice=6,6,1,1", role=REFEREE))


# ------------------------------------------------------------------ the best bonus only


@pytest.mark.audits("ART-4")
def test_a_leader_under_the_template_still_saves_at_2_plus(g):
    # 3+ with +2; his own +1 does not add to it (one bonus, the largest).
    (save,) = rolls(g.execute("blast boss source=bombardment dice=2", role=REFEREE))
    assert save.need == 2 and not is_out(g, "boss")


@pytest.mark.audits("FF-1")
def test_a_leader_in_the_line_saves_with_one_not_two(g):
    # The lieutenant (R4, 4+) is a leader and in the line of fire: +1, not +2 (§9.0).
    _fire, save = rolls(g.execute("fire vet irr1 range=30 line=lt dice=1,3", role=REFEREE))
    assert (save.unit, save.need) == ("lt", 3)
    assert not is_out(g, "lt")


@pytest.mark.audits("VF-1")
@pytest.mark.parametrize(
    ("firer", "words", "small_arms"),
    [
        ("irr2", "", True),
        ("immg", "", True),
        ("isnipe", "", True),
        ("irpg", "", False),
        ("igl", "", False),
        ("irr1", "weapon=GRENADE", False),
    ],
)
def test_only_small_arms_reach_the_men_in_a_protected_vehicle(g, firer, words, small_arms):
    # §8.8: "subject to small arms fire"; an RPG, a launcher or a grenade is fired at the
    # vehicle itself (ruling BN-C-PROTECTED-OCCUPANTS).
    g.execute("embark driver hummer", role=REFEREE)
    cmd = f"react-fire {firer} driver range=10 {words} dice=1,1,1,1"
    if small_arms:
        assert g.execute(cmd.replace("dice=1,1,1,1", "dice=" + ("1,1,1,1" if firer == "immg" else "1")), role=REFEREE)
    else:
        refused(g, cmd.replace("dice=1,1,1,1", "dice=1"), rule="VF-1")
        g.execute("move hummer 10 dice=3,3", role=REFEREE)
        (fire,) = rolls(g.execute(f"react-fire {firer} hummer range=10 {words} dice=1", role=REFEREE))
        assert fire.unit == firer and fire.outcome == "miss"


@pytest.mark.audits("ART-1")
def test_no_call_once_the_turn_has_begun(g):
    refused(g, "call-support side=regulars dice=6", rule="ENG-2")


@pytest.mark.audits("ART-1")
def test_improved_support_fire_and_rules_of_engagement_do_not_go_together(tmp_path):
    g = new_game(tmp_path, extras=("improved_support_fire", "rules_of_engagement"), stop="initiative")
    refused(g, "call-support side=regulars dice=6", rule="EXT-4")


@pytest.mark.audits("VF-1")
def test_a_leader_in_a_protected_vehicle_saves_with_one_not_two(g):
    g.execute("embark lt hummer", role=REFEREE)
    _fire, save = rolls(g.execute("react-fire irr1 lt range=20 dice=6,3", role=REFEREE))
    assert (save.need, is_out(g, "lt")) == (3, False)


@pytest.mark.audits("SMK-1")
@pytest.mark.parametrize(("cm", "allowed"), [(100, True), (100.5, False)])
def test_launcher_smoke_reaches_as_far_as_a_launcher(g, cm, allowed):
    if allowed:
        (roll,) = rolls(g.execute(f"smoke gl range={cm} weapon=GL dice=6", role=REFEREE))
        assert roll.need == 6
    else:
        refused(g, f"smoke gl range={cm} weapon=GL dice=6", rule="T-08")


@pytest.mark.audits("FF-1")
def test_civilians_in_the_line_save_too(tmp_path):
    g = new_game(tmp_path, active="irregulars")
    _fire, save = rolls(g.execute("fire irr1 vet range=30 line=civ dice=1,2", role=REFEREE))
    assert (save.unit, save.need) == ("civ", 3)  # a civilian saves 4+ (§11.1), +1
    assert is_out(g, "civ")


@pytest.mark.audits("FF-1")
def test_in_the_italian_draft_only_the_regulars_fire_endangers_civilians(tmp_path):
    g = new_game(tmp_path, active="irregulars", variant="it-2009-12-09")
    refused(g, "fire irr1 vet range=30 line=civ dice=1,2", rule="DIFF-56")
