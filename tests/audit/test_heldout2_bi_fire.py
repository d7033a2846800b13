"""A third look at Bassa Intensità (issue #46), a second held-out audit: command and
isolation, the golden rule, movement, opportunity and covering fire, actions, direct fire,
the weapon notes and direct HE (A.4-A.10), each case written from the book ("UNITA' e
DISTANZE DI COMANDO", "SEQUENZA DI GIOCO", "MOVIMENTO", "TIRI DI OPPORTUNITA'", "TIRI DI
COPERTURA", "AZIONI", "TIRO DIRETTO" with its notes (1)-(8)) and its digest alone.  The
earlier audits check each rule clause by clause and many pairs of them; these cases cross
what a man does with what he is (wounded, shocked, isolated, aboard, alone at his weapon,
in gas, at night) and put three modifiers on one shot."""

from __future__ import annotations

import pytest
from audit_bi_early import (
    KILL,
    chances,
    goto,
    has_moved,
    isolation,
    man,
    new_game,
    outcomes,
    play,
    refused,
    rolls,
    table,
    vehicle,
)

HIT = "hit: roll damage (A.12)"

#: The pieces these cases need beside the audit's table: an armed tracked carrier of
#: Bruno's squad, men alone at an emplaced MG and AGL, a bolt-action rifleman, a hand
#: grenadier, a man with rubber bullets, and Red men in vests.
EXTRA = (
    vehicle("apc", "blue", "regular", "mg", roles=("tracked-apc",), team="A"),
    man("mg1", "blue", "regular", "mg", roles=("emplaced",)),
    man("agl1", "blue", "regular", "agl", roles=("emplaced",)),
    man("bolt", "blue", "regular", "bolt-rifle"),
    man("gren", "blue", "regular", "hand-grenade"),
    man("kev", "red", "regular", "assault-rifle", roles=("bullet-vest",)),
    vehicle("ratel", "blue", "regular", "mg", roles=("armoured-car", "stabilised")),
)


game = table(extra=EXTRA)


# ------------------------------------------------------- A.4 command and isolation


@pytest.mark.audits("BI-R140", "BI-R027", "BI-R024")
def test_an_armoured_carrier_whose_radio_is_destroyed_tests_before_it_moves(game):
    """A.12.4: "Radio distrutta ... Il veicolo si considera sempre isolato"; A.4: an armed
    transport follows the rules of the unarmed, which keep the command radius, so an isolated
    one rolls 1d10 under its Quality (4) before it moves: a 5 fails and it stays.  A tank,
    a combat vehicle, is free of the command radius for moving: its radio lost, it moves
    with no test (it is isolated for its morale only)."""
    play(game, "mark apc radio-out", "mark ariete radio-out")
    goto(game, "move-first", 1)
    facts = play(game, "@blue move apc 20 dice=5")
    assert isolation(facts) == [4] and not has_moved(facts)
    facts = play(game, "@blue move ariete 20")
    assert isolation(facts) == [] and has_moved(facts)


@pytest.mark.audits("BI-R026", "BI-R028", "BI-R024")
def test_a_truck_of_a_squad_whose_leader_is_killed_tests_before_it_moves(game):
    """A.4: an unarmed truck keeps the command radius of its squad; the squad leader killed,
    the whole squad is isolated until he is replaced: the truck rolls under 4 first."""
    play(game, "out sarge")
    goto(game, "move-first", 1)
    facts = play(game, "@blue move camion 30 dice=5")
    assert isolation(facts) == [4] and not has_moved(facts)


@pytest.mark.audits("BI-R028", "BI-R021", "BI-R024")
def test_a_section_whose_section_leader_is_killed_is_isolated_though_the_squad_leader_lives(game):
    """A.4: "Nel caso un caposquadra o caposezione venga ucciso tutta la sua squadra/sezione si
    considererà isolata": the section leader of Vito's squad killed, his section's men test
    before they move (Veteran, 5), though Vito still leads the squad."""
    play(game, "out cpl")
    goto(game, "move-first", 1)
    assert isolation(play(game, "@blue move valerio 5 dice=5")) == [5]
    assert isolation(play(game, "@blue move vito 5")) == []


@pytest.mark.audits("BI-R024", "BI-R166", "BI-AMB-07")
def test_a_man_who_failed_his_isolation_test_still_observes(game):
    """A.4: failing his test he neither moves, fires nor acts this turn; A.14.1: observing
    is no action, so at the end of the movement he still looks: Tariq still in the open is
    a Normal observation, 4."""
    play(game, "mark tariq hidden")
    goto(game, "move-first", 1)
    assert not has_moved(play(game, "@blue move bruno 5 lead=9 dice=5"))
    goto(game, "observe", 1)
    facts = play(game, "observe bruno tariq dice=4")
    assert [r.target for r in rolls(facts)] == [4] and outcomes(facts) == ["spotted"]


@pytest.mark.audits("BI-R024", "BI-R028", "BI-AMB-48")
def test_a_man_of_a_leaderless_squad_tests_before_he_throws_smoke(game):
    """A.4: isolated, he rolls before he fires or acts; a smoke grenade is thrown as his fire
    (ruling BI-SMOKE-TIME): failing the test, no smoke is laid."""
    play(game, "out sarge")
    goto(game, "fire-regular", 1)
    facts = play(game, "smoke bruno dice=5")
    assert isolation(facts) == [4]
    assert not any(k.startswith("smoke.") and v for k, v in game.state.vars.items())


@pytest.mark.audits("BI-R024", "BI-R068", "BI-R110")
def test_an_isolated_wounded_man_tests_at_his_quality_then_emplaces_as_an_easy_action(game):
    """A.4 then A.8.1: isolated, he rolls under his Quality (4, a wound does not touch it);
    emplacing is Very Easy, one level harder for a wounded man: Easy, 2 x 4 = 8; a 9 fails."""
    play(game, "mark dario wounded")
    goto(game, "fire-regular", 1)
    facts = play(game, "emplace dario isolated dice=4,9")
    assert [r.target for r in rolls(facts)] == [4, 8]
    assert not game.state.units["dario"].has("emplaced")


# ------------------------------------------------------- A.5, A.6 moving and mounting


@pytest.mark.audits("BI-R110", "BI-R182", "BI-R042")
def test_a_shocked_man_may_still_get_into_and_out_of_a_truck(game):
    """A.12.1 and A.13.3: Shocked, "nessun movimento verso il nemico/ combattimento/ azione":
    getting into or out of a truck is movement (A.6.1, -50%), none of it towards the enemy."""
    play(game, "mark bruno shocked")
    goto(game, "move-first", 1)
    play(game, "@blue mount bruno camion")
    assert game.state.units["bruno"].has("aboard-camion")
    play(game, "mark carlo shocked")
    goto(game, "move-first", 2)
    play(game, "@blue dismount bruno")
    assert not game.state.units["bruno"].has("aboard-camion")


@pytest.mark.audits("BI-R042", "BI-R030")
def test_a_man_aboard_a_truck_gets_out_before_he_gets_into_another_vehicle(game):
    """A.6.1: getting into a vehicle and getting out of one are each a movement of their own
    ("Salire/scendere da autocarro", "Entrare/uscire da un blindato"): a man aboard the truck
    cannot get into the carrier without first getting out, and he moves once a turn."""
    goto(game, "move-first", 1)
    play(game, "@blue mount bruno camion")
    goto(game, "move-first", 2)
    refused(game, "@blue mount bruno apc", rule="BI-R026")
    assert not game.state.units["bruno"].has("aboard-apc")


@pytest.mark.audits("BI-R045a", "BI-R045", "BI-R002")
@pytest.mark.parametrize(
    ("line", "fits"),
    [
        ("move camion 70 onroad=40", True),  # 40/80 of the road's, then 30 of the 60 off it
        ("move camion 71 onroad=40", False),
        ("move camion 73 onroad=50", True),  # 30/80 of 60 left: 22.5, rounded up to 23
        ("move camion 74 onroad=50", False),
        ("move jeep 70 onroad=60", True),  # a civilian car: half of 120, then half of 20
        ("move jeep 71 onroad=60", False),
    ],
)
def test_a_move_partly_on_the_road_spends_both_allowances_in_proportion(game, line, fits):
    """BI-R045a, the digest's note under A.6.2's table: "A move partly on and partly off road: spend proportionally
    (fraction of road allowance + fraction of off-road allowance <= 1)"; every rounding up
    (A.2): a 4x4 truck 80 on the road, 60 off it; a civilian car 120 and 20."""
    goto(game, "move-first", 1)
    if fits:
        assert has_moved(play(game, f"@blue {line}"))
    else:
        refused(game, f"@blue {line}", rule="BI-R045a")


@pytest.mark.audits("BI-R045a", "BI-R240", "BI-R045")
@pytest.mark.parametrize(("off_road", "steady"), [(14, True), (15, False)])
def test_a_stabilised_vehicle_moving_partly_on_the_road_fires_under_half_of_both(game, off_road, steady):
    """A.16.5: it fires after a move of less than half its speed; on and off the road (BI-R045a) that is
    less than half of both allowances together: 20 of 80 on the road is a quarter, 14 of 60
    off it less than another, 15 of 60 exactly a quarter: half, not less."""
    goto(game, "move-first", 1)
    play(game, f"@blue move ratel {20 + off_road} onroad=20")
    goto(game, "fire-regular", 1)
    if steady:
        assert chances(play(game, "fire ratel tariq range=50 dice=9,9,9")) == [3, 3, 3]
    else:
        refused(game, "fire ratel tariq range=50", rule="BI-R030")


@pytest.mark.audits("BI-R045a", "BI-R120")
def test_a_slowed_truck_spends_its_halved_allowances_in_proportion(game):
    """A.12.2 "Movimento dimezzato": 40 on the road, 30 off it; BI-R045a: after 20 on the road
    half of the 30 is left: 35 cm in all, not 36."""
    play(game, "mark camion slowed")
    goto(game, "move-first", 1)
    refused(game, "@blue move camion 36 onroad=20", rule="BI-R045a")
    assert has_moved(play(game, "@blue move camion 35 onroad=20"))


# ------------------------------------------------------------- A.7 opportunity fire


@pytest.mark.audits("BI-R050", "BI-R110")
def test_no_opportunity_fire_at_a_seriously_wounded_man(game):
    """A.7: opportunity fire is at units in movement; A.12.1: a seriously wounded man "non può
    più muovere": he is no target for it (in the fire phase he is)."""
    play(game, "mark tariq seriously-wounded")
    goto(game, "move-second", 1)
    refused(game, "@blue fire carlo tariq range=30", rule="BI-R050")
    goto(game, "fire-regular", 1)
    assert chances(play(game, "fire carlo tariq range=30 dice=9")) == [4]


@pytest.mark.audits("BI-R050", "BI-R120")
def test_no_opportunity_fire_at_an_immobilised_truck(game):
    """A.7 and A.12.2: an immobilised vehicle cannot be moving: no opportunity fire at it."""
    play(game, "mark ural immobilised")
    goto(game, "move-second", 1)
    refused(game, "@blue fire rocco ural range=20", rule="BI-R050")


@pytest.mark.audits("BI-R050", "BI-R085", "BI-R082")
def test_an_aimed_opportunity_shot_adds_the_aim_before_halving(game):
    """A.9.4: "Tiro Mirato (Azione Molto Facile nel turno precedente)" +1; A.7: opportunity
    fire at ½: Carlo aimed in turn 1, fires at a mover in turn 2: (4 + 1) / 2 = 2.5 -> 3."""
    goto(game, "fire-regular", 1)
    play(game, "aim carlo")
    goto(game, "move-second", 2)
    play(game, "@red move tariq 10")
    assert chances(play(game, "@blue fire carlo tariq range=30 dice=9")) == [3]


@pytest.mark.audits("BI-R085", "BI-R080")
def test_an_aim_is_for_the_next_turn_only(game):
    """A.9.4: the aimed shot follows a Very Easy action "nel turno precedente": aimed in turn
    1, Carlo fires in turn 3 at his bare 4."""
    goto(game, "fire-regular", 1)
    play(game, "aim carlo")
    goto(game, "fire-regular", 3)
    assert chances(play(game, "fire carlo tariq range=30 dice=9")) == [4]


@pytest.mark.audits("BI-R050", "BI-WN2", "BI-R083")
def test_an_assault_rifle_at_an_area_by_opportunity_fire_is_halved_twice(game):
    """Note (2): an assault rifle at an area ½; A.7: opportunity fire ½: the Elite's 6 -> 1.5
    -> 2 for each mover in the area (normal range: the area row has no short)."""
    goto(game, "move-second", 1)
    play(game, "@red move tariq 10", "@red move fares 10")
    assert chances(play(game, "@blue fire elia tariq fares range=10 area dice=9,9")) == [2, 2]


@pytest.mark.audits("BI-R050", "BI-WN1", "BI-R080")
def test_a_bolt_action_rifle_at_long_range_by_opportunity_fire(game):
    """Note (1) -1, long range -1, then ½: (4 - 2) / 2 = 1."""
    goto(game, "move-second", 1)
    play(game, "@red move tariq 10")
    assert chances(play(game, "@blue fire bolt tariq range=50 dice=9")) == [1]


@pytest.mark.audits("BI-R050", "BI-WN5")
def test_a_machine_gun_with_one_crewman_makes_opportunity_fire_with_one_shot(game):
    """Note (5): one crewman, 1 shot a turn at a single target; A.7: at ½: one roll at 2."""
    play(game, "mark mg1 one-crew")
    goto(game, "move-second", 1)
    play(game, "@red move tariq 10")
    assert chances(play(game, "@blue fire mg1 tariq range=50 dice=9")) == [2]


@pytest.mark.audits("BI-R050", "BI-WN6", "BI-R093")
def test_an_agl_with_one_crewman_makes_opportunity_fire_with_one_grenade(game):
    """Note (6): an AGL with one crewman fires 1 shot a turn; A.7 ½ (normal range, 4 -> 2);
    a miss deviates (A.10.1): 1 is a dud."""
    play(game, "mark agl1 one-crew")
    goto(game, "move-second", 1)
    play(game, "@red move tariq 10")
    facts = play(game, "@blue fire agl1 tariq range=30 dice=9,1")
    assert chances(facts) == [2] and len(rolls(facts, "A.10.1")) == 1


@pytest.mark.audits("BI-R050", "BI-R093", "BI-WN7")
def test_a_hand_grenade_thrown_at_a_mover_bursts_on_him(game):
    """A.7 with the hand grenade's only band, normal to 10 cm: (4) / 2 = 2; a hit bursts on
    him and he is caught on 6, in the open at short distance (A.10.3)."""
    goto(game, "move-second", 1)
    play(game, "@red move tariq 10")
    facts = play(game, f"@blue fire gren tariq range=10 dice=2,6,{KILL}")
    assert chances(facts) == [2] and [r.target for r in rolls(facts, "A.10.3")] == [6]
    assert not game.state.units["tariq"].in_play


@pytest.mark.audits("BI-R050", "BI-R132", "BI-R130")
def test_a_rocket_at_a_moving_tank_that_does_not_penetrate_only_makes_its_crew_check(game):
    """A.7: the RPG at the moving tank at ½ (normal range, 4 -> 2); A.12.3: a hit, then the
    penetration, 6 against a tank: a 7 does not go through, and "il veicolo colpito dovrà solo
    controllare il morale": no damage die, a check due."""
    goto(game, "move-second", 1)
    play(game, "@red move t55 30")
    facts = play(game, "@blue fire rocco t55 range=20 dice=1,7")
    assert chances(facts) == [2] and [r.target for r in rolls(facts, "A.12.3")] == [6]
    assert rolls(facts, "A.12.4") == [] and game.state.units["t55"].has("morale-due")


@pytest.mark.audits("BI-R050", "BI-R030")
def test_no_opportunity_fire_at_a_man_who_threw_smoke_in_his_movement(game):
    """A.5.1: a unit moves or fires; a smoke grenade is thrown as fire (ruling BI-SMOKE-TIME),
    so Fares, who threw one, is not moving this turn: no opportunity fire at him."""
    goto(game, "move-second", 1)
    play(game, "@red smoke fares dice=1")
    refused(game, "@blue fire carlo fares range=30", rule="BI-R050")


@pytest.mark.audits("BI-R050", "BI-R042")
def test_a_man_getting_into_a_truck_is_a_mover_for_opportunity_fire(game):
    """A.6.1: getting into a truck is movement; A.7: a mover may be fired at, at ½ (rifle,
    normal range: 2); a truck is no armour that hides him."""
    goto(game, "move-second", 1)
    play(game, "@red mount fares ural")
    assert chances(play(game, "@blue fire carlo fares range=30 dice=9")) == [2]


@pytest.mark.audits("BI-R050", "BI-R081", "BI-R084")
def test_opportunity_fire_without_a_moon_reaches_20_cm(tmp_path, monkeypatch):
    """A.9.4 "Senza Luna (max cm. 20)": -2, then the opportunity ½: (4 - 2) / 2 = 1 at 20 cm
    (rifle, short range +1: (4 + 1 - 2) / 2 = 1.5 -> 2); at 21 cm nothing can be fired at."""
    g = new_game(tmp_path, monkeypatch, night="dark", extra=EXTRA)
    goto(g, "move-second", 1)
    play(g, "@red move tariq 10")
    refused(g, "@blue fire carlo tariq range=21", rule="BI-R081")
    assert chances(play(g, "@blue fire carlo tariq range=20 dice=9")) == [2]


# ------------------------------------------------------------- A.7 covering fire


@pytest.mark.audits("BI-R052", "BI-R084")
@pytest.mark.parametrize(("shooter", "cm", "chance"), [("bruno", 20, 2), ("rsm", 25, 1)])
def test_covering_fire_at_a_visible_man_by_moonlight(tmp_path, monkeypatch, shooter, cm, chance):
    """A.7: covering fire at a visible enemy is opportunity fire (½); A.9.4 by moonlight -1
    within 20 cm, -2 from 20 to 50: (4 - 1) / 2 = 1.5 -> 2 at 20 cm, (4 - 2) / 2 = 1 at 25."""
    g = new_game(tmp_path, monkeypatch, night="moon", extra=EXTRA)
    goto(g, "cover", 1)
    assert chances(play(g, f"@blue fire {shooter} tariq range={cm} dice=9,9")) == [chance, chance]


@pytest.mark.audits("BI-R053", "BI-WN5")
def test_covering_fire_at_a_feature_by_one_crewman_is_one_shot_at_half(game):
    """A.7 and note (5): the MG alone at its gun fires 1 shot at a single target; its covering
    fire at a feature strikes a hidden man there at ½: one roll at 2 (normal range)."""
    play(game, "mark mg1 one-crew", "mark tariq hidden")
    goto(game, "cover", 1)
    play(game, '@blue screen mg1 feature="the wood"')
    goto(game, "fire-regular", 1)
    assert chances(play(game, "screened mg1 tariq range=50 dice=9")) == [2]


@pytest.mark.audits("BI-R053", "BI-R232", "BI-R083")
def test_covering_fire_at_a_feature_by_a_gassed_man_is_halved_twice(game):
    """A.16.4: tear gas halves the chance to hit; A.7: covering fire at a feature ½: the SAW's
    single shots at a hidden man at normal range, 4 / 4 = 1."""
    goto(game, "fire-regular", 1)
    play(game, "@red gas fares sam dice=1", "mark tariq hidden")
    goto(game, "cover", 2)
    play(game, '@blue screen sam feature="the wood"')
    goto(game, "fire-regular", 2)
    assert chances(play(game, "screened sam tariq range=20 dice=9,9")) == [1, 1]


# ---------------------------------------------------------------- A.9 direct fire


@pytest.mark.audits("BI-R080", "BI-R085", "BI-R111")
def test_a_sniper_at_long_range_at_a_prone_man_in_heavy_cover_wearing_a_bullet_proof_vest(game):
    """A.9.4: the sniper aims (+1), long range -1, lying down -1, heavy cover -2: 4 - 3 = 1;
    A.12.1: his hit +1 on the damage die, the bullet-proof vest -2: an 8 reads 7, Wounded."""
    goto(game, "fire-regular", 1)
    facts = play(game, "fire nico kev range=100 prone cover=heavy dice=1,8")
    assert chances(facts) == [1] and outcomes(facts, "A.12.1") == ["wounded"]


@pytest.mark.audits("BI-R080", "BI-R110", "BI-R232", "BI-WN2", "BI-R083")
def test_a_wounded_man_in_tear_gas_at_an_area_is_halved_three_times(game):
    """A.12.1 (a wounded man ½), A.16.4 (tear gas ½) and note (2) (an assault rifle at an
    area ½): the Elite's 6 / 8 = 0.75 -> 1."""
    play(game, "mark elia wounded", "mark elia gassed")
    goto(game, "fire-elite", 1)
    assert chances(play(game, "fire elia tariq fares range=10 area dice=9,9")) == [1, 1]


@pytest.mark.audits("BI-R080", "BI-WN3", "BI-R076", "BI-R084")
def test_a_saw_at_an_area_of_prone_men_by_moonlight(tmp_path, monkeypatch):
    """Note (3): a SAW at an area -1, at its own ranges (short to 15 cm, +1); lying down -1;
    the moon within 20 cm -1: 4 + 1 - 3 = 2 for each man."""
    g = new_game(tmp_path, monkeypatch, night="moon", extra=EXTRA)
    goto(g, "fire-regular", 1)
    assert chances(play(g, "fire sam tariq fares range=15 area prone dice=9,9")) == [2, 2]


@pytest.mark.audits("BI-WN4", "BI-R121")
def test_a_light_mg_not_emplaced_is_still_a_machine_gun_against_a_truck(game):
    """Note (4): unemplaced, the LMG fires as an assault rifle (its shots and ranges: at 20 cm
    normal range, 4); A.12.2: "+1 se a sparare è stata una mitragliatrice", and it is one:
    a 7 reads 8, the truck destroyed."""
    goto(game, "fire-regular", 1)
    facts = play(game, "fire lino ural range=20 dice=1,7")
    assert chances(facts) == [4] and [o.split(" (")[0] for o in outcomes(facts, "A.12.2")] == ["destroyed"]


@pytest.mark.audits("BI-R092", "BI-R093", "BI-WN7")
def test_a_heavy_guns_direct_hit_on_a_man_bursts_at_plus_one(game):
    """A.9.2 and note (7): a gun over 103 mm fires HE, short range to 100 cm (+1: the
    Veteran's 5 -> 6); A.10.3: the man it hits is caught as in the open at short distance,
    6, "+1 se sotto tiro di cannoni/mortai >103mm": 7."""
    goto(game, "fire-veteran", 1)
    facts = play(game, f"fire ariete tariq range=100 dice=1,7,{KILL}")
    assert chances(facts) == [6] and [r.target for r in rolls(facts, "A.10.3")] == [7]
