"""Every Breaking News combat table against the rulebook's numbers, typed here
from breaking-news-1.5.1-en.md (and the Italian draft where it differs)."""

from __future__ import annotations

from core.rulesets.breaking_news.tables.combat import (
    actions,
    allowances,
    covering,
    fire_table,
    obstacles,
    saves,
    spotting,
    support,
    vehicle_saves,
    weapons,
)
from core.rulesets.breaking_news.words import IT

# §8.0 firing table: weapon -> (needed at 25/50/100/150 cm, 0 = "-"), dice.
BOOK_FIRE = {
    "PISTOL": ((3, 0, 0, 0), 1),
    "AR": ((3, 4, 5, 6), 1),
    "SNIPER": ((2, 3, 4, 5), 1),
    "SMG": ((4, 6, 0, 0), 3),
    "LMG": ((4, 5, 6, 6), 4),
    "MMG": ((4, 5, 5, 6), 4),
    "HMG": ((4, 5, 5, 6), 5),
    "GRENADE": ((4, 0, 0, 0), 1),
    "FLAMER": ((4, 0, 0, 0), 1),
    "RPG": ((4, 5, 6, 0), 1),
    "GL": ((4, 5, 6, 0), 1),
    "ATH": ((4, 5, 6, 6), 1),
    "TANKGUN": ((4, 4, 5, 6), 1),
    "MORTAR": ((4, 4, 5, 6), 1),
}


def test_fire_table_matches_section_8_0():
    """§8.0's firing table, every weapon's numbers, dice and limits, against the book.

    Digest: T-08.
    """
    table = weapons()
    for wid, (bands, dice) in BOOK_FIRE.items():
        assert (table[wid].bands, table[wid].dice) == (bands, dice), wid
    # The AR's burst: "3/4 4/6 5/- 6/-", "1/3 (burst)".
    assert table["AR"].burst_bands == (4, 6, 0, 0) and table["AR"].burst_dice == 3
    # "(max 10cm)" and "(min 10cm)".
    assert table["PISTOL"].max_cm == table["GRENADE"].max_cm == table["FLAMER"].max_cm == 10
    assert table["TANKGUN"].min_cm == table["MORTAR"].min_cm == 10


def test_italian_fire_table_differences():
    """DIFF-24: "Milan e simili 4/4/5/6"; DIFF-23: "Fucile 3/4/5/6, 1 d6"."""
    assert weapons(IT)["ATH"].bands == (4, 4, 5, 6)
    assert weapons(IT)["RIFLE"].bands == (3, 4, 5, 6) and weapons(IT)["RIFLE"].dice == 1
    same = {w: weapons(IT)[w] for w in BOOK_FIRE if w != "ATH"}
    assert same == {w: weapons()[w] for w in BOOK_FIRE if w != "ATH"}


def test_movement_limits_section_6_1():
    """§6.1: which weapons fire after 15 cm (light), after 5 cm (RPG, launcher, sniper), never after a
    move (MMG, HMG, heavy AT), and the tank gun.

    Digest: AMB-10, T-05.
    """
    t = weapons()
    assert {w for w, x in t.items() if x.movement == "steady"} == {"RPG", "GL", "SNIPER"}
    assert {"MMG", "HMG", "ATH"} <= {w for w, x in t.items() if x.movement == "fixed"}
    assert t["TANKGUN"].movement == "gun"
    assert {"PISTOL", "RIFLE", "AR", "SMG", "LMG"} <= {w for w, x in t.items() if x.movement == "light"}


def test_fire_modifiers_section_8_0():
    """§8.0's modifiers to the number needed, and who they apply to, against the book.

    Digest: T-09.
    """
    f = fire_table()
    assert (f.moved_over_cm, f.moved, f.cover, f.poor_class, f.dodge, f.sniper_target, f.lone_crew) == (
        5,
        1,
        1,
        1,
        1,
        1,
        1,
    )
    assert f.special_forces == -1 and f.special_forces_classes == ("R1",)
    assert set(f.poor_classes) == {"R5", "Irr2", "Irr3"}
    assert f.bands_cm == (25, 50, 100, 150)
    assert f.opportunity.men_within_cm == 50
    assert f.split_within_cm == f.group_within_cm == 5
    assert f.suppressed_open_cover_beyond_cm == 25
    # The cover +1 does not apply to snipers, grenades, RPG, flamethrowers.
    ignore = {w for w, x in weapons().items() if x.ignores_cover}
    assert {"SNIPER", "GRENADE", "RPG", "FLAMER"} <= ignore and "AR" not in ignore


def test_burst_areas_section_8_0_1():
    """§8.0.1: 5 cm for grenades, RPGs, launchers and mortars, 7 cm for the tank gun.

    Digest: AMB-29, DIFF-29, T-10.
    """
    t = weapons()
    assert t["GRENADE"].area_cm == t["RPG"].area_cm == t["GL"].area_cm == t["MORTAR"].area_cm == 5
    assert t["TANKGUN"].area_cm == 7


def test_deviation_section_8_0_2():
    """§8.0.2's deviation rows: steps and directions by weapon.

    Digest: T-11.
    """
    d = fire_table().deviation
    assert d["rocket"].step_cm == 3 and d["rocket"].directions == ("short",) * 2 + ("left",) * 2 + ("right",) * 2
    assert d["grenade"].step_cm == 3
    assert d["grenade"].directions == ("short", "short", "left", "right", "over", "over")
    assert d["tank"].step_cm == 5 and d["tank"].directions == ("over",) * 2 + ("left",) * 2 + ("right",) * 2
    assert weapons()["RPG"].deviation == weapons()["ATH"].deviation == "rocket"
    assert weapons()["GRENADE"].deviation == weapons()["MORTAR"].deviation == "grenade"


def test_opportunity_limits_section_8_2():
    """§8.2: RPGs and launchers once a turn; Milans, tank guns and mortars never; rifles any time.

    Digest: OPP-4.
    """
    t = weapons()
    assert t["RPG"].opportunity == t["GL"].opportunity == "once"
    assert t["ATH"].opportunity == t["TANKGUN"].opportunity == t["MORTAR"].opportunity == "never"
    assert t["AR"].opportunity == "any"


def test_covering_table_section_8_3():
    """§8.3's covering-fire values by weapon and distance, the cap of 9, 2d6 (3d6 in a bunker).

    Digest: T-12.
    """
    c = covering()
    assert c.values == {
        "PISTOL": (1, 0),
        "RIFLE": (1, 1),
        "AR": (3, 2),
        "SMG": (4, 2),
        "LMG": (5, 4),
        "MMG": (6, 5),
        "HMG": (7, 6),
    }
    assert (c.cap, c.max_cm, c.dice, c.bunker_dice, c.area_cm) == (9, 50, 2, 3, 15)


def test_actions_section_5_0_and_obstacles_6_2():
    """§5.0's actions (run 25, move and shoot 15, cautious 5, covering fire 5), §6.2's obstacles and the
    other allowances, against the book.

    Digest: T-03, T-04.
    """
    a = actions()
    assert {k: (v.max_cm, v.fire) for k, v in a.items()} == {
        "run": (25, "none"),
        "shoot": (15, "penalty"),
        "cautious": (5, "free"),
        "covering": (5, "covering"),
    }
    ob = obstacles()
    assert {k: (v.max_cm, v.fire) for k, v in ob[1].allows.items()} == {"run": (15, "none"), "shoot": (5, "penalty")}
    assert {k: (v.max_cm, v.fire) for k, v in ob[2].allows.items()} == {"run": (5, "none")}
    assert ob[3].allows == {} and ob[3].helped_as == 2
    al = allowances()
    assert (al.dodge_cm, al.hidden_cm, al.spot_bonus_cm, al.panic_cm, al.carry_cm, al.retreat_cm) == (
        5,
        5,
        5,
        10,
        10,
        15,
    )
    assert (al.tracked_cm, al.wheeled_cm, al.vehicle_dice) == (30, 45, 2)


def test_spotting_table_section_7_0():
    """§7.0's sighting numbers by distance and its modifiers, against the book.

    Digest: T-07.
    """
    s = spotting()
    assert s.bands == ((5, 0), (20, 3), (50, 5), (100, 6))
    assert (s.jungle_or_night, s.open, s.special_forces, s.sniper_target, s.sniper_spotter) == (2, -1, 2, 1, -1)
    assert s.friends_within_cm == 5


def test_saves_sections_9_0_to_9_3():
    """§9.0–§9.3's save values and bonuses, against the book.

    Digest: T-13.
    """
    s = saves()
    assert (s.bonus, s.speculative_bonus, s.bombardment_bonus, s.friendly_bonus, s.natural_fail) == (1, 2, 2, 1, 1)
    assert (s.ied, s.bombardment, s.vehicle_explosion, s.vehicle_explosion_heavy) == (3, 3, 3, 2)
    assert (s.civilian, s.civilian_vs_special_forces, s.explodes_by) == (4, 3, 3)
    assert s.wounded.dead_up_to == 2
    assert s.heavy_explosion_types == ("heavy",)
    assert saves(IT).heavy_explosion_types == ("heavy", "tank")  # DIFF-38


def test_vehicle_saves_section_9_2():
    # columns: light weapons/LMG/MMG, HMG, light AT, IED, tank gun/heavy AT; 0 = unaffected.
    """§9.2's vehicle saves by type and weapon, against the book.

    Digest: AMB-45, T-14, VSAVE-2.
    """
    book = {
        "tank-front": (0, 0, 1, 0, 4),
        "tank-side": (0, 0, 2, 0, 5),
        "heavy": (2, 2, 2, 2, 5),
        "light": (3, 3, 4, 4, 6),
        "protected": (4, 6, 6, 6, 6),
    }
    v = vehicle_saves()
    for vtype, row in book.items():
        assert (v[vtype].light, v[vtype].hmg, v[vtype].light_at, v[vtype].ied, v[vtype].heavy_at) == row, vtype


def test_support_numbers_sections_8_4_to_8_9_and_11():
    s = support()
    a = s.artillery
    assert (a.call, a.improved, a.roe, a.template_cm, a.drift_dice, a.save, a.save_bonus) == (4, 1, -1, 30, 4, 3, 2)
    m = s.mortar
    assert (m.template_cm, m.step_cm, m.irregular_call, m.counter_battery) == (10, 3, 5, 4)
    assert (s.speculative.permission, s.speculative.permission_roe, s.speculative.save_bonus) == (5, 6, 2)
    assert (s.friendly.corridor_cm, s.friendly.beyond_cm, s.friendly.save_bonus) == (10, 10, 1)
    assert (s.smoke.template_cm, s.smoke.drift_dice) == (10, 2)
    assert weapons()["GRENADE"].smoke_step_cm == 1 and weapons()["GL"].smoke_step_cm == 3
    assert (s.ied.dud_up_to, s.ied.trigger_cm, s.ied.save) == (2, 10, 3)
    assert (s.melee.suppressed, s.melee.max_per_side) == (-2, 3)
    st = s.storm
    assert (st.defender_hits, st.attacker_hits, st.trigger_cm, st.civilian_save, st.civilian_save_vs_sf) == (
        5,
        6,
        25,
        4,
        3,
    )
