"""Ludonet rules the rules map (core/rulesets/ludonet/data/rules_map.toml) found with no
test of their own, each checked from the fragment with exact dice."""

from __future__ import annotations

from ln_support import play, rolls, to_phase

from core.language.i18n import plain


def test_ln_r037_a_wound_costs_one_to_fire_and_two_in_melee_and_nothing_else(armoured):
    """LN-R037: a wounded figure fires at −1 (LN-R031) and fights a melee at −2 (LN-R051);
    LN-AMB-09 (ruling LN-WOUND): a wound does nothing else, a wounded figure walks and runs
    as before."""
    to_phase(armoured, 1, "move-second")
    play(armoured, "mark fritz wounded", "mark hans wounded")
    play(armoured, "@garrison move fritz 10")  # a full walk
    play(armoured, "@garrison move kurt 14 run dice=1", "mark kurt wounded")
    to_phase(armoured, 1, "fire")
    # Hans has not moved: 5+ beyond half range, wounded −1: the die needs a 6, and a 5 misses
    facts = play(armoured, "@garrison fire hans smith full dice=5")
    (shot,) = rolls(facts)
    assert (shot.target, [m.value for m in shot.mods], plain(shot.outcome)) == (6, [-1], "miss")
    to_phase(armoured, 1, "melee")
    # Hans 6 − 2 = 4 against Jones (expert) 4 + 1 = 5: Jones wins and Hans is eliminated
    facts = play(armoured, "@garrison melee hans jones dice=6,4")
    hans, jones = rolls(facts)
    assert [m.value for m in hans.mods] == [-2] and plain(hans.outcome) == "total 4"
    assert [m.value for m in jones.mods] == [1] and plain(jones.outcome) == "total 5"
    assert plain(armoured.state.units["hans"].out) == "eliminated in melee by Pte Jones"
    to_phase(armoured, 2, "move-second")
    play(armoured, "@garrison move kurt 14 run dice=1")  # wounded, he still runs 14 cm
