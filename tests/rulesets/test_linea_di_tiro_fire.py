# ruff: noqa: F811  (pytest fixtures imported from linea_di_tiro_support)
"""Linea di Tiro fire: a piece that flees does not fire, the consecutive-HE bonus,
the modified total in the log, and opportunity shots — with exact dice."""

from __future__ import annotations

import pytest
from linea_di_tiro_support import game, inject, play, rolls  # noqa: F401  (fixtures)
from playing import refused

from core.language.i18n import plain
from core.log import events as ev
from core.refusal import Refused
from core.rulesets.linea_di_tiro import rules
from tui.lines.why import why_refused


def test_a_routed_tank_fires_no_more_under_the_card(game):
    """Rules: LT-R051, LT-AMB-22."""
    play(game, "next", "next", "@german activate panzer A1")  # Q♠: the panzer prepares an attack
    play(game, "next", "next", "next")  # Joker, 3♣, K♦: us
    play(game, "@us activate sherman1 A4 prepare=0")  # two attacks to execute
    play(game, "@us at sherman1 panzer dice=6,6")  # 12: no effect
    # the panzer replies with its ready attack: 6 vs 5 front, column +1; 2 + 3 = 5 → R
    facts = play(game, "@german at panzer sherman1 ready dice=2,3")
    assert plain(rolls(facts)[0].outcome) == "modified total 5, column +1: R: routs without a test"
    sherman = game.state.units["sherman1"]
    assert sherman.has("retreating") and not sherman.has("attacks-1")
    assert any(isinstance(e, ev.Moved) and e.unit == "sherman1" and e.cm == 30 for e in facts)
    refused(game, "@us at sherman1 panzer", "fleeing and does not fire", rule="LT-R051")
    play(game, "@us next")  # 2♥: the flight was under the last card
    assert not game.state.units["sherman1"].has("retreating")


def test_a_fleeing_piece_cannot_spend_a_ready_attack(game):
    """Rules: LT-R051, LT-AMB-08."""
    play(game, "next", "@us activate gis A1")  # gis prepares one
    assert game.state.units["gis"].has("ready-1")
    play(game, "@us rout gis")  # and runs: the ready attack is lost with the flight
    assert not game.state.units["gis"].has("ready-1")
    inject(game, ev.StatusChanged(unit="gis", add=("ready-1",)))  # even were it kept
    refused(game, "@us mg gis grenadiers ready defence=still-open", "fleeing and does not fire", rule="LT-R051")


def test_consecutive_he_attacks_at_immobilised_infantry_gain_one_each(game):
    """LT-R061 (ruling LT-HE-STREAK): the HE attack that immobilises the piece is the
    first of the streak: the next HE attack gets +1, the one after +2.
    Rules: LT-AMB-20."""
    play(game, "next", "@us activate sherman1 A4 prepare=0")  # 7♥
    # HE 3 against stationary infantry 3: column 0; a 2 immobilises, and starts the streak
    facts = play(game, "@us mg sherman1 grenadiers he defence=still-open dice=2")
    assert plain(rolls(facts)[0].purpose) == "HE fire at Grenadiers, attack 3 - infantry stationary in the open 3 = +0"
    assert game.state.units["grenadiers"].has("immobilised")
    assert game.state.units["grenadiers"].has("he-1")
    # the second HE attack in a row: +1, column +1, where a 4 is no effect
    facts = play(game, "@us mg sherman1 grenadiers he defence=still-open dice=4")
    roll = rolls(facts)[0]
    assert "attack 3 + 1 for consecutive HE (LT-R061)" in plain(roll.purpose) and plain(roll.purpose).endswith("= +1")
    assert plain(roll.outcome) == "modified total 4, column +1: no effect"
    assert game.state.units["grenadiers"].has("he-2")
    play(game, "next", "next", "next", "next", "@us activate sherman1 A2")  # K♦: us again
    # the third in a row: +2, column +2, where a 1 destroys (column +1 only immobilises)
    facts = play(game, "@us mg sherman1 grenadiers he defence=still-open dice=1")
    roll = rolls(facts)[0]
    assert "attack 3 + 2 for consecutive HE (LT-R061)" in plain(roll.purpose) and plain(roll.purpose).endswith("= +2")
    assert plain(roll.outcome) == "modified total 1, column +2: D: destroyed"
    assert not game.state.units["grenadiers"].in_play


def test_an_mg_attack_breaks_the_he_streak(game):
    """LT-R061: only consecutive HE shots count; an MG attack between them ends the run."""
    play(game, "next", "@us activate sherman1 A4 prepare=0")  # 7♥
    play(game, "@us mg sherman1 grenadiers he defence=still-open dice=2")  # immobilised: he-1
    play(game, "@us mg sherman1 grenadiers defence=still-open dice=6")
    assert not any(b.startswith("he-") for b in game.state.units["grenadiers"].status)


def test_the_streak_ends_when_the_piece_recovers(game):
    """Rules: LT-R061, LT-AMB-20."""
    inject(game, ev.StatusChanged(unit="grenadiers", add=("immobilised", "he-3")))
    play(game, "next", "next", "next", "next")  # 3♣: german
    play(game, "@german activate grenadiers A7")
    assert game.state.units["grenadiers"].status == ("A7",)


def test_he_streak_rules():
    """Rules: LT-R061."""
    assert rules.he_bonus(0) == 0 and rules.he_bonus(2) == 2
    assert rules.he_streak_after(0, he=True, immobilised_infantry=True) == 1
    assert rules.he_streak_after(1, he=True, immobilised_infantry=True) == 2
    assert rules.he_streak_after(2, he=False, immobilised_infantry=True) == 0
    assert rules.he_streak_after(2, he=True, immobilised_infantry=False) == 0
    assert rules.he_streak_after(6, he=True, immobilised_infantry=True) == 6  # counted up to the cap


def test_the_at_log_line_shows_the_modified_total(game):
    """Rules: LT-AMB-15; the sum shown adds the modifier, as the modified total does (#61)."""
    play(game, "next", "@us activate sherman1 A2")
    play(game, "@us at sherman1 panzer hulldown dice=3,3")  # 6 + 1 = 7 on column 0 → no effect
    lines = [ln.text for ln in game.log_lines("us") if "AT fire" in ln.text]
    assert lines == [
        "Sherman Easy's AT fire at Panzer IV, attack 5 - protection 5 = +0: 2d6 "
        "(target hull down or in prepared cover +1): "
        "3 3 +1 = 7 → modified total 7, column 0: no effect [table dice]"
    ]


def test_an_opportunity_shot_at_an_assaulting_piece(game):
    """Rules: LT-R100, LT-AMB-25."""
    play(game, "next", "@us activate gis A4 prepare=0")  # 7♥: us; the GIs assault
    # the grenadiers, attacked from the front, shoot first: one free shot a card
    facts = play(game, "@german mg grenadiers gis opportunity defence=moving-open dice=5")  # 4 - 0: column +4, 5 → I
    assert plain(rolls(facts)[0].outcome).endswith("I: immobilised, loses its ready attacks")
    refused(
        game,
        "@german mg grenadiers gis opportunity defence=moving-open",
        "free opportunity shot on this card",
        rule="LT-AMB-25",
    )
    refused(
        game, "@german mg grenadiers gis defence=moving-open", "is US 2nd Armored's", rule="LT-R010"
    )  # no plain fire out of turn
    play(game, "next", "next", "next", "next")  # K♦: a new card, a new free shot
    play(game, "@us activate bazooka A4 prepare=0")
    play(game, "@german mg grenadiers bazooka opportunity defence=moving-open dice=6")
    assert game.state.units["grenadiers"].has("opportunity")


def test_a_reply_from_a_destroyed_piece_is_refused_by_the_reply_rule(game):
    """LT-R052: only a target that survives the attack may answer it with a prepared attack.  The
    Panzer holds one, and the Sherman's AT fire destroys it (5 against front 5, column 0: a 2 is
    D); its reply is refused naming LT-R052, and `why` then names that rule, not the AT and
    MG/HE tables' legends (issue #91).  An ambush reply is refused by LT-R053 alike."""
    play(game, "next", "next", "@german activate panzer A1")  # Q♠: the panzer prepares an attack
    play(game, "next", "next", "next", "@us activate sherman1 A4 prepare=0")  # Joker, 3♣, K♦: us
    play(game, "@us at sherman1 panzer dice=1,1")
    assert game.state.units["panzer"].out and game.state.units["panzer"].has("ready-1")
    said = refused(game, "@german at panzer sherman1 ready", "out of action", rule="LT-R052")
    with pytest.raises(Refused) as e:
        game.execute("at panzer sherman1 ready", role="german")
    assert e.value.rules == ("LT-R052",)
    why = why_refused(game, said, e.value.rules)
    assert any("Rule LT-R052 (C.6" in line for line in why), why  # what it says, then its name and cite
    assert not any("LT-R050c" in line or "LT-R060a" in line for line in why)
    refused(game, "@german mg panzer gis ready", "out of action", rule="LT-R052")
    refused(game, "@german mg panzer gis ambush", "out of action", rule="LT-R053")
