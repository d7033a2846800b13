"""Bassa Intensità rules the rules map (core/rulesets/bassa_intensita/data/rules_map.toml)
found with no test of its own, or wrong against the book, each checked from the book
with exact dice on the test table of bi_table.py."""

from __future__ import annotations

import pytest
from bi_table import book_game, goto, play, refused, rolls

from core.language.i18n import plain


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
    # BI-R181: "In copertura pesante +2", a trench too: Regular 4 + 3 + 2 = 9; fired at by
    # the assault rifle and the RPG in this phase, under fire -2 (BI-AMB-41): 7
    play(game, "mark carlo morale-due")
    facts = play(game, "morale carlo trench dice=7")
    assert (rolls(facts)[0].target, plain(rolls(facts)[0].outcome)) == (7, "passed")


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
    refused(
        game,
        "observe capo said cover",
        r"Sgt Capo cannot see Said: a hidden sniper .* NO \(BI-R210, BI-R165\)",
        rule="BI-R210",
    )


def test_bi_amb_62_only_anti_aircraft_fire_reaches_a_flying_helicopter(game):
    """BI-AMB-62 (ruling BI-HELICOPTERS): a flying helicopter is engaged only by the
    weapons of the anti-aircraft table (BI-R260), the RPG among them as an AT rocket
    within 80 cm; once landed it is fired at as an unarmoured vehicle (BI-R120). An
    assault rifle's fire at it rolled on the unarmoured damage table."""
    goto(game, "fire-regular")
    refused(
        game,
        "@red fire omar lynx range=20",
        r"Lynx is in the air: only anti-aircraft fire reaches it, aa",
        rule="BI-R260",
    )
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
    refused(game, "@blue hover lynx", "already moved", rule="BI-R030")
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
    strafing pass rolled no deviation at all (BI-AMB-49)."""
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


# ------------------------------------------------------------------- A.4 squads, command


def test_bi_r023_r025_r026_who_is_free_of_command_distance(game):
    """BI-R023: snipers of Elite, Veteran or Regular units ignore command distance, those of
    Recruit or Rabble units do not; BI-R025: combat vehicles are free of it; BI-R026: an
    unarmed transport keeps to its squad leader's command distance (BI-R021, BI-R024).

    Digest: BI-R020.
    """
    goto(game, "move-first")
    # a Regular sniper 50 cm from anyone: no isolation test
    facts = play(game, "@blue move elio 10 lead=50")
    assert not rolls(facts) and [e.cm for e in facts if hasattr(e, "cm")] == [10]
    # a Recruit sniper 10 cm from his Recruit leader (6 cm): isolated, he tests first (3 or less)
    facts = play(game, "@blue move rino 10 lead=10 dice=3")
    assert [(r.rule, r.target) for r in rolls(facts)] == [("BI-R024", 3)]
    # a tank is never isolated for command
    assert not rolls(play(game, "@blue move ariete 40 lead=300"))
    # the squad's unarmed truck 20 cm from its Regular sergeant (8 cm): isolated; a 9 fails
    facts = play(game, "@blue move camion 30 lead=20 dice=9")
    assert [(r.rule, r.target) for r in rolls(facts)] == [("BI-R024", 4)]
    assert unit(game, "camion").has("balked") and not [e for e in facts if hasattr(e, "cm")]


def test_bi_r027_a_combat_vehicle_is_always_isolated_for_morale(game):
    """BI-R027, BI-R025 (BI-AMB-08, ruling BI-ISOLATED): an armed transport the owner makes
    a combat vehicle "si considera sempre isolato per i test di morale": −2 on every check."""
    goto(game, "move-first")
    play(game, "@blue combat lince")
    facts = play(game, "morale lince m4 dice=5")  # Regular 4 + 3, isolated −2 = 5: a 5 passes
    (check,) = rolls(facts)
    assert check.target == 5 and ("isolated", -2) in [(plain(m.label), m.value) for m in check.mods]


def test_bi_amb_10_a_wounded_leader_still_commands(game):
    """BI-AMB-10 (ruling BI-LEADER): only a leader killed leaves his squad isolated
    (BI-R028); wounded, he still leads, and his men's check for him (M6) carries neither
    "isolated" nor "commander killed"."""
    goto(game, "fire-regular")
    facts = play(game, "@red fire omar capo range=20 dice=1,6,9")  # a hit, damage 6: wounded
    assert unit(game, "capo").has("wounded")
    play(game, "morale capo dice=1", "morale carlo dice=1", "morale camion dice=1")
    # Bruno: Regular 4 + 3, under automatic fire −2 = 5 (BI-R181)
    facts = play(game, "morale bruno dice=5")
    labels = [plain(m.label) for m in rolls(facts)[0].mods]
    assert rolls(facts)[0].target == 5 and "isolated" not in labels and "commander killed" not in labels
    goto(game, "move-first", 2)
    assert not rolls(play(game, "@blue move bruno 16"))  # no isolation test


# ------------------------------------------------------------------- A.7 covering fire


def test_bi_r052_covering_fire_at_a_visible_enemy_is_opportunity_fire_halved_once(game):
    """BI-R051: both players declare covering fire before the movement; BI-R052 (BI-AMB-16,
    ruling BI-COVER): at a visible enemy it is opportunity fire, halved once, rolled at
    once; BI-R054: it is the firer's activity: he may not move or fire again that turn."""
    goto(game, "cover")
    # Bruno's assault rifle, normal range: Regular 4, ½: 2; a 3 misses, a 2 hits; damage 1: near miss
    facts = play(game, "@blue fire bruno omar range=20 dice=3,2,1")
    assert [r.target for r in rolls(facts, "A.9.4")] == [2, 2]
    assert [m.value for m in rolls(facts, "A.9.4")[0].mods] == [4, -2]
    play(game, "morale omar dice=1")
    facts = play(game, "@red fire ali capo range=15 dice=9,1")  # the other side too: RPG 4, ½: 2; a miss
    assert rolls(facts, "A.9.4")[0].target == 2
    play(game, "next")
    refused(game, "@blue move bruno 5", "already fired", rule="BI-R030")
    goto(game, "fire-regular")
    refused(game, "@blue fire bruno omar range=20", "already fired", rule="BI-R030")


# ------------------------------------------------------------------ A.8 actions, A.9 fire


def test_bi_r068_a_very_easy_action_is_done_spends_the_turn_and_aims_nothing(game):
    """BI-R068: emplacing a weapon, reloading, changing a barrel are Very Easy actions
    (BI-R065): done, no roll (BI-R066), the man's one activity (BI-R062); BI-AMB-19
    (ruling BI-AIM): only the Aim action gives an aimed shot next turn, not any very easy
    action."""
    goto(game, "fire-regular")
    facts = play(game, "@blue act bruno very-easy emplace the LMG")
    assert not rolls(facts) and unit(game, "bruno").has("acted")
    refused(game, "@blue fire bruno omar range=20", "already acted", rule="BI-R030")
    goto(game, "fire-regular", 2)
    facts = play(game, "@blue fire bruno omar range=20 dice=5,5")  # Regular 4, no aimed +1: a 5 misses
    assert [r.target for r in rolls(facts, "A.9.4")] == [4, 4]


def test_bi_r071_r072_r087_single_shots_one_target_area_fire_one_roll_each(game):
    """BI-R071: a single-shot weapon hits one target only; BI-R072: an automatic weapon
    fires its shots at one target, or once at every figure in an area; BI-R087 (BI-AMB-22):
    one roll per figure the referee names in the area, the assault rifle's at ½.

    Digest: BI-R070.
    """
    goto(game, "fire-regular")
    refused(game, "@blue fire carlo omar ali range=20", "name one target, or fire at an area", rule="BI-R071")
    refused(game, "@blue fire carlo omar ali range=20 area", "cannot fire at an area", rule="BI-R072")
    # area mode: no short band, normal up to 20 cm: Regular 4, ½ = 2; Omar 2: hit (damage 1),
    # Ali 3: miss; one roll each
    facts = play(game, "@blue fire bruno omar ali range=20 area dice=2,1,3")
    assert [(r.target, plain(r.outcome)) for r in rolls(facts, "A.9.4")] == [
        (2, "hit: roll damage (A.12)"),
        (2, "miss"),
    ]
    assert len(rolls(facts, "A.12.1")) == 1


def test_bi_r084_a_target_firing_is_easier_to_hit_at_night_only(night):
    """BI-R084 (BI-AMB-10 b, ruling BI-NIGHT): "Bersaglio spara automatico +2" applies at
    night, when the target fired in the phase; the moon gives −1 within 20 cm (BI-R081)."""
    game = night
    goto(game, "fire-regular")
    facts = play(game, "@red fire omar capo range=15 dice=9,9")  # Regular 4, short +1, moon −1: 4
    assert [r.target for r in rolls(facts, "A.9.4")] == [4, 4]
    # Capo at Omar, who has just fired automatic: 4 + 1 − 1 + 2 = 6
    facts = play(game, "@blue fire capo omar range=15 dice=9,9")
    r = rolls(facts, "A.9.4")[0]
    assert r.target == 6 and 2 in [m.value for m in r.mods]


def test_bi_r084_by_day_a_target_firing_changes_nothing(game):
    """BI-R084 (BI-AMB-10 b): by day the "target firing" rows do not apply."""
    goto(game, "fire-regular")
    play(game, "@red fire omar capo range=15 dice=9,9")
    facts = play(game, "@blue fire capo omar range=15 dice=9,9")  # Regular 4, short +1: 5
    assert rolls(facts, "A.9.4")[0].target == 5


# ----------------------------------------------------------------------- A.14 observation


def test_bi_r162_r166_observing_movers_during_the_movement(game):
    """BI-R162: during the movement phase a player may try to observe moving enemies, and
    only them; BI-R166: observing is not an action, so a man who moved may observe and a
    man who observed may still fire; BI-R165: infantry moving in the open is Very Easy for
    infantry, seen without a roll."""
    play(game, "mark omar hidden", "mark ali hidden")
    goto(game, "move-first")
    play(game, "@blue move capo 8 cautious")
    refused(game, "observe capo omar", "during movement only moving enemies may be observed", rule="BI-R162")
    play(game, "next")  # red moves
    play(game, "@red move omar 10", "@red move ali 10")
    facts = play(game, "observe capo ali")  # Capo moved, and still observes
    assert not rolls(facts) and "ali" in game.view("blue").units
    play(game, "observe bruno omar")
    assert "omar" in game.view("blue").units
    goto(game, "fire-regular")
    facts = play(game, "@blue fire bruno omar range=20 dice=9,9")  # observing cost Bruno nothing
    assert len(rolls(facts, "A.9.4")) == 2


def test_bi_r167_an_open_vehicle_observes_better_than_a_closed_one(game):
    """BI-R165, BI-R167: infantry stationary in the open is Normal for an "open" vehicle
    (hatch open, commander out: the `open` role) and Difficult for a closed one."""
    play(game, "mark hassan hidden")
    goto(game, "observe")
    facts = play(game, "observe ariete hassan dice=4")  # closed: Difficult, Veteran ceil(5/2) = 3
    assert (rolls(facts)[0].target, plain(rolls(facts)[0].purpose)) == (3, "observation (difficult)")
    play(game, "undo")  # one attempt at him at the end of the phase (BI-R164): the open vehicle's instead
    facts = play(game, "observe lince hassan dice=4")  # open: Normal, Regular 4
    assert (rolls(facts)[0].target, plain(rolls(facts)[0].purpose)) == (4, "observation (normal)")
    assert "hassan" in game.view("blue").units


def test_bi_r258_a_helicopter_counts_as_moving_even_when_still(game):
    """BI-R258: for its noise a helicopter always counts as a moving vehicle for
    observation: a vehicle moving in the open is Very Easy for infantry, seen without a roll."""
    play(game, "mark lynx hidden")
    goto(game, "observe")
    assert not unit(game, "lynx").has("moved")
    facts = play(game, "observe omar lynx")
    assert not rolls(facts) and "lynx" in game.view("red").units


# ------------------------------------------------------------------------------ A.13 morale


def test_bi_amb_40_two_triggers_before_the_roll_make_one_check(game):
    """BI-AMB-40 (ruling BI-MORALE-ONCE): a man whose check is due (a near miss, M7) sees a
    squad mate killed (M5) before he rolls: still one check, with the worse modifiers."""
    goto(game, "fire-regular")
    play(game, "@red fire omar bruno range=20 dice=1,1,9")  # a near miss: Bruno's check is due
    facts = play(game, "@red fire ali carlo range=15 dice=1,1,10")  # the RPG's burst kills Carlo: M5
    assert not unit(game, "carlo").in_play
    said = [plain(e.text) for e in facts if hasattr(e, "text") and "Pte Bruno must check morale" in plain(e.text)]
    assert said == []  # due already: no second check
    play(game, "morale capo dice=1", "morale camion dice=1")
    facts = play(game, "morale bruno dice=5")  # Regular 4 + 3, under HE or automatic fire −2 = 5
    assert rolls(facts)[0].target == 5
    assert not unit(game, "bruno").has("morale-due")
    goto(game, "fire-recruit")  # nothing more is due: the phase moves on


# ------------------------------------------------------------------- A.12 vehicles, A.15 air


def test_bi_amb_37_an_atgm_hits_a_soft_vehicle_as_a_rocket():
    """BI-AMB-37 (ruling BI-DMG-ATGM): +2 on the unarmoured damage table, as a rocket (BI-R121)."""
    from core.rulesets.bassa_intensita.rules import damage
    from core.rulesets.bassa_intensita.tables import weapons

    assert [m.value for m in damage.unarmoured_mods(weapons()["atgm"])] == [2]
    assert damage.unarmoured_result(6, damage.unarmoured_mods(weapons()["atgm"])).id == "destroyed"  # 6 + 2


def test_bi_amb_60_a_stabilised_gun_fires_only_after_less_than_half_its_move(game):
    """BI-R240 (BI-AMB-60, ruling BI-STABILISED): "less than half" its allowance, strictly:
    30 of the tank's 60 cm is not less than half, and it may not fire."""
    goto(game, "move-first")
    play(game, "@blue move ariete 30")
    assert unit(game, "ariete").has("moved") and not unit(game, "ariete").has("moved-stabilised")
    goto(game, "fire-veteran")
    refused(game, "@blue fire ariete omar range=40", "already moved", rule="BI-R030")


def test_bi_r263_the_helicopter_table_row_by_row(game):
    """BI-R263 with exact 2d6, AA machine guns (Regular: 1 against a helicopter, BI-R260):
    5-6 a morale check one harder (BI-AMB-56, ruling BI-HELI-PENALTY); 9-10 each passenger
    hit on a 1 on 1d10 (BI-AMB-57, ruling BI-HELI-PASSENGERS); 11 a weapon lost; 12 the
    pilot killed in flight: destroyed, and the men aboard are hit."""
    goto(game, "fire-regular")
    play(game, "@red aa zaid lynx dice=1,2,3")  # 2d6 = 5
    assert unit(game, "lynx").has("morale-table-1")
    # Veteran 5 + 3, under automatic fire −2, the table's −1 = 5
    facts = play(game, "morale lynx dice=5")
    assert (rolls(facts)[0].target, plain(rolls(facts)[0].outcome)) == (5, "passed")
    # 2d6 = 9: Dino hit (1), damage 3: shocked; Ezio unhurt (2)
    facts = play(game, "@red aa zoran lynx dice=1,4,5,1,3,2")
    assert [(r.rule, plain(r.outcome)) for r in rolls(facts)][2:] == [
        ("BI-R263", "hit"),
        ("A.12.1", "shocked"),
        ("BI-R263", "unhurt"),
    ]
    play(game, "morale dino dice=1", "morale lynx dice=1")
    # 2d6 = 11: one of its two weapons at random, 1d2 = 2: the RPG
    play(game, "@red aa zeno lynx dice=1,5,6,2")
    assert unit(game, "lynx").has("weapon-lost-rpg")
    play(game, "morale lynx dice=1")
    # 2d6 = 12: the pilot killed in flight: destroyed; each man aboard rolls damage
    facts = play(game, "@red aa ziad lynx dice=1,6,6,1,10")
    assert plain(unit(game, "lynx").out) == "its pilot killed in flight"
    assert not unit(game, "ezio").in_play and unit(game, "dino").in_play


def test_bi_r252_anti_personnel_bombs_halve_the_chance_to_penetrate(game):
    """BI-R252 (BI-AMB-51, ruling BI-BOMBS): bombs penetrate as artillery over 106 mm (2
    against a tank), halved for anti-personnel bombs: 1."""
    goto(game, "fire-regular")
    facts = play(game, "burst ariete source=bomb-ap dice=1,2")  # caught (open, short: 6), then 2 > 1
    caught, pen = rolls(facts)
    assert (pen.rule, pen.target, plain(pen.outcome)) == ("A.12.3", 1, "not penetrated: check morale")


def test_bi_amb_31_a_ranging_shot_the_observer_cannot_see_is_lost(game):
    """BI-AMB-31, BI-AMB-30 (ruling BI-RANGING-LOST): a ranging shot out of the observer's
    sight is lost like "Dove sparate?": next turn another ranging shot, with deviation,
    without a new contact; BI-R253: the guns make no strafing pass."""
    goto(game, "fire-veteran")
    play(game, "@blue call fo dedicated mm=81 dice=5")
    goto(game, "fire-veteran", 2)
    play(game, "@blue ranging fo unseen dice=5,1")  # precise, bull's-eye: but unseen
    assert game.state.vars["secret.support.fo"] == "lost:gun-102:2"
    goto(game, "fire-veteran", 3)
    facts = play(game, "@blue ranging fo dice=5,2")  # again, with no new call
    assert [plain(r.outcome) for r in rolls(facts)] == ["precise", "bull's-eye"]
    goto(game, "fire-veteran", 4)
    refused(game, "@blue ffe fo strafe", "only aircraft make a strafing pass", rule="BI-R253")
