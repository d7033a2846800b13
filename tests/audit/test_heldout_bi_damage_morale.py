"""A second, held-out audit of Bassa Intensità (issue #46): damage and morale (A.12,
A.13), each case written from the book ("DANNI", "MORALE", the tables' notes under them)
and its digest alone: the weapons each table's modifier note names but the first audit
did not try, a result meeting a state the man already has, two morale modifiers at once,
and which events call a squad's check."""

from __future__ import annotations

import pytest
from audit_bi_early import goto as early_goto
from audit_bi_early import new_game, vehicle
from audit_bi_early import play as early_play
from audit_bi_early import rolls as early_rolls
from audit_bi_late import goto, late_table, outcomes, play, unit, waive_morale

game = late_table(turns=0)


def due(g) -> set[str]:
    return {u.id for u in g.state.units.values() if u.in_play and u.has("morale-due")}


# ------------------------------------------------------------ A.12.1 infantry


@pytest.mark.audits("BI-R230", "BI-R112", "BI-AMB-35")
def test_a_rubber_bullets_dead_is_a_wound_and_on_a_wounded_man_a_second_wound(game):
    """A.16.4: with rubber bullets "Dead counts as Wounded", and Seriously wounded as
    Shocked; A.12.1: a Wounded man "dies with a second wound".  Jamal, wounded, takes a
    rubber 10: a second wound, dead.  Zaid, wounded, takes a rubber 9: shocked, alive."""
    play(game, "hit jamal dice=6", "hit zaid dice=6")
    waive_morale(game)
    goto(game, "fire-regular", 1)
    play(game, "@blue fire rubens jamal range=15 dice=1,10")
    assert not unit(game, "jamal").in_play
    waive_morale(game)
    goto(game, "fire-regular", 2)
    play(game, "@blue fire rubens zaid range=15 dice=1,9")
    zaid = unit(game, "zaid")
    assert zaid.in_play and zaid.has("wounded") and zaid.has("shocked")


@pytest.mark.audits("BI-R113", "BI-R112", "BI-R110")
def test_a_dressed_man_counts_as_wounded_so_another_wound_kills_him(game):
    """A.12.1: "from the turn he is dressed he counts as Wounded", and a Wounded man dies
    with a second wound: dressed Bruno dies of a 6; dressed Carlo lives through a 5
    (shocked), still wounded."""
    play(game, "hit bruno dice=9,3", "hit carlo dice=9,3")
    goto(game, "fire-regular", 1)
    play(game, "@blue dress capo bruno dice=4", "hit bruno dice=6")
    assert not unit(game, "bruno").in_play
    waive_morale(game)
    goto(game, "fire-regular", 2)
    play(game, "@blue dress capo carlo dice=4", "hit carlo dice=5")
    carlo = unit(game, "carlo")
    assert carlo.in_play and carlo.has("wounded") and carlo.has("shocked")


@pytest.mark.audits("BI-R111", "BI-R093")
@pytest.mark.parametrize(
    ("who", "face", "result"),
    [("fabio", 6, "shocked"), ("fabio", 7, "wounded"), ("piero", 8, "wounded"), ("piero", 10, "dead")],
)
def test_a_vest_counts_against_a_burst_as_against_a_bullet(game, who, face, result):
    """A.12.1's note: -1 for a fragmentation vest, -2 for a bullet-proof vest on the
    damage die of any hit, a natural 10 never modified; a man caught by an RPG's burst
    (A.10.3, 6 in the open at short distance) rolls it too."""
    facts = play(game, f"burst {who} source=rpg zone=short dice=6,{face}")
    assert [r[1] for r in outcomes(facts, "A.10.3")] == [6]
    assert outcomes(facts, "A.12.1")[0][2].startswith(result)


# ------------------------------------------------------------ A.12.2 unarmoured


@pytest.mark.audits("BI-R120", "BI-R121", "BI-AMB-37")
@pytest.mark.parametrize(
    ("weapon", "face", "result"),
    [
        ("lmg", 6, "immobilised"),  # a light machine gun is a machine gun: +1, 7
        ("lmg", 7, "destroyed"),  # 8
        ("saw", 7, "immobilised"),  # not a machine gun: +0
        ("smg", 7, "immobilised"),  # +0
        ("agl", 5, "immobilised"),  # an automatic grenade launcher is a grenade launcher: +2, 7
        ("agl", 6, "destroyed"),
        ("gl", 6, "destroyed"),
        ("rifle-grenade", 6, "destroyed"),  # a rifle grenade +2
        ("law", 6, "destroyed"),  # a rocket launcher +2
        ("law", 1, "near miss"),  # a natural 1 is never modified
        ("gun-77", 3, "immobilised"),  # a gun +4: 7
        ("gun-77", 4, "destroyed"),
    ],
)
def test_the_unarmoured_modifiers_of_the_weapons_the_note_names(game, weapon, face, result):
    """A.12.2's note: +1 machine gun, +2 grenade launcher, rocket launcher, hand or rifle
    grenade, +4 gun, mortar or autocannon; a natural 1 is never modified."""
    facts = play(game, f"hit jeep weapon={weapon} dice={face}")
    assert outcomes(facts, "A.12.2")[0][2].startswith(result)


# ------------------------------------------------------------ A.12.3 penetration


@pytest.mark.audits("BI-R130")
@pytest.mark.parametrize(
    ("target", "weapon", "chance"),
    [("ariete", "law", 6), ("bmp", "law", 8), ("ariete", "gun-77", 6), ("m113", "gun-77", 8)],
)
def test_a_law_is_an_anti_tank_rocket_and_a_small_gun_a_gun_under_99_mm(game, target, weapon, chance):
    """A.12.3: the LAW is an anti-tank rocket launcher (6 against a tank, 8 against other
    armour); a gun under 77 mm is under 99 mm (6 and 8)."""
    facts = play(game, f"hit {target} weapon={weapon} dice={chance},1")
    assert outcomes(facts, "A.12.3") == [("A.12.3", chance, "penetrated")]


def _recoilless(tmp_path, monkeypatch, weapon: str, mm: int):
    gun = vehicle("srr", "blue", "regular", weapon, roles=("technical", "recoilless"), gun_mm=mm)
    bmp = vehicle("bmp", "red", "regular", "autocannon", roles=("tracked-apc",))
    return new_game(tmp_path, monkeypatch, extra=(gun, bmp))


@pytest.mark.audits("BI-R130", "BI-R131", "BI-AMB-25", "BI-WN8")
@pytest.mark.parametrize(
    ("weapon", "mm", "target", "flank", "chance"),
    [
        ("gun-heavy", 106, "t55", "", 5),  # recoilless over 100 mm against a tank
        ("gun-heavy", 106, "t55", " flank", 7),  # +2 on the flank or rear
        ("gun-heavy", 106, "bmp", "", 7),  # against other armour
        ("gun-103", 84, "t55", "", 3),  # recoilless under 100 mm
        ("gun-103", 84, "bmp", "", 6),
    ],
)
def test_a_recoilless_gun_penetrates_by_its_own_rows(tmp_path, monkeypatch, weapon, mm, target, flank, chance):
    """Note (8) (BI-WN8): recoilless guns fire on the gun rows of the weapons table; A.12.3 gives
    them their own penetration rows: over 100 mm 5 / 7, under 100 mm 3 / 6."""
    g = _recoilless(tmp_path, monkeypatch, weapon, mm)
    early_goto(g, "fire-regular", 1)
    facts = early_play(g, f"fire srr {target} range=50{flank} dice=1,{chance},1")
    assert [r.target for r in early_rolls(facts, "A.12.3")] == [chance]


# ------------------------------------------------------------ A.12.4 armoured damage


@pytest.mark.audits("BI-R140", "BI-R183", "BI-AMB-43")
def test_a_tank_whose_radio_is_lost_is_still_undamaged_for_its_crews_minus_two(game):
    """A.12.4: radio destroyed: always isolated, and "does not count as a damaged vehicle
    for morale".  The Veteran crew checks at 8 - 2 (isolated) - 2 (HE) = 4; failing, its
    effects die 6 is 6 - 2 = 4 (undamaged armour): panic, the crew does not abandon it."""
    play(game, "hit ariete weapon=rpg dice=1,2")
    facts = play(game, "morale ariete dice=10,6")
    assert outcomes(facts)[0][1] == 4 and outcomes(facts)[1][2] == "panic"
    assert unit(game, "ariete").in_play


@pytest.mark.audits("BI-R141", "BI-R140")
def test_an_indirect_natural_ten_on_armour_is_only_a_jammed_turret(game):
    """A.12.4: -4 if hit by mortars or artillery firing indirectly; unlike the infantry
    table, no natural 10 is exempt: 10 - 4 = 6, turret jammed, not destroyed."""
    facts = play(game, "hit ariete weapon=gun-heavy indirect dice=1,10")
    assert outcomes(facts, "A.12.4")[0][2].startswith("turret jammed")
    assert unit(game, "ariete").in_play


# ------------------------------------------------------------ A.13 morale


@pytest.mark.audits("BI-R183", "BI-R184", "BI-AMB-44")
def test_an_elite_man_shocked_by_a_hit_panics_when_his_check_shocks_him_again(game):
    """A.13.3: Elite -1 on the effects die: 4 -> 3, Shocked; already Shocked (the damage
    table's 3), he counts as in Panic and flees: his run, 24 cm, less the -25% of standing
    up, for a shocked man lies on the ground (BI-AMB-45 with BI-R042): 18 cm."""
    play(game, "hit leo dice=3")
    facts = play(game, "morale leo dice=10,4")
    assert outcomes(facts)[1][2] == "panic"
    assert [e.cm for e in facts if type(e).__name__ == "Moved"] == [18]


@pytest.mark.audits("BI-R181", "BI-R003")
def test_a_pass_chance_over_ten_never_fails(game):
    """A.13.2: a Regular fanatic +2 in heavy cover +2: 7 + 4 = 11: even a 10 passes."""
    assert outcomes(play(game, "morale jamal m4 heavy dice=10")) == [("A.13.2", 11, "passed")]


@pytest.mark.audits("BI-R181", "BI-R180")
def test_a_wounded_man_checks_every_later_morale_at_minus_three(game):
    """A.13.2: "Wounded -3" is the man's state: Bruno, wounded earlier, checks when Carlo of
    his squad is killed (M5) at 7 - 3 = 4."""
    play(game, "hit bruno dice=6", "morale bruno dice=1", "hit carlo dice=10")
    assert "bruno" in due(game)
    assert outcomes(play(game, "morale bruno dice=4")) == [("A.13.2", 4, "passed")]


@pytest.mark.audits("BI-R181", "BI-R028", "BI-AMB-42")
def test_a_wounded_man_whose_leader_is_killed_checks_at_every_penalty(game):
    """A.13.2: wounded -3, isolated -2 (his leader killed, A.4), commander killed -1: a
    Regular passes on 7 - 6 = 1 only."""
    play(game, "hit bruno dice=6", "morale bruno dice=1", "hit capo dice=10")
    facts = play(game, "morale bruno dice=2,1")
    assert outcomes(facts)[0][1:] == (1, "failed: roll the effect")


@pytest.mark.audits("BI-R180", "BI-R110")
def test_a_seriously_wounded_squad_mate_is_not_a_killed_one(game):
    """A.13.1: the squad checks when one of its soldiers is killed (M5); a seriously
    wounded man is not killed: nobody of his squad checks for him."""
    play(game, "hit bruno dice=9,3")
    assert due(game) & {"capo", "carlo"} == set()
    play(game, "hit carlo dice=10")
    assert "capo" in due(game)


@pytest.mark.audits("BI-R180")
@pytest.mark.parametrize(
    ("leader", "dice", "men"),
    [("capo", "6", {"bruno", "carlo"}), ("leo", "9,3", {"sandro", "fabio", "piero", "genio"})],
)
def test_a_commander_wounded_or_seriously_wounded_calls_his_squads_check(game, leader, dice, men):
    """A.13.1 M6: "its own commander is killed or wounded": wounded, or seriously
    wounded, each of his men checks."""
    play(game, f"hit {leader} dice={dice}")
    assert men <= due(game)


@pytest.mark.audits("BI-R181", "BI-AMB-41")
@pytest.mark.parametrize(
    ("weapon", "chance"),
    [
        ("smg", 5),  # a sub-machine gun fires automatic
        ("saw", 5),
        ("lmg", 5),
        ("agl", 5),  # automatic and HE
        ("rifle-grenade", 5),  # HE
        ("hand-grenade", 5),
        ("pistol", 7),  # single shots
        ("shotgun", 7),
        ("sniper-rifle", 7),
    ],
)
def test_under_he_or_automatic_fire_by_the_weapon_that_hit(game, weapon, chance):
    """A.13.2: "under HE or automatic-weapon fire -2": the near miss of an automatic or
    HE weapon puts a Regular's check at 7 - 2 = 5; a single-shot weapon's leaves 7."""
    play(game, f"hit bruno weapon={weapon} dice=1")
    assert outcomes(play(game, f"morale bruno dice={chance}")) == [("A.13.2", chance, "passed")]


@pytest.mark.audits("BI-R180", "BI-R182")
def test_a_man_who_surrenders_is_not_a_man_killed(game):
    """A.13.1 M5: a squad checks when one of its soldiers is killed; A.13.3: a man who
    surrenders to an enemy within 12 cm is taken, not killed: nobody checks for him."""
    play(game, "hit bruno dice=1")
    facts = play(game, "morale bruno enemy dice=10,6")
    assert outcomes(facts)[1][2] == "surrender" and not unit(game, "bruno").in_play
    assert due(game) & {"capo", "carlo"} == set()


@pytest.mark.audits("BI-R092", "BI-R121", "BI-AMB-26")
def test_a_truck_under_a_heavy_guns_burst_is_caught_at_plus_one_and_damaged_at_plus_four(game):
    """A.10.3: +1 to be caught under guns or mortars over 103 mm (in the open, short
    distance: 7); A.12.2: a gun's or mortar's hit on an unarmoured vehicle +4 (4 -> 8,
    destroyed)."""
    facts = play(game, "burst jeep source=gun-150 zone=short dice=7,4")
    assert outcomes(facts, "A.10.3")[0][1] == 7
    assert outcomes(facts, "A.12.2")[0][2].startswith("destroyed")


@pytest.mark.audits("BI-R092", "BI-R080")
def test_lying_down_is_no_cover_from_a_burst(game):
    """A.10.3 reads the target's terrain only (in the open, in cover, entrenched); lying
    down is a row of the direct-fire table, not of the HE table: a man prone in the open
    is caught on 6 at short distance."""
    play(game, "mark omar prone")
    assert outcomes(play(game, "burst omar source=rpg zone=short dice=7"), "A.10.3") == [("A.10.3", 6, "unhurt")]


@pytest.mark.audits("BI-R181", "BI-AMB-41")
def test_a_man_in_heavy_cover_hit_by_automatic_fire_checks_with_both(tmp_path, monkeypatch):
    """A.13.2: in heavy cover +2 and under automatic fire -2: the check that Bruno's burst
    makes due for Tariq, in heavy cover, is at 7 when the checks due are taken."""
    from audit_bi_early import new_game as early_game

    g = early_game(tmp_path, monkeypatch)
    early_goto(g, "fire-regular", 1)
    early_play(g, "fire bruno tariq range=20 heavy dice=1,1,9")
    facts = early_play(g, "next dice=7")
    assert [(r.rule, r.target) for r in early_rolls(facts, "A.13.2")] == [("A.13.2", 7)]


@pytest.mark.audits("BI-R113", "BI-R024", "BI-R028")
def test_an_isolated_man_tests_before_he_dresses_a_wound(game):
    """A.4: dressing is an action, and an isolated soldier rolls under his Quality before
    it: Capo killed, Bruno fails his test on a 5 and does not dress Carlo."""
    play(game, "hit carlo dice=9,3", "hit capo dice=10")
    waive_morale(game)
    goto(game, "fire-regular", 1)
    assert [r[0] for r in outcomes(play(game, "@blue dress bruno carlo dice=5"))] == ["BI-R024"]
    assert unit(game, "carlo").has("seriously-wounded")
