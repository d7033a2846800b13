"""Audit of Breaking News' EXTRAS (the Extras section of "Calculating points"), played
on a table: written from the rulebook (1.5.1) and its digest alone, given these faces,
the book's outcome, every threshold on both sides of its edge.  Their prices are in
test_audit_bn_points.py."""

from __future__ import annotations

import pytest
from audit_bn_late import (
    extras,
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
from playing import names

from core.log import events as ev
from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import Refused

MILITIA = unit("boss", "irregulars", "Irr3", "Cell", lead=1, roles=("commander", "leader")) + "".join(
    unit(f"i{i}", "irregulars", "Irr3", "Cell") for i in range(3)
)
SQUADS = (
    unit("sgt", "regulars", "R4", "Alpha", lead=1, roles=("commander", "leader"))
    + "".join(unit(f"m{i}", "regulars", "R4", "Alpha") for i in range(3))
    + MILITIA
)


def _with_markers(tmp_path, monkeypatch, head, units=SQUADS):
    """Mission 1: five markers a side (regulars: main 4, secondaries 2 and 5; militia: main
    3, secondaries 1 and 5), still in the deployment phase."""
    g = new_game(tmp_path, monkeypatch, units, head="mission = 1\n" + head, active=None)
    play(g, "@regulars objectives regulars 4 2 5", "@irregulars objectives irregulars 3 1 5")
    return g


with_mortars = table(SQUADS, "with_mortars", head=extras("irregulars", mortars=True), active=None)


# ------------------------------------------------------------------- Ambush


@pytest.mark.audits("EXT-2")
def test_an_ambush_is_placed_at_the_end_of_a_turn_and_gives_plus_one_to_the_next_initiative(tmp_path, monkeypatch):
    """Extras: Ambush: men held back are placed "at the end of the turn. It gives a +1 to
    the next initiative"."""
    units = SQUADS + unit("lurker", "irregulars", "Irr3", "Cell", roles=("ambush",))
    g = new_game(tmp_path, monkeypatch, units, head=extras("irregulars", ambush=1))
    refused(g, "@irregulars ambush lurker", rule="ENG-2")  # not in the activation
    play(g, "next", "@irregulars ambush lurker", "next")
    rolled = {e.side: e.roll for e in facts(g.execute("next dice=1,1,6,6", role=REFEREE), ev.Rolled)}
    assert sum(m.value for m in rolled["irregulars"].mods) == 1 + 2 + 1  # leadership, Militia, ambush
    play(g, "next", "next")
    rolled = {e.side: e.roll for e in facts(g.execute("next dice=1,1,6,6", role=REFEREE), ev.Rolled)}
    assert 1 not in [m.value for m in rolled["irregulars"].mods if "ambush" in str(m.label)]  # only the next


# ------------------------------------------------------------------- Helicopter evacuation


def _helicopter(tmp_path, monkeypatch, turn=2):
    g = _with_markers(tmp_path, monkeypatch, extras("regulars", helicopter=True))
    play(g, f"@regulars helicopter 5 {turn}", "next")
    to_activation(g, "regulars")
    return g


@pytest.mark.audits("EXT-3")
def test_the_helicopter_lands_at_its_turn_on_an_objective_marker(tmp_path, monkeypatch):
    """Extras: Helicopter evacuation: the landing point "must be an objective marker"; it
    appears on the turn written down, and "can be fired upon"."""
    units = SQUADS + unit("merc", "irregulars", "Irr1", "Cell")
    g = _with_markers(tmp_path, monkeypatch, extras("regulars", helicopter=True), units)
    refused(g, "@regulars helicopter 9 2", rule=TYPING)
    play(g, "@regulars helicopter 5 2", "next")
    to_activation(g, "regulars")
    assert "helicopter-regulars" not in g.state.units or out(g, "helicopter-regulars")
    next_turn(g, "irregulars")
    assert "helicopter-regulars" in g.state.units
    # shot at as §8.4's helicopters are: as if armoured, always at long range (AR: 6)
    shot, save = rolls(g.execute("fire merc helicopter-regulars range=20 aimed dice=6,2", role="irregulars"))
    assert (shot.outcome, save.target) == ("1 hit", 3)
    assert out(g, "helicopter-regulars").startswith("knocked out")


@pytest.mark.audits("EXT-3")
@pytest.mark.parametrize(("die", "stays"), [(2, True), (1, False)])
def test_the_helicopter_waits_each_turn_unless_a_one(tmp_path, monkeypatch, die, stays):
    """Extras: Helicopter evacuation: "Helicopters can wait to load stragglers every turn
    by rolling 1d6. A roll of 1 means the helicopter must leave"."""
    g = _helicopter(tmp_path, monkeypatch)
    next_turn(g, "regulars")
    g.execute("next", role=REFEREE)
    (roll,) = rolls(g.execute(f"next dice={die}", role=REFEREE))
    assert roll.purpose == "helicopter waiting"
    gone = out(g, "helicopter-regulars") != "" or g.state.vars.get("helicopter.regulars") != "landed"
    assert gone is not stays


# ------------------------------------------------------------------- Improved Support Fire, ROE, Mortars


@pytest.mark.audits("EXT-4")
@pytest.mark.parametrize(
    ("bought", "die", "granted"), [(False, 3, False), (False, 4, True), (True, 3, True), (True, 2, False)]
)
def test_improved_support_fire_adds_one_to_the_call(tmp_path, monkeypatch, bought, die, granted):
    """Extras: Improved Support Fire: "+1 when calling for Support Fire" (§8.4: 4+), so 3+."""
    head = extras("regulars", improved_support_fire=True) if bought else ""
    g = new_game(tmp_path, monkeypatch, SQUADS, head=head, active=None)
    g.execute("next", role=REFEREE)
    (roll,) = rolls(g.execute(f"call-support dice={die}", role="regulars"))
    assert (roll.outcome == "granted") is granted


@pytest.mark.audits("EXT-7")
@pytest.mark.parametrize(("die", "granted"), [(4, False), (5, True)])
def test_rules_of_engagement_take_one_off_the_support_call(tmp_path, monkeypatch, die, granted):
    """Extras: Rules of Engagement (2): "-1 Penalty when calling for Support Fire": 5+."""
    g = new_game(tmp_path, monkeypatch, SQUADS, head=extras("regulars", rules_of_engagement=True), active=None)
    g.execute("next", role=REFEREE)
    (roll,) = rolls(g.execute(f"call-support dice={die}", role="regulars"))
    assert (roll.outcome == "granted") is granted


@pytest.mark.audits("EXT-7")
@pytest.mark.parametrize(
    ("roe", "die", "allowed"), [(True, 5, False), (True, 6, True), (False, 5, True), (False, 4, False)]
)
def test_rules_of_engagement_allow_speculative_fire_only_on_a_six(tmp_path, monkeypatch, roe, die, allowed):
    """Extras: Rules of Engagement (3): "You can only perform Speculative Fire with a roll of
    6" (§8.6: 5 or 6 otherwise)."""
    head = extras("regulars", rules_of_engagement=True) if roe else ""
    g = new_game(tmp_path, monkeypatch, SQUADS, head=head)
    dice = f"{die},1" if allowed else f"{die}"
    r = rolls(g.execute(f"speculative m0 range=30 permission dice={dice}", role="regulars"))
    assert (r[0].target, r[0].outcome) == (6 if roe else 5, "allowed" if allowed else "not allowed")
    assert (len(r) == 2) is allowed


@pytest.mark.audits("EXT-5", "MORT-3")
@pytest.mark.parametrize(("die", "granted"), [(4, False), (5, True)])
def test_the_irregulars_mortar_is_called_on_five_or_six(with_mortars, die, granted):
    """Extras: Mortars: "Support Fire can be called with a roll of 5 or 6 and comes next
    turn"."""
    with_mortars.execute("next", role=REFEREE)
    (roll,) = rolls(with_mortars.execute(f"call-support mortar dice={die}", role="irregulars"))
    assert (roll.outcome == "granted") is granted


@pytest.mark.audits("EXT-5", "MORT-3")
def test_irregulars_without_mortars_have_no_support_fire(tmp_path, monkeypatch):
    """Extras: Mortars "Allows Irregular Troops to have Support Fire"."""
    g = new_game(tmp_path, monkeypatch, SQUADS, active=None)
    g.execute("next", role=REFEREE)
    refused(g, "@irregulars call-support mortar dice=6", rule="MORT-3")


@pytest.mark.audits("MORT-3", "EXT-5")
@pytest.mark.parametrize(("die", "silenced"), [(3, False), (4, True)])
def test_counter_battery_only_after_the_mortar_fired_and_on_four(with_mortars, die, silenced):
    """Extras: Mortars: the opponent's anti-battery fire "can only be called after the
    mortar has fired"; "The mortar is suppressed with a roll of 4 or more"."""
    with_mortars.execute("next", role=REFEREE)
    refused(with_mortars, "@regulars call-support counter dice=6", rule="MORT-3")
    with_mortars.execute("call-support mortar dice=5", role="irregulars")
    to_activation(with_mortars, "regulars")
    next_turn(with_mortars, "irregulars")
    (shot,) = rolls(with_mortars.execute("mortar range=60 dice=3", role="irregulars"))
    assert shot.target == 5  # the light mortar's row at 60 cm (§8.0, §8.5)
    play(with_mortars, "next", "next", f"@regulars call-support counter dice={die}")
    assert bool(with_mortars.state.vars.get("mortar-silenced.irregulars")) is silenced


# ------------------------------------------------------------------- Motivation


@pytest.mark.audits("EXT-6", "MOR-7")
def test_motivation_ignores_only_the_first_failed_morale_test(tmp_path, monkeypatch):
    """Extras: Motivation: "The first failed Morale Test is ignored": the first failure
    leaves the squad as it was; the second, with more Defeat Points, routs it."""
    g = new_game(tmp_path, monkeypatch, SQUADS, head=extras("regulars", motivation=1))
    play(g, "out m0 killed by irregulars", "out m1 killed by irregulars", "next")
    g.execute("morale regulars dice=1,1,1", role="regulars")  # needs 2: failed, ignored
    assert g.state.phase == "end" and not any("suppressed" in status(g, u) for u in ("sgt", "m2"))
    play(g, "next", "next dice=6,6,1,1", "out m2 killed by irregulars", "next")
    g.execute("morale regulars dice=1,2,2", role="regulars")  # needs 3; 30 DP against 0: routed
    assert g.state.phase == "final"


# ------------------------------------------------------------------- Intelligence


@pytest.mark.audits("EXT-8")
@pytest.mark.parametrize(("die", "success"), [(2, True), (3, False)])
def test_intelligence_succeeds_at_or_under_its_level_once_a_game(tmp_path, monkeypatch, die, success):
    """Extras: Intelligence: "passed if you roll a number that is equal to or less than the
    Level" (2); "only one per game"; a pass reveals the objective the opponent defends."""
    g = _with_markers(tmp_path, monkeypatch, extras("regulars", intelligence=2))
    g.execute("next", role=REFEREE)
    to_activation(g, "regulars")
    o = g.execute(f"intelligence dice={die}", role="regulars")
    (roll,) = rolls(o)
    assert roll.outcome == ("success" if success else "failure")
    revealed = [(e.key, e.value) for e in facts(o, ev.Revealed)]
    assert (("marker.irregulars.3", "main") in revealed) is success
    refused(g, "@regulars intelligence dice=1", rule="EXT-8")


@pytest.mark.audits("EXT-8")
@pytest.mark.parametrize(("die", "success"), [(1, True), (2, False)])
def test_counter_intelligence_is_a_penalty_on_the_opponents_roll(tmp_path, monkeypatch, die, success):
    """Extras: Intelligence "can also be used like counter-intelligence as a penalty to the
    opponent's Intelligence Roll": level 3 against the militia's 2 needs 1 or less."""
    head = extras("regulars", intelligence=3) + extras("irregulars", intelligence=2)
    g = _with_markers(tmp_path, monkeypatch, head)
    g.execute("next", role=REFEREE)
    to_activation(g, "regulars")
    (roll,) = rolls(g.execute(f"intelligence dice={die}", role="regulars"))
    assert roll.outcome == ("success" if success else "failure")


# ------------------------------------------------------------------- Explosives (IED)


@pytest.mark.audits("EXT-9")
def test_explosives_go_only_under_fake_markers(tmp_path, monkeypatch):
    """Extras: Explosives: "select one or more fake objective markers" (militia: 2 and 4)."""
    g = _with_markers(tmp_path, monkeypatch, extras("irregulars", ied=1))
    refused(g, "@irregulars plant 3", rule="EXT-9")  # the main
    refused(g, "@irregulars plant 1", rule="EXT-9")  # a secondary
    g.execute("plant 2", role="irregulars")


@pytest.mark.audits("EXT-9")
@pytest.mark.parametrize(("die", "explodes"), [(2, False), (3, True)])
def test_an_ied_fails_on_one_or_two_and_cannot_be_tried_again(tmp_path, monkeypatch, die, explodes):
    """Extras: Explosives: an explosion "if you don't roll a 1 or 2 on 1d6"; "If the charge
    fails to explode you cannot try again"."""
    g = _with_markers(tmp_path, monkeypatch, extras("irregulars", ied=1))
    play(g, "@irregulars plant 2", "next")
    to_activation(g, "regulars")
    (roll,) = rolls(g.execute(f"ied irregulars.2 dice={die}", role=REFEREE))
    assert (roll.outcome != "dud") is explodes
    refused(g, "ied irregulars.2 dice=6", rule="EXT-9")


# ------------------------------------------------------------------- Media


def _press(tmp_path, monkeypatch, kind, side):
    units = SQUADS + unit("lupo", side, "", "Press", kind="journalist", roles=(kind,))
    return new_game(tmp_path, monkeypatch, units, active="irregulars")


@pytest.mark.audits("EXT-10")
def test_the_irregular_player_moves_an_independent_journalist_2d6(tmp_path, monkeypatch):
    """Extras: Media: independent journalists are moved by "the player that controls the
    Irregulars (that move 2d6)"."""
    g = _press(tmp_path, monkeypatch, "independent", "irregulars")
    refused(g, "@regulars press lupo dice=3,4", rule="EXT-10")
    moved = facts(g.execute("press lupo dice=3,4", role="irregulars"), ev.Moved)
    assert [(m.unit, m.cm) for m in moved] == [("lupo", 7)]


@pytest.mark.audits("EXT-10", "T-16")
@pytest.mark.parametrize(("kind", "side"), [("embedded", "regulars"), ("independent", "irregulars")])
def test_irregulars_who_contact_a_journalist_capture_him_for_thirty(tmp_path, monkeypatch, kind, side):
    """Extras: Media: "Both types can be captured by Irregulars if they are contacted by
    them"; §14.0: 30 points for every journalist captured, to the Regular player."""
    g = _press(tmp_path, monkeypatch, kind, side)
    refused(g, "@regulars capture lupo", rule="ACT-2")
    g.execute("capture lupo", role="irregulars")
    assert ledger(g, "regulars") == {"journalists": 30}


def _count(g):
    o = g.execute("victory the patrol withdraws", role=REFEREE)
    return " ".join(n.text for n in facts(o, ev.Noted))


@pytest.mark.audits("T-20", "DP-3")
@pytest.mark.parametrize(
    ("kind", "side", "civ_factor"), [("embedded", "regulars", 3), ("independent", "irregulars", 4)]
)
def test_journalists_multiply_the_regulars_defeat_points(tmp_path, monkeypatch, kind, side, civ_factor):
    """Extras: Media: journalists double all the Regular player's Defeat Points, and triple
    (embedded) or quadruple (independent) those from civilians, "whatever their position on
    the battlefield": a regular lost (10) and a civilian killed (5) make 20 + 15 or 20 + 20."""
    units = SQUADS + unit("lupo", side, "", "Press", kind="journalist", roles=(kind,))
    units += unit("civ", "irregulars", "", "Civilians", kind="civilian")
    g = new_game(tmp_path, monkeypatch, units)
    play(g, "out m0 killed by irregulars", "out civ killed by regulars", "out i0 killed by regulars")
    said = _count(g)
    assert f"= {20 + 5 * civ_factor} defeat points" in said
    assert "irregulars: casualties 5 = 5 defeat points" in said


@pytest.mark.audits("T-20", "DP-3")
def test_embedded_journalists_double_the_primary_objective_the_regulars_take(tmp_path, monkeypatch):
    """Extras: Media (1): embedded journalists "also double (positive) the points gained for
    the primary objective": the militia's main lost costs them 100, not 50."""
    units = SQUADS + unit("lupo", "regulars", "", "Press", kind="journalist", roles=("embedded",))
    g = new_game(tmp_path, monkeypatch, units)
    g.execute("score main-objective irregulars", role=REFEREE)
    said = _count(g)
    assert "= 100 defeat points" in said


# ------------------------------------------------------------------- Civilians


@pytest.mark.audits("EXT-11")
@pytest.mark.parametrize(("die", "irregulars_move"), [(2, False), (3, True)])
def test_the_irregular_player_moves_the_civilians_on_more_than_the_negotiation_level(
    tmp_path, monkeypatch, die, irregulars_move
):
    """Extras: Civilians: the Irregular player must roll "a number higher than the
    negotiation skill of the opponent" (2): a 2 fails and the Regular player moves them; a
    3 passes.  They move up to 15 cm a turn."""
    units = SQUADS + unit("civ", "irregulars", "", "Civilians", kind="civilian")
    g = new_game(tmp_path, monkeypatch, units, head=extras("regulars", negotiation=2))
    g.execute(f"civilians dice={die}", role="irregulars")
    mover = "irregulars" if irregulars_move else "regulars"
    other = "regulars" if irregulars_move else "irregulars"
    with pytest.raises(Refused) as no:
        g.execute("move civ 10", role=other)
    names(no.value, "EXT-11")
    with pytest.raises(Refused) as no:
        g.execute("move civ 16", role=mover)
    names(no.value, "EXT-11")
    g.execute("move civ 15", role=mover)
    assert g.state.units["civ"].moved_cm == 15


@pytest.mark.audits("EXT-11")
def test_every_side_has_negotiation_one_at_least_for_the_civilians(tmp_path, monkeypatch):
    """Extras: Civilians: "all troops have at least a basic negotiation skill of 1": a 1
    fails, a 2 passes with no Negotiation bought."""
    units = SQUADS + unit("civ", "irregulars", "", "Civilians", kind="civilian")
    g = new_game(tmp_path, monkeypatch, units)
    g.execute("civilians dice=1", role="irregulars")
    refused(g, "@irregulars move civ 10", rule="EXT-11")
    (tmp_path / "b").mkdir()
    g2 = new_game(tmp_path / "b", monkeypatch, units)
    play(g2, "@irregulars civilians dice=2", "@irregulars move civ 10")


# ------------------------------------------------------------------- Negotiation


def _negotiating(tmp_path, monkeypatch, level=3):
    g = new_game(tmp_path, monkeypatch, SQUADS, head=extras("regulars", negotiation=level), active=None)
    play(g, "@regulars negotiate regulars", "next")
    to_activation(g, "regulars")
    return g


@pytest.mark.audits("EX-07", "EXT-12", "T-19", "DP-4")
def test_ex07_negotiation_three_accrues_fifteen_a_turn(tmp_path, monkeypatch):
    """Extras: Negotiation's example: Negotiation 3: 15 Defeat points after the first
    turn, 30 after the second."""
    g = _negotiating(tmp_path, monkeypatch)
    next_turn(g, "regulars")
    assert ledger(g, "regulars") == {"negotiation": 15}
    next_turn(g, "regulars")
    assert ledger(g, "regulars") == {"negotiation": 30}


@pytest.mark.audits("T-19", "EXT-12")
@pytest.mark.parametrize(("level", "points"), [(1, 5), (2, 10), (4, 20)])
def test_each_negotiation_level_its_points_a_turn(tmp_path, monkeypatch, level, points):
    """Extras: Negotiation Defeat Points table: 5, 10, 15, 20 a turn."""
    head = extras("regulars", negotiation=level) + ('[forces]\nregulars = "msu"\n' if level == 4 else "")
    g = new_game(tmp_path, monkeypatch, SQUADS, head=head, active=None)
    play(g, "@regulars negotiate regulars", "next")
    to_activation(g, "regulars")
    next_turn(g, "regulars")
    assert ledger(g, "regulars") == {"negotiation": points}


@pytest.mark.audits("EX-07", "EXT-12", "DP-4")
def test_ex07_the_opponent_who_fires_first_loses_the_negotiator_his_points_and_pays_fifteen(tmp_path, monkeypatch):
    """Extras: Negotiation's example: "Should they decide to fire the Italian loses all
    their Defeat pts and the Somali get 10 Defeat points (plus another 5 for first to
    fire)"."""
    g = _negotiating(tmp_path, monkeypatch)
    next_turn(g, "regulars")
    next_turn(g, "irregulars")
    assert ledger(g, "regulars") == {"negotiation": 30}
    play(g, "@irregulars fire i0 m0 range=30 aimed dice=1", "next")
    assert ledger(g, "regulars") == {}
    assert sum(ledger(g, "irregulars").values()) == 15


@pytest.mark.audits("EXT-12", "DP-4", "EX-07")
@pytest.mark.parametrize(("die", "kept"), [(3, 0), (4, 15)])
def test_at_the_end_a_die_at_or_under_the_level_cancels_the_negotiation_points(tmp_path, monkeypatch, die, kept):
    """Extras: Negotiation: "At the end of the game the Regular Player roll a d6 and if he
    rolls the same as or less than his Negotiation level he cancels the Defeat points"."""
    g = _negotiating(tmp_path, monkeypatch)
    next_turn(g, "regulars")
    g.execute(f"victory dice={die}", role=REFEREE)
    assert g.state.sides["regulars"].dp_by_category.get("negotiation", 0) == kept


@pytest.mark.audits("EXT-12")
def test_the_negotiation_card_is_played_before_the_first_initiative(tmp_path, monkeypatch):
    """Extras: Negotiation: "must be played at the start of the game, before the initiative
    is resolved"."""
    g = new_game(tmp_path, monkeypatch, SQUADS, head=extras("regulars", negotiation=3))
    refused(g, "@regulars negotiate regulars", rule="DIFF-58")


# ------------------------------------------------------------------- Infiltrators


def _member(uid: str, team: str, cls: str, *roles: str, leadership: int = 0) -> str:
    """A figure of a roster file, with an assault rifle."""
    lead = f"leadership = {leadership}\n" if leadership else ""
    kept = f"roles = {list(roles)}\n" if roles else ""
    head = f'[[units]]\nid = "{uid}"\nname = "{uid.title()}"\nteam = "{team}"\ncls = "{cls}"\n'
    return f'{head}{lead}weapons = ["AR"]\n{kept}'


TASK_FORCE = (
    'name = "Task Force"\narmy = "regular"\nforce = "special-forces"\n[extras]\ninfiltrators = true\n'
    + _member("cap", "A", "R1", "commander", leadership=1)
    + _member("scout", "B", "R1", "infiltrator")
)
CELL = (
    'name = "Cell"\narmy = "irregular"\n'
    + _member("boss", "C", "Irr3", "commander", leadership=1)
    + _member("gun", "C", "Irr3")
)


@pytest.mark.audits("EXT-1")
def test_infiltrators_deploy_after_everyone_else(tmp_path, monkeypatch):
    """Extras: Infiltrators: "The infiltration occurs during the deployment phase
    (infiltrators deploy second)": after both sides' other figures (digest AMB-57)."""
    (tmp_path / "tf.toml").write_text(TASK_FORCE)
    (tmp_path / "cell.toml").write_text(CELL)
    g = new_game(tmp_path, monkeypatch, "", head="mission = 1\npoints = 200", active=None)
    play(
        g,
        f"roster {tmp_path / 'tf.toml'} regulars",
        f"roster {tmp_path / 'cell.toml'} irregulars",
        "@regulars objectives regulars 4 2 5",
        "@irregulars objectives irregulars 3 1 5",
    )
    g.execute("rolloff dice=6,1", role=REFEREE)  # the regulars first: the militia deploy first
    refused(g, "@regulars deploy scout", rule="EXT-1")
    g.execute("deploy boss gun", role="irregulars")
    refused(g, "@regulars deploy scout", rule="EXT-1")
    play(g, "@regulars deploy cap", "@regulars deploy scout", "next")
    assert g.state.phase == "initiative"


@pytest.mark.audits("T-20", "DP-3")
def test_independent_journalists_do_not_double_the_primary_objective(tmp_path, monkeypatch):
    """Extras: Media (2): independent journalists double the Regular player's points and
    quadruple the civilians'; only the embedded ones double the primary objective: the
    militia's main lost stays 50."""
    units = SQUADS + unit("reed", "irregulars", "", "Press", kind="journalist", roles=("independent",))
    g = new_game(tmp_path, monkeypatch, units)
    g.execute("score main-objective irregulars", role=REFEREE)
    assert "= 50 defeat points" in _count(g)


@pytest.mark.audits("EXT-11")
@pytest.mark.parametrize(("die", "saved"), [(3, True), (2, False)])
def test_friendly_fire_catches_civilians_in_the_line(tmp_path, monkeypatch, die, saved):
    """Extras: Civilians: "Rules for friendly fire are applied to the civilians": a regular's
    miss past a civilian makes him save, with §8.7's +1 (4+ for civilians, digest AMB-59)."""
    units = SQUADS + unit("civ", "irregulars", "", "Civilians", kind="civilian")
    g = new_game(tmp_path, monkeypatch, units)
    shot, ff = rolls(g.execute(f"fire m0 i0 range=20 aimed line=civ dice=1,{die}", role="regulars"))
    assert (shot.outcome, ff.target, sum(m.value for m in ff.mods)) == ("miss", 4, 1)
    assert (out(g, "civ") == "") is saved


@pytest.mark.audits("EXT-8")
def test_only_special_forces_roll_intelligence_before_deployment(tmp_path, monkeypatch):
    """Extras: Intelligence: "At any time, and for the Special Forces even before
    deployment"."""
    g = _with_markers(tmp_path, monkeypatch, extras("regulars", intelligence=2))
    refused(g, "@regulars intelligence dice=1", rule="EXT-8")
    sf = tmp_path / "sf"
    sf.mkdir()
    units = unit("cap", "regulars", "R1", "Delta", lead=1, roles=("commander", "leader"))
    units += unit("op", "regulars", "R1", "Delta") + MILITIA
    g = _with_markers(sf, monkeypatch, extras("regulars", intelligence=2), units)
    (roll,) = rolls(g.execute("intelligence dice=2", role="regulars"))
    assert roll.outcome == "success"


@pytest.mark.audits("EXT-9")
@pytest.mark.parametrize(("die", "explodes"), [(1, False), (3, True)])
def test_a_remote_ied_goes_off_when_its_owner_decides_unless_one_or_two(tmp_path, monkeypatch, die, explodes):
    """Extras: Explosives: "If remotely controlled, the explosion happens when the
    controlling player decides to detonate. Here, too, the explosion will not happen with
    a roll of 1 or 2"."""
    g = _with_markers(tmp_path, monkeypatch, extras("irregulars", ied_remote=1))
    play(g, "@irregulars plant 4 remote", "next")
    to_activation(g, "regulars")
    refused(g, "@regulars ied irregulars.4 dice=6", rule="EXT-9")
    (roll,) = rolls(g.execute(f"ied irregulars.4 dice={die}", role="irregulars"))
    assert (roll.outcome != "dud") is explodes


@pytest.mark.audits("MORT-3", "EXT-5")
def test_the_mortar_called_fires_next_turn_not_this_one(with_mortars):
    """Extras: Mortars: the fire "comes next turn"."""
    play(with_mortars, "next", "@irregulars call-support mortar dice=6")
    to_activation(with_mortars, "irregulars")
    refused(with_mortars, "@irregulars mortar range=60 dice=6", rule="EXT-5")
    next_turn(with_mortars, "irregulars")
    (shot,) = rolls(with_mortars.execute("mortar range=60 dice=6", role="irregulars"))
    assert (shot.target, shot.outcome) == (5, "on target")


@pytest.mark.audits("EXT-3")
def test_boarding_the_helicopter_is_a_figures_whole_action(tmp_path, monkeypatch):
    """Extras: Helicopter evacuation: the helicopter loads stragglers; boarding it is
    getting into a vehicle (digest EXT-3, ruling BN-HELI), which §6.3 makes a complete
    move: a man who already fired this turn cannot board; a suppressed man tests first
    (§10.0: Trained 3), a fail (a 4) leaves him on the field, a pass (a 3) takes him
    aboard; a man in panic does nothing but crawl to cover."""
    units = SQUADS + unit("s", "regulars", "R4", "Alpha", status=("suppressed",))
    units += unit("p", "regulars", "R4", "Alpha", status=("suppressed",))
    g = _with_markers(tmp_path, monkeypatch, extras("regulars", helicopter=True), units)
    play(g, "@regulars helicopter 5 2", "next")
    to_activation(g, "regulars")
    next_turn(g, "regulars")
    g.execute("fire m0 i0 range=20 aimed dice=1", role="regulars")
    refused(g, "@regulars board m0", match="already", rule="EXT-3")
    g.execute("fire p i0 range=20 aimed dice=6", role="regulars")  # fails: in panic
    refused(g, "@regulars board p", match="panic", rule="SUP-4")
    (test,) = rolls(g.execute("board s dice=4", role="regulars"))
    assert test.outcome.startswith("fails") and out(g, "s") == ""
    next_turn(g, "regulars", end_dice="6")  # the helicopter waits
    (test,) = rolls(g.execute("board s m1 dice=3", role="regulars"))
    assert test.outcome == "passes"
    assert out(g, "s") and out(g, "m1")
