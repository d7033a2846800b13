"""Cases of Ludonet's third held-out audit written after trying the engine by hand, where a
status met an action: a tied pair in the same melee step, a figure held in melee or a
vehicle sent as reinforcements, how far a retreating figure falls back, a prone figure
that moves, a unit wiped out or losing three at once, and an air strike on a hidden
figure (B.1, B.3, B.8, B.9)."""

from __future__ import annotations

import pytest
from audit_ln_table import (
    add,
    after_fire,
    allowed,
    four,
    four_shaken,
    hit_if_seen,
    ln_table,
    out,
    outcomes,
    plain_at_melee,
    play,
    refused,
    rolled,
    tied,
    to_phase,
)


def panzer_shaken(g) -> None:
    """The Panzer is destroyed, half of its unit of two: the unit fails its test (a 1) in
    turn 1's morale step; the game on to turn 2's second move, where it falls back."""
    play(g, "out panzer")
    to_phase(g, 1, "morale")
    play(g, "morale panzer dice=1")
    to_phase(g, 2, "move-second")


# ------------------------------------------------------------------ B.8 the tie


@pytest.mark.audits("LN-R050", "LN-AMB-12")
def test_a_tied_pair_fights_again_only_in_the_next_melee_step(ln):
    """ "In caso di parità lo scontro prosegue" (LN-AMB-12: the two stay locked and roll
    again in the next melee step): Plain and Fritz tie; a second roll in the same step is
    refused, and in turn 2's melee 5 against 1 decides it."""
    tied(ln)
    refused(ln, "@paras melee plain fritz dice=5,1", rule="LN-R050")
    assert not out(ln, "fritz")
    to_phase(ln, 2, "melee")
    play(ln, "@paras melee plain fritz dice=5,1")
    assert out(ln, "fritz")


@pytest.mark.audits("LN-R050", "LN-AMB-12")
def test_the_other_of_a_tied_pair_killed_in_the_fire_frees_the_survivor(ln):
    """Tied in turn 1, Fritz is shot dead in turn 2's fire: Plain walks off in turn 3."""
    tied(ln)
    to_phase(ln, 2, "fire")
    play(ln, "@paras fire jones fritz half dice=6,6")
    to_phase(ln, 3, "move-first")
    play(ln, "@paras move plain 10")


@pytest.mark.audits("LN-R050", "LN-R052", "LN-AMB-12")
def test_a_figure_that_won_against_one_is_still_held_by_a_tie_with_another(ln):
    """Plain kills Fritz, then ties with Kurt in the same step: still in a melee."""
    plain_at_melee(ln)
    play(ln, "@paras melee plain fritz dice=5,1", "@garrison melee kurt plain dice=3,3")
    to_phase(ln, 2, "move-first")
    refused(ln, "@paras move plain 10", rule="LN-R052")


# ---------------------------------------------------- B.9 reinforcements and the retreat


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_a_tank_makes_up_no_unit_of_figures(ln):
    """ "Rinforzi che ne riportino il numero": the number of a squad is its figures; the
    Panzer (a model, not a figure) is no reinforcement for Four."""
    four_shaken(ln, "move-second")
    refused(ln, "reinforce f3 panzer", rule="LN-R070")
    assert ln.state.units["f3"].has("retreating")


@pytest.mark.audits("LN-R070", "LN-R052")
def test_a_figure_held_in_melee_joins_no_unit(ln):
    """Karl, tied with Plain, gets away only by leaving (LN-R052): he cannot go and make up
    Four while still in the melee."""
    add(ln, "plain", "paras")
    four(ln, "f1", "f2")
    to_phase(ln, 1, "melee")
    play(ln, "@paras melee plain karl dice=2,2")
    to_phase(ln, 1, "morale")
    play(ln, "morale four dice=1")
    to_phase(ln, 2, "move-second")
    refused(ln, "reinforce f3 karl", rule="LN-R052")


@pytest.mark.audits("LN-R070", "LN-AMB-16")
@pytest.mark.parametrize(
    ("line", "ok"),
    [
        ("move f3 5", False),
        ("move f3 9.5", False),
        ("move f3 10", True),
    ],
)
def test_a_retreating_figure_falls_back_its_full_allowance(ln, line, ok):
    """ "Il reparto deve ripiegare" (LN-AMB-16: it moves its full allowance away from the
    enemy each turn): F3, retreating, walks its 10 cm, not 5."""
    four_shaken(ln, "move-second")
    allowed(ln, "@garrison " + line, ok, rule="LN-R070")


@pytest.mark.audits("LN-R070", "LN-AMB-16", "LN-R012")
def test_a_retreating_figure_may_run_its_fourteen(ln):
    """Running is a full allowance too, with its fatigue die."""
    four_shaken(ln, "move-second")
    assert [r.faces for r in rolled(play(ln, "@garrison move f3 14 run dice=2"))] == [(2,)]


@pytest.mark.audits("LN-R070", "LN-AMB-16", "LN-AMB-24")
def test_a_retreating_heavy_weapon_falls_back_its_five(ln):
    """A figure with a heavy weapon has 5 cm (B.3): that is its full allowance."""
    add(ln, "mg", "garrison", team="Pair", roles=("heavy",))
    add(ln, "mate", "garrison", team="Pair")
    play(ln, "out mate")
    to_phase(ln, 1, "morale")
    play(ln, "morale pair dice=2")
    to_phase(ln, 2, "move-second")
    play(ln, "@garrison move mg 5")


@pytest.mark.audits("LN-R070", "LN-AMB-16", "LN-AMB-24")
def test_a_retreating_heavy_weapon_is_told_to_walk_not_offered_a_run(ln):
    """A machine-gunner cannot run (ruling LN-HEAVY): refused a crawl, he is told to walk his
    5 cm, not "walking or running"; a rifleman of the same retreat is offered both."""
    add(ln, "mg", "garrison", team="Pair", roles=("heavy",))
    add(ln, "mate", "garrison", team="Pair")
    play(ln, "out mate")
    to_phase(ln, 1, "morale")
    play(ln, "morale pair dice=2")
    to_phase(ln, 2, "move-second")
    assert refused(ln, "@garrison move mg 3 crawl", rule="LN-R070").endswith(
        "is retreating: it falls back its full 5 cm, walking: it carries a heavy weapon (LN-R070)"
    )


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_a_retreating_figure_does_not_crawl_away(ln):
    """Crawling 3 cm is no fall back at full allowance."""
    four_shaken(ln, "move-second")
    assert refused(ln, "@garrison move f3 3 crawl", rule="LN-R070").endswith(
        "is retreating: it falls back its full 10 cm, walking or running (LN-R070)"
    )


@pytest.mark.audits("LN-R070", "LN-AMB-16", "LN-R011")
@pytest.mark.parametrize(("cm", "ok"), [(19.5, False), (20, True)])
def test_a_retreating_tank_falls_back_its_scenario_move(ln, cm, ok):
    """Two Panzers, one destroyed: half, shaken; the other falls back its full 20 cm."""
    add(ln, "panzer2", "garrison", team="Panzer", kind="vehicle", stats={"cv": 3, "move": 20})
    panzer_shaken(ln)
    allowed(ln, f"@garrison move panzer2 {cm:g}", ok, rule="LN-R070")


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_a_unit_wiped_out_owes_no_test(ln):
    """Four, shaken in turn 1, loses its last two in turn 2: nobody is left to test."""
    four_shaken(ln, "fire")
    play(ln, "@paras fire jones f3 half dice=6,6", "@paras fire brown f4 half dice=6,6")
    to_phase(ln, 2, "morale")
    play(ln, "next")
    assert ln.state.phase == "end"


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_three_of_four_at_once_are_two_tests_and_no_third(ln):
    """Half (two) and a further loss (three) in one fire: two tests, then none."""
    four(ln)
    to_phase(ln, 1, "fire")
    for shooter, uid in (("jones", "f1"), ("brown", "f2"), ("wood", "f3")):
        play(ln, f"@paras fire {shooter} {uid} half dice=6,6")
    to_phase(ln, 1, "morale")
    refused(ln, "next", rule="LN-R070")
    assert outcomes(play(ln, "morale four dice=3")) == ["holds"]
    refused(ln, "next", rule="LN-R070")
    assert outcomes(play(ln, "morale four dice=4")) == ["holds"]
    refused(ln, "morale four dice=5", rule="LN-R070")
    play(ln, "next")


# ------------------------------------------------------------- lying down and moving


@pytest.mark.audits("LN-R031", "LN-AMB-05")
def test_a_figure_that_lay_down_and_then_walked_is_standing(move):
    """Jones lies down, then walks 10: walking is no lying down, Fritz hits him on 4."""
    play(move, "@paras prone jones", "@paras move jones 10")
    to_phase(move, 1, "fire")
    assert outcomes(play(move, "@garrison fire fritz jones half dice=4,1"))[0] == "hit"


@pytest.mark.audits("LN-R031", "LN-AMB-05")
@pytest.mark.parametrize(("face", "hit"), [(4, False), (5, True)])
def test_a_figure_that_crawled_lies_there_into_the_next_turn(move, face, hit):
    """Jones crawled in turn 1 and does not move in turn 2: still lying down, -1."""
    play(move, "@paras move jones 3 crawl")
    to_phase(move, 2, "fire")
    facts = play(move, f"@garrison fire fritz jones half dice={face}" + (",1" if hit else ""))
    assert outcomes(facts)[0] == ("hit" if hit else "miss")


# ------------------------------------------------------------------ vehicles, aircraft


@pytest.mark.audits("LN-R041")
def test_a_rifleman_without_a_combat_value_adds_nothing(fire):
    """Fritz has no combat value: his 6 against the Sherman's 1 + 4 is a margin of 1."""
    facts = play(fire, "@garrison fire fritz sherman half dice=6,6,1")
    assert outcomes(facts)[-1].endswith("immobilised")


@pytest.mark.audits("LN-R061", "LN-AMB-14", "LN-R001")
def test_an_air_strike_harms_a_hidden_figure_inside_it(fire):
    """ "Ogni figura compresa" (LN-AMB-14): the MG 42 hidden in the barn is in the area."""
    play(fire, "pass typhoon", "strike typhoon mg42 dice=6,6")
    after_fire(fire)
    assert out(fire, "mg42")


@pytest.mark.audits("LN-R038", "LN-AMB-08")
def test_a_grenade_names_no_tank(fire):
    """ "Ogni figura compresa nel raggio": the Panzer is no figure."""
    refused(fire, "grenade smith half panzer fritz dice=6,6,6,1", rule="LN-R038")


# ---------------------------------------------- the retreat crossed with other statuses


@pytest.mark.audits("LN-R070", "LN-AMB-16", "LN-R012")
def test_a_tired_retreating_figure_walks_its_ten(ln):
    """Tired F3 cannot run (LN-R012); falling back, he walks his full 10."""
    four(ln, "f1", "f2")
    to_phase(ln, 1, "move-second")
    play(ln, "@garrison move f3 14 run dice=6")
    to_phase(ln, 1, "morale")
    play(ln, "morale four dice=1")
    to_phase(ln, 2, "move-second")
    refused(ln, "@garrison move f3 14 run dice=1", rule="LN-R012")
    play(ln, "@garrison move f3 10")


@pytest.mark.audits("LN-R070", "LN-AMB-16", "LN-R052")
def test_a_retreating_figure_in_a_melee_leaves_it_then_falls_back(ln):
    """F3, tied with Plain and then shaken, leaves the melee (6 against 1 + 2) and walks 10;
    5 is short."""
    add(ln, "plain", "paras")
    four(ln, "f1", "f2")
    to_phase(ln, 1, "melee")
    play(ln, "@paras melee plain f3 dice=2,2")
    to_phase(ln, 1, "morale")
    play(ln, "morale four dice=2")
    to_phase(ln, 2, "move-second")
    refused(ln, "@garrison move f3 10", rule="LN-R052")
    play(ln, "@garrison leave f3 plain dice=6,1")
    refused(ln, "@garrison move f3 5", rule="LN-R070")
    play(ln, "@garrison move f3 10")


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_a_man_who_joins_a_unit_still_falling_back_falls_back_with_it(ln):
    """Karl makes Four three of four: he retreats with it, his full 10."""
    four_shaken(ln, "move-second")
    play(ln, "reinforce f3 karl")
    refused(ln, "@garrison move karl 6", rule="LN-R070")
    play(ln, "@garrison move karl 10")


@pytest.mark.audits("LN-R070", "LN-AMB-16")
def test_a_unit_made_up_moves_as_it_likes_again(ln):
    """Karl and Max bring Four back to four: the retreat ends, F3 walks 5."""
    four_shaken(ln, "move-second")
    play(ln, "reinforce f3 karl max", "@garrison move f3 5")


@pytest.mark.audits("LN-R070", "LN-R041", "LN-AMB-11")
def test_an_immobilised_tank_of_a_retreating_unit_stays(ln):
    """Panzer2 immobilised by the PIAT (margin 2) and its unit shaken: it cannot fall back,
    and the move step ends all the same."""
    add(ln, "panzer2", "garrison", team="Panzer", kind="vehicle", stats={"cv": 3, "move": 20})
    to_phase(ln, 1, "fire")
    play(ln, "@paras fire piat panzer2 half dice=6,4,1")  # 6 against 4
    panzer_shaken(ln)
    refused(ln, "@garrison move panzer2 20", rule="LN-R041")
    play(ln, "next")
    assert ln.state.phase == "reveal"


# ------------------------------------------------------------ the tie, turn after turn


@pytest.mark.audits("LN-R050", "LN-AMB-12")
def test_a_tie_tied_again_holds_them_a_third_turn(ln):
    tied(ln)
    to_phase(ln, 2, "melee")
    play(ln, "@paras melee plain fritz dice=4,4")
    to_phase(ln, 3, "move-first")
    refused(ln, "@paras move plain 10", rule="LN-R052")


@pytest.mark.audits("LN-R052", "LN-AMB-12", "LN-AMB-13")
def test_in_the_next_melee_phase_a_tied_figure_may_leave_instead(ln):
    tied(ln)
    to_phase(ln, 2, "melee")
    play(ln, "@paras leave plain fritz dice=5,2")  # 5 against 2 + 2: away
    assert not out(ln, "plain")
    to_phase(ln, 3, "move-first")
    play(ln, "@paras move plain 10")


@pytest.mark.audits("LN-R050", "LN-AMB-12")
def test_a_tied_figure_fights_another_in_the_next_phase(ln):
    """Plain, tied with Fritz, is attacked by Kurt in turn 2 as well: pairs fight one by one."""
    tied(ln)
    to_phase(ln, 2, "melee")
    play(ln, "@garrison melee kurt plain dice=1,3", "@paras melee plain fritz dice=3,1")
    assert out(ln, "kurt") and out(ln, "fritz") and not out(ln, "plain")


# --------------------------------------------------------------------- the end (LN-END)


@pytest.mark.audits("LN-R060")
def test_an_aircraft_alone_does_not_keep_a_side_in_the_game(ln):
    """Every para on the ground is out; the Typhoon (no figure, no vehicle) keeps nothing."""
    for uid in ("smith", "jones", "brown", "bren", "wood", "piat", "sherman", "mortar"):
        play(ln, f"out {uid}")
    to_phase(ln, 1, "end")
    play(ln, "next")
    assert ln.state.phase == "ended"


@pytest.mark.audits("LN-R031", "LN-R040")
def test_a_tank_does_not_lie_down(fire):
    """ "Il bersaglio è coricato" is a soldier's: the PIAT's shot at the Panzer said `prone`
    is refused, not made at -1 (a tank cannot lie down, as `prone UNIT` says too)."""
    refused(fire, "@paras fire piat panzer half prone dice=4,1,6", rule="LN-R031")


#: The demo farm at night: the scenario sees 15 cm.
night = ln_table("night", variables={"visibility": 15})


@pytest.mark.audits("LN-R020")
@pytest.mark.parametrize(
    ("cm", "seen"),
    [
        (15, True),
        (18, False),
    ],
)
def test_woods_at_night_see_no_further_than_the_night(night, cm, seen):
    """ "Dentro boschi ... ridotta a 20cm": reduced, never lengthened: at night (visibility
    15 cm) Fritz in woods 18 cm away is not seen, 15 cm is."""
    to_phase(night, 1, "fire")
    line = f"@paras fire jones fritz half woods={cm} dice=6,1"
    hit_if_seen(night, line, seen)


@pytest.mark.audits("LN-R038", "LN-R020")
@pytest.mark.parametrize(
    ("cm", "ok"),
    [
        (8, True),
        (9, False),
    ],
)
def test_a_grenade_is_thrown_no_further_than_the_night_sees(tmp_path, monkeypatch, cm, ok):
    """The thrower rolls to hit the spot "as fire does" (ruling LN-GRENADE): on a night
    that sees 8 cm, Smith's grenade (10 cm) lands at 8 cm and is not thrown at 9."""
    from ln_support import ludonet_game

    g = ludonet_game(tmp_path, monkeypatch, {"visibility": 8})
    to_phase(g, 1, "fire")
    line = f"grenade smith range={cm} fritz dice=6,1"
    hit_if_seen(g, line, ok)
    g.close()


@pytest.mark.audits("LN-R070")
@pytest.mark.parametrize(("piece", "ok"), [("karl", False), ("tiger", True)])
def test_a_unit_of_tanks_is_made_up_by_a_tank(ln, piece, ok):
    """Two Panzers, one destroyed and the other shaken: a Tiger makes the unit up, Karl (a
    figure) does not."""
    add(ln, "panzer2", "garrison", team="Panzer", kind="vehicle", stats={"cv": 3, "move": 20})
    add(ln, "tiger", "garrison", team="Heavy", kind="vehicle", stats={"cv": 5, "move": 15})
    panzer_shaken(ln)
    allowed(ln, f"reinforce panzer2 {piece}", ok, rule="LN-R070")
    if ok:
        assert not ln.state.units["panzer2"].has("retreating")
