"""Army building ("Calculating points"): costs against the book, validation, the
Italian draft's prices, and the demo's two forces."""

from __future__ import annotations

import msgspec
import pytest
from bn_campaign_support import IT

from core.rulesets.breaking_news import scenario_rules
from core.rulesets.breaking_news.campaign import army
from core.rulesets.breaking_news.campaign.army import Roster, RosterExtras, RosterUnit, validate_roster
from core.rulesets.breaking_news.scenario_format import FORMAT
from core.rulesets.common import load_scenarios

SCENARIOS = army.ROSTERS.parent


def man(uid: str, cls: str = "R3", **kw) -> RosterUnit:
    return RosterUnit(id=uid, name=uid, cls=cls, weapons=kw.pop("weapons", ("AR",)), **kw)


def squad(*units: RosterUnit, armed: str = "regular", **kw) -> Roster:
    return Roster(name="test", army=armed, units=units, **kw)


def test_a_man_costs_class_leadership_and_weapons():
    # Veteran 12 + Leadership 2 (10); Veteran 12 + grenade launcher 5; a medic 10; embedded press -20
    """Calculating points: class (with an AR) + leadership + weapons beyond the AR; a medic 10; embedded
    press −20.

    Digest: AMB-56, PTS-1, PTS-2, T-17.
    """
    assert sum(c for _, c in army.unit_cost(man("rossi", leadership=2))) == 22
    assert sum(c for _, c in army.unit_cost(man("marino", weapons=("AR", "GL")))) == 17
    assert sum(c for _, c in army.unit_cost(man("ferri", roles=("medic",)))) == 10
    press = RosterUnit(id="lupo", name="lupo", kind="journalist", roles=("embedded",))
    assert army.unit_cost(press) == [("lupo: Embedded journalist", -20)]
    assert sum(c for _, c in army.unit_cost(man("mo", "Irr3", weapons=("RPG",)))) == 12  # 5 + 7


def test_vehicles_cost_their_type_plus_machine_guns():
    """Calculating points: a technical 10 + HMG 10; a light armoured car 25 + MMG 7; a tank 50 with its
    gun and MG.

    Digest: PTS-3, T-17.
    """
    technical = RosterUnit(id="t", name="t", kind="vehicle", cls="unprotected", weapons=("HMG",))
    tank = RosterUnit(id="k", name="k", kind="vehicle", cls="tank", weapons=("TANKGUN", "MMG"))
    lav = RosterUnit(id="l", name="l", kind="vehicle", cls="light", weapons=("MMG",))
    assert sum(c for _, c in army.unit_cost(technical)) == 20
    assert sum(c for _, c in army.unit_cost(lav)) == 32
    assert sum(c for _, c in army.unit_cost(tank)) == 50


def test_the_shipped_rosters_are_legal():
    for name, cost in (("bersaglieri", 132), ("militia", 147)):
        r = army.load_roster(army.find_roster(name))
        assert validate_roster(r, 150) == []
        assert army.total_cost(r) == cost


def test_over_the_limit_says_by_how_much():
    """Calculating points: the Bersaglieri's 132 points are 32 over a limit of 100.

    Digest: PTS-4.
    """
    r = army.load_roster(army.find_roster("bersaglieri"))
    assert validate_roster(r, 100) == ["132 points is 32 over the limit of 100"]


def test_the_demo_forces_are_legal_in_both_drafts():
    loaded = load_scenarios(FORMAT, SCENARIOS)["demo"]
    sc, rules = loaded.table(), FORMAT.rules(loaded.sc)
    rosters = scenario_rules.rosters(sc, rules)
    for variant in ("", IT):
        assert {s: army.total_cost(r, variant) for s, r in rosters.items()} == {"regulars": 105, "irregulars": 121}
        assert {s: validate_roster(r, rules.points, variant) for s, r in rosters.items()} == {
            "regulars": [],
            "irregulars": [],
        }


COMMANDER = man("boss", leadership=1, roles=("commander",))


@pytest.mark.parametrize(
    "roster, message",
    [
        (squad(COMMANDER, man("x", "Irr2")), "x: Irr2 is not a class of the regular army"),
        (squad(COMMANDER, man("x", "R9")), "x: no troop class 'R9'"),
        (squad(COMMANDER, man("x", weapons=("RAYGUN",))), "x: no weapon 'RAYGUN' in the points list"),
        (squad(COMMANDER, man("x", leadership=5)), "x: leadership 5 is over the highest level, 4"),
        (squad(man("x")), "one figure must be the commander (role commander); found 0"),
        (
            squad(COMMANDER, man("x", leadership=1, roles=("commander",))),
            "one figure must be the commander (role commander); found 2",
        ),
        (squad(COMMANDER, man("boss")), "boss: the id is used twice"),
        (
            squad(COMMANDER, extras=RosterExtras(improved_support_fire=True, rules_of_engagement=True)),
            "Improved Support Fire cannot be combined with Rules of Engagement",
        ),
        (squad(COMMANDER, extras=RosterExtras(infiltrators=True)), "Infiltrators is for Special Forces only"),
        (squad(COMMANDER, extras=RosterExtras(mortars=True)), "Mortars is for irregular forces only"),
        (squad(COMMANDER, extras=RosterExtras(ied=1)), "Explosives (IED) is for irregular forces only"),
        (
            squad(COMMANDER, extras=RosterExtras(intelligence=4)),
            "Intelligence level 4 is 1 over 3 (4 is for Special Forces)",
        ),
        (squad(COMMANDER, extras=RosterExtras(intelligence=5)), "Intelligence level 5 is over the highest, 4"),
        (
            squad(COMMANDER, extras=RosterExtras(negotiation=4)),
            'Negotiation level 4 is for MSU and Secret Services only (force = "msu")',
        ),
        (squad(COMMANDER, extras=RosterExtras(motivation=2)), "Motivation for 2 squads is 1 more than the 1 fielded"),
        (
            squad(COMMANDER, extras=RosterExtras(motivation_platoon=True)),
            "Motivation is sold per squad in the English draft, not per platoon",
        ),
        (
            squad(COMMANDER, RosterUnit(id="p", name="p", kind="journalist", roles=("independent",))),
            "p: independent journalists are bought by the irregular player (Extras: Media)",
        ),
        (squad(COMMANDER, man("a", roles=("ambush",))), "figures with role ambush need the Ambush extra"),
    ],
)
def test_illegal_rosters(roster, message):
    """Calculating points and the Extras' restrictions: each illegal roster is refused, saying why.

    Digest: PTS-5, T-18.
    """
    errors = validate_roster(roster, 0)
    assert any(e.startswith(message) for e in errors), errors


def test_special_forces_may_infiltrate_and_reach_intelligence_4():
    """Extras: Special Forces may buy Infiltrators and Intelligence 4.

    Digest: EXT-1, PTS-5.
    """
    sf = squad(
        man("boss", "R1", leadership=1, roles=("commander",)),
        man("x", "R1"),
        extras=RosterExtras(infiltrators=True, intelligence=4),
    )
    assert validate_roster(sf, 0) == []
    assert dict(army.extras_cost(sf)) == {"Infiltrators": 30, "Intelligence ×4": 40}


def test_negotiation_4_costs_20_in_english_15_in_italian():
    msu = squad(COMMANDER, force="msu", extras=RosterExtras(negotiation=4))
    assert validate_roster(msu, 0) == []
    assert dict(army.extras_cost(msu)) == {"Negotiation 4": 20}
    assert dict(army.extras_cost(msu, IT)) == {"Negotiation 4": 15}


def test_motivation_for_a_platoon_italian_only():
    platoon = squad(
        man("lt", leadership=2, roles=("commander",), team="1st"),
        man("a", team="1st"),
        man("b", team="2nd"),
        platoon=True,
        extras=RosterExtras(motivation_platoon=True),
    )
    assert validate_roster(platoon, 0, IT) == []
    assert dict(army.extras_cost(platoon, IT)) == {"Motivation (platoon)": 30}
    english = msgspec.structs.replace(platoon, extras=RosterExtras(motivation=2))
    assert validate_roster(english, 0) == [] and dict(army.extras_cost(english)) == {"Motivation ×2": 30}
    partial = msgspec.structs.replace(platoon, extras=RosterExtras(motivation=1))
    assert "Motivation in a platoon covers every squad: 1 more to buy (or none)" in validate_roster(partial, 0)


def test_quality_changes_one_level_in_the_italian_draft():
    """Calculating points (digest DIFF-51, ruling BN-PTS-QUALITY): a Veteran (R3) of the list made
    Special Forces (R1) is two levels: allowed in English, refused in the Italian draft, where
    Elite (R2), one level, is allowed."""
    raised = squad(COMMANDER, man("x", "R1", list_cls="R3"))
    assert validate_roster(raised, 0) == []
    assert validate_roster(raised, 0, IT) == ["x: R3 raised or lowered to R1 is 1 level over the one allowed"]
    assert validate_roster(squad(COMMANDER, man("y", "R2", list_cls="R3")), 0, IT) == []


def test_unknown_roster_keys_are_refused(tmp_path):
    path = tmp_path / "typo.toml"
    path.write_text('name = "x"\narmy = "regular"\n[extras]\nambsuh = 1\n')
    with pytest.raises(Exception, match="ambsuh"):
        army.load_roster(path)
