"""A fourth look at Bassa Intensità (issue #46), a third held-out audit: direct fire and
high explosive (A.9, A.10), each case written from the book ("TIRO DIRETTO" with its table,
its notes (1)-(8) and its modifiers, the HE deviation, area and hit-chance tables of "TIRO
INDIRETTO") and its digest alone.  The earlier audits crossed the modifiers with a man's
state; these walk the weapons table's every band edge on both sides (the last band's edge
and one step past it, where the weapon can no longer fire), put the modifiers against the
chance's ceiling and floor, round the HE deviation's percentages, and walk each HE area's
radii by calibre on both sides.
"""

from __future__ import annotations

import pytest
from audit_bi_early import (
    KILL,
    U,
    burst_chances,
    chances,
    goto,
    new_game,
    notes,
    outcomes,
    play,
    refused,
    rolls,
    table,
    vehicle,
)
from playing import tried

from core.log.views import REFEREE
from core.ruleset import Refused

EXTRA = (
    U(id="agv", name="Agv", side="blue", kind="vehicle", cls="regular", weapons=("agl",), roles=("wheeled-apc",)),
    vehicle("acv", "blue", "regular", "autocannon", roles=("armoured-car",)),
    U(id="lmgv", name="Lmgv", side="blue", kind="vehicle", cls="regular", weapons=("lmg",), roles=("technical",)),
    U(id="mgv", name="Mgv", side="blue", kind="vehicle", cls="regular", weapons=("mg",), roles=("technical",)),
    vehicle("g77", "blue", "regular", "gun-77", roles=("armoured-car",), gun_mm=75),
    vehicle("g103", "blue", "regular", "gun-103", roles=("tank",), gun_mm=90),
    vehicle("g120", "blue", "regular", "gun-heavy", roles=("tank",), gun_mm=120),
    U(
        id="pino",
        name="Pino",
        side="blue",
        cls="regular",
        weapons=(
            "pistol",
            "carbine",
            "shotgun",
            "bolt-rifle",
            "sniper-rifle",
            "smg",
            "assault-rifle",
            "saw",
            "gl",
            "hand-grenade",
            "rifle-grenade",
            "law",
            "rpg",
            "atgm",
        ),
    ),
    U(id="rita", name="Rita", side="blue", cls="regular", weapons=("rifle",)),
    # a Regular the referee gave +1 for motivation (A.3): a chance of 5 in the Regulars' tier
    U(id="vera", name="Vera", side="blue", cls="regular", weapons=("assault-rifle",), stats={"motivation": 1}),
    U(id="zeno", name="Zeno", side="red", cls="elite", weapons=("assault-rifle",)),
    U(id="ugo", name="Ugo", side="red", cls="elite", weapons=("rifle",)),
)


game = table(extra=EXTRA, at=("fire-regular", 1))


def _misses(shots: int, he: bool) -> str:
    return ",".join(["10,1" if he else "10"] * shots)


def _chance_at(
    g, shooter: str, weapon: str, rng: float, shots: int, he: bool, mode: str = ""
) -> list[int | None] | None:
    """The chance of each shot at ``rng`` (None: the fire is refused); the shot taken back."""
    line = f"fire {shooter} tariq range={rng} weapon={weapon} {mode} dice={_misses(shots, he)}"
    try:
        facts = play(g, line)
    except Refused:
        return None
    g.execute("undo", role=REFEREE)
    return chances(facts)


# (shooter, weapon, shots, HE, mode, [(range, chance of a Regular (4) or None: out of range)])
# A.9.2: the range columns give each band's greatest distance, "NO" a band the weapon lacks;
# A.9.4: short +1, long -1.  Note (1): a bolt-action rifle -1.  Note (2): an assault rifle
# at an area 1/2 (Vera, 5, so the bands differ: 5/2 -> 3 normal, 4/2 -> 2
# long; a Regular of motivation +1).  Note (3): a SAW at an area -1 on its own bands.  Note (6): the MG, AGL and guns
# fire from vehicles (no emplacing).
TABLE = [
    ("pino", "pistol", 1, False, "", [(5, 5), (5.5, 4), (10, 4), (10.5, 3), (20, 3), (20.5, None)]),
    ("pino", "carbine", 1, False, "", [(10, 5), (10.5, 4), (20, 4), (20.5, 3), (60, 3), (60.5, None)]),
    ("pino", "shotgun", 1, False, "", [(10, 5), (10.5, 3), (30, 3), (30.5, None)]),
    ("rita", "rifle", 1, False, "", [(20, 5), (20.5, 4), (40, 4), (40.5, 3), (120, 3), (120.5, None)]),
    ("pino", "bolt-rifle", 1, False, "", [(20, 4), (20.5, 3), (40, 3), (40.5, 2), (120, 2), (120.5, None)]),
    ("pino", "sniper-rifle", 1, False, "", [(30, 5), (30.5, 4), (70, 4), (70.5, 3), (200, 3), (200.5, None)]),
    ("pino", "smg", 2, False, "", [(10, 5), (10.5, 3), (40, 3), (40.5, None)]),
    ("pino", "assault-rifle", 2, False, "", [(15, 5), (15.5, 4), (30, 4), (30.5, 3), (90, 3), (90.5, None)]),
    ("vera", "assault-rifle", 1, False, "area", [(1, 3), (20, 3), (20.5, 2), (60, 2), (60.5, None)]),
    ("pino", "saw", 2, False, "", [(15, 5), (15.5, 4), (30, 4), (30.5, 3), (90, 3), (90.5, None)]),
    ("pino", "saw", 1, False, "area", [(15, 4), (15.5, 3), (30, 3), (30.5, 2), (90, 2), (90.5, None)]),
    ("lmgv", "lmg", 2, False, "", [(20, 5), (20.5, 4), (40, 4), (40.5, 3), (120, 3), (120.5, None)]),
    ("lmgv", "lmg", 1, False, "area", [(20, 5), (20.5, 4), (40, 4), (40.5, 3), (120, 3), (120.5, None)]),
    ("mgv", "mg", 3, False, "", [(30, 5), (30.5, 4), (70, 4), (70.5, 3), (200, 3), (200.5, None)]),
    ("mgv", "mg", 1, False, "area", [(30, 5), (30.5, 4), (70, 4), (70.5, 3), (200, 3), (200.5, None)]),
    ("pino", "gl", 1, True, "", [(1, 4), (40, 4), (40.5, 3), (80, 3), (80.5, None)]),
    ("agv", "agl", 2, True, "", [(20, 5), (20.5, 4), (40, 4), (40.5, 3), (200, 3), (200.5, None)]),
    ("pino", "rifle-grenade", 1, True, "", [(1, 4), (20, 4), (20.5, 3), (60, 3), (60.5, None)]),
    ("pino", "hand-grenade", 1, True, "", [(1, 4), (10, 4), (10.5, None)]),
    ("pino", "law", 1, True, "", [(1, 4), (10, 4), (10.5, 3), (30, 3), (30.5, None)]),
    ("pino", "rpg", 1, True, "", [(1, 4), (20, 4), (20.5, 3), (60, 3), (60.5, None)]),
    ("pino", "atgm", 1, True, "", [(100, 5), (100.5, 4), (200, 4), (200.5, 3), (600, 3), (600.5, None)]),
    ("acv", "autocannon", 2, False, "", [(50, 5), (50.5, 4), (100, 4), (100.5, 3), (300, 3), (300.5, None)]),
    ("acv", "autocannon", 1, False, "area", [(50, 5), (50.5, 4), (100, 4), (100.5, 3), (300, 3), (300.5, None)]),
    ("g77", "gun-77", 1, True, "", [(50, 5), (50.5, 4), (100, 4), (100.5, 3), (300, 3), (300.5, None)]),
    ("g103", "gun-103", 1, True, "", [(70, 5), (70.5, 4), (150, 4), (150.5, 3), (450, 3), (450.5, None)]),
    ("g120", "gun-heavy", 1, True, "", [(100, 5), (100.5, 4), (200, 4), (200.5, 3), (600, 3), (600.5, None)]),
]


@pytest.mark.audits("BI-R075", "BI-R076", "BI-R080", "BI-WN1", "BI-WN2", "BI-WN3", "BI-AMB-05", "BI-AMB-06")
@pytest.mark.parametrize(
    "shooter,weapon,shots,he,mode,edges", TABLE, ids=[f"{w}-{m or 'single'}" for _, w, _, _, m, _ in TABLE]
)
def test_every_band_edge_of_the_weapons_table(game, shooter, weapon, shots, he, mode, edges):
    """A.9.2 with A.9.4 and notes (1)-(3), (6): at each band's greatest distance the band
    holds, half a centimetre past it the next band (or none: the weapon cannot fire)."""
    seen = [(rng, _chance_at(game, shooter, weapon, rng, shots, he, mode)) for rng, _ in edges]
    want = [(rng, None if c is None else [c] * shots) for rng, c in edges]
    assert seen == want


@pytest.mark.audits("BI-R090", "BI-AMB-01", "BI-AMB-23", "BI-R002")
@pytest.mark.parametrize(
    "face,where",
    [
        (1, None),
        (2, None),
        (3, "5 cm long"),
        (4, "12 cm long"),
        (5, "5 cm short"),
        (6, "12 cm short"),
        (7, "5 cm right"),
        (8, "12 cm right"),
        (9, "5 cm left"),
        (10, "12 cm left"),
    ],
)
def test_an_he_miss_deviates_by_a_share_of_the_range_rounded_up(game, face, where):
    """A.10.1: a direct HE round that misses lands by the table's die (1d10, BI-AMB-01), its
    percentage "calcolata sulla distanza tra il tiratore ed il bersaglio"; A.2 rounds up:
    at 23 cm, 20% is 4.6 -> 5 cm, 50% is 11.5 -> 12 cm; a 1 or a 2 is a dud or an air
    burst, with no effect."""
    facts = play(game, f"fire pino tariq weapon=rpg range=23 dice=10,{face}")
    (landing,) = outcomes(facts, "A.10.1")
    if where is None:
        assert "no effect" in landing
        assert not any("bursts there" in n for n in notes(facts))
    else:
        assert f"lands {where} of the target" in landing
        assert any("bursts there" in n for n in notes(facts))


# A.10.2: each HE row's radii (short, long); A.10.3: 6 in the open at short distance, 3 at
# long, +1 under guns or mortars over 103 mm; beyond the long radius nothing.
RADII = [
    ("rpg", 3, 6, 0),
    ("atgm", 4, 6, 0),
    ("gun-59", 4, 6, 0),
    ("gun-76", 4, 8, 0),
    ("gun-102", 5, 10, 0),
    ("gun-150", 8, 15, 1),
    ("gun-big", 10, 20, 1),
]


@pytest.mark.audits("BI-R091", "BI-R092", "BI-AMB-06", "BI-AMB-25")
@pytest.mark.parametrize("source,short,long,plus", RADII, ids=[r[0] for r in RADII])
def test_each_he_rows_radii_on_both_sides(game, source, short, long, plus):
    """A.10.2 with A.10.3: a man at the short radius is at short distance (6, +1 over 103 mm),
    half a centimetre beyond it at long distance (3, +1), at the long radius still at long
    distance, and half a centimetre beyond that untouched."""
    assert burst_chances(game, source, (short, short + 0.5, long, long + 0.5)) == [
        [6 + plus],
        [3 + plus],
        [3 + plus],
        None,
    ]


@pytest.mark.audits("BI-R092", "BI-AMB-25")
@pytest.mark.parametrize("source,plus", [("gun-102", 0), ("gun-150", 1), ("gun-big", 1)])
def test_each_terrain_and_zone_under_a_burst(game, source, plus):
    """A.10.3: in the open 6/3, in cover 3/2, entrenched 2/1 (short/long), each +1 under guns
    or mortars over 103 mm (BI-AMB-25: a 102 mm piece is not over 103)."""
    seen = {}
    for cover, word in (("", "open"), ("cover=light", "cover"), ("cover=trench", "trench")):
        for zone in ("short", "long"):
            facts = play(game, f"burst fares source={source} zone={zone} {cover} dice=10")
            game.execute("undo", role=REFEREE)
            seen[word, zone] = chances(facts, "A.10.3")[0]
    want = {
        ("open", "short"): 6,
        ("open", "long"): 3,
        ("cover", "short"): 3,
        ("cover", "long"): 2,
        ("trench", "short"): 2,
        ("trench", "long"): 1,
    }
    assert seen == {k: v + plus for k, v in want.items()}


@pytest.mark.audits("BI-R093", "BI-R092", "BI-WN7", "BI-R091")
def test_a_90_mm_guns_direct_hit_bursts_without_the_plus_one(game):
    """A.9.2 (a gun under 103 mm, short to 70 cm) and note (7): its hit is a burst at the
    target, who rolls on A.10.3 in the open at short distance: 6, no +1 (not over 103 mm);
    its radii are the "<103mm" row's, 5 and 10 cm."""
    facts = play(game, f"fire g103 tariq range=70 dice=1,6,{KILL}")
    assert chances(facts) == [5]
    assert chances(facts, "A.10.3") == [6]
    assert any("5 cm (short) and 10 cm (long)" in n for n in notes(facts))


@pytest.mark.audits("BI-R093", "BI-R092", "BI-WN7", "BI-R091")
def test_a_75_mm_guns_burst_reaches_4_and_8_cm(game):
    """A.10.2: a gun under 77 mm bursts with radii 4 and 8 cm; A.10.3 in the open, short: 6."""
    facts = play(game, f"fire g77 tariq range=50 dice=1,6,{KILL}")
    assert chances(facts) == [5]
    assert chances(facts, "A.10.3") == [6]
    assert any("4 cm (short) and 8 cm (long)" in n for n in notes(facts))


@pytest.mark.audits("BI-R093", "BI-R092", "BI-R080", "BI-WN7")
def test_a_heavy_guns_hit_on_an_entrenched_man(game):
    """A.9.4: the 120 mm gun at 100 cm, short +1, the man entrenched (heavy cover, a trench)
    -2: 4 + 1 - 2 = 3; a 3 hits; A.10.3 entrenched at short distance 2, +1 over 103 mm: 3;
    a 4 does not catch him."""
    facts = play(game, "fire g120 tariq range=100 cover=trench dice=3,4")
    assert chances(facts) == [3]
    assert chances(facts, "A.10.3") == [3]
    assert outcomes(facts, "A.10.3") == ["unhurt"]
    assert game.state.units["tariq"].in_play
    assert not rolls(facts, "A.12.1")


@pytest.mark.audits("BI-R093", "BI-R130", "BI-AMB-24", "BI-AMB-28")
def test_a_rockets_hit_on_a_tank_goes_straight_to_penetration(game):
    """A.10.3's digest note (BI-R093): against a vehicle a hit of the direct HE weapon is a hit
    on it, resolved by penetration (an AT rocket against a tank: 6), with no burst roll of
    its own: a 6 penetrates, a 10 on A.12.4 destroys it."""
    facts = play(game, "fire pino t55 weapon=rpg range=20 dice=1,6,10")
    assert [r.rule for r in rolls(facts)] == ["A.9.4", "A.12.3", "A.12.4"]
    assert chances(facts, "A.12.3") == [6]
    assert not game.state.units["t55"].in_play


@pytest.mark.audits("BI-R093", "BI-R121", "BI-R120")
def test_a_rockets_hit_on_a_truck_rolls_its_damage_at_plus_two(game):
    """A.12.2: an unarmoured vehicle hit by a rocket launcher rolls damage +2: a 6 is 8,
    destroyed; no burst roll of its own."""
    facts = play(game, "fire pino ural weapon=rpg range=20 dice=1,6")
    assert [r.rule for r in rolls(facts)] == ["A.9.4", "A.12.2"]
    assert not game.state.units["ural"].in_play


@pytest.mark.audits("BI-R121", "BI-R120")
def test_a_guns_hit_on_a_truck_with_a_natural_one_is_a_near_miss(game):
    """A.12.2: +4 for a gun, "ma un risultato di 1 non viene mai modificato": a 1 is a near
    miss, the truck checks morale and runs on whole."""
    facts = play(game, "fire g120 ural range=100 dice=1,1")
    (damage,) = outcomes(facts, "A.12.2")
    assert "near miss" in damage
    ural = game.state.units["ural"]
    assert ural.in_play and not ural.has("slowed") and not ural.has("immobilised")
    assert ural.has("morale-due")


@pytest.mark.audits("BI-R086", "BI-R072", "BI-AMB-21")
def test_a_machine_guns_shots_each_roll_their_damage_until_he_falls(game):
    """A.9.1/A.9.2: the MG fires 3 shots at one man, each its own roll (short range: 5) and
    each hit its own damage: the first a 3 (Shocked), the second a 10 (Dead); the third
    shot has no one left to hit."""
    facts = play(game, "fire mgv tariq range=30 dice=1,3,2,10")
    assert [r.rule for r in rolls(facts)] == ["A.9.4", "A.12.1", "A.9.4", "A.12.1"]
    assert outcomes(facts, "A.12.1") == ["shocked", "dead"]
    assert not game.state.units["tariq"].in_play


def _night_game(tmp_path, monkeypatch, night: str, phase: str = "fire-regular", turn: int = 1):
    g = new_game(tmp_path, monkeypatch, night=night, extra=EXTRA)
    goto(g, phase, turn)
    return g


def _rita(g, line: str) -> list[int | None] | None:
    facts = tried(g, f"fire rita tariq {line} dice=10")
    return None if facts is None else chances(facts)


@pytest.mark.audits("BI-R084", "BI-R081", "BI-R075")
def test_by_moonlight_each_edge_of_20_and_50_cm(tmp_path, monkeypatch):
    """A.9.4 "Con Luna (entro cm. 20) -1", "(tra cm. 20 e cm. 50) -2": Rita's rifle (Regular, 4)
    at 20 cm, short +1 and -1: 4; at 20.5 normal and -2: 2; at 40.5 long: 3 - 2 = 1; at 50
    still 1; beyond 50 cm nothing is fired at by moonlight."""
    g = _night_game(tmp_path, monkeypatch, "moon")
    seen = [_rita(g, f"range={r}") for r in (20, 20.5, 40, 40.5, 50, 50.5)]
    assert seen == [[4], [2], [2], [1], [1], None]


@pytest.mark.audits("BI-R084", "BI-R081")
def test_with_no_moon_each_edge_of_20_cm(tmp_path, monkeypatch):
    """A.9.4 "Senza Luna (max cm. 20) -2": at 20 cm (short for a rifle) 4 + 1 - 2 = 3; at
    20.5 cm no shot."""
    g = _night_game(tmp_path, monkeypatch, "dark")
    assert [_rita(g, f"range={r}") for r in (20, 20.5)] == [[3], None]


@pytest.mark.audits("BI-R084", "BI-R081")
def test_a_portable_intensifier_reaches_100_cm_and_no_further(tmp_path, monkeypatch):
    """A.9.4 and BI-R084: with a portable image intensifier (max 100 cm) +1 on the lighting
    penalty that applies: within 20 cm with no moon -2 + 1 (at 20, short: 4 + 1 - 1 = 4);
    beyond the unaided reach -2 + 1: at 100 cm (long) 4 - 1 - 1 = 2; at 100.5 no shot."""
    g = _night_game(tmp_path, monkeypatch, "dark")
    seen = [_rita(g, f"range={r} intensifier=portable") for r in (20, 60, 100, 100.5)]
    assert seen == [[4], [2], [2], None]


@pytest.mark.audits("BI-R084", "BI-R081")
def test_moonlight_with_a_portable_intensifier_within_20_cm_is_no_penalty(tmp_path, monkeypatch):
    """BI-R084: by moonlight within 20 cm -1, with the intensifier +1: at 15 cm, short: 5."""
    g = _night_game(tmp_path, monkeypatch, "moon")
    assert _rita(g, "range=15 intensifier=portable") == [5]


@pytest.mark.audits("BI-R084", "BI-R081")
def test_a_man_on_foot_has_no_vehicles_intensifier(tmp_path, monkeypatch):
    """A.9.4: "Intensificatore luminescenza veicolo (max cm. 200)" is a vehicle's: Rita, a
    rifleman on foot, cannot reach 110 cm at night with it (the portable one stops at 100)."""
    g = _night_game(tmp_path, monkeypatch, "dark")
    assert _rita(g, "range=110 intensifier=vehicle") is None


@pytest.mark.audits("BI-R084", "BI-R081")
def test_a_vehicles_intensifier_reaches_200_cm_and_no_further(tmp_path, monkeypatch):
    """A.9.4: the vehicle's image intensifier (max 200 cm): the MG on the technical at 200 cm
    (long) with no moon: 4 - 1 - 2 + 1 = 2 for each of its 3 shots; at 200.5 no shot."""
    g = _night_game(tmp_path, monkeypatch, "dark")
    facts = play(g, "fire mgv tariq range=200 intensifier=vehicle dice=10,10,10")
    assert chances(facts) == [2, 2, 2]
    g.execute("undo", role=REFEREE)
    refused(g, "fire mgv tariq range=200.5 intensifier=vehicle dice=10,10,10", rule="BI-R075")


@pytest.mark.audits("BI-R080", "BI-R084", "BI-R085", "BI-R003", "BI-AMB-03", "BI-AMB-10")
def test_every_bonus_at_once_reaches_ten_and_a_ten_hits(tmp_path, monkeypatch):
    """A.9.4: Elia (Elite, 6) aimed in turn 1 (+1); in turn 2, by moonlight within 20 cm (-1)
    with a portable intensifier (+1), at short range (+1), at Zeno who has just fired his
    assault rifle automatic (+2): 10; BI-R003, a chance of 10 always succeeds: a 10 hits."""
    g = _night_game(tmp_path, monkeypatch, "moon", "fire-elite")
    play(g, "aim elia")
    goto(g, "fire-elite", 2)
    play(g, "@red fire zeno bruno range=20 dice=10,10")
    facts = play(g, f"fire elia zeno range=15 intensifier=portable dice=10,{KILL}")
    assert chances(facts) == [10]
    assert not g.state.units["zeno"].in_play


@pytest.mark.audits("BI-R084", "BI-AMB-10")
def test_a_target_firing_is_no_bonus_by_day(tmp_path, monkeypatch):
    """BI-AMB-10 (b): "target fires single/automatic" is a night row: by day Zeno's burst
    gives Elia nothing: at 20 cm (normal) 6."""
    g = _night_game(tmp_path, monkeypatch, "day", "fire-elite")
    play(g, "@red fire zeno bruno range=20 dice=10,10")
    facts = play(g, "fire elia zeno range=20 dice=10,10")
    assert chances(facts) == [6, 6]


@pytest.mark.audits("BI-R084", "BI-AMB-10")
def test_at_night_a_target_firing_single_shots_is_plus_one(tmp_path, monkeypatch):
    """A.9.4 "Bersaglio spara colpo singolo +1": Ugo's rifle shot, then Elia at him with no
    moon at 20 cm: 6 - 2 + 1 = 5 for each shot."""
    g = _night_game(tmp_path, monkeypatch, "dark", "fire-elite")
    play(g, "@red fire ugo bruno range=20 dice=10")
    facts = play(g, "fire elia ugo range=20 dice=10,10")
    assert chances(facts) == [5, 5]


@pytest.mark.audits("BI-R084", "BI-AMB-10")
def test_at_night_a_target_that_has_not_fired_is_no_bonus(tmp_path, monkeypatch):
    """BI-AMB-10 (b): only a target that fired in this phase: Zeno, silent, by moonlight at
    20 cm: 6 - 1 = 5."""
    g = _night_game(tmp_path, monkeypatch, "moon", "fire-elite")
    facts = play(g, "fire elia zeno range=20 dice=10,10")
    assert chances(facts) == [5, 5]


@pytest.mark.audits("BI-R080", "BI-R003", "BI-R082", "BI-AMB-03")
def test_below_zero_nothing_hits_not_even_a_one(tmp_path, monkeypatch):
    """A.9.4 and BI-R003: Rabbi (Rabble, 2) with his pistol at 20 cm (long -1) at a man lying
    down (-1) in heavy cover (-2): -2; a chance of 0 or less always fails: his 1 misses."""
    g = _night_game(tmp_path, monkeypatch, "day", "fire-rabble")
    try:
        facts = play(g, "fire rabbi tariq range=20 prone cover=heavy dice=1")
    except Refused:
        facts = []
    assert not [o for o in outcomes(facts, "A.9.4") if o.startswith("hit")]
    assert not rolls(facts, "A.12.1")
    assert g.state.units["tariq"].in_play


@pytest.mark.audits("BI-R075", "BI-R080")
def test_a_man_with_a_rifle_and_a_rifle_grenade_fires_either_by_its_name(tmp_path, monkeypatch):
    """A.9.2: the rifle (short to 20 cm) and the rifle grenade (no short band, normal to 20 cm)
    are two weapons of the table; a rifleman carrying both fires the one he names: the
    rifle at 20 cm, short: 5; the rifle grenade at 20 cm: 4."""
    extra = (*EXTRA, U(id="gaspare", name="Gaspare", side="blue", cls="regular", weapons=("rifle", "rifle-grenade")))
    g = new_game(tmp_path, monkeypatch, extra=extra)
    goto(g, "fire-regular", 1)
    rifle = play(g, "fire gaspare tariq range=20 weapon=rifle dice=10")
    assert chances(rifle) == [5]
    g.execute("undo", role=REFEREE)
    assert chances(play(g, "fire gaspare tariq range=20 weapon=rifle-grenade dice=10,1")) == [4]


@pytest.mark.audits("BI-R071", "BI-R072", "BI-R073", "BI-R087")
@pytest.mark.parametrize("weapon", ["pistol", "carbine", "shotgun", "bolt-rifle", "sniper-rifle", "smg", "rpg"])
def test_only_the_weapons_with_an_area_row_fire_at_an_area(game, weapon):
    """A.9.1-A.9.2: single-shot weapons hit one target; automatic weapons fire at an area where
    the table gives them an area row (assault rifle, SAW, LMG, MG, autocannon): the SMG has
    none; HE weapons strike their own burst, not a rectangle: no area mode for Pino's."""
    refused(game, f"fire pino tariq fares mode=area range=10 weapon={weapon} dice=10,10", rule="BI-R072")


@pytest.mark.audits("BI-R072", "BI-R087", "BI-AMB-22")
def test_an_area_burst_rolls_once_for_each_man_in_it(game):
    """A.9.1: an automatic weapon fires "una volta su tutti i bersagli all'interno di un'area";
    BI-R087: one roll per figure: the MG's one area shot at Tariq and Fares, 30 cm (short,
    5): two rolls, Tariq hit (a 10 kills him), Fares missed."""
    facts = play(game, f"fire mgv tariq fares mode=area range=30 dice=1,{KILL},9")
    assert chances(facts) == [5, 5]
    assert not game.state.units["tariq"].in_play and game.state.units["fares"].in_play


@pytest.mark.audits("BI-WN6", "BI-R068")
def test_a_towed_gun_fires_only_once_emplaced(tmp_path, monkeypatch):
    """A.9.2: the gun rows carry note (6): a gun not on a vehicle "deve essere piazzato
    altrimenti non può sparare"; emplacing is a Very Easy action (the NOTE): Gunner's 75 mm
    gun is refused in turn 1, emplaced then, and fires in turn 2 (short range to 50 cm: 5)."""
    extra = (
        *EXTRA,
        U(id="gunner", name="Gunner", side="blue", cls="regular", weapons=("gun-77",), stats={"gun_mm": 75}),
    )
    g = new_game(tmp_path, monkeypatch, extra=extra)
    goto(g, "fire-regular", 1)
    refused(g, "fire gunner tariq range=50 dice=10,1", rule="BI-WN6")
    play(g, "emplace gunner")
    goto(g, "fire-regular", 2)
    assert chances(play(g, "fire gunner tariq range=50 dice=10,1")) == [5]


@pytest.mark.audits("BI-R087", "BI-R080", "BI-AMB-22")
def test_each_man_in_an_area_burst_has_his_own_modifiers(tmp_path, monkeypatch):
    """BI-R087: one roll per figure in the area, "each with its own target modifiers": Tariq
    ran this turn (+1), Fares lies down (-1): the MG's area shot at 30 cm (short, 5) is 6
    at Tariq and 4 at Fares."""
    g = new_game(tmp_path, monkeypatch, extra=EXTRA)
    goto(g, "move-second", 1)
    play(g, "@red move tariq 20 running")
    goto(g, "fire-regular", 1)
    play(g, "mark fares prone")
    facts = play(g, "fire mgv tariq fares mode=area range=30 dice=10,10")
    assert chances(facts) == [6, 4]
