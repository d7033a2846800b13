"""Breaking News vehicles (§6.0, §6.3, §8.8, §9.1–§9.2), hand-to-hand (§11.0),
storming a building (§11.1, EX-05), support fire (§8.4–§8.5, §8.9), the wounded
rule (§9.3), and the Italian draft's numbers."""

from __future__ import annotations

import pytest
from bn_combat_support import at_initiative, facts, new_game, next_turn, rolls, status, to_activation
from playing import refused

from core.dice.faces import NeedDice
from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE
from core.rulesets.breaking_news import dice_order

# -------------------------------------------------------------------- vehicles


def test_vehicle_moves_roll_2d6(rng):
    """§6.0: the Hummer (wheeled) rolls 3,4 and may go 45 − 7 = 38 cm; the Abrams (tracked) rolls 6,6: up
    to 18, it moves 10.  §6.1: a tank that moved cannot fire its gun; its HMG fires with the moving +1.

    Digest: AMB-12, AMB-13, MOV-2, MOV-3, T-04, T-05.
    """
    out = rng.execute("move hummer dice=3,4", role="regulars")
    assert facts(out, ev.Moved)[0].cm == 38  # wheeled 45 - 7
    out = rng.execute("move abrams 10 dice=6,6", role="regulars")
    assert facts(out, ev.Moved)[0].cm == 10  # tracked 30 - 12 = 18 allowed
    refused(rng, "@regulars fire abrams kalash range=30 weapon=TANKGUN", "gun or moves", rule="MOV-3")
    out = rng.execute("fire abrams kalash range=30 weapon=HMG dice=1,1,1,1,1", role="regulars")
    assert rolls(out)[0].target == 6 and rolls(out)[0].mods[0].label == "firer moved"


def test_embark_and_disembark_are_whole_actions(rng):
    """§6.3: getting into the Hummer is Emfour's whole action; he gets out in a later turn, again his
    whole action.

    Digest: AMB-14, DIFF-16, MOV-5.
    """
    rng.execute("embark m4 hummer", role="regulars")
    assert "in-vehicle" in status(rng, "m4") and rng.state.vars["secret.aboard.m4"] == "hummer"
    refused(rng, "@regulars disembark m4", "already acted", rule="MOV-5")
    next_turn(rng, "regulars")
    rng.execute("disembark m4", role="regulars")
    assert "in-vehicle" not in status(rng, "m4")


def test_small_arms_cannot_hurt_a_tank(tmp_path, monkeypatch):
    """§9.2: Kalash's AR hits the Abrams (a 6) and nothing is rolled: small arms cannot hurt a tank.

    Digest: VSAVE-2.
    """
    g = new_game(tmp_path, "combat", active="irregulars", monkeypatch=monkeypatch)
    out = g.execute("fire kalash abrams range=20 dice=6", role="irregulars")
    assert len(rolls(out)) == 1 and "unharmed" in facts(out, ev.Noted)[-1].text
    assert not plain(g.state.units["abrams"].out)


def test_rpg_blows_up_a_hummer_and_the_crew_bails_out(tmp_path, monkeypatch):
    """§8.8: Emfour in the Hummer counts as behind cover.  §9.2: Rocket's RPG hits the Hummer (protected:
    6 against light AT); a 3 fails by 3 and it explodes; §9.1: Emfour saves at 3+ (a 4) and gets out
    suppressed.

    Digest: FIRE-14, SUP-1, T-14, VF-1, VSAVE-1.
    """
    g = new_game(tmp_path, "combat", monkeypatch=monkeypatch)
    g.execute("embark m4 hummer", role="regulars")
    next_turn(g, "irregulars")
    # Men in a protected vehicle count as behind cover against small arms (§8.8).
    out = g.execute("fire kalash m4 range=20 dice=4", role="irregulars")
    assert {m.label for m in rolls(out)[0].mods} == {"Irr2 firing", "target behind cover"}
    out = g.execute("fire rocket hummer range=30 dice=5,3,4", role="irregulars")
    to_hit, vsave, crew = rolls(out)
    assert vsave.target == 6 and vsave.outcome == "explodes"  # protected vs RPG 6; fails by 3
    assert crew.target == 3  # §9.1 occupants of an exploding vehicle
    assert plain(g.state.units["hummer"].out) == "destroyed by irregulars"
    assert "suppressed" in status(g, "m4") and "in-vehicle" not in status(g, "m4")


def test_the_men_in_an_exploding_vehicle_have_no_protection_bonus(tmp_path, monkeypatch):
    """§9.1: the men inside a vehicle that explodes save at 3+ (2+ in a heavily-armoured
    one).  Of §9.0's +1s the leader's still counts; a protected vehicle's cover (§8.8) does
    not, for it is what blew up (ruling BN-C-EXPLOSION-SAVE).  Rocket's RPG hits the
    Hummer (save 6) and a 3 fails it by 3: Sgt Stone, the leader, saves with 2 + 1;
    Emfour's 2 fails."""
    g = new_game(tmp_path, "combat", monkeypatch=monkeypatch)
    g.execute("embark sarge hummer", role="regulars")
    g.execute("embark m4 hummer", role="regulars")
    next_turn(g, "irregulars")
    out = g.execute("fire rocket hummer range=30 dice=5,3,2,2", role="irregulars")
    _to_hit, vsave, sarge, m4 = facts(out, ev.Rolled)
    assert vsave.roll.outcome == "explodes"
    assert (sarge.unit, sarge.roll.target, [m.label for m in sarge.roll.mods]) == ("sarge", 3, ["team leader"])
    assert (m4.unit, m4.roll.target, m4.roll.mods) == ("m4", 3, ())
    assert "suppressed" in status(g, "sarge") and "in-vehicle" not in status(g, "sarge")
    assert plain(g.state.units["m4"].out) == "killed by irregulars"


def test_knocked_out_without_exploding(tmp_path, monkeypatch):
    """§9.2: Rocket's RPG hits the Hummer (a 5); it needs 6 and rolls 4: failed by 2, knocked out, not
    blown up.

    Digest: VSAVE-1.
    """
    g = new_game(tmp_path, "combat", active="irregulars", monkeypatch=monkeypatch)
    g.execute("fire rocket hummer range=30 dice=5,4", role="irregulars")
    assert plain(g.state.units["hummer"].out) == "knocked out by irregulars"


@pytest.mark.parametrize(("variant", "save_ok"), [("", False), ("it-2009-12-09", True)])
def test_exploding_tank_crew_saves_by_variant(tmp_path, monkeypatch, variant, save_ok):
    """§9.1: 2+ inside a heavily-armoured vehicle; the Italian draft adds the tank (DIFF-38).

    Digest: AMB-46, SAVE-6.
    """
    g = new_game(tmp_path, "combat", variant=variant, monkeypatch=monkeypatch)
    g.execute("embark m4 abrams", role="regulars")
    out = g.execute("blast abrams source=tank by=irregulars dice=1,2", role=REFEREE)
    vsave, crew = rolls(out)
    assert vsave.target == 4 and vsave.outcome == "explodes"
    assert crew.target == (2 if save_ok else 3)
    assert bool(plain(g.state.units["m4"].out)) is not save_ok


# ----------------------------------------------------------------------- melee


def test_melee_one_against_one(rng):
    """§11.0: Sgt Stone (Melee 4) and Kalash (2) both roll 3: 7 against 5; Kalash is killed, no save.

    Digest: MEL-1.
    """
    out = rng.execute("melee sarge kalash dice=3,3", role="regulars")
    a, b = rolls(out)
    assert a.outcome == "total 7" and b.outcome == "total 5"
    assert plain(rng.state.units["kalash"].out) == "killed by regulars"


def test_the_table_is_asked_for_the_attackers_melee_roll_then_the_defenders(rng):
    """§11.0: with the table's dice, the attackers' 1d6 is asked first and the defender's
    second, each at its own step of melee's dice order (Stone and Kalash both roll 3)."""
    steps: list[str] = []
    faces: list[int] = []
    while True:
        try:
            rng.execute("melee sarge kalash", role="regulars", faces=faces)
            break
        except NeedDice as need:
            steps.append(need.request.order[need.request.current()])
            faces.append(3)
    assert steps == [dice_order.MELEE_ATTACKERS, dice_order.MELEE_DEFENDER]
    assert plain(rng.state.units["kalash"].out) == "killed by regulars"


def test_a_move_into_contact_ends_in_melee(rng):
    """§11.0 with §5.0: a man runs (or moves) into base contact and fights; the melee
    ends his action (AMB-50, ruling BN-C-MELEE-MOVE).  Stone (Melee 4) runs 20 cm onto
    Kalash (Melee 2): 3 + 4 against 3 + 2."""
    rng.execute("move sarge 20 run", role="regulars")
    out = rng.execute("melee sarge kalash dice=3,3", role="regulars")
    assert [r.outcome for r in rolls(out)] == ["total 7", "total 5"]
    assert plain(rng.state.units["kalash"].out) == "killed by regulars"
    refused(rng, "@regulars melee sarge kid dice=3,3", "already", rule="MEL-1")
    rng.execute("move m4 4 cautious", role="regulars")
    # a group, one who crept and one who stood: 1 + 4 + 4 against 6 + 1
    out = rng.execute("melee m4 kid with=saw dice=1,6", role="regulars")
    assert [r.outcome for r in rolls(out)] == ["total 9", "total 7"]
    assert plain(rng.state.units["kid"].out) == "killed by regulars"
    assert "acted" in status(rng, "m4") and "acted" in status(rng, "saw")


def test_a_man_who_fired_does_not_fight(rng):
    rng.execute("fire rook kalash range=30 aimed dice=1", role="regulars")
    refused(rng, "@regulars melee rook kalash dice=3,3", "fired or fought", rule="MEL-1")
    rng.execute("covering saw area=yard range=20", role="regulars")
    refused(rng, "@regulars melee saw kalash dice=3,3", "fired or fought", rule="MEL-1")


def test_melee_three_against_one_and_ties(rng):
    """§11.0: three Rangers against Omar, the suppressed one tested first: 1 + 12 against 1 + 3; a tie
    (Rook, Kid) is rolled again.

    Digest: AMB-50, MEL-2, MEL-3.
    """
    rng.execute("mark saw suppressed", role=REFEREE)
    out = rng.execute("melee m4 omar with=sarge,saw leader=sarge dice=2,1,1", role="regulars")
    # saw tests first (2 <= 4 + 2: passes, no longer suppressed); then 1 + 12 against 1 + 3.
    r = rolls(out)
    assert r[0].outcome == "passes" and r[1].outcome == "total 13"
    assert plain(rng.state.units["omar"].out).startswith("killed")
    out = rng.execute("melee rook kid dice=1,1,6,1", role="regulars")
    assert any("tied" in n.text for n in facts(out, ev.Noted))
    assert plain(rng.state.units["kid"].out).startswith("killed")


def test_melee_limits_and_the_lone_winner(rng):
    """§11.0: a melee is up to three against one: two against two and four against one are refused; Rook
    alone against Kalash and Rocket loses (1 + 1 against 6 + 2 + 2) and dies.

    Digest: MEL-2.
    """
    refused(rng, "@regulars melee m4 kalash kid with=saw", "ONE", rule="MEL-2")
    refused(rng, "@regulars melee sarge kalash with=saw,m4,rook", "at most", rule="MEL-2")
    out = rng.execute("melee rook kalash rocket dice=1,6", role="regulars")
    assert plain(rng.state.units["rook"].out) == "killed by irregulars"
    assert [e.unit for e in facts(out, ev.UnitOut)] == ["rook"]


def test_melee_suppressed_defender_minus_two(rng):
    """§11.0: suppressed Kalash fights Rook at −2: 3 + 2 − 2 = 3 against 3 + 1 = 4; he is killed.

    Digest: MEL-1, SUP-2.
    """
    rng.execute("mark kalash suppressed", role=REFEREE)
    out = rng.execute("melee rook kalash dice=3,3", role="regulars")
    b = rolls(out)[1]
    assert b.outcome == "total 3"  # 3 + 2 - 2
    assert plain(rng.state.units["kalash"].out)


# --------------------------------------------------------------------- storming


def test_ex05_rangers_storm_the_taliban_house(rng):
    """EX-05: seven Rangers (28 dice on 6) storm four Taliban (4 dice on 5–6): five 6s and one 5; the
    Taliban save 6,6,5,1,2 (two survive, suppressed), the hit Ranger saves a 4.  Next round the suppressed
    Ranger fails his test: 24 dice, not 21.

    Digest: AMB-51, BLD-1, BLD-3, BLD-4, BLD-6.
    """
    rangers = "sarge saw m4 c1 c2 c3 c4"
    attack = [6] * 5 + [1, 2, 3, 4, 5] * 4 + [1, 2, 3]
    defend = [5, 1, 2, 3]
    saves = [6, 6, 5, 1, 2, 4]  # tali1 twice, tali2, tali3, tali4; then the one hit Ranger
    dice = ",".join(map(str, attack + defend + saves))
    out = rng.execute(f"storm {rangers} against=tali1,tali2,tali3,tali4 dice={dice}", role="regulars")
    a, d = rolls(out)[:2]
    assert (len(a.faces), a.target, a.outcome) == (28, 6, "5 hits")
    assert (len(d.faces), d.target, d.outcome) == (4, 5, "1 hits")
    alive = [t for t in ("tali1", "tali2", "tali3", "tali4") if not plain(rng.state.units[t].out)]
    assert alive == ["tali1", "tali2"]
    assert all("suppressed" in status(rng, t) for t in alive)
    assert "suppressed" in status(rng, "sarge")
    # Next round: the Ranger fails his test (24 dice, not the book's 21); both Taliban pass (2 dice).
    next_turn(rng, "regulars")
    tests = [6, 1, 1]
    attack = [1] * 24
    defend = [1, 1]
    dice = ",".join(map(str, tests + attack + defend))
    out = rng.execute(f"storm {rangers} against=tali1,tali2 dice={dice}", role="regulars")
    r = rolls(out)
    assert [len(x.faces) for x in r[3:5]] == [24, 2]


def test_storm_civilians_save_at_4_or_3_against_special_forces(rng):
    """§11.1: Op Delta (Special Forces) storms; the Shopkeeper inside saves at 3+, not 4+: a 2 kills him.

    Digest: BLD-5, SAVE-6.
    """
    out = rng.execute("storm delta against=tali1 civilians=civ dice=1,1,1,1,1,3,2", role="regulars")
    civ = rolls(out)[-1]
    assert civ.target == 3 and plain(rng.state.units["civ"].out) == "killed by regulars"


def test_storming_is_firing_and_melee_is_not(rng):
    """§14.0 charges 5 to whoever fires first.  §11.1: storming a building replaces
    ranged fire, and its dice are shots that force saves; §11.0's hand-to-hand fires
    none (ruling BN-C-FIRST-SHOT).  Stone knifes Kalash: nobody has fired yet.

    Digest: BLD-1.
    """
    rng.execute("melee sarge kalash dice=3,3", role="regulars")
    assert plain(rng.state.units["kalash"].out) and "first_fire" not in rng.state.vars
    rng.execute("storm rook against=tali1 dice=1,2", role="regulars")  # Rook: 1 die; Tali1: 1 die
    assert rng.state.vars["first_fire"] == "regulars"
    rng.execute("next", role=REFEREE)
    assert rng.state.sides["regulars"].dp_by_category["first-fire"] == 5
    assert "first-fire" not in rng.state.sides["irregulars"].dp_by_category


def test_a_storm_whose_attackers_roll_nothing_is_the_defenders_fire(rng):
    """The storming men who fail their suppression test sit the round out (§10.0, §11.1):
    only the defenders' dice are rolled, so they are the ones who fire first.

    Digest: BLD-6.
    """
    rng.execute("mark rook suppressed", role=REFEREE)
    out = rng.execute("storm rook against=tali1 dice=6,1", role="regulars")  # the 6 fails his test
    assert [r.outcome for r in rolls(out)] == ["fails: in panic", "0 hits"]
    assert rng.state.vars["first_fire"] == "irregulars"


# ------------------------------------------------------------------ support fire


def test_bombardment_called_lands_next_turn(tmp_path, monkeypatch):
    """§8.4: the regulars' call succeeds on a 4 and lands at the start of turn 2, before initiative: the
    drift is 6,5,4,3 = 18 cm; Kalash and Rocket under the template save at 3+ with +2: Kalash's 1 kills
    him, Rocket's 2 + 2 passes.  One call a side.

    Digest: AMB-34, AMB-44, ART-2, ART-3, ART-4, MORT-2.
    """
    g = at_initiative(tmp_path, "combat", monkeypatch=monkeypatch)
    out = g.execute("call-support dice=4", role="regulars")
    assert rolls(out)[0].outcome == "granted" and g.state.vars["support.regulars"] == "artillery@2"
    refused(g, "@regulars call-support dice=6", "already", rule="ART-2")
    out = g.execute("call-support mortar dice=4", role="irregulars")
    assert rolls(out)[0].target == 5 and rolls(out)[0].outcome == "refused"
    to_activation(g, "regulars")
    g.execute("next", role=REFEREE)
    g.execute("next", role=REFEREE)
    out = g.execute("next dice=6,5,4,3,6,6,1,1", role=REFEREE)
    drift = rolls(out)[0]
    assert drift.faces == (6, 5, 4, 3) and drift.outcome == "18 cm"
    assert any("bombardment lands" in n.text for n in facts(out, ev.Noted))
    out = g.execute("blast kalash rocket source=bombardment by=regulars dice=1,2", role=REFEREE)
    k, r = rolls(out)
    assert k.target == 3 and k.mods[0].value == 2
    assert plain(g.state.units["kalash"].out) and not plain(g.state.units["rocket"].out)


def test_irregular_mortar_and_counter_battery(tmp_path, monkeypatch):
    """Extras: Mortars, §8.5: the militia's mortar is called on a 5 and fires next turn at 60 cm, needing
    5: a 3 lands 6 cm off; once it has fired, the regulars' counter-battery on a 4 silences it for good.

    Digest: AMB-30, AMB-35, AMB-36, EXT-5, MORT-1, MORT-3.
    """
    g = at_initiative(tmp_path, "combat", monkeypatch=monkeypatch)
    g.execute("call-support mortar dice=5", role="irregulars")
    to_activation(g, "regulars")
    g.execute("next", role=REFEREE)
    g.execute("next", role=REFEREE)
    g.execute("next dice=1,1,6,6", role=REFEREE)
    assert g.state.active_side == "irregulars"
    out = g.execute("mortar range=60 dice=3", role="irregulars")
    assert rolls(out)[0].target == 5
    assert "lands 6 cm off" in facts(out, ev.Noted)[-1].text
    g.execute("next", role=REFEREE)
    g.execute("next", role=REFEREE)
    out = g.execute("call-support counter dice=4", role="regulars")
    assert g.state.vars["mortar-silenced.irregulars"] == 1
    refused(g, "@irregulars call-support mortar", "silenced", rule="MORT-3")


def test_smoke_drifts_next_turn_and_clears_after(rng):
    """§8.9: Emfour throws smoke 8 cm, needing 4: a 2 lands 2 cm off (1 cm a point); next turn it drifts 3
    + 5 = 8 cm, even: the way it first deviated; the turn after, it clears.

    Digest: AMB-41, SMK-1, SMK-2.
    """
    out = rng.execute("smoke m4 range=8 dice=2", role="regulars")
    assert "2 cm off" in facts(out, ev.Noted)[-1].text  # a hand grenade: 1 cm per point
    rng.execute("next", role=REFEREE)
    rng.execute("next", role=REFEREE)
    out = rng.execute("next dice=3,5,6,6,1,1", role=REFEREE)
    assert any("drifts 8 cm the way it first deviated" in n.text for n in facts(out, ev.Noted))
    rng.execute("next", role=REFEREE)
    rng.execute("next", role=REFEREE)
    out = rng.execute("next dice=6,6,1,1", role=REFEREE)
    assert any("clears" in n.text for n in facts(out, ev.Noted))


def test_ied_dud_and_blast(rng):
    """Extras: Explosives, §9.1: a 2 is a dud, spent for good; a blast's men save at 3+: Sgt Stone (+1,
    leader) with a 3, Emfour's 2 fails.

    Digest: AMB-43, EXT-9, SAVE-6.
    """
    out = rng.execute("ied marker.1 dice=2", role=REFEREE)
    assert rolls(out)[0].outcome == "dud"
    refused(rng, "ied marker.1 dice=6", "already", rule="EXT-9")
    out = rng.execute("blast sarge m4 source=ied by=irregulars dice=3,2", role=REFEREE)
    s, m = rolls(out)
    assert s.target == 3 and s.mods[0].label == "team leader"
    assert not plain(rng.state.units["sarge"].out) and plain(rng.state.units["m4"].out) == "killed by irregulars"


# ---------------------------------------------------------------------- wounded


def test_wounded_man_stabilised_by_a_medic(tmp_path, monkeypatch):
    """§9.3 (optional): Emfour fails his save (1) and rolls 3: badly wounded, dying at the end of turn 4
    unless a medic reaches him; Doc stabilises him.

    Digest: T-15, WND-1, WND-2.
    """
    g = new_game(tmp_path, "combat", monkeypatch=monkeypatch, options=("wounded",))
    out = g.execute("blast m4 source=grenade by=irregulars dice=1,3", role=REFEREE)
    assert rolls(out)[1].outcome.startswith("badly wounded: 3")
    assert plain(g.state.units["m4"].out) == "wounded by irregulars" and g.state.vars["secret.wound.m4"] == 4
    g.execute("medic doc m4", role="regulars")
    assert plain(g.state.units["m4"].out) == "stabilised, wounded by irregulars"
    line = [ln.text for ln in g.log_lines(role="referee")][-2:]
    assert line == [
        "Pfc Emfour out of action: stabilised, wounded by Militia",  # the side by its name (#26)
        "Pfc Emfour's wound no longer counts down",  # the figure by its name (#26)
    ]


def test_wounded_man_dies_when_his_time_runs_out(tmp_path, monkeypatch):
    """§9.3: Emfour, wounded with a 3 in turn 1, is still alive at the end of turns 1 to 3 and dies at the
    end of turn 4.

    Digest: AMB-47, T-15, WND-1.
    """
    g = new_game(tmp_path, "combat", monkeypatch=monkeypatch, options=("wounded",))
    g.execute("blast m4 source=grenade by=irregulars dice=1,3", role=REFEREE)
    for turn in (1, 2, 3):
        g.execute("next", role=REFEREE)
        assert plain(g.state.units["m4"].out).startswith("wounded"), turn
        g.execute("next", role=REFEREE)
        to_activation(g, "regulars")
    g.execute("next", role=REFEREE)
    g.execute("next", role=REFEREE)
    assert plain(g.state.units["m4"].out) == "died of wounds by irregulars"


def test_wound_roll_of_two_is_dead(tmp_path, monkeypatch):
    """§9.3: a failed save, then a wound roll of 2: dead.

    Digest: T-15, WND-1.
    """
    g = new_game(tmp_path, "combat", monkeypatch=monkeypatch, options=("wounded",))
    g.execute("blast m4 source=grenade by=irregulars dice=1,2", role=REFEREE)
    assert plain(g.state.units["m4"].out) == "killed by irregulars"


def test_options_are_referee_switches_before_play(rng):
    refused(rng, "option ammo on", "phase", rule="ENG-2")


@pytest.mark.parametrize(("variant", "words"), [("", "runs on for"), ("it-2009-12-09", "runs on straight on")])
def test_losing_the_driver(tmp_path, monkeypatch, variant, words):
    """§8.8: the Hummer's driver, shot by small arms as he gets in (the only fire that reaches the men
    of a protected vehicle), fails his save (a 1): a note says it runs on for a whole move and stops
    (straight on, in the Italian draft).

    Digest: AMB-40, DIFF-36, VF-2.
    """
    g = new_game(tmp_path, "combat", variant=variant, monkeypatch=monkeypatch)
    g.execute("embark wheels hummer", role="regulars")
    out = g.execute("react-fire kalash wheels range=20 aimed dice=6,1", role="irregulars")
    assert any(words in n.text for n in facts(out, ev.Noted))
    assert g.state.vars["secret.aboard.wheels"] == ""


def test_helicopter_gunship(rng):
    """§8.4: flies without limit, fires as an HMG at its greatest distance; it is shot
    at by small arms and rockets at long range from anywhere, saving as light armour.

    Digest: AMB-45, ART-6.
    """
    out = rng.execute("move apache 90", role="regulars")
    assert facts(out, ev.Moved)[0].cm == 90 and not rolls(out)
    out = rng.execute("fire apache kalash range=20 dice=6,1,1,1,1,5", role="regulars")
    assert rolls(out)[0].target == 6 and len(rolls(out)[0].faces) == 5  # the HMG's 150 cm column
    assert "suppressed" in status(rng, "kalash")
    next_turn(rng, "irregulars")
    refused(rng, "@irregulars fire kid apache sarge range=20 split=2,1", "on its own", rule="ART-6")
    out = rng.execute("fire rocket apache range=20 dice=6,3", role="irregulars")
    to_hit, vsave = rolls(out)
    assert to_hit.target == 6 and vsave.target == 4  # RPG at its long band; light-armoured vs light AT
