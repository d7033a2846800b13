"""Breaking News fire and saves (§8.0–§9.2) pinned exactly: every modifier with its words,
value and section as the player is shown them, every refusal in its words, and each
vehicle save over every face (issue #33: these tests kill the mutants that survived)."""

from __future__ import annotations

import pytest
from playing import refusal

from core.language.i18n import plain
from core.log import events as ev
from core.refusal import TYPING
from core.rulesets.breaking_news.rules import fire, saves
from core.rulesets.breaking_news.rules.fire import AmmoResult, Shot, ShotFacts
from core.rulesets.breaking_news.rules.saves import SaveFacts, VehicleResult
from core.rulesets.breaking_news.tables.combat import weapons

W = weapons()


def _said(mods) -> list[tuple[str, int, str]]:
    return [(plain(m.label), m.value, m.rule) for m in mods]


# ------------------------------------------------------------------------ fire


def test_a_range_outside_the_table_is_refused_in_words():
    assert refusal(fire.band, -1, rule=TYPING) == "a range cannot be negative"
    assert refusal(fire.band, 151, rule="T-08") == "151 cm is beyond every weapon's range (150 cm, §8.0)"
    assert [fire.band(cm) for cm in (0, 25, 26, 50, 51, 100, 101, 150)] == [0, 0, 1, 1, 2, 2, 3, 3]


def test_a_weapon_that_cannot_fire_so_is_refused_in_words():
    assert refusal(fire.base_shot, W["RIFLE"], "burst", 10, rule="T-08") == "the Rifle fires single shots only (§8.0)"
    assert (
        refusal(fire.base_shot, W["SMG"], "aimed", 10, rule="FIRE-3")
        == "the Sub-machine gun fires bursts only (§8.0, ruling BN-C-BURST)"
    )
    assert refusal(fire.base_shot, W["RIFLE"], "aimed", -1, rule=TYPING) == "a range cannot be negative"
    assert refusal(fire.base_shot, W["PISTOL"], "aimed", 11, rule="T-08") == "the Pistol reaches 10 cm at most (§8.0)"
    assert (
        refusal(fire.base_shot, W["MORTAR"], "aimed", 9, rule="T-08")
        == "the Light mortar cannot fire closer than 10 cm (§8.0)"
    )
    assert (
        refusal(fire.base_shot, W["AR"], "burst", 60, rule="T-08")
        == "Assault rifle burst fire cannot reach 60 cm (§8.0)"
    )
    assert (
        refusal(fire.base_shot, W["SMG"], "burst", 60, rule="T-08") == "the Sub-machine gun cannot reach 60 cm (§8.0)"
    )


def test_a_shot_at_point_blank_and_at_the_edges_of_reach():
    assert fire.base_shot(W["RIFLE"], "aimed", 0) == (3, 1)
    assert fire.base_shot(W["MORTAR"], "aimed", 10) == (4, 1)
    assert fire.base_shot(W["AR"], "burst", 50) == (6, 3)
    assert fire.base_shot(W["AR"], "aimed", 150) == (6, 1)


def test_the_longest_reach_is_the_edge_of_the_last_band_with_a_number():
    assert fire.longest_reach(W["AR"], "burst") == 50
    assert fire.longest_reach(W["AR"], "aimed") == 150
    assert fire.longest_reach(W["SMG"], "burst") == 50
    assert fire.longest_reach(W["RPG"], "aimed") == 100
    assert fire.longest_reach(W["PISTOL"], "aimed") == 10  # its band reaches 25, the pistol 10


@pytest.mark.parametrize(
    ("weapon", "mode", "range_cm", "facts", "said"),
    [
        ("RIFLE", "aimed", 30, ShotFacts(), []),
        ("RIFLE", "aimed", 30, ShotFacts(moved_cm=5), []),
        ("RIFLE", "aimed", 30, ShotFacts(moved_cm=6), [("firer moved", 1, "§8.0")]),
        ("RIFLE", "aimed", 30, ShotFacts(moving_penalty=True), [("firer moved", 1, "§8.0")]),
        ("RIFLE", "aimed", 30, ShotFacts(cover=True), [("target behind cover", 1, "§8.0")]),
        ("RPG", "aimed", 30, ShotFacts(cover=True), []),
        ("RIFLE", "aimed", 25, ShotFacts(target_suppressed_in_open=True), []),
        (
            "RIFLE",
            "aimed",
            26,
            ShotFacts(target_suppressed_in_open=True),
            [("suppressed target, in cover past 25 cm", 1, "§10.0")],
        ),
        (
            "RIFLE",
            "aimed",
            26,
            ShotFacts(cover=True, target_suppressed_in_open=True),
            [("target behind cover", 1, "§8.0")],
        ),
        ("RIFLE", "aimed", 30, ShotFacts(firer_class="R5"), [("R5 firing", 1, "§8.0")]),
        ("GRENADE", "aimed", 5, ShotFacts(firer_class="Irr2"), []),
        ("RIFLE", "aimed", 30, ShotFacts(dodge=True), [("target dodges", 1, "§6.5")]),
        ("SNIPER", "aimed", 30, ShotFacts(dodge=True), []),
        ("RIFLE", "aimed", 30, ShotFacts(target_sniper=True), [("target is a sniper", 1, "§8.0")]),
        ("MMG", "burst", 30, ShotFacts(lone_crew=True), [("one crew on the MG", 1, "§8.0")]),
        ("LMG", "burst", 30, ShotFacts(lone_crew=True), []),
        ("RIFLE", "aimed", 30, ShotFacts(firer_class="R1"), [("Special Forces", -1, "§8.0")]),
        ("AR", "aimed", 30, ShotFacts(firer_class="R1"), [("Special Forces", -1, "§8.0")]),
        ("AR", "burst", 30, ShotFacts(firer_class="R1"), []),
        ("SMG", "burst", 30, ShotFacts(firer_class="R1"), []),
        (
            "RIFLE",
            "aimed",
            30,
            ShotFacts(moved_cm=8, cover=True, firer_class="Irr3", dodge=True, target_sniper=True),
            [
                ("firer moved", 1, "§8.0"),
                ("target behind cover", 1, "§8.0"),
                ("Irr3 firing", 1, "§8.0"),
                ("target dodges", 1, "§6.5"),
                ("target is a sniper", 1, "§8.0"),
            ],
        ),
    ],
)
def test_each_modifier_to_hit_as_the_player_reads_it(weapon, mode, range_cm, facts, said):
    assert _said(fire.modifiers(W[weapon], mode, range_cm, facts)) == said


def test_a_burst_past_6_loses_a_die_a_point_and_a_single_shot_cannot_hit():
    plus = (fire.Mod("m", 1),)
    assert fire.shot(5, 3, plus, burst=True) == Shot(6, 3, 0)
    assert fire.shot(6, 3, plus, burst=True) == Shot(6, 2, 1)
    assert fire.shot(6, 2, plus * 3, burst=True) == Shot(6, 0, 2)
    assert fire.shot(6, 1, plus, burst=False) == Shot(7, 1, 0) and not fire.shot(6, 1, plus, burst=False).possible


def test_a_bursts_dice_split_between_targets_and_its_refusals():
    assert fire.split_dice(4, None, 1) == (4,)
    assert fire.split_dice(4, (1, 3), 2) == (1, 3)
    assert (
        refusal(fire.split_dice, 4, None, 2, rule="FIRE-8")
        == "a burst at several targets needs split=a,b (dice on each, §8.0)"
    )
    assert refusal(fire.split_dice, 4, (1, 3), 3, rule="FIRE-8") == "split gives 2 numbers for 3 targets"
    assert (
        refusal(fire.split_dice, 4, (2, 3), 2, rule="FIRE-8")
        == "split must give each target at least one die and add up to 4"
    )
    assert (
        refusal(fire.split_dice, 4, (0, 4), 2, rule="FIRE-8")
        == "split must give each target at least one die and add up to 4"
    )


@pytest.mark.parametrize(
    ("weapon", "faces", "burst", "low", "italian", "result"),
    [
        ("RIFLE", (2, 2), False, False, False, AmmoResult()),
        ("AR", (), True, False, False, AmmoResult()),
        ("AR", (2, 5, 6), True, False, False, AmmoResult()),
        ("AR", (2, 2, 6), True, False, False, AmmoResult(empty=True)),
        ("AR", (2, 2, 2), True, False, False, AmmoResult(empty=True, low=True)),
        ("AR", (1,), False, True, False, AmmoResult(exhausted=True)),
        ("AR", (4,), False, True, False, AmmoResult()),
        ("SMG", (3, 3, 3), True, False, False, AmmoResult(empty=True)),
        ("SMG", (3, 3, 3), True, False, True, AmmoResult(empty=True, exhausted=True)),
        ("AR", (5, 5), False, False, True, AmmoResult()),  # the Italian draft: bursts only
    ],
)
def test_ammunition_runs_out_on_equal_dice(weapon, faces, burst, low, italian, result):
    assert fire.ammunition(faces, W[weapon], burst, low, italian) == result


# ----------------------------------------------------------------------- saves


@pytest.mark.parametrize(
    ("facts", "said"),
    [
        (SaveFacts(), []),
        (SaveFacts(source=saves.SPECULATIVE), [("speculative fire", 2, "§8.6")]),
        (SaveFacts(source=saves.BOMBARDMENT), [("bombardment", 2, "§8.4")]),
        (SaveFacts(source=saves.FRIENDLY), [("friendly fire", 1, "§8.7")]),
        (SaveFacts(leader=True), [("team leader", 1, "§9.0")]),
        (SaveFacts(protected=True), [("behind protection", 1, "§9.0")]),
        (SaveFacts(protected=True, source=saves.EXPLOSION), []),
        (SaveFacts(leader=True, protected=True, source=saves.EXPLOSION), [("team leader", 1, "§9.0")]),
        (SaveFacts(leader=True, source=saves.SPECULATIVE), [("speculative fire", 2, "§8.6")]),
        (SaveFacts(protected=True, source=saves.BOMBARDMENT), [("bombardment", 2, "§8.4")]),
    ],
)
def test_the_save_bonus_is_the_largest_one_with_its_words_and_section(facts, said):
    assert _said(saves.save_mods(facts)) == said


@pytest.mark.parametrize(
    ("value", "results"),
    [
        (0, [VehicleResult(True, False)] * 6),  # unaffected: every face comes through
        (
            5,
            [
                VehicleResult(False, True),  # failed by 4: it explodes
                VehicleResult(False, True),  # by 3
                VehicleResult(False, False),
                VehicleResult(False, False),
                VehicleResult(True, False),
                VehicleResult(True, False),
            ],
        ),
        (7, [VehicleResult(False, face <= 4) for face in range(1, 7)]),  # cannot pass
    ],
)
def test_a_vehicle_save_over_every_face(value, results):
    assert [saves.vehicle_save(face, value) for face in range(1, 7)] == results


def test_a_vehicle_under_a_bombardment_saves_with_plus_2_its_margin_counted_with_it():
    """§8.4 with §9.2 (ruling BN-C-VEHICLE-SAVE): the +2 of "all the models in the area" given to a
    vehicle that has a save on the column, none to one that cannot pass (an impossible 7); the
    check the log records names the face the bare die needs and the book's value."""
    [bonus] = saves.vehicle_save_mods(6, bombardment=True)
    assert (bonus.value, bonus.rule, plain(bonus.label)) == (2, "§8.4", "bombardment")
    assert saves.vehicle_save_mods(5, bombardment=True) == (bonus,)
    assert saves.vehicle_save_mods(7, bombardment=True) == ()  # no save to improve
    assert saves.vehicle_save_mods(5, bombardment=False) == ()
    # Needing 5, the bare die needs 3 with the +2: a 3 passes, a 2 fails by 1, a 1 by 2 (no explosion).
    assert [saves.vehicle_save(face, 5, bonus=2) for face in (1, 2, 3)] == [
        VehicleResult(False, False),
        VehicleResult(False, False),
        VehicleResult(True, False),
    ]
    # Needing 6: a 1 (3 with the bonus) fails by 3 and explodes.
    assert saves.vehicle_save(1, 6, bonus=2) == VehicleResult(False, True)
    assert saves.vehicle_save_check(5) == ev.All(face=5)
    assert saves.vehicle_save_check(5, bonus=2) == ev.All(face=3, base=5)
    assert saves.vehicle_save_check(2, bonus=2) == ev.All(face=1, base=2)  # a bare 1 is enough
    assert saves.vehicle_save_check(1, bonus=2) == ev.All(face=1, base=1)
