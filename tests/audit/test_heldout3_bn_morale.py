"""Third held-out audit of Breaking News §12–§13 and §9.3: the morale test's every trigger
and result (losses counted so far, the commander counting two, the 6 at exactly half the
men, failing while losing or not, on equal points, Motivation's one failure), a platoon's
one test with its extra dice (the book's example, EX-06, and a team at exactly 50%), and the
wounded: their die, the turn they die, the medic, the comrade who carries them.  Written
from the rulebook (1.5.1) and its digest alone, after the three earlier audits and apart
from them: given these faces, the book's outcome."""

from __future__ import annotations

import pytest
from audit_bn_late import (
    morale_roll,
    new_game,
    next_turn,
    over,
    platoon,
    play,
    refused,
    table,
    to_activation,
    to_end,
    unit,
)

from core.dice.faces import NeedDice
from core.log import events as ev
from core.log.views import REFEREE

SQUAD = (
    unit("cmd", "regulars", "R3", "A", lead=1, roles=("commander", "leader"))
    + "".join(unit(f"r{i}", "regulars", "R3", "A") for i in range(1, 6))
    + unit("doc", "regulars", "R3", "A", roles=("medic",))
    + unit("m1", "irregulars", "Irr3", "C", roles=("commander",))
    + unit("m2", "irregulars", "Irr3", "C")
)


g = table(SQUAD)


# §12.0 the test ---------------------------------------------------------------------------


@pytest.mark.audits("MOR-1")
def test_no_losses_no_morale_test(g):
    """§12.0: "At the end of each turn in which a side has taken losses": none taken, no test
    (the end of the turn rolls no die)."""
    to_end(g)
    out = g.execute("next", role=REFEREE)
    assert not [e for e in out.events if isinstance(e, ev.Rolled) and "morale" in str(e.roll.purpose)]


@pytest.mark.audits("MOR-3", "MOR-4", "MOR-5", "VIC-1")
def test_the_commander_killed_counts_two_and_losing_ends_the_game(g):
    """§12.0: "If the Team leader has been killed he counts as 2 losses": with one more man
    lost, 3; the best die a 2 fails.  The Rangers have more Defeat Points (20 to 0): "the
    team is removed and the game is over"."""
    play(g, "out cmd killed", "out r1 killed")
    to_end(g)
    out = g.execute("next dice=2,2,1,1", role=REFEREE)
    roll = morale_roll(out)
    assert roll.roll.check.face == 3 and len(roll.roll.faces) == 4
    assert over(g)


@pytest.mark.audits("MOR-3", "MOR-4")
def test_losses_are_counted_so_far_not_this_turn(g):
    """§12.0: at least one die "equal or superior to the number of losses takes so far": one
    man in turn 1, one more in turn 2: 2 are needed in turn 2."""
    play(g, "dp irregulars 50", "out r1 killed")
    to_end(g)
    g.execute("next dice=1,1,1,1", role=REFEREE)  # 1 loss: a 1 passes
    to_activation(g, "regulars")
    g.execute("out r2 killed", role=REFEREE)
    to_end(g)
    roll = morale_roll(g.execute("next dice=1,1,1,1", role=REFEREE))
    assert roll.roll.check.face == 2 and "fail" in str(roll.roll.outcome)


@pytest.mark.audits("MOR-6", "MOR-5")
def test_a_failure_on_equal_points_does_not_end_the_game(g):
    """§12.0: removed only "if the Player has got more Defeat Points than his opponent"; on
    10 each the Rangers are not removed: the team "will start the next turn suppressed"."""
    play(g, "dp irregulars 10", "out r1 killed")
    to_end(g)
    g.execute("next dice=1,1,1,1", role=REFEREE)  # 1 loss: a 1 passes
    to_activation(g, "regulars")
    play(g, "dp irregulars 10", "out r2 killed")
    to_end(g)
    g.execute("next dice=1,1,1,1", role=REFEREE)  # 2 losses: failed; 20 against 20
    assert not over(g)
    to_activation(g, "regulars")
    assert all("suppressed" in g.state.units[m].status for m in ("cmd", "r3", "r4", "r5", "doc"))


@pytest.mark.audits("MOR-6", "SUP-3", "SUP-4")
def test_a_shaken_man_who_fails_his_test_must_retreat_15_cm(g):
    """§12.0: "If the Suppression Test is failed the figure ... will have to move at least
    15cm towards its table edge": r3 fails (a 6); a 10 cm move is not enough."""
    play(g, "dp irregulars 50", "out r1 killed", "out r2 killed")
    to_end(g)
    g.execute("next dice=1,1,1,1", role=REFEREE)
    to_activation(g, "regulars")
    g.execute("rally r3 dice=6", role=REFEREE)
    assert "retreating" in g.state.units["r3"].status
    refused(g, "move r3 10 run", rule="MOR-6")


@pytest.mark.audits("MOR-6", "SUP-4")
def test_a_shaken_man_who_passes_his_test_acts_normally(g):
    """§12.0: the test is repeated "until passed. In that case the figure will operate as
    normal": r3 passes (a 4 for a Veteran's 4) and fires."""
    play(g, "dp irregulars 50", "out r1 killed", "out r2 killed")
    to_end(g)
    g.execute("next dice=1,1,1,1", role=REFEREE)
    to_activation(g, "regulars")
    out = g.execute("fire r3 m2 range=30 aimed dice=4,1", role=REFEREE)
    assert "suppressed" not in g.state.units["r3"].status
    assert any("fire" in str(e.roll.purpose) for e in out.events if isinstance(e, ev.Rolled))


BIG = "".join(unit(f"b{i}", "regulars", "R3", "Big") for i in range(1, 15)) + unit("m1", "irregulars", "Irr3", "C")
big = table(BIG, "big")


@pytest.mark.audits("MOR-4")
def test_a_six_passes_with_exactly_half_still_fighting(big):
    """§12.0: "With a roll of 6 the test is always passed, unless the Team has less than 50% of
    his men still fighting": 7 of 14 lost is 7 losses, and half still fight: 6,1,1,1 passes."""
    for i in range(1, 8):
        big.execute(f"out b{i} killed", role=REFEREE)
    to_end(big)
    roll = morale_roll(big.execute("next dice=6,1,1,1", role=REFEREE))
    assert "pass" in str(roll.roll.outcome)


@pytest.mark.audits("MOR-4")
def test_a_six_does_not_pass_with_fewer_than_half_still_fighting(big):
    """§12.0: 8 of 14 lost: fewer than half fight, and 8 losses are more than a 6."""
    for i in range(1, 9):
        big.execute(f"out b{i} killed", role=REFEREE)
    to_end(big)
    roll = morale_roll(big.execute("next dice=6,1,1,1", role=REFEREE))
    assert "fail" in str(roll.roll.outcome)


@pytest.mark.audits("MOR-7", "EXT-6")
def test_motivation_ignores_the_first_failure_only(tmp_path, monkeypatch):
    """Extras, Motivation: "The first failed Morale Test is ignored": turn 1's failure
    changes nothing; turn 2's, while losing, ends the game."""
    g = new_game(tmp_path, monkeypatch, SQUAD, head="[extras.regulars]\nmotivation = 1")
    play(g, "out r1 killed", "out r2 killed")
    to_end(g)
    g.execute("next dice=1,1,1,1", role=REFEREE)
    assert not over(g)
    to_activation(g, "regulars")
    assert "suppressed" not in g.state.units["r3"].status
    g.execute("out r3 killed", role=REFEREE)
    to_end(g)
    g.execute("next dice=1,1,1,1", role=REFEREE)
    assert over(g)


@pytest.mark.audits("MOR-5", "T-16")
def test_failing_while_losing_costs_the_disengagement(g):
    """§14.0: "15 points for disengagement (retreat for failing morale)": the Rangers, 20
    down, fail and leave: 20 + 15."""
    play(g, "out r1 killed", "out r2 killed")
    to_end(g)
    g.execute("next dice=1,1,1,1", role=REFEREE)
    assert g.state.sides["regulars"].defeat_points == 35


# §13.0 Platoon morale -------------------------------------------------------------------


@pytest.mark.audits("EX-06", "PLT-4")
@pytest.mark.parametrize(("faces", "passed"), [("1,2,2,1,1,2,1,2", False), ("1,1,1,1,1,1,1,3", True)])
def test_the_books_platoon_rolls_eight_dice_needing_three(tmp_path, monkeypatch, faces, passed):
    """§13.0 example: a Veteran platoon of 3 squads and an anti-tank section loses 3 men, no
    team below 50%: "8d6 (4 for the Morale rate - Veteran - and 4 for the Teams/sections ...)
    To pass the test at least a 3 is needed"."""
    g = new_game(tmp_path, monkeypatch, platoon((6, 6, 6, 3)), head='platoon = ["regulars"]')
    for man in ("t2m2", "t3m2", "t4m2"):
        g.execute(f"out {man} killed", role=REFEREE)
    to_end(g)
    roll = morale_roll(g.execute(f"next dice={faces}", role=REFEREE))
    assert len(roll.roll.faces) == 8 and roll.roll.check.face == 3
    assert ("pass" in str(roll.roll.outcome)) is passed


@pytest.mark.audits("PLT-4")
def test_a_team_at_exactly_half_its_men_gives_no_die(tmp_path, monkeypatch):
    """§13.0: "adding a d6 for each team/section that has not suffered 50% losses": the
    section of 4 that lost 2 has; 4 + 3 = 7 dice."""
    g = new_game(tmp_path, monkeypatch, platoon((6, 6, 6, 4)), head='platoon = ["regulars"]')
    play(g, "out t4m2 killed", "out t4m3 killed")
    to_end(g)
    with pytest.raises(NeedDice):
        g.execute("next dice=1,1,1,1,1,1", role=REFEREE)
    roll = morale_roll(g.execute("next dice=1,1,1,1,1,1,2", role=REFEREE))
    assert len(roll.roll.faces) == 7


@pytest.mark.audits("PLT-4")
def test_a_platoon_tests_once_for_all_its_teams(tmp_path, monkeypatch):
    """§13.0: "Morale is applied to the whole platoon": losses in two squads, one test of all
    3 losses."""
    g = new_game(tmp_path, monkeypatch, platoon((6, 6, 6)), head='platoon = ["regulars"]')
    play(g, "out t2m2 killed", "out t3m2 killed", "out t3m3 killed")
    to_end(g)
    roll = morale_roll(g.execute("next dice=3,1,1,1,1,1,1", role=REFEREE))
    assert roll.roll.check.face == 3 and len(roll.roll.faces) == 7


# §9.3 Wounded ------------------------------------------------------------------------------


def wounded_game(tmp_path, monkeypatch, wound: int):
    """The Militia fire first; r1 fails his save (a 2 against 3+) and rolls ``wound``."""
    g = new_game(tmp_path, monkeypatch, SQUAD, head='options = ["wounded"]', active="irregulars")
    g.execute(f"fire m2 r1 range=20 aimed dice=6,2,{wound}", role=REFEREE)
    return g


@pytest.mark.audits("WND-1", "T-15")
@pytest.mark.parametrize("wound", [1, 2])
def test_a_one_or_two_on_the_wound_die_is_dead(tmp_path, monkeypatch, wound):
    """§9.3: "with a result of 1 or 2 the miniature is dead": no medic can help him."""
    g = wounded_game(tmp_path, monkeypatch, wound)
    assert g.state.units["r1"].out
    play(g, "next", "next dice=6,6,6,6")
    to_activation(g, "regulars")
    refused(g, "medic doc r1", rule="WND-2")


@pytest.mark.audits("WND-1", "T-15")
def test_a_three_on_the_wound_die_lives_three_turns(tmp_path, monkeypatch):
    """§9.3: "a result of 3 to 6 represents the number of turns that the miniature can
    survive": wounded in turn 1 on a 3, alive through turn 3, dead at the end of turn 4
    (the digest, AMB-47: the end of turn W + N)."""
    g = wounded_game(tmp_path, monkeypatch, 3)
    next_turn(g, "irregulars", end_dice="6,6,6,6")
    next_turn(g, "irregulars")
    next_turn(g, "irregulars")
    assert "died" not in str(g.state.units["r1"].out)
    g.execute("medic doc r1", role=REFEREE)  # turn 4, still in time
    assert "stabilised" in str(g.state.units["r1"].out)


@pytest.mark.audits("WND-1")
def test_a_wounded_man_with_no_medic_dies_when_his_turns_run_out(tmp_path, monkeypatch):
    """§9.3 and the digest (AMB-47): on a 3 in turn 1, dead at the end of turn 4."""
    g = wounded_game(tmp_path, monkeypatch, 3)
    next_turn(g, "irregulars", end_dice="6,6,6,6")
    next_turn(g, "irregulars")
    next_turn(g, "irregulars")
    play(g, "next", "next")
    assert "died" in str(g.state.units["r1"].out)


@pytest.mark.audits("WND-2", "DP-5", "T-16")
def test_a_man_stabilised_the_turn_he_fell_costs_no_defeat_points(tmp_path, monkeypatch):
    """§9.3: a stabilized soldier "is not considered as lost for victory conditions (defeat
    points)": the Rangers are charged nothing for r1."""
    g = wounded_game(tmp_path, monkeypatch, 5)
    play(g, "next", "next dice=6,6,6,6")
    to_activation(g, "regulars")
    play(g, "medic doc r1", "victory")
    assert g.state.sides["regulars"].defeat_points == 0


@pytest.mark.audits("WND-2", "MOR-3")
def test_a_stabilised_man_no_longer_counts_for_morale(tmp_path, monkeypatch):
    """§9.3: a stabilized soldier "doesn't count for morale": r1 wounded in turn 1 and
    stabilised in turn 2, r2 killed in turn 2: 1 loss so far, not 2, so a 1 passes."""
    g = wounded_game(tmp_path, monkeypatch, 5)
    play(g, "dp irregulars 50", "next", "next dice=6,6,6,6")
    to_activation(g, "regulars")
    play(g, "medic doc r1", "out r2 killed")
    to_end(g)
    roll = morale_roll(g.execute("next dice=1,1,1,1", role=REFEREE))
    assert roll.roll.check.face == 1


@pytest.mark.audits("WND-2")
def test_a_stabilised_man_cannot_fight(tmp_path, monkeypatch):
    """§9.3: "A stabilized soldier cannot fight anymore"."""
    g = wounded_game(tmp_path, monkeypatch, 5)
    play(g, "next", "next dice=6,6,6,6")
    to_activation(g, "regulars")
    g.execute("medic doc r1", role=REFEREE)
    refused(g, "fire r1 m2 range=20 aimed dice=6", rule="SAVE-2")


@pytest.mark.audits("WND-3", "T-04")
def test_a_comrade_carries_a_wounded_man_10_less_a_die(tmp_path, monkeypatch):
    """§9.3: "A wounded model can be moved with the aid of a comrade moving 10cm-1d6": a 6
    leaves 4 cm."""
    g = wounded_game(tmp_path, monkeypatch, 5)
    play(g, "next", "next dice=6,6,6,6")
    to_activation(g, "regulars")
    out = g.execute("carry r2 r1 dice=6", role=REFEREE)
    assert [e.cm for e in out.events if isinstance(e, ev.Moved) and e.unit == "r2"] == [4]


@pytest.mark.audits("WND-2", "DP-5")
def test_a_man_stabilised_turns_after_he_fell_is_taken_off_the_defeat_points(tmp_path, monkeypatch):
    """§9.3: a stabilized soldier "is not considered as lost for victory conditions": r1 fell
    in turn 1 and was counted, the medic reaches him in turn 2: the final count has nothing
    for him."""
    g = wounded_game(tmp_path, monkeypatch, 5)
    g.execute("next", role=REFEREE)
    assert g.state.sides["regulars"].defeat_points == 10
    g.execute("next dice=6,6,6,6", role=REFEREE)
    to_activation(g, "regulars")
    play(g, "medic doc r1", "victory")
    assert g.state.sides["regulars"].defeat_points == 0


@pytest.mark.audits("WND-1", "DP-5")
def test_a_wounded_man_carried_off_the_table_is_out_of_danger(tmp_path, monkeypatch):
    """§9.3: the turns he survives "without the intervention of a medic or before being
    evacuated off the battlefield"; the digest (AMB-47): evacuated, he counts as stabilised,
    so he is no loss at the end."""
    g = wounded_game(tmp_path, monkeypatch, 3)
    play(g, "next", "next dice=6,6,6,6")
    to_activation(g, "regulars")
    g.execute("evacuate r1", role=REFEREE)
    for _ in range(4):
        next_turn(g, "regulars")
    assert "died" not in str(g.state.units["r1"].out)
    g.execute("victory", role=REFEREE)
    assert g.state.sides["regulars"].defeat_points == 0


@pytest.mark.audits("MOR-3", "MOR-5", "T-16", "T-01")
def test_the_militias_leader_killed_counts_two_and_ten_points(g):
    """§12.0 and §14.0: the Militia's commander killed counts 2 losses and 10 points: 2 losses
    on the Militia's 2 dice (1,1 fails), 10 points against none: the Militia are beaten and
    the game is over."""
    play(g, "out m1 killed", "next")
    assert g.state.sides["irregulars"].defeat_points == 10
    roll = morale_roll(g.execute("next dice=1,1", role=REFEREE))
    assert roll.roll.check.face == 2 and len(roll.roll.faces) == 2
    assert "fail" in str(roll.roll.outcome)
    assert over(g)


@pytest.mark.audits("MOR-7", "EXT-6")
def test_the_militias_motivation_saves_them_once(tmp_path, monkeypatch):
    """Extras, Motivation: the Irregulars may buy it too: their first failure, while losing,
    is ignored."""
    g = new_game(tmp_path, monkeypatch, SQUAD, head="[extras.irregulars]\nmotivation = 1")
    play(g, "out m1 killed", "next", "next dice=1,1")
    assert not over(g)


LED_PLATOON = (
    unit("cpt", "regulars", "R3", "1st", lead=2, roles=("commander",))
    + "".join(unit(f"a{i}", "regulars", "R3", "1st") for i in range(1, 6))
    + unit("sl", "regulars", "R3", "2nd", lead=1, roles=("leader",))
    + "".join(unit(f"b{i}", "regulars", "R3", "2nd") for i in range(1, 6))
    + unit("m1", "irregulars", "Irr3", "C")
)


@pytest.mark.audits("PLT-4", "MOR-3")
def test_a_platoon_counts_its_commander_and_a_squad_leader_two_each(tmp_path, monkeypatch):
    """§12.0 and §13.0 (digest AMB-53): the platoon commander and a squad leader killed are
    2 losses each: 4; 4 + 2 dice, the best a 3, fails."""
    g = new_game(tmp_path, monkeypatch, LED_PLATOON, head='platoon = ["regulars"]')
    play(g, "out cpt killed", "out sl killed", "next")
    roll = morale_roll(g.execute("next dice=3,3,1,1,1,1", role=REFEREE))
    assert roll.roll.check.face == 4 and "fail" in str(roll.roll.outcome)
