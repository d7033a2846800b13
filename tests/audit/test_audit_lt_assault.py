"""Audit of Linea di Tiro's assaults (C.9) from the book alone: a tank's overrun (the
AT-armed infantry's morale test and first strike, the 1d6 <= 4 in cover), infantry's
close assault on a tank (ratings and their modifiers at their edge, flank or rear
only, no escort within 5 cm), infantry melee (1d6 + morale and its modifiers, ties),
guns in melee, and opportunity shots."""

from __future__ import annotations

import pytest
from audit_lt_table import ALTERNATE, add, game_with, has, out, play, refused, rolled, said, scenario_game


def _overrun_game(tmp_path, target_cls: str = "grenadiers", status=(), name: str = "o.ft", **stats):
    """A US tank activated to move; a German piece in its way (morale 4 unless said)."""
    g = game_with(tmp_path, ALTERNATE, name)
    add(g, "tank", "us", "sherman", team="X", stats={"front": 5, "side": 3, "mg": 3})
    add(g, "inf", "german", target_cls, team="Y", status=status, stats={"morale": 4, **stats})
    play(g, "next", "@us activate tank A2")
    return g


@pytest.mark.audits("LT-R100", "LT-AMB-23")
def test_at_armed_infantry_that_passes_strikes_first_and_can_destroy_the_tank(tmp_path):
    # test 4 <= morale 4: passes; first strike 3 <= rating 3 (AT-armed, trained): destroyed
    g = _overrun_game(tmp_path)
    facts = play(g, "overrun tank inf dice=4,3")
    assert out(g, "tank") and not out(g, "inf")
    assert len(rolled(facts)) == 2  # no tank attack follows


@pytest.mark.audits("LT-R100", "LT-AMB-23")
def test_a_first_strike_that_fails_is_followed_by_the_tanks_attack(tmp_path):
    g = _overrun_game(tmp_path)
    play(g, "overrun tank inf dice=4,4,4")  # passes; 4 > 3 misses; in cover 4 <= 4: destroyed
    assert not out(g, "tank") and out(g, "inf")
    g = _overrun_game(tmp_path, name="o2.ft")
    play(g, "overrun tank inf dice=4,4,5")  # 5 > 4: survives
    assert not out(g, "tank") and not out(g, "inf")


@pytest.mark.audits("LT-R100", "LT-AMB-23")
def test_failing_the_test_it_stays_in_place_and_suffers_the_tank(tmp_path):
    """5 > morale 4 fails: no first strike, no flee or fall back; in the open destroyed."""
    g = _overrun_game(tmp_path, status=("ready-1",))
    facts = play(g, "overrun tank inf open dice=5")
    assert out(g, "inf") and not out(g, "tank")
    assert len(rolled(facts)) == 1 and not [e for e in facts if type(e).__name__ == "Moved"]
    g = _overrun_game(tmp_path, name="o2.ft")
    facts = play(g, "overrun tank inf dice=5,5")  # in cover: 5 survives
    assert not out(g, "inf") and not has(g, "inf", "retreating")
    assert not [e for e in facts if type(e).__name__ == "Moved"]


@pytest.mark.audits("LT-R100", "LT-AMB-23")
@pytest.mark.parametrize(("cls", "status"), [("rifles", ()), ("grenadiers", ("immobilised",))])
def test_no_test_without_portable_at_or_when_immobilised(tmp_path, cls, status):
    g = _overrun_game(tmp_path, cls, status, at=0 if cls == "rifles" else 5)
    facts = play(g, "overrun tank inf dice=4")  # the only die: the tank's, 4 in cover destroys
    assert len(rolled(facts)) == 1 and out(g, "inf")


@pytest.mark.audits("LT-R100", "LT-R081")
def test_the_overrun_morale_test_counts_the_situations(tmp_path):
    g = _overrun_game(tmp_path)
    play(g, "overrun tank inf plus=1 dice=4,5")  # 4 + 1 = 5 > 4: fails; 5 in cover survives
    assert not out(g, "tank") and not out(g, "inf")


@pytest.mark.audits("LT-R100", "LT-AMB-25")
def test_a_gun_assaulted_frontally_may_shoot_first(lt):
    """Guns assaulted frontally make an opportunity shot (a ready attack if held, else a free one)."""
    add(lt, "tank", "us", "sherman", team="X", stats={"front": 5, "side": 3})
    add(lt, "gun", "german", "pak40", team="Y", stats={"at": 7})
    play(lt, "next", "@us activate tank A2")
    facts = play(lt, "@german at gun tank opportunity dice=1,2")  # 7 - 5 = +2; 3: D
    assert out(lt, "tank"), said(facts)
    refused(lt, "@german at gun tank opportunity dice=1,2", rule="LT-R050c")  # one free shot


# ------------------------------------------------------------------ close assault


def _assault_game(tmp_path, roles=(), tank_roles=(), tank_mg: int = 3, name: str = "c.ft", **stats):
    g = game_with(tmp_path, ALTERNATE, name)
    add(g, "inf", "us", "rifles", team="X", roles=roles, stats={"at": 0, **stats})
    add(g, "tank", "german", "pz4", team="Y", roles=tank_roles, stats={"front": 5, "side": 3, "mg": tank_mg})
    play(g, "next", "@us activate inf A4 prepare=0")
    return g


@pytest.mark.audits("LT-R101")
@pytest.mark.parametrize(("role", "rating"), [("improvised-at", 1), ("trained-at", 3), ("tank-hunters", 5)])
def test_each_rating_destroys_at_or_under_and_not_above(tmp_path, role, rating):
    g = _assault_game(tmp_path, roles=(role,))
    play(g, f"@us closeassault inf tank flank dice={rating + 1}")
    assert not out(g, "tank") and not out(g, "inf")  # failure: no effect (LT-AMB-24)
    play(g, f"@us closeassault inf tank rear dice={rating}")
    assert out(g, "tank")


@pytest.mark.audits("LT-R101")
def test_a_tank_without_mgs_is_easier_and_a_protected_tank_harder(tmp_path):
    g = _assault_game(tmp_path, roles=("trained-at",), tank_mg=0)
    play(g, "@us closeassault inf tank flank dice=5")
    assert not out(g, "tank")
    play(g, "@us closeassault inf tank flank dice=4")  # 3 + 1
    assert out(g, "tank")
    g = _assault_game(tmp_path, roles=("trained-at",), tank_roles=("protected",), name="p.ft")
    play(g, "@us closeassault inf tank flank dice=3")
    assert not out(g, "tank")
    play(g, "@us closeassault inf tank flank dice=2")  # 3 - 1
    assert out(g, "tank")


@pytest.mark.audits("LT-R101", "LT-AMB-24")
def test_only_on_the_flank_or_rear_and_with_no_friendly_infantry_within_5_cm(tmp_path):
    g = _assault_game(tmp_path, roles=("tank-hunters",))
    refused(g, "@us closeassault inf tank dice=1", rule="LT-R101")  # from the front
    refused(g, "@us closeassault inf tank flank escort=5 dice=1", rule="LT-R101")
    play(g, "@us closeassault inf tank flank escort=5.5 dice=1")
    assert out(g, "tank")


# ------------------------------------------------------------------------- melee


def _melee_game(tmp_path, att: dict, dfn: dict, name: str = "m.ft", att_cls="rifles", dfn_cls="rifles"):
    g = game_with(tmp_path, ALTERNATE, name)
    add(g, "att", "us", att_cls, team="X", status=att.pop("status", ()), stats=att)
    add(g, "dfn", "german", dfn_cls, team="Y", status=dfn.pop("status", ()), stats=dfn)
    play(g, "next", "@us activate att A4 prepare=0")
    return g


@pytest.mark.audits("LT-R102")
def test_melee_the_higher_total_wins_and_a_tie_destroys_both(tmp_path):
    g = _melee_game(tmp_path, {"morale": 3}, {"morale": 4})
    play(g, "@us melee att dfn dice=3,1")  # 6 against 5
    assert out(g, "dfn") and not out(g, "att")
    g = _melee_game(tmp_path, {"morale": 3}, {"morale": 4}, name="b.ft")
    play(g, "@us melee att dfn dice=2,2")  # 5 against 6
    assert out(g, "att") and not out(g, "dfn")
    g = _melee_game(tmp_path, {"morale": 3}, {"morale": 4}, name="c.ft")
    play(g, "@us melee att dfn dice=3,2")  # 6 against 6
    assert out(g, "att") and out(g, "dfn")


@pytest.mark.audits("LT-R102")
@pytest.mark.parametrize(
    ("flags", "dfn", "att", "faces", "want"),
    [
        ("entrenched", {}, {}, "5,3", "tie"),  # 8 against 3 + 3 + 2 = 8
        ("entrenched", {}, {}, "6,3", "att"),  # 9 against 8
        ("rear", {}, {}, "3,4", "tie"),  # 6 against 3 + 4 - 1 = 6
        ("rear", {}, {}, "3,5", "dfn"),  # 6 against 7
        ("", {"status": ("immobilised",)}, {}, "3,5", "tie"),  # 6 against 3 + 5 - 2
        ("", {}, {"status": ("immobilised",)}, "5,3", "tie"),  # an immobilised attacker: 3 + 5 - 2
    ],
)
def test_melee_modifiers(tmp_path, flags, dfn, att, faces, want):
    """+2 entrenched, -1 attacked from behind, -2 immobilised; both morale 3."""
    g = _melee_game(tmp_path, {"morale": 3, **att}, {"morale": 3, **dfn})
    if "immobilised" in att.get("status", ()):
        refused(
            g, f"@us melee att dfn {flags} dice={faces}", rule="LT-R081"
        )  # ruling LT-IMMOBILISED: it cannot move to assault
        return
    play(g, f"@us melee att dfn {flags} dice={faces}")
    assert (out(g, "att"), out(g, "dfn")) == {"tie": (True, True), "att": (False, True), "dfn": (True, False)}[want]


@pytest.mark.audits("LT-R102")
def test_immobilised_infantry_that_wins_a_melee_recovers(tmp_path):
    g = _melee_game(tmp_path, {"morale": 3}, {"morale": 3, "status": ("immobilised",)})
    play(g, "@us melee att dfn dice=1,6")  # 4 against 3 + 6 - 2 = 7
    assert out(g, "att") and not has(g, "dfn", "immobilised")


@pytest.mark.audits("LT-R102", "LT-AMB-25")
def test_infantry_attacked_frontally_may_shoot_first(tmp_path):
    g = _melee_game(tmp_path, {"morale": 3}, {"morale": 3, "mg": 6})
    play(g, "@german mg dfn att defence=moving-open opportunity dice=1")  # 6 - 0 > +4; 1: D
    assert out(g, "att")


@pytest.mark.audits("LT-R103", "LT-AMB-26")
def test_guns_cannot_start_a_melee_and_fight_at_minus_three(tmp_path):
    g = game_with(tmp_path, ALTERNATE)
    add(g, "gun", "us", "pak40", team="X", stats={"morale": 4, "mg": 1})
    add(g, "inf", "german", "rifles", team="Y", stats={"morale": 3})
    play(g, "next", "@us activate gun A4 prepare=0")
    refused(g, "@us melee gun inf dice=6,1", rule="LT-R103")
    g = _melee_game(tmp_path, {"morale": 3}, {"morale": 4}, name="g.ft", dfn_cls="pak40")
    play(g, "@us melee att dfn dice=3,5")  # 6 against 5 + 4 - 3 = 6: a tie
    assert out(g, "att") and out(g, "dfn")
    g = _melee_game(tmp_path, {"morale": 3}, {"morale": 4}, name="g2.ft", dfn_cls="pak40")
    play(g, "@us melee att dfn dice=3,6")  # 6 against 7
    assert out(g, "att") and not out(g, "dfn")


@pytest.mark.audits("LT-R100")
@pytest.mark.parametrize("option", ["A3", "A4 prepare=0"])
def test_a_tank_overruns_only_in_the_course_of_its_move(lt, option):
    add(lt, "tank", "us", "sherman", team="X", stats={"front": 5, "side": 3})
    add(lt, "inf", "german", "rifles", team="Y", stats={"at": 0})
    play(lt, "next", f"@us activate tank {option}")
    refused(lt, "overrun tank inf open", rule="LT-R100")


SMALL_GUN = (
    '[[profiles]]\nid = "pak36"\nname = "3.7 cm Pak 36"\nvehicle = false\nmorale = 3\nbound = 0\nspeed = 0\n'
    "at = 4\nmg = 1\n"
    '[[profiles]]\nid = "rifles"\nname = "Rifles"\nvehicle = false\nmorale = 3\nmg = 3\n'
)
SMALL_GUN_UNITS = (
    '[[units]]\nid = "gis"\nname = "GIs"\nside = "us"\nteam = "A"\ncls = "rifles"\n'
    '[[units]]\nid = "gun"\nname = "Pak 36"\nside = "german"\nteam = "B"\nkind = "gun"\ncls = "pak36"\n'
)


@pytest.mark.audits("LT-R001", "LT-R103", "LT-AMB-26")
@pytest.mark.parametrize(("faces", "gun_lost"), [("3,5", True), ("1,5", False)])
def test_a_small_gun_is_infantry_but_still_a_gun_in_melee(tmp_path, faces, gun_lost):
    """C.1: only tanks and large guns are "mezzi", the rest is infantry; a small gun is
    still a gun (C.9 note: it fights at -3): 3 + 3 against 5 + 3 - 3 = 5, 1 + 3 against 5."""
    g = scenario_game(tmp_path, SMALL_GUN, SMALL_GUN_UNITS)
    play(g, "next", "@us activate gis A4 prepare=0", f"@us melee gis gun dice={faces}")
    assert out(g, "gun") == gun_lost and out(g, "gis") != gun_lost


@pytest.mark.audits("LT-R001", "LT-R103")
def test_a_small_gun_cannot_start_a_melee_nor_assault_a_tank(tmp_path):
    units = SMALL_GUN_UNITS.replace('side = "us"', 'side = "X"').replace('side = "german"', 'side = "us"')
    units = units.replace('side = "X"', 'side = "german"')
    g = scenario_game(tmp_path, SMALL_GUN, units)
    play(g, "next", "@us activate gun A4 prepare=0")
    refused(g, "@us melee gun gis dice=6,1", rule="LT-R103")
