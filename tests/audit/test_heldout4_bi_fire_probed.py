"""The fourth held-out audit of Bassa Intensità's direct fire and HE (issue #46), probed cases:
each written after trying the engine by hand where a rule of A.9/A.10 meets another (the
night's "target firing" across the fire phase's tiers and its movement phase, a weapon's
emplacing undone by a move, a lone crewman's reload against covering and opportunity fire,
the aim against covering fire and against a different target, the order of the procedure's
checks), each outcome taken from the book ("TIRO DIRETTO", "TIRI DI COPERTURA", "TIRI DI
OPPORTUNITÀ", "SEQUENZA DI GIOCO", the HE tables) and its digest.
"""

from __future__ import annotations

import pytest
from audit_bi_early import KILL, chances, goto, new_game, outcomes, play, refused, rolls, table
from test_heldout4_bi_fire import EXTRA

game = table(extra=EXTRA, at=("fire-regular", 1))


def _night(tmp_path, monkeypatch, phase: str = "fire-regular", turn: int = 1):
    g = new_game(tmp_path, monkeypatch, night="moon", extra=EXTRA)
    goto(g, phase, turn)
    return g


# ------------------------------------------------------------------ night: the target firing


@pytest.mark.audits("BI-R084", "BI-R061", "BI-AMB-10")
def test_at_night_a_target_that_fired_in_a_higher_tier_is_plus_two(tmp_path, monkeypatch):
    """A.9.4 "Bersaglio spara automatico" +2 (night only, BI-AMB-10: he fired in this phase):
    the fire phase is one phase, fired tier by tier (A.5): Karim (Veteran) fires his assault
    rifle in the Veterans' turn; Carlo (Regular) fires at him at 15 cm by moonlight: short +1,
    moon within 20 cm -1, target automatic +2: 4 + 2 = 6."""
    g = _night(tmp_path, monkeypatch, "fire-veteran")
    play(g, "@red fire karim bruno range=15 dice=9,9")
    goto(g, "fire-regular", 1)
    assert chances(play(g, "fire carlo karim range=15 dice=9")) == [6]


@pytest.mark.audits("BI-R084", "BI-AMB-10")
def test_at_night_opportunity_fire_in_the_movement_phase_gives_nothing_in_the_fire_phase(tmp_path, monkeypatch):
    """BI-AMB-10: the bonus needs the target to have fired in the current phase: Ali's
    opportunity fire in the movement phase does not carry into the fire phase: Carlo at 15
    cm by moonlight: 4 + 1 - 1 = 4."""
    g = _night(tmp_path, monkeypatch, "move-first", 2)
    play(g, "move bruno 5", "@red fire ali bruno range=15 dice=9,9")
    goto(g, "fire-regular", 2)
    assert chances(play(g, "fire carlo ali range=15 dice=9")) == [4]


@pytest.mark.audits("BI-R084", "BI-R070")
def test_at_night_a_man_who_fired_a_rocket_fired_one_shot(tmp_path, monkeypatch):
    """A.9.2: an RPG fires 1 shot a turn; A.9.4 "Bersaglio spara colpo singolo" +1: Rocco
    fires his RPG, Ali fires back at 15 cm by moonlight: 4 + 1 - 1 + 1 = 5."""
    g = _night(tmp_path, monkeypatch)
    play(g, "fire rocco tariq range=15 dice=9,1")
    assert chances(play(g, "@red fire ali rocco range=15 dice=9,9")) == [5, 5]


@pytest.mark.audits("BI-R084", "BI-R072")
def test_at_night_a_vehicle_that_fired_its_agl_fired_automatic(tmp_path, monkeypatch):
    """A.9.2: the automatic grenade launcher (2 shots a turn) fires automatic: +2; Ali at the
    carrier at 15 cm by moonlight: 4 + 1 - 1 + 2 = 6."""
    g = _night(tmp_path, monkeypatch)
    play(g, "fire agv tariq range=15 dice=9,1,9,1")
    assert chances(play(g, "@red fire ali agv range=15 dice=9,9")) == [6, 6]


# ------------------------------------------------------------------ emplacing and reloading


@pytest.mark.audits("BI-WN6", "BI-R068")
def test_an_emplaced_mg_that_moves_must_be_emplaced_again(game):
    """Note (6): an MG not on a vehicle fires only emplaced; moving it takes it off its
    position: Dario emplaces in turn 1, moves in turn 2, and in turn 3 his fire is refused."""
    play(game, "emplace dario")
    goto(game, "move-first", 2)
    play(game, "move dario 5")
    goto(game, "fire-regular", 3)
    refused(game, "fire dario tariq range=40 dice=9,9,9", match="emplace", rule="BI-WN6")


@pytest.mark.audits("BI-WN4", "BI-R075")
def test_an_emplaced_light_mg_that_moves_fires_as_an_assault_rifle_again(game):
    """Note (4): after a move Lino's LMG is no longer emplaced: the assault rifle's bands
    again, so 100 cm (long for the LMG) is out of range."""
    play(game, "emplace lino")
    goto(game, "move-first", 2)
    play(game, "move lino 5")
    goto(game, "fire-regular", 3)
    refused(game, "fire lino tariq range=100 dice=9,9", match="out of range", rule="BI-R075")


@pytest.mark.audits("BI-R085", "BI-WN5", "BI-AMB-19")
def test_a_reload_is_no_aim(game):
    """BI-AMB-19: only an explicit aim makes the next turn's shot aimed: the lone gunner who
    reloaded in turn 2 fires in turn 3 at his bare 4 (normal range)."""
    play(game, "mark lmgv one-crew", "fire lmgv tariq fares range=40 area dice=9,9")
    goto(game, "fire-regular", 2)
    play(game, "reload lmgv")
    goto(game, "fire-regular", 3)
    assert chances(play(game, "fire lmgv tariq range=40 dice=9")) == [4]


@pytest.mark.audits("BI-WN5", "BI-R052")
def test_a_gun_awaiting_its_reload_makes_no_covering_fire(game):
    """Note (5): after an area burst a lone crewman must reload "prima di poter sparare
    nuovamente": next turn's covering fire at a visible man is refused."""
    play(game, "mark lmgv one-crew", "fire lmgv tariq fares range=40 area dice=9,9")
    goto(game, "cover", 2)
    refused(game, "fire lmgv tariq range=40 dice=9", match="reload", rule="BI-WN5")


@pytest.mark.audits("BI-WN5", "BI-R050")
def test_a_gun_awaiting_its_reload_makes_no_opportunity_fire(game):
    """Note (5) and A.7: nor opportunity fire at a mover next turn."""
    play(game, "mark lmgv one-crew", "fire lmgv tariq fares range=40 area dice=9,9")
    goto(game, "move-second", 2)
    play(game, "@red move tariq 5")
    refused(game, "@blue fire lmgv tariq range=40 dice=9", match="reload", rule="BI-WN5")


@pytest.mark.audits("BI-R053")
@pytest.mark.parametrize("shooter,allowed", [("rocco", False), ("carlo", False), ("pietro", True), ("bruno", True)])
def test_only_automatic_weapons_put_covering_fire_on_a_feature(game, shooter, allowed):
    """A.7 "solo da armi automatiche": the RPG and the rifle may not; the sub-machine gun and
    the assault rifle (automatic weapons, A.9.1) may."""
    goto(game, "cover", 2)
    line = f'@blue screen {shooter} feature="the wood"'
    if allowed:
        play(game, line)
    else:
        refused(game, line, match="automatic", rule="BI-R053")


# ------------------------------------------------------------------ the aim


@pytest.mark.audits("BI-R085", "BI-R052", "BI-R082")
def test_an_aim_counts_for_next_turns_covering_fire_at_a_visible_man(game):
    """A.9.4 aimed +1 (aim in turn 1), then A.7 covering fire at a visible man in turn 2 is
    opportunity fire, ½: (4 + 1) / 2 = 2.5 -> 3 (rifle, normal range)."""
    play(game, "aim carlo")
    goto(game, "cover", 2)
    assert chances(play(game, "fire carlo tariq range=30 dice=9")) == [3]


@pytest.mark.audits("BI-R085", "BI-R053", "BI-R082")
def test_an_aim_counts_for_covering_fire_at_a_feature(game):
    """The SAW's covering fire at the wood (turn 2, after an aim in turn 1) strikes the
    hidden Tariq at ½ after the aim: (4 + 1) / 2 -> 3 for each of its 2 shots."""
    play(game, "aim sam")
    goto(game, "cover", 2)
    play(game, '@blue screen sam feature="wood"', "mark tariq hidden")
    goto(game, "fire-regular", 2)
    assert chances(play(game, "screened sam tariq range=30 dice=9,9")) == [3, 3]


@pytest.mark.audits("BI-R085", "BI-AMB-19")
def test_an_aim_is_not_tied_to_a_target(game):
    """BI-AMB-19: the target need not be the same: Carlo aims in turn 1 and in turn 2 fires at
    Fares: 4 + 1 = 5."""
    play(game, "aim carlo")
    goto(game, "fire-regular", 2)
    assert chances(play(game, "fire carlo fares range=30 dice=9")) == [5]


# ------------------------------------------------------------------ the procedure


@pytest.mark.audits("BI-R075", "BI-R024")
def test_an_isolated_man_out_of_range_is_refused_before_his_test(game):
    """A.9.5: the target must be in range before anything is rolled: an isolated man's fire
    at 130 cm with a rifle is refused, his isolation die never thrown."""
    refused(game, "fire carlo tariq range=130 isolated dice=1,9", match="out of range", rule="BI-R075")
    assert chances(play(game, "fire carlo tariq range=100 isolated dice=1,9"), "A.9.4") == [3]


@pytest.mark.audits("BI-R061")
def test_a_veteran_does_not_fire_in_the_regulars_turn(game):
    """A.5/A.8: fire goes by Quality tier, each in its own: Vito (Veteran) in the Regulars'."""
    refused(game, "fire vito tariq range=20 dice=9,9", match="tier", rule="BI-R061")


@pytest.mark.audits("BI-R060", "BI-R062")
def test_a_man_who_moved_does_not_fire(game):
    """A.8: only units that have not moved fire in the fire phase."""
    goto(game, "move-first", 2)
    play(game, "move bruno 5")
    goto(game, "fire-regular", 2)
    refused(game, "fire bruno tariq range=20 dice=9,9", match="moved", rule="BI-R030")


@pytest.mark.audits("BI-R062")
def test_a_tank_fires_its_gun_or_its_mg_not_both(game):
    """A.8 "un soldato o un veicolo potrà effettuare una sola azione o tiro": the Ariete fires
    its gun, then its MG is refused."""
    goto(game, "fire-veteran", 2)
    play(game, "fire ariete t55 range=150 dice=9,1")
    refused(game, "fire ariete tariq range=30 weapon=mg dice=9,9,9", match="already fired", rule="BI-R030")


@pytest.mark.audits("BI-R080")
def test_a_prone_shooter_has_no_modifier(game):
    """A.9.4: "Sdraiato" is a target's row; Carlo lying down fires at his 4 (normal range)."""
    play(game, "mark carlo prone")
    assert chances(play(game, "fire carlo tariq range=30 dice=9")) == [4]


@pytest.mark.audits("BI-WN2", "BI-R087")
def test_an_area_with_one_man_in_it_is_still_area_fire(game):
    """Note (2): at an area ½, however many are in it: Bruno at Tariq alone, 20 cm: 4 / 2 = 2."""
    assert chances(play(game, "fire bruno tariq range=20 area dice=9")) == [2]


@pytest.mark.audits("BI-R080", "BI-AMB-03")
def test_the_digests_own_example_of_the_order(game):
    """BI-R082: "Veteran, short range, opportunity fire: (5+1)/2 = 3" (not 3 + 1 = 4): Vito at
    a mover 15 cm off, 3 for each shot."""
    goto(game, "move-second", 2)
    play(game, "@red move tariq 5")
    assert chances(play(game, "@blue fire vito tariq range=15 dice=9,9")) == [3, 3]


@pytest.mark.audits("BI-R092")
def test_a_prone_man_in_the_open_is_in_the_open_under_a_burst(game):
    """A.10.3 reads the ground only ("Terreno": open, in cover, entrenched): a man lying in the
    open rolls 6 at short distance."""
    play(game, "mark fares prone")
    assert chances(play(game, "burst fares source=rpg dice=9"), "A.10.3") == [6]


@pytest.mark.audits("BI-R086", "BI-AMB-21")
def test_each_grenade_of_an_agl_bursts_on_its_own(game):
    """BI-AMB-21: each of the AGL's 2 shots its own hit and its own burst: both hit (normal
    range 4), each rolls to catch Tariq (6): a 9 and a 6, the second kills him."""
    facts = play(game, f"fire agv tariq range=30 dice=1,9,1,6,{KILL}")
    assert chances(facts) == [4, 4]
    assert chances(facts, "A.10.3") == [6, 6]
    assert outcomes(facts, "A.10.3")[0] == "unhurt"
    assert not game.state.units["tariq"].in_play
    assert len(rolls(facts, "A.12.1")) == 1


@pytest.mark.audits("BI-R085")
def test_an_aim_taken_back_gives_nothing(game):
    """A.9.4: the aim undone is no Very Easy action in the previous turn: Carlo fires in turn 2
    at his bare 4 (normal range)."""
    play(game, "aim carlo", "undo")
    goto(game, "fire-regular", 2)
    assert chances(play(game, "fire carlo tariq range=30 dice=9")) == [4]


@pytest.mark.audits("BI-R085")
def test_aiming_two_turns_running_is_still_plus_one(game):
    """A.9.4: "Tiro Mirato" is one +1: aims in turns 1 and 2, fires in turn 3 at 4 + 1 = 5."""
    play(game, "aim carlo")
    goto(game, "fire-regular", 2)
    play(game, "aim carlo")
    goto(game, "fire-regular", 3)
    assert chances(play(game, "fire carlo tariq range=30 dice=9")) == [5]


@pytest.mark.audits("BI-R084", "BI-R081")
def test_an_intensifier_by_day_adds_nothing(game):
    """A.9.4: the image intensifier is a NOTTE row: by day Carlo's shot at 30 cm stays 4."""
    assert chances(play(game, "fire carlo tariq range=30 intensifier=portable dice=9")) == [4]


@pytest.mark.audits("BI-R080", "BI-R075")
def test_the_same_shot_given_in_italian(game):
    """The book's words: "fuoco", "gittata", "copertura=pesante", "terra": Carlo's rifle at 100
    cm (long -1) at a man lying (-1) in heavy cover (-2): 4 - 4 = 0, nothing hits."""
    from core.language.reader import reading

    with reading("it"):
        facts = play(game, "fuoco carlo tariq gittata=100 copertura=pesante terra dice=1")
    assert chances(facts) == [0]
    assert outcomes(facts, "A.9.4")[0].startswith("miss")
