"""Held-out audit of Breaking News played as its Italian draft of 9 December 2009
(``variant = "it-2009-12-09"``), written from that draft (`breaking-news-2009-12-09-it.md`)
and the digest's list of differences alone: each case where the draft reads otherwise than
the English 1.5.1, played both ways where the English outcome differs.  Given these faces,
the draft's outcome."""

from __future__ import annotations

import pytest
from audit_bn_early import allowed, play, refused, rolls, status
from audit_bn_early import new_game as new_table
from audit_bn_late import extras, ledger, new_game, next_turn, out, to_activation, unit
from audit_bn_late import rolls as late_rolls

from core.log.views import REFEREE
from core.rulesets.breaking_news.campaign import army
from core.rulesets.breaking_news.campaign.army import Roster, RosterExtras, RosterUnit, validate_roster

IT = "it-2009-12-09"

SQUADS = (
    unit("sgt", "regulars", "R4", "Alpha", lead=1, roles=("commander", "leader"))
    + "".join(unit(f"m{i}", "regulars", "R4", "Alpha") for i in range(5))
    + unit("boss", "irregulars", "Irr3", "Cell", lead=1, roles=("commander", "leader"))
    + "".join(unit(f"i{i}", "irregulars", "Irr3", "Cell") for i in range(3))
)


# ------------------------------------------------------------------------ §9.1


@pytest.mark.audits("SAVE-6", "T-13", "VSAVE-1")
@pytest.mark.parametrize(("variant", "survives"), [("", False), (IT, True)])
def test_a_tanks_crew_saves_at_two_in_the_italian_draft(tmp_path, monkeypatch, variant, survives):
    """§9.1: the men inside a vehicle that explodes test at 3+, or 2+ inside a heavily-armoured
    vehicle — "o Tank" in the Italian draft only.  A tank's front fails its 4+ against a
    tank gun by 3 (a 1) and explodes; the crewman's 2 saves only in the Italian draft.  The
    Regulars' commander (BN-ONE-COMMANDER) is another man, out of the blast: a leader inside
    would save +1 (§9.0), not the point here."""
    units = unit("t", "regulars", "tank", "Motor", kind="vehicle", weapons=("TANKGUN", "HMG"))
    units += unit("lt", "regulars", "R4", "HQ", roles=("commander", "leader"))
    units += unit("crew", "regulars", "R4", "Alpha") + unit("boss", "irregulars", "Irr1", "Cell")
    g = new_game(tmp_path, monkeypatch, units, variant=variant)
    g.execute("embark crew t", role="regulars")
    late_rolls(g.execute("blast t source=tank by=irregulars dice=1,2", role=REFEREE))
    assert out(g, "t")
    assert (not out(g, "crew")) is survives


# ------------------------------------------------------------------------ §10.0


@pytest.mark.audits("SUP-2", "SPOT-4")
@pytest.mark.parametrize(("variant", "may"), [("", True), (IT, False)])
def test_a_suppressed_man_may_not_even_sight_in_the_italian_draft(tmp_path, variant, may):
    """§10.0: "Le figure soppresse non possono reagire" (cannot react), and §5.0 3) lists
    sighting among the reactions; the English draft forbids only reacting "by
    opportunity".  A suppressed Veteran of the reacting side tries to sight a hidden man."""
    g = new_table(tmp_path, active="irregulars", variant=variant)
    g.execute("mark vet suppressed", role=REFEREE)
    if may:
        (r,) = rolls(g.execute("spot vet ghost range=20 dice=3", role=REFEREE))
        assert r.need == 3 and g.state.units["ghost"].spotted_by
    else:
        refused(g, "spot vet ghost range=20 dice=3", rule="SUP-2")
        assert not g.state.units["ghost"].spotted_by


# ------------------------------------------------------------------------ §12.0


@pytest.mark.audits("MOR-3", "WND-1")
@pytest.mark.parametrize(("variant", "passed"), [("", True), (IT, False)])
def test_a_badly_wounded_commander_counts_two_in_the_italian_draft(tmp_path, monkeypatch, variant, passed):
    """§12.0: the English draft counts the Team leader twice "if ... killed"; the Italian
    counts "la perdita del comandante" twice, and a loss is "dead or non-stabilised
    wounded".  The commander is put out and survives his wound roll (a 4): one loss in
    English (three 1s pass), two in Italian (three 1s fail)."""
    g = new_game(tmp_path, monkeypatch, SQUADS, options=("wounded",), variant=variant)
    g.execute("blast sgt source=grenade by=irregulars dice=1,4", role=REFEREE)
    assert out(g, "sgt").startswith("wounded")
    play(g, "next", "dp irregulars 100")
    (roll,) = late_rolls(g.execute("morale regulars dice=1,1,1", role="regulars"))
    assert (roll.target, roll.outcome == "passed") == (1 if passed else 2, passed)


@pytest.mark.audits("MOR-4", "MOR-3")
@pytest.mark.parametrize(("lost", "passed"), [(5, True), (6, False)])
def test_the_italian_six_passes_only_with_half_the_men_present(tmp_path, monkeypatch, lost, passed):
    """§12.0 [IT]: a 6 always passes "ma solo se sono presenti almeno il 50% degli
    effettivi".  Twelve Trained men with their commander among them: the commander and 5
    more lost are losses of 7 (the commander twice) with 6 of 12 present, half: 6, 1, 1
    passes; the commander and 6 more, losses 8 with 5 present: the 6 is a plain 6, under 8."""
    units = unit("sgt", "regulars", "R4", "Alpha", lead=1, roles=("commander", "leader"))
    units += "".join(unit(f"m{i}", "regulars", "R4", "Alpha") for i in range(11))
    units += unit("boss", "irregulars", "Irr3", "Cell", lead=1, roles=("commander", "leader"))
    g = new_game(tmp_path, monkeypatch, units, variant=IT)
    for who in ("sgt", *(f"m{i}" for i in range(lost))):
        g.execute(f"out {who} killed by irregulars", role=REFEREE)
    play(g, "next", "dp irregulars 500")
    (roll,) = late_rolls(g.execute("morale regulars dice=6,1,1", role="regulars"))
    assert (roll.target, roll.outcome == "passed") == (lost + 2, passed)


# ------------------------------------------------------------------------ §14.0, Extras


def _negotiating_it(tmp_path, monkeypatch, side="regulars", level=3, variant=IT):
    g = new_game(tmp_path, monkeypatch, SQUADS, head=extras(side, negotiation=level), variant=variant)
    g.execute(f"negotiate {side}", role=side)
    return g


@pytest.mark.audits("EXT-12", "DP-4", "FIRE-15")
def test_the_italian_breaker_of_a_negotiation_pays_ten_not_fifteen(tmp_path, monkeypatch):
    """Extras: Negotiation [IT]: if the opponent fires first he "perde i punti fino a quel
    momento acquisiti e paga 10 punti sconfitta addizionali"; §14.0 [IT] gives the 5 for
    firing first "salvo ... negoziazione".  The Regulars' 15 after turn 1 are struck off,
    and the Militia who fire first take 10."""
    g = _negotiating_it(tmp_path, monkeypatch)
    next_turn(g, "irregulars")
    assert ledger(g, "regulars") == {"negotiation": 15}
    play(g, "@irregulars fire i0 m0 range=30 aimed dice=1", "next")
    assert ledger(g, "regulars") == {}
    assert sum(ledger(g, "irregulars").values()) == 10


@pytest.mark.audits("EXT-12", "T-19")
@pytest.mark.parametrize(("variant", "may"), [("", False), (IT, True)])
def test_in_the_italian_draft_the_irregulars_may_negotiate(tmp_path, monkeypatch, variant, may):
    """Extras: Negotiation: "All Regular troops have a basic value of 1" [EN]; "Tutti le
    squadre hanno di base negoziazione 1" [IT], and "il giocatore accumula punti sconfitta":
    in the Italian draft the Militia may negotiate, at Negotiation 2 10 points a turn."""
    head = extras("irregulars", negotiation=2)
    g = new_game(tmp_path, monkeypatch, SQUADS, head=head, variant=variant, active=None)
    if not may:
        refused(g, "@irregulars negotiate irregulars", rule="EXT-12")
        return
    g.execute("next", role=REFEREE)
    to_activation(g, "regulars")
    g.execute("negotiate irregulars", role="irregulars")
    next_turn(g, "regulars")
    assert ledger(g, "irregulars") == {"negotiation": 10}


@pytest.mark.audits("EXT-12")
@pytest.mark.parametrize(("variant", "turn", "may"), [("", 1, False), (IT, 1, True), (IT, 2, False)])
def test_the_italian_negotiation_card_is_played_in_the_first_turn(tmp_path, monkeypatch, variant, turn, may):
    """Extras: Negotiation: [EN] "at the start of the game, before the initiative is
    resolved"; [IT] "al primo turno, a prescindere da chi ha l'iniziativa": once the first
    turn's initiative is won, only the Italian draft still lets it be played, and not in
    the second turn."""
    g = new_game(tmp_path, monkeypatch, SQUADS, head=extras("regulars", negotiation=2), variant=variant)
    if turn == 2:
        next_turn(g, "regulars")
    if may:
        g.execute("negotiate regulars", role="regulars")
        next_turn(g, "regulars")
        assert ledger(g, "regulars") == {"negotiation": 10}
    else:
        refused(g, "@regulars negotiate regulars", rule="DIFF-58")


@pytest.mark.audits("T-16", "DP-1")
@pytest.mark.parametrize(("variant", "points"), [("", 0), (IT, 5)])
def test_a_civilian_hit_but_saved_scores_only_in_the_italian_draft(tmp_path, monkeypatch, variant, points):
    """§14.0: 5 "for every civilian killed" [EN], "per ogni civile colpito" [IT] (hit).  A
    Regular's shot hits a civilian, who saves (4+, a 6): no points in English, 5 in Italian."""
    units = SQUADS + unit("civ", "irregulars", "", "Civilians", kind="civilian")
    g = new_game(tmp_path, monkeypatch, units, variant=variant)
    g.execute("fire m0 civ range=20 aimed dice=6,6", role="regulars")
    assert not out(g, "civ")
    g.execute("next", role=REFEREE)
    assert ledger(g, "regulars").get("civilians", 0) == points


@pytest.mark.audits("FIRE-15", "DP-2", "EXT-7")
def test_the_italian_rules_of_engagement_first_shot_costs_thirty(tmp_path, monkeypatch):
    """Extras: Rules of Engagement [IT] 1): "se lo fa accumula 25 punti sconfitta (oltre agli
    standard 5 punti)": 30 for the first shot, though §14.0's 5 says "salvo regole
    d'ingaggio" (ruling BN-DP-FIRST)."""
    g = new_game(tmp_path, monkeypatch, SQUADS, head=extras("regulars", rules_of_engagement=True), variant=IT)
    play(g, "@regulars fire m0 i0 range=30 aimed dice=1", "next")
    assert ledger(g, "regulars") == {"first-fire": 30}


@pytest.mark.audits("FF-1", "T-16")
@pytest.mark.parametrize(("face", "killed"), [(3, False), (2, True)])
def test_an_italian_regulars_miss_puts_a_civilian_in_the_line_at_risk(tmp_path, monkeypatch, face, killed):
    """§8.7, Civilians [IT]: friendly fire applies to civilians "se questo proviene dalle
    forze regolari".  A Regular misses; the civilian in the line saves at 4+ with the +1 of
    friendly fire: a 3 saves, a 2 kills him.  Either way he was hit by the Regulars' fire
    ("civili colpiti"): 5."""
    units = SQUADS + unit("civ", "irregulars", "", "Civilians", kind="civilian")
    g = new_game(tmp_path, monkeypatch, units, variant=IT)
    g.execute(f"fire m0 i0 range=30 aimed line=civ dice=1,{face}", role="regulars")
    assert bool(out(g, "civ")) is killed
    g.execute("next", role=REFEREE)
    assert ledger(g, "regulars").get("civilians", 0) == 5


# ------------------------------------------------------------------------ §8.0, §8.0.3, §8.3


@pytest.mark.audits("T-08", "FIRE-2")
@pytest.mark.parametrize(("variant", "need"), [("", 5), (IT, 4)])
def test_the_italian_milan_needs_four_just_past_25_cm(tmp_path, variant, need):
    """§8.0: "Heavy anti tank (Milan etc)" 4/5/6/6 [EN]; "Milan e simili" 4/4/5/6 [IT]: at
    25.5 cm, the second column, 5 or 4."""
    g = new_table(tmp_path, variant=variant)
    (r,) = [
        x for x in rolls(g.execute("fire milan techie range=25.5 dice=1", role=REFEREE)) if x.purpose.startswith("fire")
    ]
    assert r.need == need


@pytest.mark.audits("FIRE-12")
def test_an_italian_ar_burst_of_three_alike_is_reloaded_then_fires_single_shots(tmp_path):
    """§8.0.3 [IT] (optional): an AR firing a burst that rolls three equal dice has nearly
    run out: its magazine is changed (two equal dice are already a change), which is "one
    entire action", and it then fires single shots only."""
    g = new_table(tmp_path, variant=IT, options=("ammo",))
    play(g, "fire vet irr1 range=20 burst dice=2,2,2", "next", "next", "next dice=6,6,1,1")
    refused(g, "fire vet irr1 range=20 aimed dice=1", rule="FIRE-12")
    play(g, "reload vet", "next", "next", "next dice=6,6,1,1")
    refused(g, "fire vet irr1 range=20 burst dice=1,1,1", rule="FIRE-12")
    (r,) = [
        x for x in rolls(g.execute("fire vet irr1 range=20 aimed dice=2", role=REFEREE)) if x.purpose.startswith("fire")
    ]
    assert r.need == 3


@pytest.mark.audits("COV-5", "MOV-6")
@pytest.mark.parametrize(("faces", "dodges"), [("2,3", False), ("3,3", True)])
def test_an_italian_dodge_under_covering_fire_takes_the_test_first(tmp_path, faces, dodges):
    """§8.3 [IT]: "Il nemico che decidesse di sparare di opportunità o muovere in fase di
    reazione" under covering fire rolls 2d6: a Veteran's AR 20 cm off covers for 3 + 2 = 5;
    a Militiaman dodging rolls 5, not over 5: one hit before he moves (his save fails on a
    1); a 6 is over and he dodges."""
    g = new_table(tmp_path, variant=IT)
    play(g, "covering vet area=yard range=20", "move trained 10 shoot")
    g.execute(f"react-dodge irr3 3 area=yard dice={faces}" + ("" if dodges else ",1"), role=REFEREE)
    assert ("dodging" in status(g, "irr3")) is dodges


# ------------------------------------------------------------------------ points


def _force(*units: RosterUnit, armed="regular", **kw) -> Roster:
    boss = RosterUnit(
        id="boss", name="boss", cls="R3" if armed == "regular" else "Irr1", weapons=("AR",), roles=("commander",)
    )
    return Roster(name="t", army=armed, units=(boss, *units), **kw)


@pytest.mark.audits("T-19", "T-18", "PTS-4")
@pytest.mark.parametrize(("variant", "price"), [("", 20), (IT, 15)])
def test_negotiation_four_costs_fifteen_in_the_italian_draft(variant, price):
    """Negotiation table: level 4 "costs 20pts" [EN], "costo 15 pti" [IT] (MSU only)."""
    bare = _force(force="msu")
    bought = _force(force="msu", extras=RosterExtras(negotiation=4))
    assert validate_roster(bought, 0, variant) == []
    assert army.total_cost(bought, variant) - army.total_cost(bare, variant) == price


@pytest.mark.audits("T-18", "EXT-6", "PTS-4")
@pytest.mark.parametrize(("variant", "legal"), [("", False), (IT, True)])
def test_motivation_for_a_platoon_costs_thirty_in_the_italian_draft(variant, legal):
    """Extras: Motivation: "15 points (per squad)" [EN]; "15 punti per squadra o 30 punti per
    plotone" [IT]: a platoon of three squads buys it whole for 30 in the Italian draft."""
    men = tuple(
        RosterUnit(id=f"{s}{i}", name=f"{s}{i}", team=s, cls="R4", weapons=("AR",)) for s in "abc" for i in range(2)
    )
    bare = _force(*men, platoon=True)
    bought = _force(*men, platoon=True, extras=RosterExtras(motivation_platoon=True))
    assert (validate_roster(bought, 0, variant) == []) is legal
    if legal:
        assert army.total_cost(bought, variant) - army.total_cost(bare, variant) == 30


@pytest.mark.audits("T-17", "PTS-1")
@pytest.mark.parametrize(("variant", "list_cls", "legal"), [("", "R4", True), (IT, "R4", False), (IT, "R3", True)])
def test_the_italian_draft_moves_a_class_one_level_at_most(variant, list_cls, legal):
    """Calculating points, NOTE: quality may be raised or lowered on the lists [EN]; "di un
    livello" [IT].  A man the list makes Trained (R4) fielded as Elite (R2) is two levels up:
    refused in the Italian draft; from Veteran (R3) it is one.  He costs the Elite's 15."""
    m = RosterUnit(id="m", name="m", cls="R2", list_cls=list_cls, weapons=("AR",))
    assert (validate_roster(_force(m), 0, variant) == []) is legal
    assert army.total_cost(_force(m), variant) - army.total_cost(_force(), variant) == 15


@pytest.mark.audits("OBJ-2", "OBJ-6")
@pytest.mark.parametrize("marker", [4, 2, 3])
def test_an_italian_six_leaves_the_militia_nothing_to_take(tmp_path, marker):
    """§4.1 mission 2 [IT]: "Con un lancio di 6 gli Irregolari non hanno obiettivi primari da
    prendere" — marker 4, the main, becomes a fake; and §14.0 [IT] pays only for "perdita
    obiettivo da difendere", 50, with no line for a secondary: whichever Regular marker the
    Militia take, the main, a secondary or a fake, costs nothing."""
    men = (
        ("cmd", "regulars", "Alpha", "R3", "AR", "commander", "", 2),
        ("r1", "regulars", "Alpha", "R3", "AR", "", ""),
        ("chief", "irregulars", "Cell", "Irr3", "AR", "commander", "", 1),
        ("m1", "irregulars", "Cell", "Irr3", "AR", "", ""),
    )
    g = new_table(tmp_path, stop="deployment", men=men, variant=IT)
    play(
        g,
        "mission 2",
        "@regulars objectives regulars 4 2 5",
        "@irregulars objectives irregulars 3 1 5",
        "@irregulars objective-roll dice=6",
        "next",
        "next dice=6,6,1,1",
        "next",
    )
    before = g.state.sides["regulars"].defeat_points
    g.execute(f"take {marker} irregulars", role=REFEREE)
    assert g.state.sides["regulars"].defeat_points == before


@pytest.mark.audits("FIRE-12", "SPOT-4")
@pytest.mark.parametrize(("variant", "may"), [("", False), (IT, True)])
def test_an_english_reload_leaves_no_sighting_an_italian_one_does(tmp_path, variant, may):
    """§8.0.3 (optional): changing a magazine "requires a full turn (the figure cannot do
    anything else)" [EN]; "richiede un'intera azione" [IT], and §7.0's sighting costs no
    action.  A Veteran whose magazine is empty changes it: in English he may not also try
    to sight that turn (before or after), in Italian he may (a 3 at 20 cm)."""
    for order in ("reload first", "sight first"):
        g = new_table(tmp_path / order.replace(" ", "-"), variant=variant, options=("ammo",))
        play(g, "fire vet irr1 range=20 burst dice=2,2,1", "next", "next", "next dice=6,6,1,1")
        steps = ["reload vet", "spot vet ghost range=20 dice=3"]
        if order == "sight first":
            steps.reverse()
        g.execute(steps[0], role=REFEREE)
        allowed(g, steps[1], may, rule="FIRE-12")
        assert bool(g.state.units["ghost"].spotted_by) is (may or order == "sight first")
