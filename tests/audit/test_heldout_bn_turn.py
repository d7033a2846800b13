"""Held-out audit of Breaking News' turn (§5.0), victory and defeat points (§14.0) and its
EXTRAS, written from the rulebook (1.5.1) and its digest alone, after the first audit and
apart from it: an initiative where a penalty and a bonus meet, the journalists' multipliers
meeting the Rules of Engagement, an objective, a capture and negotiation points, support
fire with the extras that change its call, and the helicopters.  Given these faces, the
book's outcome."""

from __future__ import annotations

import pytest
from audit_bn_late import extras, facts, ledger, new_game, next_turn, out, play, refused, rolls, to_activation, unit
from audit_bn_late import final_count as _final_count

from core.log import events as ev
from core.log.views import REFEREE

MILITIA = unit("boss", "irregulars", "Irr3", "Cell", lead=1, roles=("commander", "leader")) + "".join(
    unit(f"i{i}", "irregulars", "Irr3", "Cell") for i in range(3)
)
SQUADS = (
    unit("sgt", "regulars", "R4", "Alpha", lead=1, roles=("commander", "leader"))
    + "".join(unit(f"m{i}", "regulars", "R4", "Alpha") for i in range(3))
    + MILITIA
)


# ------------------------------------------------------------------------ §5.0


@pytest.mark.audits("INI-1", "INI-2", "EXT-2")
def test_last_turns_winner_who_ambushed_has_his_minus_one_and_plus_one(tmp_path, monkeypatch):
    """§5.0, Extras: Ambush: the Militia won turn 1 and placed its ambush at the end of it.
    Turn 2's initiative: 2d6 + the commander's leadership 1 + Militia 2, −1 for having won
    the last, +1 for the ambush: the modifiers come to 3."""
    units = SQUADS + unit("lurker", "irregulars", "Irr3", "Cell", roles=("ambush",))
    g = new_game(tmp_path, monkeypatch, units, head=extras("irregulars", ambush=1), active="irregulars")
    play(g, "next", "@irregulars ambush lurker", "next")
    rolled = {e.side: e.roll for e in facts(g.execute("next dice=1,1,6,6", role=REFEREE), ev.Rolled)}
    assert sum(m.value for m in rolled["irregulars"].mods) == 1 + 2 - 1 + 1
    assert sum(m.value for m in rolled["regulars"].mods) == 1 + 3


# ------------------------------------------------------------------------ §14.0 and Media


@pytest.mark.audits("DP-2", "DP-3", "T-20")
def test_embedded_journalists_triple_the_ten_of_a_civilian_under_rules_of_engagement(tmp_path, monkeypatch):
    """§14.0, Extras: a civilian killed by Regulars with Rules of Engagement is 10; embedded
    journalists triple civilian points (instead of doubling them): 30; a regular lost, 10,
    is doubled: 20.  50 in all."""
    units = SQUADS + unit("lupo", "regulars", "", "Press", kind="journalist", roles=("embedded",))
    units += unit("civ", "irregulars", "", "Civilians", kind="civilian")
    g = new_game(tmp_path, monkeypatch, units, head=extras("regulars", rules_of_engagement=True))
    play(g, "out civ killed by regulars", "out m0 killed by irregulars")
    assert "= 50 defeat points" in _final_count(g)


@pytest.mark.audits("T-20", "DP-2")
def test_independent_journalists_quadruple_a_bombed_building_under_rules_of_engagement(tmp_path, monkeypatch):
    """§14.0, Extras: a building hit by the support fire of Regulars with Rules of
    Engagement is 10; independent journalists quadruple it: 40."""
    units = SQUADS + unit("reed", "irregulars", "", "Press", kind="journalist", roles=("independent",))
    g = new_game(tmp_path, monkeypatch, units, head=extras("regulars", rules_of_engagement=True))
    g.execute("score building regulars", role=REFEREE)
    assert "= 40 defeat points" in _final_count(g)


@pytest.mark.audits("OBJ-6", "T-20", "DP-3")
def test_a_secondary_objective_lost_with_journalists_costs_forty(tmp_path, monkeypatch):
    """§14.0, Extras: Media: the Regulars lose a Secondary objective, 20; journalists "double
    all the Defeat Points of the Regular player": 40."""
    units = SQUADS + unit("lupo", "regulars", "", "Press", kind="journalist", roles=("embedded",))
    g = new_game(tmp_path, monkeypatch, units)
    g.execute("score secondary-objective regulars", role=REFEREE)
    assert "= 40 defeat points" in _final_count(g)


@pytest.mark.audits("T-20", "EXT-10", "DP-3")
def test_a_captured_journalist_is_doubled_with_the_rest(tmp_path, monkeypatch):
    """Extras: Media: a journalist captured by the Irregulars costs the Regulars 30, and
    the journalists double all the Regular player's points: 60."""
    units = SQUADS + unit("lupo", "regulars", "", "Press", kind="journalist", roles=("embedded",))
    g = new_game(tmp_path, monkeypatch, units, active="irregulars")
    g.execute("capture lupo", role="irregulars")
    assert ledger(g, "regulars") == {"journalists": 30}
    assert "= 60 defeat points" in _final_count(g)


@pytest.mark.audits("VIC-2", "T-20")
@pytest.mark.parametrize(("press", "winner"), [(False, "Rangers"), (True, "Militia")])
def test_the_multiplied_points_decide_the_loser(tmp_path, monkeypatch, press, winner):
    """§14.0: the loser has the most Defeat Points at the end.  A regular lost (10) against
    three irregulars (15): the Militia lose; with journalists the Regulars' 10 is 20, and
    they lose."""
    units = SQUADS + (unit("lupo", "regulars", "", "Press", kind="journalist", roles=("embedded",)) if press else "")
    g = new_game(tmp_path, monkeypatch, units)
    g.execute("out m0 killed by irregulars", role=REFEREE)
    for i in range(3):
        g.execute(f"out i{i} killed by regulars", role=REFEREE)
    (over,) = [
        line for line in g.execute("victory the patrol withdraws", role=REFEREE).lines if line.startswith("Game over")
    ]
    assert over.startswith(f"Game over: {winner} won ("), over  # who won, from the end's data


@pytest.mark.audits("DP-4", "T-20", "EXT-12")
def test_negotiation_points_are_doubled_by_the_journalists(tmp_path, monkeypatch):
    """Extras: Negotiation, Media: Negotiation 2 gives the Regular 10 a turn; kept at the
    end (a 3 is over his level), the journalists double all his points: 20."""
    units = SQUADS + unit("lupo", "regulars", "", "Press", kind="journalist", roles=("embedded",))
    g = new_game(tmp_path, monkeypatch, units, head=extras("regulars", negotiation=2), active=None)
    play(g, "@regulars negotiate regulars", "next")
    to_activation(g, "regulars")
    next_turn(g, "regulars")
    said = " ".join(n.text for n in facts(g.execute("victory dice=3", role=REFEREE), ev.Noted))
    assert "= 20 defeat points" in said


# ------------------------------------------------------------------------ support fire


@pytest.mark.audits("EXT-4", "MORT-3", "ART-1")
@pytest.mark.parametrize(("die", "granted"), [(3, False), (4, True)])
def test_improved_support_fire_brings_the_militias_mortar_to_four(tmp_path, monkeypatch, die, granted):
    """Extras: Mortars are the Irregulars' support fire, called on 5 or 6; Improved Support
    Fire gives "+1 when calling for Support Fire": 4 or more."""
    head = extras("irregulars", mortars=True, improved_support_fire=True)
    g = new_game(tmp_path, monkeypatch, SQUADS, head=head, active=None)
    g.execute("next", role=REFEREE)
    (roll,) = rolls(g.execute(f"call-support mortar dice={die}", role="irregulars"))
    assert (roll.outcome == "granted") is granted


@pytest.mark.audits("MORT-3", "EXT-7")
@pytest.mark.parametrize(("die", "silenced"), [(4, False), (5, True)])
def test_counter_battery_under_rules_of_engagement_needs_five(tmp_path, monkeypatch, die, silenced):
    """Extras: the counter-battery is the opponent's Support Fire, which Rules of Engagement
    call at −1: the mortar is silenced on 5 or more."""
    head = extras("irregulars", mortars=True) + extras("regulars", rules_of_engagement=True)
    g = new_game(tmp_path, monkeypatch, SQUADS, head=head, active=None)
    play(g, "next", "@irregulars call-support mortar dice=5")
    to_activation(g, "regulars")
    next_turn(g, "irregulars")
    play(g, "@irregulars mortar range=60 dice=3", "next", "next", f"@regulars call-support counter dice={die}")
    assert bool(g.state.vars.get("mortar-silenced.irregulars")) is silenced


@pytest.mark.audits("MORT-3", "MORT-1", "T-08")
def test_the_off_table_mortar_keeps_the_rows_10_cm_minimum(tmp_path, monkeypatch):
    """Extras: Mortars use "the rules shown for Light Mortars", the §8.0 Tank/mortars row:
    4 with a 10 cm minimum.  At 9.5 cm the mortar cannot fire; at 10 it needs 4."""
    g = new_game(tmp_path, monkeypatch, SQUADS, head=extras("irregulars", mortars=True), active=None)
    play(g, "next", "@irregulars call-support mortar dice=6")
    to_activation(g, "irregulars")
    next_turn(g, "irregulars")
    refused(g, "@irregulars mortar range=9.5 dice=4", rule="T-08")
    (shot,) = rolls(g.execute("mortar range=10 dice=4", role="irregulars"))
    assert shot.target == 4 and shot.outcome == "on target"


# ------------------------------------------------------------------------ helicopters


@pytest.mark.audits("EXT-3", "ART-6", "T-14")
@pytest.mark.parametrize(("save", "down"), [(4, False), (3, True)])
def test_an_rpg_at_the_evacuation_helicopter_is_a_long_shot_against_light_armour(tmp_path, monkeypatch, save, down):
    """Extras: Helicopter evacuation, §8.4: the helicopter "can be hit by small arms or
    rockets as if it were armoured ... always considered long": an RPG 20 cm away reads its
    longest band, 100 cm: 6.  Light armour saves 4+ against light anti-tank: a 4 holds, a 3
    knocks it out."""
    units = SQUADS + unit("rpg", "irregulars", "Irr1", "Cell", weapons=("RPG",))
    g = new_game(tmp_path, monkeypatch, units, head="mission = 1\n" + extras("regulars", helicopter=True), active=None)
    play(
        g,
        "@regulars objectives regulars 4 2 5",
        "@irregulars objectives irregulars 3 1 5",
        "@regulars helicopter 5 2",
        "next",
    )
    to_activation(g, "regulars")
    next_turn(g, "irregulars")
    shot, vsave = rolls(g.execute(f"fire rpg helicopter-regulars range=20 dice=6,{save}", role="irregulars"))
    assert (shot.target, shot.outcome, vsave.target) == (6, "1 hit", 4)
    assert bool(out(g, "helicopter-regulars")) is down


@pytest.mark.audits("EXT-12", "DP-4")
def test_a_broken_negotiation_accrues_no_more(tmp_path, monkeypatch):
    """Extras: Negotiation: the Regular gets points "every turn" of the negotiation; when the
    Militia fire first he loses them and it is over: the turns after add nothing."""
    g = new_game(tmp_path, monkeypatch, SQUADS, head=extras("regulars", negotiation=3), active=None)
    play(g, "@regulars negotiate regulars", "next")
    to_activation(g, "regulars")
    next_turn(g, "irregulars")
    assert ledger(g, "regulars") == {"negotiation": 15}
    g.execute("fire i0 m0 range=30 aimed dice=1", role="irregulars")
    next_turn(g, "regulars")
    next_turn(g, "regulars")
    assert "negotiation" not in ledger(g, "regulars")


@pytest.mark.audits("FIRE-15", "ART-2", "T-16")
def test_a_bombardment_that_lands_before_any_shot_is_the_first_fire(tmp_path, monkeypatch):
    """§8.4, §14.0: "5 points for whoever fires first".  The Regulars call artillery in
    turn 1 and nobody shoots; it lands at the start of turn 2, before initiative: that is
    the game's first fire, theirs, and the Militia's shot later that turn costs nothing."""
    g = new_game(tmp_path, monkeypatch, SQUADS, active=None)
    play(g, "next", "@regulars call-support dice=6")
    to_activation(g, "regulars")
    play(g, "next", "next")
    g.execute("next dice=3,3,3,3,1,1,6,6", role=REFEREE)  # the drift, then the initiative: the Militia's
    play(g, "@irregulars fire i0 m0 range=30 aimed dice=1", "next")
    assert ledger(g, "regulars").get("first-fire") == 5
    assert "first-fire" not in ledger(g, "irregulars")
