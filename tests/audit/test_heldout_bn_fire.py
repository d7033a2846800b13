"""Held-out audit of Breaking News §6–§8 (moving and firing, sighting, opportunity and
covering fire, support fire), written from the rulebook (1.5.1) and its digest alone, after
the first audit and apart from it: where two rules meet (modifiers that add up past 6 on a
burst, a weapon's exception meeting another modifier, a reaction a rule forbids), at the
edges of the bands where they cross an overflow, and the table notes.  Given these faces,
the book's outcome."""

from __future__ import annotations

import pytest
from audit_bn_early import MEN, is_out, new_game, play, refused, rolls, shot, status, table, to_hit

from core.log.views import REFEREE

g = table()
#: The Irregulars active.
irr = table("irr", active="irregulars")


# ------------------------------------------------------------------ §8.0: modifiers past 6


@pytest.mark.audits("FIRE-5", "T-09", "FIRE-4")
@pytest.mark.parametrize(("mode", "dice", "need"), [("burst", 2, 6), ("aimed", 1, 4)])
def test_special_forces_lose_their_minus_one_on_a_burst_into_cover(g, mode, dice, need):
    """§8.0: a Special Forces AR at 40 cm at a man behind cover.  Aimed: 4, +1 cover, −1 Special
    Forces = 4.  A burst: 6, +1 cover, and no −1 ("not burst fire") = 7, more than 6: one die
    lost, 2 dice needing 6."""
    (r,) = to_hit(g.execute(f"fire sf irr1 range=40 {mode} cover dice={','.join(['1'] * dice)}", role=REFEREE))
    assert (len(r.faces), r.need) == (dice, need)


@pytest.mark.audits("FIRE-5", "T-09", "T-01", "FIRE-2")
@pytest.mark.parametrize(("cm", "dice"), [(25, 2), (25.5, 0)])
def test_a_recruit_bursting_on_the_move_into_cover_loses_dice_at_the_band_edge(g, cm, dice):
    """§8.0, §6.1: a Green Recruit moved 10 cm (+1) bursts at a man behind cover (+1), the
    recruit's own +1 on top.  At 25 cm the burst needs 4: 4 + 3 = 7, one die lost, 2 dice
    needing 6.  At 25.5 cm it needs 6: 6 + 3 = 9, three dice lost of three: nothing is rolled
    and nobody is hit."""
    g.execute("move recruit 10 shoot", role=REFEREE)
    typed = f" dice={','.join(['1'] * dice)}" if dice else ""
    shots = to_hit(g.execute(f"fire recruit irr1 range={cm} burst cover{typed}", role=REFEREE))
    if dice:
        assert (len(shots[0].faces), shots[0].need) == (2, 6)
    else:
        assert shots == [] and "suppressed" not in status(g, "irr1") and not is_out(g, "irr1")
        assert "fired" in status(g, "recruit")


@pytest.mark.audits("FIRE-5", "T-09")
@pytest.mark.parametrize(("cm", "dice"), [(100, 3), (100.5, 2)])
def test_a_lone_mmg_firing_long_into_cover(g, cm, dice):
    """§8.0: an MMG with one crew (+1) at a man behind cover (+1).  At 100 cm it needs 5:
    7, one die lost of its four; at 100.5 cm it needs 6: 8, two lost."""
    (r,) = to_hit(g.execute(f"fire mmg irr1 range={cm} lone cover dice={','.join(['1'] * dice)}", role=REFEREE))
    assert (len(r.faces), r.need) == (dice, 6)


@pytest.mark.audits("FIRE-5", "T-09", "MOV-6")
def test_every_modifier_at_once_leaves_an_hmg_one_die(g):
    """§8.0, §6.5: a lone HMG at 130 cm (6) at a sniper (+1) behind cover (+1) who dodges
    (+1), one crew (+1): 10, four dice lost of five, one die needing 6."""
    g.execute("react-dodge isnipe 3", role=REFEREE)
    (r,) = to_hit(g.execute("fire hmg isnipe range=130 lone cover dice=6,4", role=REFEREE))
    assert (len(r.faces), r.need, r.outcome) == (1, 6, "1 hit")


@pytest.mark.audits("T-09", "FIRE-4", "MOV-6")
def test_a_sniper_ignores_cover_and_the_dodge_but_not_a_sniper_target(g):
    """§8.0, §6.5: a precision rifle at 60 cm (4) at an enemy sniper behind cover who
    declared a dodge: cover is "not applicable to snipers", sniper fire "cannot be dodged",
    the target being a sniper is +1: 5."""
    g.execute("react-dodge isnipe 2", role=REFEREE)
    assert shot(g, "fire snipe isnipe range=60 cover dice=1").need == 5


@pytest.mark.audits("T-09", "FIRE-4", "T-05")
def test_a_recruits_grenade_after_ten_cm_pays_only_for_the_move(g):
    """§8.0: a hand grenade ignores cover and the recruit's +1 ("only small arms, not
    grenades"), but not the +1 for moving more than 5 cm: 4 + 1 = 5."""
    g.execute("move recruit 10 shoot", role=REFEREE)
    assert shot(g, "fire recruit irr1 range=10 weapon=GRENADE cover dice=1").need == 5


@pytest.mark.audits("T-09", "FIRE-4")
def test_a_special_forces_rpg_shot_ignores_cover_and_takes_minus_one(tmp_path):
    """§8.0: an RPG at 60 cm needs 6; the target's cover does not count for an RPG, and a
    Special Forces firer takes 1 off a shot that is not a burst: 5."""
    g = new_game(tmp_path, men=(*MEN, ("sfr", "regulars", "Delta", "R1", "RPG", "", "")))
    assert shot(g, "fire sfr irr1 range=60 cover dice=1").need == 5


@pytest.mark.audits("T-09", "FIRE-5", "T-01")
@pytest.mark.parametrize(("cls", "cm", "dice", "need"), [("Irr2", 30, 4, 6), ("Irr3", 60, 3, 6), ("Irr1", 60, 4, 6)])
def test_the_militias_plus_one_on_a_light_machine_gun(tmp_path, cls, cm, dice, need):
    """§8.0: the +1 of "class 2 or 3 Irregulars" is on small arms, a machine gun among them.
    An LMG at 30 cm needs 5: a Fanatic needs 6 with all four dice; at 60 cm it needs 6: a
    Militiaman's 7 loses a die; a Hardened Militiaman (Irr1, no penalty) keeps four."""
    g = new_game(tmp_path, active="irregulars", men=(*MEN, ("mg", "irregulars", "Cell", cls, "LMG", "", "")))
    (r,) = to_hit(g.execute(f"fire mg trained range={cm} dice={','.join(['1'] * dice)}", role=REFEREE))
    assert (len(r.faces), r.need) == (dice, need)


# ------------------------------------------------------------------ §8.0 notes, §8.0.2, §8.5


@pytest.mark.audits("T-08", "FIRE-2")
@pytest.mark.parametrize(("cm", "need"), [(10, 4), (50, 4), (50.5, 5)])
def test_the_tank_gun_fires_from_exactly_10_cm(g, cm, need):
    """§8.0, the note of the Tank/mortars row: "4 (min 10cm)": at 10 cm the gun fires, at
    4+, and the row reads 4 to 50 cm, 5 beyond."""
    assert shot(g, f"fire tank techie range={cm} weapon=TANKGUN dice=1").need == need


@pytest.mark.audits("FIRE-6", "FIRE-11", "T-11")
def test_an_rpg_that_cannot_hit_still_lands_off_by_the_difference(tmp_path):
    """§8.0, §8.0.2 (optional): an RPG at 60 cm (6) at a sniper (+1) needs 7: a 6 misses.
    The miss is not a 1, so the round lands 3 cm a point of difference away: 7 − 6 = 1,
    3 cm; the direction die 5 puts it to the right (row a: 5–6 right)."""
    g = new_game(tmp_path, options=("deviation",))
    out = g.execute("fire rpg isnipe range=60 dice=6,5", role=REFEREE)
    (r,) = to_hit(out)
    assert r.outcome.startswith("0") or "miss" in r.outcome
    assert not is_out(g, "isnipe") and "suppressed" not in status(g, "isnipe")
    said = " ".join(out.lines)
    assert "3 cm" in said and "right" in said


@pytest.mark.audits("FIRE-6", "MORT-1")
def test_a_mortar_round_that_cannot_hit_still_lands_off_by_the_difference(g):
    """§8.0, §8.5: a light mortar at 120 cm (6) at a sniper (+1) needs 7: a 4 misses, and the
    template lands 3 cm a point of difference away, 7 − 4 = 3 points: 9 cm, where the
    opponent chooses."""
    out = g.execute("fire mortar isnipe range=120 dice=4", role=REFEREE)
    (r,) = to_hit(out)
    assert r.faces == (4,) and not is_out(g, "isnipe")
    assert "9 cm" in " ".join(out.lines)


@pytest.mark.audits("FIRE-6", "FF-1")
@pytest.mark.parametrize(("face", "saved"), [(3, True), (2, False)])
def test_a_shot_that_cannot_hit_is_still_a_missed_shot_past_a_friend(g, face, saved):
    """§8.0, §8.7: a Green Recruit's AR at 100.5 cm needs 6 + 1 = 7: it cannot hit, but it is
    fired and missed, and "for every missed shot" a friend in the firing line saves with +1:
    the Trained man's 4+ is saved by a 3 and failed by a 2 (the shot itself needs no die)."""
    out = g.execute(f"fire recruit irr1 range=100.5 line=trained dice={face}", role=REFEREE)
    assert to_hit(out) == []
    (save,) = rolls(out)
    assert save.need == 3
    assert is_out(g, "trained") is not saved


@pytest.mark.audits("T-11a", "T-11", "FIRE-11")
@pytest.mark.parametrize(("face", "side"), [(3, "left"), (5, "right")])
def test_a_round_off_to_one_side_says_it_is_the_firers_side(tmp_path, face, side):
    """§8.0.2 (optional), the note under the digest's T-11 (row T-11a): "'left' and 'right' should be
    intended according to firer view".  An RPG at 30 cm needs 5; a 3 misses by 2: 6 cm; on
    row a) a direction die of 3 is left, 5 right, each as the firer sees it."""
    g = new_game(tmp_path, options=("deviation",))
    out = g.execute(f"fire rpg irr1 range=30 dice=3,{face}", role=REFEREE)
    assert f"6 cm {side} of Irr1 as the firer sees it" in " ".join(out.lines)


@pytest.mark.audits("MORT-1", "FIRE-11")
@pytest.mark.parametrize(("option", "off"), [(False, "15 cm"), (True, None)])
def test_a_light_mortars_one_lands_15_cm_off_unless_the_deviation_rule_is_on(tmp_path, option, off):
    """§8.5: a light mortar that misses lands 3 cm a point of difference away, where the
    opponent chooses: at 120 cm it needs 6, a 1 misses by 5: 15 cm.  Only the optional
    §8.0.2 makes a 1 a round that did not fire (no template at all)."""
    g = new_game(tmp_path, options=("deviation",) if option else ())
    out = g.execute("fire mortar irr1 range=120 dice=1", role=REFEREE)
    assert len(rolls(out)) == 1  # no direction die, either way
    assert (off in " ".join(out.lines)) if off else ("15 cm" not in " ".join(out.lines))
    assert not is_out(g, "irr1")


# ------------------------------------------------------------------ §7.0 sighting


@pytest.mark.audits("T-07", "SPOT-3")
@pytest.mark.parametrize(("face", "sighted"), [(2, False), (3, True)])
def test_a_sniper_spots_special_forces_in_the_open(g, face, sighted):
    """§7.0: at 20 cm a sighting needs 3; Special Forces target +2, in the open −1, the
    spotter a sniper −1: 3."""
    (r,) = rolls(g.execute(f"spot snipe hsf range=20 open dice={face}", role=REFEREE))
    assert r.need == 3
    assert bool(g.state.units["hsf"].spotted_by) is sighted


@pytest.mark.audits("T-07", "SPOT-3", "T-01")
@pytest.mark.parametrize(("target", "face", "sighted"), [("ghost", None, True), ("hsf", 2, False), ("hsf", 3, True)])
def test_within_5_cm_a_recruit_spots_on_his_class_and_the_targets(g, target, face, sighted):
    """§7.0: within 5 cm the number is 0; a Green Recruit adds his +1: 1, which every die
    reaches, so the plain man is sighted with no roll; against Special Forces +2 more: 3."""
    out = g.execute(f"spot recruit {target} range=5" + (f" dice={face}" if face else ""), role=REFEREE)
    assert (rolls(out) == []) is (face is None)
    assert bool(g.state.units[target].spotted_by) is sighted


@pytest.mark.audits("SPOT-4", "T-07")
def test_a_sighting_that_cannot_succeed_leaves_the_attempt_of_the_turn(g):
    """§7.0: at 50 cm (5), in jungle (+2), Special Forces (+2), a recruit spotting (+1): 10,
    which no die reaches.  Sighting is once a turn; no roll was made, so the recruit still
    has his: at 20 cm a plain hidden man in jungle needs 3 + 2 + 1 = 6, and a 6 sights him."""
    refused(g, "spot recruit hsf range=50 night dice=6", rule="SPOT-4")
    (r,) = rolls(g.execute("spot recruit ghost range=20 night dice=6", role=REFEREE))
    assert r.need == 6 and g.state.units["ghost"].spotted_by


# ------------------------------------------------------------------ §8.2 opportunity fire


@pytest.mark.audits("ART-6", "OPP-4")
def test_the_gunship_fires_once_a_turn_even_by_opportunity(irr):
    """§8.4: the helicopter gunship "can fire once per turn": it answers one enemy move; at
    the next enemy move, though a new action, it may not fire again that turn."""
    irr.execute("move irr1 10 shoot", role=REFEREE)
    assert to_hit(irr.execute("react-fire heli irr1 range=30 dice=1,1,1,1,1", role=REFEREE))
    irr.execute("move irr2 10 shoot", role=REFEREE)
    refused(irr, "react-fire heli irr2 range=30 dice=1,1,1,1,1", rule="ART-1")


@pytest.mark.audits("OPP-2", "ACT-2")
@pytest.mark.parametrize("faces", ["6,1", "6,4"])
def test_a_man_struck_by_fire_still_answers_it(irr, faces):
    """§8.2: opportunity fire in answer to fire "is simultaneous": the man the fire kills
    (a 1 on his 3+ save) or suppresses (a 4) still fires back at the firer."""
    irr.execute(f"fire irr1 vet range=20 dice={faces}", role=REFEREE)
    assert is_out(irr, "vet") or "suppressed" in status(irr, "vet")
    (r,) = to_hit(irr.execute("react-fire vet irr1 range=20 dice=6,1", role=REFEREE))
    assert r.need == 3


# ------------------------------------------------------------------ §8.3 covering fire


@pytest.mark.audits("COV-5", "COV-6", "SAVE-3")
def test_a_leader_hit_by_covering_fire_saves_with_one_and_his_shot_is_lost(tmp_path):
    """§8.3, §9.0: a Veteran's AR covers an area 20 cm off: 3 + the Veterans' 2 = 5.  The
    militia leader there fires by opportunity: 2d6 of 4 is not over 5, one hit, taken before
    he fires.  His save is 5+ with the team leader's +1: a 4 saves, he is suppressed, and
    suppressed he does not fire."""
    g = new_game(tmp_path, men=(*MEN, ("chief", "irregulars", "Cell", "Irr3", "AR", "leader", "", 1)))
    play(g, "covering vet area=yard range=20", "move trained 10 shoot")
    r = rolls(g.execute("react-fire chief trained range=30 area=yard dice=2,2,4", role=REFEREE))
    assert [x.outcome for x in r][1:] == ["saved: suppressed"]
    assert "suppressed" in status(g, "chief") and not is_out(g, "trained")


# ------------------------------------------------------------------ §8.6 speculative fire


@pytest.mark.audits("SPEC-1", "SAVE-3")
@pytest.mark.parametrize(("face", "saved"), [(3, True), (2, False)])
def test_speculative_fire_at_a_leader_in_cover_gives_two_not_three(tmp_path, face, saved):
    """§8.6, §9.0: speculative fire gives +2 to the saves; a hidden militia leader in cover
    would also have +1 as leader and +1 behind protection, but §9.0's bonuses are "not
    cumulative": +2 in all.  His 5+ is saved by a 3 and failed by a 2."""
    g = new_game(tmp_path, men=(*MEN, ("chief", "irregulars", "Hidden", "Irr3", "AR", "leader", "hidden", 1)))
    r = rolls(g.execute(f"speculative vet chief range=20 cover dice=6,{face}", role=REFEREE))
    assert r[-1].outcome.startswith("saved") is saved
    assert is_out(g, "chief") is not saved


# ------------------------------------------------------------------ §8.0.3 ammunition


@pytest.mark.audits("FIRE-12", "T-03")
def test_changing_a_magazine_is_the_whole_turn(tmp_path):
    """§8.0.3 (optional): an SMG that rolls a double empties its magazine; changing it "requires
    a full turn (the figure cannot do anything else)": next turn, a man who has moved may
    not change it, and one who changed it may not move or fire."""
    g = new_game(tmp_path, options=("ammo",))
    g.execute("fire smg irr1 range=20 dice=3,3,1", role=REFEREE)
    assert "empty-mag" in status(g, "smg")
    play(g, "next", "next", "next dice=6,6,1,1", "move smg 5 cautious")
    refused(g, "reload smg", rule="FIRE-12")
    g = new_game(tmp_path / "b", options=("ammo",))
    play(g, "fire smg irr1 range=20 dice=3,3,1", "next", "next", "next dice=6,6,1,1", "reload smg")
    assert "empty-mag" not in status(g, "smg")
    refused(g, "move smg 5 cautious", rule="T-03")  # the change was his action this turn
    refused(g, "fire smg irr2 range=20 dice=1,2,3", rule="FIRE-12")


# ------------------------------------------------------------------ more meetings of two rules


@pytest.mark.audits("ACT-3", "OPP-4", "FIRE-13")
def test_a_groups_move_and_its_fire_draw_one_reaction_from_each_enemy(g):
    """§6.4: "The player can combine a movement with a fire action (considered a single group
    action)", and §8.2: "an enemy group move triggers only one reaction".  Two Elite of one
    fire team move and then fire together: a Militiaman who answered the move may not answer
    the fire; one who has not reacted yet may."""
    play(
        g,
        "move elite 10 elite2 shoot",
        "react-fire irr1 elite range=30 dice=1",
        "fire elite irr3 range=30 with=elite2 dice=1,1",
    )
    refused(g, "react-fire irr1 elite2 range=30 dice=1", rule="OPP-4")
    assert to_hit(g.execute("react-fire irr2 elite2 range=30 dice=1", role=REFEREE))


@pytest.mark.audits("OPP-4", "MOV-6")
def test_a_dodge_spends_the_reaction_to_that_fire_only(g):
    """§6.5, §8.2: "A model can only react once to each enemy soldier's move or fire": a
    Militiaman who dodged a Veteran's shot may not fire back at it, but may fire at the next
    enemy who moves."""
    play(g, "react-dodge irr1 3", "fire vet irr1 range=30 dice=1")
    refused(g, "react-fire irr1 vet range=30 dice=1", rule="OPP-4")
    g.execute("move trained 10 shoot", role=REFEREE)
    (r,) = to_hit(g.execute("react-fire irr1 trained range=30 dice=1", role=REFEREE))
    assert r.need == 4


@pytest.mark.audits("SUP-2", "T-09", "SAVE-3")
def test_a_sniper_ignores_the_cover_a_suppressed_man_gets_past_25_cm_but_not_its_save(g):
    """§10.0: a suppressed man in the open "is considered in cover beyond 25cm"; §8.0: cover
    is "not applicable to snipers": a precision rifle at 30 cm needs its plain 3.  §9.0's +1
    behind protection still helps the save: the Hardened Militiaman's 3 + 1 = 4 saves."""
    g.execute("mark irr1 suppressed", role=REFEREE)
    out = g.execute("fire snipe irr1 range=30 dice=3,3", role=REFEREE)
    shot_, save = rolls(out)
    assert shot_.need == 3 and save.need == 3
    assert not is_out(g, "irr1")


@pytest.mark.audits("FIRE-12", "ACT-2")
def test_a_reacting_smg_that_empties_its_magazine_waits_for_its_own_turn(tmp_path):
    """§8.0.3 (optional), §5.0: an SMG firing by opportunity rolls a double: its magazine is
    empty.  It cannot fire again until it is changed, and changing it is an action, which a
    reacting figure does not take: at the next enemy move it may not fire, nor reload."""
    g = new_game(tmp_path, options=("ammo",), men=(*MEN, ("ismg", "irregulars", "Cell", "Irr1", "SMG", "", "")))
    play(g, "move vet 10 shoot", "react-fire ismg vet range=20 dice=3,3,1")
    assert "empty-mag" in status(g, "ismg")
    g.execute("move trained 10 shoot", role=REFEREE)
    refused(g, "react-fire ismg trained range=20 dice=1,2,3", rule="FIRE-12")
    refused(g, "reload ismg", rule="ACT-1")  # changing it is an action, and the reacting side takes none


@pytest.mark.audits("FIRE-15", "OPP-2", "T-16")
def test_opportunity_fire_that_comes_first_is_the_first_fire(g):
    """§14.0: "5 points for whoever fires first": the Regulars only move; the Militiaman who
    answers the move by opportunity fires the game's first shot, and his side pays 5."""
    play(g, "move vet 10 shoot", "react-fire irr1 vet range=30 dice=1", "fire trained irr2 range=30 dice=1", "next")
    assert g.state.sides["irregulars"].dp_by_category.get("first-fire") == 5
    assert not g.state.sides["regulars"].dp_by_category.get("first-fire")


@pytest.mark.audits("FIRE-15", "COV-1")
def test_covering_fire_is_fire_and_can_be_the_first(g):
    """§8.3, §14.0: covering fire is men firing on an area "to keep any opportunity firers with
    their heads down": given before any other shot, it is the first fire: 5 to its side."""
    play(g, "covering vet area=yard range=20", "next")
    assert g.state.sides["regulars"].dp_by_category.get("first-fire") == 5


@pytest.mark.audits("MOV-6", "OPP-4", "OPP-2")
def test_a_dodge_a_sniper_cannot_use_is_neither_spent_nor_his_reaction(g):
    """§6.5: "Fire from snipers cannot be dodged"; §8.2: a model reacts once to each enemy
    fire.  A Militiaman has declared a dodge; the sniper's shot at him needs its plain 3.
    He has not dodged it, so he may still fire back at the sniper; and his dodge still
    stands for the next shot that can be dodged: the Veteran's 4 + 1."""
    g.execute("react-dodge irr1 3", role=REFEREE)
    assert shot(g, "fire snipe irr1 range=30 dice=1").need == 3
    assert to_hit(g.execute("react-fire irr1 snipe range=30 dice=1", role=REFEREE))
    assert shot(g, "fire vet irr1 range=30 dice=1").need == 5


@pytest.mark.audits("COV-1", "OPP-4", "T-03")
def test_a_covering_move_and_its_covering_fire_are_one_action_for_the_enemy(g):
    """§5.0 d): "Perform covering fire (you can also move up to 5cm)" is one action, and §8.2:
    "A model can only react once to each enemy soldier's move or fire".  A Trained man moves
    3 cm and covers: a Militiaman who fired at him as he moved may not fire again at his
    covering fire; one who has not reacted may."""
    play(g, "move trained 3 covering", "react-fire irr3 trained range=30 dice=1", "covering trained area=yard range=20")
    refused(g, "react-fire irr3 trained range=30 dice=1", rule="OPP-4")
    assert to_hit(g.execute("react-fire irr2 trained range=30 dice=1", role=REFEREE))


@pytest.mark.audits("COV-1", "T-05", "MOV-3")
@pytest.mark.parametrize(("moved", "value"), [(3, None), (0, 6 + 2)])
def test_an_mmg_that_moved_gives_no_covering_fire(g, moved, value):
    """§6.1: "Infantry with MMG or HMG ... can only fire if they don't move", and covering fire
    is fire (§8.3: the values "of those performing covering fire ... according to ... weapon
    firing").  An MMG that moved 3 cm in its covering action cannot cover; one that did not
    move covers at 20 cm for 6 + the Veterans' 2."""
    if moved:
        g.execute(f"move mmg {moved} covering", role=REFEREE)
        refused(g, "covering mmg area=yard range=20", rule="MOV-3")
    else:
        out = g.execute("covering mmg area=yard range=20", role=REFEREE)
        assert f"worth {value}" in " ".join(out.lines)


@pytest.mark.audits("SPEC-1", "OPP-4", "T-03")
def test_a_move_and_the_speculative_fire_after_it_are_one_action_for_the_enemy(g):
    """§5.0 c), §8.6: speculative fire "is performed like normal fire", so a cautious move and
    the speculative shot after it are the Veteran's one action, and §8.2 lets each enemy
    react once to it: the Militiaman who fired as he moved may not fire again at his shot."""
    play(g, "move vet 4 cautious", "react-fire irr1 vet range=30 dice=1", "speculative vet ghost range=30 dice=1")
    refused(g, "react-fire irr1 vet range=30 dice=1", rule="OPP-4")
    assert to_hit(g.execute("react-fire irr2 vet range=30 dice=1", role=REFEREE))


@pytest.mark.audits("SMK-1", "T-05", "T-03")
@pytest.mark.parametrize(
    ("before", "smoke", "allowed", "rule"),
    [
        ("fire vet irr1 range=30 dice=1", "smoke vet range=10 dice=4", False, "T-03"),
        ("move trained 25 run", "smoke trained range=10 dice=4", False, "MOV-3"),
        ("move gl 10 shoot", "smoke gl range=30 weapon=GL dice=5", False, "MOV-3"),
        ("move gl 5 cautious", "smoke gl range=30 weapon=GL dice=5", True, None),
        ("move vet 10 shoot", "smoke vet range=10 dice=4", True, None),
    ],
)
def test_smoke_is_thrown_as_the_figures_fire(g, before, smoke, allowed, rule):
    """§8.9: smoke is thrown as a hand grenade or fired from a grenade launcher, so it is the
    figure's fire (§5.0: one action): not after he has fired, not after a run, and from a
    launcher only after a move of 5 cm or less (§6.1); a man who moved 10 cm throws it by
    hand."""
    g.execute(before, role=REFEREE)
    if allowed:
        assert rolls(g.execute(smoke, role=REFEREE))
    else:
        refused(g, smoke, rule=rule)


@pytest.mark.audits("SMK-1", "OPP-4", "T-03")
def test_a_move_and_the_smoke_thrown_after_it_are_one_action_for_the_enemy(g):
    """§5.0, §8.2: a Veteran moves 4 cm and throws smoke, his one action: a Militiaman who
    fired as he moved may not fire again at the throw; one who has not reacted may."""
    play(g, "move vet 4 cautious", "react-fire irr1 vet range=30 dice=1", "smoke vet range=10 dice=4")
    refused(g, "react-fire irr1 vet range=30 dice=1", rule="OPP-4")
    assert to_hit(g.execute("react-fire irr2 vet range=30 dice=1", role=REFEREE))
