"""A fifth look at Bassa Intensità (issue #46), a fourth held-out audit: indirect fire,
damage and the special rules over the turns that follow (A.11, A.12, A.16, A.17), each case
written from the book ("TIRO INDIRETTO", "DANNI" with its three tables, "REGOLE SPECIALI")
and its digest alone.  The earlier rounds rolled each table's rows and modifiers on the
turn of the hit; these play each result on into the next turns: how long a Shocked man is
held and when he is free, a wound's half-move, half-chance and harder action turns later,
a man hit again in each state, the death clock to its last turn and the dressing that stops
it, a vehicle slowed once and twice and then immobilised, a lost radio's isolation and a
lost weapon at the next check and the next shot, the guns' call, ranging shot and fire for
effect turn by turn, and a non-lethal result meeting a wound.
"""

from __future__ import annotations

import pytest
from audit_bi_early import U, chances, goto, outcomes, play, rolls, table, vehicle
from audit_bi_late import unit as _unit
from playing import tried

from core.dice.faces import NeedDice
from core.language.i18n import plain
from core.ruleset import Refused

EXTRA = (
    U(id="doc", name="Doc", side="red", cls="regular", weapons=("assault-rifle",)),
    U(id="medico", name="Medico", side="blue", cls="regular", weapons=("carbine",)),
    U(id="cdr", name="Cdr", side="blue", cls="regular", weapons=("carbine",), roles=("commander",)),
    U(id="t62", name="T62", side="red", kind="vehicle", cls="regular", weapons=("gun-heavy", "mg"), roles=("tank",)),
    U(id="rubbo", name="Rubbo", side="blue", cls="regular", weapons=("rubber",)),
    vehicle("leo", "red", "regular", "gun-heavy", "mg", roles=("tank", "stabilised")),
    U(
        id="said",
        name="Said",
        side="red",
        cls="regular",
        weapons=("sniper-rifle",),
        roles=("sniper",),
        status=("hidden",),
    ),
)


game = table(extra=EXTRA, at=("fire-regular", 1))


def _to(g, phase: str, turn: int) -> None:
    """On to ``phase`` of ``turn``, every check still due waived on the way."""
    goto(g, phase, turn, waive=True)


def _refused(g, line: str) -> bool:
    return tried(g, line) is None


def _said(facts) -> str:
    return " ".join(plain(e.text) for e in facts if hasattr(e, "text"))


# --- A.12.1: a Shocked man, how long he is held -------------------------------------------


@pytest.mark.audits("BI-R110", "BI-AMB-20")
def test_a_man_shocked_in_the_fire_phase_is_held_all_the_next_turn(game):
    """A.12.1 2-5: "nessun movimento verso il nemico/ combattimento/ azione il prossimo
    turno": Tariq, shocked in turn 1's fire, can neither fire nor act in turn 2."""
    play(game, "hit tariq weapon=assault-rifle dice=3")
    _to(game, "fire-regular", 2)
    assert _refused(game, "fire tariq bruno range=20 dice=1,10")
    assert _refused(game, "act tariq easy dice=1")


@pytest.mark.audits("BI-R110", "BI-AMB-20")
def test_a_man_shocked_is_free_again_the_turn_after_next(game):
    """A.12.1: the restriction is for "il prossimo turno" only: in turn 3 Tariq fires."""
    play(game, "hit tariq weapon=assault-rifle dice=3")
    _to(game, "fire-regular", 3)
    facts = play(game, "fire tariq bruno range=20 dice=1,10")
    assert outcomes(facts, "A.12.1") == ["dead"]


@pytest.mark.audits("BI-R110", "BI-AMB-20")
def test_a_man_shocked_may_move_away_next_turn_and_forward_the_turn_after(game):
    """A.12.1: no movement "verso il nemico" next turn; away is allowed; in turn 3 he may
    advance again."""
    play(game, "hit tariq weapon=assault-rifle dice=3")
    _to(game, "move-second", 2)
    assert _refused(game, "@red move tariq 5")
    play(game, "@red move tariq 5 away")
    _to(game, "move-second", 3)
    play(game, "@red move tariq 5")
    assert _unit(game, "tariq").in_play


@pytest.mark.audits("BI-R110")
def test_a_shocked_man_throws_himself_down(game):
    """A.12.1: "Si butta a terra"."""
    play(game, "hit tariq weapon=assault-rifle dice=5")
    assert _unit(game, "tariq").has("prone") and _unit(game, "tariq").has("shocked")


@pytest.mark.audits("BI-R110", "BI-AMB-20")
def test_a_man_shocked_before_he_fired_this_turn_cannot_fire_this_turn(game):
    """BI-AMB-20: the restriction runs from the result to the end of the next turn: Karim
    (Veteran) is shocked in the veteran tier; in the regular tier of the same turn he does
    not fire."""
    _to(game, "fire-veteran", 2)
    play(game, "hit karim weapon=assault-rifle dice=2")
    _to(game, "fire-regular", 2)
    assert _refused(game, "fire karim bruno range=20 dice=1,10")


# --- A.12.1: a Wounded man in the turns after ---------------------------------------------


@pytest.mark.audits("BI-R110", "BI-AMB-13")
@pytest.mark.parametrize("cm,ok", [(8, True), (8.5, False)])
def test_a_wounded_man_moves_half_two_turns_later(game, cm, ok):
    """A.12.1 6-8: "Movimento dimezzato": two turns after his wound Fares still walks half
    of 16: 8 cm, not 8.5."""
    play(game, "hit fares weapon=assault-rifle dice=7")
    _to(game, "move-second", 3)
    assert _refused(game, f"@red move fares {cm}") is not ok


@pytest.mark.audits("BI-R110")
def test_a_wounded_man_fires_at_half_chance_in_a_later_turn(game):
    """A.12.1: "½ possibilità di colpire se spara", in every turn after the wound: Fares's
    chance in turn 2 is half, rounded up, of Tariq's (unhurt, same shot)."""
    play(game, "hit fares weapon=assault-rifle dice=7")
    _to(game, "fire-regular", 2)
    whole = chances(play(game, "fire tariq bruno range=20 dice=10,10"))
    half = chances(play(game, "fire fares carlo range=20 dice=10,10"))
    assert half == [-(-w // 2) for w in whole]


@pytest.mark.audits("BI-R110", "BI-R066")
def test_a_wounded_mans_easy_action_is_normal_turns_later(game):
    """A.12.1: "peggiora di un livello la difficoltà delle azioni (esempio: da Facile a
    Normale)": Fares (Regular 4) in turn 3: Easy is Normal, 4 not 8."""
    play(game, "hit fares weapon=assault-rifle dice=6")
    _to(game, "fire-regular", 3)
    facts = play(game, "act fares easy dice=5")
    assert [r.target for r in rolls(facts)][-1] == 4


# --- A.12.1: a man hit again (BI-AMB-35) -------------------------------------------------


@pytest.mark.audits("BI-R110", "BI-R112", "BI-AMB-35")
@pytest.mark.parametrize(
    "first,second,dead",
    [
        ("6", "6", True),  # wounded, then wounded: "muore con una seconda ferita"
        ("8", "9", True),  # wounded, then seriously wounded
        ("6", "3", False),  # wounded, then shocked: wounded and shocked
        ("6", "1", False),  # wounded, then a near miss
        ("9,6", "2", True),  # seriously wounded, then shocked
        ("9,6", "1", False),  # seriously wounded, then a near miss
    ],
)
def test_a_man_hit_again(game, first, second, dead):
    """BI-AMB-35: Wounded + Wounded/Seriously -> dead; Seriously + any result >= 2 -> dead;
    a near miss never worsens a state; a Shocked result on a wounded man leaves him alive."""
    play(game, f"hit fares weapon=assault-rifle dice={first}")
    _to(game, "fire-regular", 2)
    try:
        play(game, f"hit fares weapon=assault-rifle dice={second}")
    except NeedDice:
        play(game, f"hit fares weapon=assault-rifle dice={second},6")
    assert (not _unit(game, "fares").in_play) is dead


@pytest.mark.audits("BI-R110", "BI-AMB-35")
def test_a_wounded_man_shocked_is_both(game):
    """A wound stays when a later hit shocks him: Fares wounded, then shocked: wounded,
    shocked and down."""
    play(game, "hit fares weapon=assault-rifle dice=6", "hit fares weapon=assault-rifle dice=4")
    f = _unit(game, "fares")
    assert f.has("wounded") and f.has("shocked") and f.has("prone")


# --- A.12.1: the seriously wounded, his death clock and his dressing -------------------


@pytest.mark.audits("BI-R110", "BI-R113")
@pytest.mark.parametrize(
    "line", ["@red move nabil 1 away", "fire nabil bruno range=20 dice=1,10", "act nabil easy dice=1"]
)
def test_a_seriously_wounded_man_neither_moves_fights_nor_acts_next_turn(game, line):
    """A.12.1 9: "Non può più muovere, combattere o eseguire azioni"."""
    play(game, "hit nabil weapon=assault-rifle dice=9,6")
    phase = "move-second" if "move" in line else "fire-regular"
    _to(game, phase, 2)
    assert _refused(game, line)


@pytest.mark.audits("BI-R110", "BI-R113")
def test_undressed_he_lives_through_his_last_turn_and_dies_at_its_end(game):
    """A.12.1 9: "muore se non è medicato entro 1d6 turni"; BI-R113: counted from the turn
    of the wound as 0: a 2 in turn 1: alive through turn 3's fire, dead when it ends."""
    play(game, "hit nabil weapon=assault-rifle dice=9,2")
    _to(game, "fire-rabble", 3)
    assert _unit(game, "nabil").in_play
    _to(game, "initiative", 4)
    assert not _unit(game, "nabil").in_play


@pytest.mark.audits("BI-R110", "BI-R113", "BI-AMB-36")
def test_dressed_on_his_last_turn_he_lives_and_counts_as_wounded(game):
    """A.12.1 9: "dal turno in cui è medicato conta come Ferito": a 1 in turn 1; Doc dresses
    him in turn 2 (Normal, Regular 4: a 4): he lives on into turn 3, wounded; still down,
    he walks 16 less half (wounded) less a quarter (standing up, A.6.1): 4 cm."""
    play(game, "hit nabil weapon=assault-rifle dice=9,1")
    _to(game, "fire-regular", 2)
    play(game, "dress doc nabil dice=4")
    _to(game, "move-second", 3)
    n = _unit(game, "nabil")
    assert n.in_play and n.has("wounded") and not n.has("seriously-wounded")
    assert _refused(game, "@red move nabil 4.5")
    play(game, "@red move nabil 4")


@pytest.mark.audits("BI-R113", "BI-R066")
def test_dressing_is_a_normal_action(game):
    """BI-R113/BI-AMB-36: a Normal action: Doc (Regular 4) fails on a 5."""
    play(game, "hit nabil weapon=assault-rifle dice=9,3")
    _to(game, "fire-regular", 2)
    facts = play(game, "dress doc nabil dice=5")
    assert [r.target for r in rolls(facts)][-1] == 4
    assert _unit(game, "nabil").has("seriously-wounded")


@pytest.mark.audits("BI-R113", "BI-R110")
def test_a_wounded_medic_dresses_as_a_difficult_action(game):
    """A.12.1: a wounded man's actions are one level harder: Normal -> Difficult (half of
    4: 2)."""
    play(game, "hit nabil weapon=assault-rifle dice=9,3", "hit doc weapon=assault-rifle dice=6")
    _to(game, "fire-regular", 2)
    facts = play(game, "dress doc nabil dice=3")
    assert [r.target for r in rolls(facts)][-1] == 2
    assert _unit(game, "nabil").has("seriously-wounded")


@pytest.mark.audits("BI-R113", "BI-R110")
def test_a_shocked_medic_cannot_dress_next_turn(game):
    """A.12.1: a Shocked man does no action next turn: no dressing."""
    play(game, "hit nabil weapon=assault-rifle dice=9,3", "hit doc weapon=assault-rifle dice=3")
    _to(game, "fire-regular", 2)
    assert _refused(game, "dress doc nabil dice=1")


@pytest.mark.audits("BI-R113", "BI-R110", "BI-AMB-35")
def test_a_dressed_man_dies_of_the_next_wound(game):
    """He counts as Wounded once dressed; "muore con una seconda ferita": a 6 kills him."""
    play(game, "hit nabil weapon=assault-rifle dice=9,3")
    _to(game, "fire-regular", 2)
    play(game, "dress doc nabil dice=1")
    _to(game, "fire-regular", 3)
    play(game, "hit nabil weapon=assault-rifle dice=6")
    assert not _unit(game, "nabil").in_play


# --- A.12.2: an unarmoured vehicle over the turns ----------------------------------------


@pytest.mark.audits("BI-R120", "BI-R045")
@pytest.mark.parametrize("cm,ok", [(30, True), (30.5, False)])
def test_a_slowed_truck_is_still_slowed_two_turns_later(game, cm, ok):
    """A.12.2 2-4 "Movimento dimezzato": a 4x4 truck off-road 60 cm; halved 30, in turn 3."""
    play(game, "hit ural weapon=assault-rifle dice=2")
    _to(game, "move-second", 3)
    assert _refused(game, f"@red move ural {cm} ground=off-road") is not ok


@pytest.mark.audits("BI-R120", "BI-AMB-39")
@pytest.mark.parametrize("cm,ok", [(15, True), (15.5, False)])
def test_a_truck_slowed_twice_moves_a_quarter(game, cm, ok):
    """BI-AMB-39: a second "movement halved" halves again: 60 -> 30 -> 15."""
    play(game, "hit ural weapon=assault-rifle dice=2", "hit ural weapon=assault-rifle dice=4")
    _to(game, "move-second", 2)
    assert _refused(game, f"@red move ural {cm} ground=off-road") is not ok


@pytest.mark.audits("BI-R120", "BI-AMB-39")
def test_an_immobilised_truck_stays_so_and_a_later_slowing_changes_nothing(game):
    """A.12.2 5-7 immobilised; BI-AMB-39: a mobility result on it has no further effect: it
    still cannot move two turns later."""
    play(game, "hit ural weapon=assault-rifle dice=6")
    _to(game, "fire-regular", 2)
    play(game, "hit ural weapon=assault-rifle dice=3")
    assert _unit(game, "ural").in_play
    _to(game, "move-second", 3)
    assert _refused(game, "@red move ural 1 ground=off-road")


@pytest.mark.audits("BI-R120")
def test_a_destroyed_truck_is_gone(game):
    """A.12.2 8+: destroyed."""
    play(game, "hit ural weapon=mg dice=7")
    assert not _unit(game, "ural").in_play


# --- A.12.4: an armoured vehicle over the turns --------------------------------------------


@pytest.mark.audits("BI-R140", "BI-R025", "BI-R181")
def test_a_tank_whose_radio_was_lost_checks_as_isolated_next_turn(game):
    """A.12.4 2: "Il veicolo si considera sempre isolato": at its next check (an RPG that does
    not penetrate, turn 2) the T-55 checks 2 under the T-62 (both Regular, same hit)."""
    play(game, "hit t55 weapon=rpg dice=1,2")
    _to(game, "fire-regular", 2)
    play(game, "hit t55 weapon=rpg dice=9", "hit t62 weapon=rpg dice=9")
    lost = play(game, "morale t55 m7 dice=1")
    kept = play(game, "morale t62 m7 dice=1")
    assert rolls(lost)[0].target == rolls(kept)[0].target - 2


@pytest.mark.audits("BI-R140", "BI-R183")
def test_a_lost_radio_leaves_the_crew_undamaged_for_its_effect_die(game):
    """A.12.4 2: "Non conta come veicolo danneggiato ai fini del morale": the crew's effect
    die is still -2 (BI-R183): a failed check and a 5 on the effect die is a 3, Shocked,
    not Panic."""
    play(game, "hit t55 weapon=rpg dice=1,2")
    facts = play(game, "morale t55 m7 dice=10,5")
    assert "shocked" in " ".join(outcomes(facts)).lower()


@pytest.mark.audits("BI-R140", "BI-R183")
def test_a_tank_slowed_by_a_penetration_is_damaged_for_its_effect_die(game):
    """A.12.4 3-4: "Movimento dimezzato e controllare il morale": no longer undamaged: a
    failed check and a 5 on the effect die is Panic."""
    play(game, "hit t55 weapon=rpg dice=1,3")
    facts = play(game, "morale t55 m7 dice=10,5")
    assert "panic" in " ".join(outcomes(facts)).lower()


@pytest.mark.audits("BI-R140")
def test_a_lost_machine_gun_cannot_fire_next_turn_but_the_gun_can(game):
    """A.12.4 7-8: "Un'arma a bordo distrutta (si determina quale a caso)": the T-62's MG is
    lost (the second of its two weapons); in turn 2 its MG is refused, its gun fires."""
    play(game, "hit t62 weapon=rpg dice=1,8,2")
    assert _unit(game, "t62").has("weapon-lost-mg")
    _to(game, "fire-regular", 2)
    assert _refused(game, "fire t62 bruno range=20 weapon=mg dice=1,10")
    assert not _refused(game, "fire t62 camion range=40 weapon=gun-heavy dice=1,1")


@pytest.mark.audits("BI-R140")
def test_an_immobilised_tank_cannot_move_next_turn(game):
    """A.12.4 5: "Immobilizzato, e controllare il morale con penalità di -2"."""
    play(game, "hit t55 weapon=rpg dice=1,5")
    t55 = _unit(game, "t55")
    assert t55.has("immobilised") and t55.has("morale-table-2")
    _to(game, "move-second", 2)
    assert _refused(game, "@red move t55 1")


@pytest.mark.audits("BI-R140")
@pytest.mark.parametrize("face,gone", [(8, False), (9, True), (10, True)])
def test_a_penetrated_tank_is_destroyed_on_9_or_10(game, face, gone):
    """A.12.4 9-10: destroyed."""
    try:
        play(game, f"hit t55 weapon=rpg dice=1,{face}")
    except NeedDice:
        play(game, f"hit t55 weapon=rpg dice=1,{face},1")
    assert (not _unit(game, "t55").in_play) is gone


# --- A.11: the guns turn by turn -----------------------------------------------------------


@pytest.mark.audits("BI-R103")
def test_no_ranging_shot_in_the_turn_of_the_call(game):
    """A.11: the ranging shot comes "nella fase di tiro del turno successivo"."""
    play(game, "call cdr dedicated mm=81 dice=1")
    assert _refused(game, "ranging cdr dice=1,1")
    _to(game, "fire-regular", 2)
    assert not _refused(game, "ranging cdr dice=1,1")


@pytest.mark.audits("BI-R104")
def test_no_fire_for_effect_in_the_turn_of_the_ranging_shot(game):
    """A.11: "il turno successivo" the observer may order fire for effect: not in the turn
    of the ranging shot itself."""
    play(game, "call cdr dedicated mm=81 dice=1")
    _to(game, "fire-regular", 2)
    play(game, "ranging cdr dice=1,1")
    assert _refused(game, "ffe cdr")
    _to(game, "fire-regular", 3)
    assert not _refused(game, "ffe cdr")


@pytest.mark.audits("BI-R103", "BI-AMB-30")
def test_where_are_you_shooting_ranges_again_next_turn_without_a_new_call(game):
    """BI-AMB-30: "Ma dove sparate?": the round is lost; next turn a new ranging shot
    without contacting the guns again; no fire for effect on a lost round."""
    play(game, "call cdr dedicated mm=81 dice=1")
    _to(game, "fire-regular", 2)
    facts = play(game, "ranging cdr dice=5,1")
    assert outcomes(facts, "BI-R103") == ["imprecise"]
    _to(game, "fire-regular", 3)
    assert _refused(game, "ffe cdr")
    assert not _refused(game, "ranging cdr dice=1,1")


@pytest.mark.audits("BI-R104", "BI-AMB-31")
def test_a_ranging_shot_out_of_sight_is_ranged_again(game):
    """BI-AMB-31: a ranging shot the observer cannot see is as "who knows where": next turn
    he ranges again, he may not fire for effect."""
    play(game, "call cdr dedicated mm=81 dice=1")
    _to(game, "fire-regular", 2)
    play(game, "ranging cdr unseen dice=1,1")
    _to(game, "fire-regular", 3)
    assert _refused(game, "ffe cdr")
    assert not _refused(game, "ranging cdr dice=1,1")


@pytest.mark.audits("BI-R104", "BI-AMB-32")
def test_after_a_shift_fire_for_effect_comes_the_turn_after(game):
    """A.11: the shift is a new ranging shot (no deviation): fire for effect may follow it
    the next turn, not in the turn of the shift."""
    play(game, "call cdr dedicated mm=81 dice=1")
    _to(game, "fire-regular", 2)
    play(game, "ranging cdr dice=1,1")
    _to(game, "fire-regular", 3)
    play(game, "shift cdr 15")
    assert _refused(game, "ffe cdr")
    _to(game, "fire-regular", 4)
    assert not _refused(game, "ffe cdr")


@pytest.mark.audits("BI-R103", "BI-R100")
@pytest.mark.parametrize("face,precise", [(5, True), (6, False)])
def test_the_ranging_shot_is_precise_on_the_observers_quality(game, face, precise):
    """A.11: "Tira 1d10: se il risultato è minore o uguale alla sua qualità il tiro è
    preciso": Lt Foschi (Veteran, 5)."""
    _to(game, "fire-veteran", 2)
    play(game, "call fo dedicated mm=81 dice=1")
    _to(game, "fire-veteran", 3)
    facts = play(game, f"ranging fo dice={face},1")
    assert outcomes(facts, "BI-R103") == ["precise" if precise else "imprecise"]


@pytest.mark.audits("BI-R100", "BI-R110")
def test_a_seriously_wounded_observer_cannot_call(game):
    """A.12.1 9: no action: he cannot contact the guns."""
    play(game, "hit cdr weapon=assault-rifle dice=9,6")
    _to(game, "fire-regular", 2)
    assert _refused(game, "call cdr dedicated mm=81 dice=1")


@pytest.mark.audits("BI-R104", "BI-R110", "BI-AMB-34")
def test_a_shocked_observer_orders_no_fire_for_effect_next_turn(game):
    """BI-AMB-34: ordering fire for effect is the observer's action; shocked in turn 2 he may
    not order it in turn 3."""
    play(game, "call cdr dedicated mm=81 dice=1")
    _to(game, "fire-regular", 2)
    play(game, "ranging cdr dice=1,1", "hit cdr weapon=assault-rifle dice=3")
    _to(game, "fire-regular", 3)
    assert _refused(game, "ffe cdr")


# --- A.16.4: non-lethal weapons over a wound ------------------------------------------------


@pytest.mark.audits("BI-R230", "BI-AMB-35")
def test_a_rubber_bullets_dead_on_a_wounded_man_is_a_second_wound(game):
    """A.16.4: rubber bullets' "Morto" counts as "Ferito"; on a man already wounded that is
    his second wound: he dies."""
    play(game, "hit fares weapon=assault-rifle dice=6", "fire rubbo fares range=10 dice=1,10")
    assert not _unit(game, "fares").in_play


@pytest.mark.audits("BI-R230")
@pytest.mark.parametrize("face", [6, 9])
def test_a_rubber_bullets_wound_is_only_a_shock(game, face):
    """A.16.4: "Ferito e Ferito Gravemente si considerano come Shoccato"."""
    play(game, f"fire rubbo tariq range=10 dice=1,{face}")
    t = _unit(game, "tariq")
    assert t.has("shocked") and not t.has("wounded") and not t.has("seriously-wounded")


@pytest.mark.audits("BI-R231", "BI-AMB-20")
def test_a_man_flash_banged_is_held_next_turn_and_free_after(game):
    """A.16.4: the flash-bang shocks every man within 5 cm: held in turn 2, free in turn 3."""
    play(game, "flashbang bruno tariq")
    assert _unit(game, "tariq").has("shocked")
    _to(game, "fire-regular", 2)
    assert _refused(game, "fire tariq bruno range=20 dice=1,10")
    _to(game, "fire-regular", 3)
    assert not _refused(game, "fire tariq bruno range=20 dice=1,10")


@pytest.mark.audits("BI-R232", "BI-AMB-61")
def test_tear_gas_halves_the_move_a_turn_later(game):
    """A.16.4: tear gas, "½ al movimento ed alle possibilità di colpire": in turn 2 Tariq
    walks 8 of 16."""
    play(game, "gas bruno tariq dice=6")
    _to(game, "move-second", 2)
    assert _refused(game, "@red move tariq 8.5")
    play(game, "@red move tariq 8")


# --- Part two: cases written after playing the engine by hand --------------------------------


@pytest.mark.audits("BI-R110", "BI-AMB-20")
def test_a_man_shocked_again_next_turn_is_held_one_turn_more(game):
    """A.12.1: shocked in turn 1 and again in turn 2: held through turn 3, free in turn 4."""
    play(game, "hit tariq weapon=assault-rifle dice=3")
    _to(game, "fire-regular", 2)
    play(game, "hit tariq weapon=assault-rifle dice=4")
    _to(game, "fire-regular", 3)
    assert _refused(game, "fire tariq bruno range=20 dice=1,10")
    _to(game, "fire-regular", 4)
    assert not _refused(game, "fire tariq bruno range=20 dice=1,10")


@pytest.mark.audits("BI-R182", "BI-AMB-45", "BI-AMB-20")
def test_a_man_who_panicked_is_held_next_turn_as_shocked(game):
    """A.13.3 4-5: "Fugge alla massima velocità verso copertura dopodichè si considera
    Shoccato": he flees 24 cm at once, then cannot fire in turn 2."""
    facts = play(game, "morale tariq m7 dice=10,4")
    assert [e.cm for e in facts if type(e).__name__ == "Moved"] == [24]
    _to(game, "fire-regular", 2)
    assert _refused(game, "fire tariq bruno range=20 dice=1,10")


@pytest.mark.audits("BI-R104", "BI-R110", "BI-AMB-34", "BI-AMB-18")
def test_a_wounded_observer_rolls_to_order_fire_for_effect(game):
    """BI-AMB-34: ordering fire for effect is a Very Easy action; a wound makes it Easy
    (A.12.1), rolled at twice his Quality: the Regular commander's 8; a 9 fails."""
    play(game, "call cdr dedicated mm=81 dice=1")
    _to(game, "fire-regular", 2)
    play(game, "ranging cdr dice=1,1", "hit cdr weapon=assault-rifle dice=6")
    _to(game, "fire-regular", 3)
    facts = play(game, "ffe cdr dice=9")
    assert [r.target for r in rolls(facts)] == [8]
    assert "lands on the ranging point" not in _said(facts)


@pytest.mark.audits("BI-R104", "BI-AMB-33")
def test_fire_for_effect_may_be_ordered_again_next_turn_and_then_shifted(game):
    """BI-AMB-33: one fire for effect per order, ordered again each turn without a new
    ranging shot; the turn after, a shift."""
    play(game, "call cdr dedicated mm=81 dice=1")
    _to(game, "fire-regular", 2)
    play(game, "ranging cdr dice=1,1")
    for turn in (3, 4):
        _to(game, "fire-regular", turn)
        assert "lands on the ranging point" in _said(play(game, "ffe cdr"))
    _to(game, "fire-regular", 5)
    assert not rolls(play(game, "shift cdr 20"))


@pytest.mark.audits("BI-R232", "BI-R110", "BI-AMB-04")
def test_a_wounded_man_in_tear_gas_hits_at_a_quarter(game):
    """A.16.4 and A.12.1: two halves stack (BI-AMB-04): Tariq's 4 is Fares's 1."""
    play(game, "gas bruno fares dice=3", "hit fares weapon=assault-rifle dice=6")
    _to(game, "fire-regular", 2)
    whole = chances(play(game, "fire tariq bruno range=20 dice=10,10"))
    quarter = chances(play(game, "fire fares carlo range=20 dice=10,10"))
    assert whole == [4, 4] and quarter == [1, 1]


@pytest.mark.audits("BI-R232", "BI-AMB-61", "BI-AMB-48")
def test_tear_gas_lasts_six_turns_and_the_die(game):
    """BI-AMB-61: as smoke, 6 + 1d6 turns, counted from the turn it takes effect: a 1 in
    turn 1: seven turns, Samir still gassed in turn 7, free in turn 8."""
    play(game, "gas bruno samir dice=1")
    _to(game, "fire-regular", 7)
    assert _unit(game, "samir").has("gassed")
    _to(game, "fire-regular", 8)
    assert not _unit(game, "samir").has("gassed")


@pytest.mark.audits("BI-R110", "BI-R113")
def test_a_man_dressed_fires_at_half_next_turn(game):
    """A.12.1 9: dressed, "conta come Ferito": he may fight again, at half: 2 of 4."""
    play(game, "hit nabil weapon=assault-rifle dice=9,6", "dress doc nabil dice=1")
    _to(game, "fire-regular", 2)
    assert chances(play(game, "fire nabil bruno range=20 dice=10,10")) == [2, 2]


@pytest.mark.audits("BI-R110", "BI-R180")
def test_a_seriously_wounded_man_is_not_asked_to_check(game):
    """A.12.1: the Seriously wounded row, unlike the three above it, asks no morale check."""
    play(game, "hit nabil weapon=assault-rifle dice=9,6")
    assert not _unit(game, "nabil").has("morale-due")


@pytest.mark.audits("BI-R110", "BI-R113", "BI-R028", "BI-R181")
def test_a_leader_who_dies_of_his_wound_leaves_his_squad_isolated_at_its_check(game):
    """A.12.1 and A.13: Omar, the leader, seriously wounded (a 1: dies at the end of turn 2):
    his men check (M6) under automatic fire, 7 - 2 = 5, the commander not killed; when he
    dies they check again: commander killed -1, isolated -2 (BI-R028): 4."""
    play(game, "hit omar weapon=assault-rifle dice=9,1")
    first = [rolls(play(game, f"morale {m} m6 dice=1"))[0].target for m in ("ali", "yusuf")]
    assert first == [5, 5]
    _to(game, "end", 2)
    play(game, "next dice=10")
    assert not _unit(game, "omar").in_play
    assert _unit(game, "ali").has("morale-due") and _unit(game, "yusuf").has("morale-due")
    second = [rolls(play(game, f"morale {m} m6 dice=1"))[0].target for m in ("ali", "yusuf")]
    assert second == [4, 4]


@pytest.mark.audits("BI-R132", "BI-AMB-28", "BI-R181")
def test_a_tank_guns_round_that_does_not_penetrate_is_he_for_the_check(game):
    """BI-AMB-28: a tank gun's hit counts as HE fire for the -2: the T-55 not penetrated
    checks at 7 - 2 = 5."""
    _to(game, "fire-veteran", 2)
    play(game, "fire ariete t55 range=40 weapon=gun-heavy dice=1,9")
    assert rolls(play(game, "morale t55 m7 dice=1"))[0].target == 5


@pytest.mark.audits("BI-R240", "BI-R140", "BI-AMB-60")
@pytest.mark.parametrize("cm,fires", [(14, True), (15, False)])
def test_a_slowed_stabilised_tank_fires_after_less_than_half_of_what_it_has_left(game, cm, fires):
    """A.16.5 with A.12.4 3-4: Leo's 60 cm halved to 30; it fires on the move only after
    less than half of that (BI-AMB-60, strict): 14 cm, at -1; 15 cm, no fire."""
    play(game, "hit leo weapon=rpg dice=1,3")
    _to(game, "move-second", 2)
    play(game, f"@red move leo {cm}")
    _to(game, "fire-regular", 2)
    try:
        facts = play(game, "fire leo bruno range=30 weapon=mg dice=10,10,10")
    except Refused:
        facts = None
    assert (facts is not None) is fires
    if fires:
        assert set(chances(facts)) == {4}  # Regular 4, short +1, on the move -1


@pytest.mark.audits("BI-R210", "BI-AMB-58")
def test_a_sniper_who_holds_his_fire_has_spent_his_turn(game):
    """A.16.1: a 3 on 1d6 for a Regular: he chooses not to fire; he does not roll again."""
    facts = play(game, "fire said bruno range=30 dice=3")
    assert not rolls(facts, "A.9.4")
    assert _refused(game, "fire said bruno range=30 dice=1,1,10")


@pytest.mark.audits("BI-R140", "BI-R181")
def test_a_tank_that_lost_its_only_gun_fires_no_more(game):
    """A.12.4 7-8: the T-55's one weapon, its main armament: a check at -2, and no fire next
    turn."""
    play(game, "hit t55 weapon=rpg dice=1,7")
    t55 = _unit(game, "t55")
    assert t55.has("weapon-lost-gun-heavy") and t55.has("morale-table-2")
    _to(game, "fire-regular", 2)
    assert _refused(game, "fire t55 camion range=40 dice=1,1")


@pytest.mark.audits("BI-R140", "BI-R025")
def test_a_tank_with_no_radio_moves_without_an_isolation_test(game):
    """A.4: combat vehicles are not bound by command distance to move or fire, only
    "considerati isolati ai fini del morale": no test before the T-55 moves."""
    play(game, "hit t55 weapon=rpg dice=1,2")
    _to(game, "move-second", 2)
    facts = play(game, "@red move t55 20")
    assert not rolls(facts)


@pytest.mark.audits("BI-R231")
def test_a_flash_bang_calls_no_check(game):
    """A.16.4: "Shoccano tutti i fanti entro cm.5": shocked, with no morale check the book
    asks."""
    play(game, "flashbang bruno tariq walid")
    assert all(_unit(game, u).has("shocked") and not _unit(game, u).has("morale-due") for u in ("tariq", "walid"))


@pytest.mark.audits("BI-R230", "BI-R112", "BI-AMB-35")
def test_a_rubber_bullets_wound_on_a_seriously_wounded_man_kills_him(game):
    """A.16.4: the rubber bullet's "Ferito" counts as "Shoccato"; BI-AMB-35: on a seriously
    wounded man any result from Shocked up kills him."""
    play(game, "hit nabil weapon=assault-rifle dice=9,6", "fire rubbo nabil range=10 dice=1,7")
    assert not _unit(game, "nabil").in_play


@pytest.mark.audits("BI-R120", "BI-R182", "BI-R181")
def test_an_immobilised_truck_that_panics_stays_and_is_shocked(game):
    """A.12.2 5-7: immobilised, a check at -2 (and -2 under automatic fire): 7 - 4 = 3; a
    10 fails, a 5 is Panic: it cannot flee, it counts as Shocked."""
    play(game, "hit ural weapon=assault-rifle dice=6")
    facts = play(game, "morale ural m7 dice=10,5")
    assert rolls(facts)[0].target == 3
    assert not [e for e in facts if type(e).__name__ == "Moved"]
    assert _unit(game, "ural").has("shocked") and _unit(game, "ural").in_play


@pytest.mark.audits("BI-R110", "BI-R113")
def test_the_death_clocks_six_runs_to_the_end_of_turn_seven(game):
    """A.12.1 9: "entro 1d6 turni": a 6 in turn 1: alive in turn 7's fire, dead in turn 8."""
    play(game, "hit nabil weapon=assault-rifle dice=9,6")
    _to(game, "fire-regular", 7)
    assert _unit(game, "nabil").in_play
    _to(game, "initiative", 8)
    assert not _unit(game, "nabil").in_play


@pytest.mark.audits("BI-R102", "BI-R110", "BI-AMB-18")
def test_a_wounded_commander_calls_one_level_harder(game):
    """A.11 with A.12.1: a wounded man's actions are one level harder: a dedicated battery
    (Normal) is Difficult, half of 4: 2; general support (Difficult) is beyond him."""
    play(game, "hit cdr weapon=assault-rifle dice=6")
    _to(game, "fire-regular", 2)
    assert _refused(game, "call cdr general mm=81 dice=1")
    facts = play(game, "call cdr dedicated mm=81 dice=3")
    assert [r.target for r in rolls(facts, "BI-R102")] == [2]


@pytest.mark.audits("BI-R102", "BI-R103")
def test_a_failed_contact_brings_no_ranging_shot_and_is_tried_again(game):
    """A.11: only once "contattata" with success does the battery fire its ranging shot: a
    5 fails the Regular's 4; no ranging shot in turn 2, a new call, its shot in turn 3."""
    play(game, "call cdr dedicated mm=81 dice=5")
    _to(game, "fire-regular", 2)
    assert _refused(game, "ranging cdr dice=1,1")
    play(game, "call cdr dedicated mm=81 dice=4")
    _to(game, "fire-regular", 3)
    assert outcomes(play(game, "ranging cdr dice=1,1"), "BI-R103") == ["precise"]


@pytest.mark.audits("BI-R140")
def test_a_weapons_result_with_no_weapon_left_still_calls_a_check(game):
    """A.12.4 7-8: the T-55 has lost its one gun; a second Weapons result destroys nothing
    more, but "controllare il morale" still stands."""
    play(game, "hit t55 weapon=rpg dice=1,7", "morale t55 m7 dice=1", "hit t55 weapon=rpg dice=1,8")
    assert _unit(game, "t55").has("morale-due") and _unit(game, "t55").in_play


@pytest.mark.audits("BI-R105", "BI-R171", "BI-AMB-47", "BI-AMB-48")
def test_a_light_mortars_smoke_for_effect_lays_its_strip_for_six_turns_and_the_die(game):
    """A.11 and A.14.2: smoke shells fired as fire for effect; "Distanza Breve x 6 volte la
    Distanza Lunga": a 60 mm mortar (4 and 8 cm) lays 4 x 48 cm; 6 + a 2: fired in turn 3,
    it lasts through turn 10."""
    play(game, "call cdr mortar mm=60 dice=1")
    _to(game, "fire-regular", 2)
    play(game, "ranging cdr dice=1,1")
    _to(game, "fire-regular", 3)
    facts = play(game, "ffe cdr smoke dice=2")
    assert outcomes(facts, "BI-R171") == ["8 turns"]
    (smoke,) = [e.value for e in facts if type(e).__name__ == "VarSet" and e.key.startswith("smoke.")]
    assert "4 x 48 cm" in smoke and smoke.endswith("|10")


@pytest.mark.audits("BI-R110", "BI-AMB-20")
def test_a_man_shocked_in_the_movement_phase_before_his_move_may_not_advance(game):
    """BI-AMB-20: held from the result: Carlo, shocked by a hit in turn 2's movement phase
    before he moved, may not move towards the enemy in it; away he may (once he has taken the
    morale check the hit made due, BI-R180)."""
    _to(game, "move-first", 2)
    play(game, "hit carlo weapon=assault-rifle dice=3", "morale carlo dice=1")
    assert _refused(game, "@blue move carlo 5")
    play(game, "@blue move carlo 5 away")


@pytest.mark.audits("BI-R110", "BI-R041", "BI-AMB-13")
@pytest.mark.parametrize("cm,ok", [(12, True), (12.5, False)])
def test_a_wounded_man_runs_half_and_not_two_turns_running(game, cm, ok):
    """A.12.1 with A.6.1: running 24 cm, halved by the wound: 12; and not again the next
    turn."""
    play(game, "hit fares weapon=assault-rifle dice=6")
    _to(game, "move-second", 2)
    assert _refused(game, f"@red move fares {cm} running") is not ok
    if ok:
        play(game, f"@red move fares {cm} running")
        _to(game, "move-second", 3)
        assert _refused(game, "@red move fares 12 running")
