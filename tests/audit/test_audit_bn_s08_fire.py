"""Audit of Breaking News §8.0–§8.1 (fire), written from the rulebook and its digest alone
(T-08 the firing table, T-09 its modifiers, T-10 burst areas, FIRE-1..10, FIRE-14, EX-02;
deviation, ammunition and group fire are in test_audit_bn_s08_deviation.py).  Every band of
the table is tested on both sides of its edge: a band includes its upper value (the digest's
AMB-01: 25 is short range, 25.5 is not)."""

from __future__ import annotations

import pytest
from audit_bn_early import is_out, new_game, refused, rolls, shot, status, table

from core.log.views import REFEREE

g = table()
#: The Irregulars active.
irr = table("irr", active="irregulars")


def ones(n: int) -> str:
    return ",".join(["1"] * n)


# T-08: (firer, extra words, range, target number, dice); a Veteran (R3) firer has no class
# modifier, and the target (Irr1 in the open) adds none.
BANDS = [
    ("pistol", "", 10, 3, 1),
    ("rifle", "", 25, 3, 1),
    ("rifle", "", 25.5, 4, 1),
    ("rifle", "", 50, 4, 1),
    ("rifle", "", 50.5, 5, 1),
    ("rifle", "", 100, 5, 1),
    ("rifle", "", 100.5, 6, 1),
    ("rifle", "", 150, 6, 1),
    ("vet", "", 25, 3, 1),
    ("vet", "", 25.5, 4, 1),
    ("vet", "", 50, 4, 1),
    ("vet", "", 50.5, 5, 1),
    ("vet", "", 100, 5, 1),
    ("vet", "", 100.5, 6, 1),
    ("vet", "", 150, 6, 1),
    ("vet", "burst", 25, 4, 3),
    ("vet", "burst", 25.5, 6, 3),
    ("vet", "burst", 50, 6, 3),
    ("snipe", "", 25, 2, 1),
    ("snipe", "", 25.5, 3, 1),
    ("snipe", "", 50, 3, 1),
    ("snipe", "", 50.5, 4, 1),
    ("snipe", "", 100, 4, 1),
    ("snipe", "", 100.5, 5, 1),
    ("snipe", "", 150, 5, 1),
    ("smg", "", 25, 4, 3),
    ("smg", "", 25.5, 6, 3),
    ("smg", "", 50, 6, 3),
    ("gunner", "", 25, 4, 4),
    ("gunner", "", 25.5, 5, 4),
    ("gunner", "", 50, 5, 4),
    ("gunner", "", 50.5, 6, 4),
    ("gunner", "", 150, 6, 4),
    ("mmg", "", 25, 4, 4),
    ("mmg", "", 25.5, 5, 4),
    ("mmg", "", 100, 5, 4),
    ("mmg", "", 100.5, 6, 4),
    ("mmg", "", 150, 6, 4),
    ("hmg", "", 25, 4, 5),
    ("hmg", "", 25.5, 5, 5),
    ("hmg", "", 100, 5, 5),
    ("hmg", "", 100.5, 6, 5),
    ("hmg", "", 150, 6, 5),
    ("bomber", "", 10, 4, 1),
    ("flamer", "", 10, 4, 1),
    ("rpg", "", 25, 4, 1),
    ("rpg", "", 25.5, 5, 1),
    ("rpg", "", 50, 5, 1),
    ("rpg", "", 50.5, 6, 1),
    ("rpg", "", 100, 6, 1),
    ("gl", "", 25, 4, 1),
    ("gl", "", 50.5, 6, 1),
    ("gl", "", 100, 6, 1),
    ("mortar", "", 10, 4, 1),
    ("mortar", "", 25.5, 4, 1),
    ("mortar", "", 50, 4, 1),
    ("mortar", "", 50.5, 5, 1),
    ("mortar", "", 100, 5, 1),
    ("mortar", "", 100.5, 6, 1),
    ("mortar", "", 150, 6, 1),
]


@pytest.mark.audits("T-08", "FIRE-2", "FIRE-3", "FIRE-7")
@pytest.mark.parametrize(("firer", "words", "cm", "need", "n"), BANDS)
def test_the_firing_table_at_each_edge_of_each_band(g, firer, words, cm, need, n):
    roll = shot(g, f"fire {firer} irr1 range={cm} {words} dice={ones(n)}")
    assert (roll.target, len(roll.faces)) == (need, n)
    assert roll.outcome == "miss"


# Heavy AT and the tank gun are fired at a vehicle (FIRE-9): its men are not their targets.
VEHICLE_BANDS = [
    ("milan", "", 25, 4),
    ("milan", "", 25.5, 5),
    ("milan", "", 50, 5),
    ("milan", "", 50.5, 6),
    ("milan", "", 150, 6),
    ("tank", "weapon=TANKGUN", 10, 4),
    ("tank", "weapon=TANKGUN", 50, 4),
    ("tank", "weapon=TANKGUN", 50.5, 5),
    ("tank", "weapon=TANKGUN", 100.5, 6),
]


@pytest.mark.audits("T-08", "FIRE-2")
@pytest.mark.parametrize(("firer", "words", "cm", "need"), VEHICLE_BANDS)
def test_the_heavy_weapons_rows_at_their_edges(g, firer, words, cm, need):
    roll = shot(g, f"fire {firer} techie range={cm} {words} dice=1")
    assert (roll.target, roll.faces) == (need, (1,))


@pytest.mark.audits("T-08", "FIRE-2")
def test_the_italian_milan_row_is_4_4_5_6(tmp_path):
    # DIFF-24: the Italian draft's "Milan e simili" row.
    for cm, need in ((50, 4), (50.5, 5), (100, 5), (100.5, 6)):
        g = new_game(tmp_path / str(cm), variant="it-2009-12-09")
        assert shot(g, f"fire milan techie range={cm} dice=1").target == need


REACH = [
    ("pistol", "", 10.5, "imm"),
    ("bomber", "", 10.5, ""),
    ("flamer", "", 10.5, ""),
    ("rpg", "", 100.5, ""),
    ("gl", "", 100.5, ""),
    ("vet", "", 150.5, ""),
    ("rifle", "", 150.5, ""),
    ("snipe", "", 150.5, ""),
    ("gunner", "", 150.5, ""),
    ("hmg", "", 150.5, ""),
    ("mortar", "", 150.5, ""),
    ("mortar", "", 9.5, ""),
    ("vet", "burst", 50.5, ""),
    ("smg", "", 50.5, ""),
]


@pytest.mark.audits("T-08", "FIRE-2", "FIRE-3")
@pytest.mark.parametrize(("firer", "words", "cm", "_"), REACH)
def test_no_shot_where_the_table_shows_a_dash_or_past_the_reach(g, firer, words, cm, _):
    refused(g, f"fire {firer} irr1 range={cm} {words} dice=1", rule="T-08")
    assert "fired" not in status(g, firer)


@pytest.mark.audits("T-08", "FIRE-2")
def test_the_tank_gun_cannot_fire_under_10_cm(g):
    refused(g, "fire tank techie range=9.5 weapon=TANKGUN dice=1", rule="T-08")


@pytest.mark.audits("FIRE-3")
def test_machine_guns_and_smgs_fire_bursts_only(g):
    for firer in ("smg", "gunner", "mmg", "hmg"):
        refused(g, f"fire {firer} irr1 range=20 aimed dice=1", rule="FIRE-3")


@pytest.mark.audits("FIRE-3", "FIRE-7")
def test_an_ar_fires_aimed_by_default_one_die(g):
    roll = shot(g, "fire vet irr1 range=20 dice=3,6")  # 3+ aimed at 20 cm: a hit, saved
    assert (roll.target, roll.faces, roll.outcome) == (3, (3,), "1 hit")


# ------------------------------------------------------------------ T-09 modifiers


@pytest.mark.audits("T-09", "FIRE-4", "T-05", "MOV-3")
@pytest.mark.parametrize(("cm", "need"), [(5, 4), (5.5, 5), (15, 5)])
def test_moving_more_than_5_cm_adds_one(g, cm, need):
    g.execute(f"move vet {cm} shoot", role=REFEREE)
    assert shot(g, "fire vet irr1 range=30 dice=1").target == need


@pytest.mark.audits("T-09", "FIRE-4")
@pytest.mark.parametrize(
    ("firer", "cm", "need"),
    [
        ("vet", 30, 5),
        ("gunner", 30, 6),
        ("mortar", 30, 5),
        ("snipe", 30, 3),
        ("bomber", 10, 4),
        ("rpg", 30, 5),
        ("gl", 30, 5),
        ("flamer", 10, 4),
    ],
)
def test_cover_adds_one_but_not_for_sniper_grenade_rpg_launcher_or_flamer(g, firer, cm, need):
    n = 4 if firer == "gunner" else 1
    assert shot(g, f"fire {firer} irr1 range={cm} cover dice={ones(n)}").target == need


@pytest.mark.audits("T-09", "FIRE-4", "T-01")
@pytest.mark.parametrize(
    ("firer", "words", "need", "n"),
    [
        ("irr1", "", 4, 1),
        ("irr2", "", 5, 1),
        ("irr3", "", 5, 1),
        ("irr3", "burst", 6, 2),
        ("irr1", "burst", 6, 3),
        ("irpg", "", 5, 1),
    ],
)
def test_the_class_penalty_on_small_arms_only(irr, firer, words, need, n):
    # Irr2/Irr3 +1 on aimed and burst small arms (AMB-25): an Irr3 burst at 30 needs 6 + 1,
    # so it loses a die; Irr1 none; an RPG never (needs 5 at 30).
    roll = shot(irr, f"fire {firer} trained range=30 {words} dice={ones(n)}")
    assert (roll.target, len(roll.faces)) == (need, n)


@pytest.mark.audits("T-09", "FIRE-4", "T-01")
def test_a_recruit_fires_at_plus_one_a_veteran_does_not(g):
    assert shot(g, "fire recruit irr1 range=30 dice=1").target == 5
    assert shot(g, "fire trained irr2 range=30 dice=1").target == 4


@pytest.mark.audits("T-09", "FIRE-4", "T-01")
def test_special_forces_minus_one_on_single_shots_not_bursts(tmp_path):
    g = new_game(tmp_path / "a")
    assert shot(g, "fire sf irr1 range=30 dice=1").target == 3
    assert shot(g, "fire sfsnipe irr2 range=30 dice=1").target == 2
    g = new_game(tmp_path / "b")
    assert shot(g, "fire sf irr1 range=30 burst dice=1,1,1").target == 6


@pytest.mark.audits("T-09", "FIRE-4", "MOV-6")
def test_a_dodge_adds_one_but_not_against_a_sniper(tmp_path):
    g = new_game(tmp_path / "a")
    g.execute("react-dodge irr1 3", role=REFEREE)
    assert shot(g, "fire vet irr1 range=30 dice=1").target == 5
    g = new_game(tmp_path / "b")
    g.execute("react-dodge irr1 3", role=REFEREE)
    assert shot(g, "fire snipe irr1 range=30 dice=1").target == 3


@pytest.mark.audits("T-09", "FIRE-4")
def test_a_sniper_target_and_a_lone_mg_crew_add_one(g):
    assert shot(g, "fire vet isnipe range=30 dice=1").target == 5
    assert shot(g, "fire mmg irr1 range=30 lone dice=1,1,1,1").target == 6
    assert shot(g, "fire hmg irr1 range=30 dice=1,1,1,1,1").target == 5


@pytest.mark.audits("T-09", "FIRE-4")
def test_modifiers_add_up(g):
    g.execute("move recruit 2 shoot", role=REFEREE)
    assert shot(g, "fire recruit irr1 range=30 cover dice=1").target == 4 + 1 + 1  # R5 +1, cover +1
    g.execute("move vet 10 shoot", role=REFEREE)
    assert shot(g, "fire vet isnipe range=20 cover dice=1").target == 3 + 1 + 1 + 1


# ------------------------------------------------------------------ overflow and dice


@pytest.mark.audits("FIRE-5", "EX-02", "T-09")
@pytest.mark.parametrize("firer", ["irr2", "irr3"])
def test_the_kalashnikov_burst_rolls_one_die_needing_6(irr, firer):
    irr.execute("react-dodge elite 3", role=REFEREE)
    roll = shot(irr, f"fire {firer} elite range=40 burst dice=6,6")  # the 6 hits; the Elite saves 3+
    assert (roll.target, roll.faces, roll.outcome) == (6, (6,), "1 hit")
    assert "suppressed" in status(irr, "elite")


@pytest.mark.audits("FIRE-5", "EX-02")
def test_the_kalashnikov_burst_misses_on_a_5(irr):
    irr.execute("react-dodge elite 3", role=REFEREE)
    roll = shot(irr, "fire irr3 elite range=40 burst dice=5")
    assert (roll.target, roll.faces, roll.outcome) == (6, (5,), "miss")
    assert "suppressed" not in status(irr, "elite")


@pytest.mark.audits("FIRE-5")
def test_a_burst_at_exactly_6_keeps_its_dice_and_at_7_loses_one(irr):
    # Irr3 burst at 40: 6 + 1 = 7 -> 2 dice at 6.  Irr1 burst at 40: 6 -> 3 dice.
    roll = shot(irr, "fire irr3 trained range=40 burst dice=1,1")
    assert (roll.target, len(roll.faces)) == (6, 2)
    roll = shot(irr, "fire irr1 trained range=40 burst dice=1,1,1")
    assert (roll.target, len(roll.faces)) == (6, 3)


@pytest.mark.audits("FIRE-5")
def test_a_burst_that_loses_every_die_has_no_effect(irr):
    # Irr3 AR burst at 40: 6 +1 class +1 dodge +1 sniper target = 9 -> 3 dice lost.
    irr.execute("react-dodge snipe 2", role=REFEREE)
    out = irr.execute("fire irr3 snipe range=40 burst", role=REFEREE)
    assert [r for r in rolls(out) if r.purpose.startswith("fire")] == []
    assert "suppressed" not in status(irr, "snipe") and not is_out(irr, "snipe")


@pytest.mark.audits("FIRE-6")
@pytest.mark.parametrize(("cm", "hits_possible"), [(100, True), (100.5, False)])
def test_a_single_shot_needing_more_than_6_cannot_hit(g, cm, hits_possible):
    # A recruit's aimed AR: 5 (+1) = 6 at 100 cm, 6 (+1) = 7 beyond.
    if hits_possible:
        roll = shot(g, f"fire recruit irr1 range={cm} dice=6,6")
        assert (roll.target, roll.outcome) == (6, "1 hit")
    else:
        out = g.execute(f"fire recruit irr1 range={cm}", role=REFEREE)
        assert [r for r in rolls(out) if r.purpose.startswith("fire")] == []
        assert "suppressed" not in status(g, "irr1")


@pytest.mark.audits("FIRE-7", "FIRE-14", "T-01")
def test_each_die_at_or_over_the_number_is_a_hit_and_each_hit_a_save(g):
    # LMG at 30: 5+, 4 dice: 5, 6, 4, 1 -> 2 hits; Irr3 saves 5+ twice: 6 then 4 -> out.
    out = g.execute("fire gunner irr3 range=30 dice=5,6,4,1,6,4", role=REFEREE)
    fire, save = rolls(out)
    assert (fire.outcome, save.faces, save.target) == ("2 hits", (6, 4), 5)
    assert is_out(g, "irr3")


@pytest.mark.audits("FIRE-14", "T-01")
@pytest.mark.parametrize(
    ("target", "save_face", "out"),
    [("irr1", 4, False), ("irr1", 3, True), ("irr3", 5, False), ("irr3", 4, True), ("isf", 2, False), ("isf", 1, True)],
)
def test_a_hit_man_saves_on_his_class_value(g, target, save_face, out):
    g.execute(f"fire vet {target} range=20 dice=6,{save_face}", role=REFEREE)
    assert is_out(g, target) is out
    assert ("suppressed" in status(g, target)) is not out


@pytest.mark.audits("FIRE-14")
def test_a_hit_vehicle_takes_the_vehicle_save(g):
    # HMG at a protected vehicle: 6+ (T-14); a 5 fails by 1 -> knocked out, not exploded.
    out = g.execute("fire hmg techie range=30 dice=6,1,1,1,1,5", role=REFEREE)
    assert rolls(out)[1].target == 6
    assert is_out(g, "techie")


# ------------------------------------------------------------------ FIRE-1, split, areas


@pytest.mark.audits("FIRE-1")
def test_a_hidden_target_in_cover_cannot_be_fired_at(g):
    refused(g, "fire vet ghost range=20 dice=1", rule="MOV-7")


@pytest.mark.audits("FIRE-1", "T-03")
def test_one_fire_per_figure_and_no_move_after_it(g):
    g.execute("fire vet irr1 range=20 dice=1", role=REFEREE)
    refused(g, "fire vet irr2 range=20 dice=1", rule="T-03")
    refused(g, "move vet 5", rule="T-03")


@pytest.mark.audits("FIRE-8")
def test_a_split_burst_works_out_each_target_on_its_own(g):
    g.execute("react-dodge irr3b 2", role=REFEREE)
    out = g.execute("fire gunner irr3 irr3b range=30 split=3,1 dice=1,1,1,1", role=REFEREE)
    first, second = rolls(out)
    assert (first.target, len(first.faces)) == (5, 3)
    assert (second.target, len(second.faces)) == (6, 1)  # his dodge: +1


@pytest.mark.audits("FIRE-8")
def test_a_single_shot_cannot_be_split(g):
    refused(g, "fire vet irr3 irr3b range=30 split=1,1 dice=1,1", rule="FIRE-8")


@pytest.mark.audits("FIRE-10", "T-10")
def test_an_area_weapon_that_hits_hits_everyone_in_the_area(g):
    out = g.execute("fire bomber boss range=10 also=irr2,irr3 dice=4,6,6,1", role=REFEREE)
    assert [r.unit for r in rolls(out)] == ["bomber", "boss", "irr2", "irr3"]
    assert is_out(g, "irr3") and "suppressed" in status(g, "irr2")


@pytest.mark.audits("FIRE-10", "T-10")
def test_a_missed_area_shot_hits_nobody_in_the_area(g):
    out = g.execute("fire rpg boss range=20 also=irr2 dice=3", role=REFEREE)
    assert [r.unit for r in rolls(out)] == ["rpg"]
    assert status(g, "irr2") == ()


@pytest.mark.audits("FIRE-10", "T-10")
def test_a_rifle_shot_has_no_area(g):
    out = g.execute("fire vet boss range=20 also=irr2 dice=6,6", role=REFEREE)
    assert [r.unit for r in rolls(out)] == ["vet", "boss"]
    assert status(g, "irr2") == ()


# ------------------------------------------------------------------ more clauses of T-09


@pytest.mark.audits("T-09", "FIRE-4")
def test_the_class_penalty_is_not_for_grenades(tmp_path):
    g = new_game(tmp_path, active="irregulars")
    assert shot(g, "fire irr3 trained range=10 weapon=GRENADE dice=1").need == 4
    g = new_game(tmp_path / "b")
    assert shot(g, "fire recruit irr1 range=10 weapon=GRENADE dice=1").need == 4


@pytest.mark.audits("T-09", "FIRE-4")
def test_special_forces_minus_one_on_a_thrown_grenade(g):
    # "not burst fire": a grenade is a single shot (AMB-26, literal).
    assert shot(g, "fire sf irr1 range=10 weapon=GRENADE dice=1").need == 3


@pytest.mark.audits("T-09", "FIRE-4", "MOV-6")
def test_cover_and_a_dodge_add_up(g):
    g.execute("react-dodge irr1 2", role=REFEREE)
    assert shot(g, "fire vet irr1 range=30 cover dice=1").need == 6


@pytest.mark.audits("T-09", "FIRE-4")
def test_one_crew_costs_nothing_on_a_vehicles_mount(g):
    refused(g, "fire hummer irr1 range=30 lone dice=1,1,1,1,1", rule="FIRE-1")
    assert shot(g, "fire hummer irr1 range=30 dice=1,1,1,1,1").need == 5


@pytest.mark.audits("FIRE-6", "FIRE-7")
def test_a_number_of_1_or_less_hits_on_any_die(g):
    # The Special Forces sniper at 25 cm: 2 - 1 = 1 (AMB-24, literal).
    roll = shot(g, "fire sfsnipe irr3 range=25 dice=1,6")
    assert (roll.need, roll.outcome) == (1, "1 hit")


@pytest.mark.audits("FIRE-8", "FIRE-5")
def test_each_share_of_a_split_burst_loses_its_own_dice(irr):
    # Irr3 AR burst at 40: 6 + 1 = 7 -> one die lost from each target's share.
    out = irr.execute("fire irr3 trained recruit range=40 burst split=2,1 dice=1", role=REFEREE)
    fired = [r for r in rolls(out) if r.purpose.startswith("fire")]
    assert [(r.need, len(r.faces)) for r in fired] == [(6, 1)]


@pytest.mark.audits("FIRE-8")
def test_the_split_must_use_the_bursts_dice(g):
    refused(g, "fire gunner irr1 irr2 range=30 split=3,2 dice=1,1,1,1,1", rule="FIRE-8")


@pytest.mark.audits("FIRE-10", "T-10")
def test_a_flamethrower_and_a_machine_gun_have_no_area(g):
    out = g.execute("fire flamer irr1 range=10 also=irr2 dice=6,6", role=REFEREE)
    assert [r.unit for r in rolls(out)] == ["flamer", "irr1"]
    out = g.execute("fire gunner irr3 range=30 also=irr3b dice=6,1,1,1,6", role=REFEREE)
    assert [r.unit for r in rolls(out)] == ["gunner", "irr3"]


@pytest.mark.audits("FIRE-10", "T-10")
@pytest.mark.parametrize(
    ("firer", "words", "target"), [("gl", "", "boss"), ("milan", "", "techie"), ("tank", "weapon=TANKGUN", "techie")]
)
def test_launchers_milans_and_tank_guns_hit_their_area(g, firer, words, target):
    out = g.execute(f"fire {firer} {target} range=30 {words} also=irr3 dice=6,6,1", role=REFEREE)
    assert "irr3" in [r.unit for r in rolls(out)]
    assert is_out(g, "irr3")


@pytest.mark.audits("T-09")
def test_the_lone_crew_penalty_is_for_mmgs_and_hmgs_only(g):
    refused(g, "fire gunner irr1 range=30 lone dice=1,1,1,1", rule="FIRE-1")
    assert shot(g, "fire hmg irr1 range=30 lone dice=1,1,1,1,1").need == 6
