"""What the New game screen may choose: EXTRAS bought outside a roster (``buy``,
checked against the points list), objectives drawn at random (secret to their side),
mission 3's Special Forces, and the choices offered per scenario."""

from __future__ import annotations

import pytest
from bn_campaign_support import IT, events, new_game, platoon_roster, rolls, run
from playing import names, refused

from core.log import events as ev
from core.log.views import REFEREE
from core.registry import get_ruleset
from core.ruleset import Refused
from core.rulesets.breaking_news.campaign import army, objectives

# ------------------------------------------------------------------------ buy


@pytest.fixture
def fielded(tmp_path):
    """The open scenario (150 points): Bersaglieri at 132, the militia at 147."""
    game = new_game(tmp_path, "open")
    run(game, "roster bersaglieri regulars", "roster militia irregulars")
    yield game
    game.close()


def test_buying_over_the_limit_says_what_and_by_how_much(fielded):
    # 132 + Helicopter evacuation 25 = 157 against 150
    assert refused(fielded, "buy regulars helicopter", rule="PTS-5") == (
        "Regulars with Helicopter evacuation: 157 points is 7 over the limit of 150"
    )
    # Intelligence from level 1 (10) to 3 (30): 132 + 20 = 152
    refused(fielded, "buy regulars intelligence 3", "152 points is 2 over the limit of 150", rule="PTS-5")
    # 147 + one IED 20 = 167
    with pytest.raises(
        Refused, match="Irregulars with Explosives \\(IED\\): 167 points is 17 over the limit of 150"
    ) as no:
        fielded.execute("buy irregulars ied", role=REFEREE)
    names(no.value, "PTS-5")
    assert army.books_extras(fielded.state, "regulars").intelligence == 1


def test_a_purchase_within_the_limit_is_recorded_with_the_new_total(fielded):
    out = fielded.execute("buy regulars intelligence 2", role=REFEREE)  # 10 → 20: 142 of 150
    assert fielded.state.vars["extra.regulars.intelligence"] == 2
    (note,) = events(out, ev.Noted)
    assert note.text == "regulars buy Intelligence level 2 for 10 points: 142 points of 150 (Extras)"
    assert army.total_cost(army.force_roster(fielded.state, "regulars")) == 142


def test_the_extras_restrictions_apply(fielded):
    """Extras: buying outside a roster keeps the restrictions: Mortars are not for Regulars; ROE not with
    Improved Support Fire.

    Digest: EXT-4, PTS-5.
    """
    refused(fielded, "buy regulars mortars", "Mortars is for irregular forces only", rule="PTS-5")
    refused(
        fielded,
        "buy regulars rules_of_engagement",
        "Improved Support Fire cannot be combined with Rules of Engagement",
        rule="PTS-5",
    )  # the Bersaglieri have Improved Support Fire
    refused(
        fielded,
        "buy regulars intelligence 4",
        "Intelligence level 4 is 1 over 3 \\(4 is for Special Forces\\)",
        rule="PTS-5",
    )
    refused(
        fielded, "buy regulars negotiation 4", "Negotiation level 4 is for MSU and Secret Services only", rule="PTS-5"
    )
    refused(fielded, "buy regulars negotiation 3", "Negotiation level 3 is bought already", rule="PTS-5")
    refused(fielded, "buy regulars helicopter 2", "Helicopter evacuation is bought once, not 2 times", rule="PTS-5")
    refused(fielded, "@irregulars buy irregulars ambush", "referee", rule="ENG-1")


def test_buying_needs_the_figures_first(tmp_path):
    game = new_game(tmp_path, "open")
    refused(
        game,
        "buy regulars ambush",
        r"Regulars have no figures yet: field them first \(roster FILE regulars\)",
        rule="PTS-5",
    )


def test_explosives_bought_stay_their_owners_secret(tmp_path):
    game = new_game(tmp_path, "open")
    run(game, "roster bersaglieri regulars", "roster militia irregulars limit=200")
    assert game.state.vars["points.irregulars"] == 200  # what later purchases are checked against
    out = game.execute("buy irregulars ied 2", role=REFEREE)  # 147 + 2 × 20 = 187 of 200
    (note,) = events(out, ev.Noted)
    assert note.text == "irregulars buy Explosives (IED) ×2 for 40 points: 187 points of 200 (Extras)"
    assert note.vis == ("irregulars",)
    assert game.state.secrets["extra.irregulars.ied"].value == "2"
    assert "extra.irregulars.ied" not in game.view("regulars").secrets
    assert not any("IED" in line.text or "ied" in line.text for line in game.log_lines("regulars"))
    refused(
        game, "buy irregulars ied_remote", "217 points is 17 over the limit of 200", rule="PTS-5"
    )  # 187 + a remote IED's 30
    game.close()


def test_the_demo_is_checked_against_its_own_limit(demo):
    # the Bersaglieri were built to 105 of 125; the militia to 121
    refused(demo, "buy regulars ambush", "Bersaglieri with Ambush: 130 points is 5 over the limit of 125", rule="PTS-5")
    out = demo.execute("buy regulars negotiation 3", role=REFEREE)  # 5 → 10
    assert events(out, ev.Noted)[0].text == "regulars buy Negotiation level 3 for 5 points: 110 points of 125 (Extras)"


@pytest.mark.parametrize(("variant", "price", "platoon"), [("", 60, False), (IT, 30, True)])
def test_motivation_covers_every_squad_or_the_italian_platoon(tmp_path, variant, price, platoon):
    """Extras: Motivation: bought for every squad of a platoon (15 each), or in the Italian draft at 30
    for the whole platoon.

    Digest: DIFF-52, EXT-6.
    """
    game = new_game(tmp_path, "open", variant=variant)
    game.execute(f"roster {platoon_roster(tmp_path / 'platoon.toml')} regulars limit=300", role=REFEREE)
    before = army.total_cost(army.force_roster(game.state, "regulars"), variant)
    assert before == 174  # Lt Moro 12 + 15, three sergeants 17, eight men 12
    game.execute("buy regulars motivation", role=REFEREE)  # four squads: 4 × 15, or the Italian platoon's 30
    after = army.force_roster(game.state, "regulars")
    assert army.total_cost(after, variant) == before + price
    assert after.extras.motivation_platoon is platoon
    assert game.state.vars["extra.regulars.motivation"] == (1 if platoon else 4)  # what morale reads
    game.close()


def test_the_rosters_for_regulars_against_regulars_are_legal(tmp_path):
    # Rangers: 8 Elite (15) + leadership 2 and 1 (10, 5) + LMG 5 + GL 5 = 145;
    # Legion: 8 Veterans (12) + a medic (10) + leadership 2 and 1 + MMG 7 + Motivation 15 = 143
    for name, cost in (("rangers", 145), ("legion", 143)):
        roster = army.load_roster(army.find_roster(name))
        assert (army.total_cost(roster), army.validate_roster(roster, 150)) == (cost, [])
    game = new_game(tmp_path, "open-regulars")
    run(game, "roster rangers blue", "roster legion red")
    assert objectives.mission(game.state) == 1 and game.state.vars["points"] == 150
    game.close()


# -------------------------------------------------------- random objectives


@pytest.mark.parametrize(
    ("dice", "roles"),
    [
        ("3,1", {1: "secondary", 2: "secondary", 3: "main", 4: "fake", 5: "fake"}),
        ("1,6", {1: "main", 2: "fake", 3: "fake", 4: "secondary", 5: "secondary"}),
        ("5,3", {1: "secondary", 2: "fake", 3: "fake", 4: "secondary", 5: "main"}),
    ],
)
def test_random_objectives_roll_the_main_then_the_pair(fielded, dice, roles):
    out = fielded.execute(f"objectives regulars random dice={dice}", role=REFEREE)
    assert objectives.markers(fielded.state, "regulars") == roles
    main, pair = rolls(out)
    assert (main.sides, pair.sides) == (5, 6)


def test_random_objectives_are_the_sides_secret(fielded):
    out = fielded.execute("objectives irregulars random dice=2,6", role=REFEREE)
    assert objectives.markers(fielded.state, "irregulars") == {
        1: "fake",
        2: "main",
        3: "fake",
        4: "secondary",
        5: "secondary",
    }
    assert all(r.vis == ("irregulars",) for r in events(out, ev.Rolled) + events(out, ev.SecretSet))
    assert not any(k.startswith("marker.irregulars") for k in fielded.view("regulars").secrets)
    assert not any(k.startswith("marker.irregulars") for k in fielded.view("spectator").secrets)
    theirs = [line.text for line in fielded.log_lines("regulars")]
    assert not any("objective" in t and ("main" in t or "secondary" in t) for t in theirs)
    assert not any("marker.irregulars" in t or "objectives irregulars random" in t for t in theirs)
    assert any("Irregulars: objective markers drawn at random, in secret" in t for t in theirs)
    own = [line.text for line in fielded.log_lines("irregulars")]
    assert any("marker 2 is the main objective" in t for t in own)
    assert any("markers 4 and 5 are secondary" in t for t in own)


def test_random_objectives_follow_the_objectives_rules(fielded):
    refused(fielded, "@irregulars objectives regulars random", "own objectives", rule="OBJ-1")
    refused(fielded, "objectives regulars random 2 3", "random draws the secondary markers too", rule="OBJ-1")
    fielded.execute("objectives regulars random", role="regulars")
    assert len(objectives.markers(fielded.state, "regulars")) == 5


def test_mission_3_needs_one_side_of_special_forces(fielded, tmp_path):
    """§4.1 mission 3: Special Forces against Regulars or Irregulars; the Special Forces side defends no
    markers.

    Digest: OBJ-1.
    """
    refused(fielded, "mission 3", "mission 3 is Special Forces", rule="OBJ-1")
    game = new_game(tmp_path, "open", name="sf.ft")
    sas = tmp_path / "sas.toml"
    sas.write_text(
        'name = "SAS"\narmy = "regular"\n'
        '[[units]]\nid = "sas1"\nname = "Sgt A"\ncls = "R1"\nleadership = 1\nroles = ["commander"]\n'
        '[[units]]\nid = "sas2"\nname = "Tpr B"\ncls = "R1"\n'
    )
    run(game, f"roster {sas} regulars", "roster militia irregulars", "mission 3")
    assert objectives.mission(game.state) == 3
    refused(game, "objectives regulars random", "Regulars defend no markers in mission 3", rule="OBJ-1")
    game.close()


# ------------------------------------------------------------ the choices offered


def _offered(scenario: str) -> dict[str, tuple[str, ...]]:
    return {c.id: c.choices for c in get_ruleset("breaking-news").setup_choices(scenario)}


def test_the_choices_fit_the_scenario():
    bn = get_ruleset("breaking-news")
    demo = _offered("demo")
    # the demo sets its own markers: no mission or objectives to choose
    assert set(demo) == {"options", "extras-regulars", "extras-irregulars"}
    # what the Bersaglieri have (Intelligence 1, Negotiation 2, Motivation) is not offered
    # again, nor what only Special Forces, MSU or Irregulars buy
    assert demo["extras-regulars"] == (
        "rules_of_engagement",
        "ambush",
        "helicopter",
        "improved_support_fire",
        "intelligence 2",
        "intelligence 3",
        "negotiation 3",
    )
    assert {"mortars", "ied", "ied_remote"} <= set(demo["extras-irregulars"])
    open_ = {c.id: c for c in bn.setup_choices("open")}
    assert (open_["mission"].choices, open_["mission"].default) == (("2", "3"), "2")
    assert open_["objectives"].per_side and open_["objectives"].default == "player"
    assert "infiltrators" in open_["extras-regulars"].choices  # a roster may field Special Forces
    assert "infiltrators" not in open_["extras-irregulars"].choices  # never Irregulars (R1 is regular)
    assert _offered("open-regulars")["mission"] == ("1", "3")
    assert bn.setup_choices("nothing") == ()


def test_every_extra_offered_is_bought_or_refused_for_points_only(demo):
    for choice in get_ruleset("breaking-news").setup_choices("demo"):
        if not choice.id.startswith("extras-"):
            continue
        for line in choice.command_lines(list(choice.choices)):
            try:
                demo.execute(line, role=REFEREE)
            except Refused as e:
                assert "over the limit of 125" in str(e), line
            else:
                demo.undo(role=REFEREE)
