"""Audit of Bassa Intensità A.13, morale (triggers, the chance to pass, the effects of
a failed check), written from the rulebook and its digest alone. Morale is driven by the
`morale UNIT` command with exact dice: the 1d10 pass roll, then the 1d6 effect."""

from __future__ import annotations

import pytest
from audit_bi_late import goto, late_game, late_table, notes, outcomes, play, refused, unit, waive_morale
from audit_common import moved

game = late_table()


# ----------------------------------------------------------------- A.13.2 chance to pass


@pytest.mark.audits("BI-R181")
@pytest.mark.parametrize(
    ("who", "chance"),
    [("leo", 9), ("vasco", 8), ("omar", 7), ("hassan", 6), ("tecnica", 5)],
)
def test_the_pass_chance_is_quality_plus_three_at_its_edge(game, who, chance):
    """BI-R181: Quality + 3 (Elite 9, Veteran 8, Regular 7, Recruit 6, Rabble 5); roll
    1d10 ≤ it to pass: the chance itself passes, one more fails."""
    facts = play(game, f"morale {who} m4 dice={chance}")
    assert outcomes(facts) == [("A.13.2", chance, "passed")]
    facts = play(game, f"morale {who} m4 dice={chance + 1},1")
    assert outcomes(facts)[0] == ("A.13.2", chance, "failed: roll the effect")


@pytest.mark.audits("BI-R181")
@pytest.mark.parametrize(
    ("line", "chance"),
    [
        ("morale omar m4 light", 8),  # light cover +1
        ("morale omar m4 heavy", 9),  # heavy cover +2
        ("morale omar m4 trench", 9),  # a trench is heavy cover
        ("morale omar m4 isolated", 5),  # isolated −2
        ("morale omar m4 fire", 5),  # under HE or automatic fire −2
        ("morale omar m4 near=1", 6),  # a seriously wounded friend within 10 cm −1
        ("morale omar m4 near=3", 4),  # −1 each
        ("morale omar m4 heavy isolated fire near=2", 3),
    ],
)
def test_each_modifier_of_the_pass_chance(game, line, chance):
    """BI-R181: heavy cover +2, light cover +1, isolated −2, under HE or automatic fire
    −2, each seriously wounded friend within 10 cm −1."""
    facts = play(game, f"{line} dice={chance}")
    assert outcomes(facts) == [("A.13.2", chance, "passed")]
    facts = play(game, f"{line} dice={chance + 1},1")
    assert outcomes(facts)[0][1:] == (chance, "failed: roll the effect")


@pytest.mark.audits("BI-R181")
def test_the_wounded_check_at_minus_three_and_fanatics(game):
    """BI-R181: wounded −3 (a Regular: 7 − 3 = 4); "Fanatics" +1 or +2 (scenario)."""
    play(game, "hit bruno dice=6")  # wounded: his check is due
    facts = play(game, "morale bruno dice=5,1")
    assert outcomes(facts)[0][1:] == (4, "failed: roll the effect")
    # Jamal, a Regular fanatic +2: 9 passes, 10 fails
    assert outcomes(play(game, "morale jamal m4 dice=9")) == [("A.13.2", 9, "passed")]
    assert outcomes(play(game, "morale jamal m4 dice=10,1"))[0][1:] == (9, "failed: roll the effect")


@pytest.mark.audits("BI-AMB-42", "BI-R181")
def test_commander_killed_lasts_until_he_is_replaced(game):
    """BI-R181 "Commander killed −1"; BI-AMB-42: while the leader is dead and not replaced,
    stacking with "isolated −2": an Elite man checks at 9 − 2 − 1 = 6; once a new leader
    has taken over, 9 again."""
    play(game, "hit leo dice=10")
    facts = play(game, "morale sandro dice=6")
    assert outcomes(facts) == [("A.13.2", 6, "passed")]
    facts = play(game, "morale fabio dice=7,6")
    assert outcomes(facts)[0][1:] == (6, "failed: roll the effect")
    waive_morale(game)
    goto(game, "end")
    play(game, "next dice=6")  # Sandro (Elite) takes over on 6 or less
    assert unit(game, "sandro").has("leader")
    facts = play(game, "morale genio m4 dice=9")
    assert outcomes(facts) == [("A.13.2", 9, "passed")]


@pytest.mark.audits("BI-AMB-41")
def test_under_he_or_automatic_fire_is_the_weapon_of_the_hit(game):
    """BI-AMB-41: the −2 applies when the check is caused by HE or automatic fire. An
    assault rifle's burst or an RPG gives it; a single rifle shot does not, on a man as
    on a vehicle."""
    play(game, "hit bruno weapon=assault-rifle dice=1")
    assert outcomes(play(game, "morale bruno dice=5"))[0][1] == 5
    play(game, "hit carlo weapon=rifle dice=1")
    assert outcomes(play(game, "morale carlo dice=7"))[0][1] == 7
    play(game, "hit jeep weapon=rpg dice=1")
    assert outcomes(play(game, "morale jeep dice=5"))[0][1] == 5
    play(game, "hit tecnica weapon=rifle dice=1")  # Rabble: 2 + 3
    assert outcomes(play(game, "morale tecnica dice=5"))[0][1] == 5


# ------------------------------------------------------------------------ A.13.1 triggers


@pytest.mark.audits("BI-R180", "BI-AMB-40")
def test_each_man_checks_for_himself_and_one_event_is_one_check(game):
    """BI-R180: morale is checked individually for each soldier. A man of the squad killed
    (M5), who is also its commander (M6): every other man of the squad has one check due
    (BI-AMB-40), and each rolls his own; after his roll none is due for him."""
    play(game, "hit leo dice=10")
    due = {u.id for u in game.state.units.values() if u.in_play and u.has("morale-due")}
    assert due == {"sandro", "fabio", "piero", "genio"}
    play(game, "morale sandro dice=1")
    assert not unit(game, "sandro").has("morale-due") and unit(game, "fabio").has("morale-due")
    refused(game, "morale sandro dice=1", match="no check is due", rule="BI-R180")
    # two triggers before his roll: a near miss on Fabio whose check is due already
    play(game, "hit fabio dice=1", "morale fabio dice=1")
    assert not unit(game, "fabio").has("morale-due")


@pytest.mark.audits("BI-AMB-40")
def test_a_second_trigger_before_the_roll_adds_its_worse_modifier(game):
    """BI-AMB-40: several triggers before the roll make one check, with the most
    penalising modifiers: a rifle's near miss, then an assault rifle's burst: one check,
    under automatic fire (7 − 2 = 5)."""
    play(game, "hit bruno weapon=rifle dice=1", "hit bruno weapon=assault-rifle dice=1")
    assert outcomes(play(game, "morale bruno dice=5")) == [("A.13.2", 5, "passed")]
    assert not unit(game, "bruno").has("morale-due")


@pytest.mark.audits("BI-R180")
def test_a_vehicle_checks_once_for_its_whole_crew(game):
    """BI-R180: collectively for the whole crew: one roll for the vehicle, with the
    vehicle's Quality."""
    play(game, "hit ariete weapon=rpg dice=1,1")
    facts = play(game, "morale ariete dice=6")
    assert outcomes(facts) == [("A.13.2", 5 + 3 - 2, "passed")]  # Veteran, under HE fire
    assert not unit(game, "ariete").has("morale-due")


# ---------------------------------------------------------------------- A.13.3 effects


@pytest.mark.audits("BI-R182")
@pytest.mark.parametrize(("face", "result"), [(1, "shocked"), (3, "shocked"), (4, "panic"), (5, "panic")])
def test_the_effects_die_shocked_and_panic(game, face, result):
    """BI-R182: 1-3 Shocked (drops to the ground, no move towards the enemy, no combat, no
    action next turn); 4-5 Panic: flees at maximum speed (running, 24 cm) and then counts
    as Shocked."""
    facts = play(game, f"morale omar m4 dice=8,{face}")
    assert outcomes(facts)[1] == ("A.13.3", None, result)
    assert moved(facts) == ([24] if result == "panic" else [])
    assert unit(game, "omar").has("shocked")


@pytest.mark.audits("BI-R182", "BI-AMB-45")
def test_surrender_to_an_enemy_within_12_cm_or_panic_without_heavy_weapons(game):
    """BI-R182, 6: an infantryman surrenders to visible enemies within 12 cm; with none
    he panics instead, abandoning any heavy weapons; a vehicle's crew abandons it."""
    facts = play(game, "morale omar m4 enemy dice=8,6")
    assert outcomes(facts)[1][2] == "surrender" and not unit(game, "omar").in_play
    facts = play(game, "morale zaid m4 dice=8,6")  # no enemy near: panic, the AA MG left behind
    assert moved(facts) == [24]
    zaid = unit(game, "zaid")
    assert zaid.in_play and zaid.has("shocked") and zaid.has("weapon-lost-aa-mg")
    facts = play(game, "morale jeep m4 dice=8,6")
    assert not unit(game, "jeep").in_play


@pytest.mark.audits("BI-AMB-45")
def test_panic_flight_is_at_once_and_at_full_speed(game):
    """BI-AMB-45: at once, the figure's maximum allowance: running 24 cm, halved for a
    wounded man (12); a vehicle its full speed (a tank 60, halved 30)."""
    play(game, "hit bruno dice=6")
    facts = play(game, "morale bruno dice=5,4")
    assert moved(facts) == [12]
    play(game, "hit leopard weapon=rpg dice=1,3")
    facts = play(game, "morale leopard dice=8,6")  # damaged: no −2 for undamaged armour; 6 → abandoned
    assert not unit(game, "leopard").in_play
    play(game, "hit ariete weapon=rpg dice=1,4")
    facts = play(game, "morale ariete dice=9,5")
    assert moved(facts) == [30]


@pytest.mark.audits("BI-R183", "BI-AMB-43")
@pytest.mark.parametrize(
    ("who", "face", "result"),
    [
        ("leo", 4, "shocked"),  # Elite −1: 3
        ("leo", 5, "panic"),  # 4
        ("leo", 6, "panic"),  # 5, not a surrender
        ("ariete", 5, "shocked"),  # the crew of an undamaged armoured vehicle −2: 3
        ("ariete", 6, "panic"),  # 4
        ("abrams", 6, "shocked"),  # an Elite crew of an undamaged tank −3: 3
        ("abrams", 1, "shocked"),  # ≤ 0 counts as Shocked
        ("jeep", 6, "surrender"),  # an unarmoured vehicle: no modifier
    ],
)
def test_the_effect_modifiers_stack(game, who, face, result):
    """BI-R183: crews of undamaged armoured vehicles −2, Elite −1; BI-AMB-43: both stack,
    and a result of 0 or less counts as Shocked."""
    facts = play(game, f"morale {who} m4 dice=10,{face}")
    assert outcomes(facts)[1][2] == result


@pytest.mark.audits("BI-R183")
def test_a_damaged_armoured_vehicle_loses_the_minus_two(game):
    """BI-R183: only an undamaged armoured vehicle's crew has −2: hit (movement halved),
    the Veteran tank's crew rolls its 6 unmodified and abandons the vehicle."""
    play(game, "hit ariete weapon=rpg dice=1,3")
    facts = play(game, "morale ariete dice=9,6")
    assert outcomes(facts)[1] == ("A.13.3", None, "surrender")
    assert not unit(game, "ariete").in_play


@pytest.mark.audits("BI-R184", "BI-AMB-44")
def test_shocked_again_is_panic_on_the_effects_die_only(game):
    """BI-R184: a unit already Shocked that suffers another Shocked result counts as Panic;
    BI-AMB-44: that is a morale-effect result; a damage-table Shocked on a shocked man
    leaves him shocked, and its morale check decides."""
    play(game, "hit carlo dice=2")  # shocked by the damage table; his check is due
    facts = play(game, "morale carlo dice=8,2")  # failed, effect 2: Shocked again: Panic
    # he flees from the ground where his shock threw him: 24 cm less standing up's -25%
    assert outcomes(facts)[1][2] == "panic" and moved(facts) == [18]
    play(game, "hit bruno dice=2", "morale bruno dice=1")
    facts = play(game, "hit bruno dice=3")  # Shocked again by damage: no flight
    assert moved(facts) == [] and unit(game, "bruno").has("shocked")
    facts = play(game, "morale bruno dice=1")
    assert outcomes(facts) == [("A.13.2", 7, "passed")]


@pytest.mark.audits("BI-AMB-20", "BI-R182")
def test_shocked_from_the_result_to_the_end_of_next_turn(game):
    """BI-AMB-20: the Shocked restrictions apply from the result to the end of the next
    turn: shocked in turn 1 before he fires, he fires neither in turn 1 nor in turn 2, and
    fires in turn 3; meanwhile he may move, but not towards the enemy."""
    goto(game, "fire-regular")
    play(game, "morale carlo m4 dice=8,1")
    refused(game, "@blue fire carlo omar range=40 dice=9", match="shocked", rule="BI-R182")
    goto(game, "move-first", 2)
    refused(game, "@blue move carlo 4", match="shocked", rule="BI-R182")
    play(game, "@blue move carlo 4 away")
    goto(game, "fire-regular", 2)
    refused(game, "@blue fire carlo omar range=40 dice=9", match="shocked", rule="BI-R182")
    goto(game, "fire-regular", 3)
    facts = play(game, "@blue fire carlo omar range=40 dice=9")
    assert outcomes(facts, "A.9.4")[0][2] == "miss"
    assert not [n for n in notes(facts) if "shocked" in n]


@pytest.mark.audits("BI-R180")
@pytest.mark.parametrize(
    ("call", "m3"),
    [
        ("mortar mm=81", False),  # a mortar of 100 mm or less: no check
        ("mortar mm=100", False),
        ("mortar mm=101", True),  # "mortai >100mm"
        ("dedicated mm=81", True),  # field artillery, whatever its calibre
        ("general mm=75", True),
    ],
)
def test_m3_an_artillery_attack_or_a_mortar_over_100_mm(tmp_path, monkeypatch, call, m3):
    """A.13.1 M3: a unit within 20 cm of an air attack, a field-artillery attack or an
    attack of mortars over 100 mm checks morale: the fire for effect says so for those,
    and not for a mortar of 100 mm or less."""
    game = late_game(tmp_path, monkeypatch, turns=0)
    goto(game, "fire-veteran")
    dice = "" if call.startswith("mortar") else " dice=1"  # a mortar on the table: Easy, 2 × 5, certain
    play(game, f"@blue call fo {call}{dice}")
    goto(game, "fire-veteran", 2)
    play(game, "@blue ranging fo dice=1,1")
    goto(game, "fire-veteran", 3)
    said = any("(M3)" in n for n in notes(play(game, "@blue ffe fo")))
    assert said is m3
