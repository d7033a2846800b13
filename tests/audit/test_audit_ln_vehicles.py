"""Audit of Ludonet's fire involving vehicles (B.7, B.9 LN-R071) from the book alone:
to hit as usual, then 1d6 + combat value each; the margin at each edge (0|1, 2|3)
against a tank and against a man; two turns immobilised, still firing; wrecks."""

from __future__ import annotations

import pytest
from audit_ln_table import after_fire, has, out, outcomes, play, refused, said, to_phase


@pytest.mark.audits("LN-R040", "LN-R041")
@pytest.mark.parametrize(
    ("mine", "theirs", "result"),
    [(4, 3, "none"), (5, 4, "none"), (5, 3, "immobilised"), (6, 3, "immobilised"), (6, 2, "destroyed")],
)
def test_the_opposed_roll_against_a_tank(fire, mine, theirs, result):
    """The PIAT (combat value 2) at the Panzer (3): margin <= 0 nothing, 1-2 immobilised, >= 3 destroyed."""
    facts = play(fire, f"@paras fire piat panzer half dice=3,{mine},{theirs}")  # expert, half: 3 hits
    assert outcomes(facts)[0] == "hit"
    assert outcomes(facts)[-1].endswith(result if result != "none" else "no damage")
    assert not out(fire, "panzer") and not has(fire, "panzer", "immobilised")  # at the end of the fire
    after_fire(fire)
    assert out(fire, "panzer") == (result == "destroyed")
    assert has(fire, "panzer", "immobilised") == (result == "immobilised")


@pytest.mark.audits("LN-R040")
def test_to_hit_a_tank_is_the_usual_roll(fire):
    assert outcomes(play(fire, "@paras fire piat panzer full cover dice=4")) == ["miss"]  # 5 - 1 + 1 = 5
    assert outcomes(play(fire, "@paras fire jones panzer full cover dice=5,1,6"))[0] == "hit"


@pytest.mark.audits("LN-R041", "LN-AMB-10")
@pytest.mark.parametrize(("mine", "result"), [(1, "no damage"), (2, "wound"), (3, "wound"), (4, "eliminated")])
def test_a_tank_firing_at_a_man_wounds_on_1_or_2_and_kills_on_3(fire, mine, result):
    """The Panzer (3) at Jones (no combat value: 0), who rolls 4: margins 0, 1, 2, 3."""
    facts = play(fire, f"@garrison fire panzer jones half dice=4,{mine},4")
    assert outcomes(facts)[-1].endswith(result)
    after_fire(fire)
    assert out(fire, "jones") == (result == "eliminated")
    assert has(fire, "jones", "wounded") == (result == "wound")


@pytest.mark.audits("LN-AMB-11", "LN-R041")
def test_immobilised_for_two_turns_and_still_firing(fire):
    play(fire, "@paras fire piat panzer half dice=3,5,3")  # margin 1
    after_fire(fire)
    for turn in (2, 3):
        to_phase(fire, turn, "move-second")
        refused(fire, "@garrison move panzer 5", rule="LN-R041")
        to_phase(fire, turn, "fire")
        play(fire, "@garrison fire panzer jones half dice=1")  # it may fire
    to_phase(fire, 4, "move-second")
    play(fire, "@garrison move panzer 20")


@pytest.mark.audits("LN-R071")
def test_a_destroyed_vehicle_is_removed_or_marked_as_a_wreck(fire):
    """ "Ogni veicolo distrutto nel turno può essere rimosso oppure segnalato con dell'ovatta"."""
    play(fire, "@paras fire piat panzer half dice=3,6,1")  # margin 4
    facts = play(fire, "next")
    assert out(fire, "panzer") and "cotton wool" in said(facts)


@pytest.mark.audits("LN-R040", "LN-R041")
def test_a_tank_against_a_tank_takes_the_same_opposed_roll(fire):
    """The Sherman (4) at the Panzer (3): 2 + 4 against 3 + 3 is no damage; the Panzer at
    the Sherman: 5 + 3 against 1 + 4 destroys it."""
    assert outcomes(play(fire, "@paras fire sherman panzer half dice=4,2,3"))[-1].endswith("no damage")
    assert outcomes(play(fire, "@garrison fire panzer sherman half dice=4,5,1"))[-1].endswith("destroyed")
