"""Audit of Breaking News' "Calculating points" and the prices and restrictions of its
EXTRAS, written from the rulebook (1.5.1) and its digest alone: no dice, so sums.
The Trained man costs 10 (its own table in §3.0; the points list's 12 is the digest's
DIFF-50, decided as 10)."""

from __future__ import annotations

import pytest
from audit_bn_late import new_game, play, rolls, unit

from core.log.views import REFEREE
from core.rulesets.breaking_news.campaign import army
from core.rulesets.breaking_news.campaign.army import Roster, RosterExtras, RosterUnit, validate_roster

#: "Cost of a single man with AR" (and §3.0's PTS column).
MEN = {"R1": 20, "R2": 15, "R3": 12, "R4": 10, "R5": 7, "Irr1": 11, "Irr2": 8, "Irr3": 5}
#: "Weapons", each on top of the man.
WEAPONS = {"SNIPER": 15, "RPG": 7, "ATH": 15, "GL": 5, "LMG": 5, "MMG": 7, "HMG": 10}
#: "Vehicles": base + the machine gun (LMG 5, MMG 7, HMG 10).
VEHICLES = {"unprotected": 10, "protected": 15, "light": 25}
MGS = {"LMG": 5, "MMG": 7, "HMG": 10}


def man(uid="x", cls="R3", **kw) -> RosterUnit:
    return RosterUnit(id=uid, name=uid, cls=cls, weapons=kw.pop("weapons", ("AR",)), **kw)


def cost(u: RosterUnit) -> int:
    return sum(c for _, c in army.unit_cost(u))


def force(*units: RosterUnit, armed="regular", **kw) -> Roster:
    boss = man("boss", "R1" if kw.get("force") == "special-forces" else ("R3" if armed == "regular" else "Irr1"))
    boss = RosterUnit(id="boss", name="boss", cls=boss.cls, weapons=("AR",), roles=("commander",))
    return Roster(name="t", army=armed, units=(boss, *units), **kw)


@pytest.mark.audits("T-17", "PTS-1")
@pytest.mark.parametrize(("cls", "points"), sorted(MEN.items()))
def test_a_man_with_an_ar_costs_his_class(cls, points):
    assert cost(man(cls=cls)) == points


@pytest.mark.audits("T-02", "PTS-1", "T-17")
@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_leadership_costs_five_a_level(level):
    """LEADERSHIP: 5, 10, 15, 20 points, on top of the man (Veteran 12)."""
    assert cost(man(leadership=level)) == 12 + 5 * level


@pytest.mark.audits("T-17", "PTS-1")
@pytest.mark.parametrize(("weapon", "points"), sorted(WEAPONS.items()))
def test_a_weapon_adds_its_price_to_the_man(weapon, points):
    """WEAPONS: sniper rifle 15, RPG 7, anti-tank (Milan) 15, grenade launcher 5, LMG 5,
    MMG 7, HMG 10 (a Militia man, 5, with it)."""
    assert cost(man(cls="Irr3", weapons=("AR", weapon))) == 5 + points


@pytest.mark.audits("T-17", "PTS-2")
def test_a_medic_costs_ten():
    assert cost(man(cls="R4", roles=("medic",), weapons=("PISTOL",))) == 10


@pytest.mark.audits("T-17", "PTS-3")
@pytest.mark.parametrize(("cls", "base"), sorted(VEHICLES.items()))
@pytest.mark.parametrize(("mg", "mg_cost"), sorted(MGS.items()))
def test_a_vehicle_costs_its_type_plus_its_machine_gun(cls, base, mg, mg_cost):
    v = RosterUnit(id="v", name="v", kind="vehicle", cls=cls, weapons=(mg,))
    assert cost(v) == base + mg_cost


@pytest.mark.audits("T-17", "PTS-3")
@pytest.mark.parametrize("cls", ["tank", "heavy"])
def test_a_tank_or_heavy_vehicle_costs_fifty_with_its_gun_and_mg(cls):
    v = RosterUnit(id="v", name="v", kind="vehicle", cls=cls, weapons=("TANKGUN", "HMG"))
    assert cost(v) == 50


@pytest.mark.audits("PTS-3")
def test_a_man_cannot_carry_a_tank_gun():
    """VEHICLES: the tank's gun is the vehicle's; no man carries it."""
    assert validate_roster(force(man("g", weapons=("TANKGUN",))), 0) != []


#: EXTRAS and their prices, (roster extras, army, force, points).
EXTRAS = [
    (RosterExtras(infiltrators=True), "regular", "special-forces", 30),
    (RosterExtras(ambush=1), "regular", "", 25),
    (RosterExtras(helicopter=True), "regular", "", 25),
    (RosterExtras(improved_support_fire=True), "regular", "", 15),
    (RosterExtras(mortars=True), "irregular", "", 15),
    (RosterExtras(motivation=1), "regular", "", 15),
    (RosterExtras(rules_of_engagement=True), "regular", "", -40),
    (RosterExtras(intelligence=3), "regular", "", 30),
    (RosterExtras(intelligence=4), "regular", "special-forces", 40),
    (RosterExtras(ied=1), "irregular", "", 20),
    (RosterExtras(ied_remote=1), "irregular", "", 30),
    (RosterExtras(negotiation=2), "regular", "", 5),
    (RosterExtras(negotiation=3), "regular", "", 10),
    (RosterExtras(negotiation=4), "regular", "msu", 20),
]


@pytest.mark.audits("T-18", "T-19", "PTS-4")
@pytest.mark.parametrize(("extras", "armed", "kind", "points"), EXTRAS)
def test_each_extra_its_price_in_the_total(extras, armed, kind, points):
    """EXTRAS: Infiltrators 30, Ambush 25, Helicopter 25, Improved Support Fire 15, Mortars
    15, Motivation 15 a squad, Rules of Engagement −40 (it gives points), Intelligence 10 a
    level, IED 20 (30 remote), Negotiation 0/5/10/20; the army's total is men + vehicles +
    extras."""
    bare = force(armed=armed, force=kind)
    bought = force(armed=armed, force=kind, extras=extras)
    assert validate_roster(bought, 0) == []
    assert army.total_cost(bought) - army.total_cost(bare) == points


@pytest.mark.audits("T-18", "PTS-4")
def test_journalists_and_civilians_are_figures_with_a_price():
    """EXTRAS: embedded journalists −20 (the Regular player's), independent +20 (the
    Irregular player's), civilians 10 a figure."""
    embedded = RosterUnit(id="e", name="e", kind="journalist", roles=("embedded",))
    independent = RosterUnit(id="i", name="i", kind="journalist", roles=("independent",))
    civ = RosterUnit(id="c", name="c", kind="civilian")
    assert army.total_cost(force(embedded)) - army.total_cost(force()) == -20
    irr = force(armed="irregular")
    assert army.total_cost(force(independent, civ, armed="irregular")) - army.total_cost(irr) == 30


@pytest.mark.audits("PTS-4")
def test_the_limit_is_the_total_and_a_negative_extra_brings_it_under():
    """The army is bought within its points: a force 2 over the limit is refused; with the
    Rules of Engagement (−40) the same men fit."""
    men = tuple(man(f"m{i}", "R4") for i in range(4))  # boss 12 + 40 = 52
    assert validate_roster(force(*men), 52) == []
    assert validate_roster(force(*men), 51) != []
    assert validate_roster(force(*men, extras=RosterExtras(rules_of_engagement=True)), 12) == []


@pytest.mark.audits("PTS-5", "T-18")
@pytest.mark.parametrize(
    ("roster", "legal"),
    [
        (force(extras=RosterExtras(improved_support_fire=True, rules_of_engagement=True)), False),
        (force(extras=RosterExtras(infiltrators=True)), False),
        (force(force="special-forces", extras=RosterExtras(infiltrators=True)), True),
        (force(extras=RosterExtras(intelligence=4)), False),
        (force(extras=RosterExtras(intelligence=3)), True),
        (force(extras=RosterExtras(negotiation=4)), False),
        (force(force="secret-services", extras=RosterExtras(negotiation=4)), True),
        (force(extras=RosterExtras(mortars=True)), False),
        (force(extras=RosterExtras(ied=1)), False),
        (force(armed="irregular", extras=RosterExtras(ied=1)), True),
    ],
)
def test_the_extras_restrictions(roster, legal):
    """EXTRAS: Improved Support Fire not with Rules of Engagement; Infiltrators and
    Intelligence 4 only for Special Forces; Negotiation 4 only for MSU and Secret Services;
    Mortars and Explosives for Irregulars."""
    assert (validate_roster(roster, 0) == []) is legal


@pytest.mark.audits("T-02")
@pytest.mark.parametrize("level", [1, 4])
def test_leadership_is_its_level_on_the_initiative(tmp_path, monkeypatch, level):
    """LEADERSHIP (§3.0 table, T-02): level 1 to 4 gives +1 to +4 to the initiative."""
    units = unit("sgt", "regulars", "R4", "A", lead=level, roles=("commander", "leader"))
    units += unit("boss", "irregulars", "Irr3", "B", lead=1, roles=("commander", "leader"))
    g = new_game(tmp_path, monkeypatch, units, active=None)
    g.execute("next", role=REFEREE)
    r = rolls(g.execute("next dice=6,6,1,1", role=REFEREE))
    assert ("leadership", level) in [(str(m.label), m.value) for m in r[0].mods]


@pytest.mark.audits("T-02")
def test_leadership_is_added_to_the_deployment_roll(tmp_path, monkeypatch):
    """LEADERSHIP (T-02; §4.1): the deployment roll is 1d6 + the squad commander's
    leadership: +3 for the regulars' sergeant, +1 for the militia's boss."""
    units = unit("sgt", "regulars", "R4", "A", lead=3, roles=("commander", "leader"))
    units += unit("boss", "irregulars", "Irr3", "B", lead=1, roles=("commander", "leader"))
    g = new_game(tmp_path, monkeypatch, units, head="mission = 1", active=None)
    play(g, "@regulars objectives regulars 4 2 5", "@irregulars objectives irregulars 3 1 5")
    r = rolls(g.execute("rolloff dice=3,6", role=REFEREE))
    assert [sum(m.value for m in x.mods) for x in r] == [3, 1]


@pytest.mark.audits("PTS-5", "EXT-10")
@pytest.mark.parametrize(("militia_army", "legal"), [("regular", False), ("irregular", True)])
def test_journalists_only_in_games_of_regulars_against_irregulars(tmp_path, monkeypatch, militia_army, legal):
    """EXTRAS, Media: "War correspondents will only be used in games between Regulars and
    Irregulars": a scenario fielding an embedded journalist between two regular sides is
    refused, as a roster bringing one is; against irregulars it is a game."""
    from core.scenarios.files import ScenarioError

    units = unit("sgt", "regulars", "R4", "A", lead=1, roles=("commander", "leader"))
    units += unit("lupo", "regulars", "", "Press", kind="journalist", roles=("embedded",))
    units += unit(
        "boss", "irregulars", "R4" if militia_army == "regular" else "Irr3", "B", lead=1, roles=("commander",)
    )
    if militia_army == "regular":
        import audit_bn_late

        monkeypatch.setattr(
            audit_bn_late, "RANGE", audit_bn_late.RANGE.replace('army = "irregular"', 'army = "regular"')
        )
    if legal:
        new_game(tmp_path, monkeypatch, units, active=None)
    else:
        with pytest.raises(ScenarioError, match="Regulars against Irregulars"):
            new_game(tmp_path, monkeypatch, units, active=None)
