"""A second, held-out audit of Bassa Intensità (issue #46): observation, indirect fire,
anti-aircraft fire, the special rules and what the end of a turn undoes (A.11, A.14-A.16),
each case written from the book ("OSSERVAZIONE", "TIRO INDIRETTO", "AEREI ED
ELICOTTERI", "REGOLE SPECIALI") and its digest alone: the matrix's two shifts at once,
a shift meeting the scout's or the sniper's rule, an action made harder by a wound or
tested for isolation, the golden rule in the movement phase, and states across turns."""

from __future__ import annotations

import pytest
from audit_bi_late import goto, late_game, late_table, outcomes, play, refused, unit, waive_morale
from audit_common import moved

from core.log.views import unit_visible

game = late_table(turns=0)
moon = late_table("moon", night="moon", turns=0)


def edge(g, observer, target, chance, how="", side="blue"):
    """At one above the chance nothing is seen; at the chance he is spotted (the failed
    attempt taken back: a side has one attempt at him at the end of a phase, BI-R164)."""
    facts = play(g, f"observe {observer} {target}{how} dice={chance + 1}")
    assert outcomes(facts) == [("BI-R165", chance, "nothing seen")] and not unit_visible(unit(g, target), side)
    play(g, "undo")
    facts = play(g, f"observe {observer} {target}{how} dice={chance}")
    assert outcomes(facts) == [("BI-R165", chance, "spotted")] and unit_visible(unit(g, target), side)


# ------------------------------------------------------------ A.14.1 observation


@pytest.mark.audits("BI-R165")
def test_at_night_a_target_that_fired_is_as_easy_as_by_day(moon):
    """A.14.1: one level easier if the target fired in the phase, one harder at night:
    a man still in the open, seen by infantry: Normal -> Easy -> Normal, 4 for a Regular."""
    play(moon, "mark omar hidden")
    goto(moon, "fire-regular")
    play(moon, "@red fire omar capo range=20 dice=9,9")
    goto(moon, "end")
    edge(moon, "capo", "omar", 4)


@pytest.mark.audits("BI-R165", "BI-R167")
def test_a_man_still_in_cover_who_fired_is_seen_by_an_open_vehicle_by_day_not_at_night(tmp_path, monkeypatch):
    """A.14.1: infantry still in cover, by an "open" vehicle: NO; having fired, Difficult
    (½ x 4 = 2 for a Regular crew); at night one level harder again: NO."""
    for light in ("day", "moon"):
        g = late_game(tmp_path / light, monkeypatch, night=light)
        play(g, "mark omar hidden")
        goto(g, "fire-regular")
        play(g, "@red fire omar capo range=20 dice=9,9")
        goto(g, "end")
        if light == "day":
            edge(g, "lince", "omar", 2, " cover")
        else:
            refused(g, "observe lince omar cover", rule="BI-R165")


@pytest.mark.audits("BI-R165", "BI-R167")
def test_a_closed_vehicle_at_night_finds_a_man_moving_in_the_open_difficult(moon):
    """A.14.1: infantry moving in the open, by a closed vehicle: Normal; at night
    Difficult: ½ x 5 = 2.5 -> 3 for the Veteran tank."""
    play(moon, "mark hassan hidden")
    goto(moon, "move-second")
    play(moon, "@red move hassan 4")
    edge(moon, "ariete", "hassan", 3)


@pytest.mark.audits("BI-R212", "BI-R165")
def test_a_still_scout_at_night_brings_a_man_in_cover_back_from_no(moon):
    """A.14.1 and A.16.3: infantry still in cover, by infantry: Difficult; at night NO;
    a still scout's observation one level better: Difficult again, ½ x 6 = 3 (Elite)."""
    play(moon, "mark omar hidden")
    goto(moon, "observe")
    refused(moon, "observe leo omar cover", rule="BI-R165")
    edge(moon, "sandro", "omar", 3, " cover")


@pytest.mark.audits("BI-R210", "BI-R165")
def test_a_hidden_sniper_who_fired_cannot_be_seen_at_night(moon):
    """A.16.1: a hidden sniper is seen only as a Difficult observation, in a turn he
    fires; A.14.1: at night one level harder: NO."""
    play(moon, "mark said hidden")
    goto(moon, "fire-regular")
    play(moon, "@red fire said capo range=40 dice=1,9")
    goto(moon, "end")
    refused(moon, "observe capo said", rule="BI-R210")


@pytest.mark.audits("BI-R258", "BI-R165")
def test_a_still_helicopter_is_heard_at_night_as_a_moving_vehicle(moon):
    """A.15.2: a helicopter counts as a moving vehicle for observation even when still;
    a vehicle moving in the open, by a closed vehicle: Easy; at night Normal: 3 for the
    Recruit crew of the BMP."""
    play(moon, "mark lynx hidden")
    goto(moon, "observe")
    edge(moon, "bmp", "lynx", 3, side="red")


# ------------------------------------------------------------ A.11 indirect fire


@pytest.mark.audits("BI-R102", "BI-R103")
def test_a_failed_contact_brings_no_ranging_shot(game):
    """A.11: only once the artillery is contacted does it fire its ranging shot the next
    turn: a dedicated battery is Normal (5 for the Veteran): a 6 fails, and the next turn
    there is no ranging shot."""
    goto(game, "fire-veteran", 1)
    play(game, "@blue call fo dedicated mm=81 dice=6")
    goto(game, "fire-veteran", 2)
    refused(game, "@blue ranging fo dice=5,1", rule="BI-R103")


@pytest.mark.audits("BI-R102", "BI-R103", "BI-R110", "BI-R069")
def test_a_wounded_observer_contacts_one_level_harder_but_judges_the_shot_at_his_quality(game):
    """A.11 with A.12.1: the contact is an action, so a wounded observer finds a dedicated
    battery Difficult (½ x 5 = 3); whether the ranging shot is precise is his roll under
    his Quality (5), no action: a 5 is precise."""
    play(game, "mark fo wounded")
    goto(game, "fire-veteran", 1)
    facts = play(game, "@blue call fo dedicated mm=81 dice=3")
    assert [r[1:] for r in outcomes(facts, "BI-R102")] == [(3, "done")]
    goto(game, "fire-veteran", 2)
    facts = play(game, "@blue ranging fo dice=5,1")
    assert [r[1] for r in outcomes(facts, "BI-R103")] == [5]


@pytest.mark.audits("BI-R102", "BI-R024")
def test_an_isolated_observer_tests_his_isolation_before_the_contact(game):
    """A.4: before an action an isolated soldier rolls 1d10 under his Quality; the
    contact is an action: a 6 fails the Veteran's test, and no contact is rolled."""
    goto(game, "fire-veteran", 1)
    facts = play(game, "@blue call fo dedicated mm=81 isolated dice=6")
    assert [r[0] for r in outcomes(facts)] == ["BI-R024"]
    assert unit(game, "fo").has("balked")


# ------------------------------------------------------------ A.15 anti-aircraft fire


@pytest.mark.audits("BI-R260", "BI-R261", "BI-R030")
def test_anti_aircraft_fire_in_the_movement_phase_is_the_gunners_turn(game):
    """A.15.3: AA fire in the movement phase is opportunity fire: halved ((2 + 2) / 2 = 2
    for an Elite's AA cannon at a helicopter), and it spends his turn: he neither moves
    nor fires again in the fire phase."""
    goto(game, "move-first")
    play(game, "@blue move lynx 30 dice=3,3")
    assert outcomes(play(game, "@red aa aelite lynx range=50 dice=9")) == [("BI-R260", 2, "miss")]
    goto(game, "move-second")
    refused(game, "@red move aelite 5", rule="BI-R030")
    goto(game, "fire-elite")
    refused(game, "@red aa aelite lynx range=50", rule="BI-R030")


@pytest.mark.audits("BI-R260", "BI-R261", "BI-R110")
def test_a_wounded_anti_aircraft_gunner_hits_at_half(game):
    """A.12.1: a wounded man has ½ chance to hit if he fires; A.15.3 (BI-R260): the
    Elite's AA cannon against a helicopter is 2 + 2 = 4: wounded, 2."""
    play(game, "mark aelite wounded")
    goto(game, "fire-elite")
    assert outcomes(play(game, "@red aa aelite lynx range=50 dice=3")) == [("BI-R260", 2, "miss")]


# ------------------------------------------------------------ A.16 special rules


@pytest.mark.audits("BI-R085", "BI-R111", "BI-R023")
def test_a_recruit_sniper_is_still_a_sniper_when_he_shoots(game):
    """A.4: a Recruit unit's sniper stays in his squad; he is still a sniper: +1 to hit
    (A.9.4: 3 + 1 = 4 at normal range) and +1 on the damage die (8 -> 9, seriously
    wounded)."""
    goto(game, "fire-recruit")
    facts = play(game, "@blue fire rino omar range=40 dice=4,8,3")
    assert outcomes(facts, "A.9.4")[0][1] == 4
    assert outcomes(facts, "A.12.1")[0][2] == "seriously wounded"


@pytest.mark.audits("BI-R232", "BI-R083", "BI-R110")
def test_tear_gas_and_a_wound_halve_a_shot_twice_and_the_range_adds_first(game):
    """A.16.4: ½ chance to hit in tear gas; wounded, ½ again: Omar 4 -> 1; Hassan (Recruit,
    SMG) at short range: (3 + 1) / 2 = 2."""
    play(game, "mark omar wounded")
    goto(game, "fire-regular", 1)
    play(game, "@blue gas bruno omar hassan dice=6")
    goto(game, "fire-regular", 2)
    assert [r[1] for r in outcomes(play(game, "@red fire omar capo range=20 dice=9,9"), "A.9.4")] == [1, 1]
    goto(game, "fire-recruit", 2)
    assert [r[1] for r in outcomes(play(game, "@red fire hassan capo range=10 dice=9,9"), "A.9.4")] == [2, 2]


@pytest.mark.audits("BI-R232", "BI-R042")
def test_a_gassed_man_lying_down_moves_half_of_his_standing_up_allowance(game):
    """A.16.4 and A.6.1: standing up -25% (16 -> 12), then ½ in tear gas: 6."""
    play(game, "mark omar prone")
    goto(game, "fire-regular", 1)
    play(game, "@blue gas bruno omar dice=6")
    goto(game, "move-second", 2)
    refused(game, "@red move omar 6.5", rule="BI-R042")
    assert moved(play(game, "@red move omar 6")) == [6]


@pytest.mark.audits("BI-R231", "BI-AMB-20")
def test_a_man_flashbanged_neither_fires_this_turn_nor_the_next(game):
    """A.16.4: a flash-bang shocks; A.12.1: shocked, no combat the next turn (and, hit
    before he fired, not this turn either): Omar fires again in turn 3."""
    goto(game, "fire-elite", 1)
    play(game, "@blue flashbang leo omar")
    for turn in (1, 2):
        waive_morale(game)
        goto(game, "fire-regular", turn)
        refused(game, "@red fire omar capo range=20", rule="BI-R110")
    waive_morale(game)
    goto(game, "fire-regular", 3)
    assert [r[1] for r in outcomes(play(game, "@red fire omar capo range=20 dice=9,9"), "A.9.4")] == [4, 4]


# ------------------------------------------------------------ the end of a turn


@pytest.mark.audits("BI-R182", "BI-R041", "BI-AMB-45")
def test_a_man_who_ran_last_turn_still_flees_at_a_run(game):
    """A.13.3: panic is flight "at maximum speed": running, 24 cm, even for a man who ran
    the turn before (the limit is on the mode he chooses, not on flight)."""
    goto(game, "move-first", 1)
    play(game, "@blue move bruno 24 running")
    goto(game, "move-first", 2)
    play(game, "hit bruno dice=1")
    facts = play(game, "morale bruno dice=10,4")
    assert outcomes(facts)[1][2] == "panic" and moved(facts) == [24]


@pytest.mark.audits("BI-R028", "BI-R024")
def test_a_squad_whose_leader_is_replaced_is_no_longer_isolated(game):
    """A.4: the squad is isolated only until the leader is replaced: in turn 1 Bruno
    rolls under 4 before he fires; the new leader takes over at turn 2's start (a 4),
    and within his command distance Bruno fires with no test."""
    play(game, "hit capo dice=10")
    waive_morale(game)
    goto(game, "fire-regular", 1)
    facts = play(game, "@blue fire bruno omar range=20 dice=4,9,9")
    assert [r[0] for r in outcomes(facts)] == ["BI-R024", "A.9.4", "A.9.4"]
    goto(game, "end", 1)
    play(game, "next dice=4")
    goto(game, "fire-regular", 2)
    leader = next(u for u in game.state.units.values() if u.team == "A" and u.in_play and u.has("leader"))
    other = "carlo" if leader.id == "bruno" else "bruno"
    facts = play(game, f"@blue fire {other} omar range=20 lead=4 dice=9" + (",9" if other == "bruno" else ""))
    assert "BI-R024" not in [r[0] for r in outcomes(facts)]


# ------------------------------------------------- what is no action and needs no test


@pytest.mark.audits("BI-AMB-07", "BI-R024", "BI-R166", "BI-R224")
def test_neither_observation_nor_mine_detection_needs_an_isolation_test(game):
    """A.4: the isolated man tests before he moves, fires or acts; observation and mine
    detection are not actions (A.14.1, A.16.2): Capo killed, Bruno is isolated, yet he
    observes and looks for mines with no test first."""
    play(game, "hit capo dice=10")
    waive_morale(game)
    play(game, "mark omar hidden")
    goto(game, "observe")
    assert [r[0] for r in outcomes(play(game, "observe bruno omar dice=9"))] == ["BI-R165"]
    goto(game, "fire-regular")
    assert [r[0] for r in outcomes(play(game, "detect bruno minefield dice=9"))] == ["BI-R224"]


@pytest.mark.audits("BI-R166", "BI-R224", "BI-R110")
def test_a_shocked_man_still_observes_and_looks_for_mines(game):
    """A.12.1: shocked, no movement towards the enemy, no combat, no action; observing and
    detecting mines are none of these: Bruno (Regular) spots Omar still in the open
    (Normal, 4) and finds a minefield (Normal, 4)."""
    play(game, "mark bruno shocked", "mark omar hidden")
    goto(game, "observe")
    edge(game, "bruno", "omar", 4)
    goto(game, "fire-regular")
    assert outcomes(play(game, "detect bruno minefield dice=4"))[0][1:] == (4, "found it")


@pytest.mark.audits("BI-R260", "BI-R024")
def test_an_isolated_anti_aircraft_gunner_tests_before_he_fires(game):
    """A.4: before he fires, an isolated man rolls under his Quality (Regular, 4): a 5
    fails, and no AA shot is rolled."""
    goto(game, "fire-regular")
    facts = play(game, "@red aa areg lynx range=50 isolated dice=5")
    assert [r[0] for r in outcomes(facts)] == ["BI-R024"]


@pytest.mark.audits("BI-R260", "BI-R232")
def test_an_anti_aircraft_gunner_in_tear_gas_hits_at_half(game):
    """A.16.4: ½ chance to hit for every man in the gas; the Regular's AA cannon against
    a helicopter (BI-R260), 2, is 1."""
    goto(game, "fire-elite", 1)
    play(game, "@blue gas leo areg dice=6")
    goto(game, "fire-regular", 2)
    assert outcomes(play(game, "@red aa areg lynx range=50 dice=2")) == [("BI-R260", 1, "miss")]


@pytest.mark.audits("BI-R260", "BI-R261", "BI-R110", "BI-AMB-53")
def test_a_wounded_gunners_anti_aircraft_opportunity_fire_is_halved_twice(game):
    """A.15.3 (BI-R260): in the movement phase the chance is halved; A.12.1: wounded, ½
    again: the Elite's AA cannon against a helicopter, (2 + 2) / 4 = 1."""
    play(game, "mark aelite wounded")
    goto(game, "move-first")
    play(game, "@blue move lynx 30 dice=3,3")
    assert outcomes(play(game, "@red aa aelite lynx range=50 dice=2")) == [("BI-R260", 1, "miss")]


@pytest.mark.audits("BI-R260", "BI-R011", "BI-AMB-04")
def test_motivation_moves_an_anti_aircraft_gunners_chance(game):
    """A.3: the referee's +1 for motivation is on the unit's chance of success, so on its
    AA fire too (BI-R260): the Regular's AA cannon against a helicopter, 2 + 0 + 1 = 3."""
    play(game, "motivation areg 1")
    goto(game, "fire-regular")
    assert outcomes(play(game, "@red aa areg lynx range=50 dice=4")) == [("BI-R260", 3, "miss")]


@pytest.mark.audits("BI-R252", "BI-AMB-51", "BI-R002")
def test_anti_tank_bombs_halve_the_long_distance_chance_rounding_up(game):
    """A.15.1: anti-tank bombs have ½ chance against infantry; a man in the open at long
    distance is caught on 3: halved 1.5, rounded up 2."""
    facts = play(game, "burst omar source=bomb-at zone=long dice=3")
    assert outcomes(facts) == [("A.10.3", 2, "unhurt")]


# ------------------------------------------------- the observer's orders are actions


def _platoon(tmp_path, monkeypatch):
    """A Regular platoon commander's squad with its forward observer, and a Regular observer
    on his own, from the early table's pieces."""
    from audit_bi_early import man, new_game

    extra = (
        man("plt", "blue", "regular", "assault-rifle", team="P", roles=("leader",)),
        man("fo2", "blue", "regular", "carbine", team="P", roles=("observer",)),
        man("fo3", "blue", "regular", "carbine", team="Q", roles=("observer",)),
    )
    return new_game(tmp_path, monkeypatch, extra=extra)


def _ranged(g, observer: str, contact: str = "4") -> None:
    """``observer`` contacts a dedicated battery in turn 1 and sees its ranging shot land on
    the target (a bull's-eye) in turn 2."""
    from audit_bi_early import goto as early_goto

    early_goto(g, "fire-regular", 1)
    play(g, f"@blue call {observer} dedicated mm=81 dice={contact}")
    early_goto(g, "fire-regular", 2)
    play(g, f"@blue ranging {observer} dice=4,1")


def _leaderless(g, turn: int) -> None:
    """Squad P's leader is killed, and no man takes over at the next turn's start (a 5)."""
    from audit_bi_early import goto as early_goto

    play(g, "out plt")
    early_goto(g, "end", turn)
    play(g, "next dice=5")


@pytest.mark.audits("BI-R104", "BI-R024", "BI-AMB-34")
def test_an_isolated_observer_tests_before_he_orders_fire_for_effect(tmp_path, monkeypatch):
    """A.11 (BI-R104): ordering fire for effect is the observer's action (a Very Easy one,
    BI-AMB-34); A.4: an isolated soldier rolls under his Quality before an action.  His
    squad's leader killed and not replaced, Fo2 fails on a 5: no fire for effect."""
    from audit_bi_early import goto as early_goto

    g = _platoon(tmp_path, monkeypatch)
    _ranged(g, "fo2")
    _leaderless(g, 2)
    early_goto(g, "fire-regular", 3)
    facts = play(g, "@blue ffe fo2 dice=5")
    assert [r[0] for r in outcomes(facts)] == ["BI-R024"]
    assert g.state.units["fo2"].has("balked")


@pytest.mark.audits("BI-R103", "BI-R024")
def test_an_isolated_observer_still_sees_his_ranging_shot_with_no_test(tmp_path, monkeypatch):
    """A.11 (BI-R103): the battery fires the ranging shot; the observer only judges where
    it lands, no action: isolated, he rolls no isolation test for it."""
    from audit_bi_early import goto as early_goto

    g = _platoon(tmp_path, monkeypatch)
    early_goto(g, "fire-regular", 1)
    play(g, "@blue call fo2 dedicated mm=81 dice=4")
    _leaderless(g, 1)
    early_goto(g, "fire-regular", 2)
    assert [r[0] for r in outcomes(play(g, "@blue ranging fo2 dice=4,1"))] == ["BI-R103", "A.11"]


@pytest.mark.audits("BI-R104", "BI-R110", "BI-R069", "BI-AMB-34")
@pytest.mark.parametrize("order", ["ffe fo3", "shift fo3 10"])
def test_a_wounded_observer_orders_fire_as_an_easy_action(tmp_path, monkeypatch, order):
    """A.11 (BI-R104): fire for effect or a 20 cm shift is the observer's Very Easy action
    (BI-AMB-34); A.12.1: wounded, one level harder, Easy: 2 x 4 = 8, and a 9 fails."""
    from audit_bi_early import goto as early_goto

    g = _platoon(tmp_path, monkeypatch)
    play(g, "mark fo3 wounded")
    _ranged(g, "fo3", contact="2")  # dedicated: Normal, for him Difficult, ½ x 4 = 2
    early_goto(g, "fire-regular", 3)
    facts = play(g, f"@blue {order} dice=9")
    assert [r[1:] for r in outcomes(facts)] == [(8, "failed")]
