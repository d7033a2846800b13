"""Third held-out audit of Breaking News §14.0 and the points lists: the Defeat Points of each
loss, exfiltration and the final count, the journalists' multipliers where the earlier
rounds did not look (the primary objective doubled "in positive", independent journalists
and the objective), the negotiation of the book's example (EX-07) to its last roll, the
civilians' control roll against each Negotiation level, the army points of men, weapons and
vehicles (T-17), and the EXTRAS' costs and restrictions (T-18, T-19): Intelligence, the IED,
the helicopter's wait.  Written from the rulebook (1.5.1) and its digest alone, after the
three earlier audits and apart from them: given these faces, the book's outcome."""

from __future__ import annotations

import re

import pytest
from audit_bn_late import dp, new_game, next_turn, play, refused, table, to_activation, unit

from core.log import events as ev
from core.log.views import REFEREE

BASE = (
    unit("sgt", "regulars", "R3", "A", lead=1, roles=("commander",))
    + unit("r2", "regulars", "R3", "A")
    + unit("sf", "regulars", "R1", "S")
    + unit("boss", "irregulars", "Irr3", "C", roles=("commander",))
    + unit("m2", "irregulars", "Irr3", "C")
)


def army_points(tmp_path, monkeypatch, units: str, head: str = "") -> int:
    """The Rangers' army points, as the set-up counts them."""
    g = new_game(tmp_path, monkeypatch, units + unit("m9", "irregulars", "Irr3", "C"), head=head, active=None)
    said = [re.search(r"Rangers, (-?\d+) points", line.text) for line in g.log_lines("referee")]
    found = [int(m.group(1)) for m in said if m]
    assert found, "no points said"
    return found[0]


g = table(BASE)
small = table(BASE, "small", head="points = 300", active=None)


# §14.0 Defeat Points of the losses -------------------------------------------------------


@pytest.mark.audits("T-16", "DP-1")
@pytest.mark.parametrize(
    ("man", "side", "points"),
    [("sf", "regulars", 15), ("r2", "regulars", 10), ("m2", "irregulars", 5), ("boss", "irregulars", 10)],
)
def test_each_loss_costs_its_line(g, man, side, points):
    """§14.0: "15 points for every Special Forces member lost, 10 points for every regular
    lost, 5 points for every Irregular lost (10 if the leader)"."""
    play(g, f"out {man} killed", "next")
    assert dp(g, side) == points


@pytest.mark.audits("T-16", "VIC-1")
def test_exfiltration_costs_five_and_ends_the_game(g):
    """§14.0: the game ends "when one side leaves the battlefield"; "5 points for
    exfiltration"."""
    g.execute("exfiltrate irregulars", role=REFEREE)
    assert dp(g, "irregulars") == 5
    assert "game_over" in g.state.vars


@pytest.mark.audits("VIC-2")
def test_the_side_with_the_most_defeat_points_loses(g):
    """§14.0: "At the end of the battle the loser is the player with most Defeat Points": 10
    for the Rangers' man against 5 for the Militiaman: the Militia win."""
    play(g, "out r2 killed", "out m2 killed")
    out = g.execute("victory", role=REFEREE)
    ended = [e for e in out.events if isinstance(e, ev.GameEnded)]
    assert ended and ended[0].result.args["a"] == "Militia"


@pytest.mark.audits("VIC-2")
def test_equal_defeat_points_are_a_draw(g):
    """§14.0 names no tie; the digest (VIC-2): a draw.  10 against 5 + 5."""
    play(g, "out r2 killed", "out m2 killed", "dp irregulars 5")
    out = g.execute("victory", role=REFEREE)
    ended = [e for e in out.events if isinstance(e, ev.GameEnded)]
    assert ended and "win" not in ended[0].result.id


@pytest.mark.audits("T-16", "DP-1")
def test_a_civilian_killed_by_the_regulars_costs_them_five(tmp_path, monkeypatch):
    """§14.0: "5 points for every ... civilian killed (only for regulars against
    irregulars)"."""
    units = BASE + unit("civ", "irregulars", "", "V", kind="civilian")
    g = new_game(tmp_path, monkeypatch, units)
    play(g, "fire r2 civ range=20 aimed dice=6,1", "next")
    assert dp(g, "regulars") == 5 + 5  # the first shot and the civilian


@pytest.mark.audits("EXT-11")
def test_a_civilian_killed_by_the_irregulars_costs_nobody(tmp_path, monkeypatch):
    """Extras, Civilians: "Civilians fired at by the Irregular player don't generate any
    Defeat points": only the first shot's 5."""
    units = BASE + unit("civ", "regulars", "", "V", kind="civilian")
    g = new_game(tmp_path, monkeypatch, units, active="irregulars")
    play(g, "fire m2 civ range=20 aimed dice=6,1", "next")
    assert dp(g, "regulars") == 0 and dp(g, "irregulars") == 5


# The journalists (Extras: Media, T-20) -------------------------------------------------------


def objectives_game(tmp_path, monkeypatch, extras: str):
    units = BASE + unit("j", "regulars", "", "P", kind="journalist", roles=("embedded",))
    g = new_game(tmp_path, monkeypatch, units, head=f"mission = 2\n[extras.regulars]\n{extras}", active=None)
    play(g, "objectives regulars 4 2 5", "objectives irregulars 1 2 3", "objective-roll dice=4", "next")
    to_activation(g, "regulars")
    g.execute("next", role=REFEREE)
    return g


@pytest.mark.audits("T-20", "DP-3")
def test_embedded_journalists_double_the_main_objective_the_regulars_take(tmp_path, monkeypatch):
    """Extras, Media 1): embedded journalists "also double (positive) the points gained for
    the primary objective": the Militia's main taken costs them 100, not 50."""
    g = objectives_game(tmp_path, monkeypatch, "")
    play(g, "take 1 regulars", "victory")
    assert dp(g, "irregulars") == 100


@pytest.mark.audits("T-20", "DP-3")
def test_embedded_journalists_do_not_double_a_secondary_the_regulars_take(tmp_path, monkeypatch):
    """Extras, Media 1): only "the points gained for the primary objective" are doubled: a
    secondary taken from the Militia stays 20."""
    g = objectives_game(tmp_path, monkeypatch, "")
    play(g, "take 2 regulars", "victory")
    assert dp(g, "irregulars") == 20


@pytest.mark.audits("T-20", "DP-3")
def test_embedded_journalists_double_the_regulars_lost_main_objective(tmp_path, monkeypatch):
    """Extras, Media 1): "Double all the Defeat Points of the Regular player": their main
    lost is 100."""
    g = objectives_game(tmp_path, monkeypatch, "")
    play(g, "take 4 irregulars", "victory")
    assert dp(g, "regulars") == 100


@pytest.mark.audits("T-20", "DP-3")
def test_the_journalists_count_wherever_they_are_even_dead(tmp_path, monkeypatch):
    """Extras, Media: "whatever their position on the battlefield"; the digest (AMB-54): still
    after they fall.  The journalist killed, r2 killed: 10 doubled."""
    units = BASE + unit("j", "regulars", "", "P", kind="journalist", roles=("embedded",))
    g = new_game(tmp_path, monkeypatch, units)
    play(g, "out j killed", "out r2 killed", "victory")
    assert g.state.sides["regulars"].dp_by_category.get("casualties") == 10
    assert dp(g, "regulars") == 20


# Negotiation, the book's example (EX-07) -------------------------------------------------------

BERSAGLIERI = BASE + unit("civ", "irregulars", "", "V", kind="civilian")


def negotiating(tmp_path, monkeypatch, level: int = 3):
    g = new_game(tmp_path, monkeypatch, BERSAGLIERI, head=f"[extras.regulars]\nnegotiation = {level}", active=None)
    play(g, "negotiate regulars", "next")
    to_activation(g, "regulars")
    return g


@pytest.mark.audits("EX-07", "EXT-12", "T-19", "DP-4")
def test_the_bersaglieri_negotiation_fifteen_then_thirty(tmp_path, monkeypatch):
    """Extras, Negotiation, example: level 3 "causes 15 Defeat pts to the Italians. Same
    happens at the second turn and the points are now 30"."""
    g = negotiating(tmp_path, monkeypatch)
    play(g, "next", "next")
    assert dp(g, "regulars") == 15
    to_activation(g, "regulars")
    play(g, "next", "next")
    assert dp(g, "regulars") == 30


@pytest.mark.audits("EX-07", "EXT-12", "DP-4")
def test_the_somali_who_fire_first_take_ten_and_five(tmp_path, monkeypatch):
    """Example: "Should they decide to fire the Italian loses all their Defeat pts and the
    Somali get 10 Defeat points (plus another 5 for first to fire)"."""
    g = negotiating(tmp_path, monkeypatch)
    next_turn(g, "irregulars")
    play(g, "next", "next")
    to_activation(g, "irregulars")
    assert dp(g, "regulars") == 30
    play(g, "fire m2 r2 range=30 aimed dice=1", "next")
    assert dp(g, "regulars") == 0
    assert dp(g, "irregulars") == 15


@pytest.mark.audits("EX-07", "EXT-12", "T-21")
@pytest.mark.parametrize(("face", "kept"), [(3, 0), (4, 15)])
def test_the_last_roll_cancels_the_negotiation_at_or_under_the_level(tmp_path, monkeypatch, face, kept):
    """Extras, Negotiation: "At the end of the game the Regular Player roll a d6 and if he
    rolls the same as or less than his Negotiation level he cancels the Defeat points"."""
    g = negotiating(tmp_path, monkeypatch)
    play(g, "next", "next")
    to_activation(g, "regulars")
    g.execute(f"victory dice={face}", role=REFEREE)
    assert dp(g, "regulars") == kept


@pytest.mark.audits("EXT-11", "T-21", "EXT-12")
@pytest.mark.parametrize(
    ("level", "face", "mover"), [(1, 1, "regulars"), (1, 2, "irregulars"), (3, 3, "regulars"), (3, 4, "irregulars")]
)
def test_the_civilians_move_for_the_irregulars_above_the_negotiation_level(tmp_path, monkeypatch, level, face, mover):
    """Extras, Civilians: the Irregular player "must roll a d6 and get a number higher than the
    negotiation skill of the opponent (note that all troops have at least a basic negotiation
    skill of 1). If the test is failed the civilians are moved in that turn by the Regular
    player"."""
    head = f"[extras.regulars]\nnegotiation = {level}" if level > 1 else ""
    g = new_game(tmp_path, monkeypatch, BERSAGLIERI, head=head, active="irregulars")
    g.execute(f"civilians dice={face}", role=REFEREE)
    assert g.state.vars["civilians.control"] == mover


# Army points (T-17) and the EXTRAS (T-18, T-19) ----------------------------------------------


@pytest.mark.audits("T-17", "PTS-1", "PTS-2", "PTS-3", "T-02")
@pytest.mark.parametrize(
    ("man", "points"),
    [
        (unit("x", "regulars", "R1", "A"), 20),
        (unit("x", "regulars", "R2", "A"), 15),
        (unit("x", "regulars", "R3", "A"), 12),
        (unit("x", "regulars", "R4", "A"), 10),
        (unit("x", "regulars", "R5", "A"), 7),
        (unit("x", "regulars", "R4", "A", lead=3, roles=("commander",)), 25),
        (unit("x", "regulars", "R3", "A", weapons=("SNIPER",), roles=("sniper",)), 27),
        (unit("x", "regulars", "R3", "A", weapons=("RPG",)), 19),
        (unit("x", "regulars", "R3", "A", weapons=("ATH",)), 27),
        (unit("x", "regulars", "R3", "A", weapons=("GL",)), 17),
        (unit("x", "regulars", "R3", "A", weapons=("LMG",)), 17),
        (unit("x", "regulars", "R3", "A", weapons=("MMG",)), 19),
        (unit("x", "regulars", "R3", "A", weapons=("HMG",)), 22),
        (unit("x", "regulars", "R1", "A", roles=("medic",)), 10),
        (unit("x", "regulars", "unprotected", "V", kind="vehicle", weapons=("LMG",)), 15),
        (unit("x", "regulars", "protected", "V", kind="vehicle", weapons=("HMG",)), 25),
        (unit("x", "regulars", "light", "V", kind="vehicle", weapons=("MMG",)), 32),
        (unit("x", "regulars", "tank", "V", kind="vehicle", weapons=("TANKGUN", "HMG")), 50),
    ],
)
def test_the_price_of_each_man_weapon_and_vehicle(tmp_path, monkeypatch, man, points):
    """Calculating points: a man with an AR by class (Trained 10, the digest's DIFF-50), the
    leadership's 5 a level, each weapon added, the medic's 10, a vehicle's base and its MG,
    a tank's 50 with its gun and MG."""
    assert army_points(tmp_path, monkeypatch, man) == points


@pytest.mark.audits("T-17", "PTS-1")
@pytest.mark.parametrize(("cls", "points"), [("Irr1", 11), ("Irr2", 8), ("Irr3", 5)])
def test_the_price_of_each_irregular(tmp_path, monkeypatch, cls, points):
    """Calculating points: "Mercenaries/Commando Terrorist/Veteran Militia 11 points, Fanatics
    8 points, Militia 5 points"."""
    g = new_game(
        tmp_path, monkeypatch, unit("x", "irregulars", cls, "C") + unit("r", "regulars", "R4", "A"), active=None
    )
    said = [re.search(r"Militia, (-?\d+) points", line.text) for line in g.log_lines("referee")]
    assert [int(m.group(1)) for m in said if m][0] == points


@pytest.mark.audits("T-18", "PTS-4", "EXT-7", "EXT-10")
@pytest.mark.parametrize(
    ("extras", "points"),
    [
        ("rules_of_engagement = true", 10 - 40),
        ("ambush = 1", 10 + 25),
        ("helicopter = true", 10 + 25),
        ("improved_support_fire = true", 10 + 15),
        ("intelligence = 2", 10 + 20),
        ("negotiation = 2", 10 + 5),
        ("negotiation = 3", 10 + 10),
    ],
)
def test_the_price_of_each_extra(tmp_path, monkeypatch, extras, points):
    """Extras: Ambush 25, Helicopter 25, Improved Support Fire 15, Rules of Engagement −40,
    Intelligence 10 a level, Negotiation 2 for 5 and 3 for 10; a Trained man is 10."""
    man = unit("x", "regulars", "R4", "A")
    assert army_points(tmp_path, monkeypatch, man, head=f"[extras.regulars]\n{extras}") == points


@pytest.mark.audits("T-18", "T-20", "PTS-4")
def test_embedded_journalists_give_twenty_points_back(tmp_path, monkeypatch):
    """Extras, Media 1): embedded journalists "Cost -20 points"."""
    man = unit("x", "regulars", "R4", "A") + unit("j", "regulars", "", "P", kind="journalist", roles=("embedded",))
    assert army_points(tmp_path, monkeypatch, man) == 10 - 20


@pytest.mark.audits("T-18", "PTS-5", "EXT-4", "EXT-7")
def test_improved_support_fire_is_refused_with_rules_of_engagement(small):
    """Extras, Rules of Engagement 2): "with rules of Engagement you cannot have Improved
    Support Fire"."""
    small.execute("buy regulars rules_of_engagement", role=REFEREE)
    refused(small, "buy regulars improved_support_fire", rule="PTS-5")


@pytest.mark.audits("T-18", "PTS-5", "EXT-1", "EXT-8")
@pytest.mark.parametrize("extra", ["infiltrators", "intelligence 4"])
def test_infiltrators_and_intelligence_four_are_special_forces_only(small, extra):
    """Extras: Infiltrators "Only Special Forces"; Intelligence "Only Special Forces can buy
    Level 4"."""
    refused(small, f"buy regulars {extra}", rule="PTS-5")


@pytest.mark.audits("T-18", "T-19", "PTS-5")
def test_negotiation_four_is_for_the_msu_and_costs_twenty(tmp_path, monkeypatch):
    """Extras, Negotiation: "only MSU and Secret Services can have level 4"; "Negotiation 4 –
    (costs 20pts)"."""
    g = new_game(tmp_path, monkeypatch, BASE, head="points = 300", active=None)
    refused(g, "buy regulars negotiation 4", rule="PTS-5")
    man = unit("x", "regulars", "R4", "A")
    (tmp_path / "msu").mkdir()
    head = '[forces]\nregulars = "msu"\n[extras.regulars]\nnegotiation = 4'
    assert army_points(tmp_path / "msu", monkeypatch, man, head=head) == 10 + 20


@pytest.mark.audits("T-18", "PTS-5", "EXT-9")
def test_explosives_are_the_irregulars_and_cost_twenty_or_thirty(small):
    """Extras, Explosives: "Only allowed for some Irregulars"; "20 points or 30 points if
    remotely controlled"."""
    refused(small, "buy regulars ied", rule="PTS-5")
    play(small, "buy irregulars ied", "buy irregulars ied_remote")
    said = " ".join(line.text for line in small.log_lines("referee"))
    assert "for 20 points" in said and "for 30 points" in said


# Intelligence, the IED, the helicopter ---------------------------------------------------------


@pytest.mark.audits("EXT-8", "T-21")
@pytest.mark.parametrize(("face", "shown"), [(2, True), (3, False)])
def test_intelligence_passes_at_or_under_its_level(tmp_path, monkeypatch, face, shown):
    """Extras, Intelligence: "passed if you roll a number that is equal to or less than the
    Level": level 2."""
    g = new_game(tmp_path, monkeypatch, BASE, head="mission = 2\n[extras.regulars]\nintelligence = 2", active=None)
    play(g, "objectives regulars 4 2 5", "objectives irregulars 1 2 3", "objective-roll dice=4", "next")
    to_activation(g, "regulars")
    out = g.execute(f"intelligence regulars dice={face}", role=REFEREE)
    revealed = [e for e in out.events if isinstance(e, ev.Revealed)]
    assert bool(revealed) is shown


@pytest.mark.audits("EXT-8")
def test_one_intelligence_roll_a_game(tmp_path, monkeypatch):
    """Extras, Intelligence: "(only one per game)": a failed roll is not tried again."""
    g = new_game(tmp_path, monkeypatch, BASE, head="mission = 2\n[extras.regulars]\nintelligence = 2", active=None)
    play(g, "objectives regulars 4 2 5", "objectives irregulars 1 2 3", "objective-roll dice=4", "next")
    to_activation(g, "regulars")
    g.execute("intelligence regulars dice=6", role=REFEREE)
    refused(g, "intelligence regulars dice=1", rule="EXT-8")


@pytest.mark.audits("EXT-8")
def test_counter_intelligence_lowers_the_enemys_roll(tmp_path, monkeypatch):
    """Extras, Intelligence: it "can also be used like counter-intelligence as a penalty to the
    opponent's Intelligence Roll"; the digest (EXT-8): his level less yours.  Level 3 against
    the Militia's level 1: a 3 fails, a 2 passes."""
    head = "mission = 2\n[extras.regulars]\nintelligence = 3\n[extras.irregulars]\nintelligence = 1"
    g = new_game(tmp_path, monkeypatch, BASE, head=head, active=None)
    play(g, "objectives regulars 4 2 5", "objectives irregulars 1 2 3", "objective-roll dice=4", "next")
    to_activation(g, "regulars")
    out = g.execute("intelligence regulars dice=3", role=REFEREE)
    assert not [e for e in out.events if isinstance(e, ev.Revealed)]


@pytest.mark.audits("EXT-9", "T-21")
@pytest.mark.parametrize(("face", "explodes"), [(2, False), (3, True)])
def test_an_ied_is_a_dud_on_one_or_two(tmp_path, monkeypatch, face, explodes):
    """Extras, Explosives: "there is an explosion ... if you don't roll a 1 or 2 on 1d6"."""
    g = new_game(tmp_path, monkeypatch, BASE, head="mission = 2\n[extras.irregulars]\nied = 1", active=None)
    play(
        g,
        "objectives regulars 4 2 5",
        "objectives irregulars 1 2 3",
        "objective-roll dice=4",
        "plant 4 side=irregulars",
        "next",
    )
    to_activation(g, "regulars")
    out = g.execute(f"ied 4 dice={face}", role=REFEREE)
    text = " ".join(str(e.roll.outcome) for e in out.events if isinstance(e, ev.Rolled))
    assert ("dud" in text or "fail" in text) is not explodes


@pytest.mark.audits("EXT-9")
def test_a_dud_ied_cannot_be_tried_again(tmp_path, monkeypatch):
    """Extras, Explosives: "If the charge fails to explode you cannot try again"."""
    g = new_game(tmp_path, monkeypatch, BASE, head="mission = 2\n[extras.irregulars]\nied_remote = 1", active=None)
    play(
        g,
        "objectives regulars 4 2 5",
        "objectives irregulars 1 2 3",
        "objective-roll dice=4",
        "plant 4 remote side=irregulars",
        "next",
    )
    to_activation(g, "regulars")
    g.execute("ied 4 dice=1", role=REFEREE)
    refused(g, "ied 4 dice=6", rule="EXT-9")


@pytest.mark.audits("EXT-9", "SAVE-6", "T-13")
def test_every_class_saves_at_three_against_an_ied(g):
    """§9.1 and Extras, Explosives: "All models in the template must perform a Saving Throw",
    at 3+ whatever the class: the Special Forces' 2+ and a Militiaman's 5+ alike."""
    out = g.execute("blast sf m2 source=ied by=irregulars dice=3,3", role=REFEREE)
    saves = {e.unit: e.roll.check.face for e in out.events if isinstance(e, ev.Rolled)}
    assert saves == {"sf": 3, "m2": 3}


@pytest.mark.audits("EXT-12", "DP-4")
def test_a_breach_of_the_15_cm_breaks_the_negotiation(tmp_path, monkeypatch):
    """Extras, Negotiation: "Accepting negotiation also means you must stay at least 15cm from
    the enemy"; the digest (AMB-58): a breach ends it as a shot would: the Italians' 15 go,
    the Somali take 10."""
    g = negotiating(tmp_path, monkeypatch)
    next_turn(g, "irregulars")
    assert dp(g, "regulars") == 15
    g.execute("negotiate regulars breach", role=REFEREE)
    assert dp(g, "regulars") == 0
    assert dp(g, "irregulars") >= 10


@pytest.mark.audits("EXT-12", "FIRE-15")
def test_a_negotiator_who_fires_first_keeps_his_points_and_pays_the_first_shot(tmp_path, monkeypatch):
    """The digest (AMB-58): if the negotiator fires first he keeps his accumulated points,
    pays the usual 5 for the first shot, and the negotiation ends: no more 15 a turn."""
    g = negotiating(tmp_path, monkeypatch)
    next_turn(g, "regulars")
    play(g, "fire r2 m2 range=30 aimed dice=1", "next")
    assert dp(g, "regulars") == 15 + 5
    g.execute("next", role=REFEREE)
    assert dp(g, "regulars") == 20


@pytest.mark.audits("EXT-11", "T-04")
def test_civilians_move_15_cm_and_no_more(tmp_path, monkeypatch):
    """Extras, Civilians: they "can be moved up to 15m per turn" (the digest: 15 cm, the "m"
    a slip)."""
    g = new_game(tmp_path, monkeypatch, BERSAGLIERI, active="irregulars")
    g.execute("civilians dice=6", role=REFEREE)
    refused(g, "move civ 15.5", rule="EXT-11")
    out = g.execute("move civ 15", role=REFEREE)
    assert [e.cm for e in out.events if isinstance(e, ev.Moved)] == [15]


@pytest.mark.audits("EXT-10", "T-04")
def test_an_independent_journalist_moves_two_dice(tmp_path, monkeypatch):
    """Extras, Media: independent journalists are moved by the Irregular player, "that move
    2d6": a 3 and a 4 are 7 cm."""
    units = BASE + unit("press", "irregulars", "", "P", kind="journalist", roles=("independent",))
    g = new_game(tmp_path, monkeypatch, units, active="irregulars")
    out = g.execute("press press dice=3,4", role=REFEREE)
    assert [e.cm for e in out.events if isinstance(e, ev.Moved)] == [7]


@pytest.mark.audits("EXT-10", "T-16")
def test_a_captured_journalist_costs_the_regulars_thirty(tmp_path, monkeypatch):
    """§14.0: "30 points for every journalist captured (only by irregulars)"; Media: "Both types
    can be captured by Irregulars if they are contacted by them"."""
    units = BASE + unit("emb", "regulars", "", "P", kind="journalist", roles=("embedded",))
    g = new_game(tmp_path, monkeypatch, units, active="irregulars")
    g.execute("capture emb", role=REFEREE)
    assert g.state.sides["regulars"].dp_by_category.get("journalists") == 30


def helicopter_game(tmp_path, monkeypatch):
    units = BASE + unit("r9", "regulars", "R3", "A")
    head = "mission = 2\n[extras.regulars]\nhelicopter = true"
    g = new_game(tmp_path, monkeypatch, units, head=head, active=None)
    play(
        g,
        "objectives regulars 4 2 5",
        "objectives irregulars 1 2 3",
        "objective-roll dice=4",
        "helicopter 2 1 side=regulars",
        "next",
    )
    to_activation(g, "regulars")
    return g


@pytest.mark.audits("EXT-3", "T-21")
def test_the_helicopter_leaves_for_good_on_a_one(tmp_path, monkeypatch):
    """Extras, Helicopter evacuation: "Helicopters can wait to load stragglers every turn by
    rolling 1d6. A roll of 1 means the helicopter must leave the area and cannot be called
    back": after its waiting roll of 1, nobody boards."""
    g = helicopter_game(tmp_path, monkeypatch)
    play(g, "next", "next dice=1")
    to_activation(g, "regulars")
    refused(g, "board r9", rule="EXT-3")


@pytest.mark.audits("EXT-3", "T-21")
def test_the_helicopter_waits_on_a_two(tmp_path, monkeypatch):
    """Extras, Helicopter evacuation: any roll but a 1 and it waits another turn: r9 boards
    in turn 2."""
    g = helicopter_game(tmp_path, monkeypatch)
    play(g, "next", "next dice=2")
    to_activation(g, "regulars")
    g.execute("board r9", role=REFEREE)
    assert g.state.units["r9"].out


@pytest.mark.audits("ART-3")
def test_the_bombardments_drift_is_four_dice_and_said_so(tmp_path, monkeypatch):
    """§8.4: the bombed player "rolls 4d6" and moves the template that far: the start of the
    turn asks four dice, and the dice ``next`` lists in order (the table-dice prompt, the
    help) say 4d6, not 2d6."""
    from core.dice.faces import NeedDice
    from core.rulesets.breaking_news import BreakingNews

    g = new_game(tmp_path, monkeypatch, BASE, active=None)
    play(g, "next", "call-support dice=5 side=regulars")
    to_activation(g, "regulars")
    play(g, "next", "next")
    with pytest.raises(NeedDice) as asked:
        g.execute("next dice=1,1", role=REFEREE)
    assert "4d6" in str(asked.value)
    assert "its drift, 4d6" in " ".join(BreakingNews.next_dice)
