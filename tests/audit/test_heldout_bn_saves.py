"""Held-out audit of Breaking News §9–§12 (saving throws, vehicles, suppression,
hand-to-hand, storming, morale), written from the rulebook (1.5.1) and its digest alone,
after the first audit and apart from it: special save values meeting the §9.0 bonus, a
vehicle's failure margin deciding what its men roll, a suppression test that frees a man
before he fights, the wounded in a morale test.  Given these faces, the book's outcome."""

from __future__ import annotations

import pytest
from audit_bn_late import game_fixture, new_game, next_turn, out, play, refused, rolls, status, to_activation, unit

from core.log.views import REFEREE


def _aboard(tmp_path, monkeypatch, cls, weapons=("HMG",), extra=""):
    """A Regular vehicle of ``cls`` with a Trained man and a Trained leader aboard, and an
    Irregular HMG gunner; the Irregulars active in turn 2."""
    units = unit("veh", "regulars", cls, "Motor", kind="vehicle", weapons=weapons)
    units += unit("a", "regulars", "R4", "Alpha") + unit("ldr", "regulars", "R4", "Alpha", lead=1, roles=("leader",))
    units += unit("mg", "irregulars", "Irr1", "Cell", weapons=("HMG",)) + extra
    g = new_game(tmp_path, monkeypatch, units)
    play(g, "@regulars embark a veh", "@regulars embark ldr veh")
    next_turn(g, "irregulars")
    return g


# ------------------------------------------------------------------------ §9.1, §9.2


@pytest.mark.audits("VSAVE-1", "T-14", "SAVE-6", "SAVE-3")
@pytest.mark.parametrize(("die", "explodes"), [(3, True), (4, False)])
def test_a_hummer_failing_its_hmg_save_by_three_explodes_and_its_men_save_at_three(
    tmp_path, monkeypatch, die, explodes
):
    """§9.2: a protected vehicle saves on a 6 against an HMG.  A 3 fails by 3: it explodes,
    and the men inside test at 3+ (§9.1): the Trained man's 2 fails (his own 4+ is not
    used), the leader's 2 + 1 = 3 passes and he is placed beside the wreck, suppressed.  A 4
    fails by 2: the Hummer is only knocked out and nobody aboard rolls."""
    g = _aboard(tmp_path, monkeypatch, "protected")
    dice = f"6,1,1,1,1,{die}" + (",2,2" if explodes else "")
    r = rolls(g.execute(f"fire mg veh range=20 dice={dice}", role="irregulars"))
    assert out(g, "veh")
    if explodes:
        assert len(r) == 4
        assert out(g, "a") and not out(g, "ldr") and "suppressed" in status(g, "ldr")
        assert "in-vehicle" not in status(g, "ldr")
    else:
        assert len(r) == 2 and not out(g, "a") and not out(g, "ldr")


@pytest.mark.audits("VSAVE-1", "T-14", "SAVE-6")
@pytest.mark.parametrize(("die", "explodes"), [(1, True), (2, False)])
def test_a_light_armoured_vehicle_against_an_ied_saves_on_four(tmp_path, monkeypatch, die, explodes):
    """§9.2: a light-armoured vehicle saves 4+ against an IED: a 1 fails by 3 and it
    explodes (its men save at 3+: two 3s pass); a 2 fails by 2, knocked out, nobody rolls."""
    g = _aboard(tmp_path, monkeypatch, "light")
    dice = f"{die}" + (",3,3" if explodes else "")
    r = rolls(g.execute(f"blast veh source=ied by=irregulars dice={dice}", role=REFEREE))
    assert out(g, "veh") and len(r) == (3 if explodes else 1)
    assert not out(g, "a") and not out(g, "ldr")
    assert ("suppressed" in status(g, "a")) is explodes


@pytest.mark.audits("VSAVE-1", "SAVE-6", "SAVE-2", "T-13")
def test_the_men_of_an_exploding_heavy_vehicle_save_at_two_but_a_one_kills(tmp_path, monkeypatch):
    """§9.2, §9.1, §9.0: a heavily-armoured vehicle saves 5+ against a tank gun; a 2 fails by
    3 and it explodes.  Its men save at 2+: a 2 passes; a 1 always kills, even the leader
    with his +1."""
    g = _aboard(tmp_path, monkeypatch, "heavy", weapons=("TANKGUN", "HMG"))
    rolls(g.execute("blast veh source=tank by=irregulars dice=2,2,1", role=REFEREE))
    assert out(g, "veh")
    assert sorted([bool(out(g, "a")), bool(out(g, "ldr"))]) == [False, True]
    survivor = "a" if not out(g, "a") else "ldr"
    assert "suppressed" in status(g, survivor)


@pytest.mark.audits("SAVE-6", "SAVE-3", "T-13")
@pytest.mark.parametrize(("cls", "cover", "saved"), [("R1", False, False), ("R1", True, True), ("R5", True, True)])
def test_an_ied_saves_at_three_for_every_class_and_cover_still_adds_one(tmp_path, monkeypatch, cls, cover, saved):
    """§9.1, §9.0: "Men that make the test as a consequence of an IED ... test at 3+": a
    Special Forces man's 2 fails (his own 2+ is not used); behind protection the same 2 is
    3 and saves, as does a Green Recruit's 2 (his own 5+ is not used either).  The Regulars'
    commander (BN-ONE-COMMANDER) is another man: the team leader's own +1 (§9.0) is not the
    point here."""
    units = unit("lt", "regulars", cls, "HQ", roles=("commander", "leader"))
    units += unit("x", "regulars", cls, "Alpha") + unit("boss", "irregulars", "Irr1", "Cell")
    g = new_game(tmp_path, monkeypatch, units)
    (r,) = rolls(g.execute("blast x source=ied by=irregulars" + (" cover" if cover else "") + " dice=2", role=REFEREE))
    assert bool(out(g, "x")) is not saved


# ------------------------------------------------------------------------ §10.0


@pytest.mark.audits("SUP-3", "SUP-4")
@pytest.mark.parametrize(("helper", "passes"), [("", False), (" leader=ldr2", True)])
def test_a_suppressed_leader_tests_on_his_class_and_another_officers_leadership(tmp_path, monkeypatch, helper, passes):
    """§10.0: the test adds "the leadership of an Officer or NCO within 5cm" to the soldier's
    value.  A suppressed Trained leader (3, leadership 2): a 4 fails on his own; with another
    NCO of leadership 1 beside him 3 + 1 = 4 passes, and he fires."""
    units = unit("ldr", "regulars", "R4", "Alpha", lead=2, roles=("leader",), status=("suppressed",))
    units += unit("ldr2", "regulars", "R4", "Alpha", lead=1, roles=("leader",))
    units += unit("foe", "irregulars", "Irr1", "Cell")
    g = new_game(tmp_path, monkeypatch, units)
    if passes:
        r = rolls(g.execute(f"fire ldr foe range=20 aimed{helper} dice=4,1", role="regulars"))
        assert r[0].outcome.startswith("pass") and len(r) == 2
        assert "suppressed" not in status(g, "ldr")
    else:
        r = rolls(g.execute(f"fire ldr foe range=20 aimed{helper} dice=4", role="regulars"))
        assert len(r) == 1 and "suppressed" in status(g, "ldr")


# ------------------------------------------------------------------------ §11.0, §11.1


@pytest.mark.audits("MEL-1", "SUP-4", "SUP-3")
def test_a_suppressed_attacker_who_passes_his_test_fights_without_the_minus_two(tmp_path, monkeypatch):
    """§10.0, §11.0: a suppressed man tests before any action; passing, he is suppressed no
    longer and fights as he is: a Veteran (3) rolling 3 makes 6 against a Mercenary's 2 + 3
    = 5, and wins (with the −2 he would lose)."""
    units = unit("a", "regulars", "R3", "Alpha", status=("suppressed",)) + unit("d", "irregulars", "Irr1", "Cell")
    g = new_game(tmp_path, monkeypatch, units)
    r = rolls(g.execute("melee a d dice=1,3,2", role="regulars"))
    assert [x.outcome for x in r][1:] == ["total 6", "total 5"]
    assert out(g, "d") and not out(g, "a")


@pytest.mark.audits("MEL-1", "MEL-2", "SUP-2")
@pytest.mark.parametrize(("d_status", "attackers_win"), [(("suppressed",), True), ((), False)])
def test_three_against_a_suppressed_one(tmp_path, monkeypatch, d_status, attackers_win):
    """§11.0: three Green Recruits (1 each) rolling 1 make 4; a Mercenary (3) rolling 2 makes
    5, and kills one of them; suppressed, his −2 leaves 3 and he dies."""
    units = "".join(unit(f"r{i}", "regulars", "R5", "Alpha") for i in range(3))
    units += unit("d", "irregulars", "Irr1", "Cell", status=d_status)
    g = new_game(tmp_path, monkeypatch, units)
    g.execute("melee r0 d with=r1,r2 dice=1,2", role="regulars")
    assert bool(out(g, "d")) is attackers_win
    assert sum(bool(out(g, f"r{i}")) for i in range(3)) == (0 if attackers_win else 1)


def _house(tmp_path, monkeypatch, attackers, defenders):
    units = "".join(unit(f"r{i}", "regulars", c, "Rangers") for i, c in enumerate(attackers))
    for i, (c, lead) in enumerate(defenders):
        roles = ("leader",) if lead else ()
        units += unit(f"t{i}", "irregulars", c, "House", lead=lead, roles=roles)
    return new_game(tmp_path, monkeypatch, units)


@pytest.mark.audits("BLD-3")
def test_each_man_storming_rolls_his_own_melee_in_dice(tmp_path, monkeypatch):
    """§11.1: "each model rolls as many dice as he has Close Combat bonus": a Special Forces
    man (5) and a Green Recruit (1) roll 6 dice; a Mercenary (3) and a Fanatic (2) 5."""
    g = _house(tmp_path, monkeypatch, ("R1", "R5"), (("Irr1", 0), ("Irr2", 0)))
    a, d = rolls(g.execute("storm r0 r1 against=t0,t1 dice=" + ",".join(["1"] * 11), role="regulars"))
    assert (len(a.faces), len(d.faces)) == (6, 5)


@pytest.mark.audits("BLD-4", "SAVE-3")
def test_a_defending_leader_inside_saves_with_his_plus_one(tmp_path, monkeypatch):
    """§11.1, §9.0: each storm hit forces a save; the building is no protection bonus, but
    the team leader keeps his +1: two hits on two Militiamen (5+), both rolling 4: the
    leader's 4 + 1 saves, the other man falls."""
    g = _house(tmp_path, monkeypatch, ("R2", "R2"), (("Irr3", 1), ("Irr3", 0)))
    g.execute("storm r0 r1 against=t0,t1 dice=6,6,1,1,1,1,1,1,1,1,4,4", role="regulars")
    assert not out(g, "t0") and "suppressed" in status(g, "t0")
    assert out(g, "t1")


# ------------------------------------------------------------------------ §12.0


def _squad(tmp_path, monkeypatch, variant=""):
    units = unit("sgt", "regulars", "R4", "Alpha", lead=1, roles=("commander", "leader"))
    units += "".join(unit(f"m{i}", "regulars", "R4", "Alpha") for i in range(5))
    units += unit("boss", "irregulars", "Irr3", "Cell", lead=1, roles=("commander", "leader"))
    units += "".join(unit(f"i{i}", "irregulars", "Irr3", "Cell") for i in range(3))
    return new_game(tmp_path, monkeypatch, units, options=("wounded",), variant=variant)


g = game_fixture("g", _squad)


@pytest.mark.audits("MOR-3", "MOR-1", "WND-1")
@pytest.mark.parametrize(("dice", "passed"), [("1,1,1", False), ("2,1,1", True)])
def test_badly_wounded_men_are_losses_for_morale(g, dice, passed):
    """§12.0 ([IT] "dead or non-stabilized wounded"), §9.3: two men put out and surviving
    their wound roll (a 4 each) are losses until a medic stabilises them: the test falls due
    and needs a 2."""
    g.execute("blast m0 m1 source=grenade by=irregulars dice=1,4,1,4", role=REFEREE)
    assert out(g, "m0").startswith("wounded") and out(g, "m1").startswith("wounded")
    play(g, "next", "dp irregulars 100")
    (roll,) = rolls(g.execute(f"morale regulars dice={dice}", role="regulars"))
    assert (roll.target, roll.outcome == "passed") == (2, passed)


@pytest.mark.audits("MOR-2", "T-01")
@pytest.mark.parametrize(("cls", "dice"), [("Irr3", 2), ("Irr1", 4), ("R1", 5), ("R5", 2)])
def test_the_morale_test_rolls_the_classes_initiative_morale_dice(tmp_path, monkeypatch, cls, dice):
    """§12.0, §3.0: "a number of d6 equal to their Morale rate (from 2 to 5)": the column
    Initiative Morale: Militia 2, Hardened Militia 4, Special Forces 5, Green Recruits 2."""
    side = "irregulars" if cls.startswith("Irr") else "regulars"
    other = "regulars" if side == "irregulars" else "irregulars"
    units = "".join(unit(f"x{i}", side, cls, "Alpha") for i in range(4))
    units += unit("y", other, "R4" if other == "regulars" else "Irr3", "Beta")
    g = new_game(tmp_path, monkeypatch, units)
    play(g, f"out x0 killed by {other}", "next", f"dp {other} 100")
    (roll,) = rolls(g.execute(f"morale {side} dice={','.join(['1'] * dice)}", role=side))
    assert len(roll.faces) == dice


@pytest.mark.audits("MOR-7", "MOR-5", "EXT-6")
def test_motivation_ignores_a_first_failure_even_while_losing(tmp_path, monkeypatch):
    """Extras: Motivation, §12.0: "The first failed Morale Test is ignored" — even one that,
    with more Defeat Points, would end the game.  The second failure while losing does."""
    units = unit("sgt", "regulars", "R4", "Alpha", lead=1, roles=("commander", "leader"))
    units += "".join(unit(f"m{i}", "regulars", "R4", "Alpha") for i in range(5))
    units += unit("boss", "irregulars", "Irr3", "Cell", lead=1, roles=("commander", "leader"))
    g = new_game(tmp_path, monkeypatch, units, head="[extras.regulars]\nmotivation = 1\n")
    play(
        g, "out m0 killed by irregulars", "out m1 killed by irregulars", "next", "@regulars morale regulars dice=1,1,1"
    )
    assert not g.state.vars.get("game_over")
    assert not any("suppressed" in status(g, f"m{i}") for i in range(2, 5))
    play(g, "next", "next dice=6,6,1,1", "out m2 killed by irregulars", "next", "@regulars morale regulars dice=1,1,1")
    assert g.state.vars.get("game_over")


@pytest.mark.audits("SUP-3", "MOR-6")
def test_a_shaken_team_tests_at_the_next_activation_and_refuses_nothing_else(g):
    """§12.0: a team that failed without losing "will start the next turn suppressed": at
    its next activation each man tests (Trained 3); a man passing a 3 acts normally (he may
    run 25 cm); one failing a 4 must move back at least 15 cm, and a 14 cm move is refused."""
    play(g, "out m0 killed by irregulars", "out m4 killed by irregulars", "next", "dp irregulars 100")
    g.execute("morale regulars dice=1,1,1", role="regulars")  # two lost: all 1s fail
    g.execute("next", role=REFEREE)
    to_activation(g, "regulars")
    g.execute("move m1 25 run dice=3", role="regulars")
    assert "suppressed" not in status(g, "m1")
    refused(g, "@regulars move m2 14 dice=4", rule="MOR-6")


@pytest.mark.audits("ART-4", "T-14", "VSAVE-1")
@pytest.mark.parametrize(
    ("cls", "die", "result"),
    [("protected", 4, "saved"), ("protected", 3, "knocked out"), ("protected", 1, "explodes"), ("tank", 2, "saved")],
)
def test_a_vehicle_under_a_bombardment_saves_with_two_more(tmp_path, monkeypatch, cls, die, result):
    """§8.4: under the bombardment template "all the models in the area must make a saving
    throw (with a bonus of +2 to the roll)", a vehicle too (§1.0: "one model vehicle is one
    vehicle"); it saves on the heavy anti-tank column (ruling BN-C-VEHICLE-SAVE).  A Hummer
    needs 6: a 4 + 2 saves, a 3 + 2 fails by 1 (knocked out), a 1 + 2 fails by 3 (it
    explodes); a tank's front needs 4: a 2 + 2 saves."""
    units = unit(
        "veh", "regulars", cls, "Motor", kind="vehicle", weapons=("TANKGUN", "HMG") if cls == "tank" else ("HMG",)
    )
    units += unit("boss", "irregulars", "Irr1", "Cell")
    g = new_game(tmp_path, monkeypatch, units)
    (r,) = rolls(g.execute(f"blast veh source=bombardment by=irregulars dice={die}", role=REFEREE))
    assert r.outcome == result
    assert bool(out(g, "veh")) is (result != "saved")
