"""A second held-out audit of Ludonet's fire (B.5-B.7), the third look at it, from the
Italian fragment and the digest alone: the half-range edge of two weapons and the end of
range, a move made last turn, an expert who is wounded, three modifiers against one
shooter; every edge of the damage table with and without a heavy weapon, two wounds in
one fire; the grenade's range and half range, its miss, its wound on a wounded man; every
column edge of the opposed roll, a tank at a man, a rifle at a tank, and a shooter that
is eliminated or destroyed still firing in the same fire."""

from __future__ import annotations

import pytest
from audit_ln_table import add, after_fire, has, hits, out, outcomes, play, refused, rolled, to_phase

from core.refusal import TYPING

# ----------------------------------------------------------------------- B.5 to hit


@pytest.mark.audits("LN-R030", "LN-AMB-02", "LN-AMB-06")
@pytest.mark.parametrize(("cm", "face", "hit"), [(30, 4, True), (30.5, 4, False), (30.5, 5, True), (60, 5, True)])
def test_the_rifles_half_range_edge(fire, cm, face, hit):
    """The scenario's rifle reaches 60 cm: "4,5 o 6 se il bersaglio è entro metà raggio"
    (30 cm, inclusive), 5 or 6 beyond it up to 60. Fritz is no expert."""
    assert hits(fire, f"@garrison fire fritz jones range={cm:g} dice={face}" + (",1" if hit else "")) == hit


@pytest.mark.audits("LN-R030", "LN-AMB-02")
def test_beyond_the_weapons_range_there_is_no_shot(fire):
    """ "Una unità entro il raggio di tiro": the rifle's 60 cm, and not 60.5."""
    refused(fire, "@garrison fire fritz jones range=60.5 dice=6,1", rule="LN-R030")


@pytest.mark.audits("LN-R030", "LN-R031", "LN-AMB-06")
@pytest.mark.parametrize(("cm", "hit"), [(10, True), (10.5, False)])
def test_the_stens_half_range_edge_for_an_expert(fire, cm, hit):
    """The Sten reaches 20 cm: within 10 an expert hits on 3 (4 - 1), beyond it on 4."""
    assert hits(fire, f"@paras fire smith fritz range={cm:g} dice=3" + (",1" if hit else "")) == hit


@pytest.mark.audits("LN-R031", "LN-AMB-25")
def test_a_move_made_last_turn_costs_nothing(ln):
    """ "Se il tiratore ha mosso in questo turno": Kurt moved in turn 1, not in turn 2."""
    to_phase(ln, 1, "move-second")
    play(ln, "@garrison move kurt 10")
    to_phase(ln, 2, "fire")
    facts = play(ln, "@garrison fire kurt jones full dice=5,1")
    assert outcomes(facts)[0] == "hit" and not rolled(facts)[0].mods


@pytest.mark.audits("LN-R031", "LN-R037")
@pytest.mark.parametrize(("face", "hit"), [(4, False), (5, True)])
def test_a_wounded_expert_hits_as_a_plain_man(ln, face, hit):
    """+1 for the expert, -1 for his wound: beyond half range 5 or 6, as for anybody."""
    add(ln, "hurt", "paras", roles=("expert",), status=("wounded",))
    to_phase(ln, 1, "fire")
    assert hits(ln, f"@paras fire hurt fritz full dice={face}" + (",1" if hit else "")) == hit


@pytest.mark.audits("LN-R031", "LN-R037", "LN-R021")
def test_a_wound_taken_in_turn_1_costs_one_in_turn_2(fire):
    """Fritz is wounded in turn 1's fire; in turn 2 a 5 beyond half range misses (5 - 1)."""
    play(fire, "@paras fire jones fritz half dice=6,3")
    to_phase(fire, 2, "fire")
    assert not hits(fire, "@garrison fire fritz jones full dice=5")


@pytest.mark.audits("LN-R031", "LN-AMB-05")
@pytest.mark.parametrize(("face", "hit"), [(5, False), (6, True)])
def test_prone_and_in_cover_within_half_range(fire, face, hit):
    """ "Il bersaglio è coricato oppure al riparo": each -1, so 4 + 2 = 6 for Fritz (cumulative,
    not a single -1: LN-AMB-05)."""
    assert hits(fire, f"@garrison fire fritz jones half prone cover dice={face}" + (",1" if hit else "")) == hit


@pytest.mark.audits("LN-R031", "LN-R036", "LN-R035")
def test_the_bren_that_moved_fires_as_it_would_have_standing(move):
    """Evans (expert) moved his 5 cm: +1 - 1, beyond half range a 5 hits; the Bren is
    heavy, so a 4 on the damage die is 5: eliminated."""
    play(move, "@paras move bren 5")
    to_phase(move, 1, "fire")
    facts = play(move, "@paras fire bren fritz full dice=5,4")
    assert outcomes(facts) == ["hit", "eliminated"]


@pytest.mark.audits("LN-R030")
def test_no_fire_at_ones_own_side(fire):
    """ "Dichiara il bersaglio": an enemy; Jones does not shoot Brown."""
    refused(fire, "@paras fire jones brown half dice=6,6", rule=TYPING)


@pytest.mark.audits("LN-R030", "LN-R035")
def test_a_figure_eliminated_last_turn_fires_no_more(fire):
    play(fire, "@paras fire jones fritz half dice=6,6")
    to_phase(fire, 2, "fire")
    refused(fire, "@garrison fire fritz jones half dice=6,6", rule="LN-R037")


# -------------------------------------------------------------------- B.6 damage to figures


@pytest.mark.audits("LN-R035", "LN-R036")
@pytest.mark.parametrize(
    ("shooter", "face", "result"),
    [
        ("jones", 1, "none"),
        ("jones", 2, "wound"),
        ("jones", 4, "wound"),
        ("jones", 5, "eliminated"),
        ("bren", 1, "wound"),
        ("bren", 4, "eliminated"),
    ],
)
def test_every_edge_of_the_damage_die(fire, shooter, face, result):
    """ "Con 5/6 è eliminato, con 2/3/4 è ferito e con 1 il colpo è nullo. Aggiungere +1,
    se l'arma che tira è pesante": the Bren's 1 is 2, a wound; its 4 is 5."""
    facts = play(fire, f"@paras fire {shooter} fritz half dice=6,{face}")
    assert outcomes(facts) == ["hit", result]
    after_fire(fire)
    assert out(fire, "fritz") == (result == "eliminated")
    assert has(fire, "fritz", "wounded") == (result == "wound")


@pytest.mark.audits("LN-R037", "LN-R021")
def test_two_wounds_in_one_fire_eliminate(fire):
    """ "Con due ferite si viene eliminati": Jones and Brown each wound Fritz in the same fire."""
    play(fire, "@paras fire jones fritz half dice=6,2", "@paras fire brown fritz half dice=6,4")
    after_fire(fire)
    assert out(fire, "fritz")


@pytest.mark.audits("LN-R037", "LN-R035")
def test_a_wound_and_a_shot_with_no_effect_leave_one_wound(fire):
    play(fire, "@paras fire jones fritz half dice=6,3", "@paras fire brown fritz half dice=6,1")
    after_fire(fire)
    assert not out(fire, "fritz") and has(fire, "fritz", "wounded")


@pytest.mark.audits("LN-R021", "LN-R035")
def test_a_man_eliminated_in_the_fire_still_fires_in_it(fire):
    """ "I tiri sono simultanei": Hans, eliminated by Brown, still eliminates Jones; both go."""
    play(fire, "@paras fire brown hans half dice=6,6")
    assert outcomes(play(fire, "@garrison fire hans jones half dice=6,6")) == ["hit", "eliminated"]
    after_fire(fire)
    assert out(fire, "hans") and out(fire, "jones")


# ----------------------------------------------------------------------------- grenades


@pytest.mark.audits("LN-R038", "LN-R030", "LN-AMB-08")
@pytest.mark.parametrize(("cm", "hit"), [(5, True), (5.5, False)])
def test_the_grenades_half_range(fire, cm, hit):
    """The scenario throws 10 cm: within 5 Kurt's grenade lands on 4, beyond on 5."""
    facts = play(fire, f"grenade kurt range={cm:g} jones dice=4" + (",1" if hit else ""))
    assert outcomes(facts)[0] == ("hit" if hit else "miss")


@pytest.mark.audits("LN-R038", "LN-AMB-08")
def test_no_grenade_beyond_its_range(fire):
    refused(fire, "grenade kurt range=10.5 jones dice=6,1", rule="LN-R030")
    play(fire, "grenade kurt range=10 jones dice=6,1")


@pytest.mark.audits("LN-R038", "LN-AMB-08")
def test_a_grenade_that_misses_rolls_no_damage(fire):
    """A miss: no one in the 3 cm rolls; a damage face given for it is too many."""
    refused(fire, "grenade kurt full jones brown dice=4,6,6", rule="ENG-5")
    facts = play(fire, "grenade kurt full jones brown dice=4")
    assert outcomes(facts) == ["miss"]
    after_fire(fire)
    assert not out(fire, "jones") and not out(fire, "brown")


@pytest.mark.audits("LN-R038", "LN-R037")
def test_a_grenades_wound_on_a_wounded_man_eliminates(ln):
    add(ln, "hurt", "paras", status=("wounded",))
    to_phase(ln, 1, "fire")
    facts = play(ln, "grenade kurt half hurt jones dice=5,3,3")
    assert outcomes(facts) == ["hit", "wound", "wound"]
    after_fire(ln)
    assert out(ln, "hurt") and not out(ln, "jones")


@pytest.mark.audits("LN-R038", "LN-R030")
def test_a_figure_that_fired_throws_no_grenade_in_the_same_fire(fire):
    """ "Una unità ... dichiara il bersaglio": one target a fire; Kurt fired his rifle."""
    play(fire, "@garrison fire kurt jones full dice=1")
    refused(fire, "grenade kurt half jones dice=6,6", rule="LN-R030")


# ------------------------------------------------------------------ B.7 fire with vehicles


@pytest.mark.audits("LN-R040", "LN-R041", "LN-R071")
@pytest.mark.parametrize(
    ("piat", "panzer", "result"),
    [
        (3, 3, "no damage"),  # 5 against 6
        (4, 3, "no damage"),  # 6 against 6: "eguali ... non riceve danni"
        (5, 3, "immobilised"),  # 7 against 6
        (6, 3, "immobilised"),  # 8 against 6
        (6, 2, "destroyed"),  # 8 against 5
    ],
)
def test_every_column_edge_of_the_opposed_roll(fire, piat, panzer, result):
    """The PIAT (combat value 2) at the Panzer (3): tie or less, wasted; 1 or 2 more,
    immobilised; 3 or more, destroyed, and gone when the fire ends."""
    facts = play(fire, f"@paras fire piat panzer half dice=3,{piat},{panzer}")
    assert outcomes(facts)[-1].endswith(result)
    after_fire(fire)
    assert out(fire, "panzer") == (result == "destroyed")
    assert has(fire, "panzer", "immobilised") == (result == "immobilised")


@pytest.mark.audits("LN-R041", "LN-AMB-10")
@pytest.mark.parametrize(
    ("sherman", "fritz", "result"),
    [(1, 5, "no damage"), (1, 4, "wound"), (2, 4, "wound"), (3, 4, "eliminated")],
)
def test_a_tank_at_a_man(fire, sherman, fritz, result):
    """ "Immobilizzato per due turni (o ferito se fanteria)": the Sherman (4) at Fritz (no
    combat value): 1 or 2 more wounds him, 3 more eliminates him."""
    facts = play(fire, f"@paras fire sherman fritz half dice=4,{sherman},{fritz}")
    assert outcomes(facts)[-1].endswith(result)
    after_fire(fire)
    assert out(fire, "fritz") == (result == "eliminated")
    assert has(fire, "fritz", "wounded") == (result == "wound")


@pytest.mark.audits("LN-R040", "LN-R041")
def test_a_rifle_at_a_tank_rolls_the_opposed_die(fire):
    """Jones's rifle (no combat value) at the Panzer: 6 + 0 against 1 + 3: immobilised,
    and his expert +1 is for hitting only."""
    facts = play(fire, "@paras fire jones panzer half dice=3,6,1")
    assert outcomes(facts)[-1].endswith("immobilised")
    assert not rolled(facts)[1].mods


@pytest.mark.audits("LN-R021", "LN-R041", "LN-R071")
def test_a_tank_destroyed_in_the_fire_still_fires_in_it(fire):
    """The Panzer, destroyed by the PIAT, destroys the Sherman in the same fire; both go."""
    play(fire, "@paras fire piat panzer half dice=3,6,1")
    facts = play(fire, "@garrison fire panzer sherman half dice=4,6,1")  # 9 against 5
    assert outcomes(facts)[-1].endswith("destroyed")
    after_fire(fire)
    assert out(fire, "panzer") and out(fire, "sherman")


@pytest.mark.audits("LN-R041", "LN-AMB-11")
def test_an_immobilised_tank_hit_again_by_three_is_destroyed(fire):
    play(fire, "@paras fire piat panzer half dice=3,5,3")  # 7 against 6
    to_phase(fire, 2, "fire")
    facts = play(fire, "@paras fire piat panzer half dice=3,6,2")  # 8 against 5
    assert outcomes(facts)[-1].endswith("destroyed")
    after_fire(fire)
    assert out(fire, "panzer")
