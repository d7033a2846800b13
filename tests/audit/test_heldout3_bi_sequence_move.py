"""A fourth look at Bassa Intensità (issue #46), a third held-out audit: dice, quality,
command and isolation, the sequence of play, movement, opportunity and covering fire and
actions (A.2-A.8, A.17), each case written from the book ("DADI e ARROTONDAMENTI",
"QUALITA'", "UNITA' e DISTANZE DI COMANDO", "SEQUENZA DI GIOCO", "MOVIMENTO", "TIRI DI
OPPORTUNITA'", "TIRI DI COPERTURA", "TIRO ed AZIONI", "AZIONI") and its digest alone.
The earlier rounds crossed what a man does with what he is; these cases aim where they
did not: the die as the table shows it, the referee's motivation inside an action's
difficulty, a leader whose ability is not his squad's, the armed transport made a combat
vehicle, who may act in whose phase and tier, each movement modifier and each vehicle's
allowance at its edge, and getting out of a truck as a modifier of a move, not a move."""

from __future__ import annotations

import pytest
from audit_bi_early import (
    allowed,
    chances,
    goto,
    has_moved,
    isolation,
    man,
    outcomes,
    play,
    refused,
    rolls,
    table,
    vehicle,
)

#: The pieces these cases need beside the audit's table: an Elite squad led by a leader of
#: Rabble ability and a Rabble squad led by one of Elite ability (A.4: "qualsiasi
#: combinazione"), and an Elite section under an Elite section leader.
EXTRA = (
    man("capo", "blue", "elite", "assault-rifle", team="EL", roles=("leader",), ability=2),
    man("ely", "blue", "elite", "assault-rifle", team="EL"),
    man("boss", "blue", "rabble", "pistol", team="RB", roles=("leader",), ability=6),
    man("ragtag", "blue", "rabble", "pistol", team="RB"),
    man("esl", "blue", "elite", "assault-rifle", team="ES", roles=("section-leader",)),
    man("esm", "blue", "elite", "assault-rifle", team="ES"),
)


game = table(extra=EXTRA)


# ------------------------------------------------------- A.2 dice, A.3 quality


@pytest.mark.audits("BI-R001")
def test_a_d10_showing_0_is_read_as_a_10(game):
    """A.2: "dadi a 10 facce (1d10 : il risultato di 0 si considererà come 10)": the
    referee types the face his d10 shows, 0, and it is a 10: Bruno's assault rifle (two
    shots at 4) misses with each."""
    goto(game, "fire-regular", 1)
    facts = play(game, "fire bruno tariq range=30 dice=0,0")
    assert [r.target for r in rolls(facts, "A.9.4")] == [4, 4]
    assert [list(r.faces) for r in rolls(facts, "A.9.4")] == [[10], [10]]
    assert game.state.units["tariq"].in_play


@pytest.mark.audits("BI-R011", "BI-R066", "BI-AMB-04")
def test_motivation_is_inside_the_easy_actions_double(game):
    """A.3: the referee's +1 is on the unit's "possibilità di riuscita"; A.8.1: an Easy
    action is "2 x Qualità" of that chance: a motivated Regular, 2 x (4 + 1) = 10, which no
    d10 can fail (A.2, BI-R003): no die is rolled (2 x 4 + 1 = 9 would roll one).  Bruno,
    not motivated, rolls under 8."""
    play(game, "motivation carlo 1")
    goto(game, "fire-regular", 1)
    refused(game, "act carlo easy dice=10", rule="ENG-5")
    assert rolls(play(game, "act carlo easy")) == []
    assert [r.target for r in rolls(play(game, "act bruno easy dice=8"))] == [8]


@pytest.mark.audits("BI-R011", "BI-R066", "BI-R002", "BI-AMB-04")
def test_a_demotivated_rabbles_difficult_action_rounds_up_to_one(game):
    """A.3 and A.8.1: Rabble 2, the referee's -1: 1; a Difficult action is ½ of it, 0.5,
    rounded up (A.2) to 1: a 1 succeeds, a 2 fails."""
    play(game, "motivation marmo -1")
    goto(game, "fire-rabble", 1)
    facts = play(game, "act marmo difficult dice=1")
    assert [r.target for r in rolls(facts)] == [1]
    assert "fail" not in " ".join(outcomes(facts))


@pytest.mark.audits("BI-R011", "BI-R165", "BI-AMB-04")
def test_motivation_moves_the_chance_to_observe(game):
    """A.3 with A.14.1: observation is rolled as an action; a man still in the open, seen by
    infantry, is Normal: a motivated Regular's 4 + 1 = 5."""
    play(game, "motivation carlo 1", "mark tariq hidden")
    goto(game, "observe", 1)
    facts = play(game, "observe carlo tariq dice=5")
    assert [r.target for r in rolls(facts)] == [5] and outcomes(facts) == ["spotted"]


@pytest.mark.audits("BI-R011", "BI-R021", "BI-AMB-04")
def test_motivation_does_not_stretch_the_command_distance(game):
    """A.3: the +1 is on the chance of success, not the Quality's row; A.4: a Regular squad
    leader commands to 8 cm, motivated or not: at 8.5 Bruno is isolated and tests."""
    play(game, "motivation sarge 1")
    goto(game, "move-first", 1)
    assert isolation(play(game, "@blue move bruno 5 lead=8")) == []
    assert isolation(play(game, "@blue move carlo 5 lead=8.5 dice=4")) == [4]


# ------------------------------------------------------- A.4 command and isolation


@pytest.mark.parametrize(
    ("mover", "edge", "quality"),
    [("ely", 4, 6), ("ragtag", 16, 2), ("esm", 8, 6)],
    ids=["elite-squad-rabble-leader-4", "rabble-squad-elite-leader-16", "elite-section-leader-8"],
)
@pytest.mark.audits("BI-R021", "BI-R022", "BI-R024", "BI-AMB-06")
def test_the_command_distance_is_the_leaders_ability_not_the_squads(game, mover, edge, quality):
    """A.4: "L'Abilità del comandante è solitamente uguale alla Qualità della squadra, ma ...
    qualsiasi combinazione": an Elite squad under a Rabble-ability leader keeps within 4 cm,
    a Rabble squad under an Elite one within 16; an Elite section leader commands to 8.  At
    the edge no test; half a cm beyond it, the man tests under his own Quality."""
    goto(game, "move-first", 1)
    assert isolation(play(game, f"@blue move {mover} 2 lead={edge}")) == []
    goto(game, "move-first", 2)
    facts = play(game, f"@blue move {mover} 2 lead={edge + 0.5} dice={quality}")
    assert isolation(facts) == [quality] and has_moved(facts)


@pytest.mark.audits("BI-R024", "BI-R042")
def test_an_isolated_man_tests_before_he_gets_into_a_truck(game):
    """A.4: an isolated man rolls under his Quality before he moves; getting into a truck is
    movement (A.6.1): a 5 fails Bruno's test (4) and he stays on foot; Carlo's 4 passes."""
    goto(game, "move-first", 1)
    facts = play(game, "@blue mount bruno camion isolated dice=5")
    assert isolation(facts) == [4]
    assert not game.state.units["bruno"].has("aboard-camion")
    facts = play(game, "@blue mount carlo camion isolated dice=4")
    assert isolation(facts) == [4] and game.state.units["carlo"].has("aboard-camion")


@pytest.mark.audits("BI-R027", "BI-R025", "BI-R026", "BI-R028")
def test_an_armed_transport_made_a_combat_vehicle_leaves_the_command_radius(game):
    """A.4: an armed transport follows the unarmed vehicles' rules, so with its squad leader
    killed it is isolated and tests before it moves (Regular, 4); declared a combat vehicle
    it is, like a tank, free of the command radius for moving: no test the next turn."""
    play(game, "out sarge")
    goto(game, "move-first", 1)
    assert isolation(play(game, "@blue move puma 30 road dice=4")) == [4]
    play(game, "@blue combat puma")
    goto(game, "move-first", 2)
    facts = play(game, "@blue move puma 30 road")
    assert isolation(facts) == [] and has_moved(facts)


@pytest.mark.audits("BI-R027")
def test_an_armed_transport_is_made_a_combat_vehicle_only_with_its_troops_off(game):
    """A.4: "una volta fatte sbarcare le truppe trasportate": with Bruno aboard the Puma it
    cannot be declared a combat vehicle; once he is off it can, and he may not get back in."""
    goto(game, "move-first", 1)
    play(game, "@blue mount bruno puma")
    refused(game, "@blue combat puma", rule="BI-R027")
    goto(game, "move-first", 2)
    play(game, "@blue dismount bruno", "@blue combat puma")
    goto(game, "move-first", 3)
    refused(game, "@blue mount bruno puma", rule="BI-R027")
    assert not game.state.units["bruno"].has("aboard-puma")


@pytest.mark.audits("BI-R027", "BI-R181", "BI-R025")
def test_a_combat_vehicle_checks_morale_as_isolated(game):
    """A.4: a combat vehicle made of an armed transport "si considera sempre isolato per i
    test di morale"; A.13.2: isolated -2: the Regular Puma passes on 4 + 3 - 2 = 5, before
    it was declared on 7."""
    goto(game, "move-first", 1)
    assert [r.target for r in rolls(play(game, "morale puma m7 dice=1"))] == [7]
    play(game, "@blue combat puma")
    assert [r.target for r in rolls(play(game, "morale puma m7 dice=1"))] == [5]


@pytest.mark.audits("BI-R025", "BI-R028")
def test_a_tank_of_a_leaderless_squad_moves_and_fires_with_no_test(game):
    """A.4: combat vehicles "non sono soggetti alle limitazioni del raggio di comando per quanto
    riguarda il movimento ed il tiro": Tank2, of Sarge's squad, neither moves nor fires under
    an isolation test when Sarge is killed."""
    play(game, "out sarge")
    goto(game, "move-first", 1)
    facts = play(game, "@blue move tank2 30")
    assert isolation(facts) == [] and has_moved(facts)
    goto(game, "fire-regular", 2)
    facts = play(game, "fire tank2 fares range=30")
    assert isolation(facts) == [] and rolls(facts, "A.9.4")


@pytest.mark.audits("BI-R026", "BI-R021", "BI-R024")
def test_an_unarmed_truck_beyond_its_leaders_command_distance_tests(game):
    """A.4: unarmed transport keeps the command radius "riferito alla propria squadra":
    Sarge (Regular) commands to 8 cm: the truck at 8 moves freely, at 8.5 it tests (4)."""
    goto(game, "move-first", 1)
    assert isolation(play(game, "@blue move camion 30 road lead=8")) == []
    goto(game, "move-first", 2)
    assert isolation(play(game, "@blue move camion 30 road lead=8.5 dice=5")) == [4]


# ------------------------------------------------------- A.5 sequence of play


@pytest.mark.audits("BI-R030", "BI-AMB-11")
def test_the_initiative_winner_who_moves_second_lets_the_loser_move_first(game):
    """A.5: "chi totalizza il risultato più alto sceglie se muoverà per primo o per
    secondo": Red rolls the higher; Blue may not choose; Red chooses second, so Blue moves
    first and Red must wait."""
    goto(game, "initiative", 1)
    play(game, "next dice=2,5")
    refused(game, "@blue order first", rule="BI-AMB-11")
    play(game, "@red order second")
    goto(game, "move-first", 1)
    assert has_moved(play(game, "@blue move bruno 5"))
    refused(game, "@red move omar 5", rule="ENG-2")


@pytest.mark.audits("BI-R030", "BI-R050")
def test_the_first_mover_moves_first_and_the_second_mover_after(game):
    """A.6: "prima muovono tutte le unità di un giocatore, poi tutte le unità
    dell'avversario": Red may not move in Blue's movement, nor Blue in Red's."""
    goto(game, "move-first", 1)
    refused(game, "@red move omar 5", rule="BI-R050")
    goto(game, "move-second", 1)
    refused(game, "@blue move bruno 5", rule="BI-R050")
    assert has_moved(play(game, "@red move omar 5"))


@pytest.mark.audits("BI-R050")
def test_the_mover_makes_no_opportunity_fire_in_his_own_movement(game):
    """A.7: opportunity fire is made "durante la fase di movimento dell'avversario": Blue,
    moving first, may not fire at Red in his own movement (Omar has not moved anyway); Red
    may fire at Bruno, who moves."""
    goto(game, "move-first", 1)
    play(game, "@blue move bruno 5")
    refused(game, "@blue fire carlo omar range=30", rule="BI-R050")
    assert rolls(play(game, "@red fire ali bruno range=30 dice=10,10"), "A.9.4")


@pytest.mark.parametrize(
    ("phase", "shooter"),
    [("fire-regular", "vito"), ("fire-veteran", "bruno"), ("fire-elite", "ariete"), ("fire-regular", "ariete")],
    ids=["veteran-in-regulars", "regular-in-veterans", "veteran-tank-in-elites", "veteran-tank-in-regulars"],
)
@pytest.mark.audits("BI-R061")
def test_each_unit_fires_in_its_own_qualitys_tier(game, phase, shooter):
    """A.5 and A.8: fire and actions go "nell'ordine dato dalla rispettiva Qualità": a
    Veteran fires in the Veterans' tier and no other, a Regular in the Regulars', a vehicle
    in its crew's."""
    goto(game, phase, 1)
    refused(game, f"fire {shooter} tariq range=30 dice=10", rule="BI-R061")


@pytest.mark.audits("BI-R061", "BI-R011")
def test_a_veteran_tank_fires_in_the_veterans_tier(game):
    """A.8: the Ariete's crew is Veteran: it fires among the Veterans, its MG's three shots
    at 5 + 1 (short range, to 30 cm)."""
    goto(game, "fire-veteran", 1)
    facts = play(game, "fire ariete fares range=10 weapon=mg dice=10,10,10")
    assert chances(facts) == [6, 6, 6]


@pytest.mark.audits("BI-R030", "BI-R042")
def test_a_man_who_got_into_a_truck_does_not_fire_that_turn(game):
    """A.5: "ogni unità potrà o muovere o sparare o compiere una azione per turno": getting
    into a truck is his movement (A.6.1), so in the fire phase he neither fires nor acts."""
    goto(game, "move-first", 1)
    play(game, "@blue mount bruno camion")
    goto(game, "fire-regular", 1)
    refused(game, "fire bruno tariq range=30", rule="BI-R030")
    refused(game, "act bruno normal", rule="BI-R030")


@pytest.mark.audits("BI-R030", "BI-AMB-48")
def test_a_man_who_threw_smoke_in_the_movement_neither_moves_nor_fires(game):
    """A.5: smoke is thrown in either phase; a grenade is the thrower's fire (BI-AMB-48):
    thrown in his movement, he may not also move, nor fire in the fire phase."""
    goto(game, "move-first", 1)
    play(game, "@blue smoke carlo dice=3")
    refused(game, "@blue move carlo 5", rule="BI-R030")
    goto(game, "fire-regular", 1)
    refused(game, "fire carlo tariq range=30", rule="BI-R030")


@pytest.mark.audits("BI-R060", "BI-R065")
def test_actions_are_for_the_fire_and_actions_phase(game):
    """A.5: "3. TIRO ed AZIONI": an action other than moving or firing is made in the fire
    and actions phase, not in the movement."""
    goto(game, "move-first", 1)
    refused(game, "@blue act carlo normal", rule="ENG-2")
    goto(game, "fire-regular", 1)
    assert rolls(play(game, "act carlo normal dice=4"))


@pytest.mark.audits("BI-R030", "BI-R050", "BI-R054")
def test_a_man_who_made_covering_fire_makes_no_opportunity_fire(game):
    """A.7: covering fire is the unit's one activity of the turn: having put it on Omar
    (visible) before the movement, Carlo may not fire at Omar again when he moves."""
    goto(game, "cover", 1)
    play(game, "@blue fire carlo omar range=30 dice=10")
    goto(game, "move-second", 1)
    play(game, "@red move omar 5")
    refused(game, "@blue fire carlo omar range=30", rule="BI-R030")


@pytest.mark.audits("BI-R053", "BI-R051")
def test_covering_fire_at_a_feature_is_declared_before_the_movement_only(game):
    """A.7: "Prima dell'inizio della fase di movimento ambedue i giocatori potrà effettuare
    tiri di copertura": once the first mover moves, no covering fire at a feature."""
    goto(game, "move-first", 1)
    refused(game, '@blue screen sam feature="the wood"', rule="ENG-2")
    refused(game, '@red screen ali feature="the wood"', rule="ENG-2")


# ------------------------------------------------------- A.6 movement on foot

ON_FOOT = [
    # (mode, allowance, modifier, allowed)  A.6.1: each percentage is of the mode's allowance
    ("running", 24, "under-fire", 18),
    ("running", 24, "stand-up", 18),
    ("running", 24, "door", 18),
    ("running", 24, "window", 12),
    ("running", 24, "car", 12),
    ("running", 24, "carrying", 12),
    ("running", 24, "low-obstacle", 12),
    ("cautious", 8, "door", 6),
    ("cautious", 8, "window", 4),
    ("cautious", 8, "door,carrying", 2),
    ("normal", 16, "under-fire,window", 4),
    ("running", 24, "stand-up,low-obstacle", 6),
]


@pytest.mark.parametrize(("mode", "allowance", "via", "allowed"), ON_FOOT, ids=[f"{m}-{v}" for m, _, v, _ in ON_FOOT])
@pytest.mark.audits("BI-R040", "BI-R042", "BI-AMB-12")
def test_each_movement_modifier_at_its_edge(game, mode, allowance, via, allowed):
    """A.6.1, "MODIFICATORI AL MOVIMENTO TRUPPE APPIEDATE": -25% (under fire in the previous
    phase, standing up or lying down, through a door), -50% (a window, a truck or car,
    carrying, a low wall), of the mode's allowance, added together (BI-AMB-12).  The
    allowance is allowed to the cm; half a cm more is refused."""
    goto(game, "move-first", 1)
    refused(game, f"@blue move carlo {allowed + 0.5} {mode} via={via}", rule="BI-R040")
    assert has_moved(play(game, f"@blue move carlo {allowed} {mode} via={via}"))


@pytest.mark.parametrize("via", ["high-obstacle", "floor", "armoured"])
@pytest.mark.audits("BI-R042")
def test_a_whole_turn_modifier_leaves_no_cm_beyond_it(game, via):
    """A.6.1: crossing a high hedge, changing floor or window, getting into or out of an
    armoured vehicle "1 turno": it is the whole move; not even 1 cm more with it."""
    goto(game, "move-first", 1)
    refused(game, f"@blue move carlo 1 running via={via}", rule="BI-R042")


@pytest.mark.audits("BI-R042", "BI-R030")
def test_getting_out_of_a_truck_leaves_half_the_move(game):
    """A.6.1: "Salire/scendere da autocarro/automobile -50%": getting out of a truck is a
    modifier of the man's move, not all of it: out of the truck, Bruno walks on up to 8 cm
    of his normal 16 (not 8.5)."""
    goto(game, "move-first", 1)
    play(game, "@blue mount bruno camion")
    goto(game, "move-first", 2)
    play(game, "@blue dismount bruno")
    refused(game, "@blue move bruno 8.5 via=car", rule="BI-R042")
    assert has_moved(play(game, "@blue move bruno 8 via=car"))


@pytest.mark.audits("BI-R042", "BI-R030")
def test_out_of_a_car_the_half_is_counted_once_and_the_walk_ends_his_turn(game):
    """A.6.1: the -50% of getting out of a car is the engine's to count, once: running, 12 of
    24 cm; then he has moved, neither walks again nor fires (A.5)."""
    goto(game, "move-first", 1)
    play(game, "@blue mount carlo jeep")
    goto(game, "move-first", 2)
    play(game, "@blue dismount carlo")
    refused(game, "@blue move carlo 12.5 running", rule="BI-R042")
    assert has_moved(play(game, "@blue move carlo 12 running"))
    refused(game, "@blue move carlo 1", rule="BI-R030")
    goto(game, "fire-regular", 2)
    refused(game, "fire carlo tariq range=30", rule="BI-R030")


@pytest.mark.audits("BI-R042", "BI-R030")
def test_getting_out_of_an_armoured_carrier_is_the_whole_move(game):
    """A.6.1: "Entrare/uscire da un blindato 1 turno": out of the tracked carrier, Carlo
    walks no further that turn."""
    goto(game, "move-first", 1)
    play(game, "@blue mount carlo vcc")
    goto(game, "move-first", 2)
    play(game, "@blue dismount carlo")
    refused(game, "@blue move carlo 1", rule="BI-R030")


# ------------------------------------------------------- A.6.2 vehicles

VEHICLES = [
    # (vehicle, ground, allowance)  A.6.2, with BI-AMB-14 for the types not in the table
    ("ariete", "road", 60),
    ("ariete", "off-road", 60),
    ("vcc", "road", 80),
    ("vcc", "off-road", 80),
    ("puma", "road", 80),
    ("puma", "off-road", 60),
    ("camion", "road", 80),
    ("camion", "off-road", 60),
    ("jeep", "road", 120),
    ("jeep", "off-road", 20),
    ("blindo", "road", 80),
    ("blindo", "off-road", 60),
    ("tecnica", "road", 120),
    ("tecnica", "off-road", 20),
]


@pytest.mark.parametrize(("vehicle", "ground", "allowance"), VEHICLES, ids=[f"{v}-{g}" for v, g, _ in VEHICLES])
@pytest.mark.audits("BI-R045", "BI-AMB-14")
def test_each_vehicle_moves_its_allowance_to_the_cm(game, vehicle, ground, allowance):
    """A.6.2, "MOVIMENTO VEICOLI": a tank 60 and 60, a tracked carrier 80 and 80, a wheeled
    4x4 80 and 60 (a military truck, an armoured car, BI-AMB-14), a civilian wheeled
    vehicle 120 and 20 (a car, a technical).  Half a cm beyond is refused."""
    goto(game, "move-first", 1)
    refused(game, f"@blue move {vehicle} {allowance + 0.5} {ground}", rule="BI-R045")
    assert has_moved(play(game, f"@blue move {vehicle} {allowance} {ground}"))


# ------------------------------------------------------- crossings: what a vehicle is, what came before

#: A.4 names "carri armati, autoblindo, 'tecniche' etc" as combat vehicles: a technical and
#: an armoured car given to Sarge's squad, and a Red MG to put men under automatic fire.
CROSS = (
    *EXTRA,
    vehicle("tec2", "blue", "regular", "mg", roles=("technical",), team="A"),
    vehicle("blin2", "blue", "regular", "mg", roles=("armoured-car",), team="A"),
    man("mgr", "red", "regular", "mg", roles=("emplaced",)),
)


cross = table("cross", extra=CROSS)


@pytest.mark.parametrize("vehicle_id", ["tec2", "blin2"])
@pytest.mark.audits("BI-R025", "BI-R028")
def test_a_technical_and_an_armoured_car_are_combat_vehicles_free_of_the_radius(cross, vehicle_id):
    """A.4: "I veicoli da combattimento (carri armati, autoblindo, "tecniche" etc) non sono
    soggetti alle limitazioni del raggio di comando": with Sarge killed, the technical and the
    armoured car of his squad move with no isolation test."""
    play(cross, "out sarge")
    goto(cross, "move-first", 1)
    facts = play(cross, f"@blue move {vehicle_id} 20 road")
    assert isolation(facts) == [] and has_moved(facts)


@pytest.mark.audits("BI-R042")
def test_a_man_under_automatic_fire_in_the_last_phase_moves_a_quarter_less(cross):
    """A.6.1: "Sotto fuoco automatico o Alto Esplosivo nella fase precedente -25%": the Red MG
    fires its three shots at Carlo in turn 1's fire phase and misses; in turn 2's movement,
    the next phase, he walks 12 of his 16 cm, as if the referee had said so."""
    goto(cross, "fire-regular", 1)
    play(cross, "@red fire mgr carlo range=30 dice=10,10,10")
    goto(cross, "move-first", 2)
    refused(cross, "@blue move carlo 12.5", rule="BI-R042")
    assert has_moved(play(cross, "@blue move carlo 12"))


@pytest.mark.audits("BI-R042")
def test_the_fire_of_the_last_phase_is_counted_once(cross):
    """A.6.1: the modifier is one row: the engine's count of the MG fire and the referee's
    via=under-fire are the same -25%: 12 cm, not 8."""
    goto(cross, "fire-regular", 1)
    play(cross, "@red fire mgr carlo range=30 dice=10,10,10")
    goto(cross, "move-first", 2)
    assert has_moved(play(cross, "@blue move carlo 12 via=under-fire"))


@pytest.mark.audits("BI-R042")
def test_fire_two_phases_ago_slows_no_one(cross):
    """A.6.1: "nella fase precedente": fired at in turn 1, Carlo walks his whole 16 cm in
    turn 3."""
    goto(cross, "fire-regular", 1)
    play(cross, "@red fire mgr carlo range=30 dice=10,10,10")
    goto(cross, "move-first", 3)
    assert has_moved(play(cross, "@blue move carlo 16"))


@pytest.mark.audits("BI-R061", "BI-R110", "BI-AMB-20")
def test_a_man_shocked_by_a_hit_in_his_own_tier_still_fires_in_it(cross):
    """A.8: "I tiri/azioni avvengono contemporaneamente per i due giocatori" within a tier;
    only a higher tier's results come first.  Tariq (Regular) shocks Bruno in the Regulars'
    tier (damage 5-6 on a man, A.12.1: Shocked); Bruno fires in it all the same."""
    goto(cross, "fire-regular", 1)
    play(cross, "@red fire tariq bruno range=30 dice=1,5,10")
    assert cross.state.units["bruno"].has("shocked")
    assert rolls(play(cross, "fire bruno fares range=30 dice=10,10"), "A.9.4")


@pytest.mark.audits("BI-R042")
def test_a_man_in_an_he_burst_in_the_last_phase_moves_a_quarter_less(cross):
    """A.6.1: "Alto Esplosivo nella fase precedente": an RPG's burst in turn 1's fire phase
    misses Tariq (a 10); in turn 2 he walks 12 of his 16 cm.  A vehicle has no such row."""
    goto(cross, "fire-regular", 1)
    play(cross, "burst tariq source=rpg zone=short dice=10")
    goto(cross, "move-second", 2)
    refused(cross, "@red move tariq 12.5", rule="BI-R042")
    assert has_moved(play(cross, "@red move tariq 12"))


# ------------------------------------------------------- a last batch: who may cover, a sniper's squad


@pytest.mark.parametrize(
    ("shooter", "ok"),
    [
        ("bruno", True),
        ("sam", True),
        ("carlo", False),
        ("sandro", False),
        ("nico", False),
        ("gino", False),
        ("rocco", False),
    ],
    ids=["assault-rifle", "saw", "rifle", "shotgun", "sniper-rifle", "grenade-launcher", "rpg"],
)
@pytest.mark.audits("BI-R053", "BI-R070")
def test_only_an_automatic_weapon_puts_covering_fire_on_a_feature(game, shooter, ok):
    """A.7: "Il tiro di copertura contro elementi di terreno potrà essere effettuato solo da
    armi automatiche"; A.9.1: automatic are MGs, assault rifles (and the SAW); a rifle, a
    shotgun or a sniper's rifle fire single shots, a grenade launcher and an RPG HE."""
    goto(game, "cover", 1)
    line = f'@blue screen {shooter} feature="the farm"'
    allowed(game, line, ok, rule="BI-R053")
    if ok:
        refused(game, f"@blue move {shooter} 2", rule="ENG-2")  # his activity for the turn (BI-R054)


@pytest.mark.audits("BI-R052", "BI-R050")
def test_a_single_shot_rifle_gives_covering_fire_at_a_visible_man(game):
    """A.7: only covering fire at a feature needs an automatic weapon; at an enemy already
    visible it is opportunity fire, any weapon, at ½: Carlo's rifle at normal range, 4 / 2."""
    goto(game, "cover", 1)
    facts = play(game, "@blue fire carlo omar range=30 dice=10")
    assert [r.target for r in rolls(facts, "A.9.4")] == [2]


@pytest.mark.audits("BI-R023", "BI-R028", "BI-R024")
def test_a_regular_sniper_is_not_isolated_when_his_squad_leader_falls(game):
    """A.4: a sniper of a Regular unit operates alone, "senza dover rispettare le distanze di
    comando": Sarge killed, his squad is isolated, but Nico, its sniper, moves with no test;
    Rino, a Recruit unit's sniper, is an ordinary man of his squad and tests (3)."""
    play(game, "out sarge", "out recluta")
    goto(game, "move-first", 1)
    facts = play(game, "@blue move nico 5")
    assert isolation(facts) == [] and has_moved(facts)
    assert isolation(play(game, "@blue move rino 5 dice=3")) == [3]
