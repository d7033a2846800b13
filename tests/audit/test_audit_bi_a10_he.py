"""The audit of Bassa Intensità A.10 (high explosive: where a direct-fire miss lands, the area
of effect by weapon and calibre at each radius, the chance of being caught), written from the
book ("ALTO ESPLOSIVO") and its digest alone."""

from __future__ import annotations

import pytest
from audit_bi_early import goto, new_game, notes, outcomes, play, refused, rolls, table, vehicle

CAUGHT = "hit: roll damage"
#: A damage die that leaves a man standing (1: near miss, A.12.1), so more bursts may follow.
NEAR_MISS = "1"


game = table()


# ------------------------------------------------------------------ A.10.1 deviation

#: A.10.1, read with 1d10 (BI-AMB-01): face -> (direction, percent); 1 and 2 are duds.
DEVIATION = {
    1: None,
    2: None,
    3: ("long", 20),
    4: ("long", 50),
    5: ("short", 20),
    6: ("short", 50),
    7: ("right", 20),
    8: ("right", 50),
    9: ("left", 20),
    10: ("left", 50),
}


@pytest.mark.audits("BI-R090", "BI-AMB-01", "BI-AMB-23", "BI-R002")
@pytest.mark.parametrize("face", list(DEVIATION))
def test_a_direct_he_miss_lands_by_the_d10_at_a_share_of_the_range_rounded_up(game, face):
    """A.10.1: an RPG misses Tariq at 15 cm (a 10 on the hit roll); the d10 says where the
    round lands: 20% of 15 = 3 cm, 50% = 7.5 -> 8 cm; 1-2 a dud, no effect; and a round
    that lands bursts there."""
    goto(game, "fire-regular", 1)
    facts = play(game, f"fire rocco tariq range=15 dice=10,{face}")
    (landing,) = rolls(facts, "A.10.1")
    assert landing.sides == 10
    if DEVIATION[face] is None:
        assert outcomes(facts, "A.10.1") == ["a dud or an air burst: no effect"]
        assert not any("bursts there" in n for n in notes(facts))
        return
    way, pct = DEVIATION[face]
    cm = {20: 3, 50: 8}[pct]
    assert outcomes(facts, "A.10.1") == [f"lands {cm} cm {way} of the target ({pct}% of 15 cm)"]
    assert any("bursts there" in n for n in notes(facts))


# ------------------------------------------------------------------ A.10.2 area of effect

#: A.10.2: source -> (short, long) radius in cm
AREAS = {
    "hand-grenade": (3, 6),
    "rifle-grenade": (3, 6),
    "gl": (3, 6),
    "agl": (3, 6),
    "law": (3, 6),
    "rpg": (3, 6),
    "atgm": (4, 6),
    "gun-59": (4, 6),
    "gun-76": (4, 8),
    "gun-102": (5, 10),
    "gun-150": (8, 15),
    "gun-big": (10, 20),
}
#: A.10.3 in the open: short 6, long 3; +1 under guns or mortars over 103 mm
OPEN = {"gun-150": (7, 4), "gun-big": (7, 4)}


@pytest.mark.audits("BI-R091", "BI-R092", "BI-AMB-06")
@pytest.mark.parametrize("source", list(AREAS))
def test_each_area_of_effect_radius_at_its_edge(game, source):
    """A.10.2 (BI-R091): at the short radius a man is at "short distance" (caught in the open on
    6, or 7 over 103 mm); half a cm beyond, at "long distance" (3, or 4); at the long
    radius still long; half a cm beyond, untouched."""
    short, long_ = AREAS[source]
    near, far = OPEN.get(source, (6, 3))
    for man, cm, chance in (("tariq", short, near), ("fares", short + 0.5, far), ("nabil", long_, far)):
        facts = play(game, f"burst {man} source={source} cm={cm} dice={chance + 1}")
        assert [r.target for r in rolls(facts, "A.10.3")] == [chance]
        assert outcomes(facts, "A.10.3") == ["unhurt"]
    refused(game, f"burst samir source={source} cm={long_ + 0.5}", match="untouched", rule="BI-R091")


@pytest.mark.audits("BI-R091", "BI-AMB-25")
@pytest.mark.parametrize(
    ("mm", "short", "long_"),
    [
        (59, 4, 6),
        (60, 4, 8),
        (76, 4, 8),
        (77, 5, 10),
        (102, 5, 10),
        (103, 8, 15),
        (150, 8, 15),
        (151, 10, 20),
    ],
)
def test_a_guns_area_follows_its_calibre_at_each_boundary(tmp_path, monkeypatch, mm, short, long_):
    """A.10.2 by calibre: < 60 mm 4/6; < 77 mm 4/8; < 103 mm 5/10; > 103 mm 8/15;
    > 150 mm 10/20 (BI-AMB-25: 60-76, 77-102, 103-150, over 150).  A gun of that
    calibre on a vehicle misses; the round lands long and bursts with those radii."""
    gun = vehicle("cannone", "blue", "regular", "gun-heavy", roles=("technical",), gun_mm=mm)
    g = new_game(tmp_path, monkeypatch, extra=(gun,))
    goto(g, "fire-regular", 1)
    facts = play(g, "fire cannone tariq range=150 dice=10,3")
    assert any(f"within {short} cm (short) or {long_} cm (long)" in n for n in notes(facts))


# ------------------------------------------------------------------ A.10.3 the chance to be caught


@pytest.mark.audits("BI-R092")
@pytest.mark.parametrize(
    ("cover", "zone", "chance"),
    [
        ("", "short", 6),
        ("", "long", 3),
        ("cover=light", "short", 3),
        ("cover=heavy", "long", 2),
        ("cover=trench", "short", 2),
        ("cover=trench", "long", 1),
    ],
)
def test_the_chance_to_be_caught_by_terrain_and_distance(game, cover, zone, chance):
    """A.10.3: in the open 6/3, in cover 3/2, entrenched 2/1: the chance catches him, one
    more leaves him unhurt."""
    facts = play(game, f"burst tariq source=rpg {zone} {cover} dice={chance},{NEAR_MISS}")
    assert [r.target for r in rolls(facts, "A.10.3")] == [chance]
    assert outcomes(facts, "A.10.3")[0].startswith(CAUGHT)
    facts = play(game, f"burst fares source=rpg {zone} {cover} dice={chance + 1}")
    assert outcomes(facts, "A.10.3") == ["unhurt"]


@pytest.mark.audits("BI-R092", "BI-AMB-25")
def test_plus_one_only_over_103_mm(game):
    """A.10.3: +1 under guns or mortars over 103 mm (entrenched, long: 1 -> 2); not under
    a gun under 103 mm (1)."""
    facts = play(game, "burst tariq source=gun-150 long cover=trench dice=3")
    assert [r.target for r in rolls(facts, "A.10.3")] == [2]
    facts = play(game, "burst fares source=gun-102 long cover=trench dice=3")
    assert [r.target for r in rolls(facts, "A.10.3")] == [1]


@pytest.mark.audits("BI-R093", "BI-AMB-24")
def test_a_direct_he_hit_on_a_man_bursts_on_him_and_he_still_rolls_to_be_caught(game):
    """A.10.3: the RPG hits Tariq (a 4 under 4): the burst is on him, and he rolls as a
    man at short distance in the open (6): a 7 leaves him unhurt; the others in the area
    are named to burst."""
    goto(game, "fire-regular", 1)
    facts = play(game, "fire rocco tariq range=15 dice=4,7")
    assert outcomes(facts, "A.9.4") == ["hit: HE burst at the target (A.10)"]
    assert [r.target for r in rolls(facts, "A.10.3")] == [6] and outcomes(facts, "A.10.3") == ["unhurt"]
    assert game.state.units["tariq"].in_play
    assert any("burst each other man there" in n for n in notes(facts))


@pytest.mark.audits("BI-R093", "BI-AMB-28")
def test_a_direct_he_hit_on_a_vehicle_is_a_hit_on_that_vehicle(game):
    """A.10.3: against a vehicle a hit is a hit on it, straight to penetration (no roll to
    be caught for the vehicle itself): the tank gun hits the T-55, then penetration."""
    goto(game, "fire-veteran", 1)
    facts = play(game, "fire ariete t55 range=150 dice=1,10")
    assert rolls(facts, "A.10.3") == []
    assert [r.rule for r in rolls(facts)][:2] == ["A.9.4", "A.12.3"]


@pytest.mark.audits("BI-AMB-26")
def test_a_vehicle_in_an_he_area_is_caught_by_its_terrain_then_penetration(game):
    """BI-AMB-26: the T-55 in the open, at short distance of an RPG burst: caught on 6,
    then the RPG's penetration roll."""
    facts = play(game, "burst t55 source=rpg short dice=6,10")
    assert [r.target for r in rolls(facts, "A.10.3")] == [6]
    assert [r.rule for r in rolls(facts)][:2] == ["A.10.3", "A.12.3"]
    facts = play(game, "burst ural source=rpg long dice=4")
    assert [r.target for r in rolls(facts, "A.10.3")] == [3] and outcomes(facts, "A.10.3") == ["unhurt"]


@pytest.mark.audits("BI-AMB-28")
def test_a_tank_guns_hit_counts_as_he_fire_for_the_morale_it_calls(game):
    """BI-AMB-28: a tank gun's hit that does not penetrate calls a morale check (A.12.3),
    under HE fire: a Regular crew passes on 4 + 3 - 2 = 5, not 7."""
    goto(game, "fire-veteran", 1)
    play(game, "fire ariete t55 range=150 dice=1,10")
    facts = play(game, "morale t55 dice=5")
    assert [r.target for r in rolls(facts, "A.13.2")] == [5]
