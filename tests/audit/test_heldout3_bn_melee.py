"""Third held-out audit of Breaking News §11, hand-to-hand combat and storming a building:
the melee's sums, ties and the −2 of a suppressed man, three against one and no more, a
lone man beating a group, and the book's own Ranger assault (§11.1, EX-05) played round by
round, with civilians inside.  Written from the rulebook (1.5.1) and its digest alone, after
the three earlier audits and apart from them: given these faces, the book's outcome."""

from __future__ import annotations

import pytest
from audit_bn_early import is_out
from audit_bn_late import new_game, next_turn, play, refused, rolled, table, unit

from core.log.views import REFEREE

MEN = (
    unit("r1", "regulars", "R3", "A")
    + unit("r2", "regulars", "R3", "A")
    + unit("r3", "regulars", "R3", "A")
    + unit("r4", "regulars", "R3", "A")
    + unit("m1", "irregulars", "Irr3", "C")
    + unit("m2", "irregulars", "Irr3", "C")
    + unit("cdo", "irregulars", "R1", "K")
)


g = table(MEN)


# §11.0 Hand to hand ---------------------------------------------------------------------


@pytest.mark.audits("MEL-1", "T-01")
def test_the_higher_die_and_melee_value_kills_without_a_save(g):
    """§11.0: 1d6 a side, plus the Melee of §3.0 (Veteran 3, Militia 1): 2 + 3 = 5 against
    3 + 1 = 4; "The highest roll wins and kills the other model", no saving throw."""
    out = g.execute("melee r1 m1 dice=2,3", role=REFEREE)
    assert is_out(g, "m1") and not is_out(g, "r1")
    assert not rolled(out, "save")


@pytest.mark.audits("MEL-1")
def test_the_defender_who_rolls_higher_kills_the_attacker(g):
    """§11.0: 1 + 3 = 4 against 4 + 1 = 5: the Militiaman wins and kills the Veteran."""
    g.execute("melee r1 m1 dice=1,4", role=REFEREE)
    assert is_out(g, "r1") and not is_out(g, "m1")


@pytest.mark.audits("MEL-1")
def test_a_tied_melee_is_fought_again(g):
    """§11.0 names no tie; the digest (MEL-3): both roll again.  2 + 3 against 4 + 1 is 5 all;
    then 1 + 3 against 6 + 1: the Militiaman wins."""
    out = g.execute("melee r1 m1 dice=2,4,1,6", role=REFEREE)
    assert len(rolled(out, "melee")) == 4
    assert is_out(g, "r1") and not is_out(g, "m1")


@pytest.mark.audits("MEL-1", "SUP-2")
def test_a_suppressed_defender_fights_at_minus_two(g):
    """§11.0: "Suppressed figures get a -2 modifier": 2 + 3 = 5 against 5 + 1 − 2 = 4, the
    Veteran wins where without the −2 the Militiaman would have had 6."""
    play(g, "mark m1 suppressed", "melee r1 m1 dice=2,5")
    assert is_out(g, "m1") and not is_out(g, "r1")


@pytest.mark.audits("MEL-2", "MEL-1")
def test_three_against_one_add_their_melee_values(g):
    """§11.0: three against one, "add the modifiers of each model involved": 1 + 3 × 3 = 10
    against 6 + 1 = 7; one die a side."""
    out = g.execute("melee r1 m1 with=r2,r3 dice=1,6", role=REFEREE)
    assert len(rolled(out, "melee")) == 2
    assert is_out(g, "m1")


@pytest.mark.audits("MEL-2")
def test_four_against_one_is_refused(g):
    """§11.0: "a maximum of three men fighting against one"."""
    refused(g, "melee r1 m1 with=r2,r3,r4 dice=1,6", rule="MEL-2")


@pytest.mark.audits("MEL-2")
def test_two_against_two_is_not_one_melee(g):
    """§11.0: "three men fighting against one ... Large melees must be broken down into
    smaller ones": one melee has one man on one side."""
    refused(g, "melee r1 m1 m2 with=r2 dice=1,6", rule="MEL-2")


@pytest.mark.audits("MEL-1")
def test_a_lone_man_who_beats_a_group_kills_one_of_them(tmp_path, monkeypatch):
    """§11.0 and the digest (MEL-4): two Militiamen (1 each) attack a Veteran (3): 1 + 2 = 3
    against 6 + 3 = 9; one attacker, the one their owner names, dies; the other lives."""
    g = new_game(tmp_path, monkeypatch, MEN, active="irregulars")
    g.execute("melee m1 r1 with=m2 casualty=m2 dice=1,6", role=REFEREE)
    assert is_out(g, "m2") and not is_out(g, "m1") and not is_out(g, "r1")


# §11.1 Storming a building ---------------------------------------------------------------

RANGERS = "".join(unit(f"rg{i}", "regulars", "R2", "Rangers") for i in range(1, 8))
TALIBAN = "".join(unit(f"tb{i}", "irregulars", "Irr3", "Taliban") for i in range(1, 5))
ALL_RANGERS = " ".join(f"rg{i}" for i in range(1, 8))


def first_round(tmp_path, monkeypatch):
    """§11.1 example, round one: 28 dice with five 6s, 4 dice with one 5.  The Taliban's
    five saves at 5+ (tb1 takes two): tb1 5 and 6, tb2 6, tb3 1, tb4 2: two models pass.
    The Ranger's one save at 3+: 4, passed."""
    g = new_game(tmp_path, monkeypatch, RANGERS + TALIBAN)
    attack = ",".join(["6"] * 5 + ["2"] * 23)
    out = g.execute(f"storm {ALL_RANGERS} against=tb1,tb2,tb3,tb4 dice={attack},5,1,1,1,5,6,6,1,2,4", role=REFEREE)
    return g, out


@pytest.mark.audits("EX-05", "BLD-3", "BLD-4", "T-01")
def test_the_ranger_assault_first_round(tmp_path, monkeypatch):
    """§11.1 example: "the Rangers roll 28 dice (4x7) hitting with every 6. The Taliban roll 4
    dice hitting with 5 or 6": 5 hits and 1; two Taliban survive, suppressed; the Ranger hit
    saves and is suppressed."""
    g, out = first_round(tmp_path, monkeypatch)
    attack, defence = rolled(out, "attackers")[0], rolled(out, "defenders")[0]
    assert len(attack.roll.faces) == 28 and attack.roll.check.face == 6
    assert len(defence.roll.faces) == 4 and defence.roll.check.face == 5
    assert [is_out(g, f"tb{i}") for i in range(1, 5)] == [False, False, True, True]
    assert all("suppressed" in g.state.units[t].status for t in ("tb1", "tb2"))
    assert sum("suppressed" in g.state.units[f"rg{i}"].status for i in range(1, 8)) == 1


@pytest.mark.audits("EX-05", "BLD-6")
def test_the_ranger_assault_next_round_without_the_panicked_ranger(tmp_path, monkeypatch):
    """§11.1 example: "Next turn the Rangers will roll 28 dice (or 21 if the hit miniature
    doesn't pass the Suppression Test), while Taliban 2": the digest (AMB-51d): 6 × 4 = 24,
    the book's 21 being a slip.  rg1, suppressed, fails his test on a 6; both Taliban pass."""
    g, _ = first_round(tmp_path, monkeypatch)
    next_turn(g, "regulars", end_dice="6,6")
    attack = ",".join(["1"] * 24)
    out = g.execute(f"storm {ALL_RANGERS} against=tb1,tb2 dice=6,1,1,{attack},1,1", role=REFEREE)
    assert len(rolled(out, "attackers")[0].roll.faces) == 24
    assert len(rolled(out, "defenders")[0].roll.faces) == 2


@pytest.mark.audits("EX-05", "BLD-6", "SUP-3")
def test_the_ranger_assault_next_round_all_in(tmp_path, monkeypatch):
    """§11.1 example: "Next turn the Rangers will roll 28 dice": the suppressed Ranger passes
    his test (a 4 for an Elite's 4) and rolls again; a Taliban who fails his (a 6) does not:
    1 die."""
    g, _ = first_round(tmp_path, monkeypatch)
    next_turn(g, "regulars", end_dice="6,6")
    attack = ",".join(["1"] * 28)
    out = g.execute(f"storm {ALL_RANGERS} against=tb1,tb2 dice=4,6,1,{attack},1", role=REFEREE)
    assert len(rolled(out, "attackers")[0].roll.faces) == 28
    assert len(rolled(out, "defenders")[0].roll.faces) == 1


@pytest.mark.audits("BLD-3")
def test_a_five_hits_for_the_defender_not_for_the_attacker(g):
    """§11.1: "you must roll a 5 or 6 if defending, and a 6 if you are attacking": the
    Veteran's three 5s hit nothing; the Militiaman's 5 hits."""
    out = g.execute("storm r1 against=m1 dice=5,5,5,5,4", role=REFEREE)
    assert is_out(g, "r1") is False and not is_out(g, "m1")
    assert [e.unit for e in rolled(out, "save")] == ["r1"]


@pytest.mark.audits("BLD-5", "T-13")
@pytest.mark.parametrize(("attacker", "cls", "save"), [("r1", "R3", 4), ("sf", "R1", 3)])
def test_civilians_inside_save_at_four_or_three_against_special_forces(tmp_path, monkeypatch, attacker, cls, save):
    """§11.1: "If civilians or hostages are present in the building they must take a Saving
    Throw at 4+ or at 3+ if attackers are Special Forces"."""
    units = MEN + unit("sf", "regulars", "R1", "S") + unit("civ", "irregulars", "", "V", kind="civilian")
    g = new_game(tmp_path, monkeypatch, units)
    faces = ",".join(["1"] * (5 if cls == "R1" else 3))
    out = g.execute(f"storm {attacker} against=m1 civilians=civ dice={faces},1,{save}", role=REFEREE)
    civ = [e for e in rolled(out, "save") if e.unit == "civ"]
    assert civ and civ[0].roll.check.face == save
    assert not is_out(g, "civ")
