"""Audit of Breaking News §13.0–§14.0 (platoon games, victory and Defeat Points),
written from the rulebook (1.5.1) and its digest alone: given these faces, the book's
outcome.  Every threshold is tried on both sides of its edge."""

from __future__ import annotations

import pytest
from audit_bn_late import facts, ledger, new_game, play, refused, rolls, unit

from core.log import events as ev
from core.log.views import REFEREE

# ------------------------------------------------------------------------ §13.0


def _platoon(tmp_path, monkeypatch, *, active="regulars", at_section=2):
    """A Veteran platoon (Morale 4): Lt Moro (leadership 3) over three squads of a
    sergeant (leadership 2) and three men, and an anti-tank section; a militia cell."""
    units = unit("moro", "regulars", "R3", "1st", lead=3, roles=("commander",))
    for sq in ("1st", "2nd", "3rd"):
        units += unit(f"sgt{sq}", "regulars", "R3", sq, lead=2, roles=("leader",))
        units += "".join(unit(f"{sq}{i}", "regulars", "R3", sq) for i in range(3))
    units += "".join(unit(f"at{i}", "regulars", "R3", "AT") for i in range(at_section))
    units += unit("boss", "irregulars", "Irr3", "Cell", lead=1, roles=("commander", "leader"))
    units += "".join(unit(f"i{i}", "irregulars", "Irr3", "Cell") for i in range(3))
    return new_game(tmp_path, monkeypatch, units, head='platoon = ["regulars"]', active=active)


@pytest.mark.audits("INI-5", "PLT-2", "T-02")
def test_platoon_initiative_adds_only_the_platoon_leaders_leadership(tmp_path, monkeypatch):
    """§13.0: "Add only the leadership bonus of the Platoon leader": 2d6 + 3 (Lt Moro, not
    his sergeants' 2s) + 4 (Veteran, §3.0)."""
    g = _platoon(tmp_path, monkeypatch, active=None)
    g.execute("next", role=REFEREE)
    rolled = {e.side: e.roll for e in facts(g.execute("next dice=1,1,6,6", role=REFEREE), ev.Rolled)}
    assert sorted(m.value for m in rolled["regulars"].mods) == [3, 4]


@pytest.mark.audits("ACT-4", "PLT-2")
def test_the_active_player_activates_his_squads_one_by_one(tmp_path, monkeypatch):
    """§13.0: "activates all his Units one by one (the second squad can be activated once
    the first squad has finished)": a man of a squad not yet activated cannot act; once
    the next squad is activated, the last one is finished."""
    g = _platoon(tmp_path, monkeypatch)
    refused(g, "@regulars move 2nd0 10 run", rule="ACT-4")
    play(g, "@regulars activate 2nd", "@regulars move 2nd0 10 run")
    refused(g, "@regulars move 1st0 10 run", rule="ACT-4")
    play(g, "@regulars activate 1st", "@regulars move 1st0 10 run")
    refused(g, "@regulars move 2nd1 10 run", rule="ACT-4")
    refused(g, "@regulars activate 2nd", rule="ACT-4")


@pytest.mark.audits("PLT-3")
def test_group_actions_only_within_one_squad(tmp_path, monkeypatch):
    """§13.0 "Actions by Group … only by miniatures in the same squad"."""
    g = _platoon(tmp_path, monkeypatch)
    g.execute("activate 1st", role="regulars")
    refused(g, "@regulars move 1st0 10 2nd0", rule="INI-5")
    moved = facts(g.execute("move 1st0 10 1st1", role="regulars"), ev.Moved)
    assert [m.unit for m in moved] == ["1st0", "1st1"]


@pytest.mark.audits("EX-06", "PLT-4")
@pytest.mark.parametrize(("dice", "passed"), [("1,2,2,1,1,2,1,2", False), ("1,1,1,1,1,1,1,3", True)])
def test_ex06_platoon_morale_eight_dice_needing_three(tmp_path, monkeypatch, dice, passed):
    """§13.0's example: a Veteran platoon of 3 squads and an anti-tank section lost 3 men;
    no team has gone below 50%: 4 (Morale) + 4 dice, and at least a 3 is needed."""
    g = _platoon(tmp_path, monkeypatch, at_section=3)
    for man in ("1st0", "2nd0", "3rd0"):
        g.execute(f"out {man} killed by irregulars", role=REFEREE)
    play(g, "next", "dp irregulars 200")
    (roll,) = rolls(g.execute(f"morale regulars dice={dice}", role="regulars"))
    assert (len(roll.faces), roll.target, roll.outcome == "passed") == (8, 3, passed)


@pytest.mark.audits("PLT-4")
def test_a_section_at_exactly_half_its_men_adds_no_die(tmp_path, monkeypatch):
    """§13.0: "a d6 for each team/section that has not suffered 50% losses": the AT section
    of 2 that lost 1 has suffered 50%: no die (4 + 3 squads = 7); a squad of 4 that lost 1
    still gives its die.  Losses: 2, so a 2 passes."""
    g = _platoon(tmp_path, monkeypatch, at_section=2)
    for man in ("at0", "1st0"):
        g.execute(f"out {man} killed by irregulars", role=REFEREE)
    play(g, "next", "dp irregulars 200")
    (roll,) = rolls(g.execute("morale regulars dice=1,1,1,1,1,1,2", role="regulars"))
    assert (len(roll.faces), roll.target, roll.outcome) == (7, 2, "passed")


# ------------------------------------------------------------------------ §14.0


def _sides(tmp_path, monkeypatch, extras="", **kw):
    units = unit("sf", "regulars", "R1", "Delta")
    units += unit("sgt", "regulars", "R4", "Alpha", lead=1, roles=("commander", "leader"))
    units += "".join(unit(f"m{i}", "regulars", "R4", "Alpha") for i in range(3))
    units += unit("boss", "irregulars", "Irr3", "Cell", lead=1, roles=("commander", "leader"))
    units += "".join(unit(f"i{i}", "irregulars", "Irr3", "Cell") for i in range(3))
    units += unit("civ", "irregulars", "", "Civilians", kind="civilian")
    units += unit("civ2", "irregulars", "", "Civilians", kind="civilian")
    return new_game(tmp_path, monkeypatch, units, head=extras, **kw)


g = pytest.fixture(_sides, name="g")


@pytest.mark.audits("T-16", "DP-1")
def test_casualties_cost_fifteen_ten_five_and_ten_for_the_irregular_leader(g):
    """§14.0: 15 for every Special Forces member lost, 10 for every regular, 5 for every
    irregular (10 if the leader)."""
    for line in (
        "sf killed by irregulars",
        "m0 killed by irregulars",
        "boss killed by regulars",
        "i0 killed by regulars",
    ):
        g.execute(f"out {line}", role=REFEREE)
    g.execute("next", role=REFEREE)
    assert ledger(g, "regulars") == {"casualties": 25}
    assert ledger(g, "irregulars") == {"casualties": 15}


@pytest.mark.audits("FIRE-15", "T-16", "DP-1")
def test_whoever_fires_first_takes_five_once(tmp_path, monkeypatch):
    """§14.0: "5 points for whoever fires first" (a miss is a shot too); the other side's
    later fire costs nothing."""
    g = _sides(tmp_path, monkeypatch, active="irregulars")
    play(
        g,
        "@irregulars fire i0 m0 range=30 aimed dice=1",
        "@irregulars move i1 5 cautious",
        "@regulars react-fire m1 i1 range=30 dice=1",
        "next",
    )
    assert ledger(g, "irregulars") == {"first-fire": 5}
    assert ledger(g, "regulars") == {}


@pytest.mark.audits("T-16", "DP-1")
def test_civilians_killed_by_the_regulars_cost_five(g):
    """§14.0: 5 for every civilian killed (only for regulars against irregulars); Extras:
    Civilians: those fired at by the Irregular player give none."""
    play(g, "out civ killed by regulars", "out civ2 killed by irregulars", "next")
    assert ledger(g, "regulars") == {"civilians": 5}
    assert ledger(g, "irregulars") == {}


@pytest.mark.audits("T-16", "DP-1")
@pytest.mark.parametrize(
    ("line", "side", "points"),
    [
        ("building", "regulars", 5),
        ("journalist-captured", "regulars", 30),
        ("disengagement", "irregulars", 15),
        ("exfiltration", "irregulars", 5),
        ("main-objective", "irregulars", 50),
        ("secondary-objective", "irregulars", 20),
    ],
)
def test_each_line_of_the_defeat_points_list(g, line, side, points):
    """§14.0's list: a building hit by support fire 5, a journalist captured 30,
    disengagement 15, exfiltration 5, a Main objective lost 50, a Secondary 20."""
    g.execute(f"score {line} {side}", role=REFEREE)
    assert sum(ledger(g, side).values()) == points


@pytest.mark.audits("DP-2", "EXT-7", "T-16")
def test_rules_of_engagement_firing_first_costs_thirty_and_civilians_ten(tmp_path, monkeypatch):
    """§14.0, Extras: Rules of Engagement: a side that fires first "costs 25 Defeat Points
    (in addition to the standard 5 points)"; civilians "Points are 10 if the Team has
    Rules of Engagement"."""
    g = _sides(tmp_path, monkeypatch, extras="[extras.regulars]\nrules_of_engagement = true")
    play(g, "@regulars fire m0 i0 range=30 aimed dice=1", "out civ killed by regulars", "next")
    assert ledger(g, "regulars") == {"first-fire": 30, "civilians": 10}


@pytest.mark.audits("VIC-1", "T-16")
def test_a_side_that_leaves_the_battlefield_ends_the_game(tmp_path, monkeypatch):
    """§14.0 (2): the game ends when one side leaves the battlefield; 5 for exfiltration."""
    g = _sides(tmp_path, monkeypatch, active="irregulars")
    g.execute("exfiltrate irregulars", role="irregulars")
    assert g.state.phase == "final"
    assert ledger(g, "irregulars") == {"exfiltration": 5}


@pytest.mark.audits("VIC-2")
@pytest.mark.parametrize(("extra", "winner"), [(4, "Militia"), (6, "Rangers")])
def test_the_side_with_most_defeat_points_loses(g, extra, winner):
    """§14.0: "the loser is the player with most Defeat Points": a regular lost (10)
    against 5 + 4 = 9 or 5 + 6 = 11 for the militia."""
    play(g, "out m0 killed by irregulars", "out i0 killed by regulars", f"dp irregulars {extra}")
    o = g.execute("victory the patrol withdraws", role=REFEREE)
    (end,) = facts(o, ev.GameEnded)
    assert str(end.result).startswith(f"{winner} win")
    assert end.scores == {"regulars": 10, "irregulars": 5 + extra}
    assert end.winner == ("irregulars" if extra == 4 else "regulars") and not end.draw


@pytest.mark.audits("DP-5", "T-16")
def test_a_wounded_man_carried_off_the_table_is_no_loss(tmp_path, monkeypatch):
    """§9.3, §14.0: a wounded man survives if "evacuated off the battlefield", and is then
    out of danger as a stabilised man is (digest AMB-47): no loss for Defeat Points, while
    one left wounded costs 10."""
    g = _sides(tmp_path, monkeypatch, options=("wounded",))
    play(g, "blast m0 m1 source=grenade by=irregulars dice=1,4,1,4", "@regulars evacuate m0", "next")
    assert ledger(g, "regulars") == {"casualties": 10}


@pytest.mark.audits("PLT-3")
def test_every_reacting_man_of_a_platoon_may_react(tmp_path, monkeypatch):
    """§13.0 "Every miniature belonging to the Reacting player can react according to the
    rules": men of two squads, neither activated, fire at a militiaman who moved."""
    g = _platoon(tmp_path, monkeypatch, active="irregulars")
    g.execute("move i0 10", role="irregulars")
    (a,) = rolls(g.execute("react-fire 1st0 i0 range=30 dice=1", role="regulars"))
    (b,) = rolls(g.execute("react-fire 3rd1 i0 range=30 dice=1", role="regulars"))
    assert (a.outcome, b.outcome) == ("miss", "miss")


@pytest.mark.audits("INI-5", "PLT-2")
def test_with_the_platoon_leader_lost_the_highest_in_rank_leads_the_initiative(tmp_path, monkeypatch):
    """§13.0: "Add only the leadership bonus of the Platoon leader, or the highest in rank":
    Lt Moro (3) lost, a sergeant's 2 is added."""
    g = _platoon(tmp_path, monkeypatch)
    play(g, "out moro killed by irregulars", "next")
    g.execute("next dice=6,6,6,6,6,6,6,6", role=REFEREE)  # the platoon's morale: 1 lost, the leader twice
    rolled = {e.side: e.roll for e in facts(g.execute("next dice=6,6,1,1", role=REFEREE), ev.Rolled)}
    assert [(str(m.label), m.value) for m in rolled["regulars"].mods if str(m.label) == "leadership"] == [
        ("leadership", 2)
    ]


@pytest.mark.audits("DP-2", "T-16")
def test_rules_of_engagement_make_a_building_hit_ten(tmp_path, monkeypatch):
    """§14.0: "5 points for every building hit by support fire … Points are 10 if the Team
    has Rules of Engagement"."""
    g = _sides(tmp_path, monkeypatch, extras="[extras.regulars]\nrules_of_engagement = true")
    g.execute("score building regulars", role=REFEREE)
    assert ledger(g, "regulars") == {"buildings": 10}
