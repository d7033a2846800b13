"""Audit of Breaking News §11.0–§12.0 (hand-to-hand, storming a building, morale),
written from the rulebook (1.5.1) and its digest alone: given these faces, the book's
outcome.  Every threshold is tried on both sides of its edge."""

from __future__ import annotations

import pytest
from audit_bn_late import game_fixture, new_game, next_turn, out, play, refused, rolls, status, unit
from audit_bn_late import to_end as _to_end
from playing import all_refused

from core.log.views import REFEREE

# ------------------------------------------------------------------------ §11.0

#: §3.0's Melee column.
MELEE = {"R1": 5, "R2": 4, "R3": 3, "R4": 2, "R5": 1, "Irr1": 3, "Irr2": 2, "Irr3": 1}


def _duel(tmp_path, monkeypatch, a_cls, d_cls, d_status=()):
    units = unit("a", "regulars", a_cls, "A") + unit("d", "irregulars", d_cls, "D", status=d_status)
    units += unit("a2", "regulars", "R5", "B") + unit("a3", "regulars", "R5", "C") + unit("a4", "regulars", "R5", "E")
    units += unit("d2", "irregulars", "Irr3", "F")
    return new_game(tmp_path, monkeypatch, units)


@pytest.mark.audits("MEL-1")
@pytest.mark.parametrize(("a_cls", "d_cls"), [("R1", "Irr1"), ("R2", "Irr2"), ("R3", "Irr3"), ("R4", "Irr1")])
def test_the_higher_total_kills_with_no_save(tmp_path, monkeypatch, a_cls, d_cls):
    """§11.0: 1d6 a side plus the Melee of §3.0; the highest wins and kills the other (no
    save).  The attacker's die is set so that he wins by one."""
    g = _duel(tmp_path, monkeypatch, a_cls, d_cls)
    d_die = 3
    a_die = d_die + MELEE[d_cls] + 1 - MELEE[a_cls]
    r = rolls(g.execute(f"melee a d dice={a_die},{d_die}", role="regulars"))
    assert [x.outcome for x in r] == [f"total {a_die + MELEE[a_cls]}", f"total {d_die + MELEE[d_cls]}"]
    assert out(g, "d").startswith("killed") and not out(g, "a")
    assert len(r) == 2  # no saving throw


@pytest.mark.audits("MEL-1")
def test_the_defender_who_rolls_higher_kills_the_attacker(tmp_path, monkeypatch):
    """§11.0: Trained (2) rolling 3 against a Mercenary (3) rolling 3: 5 against 6."""
    g = _duel(tmp_path, monkeypatch, "R4", "Irr1")
    g.execute("melee a d dice=3,3", role="regulars")
    assert out(g, "a").startswith("killed") and not out(g, "d")


@pytest.mark.audits("MEL-1", "SUP-2")
def test_a_suppressed_man_fights_at_minus_two(tmp_path, monkeypatch):
    """§11.0, §10.0: "Suppressed figures get a -2 modifier".  Trained 3 + 2 = 5 against a
    suppressed Mercenary's 3 + 3 − 2 = 4: the Mercenary dies (unsuppressed he would win)."""
    g = _duel(tmp_path, monkeypatch, "R4", "Irr1", d_status=("suppressed",))
    r = rolls(g.execute("melee a d dice=3,3", role="regulars"))
    assert [x.outcome for x in r] == ["total 5", "total 4"]
    assert out(g, "d").startswith("killed")


@pytest.mark.audits("MEL-1", "MEL-2")
def test_three_against_one_add_every_mans_melee(tmp_path, monkeypatch):
    """§11.0: at most three against one, "add the modifiers of each model involved": three
    Green Recruits (1 each) roll 2: 2 + 3 = 5 against a Mercenary's 1 + 3 = 4."""
    g = _duel(tmp_path, monkeypatch, "R5", "Irr1")
    r = rolls(g.execute("melee a d with=a2,a3 dice=2,1", role="regulars"))
    assert [x.outcome for x in r] == ["total 5", "total 4"]
    assert out(g, "d").startswith("killed")


@pytest.mark.audits("MEL-2")
def test_no_more_than_three_against_one(tmp_path, monkeypatch):
    """§11.0: "a maximum of three men fighting against one": four are refused, and so are
    two against two ("Large melees must be broken down into smaller ones")."""
    g = _duel(tmp_path, monkeypatch, "R5", "Irr1")
    all_refused(
        g, "@regulars melee a d with=a2,a3,a4 dice=1,1", "@regulars melee a d d2 with=a2 dice=1,1", rule="MEL-2"
    )


# ------------------------------------------------------------------------ §11.1


def _house(tmp_path, monkeypatch, attackers=("R2",) * 7, defenders=("Irr3",) * 4, civilians=0):
    units = "".join(unit(f"r{i}", "regulars", c, "Rangers") for i, c in enumerate(attackers))
    units += "".join(unit(f"t{i}", "irregulars", c, "House") for i, c in enumerate(defenders))
    units += "".join(unit(f"civ{i}", "irregulars", "", "Civilians", kind="civilian") for i in range(civilians))
    return new_game(tmp_path, monkeypatch, units)


@pytest.mark.audits("BLD-3", "BLD-1")
def test_attackers_hit_on_six_defenders_on_five_or_six(tmp_path, monkeypatch):
    """§11.1: each model rolls as many dice as his Melee; attackers hit on a 6 only (a 5
    misses), defenders on 5 or 6 (a 4 misses), in a single roll."""
    g = _house(tmp_path, monkeypatch, attackers=("R4",), defenders=("Irr2",))
    a, d = rolls(g.execute("storm r0 against=t0 dice=5,5,4,4", role="regulars"))
    assert (len(a.faces), a.outcome, len(d.faces), d.outcome) == (2, "0 hits", 2, "0 hits")
    assert not out(g, "r0") and not out(g, "t0") and "suppressed" not in status(g, "t0")
    next_turn(g, "regulars")
    a, d, *saves = rolls(g.execute("storm r0 against=t0 dice=6,5,5,4,2,1", role="regulars"))
    assert (a.outcome, d.outcome) == ("1 hits", "1 hits")
    assert out(g, "t0") and out(g, "r0")  # each failed his save


@pytest.mark.audits("EX-05", "BLD-3", "BLD-4", "BLD-6")
def test_ex05_seven_rangers_storm_four_taliban(tmp_path, monkeypatch):
    """§11.1's example: 7 Elite Rangers roll 28 dice hitting on 6, 4 Militia roll 4 dice
    hitting on 5–6.  Five 6s and one 5: the Taliban make 5 saves (5+), one of them twice;
    two models pass and stay, suppressed.  The one Ranger hit saves (3+) and is
    suppressed.  Next round, if he fails his suppression test, the Rangers roll 6 × 4 = 24
    dice (the book's "21" is its arithmetic slip, digest AMB-51d); the two Taliban roll 2."""
    g = _house(tmp_path, monkeypatch)
    attack = [6] * 5 + [1] * 23
    # hits spread as the defenders' owner names them: t0 takes two
    dice = attack + [5, 1, 1, 1] + [6, 6, 5, 1, 2, 3]
    rangers = " ".join(f"r{i}" for i in range(7))
    r = rolls(g.execute(f"storm {rangers} against=t0,t1,t2,t3 dice={','.join(map(str, dice))}", role="regulars"))
    a, d = r[:2]
    assert (len(a.faces), a.target, a.outcome) == (28, 6, "5 hits")
    assert (len(d.faces), d.target, d.outcome) == (4, 5, "1 hits")
    standing = [t for t in ("t0", "t1", "t2", "t3") if not out(g, t)]
    assert len(standing) == 2 and all("suppressed" in status(g, t) for t in standing)
    hit = [u for u in (f"r{i}" for i in range(7)) if "suppressed" in status(g, u)]
    assert len(hit) == 1 and not any(out(g, f"r{i}") for i in range(7))
    next_turn(g, "regulars")
    # the suppressed Ranger fails (a 6), both Taliban pass (1, 1)
    dice = [6, 1, 1] + [1] * 24 + [1, 1]
    r = rolls(
        g.execute(f"storm {rangers} against={','.join(standing)} dice={','.join(map(str, dice))}", role="regulars")
    )
    assert [len(x.faces) for x in r if "building assault" in str(x.purpose)] == [24, 2]


@pytest.mark.audits("BLD-5", "SAVE-6")
@pytest.mark.parametrize(("cls", "value"), [("R2", 4), ("R1", 3)])
def test_civilians_in_a_stormed_building_save_at_four_or_three_against_special_forces(
    tmp_path, monkeypatch, cls, value
):
    """§11.1, §9.1: civilians or hostages inside save at 4+, or 3+ if the attackers are
    Special Forces: the value passes, one below kills."""
    g = _house(tmp_path, monkeypatch, attackers=(cls,), defenders=("Irr3",), civilians=2)
    n = {"R2": 4, "R1": 5}[cls]
    dice = [1] * n + [1] + [value, value - 1]
    r = rolls(g.execute(f"storm r0 against=t0 civilians=civ0,civ1 dice={','.join(map(str, dice))}", role="regulars"))
    c0, c1 = r[-2:]
    assert (c0.target, c1.target) == (value, value)
    assert not out(g, "civ0") and out(g, "civ1")


@pytest.mark.audits("BLD-6")
def test_a_suppressed_defender_who_fails_his_test_rolls_no_dice(tmp_path, monkeypatch):
    """§11.1 (its example): a hit survivor is suppressed; in the next round he rolls only
    if he passes his suppression test (Militia: 2 or less)."""
    g = _house(tmp_path, monkeypatch, attackers=("R4",), defenders=("Irr3", "Irr3"))
    g.execute("storm r0 against=t0,t1 dice=6,1,1,1,6", role="regulars")  # t0 hit, saves a 6
    assert "suppressed" in status(g, "t0")
    next_turn(g, "regulars")
    r = rolls(g.execute("storm r0 against=t0,t1 dice=3,1,1,1", role="regulars"))  # t0 fails a 3
    assert r[0].outcome.startswith("fails")
    assert len(r[-1].faces) == 1  # only t1's die


# ------------------------------------------------------------------------ §12.0

SQUAD = 12


def _squad(tmp_path, monkeypatch, men=SQUAD):
    """A Trained squad (Morale 3) of ``men`` with its leader, against a militia."""
    units = unit("sgt", "regulars", "R4", "Alpha", lead=1, roles=("commander", "leader"))
    units += "".join(unit(f"m{i}", "regulars", "R4", "Alpha") for i in range(men - 1))
    units += unit("boss", "irregulars", "Irr3", "Cell", lead=1, roles=("commander", "leader"))
    units += "".join(unit(f"i{i}", "irregulars", "Irr3", "Cell") for i in range(4))
    return new_game(tmp_path, monkeypatch, units)


g = game_fixture("g", _squad)


def _lose(g, *men, by="irregulars"):
    for m in men:
        g.execute(f"out {m} killed by {by}", role=REFEREE)


@pytest.mark.audits("MOR-1")
def test_no_losses_this_turn_no_test(g):
    """§12.0: "At the end of each turn in which a side has taken losses": none, no test."""
    _to_end(g)
    refused(g, "@regulars morale regulars dice=1,1,1", rule="MOR-1")


@pytest.mark.audits("MOR-2", "MOR-3", "MOR-4", "MOR-1")
@pytest.mark.parametrize(("dice", "passed"), [("1,2,1", True), ("1,1,1", False)])
def test_morale_dice_are_the_classes_and_a_die_at_the_losses_passes(g, dice, passed):
    """§12.0: Trained roll 3 dice (§3.0 Initiative Morale 3); two lost: a die of 2 or more
    passes, all 1s fail."""
    _lose(g, "m0", "m1")
    _to_end(g)
    g.execute("dp irregulars 100", role=REFEREE)  # not losing: a failure only shakes them
    (roll,) = rolls(g.execute(f"morale regulars dice={dice}", role="regulars"))
    assert (len(roll.faces), roll.target, roll.outcome == "passed") == (3, 2, passed)


@pytest.mark.audits("MOR-3", "MOR-4")
@pytest.mark.parametrize(("dice", "passed"), [("3,1,1", True), ("2,2,2", False)])
def test_a_killed_leader_counts_two_losses(g, dice, passed):
    """§12.0: "If the Team leader has been killed he counts as 2 losses": the leader and a
    man lost are 3; a 3 passes, 2s fail."""
    _lose(g, "sgt", "m0")
    _to_end(g)
    g.execute("dp irregulars 100", role=REFEREE)
    (roll,) = rolls(g.execute(f"morale regulars dice={dice}", role="regulars"))
    assert (roll.target, roll.outcome == "passed") == (3, passed)


@pytest.mark.audits("MOR-3")
def test_losses_count_so_far_not_only_this_turn(g):
    """§12.0: "the number of losses taken so far": one lost in turn 1, one in turn 2: the
    turn-2 test needs a 2."""
    _lose(g, "m0")
    _to_end(g)
    g.execute("morale regulars dice=1,1,1", role="regulars")  # needs 1: passes
    play(g, "next", "next dice=6,6,1,1")
    _lose(g, "m1")
    _to_end(g)
    g.execute("dp irregulars 100", role=REFEREE)
    (roll,) = rolls(g.execute("morale regulars dice=1,1,1", role="regulars"))
    assert (roll.target, roll.outcome) == (2, "failed")


@pytest.mark.audits("MOR-4", "MOR-3")
@pytest.mark.parametrize(("lost", "passed"), [(5, True), (6, False)])
def test_a_six_passes_unless_fewer_than_half_still_fight(g, lost, passed):
    """§12.0: "With a roll of 6 the test is always passed, unless the Team has less than
    50% of his men still fighting".  Twelve men, the leader and 5 lost (losses 7, the
    leader counted twice): 6 of 12 fight, exactly half, so a 6 passes; the leader and 6
    lost (losses 8, 5 of 12 fight): the 6 fails."""
    _lose(g, "sgt", *(f"m{i}" for i in range(lost)))
    _to_end(g)
    g.execute("dp irregulars 500", role=REFEREE)
    (roll,) = rolls(g.execute("morale regulars dice=6,1,1", role="regulars"))
    assert (roll.target, roll.outcome == "passed") == (lost + 2, passed)


@pytest.mark.audits("MOR-5", "VIC-1")
def test_failing_with_more_defeat_points_ends_the_game(g):
    """§12.0, §14.0: failed, and the player has more Defeat Points than his opponent: the
    team is removed and the game is over.  Two Trained lost (20 DP) against 19."""
    _lose(g, "m0", "m1")
    _to_end(g)
    play(g, "dp irregulars 19", "@regulars morale regulars dice=1,1,1")
    assert g.state.phase == "final"


@pytest.mark.audits("MOR-5", "MOR-6", "SUP-1")
def test_failing_with_equal_defeat_points_only_shakes_the_team(g):
    """§12.0: "If the Team that failed … has not got more Defeat Points than their
    opponents then it will start the next turn suppressed": 20 against 20 is not more."""
    _lose(g, "m0", "m1")
    _to_end(g)
    play(g, "dp irregulars 20", "@regulars morale regulars dice=1,1,1")
    assert g.state.phase == "end"
    assert all("suppressed" in status(g, u) for u in ("sgt", "m2", "m10"))


@pytest.mark.audits("MOR-6")
def test_a_retreating_man_who_fails_falls_back_at_least_15_cm_and_may_fire(g):
    """§12.0: the shaken team's figure that fails its suppression test "will have to move at
    least 15cm towards its table edge"; "While retreating a soldier can fire"; the test is
    repeated each turn until passed, "then the figure will operate as normal"."""
    _lose(g, "m0", "m1")
    _to_end(g)
    play(g, "dp irregulars 20", "@regulars morale regulars dice=1,1,1", "next", "next dice=6,6,1,1")
    refused(g, "@regulars move m2 14 dice=6", rule="MOR-6")
    r = rolls(g.execute("move m2 15 dice=6", role="regulars"))
    assert r[0].outcome.startswith("fails")
    g.execute("fire m2 i0 range=20 aimed dice=1", role="regulars")
    r = rolls(g.execute("fire m3 i1 range=20 aimed dice=3,1", role="regulars"))  # Trained 3: passes
    assert r[0].outcome.startswith("passes") and not {"suppressed", "retreating"} & set(status(g, "m3"))


@pytest.mark.audits("MOR-6")
def test_retreating_figures_react_as_normal(g):
    """§12.0: "Figures that are retreating react as normal": a shaken man fires by
    opportunity at a militiaman who moves."""
    _lose(g, "m0", "m1")
    _to_end(g)
    play(g, "dp irregulars 20", "@regulars morale regulars dice=1,1,1", "next", "next dice=1,1,6,6")
    assert g.state.active_side == "irregulars"
    g.execute("move i0 10", role="irregulars")
    (shot,) = rolls(g.execute("react-fire m2 i0 range=30 dice=1", role="regulars"))
    assert shot.outcome == "miss"


@pytest.mark.audits("MOR-5", "T-16")
def test_a_routed_team_pays_fifteen_for_disengagement(g):
    """§14.0: "15 points for disengagement (retreat for failing morale)": the team that
    fails with more Defeat Points is removed, and pays them."""
    _lose(g, "m0", "m1")
    _to_end(g)
    g.execute("morale regulars dice=1,1,1", role="regulars")
    assert g.state.phase == "final"
    assert g.state.sides["regulars"].dp_by_category.get("disengagement") == 15


@pytest.mark.audits("BLD-1")
def test_a_man_who_stormed_has_done_his_fighting(tmp_path, monkeypatch):
    """§11.1: "Combat in a building replaces both ranged fire and close combat": a Ranger who
    stormed this turn neither fires nor fights hand to hand."""
    g = _house(tmp_path, monkeypatch, attackers=("R2", "R2"), defenders=("Irr3", "Irr3"))
    g.execute("storm r0 against=t0 dice=1,1,1,1,1", role="regulars")
    refused(g, "@regulars fire r0 t1 range=20 aimed dice=6", rule="T-03")  # his one action is spent (§5.0)
    refused(g, "@regulars melee r0 t1 dice=6,1", rule="MEL-1")


@pytest.mark.audits("BLD-4")
def test_every_storm_hit_is_saved_and_the_fifth_falls_on_a_man_who_tests_twice(tmp_path, monkeypatch):
    """§11.1: each hit forces a saving throw; five hits on four Taliban: "one of the 4
    miniatures, at the owner's choice, will have to test twice" (here the first named;
    who names the order is left to the table: the map calls BLD-4 partial)."""
    g = _house(tmp_path, monkeypatch)
    dice = [6] * 5 + [1] * 23 + [1, 1, 1, 1] + [5, 6, 6, 6, 6]
    rangers = " ".join(f"r{i}" for i in range(7))
    r = rolls(g.execute(f"storm {rangers} against=t2,t0,t1,t3 dice={','.join(map(str, dice))}", role="regulars"))
    saves = r[2:]
    assert sum(len(x.faces) for x in saves) == 5 and all(x.target == 5 for x in saves)
    assert [len(x.faces) for x in saves] == [2, 1, 1, 1]
    assert not any(out(g, t) for t in ("t0", "t1", "t2", "t3"))


@pytest.mark.audits("MOR-6")
def test_a_retreating_man_who_fails_on_a_fire_order_must_still_fall_back_15_cm_first(g):
    """§12.0: a retreating figure that fails its test "will have to move at least 15cm
    towards its table edge"; "While retreating a soldier can fire" — as he falls back, for
    fire follows movement (§6.1).  Ordered to fire, he fails (a 6): no shot yet; he must move
    15 cm (not 14), and may fire after it."""
    _lose(g, "m0", "m1")
    _to_end(g)
    play(g, "dp irregulars 20", "@regulars morale regulars dice=1,1,1", "next", "next dice=6,6,1,1")
    r = rolls(g.execute("fire m2 i0 range=20 aimed dice=6", role="regulars"))
    assert [x.purpose for x in r] == ["suppression test"] and r[0].outcome.startswith("fails")
    assert "first_fire" not in g.state.vars
    refused(g, "@regulars move m2 14", rule="MOR-6")
    g.execute("move m2 15", role="regulars")
    (shot,) = rolls(g.execute("fire m2 i0 range=20 aimed dice=1", role="regulars"))
    assert shot.purpose.startswith("fire")


@pytest.mark.audits("BLD-6", "SUP-3")
def test_a_suppressed_stormer_tests_with_his_leaders_leadership(tmp_path, monkeypatch):
    """§11.1, §10.0: a hit Ranger, suppressed, tests before the next round, adding the
    leadership of an NCO within 5 cm: Trained 3 + 2 = 5, a 5 passes and he rolls his
    dice.  (A defender's leader cannot be named: the map calls BLD-6 partial.)"""
    units = unit("r0", "regulars", "R4", "R", status=("suppressed",))
    units += unit("sgt", "regulars", "R4", "R", lead=2, roles=("leader",))
    units += unit("t0", "irregulars", "Irr3", "House")
    g = new_game(tmp_path, monkeypatch, units)
    r = rolls(g.execute("storm r0 against=t0 leader=sgt dice=5,1,1,1", role="regulars"))
    assert (r[0].target, r[0].outcome) == (5, "passes")
    assert len(r[1].faces) == 2  # his Melee 2 dice


@pytest.mark.audits("MOR-5", "T-20")
def test_a_journalists_double_counts_when_the_failing_side_is_losing(tmp_path, monkeypatch):
    """§12.0 with Extras, Media: embedded journalists "double all the Defeat Points of the
    Regular player": two regulars lost are 20, doubled 40, against the militia's 25: the
    failing regulars have more, and are routed (without the journalist they would not)."""
    units = unit("sgt", "regulars", "R4", "Alpha", lead=1, roles=("commander", "leader"))
    units += "".join(unit(f"m{i}", "regulars", "R4", "Alpha") for i in range(3))
    units += unit("lupo", "regulars", "", "Press", kind="journalist", roles=("embedded",))
    units += unit("boss", "irregulars", "Irr3", "Cell", lead=1, roles=("commander", "leader"))
    g = new_game(tmp_path, monkeypatch, units)
    _lose(g, "m0", "m1")
    _to_end(g)
    play(g, "dp irregulars 25", "@regulars morale regulars dice=1,1,1")
    assert g.state.phase == "final"


@pytest.mark.audits("MOR-1", "MOR-3", "MOR-4", "MOR-5", "VIC-1")
@pytest.mark.parametrize(("dice", "over"), [("1,1,1", True), ("2,1,1", False)])
def test_the_commander_killed_counts_two_at_the_end_of_turn_test_and_may_end_the_game(g, dice, over):
    """Issue #77: a side with no commander counted its leader's death once, and a game the
    book ends went on.  Each side fields its one commander now (ruling BN-ONE-COMMANDER):
    Sgt (commander, Trained) killed is 2 losses (§12.0 "he counts as 2 losses"), rolled by
    ``next`` as the turn ends (MOR-1): 3 dice (Trained, §3.0) need a 2.  1,1,1 fails; the
    Regulars have 10 DP for a regular lost (§14.0) against the Militia's 9, more, so the
    game is over (§12.0, VIC-1); 2,1,1 passes and it goes on.  (Counted once, the losses
    would be 1 and 1,1,1 would pass.)"""
    _lose(g, "sgt")
    _to_end(g)
    g.execute("dp irregulars 9", role=REFEREE)
    made = g.execute(f"next dice={dice}", role=REFEREE)
    (roll,) = [r for r in rolls(made) if "morale" in str(r.purpose)]
    assert (roll.faces, roll.target, str(roll.outcome)) == (
        tuple(int(f) for f in dice.split(",")),
        2,
        "failed" if over else "passed",
    )
    assert (g.state.phase == "final") is over
