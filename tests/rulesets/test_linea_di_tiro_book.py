# ruff: noqa: F811  (pytest fixtures imported from linea_di_tiro_support)
"""Linea di Tiro rules the rules map (core/rulesets/linea_di_tiro/data/rules_map.toml)
found with no test of their own, each checked from the book with exact dice."""

from __future__ import annotations

from linea_di_tiro_support import game, inject, notes, play, rolls  # noqa: F401  (fixtures)
from playing import refused

from core.language.i18n import plain
from core.log import events as ev
from core.refusal import TYPING


def test_lt_amb_16_the_long_range_note_reads_the_modified_result(game):
    """LT-AMB-16 (ruling LT-AT-LONG): "at long range no effect with a result > 6" is the
    modified 2d6. The Sherman's long-range attack 4 at the Panzer's side 3 is column +1,
    where a 7 is a morale test and a 6 too (LT-R050)."""
    play(game, "next", "@us activate sherman1 A4 prepare=0")  # 7♥: two attacks
    # 3 + 3 = 6, hull down +1: a modified 7 at long range has no effect
    facts = play(game, "@us at sherman1 panzer flank long hulldown dice=3,3")
    assert plain(rolls(facts)[0].outcome) == "modified total 7, column +1: no effect"
    # 4 + 3 = 7, within 5 cm −1: a modified 6 is read, even at long range: T
    facts = play(game, "@us at sherman1 panzer flank long close dice=4,3")
    assert plain(rolls(facts)[0].outcome) == "modified total 6, column +1: T: morale test"
    assert "Panzer IV must test morale: morale panzer" in notes(facts)


def test_lt_amb_18_an_ambush_is_minus_one_on_the_mg_table_too(game):
    """LT-AMB-18 (ruling LT-MG-MODS), LT-R053: the hidden Pak, spotted with a ready
    attack, replies at its spotter with −1 on the MG/HE die as on the AT one. MG 1
    against infantry stationary in the open 3 is column <0, where only a 1 immobilises."""
    play(game, "next", "next", "@german activate pak A1")  # Q♠: the Pak prepares an attack
    play(game, "next", "next", "next")  # Joker, 3♣, K♦: us
    play(game, "spot pak by=gis at=10 state=still-cover")  # infantry sees a gun in cover at 20 cm
    facts = play(game, "@german mg pak gis ambush defence=still-open dice=2")
    (roll,) = rolls(facts)
    assert [m.value for m in roll.mods] == [-1]
    assert plain(roll.outcome) == "modified total 1, column <0: I: immobilised, loses its ready attacks"
    assert game.state.units["gis"].has("immobilised")


def test_lt_amb_10_a_target_replies_only_at_an_attacker_it_sees(game):
    """LT-R052, LT-AMB-10 (ruling LT-REPLY): the target of an attack may answer with its
    ready attack only at an attacker it may attack, a visible one (LT-R030): the hidden
    Pak's shot at the Sherman cannot be answered until the Pak is spotted."""
    play(game, "next", "@us activate sherman1 A1")  # 7♥: the Sherman prepares an attack
    play(game, "next", "@german activate pak A2")  # Q♠: the hidden Pak fires
    facts = play(game, "@german at pak sherman1 dice=6,6")  # 12: no effect
    assert plain(rolls(facts)[0].outcome) == "modified total 12, column +2: no effect"
    refused(game, "@us mg sherman1 pak ready", "no unit 'pak'", rule=TYPING)
    assert game.state.units["sherman1"].has("ready-1")
    play(game, "spot pak by=gis at=40 state=still-cover")  # it fired once: 20 cm doubled
    facts = play(game, "@us mg sherman1 pak ready dice=6")  # a gun has no armour: MG/HE
    assert plain(rolls(facts)[0].purpose).startswith("MG fire at Pak 40")
    assert not game.state.units["sherman1"].has("ready-1")


def test_lt_r081_an_immobilised_piece_tests_morale_one_worse(game):
    """LT-R081: being immobilised adds +1 to the morale die (LT-AMB-21, ruling
    LT-IMMOBILISED); each other situation the referee names adds +1 more (LT-AMB-02).
    Grenadiers, morale 4."""
    inject(game, ev.StatusChanged(unit="grenadiers", add=("immobilised",)))
    play(game, "next", "next", "next", "next")  # 3♣: german
    facts = play(game, "@german morale grenadiers dice=4")  # 4 + 1 = 5: above 4, falls back
    (roll,) = rolls(facts)
    assert [(plain(m.label), m.value) for m in roll.mods] == [("immobilised", 1)]
    assert plain(roll.outcome) == "modified total 5: fall-back"
    facts = play(game, "@german morale grenadiers plus=2 dice=5")  # 5 + 1 + 2 = 8: twice 4, flees
    (roll,) = rolls(facts)
    assert [m.value for m in roll.mods] == [1, 2] and plain(roll.outcome) == "modified total 8: flee"
    assert game.state.units["grenadiers"].has("retreating")


def test_lt_amb_19_infantry_in_protection_not_prepared(game):
    """LT-AMB-19 (ruling LT-DEFENCE-GAPS), C.7.1: infantry stationary in protection that is
    not a prepared position defends at +4, moving in protection at +1; the book's rows
    keep their values. The GIs' MG 3 at stationary grenadiers in protection is column
    −1, where only a 1 immobilises; at grenadiers moving inside it, column +2."""
    from core.rulesets.linea_di_tiro.tables import mg_table

    gaps = {d.id: d.value for d in mg_table().defences if d.source != "book"}
    assert gaps == {"still-protected": 4, "moving-protected": 1}
    assert all(d.source in ("book", "LT-DEFENCE-GAPS") for d in mg_table().defences)
    play(game, "next", "@us activate gis A4 prepare=0")  # 7♥: two attacks
    facts = play(game, "@us mg gis grenadiers defence=still-protected dice=2")
    (roll,) = rolls(facts)
    assert plain(roll.purpose) == "MG fire at Grenadiers, attack 3 - infantry stationary in protection 4 = -1"
    assert plain(roll.outcome) == "modified total 2, column <0: no effect"
    facts = play(game, "@us mg gis grenadiers defence=moving-protected dice=1")
    (roll,) = rolls(facts)
    assert plain(roll.purpose) == "MG fire at Grenadiers, attack 3 - infantry moving in protection 1 = +2"
    assert plain(roll.outcome) == "modified total 1, column +2: D: destroyed"


def test_lt_r052_one_attack_is_answered_with_one_prepared_attack(game):
    """LT-R052: "the target just attacked, if it survives, may immediately respond, if it has a
    prepared attack".  The Panzer holds two prepared attacks; the Sherman's attack at it (12:
    no effect) is answered once; the second prepared attack has nothing left to answer, nor
    may the Panzer reply to a piece that did not attack it."""
    play(game, "next", "next", "@german activate panzer A4")  # Q♠: the panzer prepares 2
    assert game.state.units["panzer"].has("ready-2")
    play(game, "next", "next", "next")  # Joker, 3♣, K♦: us
    play(game, "@us activate sherman1 A4 prepare=0")  # two attacks
    refused(game, "@german at panzer sherman1 ready dice=6,6", "LT-R052", rule="LT-R052")  # nothing to answer yet
    facts = play(game, "@us at sherman1 panzer dice=6,6")
    assert plain(rolls(facts)[0].outcome).endswith("no effect")
    facts = play(game, "@german at panzer sherman1 ready dice=6,6")
    assert plain(rolls(facts)[0].outcome).endswith("no effect")
    assert game.state.units["panzer"].has("ready-1")
    refused(game, "@german at panzer sherman1 ready dice=6,6", "LT-R052", rule="LT-R052")
    assert game.state.units["panzer"].has("ready-1")
