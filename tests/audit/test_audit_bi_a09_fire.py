"""The audit of Bassa Intensità A.9 (direct fire: weapon classes, the weapons table's range
bands at every edge, the weapon notes, the hit chance and its modifiers, night, multiple
shots and area fire), written from the book ("TIRO DIRETTO") and its digest alone."""

from __future__ import annotations

import pytest
from audit_bi_early import KILL, chances, goto, man, new_game, notes, outcomes, play, refused, rolls, table, vehicle

from core.language.i18n import plain

HIT = "hit: roll damage (A.12)"

#: The book's weapons table (A.9.2): weapon id -> (shots, HE, short, normal, long) in cm,
#: None where the band is "NO"; and the area rows (blank = the single row's, BI-R076).
TABLE = {
    "pistol": (1, False, 5, 10, 20),
    "carbine": (1, False, 10, 20, 60),
    "shotgun": (1, False, 10, None, 30),
    "rifle": (1, False, 20, 40, 120),
    "bolt-rifle": (1, False, 20, 40, 120),
    "sniper-rifle": (1, False, 30, 70, 200),
    "smg": (2, False, 10, None, 40),
    "assault-rifle": (2, False, 15, 30, 90),
    "saw": (2, False, 15, 30, 90),
    "lmg": (2, False, 20, 40, 120),
    "mg": (3, False, 30, 70, 200),
    "gl": (1, True, None, 40, 80),
    "agl": (2, True, 20, 40, 200),
    "rifle-grenade": (1, True, None, 20, 60),
    "hand-grenade": (1, True, None, 10, None),
    "law": (1, True, None, 10, 30),
    "rpg": (1, True, None, 20, 60),
    "atgm": (1, True, 100, 200, 600),
    "autocannon": (2, False, 50, 100, 300),
    "gun-77": (1, True, 50, 100, 300),
    "gun-103": (1, True, 70, 150, 450),
    "gun-heavy": (1, True, 100, 200, 600),
}
AREA = {
    "assault-rifle": (None, 20, 60),
    "saw": (15, 30, 90),
    "lmg": (20, 40, 120),
    "mg": (30, 70, 200),
    "autocannon": (50, 100, 300),
}
BANDS = ("short", "normal", "long")


def _edges(limits) -> list[tuple[float, str | None]]:
    """Each band's edge, both sides: at the limit that band, half a cm past it the next
    band that exists, or out of range."""
    cases = []
    for i, limit in enumerate(limits):
        if limit is None:
            continue
        cases.append((limit, BANDS[i]))
        beyond = next((BANDS[j] for j in range(i + 1, 3) if limits[j] is not None), None)
        cases.append((limit + 0.5, beyond))
    return cases


SINGLE_CASES = [(w, d, band) for w, row in TABLE.items() for d, band in _edges(row[2:])]
AREA_CASES = [(w, d, band) for w, limits in AREA.items() for d, band in _edges(limits)]


def _armed(tmp_path, monkeypatch, weapon: str, **kw):
    """A Regular with ``weapon`` alone: on a vehicle (no emplacing, its own ranges:
    notes 4 and 6 of A.9.3 speak of weapons not on vehicles)."""
    shooter = vehicle("armed", "blue", "regular", weapon, roles=("technical",))
    return new_game(tmp_path, monkeypatch, extra=(shooter,), **kw)


@pytest.mark.audits("BI-R075", "BI-AMB-06")
@pytest.mark.parametrize(("weapon", "dist", "band"), SINGLE_CASES)
def test_every_range_band_edge_of_the_weapons_table(tmp_path, monkeypatch, weapon, dist, band):
    """A.9.2: each range column is the band's maximum; a limit itself is in the band
    (BI-AMB-06), half a cm beyond is the next band that exists, past Long out of range."""
    g = _armed(tmp_path, monkeypatch, weapon)
    shots, he = TABLE[weapon][:2]
    goto(g, "fire-regular", 1)
    line = f"fire armed tariq range={dist}"
    if band is None:
        refused(g, line, match="out of range", rule="BI-R075")
        return
    faces = ",".join(["10,1" if he else "10"] * shots)  # misses (an HE miss: a dud, 1)
    facts = play(g, f"{line} dice={faces}")
    assert [plain(r.purpose).endswith(f"({band} range)") for r in rolls(facts, "A.9.4")] == [True] * shots


@pytest.mark.audits("BI-R072", "BI-R075", "BI-R076", "BI-AMB-05", "BI-AMB-06")
@pytest.mark.parametrize(("weapon", "dist", "band"), AREA_CASES)
def test_every_range_band_edge_of_area_fire(tmp_path, monkeypatch, weapon, dist, band):
    """A.9.2: the assault rifle's area row has no Short band, Normal 20, Long 60; the blank
    area rows of the SAW, LMG, MG and autocannon take the weapon's own ranges (BI-R076)."""
    g = _armed(tmp_path, monkeypatch, weapon)
    goto(g, "fire-regular", 1)
    line = f"fire armed tariq fares range={dist} area"
    if band is None:
        refused(g, line, match="out of range", rule="BI-R075")
        return
    facts = play(g, f"{line} dice=10,10")
    assert [plain(r.purpose).endswith(f"({band} range)") for r in rolls(facts, "A.9.4")] == [True, True]


# ------------------------------------------------------------------ A.9.1 weapon classes


game = table()


@pytest.mark.audits("BI-R070", "BI-R071")
def test_a_single_shot_weapon_hits_one_target_only(game):
    """A.9.1: a rifle fires one shot at one target; it has no area fire."""
    goto(game, "fire-regular", 1)
    refused(game, "fire carlo tariq fares range=30", rule="BI-R071")
    refused(game, "fire carlo tariq fares range=30 area", rule="BI-R072")
    assert len(rolls(play(game, "fire carlo tariq range=30 dice=9"), "A.9.4")) == 1


@pytest.mark.audits("BI-R070", "BI-R072", "BI-R086", "BI-AMB-21")
def test_an_automatic_weapon_fires_its_shots_at_one_target_each_rolled_and_each_hit_its_damage(game):
    """A.9.1, A.9.4: an assault rifle's 2 shots at one target: two 1d10 rolls, and each
    hit its own damage roll (3: shocked, then 4: shocked); an MG on a vehicle 3 shots."""
    goto(game, "fire-regular", 1)
    facts = play(game, "fire bruno tariq range=20 dice=1,3,1,4")
    assert outcomes(facts, "A.9.4") == [HIT, HIT]
    assert [r.faces for r in rolls(facts)] == [(1,), (3,), (1,), (4,)]
    assert len(rolls(play(game, "fire vcc fares range=20 dice=9,9,9"), "A.9.4")) == 3


@pytest.mark.audits("BI-R072", "BI-R087", "BI-AMB-22")
def test_area_fire_is_one_shot_with_a_roll_for_each_figure_in_the_area_each_with_its_own_modifiers(game):
    """A.9.1, A.9.4: an assault rifle at an area: one shot, a hit roll per figure named
    (three), halved: 4/2 = 2; Tariq lying down is -1 before halving: 3/2 -> 2, and
    Fares, running, +1: 5/2 -> 3."""
    play(game, "mark tariq prone")
    goto(game, "move-second", 1)
    play(game, "@red move fares 20 running")
    goto(game, "fire-regular", 1)
    facts = play(game, "fire bruno tariq fares nabil range=20 area dice=9,9,9")
    assert chances(facts) == [2, 3, 2]


@pytest.mark.audits("BI-R073")
def test_an_he_hit_bursts_over_an_area(game):
    """A.9.1: an HE weapon hits all targets within an area (A.10): an RPG's hit on Tariq
    is his HE roll (6 in the open at short distance: a 6 catches him) and its burst."""
    goto(game, "fire-regular", 1)
    facts = play(game, "fire rocco tariq range=20 dice=4,6," + KILL)
    assert outcomes(facts, "A.9.4") == ["hit: HE burst at the target (A.10)"]
    assert [r.target for r in rolls(facts) if r.rule != "A.9.4"][:1] == [6]
    assert any("3 cm" in n and "6 cm" in n for n in notes(facts))


# ------------------------------------------------------------------ A.9.3 weapon notes


@pytest.mark.audits("BI-WN4", "BI-R075")
def test_a_light_mg_not_emplaced_fires_as_an_assault_rifle(game):
    """A.9.3 (4): Lino's LMG, not on a vehicle, not emplaced: the assault rifle's bands
    (90 long, 90.5 out; 20 normal), and its shots; emplaced, the LMG's own (90.5 long)."""
    goto(game, "fire-regular", 1)
    refused(game, "fire lino tariq range=90.5", match="out of range", rule="BI-R075")
    facts = play(game, "fire lino tariq range=20 dice=9,9")
    assert [plain(r.purpose) for r in rolls(facts, "A.9.4")] == [
        "fire with his Assault rifle at Tariq (normal range)"
    ] * 2
    goto(game, "fire-regular", 2)
    play(game, "emplace lino")
    goto(game, "fire-regular", 3)
    facts = play(game, "fire lino tariq range=90.5 dice=9,9")
    assert [plain(r.purpose) for r in rolls(facts, "A.9.4")] == [
        "fire with his Light machine gun at Tariq (long range)"
    ] * 2


@pytest.mark.audits("BI-WN6")
@pytest.mark.parametrize("weapon", ["mg", "agl", "gun-77"])
def test_an_mg_an_agl_or_a_recoilless_gun_not_on_a_vehicle_fires_only_emplaced(tmp_path, monkeypatch, weapon):
    """A.9.3 (6): not mounted on a vehicle they cannot fire until emplaced; on a vehicle
    they fire at once."""
    crew = man("crew", "blue", "regular", weapon)
    mounted = vehicle("mounted", "blue", "regular", weapon, roles=("technical",))
    g = new_game(tmp_path, monkeypatch, extra=(crew, mounted))
    goto(g, "fire-regular", 1)
    refused(g, "fire crew tariq range=30", match="emplace", rule="BI-WN6")
    shots, he = TABLE[weapon][:2]
    faces = ",".join(["10,1" if he else "10"] * shots)
    assert len(rolls(play(g, f"fire mounted tariq range=30 dice={faces}"), "A.9.4")) == shots
    play(g, "emplace crew")
    goto(g, "fire-regular", 2)
    assert len(rolls(play(g, f"fire crew tariq range=30 dice={faces}"), "A.9.4")) == shots


# ------------------------------------------------------------------ A.9.4 hit chance


@pytest.mark.audits("BI-R080", "BI-AMB-02")
@pytest.mark.parametrize(
    ("setup", "line", "chance"),
    [
        ((), "fire bruno tariq range=15", 5),  # short +1 (15 is short)
        ((), "fire bruno tariq range=30", 4),  # normal 0
        ((), "fire bruno tariq range=31", 3),  # long -1
        ((), "fire bruno tariq range=20 prone", 3),  # target lying down -1
        (("mark tariq prone",), "fire bruno tariq range=20", 3),  # target lying down -1
        ((), "fire bruno tariq range=20 light", 3),  # light cover -1
        ((), "fire bruno tariq range=20 heavy", 2),  # heavy cover -2
        ((), "fire bruno tariq range=20 trench", 2),  # a trench is heavy cover
        (("mark bruno wounded",), "fire bruno tariq range=20", 2),  # shooter wounded 1/2
        (("mark tariq wounded",), "fire bruno tariq range=20", 4),  # the TARGET wounded: nothing
        (("mark bruno prone",), "fire bruno tariq range=20", 4),  # the SHOOTER prone: nothing
        ((), "fire sam tariq fares range=20 area", 3),  # SAW at an area -1
        ((), "fire bruno tariq fares range=20 area", 2),  # assault rifle at an area 1/2
    ],
)
def test_each_hit_modifier_of_the_table(game, setup, line, chance):
    """A.9.4: Quality (Regular 4) modified by the row that applies, to the shooter or to
    the target as the row says (BI-AMB-02)."""
    for line_ in setup:
        play(game, line_)
    goto(game, "fire-regular", 1)
    assert set(chances(play(game, line + " dice=" + ",".join(["9"] * 2)))) == {chance}


@pytest.mark.audits("BI-R080")
def test_a_bolt_action_rifle_is_minus_one(tmp_path, monkeypatch):
    """A.9.3 (1): a non-semi-automatic rifle -1: Regular at normal range, 4 - 1 = 3."""
    g = new_game(tmp_path, monkeypatch, extra=(man("bolt", "blue", "regular", "bolt-rifle"),))
    goto(g, "fire-regular", 1)
    assert chances(play(g, "fire bolt tariq range=30 dice=9")) == [3]


@pytest.mark.audits("BI-R080")
def test_a_target_moving_cautiously_is_minus_one_running_plus_one(game):
    """A.9.4: Tariq moved cautiously (-1), Fares ran (+1); Regular at normal range."""
    goto(game, "move-second", 1)
    play(game, "@red move tariq 8 cautious", "@red move fares 24 running")
    goto(game, "fire-regular", 1)
    assert chances(play(game, "fire bruno tariq range=20 dice=9,9")) == [3, 3]
    assert chances(play(game, "fire carlo fares range=30 dice=9")) == [5]


@pytest.mark.audits("BI-R082", "BI-AMB-03")
def test_the_modifiers_are_added_before_halving(game):
    """BI-R082: a Veteran at short range in opportunity fire: (5 + 1) / 2 = 3, not
    5/2 -> 3, + 1 = 4: a 3 hits, a 4 misses."""
    goto(game, "move-first", 1)
    play(game, "@blue move bruno 5")
    facts = play(game, "@red fire karim bruno range=10 dice=4,3," + KILL)
    assert chances(facts) == [3, 3] and outcomes(facts, "A.9.4") == ["miss", HIT]


@pytest.mark.audits("BI-R083")
def test_halvings_stack(game):
    """BI-R083: a wounded Elite in opportunity fire at short range: (6 + 1) / 4 = 1.75 -> 2;
    once halved it would be 4."""
    play(game, "mark zaki wounded")
    goto(game, "move-first", 1)
    play(game, "@blue move bruno 5")
    assert chances(play(game, "@red fire zaki bruno range=10 dice=9,9")) == [2, 2]


@pytest.mark.audits("BI-R085", "BI-AMB-19")
def test_an_aimed_shot_follows_an_aim_action_in_the_previous_turn(game):
    """A.9.4: aimed +1 after a Very Easy Aim action the turn before: Bruno aims in turn 1
    and fires at 5 in turn 2 (normal range), at 4 again in turn 3.  Emplacing (another Very
    Easy action) gives no aim: Dario's MG at normal range fires at 4."""
    goto(game, "fire-regular", 1)
    play(game, "aim bruno", "emplace dario")
    goto(game, "fire-regular", 2)
    assert chances(play(game, "fire bruno tariq range=20 dice=9,9")) == [5, 5]
    assert chances(play(game, "fire dario tariq range=40 dice=9,9,9")) == [4, 4, 4]
    goto(game, "fire-regular", 3)
    assert chances(play(game, "fire bruno tariq range=20 dice=9,9")) == [4, 4]


@pytest.mark.audits("BI-R085")
def test_a_sniper_always_aims(game):
    """A.9.4: the shooter is a sniper: +1 (Regular sniper at normal range, 5)."""
    goto(game, "fire-regular", 1)
    assert chances(play(game, "fire nico tariq range=50 dice=9")) == [5]


# ------------------------------------------------------------------ night


def _night(tmp_path, monkeypatch, light):
    return new_game(tmp_path, monkeypatch, night=light)


@pytest.mark.audits("BI-R081", "BI-R084")
@pytest.mark.parametrize(
    ("light", "dist", "chance"),
    [
        ("moon", 20, 4),  # MG short +1, moon within 20 cm -1
        ("moon", 20.5, 3),  # moon between 20 and 50 cm -2
        ("moon", 50, 2),  # normal range, -2
        ("moon", 50.5, None),  # moon: nothing beyond 50 cm
        ("dark", 20, 3),  # no moon -2
        ("dark", 20.5, None),  # no moon: nothing beyond 20 cm
    ],
)
def test_night_fire_by_the_moon_and_without(tmp_path, monkeypatch, light, dist, chance):
    """A.9.4: by moonlight -1 within 20 cm, -2 from 20 to 50 cm, no fire beyond; with no
    moon -2 up to 20 cm, no fire beyond (a Regular's vehicle MG: short to 30 cm)."""
    g = _night(tmp_path, monkeypatch, light)
    goto(g, "fire-regular", 1)
    line = f"fire vcc tariq range={dist}"
    if chance is None:
        refused(g, line, rule="BI-R081")
    else:
        assert chances(play(g, line + " dice=9,9,9")) == [chance] * 3


@pytest.mark.audits("BI-R081", "BI-R084")
@pytest.mark.parametrize(
    ("shooter", "aid", "light", "dist", "chance"),
    [
        ("vcc", "portable", "moon", 100, 2),  # long -1, -2 +1
        ("vcc", "portable", "moon", 100.5, None),
        ("vcc", "portable", "dark", 50, 3),  # normal, -2 +1
        ("ariete", "vehicle", "moon", 200, 4),  # Veteran gun, normal, -2 +1
        ("ariete", "vehicle", "moon", 200.5, None),
    ],
)
def test_an_image_intensifier_reaches_100_or_200_cm_at_plus_one(
    tmp_path, monkeypatch, shooter, aid, light, dist, chance
):
    """A.9.4: a portable intensifier (max 100 cm) or a vehicle's (max 200 cm): +1 on the
    lighting penalty, -2 beyond the unaided maximum."""
    g = _night(tmp_path, monkeypatch, light)
    tier = "veteran" if shooter == "ariete" else "regular"
    goto(g, f"fire-{tier}", 1)
    line = f"fire {shooter} tariq range={dist} intensifier={aid}"
    if chance is None:
        refused(g, line, rule="BI-R081")
    else:
        faces = "10,1" if shooter == "ariete" else "9,9,9"
        assert set(chances(play(g, f"{line} dice={faces}"))) == {chance}


@pytest.mark.audits("BI-R084", "BI-AMB-10")
def test_at_night_a_target_that_fired_this_phase_is_easier_to_hit(tmp_path, monkeypatch):
    """A.9.4: at night, a target firing automatic +2, single shots +1, in the phase of the
    shot: Karim (Veteran) and Rafi (rifle) fired earlier in this fire phase.  Bruno at
    normal range by the moon within 20 cm: 4 - 1 + 2 = 5; Carlo at normal range by the
    moon at 30 cm: 4 - 2 + 1 = 3."""
    g = _night(tmp_path, monkeypatch, "moon")
    goto(g, "fire-veteran", 1)
    play(g, "@red fire karim sam range=20 dice=9,9")
    goto(g, "fire-regular", 1)
    play(g, "@red fire rafi elia range=30 dice=9")
    assert chances(play(g, "fire bruno karim range=20 dice=9,9")) == [5, 5]
    assert chances(play(g, "fire carlo rafi range=30 dice=9")) == [3]


@pytest.mark.audits("BI-R084", "BI-AMB-10")
def test_by_day_or_in_another_phase_the_target_firing_gives_nothing(tmp_path, monkeypatch):
    """A.9.4: the "target is firing" rows are night rows: by day Karim's fire gives
    nothing (4); at night his opportunity fire in the movement phase gives nothing in the
    fire phase (4 - 1 = 3)."""
    g = new_game(tmp_path, monkeypatch)
    goto(g, "fire-veteran", 1)
    play(g, "@red fire karim sam range=20 dice=9,9")
    goto(g, "fire-regular", 1)
    assert chances(play(g, "fire bruno karim range=20 dice=9,9")) == [4, 4]
    g = _night(tmp_path / "night", monkeypatch, "moon")
    goto(g, "move-first", 1)
    play(g, "@blue move gino 5", "@red fire karim gino range=20 dice=9,9")
    goto(g, "fire-regular", 1)
    assert chances(play(g, "fire bruno karim range=20 dice=9,9")) == [3, 3]


@pytest.mark.parametrize(("roles", "reloads"), [(("emplaced", "recoilless"), True), (("emplaced",), False)])
def test_a_lone_crewman_reloads_a_recoilless_gun_served_on_foot(tmp_path, monkeypatch, roles, reloads):
    """A.9.3 (6) (ruling BI-CREW, #61): a recoilless gun with one crewman reloads before it fires
    again; the gun rows hold field guns too (note 8), so a man's gun is recoilless by the role
    the scenario gives him, as a vehicle's is (docs/scenarios.md)."""
    crew = man("crew", "blue", "regular", "gun-77", roles=roles)
    g = new_game(tmp_path, monkeypatch, extra=(crew,))
    play(g, "mark crew one-crew")
    goto(g, "fire-regular", 1)
    play(g, "fire crew tariq range=30 dice=10,1")
    assert g.state.units["crew"].has("must-reload") is reloads


# ------------------------------------------------------------------ typed dice, in their order

#: Issue #77 said `fire` read typed dice in another order than docs/commands.md and `help
#: fire` give ("each hit at once": a hit's damage straight after its shot).  Tried again case
#: by case, it reads them in that order; each case is pinned here, given these faces, these
#: rolls, so that a change that gathers the to-hit dice first (or deviates after all the
#: shots) fails by name.  (rule, faces, outcome) of each roll, in the order made.
TYPED_ORDER = {
    "a miss then a hit: the hit's damage after it": (
        "fire bruno tariq range=20 dice=9,3,4",
        [("A.9.4", 9, "miss"), ("A.9.4", 3, HIT), ("A.12.1", 4, "shocked")],
    ),
    "a hit then a miss: the damage before the second shot": (
        "fire bruno tariq range=20 dice=3,7,9",
        [("A.9.4", 3, HIT), ("A.12.1", 7, "wounded"), ("A.9.4", 9, "miss")],
    ),
    "two hits, each its damage at once": (
        "fire bruno tariq range=20 dice=3,8,4,9",
        [("A.9.4", 3, HIT), ("A.12.1", 8, "wounded"), ("A.9.4", 4, HIT), ("A.12.1", 9, "seriously wounded")],
    ),
    "an MG's three shots, a hit among misses": (
        "fire vcc fares range=20 dice=9,2,5,9",
        [("A.9.4", 9, "miss"), ("A.9.4", 2, HIT), ("A.12.1", 5, "shocked"), ("A.9.4", 9, "miss")],
    ),
    "area fire: each man's roll, a hit's damage before the next man's": (
        "fire bruno tariq fares nabil range=20 area dice=1,5,9,1,6",
        [
            ("A.9.4", 1, HIT),
            ("A.12.1", 5, "shocked"),
            ("A.9.4", 9, "miss"),
            ("A.9.4", 1, HIT),
            ("A.12.1", 6, "wounded"),
        ],
    ),
    "an HE hit on a man: whether it catches him, then his damage": (
        "fire tank2 tariq range=40 dice=2,3,4",
        [
            ("A.9.4", 2, "hit: HE burst at the target (A.10)"),
            ("A.10.3", 3, "hit: roll damage"),
            ("A.12.1", 4, "shocked"),
        ],
    ),
    "an HE miss: where it lands, straight after the shot": (
        "fire gino tariq range=30 dice=9,5",
        [
            ("A.9.4", 9, "miss: the HE round deviates (A.10.1)"),
            ("A.10.1", 5, "lands 6 cm short of the target (20% of 30 cm)"),
        ],
    ),
    "a hit on armour: penetration, then damage": (
        "fire rocco t55 range=20 dice=3,2,5",
        [
            ("A.9.4", 3, "hit: HE burst at the target (A.10)"),
            ("A.12.3", 2, "penetrated"),
            ("A.12.4", 5, "immobilised"),
        ],
    ),
}


@pytest.mark.audits("BI-R086", "BI-AMB-21")
@pytest.mark.parametrize(("line", "made"), list(TYPED_ORDER.values()), ids=list(TYPED_ORDER))
def test_typed_dice_are_read_as_the_order_of_fire_says_each_hit_at_once(game, line, made):
    goto(game, "fire-regular", 1)
    facts = play(game, line)
    assert [(r.rule, *r.faces, plain(r.outcome)) for r in rolls(facts)] == made
