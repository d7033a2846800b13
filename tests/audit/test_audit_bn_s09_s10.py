"""Audit of Breaking News §9.0–§10.0 (saving throws, vehicles, the wounded, suppression),
written from the rulebook (1.5.1) and its digest alone: given these faces, the book's
outcome.  Every threshold is tried on both sides of its edge."""

from __future__ import annotations

import pytest
from audit_bn_late import facts, new_game, next_turn, out, play, refused, rolls, status, unit
from playing import names

from core.log import events as ev
from core.log.views import REFEREE
from core.ruleset import Refused

#: §3.0's saving throw of each class.
SAVES = {"R1": 2, "R2": 3, "R3": 3, "R4": 4, "R5": 5, "Irr1": 4, "Irr2": 5, "Irr3": 5}

SHOOTERS = (
    unit("gunner", "regulars", "R4", "Guns")
    + unit("ldr", "regulars", "R4", "Alpha", lead=2, roles=("leader",))
    + unit("kalash", "irregulars", "Irr1", "Cell")
)


# ------------------------------------------------------------------------ §9.0


@pytest.mark.audits("T-13", "SAVE-1", "SAVE-5")
@pytest.mark.parametrize(("cls", "value"), sorted(SAVES.items()))
def test_each_class_saves_on_its_value_and_fails_one_below(tmp_path, monkeypatch, cls, value):
    """§9.0, §3.0: a hit is saved by rolling the class's value or more; a pass leaves him
    suppressed.  A man of each class takes a hit from an AR at 10 cm (3+: a 6 hits)."""
    side = "irregulars" if cls.startswith("Irr") else "regulars"
    firer = "gunner" if side == "irregulars" else "kalash"
    active = "regulars" if firer == "gunner" else "irregulars"
    units = SHOOTERS + unit("keep", side, cls, "T1") + unit("lose", side, cls, "T2")
    g = new_game(tmp_path, monkeypatch, units, active=active)
    shot, save = rolls(g.execute(f"fire {firer} keep range=10 aimed dice=6,{value}", role=active))
    assert (shot.outcome, save.target, save.mods, save.outcome) == ("1 hit", value, (), "saved: suppressed")
    assert "suppressed" in status(g, "keep") and not out(g, "keep")
    g.execute(
        f"blast lose source=grenade by={'regulars' if active == 'irregulars' else 'irregulars'} dice={value - 1}",
        role=REFEREE,
    )
    assert out(g, "lose").startswith("killed")


@pytest.mark.audits("SAVE-2", "SAVE-3")
def test_the_one_plus_one_is_added_to_the_die_and_a_natural_one_always_kills(tmp_path, monkeypatch):
    """§9.0: the team leader adds 1 to his die: an R4 leader (4+) saves a 3, not a 2.  "A
    soldier that rolls a 1 is always killed": a Special Forces leader (2+, +1) rolling 1."""
    units = SHOOTERS + unit("sf", "regulars", "R1", "Delta", lead=1, roles=("leader",))
    units += unit("ldr2", "regulars", "R4", "Bravo", lead=1, roles=("leader",))
    g = new_game(tmp_path, monkeypatch, units, active="irregulars")
    a, b, c = rolls(g.execute("blast ldr ldr2 sf source=grenade by=irregulars dice=3,2,1", role=REFEREE))
    assert [m.label for m in a.mods] == ["team leader"] and a.outcome == "saved: suppressed"
    assert b.outcome.startswith("failed") and out(g, "ldr2")
    assert c.outcome.startswith("failed") and out(g, "sf")


@pytest.mark.audits("SAVE-3", "T-13")
def test_the_plus_one_is_not_cumulative(tmp_path, monkeypatch):
    """§9.0 "Dice modifier (not cumulative)": a team leader behind protection still adds
    only 1: an R4 leader in cover saves a 3 (3 + 1 = 4) and fails a 2 (not 2 + 2)."""
    units = SHOOTERS + unit("ldr2", "regulars", "R4", "Bravo", lead=1, roles=("leader",))
    g = new_game(tmp_path, monkeypatch, units, active="irregulars")
    a, b = rolls(g.execute("blast ldr ldr2 source=grenade by=irregulars cover dice=3,2", role=REFEREE))
    assert sum(m.value for m in a.mods) == 1 and a.outcome == "saved: suppressed"
    assert sum(m.value for m in b.mods) == 1 and b.outcome.startswith("failed")


@pytest.mark.audits("SAVE-3", "T-13")
def test_behind_protection_adds_one_to_a_plain_man(tmp_path, monkeypatch):
    """§9.0: a man behind protection adds 1: an R4 rifleman in cover saves a 3, fails a 2;
    in the open a 3 fails."""
    units = SHOOTERS + unit("a", "regulars", "R4", "B") + unit("b", "regulars", "R4", "C")
    units += unit("c", "regulars", "R4", "D")
    g = new_game(tmp_path, monkeypatch, units, active="irregulars")
    a, b = rolls(g.execute("blast a b source=grenade by=irregulars cover dice=3,2", role=REFEREE))
    assert (a.outcome, [m.value for m in a.mods]) == ("saved: suppressed", [1])
    assert b.outcome.startswith("failed")
    (c,) = rolls(g.execute("blast c source=grenade by=irregulars dice=3", role=REFEREE))
    assert c.mods == () and c.outcome.startswith("failed")


@pytest.mark.audits("SAVE-3", "T-13")
def test_friendly_fire_saves_with_one_more(tmp_path, monkeypatch):
    """§8.7, §9.0: each friend in the line of a missed shot saves with +1: an R4 saves a
    3 (3 + 1 = 4); another fails a 2."""
    units = SHOOTERS + unit("a", "regulars", "R4", "B") + unit("b", "regulars", "R4", "C")
    units += unit("foe", "irregulars", "Irr3", "X")
    g = new_game(tmp_path, monkeypatch, units, active="regulars")
    shot, fa, fb = rolls(g.execute("fire gunner foe range=20 aimed line=a,b dice=1,3,2", role="regulars"))
    assert shot.outcome == "miss"
    assert (fa.target, [m.value for m in fa.mods], fa.outcome) == (4, [1], "saved: suppressed")
    assert fb.outcome.startswith("failed") and out(g, "b") and not out(g, "a")


@pytest.mark.audits("SAVE-4", "SAVE-1")
def test_every_hit_must_be_saved(tmp_path, monkeypatch):
    """§9.0: a d6 for every hit, and every one must pass.  An SMG burst at 10 cm (4+) hits
    an R4 twice (6,6,1): saves 6 and 3 put him out; another R4, twice hit, saves 6 and 4
    and is only suppressed."""
    units = SHOOTERS + unit("a", "regulars", "R4", "B") + unit("b", "regulars", "R4", "C")
    units += unit("kid", "irregulars", "Irr1", "K", weapons=("SMG",))
    units += unit("kid2", "irregulars", "Irr1", "L", weapons=("SMG",))
    g = new_game(tmp_path, monkeypatch, units, active="irregulars")
    r = rolls(g.execute("fire kid a range=10 dice=6,6,1,6,3", role="irregulars"))
    assert r[0].outcome == "2 hits" and r[1].faces == (6, 3)
    assert out(g, "a")
    r = rolls(g.execute("fire kid2 b range=10 dice=6,6,1,6,4", role="irregulars"))
    assert r[1].faces == (6, 4) and not out(g, "b") and "suppressed" in status(g, "b")


# ------------------------------------------------------------------------ §9.1


@pytest.mark.audits("SAVE-6", "T-13")
def test_an_ied_hit_is_saved_at_three_whatever_the_class(tmp_path, monkeypatch):
    """§9.1: men hit by an IED save at 3+: a Green Recruit (5+ otherwise) saves a 3 and
    fails a 2."""
    units = SHOOTERS + unit("a", "regulars", "R5", "B") + unit("b", "regulars", "R5", "C")
    g = new_game(tmp_path, monkeypatch, units)
    a, b = rolls(g.execute("blast a b source=ied by=irregulars dice=3,2", role=REFEREE))
    assert (a.target, a.outcome) == (3, "saved: suppressed")
    assert b.target == 3 and out(g, "b")


@pytest.mark.audits("SAVE-6", "T-13")
def test_a_bombardment_is_saved_at_three(tmp_path, monkeypatch):
    """§9.1: "In case of bombardment … all troops test at 3+" (§8.4 adds +2 to the roll,
    digest AMB-44): a militiaman (5+ otherwise) saves a 2 (2 + 2 ≥ 3); a 1 always kills."""
    units = SHOOTERS + unit("a", "irregulars", "Irr3", "B") + unit("b", "irregulars", "Irr3", "C")
    g = new_game(tmp_path, monkeypatch, units)
    a, b = rolls(g.execute("blast a b source=bombardment by=regulars dice=2,1", role=REFEREE))
    assert a.target == 3 and a.outcome == "saved: suppressed"
    assert b.outcome.startswith("failed") and out(g, "b")


@pytest.mark.audits("SAVE-6", "VSAVE-1", "SUP-1", "T-13")
@pytest.mark.parametrize(("cls", "value"), [("protected", 3), ("heavy", 2)])
def test_the_men_of_an_exploding_vehicle_save_at_three_or_two_if_heavily_armoured(tmp_path, monkeypatch, cls, value):
    """§9.1, §9.2: a vehicle that fails its save by 3 or more explodes; the men inside save
    at 3+, or 2+ in a heavily-armoured vehicle.  Two Green Recruits (5+) inside; the one
    who passes is placed beside the wreck, suppressed."""
    units = SHOOTERS + unit("veh", "regulars", cls, "Motor", kind="vehicle", weapons=("LMG",))
    units += unit("a", "regulars", "R5", "B") + unit("b", "regulars", "R5", "B")
    g = new_game(tmp_path, monkeypatch, units)
    play(g, "@regulars embark a veh", "@regulars embark b veh")
    # the tank-gun column: protected 6, heavy 5+; a 1 fails by 5 or 4: it explodes
    vsave, a, b = rolls(g.execute(f"blast veh source=tank by=irregulars dice=1,{value},{value - 1}", role=REFEREE))
    assert vsave.outcome == "explodes"
    assert (a.target, a.outcome) == (value, "saved: suppressed")
    assert "suppressed" in status(g, "a") and "in-vehicle" not in status(g, "a")
    assert b.target == value and out(g, "b")


# ------------------------------------------------------------------------ §9.2

#: §9.2: (vehicle, blast source, save value); value 1 always passes.
VEHICLE_SAVES = [
    ("tank", "rpg", 1),
    ("tank", "milan", 4),
    ("tank", "tank", 4),
    ("heavy", "rpg", 2),
    ("heavy", "milan", 5),
    ("heavy", "tank", 5),
    ("light", "rpg", 4),
    ("light", "ied", 4),
    ("light", "milan", 6),
    ("light", "tank", 6),
    ("protected", "rpg", 6),
    ("protected", "ied", 6),
    ("protected", "tank", 6),
]


@pytest.mark.audits("T-14", "VSAVE-1")
@pytest.mark.parametrize(("cls", "source", "value"), VEHICLE_SAVES)
def test_vehicle_saves_at_their_column(tmp_path, monkeypatch, cls, source, value):
    """§9.2: a vehicle saves on 1d6 ≥ its column's value; one below knocks it out (a
    difference of 1: it does not explode)."""
    units = SHOOTERS + unit("v1", "irregulars", cls, "M1", kind="vehicle", weapons=("LMG",))
    units += unit("v2", "irregulars", cls, "M2", kind="vehicle", weapons=("LMG",))
    g = new_game(tmp_path, monkeypatch, units)
    (a,) = rolls(g.execute(f"blast v1 source={source} by=regulars dice={value}", role=REFEREE))
    assert a.target == value and not out(g, "v1")
    if value > 1:
        (b,) = rolls(g.execute(f"blast v2 source={source} by=regulars dice={value - 1}", role=REFEREE))
        assert b.outcome != "explodes" and out(g, "v2").startswith("knocked out")


@pytest.mark.audits("VSAVE-3", "T-14")
def test_a_tanks_front_saves_a_natural_one_against_an_rpg(tmp_path, monkeypatch):
    """§9.2: tank frontal 1+ against light AT; the natural 1 of §9.0 is a soldier's, so a 1
    passes.  Its side or rear is 2+: a 1 knocks it out."""
    units = SHOOTERS + unit("rpg", "regulars", "R4", "AT", weapons=("RPG",))
    units += unit("t1", "irregulars", "tank", "M1", kind="vehicle", weapons=("TANKGUN", "HMG"))
    units += unit("t2", "irregulars", "tank", "M2", kind="vehicle", weapons=("TANKGUN", "HMG"))
    g = new_game(tmp_path, monkeypatch, units)
    shot, vsave = rolls(g.execute("fire rpg t1 range=20 dice=6,1", role="regulars"))
    assert (vsave.target, not out(g, "t1")) == (1, True)
    g.execute("blast t2 source=rpg by=regulars dice=1", role=REFEREE)  # the front again
    assert not out(g, "t2")


@pytest.mark.audits("T-14", "VSAVE-1")
def test_a_tanks_flank_saves_at_two_against_light_at_and_five_against_a_tank_gun(tmp_path, monkeypatch):
    """§9.2: tank lateral/rear 2+, 5+ against a tank gun or heavy AT."""
    units = SHOOTERS + unit("rpg", "regulars", "R4", "AT", weapons=("RPG",))
    units += unit("rpg2", "regulars", "R4", "AT2", weapons=("RPG",))
    units += unit("milan", "regulars", "R4", "AT3", weapons=("ATH",))
    units += unit("milan2", "regulars", "R4", "AT4", weapons=("ATH",))
    for n in (1, 2, 3, 4):
        units += unit(f"t{n}", "irregulars", "tank", f"M{n}", kind="vehicle", weapons=("TANKGUN", "HMG"))
    g = new_game(tmp_path, monkeypatch, units)
    _, v = rolls(g.execute("fire rpg t1 range=20 flank dice=6,2", role="regulars"))
    assert (v.target, out(g, "t1")) == (2, "")
    _, v = rolls(g.execute("fire rpg2 t2 range=20 flank dice=6,1", role="regulars"))
    assert v.target == 2 and out(g, "t2").startswith("knocked out")
    _, v = rolls(g.execute("fire milan t3 range=20 flank dice=6,5", role="regulars"))
    assert (v.target, out(g, "t3")) == (5, "")
    _, v = rolls(g.execute("fire milan2 t4 range=20 flank dice=6,4", role="regulars"))
    assert v.target == 5 and out(g, "t4").startswith("knocked out")


@pytest.mark.audits("VSAVE-2", "T-14")
def test_tanks_are_unaffected_by_light_weapons_mgs_and_ieds(tmp_path, monkeypatch):
    """§9.2 "Tanks are unaffected by light weapons, IED and MGs": an AR hit and an IED roll
    no save and leave it unharmed."""
    units = SHOOTERS + unit("t1", "irregulars", "tank", "M1", kind="vehicle", weapons=("TANKGUN", "HMG"))
    g = new_game(tmp_path, monkeypatch, units)
    r = rolls(g.execute("fire gunner t1 range=10 aimed dice=6", role="regulars"))
    assert len(r) == 1 and r[0].outcome == "1 hit" and not out(g, "t1")
    r = rolls(g.execute("blast t1 source=ied by=regulars", role=REFEREE))
    assert r == [] and not out(g, "t1")


#: §9.2 against small arms and machine guns: (vehicle, weapon, save value).
SMALL_ARMS = [
    ("heavy", "AR", 2),
    ("heavy", "HMG", 2),
    ("light", "AR", 3),
    ("light", "HMG", 3),
    ("protected", "AR", 4),
    ("protected", "LMG", 4),
    ("protected", "HMG", 6),
]


@pytest.mark.audits("T-14", "VSAVE-1")
@pytest.mark.parametrize(("cls", "weapon", "value"), SMALL_ARMS)
def test_vehicles_against_small_arms_and_machine_guns(tmp_path, monkeypatch, cls, weapon, value):
    """§9.2: heavily-armoured 2+, light-armoured 3+, protected 4+ (6 against an HMG)."""
    units = SHOOTERS + unit(
        "mg", "regulars", "protected", "Motor", kind="vehicle", weapons=("LMG" if weapon == "AR" else weapon,)
    )
    units += unit("ar", "regulars", "R4", "AR")
    units += unit("v1", "irregulars", cls, "M1", kind="vehicle", weapons=("LMG",))
    units += unit("v2", "irregulars", cls, "M2", kind="vehicle", weapons=("LMG",))
    g = new_game(tmp_path, monkeypatch, units)
    firer = "ar" if weapon == "AR" else "mg"
    misses = {"AR": "", "LMG": ",1,1,1", "HMG": ",1,1,1,1"}[weapon]
    hit = f"6{misses}"
    mode = " aimed" if weapon == "AR" else ""
    r = rolls(g.execute(f"fire {firer} v1 range=10{mode} weapon={weapon} dice={hit},{value}", role="regulars"))
    assert (r[-1].target, out(g, "v1")) == (value, "")
    next_turn(g, "regulars")
    r = rolls(g.execute(f"fire {firer} v2 range=10{mode} weapon={weapon} dice={hit},{value - 1}", role="regulars"))
    assert r[-1].target == value and out(g, "v2").startswith("knocked out")


@pytest.mark.audits("VSAVE-1", "T-14")
def test_a_vehicle_explodes_when_it_fails_by_three_not_by_two(tmp_path, monkeypatch):
    """§9.2: "If the test is failed with a difference of 3+ the vehicle explodes".  A light
    armoured vehicle against a tank gun needs 6: a 3 (difference 3) blows it up, a 4
    (difference 2) only knocks it out."""
    units = SHOOTERS + unit("v1", "irregulars", "light", "M1", kind="vehicle", weapons=("LMG",))
    units += unit("v2", "irregulars", "light", "M2", kind="vehicle", weapons=("LMG",))
    g = new_game(tmp_path, monkeypatch, units)
    (a,) = rolls(g.execute("blast v1 source=tank by=regulars dice=3", role=REFEREE))
    assert a.outcome == "explodes" and out(g, "v1").startswith("destroyed")
    (b,) = rolls(g.execute("blast v2 source=tank by=regulars dice=4", role=REFEREE))
    assert b.outcome != "explodes" and out(g, "v2").startswith("knocked out")


# ------------------------------------------------------------------------ §9.3


@pytest.mark.audits("WND-1", "T-15")
def test_a_wound_roll_of_two_is_dead_three_lives_three_turns(tmp_path, monkeypatch):
    """§9.3 (optional): a man put out rolls a die: 1 or 2 dead; 3 to 6 the turns he can
    survive without a medic (he dies when they run out, digest AMB-47: at the end of turn
    1 + 3)."""
    units = SHOOTERS + unit("a", "regulars", "R4", "B") + unit("b", "regulars", "R4", "C")
    g = new_game(tmp_path, monkeypatch, units, options=("wounded",))
    r = rolls(g.execute("blast a b source=grenade by=irregulars dice=1,2,1,3", role=REFEREE))
    assert [x.outcome for x in r[1::2]] == ["dead", "badly wounded: 3 turns without a medic"]
    assert out(g, "a").startswith("killed") and out(g, "b").startswith("wounded")
    next_turn(g, "regulars", end_dice="6,6,6")  # the morale test of the losses
    for turn in (3, 4):
        next_turn(g, "regulars")
        assert g.state.turn == turn and out(g, "b").startswith("wounded"), turn
    play(g, "next", "next")
    assert out(g, "b").startswith("killed") or "died" in out(g, "b"), out(g, "b")


@pytest.mark.audits("WND-2", "DP-5")
def test_a_man_the_medic_reaches_is_stabilised_and_no_loss(tmp_path, monkeypatch):
    """§9.3: "When the medic comes in contact with a wounded man the latter is considered
    stabilized … not considered as lost for victory conditions (defeat points)".  Two
    Trained regulars (10 DP each) are wounded; the medic stabilises one: 10 DP, not 20."""
    units = SHOOTERS + unit("a", "regulars", "R4", "B") + unit("b", "regulars", "R4", "B")
    units += unit("doc", "regulars", "R4", "B", weapons=("PISTOL",), roles=("medic",))
    g = new_game(tmp_path, monkeypatch, units, options=("wounded",))
    play(g, "blast a b source=grenade by=irregulars dice=1,4,1,4", "@regulars medic doc a")
    assert out(g, "a").startswith("stabilised")
    refused(g, "@regulars fire a kalash range=10 aimed dice=6", rule="SAVE-2")
    play(g, "next", "next dice=6,6,6")
    losses = {k: v for k, v in g.state.sides["regulars"].dp_by_category.items() if k != "first-fire"}
    assert sum(losses.values()) == 10


@pytest.mark.audits("WND-3")
@pytest.mark.parametrize(("die", "cm"), [(4, 6), (1, 9), (6, 4)])
def test_a_comrade_carries_a_wounded_man_ten_less_a_die(tmp_path, monkeypatch, die, cm):
    """§9.3: "A wounded model can be moved with the aid of a comrade moving 10cm-1d6"."""
    units = SHOOTERS + unit("a", "regulars", "R4", "B") + unit("b", "regulars", "R4", "B")
    g = new_game(tmp_path, monkeypatch, units, options=("wounded",))
    g.execute("blast a source=grenade by=irregulars dice=1,5", role=REFEREE)
    moved = facts(g.execute(f"carry b a dice={die}", role="regulars"), ev.Moved)
    assert [(m.unit, m.cm) for m in moved] == [("b", cm), ("a", cm)]


# ----------------------------------------------------------------------- §10.0


@pytest.mark.audits("SUP-1", "SUP-2")
def test_going_to_ground_suppresses_and_a_suppressed_man_cannot_react(tmp_path, monkeypatch):
    """§6.5, §10.0: a man with no cover to dodge to may go to ground: he is suppressed, and
    a suppressed figure cannot react by opportunity."""
    units = SHOOTERS + unit("i", "irregulars", "Irr1", "B") + unit("j", "irregulars", "Irr1", "C")
    g = new_game(tmp_path, monkeypatch, units)
    play(g, "@regulars move gunner 10", "@irregulars react-ground i")
    assert "suppressed" in status(g, "i")
    refused(g, "@irregulars react-fire i gunner range=30 dice=6,6", rule="SUP-2")
    g.execute("react-fire j gunner range=30 dice=1", role="irregulars")  # his neighbour may


@pytest.mark.audits("SUP-2")
@pytest.mark.parametrize(("cm", "covered"), [(25, False), (25.1, True), (25.5, True), (26, True)])
def test_a_suppressed_man_in_the_open_is_in_cover_only_beyond_25_cm(tmp_path, monkeypatch, cm, covered):
    """§10.0: "If in the open then he is considered in cover beyond 25cm": at exactly 25 cm
    no cover; beyond it the cover's +1 to hit (an AR aimed: 3 at 25 cm, 4 beyond) and the
    +1 behind protection to his save (digest AMB-48)."""
    units = SHOOTERS + unit("i", "irregulars", "Irr1", "B", status=("suppressed",))
    g = new_game(tmp_path, monkeypatch, units)
    base = 3 if cm <= 25 else 4
    shot, save = rolls(g.execute(f"fire gunner i range={cm} aimed dice=6,3", role="regulars"))
    assert shot.target == base + (1 if covered else 0)
    assert sum(m.value for m in save.mods) == (1 if covered else 0)
    assert save.outcome.startswith("saved") is covered  # Irr1 4+: a 3 saves only with the +1
    # counted as in cover, he is still in the open: he does not drop out of sight (ruling BN-C-SUPPRESS-HIDE)
    assert "hidden" not in status(g, "i")


@pytest.mark.audits("SUP-2", "SUP-1")
def test_a_man_already_in_cover_who_saves_becomes_hidden(tmp_path, monkeypatch):
    """§10.0: "If the target was already in cover then he becomes Hidden"; in the open he
    is only suppressed."""
    units = SHOOTERS + unit("i", "irregulars", "Irr1", "B") + unit("j", "irregulars", "Irr1", "C")
    g = new_game(tmp_path, monkeypatch, units)
    g.execute("fire gunner i range=20 aimed cover dice=6,6", role="regulars")
    assert {"suppressed", "hidden"} <= set(status(g, "i"))
    g.execute("fire ldr j range=20 aimed dice=6,6", role="regulars")
    assert "suppressed" in status(g, "j") and "hidden" not in status(g, "j")


@pytest.mark.audits("SUP-3", "SUP-4")
@pytest.mark.parametrize(("die", "passes"), [(3, True), (4, False)])
def test_the_suppression_test_is_the_class_value_or_less(tmp_path, monkeypatch, die, passes):
    """§10.0: roll equal to or less than the soldier's Suppression value (Trained: 3).  A
    pass acts as normal (he fires); a fail stays suppressed and may only move up to 10 cm
    to cover."""
    units = SHOOTERS + unit("s", "regulars", "R4", "S", status=("suppressed",))
    units += unit("foe", "irregulars", "Irr3", "X")
    g = new_game(tmp_path, monkeypatch, units)
    dice = f"{die},1" if passes else f"{die}"
    r = rolls(g.execute(f"fire s foe range=20 aimed dice={dice}", role="regulars"))
    assert (r[0].target, r[0].outcome.startswith("passes")) == (3, passes)
    assert ("suppressed" in status(g, "s")) is not passes
    if passes:
        assert len(r) == 2  # he fired
    else:
        assert len(r) == 1
        refused(g, "@regulars move s 11", rule="SUP-4")
        g.execute("move s 10", role="regulars")


@pytest.mark.audits("SUP-3")
@pytest.mark.parametrize(("die", "passes"), [(5, True), (6, False)])
def test_a_leaders_leadership_is_added_and_a_six_always_fails(tmp_path, monkeypatch, die, passes):
    """§10.0: add the leadership of an Officer or NCO within 5 cm (2): Trained 3 + 2 = 5, a
    5 passes; "A 6 always fails", even for a Special Forces man (5 + 2 = 7)."""
    units = SHOOTERS + unit("s", "regulars", "R4", "Alpha", status=("suppressed",))
    units += unit("sf", "regulars", "R1", "Alpha", status=("suppressed",))
    units += unit("foe", "irregulars", "Irr3", "X")
    g = new_game(tmp_path, monkeypatch, units)
    dice = f"{die},1" if passes else f"{die}"
    (t, *_) = rolls(g.execute(f"fire s foe range=20 aimed leader=ldr dice={dice}", role="regulars"))
    assert (t.target, t.outcome.startswith("passes")) == (5, passes)
    (t,) = rolls(g.execute("fire sf foe range=20 aimed leader=ldr dice=6", role="regulars"))
    assert t.outcome.startswith("fails") and "suppressed" in status(g, "sf")


@pytest.mark.audits("SUP-4", "SUP-3")
def test_a_man_who_failed_tests_again_before_his_next_action(tmp_path, monkeypatch):
    """§10.0: a soldier who failed "remains suppressed (in panic) until he passes another
    test": next turn he tests again before acting, and a pass lets him fire."""
    units = SHOOTERS + unit("s", "regulars", "R4", "S", status=("suppressed",))
    units += unit("foe", "irregulars", "Irr3", "X")
    g = new_game(tmp_path, monkeypatch, units)
    g.execute("fire s foe range=20 aimed dice=5", role="regulars")
    assert "suppressed" in status(g, "s")
    next_turn(g, "regulars")
    r = rolls(g.execute("fire s foe range=20 aimed dice=2,6,6", role="regulars"))
    assert r[0].outcome.startswith("passes") and r[1].outcome == "1 hit"
    assert "suppressed" not in status(g, "s")


@pytest.mark.audits("SAVE-3", "T-13")
@pytest.mark.parametrize(("die", "saved"), [(2, True), (1, False)])
def test_a_speculative_hit_is_saved_with_two_more(tmp_path, monkeypatch, die, saved):
    """§8.6, §9.0 (digest AMB-42: +2, the larger of the two): a Mercenary (4+) hidden, hit
    by speculative fire from a grenade launcher, saves a 2 (2 + 2 = 4); a 1 always kills."""
    units = SHOOTERS + unit("i", "irregulars", "Irr1", "B", status=("hidden",))
    units += unit("gl", "regulars", "R4", "GL", weapons=("AR", "GL"))
    g = new_game(tmp_path, monkeypatch, units)
    r = rolls(g.execute(f"speculative gl i range=20 weapon=GL dice=6,{die}", role=REFEREE))
    save = r[-1]
    assert (save.target, sum(m.value for m in save.mods)) == (4, 2)
    assert save.outcome.startswith("saved") is saved


@pytest.mark.audits("VSAVE-2", "T-14")
@pytest.mark.parametrize("weapon", ["LMG", "HMG"])
def test_machine_guns_cannot_hurt_a_tank(tmp_path, monkeypatch, weapon):
    """§9.2: "Tanks are unaffected by light weapons, IED and MGs": an MG's hits roll no save."""
    units = SHOOTERS + unit("mg", "regulars", "protected", "Motor", kind="vehicle", weapons=(weapon,))
    units += unit("t1", "irregulars", "tank", "M1", kind="vehicle", weapons=("TANKGUN", "HMG"))
    g = new_game(tmp_path, monkeypatch, units)
    dice = "6,6,6,6" + (",6" if weapon == "HMG" else "")
    r = rolls(g.execute(f"fire mg t1 range=10 dice={dice}", role="regulars"))
    assert len(r) == 1 and not out(g, "t1")


@pytest.mark.audits("WND-2")
def test_a_stabilised_man_does_not_count_for_morale(tmp_path, monkeypatch):
    """§9.3: a stabilised soldier "doesn't count for morale": two men wounded, one of them
    stabilised: the losses are 1, so all 1s pass."""
    units = SHOOTERS + unit("a", "regulars", "R4", "Alpha") + unit("b", "regulars", "R4", "Alpha")
    units += unit("doc", "regulars", "R4", "Alpha", weapons=("PISTOL",), roles=("medic",))
    g = new_game(tmp_path, monkeypatch, units, options=("wounded",))
    play(g, "blast a b source=grenade by=irregulars dice=1,4,1,4", "@regulars medic doc a", "next")
    (roll,) = rolls(g.execute("morale regulars dice=1,1,1", role="regulars"))
    assert (roll.target, roll.outcome) == (1, "passed")


@pytest.mark.audits("SUP-3", "SUP-4")
def test_a_suppressed_man_tests_before_moving_too(tmp_path, monkeypatch):
    """§10.0: "Before making any action he must pass a test": a move is an action; a pass
    (3 for a Trained man) lets him run 25 cm."""
    units = SHOOTERS + unit("s", "regulars", "R4", "S", status=("suppressed",))
    g = new_game(tmp_path, monkeypatch, units)
    r = rolls(g.execute("move s 25 run dice=3", role="regulars"))
    assert r[0].outcome.startswith("passes") and g.state.units["s"].moved_cm == 25


@pytest.mark.audits("SUP-4", "BLD-1")
def test_a_man_in_panic_may_not_storm_a_building(tmp_path, monkeypatch):
    """§10.0: a man who failed his test "cannot perform any actions apart from moving up to
    10cm to take cover"; storming a building (§11.1) is an action: refused, as fire, melee
    and covering fire are, and no storm dice are rolled (nobody fires first)."""
    units = SHOOTERS + unit("s", "regulars", "R4", "S", status=("suppressed",))
    units += unit("foe", "irregulars", "Irr3", "X") + unit("tali", "irregulars", "Irr3", "House")
    g = new_game(tmp_path, monkeypatch, units)
    g.execute("fire s foe range=20 aimed dice=5", role="regulars")  # fails his test: in panic
    for line in ("storm s against=tali dice=1", "melee s foe dice=6,1", "covering s area=yard range=20"):
        with pytest.raises(Refused, match="panic") as no:
            g.execute(line, role="regulars")
        names(no.value, "SUP-4")
    assert "first_fire" not in g.state.vars
