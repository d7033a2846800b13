"""Audit of Breaking News §3 (troop classes), §4 (objectives and deployment) and §5
(initiative and actions), written from the rulebook and its digest alone: T-01, T-21 (its
roll-off and initiative lines), OBJ-1, OBJ-2, OBJ-6, EX-01, DEP-1, DEP-3, DEP-4, INI-1,
INI-2, ACT-1, ACT-2.  "At least half" of a force is tested on both sides of its edge."""

from __future__ import annotations

import re

import pytest
from audit_bn_early import is_out, new_game, play, refused, rolls, status, table
from playing import all_refused

from core.log.views import REFEREE

# A Veteran squad (Init/Morale 4) under a commander of leadership 2, with a sergeant of
# leadership 3 who is not the squad commander; a Militia cell (Init/Morale 2) under a
# leader of leadership 1, and a man held back for an ambush.
SQUADS = (
    ("cmd", "regulars", "Alpha", "R3", "AR", "commander", "", 2),
    ("sgt", "regulars", "Alpha", "R3", "AR", "leader", "", 3),
    ("r1", "regulars", "Alpha", "R3", "AR", "", ""),
    ("r2", "regulars", "Alpha", "R3", "AR", "", ""),
    ("r3", "regulars", "Alpha", "R3", "AR", "", ""),
    ("chief", "irregulars", "Cell", "Irr3", "AR", "commander", "", 1),
    ("m1", "irregulars", "Cell", "Irr3", "AR", "", ""),
    ("m2", "irregulars", "Cell", "Irr3", "AR", "", ""),
    ("m3", "irregulars", "Cell", "Irr3", "AR", "", ""),
    ("amb", "irregulars", "Cell", "Irr3", "AR", "ambush", ""),
)


def totals(out) -> list[int]:
    return [int(re.search(r"total (-?\d+)", r.outcome).group(1)) for r in rolls(out)]


setup = table("setup", stop="deployment", men=SQUADS)
initiative = table("initiative", stop="initiative", men=SQUADS)


# ------------------------------------------------------------------ T-01 classes


# (firer, target, save value of the target's class); a hit, then the save at its value
# passes and one under it fails.
SAVES = [
    ("vet", "isf", 2),
    ("vet", "irr1", 4),
    ("vet", "irr2", 5),
    ("vet", "irr3", 5),
]
REGULAR_SAVES = [
    ("irr1", "sf", 2),
    ("irr1", "elite", 3),
    ("irr1", "vet", 3),
    ("irr1", "trained", 4),
    ("irr1", "recruit", 5),
]


@pytest.mark.audits("T-01")
@pytest.mark.parametrize(("firer", "target", "value"), SAVES + REGULAR_SAVES)
@pytest.mark.parametrize("passes", [True, False])
def test_each_class_saves_on_its_value(tmp_path, firer, target, value, passes):
    active = "regulars" if firer == "vet" else "irregulars"
    g = new_game(tmp_path, active=active)
    face = value if passes else value - 1
    g.execute(f"fire {firer} {target} range=20 dice=6,{face}", role=REFEREE)
    assert is_out(g, target) is not passes
    assert ("suppressed" in status(g, target)) is passes


@pytest.mark.audits("T-01", "SPOT-3")
@pytest.mark.parametrize(("spotter", "need"), [("sf", 2), ("elite", 3), ("vet", 3), ("trained", 3), ("recruit", 4)])
def test_each_regular_class_spots_with_its_modifier(tmp_path, spotter, need):
    g = new_game(tmp_path)
    (roll,) = rolls(g.execute(f"spot {spotter} ghost range=20 dice=1", role=REFEREE))
    assert roll.need == need


@pytest.mark.audits("T-01", "COV-3")
@pytest.mark.parametrize(("man", "bonus"), [("sf", 4), ("elite", 3), ("vet", 2), ("trained", 1), ("recruit", 0)])
def test_each_regular_class_covering_bonus(tmp_path, man, bonus):
    g = new_game(tmp_path)
    out = g.execute(f"covering {man} area=yard range=30", role=REFEREE)  # an AR at 30: 2
    assert f"worth {2 + bonus} " in " ".join(out.lines)


# ------------------------------------------------------------------ DEP-1, DEP-3, DEP-4


@pytest.mark.audits("DEP-1", "T-21")
def test_the_deployment_roll_adds_the_squad_commanders_leadership(setup):
    # Rangers 3 + 2 (not the sergeant's 3) = 5, Militia 3 + 1 = 4: the Rangers are First.
    out = setup.execute("rolloff dice=3,3", role=REFEREE)
    assert totals(out) == [5, 4]
    assert "Rangers is the first player" in out.lines


@pytest.mark.audits("DEP-1", "T-21")
def test_a_tied_deployment_roll_is_rolled_again(setup):
    out = setup.execute("rolloff dice=3,4,1,6", role=REFEREE)
    assert totals(out) == [5, 5, 3, 7]
    assert "Militia is the first player" in out.lines


@pytest.mark.audits("DEP-3")
def test_the_second_player_fields_half_his_force_first(setup):
    setup.execute("rolloff dice=3,3", role=REFEREE)  # the Rangers are First, the Militia Second
    refused(setup, "@regulars deploy cmd", rule="DEP-3")
    setup.execute("deploy chief", role="irregulars")  # 1 of 4: not yet half
    refused(setup, "@regulars deploy cmd", rule="DEP-3")
    setup.execute("deploy m1", role="irregulars")  # 2 of 4: at least half
    setup.execute("deploy cmd r1", role="regulars")  # 2 of 5: less than half
    refused(setup, "@irregulars deploy m2", rule="DEP-3")
    setup.execute("deploy r2", role="regulars")  # 3 of 5
    play(setup, "@irregulars deploy m2 m3", "@regulars deploy sgt r3", "next")
    assert setup.state.phase == "initiative"


@pytest.mark.audits("DEP-4")
def test_ambushers_are_not_deployed(setup):
    setup.execute("rolloff dice=3,3", role=REFEREE)
    refused(setup, "@irregulars deploy amb", rule="DEP-4")
    play(setup, "@irregulars deploy chief m1 m2 m3", "@regulars deploy cmd sgt r1 r2 r3", "next")
    assert "off" in " ".join(status(setup, "amb")) and setup.state.phase == "initiative"


# ------------------------------------------------------------------ INI-1, INI-2


@pytest.mark.audits("INI-1", "T-21", "T-01")
def test_initiative_is_2d6_plus_the_main_commanders_leadership_and_init(initiative):
    # Rangers 3+3 + 2 + 4 = 12; Militia 4+4 + 1 + 2 = 11.
    out = initiative.execute("next dice=3,3,4,4", role=REFEREE)
    assert totals(out) == [12, 11]
    assert initiative.state.active_side == "regulars"


@pytest.mark.audits("INI-1")
def test_the_higher_total_is_active(initiative):
    out = initiative.execute("next dice=3,3,5,5", role=REFEREE)  # 12 against 13
    assert totals(out) == [12, 13]
    assert initiative.state.active_side == "irregulars"


def _next_turn(g, dice: str):
    play(g, "next", "next")
    return g.execute(f"next dice={dice}", role=REFEREE)


@pytest.mark.audits("INI-2")
def test_the_winner_gets_minus_one_next_time(initiative):
    initiative.execute("next dice=3,3,4,4", role=REFEREE)  # the Rangers win turn 1
    out = _next_turn(initiative, "3,3,4,5")  # 12 - 1 against 12
    assert totals(out) == [11, 12]
    assert initiative.state.active_side == "irregulars"


@pytest.mark.audits("INI-2")
def test_the_minus_one_is_cumulative_while_he_keeps_winning(initiative):
    initiative.execute("next dice=3,3,4,4", role=REFEREE)
    _next_turn(initiative, "4,4,4,4")  # 14 - 1 against 11
    out = _next_turn(initiative, "4,4,4,4")  # 14 - 2 against 11
    assert totals(out) == [12, 11]


@pytest.mark.audits("INI-2")
def test_the_penalty_passes_to_the_new_winner(initiative):
    initiative.execute("next dice=3,3,4,4", role=REFEREE)  # Rangers
    _next_turn(initiative, "3,3,4,5")  # Militia (11 against 12)
    out = _next_turn(initiative, "3,3,4,5")  # Rangers no longer penalised; Militia -1
    assert totals(out) == [12, 11]
    assert initiative.state.active_side == "regulars"


# ------------------------------------------------------------------ ACT-1, ACT-2


@pytest.mark.audits("ACT-1")
def test_only_the_active_players_men_act(tmp_path):
    g = new_game(tmp_path)
    all_refused(g, "move irr1 5", "fire irr1 vet range=20 dice=1", "covering irr1 area=yard range=20", rule="ACT-1")
    g.execute("move vet 5", role=REFEREE)


@pytest.mark.audits("ACT-1")
def test_each_man_one_action_fire_after_his_move(tmp_path):
    g = new_game(tmp_path)
    play(g, "move vet 5", "fire vet irr1 range=30 dice=1")
    refused(g, "move vet 1", rule="MOV-1")


@pytest.mark.audits("ACT-2")
def test_the_reacting_players_men_only_react(tmp_path):
    g = new_game(tmp_path)
    play(
        g,
        "move vet 10",
        "react-fire irr1 vet range=30 dice=1",
        "react-dodge irr2 3",
        "hide trained",
        "react-spot irr3 trained range=20 dice=1",
    )
    refused(g, "react-dodge vet 3", rule="ACT-2")


# ------------------------------------------------------------------ OBJ-1, OBJ-2, OBJ-6, EX-01


def _mission_2(g, die: int) -> None:
    play(
        g,
        "mission 2",
        "@regulars objectives regulars 4 2 5",
        "@irregulars objectives irregulars 3 1 5",
        f"@irregulars objective-roll dice={die}",
        "next",
        "next dice=6,6,1,1",
    )
    g.execute("next", role=REFEREE)  # the end of turn 1


def _lost(g, marker: int, taker: str) -> int:
    loser = "regulars" if taker == "irregulars" else "irregulars"
    before = g.state.sides[loser].defeat_points
    g.execute(f"take {marker} {taker}", role=REFEREE)
    return g.state.sides[loser].defeat_points - before


@pytest.mark.audits("OBJ-1", "OBJ-6")
def test_each_side_defends_a_main_two_secondary_and_two_fake_markers(setup):
    _mission_2(setup, 4)
    assert [_lost(setup, n, "irregulars") for n in (1, 2, 3, 4, 5)] == [0, 20, 0, 50, 20]
    assert [_lost(setup, n, "regulars") for n in (1, 2, 3, 4, 5)] == [20, 0, 50, 0, 20]


@pytest.mark.audits("OBJ-1")
def test_a_side_names_one_main_and_two_secondary(setup):
    setup.execute("mission 2", role=REFEREE)
    all_refused(setup, "@regulars objectives regulars 4 2", "@regulars objectives regulars 4 4 5", rule="OBJ-1")
    refused(setup, "@irregulars objectives regulars 4 2 5", rule="OBJ-1")


@pytest.mark.audits("OBJ-1")
def test_mission_1_is_between_like_armies(setup):
    refused(setup, "mission 1", rule="OBJ-1")  # Regulars against Irregulars: mission 2 or 3
    setup.execute("mission 2", role=REFEREE)


@pytest.mark.audits("OBJ-1")
def test_in_mission_3_only_the_side_against_special_forces_defends_markers(tmp_path):
    men = (
        ("op1", "regulars", "Delta", "R1", "AR", "commander", "", 1),
        ("op2", "regulars", "Delta", "R1", "AR", "", ""),
        *SQUADS[5:9],
    )
    g = new_game(tmp_path, stop="deployment", men=men)
    g.execute("mission 3", role=REFEREE)
    refused(g, "@regulars objectives regulars 4 2 5", rule="OBJ-1")
    g.execute("objectives irregulars 3 1 5", role="irregulars")


@pytest.mark.audits("OBJ-2", "EX-01", "OBJ-6")
def test_the_secret_3_makes_marker_3_a_main_objective_too(setup):
    _mission_2(setup, 3)
    assert _lost(setup, 3, "irregulars") == 50
    assert _lost(setup, 4, "irregulars") == 50  # the original main stays main
    assert _lost(setup, 1, "irregulars") == 0


@pytest.mark.audits("OBJ-2", "EX-01", "OBJ-6")
def test_the_secret_6_makes_the_main_a_fake(setup):
    _mission_2(setup, 6)
    assert _lost(setup, 4, "irregulars") == 0
    assert _lost(setup, 2, "irregulars") == 20


@pytest.mark.audits("OBJ-2", "EX-01")
def test_the_secret_die_on_the_main_changes_nothing(setup):
    _mission_2(setup, 4)
    assert _lost(setup, 4, "irregulars") == 50
    assert _lost(setup, 3, "irregulars") == 0


@pytest.mark.audits("OBJ-2")
def test_a_secondary_rolled_becomes_a_main(setup):
    _mission_2(setup, 2)
    assert _lost(setup, 2, "irregulars") == 50


@pytest.mark.audits("OBJ-2")
def test_only_the_irregular_player_rolls_and_the_regular_is_not_told(setup):
    play(setup, "mission 2", "@regulars objectives regulars 4 2 5")
    refused(setup, "@regulars objective-roll dice=3", rule="OBJ-2")
    setup.execute("objective-roll dice=3", role="irregulars")
    assert "objective.die" not in setup.view("regulars").secrets


@pytest.mark.audits("OBJ-6")
def test_the_italian_draft_has_no_points_for_a_secondary(tmp_path):
    g = new_game(tmp_path, stop="deployment", men=SQUADS, variant="it-2009-12-09")
    _mission_2(g, 4)
    assert _lost(g, 2, "irregulars") == 0
    assert _lost(g, 4, "irregulars") == 50


@pytest.mark.audits("INI-1")
def test_an_ambush_gives_plus_one_to_the_next_initiative_only(tmp_path):
    g = new_game(tmp_path, stop="initiative", men=SQUADS, extras=("irregulars.ambush",))
    play(g, "next dice=3,3,4,4", "next", "@irregulars ambush amb", "next")
    out = g.execute("next dice=3,3,4,4", role=REFEREE)  # Rangers 12 - 1; Militia 11 + 1
    assert totals(out) == [11, 12]
    out = _next_turn(g, "3,3,4,4")  # Rangers 12; Militia 11 - 1 (last winner), no ambush now
    assert totals(out) == [12, 10]


# ------------------------------------------------------------------ T-21 other lines


squads = table("squads", men=SQUADS)


@pytest.mark.audits("T-21")
@pytest.mark.parametrize(
    ("face", "leader", "passes"), [(4, "", True), (5, "", False), (5, "leader=sgt", True), (6, "leader=sgt", False)]
)
def test_the_suppression_test_is_at_or_under_value_plus_leadership_and_a_6_fails(squads, face, leader, passes):
    # A Veteran's suppression value is 4 (§3.0); the sergeant's leadership 3 makes it 7,
    # yet a 6 always fails.
    squads.execute("mark r1 suppressed", role=REFEREE)
    (test,) = [
        r for r in rolls(squads.execute(f"move r1 3 {leader} dice={face}", role=REFEREE)) if "suppression" in r.purpose
    ]
    assert test.outcome.startswith("passes" if passes else "fails")
    assert ("suppressed" in status(squads, "r1")) is not passes


@pytest.mark.audits("T-21")
@pytest.mark.parametrize(("face", "dead"), [(2, True), (3, False)])
def test_the_wound_roll_1_2_dead_3_to_6_turns(tmp_path, face, dead):
    g = new_game(tmp_path, active="irregulars", options=("wounded",))
    out = g.execute(f"fire irr1 trained range=20 dice=6,1,{face}", role=REFEREE)
    wound = rolls(out)[-1]
    assert wound.faces == (face,)
    assert ("killed" in str(g.state.units["trained"].out)) is dead
    if not dead:
        assert "3 turns" in wound.outcome


@pytest.mark.audits("DEP-4")
def test_infiltrators_are_not_deployed_with_the_rest(tmp_path):
    men = (*SQUADS, ("inf", "regulars", "Delta", "R1", "AR", "infiltrator", ""))
    g = new_game(tmp_path, men=men, stop="deployment", extras=("infiltrators",))
    g.execute("rolloff dice=3,3", role=REFEREE)
    refused(g, "@regulars deploy inf", rule="EXT-1")
    g.execute("deploy chief m1", role="irregulars")
    g.execute("deploy cmd sgt r1", role="regulars")  # 3 of 5: the infiltrator is not counted
    g.execute("deploy m2 m3", role="irregulars")
    refused(g, "@regulars deploy inf", rule="EXT-1")
    g.execute("deploy r2 r3", role="regulars")
    g.execute("deploy inf", role="regulars")  # after everyone
    g.execute("next", role=REFEREE)
    assert g.state.phase == "initiative"
