"""Fourth held-out audit of Breaking News: vehicles where they meet the rest of the book (§6.0
their move rolled each time, §6.1 what they fire after it, §6.3 getting in and out, §8.2 a
vehicle's move answered by opportunity beyond 50 cm, §8.8 the men inside each kind of
vehicle, §9.1–§9.2 the margin of three, the men of an explosion saving and then suppressed,
the helicopter gunship of §8.4), and the other movement allowances of T-04 and the obstacles
of T-06 crossed with the action that pays for them.  Written from the rulebook (1.5.1) and
its digest alone: given these faces, the book's outcome."""

from __future__ import annotations

import pytest
from audit_bn_late import new_game, next_turn, out, play, refused, rolls, saves, status, table, unit
from playing import names

from core.log.views import REFEREE
from core.refusal import TYPING
from core.ruleset import Refused

#: A Hummer with a man and a driver aboard, a Puma with a man aboard, a tank with one aboard,
#: a Centauro, the Militia's technical with a gunman; and men on foot.
POOL = (
    unit("hummer", "regulars", "protected", "Motor", kind="vehicle", weapons=("HMG",))
    + unit("rider", "regulars", "R4", "Alpha")
    + 'aboard = "hummer"\n'
    + unit("puma", "regulars", "light", "Motor2", kind="vehicle", weapons=("HMG",))
    + unit("prider", "regulars", "R4", "Bravo")
    + 'aboard = "puma"\n'
    + unit("tank", "regulars", "tank", "Armour", kind="vehicle", weapons=("TANKGUN", "HMG"), roles=("tracked",))
    + unit("trider", "regulars", "R2", "Charlie")
    + 'aboard = "tank"\n'
    + unit("cent", "regulars", "heavy", "Motor3", kind="vehicle", weapons=("TANKGUN", "HMG"))
    + unit("crider", "regulars", "R4", "Delta")
    + 'aboard = "cent"\n'
    + unit("sgt", "regulars", "R4", "Alpha", lead=1, roles=("commander", "leader"))
    + unit("m0", "regulars", "R4", "Alpha")
    + unit("m1", "regulars", "R4", "Alpha")
    + unit("techie", "irregulars", "unprotected", "Wheels", kind="vehicle", weapons=("HMG",))
    + unit("gunman", "irregulars", "Irr1", "Wheels")
    + 'aboard = "techie"\n'
    + unit("boss", "irregulars", "Irr1", "Cell", lead=1, roles=("commander", "leader"))
    + unit("i0", "irregulars", "Irr1", "Cell")
    + unit("irpg", "irregulars", "Irr1", "Cell", weapons=("RPG",))
    + unit("imilan", "irregulars", "Irr1", "Cell", weapons=("ATH",))
    + unit("ihmg", "irregulars", "Irr1", "Cell", weapons=("HMG",))
    + unit("i3", "irregulars", "Irr3", "Cell")
)


def game(tmp_path, monkeypatch, active="regulars", **kw):
    return new_game(tmp_path, monkeypatch, POOL, active=active, **kw)


g = table(POOL)
irr = table(POOL, "irr", active="irregulars")


# ------------------------------------------------------------------ §6.0: 30 − 2d6, 45 − 2d6


@pytest.mark.audits("MOV-2", "T-04")
@pytest.mark.parametrize(
    ("vehicle", "faces", "most"),
    [("tank", "6,6", 18), ("tank", "1,1", 28), ("hummer", "6,6", 33), ("hummer", "1,1", 43), ("puma", "3,4", 38)],
)
def test_a_vehicle_goes_as_far_as_its_roll_and_no_further(g, vehicle, faces, most):
    """§6.0: "Tracked vehicles: 30cm - 2d6cm; Wheeled vehicles 45cm - 2d6cm" (T-04: 18–28,
    33–43): the roll is the most it may go this move.  Asked for a centimetre more, it goes
    as far as the roll lets it and no further."""
    from core.log import events as ev

    done = g.execute(f"move {vehicle} {most + 1} dice={faces}", role="regulars")
    assert [e.cm for e in done.events if isinstance(e, ev.Moved)] == [most]


@pytest.mark.audits("MOV-2")
def test_the_vehicle_rolls_again_next_turn(g):
    """AMB-12: the 2d6 is rolled each time the vehicle moves: the Hummer's 6,6 (33 cm) in turn
    1 does not bind turn 2, where 1,1 lets it go 43 cm."""
    g.execute("move hummer 30 dice=6,6", role="regulars")
    next_turn(g, "regulars")
    (roll,) = rolls(g.execute("move hummer 43 dice=1,1", role="regulars"))
    assert roll.faces == (1, 1)


# ------------------------------------------------------------------ §6.1: what a vehicle fires after moving


@pytest.mark.audits("T-05", "MOV-3")
def test_a_tank_that_fired_its_gun_does_not_move(g):
    """§6.1: "All tanks can either fire their main gun or move": the gun fired (at a wall by
    the Militiaman, 30 cm), the tank may not move this turn."""
    g.execute("fire tank i0 range=30 weapon=TANKGUN dice=1", role="regulars")
    refused(g, "@regulars move tank 10 dice=3,3", rule="MOV-2")


@pytest.mark.audits("T-05", "T-08")
@pytest.mark.parametrize(("vehicle", "weapon"), [("tank", "HMG"), ("puma", "HMG"), ("cent", "HMG")])
def test_a_vehicle_fires_its_machine_gun_on_the_move_at_plus_one(g, vehicle, weapon):
    """§6.1: "Armoured cars can fire whilst moving with a penalty, also tanks firing only with
    machine guns" (AMB-13: +1).  An HMG at 30 cm needs 5; after a move, 6: five dice of 5
    miss."""
    g.execute(f"move {vehicle} 10 dice=3,3", role="regulars")
    (shot,) = rolls(g.execute(f"fire {vehicle} i0 range=30 weapon={weapon} dice=5,5,5,5,5", role="regulars"))
    assert shot.target == 6 and shot.outcome == "miss"


@pytest.mark.audits("T-05", "T-08")
def test_a_vehicle_that_stood_still_fires_its_hmg_without_penalty(g):
    """§6.1: the penalty is for firing whilst moving; the Puma that did not move fires its
    HMG at 30 cm on 5+: 5,5 hit twice and the Militiaman (4+) saves both on 6 and is
    suppressed."""
    shot, save = rolls(g.execute("fire puma i0 range=30 dice=5,5,1,1,1,6,6", role="regulars"))
    assert shot.target == 5 and save.faces == (6, 6)
    assert "suppressed" in status(g, "i0")


# ------------------------------------------------------------------ §8.2: a vehicle moving


@pytest.mark.audits("OPP-3", "OPP-2")
def test_a_moving_vehicle_is_answered_beyond_50_cm(g):
    """§8.2: "This is not true if firing at vehicles ... the 50cm limit does not apply": the
    Hummer drives; the RPG answers it at 80 cm (6+: a 6 hits; its save against light AT is
    6: a 6 saves)."""
    g.execute("move hummer 30 dice=3,3", role="regulars")
    shot, save = rolls(g.execute("react-fire irpg hummer range=80 dice=6,6", role="irregulars"))
    assert shot.target == 6 and save.target == 6 and save.outcome == "saved"


@pytest.mark.audits("OPP-3")
def test_a_man_walking_at_60_cm_is_not_answered(g):
    """§8.2: against men the opportunity shot is "within 50cm": a man who moves 60 cm away is
    not answered by the Militiaman's AR."""
    g.execute("move m0 10", role="regulars")
    refused(g, "@irregulars react-fire i0 m0 range=60 aimed dice=6", rule="OPP-3")


@pytest.mark.audits("OPP-4", "OPP-2")
def test_the_vehicle_move_is_answered_once_by_each_man(g):
    """§8.2: "A model can only react once to each enemy soldier's move or fire": the Hummer's
    one move gets one shot from the AR, not two."""
    play(g, "@regulars move hummer 30 dice=3,3", "@irregulars react-fire i0 hummer range=30 aimed dice=1")
    refused(g, "@irregulars react-fire i0 hummer range=30 aimed dice=1", rule="OPP-4")


# ------------------------------------------------------------------ §8.8: the men inside


@pytest.mark.audits("VF-1")
@pytest.mark.parametrize("man", ["prider", "crider", "trider"])
def test_men_inside_an_armoured_vehicle_are_not_shot_with_small_arms(irr, man):
    """§8.8: only the men of "a protected but not armoured" vehicle are "subject to small arms
    fire" (AMB-39): a man inside a Puma, a Centauro or a tank cannot be named by an AR."""
    refused(irr, f"@irregulars fire i0 {man} range=20 aimed dice=6,1", rule="VF-1")


@pytest.mark.audits("VF-1", "T-09", "SAVE-3")
def test_a_man_in_a_hummer_counts_as_behind_cover(irr):
    """§8.8: the men of a protected vehicle "count as being behind cover": the AR at 20 cm
    needs 3 + 1 = 4 (a 4 hits); the Trained rider saves 4+ with +1 for protection, so his 3
    saves and he is suppressed, still aboard."""
    shot, save = rolls(irr.execute("fire i0 rider range=20 aimed dice=4,3", role="irregulars"))
    assert shot.target == 4 and save.outcome.startswith("saved")
    assert {"suppressed", "in-vehicle"} <= set(status(irr, "rider"))


@pytest.mark.audits("VF-1")
def test_a_man_on_a_technical_is_shot_in_the_open(g):
    """AMB-39: the men on an unprotected technical "can be targeted normally, not in cover":
    the Trained AR at 20 cm needs 3 (a 3 hits) and the gunman (4+) fails on a 3."""
    shot, save = rolls(g.execute("fire m0 gunman range=20 aimed dice=3,3", role="regulars"))
    assert shot.target == 3 and shot.outcome == "1 hit"
    assert out(g, "gunman")


# ------------------------------------------------------------------ §9.1–§9.2: explosion


@pytest.mark.audits("VSAVE-1", "SAVE-6", "T-13")
@pytest.mark.parametrize(("die", "alive"), [(3, True), (2, False)])
def test_the_men_of_an_exploding_hummer_save_on_3(irr, die, alive):
    """§9.1: "those inside an exploding vehicle must test at 3+"; §9.2: the Hummer saves 6
    against an RPG, a 3 fails by 3: it explodes.  The Trained rider saves 3+ (not his 4+):
    a 3 lives and he is suppressed beside the wreck, a 2 dies."""
    rolled = rolls(irr.execute(f"fire irpg hummer range=20 dice=6,3,{die}", role="irregulars"))
    assert rolled[1].outcome == "explodes"
    assert bool(out(irr, "rider")) is not alive
    if alive:
        assert "suppressed" in status(irr, "rider") and "in-vehicle" not in status(irr, "rider")


@pytest.mark.audits("VSAVE-1", "SAVE-6", "T-13")
@pytest.mark.parametrize(("die", "alive"), [(2, True), (1, False)])
def test_the_men_of_an_exploding_centauro_save_on_2(irr, die, alive):
    """§9.1: "2+ if inside a heavily armoured vehicle"; the Centauro saves 5+ against a
    Milan and a 2 fails by 3.  Its Trained man saves on a 2; a natural 1 always kills."""
    rolled = rolls(irr.execute(f"fire imilan cent range=20 dice=6,2,{die}", role="irregulars"))
    assert rolled[1].outcome == "explodes"
    assert bool(out(irr, "crider")) is not alive


@pytest.mark.audits("VSAVE-1")
def test_a_knocked_out_puma_lets_its_man_out_next_turn(irr):
    """§9.2: failed by less than 3 the Puma is knocked out, not exploded: no save for the man
    inside (4+ against an RPG, a 2 fails by 2).  AMB-45: he gets out at his next
    activation."""
    rolled = rolls(irr.execute("fire irpg puma range=20 dice=6,2", role="irregulars"))
    assert [r.outcome for r in rolled] == ["1 hit", "knocked out"] and not out(irr, "prider")
    next_turn(irr, "regulars")
    irr.execute("disembark prider", role="regulars")
    assert "in-vehicle" not in status(irr, "prider")


@pytest.mark.audits("VSAVE-2", "T-14", "EXT-9")
def test_an_ied_does_not_touch_a_tank(g):
    """§9.2, T-14: a tank is immune to IEDs (no roll); a Puma saves 4+ against one: a 1 fails
    by 3 and it explodes."""
    assert not saves(g.execute("blast tank source=ied by=irregulars", role=REFEREE))
    assert not out(g, "tank")
    rolled = saves(g.execute("blast puma source=ied by=irregulars dice=1,3", role=REFEREE))
    assert rolled[0].outcome == "explodes"


@pytest.mark.audits("VSAVE-3", "T-14")
@pytest.mark.parametrize(("flank", "result"), [("", "saved"), ("flank", "knocked out")])
def test_a_tank_against_an_rpg_front_and_flank(irr, flank, result):
    """T-14: a tank saves 1+ against light AT from the front (a 1 passes: no natural-1 rule
    for vehicles), 2+ from the side (a 1 fails by 1: knocked out)."""
    rolled = rolls(irr.execute(f"fire irpg tank range=20 {flank} dice=6,1", role="irregulars"))
    assert rolled[1].outcome == result


# ------------------------------------------------------------------ §6.3: in and out


@pytest.mark.audits("MOV-5", "T-03")
def test_a_man_who_moved_cannot_then_get_in(g):
    """§6.3: getting in "requires a complete move": a man who has walked 5 cm has spent his
    action and does not get in as well."""
    g.execute("move m0 5", role="regulars")
    refused(g, "@regulars embark m0 hummer", rule="MOV-5")


@pytest.mark.audits("MOV-5", "T-03")
def test_a_man_who_got_in_does_not_fire_that_turn(g):
    """§6.3, T-03: the enter/exit action allows no fire."""
    g.execute("embark m0 hummer", role="regulars")
    refused(g, "@regulars fire m0 i0 range=20 aimed dice=6", rule="T-03")


@pytest.mark.audits("MOV-5", "OPP-2")
def test_the_man_getting_out_is_answered_by_opportunity(g):
    """§6.3, §8.2: a figure that gets out is placed beside the vehicle: he moved, and the
    Militiaman answers at 20 cm (3+; a 3 hits; the Trained man fails his 4+ on a 2)."""
    g.execute("disembark rider", role="regulars")
    shot, save = rolls(g.execute("react-fire i0 rider range=20 aimed dice=3,2", role="irregulars"))
    assert shot.target == 3 and out(g, "rider")


# ------------------------------------------------------------------ §8.4: the gunship


@pytest.mark.audits("ART-6")
def test_small_arms_hit_the_gunship_only_at_long_range(tmp_path, monkeypatch):
    """§8.4: a helicopter "can be hit by small arms and rockets as if it was armoured, always
    at long range": the Militiaman's AR at 20 cm needs its 150 cm figure, 6; a 5 misses."""
    units = POOL + unit("heli", "regulars", "light", "Air", kind="vehicle", weapons=("HMG",), roles=("helicopter",))
    g = new_game(tmp_path, monkeypatch, units, active="irregulars")
    (shot,) = rolls(g.execute("fire i0 heli range=20 aimed dice=5", role="irregulars"))
    assert shot.target == 6 and shot.outcome == "miss"


@pytest.mark.audits("ART-6")
def test_the_gunship_fires_once_a_turn_at_its_long_figure(tmp_path, monkeypatch):
    """§8.4: a helicopter "can fire only once per turn at maximum distance": its HMG at 20 cm
    rolls five dice needing 6; it does not fire again that turn."""
    units = POOL + unit("heli", "regulars", "light", "Air", kind="vehicle", weapons=("HMG",), roles=("helicopter",))
    g = new_game(tmp_path, monkeypatch, units)
    (shot,) = rolls(g.execute("fire heli i0 range=20 dice=5,5,5,5,5", role="regulars"))
    assert shot.target == 6 and len(shot.faces) == 5
    refused(g, "@regulars fire heli i3 range=20 dice=5,5,5,5,5", rule="T-03")


# ------------------------------------------------------------------ T-06: obstacles


@pytest.mark.audits("T-06", "MOV-4")
@pytest.mark.parametrize(
    ("command", "allowed"),
    [
        ("move m0 15 run obstacle=1", True),
        ("move m0 16 run obstacle=1", False),
        ("move m0 5 shoot obstacle=1", True),
        ("move m0 6 shoot obstacle=1", False),
        ("move m0 5 run obstacle=2", True),
        ("move m0 6 run obstacle=2", False),
        ("move m0 5 shoot obstacle=2", False),
        ("move m0 5 run obstacle=3", False),
        ("move m0 5 run obstacle=3 helped", True),
        ("move m0 6 run obstacle=3 helped", False),
    ],
)
def test_each_obstacle_costs_its_action(g, command, allowed):
    """§6.2: level 1: a Run action lets you move 15 cm, or Move and Shoot 5 cm; level 2: a
    Run action and 5 cm; level 3: not alone, but with a comrade's help as level 2."""
    if allowed:
        g.execute(command, role="regulars")
    else:
        with pytest.raises(Refused) as no:
            g.execute(command, role="regulars")
        names(no.value, "T-06")


@pytest.mark.audits("T-06", "T-09")
def test_the_level_one_obstacle_crossed_shooting_fires_at_plus_one(g):
    """§6.2: Move and Shoot over a level 1 obstacle: "move 5cm and fire with a penalty (+1)":
    the AR at 20 cm needs 4, and a 3 misses."""
    g.execute("move m0 5 shoot obstacle=1", role="regulars")
    (shot,) = rolls(g.execute("fire m0 i0 range=20 aimed dice=3", role="regulars"))
    assert shot.target == 4 and shot.outcome == "miss"


@pytest.mark.audits("T-06", "T-03")
@pytest.mark.parametrize("obstacle", ["obstacle=1", "obstacle=2", "obstacle=3 helped"])
def test_no_fire_after_an_obstacle_run(g, obstacle):
    """§6.2: crossing with a Run action is "without firing"."""
    g.execute(f"move m0 5 run {obstacle}", role="regulars")
    refused(g, "@regulars fire m0 i0 range=20 aimed dice=6", rule="MOV-3")


# ------------------------------------------------------------------ T-04: the other allowances


@pytest.mark.audits("T-04", "MOV-6")
@pytest.mark.parametrize(("cm", "allowed"), [(5, True), (6, False)])
def test_a_dodge_is_5_cm(g, cm, allowed):
    """§6.5: the fired-at figure "can move up to 5cm" to cover."""
    g.execute("fire m0 i0 range=20 aimed dice=1", role="regulars")
    if allowed:
        g.execute(f"react-dodge i0 {cm}", role="irregulars")
    else:
        refused(g, f"@irregulars react-dodge i0 {cm}", rule=TYPING)


@pytest.mark.audits("T-04", "SUP-4")
@pytest.mark.parametrize(("cm", "allowed"), [(10, True), (11, False)])
def test_a_man_in_panic_crawls_10_cm(g, cm, allowed):
    """§10.0: failing his test the suppressed man "can only move up to 10cm to reach cover":
    the Trained man (3) fails on a 4; the 10 cm crawl is his, not 11."""
    g.execute("mark m1 suppressed", role=REFEREE)
    (test,) = rolls(g.execute("rally m1 dice=4", role="regulars"))
    assert test.outcome.startswith("fails")
    if allowed:
        g.execute(f"move m1 {cm}", role="regulars")
        assert "suppressed" in status(g, "m1")
    else:
        refused(g, f"@regulars move m1 {cm}", rule="SUP-4")
