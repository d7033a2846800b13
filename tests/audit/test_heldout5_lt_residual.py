"""Fifth held-out round of Linea di Tiro: the residual items of the last audits, each held
against the book. What a fall back costs a piece that is in the middle of its own
activation (C.8 "Morale": "indietreggia di 5 cm, fronte al nemico e perde tutti i colpi
pronti"; C.3 "Attivazione"; C.6 "chi scappa non spara!"): the 5 cm back and its ready
attacks, and nothing else of its activation; a flight, by contrast, ends what is left.

Every piece here carries its own numbers (``stats``): the US tank ``s`` (AT attack 5,
front 9, morale 3) and the German tank ``t`` (AT attack 5, front 9, holding one ready
attack). Either's AT shot at the other is column -4 (5 - 9): 2 on 2d6 is a T, 12 nothing.
"""

from __future__ import annotations

import pytest
from audit_lt_table import add, game_with, has, moved, out, outcome, play, refused

US_TANK = {"at": 5, "at_long": 5, "front": 9, "side": 9, "morale": 3, "bound": 10, "speed": 30}
GERMAN_TANK = {"at": 5, "at_long": 5, "front": 9, "side": 9, "morale": 4}


def _shot_and_answered(tmp_path, option: str, morale_die: int):
    """Under a US card the Sherman, activated with ``option``, fires at the Panzer (12: no
    effect); the Panzer answers with its ready attack (2: T, LT-R052); the Sherman tests
    morale 3 with ``morale_die`` (LT-R080). Returns the game and the test's facts."""
    g = game_with(tmp_path, ["7♥", "3♣"])
    add(g, "s", "us", "sherman", team="1st Platoon", stats=US_TANK)
    add(g, "t", "german", "pz4", team="Zug 1", status=("ready-1",), stats=GERMAN_TANK)
    play(g, "next", f"@us activate s {option}")
    assert "no effect" in outcome(play(g, "@us at s t dice=6,6"))
    assert "T" in outcome(play(g, "@german at t s ready dice=1,1"))
    return g, play(g, f"@us morale s dice={morale_die}")


@pytest.mark.audits("LT-R080", "LT-R020", "LT-R041")
def test_a_piece_that_falls_back_still_makes_the_bound_of_its_activation(tmp_path):
    """C.8 LT-R080 (ruling LT-FALL-BACK): morale 3, a 4 (above 3, under 6) falls back 5 cm
    facing the enemy; the book takes the ready attacks and nothing more, so the Sherman,
    activated A2 (attack, then bound), still makes its whole 10 cm bound (C.5), no more."""
    g, facts = _shot_and_answered(tmp_path, "A2", 4)
    assert "fall-back" in outcome(facts) and moved(facts) == [5]
    assert not has(g, "s", "retreating")
    refused(g, "@us move s 11", rule="LT-R041")
    assert moved(play(g, "@us move s 10")) == [10]


@pytest.mark.audits("LT-R080", "LT-R020")
def test_a_piece_that_falls_back_still_executes_the_attacks_of_its_activation(tmp_path):
    """C.3 A4, "eseguire 2 attacchi": the attacks an activation executes are not "colpi
    pronti"; after falling back the Sherman still fires its second attack (12: nothing)."""
    g, facts = _shot_and_answered(tmp_path, "A4 prepare=0", 5)
    assert "fall-back" in outcome(facts) and moved(facts) == [5]
    assert "no effect" in outcome(play(g, "@us at s t dice=6,6"))
    assert not out(g, "t")


@pytest.mark.audits("LT-R080", "LT-R052", "LT-AMB-08")
def test_a_piece_that_falls_back_loses_the_attack_it_had_prepared(tmp_path):
    """A3 prepares one attack (and executes one): falling back, the Sherman loses its
    "colpi pronti", so when the Panzer fires at it again under the German card it has no
    ready attack to answer with (LT-R052)."""
    g, facts = _shot_and_answered(tmp_path, "A3", 4)
    assert "fall-back" in outcome(facts)
    assert not has(g, "s", "ready-1")
    play(g, "next", "@german activate t A2", "@german at t s dice=6,6")
    refused(g, "@us at s t ready dice=1,1", rule="LT-R052")


@pytest.mark.audits("LT-R080", "LT-R033")
def test_a_fall_back_is_no_repositioning(tmp_path):
    """C.4: only activating the piece for a bound stops the doubling of its visibility
    after firing ("riposizionare ... attivandolo per un balzo"); the 5 cm of a fall back
    is not that bound: the Sherman that fired keeps its doubled visibility until it bounds."""
    g, facts = _shot_and_answered(tmp_path, "A2", 4)
    assert "fall-back" in outcome(facts)
    assert has(g, "s", "fired-1")
    play(g, "@us move s 10")
    assert not has(g, "s", "fired-1")


@pytest.mark.audits("LT-R080", "LT-R051")
def test_a_piece_that_flees_ends_its_activation(tmp_path):
    """The contrast: morale 3, a 6 (= 2 x 3) flees the Sherman's full move, back to the
    enemy; "chi scappa non spara!", and its flight is all the moving it does: no bound,
    no second attack under this card."""
    g, facts = _shot_and_answered(tmp_path, "A2", 6)
    assert "flee" in outcome(facts) and moved(facts) == [30]
    refused(g, "@us move s 10", rule="LT-R080")
    refused(g, "@us at s t dice=6,6", rule="LT-R051")


# --- C.3: "o v.v.": the attack an activation prepares may come after its other half ---------


@pytest.mark.audits("LT-R020", "LT-R080")
def test_a3_executes_first_then_prepares_after_falling_back(tmp_path):
    """C.3 A3, "eseguire e preparare un attacco o v.v." (LT-R020): the Sherman executes
    first, keeping its preparation for after; answered with a T, it falls back (a 4 on
    morale 3), which costs only what it holds ready (LT-FALL-BACK): then it prepares its
    one attack, and no second."""
    g, facts = _shot_and_answered(tmp_path, "A3 prepare=0", 4)
    assert "fall-back" in outcome(facts)
    play(g, "@us prepare s")
    assert has(g, "s", "ready-1")
    refused(g, "@us prepare s", rule="LT-R020")


@pytest.mark.audits("LT-R020")
def test_a1_bounds_first_then_prepares(tmp_path):
    """C.3 A1, "effettuare un balzo e preparare un attacco o v.v.": the bound, then the
    preparation; nothing is executed."""
    g = game_with(tmp_path, ["7♥"])
    add(g, "s", "us", "sherman", team="1st Platoon", stats=US_TANK)
    add(g, "t", "german", "pz4", team="Zug 1", stats=GERMAN_TANK)
    play(g, "next", "@us activate s A1 prepare=0", "@us move s 10", "@us prepare s")
    assert has(g, "s", "ready-1")
    refused(g, "@us at s t dice=6,6", rule="LT-R020")


@pytest.mark.audits("LT-R020")
def test_a4_executes_one_then_prepares_the_other(tmp_path):
    """C.3 A4, "preparare o eseguire 2 attacchi": one executed, then the second prepared,
    and none left to execute."""
    g = game_with(tmp_path, ["7♥"])
    add(g, "s", "us", "sherman", team="1st Platoon", stats=US_TANK)
    add(g, "t", "german", "pz4", team="Zug 1", stats=GERMAN_TANK)
    play(g, "next", "@us activate s A4 prepare=0", "@us at s t dice=6,6", "@us prepare s")
    assert has(g, "s", "ready-1")
    refused(g, "@us at s t dice=6,6", rule="LT-R020")


@pytest.mark.audits("LT-R020", "LT-R051", "LT-R080")
def test_a_flight_takes_the_preparation_left_for_after(tmp_path):
    """C.6 "chi scappa non spara!": the Sherman, A3 with its preparation left for after,
    flees on a 6 (= 2 x 3); it prepares nothing more under this card."""
    g, facts = _shot_and_answered(tmp_path, "A3 prepare=0", 6)
    assert "flee" in outcome(facts)
    refused(g, "@us prepare s", rule="LT-R051")
    assert not has(g, "s", "ready-1")


@pytest.mark.audits("LT-R020")
def test_a2_prepares_nothing_and_no_piece_prepares_out_of_its_card(tmp_path):
    """C.3: A2 is a bound and an executed attack, no preparation; and only a piece
    activated on the card prepares: the Panzer, under the US card, does not."""
    g = game_with(tmp_path, ["7♥"])
    add(g, "s", "us", "sherman", team="1st Platoon", stats=US_TANK)
    add(g, "t", "german", "pz4", team="Zug 1", stats=GERMAN_TANK)
    play(g, "next", "@us activate s A2")
    refused(g, "@us prepare s", rule="LT-R020")
    refused(g, "@german prepare t", rule="LT-R010")
    assert not has(g, "s", "ready-1") and not has(g, "t", "ready-1")


@pytest.mark.audits("LT-R020", "LT-AMB-08")
def test_a4_prepares_one_now_and_the_other_instead_of_executing_it(tmp_path):
    """C.3 A4, two attacks prepared or executed: one prepared as it begins, the second
    prepared later in place of its execution; two held (LT-AMB-08), none to execute."""
    g = game_with(tmp_path, ["7♥"])
    add(g, "s", "us", "sherman", team="1st Platoon", stats=US_TANK)
    add(g, "t", "german", "pz4", team="Zug 1", stats=GERMAN_TANK)
    play(g, "next", "@us activate s A4 prepare=1", "@us prepare s")
    assert has(g, "s", "ready-2")
    refused(g, "@us at s t dice=6,6", rule="LT-R020")
    refused(g, "@us prepare s", rule="LT-AMB-08")
