"""The audit of Bassa Intensità A.6-A.8 (movement on foot and by vehicle, opportunity and
covering fire, the fire and actions phase, actions), written from the book ("MOVIMENTO",
"TIRI DI OPPORTUNITÀ E DI COPERTURA", "FUOCO E AZIONI", "AZIONI") and its digest alone."""

from __future__ import annotations

import pytest
from audit_bi_early import KILL, chances, goto, outcomes, play, refused, rolls, table
from audit_common import moved as _moved
from playing import names

from core.ruleset import Refused
from core.rulesets.bassa_intensita import rules

HIT = "hit: roll damage (A.12)"


game = table()


def _edge(g, unit: str, allowed: float, extra: str = "", *, rule: str) -> None:
    """``unit`` may move ``allowed`` cm and not half a cm more, refused by ``rule`` (one turn each)."""
    turn = g.state.turn
    with pytest.raises(Refused) as no:
        play(g, f"move {unit} {allowed + 0.5} {extra}".strip())
    names(no.value, rule)
    assert _moved(play(g, f"move {unit} {allowed} {extra}".strip())) == [allowed]
    assert g.state.turn == turn


# ------------------------------------------------------------------ A.6.1 on foot


@pytest.mark.audits("BI-R040")
@pytest.mark.parametrize(("mode", "cm"), [("cautious", 8), ("normal", 16), ("running", 24)])
def test_a_man_moves_up_to_his_mode_allowance(game, mode, cm):
    """A.6.1: Cautious 8 cm, Normal 16 cm, Running 24 cm, at most."""
    goto(game, "move-first", 1)
    _edge(game, "bruno", cm, mode, rule="BI-R040")


@pytest.mark.audits("BI-R041")
def test_a_man_who_ran_may_not_run_the_next_turn_but_may_the_one_after(game):
    """A.6.1: running not on 2 consecutive turns; he may still move normally."""
    goto(game, "move-first", 1)
    play(game, "move bruno 24 running")
    goto(game, "move-first", 2)
    refused(game, "move bruno 10 running", rule="BI-R041")
    assert _moved(play(game, "move bruno 16 normal")) == [16]
    goto(game, "move-first", 3)
    assert _moved(play(game, "move bruno 24 running")) == [24]


@pytest.mark.audits("BI-R042", "BI-AMB-12")
@pytest.mark.parametrize(
    ("mode", "via", "cm"),
    [
        ("normal", "under-fire", 12),  # -25%
        ("normal", "stand-up", 12),  # -25%
        ("normal", "door", 12),  # -25%
        ("normal", "window", 8),  # -50%
        ("normal", "car", 8),  # -50%
        ("normal", "carrying", 8),  # -50%
        ("normal", "low-obstacle", 8),  # -50%
        ("running", "door,window", 6),  # -25% -50% added: -75% of 24
        ("normal", "door,window", 4),  # -75% of 16 (multiplied it would be 6)
        ("cautious", "under-fire", 6),  # -25% of 8
    ],
)
def test_movement_modifiers_are_percentages_of_the_mode_added_together(game, mode, via, cm):
    """A.6.1: the percentages take off the mode's allowance; several add up (BI-AMB-12)."""
    goto(game, "move-first", 1)
    _edge(game, "bruno", cm, f"{mode} via={via}", rule="BI-R042")


@pytest.mark.audits("BI-R042", "BI-AMB-12")
def test_modifiers_past_the_whole_allowance_leave_no_move(game):
    """A.6.1: -50% -50% -50% is capped at -100%: nothing left to move."""
    goto(game, "move-first", 1)
    refused(game, "move bruno 1 running via=window,car,carrying", rule="BI-R042")


@pytest.mark.audits("BI-R042")
@pytest.mark.parametrize("via", ["high-obstacle", "floor", "armoured"])
def test_a_whole_turn_modifier_takes_the_whole_move(game, via):
    """A.6.1: a large obstacle, changing floor, an armoured vehicle: 1 whole turn; the man
    covers no distance and has moved for the turn (he may not fire)."""
    goto(game, "move-first", 1)
    refused(game, f"move bruno 5 via={via}", rule="BI-R042")
    assert _moved(play(game, f"move bruno 0 via={via}")) == [0]
    goto(game, "fire-regular", 1)
    refused(game, "fire bruno tariq range=20", rule="BI-R030")


@pytest.mark.audits("BI-R042", "BI-AMB-13")
def test_a_wounded_man_moves_at_half_once(game):
    """A.6.1: the mover is wounded: -50% (16 -> 8), the damage table's "movement halved"
    being the same effect, not applied twice; with a door as well, -75% (16 -> 4)."""
    play(game, "mark bruno wounded", "mark carlo wounded")
    goto(game, "move-first", 1)
    _edge(game, "bruno", 8, "normal", rule="BI-R042")
    _edge(game, "carlo", 4, "normal via=door", rule="BI-R042")


@pytest.mark.audits("BI-R042")
def test_a_man_lying_down_loses_a_quarter_standing_up(game):
    """A.6.1: standing up -25%: a prone man's normal move is 12 cm, not 12.5, and he is no
    longer prone after it."""
    play(game, "mark bruno prone")
    goto(game, "move-first", 1)
    _edge(game, "bruno", 12, "normal", rule="BI-R042")
    assert not game.state.units["bruno"].has("prone")


@pytest.mark.audits("BI-R002", "BI-R042")
def test_a_percentage_of_the_allowance_rounds_up():
    """A.2 and A.6.1: -25% of 10 cm is 7.5 -> 8 (no mode of the book gives a fraction, so
    the rule's own function is asked)."""
    assert rules.foot_allowance(10, ["door"]) == 8
    assert rules.foot_allowance(10, ["window"]) == 5


# ------------------------------------------------------------------ A.6.2 vehicles


@pytest.mark.audits("BI-R045", "BI-AMB-14")
@pytest.mark.parametrize(
    ("unit", "road", "off_road"),
    [
        ("ariete", 60, 60),  # tank
        ("vcc", 80, 80),  # tracked transport
        ("puma", 80, 60),  # wheeled 4x4 transport
        ("blindo", 80, 60),  # armoured car: as a wheeled 4x4 (BI-AMB-14)
        ("jeep", 120, 20),  # civilian wheeled
        ("tecnica", 120, 20),  # technical: as a civilian wheeled (BI-AMB-14)
    ],
)
def test_a_vehicle_moves_its_type_allowance_on_and_off_road(game, unit, road, off_road):
    """A.6.2: the allowance per turn by type, on road and off road, and not half a cm more."""
    goto(game, "move-first", 1)
    _edge(game, unit, road, "road", rule="BI-R045")
    goto(game, "move-first", 2)
    _edge(game, unit, off_road, "off-road", rule="BI-R045")


@pytest.mark.audits("BI-R045", "BI-R002")
def test_a_mobility_hit_halves_the_allowance_rounding_up(game):
    """A.6.2 with A.12's "movement halved": a tank's 60 -> 30, halved again 15; and an odd
    allowance halves up: 15 -> 8 (7.5), 5 -> 3 (2.5), never 7 or 2."""
    play(game, "mark ariete slowed")
    goto(game, "move-first", 1)
    _edge(game, "ariete", 30, "off-road", rule="BI-R045")
    play(game, "mark ariete slowed-twice")
    goto(game, "move-first", 2)
    _edge(game, "ariete", 15, "off-road", rule="BI-R045")
    assert rules.vehicle_allowance(15, 15, False, 1, False) == 8
    assert rules.vehicle_allowance(60, 5, False, 1, False) == 3
    assert rules.vehicle_allowance(60, 15, False, 2, False) == 4


@pytest.mark.audits("BI-R047")
def test_a_helicopter_flies_two_d6_times_ten_cm(game):
    """A.6.2: 2d6 x 10 cm: 3 + 4 = 70 cm; asked for 80 it flies only 70."""
    goto(game, "move-first", 1)
    facts = play(game, "move lynx 80 dice=3,4")
    assert [r.faces for r in rolls(facts)] == [(3, 4)]
    assert _moved(facts) == [70]
    goto(game, "move-first", 2)
    assert _moved(play(game, "move lynx 20 dice=1,1")) == [20]


# ------------------------------------------------------------------ A.7 opportunity and covering fire


@pytest.mark.audits("BI-R050", "BI-R002")
def test_opportunity_fire_is_at_half_in_the_enemy_movement_and_spends_the_turn(game):
    """A.7: during the opponent's movement, at half: a Regular 4 -> 2 (2 hits, 3 misses);
    not in his own side's movement; afterwards he neither moves nor fires in the fire phase."""
    goto(game, "move-first", 1)
    refused(game, "@blue fire bruno tariq range=20", rule="BI-R050")
    facts = play(game, "@blue move gino 10", "@red fire tariq gino range=20 dice=3,2," + KILL)
    assert chances(facts) == [2, 2] and outcomes(facts, "A.9.4") == ["miss", HIT]
    goto(game, "move-second", 1)
    refused(game, "@red move tariq 5", rule="BI-R030")
    goto(game, "fire-regular", 1)
    refused(game, "fire tariq bruno range=20", rule="BI-R030")


@pytest.mark.audits("BI-R051", "BI-R052", "BI-R054", "BI-AMB-16")
def test_covering_fire_at_a_visible_enemy_is_declared_before_movement_at_a_single_half(game):
    """A.7: declared before the movement phase; against a visible enemy it is opportunity
    fire, halved once (a Veteran 5 -> 3, not 5/4 -> 2); the firer then neither moves
    nor fires in the fire phase."""
    goto(game, "cover", 1)
    facts = play(game, "@blue fire vito tariq range=20 dice=4,3," + KILL)
    assert chances(facts) == [3, 3] and outcomes(facts, "A.9.4") == ["miss", HIT]
    goto(game, "move-first", 1)
    refused(game, "@blue move vito 5", rule="BI-R030")
    goto(game, "fire-veteran", 1)
    refused(game, "fire vito fares range=20", rule="BI-R030")


@pytest.mark.audits("BI-R053", "BI-R054", "BI-AMB-17")
def test_covering_fire_at_a_feature_is_for_automatic_weapons_and_strikes_a_hidden_firer_at_half(game):
    """A.7: only automatic weapons fire at a terrain feature (a rifle cannot); it is
    rolled only when a hidden enemy there tries to fire, at half (Regular SAW 4 -> 2:
    2 hits, 3 misses), and it spends the firer's turn."""
    goto(game, "cover", 1)
    refused(game, '@blue screen carlo feature="the wood"', rule="BI-R053")
    facts = play(game, '@blue screen sam feature="the wood"')
    assert rolls(facts) == []
    refused(game, "screened sam tariq range=20", rule="ENG-2")  # Tariq is not hidden
    play(game, "mark tariq hidden", "mark fares hidden")
    goto(game, "move-first", 1)
    refused(game, "@blue move sam 5", rule="BI-R030")
    facts = play(game, "screened sam tariq range=20 dice=3,3")
    assert chances(facts) == [2, 2] and outcomes(facts, "A.9.4") == ["miss", "miss"]
    assert game.state.units["tariq"].has("hidden")
    facts = play(game, "screened sam fares range=20 dice=2," + KILL)
    assert chances(facts)[:1] == [2] and outcomes(facts, "A.9.4")[:1] == [HIT]
    goto(game, "fire-regular", 1)
    refused(game, "fire sam omar range=20", rule="BI-R030")


# ------------------------------------------------------------------ A.8 fire and actions


@pytest.mark.audits("BI-R060", "BI-R062")
def test_in_the_fire_phase_only_men_who_neither_moved_nor_fired_fire_or_act(game):
    """A.8: one who moved may neither fire nor act; one who did not may do one of the two,
    a soldier or a vehicle."""
    goto(game, "move-first", 1)
    play(game, "move bruno 5")
    goto(game, "fire-regular", 1)
    for line in ("fire bruno tariq range=20", "act bruno normal"):
        refused(game, line, rule="BI-R030")
    assert chances(play(game, "fire carlo tariq range=30 dice=9")) == [4]
    refused(game, "fire carlo fares range=30", rule="BI-R030")
    play(game, "fire tank2 tariq range=50 dice=10,1")  # a vehicle too: it fired (an HE miss, a dud)
    refused(game, "act tank2 normal", rule="BI-R030")


@pytest.mark.audits("BI-R061")
def test_tiers_fire_from_elite_down_and_a_higher_tier_kills_before_a_lower_fires(game):
    """A.8: Elite first, then Veterans, Regulars...; a tier's results take effect before
    the lower tiers fire: Tariq (Regular) killed by Vito (Veteran) never fires; a Regular
    may not fire in the Veterans' tier nor a Veteran in the Elite's."""
    goto(game, "fire-elite", 1)
    refused(game, "fire vito tariq range=20", rule="BI-R061")
    goto(game, "fire-veteran", 1)
    refused(game, "@red fire tariq bruno range=20", rule="BI-R061")
    play(game, "fire vito tariq range=20 dice=1," + KILL)
    goto(game, "fire-regular", 1)
    refused(game, "@red fire tariq bruno range=20", rule="BI-R110")


@pytest.mark.audits("BI-R061")
def test_a_man_killed_in_his_own_tier_still_fires_in_it(game):
    """A.8: fire within a tier is simultaneous: Bruno (Regular) killed by Tariq (Regular)
    in the Regulars' tier still fires his shots in it."""
    goto(game, "fire-regular", 1)
    play(game, "@red fire tariq bruno range=20 dice=1," + KILL)
    assert not game.state.units["bruno"].in_play
    facts = play(game, "fire bruno fares range=20 dice=9,9")
    assert chances(facts) == [4, 4]


@pytest.mark.audits("BI-R065", "BI-R066")
@pytest.mark.parametrize(
    ("unit", "tier", "easy", "normal", "difficult"),
    [
        ("elia", "elite", 12, 6, 3),
        ("vito", "veteran", 10, 5, 3),
        ("bruno", "regular", 8, 4, 2),
        ("remo", "recruit", 6, 3, 2),
        ("rabbi", "rabble", 4, 2, 1),
    ],
)
def test_action_chances_by_difficulty(game, unit, tier, easy, normal, difficult):
    """A.8.1: Very Easy automatic; Easy 2 x Quality; Normal Quality; Difficult 1/2 x
    Quality rounded up; each at its chance succeeds, one above fails (10+ cannot fail)."""
    goto(game, f"fire-{tier}", 1)
    facts = play(game, f"act {unit} very-easy")
    assert rolls(facts) == [] and game.state.units[unit].has("acted")
    turn = 1
    for difficulty, chance in (("easy", easy), ("normal", normal), ("difficult", difficult)):
        turn += 1
        goto(game, f"fire-{tier}", turn)
        if chance >= 10:
            assert rolls(play(game, f"act {unit} {difficulty}")) == []
            continue
        facts = play(game, f"act {unit} {difficulty} dice={chance}")
        assert [r.target for r in rolls(facts, "BI-R066")] == [chance] and outcomes(facts) == ["done"]
        turn += 1
        goto(game, f"fire-{tier}", turn)
        facts = play(game, f"act {unit} {difficulty} dice={chance + 1}")
        assert outcomes(facts) == ["failed"]


@pytest.mark.audits("BI-R068")
def test_emplacing_is_very_easy_and_spends_the_turn(game):
    """A.8.1 and A.9.3: emplacing a weapon is a Very Easy action: done, no die, and the man
    may not fire that turn."""
    goto(game, "fire-regular", 1)
    facts = play(game, "emplace dario")
    assert rolls(facts) == [] and game.state.units["dario"].has("emplaced")
    refused(game, "fire dario tariq range=30", rule="BI-R030")


@pytest.mark.audits("BI-R069", "BI-AMB-18")
def test_a_wounded_man_finds_each_action_one_level_harder(game):
    """A.8.1: worsening moves down the ladder: a wounded Regular's Very Easy becomes Easy
    (8), Normal becomes Difficult (2), and Difficult becomes NO (impossible)."""
    play(game, "mark bruno wounded")
    goto(game, "fire-regular", 1)
    refused(game, "act bruno difficult", rule="BI-R069")
    facts = play(game, "act bruno very-easy dice=9")
    assert [r.target for r in rolls(facts, "BI-R066")] == [8] and outcomes(facts) == ["failed"]
    goto(game, "fire-regular", 2)
    facts = play(game, "act bruno normal dice=3")
    assert [r.target for r in rolls(facts, "BI-R066")] == [2] and outcomes(facts) == ["failed"]


@pytest.mark.audits("BI-R050")
def test_opportunity_fire_is_only_at_a_unit_that_may_be_moving(game):
    """A.7: opportunity fire is at moving enemy units.  Vito made covering fire and Bruno
    failed his isolation test: neither may move this turn, so neither is a moving unit to
    fire at; Carlo, moving, is."""
    goto(game, "cover", 1)
    play(game, "@blue fire vito tariq range=20 dice=9,9")
    goto(game, "move-first", 1)
    play(game, "@blue move bruno 10 lead=9 dice=9")
    for target in ("vito", "bruno"):
        refused(game, f"@red fire fares {target} range=20", match="moving", rule="BI-R050")
    play(game, "@blue move carlo 10")
    assert chances(play(game, "@red fire fares carlo range=20 dice=9,9")) == [2, 2]
