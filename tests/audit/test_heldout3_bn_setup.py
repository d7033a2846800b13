"""Third held-out audit of Breaking News, before the first shot: the missions and their
objective markers (§4.1, §4.1.1), the deployment roll and order (§4.2), and the initiative
each turn (§5.0 1): ties, the cumulative −1, whose leadership counts, an ambush's +1, a
platoon's leader (§13.0).  Written from the rulebook (1.5.1, and the Italian draft where
said) and its digest alone, after the three earlier audits and apart from them: given these
faces, the book's outcome."""

from __future__ import annotations

import pytest
from audit_bn_late import dp, new_game, play, refused, table, to_activation, unit
from audit_common import cases

from core.log import events as ev
from core.log.views import REFEREE

SQUADS = (
    unit("sgt", "regulars", "R3", "Alpha", lead=2, roles=("commander", "leader"))
    + unit("a1", "regulars", "R3", "Alpha")
    + unit("boss", "irregulars", "Irr3", "Cell", lead=1, roles=("commander", "leader"))
    + unit("m1", "irregulars", "Irr3", "Cell")
)


def played_to_end_of_turn(g, rolloff: str = "3,5") -> None:
    """Deploy by §4.2's order (the Irregulars win the roll-off 6 to 5, so the Regulars are
    the Second player) and play turn 1 to its end."""
    g.execute(f"rolloff dice={rolloff}", role=REFEREE)
    for man in ("sgt", "boss", "a1", "m1"):
        g.execute(f"deploy {man}", role=REFEREE)
    g.execute("next", role=REFEREE)
    to_activation(g, "regulars")
    g.execute("next", role=REFEREE)
    assert g.state.phase == "end"


def mission_two(tmp_path, monkeypatch, die: int, variant: str = ""):
    """§4.1 example: the Regulars' main is marker 4, secondaries 2 and 5, fakes 1 and 3; the
    Irregular player's secret die shows ``die``."""
    g = new_game(tmp_path, monkeypatch, SQUADS, head="mission = 2", active=None, variant=variant)
    play(g, "objectives regulars 4 2 5", "objectives irregulars 1 2 3", f"objective-roll dice={die}")
    played_to_end_of_turn(g)
    return g


g = table(SQUADS, active=None)


def taken(g, marker: int) -> int:
    """The Regulars' defeat points once the Irregulars take their objective marker ``marker``."""
    g.execute(f"take {marker} irregulars", role=REFEREE)
    return dp(g, "regulars")


# §4.1 2) and its example (EX-01) ------------------------------------------------------


@pytest.mark.audits("EX-01", "OBJ-2", "OBJ-6", "T-16")
@pytest.mark.parametrize(
    ("die", "variant", "costs"),
    cases(
        {
            # §4.1 example: "The number 3 marker now becomes a primary objective"; the Italian
            # draft and the digest (AMB-06): together with the original 4.  Losing either costs
            # 50 (§14.0).
            "EX-01: a three makes the fake three a main objective": (3, "", {3: 50, 4: 100}),
            # §4.1: "If however a 6 is rolled then the original primary becomes a fake
            # objective": marker 4 is then worth nothing to lose.
            "§4.1: a six makes the main objective a fake": (6, "", {4: 0}),
            # §4.1: "It is possible for the irregular player to roll the same result as the
            # original primary objective, then no change": 4 stays the main, 3 stays a fake.
            "§4.1: rolling the main objective's own number changes nothing": (4, "", {3: 0, 4: 50}),
            # §4.1: the roll 1-5 "alters the status of that regular player's marker to a primary
            # objective": secondary 2 becomes a main one, worth 50 to lose, not 20.
            "§4.1: a secondary rolled becomes a main objective": (2, "", {2: 50, 5: 70}),
            # §14.0: "50 points for losing a Main objective", "20 points for losing a Secondary
            # objective"; a fake is no objective (digest OBJ-6).
            "§14.0 T-16: a fake costs nothing and a secondary twenty": (4, "", {1: 0, 5: 20}),
            # Italian draft, §14.0: only "50 punti per la perdita dell'obiettivo da difendere";
            # no line for a secondary.
            "§14.0 Italian: a secondary costs nothing but the main fifty": (4, "it-2009-12-09", {5: 0, 4: 50}),
        }
    ),
)
def test_what_losing_each_marker_costs_after_the_secret_die(tmp_path, monkeypatch, die, variant, costs):
    """The Regulars' defeat points as the Irregulars take each marker in turn, the points
    adding up."""
    g = mission_two(tmp_path, monkeypatch, die, variant)
    assert {marker: taken(g, marker) for marker in costs} == costs


@pytest.mark.audits("OBJ-2")
def test_the_secret_die_is_the_irregulars_alone(tmp_path, monkeypatch):
    """§4.1: the die's "result ... is kept secret until the end of the game": the Regular
    player is not shown it."""
    g = new_game(tmp_path, monkeypatch, SQUADS, head="mission = 2", active=None)
    g.execute("objectives regulars 4 2 5", role=REFEREE)
    out = g.execute("objective-roll dice=3", role=REFEREE)
    rolled = [e for e in out.events if isinstance(e, ev.Rolled)]
    assert rolled and all(e.vis == ("irregulars",) for e in rolled)


@pytest.mark.audits("OBJ-1")
def test_special_forces_defend_no_markers(tmp_path, monkeypatch):
    """§4.1 3): "Only the player using the Regular or Irregular forces places the 5 objective
    markers": the Special Forces side chooses none, the other side its five."""
    units = SQUADS.replace('cls = "R3"', 'cls = "R1"')
    g = new_game(tmp_path, monkeypatch, units, head='mission = 3\n[forces]\nregulars = "special-forces"', active=None)
    refused(g, "objectives regulars 4 2 5", rule="OBJ-1")
    g.execute("objectives irregulars 1 2 3", role=REFEREE)
    assert g.state.secrets["marker.irregulars.1"].value == "main"


# §4.2 Deployment ----------------------------------------------------------------------


@pytest.mark.audits("DEP-1", "T-02")
def test_the_deployment_roll_adds_the_squad_commanders_leadership(g):
    """§4.2: "Each player rolls 1d6 and adds the Squad commander's leadership": 3 + 2 = 5
    against 5 + 1 = 6, the Irregulars are the First player."""
    out = g.execute("rolloff dice=3,5", role=REFEREE)
    rolled = [e for e in out.events if isinstance(e, ev.Rolled)]
    totals = {e.side: e.roll.faces[0] + sum(m.value for m in e.roll.mods) for e in rolled}
    assert totals == {"regulars": 5, "irregulars": 6}
    assert g.state.vars["first_player"] == "irregulars"


@pytest.mark.audits("DEP-1")
def test_a_tied_deployment_roll_is_rolled_again(g):
    """§4.2 sets no tie; the digest (AMB-05): both roll again.  4 + 2 against 5 + 1 is a tie;
    then 1 + 2 against 6 + 1: the Irregulars are First."""
    out = g.execute("rolloff dice=4,5,1,6", role=REFEREE)
    assert len([e for e in out.events if isinstance(e, ev.Rolled)]) == 4
    assert g.state.vars["first_player"] == "irregulars"


@pytest.mark.audits("DEP-3")
def test_the_first_player_deploys_after_the_second_players_half(g):
    """§4.2: "The 2nd player deploys at least 50% of his forces ... The 1st player fields at
    least 50%": the First player may not field a man before the Second's half is down."""
    g.execute("rolloff dice=3,5", role=REFEREE)
    refused(g, "deploy boss", rule="DEP-3")
    play(g, "deploy sgt", "deploy boss")
    assert "off-table" not in g.state.units["boss"].status


@pytest.mark.audits("DEP-3")
def test_the_game_does_not_start_before_every_figure_is_down(g):
    """§4.2: the Second player "now deploys the remainder of his army ..., followed by the 1st
    player": until all are fielded there is no turn 1."""
    play(g, "rolloff dice=3,5", "deploy sgt", "deploy boss")
    refused(g, "next", rule="DEP-3")
    assert g.state.turn == 0


@pytest.mark.audits("DEP-4", "EXT-2")
def test_ambushers_are_not_deployed_with_the_rest(tmp_path, monkeypatch):
    """§4.2: "Troops used in Infiltration or Ambush are not deployed": the game starts with
    the ambusher still off the table."""
    units = SQUADS + unit("amb", "irregulars", "Irr3", "Cell", roles=("ambush",))
    g = new_game(tmp_path, monkeypatch, units, head="[extras.irregulars]\nambush = 1", active=None)
    g.execute("rolloff dice=3,5", role=REFEREE)
    for man in ("sgt", "boss", "a1", "m1"):
        g.execute(f"deploy {man}", role=REFEREE)
    g.execute("next", role=REFEREE)
    assert g.state.turn == 1
    assert "off-table" in g.state.units["amb"].status


# §5.0 1) Initiative -------------------------------------------------------------------


def initiative_totals(out) -> dict[str, int]:
    return {
        e.side: sum(e.roll.faces) + sum(m.value for m in e.roll.mods)
        for e in out.events
        if isinstance(e, ev.Rolled) and "initiative" in str(e.roll.purpose)
    }


@pytest.mark.audits("INI-1", "T-01", "T-02")
def test_initiative_is_two_dice_leadership_and_quality(g):
    """§5.0 1): 2d6 + the main commander's leadership + the troops' quality (Veteran 4,
    Militia 2): 3+3+2+4 = 12 against 5+5+1+2 = 13, the Militia act."""
    g.execute("next", role=REFEREE)
    out = g.execute("next dice=3,3,5,5", role=REFEREE)
    assert initiative_totals(out) == {"regulars": 12, "irregulars": 13}
    assert g.state.active_side == "irregulars"


@pytest.mark.audits("INI-1")
def test_only_the_main_commanders_leadership_counts(tmp_path, monkeypatch):
    """§5.0 1): "their main commander's leadership modifier (not that of the other soldiers)":
    a leader of level 4 beside the commander of level 2 adds nothing."""
    units = SQUADS + unit("lt", "regulars", "R3", "Alpha", lead=4, roles=("leader",))
    g = new_game(tmp_path, monkeypatch, units, active=None)
    g.execute("next", role=REFEREE)
    out = g.execute("next dice=3,3,5,5", role=REFEREE)
    assert initiative_totals(out)["regulars"] == 12


@pytest.mark.audits("INI-1", "DEP-1")
def test_a_tied_initiative_is_rolled_again(g):
    """The book gives no tie; the digest (INI-3): both roll again with the same modifiers.
    4+4+2+4 = 14 against 6+5+1+2 = 14; then 1+1+6 against 4+4+3: the Militia act."""
    g.execute("next", role=REFEREE)
    out = g.execute("next dice=4,4,6,5,1,1,4,4", role=REFEREE)
    assert len([e for e in out.events if isinstance(e, ev.Rolled)]) == 4
    assert g.state.active_side == "irregulars"


@pytest.mark.audits("INI-2")
def test_the_winner_pays_a_cumulative_minus_one(g):
    """§5.0 1): "For the next Initiative rolls, the previous winner gets a cumulative -1":
    the Rangers win turns 1 and 2, so turn 2's roll is −1 and turn 3's −2."""
    play(g, "next", "next dice=6,6,1,1", "next", "next")
    out = g.execute("next dice=3,3,3,3", role=REFEREE)  # 6+2+4-1 = 11 against 6+1+2 = 9
    assert initiative_totals(out) == {"regulars": 11, "irregulars": 9}
    play(g, "next", "next")
    out = g.execute("next dice=3,3,4,4", role=REFEREE)  # 6+2+4-2 = 10 against 8+1+2 = 11
    assert initiative_totals(out) == {"regulars": 10, "irregulars": 11}
    assert g.state.active_side == "irregulars"


@pytest.mark.audits("INI-2")
def test_losing_the_initiative_clears_the_penalty(g):
    """Digest INI-2 (AMB-04): the penalty counts the wins in a row before the roll and goes
    back to 0 once the player loses.  Rangers win turn 1, lose turn 2; in turn 3 they roll
    with nothing off, the Militia with −1."""
    play(g, "next", "next dice=6,6,1,1", "next", "next")
    g.execute("next dice=1,1,6,6", role=REFEREE)  # 2+2+4-1 = 7 against 12+1+2 = 15
    play(g, "next", "next")
    out = g.execute("next dice=3,3,3,3", role=REFEREE)
    assert initiative_totals(out) == {"regulars": 12, "irregulars": 8}


@pytest.mark.audits("EXT-2", "INI-1")
def test_an_ambush_at_the_end_of_a_turn_gives_one_on_the_next_initiative(tmp_path, monkeypatch):
    """Extras, Ambush: "This takes place at the end of the turn. It gives a +1 to the next
    initiative": the Militia, who lost turn 1, roll 6+1+2+1 = 10 in turn 2."""
    units = SQUADS + unit("amb", "irregulars", "Irr3", "Cell", roles=("ambush",))
    g = new_game(tmp_path, monkeypatch, units, head="[extras.irregulars]\nambush = 1", active="regulars")
    play(g, "next", "ambush amb", "next")
    out = g.execute("next dice=3,3,3,3", role=REFEREE)
    assert initiative_totals(out) == {"regulars": 11, "irregulars": 10}
    assert "off-table" not in g.state.units["amb"].status


@pytest.mark.audits("EXT-2")
def test_the_ambush_bonus_is_for_the_next_initiative_only(tmp_path, monkeypatch):
    """Extras, Ambush: "+1 to the next initiative", not to the ones after it."""
    units = SQUADS + unit("amb", "irregulars", "Irr3", "Cell", roles=("ambush",))
    g = new_game(tmp_path, monkeypatch, units, head="[extras.irregulars]\nambush = 1", active="regulars")
    play(g, "next", "ambush amb", "next")
    g.execute("next dice=6,6,1,1", role=REFEREE)  # the Rangers win turn 2 as well
    play(g, "next", "next")
    out = g.execute("next dice=3,3,3,3", role=REFEREE)  # turn 3: the Rangers at −2, the Militia plain
    assert initiative_totals(out) == {"regulars": 10, "irregulars": 9}


PLATOON = (
    unit("cpt", "regulars", "R3", "1st", lead=3, roles=("commander", "leader"))
    + unit("s1", "regulars", "R3", "1st")
    + unit("s1b", "regulars", "R3", "1st")
    + unit("sgt2", "regulars", "R3", "2nd", lead=1, roles=("leader",))
    + unit("s2", "regulars", "R3", "2nd")
    + unit("boss", "irregulars", "Irr3", "Cell", lead=1, roles=("commander", "leader"))
    + unit("m1", "irregulars", "Irr3", "Cell")
)
platoons = table(PLATOON, "platoons", head='platoon = ["regulars"]', active="regulars")


@pytest.mark.audits("PLT-2", "INI-5")
def test_a_platoon_adds_its_platoon_leaders_leadership_only(tmp_path, monkeypatch):
    """§13.0 Initiative: "Add only the leadership bonus of the Platoon leader, or the highest
    in rank": 3+3+3+4 = 13, the squad leader's 1 not added."""
    g = new_game(tmp_path, monkeypatch, PLATOON, head='platoon = ["regulars"]', active=None)
    g.execute("next", role=REFEREE)
    out = g.execute("next dice=3,3,3,3", role=REFEREE)
    assert initiative_totals(out)["regulars"] == 13


@pytest.mark.audits("ACT-4", "PLT-2")
def test_a_platoons_second_squad_waits_for_the_first(platoons):
    """§13.0: "activates all his Units one by one (the second squad can be activated once
    the first squad has finished etc)": once the 2nd squad is activated, the 1st's man may
    not move any more this turn."""
    play(platoons, "activate 1st", "move s1 5 cautious", "activate 2nd", "move s2 5 cautious")
    refused(platoons, "move s1b 5 cautious", rule="ACT-4")


@pytest.mark.audits("ACT-4", "PLT-2")
def test_a_platoons_squad_not_yet_activated_waits(platoons):
    """§13.0: units are activated "one by one": while the 1st squad is activated, a man of
    the 2nd may not act; he acts once his squad's turn comes."""
    platoons.execute("activate 1st", role=REFEREE)
    refused(platoons, "move s2 5 cautious", rule="ACT-4")
    play(platoons, "activate 2nd", "move s2 5 cautious")


@pytest.mark.audits("PLT-3", "ACT-3")
def test_a_platoons_group_is_one_squads_men(platoons):
    """§13.0: "Actions by Group ... Can be used but only by miniatures in the same squad": a
    man of the 1st and a man of the 2nd cannot move as one group."""
    platoons.execute("activate 1st", role=REFEREE)
    refused(platoons, "move s1 5 cautious s2", rule="INI-5")
    platoons.execute("move s1 5 cautious cpt", role=REFEREE)


# The EXTRAS that deploy otherwise --------------------------------------------------------


SF = (
    unit("sgt", "regulars", "R1", "A", lead=1, roles=("commander",))
    + unit("r1", "regulars", "R1", "A")
    + unit("inf", "regulars", "R1", "A", roles=("infiltrator",))
    + unit("boss", "irregulars", "Irr3", "C", roles=("commander",))
    + unit("m2", "irregulars", "Irr3", "C")
)
SF_HEAD = (
    'mission = 3\n[forces]\nregulars = "special-forces"\n[extras.regulars]\ninfiltrators = true\nhelicopter = true'
)
sf_table = table(SF, "sf_table", head=SF_HEAD, active=None)


@pytest.mark.audits("EXT-1", "DEP-4")
def test_infiltrators_deploy_after_everyone_else(sf_table):
    """Extras, Infiltrators: "The infiltration occurs during the deployment phase
    (infiltrators deploy second)": the digest (EXT-1), after both sides' normal deployment."""
    play(sf_table, "objectives irregulars 1 2 3", "rolloff dice=5,1")
    for man in ("boss", "sgt", "m2"):
        sf_table.execute(f"deploy {man}", role=REFEREE)
    refused(sf_table, "deploy inf", rule="EXT-1")
    play(sf_table, "deploy r1", "deploy inf")
    assert "off-table" not in sf_table.state.units["inf"].status


@pytest.mark.audits("EXT-3")
def test_no_first_turn_before_the_helicopter_is_noted(sf_table):
    """Extras, Helicopter evacuation: "After the deployment of all forces the player with
    this option secretly notes down the helicopter landing point ... and the number of the
    turn": until he has, the game does not start."""
    play(sf_table, "objectives irregulars 1 2 3", "rolloff dice=5,1")
    for man in ("boss", "sgt", "m2", "r1", "inf"):
        sf_table.execute(f"deploy {man}", role=REFEREE)
    refused(sf_table, "next", rule="DEP-3")
    play(sf_table, "helicopter 1 2 of=irregulars side=regulars", "next")
    assert sf_table.state.turn == 1


@pytest.mark.audits("EXT-2")
def test_an_ambush_is_sprung_at_the_end_of_a_turn_not_during_it(tmp_path, monkeypatch):
    """Extras, Ambush: "This takes place at the end of the turn"."""
    units = SQUADS + unit("amb", "irregulars", "Irr3", "Cell", roles=("ambush",))
    g = new_game(tmp_path, monkeypatch, units, head="[extras.irregulars]\nambush = 1", active="irregulars")
    refused(g, "ambush amb", rule="ENG-2")
    play(g, "next", "ambush amb")
    assert "off-table" not in g.state.units["amb"].status


@pytest.mark.audits("INI-1", "INI-2")
def test_a_tie_is_rolled_again_with_the_winners_penalty_kept(g):
    """§5.0 and the digest (INI-3): a tie is rolled again "with the same modifiers", the
    previous winner's −1 among them.  Turn 2: 3+3+2+4−1 = 11 against 4+4+1+2 = 11, then
    1+1+5 = 7 against 2+2+3 = 7, then 6+6+5 against 1+1+3: the Rangers, whose next penalty
    is then −2."""
    play(g, "next", "next dice=6,6,1,1", "next", "next")
    out = g.execute("next dice=3,3,4,4,1,1,2,2,6,6,1,1", role=REFEREE)
    rolled = [e for e in out.events if isinstance(e, ev.Rolled) and e.side == "regulars"]
    assert len(rolled) == 3
    assert all(sum(m.value for m in e.roll.mods) == 5 for e in rolled)
    assert g.state.active_side == "regulars"
    play(g, "next", "next")
    out = g.execute("next dice=3,3,3,3", role=REFEREE)
    assert initiative_totals(out) == {"regulars": 10, "irregulars": 9}


@pytest.mark.audits("DEP-1")
def test_a_deployment_roll_tied_twice_is_rolled_a_third_time(g):
    """§4.2 and the digest (DEP-1): ties are rolled again, as often as they come: 4+2 against
    5+1, 1+2 against 2+1, then 6+2 against 1+1: the Rangers are First."""
    out = g.execute("rolloff dice=4,5,1,2,6,1", role=REFEREE)
    assert len([e for e in out.events if isinstance(e, ev.Rolled)]) == 6
    assert g.state.vars["first_player"] == "regulars"
