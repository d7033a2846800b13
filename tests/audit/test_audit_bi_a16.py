"""Audit of Bassa Intensità A.16, special rules, written from the rulebook and its digest
alone: snipers (the d6 to risk a shot by Quality, seen only when they fire), mines and
booby traps, their detection, scouts, non-lethal weapons, stabilised armament, each
threshold on both sides of its edge."""

from __future__ import annotations

import pytest
from audit_bi_late import goto, late_table, outcomes, play, refused, unit, waive_morale

from core.log.views import unit_visible

game = late_table()
long_game = late_table("long_game", turns=0)


# ---------------------------------------------------------------------- A.16.1 snipers


@pytest.mark.audits("BI-R210", "BI-AMB-58")
@pytest.mark.parametrize(
    ("sniper", "tier", "fires_on"),
    [("elio", "regular", 2), ("vasco", "veteran", 3), ("ettore", "elite", 4), ("rino", "recruit", 2)],
)
def test_a_hidden_sniper_fires_only_on_a_low_d6(game, sniper, tier, fires_on):
    """BI-R210: a hidden sniper fires only after 1 or 2 on 1d6, +1 Veteran, +2 Elite;
    BI-AMB-58: the range widens (≤ 3, ≤ 4); otherwise he chose not to fire."""
    play(game, f"mark {sniper} hidden")
    goto(game, f"fire-{tier}")
    facts = play(game, f"@blue fire {sniper} omar range=40 dice={fires_on + 1}")
    assert outcomes(facts) == [("BI-R210", fires_on, "he holds his fire")]
    goto(game, f"fire-{tier}", 2)
    facts = play(game, f"@blue fire {sniper} omar range=40 dice={fires_on},10")
    assert outcomes(facts)[0] == ("BI-R210", fires_on, "he fires")
    assert outcomes(facts)[1][0] == "A.9.4"


@pytest.mark.audits("BI-R210")
def test_a_hidden_sniper_is_seen_only_by_infantry_only_when_he_fires(game):
    """BI-R210: a hidden sniper can be seen only by enemy infantry, as a Difficult
    observation (½ × 4 = 2 for a Regular), and only in turns in which he fires."""
    play(game, "mark vasco hidden")
    goto(game, "observe")
    refused(game, "observe omar vasco dice=1", match="has not fired", rule="BI-R210")
    goto(game, "fire-veteran")
    play(game, "@blue fire vasco omar range=40 dice=1,10")
    goto(game, "end")
    refused(game, "observe tecnica vasco dice=1", match="only by infantry", rule="BI-R210")
    facts = play(game, "observe omar vasco dice=3")
    assert outcomes(facts) == [("BI-R165", 2, "nothing seen")]
    play(game, "undo")  # one attempt at him at the end of the phase (BI-R164)
    facts = play(game, "observe hassan vasco dice=2")  # a Recruit: ½ × 3 = 2
    assert outcomes(facts) == [("BI-R165", 2, "spotted")] and unit_visible(unit(game, "vasco"), "red")


@pytest.mark.audits("BI-R210")
def test_a_sniper_the_enemy_has_seen_fires_without_the_d6(game):
    """BI-R210: the d6 is for a hidden sniper ("Se uno Sniper è nascosto"), who holds his
    fire so as not to give his position away; once the enemy has seen him there is nothing
    to give away: he fires as any man does."""
    play(game, "mark vasco hidden")
    goto(game, "fire-veteran")
    play(game, "@blue fire vasco omar range=40 dice=1,10")
    goto(game, "end")
    play(game, "observe omar vasco dice=1")
    goto(game, "fire-veteran", 2)
    facts = play(game, "@blue fire vasco omar range=40 dice=10")
    assert outcomes(facts) == [("A.9.4", 6, "miss")]


@pytest.mark.audits("BI-R210")
def test_a_sniper_who_held_his_fire_is_not_seen(game):
    """BI-R210: he chose not to fire to avoid revealing his position: not seen that turn."""
    play(game, "mark vasco hidden")
    goto(game, "fire-veteran")
    play(game, "@blue fire vasco omar range=40 dice=4")
    goto(game, "end")
    refused(game, "observe omar vasco dice=1", match="has not fired", rule="BI-R210")


# ----------------------------------------------------------------- A.16.2 mines and traps


@pytest.mark.audits("BI-R220", "BI-R221", "BI-AMB-59")
@pytest.mark.parametrize(("zone", "chance"), [("short", 6), ("long", 3)])
def test_an_ap_mine_hits_a_man_as_indirect_fire(game, zone, chance):
    """BI-R221 / BI-AMB-59: an AP mine hits infantry as indirect fire, Short within 2 cm
    and Long within 4 cm (in the open: 6 and 3); the chance hits, one more does not."""
    assert outcomes(play(game, f"mine omar ap {zone} dice={chance + 1}")) == [("A.10.3", chance, "unhurt")]
    facts = play(game, f"mine omar ap {zone} dice={chance},6")
    assert outcomes(facts) == [("A.10.3", chance, "hit: roll damage"), ("A.12.1", None, "wounded")]


@pytest.mark.audits("BI-R221")
def test_an_ap_mine_does_nothing_to_armour_and_hits_a_soft_vehicle(game):
    """BI-R221: no effect on armoured vehicles; unarmoured vehicles hit as infantry are."""
    assert outcomes(play(game, "mine ariete ap")) == []
    assert unit(game, "ariete").status == ()
    facts = play(game, "mine jeep ap dice=6,8")
    assert [r[0] for r in outcomes(facts)] == ["A.10.3", "A.12.2"]
    assert not unit(game, "jeep").in_play


@pytest.mark.audits("BI-R222", "BI-AMB-59")
def test_an_at_mine(game):
    """BI-R222: AT mines penetrate armour as an AT rocket (6 against a tank, 8 against
    other armour) then the armoured table; destroy unarmoured vehicles on 1, 2 or 3 on
    1d6; men within 4 cm only at Long chances (3 in the open), never Short."""
    assert outcomes(play(game, "mine ariete at dice=7"))[0] == ("A.12.3", 6, "not penetrated: check morale")
    play(game, "morale ariete dice=1")
    assert outcomes(play(game, "mine bmp at dice=8,1"))[0] == ("A.12.3", 8, "penetrated")
    play(game, "morale bmp dice=1")
    assert outcomes(play(game, "mine tecnica at dice=4")) == [("BI-R222", None, "it survives")]
    assert unit(game, "tecnica").in_play
    play(game, "mine tecnica at dice=3")
    assert not unit(game, "tecnica").in_play
    assert outcomes(play(game, "mine omar at short dice=4")) == [("A.10.3", 3, "unhurt")]


@pytest.mark.audits("BI-R223", "BI-AMB-59")
def test_a_booby_trap_attacks_one_man_with_nothing_in_his_favour(game):
    """BI-R223: one soldier, as an AP mine, with no modifier in his favour for cover:
    in the open at Short, 6; vests still count on the damage die (BI-AMB-59)."""
    assert outcomes(play(game, "mine omar trap dice=7")) == [("A.10.3", 6, "unhurt")]
    facts = play(game, "mine omar trap cover=heavy dice=6,2")
    assert outcomes(facts)[0] == ("A.10.3", 6, "hit: roll damage")
    facts = play(game, "mine piero trap dice=6,7")  # bullet-proof vest −2: 5, shocked
    assert outcomes(facts)[1] == ("A.12.1", None, "shocked")
    refused(game, "mine jeep trap", match="booby trap", rule="BI-R223")


@pytest.mark.audits("BI-R224", "BI-AMB-59")
@pytest.mark.parametrize(
    ("man", "what", "chance"),
    [
        ("capo", "minefield", 4),  # a Regular: Normal, 4
        ("capo", "trap", 2),  # Difficult, ½ × 4
        ("fabio", "trap", 3),  # an Elite: ½ × 6
        ("genio", "trap", 6),  # an Elite engineer: Normal, 6
    ],
)
def test_detection_chances(game, man, what, chance):
    """BI-R224: infantry find a minefield within 10 cm as Normal, a booby trap as
    Difficult; engineers a minefield as Easy, a trap within 1 cm as Normal."""
    facts = play(game, f"detect {man} {what} dice={chance + 1}")
    assert outcomes(facts) == [("BI-R224", chance, "nothing found")]
    facts = play(game, f"detect {man} {what} dice={chance}")
    assert outcomes(facts) == [("BI-R224", chance, "found it")]


@pytest.mark.audits("BI-R224")
def test_detection_needs_a_man_still_or_cautious_and_is_no_action(game):
    """BI-R224: stationary or moving cautiously only; not an Action: he may move or fire
    and still try; an engineer finds a minefield as Easy (2 × 6 = 12: certain)."""
    goto(game, "move-first")
    play(game, "@blue move capo 10")
    refused(game, "detect capo minefield dice=1", match="too fast", rule="BI-R224")
    play(game, "@blue move bruno 8 cautious")
    assert outcomes(play(game, "detect bruno minefield dice=4"))[0][2] == "found it"
    facts = play(game, "detect genio minefield dice=10")
    assert outcomes(facts) == [("BI-R224", 12, "found it")]
    goto(game, "fire-regular")
    facts = play(game, "@blue fire carlo omar range=40 dice=10")  # detection cost him nothing
    play(game, "detect carlo minefield dice=1")
    assert outcomes(facts, "A.9.4")


# ----------------------------------------------------------------------- A.16.3 scouts


@pytest.mark.audits("BI-R212")
def test_a_scout_works_at_double_command_distance(game):
    """BI-R212: the scout may operate up to double the command distance (an Elite squad
    leader's 16 cm: 32); another man of the squad is isolated beyond 16."""
    goto(game, "move-first")
    assert outcomes(play(game, "@blue move sandro 10 lead=32")) == []
    assert outcomes(play(game, "@blue move fabio 10 lead=16")) == []
    facts = play(game, "@blue move piero 10 lead=17 dice=6")
    assert [r[0] for r in outcomes(facts)] == ["BI-R024"]
    goto(game, "move-first", 2)
    facts = play(game, "@blue move sandro 10 lead=33 dice=6")
    assert [r[0] for r in outcomes(facts)] == ["BI-R024"]


@pytest.mark.audits("BI-R212")
def test_a_regular_squad_has_no_scout(game):
    """BI-R212: only Elite or Veteran infantry may have a scout: a Regular man marked as
    one keeps his leader's 8 cm (a Regular squad leader's) and is isolated at 9."""
    goto(game, "move-first")
    assert outcomes(play(game, "@blue move rolando 10 lead=8")) == []
    goto(game, "move-first", 2)
    facts = play(game, "@blue move rolando 10 lead=9 dice=4")
    assert [r[0] for r in outcomes(facts)] == ["BI-R024"]


@pytest.mark.audits("BI-R212")
def test_a_still_or_cautious_scout_observes_one_level_better(game):
    """BI-R212: his observation is improved by one level when stationary or moving
    cautiously: infantry still in cover is Normal for him (Elite 6), not Difficult (3);
    after a normal move, Difficult."""
    play(game, "mark omar hidden", "mark ali hidden")
    goto(game, "observe")
    assert outcomes(play(game, "observe sandro omar cover dice=7")) == [("BI-R165", 6, "nothing seen")]
    play(game, "undo")  # one attempt at him at the end of the phase (BI-R164)
    assert outcomes(play(game, "observe sandro omar cover dice=6")) == [("BI-R165", 6, "spotted")]
    goto(game, "move-first", 2)
    play(game, "@blue move sandro 10")
    goto(game, "observe", 2)
    assert outcomes(play(game, "observe sandro ali cover dice=4")) == [("BI-R165", 3, "nothing seen")]
    goto(game, "move-first", 3)
    play(game, "@blue move sandro 8 cautious")
    goto(game, "observe", 3)
    assert outcomes(play(game, "observe sandro ali cover dice=6")) == [("BI-R165", 6, "spotted")]


# ------------------------------------------------------------------ A.16.4 non-lethal


@pytest.mark.audits("BI-R230")
@pytest.mark.parametrize(
    ("face", "status"),
    [(1, ()), (5, ("shocked",)), (6, ("shocked",)), (8, ("shocked",)), (9, ("shocked",)), (10, ("wounded",))],
)
def test_rubber_bullets_hit_as_a_carbine_and_hurt_less(game, face, status):
    """BI-R230: rubber bullets hit as a carbine (range 60 at most; normal up to 20); a
    Wounded or Seriously wounded result counts as Shocked, Dead as Wounded."""
    goto(game, "fire-regular")
    refused(game, "@blue fire rubens omar range=61", match="out of range", rule="BI-R075")
    facts = play(game, f"@blue fire rubens omar range=20 dice=4,{face}")
    assert outcomes(facts)[0] == ("A.9.4", 4, "hit: roll damage (A.12)")
    omar = unit(game, "omar")
    assert omar.in_play and not omar.has("seriously-wounded")
    for s in ("shocked", "wounded"):
        assert omar.has(s) == (s in status)


@pytest.mark.audits("BI-R230")
@pytest.mark.parametrize(("cm", "chance"), [(10, 5), (11, 4), (20, 4), (21, 3), (60, 3)])
def test_rubber_bullets_use_the_carbines_range_bands(game, cm, chance):
    """BI-R230: "l'arma si considera come una carabina per colpire": the carbine's bands,
    short to 10 cm (+1), normal to 20, long to 60 (−1); a Regular's 4."""
    goto(game, "fire-regular")
    facts = play(game, f"@blue fire rubens omar range={cm} dice={chance + 1}")
    assert outcomes(facts) == [("A.9.4", chance, "miss")]


@pytest.mark.audits("BI-R231")
def test_a_flashbang_shocks_every_man_within_5_cm(game):
    """BI-R231: all infantry within 5 cm shocked, automatically; vehicles are not."""
    goto(game, "fire-regular")
    facts = play(game, "@blue flashbang capo omar ali tecnica")
    assert outcomes(facts) == []
    assert unit(game, "omar").has("shocked") and unit(game, "ali").has("shocked")
    assert not unit(game, "tecnica").has("shocked") and not unit(game, "hassan").has("shocked")


@pytest.mark.audits("BI-R232", "BI-AMB-61")
def test_tear_gas_halves_moves_and_hits_for_six_turns_and_a_d6(long_game):
    """BI-R232: ½ movement and ½ chance to hit for infantry within 10 cm; BI-AMB-61: it
    lasts as smoke, 6 + 1d6 turns (a 1: turns 1 to 7)."""
    game = long_game
    goto(game, "fire-regular")
    facts = play(game, "@blue gas bruno omar hassan dice=1")
    assert outcomes(facts) == [("BI-R232", None, "7 turns")]
    goto(game, "move-second", 2)
    refused(game, "@red move hassan 9", "1 to 8 cm", rule="BI-R040")  # normal 16, halved 8
    play(game, "@red move hassan 8")
    goto(game, "fire-regular", 2)
    facts = play(game, "@red fire omar capo range=20 dice=9,9")
    assert [t for _, t, _ in outcomes(facts, "A.9.4")] == [2, 2]
    waive_morale(game)
    goto(game, "end", 7)
    assert unit(game, "omar").has("gassed")
    play(game, "next")
    assert not unit(game, "omar").has("gassed")


# --------------------------------------------------------------- A.16.5 stabilised


@pytest.mark.audits("BI-R240", "BI-AMB-60")
@pytest.mark.parametrize(("cm", "fires"), [(29, True), (30, False)])
def test_a_stabilised_gun_fires_after_less_than_half_its_move(game, cm, fires):
    """BI-R240 / BI-AMB-60: move in the movement phase and fire in the fire phase if it
    moved less than half its maximum speed (a tank's 60: under 30, strictly); −1 to hit
    on the move."""
    goto(game, "move-first")
    play(game, f"@blue move leopard {cm}")
    goto(game, "fire-regular")
    if not fires:
        refused(game, "@blue fire leopard omar range=50 weapon=mg dice=9,9,9", match="already moved", rule="BI-R030")
        return
    facts = play(game, "@blue fire leopard omar range=50 weapon=mg dice=9,9,9")
    assert [t for _, t, _ in outcomes(facts, "A.9.4")] == [3, 3, 3]  # Regular 4, −1


@pytest.mark.audits("BI-R240")
def test_an_unstabilised_tank_does_not_fire_after_moving(game):
    """BI-R240 is for stabilised armament only: the Ariete moves 10 cm and cannot fire."""
    goto(game, "move-first")
    play(game, "@blue move ariete 10")
    goto(game, "fire-veteran")
    refused(game, "@blue fire ariete omar range=50 weapon=mg dice=9,9,9", match="already moved", rule="BI-R030")
