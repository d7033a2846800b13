"""Bassa Intensità rules the rules map (core/rulesets/bassa_intensita/data/rules_map.toml)
found with no test of its own, or wrong against the book, each checked from the book
with exact dice on the test table of bi_table.py."""

from __future__ import annotations

import pytest
from bi_table import book_game, goto, play, rolls

from core.language.i18n import plain
from core.ruleset import Refused


@pytest.fixture
def game(tmp_path, monkeypatch):
    g = book_game(tmp_path, monkeypatch)
    yield g
    g.close()


@pytest.fixture
def night(tmp_path, monkeypatch):
    g = book_game(tmp_path, monkeypatch, night="moon")
    yield g
    g.close()


def unit(g, uid):
    return g.state.units[uid]


# ------------------------------------------------------------------------ A.9, A.10


def test_bi_r080_a_man_in_a_trench_is_in_heavy_cover_and_dug_in_against_he(game):
    """BI-R080: "Copertura pesante (edificio in pietra, trincea etc.) −2": a man in a
    trench is in heavy cover for the hit; BI-R092, BI-R093: caught by the burst of an HE
    hit, he is "Trincerati" (2 at short distance), not merely in cover (3); BI-R181: his
    morale check takes heavy cover's +2. (`cover=trench` was refused on fire, naming a
    modifier row that does not exist.)"""
    goto(game, "fire-regular")
    # Omar, Regular 4, normal range, heavy cover −2: 2; the first shot hits, damage 1: a near miss
    facts = play(game, "@red fire omar carlo range=20 cover=trench dice=2,1,3")
    assert [r.target for r in rolls(facts, "A.9.4")] == [2, 2]
    assert any(plain(m.label) == "heavy cover" for m in rolls(facts, "A.9.4")[0].mods)
    play(game, "morale carlo dice=1")
    # Ali's RPG: Regular 4, normal range, heavy cover −2: 2; a 1 hits; entrenched, short: 2; a 3 leaves him unhurt
    facts = play(game, "@red fire ali carlo range=15 cover=trench dice=1,3")
    (caught,) = rolls(facts, "A.10.3")
    assert (caught.target, plain(caught.outcome)) == (2, "unhurt")
    # BI-R181: "In copertura pesante +2", a trench too: Regular 4 + 3 + 2 = 9
    play(game, "mark carlo morale-due")
    facts = play(game, "morale carlo trench dice=9")
    assert (rolls(facts)[0].target, plain(rolls(facts)[0].outcome)) == (9, "passed")


def test_bi_r210_a_hidden_sniper_is_not_seen_at_night(night):
    """BI-R210: a hidden sniper is seen only as a Difficult observation, in a turn he
    fires; BI-R165: "peggiorata di un livello se di notte": Difficult becomes NO, so at
    night he is not seen at all (the attempt crashed on the sniper's missing matrix row)."""
    game = night
    play(game, "mark said hidden")
    goto(game, "fire-regular")
    # a Regular sniper fires on 1-2 (BI-R210): a 2; moonlight at 40 cm, −2: he misses on a 9
    facts = play(game, "@red fire said capo range=40 dice=2,9")
    assert [plain(r.outcome) for r in rolls(facts)] == ["he fires", "miss"]
    goto(game, "end")
    with pytest.raises(Refused, match=r"Sgt Capo cannot see Said: a hidden sniper .* NO \(BI-R210, BI-R165\)"):
        play(game, "observe capo said cover")


def test_bi_amb_62_only_anti_aircraft_fire_reaches_a_flying_helicopter(game):
    """BI-AMB-62 (ruling BI-HELICOPTERS): a flying helicopter is engaged only by the
    weapons of the anti-aircraft table (BI-R260), the RPG among them as an AT rocket
    within 80 cm; once landed it is fired at as an unarmoured vehicle (BI-R120). An
    assault rifle's fire at it rolled on the unarmoured damage table."""
    goto(game, "fire-regular")
    with pytest.raises(Refused, match=r"Lynx is in the air: only anti-aircraft fire reaches it, aa"):
        play(game, "@red fire omar lynx range=20")
    # the RPG as an AT rocket: 1 against a helicopter, Regular +0: a 1 hits; 2d6 = 7: a morale check
    facts = play(game, "@red aa ali lynx range=60 dice=1,3,4")
    assert [r.rule for r in rolls(facts)] == ["BI-R260", "BI-R263"] and rolls(facts)[0].target == 1
    play(game, "morale lynx dice=1")
    goto(game, "move-first", 2)
    play(game, "@blue land lynx")
    goto(game, "fire-regular", 2)
    # landed: Omar's assault rifle hits (4), and the helicopter rolls on the unarmoured table
    facts = play(game, "@red fire omar lynx range=20 dice=4,2,9")
    assert [r.rule for r in rolls(facts)] == ["A.9.4", "A.12.2", "A.9.4"]
    assert unit(game, "lynx").has("slowed")


def test_bi_r263_a_damaged_rotor_is_rolled_at_the_start_of_each_movement_phase(game):
    """BI-R263: "lancia 1d6 all'inizio di ogni fase di movimento": the helicopter whose
    rotor is damaged rolls as each movement phase begins, whether it means to fly or to
    hover, not only when it flies (a hovering one never rolled)."""
    play(game, "mark lynx rotor-damaged")
    goto(game, "cover")
    facts = play(game, "next dice=3")  # it holds: it may hover this turn
    assert [(r.rule, plain(r.outcome)) for r in rolls(facts)] == [("BI-R263", "it holds")]
    play(game, "@blue hover lynx")
    goto(game, "cover", 2)
    facts = play(game, "next dice=1")  # the next turn's movement: a 1, it comes down
    assert plain(rolls(facts)[0].outcome) == "it must land or go home"
    with pytest.raises(Refused, match="already moved"):
        play(game, "@blue hover lynx")
    play(game, "clear lynx rotor-damaged")
    goto(game, "cover", 3)
    assert not rolls(play(game, "next"))  # repaired: nothing to roll


def test_bi_amb_26_a_vehicle_in_an_he_area(game):
    """BI-AMB-26 (ruling BI-HE-VEHICLES): a vehicle in an HE area is hit by A.10.3 for its
    terrain, then takes the firing weapon's penetration (artillery rows, −4 on armoured
    damage when indirect, BI-R141) or the unarmoured table with its modifier: "+4 se a
    sparare è stato un cannone, mortaio" (BI-R121). A mortar's round gave a truck +0."""
    goto(game, "fire-regular")
    # an 81 mm mortar round (gun-102), short: the technical in the open 6; a 1 hits; damage 3 + 4 = 7
    facts = play(game, "burst tecnica source=gun-102 indirect dice=1,3")
    caught, dmg = rolls(facts)
    assert (caught.rule, caught.target) == ("A.10.3", 6)
    assert dmg.rule == "A.12.2" and [m.value for m in dmg.mods] == [4]
    assert plain(dmg.outcome) == "immobilised"
    play(game, "morale tecnica dice=1")
    # the BMP: caught on a 2; artillery under 106 mm penetrates other armour on 2 (a 2);
    # damage 9 − 4 (indirect) = 5: immobilised
    facts = play(game, "burst bmp source=gun-102 indirect dice=2,2,9")
    caught, pen, dmg = rolls(facts)
    assert (pen.rule, pen.target, plain(pen.outcome)) == ("A.12.3", 2, "penetrated")
    assert (dmg.rule, sum(m.value for m in dmg.mods), plain(dmg.outcome)) == ("A.12.4", -4, "immobilised")


def test_bi_r253_the_strafing_pass_rolls_its_deviation_again(game):
    """BI-R253: after the bombs "a second, strafing pass on the same objective, rolling
    deviation again" (ruling BI-AIR-CONTACT: each pass rolled as a ranging shot); then
    each target in the 10 × 60 cm strip is fired at as by a 20/35 mm autocannon. The
    strafing pass rolled no deviation at all."""
    goto(game, "fire-veteran")
    play(game, "@blue call fo air bomb=ap dice=5")  # normal, Veteran 5: a 5 gets through (BI-R250)
    goto(game, "fire-veteran", 2)
    # bombs: precise (5), bull's-eye (1); the strafing pass: imprecise (7), long (3), 4d10 = 12 cm
    facts = play(game, "@blue ffe fo strafe dice=5,1,7,3,2,3,3,4")
    assert [(r.rule, plain(r.outcome)) for r in rolls(facts)] == [
        ("BI-R103", "precise"),
        ("A.11", "bull's-eye"),
        ("BI-R103", "imprecise"),
        ("A.11", "long"),
        ("A.11", "12 cm"),
    ]
    notes = [plain(e.text) for e in facts if hasattr(e, "text")]
    assert "the strafing pass lands 12 cm long" in notes
    assert any(n.startswith("the strafing pass fires on a 10 x 60 cm strip where it lands") for n in notes)
    # a side reads what lands, not the referee's command
    assert not any("strafe UNIT" in line.text for line in game.log_lines("blue"))
