"""Audit of Breaking News §8.2 (opportunity fire) and §8.3 (covering fire), written from the
rulebook and its digest alone: OPP-1..7, COV-1..6, T-12, EX-04, EX-08.  The 50 cm of
opportunity fire and the 25/50 cm columns of T-12 are tested on both sides of their edge
(a column includes its upper value, AMB-01)."""

from __future__ import annotations

import re

import pytest
from audit_bn_early import allowed, is_out, play, refused, rolls, status, table

from core.log.views import REFEREE
from core.refusal import TYPING

g = table()
irr = table("irr", active="irregulars")


def opportunity(out):
    return [r for r in rolls(out) if r.purpose.startswith("fire")]


# ------------------------------------------------------------------ OPP-1..4


@pytest.mark.audits("OPP-2", "ACT-2")
def test_opportunity_fire_needs_an_enemy_who_moved_or_fired(g):
    refused(g, "react-fire irr1 vet range=30 dice=1", rule="OPP-2")
    g.execute("move vet 10 shoot", role=REFEREE)
    assert opportunity(g.execute("react-fire irr1 vet range=30 dice=1", role=REFEREE))[0].target == 4


@pytest.mark.audits("OPP-2")
def test_opportunity_fire_answers_fire_as_well(g):
    g.execute("fire vet irr3 range=30 dice=1", role=REFEREE)
    assert opportunity(g.execute("react-fire irr1 vet range=30 dice=1", role=REFEREE))[0].target == 4


@pytest.mark.audits("OPP-1", "OPP-2")
@pytest.mark.parametrize(
    ("before", "line", "rule"),
    [
        # OPP-2: Trained stood still while Vet moved: there is nothing of his to answer.
        pytest.param(
            ("move vet 10 shoot",), "react-fire irr1 trained range=30 dice=1", "OPP-2", id="stood-still-OPP-2"
        ),
        # OPP-1: a suppressed man fires by opportunity at no one.
        pytest.param(
            ("mark irr1 suppressed", "move vet 10 shoot"),
            "react-fire irr1 vet range=30 dice=1",
            "SUP-2",
            id="suppressed-OPP-1",
        ),
    ],
)
def test_no_opportunity_fire_at_a_man_who_stood_still_nor_by_a_suppressed_man(g, before, line, rule):
    play(g, *before)
    refused(g, line, rule=rule)


@pytest.mark.audits("OPP-1", "ACT-1")
def test_a_vehicle_may_fire_by_opportunity_the_active_side_may_not(irr):
    irr.execute("move irr1 10 shoot", role=REFEREE)
    assert opportunity(irr.execute("react-fire hummer irr1 range=30 dice=1,1,1,1,1", role=REFEREE))[0].target == 5
    refused(irr, "react-fire irr2 irr1 range=30 dice=1", rule=TYPING)


@pytest.mark.audits("OPP-3")
@pytest.mark.parametrize(("cm", "allowed"), [(50, True), (50.5, False)])
def test_opportunity_fire_at_men_reaches_50_cm(g, cm, allowed):
    g.execute("move vet 10 shoot", role=REFEREE)
    if allowed:
        assert opportunity(g.execute(f"react-fire irr1 vet range={cm} dice=1", role=REFEREE))[0].target == 4
    else:
        refused(g, f"react-fire irr1 vet range={cm} dice=1", rule="OPP-3")


@pytest.mark.audits("OPP-3")
def test_no_50_cm_limit_for_a_sniper_nor_at_a_vehicle(g):
    g.execute("move vet 10 shoot", role=REFEREE)
    assert opportunity(g.execute("react-fire isnipe vet range=60 dice=1", role=REFEREE))[0].target == 4
    g.execute("move hummer 10 dice=3,3", role=REFEREE)
    assert opportunity(g.execute("react-fire irr1 hummer range=70 dice=1", role=REFEREE))[0].target == 5


@pytest.mark.audits("OPP-4")
def test_once_per_enemy_action_but_again_at_the_next(g):
    play(g, "move vet 10 shoot", "react-fire irr1 vet range=30 dice=1")
    refused(g, "react-fire irr1 vet range=30 dice=1", rule="OPP-4")
    g.execute("move trained 10 shoot", role=REFEREE)
    assert opportunity(g.execute("react-fire irr1 trained range=30 dice=1", role=REFEREE))[0].target == 4


@pytest.mark.audits("OPP-4")
def test_an_rpg_fires_by_opportunity_once_per_turn(g):
    play(g, "move vet 10 shoot", "react-fire irpg vet range=30 dice=1", "move trained 10 shoot")
    refused(g, "react-fire irpg trained range=30 dice=1", rule="OPP-1")


@pytest.mark.audits("OPP-4")
def test_a_launcher_fires_by_opportunity_once_per_turn(g):
    play(g, "move vet 10 shoot", "react-fire igl vet range=30 dice=1", "move trained 10 shoot")
    refused(g, "react-fire igl trained range=30 dice=1", rule="OPP-1")


@pytest.mark.audits("OPP-4")
def test_heavy_at_tank_guns_and_mortars_never_fire_by_opportunity(irr):
    irr.execute("move irr1 10 shoot", role=REFEREE)
    refused(irr, "react-fire milan irr1 range=30 dice=1", rule="OPP-1")
    refused(irr, "react-fire tank irr1 range=30 weapon=TANKGUN dice=1", rule="OPP-1")
    refused(irr, "react-fire mortar irr1 range=30 dice=1", rule="OPP-1")
    assert opportunity(irr.execute("react-fire rpg irr1 range=30 dice=1", role=REFEREE))[0].target == 5


@pytest.mark.audits("OPP-4", "ACT-3")
def test_a_group_move_draws_one_reaction_per_reacting_man(g):
    play(g, "move elite 10 elite2 gunner", "react-fire irr1 elite2 range=30 dice=1")
    refused(g, "react-fire irr1 gunner range=30 dice=1", rule="OPP-4")
    g.execute("react-fire irr2 gunner range=30 dice=1", role=REFEREE)


# ------------------------------------------------------------------ T-12, COV-1..6


def covering_value(out) -> int:
    """The value the covering fire is worth (after the cap of 9), from its note."""
    note = next(line for line in out.lines if line.startswith("note: covering fire"))
    return int(re.search(r"worth (\d+)", note).group(1))


# (figure, range, T-12 value + its class's bonus of T-01)
T12 = [
    ("pistol", 25, 1 + 2),
    ("rifle", 25, 1 + 2),
    ("rifle", 50, 1 + 2),
    ("vet", 25, 3 + 2),
    ("vet", 25.5, 2 + 2),
    ("vet", 50, 2 + 2),
    ("smg", 25, 4 + 2),
    ("smg", 25.5, 2 + 2),
    ("gunner", 25, 5 + 3),
    ("gunner", 25.5, 4 + 3),
    ("mmg", 25, 6 + 2),
    ("mmg", 25.5, 5 + 2),
    ("hmg", 25, 7 + 2),
    ("hmg", 25.5, 6 + 2),
    ("hmg", 50, 6 + 2),
    ("sf", 25.5, 2 + 4),
    ("trained", 25.5, 2 + 1),
    ("recruit", 25.5, 2 + 0),
]


@pytest.mark.audits("T-12", "COV-3", "T-01")
@pytest.mark.parametrize(("firer", "cm", "value"), T12)
def test_each_weapon_covers_for_its_value_at_its_distance(g, firer, cm, value):
    assert covering_value(g.execute(f"covering {firer} area=yard range={cm}", role=REFEREE)) == value


@pytest.mark.audits("T-12", "COV-1")
@pytest.mark.parametrize(("firer", "cm"), [("pistol", 25.5), ("vet", 50.5), ("hmg", 50.5)])
def test_no_covering_fire_where_t12_has_no_value(g, firer, cm):
    refused(g, f"covering {firer} area=yard range={cm}", rule="T-12")


@pytest.mark.audits("T-12", "COV-3", "T-01")
@pytest.mark.parametrize(("firer", "value"), [("irr1", 3 + 1), ("irr2", 3), ("irr3", 3)])
def test_the_irregular_classes_covering_bonus(irr, firer, value):
    assert covering_value(irr.execute(f"covering {firer} area=yard range=25", role=REFEREE)) == value


@pytest.mark.audits("COV-3", "EX-04")
def test_the_rangers_cover_the_bunker_for_9(g):
    assert covering_value(g.execute("covering elite gunner area=bunker range=32", role=REFEREE)) == 2 + 4 + 3


@pytest.mark.audits("COV-3")
def test_the_troop_bonus_counts_once_per_group_and_the_value_stops_at_9(g):
    # 2+2+4+3 = 11
    assert covering_value(g.execute("covering elite elite2 gunner area=yard range=30", role=REFEREE)) == 9


@pytest.mark.audits("COV-1")
@pytest.mark.parametrize(("cm", "ok"), [(5, True), (5.5, False)])
def test_a_covering_man_may_move_5_cm(g, cm, ok):
    allowed(g, f"move vet {cm} covering", ok, rule="MOV-1")
    if ok:
        assert covering_value(g.execute("covering vet area=yard range=20", role=REFEREE)) == 5


@pytest.mark.audits("COV-1", "T-03")
def test_covering_fire_is_the_mans_action(g):
    g.execute("covering vet area=yard range=20", role=REFEREE)
    refused(g, "fire vet irr1 range=20 dice=1", rule="T-03")


@pytest.mark.audits("COV-4", "COV-5")
@pytest.mark.parametrize(("faces", "hit"), [("4,4", True), ("4,5", False)])
def test_two_groups_add_their_values_and_each_its_bonus(g, faces, hit):
    # Elite AR at 50: 2 + 3; a Trained AR at 50: 2 + 1; together 8.
    play(g, "covering elite area=yard range=50", "covering trained area=yard range=50", "move vet 10 shoot")
    # A hit: Irr1 saves 4+ with the 6 and his reaction is lost; no hit: he fires, a 1.
    out = g.execute(f"react-fire irr1 vet range=30 area=yard dice={faces}," + ("6" if hit else "1"), role=REFEREE)
    test = rolls(out)[0]
    assert test.faces == tuple(int(f) for f in faces.split(","))
    assert (test.outcome == "hit before reacting") is hit


@pytest.mark.audits("COV-5", "OPP-7", "COV-6", "EX-04")
@pytest.mark.parametrize(("faces", "hit"), [("3,3,3", True), ("4,3,3", False)])
def test_a_man_in_a_bunker_tests_3d6_before_he_fires(g, faces, hit):
    g.execute("covering elite gunner area=bunker range=32", role=REFEREE)  # 9
    g.execute("move vet 10 shoot", role=REFEREE)
    out = g.execute(
        f"react-fire immg vet range=30 area=bunker bunker dice={faces}," + ("6" if hit else "1,1,1,1"), role=REFEREE
    )
    test = rolls(out)[0]
    assert test.unit == "immg" and len(test.faces) == 3
    if hit:  # one hit, saved: suppressed, his reaction lost
        assert [r.unit for r in rolls(out)] == ["immg", "immg"]
        assert "suppressed" in status(g, "immg")
    else:  # he fires: four dice needing 5 at 30 cm
        assert opportunity(out)[0].target == 5


@pytest.mark.audits("COV-5", "COV-6", "EX-08")
@pytest.mark.parametrize(("faces", "hit"), [("4,5", True), ("5,5", False), ("6,6", False)])
def test_2d6_at_or_under_the_value_is_a_hit_before_firing(g, faces, hit):
    g.execute("covering elite elite2 gunner area=yard range=20", role=REFEREE)  # 3+3+5+3 -> 9
    g.execute("move vet 10 shoot", role=REFEREE)
    if hit:
        out = g.execute(f"react-fire irr1 vet range=30 area=yard dice={faces},3", role=REFEREE)
        assert is_out(g, "irr1")  # Irr1 saves 4+: a 3 fails
        assert opportunity(out) == []
    else:
        out = g.execute(f"react-fire irr1 vet range=30 area=yard dice={faces},1", role=REFEREE)
        assert opportunity(out)[0].target == 4 and not is_out(g, "irr1")


@pytest.mark.audits("COV-5", "MOV-6")
@pytest.mark.parametrize(("faces", "dodges"), [("4,4", False), ("4,5", True)])
def test_a_dodge_in_the_area_is_tested_before_the_move(g, faces, dodges):
    g.execute("covering gunner area=yard range=20", role=REFEREE)  # 5 + 3 = 8
    g.execute("move vet 10 shoot", role=REFEREE)
    g.execute(f"react-dodge irr1 3 area=yard dice={faces}" + ("" if dodges else ",6"), role=REFEREE)
    assert ("dodging" in status(g, "irr1")) is dodges


@pytest.mark.audits("COV-6")
def test_each_man_of_a_crew_hit_saves(g):
    # §8.3: "a saving throw for each miniature involved": a hit crew of two saves twice.
    play(g, "covering gunner area=yard range=20", "move vet 10 shoot")
    out = g.execute("react-fire immg vet range=30 area=yard crew=irr2 dice=2,2,6,6", role=REFEREE)
    assert [r.unit for r in rolls(out)][1:] == ["immg", "irr2"]


@pytest.mark.audits("COV-3")
def test_two_men_of_one_team_add_the_bonus_once(g):
    # Two Elite ARs at 30: 2 + 2, and the Elite bonus 3 once: 7 (not 10, capped 9).
    assert covering_value(g.execute("covering elite elite2 area=yard range=30", role=REFEREE)) == 7


@pytest.mark.audits("OPP-2")
def test_a_man_moving_hidden_is_not_seen_so_not_answered(irr):
    irr.execute("move ghost 2 hidden dice=1", role=REFEREE)
    refused(irr, "react-fire vet ghost range=30 dice=1", rule="OPP-2")


@pytest.mark.audits("OPP-2")
def test_a_move_is_answered_while_it_is_made_not_after_the_next_one(g):
    play(g, "move vet 10 shoot", "move trained 10 shoot")
    refused(g, "react-fire irr1 vet range=30 dice=1", rule="OPP-2")
    assert opportunity(g.execute("react-fire irr1 trained range=30 dice=1", role=REFEREE))[0].need == 4


@pytest.mark.audits("OPP-3")
def test_a_sniper_by_opportunity_is_still_held_to_his_rifles_reach(g):
    g.execute("move vet 10 shoot", role=REFEREE)
    refused(g, "react-fire isnipe vet range=150.5 dice=1", rule="T-08")
    assert opportunity(g.execute("react-fire isnipe vet range=150 dice=1", role=REFEREE))[0].need == 5


@pytest.mark.audits("COV-3", "COV-4")
def test_each_covering_action_is_a_group_with_its_bonus(g):
    # §8.3: the bonus is "one per group performing covering fire"; the same team covering
    # in two actions is two groups (ruling BN-C-COVERING): 2 + 3, then 2 + 3 more.
    assert covering_value(g.execute("covering elite area=yard range=30", role=REFEREE)) == 5
    assert covering_value(g.execute("covering elite2 area=yard range=30", role=REFEREE)) == 9


@pytest.mark.audits("COV-3")
def test_one_group_at_two_distances_gives_each_mans_value(g):
    assert covering_value(g.execute("covering elite elite2 area=yard range=20,40", role=REFEREE)) == 3 + 2 + 3


@pytest.mark.audits("COV-3")
@pytest.mark.parametrize("order", ["irr1 irr2", "irr2 irr1"])
def test_a_mixed_group_has_one_bonus_whatever_the_order_it_is_named_in(irr, order):
    # One bonus for the group (§8.3); a Hardened Militiaman (1) with a Fanatic (0): the
    # group is worth what every man in it earns, 0, named in either order
    # (ruling BN-C-COVERING).
    assert covering_value(irr.execute(f"covering {order} area=yard range=30", role=REFEREE)) == 2 + 2 + 0
