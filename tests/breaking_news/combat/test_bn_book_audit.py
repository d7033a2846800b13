"""Breaking News rules checked from the rulebook and its digest alone (issue #46's audit):
each test states the situation, the dice and the outcome the book gives."""

from __future__ import annotations

from bn_combat_support import next_turn, rolls, status
from playing import refused

# -------------------------------------------------------------- §6.3 vehicles


def test_getting_into_a_vehicle_is_the_whole_action_so_no_fire(rng):
    """§6.3, T-03: getting into the Hummer "requires a complete move": Emfour, aboard, may
    not also fire in that activation, whatever die he would roll.

    Digest: MOV-5, T-03.
    """
    rng.execute("embark m4 hummer", role="regulars")
    refused(rng, "@regulars fire m4 kalash range=30 dice=6,6,6", "already acted", rule="T-03")
    assert "fired" not in status(rng, "m4")


def test_getting_out_of_a_vehicle_is_the_whole_action_so_no_fire(rng):
    """§6.3, T-03: getting out of the Hummer is Emfour's whole action: no fire, no covering fire
    and no speculative fire after it in that activation; the next turn he fires as usual (his 1 is rolled, and misses).

    Digest: MOV-5, T-03.
    """
    rng.execute("embark m4 hummer", role="regulars")
    next_turn(rng, "regulars")
    rng.execute("disembark m4", role="regulars")
    refused(rng, "@regulars fire m4 kalash range=30 dice=6,6,6", "already acted", rule="T-03")
    refused(rng, "@regulars speculative m4 kalash range=30 dice=6", "already acted", rule="T-03")
    next_turn(rng, "regulars")
    shot = rolls(rng.execute("fire m4 kalash range=30 aimed dice=1", role="regulars"))
    assert [r.faces for r in shot] == [(1,)]
