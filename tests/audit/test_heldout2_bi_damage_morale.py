"""A third look at Bassa Intensità (issue #46), a second held-out audit: damage, morale
and what the end of a turn brings (A.12, A.13, A.16.2, A.16.4), each case written from the
book ("DANNI", "MORALE", "Trappole e Mine", "Armi non Letali") and its digest alone: a death
at the end of a turn and who must then check, a section's leader, a vest meeting a sniper's
or a trap's die, rubber bullets on a vest, a mine under a truck with a man aboard, a crew
that surrenders with a man aboard, a gunner who panics away from his emplaced MG."""

from __future__ import annotations

import pytest
from audit_bi_early import KILL, goto, man, outcomes, play, refused, rolls, table, vehicle
from audit_bi_late import unit

EXTRA = (
    man("mg1", "blue", "regular", "mg", roles=("emplaced",)),
    man("rub", "blue", "regular", "rubber"),
    man("rub2", "blue", "regular", "rubber"),
    man("kev", "red", "regular", "assault-rifle", roles=("bullet-vest",)),
    man("kev2", "red", "regular", "assault-rifle", roles=("bullet-vest",)),
    man("frag", "red", "regular", "assault-rifle", roles=("frag-vest",)),
    vehicle("abr", "red", "regular", "gun-heavy", roles=("tank", "hightech-armour")),
    vehicle("apc", "blue", "regular", "mg", roles=("tracked-apc",), team="A"),
)


game = table(extra=EXTRA)


def due(g, *uids) -> list[bool]:
    return [unit(g, u).has("morale-due") for u in uids]


def waive(g) -> None:
    for u in list(g.state.units.values()):
        if u.in_play and u.has("morale-due"):
            play(g, f"clear {u.id} morale-due")


# ------------------------------------------------------------ A.12.1 and the end of a turn


@pytest.mark.audits("BI-R110", "BI-R113", "BI-R180", "BI-R028")
def test_a_seriously_wounded_leader_who_dies_undressed_calls_his_squad_and_is_replaced_next_turn(game):
    """A.12.1: seriously wounded, Omar dies unless dressed within 1d6 turns (a 1: at the end of
    turn 2); A.13.1: "Quando il proprio comandante è ucciso o ferito": his men check when he is
    wounded, and again when he dies; A.4: his squad rolls for a new leader "all'inizio di ogni
    turno", so at the start of turn 3, under its Quality, 4."""
    goto(game, "fire-regular", 1)
    play(game, "fire bruno omar range=20 dice=1,9,1,9")
    assert unit(game, "omar").has("seriously-wounded") and due(game, "ali", "yusuf") == [True, True]
    waive(game)
    goto(game, "end", 2)
    facts = play(game, "next dice=4")
    assert not unit(game, "omar").in_play and due(game, "ali", "yusuf") == [True, True]
    assert [r.target for r in rolls(facts, "BI-R028")] == [4] and game.state.turn == 3


@pytest.mark.audits("BI-R110", "BI-R180")
def test_a_man_who_dies_of_his_wounds_is_a_squad_mate_killed(game):
    """A.12.1 and A.13.1 "Quando un soldato della propria squadra/sezione è ucciso": Ali, left
    undressed, dies at the end of turn 1 + 2; then Omar and Yusuf check, not before."""
    goto(game, "fire-regular", 1)
    play(game, "fire bruno ali range=20 dice=1,9,2,9")
    assert due(game, "omar", "yusuf") == [False, False]
    goto(game, "end", 2)
    play(game, "next")
    assert unit(game, "ali").in_play
    goto(game, "end", 3)
    play(game, "next")
    assert not unit(game, "ali").in_play and due(game, "omar", "yusuf") == [True, True]


@pytest.mark.audits("BI-R180", "BI-R020")
def test_a_wounded_section_leader_calls_his_section_not_the_squad(game):
    """A.13.1 M6: "il proprio comandante": the men of the section check when their section
    leader is wounded; the squad leader above him, whose commander he is not, does not."""
    goto(game, "fire-veteran", 1)
    play(game, "@red fire karim cpl range=20 dice=1,6,9")
    assert unit(game, "cpl").has("wounded")
    assert due(game, "valerio", "vasco", "vito") == [True, True, False]


@pytest.mark.audits("BI-R181", "BI-R028", "BI-AMB-42")
def test_a_wounded_man_whose_section_leader_is_dead_checks_at_every_penalty(game):
    """A.13.2: Veteran 5 + 3; wounded -3; isolated -2 (his section leaderless, A.4);
    commander killed -1; heavy cover +2: 4.  A 4 passes."""
    play(game, "out cpl", "mark valerio wounded")
    facts = play(game, "morale valerio m5 cover=heavy dice=4")
    assert [(r.target, r.outcome) for r in rolls(facts, "A.13.2")][0][0] == 4
    assert outcomes(facts) == ["passed"]


@pytest.mark.audits("BI-R221", "BI-R180")
def test_a_man_killed_by_a_mine_is_a_squad_mate_killed(game):
    """A.16.2: an AP mine strikes as indirect fire (6 in the open at short distance); Ali
    killed, Omar and Yusuf check (A.13.1)."""
    facts = play(game, f"mine ali ap dice=6,{KILL}")
    assert [r.target for r in rolls(facts, "A.10.3")] == [6] and not unit(game, "ali").in_play
    assert due(game, "omar", "yusuf") == [True, True]


@pytest.mark.audits("BI-R181", "BI-R180", "BI-AMB-41")
def test_a_man_within_20_cm_of_an_artillery_attack_checks_under_he_fire(game):
    """A.13.1 M3: within 20 cm of an air, field-artillery or heavy-mortar attack, he checks;
    A.13.2: "Sotto tiro di Alto Esplosivo": that attack is HE, so 4 + 3 - 2 = 5 (a 6 fails)."""
    facts = play(game, "morale tariq m3 dice=6,1")
    assert [r.target for r in rolls(facts, "A.13.2")] == [5]


@pytest.mark.audits("BI-R181", "BI-R140", "BI-AMB-08")
def test_an_armoured_carrier_whose_radio_is_lost_checks_as_isolated(game):
    """A.12.4: radio destroyed, "sempre isolato"; A.13.2: isolated -2: 4 + 3 - 2 = 5."""
    play(game, "mark apc radio-out")
    facts = play(game, "morale apc m1 dice=5")
    assert [r.target for r in rolls(facts, "A.13.2")] == [5] and outcomes(facts) == ["passed"]


# ------------------------------------------------------------ vests, traps, rubber bullets


@pytest.mark.audits("BI-R223", "BI-R111")
def test_a_booby_trap_on_a_man_in_a_trench_wearing_a_fragmentation_vest(game):
    """A.16.2: a trap attacks one man "senza alcuna possibile modifica a favore del bersaglio
    per copertura": 6, as in the open at short distance, his trench ignored; A.12.1: the vest
    is on the damage die, -1: a 6 reads 5, Shocked."""
    facts = play(game, "mine frag trap cover=trench dice=6,6")
    assert [r.target for r in rolls(facts, "A.10.3")] == [6]
    assert outcomes(facts, "A.12.1") == ["shocked"] and unit(game, "frag").has("shocked")


@pytest.mark.audits("BI-R230", "BI-R111")
@pytest.mark.parametrize(
    ("shooter", "target", "face", "after"), [("rub", "kev", 8, "shocked"), ("rub2", "kev2", 10, "wounded")]
)
def test_rubber_bullets_on_a_bullet_proof_vest(game, shooter, target, face, after):
    """A.16.4: rubber bullets hit as a carbine (normal range to 20 cm, 4); Wounded counts as
    Shocked, Dead as Wounded.  A.12.1: the vest -2 turns an 8 into a 6, Wounded: so Shocked;
    a natural 10 is never modified: Dead, so Wounded."""
    goto(game, "fire-regular", 1)
    play(game, f"fire {shooter} {target} range=20 dice=1,{face}")
    t = unit(game, target)
    assert t.in_play and t.has(after) and (after == "wounded" or not t.has("wounded"))


# ------------------------------------------------------------ mines and vehicles


@pytest.mark.audits("BI-R222", "BI-R120")
def test_an_anti_tank_mine_destroys_a_truck_and_the_man_aboard_rolls_his_damage(game):
    """A.16.2: an AT mine destroys an unarmoured vehicle on 1-3 on 1d6; the man aboard is
    hit and left on foot (ruling BI-OCCUPANTS): a 5, Shocked."""
    goto(game, "move-second", 1)
    play(game, "@red mount fares ural", "mine ural at dice=3,5")
    assert not unit(game, "ural").in_play
    fares = unit(game, "fares")
    assert fares.in_play and fares.has("shocked") and not fares.has("aboard-ural")


@pytest.mark.audits("BI-R222", "BI-R131")
@pytest.mark.parametrize(("dice", "result"), [("4,1", "penetrated"), ("5", "not penetrated: check morale")])
def test_an_anti_tank_mine_against_high_tech_armour(game, dice, result):
    """A.16.2: an AT mine penetrates as an anti-tank rocket, 6 against a tank; A.12.3: "ad
    alta tecnologia" -2: 4."""
    facts = play(game, f"mine abr at dice={dice}")
    assert outcomes(facts, "A.12.3") == [result]
    assert [r.target for r in rolls(facts, "A.12.3")] == [4]


# ------------------------------------------------------------ A.13.3 morale effects


@pytest.mark.audits("BI-R182", "BI-R180")
def test_a_truck_whose_crew_surrenders_is_abandoned_and_its_passenger_is_on_foot(game):
    """A.13.3: "Se è un veicolo l'equipaggio abbandona il mezzo e va in panico": the truck
    (Regular, 7 to pass; no -2 on the effect, it is unarmoured) fails with a 10, a 6 is
    Surrender: the truck is gone; Bruno, aboard, is on foot."""
    goto(game, "move-first", 1)
    play(game, "@blue mount bruno camion", "morale camion m1 dice=10,6")
    assert not unit(game, "camion").in_play
    assert unit(game, "bruno").in_play and not unit(game, "bruno").has("aboard-camion")


@pytest.mark.audits("BI-R182", "BI-WN6", "BI-R068")
def test_a_gunner_who_panics_leaves_his_emplaced_mg_and_must_emplace_it_again(game):
    """A.13.3: in Panic he flees at full speed (24 cm) and then counts as Shocked (no fire
    this turn and the next); A.9.3 note (6): his MG, carried away, must be emplaced again
    before it fires (a Very Easy action, his turn)."""
    facts = play(game, "morale mg1 m4 dice=8,4")
    assert [e.cm for e in facts if type(e).__name__ == "Moved"] == [24]
    mg1 = unit(game, "mg1")
    assert mg1.has("shocked") and not mg1.has("emplaced")
    goto(game, "fire-regular", 3)
    refused(game, "fire mg1 tariq range=50", match="emplace", rule="BI-WN6")
    play(game, "emplace mg1")
    goto(game, "fire-regular", 4)
    assert len(rolls(play(game, "fire mg1 tariq range=50 dice=9,9,9"), "A.9.4")) == 3
