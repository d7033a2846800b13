"""Second held-out audit of Breaking News after the shot: a vehicle's save and its margin
(§9.2) against each column, a vehicle hit more than once, what a knocked-out vehicle and a
man who fought may still do (§11), storming after a shot (§11.1), the wounded and morale at
the end of the turn (§9.3, §12.0), what the end of a turn gives back (§8.2, §7.0), the
ambushers off the table, and each support type's whole sequence (§8.4, Extras: Mortars).
Written from the rulebook (1.5.1) and its digest alone, after the two earlier audits and
apart from them: given these faces, the book's outcome."""

from __future__ import annotations

import pytest
from audit_bn_late import (
    facts,
    ledger,
    new_game,
    next_turn,
    out,
    play,
    refused,
    rolls,
    status,
    table,
    to_activation,
    unit,
)
from audit_bn_late import saves as vehicle_save
from playing import names

from core.log import events as ev
from core.log.views import REFEREE
from core.ruleset import Refused
from core.rulesets.breaking_news.campaign import army
from core.rulesets.breaking_news.campaign.army import Roster, RosterUnit, validate_roster

IT = "it-2009-12-09"

#: A Regular motor pool (a Hummer, a Puma, a Centauro) and a squad; the Militia with every
#: weapon the vehicle table's columns need.
POOL = (
    unit("hummer", "regulars", "protected", "Motor", kind="vehicle", weapons=("HMG",))
    + unit("puma", "regulars", "light", "Motor", kind="vehicle", weapons=("HMG",))
    + unit("centauro", "regulars", "heavy", "Motor", kind="vehicle", weapons=("TANKGUN", "HMG"))
    + unit("sgt", "regulars", "R4", "Alpha", lead=1, roles=("commander", "leader"))
    + "".join(unit(f"m{i}", "regulars", "R4", "Alpha") for i in range(4))
    + unit("boss", "irregulars", "Irr1", "Cell", lead=1, roles=("commander", "leader"))
    + unit("ar", "irregulars", "Irr1", "Cell")
    + unit("lmg", "irregulars", "Irr1", "Cell", weapons=("LMG",))
    + unit("mmg", "irregulars", "Irr1", "Cell", weapons=("MMG",))
    + unit("smg", "irregulars", "Irr1", "Cell", weapons=("SMG",))
    + unit("milan", "irregulars", "Irr1", "Cell", weapons=("ATH",))
    + unit("rpg", "irregulars", "Irr1", "Cell", weapons=("RPG",))
    + "".join(unit(f"i{i}", "irregulars", "Irr3", "Cell") for i in range(3))
)


g = table(POOL)
irr = table(POOL, "irr", active="irregulars")


# ------------------------------------------------------------------ §9.2: the margin of 3


@pytest.mark.audits("VSAVE-1", "T-14")
@pytest.mark.parametrize(
    ("command", "die", "result"),
    [
        ("fire ar hummer range=20 aimed dice=3,{die}", 1, "explodes"),
        ("fire ar hummer range=20 aimed dice=3,{die}", 2, "knocked out"),
        ("fire milan centauro range=20 dice=4,{die}", 2, "explodes"),
        ("fire milan centauro range=20 dice=4,{die}", 3, "knocked out"),
        ("fire mmg centauro range=20 dice=6,1,1,1,{die}", 1, "knocked out"),
        ("fire smg puma range=20 dice=6,1,1,{die}", 1, "knocked out"),
    ],
)
def test_each_vehicle_column_fails_by_three_to_explode(irr, command, die, result):
    """§9.2: "The vehicle is knocked out if doesn't pass the test. If the test is failed with
    a difference of 3+ the vehicle explodes."  A Hummer saves 4+ against an AR: a 1 fails by
    3 (no natural-1 rule for vehicles, only for "a soldier"), a 2 by 2.  A heavily-armoured
    vehicle saves 5+ against a Milan: 2 explodes, 3 does not; 2+ against an MMG: a 1 fails
    by 1.  A light-armoured vehicle saves 3+ against an SMG: a 1 fails by 2."""
    (save,) = vehicle_save(irr.execute(command.format(die=die), role="irregulars"))
    assert save.outcome == result


@pytest.mark.audits("VSAVE-1", "FIRE-14", "T-14")
def test_a_vehicle_saves_each_hit_and_the_second_can_knock_it_out(irr):
    """§9.0, §9.2: a save for every hit.  An LMG burst at 20 cm (4+) puts two hits on the
    Hummer (4+ against light weapons and MGs): the first save's 5 passes, the second's 3
    fails by 1: knocked out."""
    saves = vehicle_save(irr.execute("fire lmg hummer range=20 dice=4,4,1,1,5,3", role="irregulars"))
    assert [s.faces for s in saves] in ([(5,), (3,)], [(5, 3)])
    assert out(irr, "hummer").startswith("knocked out")


@pytest.mark.audits("VSAVE-1")
@pytest.mark.parametrize("command", ["fire hummer ar range=30 dice=1,1,1,1,1", "move hummer 10"])
def test_a_knocked_out_vehicle_neither_fires_nor_moves(irr, command):
    """§9.2: a vehicle that fails its save is "knocked out": next turn it fires and moves
    no more."""
    irr.execute("fire ar hummer range=20 aimed dice=3,2", role="irregulars")
    next_turn(irr, "regulars", end_dice="")
    with pytest.raises(Refused) as no:
        irr.execute(command, role="regulars")
    names(no.value, "VSAVE-1")


# ------------------------------------------------------------------ §11: what the fight takes


@pytest.mark.audits("MEL-1", "T-03")
@pytest.mark.parametrize(
    ("before", "rule"), [("fire m0 ar range=20 aimed dice=1", "MEL-1"), ("embark m0 hummer", "MOV-5")]
)
def test_no_hand_to_hand_after_a_shot_or_getting_in(g, before, rule):
    """§5.0, §6.3, §11.0: one action a figure; a man who has fired, or whose whole move was
    getting into a vehicle, has no move left to bring him into contact."""
    g.execute(before, role="regulars")
    refused(g, "@regulars melee m0 ar dice=6,1", rule=rule)


@pytest.mark.audits("BLD-1", "T-03")
def test_no_storming_after_a_shot(g):
    """§11.1: "Combat in a building replaces both ranged fire and close combat": a man who
    has already fired this turn has had his fire, and may not storm too."""
    g.execute("fire m0 ar range=20 aimed dice=1", role="regulars")
    refused(g, "@regulars storm m0 m1 against=i0 dice=1,1,1,1,1", rule="BLD-1")


# ------------------------------------------------------------------ §9.3 and §12.0 at the end


@pytest.mark.audits("WND-2", "MOR-1", "MOR-3")
def test_a_man_stabilised_in_the_turn_he_fell_calls_no_morale_test(tmp_path, monkeypatch):
    """§9.3: a stabilised soldier "doesn't count for morale"; §12.0: the test is taken "at
    the end of each turn in which a side has taken losses".  The one man hit this turn is
    wounded (a 4) and the medic reaches him before the turn ends: no loss, no test."""
    units = POOL + unit("doc", "regulars", "R4", "Alpha", weapons=("PISTOL",), roles=("medic",))
    g = new_game(tmp_path, monkeypatch, units, options=("wounded",))
    g.execute("blast m0 source=grenade by=irregulars dice=1,4", role=REFEREE)
    assert out(g, "m0").startswith("wounded")
    g.execute("medic doc m0", role="regulars")
    said = [
        r
        for r in rolls(g.execute("next", role=REFEREE)) + rolls(g.execute("next", role=REFEREE))
        if "morale" in str(r.purpose)
    ]
    assert said == []


@pytest.mark.audits("OPP-4")
def test_the_rpgs_one_opportunity_shot_comes_back_next_turn(g):
    """§8.2: an RPG "can fire by opportunity only once per turn": in turn 1 it answers one
    move and not the next; in turn 2 it may answer again."""
    play(g, "@regulars move m0 3", "@irregulars react-fire rpg m0 range=20 dice=1", "@regulars move m1 3")
    refused(g, "@irregulars react-fire rpg m1 range=20 dice=1", rule="OPP-1")
    next_turn(g, "regulars")
    play(g, "@regulars move m1 3", "@irregulars react-fire rpg m1 range=20 dice=1")


@pytest.mark.audits("SPOT-4")
def test_the_sighting_of_the_turn_comes_back_next_turn(tmp_path, monkeypatch):
    """§7.0: sighting "can be performed once per turn by any model": a failed try in turn 1
    leaves none for turn 1, and turn 2 brings a new one."""
    units = POOL + unit("ghost", "irregulars", "Irr1", "Hidden", status=("hidden",))
    g = new_game(tmp_path, monkeypatch, units)
    g.execute("react-spot m0 ghost range=30 dice=1", role=REFEREE)
    refused(g, "react-spot m0 ghost range=30 dice=6", rule="MOV-7")
    next_turn(g, "regulars")
    (r,) = rolls(g.execute("react-spot m0 ghost range=30 dice=6", role=REFEREE))
    assert r.outcome == "sighted"


@pytest.mark.audits("EXT-2", "DEP-4")
def test_an_ambusher_off_the_table_cannot_fire(tmp_path, monkeypatch):
    """Extras: Ambush: the ambushers are "not deployed" and come on "at the end of the
    turn"; until then the man is not on the table to fire by opportunity."""
    units = POOL + unit("amb", "irregulars", "Irr1", "Cell", roles=("ambush",))
    head = "[extras.irregulars]\nambush = 1\n"
    g = new_game(tmp_path, monkeypatch, units, head=head)
    g.execute("move m0 3", role="regulars")
    refused(g, "@irregulars react-fire amb m0 range=20 dice=1", rule="DEP-4")


# ------------------------------------------------------------------ §8.4, §8.5: whole sequences


@pytest.mark.audits("MORT-3", "MORT-1", "EXT-5", "ART-1")
def test_the_militias_mortar_from_call_to_counter_battery(tmp_path, monkeypatch):
    """Extras: Mortars: called on a 5 at the start of turn 1, it "comes next turn"; in turn
    2 it fires at 40 cm (the Tank/mortars row: 4) and the 3 misses by 1: the template lands
    3 cm away in a direction the opponent chooses (§8.5).  Only now may the Regulars call
    counter-battery, at the start of turn 3: a 4 suppresses the mortar, which cannot be
    called again."""
    head = "[extras.irregulars]\nmortars = true\n"
    g = new_game(tmp_path, monkeypatch, POOL, head=head, active=None)
    play(g, "next", "@irregulars call-support mortar dice=5")
    to_activation(g, "regulars")
    refused(g, "@irregulars mortar range=40 dice=3", rule="MORT-1")
    next_turn(g, "irregulars")
    done = g.execute("mortar range=40 dice=3", role="irregulars")
    (shot,) = rolls(done)
    assert shot.target == 4
    assert any("3 cm" in n.text for n in facts(done, ev.Noted))
    play(g, "next", "next", "@regulars call-support counter dice=4")
    refused(g, "@irregulars call-support mortar dice=6", rule="MORT-3")


@pytest.mark.audits("ART-1", "ART-2", "ART-4", "EXT-7", "FIRE-15")
def test_rules_of_engagement_artillery_from_call_to_saves(tmp_path, monkeypatch):
    """§8.4, Extras: Rules of Engagement: "-1 Penalty when calling for Support Fire", so a 4
    fails and a 5 succeeds (next turn's call); it lands "at the start of the next turn,
    before deciding initiative", and the bombed player moves it 4d6 cm.  Under it a
    Militiaman saves at 3+ with +2: his 2 saves (his own 5+ is not used).  It is the first
    fire of the game: 5, and 25 more under the Rules of Engagement."""
    head = "[extras.regulars]\nrules_of_engagement = true\n"
    g = new_game(tmp_path, monkeypatch, POOL, head=head, active=None)
    g.execute("next", role=REFEREE)
    (call,) = rolls(g.execute("call-support dice=4", role="regulars"))
    assert (call.check.face, str(call.outcome)) == (5, "refused")
    to_activation(g, "regulars")
    play(g, "next", "next", "@regulars call-support dice=5")
    to_activation(g, "regulars")
    play(g, "next", "next")
    assert g.state.phase == "initiative" and g.state.turn == 3
    landing = g.execute("next dice=1,2,3,4,1,1,6,6", role=REFEREE)
    (drift,) = [r for r in rolls(landing) if len(r.faces) == 4]
    assert g.state.active_side == "irregulars"
    g.execute("blast i0 source=bombardment by=regulars dice=2", role=REFEREE)
    assert not out(g, "i0") and "suppressed" in status(g, "i0")
    g.execute("next", role=REFEREE)
    assert ledger(g, "regulars").get("first-fire") == 30


# ------------------------------------------------------------------ the note under T-17


def _militia(*units: RosterUnit) -> Roster:
    boss = RosterUnit(id="boss", name="boss", cls="Irr1", weapons=("AR",), roles=("commander",))
    return Roster(name="t", army="irregular", units=(boss, *units))


@pytest.mark.audits("T-17a", "T-17")
@pytest.mark.parametrize(
    ("variant", "list_cls", "cls", "legal", "price"),
    [
        ("", "Irr3", "Irr1", True, 11),
        (IT, "Irr3", "Irr1", False, 11),
        (IT, "Irr3", "Irr2", True, 8),
        ("", "Irr1", "Irr3", True, 5),
    ],
)
def test_the_quality_on_the_lists_may_be_raised_or_lowered(variant, list_cls, cls, legal, price):
    """Calculating points, the note under the men's costs (digest T-17): "You can raise or
    lower the quality level on the lists" [EN]; "di un livello" [IT] (row T-17a).  A Militiaman of the
    lists (Irr3) fielded as Hardened Militia (Irr1) is two levels up: legal in English, not
    in Italian, where one level (Fanatics) is; Hardened Militia lowered to Militia is legal.
    The man costs the class he is fielded as: 11, 8, 5."""
    m = RosterUnit(id="m", name="m", cls=cls, list_cls=list_cls, weapons=("AR",))
    assert (validate_roster(_militia(m), 0, variant) == []) is legal
    assert army.total_cost(_militia(m), variant) - army.total_cost(_militia(), variant) == price
