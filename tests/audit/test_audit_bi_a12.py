"""Audit of Bassa Intensità A.12, damage (infantry, unarmoured vehicles, armour
penetration, armoured vehicles), written from the rulebook and its digest alone: each
band of each table on both sides of its edges, each die modifier moving a face across one.
A hit is given with the referee's `hit` (the dice of the damage table only)."""

from __future__ import annotations

import pytest
from audit_bi_late import goto, late_table, outcomes, play, refused, unit, waive_morale

from core.refusal import TYPING

game = late_table()


# ------------------------------------------------------------------ A.12.1 infantry


@pytest.mark.audits("BI-R110")
@pytest.mark.parametrize(
    ("face", "result", "status"),
    [
        (1, "near miss", set()),
        (2, "shocked", {"shocked", "prone"}),
        (5, "shocked", {"shocked", "prone"}),
        (6, "wounded", {"wounded"}),
        (8, "wounded", {"wounded"}),
        (9, "seriously wounded", {"seriously-wounded"}),
        (10, "dead", set()),
    ],
)
def test_the_infantry_damage_table_at_every_edge(game, face, result, status):
    """BI-R110: 1 or less near miss; 2-5 shocked (prone); 6-8 wounded; 9 seriously
    wounded; 10 dead. Near miss, shocked and wounded check morale; the seriously wounded
    row and death do not ask for one."""
    dice = f"{face},3" if face == 9 else str(face)  # the seriously wounded roll his death clock
    facts = play(game, f"hit bruno dice={dice}")
    assert outcomes(facts, "A.12.1") == [("A.12.1", None, result)]
    bruno = unit(game, "bruno")
    assert bruno.in_play == (face != 10)
    assert status <= set(bruno.status)
    assert bruno.has("morale-due") == (face <= 8)


@pytest.mark.audits("BI-R111")
@pytest.mark.parametrize(
    ("man", "how", "face", "result"),
    [
        ("fabio", "", 2, "near miss"),  # frag vest −1: 2 → 1
        ("fabio", "", 3, "shocked"),  # 3 → 2
        ("fabio", "", 6, "shocked"),  # 6 → 5
        ("fabio", "", 7, "wounded"),  # 7 → 6
        ("piero", "", 3, "near miss"),  # bullet-proof vest −2: 3 → 1
        ("piero", "", 4, "shocked"),  # 4 → 2
        ("piero", "", 7, "shocked"),  # 7 → 5
        ("piero", "", 9, "wounded"),  # 9 → 7
        ("piero", "", 10, "dead"),  # a natural 10 is never modified
        ("fabio", "", 10, "dead"),
        ("bruno", "sniper", 5, "wounded"),  # a sniper's hit +1: 5 → 6
        ("bruno", "sniper", 4, "shocked"),  # 4 → 5
        ("bruno", "sniper", 9, "dead"),  # 9 → 10
        ("fabio", "sniper", 6, "wounded"),  # vest and sniper cancel: 6 − 1 + 1
        ("fabio", "sniper", 5, "shocked"),
    ],
)
def test_vests_and_a_sniper_move_the_damage_die(game, man, how, face, result):
    """BI-R111: −1 fragmentation vest, −2 bullet-proof vest, +1 if the shooter is a sniper;
    a natural 10 is never modified (always dead)."""
    dice = f"{face},3" if result == "seriously wounded" else str(face)
    facts = play(game, f"hit {man} {how} dice={dice}".replace("  ", " "))
    (row,) = outcomes(facts, "A.12.1")
    assert row[2].startswith(result)


@pytest.mark.audits("BI-R111")
def test_a_snipers_hit_adds_one_to_the_damage_die(game):
    """BI-R111: +1 if the shooter is a Sniper: Vasco's hit with a natural 8 is a 9,
    seriously wounded; Bruno's assault rifle's 8 stays wounded."""
    goto(game, "fire-veteran")
    facts = play(game, "@blue fire vasco omar range=40 dice=1,8,3")
    assert outcomes(facts, "A.12.1") == [("A.12.1", None, "seriously wounded")]
    waive_morale(game)
    goto(game, "fire-regular")
    facts = play(game, "@blue fire bruno ali range=20 dice=1,8,9")
    assert outcomes(facts, "A.12.1") == [("A.12.1", None, "wounded")]


@pytest.mark.audits("BI-R110")
def test_a_wounded_man_moves_half_fires_at_half_and_acts_one_level_worse(game):
    """BI-R110, Wounded: "movement halved; ½ chance to hit if he fires; actions worsened by
    one difficulty level". A Regular walking normally (16 cm) may go 8, not 9; his chance
    to hit at normal range, 4, is 2; an Easy action (8) becomes Normal (4)."""
    play(game, "hit bruno dice=6", "hit leo dice=7", "hit carlo dice=8")
    waive_morale(game)
    goto(game, "move-first")
    refused(game, "@blue move bruno 9", match="1 to 8 cm", rule="BI-R040")
    play(game, "@blue move bruno 8")
    assert unit(game, "bruno").has("moved")
    goto(game, "fire-elite")
    # Leo, Elite, wounded: Easy is 2 × 6 = 12, worsened to Normal, 6: a 7 fails, not a success
    facts = play(game, "@blue act leo easy dice=7")
    assert outcomes(facts)[-1][1] == 6
    goto(game, "fire-regular")
    # Carlo's rifle at normal range (40 cm): 4, halved 2; a 3 misses
    facts = play(game, "@blue fire carlo omar range=40 dice=3")
    assert outcomes(facts, "A.9.4") == [("A.9.4", 2, "miss")]


@pytest.mark.audits("BI-R110", "BI-R113")
def test_the_seriously_wounded_die_when_the_clock_runs_out_unless_dressed(game):
    """BI-R110: a seriously wounded man can no longer move, fight or act, and dies if not
    dressed within 1d6 turns; BI-R113: the clock counts the turn of the wound as turn 0,
    so hit in turn 1 with a 2 he lives through turn 2 and dies at the end of turn 3."""
    play(game, "hit bruno dice=9,2", "hit carlo dice=9,1")
    goto(game, "move-first")
    refused(game, "@blue move bruno 1", match="seriously wounded", rule="BI-R110")
    goto(game, "end")
    play(game, "next")
    assert unit(game, "bruno").in_play and unit(game, "carlo").in_play
    goto(game, "end", 2)
    play(game, "next")
    assert unit(game, "bruno").in_play and not unit(game, "carlo").in_play  # carlo's 1 turn is over
    waive_morale(game)
    goto(game, "end", 3)
    play(game, "next")
    assert not unit(game, "bruno").in_play


@pytest.mark.audits("BI-R113", "BI-AMB-36")
def test_dressing_is_a_normal_action_of_a_friend_and_then_he_counts_as_wounded(game):
    """BI-R113, BI-AMB-36: dressing is a Normal action (chance = Quality) by a friendly
    figure in contact; dressed, the man counts as Wounded and his death clock stops."""
    play(game, "hit bruno dice=9,1")  # he would die at the end of turn 2
    goto(game, "fire-regular")
    # Capo, Regular: Normal = 4; a 5 fails
    facts = play(game, "@blue dress capo bruno dice=5")
    assert outcomes(facts)[-1][1:] == (4, "not yet") and unit(game, "bruno").has("seriously-wounded")
    refused(game, "dress omar bruno dice=1", "no unit 'bruno'", rule=TYPING)  # an enemy does not dress him
    facts = play(game, "@blue dress carlo bruno dice=4")  # a 4 succeeds
    bruno = unit(game, "bruno")
    assert bruno.has("wounded") and not bruno.has("seriously-wounded")
    goto(game, "end", 2)
    play(game, "next")
    goto(game, "end", 3)
    play(game, "next")
    assert unit(game, "bruno").in_play


@pytest.mark.audits("BI-R113", "BI-R110")
def test_a_wounded_man_dresses_a_wound_as_a_difficult_action(game):
    """BI-R113: dressing is a Normal action; BI-R110: a wounded man's actions are one
    level harder: Difficult, ½ × 4 = 2 for a Regular."""
    play(game, "hit bruno dice=9,3", "hit carlo dice=6")
    waive_morale(game)
    goto(game, "fire-regular")
    assert outcomes(play(game, "@blue dress carlo bruno dice=3"))[-1][1:] == (2, "not yet")
    goto(game, "fire-regular", 2)
    assert outcomes(play(game, "@blue dress carlo bruno dice=2"))[-1][1:] == (2, "dressed: he counts as wounded")


@pytest.mark.audits("BI-R112", "BI-AMB-35")
@pytest.mark.parametrize(
    ("first", "second", "dies"),
    [
        ("6", "6", True),  # wounded, wounded again: dead
        ("6", "9", True),  # wounded, then seriously wounded: dead
        ("6", "5", False),  # wounded, then shocked: he lives
        ("6", "1", False),  # wounded, then a near miss: he lives
        ("9,3", "2", True),  # seriously wounded, then shocked (≥ 2): dead
        ("9,3", "1", False),  # seriously wounded, then a near miss: never worse
    ],
)
def test_a_second_wound_kills(game, first, second, dies):
    """BI-R112 / BI-AMB-35: Wounded + Wounded or Seriously → dead; Seriously wounded + any
    result of 2 or more → dead; a near miss never worsens a state."""
    play(game, f"hit bruno dice={first}", f"hit bruno dice={second}")
    assert unit(game, "bruno").in_play is not dies


# -------------------------------------------------------------- A.12.2 unarmoured


@pytest.mark.audits("BI-R120", "BI-R121", "BI-AMB-37")
@pytest.mark.parametrize(
    ("weapon", "face", "result"),
    [
        ("", 1, "near miss"),
        ("", 2, "movement halved"),
        ("", 4, "movement halved"),
        ("", 5, "immobilised"),
        ("", 7, "immobilised"),
        ("", 8, "destroyed"),
        ("assault-rifle", 7, "immobilised"),  # other small arms +0
        ("mg", 1, "near miss"),  # a natural 1 is never modified
        ("mg", 3, "movement halved"),  # +1: 4
        ("mg", 4, "immobilised"),  # +1: 5
        ("mg", 7, "destroyed"),  # +1: 8
        ("rpg", 2, "movement halved"),  # +2: 4
        ("rpg", 3, "immobilised"),  # +2: 5
        ("rpg", 6, "destroyed"),  # +2: 8
        ("hand-grenade", 5, "immobilised"),  # +2: 7
        ("hand-grenade", 6, "destroyed"),
        ("atgm", 5, "immobilised"),  # ATGM as a rocket, +2: 7
        ("atgm", 6, "destroyed"),
        ("gun-heavy", 1, "near miss"),
        ("gun-heavy", 3, "immobilised"),  # +4: 7
        ("gun-heavy", 4, "destroyed"),  # +4: 8
        ("autocannon", 4, "destroyed"),
    ],
)
def test_the_unarmoured_damage_table_and_its_modifiers(game, weapon, face, result):
    """BI-R120: 1 near miss; 2-4 movement halved; 5-7 immobilised; 8+ destroyed. BI-R121:
    +1 machine gun, +2 grenade launcher/rocket/hand or rifle grenade, +4 gun, mortar or
    autocannon; a natural 1 is never modified; BI-AMB-37: an ATGM +2, other arms +0."""
    how = f" weapon={weapon}" if weapon else ""
    facts = play(game, f"hit jeep{how} dice={face}")
    (row,) = outcomes(facts, "A.12.2")
    assert row[2].startswith(result)
    jeep = unit(game, "jeep")
    assert jeep.in_play == (result != "destroyed")
    assert jeep.has("slowed") == (result == "movement halved")
    assert jeep.has("immobilised") == (result == "immobilised")


@pytest.mark.audits("BI-R120")
def test_unarmoured_results_and_their_morale_checks(game):
    """BI-R120: a near miss checks morale; movement halved does not; immobilised checks
    morale with −2. A halved 4×4 truck (80 cm on a road) goes 40, not 41."""
    play(game, "hit jeep weapon=rpg dice=1")
    assert unit(game, "jeep").has("morale-due")
    play(game, "morale jeep dice=1", "hit tecnica weapon=rpg dice=2")
    assert unit(game, "tecnica").has("slowed") and not unit(game, "tecnica").has("morale-due")
    play(game, "hit jeep weapon=rpg dice=3")
    facts = play(game, "morale jeep dice=1")
    (check,) = outcomes(facts, "A.13.2")
    assert check[1] == 4 + 3 - 2 - 2  # Regular crew, under HE fire −2, immobilised −2
    play(game, "hit camion weapon=rpg dice=2")
    goto(game, "move-first")
    refused(game, "@blue move camion 41 road", match="1 to 40 cm", rule="BI-R045")
    play(game, "@blue move camion 40 road")


# --------------------------------------------------------------- A.12.3 penetration


@pytest.mark.audits("BI-R130", "BI-R131", "BI-R132")
@pytest.mark.parametrize(
    ("target", "weapon", "flank", "chance"),
    [
        ("ariete", "rpg", "", 6),  # AT rocket vs tank
        ("bmp", "rpg", "", 8),  # vs other armour
        ("ariete", "rpg", " flank", 8),  # flank or rear +2
        ("t72", "rpg", "", 5),  # advanced armour −1
        ("abrams", "rpg", "", 4),  # high-tech armour −2
        ("abrams", "rpg", " flank", 6),
        ("ariete", "atgm", "", 8),
        ("bmp", "atgm", "", 10),
        ("ariete", "autocannon", "", 3),  # 20/35 mm autocannon
        ("bmp", "autocannon", "", 7),
        ("ariete", "gun-heavy", "", 8),  # a tank gun over 100 mm
        ("bmp", "gun-heavy", "", 10),
    ],
)
def test_penetration_chances_at_their_edge(game, target, weapon, flank, chance):
    """BI-R130: roll 1d10 ≤ the chance of the weapon against a tank or another armoured
    vehicle; BI-R131: +2 flank or rear, −1 advanced, −2 high-tech armour. BI-R132: not
    penetrated, the vehicle only checks morale; penetrated, it rolls on A.12.4."""
    over = play(game, f"hit {target} weapon={weapon}{flank} dice={chance + 1}") if chance < 10 else []
    if over:
        assert outcomes(over, "A.12.3") == [("A.12.3", chance, "not penetrated: check morale")]
        assert not outcomes(over, "A.12.4") and unit(game, target).has("morale-due")
        play(game, f"clear {target} morale-due")
    facts = play(game, f"hit {target} weapon={weapon}{flank} dice={chance},1")
    assert outcomes(facts) == [("A.12.3", chance, "penetrated"), ("A.12.4", None, "near miss")]


@pytest.mark.audits("BI-R130")
def test_a_tank_gun_over_116_mm_penetrates_on_10_against_a_tank(game):
    """BI-R130: a tank gun over 116 mm (the Leopard's 120 mm) penetrates a tank on 10,
    less 1 for advanced armour (BI-R131): 9; other armoured vehicles on 12: always."""
    goto(game, "fire-regular")
    facts = play(game, "@blue fire leopard t72 range=150 weapon=gun-heavy dice=1,10")
    assert outcomes(facts, "A.12.3") == [("A.12.3", 9, "not penetrated: check morale")]
    play(game, "morale t72 dice=1")
    goto(game, "fire-regular", 2)
    facts = play(game, "@blue fire leopard m113 range=150 weapon=gun-heavy dice=1,10,1")
    assert outcomes(facts, "A.12.3") == [("A.12.3", 12, "penetrated")]


@pytest.mark.audits("BI-AMB-27")
def test_small_arms_cannot_penetrate_armour(game):
    """BI-AMB-27: weapons absent from the penetration table (rifles, MGs, 40 mm grenades)
    cannot penetrate: no effect, no roll."""
    for weapon in ("assault-rifle", "mg", "gl"):
        facts = play(game, f"hit m113 weapon={weapon}")
        assert outcomes(facts) == []
    assert unit(game, "m113").in_play and not unit(game, "m113").status


# -------------------------------------------------------------- A.12.4 armoured damage


@pytest.mark.audits("BI-R140")
@pytest.mark.parametrize(
    ("face", "result", "status", "morale"),
    [
        (1, "near miss", set(), True),
        (2, "radio destroyed", {"radio-out"}, True),
        (3, "movement halved", {"slowed", "damaged"}, True),
        (4, "movement halved", {"slowed", "damaged"}, True),
        (5, "immobilised", {"immobilised", "damaged"}, True),
        (6, "turret jammed", {"turret-jammed", "damaged"}, True),
        (9, "destroyed", set(), False),
        (10, "destroyed", set(), False),
    ],
)
def test_the_armoured_damage_table(game, face, result, status, morale):
    """BI-R140: 1 near miss; 2 radio (always isolated, not a "damaged vehicle"); 3-4
    halved; 5 immobilised (−2); 6 turret jammed; 7-8 a weapon; 9-10 destroyed."""
    facts = play(game, f"hit ariete weapon=rpg dice=1,{face}")
    assert outcomes(facts, "A.12.4")[0][2].startswith(result)
    ariete = unit(game, "ariete")
    assert ariete.in_play == (face < 9)
    assert status <= set(ariete.status)
    assert ariete.has("morale-due") == morale
    if face == 2:
        assert not ariete.has("damaged")
        (check,) = outcomes(play(game, "morale ariete dice=1"), "A.13.2")
        assert check[1] == 5 + 3 - 2 - 2  # Veteran crew; isolated −2; under HE fire −2


@pytest.mark.audits("BI-R140")
def test_a_weapon_destroyed_and_the_main_armament(game):
    """BI-R140, 7-8: one on-board weapon destroyed at random; morale with −2 if it is the
    main armament (the first listed); it no longer fires."""
    facts = play(game, "hit leopard weapon=rpg dice=1,7,1")
    assert unit(game, "leopard").has("weapon-lost-gun-heavy")
    (check,) = outcomes(play(game, "morale leopard dice=1"), "A.13.2")
    assert check[1] == 4 + 3 - 2 - 2  # Regular; under HE fire −2; main armament −2
    facts = play(game, "hit ariete weapon=rpg dice=1,8,2")
    assert unit(game, "ariete").has("weapon-lost-mg") and outcomes(facts)[-1][2] == "mg"
    (check,) = outcomes(play(game, "morale ariete dice=1"), "A.13.2")
    assert check[1] == 5 + 3 - 2  # Veteran; under HE fire −2; the MG is not the main gun
    goto(game, "fire-regular")
    refused(
        game,
        "@blue fire leopard omar range=20 weapon=gun-heavy dice=1",
        match="lost|destroyed|no longer",
        rule="BI-R140",
    )


@pytest.mark.audits("BI-R141")
@pytest.mark.parametrize(("face", "result"), [(5, "near miss"), (6, "radio destroyed"), (9, "immobilised")])
def test_indirect_mortar_and_artillery_take_four_off_the_armoured_damage(game, face, result):
    """BI-R141: −4 if hit by mortars/artillery firing indirectly: 5 → 1, 6 → 2, 9 → 5."""
    facts = play(game, f"hit ariete weapon=gun-heavy indirect dice=1,{face}")
    assert outcomes(facts, "A.12.4")[0][2].startswith(result)


@pytest.mark.audits("BI-AMB-38")
def test_a_turret_jammed_on_a_vehicle_without_a_turret_is_a_weapon_lost(game):
    """BI-R140 / BI-AMB-38: "if the vehicle has no turret, treat as Weapons damage"; the
    tracked carrier's only weapon is its main armament: morale at −2."""
    play(game, "hit m113 weapon=rpg dice=1,6")
    m113 = unit(game, "m113")
    assert m113.has("weapon-lost-mg") and not m113.has("turret-jammed")
    (check,) = outcomes(play(game, "morale m113 dice=1"), "A.13.2")
    assert check[1] == 4 + 3 - 2 - 2
    play(game, "hit t72 weapon=rpg dice=1,6")
    assert unit(game, "t72").has("turret-jammed") and not any(
        s.startswith("weapon-lost") for s in unit(game, "t72").status
    )


@pytest.mark.audits("BI-AMB-39")
def test_a_second_mobility_hit_halves_again_and_none_after_immobilised(game):
    """BI-AMB-39: a second "movement halved" halves again (60 → 30 → 15 for a tank);
    further mobility results on an immobilised vehicle have no effect."""
    play(game, "hit leopard weapon=rpg dice=1,3", "morale leopard dice=1")
    play(game, "hit leopard weapon=rpg dice=1,4", "morale leopard dice=1")
    goto(game, "move-first")
    refused(game, "@blue move leopard 16", match="1 to 15 cm", rule="BI-R045")
    play(game, "@blue move leopard 15")
    play(game, "hit ariete weapon=rpg dice=1,5", "morale ariete dice=1")
    play(game, "hit ariete weapon=rpg dice=1,3", "morale ariete dice=1")
    ariete = unit(game, "ariete")
    assert ariete.has("immobilised") and not ariete.has("slowed")
    refused(game, "@blue move ariete 1", match="immobilised", rule="BI-AMB-39")
