"""Breaking News combat rules as pure functions, with exact dice: the worked
examples of digest §7 (EX-02, EX-03, EX-04, EX-05, EX-08) and monotone properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from playing import names

from core.language.i18n import plain
from core.log.events import Mod
from core.ruleset import Refused
from core.rulesets.breaking_news.rules import fire, movement, saves, spotting, support, suppression
from core.rulesets.breaking_news.tables.combat import weapons
from core.rulesets.breaking_news.words import IT

W = weapons()


# ------------------------------------------------------------------------ fire


def test_ex02_kalashnikov_burst_loses_two_dice():
    """EX-02: an irregular (Irr2) AR burst at 40 cm at a dodging man: 6 + 2 = 8, so
    the burst loses 2 dice and rolls one needing 6.

    Digest: AMB-23, FIRE-5.
    """
    need, dice = fire.base_shot(W["AR"], "burst", 40)
    assert (need, dice) == (6, 3)
    mods = fire.modifiers(W["AR"], "burst", 40, fire.ShotFacts(dodge=True, firer_class="Irr2"))
    assert sorted(m.value for m in mods) == [1, 1]
    shot = fire.shot(need, dice, mods, burst=True)
    assert (shot.need, shot.dice, shot.lost) == (6, 1, 2)
    assert fire.hits((6,), shot.need) == 1
    assert fire.hits((5,), shot.need) == 0


def test_burst_losing_every_die_cannot_hit():
    """§8.0: a 3-die burst needing 6 + 4 loses every die: no roll, no hit.

    Digest: AMB-23, FIRE-5.
    """
    shot = fire.shot(6, 3, (Mod("a", 2), Mod("b", 2)), burst=True)
    assert shot.dice == 0 and not shot.possible


def test_single_shot_over_six_cannot_hit():
    """§8.0 (AMB-24): a single shot needing 6 + 1 = 7 cannot hit.

    Digest: FIRE-6.
    """
    shot = fire.shot(6, 1, (Mod("cover", 1),), burst=False)
    assert shot.need == 7 and not shot.possible


def test_range_bands_include_their_upper_value():
    """§8.0 (ruling BN-C-BANDS): 25 is the first band, 26 the second …; nothing past 150 cm.

    Digest: AMB-01, FIRE-2.
    """
    assert [fire.band(r) for r in (0, 25, 26, 50, 51, 100, 101, 150)] == [0, 0, 1, 1, 2, 2, 3, 3]
    with pytest.raises(Refused) as no:
        fire.band(151)
    names(no.value, "T-08")


def test_weapon_limits():
    """§8.0: a pistol reaches 10 cm, a tank gun not closer than 10, an AR burst and an RPG not beyond
    their last number; an RPG fires single shots.

    Digest: FIRE-2, FIRE-3, T-08.
    """
    with pytest.raises(Refused, match="10 cm at most") as no:
        fire.base_shot(W["PISTOL"], "aimed", 11)
    names(no.value, "T-08")
    with pytest.raises(Refused, match="closer than 10") as no:
        fire.base_shot(W["TANKGUN"], "aimed", 9)
    names(no.value, "T-08")
    with pytest.raises(Refused, match="cannot reach") as no:
        fire.base_shot(W["AR"], "burst", 60)
    names(no.value, "T-08")
    with pytest.raises(Refused, match="cannot reach") as no:
        fire.base_shot(W["RPG"], "aimed", 120)
    names(no.value, "T-08")
    with pytest.raises(Refused, match="single shots") as no:
        fire.base_shot(W["RPG"], "burst", 20)
    names(no.value, "T-08")
    assert fire.base_shot(W["AR"], "aimed", 120) == (6, 1)
    assert fire.base_shot(W["SNIPER"], "aimed", 150) == (5, 1)
    assert fire.base_shot(W["TANKGUN"], "aimed", 10) == (4, 1)


def test_modifiers_each_as_the_book_says():
    """§8.0: each modifier alone, with its exceptions: moving, cover (not for snipers or RPGs), the class
    +1 (small arms, bursts too), dodging (not a sniper's shot), a sniper target, one crew, Special Forces
    −1 (not on bursts); §10.0's suppressed target past 25 cm.

    Digest: AMB-27, DIFF-27, FIRE-4, T-09.
    """
    ar, sn, rpg, mmg = W["AR"], W["SNIPER"], W["RPG"], W["MMG"]

    def total(w, mode, facts, rng=30):
        return sum(m.value for m in fire.modifiers(w, mode, rng, facts))

    assert total(ar, "aimed", fire.ShotFacts(moving_penalty=True)) == 1
    assert total(ar, "aimed", fire.ShotFacts(moved_cm=6)) == 1
    assert total(ar, "aimed", fire.ShotFacts(moved_cm=5)) == 0
    assert total(ar, "aimed", fire.ShotFacts(cover=True)) == 1
    assert total(sn, "aimed", fire.ShotFacts(cover=True)) == 0  # snipers ignore cover
    assert total(rpg, "aimed", fire.ShotFacts(cover=True)) == 0
    assert total(ar, "burst", fire.ShotFacts(firer_class="Irr3")) == 1  # also on bursts (AMB-25)
    assert total(rpg, "aimed", fire.ShotFacts(firer_class="R5")) == 0  # small arms only
    assert total(ar, "aimed", fire.ShotFacts(firer_class="Irr1")) == 0  # Hardened Militia: no penalty
    assert total(sn, "aimed", fire.ShotFacts(dodge=True)) == 0  # sniper fire cannot be dodged
    assert total(ar, "aimed", fire.ShotFacts(target_sniper=True)) == 1
    assert total(mmg, "burst", fire.ShotFacts(lone_crew=True)) == 1
    assert total(ar, "aimed", fire.ShotFacts(lone_crew=True)) == 0
    assert total(ar, "aimed", fire.ShotFacts(firer_class="R1")) == -1
    assert total(ar, "burst", fire.ShotFacts(firer_class="R1")) == 0  # not on bursts
    # §10.0: a suppressed man in the open counts as in cover beyond 25 cm.
    assert total(ar, "aimed", fire.ShotFacts(target_suppressed_in_open=True), rng=26) == 1
    assert total(ar, "aimed", fire.ShotFacts(target_suppressed_in_open=True), rng=25) == 0


def test_split_burst():
    """§8.0: a burst's dice split as declared, each target at least one, adding up to the weapon's dice.

    Digest: FIRE-8.
    """
    assert fire.split_dice(4, (2, 2), 2) == (2, 2)
    with pytest.raises(Refused) as no:
        fire.split_dice(4, (3, 2), 2)
    names(no.value, "FIRE-8")
    with pytest.raises(Refused) as no:
        fire.split_dice(4, None, 2)
    names(no.value, "FIRE-8")
    with pytest.raises(Refused) as no:
        fire.split_dice(4, (4, 0), 2)
    names(no.value, "FIRE-8")


def test_ex03_rpg_miss_deviates_six_cm_left():
    """EX-03: needs 5, rolls 3: 2 points × 3 cm = 6 cm; direction die 4 is "left" on the
    RPG row of the rule (the book's example says right: ruling BN-C-RPG-DIRECTION).

    Digest: T-11.
    """
    d = fire.deviation(W["RPG"], 5, 3, 4)
    assert (d.dud, d.distance_cm, d.direction) == (False, 6, "left")
    assert fire.deviation(W["RPG"], 5, 1, None).dud
    g = fire.deviation(W["GRENADE"], 4, 2, 4)
    assert (g.distance_cm, g.direction) == (6, "right")
    t = fire.deviation(W["TANKGUN"], 6, 3, 1)
    assert (t.distance_cm, t.direction) == (15, "over")


def test_light_mortar_and_smoke_offsets():
    """§8.5 and §8.9: a miss lands step × (needed − rolled) cm off: a mortar needing 5 that rolls 2, 9 cm;
    hand smoke needing 4 that rolls 2, 2 cm; a hit, 0.

    Digest: MORT-1, SMK-1, T-11.
    """
    assert fire.placement_offset(3, 5, 2) == 9
    assert fire.placement_offset(1, 4, 2) == 2
    assert fire.placement_offset(3, 4, 6) == 0


def test_ammunition_english_and_italian():
    """§8.0.3: a double empties the magazine; three of a kind leaves an AR on aimed fire until a 1; the
    Italian draft counts bursts only and finishes an SMG on three of a kind.

    Digest: AMB-31, FIRE-12.
    """
    ar, smg = W["AR"], W["SMG"]
    assert fire.ammunition((3, 3, 5), ar, True, False, False).empty
    assert not fire.ammunition((3, 4, 5), ar, True, False, False).empty
    three = fire.ammunition((2, 2, 2), ar, True, False, False)
    assert three.empty and three.low and not three.exhausted
    assert fire.ammunition((1,), ar, False, True, False).exhausted
    # English: an SMG with three of a kind just empties its magazine; Italian: it is done.
    assert not fire.ammunition((4, 4, 4), smg, True, False, False).exhausted
    assert fire.ammunition((4, 4, 4), smg, True, False, True).exhausted
    # Italian: doubles count on bursts only (an aimed AR shot is one die anyway).
    assert not fire.ammunition((5,), ar, False, False, True).empty
    assert not fire.ammunition((6, 6, 6, 6), W["LMG"], True, False, False).empty  # no magazine rule


# ----------------------------------------------------------------------- saves


def test_save_modifier_not_cumulative_and_largest_taken():
    """§9.0: leader and protection give one +1, not two; speculative fire's +2 (§8.6) is taken instead; no
    bonus, none.

    Digest: AMB-42, SAVE-3, T-13.
    """
    both = saves.save_mods(saves.SaveFacts(leader=True, protected=True))
    assert [m.value for m in both] == [1]
    spec = saves.save_mods(saves.SaveFacts(leader=True, source=saves.SPECULATIVE))
    assert [m.value for m in spec] == [2]
    assert saves.save_mods(saves.SaveFacts()) == ()


def test_an_exploding_vehicle_gives_its_men_no_protection():
    """§9.1 with §8.8: the vehicle was their cover; a leader keeps his +1 (§9.0)."""
    assert saves.save_mods(saves.SaveFacts(protected=True, source=saves.EXPLOSION)) == ()
    (leader,) = saves.save_mods(saves.SaveFacts(leader=True, protected=True, source=saves.EXPLOSION))
    assert (plain(leader.label), leader.value) == ("team leader", 1)


def test_natural_one_always_kills_a_man():
    """§9.0: a 1 always fails, even at 3+ with +2 against a bombardment (a 2 passes); with two hits both
    saves must pass.

    Digest: ART-4, SAVE-2, SAVE-4, T-13.
    """
    mods = saves.save_mods(saves.SaveFacts(source=saves.BOMBARDMENT))
    assert not saves.save_passes(1, 3, mods)
    assert saves.save_passes(2, 3, mods)  # 3+ with +2: only a 1 kills (AMB-44)
    assert saves.all_saved((3, 4), 3, ())
    assert not saves.all_saved((3, 2), 3, ())


def test_special_save_values():
    """§9.1 and §11.1 replace the class's save: IED 3+, bombardment 3+, an exploding vehicle 3+ (2+
    heavily armoured), civilians stormed 4+ (3+ against Special Forces).

    Digest: SAVE-6, T-13.
    """
    assert saves.save_value(5, saves.SaveFacts(source=saves.IED)) == 3
    assert saves.save_value(5, saves.SaveFacts(source=saves.BOMBARDMENT)) == 3
    assert saves.save_value(5, saves.SaveFacts(source=saves.EXPLOSION)) == 3
    assert saves.save_value(5, saves.SaveFacts(source=saves.EXPLOSION, heavy_vehicle=True)) == 2
    assert saves.save_value(5, saves.SaveFacts(source=saves.STORM_CIVILIAN)) == 4
    assert saves.save_value(5, saves.SaveFacts(source=saves.STORM_CIVILIAN, vs_special_forces=True)) == 3
    assert saves.save_value(5, saves.SaveFacts()) == 5


def test_vehicle_save_knockout_and_explosion():
    """§9.2: a 4 passes a 4+ save; a 2 knocks the vehicle out; a 1 (failing by 3) blows it up; a tank is
    unharmed by small arms; no natural-1 rule for vehicles.

    Digest: T-14, VSAVE-1, VSAVE-3.
    """
    assert saves.vehicle_save(4, 4).passed
    r = saves.vehicle_save(2, 4)
    assert not r.passed and not r.exploded
    r = saves.vehicle_save(1, 4)
    assert not r.passed and r.exploded  # fails by 3
    assert saves.vehicle_save(1, 0).passed  # unaffected (a tank against small arms): no face harms it
    assert saves.vehicle_save(1, 1).passed  # no natural-1 rule for vehicles
    assert saves.vehicle_save_value("tank-front", "light") == 0
    assert saves.explosion_heavy("heavy") and not saves.explosion_heavy("tank")
    assert saves.explosion_heavy("tank", IT)


def test_wounded_table():
    """§9.3: a wound roll of 1 or 2 is dead; 3 to 6 are the turns he lives.

    Digest: T-15.
    """
    assert [saves.wound(f) for f in range(1, 7)] == [0, 0, 3, 4, 5, 6]


# ----------------------------------------------------------------- suppression


def test_suppression_test_with_leader_and_the_six():
    """§10.0: at or under the value plus the leader: 5 under 3 + 2 passes; a 6 always fails; 4 over 3
    fails.

    Digest: SUP-3.
    """
    mods = suppression.suppression_mods(2)
    assert suppression.suppression_passes(5, 3, mods)
    assert not suppression.suppression_passes(6, 3, mods)  # a 6 always fails
    assert not suppression.suppression_passes(6, 5, suppression.suppression_mods(4))
    assert not suppression.suppression_passes(4, 3, ())
    assert suppression.suppression_passes(3, 3, ())


# ------------------------------------------------------------------------ melee


def test_melee_three_against_one():
    """§11.0: three Melee 3 men, one suppressed (−2): 7; against a Melee 5 man: 1 + 7 against 3 + 5 is a
    tie; 2 wins; his 4 wins.

    Digest: MEL-1, MEL-3.
    """
    group = suppression.melee_mods(
        [suppression.Fighter("a", 3), suppression.Fighter("b", 3), suppression.Fighter("c", 3, suppressed=True)]
    )
    assert sum(m.value for m in group) == 7
    lone = suppression.melee_mods([suppression.Fighter("d", 5)])
    assert suppression.melee_winner(1, group, 3, lone) == "tie"  # 8 against 8
    assert suppression.melee_winner(2, group, 3, lone) == "a"
    assert suppression.melee_winner(1, group, 4, lone) == "b"


def test_ex05_storm_rangers_and_taliban():
    """EX-05: 7 Rangers roll 28 dice hitting on 6, 4 Taliban roll 4 hitting on 5-6;
    five 6s and one 5: 5 hits on the Taliban (one of four tests twice), 1 on the Rangers.

    Digest: BLD-3, BLD-4.
    """
    rangers = [6, 6, 6, 6, 6] + [1, 2, 3, 4, 5] * 4 + [1, 2, 3]
    assert len(rangers) == 28
    assert suppression.storm_hits(rangers, defending=False) == 5
    assert suppression.storm_hits([5, 1, 2, 3], defending=True) == 1
    assert suppression.spread_hits(5, ["t1", "t2", "t3", "t4"]) == {"t1": 2, "t2": 1, "t3": 1, "t4": 1}


# ------------------------------------------------------------------- covering


def test_ex04_covering_fire_worth_nine():
    """EX-04: an M4 (AR) and a SAW (LMG) at 32 cm: 2 + 4, plus the Elite bonus 3 = 9.

    Digest: COV-3, T-12.
    """
    value, parts = support.covering_value([("AR", 32), ("LMG", 32)], [3])
    assert value == 9 and [m.value for m in parts] == [2, 4, 3]
    assert support.covering_dice(bunker=True) == 3
    assert support.covering_hit((3, 3, 3), value)
    assert not support.covering_hit((4, 3, 3), value)


def test_covering_value_is_capped_and_limited():
    """§8.3: an HMG and an MMG at 20 cm with an SF bonus add to 17 but are worth 9; nothing past 50 cm; a
    pistol gives nothing at 30 cm.

    Digest: COV-3, T-12.
    """
    value, _ = support.covering_value([("HMG", 20), ("MMG", 20)], [4])
    assert value == 9
    with pytest.raises(Refused) as no:
        support.covering_value([("AR", 51)], [])
    names(no.value, "T-12")
    with pytest.raises(Refused) as no:
        support.covering_value([("PISTOL", 30)], [])
    names(no.value, "T-12")


@given(st.integers(1, 9), st.integers(10, 12))
def test_ex08_ten_or_more_on_2d6_always_passes(value, total):
    """EX-08: covering fire is worth 9 at most, so 10, 11 or 12 on 2d6 always passes.

    Digest: COV-5.
    """
    a = min(6, total - 4)
    faces = (a, total - a)
    assert not support.covering_hit(faces, value)


# ------------------------------------------------------------------- spotting


def test_spotting_numbers():
    """§7.0: 0 within 5 cm, 3 to 20, 5 to 50, 6 to 100, nothing beyond; an SF target in the open seen by a
    recruit: +2 −1 +1; 1 or less is automatic, 7 or more impossible.

    Digest: AMB-03, AMB-20, T-07.
    """
    assert [spotting.base_need(r) for r in (5, 6, 20, 21, 50, 51, 100)] == [0, 3, 3, 5, 5, 6, 6]
    with pytest.raises(Refused) as no:
        spotting.base_need(101)
    names(no.value, "AMB-03")
    mods = spotting.spot_mods(spotting.SpotFacts(target_class="R1", open=True, spotter_class_mod=1, spotter_class="R5"))
    assert sum(m.value for m in mods) == 2
    assert spotting.spot_need(5, mods) == 2
    assert spotting.spot_succeeds(None, 1)  # 1 or less: automatic
    assert not spotting.spot_succeeds(6, 7)  # 7 or more: impossible
    assert spotting.spot_succeeds(5, 5) and not spotting.spot_succeeds(4, 5)


# ------------------------------------------------------------------- movement


def test_action_allowances_and_obstacles():
    """§5.0 and §6.2: each action's distance, cut down by an obstacle (level 3 only with help); a move
    takes the least action that covers it.

    Digest: MOV-1, MOV-4, T-03, T-06.
    """
    assert movement.action_allowance("run") == movement.Allowed(25, "none")
    assert movement.action_allowance("run", 1) == movement.Allowed(15, "none")
    assert movement.action_allowance("shoot", 1) == movement.Allowed(5, "penalty")
    assert movement.action_allowance("run", 2) == movement.Allowed(5, "none")
    assert movement.action_allowance("run", 3, helped=True) == movement.Allowed(5, "none")
    with pytest.raises(Refused, match="help") as no:
        movement.action_allowance("run", 3)
    names(no.value, "T-06")
    with pytest.raises(Refused, match="Run") as no:
        movement.action_allowance("cautious", 2)
    names(no.value, "T-06")
    assert [movement.default_action(c) for c in (0, 5, 6, 15, 16, 25)] == [
        "cautious",
        "cautious",
        "shoot",
        "shoot",
        "run",
        "run",
    ]


def test_fire_after_movement():
    """§6.1: an AR fires after 15 cm; an RPG only after 5 cm or less; an MMG not after any move; a man who
    ran not at all.

    Digest: AMB-10, AMB-15, MOV-3, T-05.
    """
    assert movement.may_fire_after(W["AR"], 15, "penalty") == ""
    assert "5 cm" in movement.may_fire_after(W["RPG"], 15, "penalty")
    assert movement.may_fire_after(W["RPG"], 5, "free") == ""
    assert "cannot fire after moving" in movement.may_fire_after(W["MMG"], 5, "free")
    assert movement.may_fire_after(W["MMG"], 0, "penalty") == ""
    assert "ran" in movement.may_fire_after(W["AR"], 20, "none")


def test_hidden_vehicle_and_carry_moves():
    """§7.0: 5 − 1d6 for a hidden move; §6.0: tracked 30 − 2d6, wheeled 45 − 2d6; §9.3: a carried man 10 −
    1d6.

    Digest: MOV-2, T-04, WND-3.
    """
    assert [movement.hidden_allowance(f) for f in range(1, 7)] == [4, 3, 2, 1, 0, 0]
    assert movement.vehicle_allowance(True, (6, 6)) == 18 and movement.vehicle_allowance(True, (1, 1)) == 28
    assert movement.vehicle_allowance(False, (6, 6)) == 33 and movement.vehicle_allowance(False, (1, 1)) == 43
    assert [movement.carry_allowance(f) for f in (1, 6)] == [9, 4]


def test_support_calls():
    """§8.4: a call succeeds on 4+, 3+ with Improved Support Fire, 5+ under Rules of Engagement (never
    both); speculative permission 5+ (6 under ROE); an IED is a dud on 1–2; smoke drifts 2d6, the first
    way on an even total.

    Digest: ART-1, SMK-2.
    """
    assert support.call_succeeds(4, 4, ())
    assert support.call_succeeds(3, 4, support.call_mods(improved=True, roe=False))
    assert not support.call_succeeds(4, 4, support.call_mods(improved=False, roe=True))
    with pytest.raises(Refused) as no:
        support.call_mods(improved=True, roe=True)
    names(no.value, "EXT-4")
    assert support.speculative_permission(False) == 5 and support.speculative_permission(True) == 6
    assert [support.ied_explodes(f) for f in range(1, 7)] == [False, False, True, True, True, True]
    assert support.smoke_drift((3, 5)) == (8, True) and support.smoke_drift((3, 4)) == (7, False)


# ------------------------------------------------------------------ properties

SHOOTERS = [(w, m) for w in W.values() for m in ("aimed", "burst")]


def _try(w, mode, r):
    try:
        return fire.base_shot(w, mode, r)
    except Refused:
        return None


@given(st.sampled_from(SHOOTERS), st.integers(0, 149), st.integers(1, 60))
def test_more_range_never_makes_a_shot_easier(shooter, r, more):
    w, mode = shooter
    near, far = _try(w, mode, r), _try(w, mode, min(150, r + more))
    if near is None or far is None:
        return
    assert far[0] >= near[0] and far[1] <= near[1]


@pytest.mark.long
@given(st.integers(2, 6), st.integers(1, 5), st.lists(st.integers(-1, 2), max_size=6), st.integers(0, 2))
def test_another_penalty_never_helps_a_burst(need, dice, values, extra):
    mods = tuple(Mod("m", v) for v in values)
    before = fire.shot(need, dice, mods, burst=True)
    after = fire.shot(need, dice, (*mods, Mod("x", extra)), burst=True)
    assert after.dice <= before.dice and (after.need >= before.need or after.dice < before.dice)


@given(st.integers(0, 99), st.integers(1, 50))
def test_farther_is_never_easier_to_sight(r, more):
    far = min(100, r + more)
    assert spotting.base_need(far) >= spotting.base_need(r)


@given(st.integers(1, 6), st.integers(2, 6))
def test_a_save_bonus_never_hurts(face, value):
    plain = saves.save_passes(face, value, ())
    helped = saves.save_passes(face, value, (Mod("bonus", 1),))
    assert helped or not plain
