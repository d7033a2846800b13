"""A second, held-out audit of Bassa Intensità (issue #46): command, the golden rule,
opportunity and covering fire, actions, direct fire and the weapon notes (A.4-A.10),
each case written from the book ("UNITÀ", "SEQUENZA DI GIOCO", "TIRI DI OPPORTUNITÀ",
"TIRI DI COPERTURA", "AZIONI", "TIRO DIRETTO" with its notes (1)-(8)) and its digest
alone.  The first audit checks each rule clause by clause; these cases put two rules
together (two modifiers at once, a note meeting another row, a status that must refuse
an action, the order of steps), where a mistake can hide."""

from __future__ import annotations

import pytest
from audit_bi_early import KILL, chances, goto, isolation, man, new_game, outcomes, play, refused, rolls, table, vehicle
from playing import all_refused

HIT = "hit: roll damage (A.12)"


game = table()


# ------------------------------------------------------- A.4 command and isolation


@pytest.mark.audits("BI-R024", "BI-R110")
def test_an_isolated_wounded_man_tests_at_his_whole_quality_then_fires_at_half(game):
    """A.4: the isolated man rolls 1d10 under his own Quality (4) before he fires; a wound
    halves his chance to hit (A.12.1), not that test: 4 to act, then 2 to hit."""
    play(game, "mark bruno wounded")
    goto(game, "fire-regular", 1)
    facts = play(game, "fire bruno tariq range=20 lead=9 dice=4,9,9")
    assert isolation(facts) == [4] and chances(facts) == [2, 2]


@pytest.mark.audits("BI-R024", "BI-R011", "BI-AMB-04")
def test_motivation_moves_the_isolation_test_too(game):
    """A.3 and A.4: the referee's +1 for motivation changes the chance of success of
    every test, the isolation test with it: a Regular at +1 passes it on 5."""
    play(game, "motivation bruno 1")
    goto(game, "move-first", 1)
    facts = play(game, "move bruno 5 lead=9 dice=5")
    assert isolation(facts) == [5] and game.state.units["bruno"].has("moved")


@pytest.mark.audits("BI-R024", "BI-R050")
def test_an_isolated_man_rolls_before_his_opportunity_fire_then_fires_at_half(game):
    """A.4 and A.7: isolated (9 cm from a Regular leader), Ali rolls under 4 before he
    fires at the mover; the shots are then at half, 4 -> 2."""
    goto(game, "move-first", 1)
    play(game, "@blue move gino 10")
    facts = play(game, "@red fire ali gino range=20 lead=9 dice=4,9,9")
    assert isolation(facts) == [4] and chances(facts) == [2, 2]


@pytest.mark.audits("BI-R022", "BI-R028", "BI-R021")
def test_a_leader_of_higher_ability_is_replaced_one_level_below_him_not_below_the_squad(tmp_path, monkeypatch):
    """A.4: a Regular squad led by an Elite-ability leader (BI-R022).  He is killed: the
    squad rolls under its own Quality (4) at the next turn's start; the survivor who takes
    over has the dead leader's ability one level lower, Veteran: 12 cm, not the Recruit's
    6 cm one level below the squad."""
    extra = (
        man("lt", "blue", "regular", "assault-rifle", team="Q", roles=("leader",), ability=6),
        man("q1", "blue", "regular", "assault-rifle", team="Q"),
        man("q2", "blue", "regular", "assault-rifle", team="Q"),
    )
    g = new_game(tmp_path, monkeypatch, extra=extra)
    goto(g, "fire-regular", 1)
    play(g, "out lt")
    goto(g, "end", 1)
    facts = play(g, "next dice=4")
    assert [r.target for r in rolls(facts) if r.sides == 10] == [4]
    (new,) = [u for u in g.state.units.values() if u.team == "Q" and u.in_play and u.has("leader")]
    (other,) = [u.id for u in g.state.units.values() if u.team == "Q" and u.in_play and u.id != new.id]
    goto(g, "move-first", 2)
    assert isolation(play(g, f"move {other} 5 lead=12")) == []
    goto(g, "move-first", 3)
    assert isolation(play(g, f"move {other} 5 lead=12.5 dice=4")) == [4]


# ------------------------------------------------------- A.5 the golden rule, A.7


@pytest.mark.audits("BI-R030", "BI-R050")
def test_a_man_who_moved_first_makes_no_opportunity_fire_at_the_second_mover(game):
    """A.5 and A.7: Bruno moved in his side's movement; when Red moves, he has spent his
    turn and may not fire at the mover; Carlo, who did not move, may (rifle, normal range,
    4 -> 2)."""
    goto(game, "move-first", 1)
    play(game, "@blue move bruno 5")
    goto(game, "move-second", 1)
    play(game, "@red move tariq 10")
    refused(game, "@blue fire bruno tariq range=20", rule="BI-R030")
    assert chances(play(game, "@blue fire carlo tariq range=30 dice=9")) == [2]


@pytest.mark.audits("BI-R050", "BI-R080", "BI-R082")
def test_opportunity_fire_at_a_runner_or_a_cautious_mover_adds_its_modifier_before_halving(game):
    """A.7 and A.9.4: opportunity fire is the normal fire at half; the target's own
    rows still count: a runner +1 ((4 + 1) / 2 = 2.5 -> 3), a cautious mover -1 (a
    Veteran, (5 - 1) / 2 = 2, not 3)."""
    goto(game, "move-first", 1)
    play(game, "@blue move gino 24 running")
    assert chances(play(game, "@red fire tariq gino range=20 dice=9,9")) == [3, 3]
    play(game, "@blue move sam 8 cautious")
    assert chances(play(game, "@red fire karim sam range=20 dice=9,9")) == [2, 2]


@pytest.mark.audits("BI-R052", "BI-R083", "BI-R110")
def test_covering_fire_by_a_wounded_man_is_halved_twice(game):
    """A.7 (covering fire at a visible enemy is opportunity fire, ½) and A.12.1 (a
    wounded man fires at ½): both halvings, 4 -> 1; a 1 hits, a 2 misses."""
    play(game, "mark bruno wounded")
    goto(game, "cover", 1)
    facts = play(game, "@blue fire bruno tariq range=20 dice=2,1," + KILL)
    assert chances(facts) == [1, 1] and outcomes(facts, "A.9.4") == ["miss", HIT]


@pytest.mark.audits("BI-R052", "BI-R080", "BI-R076")
def test_covering_fire_with_a_saw_at_an_area_takes_its_minus_one_then_the_half(game):
    """A.7 and note (3): a SAW's covering fire at an area of visible men: -1, then ½:
    (4 - 1) / 2 = 1.5 -> 2 for each man in it."""
    goto(game, "cover", 1)
    assert chances(play(game, "@blue fire sam tariq fares range=20 area dice=9,9")) == [2, 2]


@pytest.mark.audits("BI-R053", "BI-R054", "BI-AMB-17")
def test_a_hidden_man_shocked_by_covering_fire_at_his_feature_does_not_fire(game):
    """A.7: covering fire at a terrain feature takes effect before the hidden man there
    can fire: the SAW (½: 2) shocks Tariq (damage 3), who then may not fire; it strikes
    him once, not again."""
    goto(game, "cover", 1)
    play(game, '@blue screen sam feature="the wood"', "mark tariq hidden")
    goto(game, "fire-regular", 1)
    facts = play(game, "screened sam tariq range=20 dice=2,3,9")
    assert chances(facts) == [2, 2] and outcomes(facts, "A.12.1") == ["shocked"]
    refused(game, "@red fire tariq bruno range=20", rule="BI-R182")
    refused(game, "screened sam tariq range=20", rule="BI-R051")


@pytest.mark.audits("BI-R053", "BI-R054", "BI-R050")
def test_covering_fire_at_a_feature_leaves_no_opportunity_fire(game):
    """A.7: a unit that made covering fire has used its one activity: it may not fire at
    an enemy moving later that turn."""
    goto(game, "cover", 1)
    play(game, '@blue screen sam feature="the wood"')
    goto(game, "move-second", 1)
    play(game, "@red move tariq 5")
    refused(game, "@blue fire sam tariq range=20", rule="BI-R030")


@pytest.mark.audits("BI-WN6", "BI-R053", "BI-R050")
def test_an_mg_not_emplaced_makes_neither_covering_nor_opportunity_fire(game):
    """Note (6) (BI-WN6): an MG not on a vehicle cannot fire until emplaced; covering fire
    (at a feature, BI-R053, or at a visible man) and opportunity fire are fire."""
    goto(game, "cover", 1)
    all_refused(game, '@blue screen dario feature="the wood"', "@blue fire dario tariq range=30", rule="BI-WN6")
    goto(game, "move-second", 1)
    play(game, "@red move tariq 5")
    refused(game, "@blue fire dario tariq range=30", rule="BI-WN6")


@pytest.mark.audits("BI-WN4", "BI-R053")
def test_a_light_mg_not_emplaced_puts_covering_fire_on_a_feature_as_an_assault_rifle(game):
    """Note (4) (BI-WN4): an LMG not emplaced fires as an assault rifle, covering fire at a feature
    (BI-R053) too: at an area it reaches 60 cm, not the LMG's 120, and each man in it is
    at ½ for the assault rifle's area and ½ for covering fire, 4 -> 1."""
    goto(game, "cover", 1)
    play(game, '@blue screen lino feature="the wood" area', "mark tariq hidden", "mark fares hidden")
    goto(game, "fire-regular", 1)
    refused(game, "screened lino tariq range=61", rule="BI-R075")
    assert chances(play(game, "screened lino fares range=10 dice=9")) == [1]


# ------------------------------------------- A.9.3 notes (5) and (6): one crewman


def _crews(tmp_path, monkeypatch):
    """Weapon teams down to one man (`one-crew`, ruling BI-CREW), each emplaced (note 6),
    beside a whole MG team: an MG, an LMG, an AGL, a recoilless gun and a field gun."""
    lone = (
        man("mg1", "blue", "regular", "mg", roles=("emplaced",)),
        man("lmg1", "blue", "regular", "lmg", roles=("emplaced",)),
        man("agl1", "blue", "regular", "agl", roles=("emplaced",)),
        man("srr1", "blue", "regular", "gun-77", roles=("emplaced", "recoilless")),
        man("gun1", "blue", "regular", "gun-77", roles=("emplaced",)),
    )
    g = new_game(tmp_path, monkeypatch, extra=(*lone, man("mg2", "blue", "regular", "mg", roles=("emplaced",))))
    for piece in lone:
        play(g, f"mark {piece.id} one-crew")
    return g


g = pytest.fixture(_crews, name="g")


@pytest.mark.audits("BI-WN5", "BI-WN6")
def test_one_crewman_fires_one_shot_at_a_single_target(g):
    """Note (5) (BI-WN5): an MG or LMG with only one crewman fires 1 shot a turn at a single
    target, and note (6) (BI-WN6) an AGL too; a whole MG team fires its 3."""
    goto(g, "fire-regular", 1)
    for shooter, faces, n in (("mg1", "9", 1), ("lmg1", "9", 1), ("agl1", "10,1", 1), ("mg2", "9,9,9", 3)):
        assert len(chances(play(g, f"fire {shooter} tariq range=40 dice={faces}"))) == n, shooter


@pytest.mark.audits("BI-WN5", "BI-R068")
def test_one_crewman_reloads_after_a_burst_at_an_area(g):
    """Note (5) (BI-WN5): with one crewman, an MG that fired at an area must reload (change
    its barrel) before it fires again; reloading is a Very Easy action (BI-R068): no die,
    and his turn; the turn after, it fires.  Its single shots need no reload."""
    goto(g, "fire-regular", 1)
    play(g, "fire mg1 tariq fares range=40 area dice=9,9", "fire lmg1 nabil range=40 dice=9")
    goto(g, "fire-regular", 2)
    refused(g, "fire mg1 tariq range=40", match="reload", rule="BI-WN5")
    assert chances(play(g, "fire lmg1 nabil range=40 dice=9")) == [4]
    assert rolls(play(g, "reload mg1")) == []
    refused(g, "fire mg1 tariq range=40", rule="BI-R030")
    goto(g, "fire-regular", 3)
    assert chances(play(g, "fire mg1 tariq range=40 dice=9")) == [4]
    refused(g, "reload lmg1", match="nothing to reload", rule="BI-WN5")


@pytest.mark.audits("BI-WN6", "BI-WN8", "BI-R068")
def test_a_recoilless_gun_with_one_crewman_reloads_after_each_shot(g):
    """Note (6) (BI-WN6): a recoilless gun with one crewman must reload before it fires again;
    note (8) (BI-WN8) puts recoilless guns on the gun rows, and the note speaks of recoilless guns
    only: a field gun's lone crewman fires each turn."""
    goto(g, "fire-regular", 1)
    play(g, "fire srr1 tariq range=60 dice=10,1", "fire gun1 fares range=60 dice=10,1")
    goto(g, "fire-regular", 2)
    refused(g, "fire srr1 tariq range=60", match="reload", rule="BI-R068")
    assert chances(play(g, "fire gun1 fares range=60 dice=10,1")) == [4]
    play(g, "reload srr1")
    goto(g, "fire-regular", 3)
    assert chances(play(g, "fire srr1 tariq range=60 dice=10,1")) == [4]


@pytest.mark.audits("BI-WN5", "BI-R053")
def test_one_crewmans_covering_fire_at_an_area_needs_a_reload_after_it(g):
    """Note (5) (BI-WN5) with BI-R053: covering fire at a feature is the MG's fire: at an
    area with one crewman, it must reload before it fires the next turn."""
    goto(g, "cover", 1)
    play(g, '@blue screen mg1 feature="the wood" area')
    goto(g, "fire-regular", 2)
    refused(g, "fire mg1 tariq range=40", match="reload", rule="BI-WN5")


@pytest.mark.audits("BI-WN5", "BI-R068", "BI-R069")
def test_a_wounded_lone_crewman_reloads_as_an_easy_action(g):
    """BI-R068 and A.12.1: reloading is Very Easy; wounded, Easy: 2 x 4 = 8; a 9 fails and
    the MG (BI-WN5) still must be reloaded; an 8 reloads it."""
    goto(g, "fire-regular", 1)
    play(g, "fire mg1 tariq fares range=40 area dice=9,9", "mark mg1 wounded")
    goto(g, "fire-regular", 2)
    assert [r.target for r in rolls(play(g, "reload mg1 dice=9"))] == [8]
    goto(g, "fire-regular", 3)
    refused(g, "fire mg1 tariq range=40", match="reload", rule="BI-WN5")
    play(g, "reload mg1 dice=8")
    assert not g.state.units["mg1"].has("must-reload")


# ---------------------------------------------------------- A.8 tiers and actions


@pytest.mark.audits("BI-R061")
def test_a_man_wounded_in_his_own_tier_still_fires_whole(game):
    """A.8: fire within a tier is simultaneous for both players: Tariq, wounded by Bruno
    in the Regulars' tier, fires in it as he was, at 4 (not 2)."""
    goto(game, "fire-regular", 1)
    facts = play(game, "fire bruno tariq range=20 dice=1,6,9")
    assert outcomes(facts, "A.12.1") == ["wounded"]
    assert chances(play(game, "@red fire tariq bruno range=20 dice=9,9")) == [4, 4]


@pytest.mark.audits("BI-R061", "BI-R110")
def test_a_man_wounded_by_a_higher_tier_fires_at_half(game):
    """A.8: the Veterans' results take effect before the Regulars fire: Bruno, wounded by
    Karim, fires at half (2)."""
    goto(game, "fire-veteran", 1)
    play(game, "@red fire karim bruno range=20 dice=1,6,9", "clear bruno morale-due")
    goto(game, "fire-regular", 1)
    assert chances(play(game, "fire bruno tariq range=20 dice=9,9")) == [2, 2]


@pytest.mark.audits("BI-R110", "BI-R080")
def test_a_man_shocked_lies_down_and_is_then_harder_to_hit(game):
    """A.12.1: shocked, he throws himself to the ground; A.9.4: a target lying down -1.
    Shocked by the Elite, Tariq is at 3 for Bruno in the Regulars' tier."""
    goto(game, "fire-elite", 1)
    play(game, "fire elia tariq range=20 dice=1,3,9", "clear tariq morale-due")
    goto(game, "fire-regular", 1)
    assert chances(play(game, "fire bruno tariq range=20 dice=9,9")) == [3, 3]


@pytest.mark.audits("BI-R068", "BI-R069", "BI-WN6")
def test_a_wounded_man_emplacing_rolls_as_an_easy_action_and_fires_only_once_it_holds(game):
    """A.8.1: emplacing is Very Easy; wounded, one level harder: Easy, 2 x 4 = 8.  A 9
    fails: not emplaced, his turn spent, and next turn his MG still cannot fire (note 6).
    An 8 emplaces it; the turn after, it fires: short range +1, wounded ½: 3."""
    play(game, "mark dario wounded")
    goto(game, "fire-regular", 1)
    facts = play(game, "emplace dario dice=9")
    assert [r.target for r in rolls(facts)] == [8] and not game.state.units["dario"].has("emplaced")
    goto(game, "fire-regular", 2)
    refused(game, "fire dario tariq range=30", rule="BI-WN6")
    play(game, "emplace dario dice=8")
    assert game.state.units["dario"].has("emplaced")
    goto(game, "fire-regular", 3)
    assert chances(play(game, "fire dario tariq range=30 dice=9,9,9")) == [3, 3, 3]


@pytest.mark.audits("BI-WN6", "BI-R068")
def test_an_emplaced_mg_stays_emplaced_from_turn_to_turn(game):
    """Note (6): once emplaced the MG fires; nothing in the book takes it off its
    position while it stays put, so it fires again the next turn without a new action."""
    goto(game, "fire-regular", 1)
    play(game, "emplace dario")
    goto(game, "fire-regular", 2)
    assert chances(play(game, "fire dario tariq range=40 dice=9,9,9")) == [4, 4, 4]
    goto(game, "fire-regular", 3)
    assert chances(play(game, "fire dario tariq range=40 dice=9,9,9")) == [4, 4, 4]


@pytest.mark.audits("BI-R110", "BI-R030")
def test_a_seriously_wounded_man_neither_fires_nor_acts(game):
    """A.12.1: seriously wounded, he can no longer move, fight or act."""
    play(game, "mark bruno seriously-wounded")
    goto(game, "fire-regular", 1)
    all_refused(
        game, "fire bruno tariq range=20", "act bruno very-easy", "aim bruno", "dress bruno carlo", rule="BI-R110"
    )


# ------------------------------------------------------------ A.6 movement


@pytest.mark.audits("BI-R042", "BI-AMB-13", "BI-R040")
def test_a_wounded_man_runs_half_and_lying_down_walks_a_quarter(game):
    """A.6.1: wounded -50% of the mode: running 24 -> 12; wounded and standing up
    (-25%) -75%: normal 16 -> 4."""
    play(game, "mark bruno wounded", "mark carlo wounded", "mark carlo prone")
    goto(game, "move-first", 1)
    refused(game, "move bruno 12.5 running", rule="BI-R040")
    play(game, "move bruno 12 running")
    refused(game, "move carlo 4.5", rule="BI-R040")
    play(game, "move carlo 4")


@pytest.mark.audits("BI-R042", "BI-AMB-12")
def test_wounded_standing_up_under_fire_leaves_no_move(game):
    """A.6.1: wounded -50%, standing up -25%, under fire in the previous phase -25%: the
    whole allowance: he cannot move."""
    play(game, "mark bruno wounded", "mark bruno prone")
    goto(game, "move-first", 1)
    refused(game, "move bruno 1 via=under-fire", rule="BI-R042")


@pytest.mark.audits("BI-R110", "BI-R042", "BI-AMB-20")
def test_a_shocked_man_only_moves_away_and_stands_up_to_do_it(game):
    """A.12.1: shocked, no movement towards the enemy, and he lies on the ground: a move
    away stands him up (-25%): 12 cm of his 16."""
    play(game, "mark bruno shocked", "mark bruno prone")
    goto(game, "move-first", 1)
    refused(game, "move bruno 5", rule="BI-R182")
    refused(game, "move bruno 12.5 away", rule="BI-R040")
    play(game, "move bruno 12 away")


@pytest.mark.audits("BI-R045", "BI-R120")
def test_a_civilian_car_halved_keeps_its_road_and_off_road_difference(game):
    """A.6.2 and A.12.2: a civilian wheeled vehicle, 120 cm on road and 20 off road,
    movement halved: 60 and 10."""
    play(game, "mark jeep slowed")
    goto(game, "move-first", 1)
    refused(game, "move jeep 60.5 road", rule="BI-R045")
    play(game, "move jeep 60 road")
    goto(game, "move-first", 2)
    refused(game, "move jeep 10.5", rule="BI-R045")
    play(game, "move jeep 10")


# ------------------------------------------------------------ A.9 direct fire


@pytest.mark.audits("BI-R085", "BI-R080")
def test_a_sniper_who_aimed_gets_the_aimed_shot_once(game):
    """A.9.4: "aimed shot (a Very Easy action in the previous turn, or a sniper)" is one
    row, +1: a Regular sniper who aimed fires at 4 + 1 = 5, not 6."""
    goto(game, "fire-regular", 1)
    play(game, "aim nico")
    goto(game, "fire-regular", 2)
    assert chances(play(game, "fire nico tariq range=50 dice=9")) == [5]


@pytest.mark.audits("BI-R085", "BI-R082", "BI-R110")
def test_a_wounded_man_who_aimed_adds_the_aim_then_halves(game):
    """A.9.4 and A.12.1: a wounded man's Aim is Easy (8, rolled); next turn his aimed shot
    is (4 + 1) / 2 = 2.5 -> 3."""
    play(game, "mark bruno wounded")
    goto(game, "fire-regular", 1)
    assert [r.target for r in rolls(play(game, "aim bruno dice=8"))] == [8]
    goto(game, "fire-regular", 2)
    assert chances(play(game, "fire bruno tariq range=20 dice=9,9")) == [3, 3]


@pytest.mark.audits("BI-R082", "BI-AMB-03", "BI-R110")
def test_a_wounded_rabble_at_long_range_still_hits_on_a_one(game):
    """A.2 and A.9.4: 2 - 1 (long) = 1, halved 0.5, rounded up: 1; a 1 hits."""
    play(game, "mark rabbi wounded")
    goto(game, "fire-rabble", 1)
    facts = play(game, "fire rabbi tariq range=15 dice=1," + KILL)
    assert chances(facts) == [1] and outcomes(facts, "A.9.4") == [HIT]


@pytest.mark.audits("BI-R080")
def test_lying_down_and_heavy_cover_add_up(game):
    """A.9.4: the target rows add: short +1, lying down -1, heavy cover -2: 4 - 2 = 2."""
    goto(game, "fire-regular", 1)
    assert chances(play(game, "fire bruno tariq range=15 prone heavy dice=9,9")) == [2, 2]


@pytest.mark.audits("BI-R080", "BI-WN1")
def test_a_bolt_action_rifle_at_long_range_loses_two(tmp_path, monkeypatch):
    """Note (1) (BI-WN1) and A.9.4: a non-semi-automatic rifle -1, at long range -1 more: 40 cm
    normal (3), 40.5 long (2)."""
    g = new_game(tmp_path, monkeypatch, extra=(man("bolt", "blue", "regular", "bolt-rifle"),))
    goto(g, "fire-regular", 1)
    assert chances(play(g, "fire bolt tariq range=40 dice=9")) == [3]
    goto(g, "fire-regular", 2)
    assert chances(play(g, "fire bolt tariq range=40.5 dice=9")) == [2]


@pytest.mark.audits("BI-R072")
def test_an_automatic_weapons_shots_go_at_one_target(game):
    """A.9.1: an automatic weapon fires several shots at the same single target, or once
    at an area: two targets without the area are refused."""
    goto(game, "fire-regular", 1)
    refused(game, "fire sam tariq fares range=20", rule="BI-R071")


@pytest.mark.audits("BI-R075", "BI-R080", "BI-AMB-05", "BI-WN2")
def test_an_assault_rifle_at_an_area_has_no_short_band(game):
    """Note (2) (BI-WN2) and A.9.2: the assault rifle's area row has no Short band: at 10 cm it is
    at normal range, 4 / 2 = 2 (short would give 3); its Normal ends at 20 cm: a
    Veteran at 20 is 5 / 2 -> 3, at 20.5 (long) (5 - 1) / 2 = 2."""
    goto(game, "fire-veteran", 1)
    assert chances(play(game, "fire vito tariq fares range=20 area dice=9,9")) == [3, 3]
    assert chances(play(game, "fire valerio tariq fares range=20.5 area dice=9,9")) == [2, 2]
    goto(game, "fire-regular", 1)
    assert chances(play(game, "fire bruno tariq fares range=10 area dice=9,9")) == [2, 2]


@pytest.mark.audits("BI-R076", "BI-R080", "BI-AMB-05", "BI-WN3")
def test_a_saw_at_an_area_keeps_its_short_band_at_minus_one(game):
    """Note (3) (BI-WN3) and the blank area cells (BI-R076): the SAW's area fire uses its own
    ranges, Short to 15: 4 + 1 - 1 = 4 at 15 cm, 4 - 1 = 3 at 15.5."""
    goto(game, "fire-regular", 1)
    assert chances(play(game, "fire sam tariq fares range=15 area dice=9,9")) == [4, 4]
    goto(game, "fire-regular", 2)
    assert chances(play(game, "fire sam tariq fares range=15.5 area dice=9,9")) == [3, 3]


@pytest.mark.audits("BI-WN4", "BI-R076", "BI-R080")
def test_a_light_mg_not_emplaced_fires_at_an_area_as_an_assault_rifle(game):
    """Note (4) with note (2): an LMG not emplaced fires as an assault rifle, so at an
    area at half with no Short band (10 cm: 4 / 2 = 2) and not beyond 60 cm.  Emplaced,
    its area fire has its own ranges (BI-R076) and no half: 10 cm is short, 5; 61 cm
    is within its long range."""
    goto(game, "fire-regular", 1)
    refused(game, "fire lino tariq fares range=61 area", rule="BI-R075")
    assert chances(play(game, "fire lino tariq fares range=10 area dice=9,9")) == [2, 2]
    goto(game, "fire-regular", 2)
    play(game, "emplace lino")
    goto(game, "fire-regular", 3)
    assert chances(play(game, "fire lino tariq fares range=10 area dice=9,9")) == [5, 5]
    goto(game, "fire-regular", 4)
    assert chances(play(game, "fire lino tariq fares range=61 area dice=9,9")) == [3, 3]


@pytest.mark.audits("BI-R075")
def test_a_weapon_with_no_short_band_is_at_normal_range_close_in(tmp_path, monkeypatch):
    """A.9.2: "NO" in the Short column: close in, the grenade launcher (5 cm), the RPG
    (5 cm) and the hand grenade (1 cm) are at normal range: 4, not 5."""
    g = new_game(tmp_path, monkeypatch, extra=(man("lancio", "blue", "regular", "hand-grenade"),))
    goto(g, "fire-regular", 1)
    for shooter, cm in (("gino", 5), ("rocco", 5), ("lancio", 1)):
        facts = play(g, f"fire {shooter} tariq range={cm} dice=10,1")  # a miss, a dud
        assert chances(facts) == [4], shooter


@pytest.mark.audits("BI-R093", "BI-R092", "BI-R080", "BI-AMB-24", "BI-WN7")
@pytest.mark.parametrize(
    ("cover", "to_hit", "caught"),
    [("light", 3, 3), ("heavy", 2, 3), ("trench", 2, 2)],
)
def test_an_he_hit_on_a_man_in_cover_counts_his_cover_twice(game, cover, to_hit, caught):
    """A.9.4, then A.10.3 (note 7, BI-WN7): an RPG at normal range: light cover -1 (3), heavy -2
    (2), a trench is heavy cover (2); the burst then catches him as "in cover" (3) or,
    in a trench, "entrenched" (2), at short distance; at that face he is caught."""
    goto(game, "fire-regular", 1)
    facts = play(game, f"fire rocco tariq range=20 {cover} dice={to_hit},{caught},{KILL}")
    assert chances(facts) == [to_hit]
    assert [r.target for r in rolls(facts, "A.10.3")] == [caught]
    assert not game.state.units["tariq"].in_play


@pytest.mark.audits("BI-R073", "BI-R086", "BI-R090", "BI-AMB-21", "BI-WN7")
def test_an_agls_two_shots_each_hit_or_deviate_on_their_own(tmp_path, monkeypatch):
    """A.9.2: an AGL fires 2 HE shots (on a vehicle, no emplacing); each is its own roll
    (short range +1: 5): the first misses and rolls its deviation (a dud), the second
    hits and bursts (note 7, BI-WN7) on Tariq (6 in the open, short distance), who dies."""
    agl = vehicle("agltruck", "blue", "regular", "agl", roles=("technical",))
    g = new_game(tmp_path, monkeypatch, extra=(agl,))
    goto(g, "fire-regular", 1)
    facts = play(g, "fire agltruck tariq range=15 dice=9,1,1,6," + KILL)
    assert [(r.rule, r.target) for r in rolls(facts)] == [
        ("A.9.4", 5),
        ("A.10.1", None),
        ("A.9.4", 5),
        ("A.10.3", 6),
        ("A.12.1", None),
    ]
    assert not g.state.units["tariq"].in_play


@pytest.mark.audits("BI-R081", "BI-R084")
@pytest.mark.parametrize(
    ("light", "fires", "line", "chance"),
    [
        # moon, 20-50 cm -2; intensifier +1; target firing automatic +2; long -1
        ("moon", True, "fire bruno karim range=40 intensifier=portable dice=9,9", 4),
        # no moon -2 (the lighting penalty beyond 20 cm); intensifier +1; long -1
        ("dark", False, "fire carlo karim range=60 intensifier=portable dice=9", 2),
    ],
)
def test_night_rows_add_up_with_an_intensifier(tmp_path, monkeypatch, light, fires, line, chance):
    """A.9.4: the night rows add to the range row: an assault rifle at 40 cm (long) by
    the moon with a portable intensifier at Karim, who fired automatic this phase:
    4 - 1 - 2 + 1 + 2 = 4; a rifle at 60 cm (long) with no moon: 4 - 1 - 2 + 1 = 2."""
    g = new_game(tmp_path, monkeypatch, night=light)
    goto(g, "fire-veteran", 1)
    if fires:
        play(g, "@red fire karim sam range=20 dice=9,9")
    goto(g, "fire-regular", 1)
    assert set(chances(play(g, line))) == {chance}


# ------------------------------------------------------------ A.16.5 stabilised


def _centauro(tmp_path, monkeypatch):
    car = vehicle("centauro", "blue", "regular", "mg", roles=("armoured-car", "stabilised"))
    return new_game(tmp_path, monkeypatch, extra=(car,))


@pytest.mark.audits("BI-R240", "BI-AMB-60", "BI-R045")
def test_a_stabilised_armoured_car_fires_after_under_half_of_the_ground_it_moved_on(tmp_path, monkeypatch):
    """A.16.5 with A.6.2: a wheeled 4x4 makes 80 cm on road, 60 off road.  On road 39 cm
    is under half (40): it fires, at -1 (MG short +1: 4); off road 30 cm is half of 60,
    not under: it may not fire; 29 cm is."""
    g = _centauro(tmp_path, monkeypatch)
    goto(g, "move-first", 1)
    play(g, "move centauro 39 road")
    goto(g, "fire-regular", 1)
    assert chances(play(g, "fire centauro tariq range=20 dice=9,9,9")) == [4, 4, 4]
    goto(g, "move-first", 2)
    play(g, "move centauro 30")
    goto(g, "fire-regular", 2)
    refused(g, "fire centauro tariq range=20", rule="BI-R030")
    goto(g, "move-first", 3)
    play(g, "move centauro 29")
    goto(g, "fire-regular", 3)
    assert chances(play(g, "fire centauro tariq range=20 dice=9,9,9")) == [4, 4, 4]


@pytest.mark.audits("BI-R240", "BI-R050", "BI-R030")
def test_a_stabilised_vehicle_that_moved_makes_no_opportunity_fire(tmp_path, monkeypatch):
    """A.16.5 (BI-R240): a stabilised vehicle may move and then fire in the fire phase;
    opportunity fire in the enemy's movement is not that: having moved, it may not make it."""
    g = _centauro(tmp_path, monkeypatch)
    goto(g, "move-first", 1)
    play(g, "move centauro 10 road")
    goto(g, "move-second", 1)
    play(g, "@red move tariq 10")
    refused(g, "@blue fire centauro tariq range=20", rule="BI-R240")


# ------------------------------------------------- A.7 covering fire at a feature, more


@pytest.mark.audits("BI-R053", "BI-R024", "BI-R028")
def test_an_isolated_man_tests_before_his_covering_fire_at_a_feature(game):
    """A.4 (BI-R024): an isolated soldier rolls under his Quality before he fires; covering
    fire at a feature (BI-R053) is his fire.  Sarge killed, Bruno's squad is isolated: a 5 fails his test, and he
    puts no covering fire on the wood."""
    play(game, "out sarge")
    goto(game, "cover", 1)
    facts = play(game, '@blue screen bruno feature="the wood" dice=5')
    assert isolation(facts) == [4] and game.state.units["bruno"].has("balked")
    play(game, "mark tariq hidden")
    refused(game, "screened bruno tariq range=20", rule="ENG-2")


@pytest.mark.audits("BI-R053", "BI-R140")
def test_a_vehicle_puts_covering_fire_only_with_a_weapon_it_still_has(game):
    """A.12.4 (BI-R140): "one on-board weapon destroyed": the tracked carrier's only MG is
    gone, so it has no automatic weapon left to put covering fire on a feature (BI-R053)."""
    play(game, "hit vcc weapon=rpg dice=1,7", "clear vcc morale-due")
    assert game.state.units["vcc"].has("weapon-lost-mg")
    goto(game, "cover", 1)
    refused(game, '@blue screen vcc feature="the wood"', rule="BI-R140")


@pytest.mark.audits("BI-R053", "BI-R083", "BI-R110")
def test_a_wounded_gunners_covering_fire_at_a_feature_is_halved_twice(game):
    """A.7 (covering fire at a feature: ½) and A.12.1 (wounded: ½): the SAW at normal
    range, 4 -> 1."""
    play(game, "mark sam wounded")
    goto(game, "cover", 1)
    play(game, '@blue screen sam feature="the wood"', "mark tariq hidden")
    goto(game, "fire-regular", 1)
    assert chances(play(game, "screened sam tariq range=20 dice=9,9")) == [1, 1]


@pytest.mark.audits("BI-R053", "BI-R081", "BI-R084")
def test_covering_fire_at_a_feature_keeps_the_nights_limit(tmp_path, monkeypatch):
    """A.9.4: with no moon nothing is fired at beyond 20 cm; within it, -2: the SAW's
    covering fire at a feature 20 cm away, (4 - 2) / 2 = 1; 20.5 cm away it cannot
    reach."""
    g = new_game(tmp_path, monkeypatch, night="dark")
    goto(g, "cover", 1)
    play(g, '@blue screen sam feature="the wood"', "mark tariq hidden", "mark fares hidden")
    goto(g, "fire-regular", 1)
    refused(g, "screened sam tariq range=20.5", rule="BI-R081")
    assert chances(play(g, "screened sam fares range=20 dice=9,9")) == [1, 1]


@pytest.mark.audits("BI-R053", "BI-R081", "BI-R084")
def test_covering_fire_at_a_feature_by_night_reaches_as_far_as_an_intensifier(tmp_path, monkeypatch):
    """A.9.4: a portable image intensifier lets a man fire up to 100 cm at night, +1; the
    SAW's covering fire at a feature (BI-R053) is his fire: 60 cm away with no moon (long
    range): (4 - 1 - 2 + 1) / 2 = 1."""
    g = new_game(tmp_path, monkeypatch, night="dark")
    goto(g, "cover", 1)
    play(g, '@blue screen sam feature="the wood"', "mark tariq hidden")
    goto(g, "fire-regular", 1)
    assert chances(play(g, "screened sam tariq range=60 intensifier=portable dice=9,9")) == [1, 1]


@pytest.mark.audits("BI-R051", "BI-R052", "BI-R053")
def test_both_players_declare_covering_fire(game):
    """A.7: "before the movement phase starts, both players may declare covering fire":
    Red, who did not win the initiative, fires at a visible man (½: 2) and puts covering
    fire on a feature."""
    goto(game, "cover", 1)
    assert chances(play(game, "@red fire ali bruno range=20 dice=9,9")) == [2, 2]
    play(game, '@red screen yusuf feature="the ridge"')
    assert game.state.units["yusuf"].has("fired")


@pytest.mark.audits("BI-R027")
def test_an_unarmed_vehicle_is_never_made_a_combat_vehicle(game):
    """A.4: only an armed transport may be declared a combat vehicle once its troops are
    off; an unarmed truck or car may not."""
    for vehicle_id in ("camion", "jeep"):
        refused(game, f"combat {vehicle_id}", rule="BI-R027")
