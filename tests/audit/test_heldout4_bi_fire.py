"""A fifth look at Bassa Intensità (issue #46), a fourth held-out audit: direct fire and
high explosive (A.9, A.10), each case written from the book ("TIRO DIRETTO" with its table,
its notes (1)-(8) and its modifiers, the HE deviation, area and hit-chance tables of "TIRO
INDIRETTO") and its digest alone.  The earlier audits walked every band edge, each
modifier alone and against a man's state; these put the aimed shot and the sniper on area
and opportunity fire, a lone crewman on each kind of automatic weapon, each HE weapon's
own area and a grenade's rounding, the HE chance against what halves only the hit, the
calibre boundaries of a gun's burst, and what a refused or failed fire leaves of a man's
turn.
"""

from __future__ import annotations

import pytest
from audit_bi_early import (
    KILL,
    U,
    burst_chances,
    chances,
    goto,
    man,
    new_game,
    notes,
    outcomes,
    play,
    refused,
    rolls,
    table,
    vehicle,
)

from core.log.views import REFEREE


def _v(uid: str, weapon: str, role: str, **stats: int) -> U:
    return vehicle(uid, "blue", "regular", weapon, roles=(role,), **stats)


EXTRA = (
    _v("lmgv", "lmg", "technical"),
    _v("agv", "agl", "wheeled-apc"),
    _v("atv", "atgm", "armoured-car"),
    _v("g77", "gun-103", "tank", gun_mm=77),
    _v("g76", "gun-77", "armoured-car", gun_mm=76),
    _v("g103", "gun-heavy", "tank", gun_mm=103),
    _v("g150", "gun-heavy", "tank", gun_mm=150),
    _v("g152", "gun-heavy", "tank", gun_mm=152),
    man("pino", "blue", "regular", "gl", "rifle-grenade", "hand-grenade", "law", "rpg", "atgm", "bolt-rifle", "pistol"),
    U(id="ezio", name="Ezio", side="blue", cls="elite", weapons=("bolt-rifle",), stats={"motivation": -1}),
    U(id="ugo", name="Ugo", side="red", cls="elite", weapons=("rifle",)),
)


game = table(extra=EXTRA, at=("fire-regular", 1))


# ------------------------------------------------------------------ the aimed shot elsewhere


@pytest.mark.audits("BI-R085", "BI-WN2", "BI-R082", "BI-R087")
def test_an_aimed_burst_at_an_area_adds_the_aim_then_halves(game):
    """A.9.4 "Tiro Mirato" +1 and note (2) "ridotta di ½": Bruno aimed in turn 1; in turn 2
    his assault rifle at an area (normal range, 20 cm): (4 + 1) / 2 = 2.5 -> 3 for each man."""
    play(game, "aim bruno")
    goto(game, "fire-regular", 2)
    assert chances(play(game, "fire bruno tariq fares range=20 area dice=9,9")) == [3, 3]


@pytest.mark.audits("BI-R085", "BI-WN3", "BI-R080")
def test_an_aimed_saw_at_an_area_at_short_range(game):
    """Note (3): a SAW at an area -1 on its own bands (short to 15 cm, +1); aimed +1:
    4 + 1 + 1 - 1 = 5 for each man."""
    play(game, "aim sam")
    goto(game, "fire-regular", 2)
    assert chances(play(game, "fire sam tariq fares range=15 area dice=9,9")) == [5, 5]


@pytest.mark.audits("BI-R085", "BI-R050", "BI-R082")
def test_a_snipers_opportunity_shot_adds_his_aim_then_halves(game):
    """A.9.4: a "Tiratore Scelto" always shoots aimed (+1); A.7 opportunity fire ½: Nico
    (Regular) at a mover 50 cm off (normal for his precision rifle): (4 + 1) / 2 -> 3."""
    goto(game, "move-second", 2)
    play(game, "@red move tariq 10")
    assert chances(play(game, "@blue fire nico tariq range=50 dice=9")) == [3]


@pytest.mark.audits("BI-R085", "BI-R082", "BI-R075")
def test_a_wounded_sniper_at_long_range(game):
    """A.9.4: sniper +1, long -1, wounded ½: (4 + 1 - 1) / 2 = 2 (precision rifle, 100 cm)."""
    play(game, "mark nico wounded")
    assert chances(play(game, "fire nico tariq range=100 dice=9")) == [2]


@pytest.mark.audits("BI-R085", "BI-WN1", "BI-R080")
def test_an_aimed_bolt_action_shot_at_short_range(game):
    """Note (1) -1, aimed +1, short +1: Pino's bolt-action rifle at 20 cm: 4 + 1 + 1 - 1 = 5."""
    play(game, "aim pino")
    goto(game, "fire-regular", 2)
    assert chances(play(game, "fire pino tariq range=20 weapon=bolt-rifle dice=9")) == [5]


@pytest.mark.audits("BI-R080", "BI-R011", "BI-WN1")
def test_motivation_minus_one_on_an_elite_bolt_action_rifle(game):
    """A.3: the referee's -1 lowers the Elite's 6 to 5 (his tier stays Elite); note (1) -1,
    short +1: 5 + 1 - 1 = 5; he fires in the Elite tier."""
    goto(game, "fire-elite", 2)
    assert chances(play(game, "fire ezio tariq range=20 dice=9")) == [5]


@pytest.mark.audits("BI-R080")
def test_an_elite_at_short_range_at_a_prone_man_in_heavy_cover(game):
    """A.9.4: short +1, lying down -1, heavy cover -2: Elia's 6 -> 4 (assault rifle, 2 shots)."""
    goto(game, "fire-elite", 2)
    assert chances(play(game, "fire elia tariq range=15 prone cover=heavy dice=9,9")) == [4, 4]


@pytest.mark.audits("BI-WN3", "BI-R080", "BI-R087")
def test_a_saw_at_an_area_of_men_in_a_trench(game):
    """Note (3) -1, a trench is heavy cover -2, normal range: 4 - 2 - 1 = 1 for each man;
    a 1 still hits."""
    facts = play(game, f"fire sam tariq fares range=30 area cover=trench dice=1,{KILL},2")
    assert chances(facts) == [1, 1]
    assert [o.startswith("hit") for o in outcomes(facts, "A.9.4")] == [True, False]


# ------------------------------------------------------------------ notes (4)-(6): lone crewmen


@pytest.mark.audits("BI-WN5", "BI-R072")
def test_a_saw_gunner_alone_still_fires_two_shots(game):
    """Note (5) names only machine guns and light machine guns: a SAW marked as down to one
    man still fires its 2 shots at a single target (normal range: 4 each)."""
    play(game, "mark sam one-crew")
    assert chances(play(game, "fire sam tariq range=30 dice=9,9")) == [4, 4]


@pytest.mark.audits("BI-WN5")
def test_a_light_mg_with_one_crewman_fires_one_shot(game):
    """Note (5): a light MG with only one crewman fires 1 shot a turn at a single target (on
    a vehicle: no emplacing, note (4)); normal range 40 cm: 4."""
    play(game, "mark lmgv one-crew")
    assert chances(play(game, "fire lmgv tariq range=40 dice=9")) == [4]


@pytest.mark.audits("BI-WN5", "BI-R068")
def test_a_light_mg_with_one_crewman_reloads_after_an_area_burst(game):
    """Note (5): after firing at an area, one crewman must reload/change the barrel before
    firing again: next turn his fire is refused until he reloads (a Very Easy action, his
    activity for that turn), and the turn after he fires again."""
    play(game, "mark lmgv one-crew", "fire lmgv tariq fares range=40 area dice=9,9")
    goto(game, "fire-regular", 2)
    refused(game, "fire lmgv tariq range=40 dice=9", rule="BI-WN5")
    play(game, "reload lmgv")
    refused(game, "fire lmgv tariq range=40 dice=9", rule="BI-R030")
    goto(game, "fire-regular", 3)
    assert chances(play(game, "fire lmgv tariq range=40 dice=9")) == [4]


# ------------------------------------------------------------------ what a man's turn holds


@pytest.mark.audits("BI-R062", "BI-R075")
def test_fire_refused_out_of_range_leaves_him_his_fire(game):
    """A.9.2: Carlo's rifle cannot reach 120.5 cm: refused; the refusal spends nothing, he
    then fires at 100 cm (long: 3)."""
    refused(game, "fire carlo tariq range=120.5 dice=9", match="range", rule="BI-R075")
    assert chances(play(game, "fire carlo tariq range=100 dice=9")) == [3]


@pytest.mark.audits("BI-R062")
def test_a_man_fires_once_a_turn(game):
    """A.8: one action or fire a turn: Carlo fires, then a second fire is refused."""
    play(game, "fire carlo tariq range=30 dice=9")
    refused(game, "fire carlo fares range=30 dice=9", rule="BI-R030")


@pytest.mark.audits("BI-R062", "BI-R085")
def test_a_man_who_aims_does_not_fire_the_same_turn(game):
    """A.8 and A.9.4: the aim is a Very Easy action, his activity this turn: he may not also
    fire in it."""
    play(game, "aim carlo")
    refused(game, "fire carlo tariq range=30 dice=9", rule="BI-R030")


@pytest.mark.audits("BI-R024", "BI-R062")
def test_an_isolated_man_who_fails_his_test_does_not_fire(game):
    """A.9.5 (after A.4): an isolated man rolls 1d10 under his Quality before firing: a 5
    fails Carlo's 4, no shot is rolled, and he may not try again this turn."""
    facts = play(game, "fire carlo tariq range=30 isolated dice=5")
    assert rolls(facts, "A.9.4") == []
    refused(game, "fire carlo tariq range=30 isolated dice=1,9", rule="BI-R024")


# ------------------------------------------------------------------ HE


HE_ROWS = [
    ("gl", 40, "3 cm (short) and 6 cm (long)"),
    ("rifle-grenade", 20, "3 cm (short) and 6 cm (long)"),
    ("hand-grenade", 10, "3 cm (short) and 6 cm (long)"),
    ("law", 10, "3 cm (short) and 6 cm (long)"),
    ("atgm", 150, "4 cm (short) and 6 cm (long)"),
]


@pytest.mark.audits("BI-R091", "BI-WN7", "BI-R093")
@pytest.mark.parametrize("weapon,rng,radii", HE_ROWS, ids=[r[0] for r in HE_ROWS])
def test_each_direct_he_weapons_hit_bursts_with_its_rows_radii(game, weapon, rng, radii):
    """A.10.2: "Bombe a mano, Granate, Lanciarazzi" 3 and 6 cm; "Missile controcarro" 4 and
    6 cm; the burst is on the target, who rolls 6 (open, short distance)."""
    facts = play(game, f"fire pino tariq weapon={weapon} range={rng} dice=1,10")
    assert chances(facts, "A.10.3") == [6]
    assert any(radii in n for n in notes(facts))


@pytest.mark.audits("BI-R091", "BI-R092", "BI-AMB-06")
@pytest.mark.parametrize("source", ["gl", "agl", "rifle-grenade", "hand-grenade", "law"])
def test_each_grenade_and_rocket_burst_on_both_sides_of_its_radii(game, source):
    """A.10.2 with A.10.3: 3 cm short (6), 3.5 long (3), 6 long (3), 6.5 untouched."""
    assert burst_chances(game, source, (3, 3.5, 6, 6.5)) == [[6], [3], [3], None]


@pytest.mark.audits("BI-R092")
def test_heavy_cover_under_a_burst_is_in_cover_not_entrenched(game):
    """A.10.3 "In copertura" 3/2, "Trincerati" 2/1: a man in a stone building (heavy cover)
    is in cover: 3 at short distance, 2 at long."""
    seen = []
    for zone in ("short", "long"):
        facts = play(game, f"burst fares source=rpg zone={zone} cover=heavy dice=10")
        game.execute("undo", role=REFEREE)
        seen.append(chances(facts, "A.10.3")[0])
    assert seen == [3, 2]


@pytest.mark.audits("BI-R093", "BI-R092", "BI-R082")
def test_a_wounded_rocketeers_hit_still_bursts_whole(game):
    """A.9.4 halves the wounded shooter's chance to hit (4 / 2 = 2), but the burst's chance
    to catch the man is the HE table's, 6 in the open at short distance: a 2 hits, a 6
    catches him."""
    play(game, "mark pino wounded")
    facts = play(game, f"fire pino tariq weapon=rpg range=20 dice=2,6,{KILL}")
    assert chances(facts) == [2]
    assert chances(facts, "A.10.3") == [6]
    assert not game.state.units["tariq"].in_play


@pytest.mark.audits("BI-R093", "BI-R092", "BI-R080")
def test_a_rocket_at_a_prone_man_in_light_cover(game):
    """A.9.4: prone -1, light cover -1 on the hit (4 - 2 = 2, normal range); then A.10.3 in
    cover at short distance: 3; a 4 leaves him unhurt."""
    facts = play(game, "fire pino tariq weapon=rpg range=20 prone cover=light dice=2,4")
    assert chances(facts) == [2]
    assert chances(facts, "A.10.3") == [3]
    assert outcomes(facts, "A.10.3") == ["unhurt"]


@pytest.mark.long
@pytest.mark.audits("BI-R090", "BI-R002", "BI-AMB-23")
@pytest.mark.parametrize(
    "face,where",
    [(3, "2 cm long"), (4, "4 cm long"), (5, "2 cm short"), (6, "4 cm short"), (7, "2 cm right"), (10, "4 cm left")],
)
def test_a_hand_grenades_miss_at_7_cm_rounds_up(game, face, where):
    """A.10.1 on the distance thrown, A.2 "per eccesso": at 7 cm, 20% is 1.4 -> 2 cm, 50% is
    3.5 -> 4 cm."""
    facts = play(game, f"fire pino tariq weapon=hand-grenade range=7 dice=9,{face}")
    (landing,) = outcomes(facts, "A.10.1")
    assert f"lands {where} of the target" in landing


@pytest.mark.audits("BI-R090", "BI-AMB-01")
def test_a_miss_that_is_a_dud_bursts_nowhere(game):
    """A.10.1: "1, 2 Colpo difettoso o esplosivo a mezz'aria, nessun effetto": nobody rolls
    to be caught."""
    facts = play(game, "fire pino tariq weapon=law range=10 dice=9,2")
    assert rolls(facts, "A.10.3") == []
    assert game.state.units["tariq"].in_play


GUNS = [
    # (vehicle, its burst's radii, the HE chance in the open at short distance)
    ("g76", "4 cm (short) and 8 cm (long)", 6),
    ("g77", "5 cm (short) and 10 cm (long)", 6),
    ("g103", "8 cm (short) and 15 cm (long)", 7),
    ("g150", "8 cm (short) and 15 cm (long)", 7),
    ("g152", "10 cm (short) and 20 cm (long)", 7),
]


@pytest.mark.audits("BI-R091", "BI-R092", "BI-AMB-25", "BI-WN7", "BI-WN8")
@pytest.mark.parametrize("gun,radii,catch", GUNS, ids=[g[0] for g in GUNS])
def test_a_guns_calibre_at_each_boundary_of_the_he_rows(game, gun, radii, catch):
    """A.10.2 rows "<77", "<103", ">103", ">150" (BI-AMB-25: 60-76, 77-102, 103-150, over
    150); A.10.3 +1 under guns over 103 mm: a 76 mm gun 4/8, 77 mm 5/10, 103 and 150 mm
    8/15 with +1, 152 mm 10/20 with +1."""
    facts = play(game, f"fire {gun} tariq range=50 dice=1,10")
    assert chances(facts, "A.10.3") == [catch]
    assert any(radii in n for n in notes(facts))


# ------------------------------------------------------------------ night


@pytest.mark.audits("BI-R084", "BI-R081", "BI-R075")
def test_an_atgm_at_night_with_the_vehicles_intensifier(tmp_path, monkeypatch):
    """A.9.4: no moon -2, vehicle's image intensifier +1 (max 200 cm); the ATGM at 150 cm is
    at normal range: 4 - 2 + 1 = 3; at 200.5 cm (still normal for the missile) no shot."""
    g = new_game(tmp_path, monkeypatch, night="dark", extra=EXTRA)
    goto(g, "fire-regular", 1)
    assert chances(play(g, "fire atv tariq range=150 intensifier=vehicle dice=9,1")) == [3]
    g.execute("undo", role=REFEREE)
    refused(g, "fire atv tariq range=200.5 intensifier=vehicle dice=9,1", rule="BI-R081")


@pytest.mark.audits("BI-R084", "BI-R081")
def test_a_carbine_by_moonlight_just_past_20_cm(tmp_path, monkeypatch):
    """A.9.2: the carbine's normal band ends at 20 cm; A.9.4 by moonlight "tra cm. 20 e cm.
    50" -2: at 20.5 cm, long -1: 4 - 1 - 2 = 1; at 20 cm, normal and -1: 3."""
    extra = (*EXTRA, U(id="cara", name="Cara", side="blue", cls="regular", weapons=("carbine",)))
    g = new_game(tmp_path, monkeypatch, night="moon", extra=extra)
    goto(g, "fire-regular", 1)
    assert chances(play(g, "fire cara tariq range=20.5 dice=9")) == [1]
    g.execute("undo", role=REFEREE)
    assert chances(play(g, "fire cara tariq range=20 dice=9")) == [3]


# ------------------------------------------------------------------ area fire


@pytest.mark.audits("BI-R087", "BI-R072", "BI-AMB-22")
def test_a_light_mgs_area_burst_rolls_for_a_truck_in_it_too(game):
    """A.9.1: area fire "una volta su tutti i bersagli all'interno di un'area"; BI-R087 one
    roll per figure or vehicle in it: the technical's LMG at Tariq and the Ural at 40 cm
    (normal): two rolls of 4."""
    facts = play(game, "fire lmgv tariq ural range=40 area dice=9,9")
    assert chances(facts) == [4, 4]


@pytest.mark.audits("BI-R075", "BI-R080")
def test_a_pistol_at_point_blank(game):
    """A.9.2: the pistol's short band reaches 5 cm, close in too: at 0.5 cm +1: 5."""
    assert chances(play(game, "fire pino tariq weapon=pistol range=0.5 dice=9")) == [5]
