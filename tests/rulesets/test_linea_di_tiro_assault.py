# ruff: noqa: F811  (pytest fixtures imported from linea_di_tiro_support)
"""Linea di Tiro assaults (C.9): overruns, close assaults on tanks and melee,
as pure rules and as commands with exact dice."""

from __future__ import annotations

import pytest
from linea_di_tiro_support import game, inject, piece, play, rolls  # noqa: F401  (fixtures)
from playing import refused

from core.language.i18n import plain
from core.log import events as ev
from core.refusal import TYPING
from core.rulesets.linea_di_tiro.rules import assault


def moved(facts, uid):
    return [e for e in facts if isinstance(e, ev.Moved) and e.unit == uid]


# --------------------------------------------------------------------- pure rules


def test_overrun_rules():
    """Rules: LT-R100."""
    assert assault.overrun_test_needed(portable_at=True, immobilised=False)
    assert not assault.overrun_test_needed(portable_at=True, immobilised=True)
    assert not assault.overrun_test_needed(portable_at=False, immobilised=False)
    assert assault.overrun_destroys(in_open=True, face=None)
    assert [assault.overrun_destroys(False, f) for f in range(1, 7)] == [True] * 4 + [False] * 2


def test_close_assault_rules():
    """Rules: LT-R101, LT-AMB-24."""
    assert assault.close_assault_need(3, assault.close_assault_mods(tank_has_mg=True, protected=False)) == 3
    assert assault.close_assault_need(1, assault.close_assault_mods(tank_has_mg=False, protected=False)) == 2
    assert assault.close_assault_need(5, assault.close_assault_mods(tank_has_mg=True, protected=True)) == 4
    assert assault.close_assault_destroys(3, 3) and not assault.close_assault_destroys(4, 3)
    assert assault.can_assault_tank(True, None) == ""
    assert assault.can_assault_tank(True, 6) == ""
    assert "flank or rear" in assault.can_assault_tank(False, None)
    assert "adjacent" in assault.can_assault_tank(True, 5)
    with pytest.raises(ValueError, match="negative"):
        assault.can_assault_tank(True, -1)


def test_melee_rules():
    """Rules: LT-R102."""
    mods = assault.melee_mods(entrenched=True, from_behind=True, immobilised=True, gun=True)
    assert [m.value for m in mods] == [2, -1, -2, -3]
    assert assault.melee_winner(8, 7) == "attacker"
    assert assault.melee_winner(6, 7) == "defender"
    assert assault.melee_winner(7, 7) == "both"


# ----------------------------------------------------------------------- overruns


def test_a_tank_overruns_infantry_in_the_open_without_a_roll(game):
    """Rules: LT-R100."""
    play(game, "next", "next", "@german activate panzer A5")  # Q♠
    facts = play(game, "@german overrun panzer gis open")  # the GIs have no AT weapon: no test
    assert rolls(facts) == []
    assert plain(game.state.units["gis"].out) == "overrun by a tank"


def test_infantry_that_fails_its_test_stays_in_place(game):
    """Rules: LT-R100, LT-AMB-23."""
    play(game, "next", "next", "@german activate panzer A1")
    # the bazooka team (morale 3) tests: a 4 fails; it stays (no fall back); the tank's 4 destroys it in cover
    facts = play(game, "@german overrun panzer bazooka dice=4,4")
    assert [plain(r.outcome) for r in rolls(facts)] == ["failed: it stays in place", "destroyed"]
    assert moved(facts, "bazooka") == []
    assert plain(game.state.units["bazooka"].out) == "overrun by a tank"


def test_infantry_that_passes_strikes_first(game):
    """Rules: LT-R100."""
    play(game, "next", "next", "@german activate panzer A5")
    # passes on 3; first strike as trained infantry with AT weapons, 3 or less: a 3 destroys the tank
    facts = play(game, "@german overrun panzer bazooka dice=3,3")
    r = rolls(facts)
    assert [plain(x.outcome) for x in r] == ["passed: it strikes first", "tank destroyed"]
    assert r[1].target == 3 and r[1].under
    assert plain(game.state.units["panzer"].out) == "destroyed in a close assault"
    assert game.state.units["bazooka"].in_play


def test_a_missed_first_strike_is_followed_by_the_tanks_attack(game):
    """Rules: LT-R100, LT-AMB-23."""
    play(game, "next", "next", "@german activate panzer A5")
    facts = play(game, "@german overrun panzer bazooka dice=3,6,5")  # passes, misses; the tank's 5 fails in cover
    assert [plain(x.outcome) for x in rolls(facts)] == ["passed: it strikes first", "no effect", "survives"]
    assert game.state.units["bazooka"].in_play and game.state.units["panzer"].in_play


def test_immobilised_infantry_takes_no_test(game):
    """Rules: LT-R100."""
    inject(game, ev.StatusChanged(unit="bazooka", add=("immobilised",)))
    play(game, "next", "next", "@german activate panzer A5")
    facts = play(game, "@german overrun panzer bazooka dice=5")
    assert [plain(x.purpose) for x in rolls(facts)] == ["overrun of GIs, bazooka half in cover"]
    assert game.state.units["bazooka"].in_play


def test_an_overrun_is_part_of_a_tanks_move(game):
    play(game, "next", "next")
    refused(game, "@german overrun panzer gis open", "activate it with A1, A2 or A5", rule="LT-R100")
    play(game, "@german activate panzer A4")
    refused(game, "@german overrun panzer gis open", "activate it with A1, A2 or A5", rule="LT-R100")
    refused(game, "@german overrun panzer sherman1", "is a tank", rule="LT-R100")


# -------------------------------------------------------------- close assaults


def test_infantry_assaults_a_tank_from_the_rear(game):
    """Rules: LT-R101, LT-AMB-24."""
    play(game, "next", "@us activate gis A2")  # 7♥
    refused(game, "@us closeassault gis panzer", "only on the flank or rear", rule="LT-R101")
    refused(game, "@us closeassault gis panzer rear escort=5", "friendly infantry adjacent", rule="LT-R101")
    # the GIs have no AT weapon: improvised, 1 or less; the Panzer has machine guns
    facts = play(game, "@us closeassault gis panzer rear escort=6 dice=2")
    r = rolls(facts)[0]
    assert (r.target, r.under, plain(r.outcome)) == (1, True, "no effect")
    assert game.state.units["panzer"].in_play
    refused(game, "@us closeassault gis panzer rear", "no attack left", rule="LT-R020")


def test_tank_hunters_against_a_protected_tank(game):
    """Rules: LT-R101."""
    inject(
        game,
        piece("hunters", "us", "rifles", roles=("tank-hunters",)),
        piece("tiger", "german", "pz4", roles=("protected",)),
    )
    play(game, "next", "@us activate hunters A2")
    facts = play(game, "@us closeassault hunters tiger flank dice=4")  # 5 - 1 protected = 4: a 4 destroys it
    r = rolls(facts)[0]
    assert r.target == 4 and [m.value for m in r.mods] == [-1]
    assert plain(game.state.units["tiger"].out) == "destroyed in a close assault"


def test_a_scenarios_own_rating_and_a_tank_without_machine_guns(game):
    """Rules: LT-R101."""
    inject(
        game,
        piece("veterans", "us", "rifles", stats={"close_assault": 3}),
        piece("odd", "us", "rifles", stats={"close_assault": 4}),
        piece("stug", "german", "pz4", roles=("no-mg",)),
    )
    play(game, "next", "@us activate veterans A2")
    facts = play(game, "@us closeassault veterans stug rear dice=4")  # 3 + 1 (no MG) = 4: a 4 destroys it
    r = rolls(facts)[0]
    assert plain(r.purpose) == "close assault at Stug, its scenario's rating 3" and r.target == 4
    assert game.state.units["stug"].out
    play(game, "next", "next", "next", "next", "@us activate odd A2")  # K♦
    refused(game, "@us closeassault odd panzer rear", "rating is one of 1, 3, 5, not 4", rule=TYPING)


def test_infantry_marked_with_portable_at_weapons_tests_before_an_overrun(game):
    inject(game, piece("rangers", "us", "rifles", roles=("portable-at",)))
    play(game, "next", "next", "@german activate panzer A5")
    facts = play(game, "@german overrun panzer rangers open dice=6")  # fails its test: stays, destroyed in the open
    assert [plain(x.outcome) for x in rolls(facts)] == ["failed: it stays in place"]
    assert plain(game.state.units["rangers"].out) == "overrun by a tank"


def test_guns_are_not_close_assaulted_but_meleed(game):
    inject(game, ev.UnitAdded(unit=ev.UnitSpec(id="flak", name="Flak", side="german", cls="pak40")))
    play(game, "next", "@us activate gis A2")
    refused(game, "@us closeassault gis flak rear", "not a tank", rule="LT-R102")


# ------------------------------------------------------------------------ melee


def test_melee_the_higher_total_wins(game):
    """Rules: LT-R102."""
    play(game, "next", "@us activate gis A2")
    # GIs morale 3 + 5 = 8 against grenadiers morale 4 + 3 = 7
    facts = play(game, "@us melee gis grenadiers dice=5,3")
    assert [(plain(x.purpose), plain(x.outcome)) for x in rolls(facts)] == [
        ("melee with Grenadiers, 1d6 + morale", "total 8"),
        ("melee with GIs, first half, 1d6 + morale", "total 7"),
    ]
    assert plain(game.state.units["grenadiers"].out).startswith("captured or destroyed in a melee")
    assert game.state.units["gis"].in_play


def test_melee_a_tie_destroys_both(game):
    """Rules: LT-R102."""
    play(game, "next", "@us activate gis A2")
    play(game, "@us melee gis grenadiers dice=4,3")  # 7 against 7
    assert game.state.units["gis"].out and game.state.units["grenadiers"].out


def test_melee_modifiers_and_an_immobilised_winner_recovers(game):
    """Rules: LT-R102."""
    inject(game, ev.StatusChanged(unit="grenadiers", add=("immobilised",)))
    play(game, "next", "@us activate gis A2")
    # grenadiers entrenched +2, from behind -1, immobilised -2: 4 + 6 - 1 = 9 against GIs 3 + 1 = 4
    facts = play(game, "@us melee gis grenadiers rear entrenched dice=1,6")
    defender = rolls(facts)[1]
    assert [(plain(m.label), m.value) for m in defender.mods] == [
        ("morale", 4),
        ("entrenched", 2),
        ("attacked from behind", -1),
        ("immobilised", -2),
    ]
    assert game.state.units["gis"].out
    assert not game.state.units["grenadiers"].has("immobilised")


def test_guns_cannot_start_a_melee_and_fight_at_minus_three(game):
    """Rules: LT-R103, LT-AMB-26, LT-R001."""
    inject(
        game,
        ev.UnitAdded(unit=ev.UnitSpec(id="flak", name="Flak", side="german", team="Zug 1", cls="pak40")),
        ev.UnitAdded(unit=ev.UnitSpec(id="atgun", name="AT gun", side="us", team="2nd Platoon", cls="pak40")),
    )
    play(game, "next", "@us activate atgun A2")
    refused(game, "@us melee atgun grenadiers", "guns cannot", rule="LT-R103")
    refused(game, "@us melee sherman1 grenadiers", "a tank overruns", rule="LT-R102")
    play(game, "next", "next", "next", "@german activate grenadiers A2")  # 3♣
    facts = play(game, "@german melee grenadiers atgun dice=1,6")  # 4 + 1 = 5 against 4 + 6 - 3 = 7
    assert ("a gun", -3) in [(plain(m.label), m.value) for m in rolls(facts)[1].mods]
    assert game.state.units["grenadiers"].out
