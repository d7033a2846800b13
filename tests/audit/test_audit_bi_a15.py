"""Audit of Bassa Intensità A.15, aircraft and helicopters, written from the rulebook and
its digest alone: calling an air strike and its passes, bombs, helicopters' flight,
landing and fast-roping, anti-aircraft fire by weapon and Quality at the edge of each
chance (halved in the movement phase, rounded up), an aircraft hit, the helicopter table
row by row, and a helicopter crew's morale."""

from __future__ import annotations

import pytest
from audit_bi_late import goto, late_table, notes, outcomes, play, refused, unit
from playing import all_refused

from core.language.reader import reading
from core.log import events as ev

game = late_table()
long_game = late_table("long_game", turns=0)


def strike(game) -> None:
    """Blue's observer calls an air strike (Veteran 5, normal: a 5 gets through) in turn 1."""
    goto(game, "fire-veteran")
    play(game, "@blue call fo air bomb=ap dice=5")


# ------------------------------------------------------------------- A.15.1 air attack


@pytest.mark.audits("BI-R250", "BI-AMB-49", "BI-R251", "BI-AMB-50")
def test_an_air_strike_attacks_in_the_next_fire_phase_without_ranging(game):
    """BI-R250: called as indirect artillery, but no ranging shots: once contacted it
    attacks in the following fire phase as fire for effect; BI-AMB-49: its aim point by the
    indirect deviation tables; BI-R251: 60 × 20 cm at long distance, 30 × 10 cm at its
    centre at short."""
    goto(game, "fire-veteran")
    facts = play(game, "@blue call fo air bomb=ap dice=6")  # Veteran 5: a 6 fails
    assert outcomes(facts)[0][1] == 5 and not any("through" in n for n in notes(facts))
    goto(game, "fire-veteran", 2)
    play(game, "@blue call fo air bomb=ap dice=5")
    goto(game, "fire-veteran", 3)
    refused(game, "@blue ranging fo dice=1,1", "air|aircraft|ranging", rule="BI-R250")  # no ranging shot for aircraft
    facts = play(game, "@blue ffe fo dice=5,1")
    assert [r[0] for r in outcomes(facts)] == ["BI-R103", "A.11"]
    assert any("60 x 20 cm area at long distance, its centre 30 x 10 cm at short" in n for n in notes(facts))


@pytest.mark.audits("BI-R250", "BI-R253")
def test_one_call_brings_one_attack(long_game):
    """BI-R250, BI-R253: once contacted, the aircraft attack in the following fire phase:
    a bombing pass, then maybe a strafing pass on the same objective; that is the attack.
    Another attack needs another call; the enemy's AA has no aircraft left to fire at."""
    game = long_game
    goto(game, "fire-veteran")
    play(game, "@blue call fo air bomb=ap dice=5")
    goto(game, "fire-veteran", 2)
    play(game, "@blue ffe fo strafe dice=5,1,5,1")
    goto(game, "fire-elite", 3)
    refused(game, "@red aa aelite aircraft dice=1,1", match="no aircraft", rule="BI-R250")
    goto(game, "fire-veteran", 3)
    refused(game, "@blue ffe fo dice=5,1", match="no fire for effect", rule="BI-R100")
    play(game, "@blue call fo air bomb=at dice=5")
    goto(game, "fire-veteran", 4)
    facts = play(game, "@blue ffe fo dice=5,1")
    assert any("at bombs" in n for n in notes(facts))


@pytest.mark.audits("BI-R252", "BI-AMB-51")
def test_bombs_by_kind(game):
    """BI-R252: anti-personnel bombs halve the chance to damage armour; anti-tank bombs
    halve it against infantry; napalm has no modifier. BI-AMB-51: bombs penetrate as
    artillery over 106 mm (tank 2, other armour 4), halved and rounded up, with −4 on the
    armoured damage die."""
    # AP bombs on the BMP: 4 halved: 2; a 2 penetrates, damage 5 − 4: a near miss
    facts = play(game, "burst bmp source=bomb-ap dice=1,2,5")
    assert outcomes(facts)[1] == ("A.12.3", 2, "penetrated")
    assert outcomes(facts)[2] == ("A.12.4", None, "near miss")
    play(game, "morale bmp dice=1")
    # AP bombs on a tank: 2 halved: 1; a 2 does not penetrate
    facts = play(game, "burst ariete source=bomb-ap dice=1,2")
    assert outcomes(facts)[1] == ("A.12.3", 1, "not penetrated: check morale")
    play(game, "morale ariete dice=1")
    # AT bombs on a man in the open: short 6 halved 3; a 3 hits, a 4 misses
    assert outcomes(play(game, "burst omar source=bomb-at dice=4"))[0] == ("A.10.3", 3, "unhurt")
    assert outcomes(play(game, "burst omar source=bomb-at dice=3,1"))[0][1] == 3
    play(game, "morale omar dice=1")
    # AT bombs on armour: not halved, 4 against other armour
    facts = play(game, "burst m113 source=bomb-at dice=1,4,1")
    assert outcomes(facts)[1] == ("A.12.3", 4, "penetrated")
    play(game, "morale m113 dice=1")
    # napalm: no modifier, 6 at short
    assert outcomes(play(game, "burst hassan source=bomb-napalm dice=6,1"))[0][1] == 6
    # AP bombs on a man: not halved
    assert outcomes(play(game, "burst ali source=bomb-ap zone=long dice=3,1"))[0][1] == 3


@pytest.mark.audits("BI-R252")
def test_napalm_leaves_its_centre_impassable_and_smoke_for_the_rest_of_the_game(long_game):
    """BI-R252: napalm has no damage modifier, but the Short-distance zone (30 × 10 cm)
    is impassable for the rest of the game and counts as a smoke obstruction: it never
    lifts, as smoke does after 6 + 1d6 turns."""
    game = long_game
    goto(game, "fire-veteran")
    play(game, "@blue call fo air bomb=napalm dice=5")
    goto(game, "fire-veteran", 2)
    facts = play(game, "@blue ffe fo dice=5,1")
    assert any("impassable" in n and "30 x 10" in n for n in notes(facts))
    clouds = [v for k, v in game.state.vars.items() if k.startswith("smoke.") and v]
    assert len(clouds) == 1 and clouds[0].startswith("napalm|30 x 10")
    goto(game, "end", 14)
    play(game, "next")  # 6 + 6 turns would be over long ago
    assert [v for k, v in game.state.vars.items() if k.startswith("smoke.") and v] == clouds
    assert "rest of the game" in game.ruleset.describe_var("smoke.1", clouds[0])


@pytest.mark.audits("BI-R253", "BI-AMB-52")
@pytest.mark.parametrize(("pilot", "chance"), [("", 4), (" pilot=elite", 6), (" pilot=rabble", 2)])
def test_the_strafing_pass_fires_as_an_autocannon(game, pilot, chance):
    """BI-R253, BI-AMB-52: each target in the strip is fired at as by a 20/35 mm
    autocannon, the pilot's Quality (Regular unless the scenario says), normal range; a
    hit on a vehicle is the autocannon's (+4 on the unarmoured table)."""
    goto(game, "fire-veteran")
    facts = play(game, f"strafe omar{pilot} dice={chance + 1}")
    assert outcomes(facts) == [("BI-R253", chance, "miss")]
    facts = play(game, f"strafe jeep{pilot} dice={chance},4")
    assert outcomes(facts) == [("BI-R253", chance, "hit"), ("A.12.2", None, "destroyed")]


@pytest.mark.audits("BI-R253", "BI-AMB-52")
@pytest.mark.parametrize(
    ("setup", "how", "chance"),
    [
        ("", " cover=light", 3),  # light cover −1
        ("", " cover=heavy", 2),  # heavy cover −2
        ("", " cover=trench", 2),  # a trench is heavy cover
        ("mark omar prone", "", 3),  # lying down −1
        ("mark omar prone", " cover=heavy", 1),
    ],
)
def test_the_strafing_pass_takes_each_targets_own_modifiers(game, setup, how, chance):
    """BI-R253: the strip is hit "as 20/35 mm autocannon on the direct-fire table": each
    target with its own target modifiers of that table (A.9.4, BI-R087): cover, lying
    down. A Regular pilot's 4 at normal range, less each."""
    if setup:
        play(game, setup)
    goto(game, "fire-veteran")
    facts = play(game, f"strafe omar{how} dice={chance + 1}")
    assert outcomes(facts) == [("BI-R253", chance, "miss")]
    facts = play(game, f"strafe omar{how} dice={chance},1")
    assert outcomes(facts)[0] == ("BI-R253", chance, "hit")


@pytest.mark.audits("BI-R253")
def test_the_strafing_pass_rolls_its_deviation_again(game):
    """BI-R253: after the bombs, a second pass on the same objective, rolling deviation
    again, and fires on a 10 × 60 cm strip."""
    strike(game)
    goto(game, "fire-veteran", 2)
    facts = play(game, "@blue ffe fo strafe dice=5,1,5,1")
    assert [r[0] for r in outcomes(facts)] == ["BI-R103", "A.11", "BI-R103", "A.11"]
    assert any("10 x 60 cm" in n for n in notes(facts))


# ------------------------------------------------------------------- A.15.2 helicopters


@pytest.mark.audits("BI-R255")
@pytest.mark.parametrize(("dice", "most"), [("1,1", 20), ("6,6", 120), ("2,3", 50)])
def test_a_helicopter_flies_2d6_times_10_cm(game, dice, most):
    """BI-R255: movement 2d6 × 10 cm, rolled each turn: it may fly that far, not 1 cm more
    (asked for more, it flies its roll)."""
    goto(game, "move-first")
    facts = play(game, f"@blue move lynx {most + 1} dice={dice}")
    assert [e.cm for e in facts if isinstance(e, ev.Moved)] == [most]
    goto(game, "move-first", 2)
    facts = play(game, f"@blue move lynx {most} dice={dice}")
    assert [e.cm for e in facts if isinstance(e, ev.Moved)] == [most]


@pytest.mark.audits("BI-R256", "BI-R257")
def test_landing_takes_a_turn_and_lets_men_off_and_trained_men_rope_down(game):
    """BI-R256: landing takes a whole turn and lets troops dismount; in the air they do
    not; BI-R257: specially trained troops fast-rope while it holds still for a turn; men
    without the training do not."""
    goto(game, "move-first")
    all_refused(game, "@blue dismount dino", "@blue mount capo lynx", match="in the air", rule="BI-R256")
    play(game, "@blue hover lynx")
    refused(game, "@blue mount capo lynx", "in the air", rule="BI-R256")  # a rope lets men down, not up
    refused(game, "@blue dismount dino", "rope|fast", rule="BI-R257")  # not trained to rope down
    goto(game, "move-first", 2)
    play(game, "@blue land lynx")
    lynx = unit(game, "lynx")
    assert lynx.has("landed") and lynx.has("moved")
    play(game, "@blue dismount dino")
    assert not unit(game, "dino").has("aboard-lynx")
    play(game, "@blue mount bruno lynx")  # and others embark
    assert unit(game, "bruno").has("aboard-lynx")


@pytest.mark.audits("BI-R257")
def test_trained_men_fast_rope_while_it_hovers_for_the_turn(game):
    """BI-R257: the helicopter stays still for 1 turn without landing; trained troops
    rope down from it."""
    goto(game, "move-first")
    refused(game, "@blue dismount rocco", match="in the air", rule="BI-R257")
    play(game, "@blue hover puma", "@blue dismount rocco")
    assert not unit(game, "rocco").has("aboard-puma")
    puma = unit(game, "puma")
    assert puma.has("hovering") and puma.has("moved") and not puma.has("landed")


@pytest.mark.audits("BI-R256")
def test_taking_off_takes_a_whole_turn(game):
    """BI-R256: landing or taking off takes 1 whole turn: a landed helicopter does not fly
    off in the turn it takes off."""
    goto(game, "move-first")
    play(game, "@blue land lynx")
    goto(game, "move-first", 2)
    refused(game, "@blue move lynx 20 dice=3,3", match="taking off takes a whole turn", rule="BI-R256")
    play(game, "@blue land lynx")  # it takes off: its move for the turn
    assert not unit(game, "lynx").has("landed")
    refused(game, "@blue move lynx 20 dice=3,3", match="already moved", rule="BI-R030")


@pytest.mark.audits("BI-R263")
@pytest.mark.parametrize(("face", "down"), [(1, True), (2, True), (3, False), (6, False)])
def test_a_damaged_rotor_brings_it_down_on_1_or_2_as_each_movement_begins(game, face, down):
    """BI-R263, 3-4: engine or rotor damaged: roll 1d6 at the start of each movement phase;
    on 1 or 2 it lands or returns to base."""
    goto(game, "fire-elite")
    play(game, "@red aa aelite lynx range=50 dice=4,1,2", "morale lynx dice=1")
    goto(game, "cover", 2)
    facts = play(game, f"next dice={face}")
    assert [r[0] for r in outcomes(facts)] == ["BI-R263"]
    assert (outcomes(facts)[0][2] == "it must land or go home") is down


@pytest.mark.audits("BI-AMB-62")
def test_only_anti_aircraft_fire_reaches_a_flying_helicopter(game):
    """BI-AMB-62: only AA-table weapons engage a flying helicopter; landed, it is an
    unarmoured vehicle, fired at as one and not by AA fire."""
    goto(game, "fire-regular")
    refused(game, "@red fire omar lynx range=20 dice=4,4", match="in the air", rule="BI-R260")
    goto(game, "move-first", 2)
    play(game, "@blue land lynx")
    goto(game, "fire-elite", 2)
    refused(game, "@red aa aelite lynx range=50 dice=1", match="landed", rule="BI-AMB-62")
    goto(game, "fire-regular", 2)
    facts = play(game, "@red fire omar lynx range=20 dice=4,2,9")
    assert [r[0] for r in outcomes(facts)] == ["A.9.4", "A.12.2", "A.9.4"]


# ------------------------------------------------------------------ A.15.3 AA fire


@pytest.mark.audits("BI-R260", "BI-R261")
@pytest.mark.parametrize(
    ("shooter", "target", "chance"),
    [
        ("zaid", "lynx", 1),  # AA machine gun vs helicopter 1, Regular 0
        ("areg", "lynx", 2),  # AA autocannon vs helicopter 2
        ("aelite", "lynx", 4),  # Elite +2
        ("avet", "lynx", 4),  # MANPADS vs helicopter 3, Veteran +1
        ("arec", "lynx", 3),  # heavy AA missile vs helicopter 4, Recruit −1
        ("arab", "lynx", 2),  # Rabble −2
        ("areg", "aircraft", 1),  # AA autocannon vs aircraft 1
        ("aelite", "aircraft", 3),
        ("avet", "aircraft", 3),  # MANPADS vs aircraft 2 + 1
        ("arab", "aircraft", 1),  # heavy AA missile vs aircraft 3 − 2
    ],
)
def test_anti_aircraft_chances_in_the_fire_phase(game, shooter, target, chance):
    """BI-R260: the chance by weapon against aircraft or helicopters; BI-R261: +2 Elite,
    +1 Veteran, 0 Regular, −1 Recruit, −2 Rabble. The chance hits, one more misses.
    BI-R250: an aircraft is over the table in the fire phase after its call, so for the
    hit in turn 3 the observer calls it again in turn 2."""
    strike(game)
    tier = unit(game, shooter).cls

    def again() -> None:
        if target == "aircraft":
            goto(game, "fire-veteran", 2)
            play(game, "@blue call fo air bomb=ap dice=5")

    if tier != "elite":
        again()
    goto(game, f"fire-{tier}", 2)
    rng = " range=50" if target == "lynx" else ""
    facts = play(game, f"@red aa {shooter} {target}{rng} dice={chance + 1}")
    assert outcomes(facts) == [("BI-R260", chance, "miss")]
    if tier == "elite":
        again()
    goto(game, f"fire-{tier}", 3)
    facts = play(
        game,
        f"@red aa {shooter} {target}{rng} dice={chance},3,4"
        if target == "lynx"
        else f"@red aa {shooter} {target}{rng} dice={chance},5",
    )
    assert outcomes(facts)[0] == ("BI-R260", chance, "hit")


@pytest.mark.audits("BI-R261", "BI-AMB-53")
@pytest.mark.parametrize(
    ("shooter", "chance"),
    [
        ("aelite", 2),  # (2 + 2) / 2
        ("avet", 2),  # (3 + 1) / 2
        ("arec", 2),  # (4 − 1) / 2 = 1.5: rounded up to 2
        ("areg", 1),  # 2 / 2
        ("arab", 1),  # (4 − 2) / 2
    ],
)
def test_anti_aircraft_fire_in_the_movement_phase_is_halved_after_quality(game, shooter, chance):
    """BI-R261: halved if fired in the movement phase; BI-AMB-53: the Quality modifier
    first, then ½, rounded up."""
    goto(game, "move-first")  # blue moves; red may fire as opportunity fire
    facts = play(game, f"@red aa {shooter} lynx range=50 dice={chance + 1}")
    assert outcomes(facts) == [("BI-R260", chance, "miss")]


@pytest.mark.audits("BI-R260", "BI-AMB-54")
def test_what_cannot_reach_what(game):
    """BI-R260: an AA machine gun and an AT rocket launcher cannot hit aircraft (NO); the AT
    rocket launcher reaches a helicopter within 80 cm, not beyond (BI-AMB-54: its range
    is the only one given); a Rabble's AA MG (1 − 2) cannot hit at all."""
    strike(game)
    goto(game, "fire-regular", 2)
    all_refused(game, "@red aa zaid aircraft", "@red aa ali aircraft", match="cannot hit", rule="BI-R260")
    refused(game, "@red aa ali lynx range=81", match="80 cm", rule="BI-R260")
    facts = play(game, "@red aa ali lynx range=80 dice=2")
    assert outcomes(facts) == [("BI-R260", 1, "miss")]


@pytest.mark.audits("BI-R260")
def test_no_fire_at_an_aircraft_that_was_never_called(long_game):
    """BI-R260 fires at aircraft over the table: with no air strike called by the enemy
    there is none to hit; shooting one "down" then forbade every later strike."""
    game = long_game
    goto(game, "fire-elite")
    refused(game, "@red aa aelite aircraft dice=1,1", match="no aircraft", rule="BI-R260")
    goto(game, "fire-veteran")
    play(game, "@blue call fo air bomb=ap dice=5")
    goto(game, "fire-veteran", 2)
    facts = play(game, "@blue ffe fo dice=5,1")
    assert [r[0] for r in outcomes(facts)] == ["BI-R103", "A.11"]


@pytest.mark.audits("BI-R262", "BI-AMB-55")
def test_an_aircraft_hit_is_shot_down_on_1_to_3(game):
    """BI-R262 / BI-AMB-55: 1d6 1-3 shot down before it can attack: it never attacks."""
    strike(game)
    goto(game, "move-first", 2)
    facts = play(game, "@red aa aelite aircraft dice=1,3")
    assert outcomes(facts)[1] == ("BI-R262", None, "shot down")
    goto(game, "fire-veteran", 2)
    refused(game, "@blue ffe fo dice=5,1", match="shot down", rule="BI-R262")
    goto(game, "fire-elite", 3)
    refused(game, "@red aa aelite aircraft dice=1,3", match="no aircraft", rule="BI-R250")


@pytest.mark.audits("BI-R262", "BI-AMB-55")
def test_a_damaged_aircraft_returns_on_a_6_for_three_turns(long_game):
    """BI-R262: 4-6 damaged: it does not complete its attack, but may try to return in the
    next fire phase on a 6 on 1d6, for 3 consecutive turns, then it has returned to base;
    BI-AMB-55: a returning aircraft carries out its attack."""
    game = long_game
    strike(game)
    goto(game, "move-first", 2)
    facts = play(game, "@red aa aelite aircraft dice=1,4")
    assert outcomes(facts)[1] == ("BI-R262", None, "damaged: it breaks off")
    goto(game, "fire-veteran", 2)
    refused(game, "@blue ffe fo dice=6,5,1", match="next fire phase", rule="BI-R262")
    for turn in (3, 4, 5):
        goto(game, "fire-veteran", turn)
        facts = play(game, "@blue ffe fo dice=5")
        assert outcomes(facts) == [("BI-R262", 6, "not this turn")]
    goto(game, "fire-veteran", 6)
    refused(game, "@blue ffe fo dice=6,5,1", match="gone back to base", rule="BI-R262")


@pytest.mark.audits("BI-R262")
def test_a_damaged_aircraft_back_on_a_6_attacks(long_game):
    """BI-R262, BI-AMB-55: on a 6 in the next fire phase it comes back and attacks."""
    game = long_game
    strike(game)
    goto(game, "move-first", 2)
    play(game, "@red aa aelite aircraft dice=1,6")
    goto(game, "fire-veteran", 3)
    facts = play(game, "@blue ffe fo dice=6,5,1")
    assert [r[0] for r in outcomes(facts)] == ["BI-R262", "BI-R103", "A.11"]


@pytest.mark.audits("BI-R263", "BI-AMB-56", "BI-AMB-57")
@pytest.mark.parametrize(
    ("dice", "result", "after"),
    [
        ("1,1,10,10", "exploded", "out"),
        ("1,2", "engine or rotor damaged", "rotor-damaged"),
        ("2,2", "engine or rotor damaged", "rotor-damaged"),
        ("2,3", "morale check at +1", "morale-table-1"),
        ("3,3", "morale check at +1", "morale-table-1"),
        ("3,4", "morale check", "morale-due"),
        ("4,4", "morale check", "morale-due"),
        ("4,5,2,2", "passengers may be hit", "morale-due"),
        ("5,5,2,2", "passengers may be hit", "morale-due"),
        ("5,6,1", "a weapon destroyed", "weapon-lost-mg"),
        ("6,6,10,10", "pilot killed", "out"),
    ],
)
def test_the_helicopter_table_row_by_row(game, dice, result, after):
    """BI-R263 on 2d6: 2 exploded; 3-4 morale, rotor damaged; 5-6 morale at +1; 7-8
    morale; 9-10 morale, each passenger hit on 1 in 1d10 (BI-AMB-57); 11 morale, a weapon
    destroyed; 12 pilot killed: in flight, destroyed."""
    goto(game, "fire-elite")
    facts = play(game, f"@red aa aelite lynx range=50 dice=4,{dice}")
    assert outcomes(facts)[1][2] == result
    lynx = unit(game, "lynx")
    if after == "out":
        assert not lynx.in_play
    else:
        assert lynx.has(after) and lynx.has("morale-due")
    if result == "passengers may be hit":
        assert unit(game, "dino").status == ("aboard-lynx",)  # a 2: unhurt


@pytest.mark.audits("BI-R263", "BI-AMB-56", "BI-AMB-57")
def test_the_plus_one_penalty_and_a_passenger_hit_on_a_1(game):
    """BI-AMB-56: "+1 to the die" on the morale check = one less to pass: Veteran 8, under
    automatic fire −2, −1: 5. BI-AMB-57: a passenger hit on a 1 rolls infantry damage."""
    goto(game, "fire-elite")
    play(game, "@red aa aelite lynx range=50 dice=4,2,3")
    assert outcomes(play(game, "morale lynx dice=6,1"))[0][1:] == (5, "failed: roll the effect")
    goto(game, "fire-recruit")
    facts = play(game, "@red aa arec lynx range=50 dice=3,4,5,1,6,2")
    assert [r[0] for r in outcomes(facts)] == ["BI-R260", "BI-R263", "BI-R263", "A.12.1", "BI-R263"]
    assert unit(game, "dino").has("wounded") and not unit(game, "ezio").has("wounded")


@pytest.mark.audits("BI-R264")
@pytest.mark.parametrize(
    ("effect", "down"),
    [("1", False), ("3", False), ("4", False), ("6,3", False), ("6,2", True), ("6,1", True)],
)
def test_a_helicopter_crew_never_freezes_it_panics(game, effect, down):
    """BI-R264: a Shocked result counts as Panic; Surrender counts as Panic, and then on 1
    or 2 on 1d6 the helicopter "atterra o rientra alla base", lands or returns to base:
    either, so the engine does not take it off the table by itself."""
    goto(game, "fire-elite")
    play(game, "@red aa aelite lynx range=50 dice=4,3,4")
    facts = play(game, f"morale lynx dice=9,{effect}")
    assert unit(game, "lynx").in_play
    if down:
        assert any("lands or goes back to base" in n for n in notes(facts))
        assert not any("flees" in n for n in notes(facts))
    else:
        assert any("flees" in n for n in notes(facts))


@pytest.mark.audits("BI-R264")
@pytest.mark.parametrize("choice", ["mark lynx landed", "out lynx"])
def test_a_panicking_helicopter_that_comes_down_lands_or_goes_home(game, choice):
    """BI-R264: after a Surrender and a 1 or 2 it lands (it stays, on the ground) or goes
    home (out of the game), as the referee records."""
    goto(game, "fire-elite")
    play(game, "@red aa aelite lynx range=50 dice=4,3,4", "morale lynx dice=9,6,1", choice)
    lynx = unit(game, "lynx")
    assert lynx.in_play is (choice != "out lynx")
    assert lynx.has("landed") is (choice != "out lynx")


@pytest.mark.audits("BI-R260", "BI-R261")
@pytest.mark.parametrize(
    ("lang", "line", "chance"),
    [
        ("en", "aa aelite aircraft", 3),  # heavy AA missile vs aircraft 1, Elite +2
        ("it", "controaerea aelite aerei", 3),  # the book's "Aerei" (A.15.3's table)
        ("en", "aa aelite lynx range=50", 4),  # vs helicopter 2, Elite +2
        ("it", "controaerea aelite lynx distanza=50", 4),
    ],
)
def test_anti_aircraft_fire_names_the_aircraft_by_a_keyword_in_either_language(game, lang, line, chance):
    """BI-R260 (#61): the enemy's aircraft is a keyword (Italian ``aerei``), a helicopter is named;
    the chance hits, one more misses, and the log records the English keyword."""
    strike(game)
    goto(game, "fire-elite", 2)
    with reading(lang):
        done = game.execute(f"{line} dice={chance + 1}", role="red")
    assert outcomes(list(done.events)) == [("BI-R260", chance, "miss")]
    assert ("aircraft" in done.events[0].text.split()) == ("lynx" not in line)
    assert "aerei" not in done.events[0].text
    if "lynx" not in line:  # called again, it is over the table in turn 3 (BI-R250)
        goto(game, "fire-veteran", 2)
        play(game, "@blue call fo air bomb=ap dice=5")
    goto(game, "fire-elite", 3)
    with reading(lang):
        done = game.execute(f"{line} dice={chance}" + (",3,4" if "lynx" in line else ",5"), role="red")
    assert outcomes(list(done.events))[0] == ("BI-R260", chance, "hit")


@pytest.mark.audits("BI-R260")
def test_anti_aircraft_fire_takes_a_helicopter_or_the_aircraft_offered_by_tab(game):
    """BI-R260 (#61): Tab offers the aircraft's keyword in the reader's words; neither a
    helicopter nor the aircraft, or both, is refused saying so."""
    strike(game)
    goto(game, "fire-elite", 2)
    assert "aircraft" in game.complete("aa aelite ", role="red")
    with reading("it"):
        assert "aerei" in game.complete("controaerea aelite ", role="red")
    refused(game, "@red aa aelite", match="name an enemy helicopter, or say aircraft", rule="BI-R260")
    refused(
        game, "@red aa aelite lynx aircraft range=50", match="a helicopter or the aircraft, not both", rule="BI-R260"
    )
