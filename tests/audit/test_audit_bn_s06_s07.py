"""Audit of Breaking News §6 (movement) and §7 (hidden troops and sighting), written from the
rulebook and its digest alone: T-03..T-07, MOV-1..7, ACT-3 (what it applies), SPOT-1..7.
Every allowance and every band of the sighting table is tested on both sides of its edge
(a band includes its upper value, AMB-01)."""

from __future__ import annotations

import pytest
from audit_bn_early import MEN, allowed, new_game, play, refused, rolls, shot, status, table
from audit_common import cases
from playing import all_refused

from core.log.views import REFEREE
from core.refusal import TYPING

g = table()
irr = table("irr", active="irregulars")


# ------------------------------------------------------------------ T-03, MOV-1


@pytest.mark.audits("T-03", "MOV-1")
@pytest.mark.parametrize(("cm", "words", "ok"), [(25, "run", True), (25.5, "run", False)])
def test_a_run_goes_25_cm(g, cm, words, ok):
    allowed(g, f"move vet {cm} {words}", ok, rule="MOV-1")
    if ok:
        assert "ran" in status(g, "vet")


@pytest.mark.audits(
    "T-03", "MOV-1", "T-05", "ACT-1", "ACT-3", "MOV-3", "MOV-5", "MOV-6", "OPP-4", "SPEC-1", "SPOT-1", "T-06"
)
@pytest.mark.parametrize(
    ("before", "line", "rule"),
    cases(
        {
            "T-03 MOV-1 T-05: no fire after a run": (("move vet 20 run",), "fire vet irr1 range=20 dice=1", "T-05"),
            "T-03 ACT-1: one action per figure a turn": (("move vet 5 cautious",), "move vet 5 cautious", "T-03"),
            "MOV-5: a man who moved cannot get in": (("move vet 3",), "embark vet hummer", "MOV-5"),
            "MOV-6: a suppressed man cannot dodge": (("mark irr1 suppressed",), "react-dodge irr1 3", "SUP-2"),
            "ACT-3: a group is of one fire team": ((), "move elite 10 vet", "ACT-3"),
            "T-05 MOV-3: a tank that fired its gun does not move": (
                ("fire tank techie range=30 weapon=TANKGUN dice=1",),
                "move tank 5 dice=3,3",
                "T-03",
            ),
            "MOV-6 OPP-4: a dodge is his one reaction to that fire": (
                ("fire vet irr3 range=30 dice=1", "react-dodge irr1 2"),
                "react-fire irr1 vet range=30 dice=1",
                "OPP-4",
            ),
            "MOV-5 SPEC-1: no speculative fire after getting in": (
                ("embark trained hummer",),
                "speculative trained ghost range=30 dice=6,6",
                "MOV-5",
            ),
            "SPOT-1: a man is declared hidden only before he acts": (
                ("fire vet irr1 range=30 dice=1",),
                "hide vet",
                "SPOT-1",
            ),
            # the reacting side's men are not activated
            "SPOT-1: nor a man of the reacting side": (("fire vet irr1 range=30 dice=1",), "hide irr2", "ACT-1"),
            "T-06 T-05: a support weapon that climbed does not fire": (
                ("move mmg 5 shoot obstacle=1",),
                "fire mmg irr1 range=30 dice=1,1,1,1",
                "T-05",
            ),
        }
    ),
)
def test_what_a_figure_may_not_do_after(g, before, line, rule):
    play(g, *before)
    refused(g, line, rule=rule)


@pytest.mark.audits("T-03", "MOV-1", "T-05", "MOV-3")
@pytest.mark.parametrize(("cm", "ok", "need"), [(15, True, 5), (15.5, False, None)])
def test_move_and_shoot_goes_15_cm(g, cm, ok, need):
    allowed(g, f"move vet {cm} shoot", ok, rule="MOV-1")
    if ok:
        assert shot(g, "fire vet irr1 range=30 dice=1").need == need


@pytest.mark.audits("T-03", "MOV-1")
@pytest.mark.parametrize(("cm", "ok"), [(5, True), (5.5, False)])
def test_a_cautious_move_goes_5_cm_and_fires_without_penalty(g, cm, ok):
    allowed(g, f"move vet {cm} cautious", ok, rule="MOV-1")
    if ok:
        assert shot(g, "fire vet irr1 range=30 dice=1").need == 4


# ------------------------------------------------------------------ T-05, MOV-3


@pytest.mark.audits("T-05", "MOV-3")
@pytest.mark.parametrize(
    ("firer", "cm", "allowed"),
    [
        ("rpg", 5, True),
        ("rpg", 5.5, False),
        ("gl", 5, True),
        ("gl", 5.5, False),
        ("snipe", 5, True),
        ("snipe", 5.5, False),
        ("gunner", 15, True),
        ("bomber", 15, True),
        ("mmg", 0.5, False),
        ("hmg", 0.5, False),
        ("milan", 0.5, False),
    ],
)
def test_which_weapons_fire_after_which_move(g, firer, cm, allowed):
    g.execute(f"move {firer} {cm}", role=REFEREE)
    cmd = f"fire {firer} irr1 range=10 dice=" + ",".join(["1"] * {"gunner": 4}.get(firer, 1))
    if allowed:
        assert g.execute(cmd, role=REFEREE)
    else:
        refused(g, cmd, rule="MOV-3")


@pytest.mark.audits("T-05", "MOV-3")
@pytest.mark.parametrize(
    ("before", "line", "need"),
    cases(
        {
            "a support weapon that did not move fires": ((), "fire mmg irr1 range=30 dice=1,1,1,1", 5),
            "an RPG, launcher, sniper after 5 cm have no penalty": (
                ("move rpg 5",),
                "fire rpg irr1 range=30 dice=1",
                5,
            ),
            "a vehicle that did not move fires without penalty": ((), "fire hummer irr1 range=30 dice=1,1,1,1,1", 5),
            "an armoured car fires on the move at +1": (
                ("move hummer 20 dice=3,3",),
                "fire hummer irr1 range=30 dice=1,1,1,1,1",
                6,
            ),
        }
    ),
)
def test_who_fires_after_which_move_and_at_what(g, before, line, need):
    play(g, *before)
    assert shot(g, line).need == need


@pytest.mark.audits("T-05", "MOV-3", "MOV-2")
def test_a_tank_fires_its_gun_or_moves_and_its_mg_with_a_penalty(g):
    g.execute("move tank 10 dice=3,4", role=REFEREE)
    refused(g, "fire tank techie range=30 weapon=TANKGUN dice=1", rule="MOV-3")
    assert shot(g, "fire tank irr1 range=30 weapon=HMG dice=1,1,1,1,1").need == 6


# ------------------------------------------------------------------ T-06, MOV-4


@pytest.mark.audits("T-06", "MOV-4")
@pytest.mark.parametrize(("cm", "ok"), [(15, True), (15.5, False)])
def test_a_waist_high_obstacle_by_a_run_limits_it_to_15_cm(g, cm, ok):
    allowed(g, f"move vet {cm} run obstacle=1", ok, rule="MOV-4")
    if ok:
        refused(g, "fire vet irr1 range=20 dice=1", rule="MOV-3")


@pytest.mark.audits("T-06", "MOV-4")
@pytest.mark.parametrize(("cm", "ok"), [(5, True), (5.5, False)])
def test_a_waist_high_obstacle_with_move_and_shoot_5_cm_and_plus_one(g, cm, ok):
    allowed(g, f"move vet {cm} shoot obstacle=1", ok, rule="MOV-4")
    if ok:
        assert shot(g, "fire vet irr1 range=30 dice=1").need == 5


@pytest.mark.audits("T-06", "MOV-4")
@pytest.mark.parametrize(("cm", "ok"), [(5, True), (5.5, False)])
def test_a_man_high_obstacle_takes_a_run_of_5_cm_and_no_fire(g, cm, ok):
    refused(g, "move trained 5 shoot obstacle=2", rule="T-06")
    allowed(g, f"move vet {cm} run obstacle=2", ok, rule="MOV-4")
    if ok:
        refused(g, "fire vet irr1 range=20 dice=1", rule="MOV-3")


@pytest.mark.audits("T-06", "MOV-4")
def test_a_level_3_obstacle_needs_help_and_is_then_level_2(g):
    refused(g, "move vet 5 run obstacle=3", rule="T-06")
    refused(g, "move trained 5.5 run obstacle=3 helped", rule="MOV-4")
    g.execute("move vet 5 run obstacle=3 helped", role=REFEREE)
    assert "fired" not in status(g, "vet")


# ------------------------------------------------------------------ T-04, MOV-2, MOV-5, MOV-6


@pytest.mark.audits("T-04", "MOV-2")
@pytest.mark.parametrize(
    ("vehicle", "faces", "most"),
    [("tank", "6,6", 18), ("tank", "1,1", 28), ("hummer", "6,6", 33), ("hummer", "1,1", 43)],
)
def test_a_vehicle_moves_at_most_30_or_45_less_2d6(g, vehicle, faces, most):
    out = g.execute(f"move {vehicle} {most + 5} dice={faces}", role=REFEREE)
    assert f"moves {most} cm" in " ".join(out.lines)


@pytest.mark.audits("T-04", "MOV-2")
def test_a_vehicle_may_stop_short_of_its_roll(g):
    out = g.execute("move hummer 10 dice=3,4", role=REFEREE)
    assert "moves 10 cm" in " ".join(out.lines)


@pytest.mark.audits("T-04", "ART-6")
def test_the_gunship_flies_without_a_roll(g):
    out = g.execute("move heli 500", role=REFEREE)
    assert rolls(out) == [] and "moves 500 cm" in " ".join(out.lines)


@pytest.mark.audits("T-04")
@pytest.mark.parametrize(("cm", "ok"), [(15, True), (15.5, False)])
def test_civilians_move_15_cm(irr, cm, ok):
    irr.execute("civilians dice=6", role=REFEREE)
    allowed(irr, f"move civ {cm}", ok, rule="EXT-11")


@pytest.mark.audits("MOV-5", "T-03")
def test_getting_in_a_vehicle_is_the_whole_action_no_fire_after(g):
    g.execute("embark trained hummer", role=REFEREE)
    assert "in-vehicle" in status(g, "trained")
    all_refused(g, "fire trained irr1 range=20 dice=1", "covering trained area=yard range=20", rule="T-03")


@pytest.mark.audits("MOV-5", "T-03")
def test_getting_out_is_the_whole_action_no_fire_after(g):
    play(g, "embark trained hummer", "next", "next", "next dice=6,6,1,1", "disembark trained")
    assert "in-vehicle" not in status(g, "trained")
    refused(g, "fire trained irr1 range=20 dice=1", rule="T-03")


@pytest.mark.audits("MOV-6", "T-04")
@pytest.mark.parametrize(("cm", "ok"), [(5, True), (5.5, False)])
def test_a_dodge_moves_5_cm_at_most(g, cm, ok):
    allowed(g, f"react-dodge irr1 {cm}", ok, rule=TYPING)
    if ok:
        assert "dodging" in status(g, "irr1")


@pytest.mark.audits("MOV-6", "T-04")
def test_with_no_cover_near_he_goes_to_ground_suppressed_without_the_plus_one(g):
    g.execute("react-ground irr1", role=REFEREE)
    assert "suppressed" in status(g, "irr1")
    assert shot(g, "fire vet irr1 range=20 dice=1").need == 3


# ------------------------------------------------------------------ ACT-3 (what is applied)


@pytest.mark.audits("ACT-3")
def test_a_group_of_one_fire_team_moves_as_one_action(g):
    out = g.execute("move elite 10 elite2 gunner", role=REFEREE)
    assert [line for line in out.lines if line.startswith("action")] == ["action 1 of this activation"]
    assert all("moved" in status(g, u) for u in ("elite", "elite2", "gunner"))


@pytest.mark.audits("ACT-3")
def test_the_enemy_answers_a_group_at_the_man_its_owner_names(g):
    # Any man of the group may be the one shot at (the owner chooses); a man outside it may not.
    g.execute("move elite 10 elite2", role=REFEREE)
    assert shot(g, "react-fire irr1 elite2 range=30 dice=1").need == 4
    refused(g, "react-fire irr2 vet range=30 dice=1", rule="OPP-2")


# ------------------------------------------------------------------ T-07, SPOT-3


# (spotter, target, range, words, need; 0: sighted without a roll; None: impossible)
SIGHTING = [
    ("vet", "ghost", 5, "", 0),
    ("vet", "ghost", 5.5, "", 3),
    ("vet", "ghost", 20, "", 3),
    ("vet", "ghost", 20.5, "", 5),
    ("vet", "ghost", 50, "", 5),
    ("vet", "ghost", 50.5, "", 6),
    ("vet", "ghost", 100, "", 6),
    ("vet", "ghost", 100.5, "", None),
    ("vet", "ghost", 20, "open", 2),
    ("vet", "ghost", 20, "night", 5),
    ("vet", "hsf", 20, "", 5),
    ("vet", "hsf", 5, "", 2),
    ("vet", "hsnipe", 20, "", 4),
    ("snipe", "ghost", 20, "", 2),
    ("sf", "ghost", 20, "", 2),
    ("recruit", "ghost", 20, "", 4),
    ("sf", "ghost", 20, "open", 0),
    ("sfsnipe", "ghost", 50, "open", 2),
    ("recruit", "ghost", 100, "", None),
    ("vet", "hsf", 50.5, "", None),
    ("trained", "hsf", 50, "", 7),
]


@pytest.mark.audits("T-07", "SPOT-3")
@pytest.mark.parametrize(("spotter", "target", "cm", "words", "need"), SIGHTING)
def test_the_sighting_table_and_its_modifiers(g, spotter, target, cm, words, need):
    if need is None or need >= 7:
        # beyond 100 cm nothing is sighted (AMB-03); nearer, a need above 6 is not tried (SPOT-4)
        refused(g, f"spot {spotter} {target} range={cm} {words} dice=6", rule="AMB-03" if cm > 100 else "SPOT-4")
        assert "hidden" in status(g, target)
        return
    if need == 0:
        out = g.execute(f"spot {spotter} {target} range={cm} {words}", role=REFEREE)
        assert rolls(out) == []
    else:
        out = g.execute(f"spot {spotter} {target} range={cm} {words} dice={need}", role=REFEREE)
        (roll,) = rolls(out)
        assert roll.need == need and roll.outcome == "sighted"
    assert g.state.units[target].spotted_by


@pytest.mark.audits("T-07", "SPOT-3")
def test_one_under_the_number_is_not_sighted(g):
    (roll,) = rolls(g.execute("spot vet ghost range=20.5 dice=4", role=REFEREE))
    assert roll.outcome == "not sighted"
    assert not g.state.units["ghost"].spotted_by


@pytest.mark.audits("T-07", "SPOT-3", "T-01")
def test_an_irr3_spotter_needs_one_more(g):
    play(g, "hide vet", "move trained 5")
    (roll,) = rolls(g.execute("react-spot irr3 vet range=20 dice=3", role=REFEREE))
    assert (roll.need, roll.outcome) == (4, "not sighted")
    (roll,) = rolls(g.execute("react-spot irr1 vet range=20 dice=2", role=REFEREE))
    assert (roll.need, roll.outcome) == (3, "not sighted")


# ------------------------------------------------------------------ SPOT-1, 2, 4, 6, 7, MOV-7


@pytest.mark.audits("SPOT-1")
def test_a_man_is_declared_hidden_when_activated(g):
    g.execute("hide vet", role=REFEREE)
    assert "hidden" in status(g, "vet")
    refused(g, "react-fire irr1 vet range=20 dice=1", rule="OPP-2")


@pytest.mark.audits("SPOT-2")
def test_a_hidden_man_is_fired_at_once_sighted(g):
    refused(g, "fire vet ghost range=20 dice=1", rule="MOV-7")
    g.execute("spot trained ghost range=20 dice=3", role=REFEREE)
    assert shot(g, "fire vet ghost range=20 dice=1").need == 3


@pytest.mark.audits("SPOT-4")
def test_sighting_is_free_and_once_a_turn_per_man(g):
    g.execute("spot vet ghost range=30 dice=1", role=REFEREE)
    refused(g, "spot vet ghost2 range=30 dice=6", rule="MOV-7")
    g.execute("spot trained ghost range=30 dice=1", role=REFEREE)  # several may try the same target
    assert shot(g, "fire vet irr1 range=30 dice=1").need == 4  # and he still has his action


@pytest.mark.audits("SPOT-6", "T-04")
@pytest.mark.parametrize(("cm", "ok"), [(5, True), (5.5, False)])
def test_a_failed_sighting_lets_the_owner_shift_his_man_5_cm(g, cm, ok):
    refused(g, "react-shift ghost 1", rule="SPOT-6")
    g.execute("spot vet ghost range=30 dice=1", role=REFEREE)
    allowed(g, f"react-shift ghost {cm}", ok, rule=TYPING)
    if ok:
        refused(g, "react-shift ghost 1", rule="SPOT-6")


@pytest.mark.audits("SPOT-6")
def test_each_failed_sighting_gives_a_shift(g):
    play(
        g,
        "spot vet ghost range=30 dice=1",
        "spot trained ghost range=30 dice=1",
        "react-shift ghost 5",
        "react-shift ghost 5",
    )
    refused(g, "react-shift ghost 1", rule="SPOT-6")


@pytest.mark.audits("MOV-7", "SPOT-7", "T-03")
@pytest.mark.parametrize(("face", "most"), [(1, 4), (4, 1), (5, 0), (6, 0)])
def test_a_hidden_man_creeps_5_less_1d6_and_stays_hidden(irr, face, most):
    out = irr.execute(f"move ghost {most} hidden dice={face}", role=REFEREE)
    assert f"up to {most} cm" in " ".join(out.lines)
    assert "hidden" in status(irr, "ghost")


@pytest.mark.audits("MOV-7", "SPOT-7")
def test_a_hidden_man_who_moves_more_is_sighted(irr):
    irr.execute("move ghost 5", role=REFEREE)
    assert "hidden" not in status(irr, "ghost")


@pytest.mark.audits("SPOT-7")
def test_a_hidden_man_who_fires_is_sighted(irr):
    irr.execute("fire ghost vet range=30 dice=1", role=REFEREE)
    assert "hidden" not in status(irr, "ghost")


# ------------------------------------------------------------------ T-04: a wounded man carried


def _wounded_trained(tmp_path):
    """The Trained man badly wounded (4 turns) in turn 1; turn 2, the Rangers active."""
    g = new_game(tmp_path, active="irregulars", options=("wounded",))
    play(g, "fire irr1 trained range=20 dice=6,1,4", "next")
    g.execute("next", role=REFEREE)  # the Rangers test morale after their loss (seeded dice: they pass)
    g.execute("next dice=6,6,1,1", role=REFEREE)
    return g


@pytest.mark.audits("T-04")
@pytest.mark.parametrize(("face", "cm"), [(1, 9), (3, 7), (6, 4)])
def test_a_wounded_man_is_carried_10_less_1d6(tmp_path, face, cm):
    g = _wounded_trained(tmp_path)
    out = g.execute(f"carry vet trained dice={face}", role=REFEREE)
    assert f"Trained moves {cm} cm" in " ".join(out.lines)


@pytest.mark.audits("T-04")
def test_a_wounded_man_is_carried_once_a_turn(tmp_path):
    # §9.3 gives the wounded man 10 - 1d6 cm with a comrade's help; like every figure he
    # moves once a turn (§5.0), so a second comrade cannot carry him on (ruling BN-C-CARRY-ONCE).
    g = _wounded_trained(tmp_path)
    g.execute("carry vet trained dice=3", role=REFEREE)
    refused(g, "carry recruit trained dice=3", rule="WND-3")
    play(g, "next", "next", "next dice=6,6,1,1")
    g.execute("carry recruit trained dice=3", role=REFEREE)  # the next turn, again


# ------------------------------------------------------------------ more of §6–§7


@pytest.mark.audits("SPOT-4")
def test_a_man_may_sight_after_his_action(g):
    g.execute("fire vet irr1 range=30 dice=1", role=REFEREE)
    (roll,) = rolls(g.execute("spot vet ghost range=20 dice=3", role=REFEREE))
    assert roll.outcome == "sighted"


@pytest.mark.audits("T-07", "SPOT-3")
def test_at_night_every_sighting_is_plus_two_but_with_night_visors(tmp_path):
    men = (*MEN, ("nv", "regulars", "Bravo", "R3", "AR", "night-visors", ""))
    g = new_game(tmp_path, men=men, night=True)
    assert rolls(g.execute("spot vet ghost range=20 dice=1", role=REFEREE))[0].need == 5
    assert rolls(g.execute("spot nv ghost range=20 dice=1", role=REFEREE))[0].need == 3
    # "+2 in jungle or at night": one modifier, not two.
    assert rolls(g.execute("spot trained ghost range=20 night dice=1", role=REFEREE))[0].need == 5


@pytest.mark.audits("SPOT-7")
def test_a_hidden_man_firing_by_opportunity_is_sighted(g):
    play(g, "move trained 10", "react-fire ghost trained range=30 dice=1")
    assert "hidden" not in status(g, "ghost")


@pytest.mark.audits("T-06", "MOV-4", "T-05")
@pytest.mark.parametrize(("firer", "need"), [("rpg", 6), ("snipe", 4), ("gunner", 6)])
def test_over_a_waist_high_obstacle_every_weapon_fires_with_the_penalty(g, firer, need):
    # §6.2: "you may move 5cm and fire (with penalty)", whatever moved 5 cm (an RPG, a
    # sniper) would otherwise fire without one.
    g.execute(f"move {firer} 3 shoot obstacle=1", role=REFEREE)
    n = 4 if firer == "gunner" else 1
    assert shot(g, f"fire {firer} irr1 range=30 dice=" + ",".join(["1"] * n)).need == need
