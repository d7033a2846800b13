"""Linea di Tiro, third held-out audit: cases written after trying the engine by hand where an
activation option meets the ready attacks a piece already holds (C.3, "anche parzialmente";
LT-AMB-08/09), where a result's morale test meets the next card (C.6 "I risultati di
combattimento sono applicati immediatamente"; C.8), and where a reply (C.6, LT-R052) meets an
overrun, an ambush, the guns, a flight and another reply."""

from __future__ import annotations

import pytest
from audit_lt_table import add, game_with, has, moved, out, outcome, play, refused, rolled, turned
from linea_di_tiro_support import artillery, inject

# --- C.3: an option carried out in part beside the ready attacks held ----------------------


@pytest.mark.audits("LT-R020", "LT-AMB-08", "LT-AMB-09")
def test_a_piece_holding_two_ready_attacks_takes_a1_for_its_bound_alone(tmp_path):
    """C.3: "Un pezzo attivato può eseguire, anche parzialmente, una delle seguenti azioni";
    a piece already holding the most ready attacks it may (two, LT-AMB-08) may not prepare a
    third, but carries out A1 in part, its bound alone (ruling LT-READY: ``prepare=0``)."""
    g = turned(tmp_path, ["7♥", "8♥"], "@us activate gis A4 prepare=2", "next")
    refused(g, "@us activate gis A1", rule="LT-AMB-08")
    play(g, "@us activate gis A1 prepare=0")
    assert moved(play(g, "@us move gis 10")) == [10]
    assert has(g, "gis", "ready-2")


@pytest.mark.audits("LT-R020", "LT-AMB-08", "LT-AMB-09")
def test_a_piece_holding_two_ready_attacks_takes_a3_to_execute_only(tmp_path):
    """A3 "eseguire e preparare un attacco" in part: the attack executed, none prepared."""
    g = turned(tmp_path, ["7♥", "8♥"], "@us activate gis A4 prepare=2", "next", "@us activate gis A3 prepare=0")
    assert len(rolled(play(g, "@us mg gis grenadiers still-open dice=6"))) == 1
    assert has(g, "gis", "ready-2")


@pytest.mark.audits("LT-R020", "LT-AMB-08", "LT-AMB-09")
def test_a_piece_holding_one_ready_attack_prepares_one_more_with_a4(tmp_path):
    """A4 "preparare o eseguire 2 attacchi": holding one, the piece may not prepare two, but
    prepares one and executes one, and then holds two."""
    g = turned(tmp_path, ["7♥", "8♥"], "@us activate gis A1", "next")
    refused(g, "@us activate gis A4 prepare=2", rule="LT-AMB-08")
    play(g, "@us activate gis A4 prepare=1")
    assert has(g, "gis", "ready-2")
    assert len(rolled(play(g, "@us mg gis grenadiers still-open dice=6"))) == 1


# --- C.6 with C.8: a result's morale test before the next card ----------------------------


@pytest.mark.audits("LT-R051", "LT-R080", "LT-AMB-17")
def test_a_test_left_untaken_still_holds_the_piece_on_its_next_card(tmp_path):
    """ "I risultati di combattimento sono applicati immediatamente": the Sherman's flank shot
    gives the Panzer a T; the next card comes before the test is taken (ruling LT-TEST-FIRST
    keeps it owed): on its own card the Panzer fires nothing until it takes it."""
    g = turned(tmp_path, ["3♣", "7♥", "4♣"], "@german activate panzer A1", "next", "@us activate sherman1 A2")
    assert "T" in outcome(play(g, "@us at sherman1 panzer flank dice=6,1")).split("column", 1)[1][:8]  # +2, 7
    play(g, "next", "@german activate panzer A2")
    refused(g, "@german at panzer sherman1 dice=6,6", rule="LT-R051")
    play(g, "morale panzer dice=3")
    assert len(rolled(play(g, "@german at panzer sherman1 dice=6,6"))) == 1


@pytest.mark.audits("LT-R060a", "LT-R080", "LT-R082")
def test_a_voluntary_rout_settles_the_test_a_tank_owes(tmp_path):
    """C.8: "È sempre possibile andare in rotta volontariamente, per evitare un test": the
    Panzer, owing the test of an I, routs instead; it flees, loses its ready attack, and the
    next card comes."""
    g = turned(tmp_path, ["3♣", "7♥", "8♥"], "@german activate panzer A1", "next", "@us activate gis A2")
    play(g, "@us mg gis panzer tank dice=1")  # 3 - 5 < 0, 1: I, a tank tests
    play(g, "@german rout panzer")
    assert not has(g, "panzer", "ready-1")
    play(g, "next")


@pytest.mark.audits("LT-R060a", "LT-R080", "LT-R052")
def test_a_tank_that_falls_back_from_an_i_has_no_reply(tmp_path):
    """The I's morale test (a 6 at morale 4: 4 < 6 < 8) makes the Panzer fall back and lose
    its ready attack ("perde tutti i colpi pronti"): it has nothing to answer with."""
    g = turned(tmp_path, ["3♣", "7♥"], "@german activate panzer A1", "next", "@us activate gis A2")
    play(g, "@us mg gis panzer tank dice=1", "morale panzer dice=6")
    refused(g, "@german mg panzer gis still-open ready dice=6", rule="LT-R052")


@pytest.mark.audits("LT-R050c", "LT-R051", "LT-R052")
def test_a_tank_routed_by_an_r_does_not_answer(tmp_path):
    """ "chi scappa non spara!": the bazooka (AT 4) at the Panzer's flank (3), +1, a 5 is R:
    the Panzer flees without a test, loses its ready attack and does not answer."""
    g = turned(tmp_path, ["3♣", "7♥"], "@german activate panzer A1", "next", "@us activate bazooka A2")
    assert "R" in outcome(play(g, "@us at bazooka panzer flank dice=2,3")).split("column", 1)[1][:8]
    refused(g, "@german at panzer bazooka ready dice=6,6", rule="LT-R051")
    assert not has(g, "panzer", "ready-1")


# --- C.6: replies -------------------------------------------------------------------------


@pytest.mark.audits("LT-R052", "LT-R100", "LT-AMB-23")
def test_infantry_that_survives_an_overrun_in_cover_answers_the_tank(tmp_path):
    """C.6: "Il bersaglio appena attaccato, se sopravvive, può immediatamente rispondere, se ha
    un attacco preparato"; the overrun is the tank's attack ("subisce l'attacco del carro"):
    the GIs in cover, no AT weapons, survive it (a 5 > 4) and answer with their ready MG."""
    g = turned(tmp_path, ["7♥", "3♣"], "@us activate gis A1", "next", "@german activate panzer A5")
    play(g, "@german overrun panzer gis dice=5")
    assert not out(g, "gis")
    assert len(rolled(play(g, "@us mg gis panzer tank ready dice=6"))) == 1
    assert not has(g, "gis", "ready-1")


@pytest.mark.audits("LT-R052", "LT-R090", "LT-AMB-10")
def test_a_piece_that_survives_the_guns_has_no_one_to_answer(tmp_path):
    """The guns fire from off the table (C.10, "fuoco indiretto"): the grenadiers, surviving
    the barrage, may not spend their ready attack on the company command that called it."""
    g = game_with(tmp_path, ["3♣", "K♥", "Joker"])
    add(g, "cmd", "us", "rifles", team="HQ", roles=("company-command",))
    inject(g, *artillery("us", 2))
    play(g, "next", "@german activate grenadiers A1", "next", "@us unitmove call-artillery by=cmd")
    play(g, "next", "barrage us grenadiers still-open dice=6")
    refused(g, "@german mg grenadiers cmd still-open ready dice=6", rule="LT-R052")


@pytest.mark.audits("LT-R052", "LT-R053")
def test_the_spotter_that_survives_an_ambush_answers_it(tmp_path):
    """The ambush (LT-R053) is an attack on its spotter; the Sherman, surviving it (MG 4 at a
    tank's 5, no effect), answers with its ready attack."""
    g = game_with(tmp_path, ["3♣", "7♥", "8♥"])
    add(g, "amb", "german", "grenadiers", team="Zug 2", status=("hidden",))
    play(g, "next", "@german activate amb A4 prepare=2", "next", "@us activate sherman1 A1", "next")
    play(g, "spot amb by=sherman1 at=2 ambush", "@german mg amb sherman1 tank ready ambush dice=6")
    assert len(rolled(play(g, "@us mg sherman1 amb still-open ready dice=6"))) == 1


@pytest.mark.audits("LT-R052")
def test_a_reply_may_be_answered_by_the_piece_it_attacked(tmp_path):
    """The reply is itself an attack: the GIs, surviving the grenadiers' reply and holding a
    ready attack, may answer it at once."""
    g = turned(tmp_path, ["7♥", "3♣", "8♥"], "@us activate gis A1", "next", "@german activate grenadiers A1", "next")
    play(g, "@us activate gis A2", "@us mg gis grenadiers still-open dice=6")
    play(g, "@german mg grenadiers gis still-open ready dice=6")
    assert len(rolled(play(g, "@us mg gis grenadiers still-open ready dice=6"))) == 1
    assert not has(g, "gis", "ready-1")


# --- C.8: after a flight ------------------------------------------------------------------


@pytest.mark.audits("LT-R080", "LT-R020")
def test_a_piece_that_fled_is_activated_again_on_a_later_card(tmp_path):
    """A flight is a result, not an end: nothing in C.8 keeps the GIs who routed on one card
    from a bound on the next."""
    g = turned(tmp_path, ["7♥", "8♥"], "@us activate gis A2", "@us rout gis", "next", "@us activate gis A1")
    assert moved(play(g, "@us move gis 10")) == [10]


@pytest.mark.audits("LT-R033")
def test_a_move_at_speed_does_not_reposition_a_piece_that_fired(tmp_path):
    """C.4: "per interrompere questa progressione è necessario riposizionare il pezzo
    attivandolo per un balzo": the GIs' move at full speed keeps their one shot counted; a
    bound on the next card ends it."""
    g = turned(tmp_path, ["7♥", "8♥", "9♥"], "@us activate gis A4 prepare=0", "@us mg gis grenadiers still-open dice=6")
    play(g, "next", "@us activate gis A5", "@us move gis 30")
    assert has(g, "gis", "fired-1")
    play(g, "next", "@us activate gis A1", "@us move gis 10")
    assert not has(g, "gis", "fired-1")


# --- C.9: an assault after the opportunity shot -------------------------------------------


@pytest.mark.audits("LT-R102", "LT-AMB-25", "LT-AMB-21")
def test_an_opportunity_shot_that_pins_the_assaulting_squad_stops_its_melee(tmp_path):
    """C.9: "se attaccato frontalmente, il difensore può eseguire un tiro d'opportunità"; the
    grenadiers' MG 4 at the GIs moving in the open (+4), a 4 is I: immobilised, the GIs
    cannot move into contact, and the melee is refused."""
    g = turned(tmp_path, ["7♥"], "@us activate gis A2", "@german mg grenadiers gis moving-open opportunity dice=4")
    assert has(g, "gis", "immobilised")
    refused(g, "@us melee gis grenadiers front dice=6,1", rule="LT-AMB-21")
    assert not out(g, "grenadiers")


@pytest.mark.audits("LT-R100", "LT-R051", "LT-AMB-25")
def test_a_tank_steady_after_a_guns_opportunity_shot_overruns_it(tmp_path):
    """C.9: "i cannoni assaltati frontalmente possono eseguire un tiro d'opportunità": the Pak
    (AT 7) at the Sherman's front (5), +2, a 6 is T; the overrun waits for the test, and,
    steady, the Sherman runs the gun down in the open."""
    g = game_with(tmp_path, ["7♥"])
    add(g, "gun", "german", "pak40", team="Zug 1")
    play(g, "next", "@us activate sherman1 A5", "@german at gun sherman1 opportunity dice=5,1")
    refused(g, "@us overrun sherman1 gun open", rule="LT-R051")
    play(g, "morale sherman1 dice=2", "@us overrun sherman1 gun open")
    assert out(g, "gun")


@pytest.mark.audits("LT-R052", "LT-AMB-25")
def test_the_assaulting_squad_answers_an_opportunity_shot_it_survives(tmp_path):
    """The opportunity shot is an attack: the GIs, surviving it with a ready attack held, may
    answer it at once (LT-R052)."""
    g = turned(tmp_path, ["7♥", "8♥"], "@us activate gis A1", "next", "@us activate gis A2")
    play(g, "@german mg grenadiers gis moving-open opportunity dice=6")
    assert len(rolled(play(g, "@us mg gis grenadiers still-open ready dice=6"))) == 1


# --- C.3 A6 with C.9, C.8 with C.10: what a piece aboard, or fleeing, may not do ------------


@pytest.mark.audits("LT-R101", "LT-R102", "LT-R020", "LT-AMB-30")
@pytest.mark.parametrize(
    ("line", "target"),
    [
        pytest.param("@us closeassault bazooka panzer rear dice=1", "panzer", id="close-assault-LT-R101"),
        pytest.param("@us melee bazooka grenadiers front dice=6,1", "grenadiers", id="melee-LT-R102"),
    ],
)
def test_a_piece_aboard_makes_no_close_assault_nor_melee(tmp_path, line, target):
    """A close assault is made on foot, in contact with the tank's flank or rear (LT-R101),
    and a melee "al contatto" needs the squad on foot too (LT-R102); a piece aboard moves
    only with its vehicle until A6 gets it off (LT-AMB-30): the bazooka team aboard the
    Sherman assaults no Panzer and starts no melee with the grenadiers."""
    g = turned(tmp_path, ["7♥", "8♥"], "@us activate bazooka A6 into=sherman1", "next", "@us activate bazooka A2")
    refused(g, line, rule="LT-R020")
    assert not out(g, target)


@pytest.mark.audits("LT-R090", "LT-R051", "LT-R082")
def test_a_fleeing_company_command_calls_no_artillery(tmp_path):
    """C.8: a piece that flees goes "spalle al nemico", and under that card does nothing but
    flee (ruling LT-ROUT-CARD): the company command, routed, directs no guns "contro un
    settore a lui visibile" on the face card it fled under."""
    g = game_with(tmp_path, ["K♥"])
    add(g, "cmd", "us", "rifles", team="HQ", roles=("company-command",))
    inject(g, *artillery("us", 2))
    play(g, "next", "@us rout cmd")
    refused(g, "@us unitmove call-artillery by=cmd", rule="LT-R051")


# --- C.10: the guns on a joker ------------------------------------------------------------


@pytest.mark.audits("LT-R090")
def test_the_guns_attack_the_callers_own_units_in_the_square(tmp_path):
    """C.10: "Tutte le unità anche parzialmente nell'area battuta sono attaccate": the US
    guns (HE 3) fire on the GIs caught in their own square (still in the open, 0: a 1 is I)."""
    g = game_with(tmp_path, ["K♥", "Joker"])
    add(g, "cmd", "us", "rifles", team="HQ", roles=("company-command",))
    inject(g, *artillery("us", 3))
    play(g, "next", "@us unitmove call-artillery by=cmd", "next", "barrage us gis still-open dice=1")
    assert has(g, "gis", "immobilised")


@pytest.mark.audits("LT-R090", "LT-AMB-05")
def test_one_joker_starts_both_sides_called_guns(tmp_path):
    """LT-AMB-05: the joker is neutral and starts every artillery attack already requested:
    the US guns and the German guns both fire on it."""
    g = game_with(tmp_path, ["K♥", "K♣", "Joker"])
    add(g, "cmd", "us", "rifles", team="HQ", roles=("company-command",))
    add(g, "kdo", "german", "rifles", team="HQ", roles=("company-command",))
    inject(g, *artillery("us", 3), *artillery("german", 3))
    play(g, "next", "@us unitmove call-artillery by=cmd", "next", "@german unitmove call-artillery by=kdo", "next")
    assert len(rolled(play(g, "barrage us grenadiers still-open dice=6"))) == 1
    assert len(rolled(play(g, "barrage german gis still-open dice=6"))) == 1


# --- C.2 with C.6: a platoon's attacks, each answered; a gun's and a fleeing ambusher's ------


@pytest.mark.audits("LT-R052", "LT-R010", "LT-AMB-04")
def test_a_target_answers_each_piece_of_a_platoon_in_turn(tmp_path):
    """On K♥ the 2nd Platoon's pieces attack one after another; the grenadiers, holding two
    ready attacks, answer each at once, and hold none after."""
    g = turned(tmp_path, ["3♣", "K♥"], "@german activate grenadiers A4 prepare=2", "next")
    play(g, "@us activate gis A2", "@us mg gis grenadiers still-open dice=6")
    play(g, "@german mg grenadiers gis still-open ready dice=6")
    play(g, "@us activate bazooka A2", "@us mg bazooka grenadiers still-open dice=6")
    assert len(rolled(play(g, "@german mg grenadiers bazooka still-open ready dice=6"))) == 1
    assert not has(g, "grenadiers", "ready-1")


@pytest.mark.audits("LT-R052", "LT-R100")
def test_a_gun_that_survives_an_overrun_in_cover_answers_the_tank(tmp_path):
    """A gun overrun in cover survives on a 5 (> 4) and answers the Sherman with its ready
    attack (LT-R052: the target of the tank's attack survived it)."""
    g = game_with(tmp_path, ["3♣", "7♥"])
    add(g, "gun", "german", "pak40", team="Zug 1")
    play(g, "next", "@german activate gun A1", "next", "@us activate sherman1 A5", "@us overrun sherman1 gun dice=5")
    assert len(rolled(play(g, "@german at gun sherman1 ready dice=6,6"))) == 1


@pytest.mark.audits("LT-R053", "LT-R051", "LT-R082")
def test_a_hidden_piece_that_routed_springs_no_ambush(tmp_path):
    """ "chi scappa non spara!": the hidden grenadiers rout on the US card; spotted in their
    flight, they fire no ambush at their spotter."""
    g = game_with(tmp_path, ["3♣", "7♥"])
    add(g, "amb", "german", "grenadiers", team="Zug 2", status=("hidden",))
    play(g, "next", "@german activate amb A4 prepare=2", "next", "@german rout amb", "spot amb by=gis at=4 ambush")
    refused(g, "@german mg amb gis moving-open ready ambush dice=6", rule="LT-R051")
