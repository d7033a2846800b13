"""A second, held-out audit of Ludonet's fire (B.4-B.7) from the book alone, where mistakes
hide: four to-hit modifiers at once, the measured range at the weapon's edge with cover,
lying down by crawling meeting the woods' 12 cm, standing up again, lying down without
moving, a heavy weapon named by the scenario, grenades that spare nobody, simultaneous
fire with the wounded and the wrecked, and a second immobilisation."""

from __future__ import annotations

import pytest
from audit_ln_table import (
    add,
    after_fire,
    allowed,
    hits,
    inject,
    out,
    outcomes,
    play,
    refused,
    rolled,
    support,
    to_phase,
)

from core.log import events as ev

# ----------------------------------------------------------------------------- to hit


@pytest.mark.audits("LN-R030", "LN-R031", "LN-AMB-05")
@pytest.mark.parametrize(("die", "hit"), [(5, False), (6, True)])
def test_four_modifiers_at_once(move, die, hit):
    """Within half range (4+), an expert shooter (+1) who moved (-1) at a target lying
    down (-1) in cover (-1): the die needs 6."""
    play(move, "@paras move jones 5")
    to_phase(move, 1, "fire")
    facts = play(move, f"@paras fire jones fritz half prone cover dice={die}" + (",1" if hit else ""))
    assert outcomes(facts)[0] == ("hit" if hit else "miss")
    assert sorted(m.value for m in rolled(facts)[0].mods) == [-1, -1, -1, 1]


@pytest.mark.audits("LN-R031", "LN-AMB-05")
def test_a_wounded_shooter_who_moved_cannot_hit_a_target_in_cover_beyond_half_range(ln):
    """5 + 1 + 1 + 1: no face is enough, and a 6 is no automatic hit."""
    add(ln, "ernst", "garrison", weapons=("rifle",), status=("wounded",))
    to_phase(ln, 1, "move-second")
    play(ln, "@garrison move ernst 4")
    to_phase(ln, 1, "fire")
    assert not hits(ln, "@garrison fire ernst jones full cover dice=6")


@pytest.mark.audits("LN-R030", "LN-R031", "LN-AMB-02")
@pytest.mark.parametrize(("cm", "die", "hit"), [(60, 6, True), (60, 5, False), (30, 5, True)])
def test_the_weapons_edge_with_cover(fire, cm, die, hit):
    """A rifle (60 cm): at 60 it is beyond half range, 5+, with cover 6; at 30 it is
    within half range, 4+, with cover 5."""
    assert hits(fire, f"@garrison fire fritz jones range={cm} cover dice={die}" + (",1" if hit else "")) == hit


@pytest.mark.audits("LN-R031", "LN-R010")
def test_a_figure_that_walks_after_crawling_stands_up(move):
    """Crawling is lying down; walking again, Brown is standing: 5+ beyond half range."""
    play(move, "@paras move brown 3 crawl")
    to_phase(move, 2, "move-first")
    play(move, "@paras move brown 10")
    to_phase(move, 2, "fire")
    assert hits(move, "@garrison fire fritz brown full dice=5,1")


@pytest.mark.audits("LN-R031", "LN-AMB-25")
def test_lying_down_where_one_stands_is_not_a_move(move):
    """Wood drops flat without moving: he fires with no -1 of a shooter who moved, and
    is -1 to hit as a figure lying down."""
    play(move, "@paras prone wood")
    to_phase(move, 1, "fire")
    assert hits(move, "@paras fire wood fritz full dice=4,1")  # expert: 5 - 1
    assert not hits(move, "@garrison fire kurt wood full dice=5")


@pytest.mark.audits("LN-R020", "LN-AMB-05")
@pytest.mark.parametrize(("cm", "seen"), [(12, True), (12.5, False)])
def test_a_crawler_in_woods_is_seen_only_to_12_cm(move, cm, seen):
    """Crawling is lying down, and in woods a man lying down is seen up to 12 cm."""
    play(move, "@paras move brown 3 crawl")
    to_phase(move, 1, "fire")
    line = f"@garrison fire fritz brown half woods={cm:g} dice=6,1"
    allowed(move, line, seen, rule="LN-R020")


@pytest.mark.audits("LN-R020")
def test_a_mortar_fires_into_woods_beyond_sight(fire):
    """ "Eccetto mortai o artiglieria, che possono effettuare un tiro indiretto": the woods'
    20 cm limit on sight does not bind it."""
    assert hits(fire, "@paras fire mortar fritz full woods=40 dice=5,1")


# ----------------------------------------------------------------------------- damage


@pytest.mark.audits("LN-R036", "LN-R010", "LN-AMB-07", "LN-AMB-24")
def test_a_weapon_the_scenario_calls_heavy_is_heavy_for_its_carrier(ln):
    """A garrison man with the Bren (the scenario: heavy): +1 to the damage die (3 + 1:
    still wounded, 4 + 1 eliminated), and he walks 5 cm, not 10."""
    add(ln, "gunner", "garrison", weapons=("Bren",))
    to_phase(ln, 1, "move-second")
    refused(ln, "@garrison move gunner 5.5", rule="LN-R010")
    play(ln, "@garrison move gunner 5")
    to_phase(ln, 1, "fire")
    facts = play(ln, "@garrison fire gunner jones half dice=6,4")
    assert outcomes(facts) == ["hit", "eliminated"] and [m.value for m in rolled(facts)[1].mods] == [1]


@pytest.mark.audits("LN-R038", "LN-AMB-08")
def test_a_grenade_harms_every_figure_inside_friend_or_foe(fire):
    """ "Ogni figura compresa nel raggio": Smith's grenade bursts on Hans with Wood beside him."""
    facts = play(fire, "grenade smith half hans wood dice=3,5,5")  # expert, within half: 3 hits
    assert outcomes(facts) == ["hit", "eliminated", "eliminated"]
    after_fire(fire)
    assert out(fire, "hans") and out(fire, "wood")


@pytest.mark.audits("LN-R038", "LN-R036", "LN-AMB-08")
def test_a_grenade_from_the_bren_gunner_is_not_heavy(fire):
    """The +1 is the heavy weapon's when it fires; the grenade is not it: 4 wounds."""
    facts = play(fire, "grenade bren half fritz dice=4,4")
    assert outcomes(facts) == ["hit", "wound"] and not rolled(facts)[1].mods


@pytest.mark.audits("LN-R038", "LN-R031", "LN-AMB-08")
@pytest.mark.parametrize(("die", "hit"), [(5, False), (6, True)])
def test_a_thrower_who_moved_throws_at_minus_one(ln, die, hit):
    """Kurt (not expert) moved: beyond half range 5 + 1."""
    to_phase(ln, 1, "move-second")
    play(ln, "@garrison move kurt 6")
    to_phase(ln, 1, "fire")
    facts = play(ln, f"grenade kurt full jones dice={die}" + (",1" if hit else ""))
    assert outcomes(facts)[0] == ("hit" if hit else "miss")


@pytest.mark.audits("LN-R038", "LN-AMB-08")
@pytest.mark.parametrize(("cm", "thrown"), [(10, True), (10.5, False)])
def test_a_grenade_is_thrown_as_far_as_the_scenario_says(fire, cm, thrown):
    line = f"grenade kurt range={cm:g} jones dice=1"
    if thrown:
        assert outcomes(play(fire, line)) == ["miss"]
    else:
        refused(fire, line, rule="LN-R030")


# ------------------------------------------------------------------ simultaneous fire


@pytest.mark.audits("LN-R021", "LN-R031", "LN-AMB-21")
def test_a_man_wounded_in_this_fire_fires_without_the_wounded_minus_one(fire):
    """The wound takes effect when the fire ends: Jones, hit and wounded, still hits on
    4 within half range (expert: 3) in the same fire."""
    play(fire, "@garrison fire fritz jones half dice=6,3")
    assert hits(fire, "@paras fire jones kurt half dice=3,1")


@pytest.mark.audits("LN-R021", "LN-R041")
def test_a_tank_destroyed_in_this_fire_still_fires_in_it(fire):
    play(fire, "@paras fire piat panzer half dice=3,6,1")  # margin 4: destroyed
    assert not out(fire, "panzer")
    play(fire, "@garrison fire panzer jones half dice=4,3,3")
    after_fire(fire)
    assert out(fire, "panzer")


@pytest.mark.audits("LN-R037", "LN-R041", "LN-AMB-10")
def test_a_wounded_man_wounded_again_by_a_tank_is_eliminated(ln):
    """Two wounds eliminate, whatever gave them: the Panzer's margin 1 is a wound."""
    add(ln, "hurt", "paras", status=("wounded",))
    to_phase(ln, 1, "fire")
    facts = play(ln, "@garrison fire panzer hurt half dice=4,2,4")  # 2 + 3 against 4 + 0
    assert outcomes(facts)[-1].endswith("wound")
    after_fire(ln)
    assert out(ln, "hurt")


@pytest.mark.audits("LN-R041", "LN-AMB-10")
def test_the_heavy_plus_one_is_no_part_of_the_opposed_roll(ln):
    """The MG 42 (heavy) at the Sherman (4): 4 + 0 against 3 + 4 is no damage, not a
    margin moved by +1."""
    to_phase(ln, 1, "reveal")
    play(ln, "clear mg42 hidden")
    to_phase(ln, 1, "fire")
    facts = play(ln, "@garrison fire mg42 sherman half dice=6,4,3")
    assert outcomes(facts)[-1].endswith("no damage")
    assert not rolled(facts)[1].mods  # the MG 42's own roll: no combat value, no heavy +1


@pytest.mark.audits("LN-R041", "LN-AMB-11")
def test_a_second_immobilisation_starts_the_two_turns_again(fire):
    """Immobilised in turn 1 (no move in 2 and 3), again in turn 2: no move in 3 and 4."""
    play(fire, "@paras fire piat panzer half dice=3,5,3")  # margin 1
    to_phase(fire, 2, "fire")
    play(fire, "@paras fire piat panzer half dice=3,5,3")
    assert not out(fire, "panzer")
    to_phase(fire, 4, "move-second")
    refused(fire, "@garrison move panzer 5", rule="LN-R041")
    to_phase(fire, 5, "move-second")
    play(fire, "@garrison move panzer 20")


@pytest.mark.audits("LN-R040", "LN-R031")
@pytest.mark.parametrize(("die", "hit"), [(4, False), (5, True)])
def test_a_tank_that_moved_fires_at_minus_one(move, die, hit):
    """ "Si svolgono nel solito modo": the Sherman moved, so within half range 4 + 1."""
    play(move, "@paras move sherman 10")
    to_phase(move, 1, "fire")
    facts = play(move, f"@paras fire sherman fritz half dice={die}" + (",1,6" if hit else ""))
    assert outcomes(facts)[0] == ("hit" if hit else "miss")


# --------------------------------------------------------------------- second batch


@pytest.mark.audits("LN-R038", "LN-R031", "LN-AMB-08")
@pytest.mark.parametrize(("die", "hit"), [(5, False), (6, True)])
def test_a_wounded_thrower_throws_at_minus_one(ln, die, hit):
    """A wounded man's grenade beyond half range: 5 + 1."""
    add(ln, "hurt", "garrison", status=("wounded",))
    to_phase(ln, 1, "fire")
    facts = play(ln, f"grenade hurt full jones dice={die}" + (",1" if hit else ""))
    assert outcomes(facts)[0] == ("hit" if hit else "miss")


@pytest.mark.audits("LN-R031", "LN-AMB-05")
def test_lying_down_counts_once_however_it_is_said(move):
    """Brown crawled (lying down) and the referee also says prone: one -1, not two."""
    play(move, "@paras move brown 3 crawl")
    to_phase(move, 1, "fire")
    facts = play(move, "@garrison fire fritz brown full prone dice=6,1")
    assert outcomes(facts)[0] == "hit" and [m.value for m in rolled(facts)[0].mods] == [-1]


@pytest.mark.audits("LN-R020", "LN-AMB-05")
@pytest.mark.parametrize(("cm", "seen"), [(12, True), (12.5, False)])
def test_a_man_said_to_lie_in_the_woods_is_seen_to_12_cm(ln, cm, seen):
    line = f"@garrison fire fritz jones half prone woods={cm:g} dice=6,1"
    to_phase(ln, 1, "fire")
    allowed(ln, line, seen, rule="LN-R020")


@pytest.mark.audits("LN-R020", "LN-AMB-17")
def test_off_table_artillery_hits_on_5_and_its_burst_is_heavy(ln):
    """Indirect fire (LN-R020) by the scenario's mortar: 5+ unmodified, and the damage of
    artillery is heavy: a natural 4 eliminates; once a turn, as long as its rounds last."""
    support(ln, "guns", "Mortars", "artillery", ammo=2)
    to_phase(ln, 1, "fire")
    facts = play(ln, "barrage guns jones smith dice=5,4,1")
    assert outcomes(facts) == ["hit", "eliminated", "wound"]
    refused(ln, "barrage guns brown dice=6,6", rule="LN-AMB-17")
    to_phase(ln, 2, "fire")
    assert outcomes(play(ln, "barrage guns brown dice=4")) == ["miss"]
    to_phase(ln, 3, "fire")
    refused(ln, "barrage guns brown dice=6,6", rule="LN-AMB-17")


@pytest.mark.audits("LN-R060")
def test_an_aircraft_off_the_table_makes_three_passes_whatever_the_scenario_gives(ln):
    """ "Ogni aereo ... massimo tre passaggi": a support aircraft given five is held to three."""
    support(ln, "stuka", "Stuka", "aircraft", ammo=5)
    for turn in (1, 2, 3):
        to_phase(ln, turn, "fire")
        play(ln, "barrage stuka jones dice=1")
    to_phase(ln, 4, "fire")
    refused(ln, "barrage stuka jones dice=6,6", rule="LN-AMB-17")


@pytest.mark.audits("LN-R020")
def test_the_scenarios_visibility_stops_direct_fire_not_the_mortar(ln):
    inject(ln, ev.VarSet(key="visibility", value=30))
    to_phase(ln, 1, "fire")
    refused(ln, "@garrison fire fritz jones range=30.5 dice=6,1", rule="LN-R020")
    play(ln, "@garrison fire kurt jones range=30 dice=1")
    assert outcomes(play(ln, "@paras fire mortar fritz full dice=5,1"))[0] == "hit"
