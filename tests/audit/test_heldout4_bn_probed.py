"""Fourth held-out audit of Breaking News: the cases aimed after trying the engine by hand
(suppression met with each action and with cover, the retreat of a shaken team, covering
fire and its turn, the wounded over several turns, civilians and their control roll).  Each
outcome is the book's (1.5.1, and the digest), not the engine's: given these faces, the
book's outcome."""

from __future__ import annotations

import pytest
from audit_bn_late import dp, new_game, next_turn, out, play, refused, rolls, status, table, unit
from playing import names

from core.log import events as ev
from core.log.views import REFEREE
from core.ruleset import Refused

SQUADS = (
    unit("sgt", "regulars", "R4", "Alpha", lead=2, roles=("commander", "leader"))
    + "".join(unit(f"m{i}", "regulars", "R4", "Alpha") for i in range(4))
    + unit("doc", "regulars", "R4", "Alpha", roles=("medic",))
    + unit("boss", "irregulars", "Irr1", "Cell", lead=1, roles=("commander", "leader"))
    + "".join(unit(f"i{i}", "irregulars", "Irr1", "Cell") for i in range(4))
    + unit("civ", "irregulars", "", "Civilians", kind="civilian")
)


def game(tmp_path, monkeypatch, active="regulars", **kw):
    return new_game(tmp_path, monkeypatch, SQUADS, active=active, **kw)


g = table(SQUADS)


def moved(outcome) -> list[int]:
    return [e.cm for e in outcome.events if isinstance(e, ev.Moved)]


# ------------------------------------------------------------------ §10.0: in panic, in cover


@pytest.mark.audits("SUP-4", "SUP-2", "T-04")
def test_a_man_in_panic_already_in_cover_does_not_crawl(g):
    """§10.0: hit in cover and saved, the Militiaman "was already in cover" and "becomes
    Hidden"; next turn he fails his test (a 6) and "cannot perform any actions apart from
    moving up to 10cm to take cover if not yet in cover": he is in cover, so he does not
    move at all."""
    g.execute("fire m0 i0 range=20 cover aimed dice=6,6", role="regulars")
    assert {"hidden", "suppressed"} <= set(status(g, "i0"))
    next_turn(g, "irregulars")
    try:
        done = g.execute("move i0 5 dice=6", role="irregulars")
    except Refused:
        return
    (test,) = rolls(done)
    assert test.outcome.startswith("fails") and not moved(done)


@pytest.mark.audits("SUP-4", "T-04", "SUP-1")
def test_a_man_in_panic_in_the_open_crawls_to_cover(g):
    """§10.0: hit in the open and saved, the Militiaman is suppressed where he stands; failing
    his test next turn (a 6) he may crawl up to 10 cm to cover, and he stays suppressed."""
    g.execute("fire m0 i0 range=20 aimed dice=6,6", role="regulars")
    assert "hidden" not in status(g, "i0")
    next_turn(g, "irregulars")
    done = g.execute("move i0 10 dice=6", role="irregulars")
    assert moved(done) == [10] and "suppressed" in status(g, "i0")


@pytest.mark.audits("SUP-3", "T-02")
@pytest.mark.parametrize(("die", "passes"), [(5, True), (6, False)])
def test_the_sergeants_leadership_two_helps_a_man_within_5_cm(g, die, passes):
    """§10.0: "Add the leadership of an Officer or NCO within 5cm": a Trained man (3) beside
    his Leadership 2 sergeant passes on 5 or less; a 6 always fails."""
    g.execute("mark m1 suppressed", role=REFEREE)
    (test,) = rolls(g.execute(f"move m1 5 leader=sgt dice={die}", role="regulars"))
    assert test.outcome.startswith("passes") is passes


@pytest.mark.audits("SUP-3", "SUP-4", "T-03")
@pytest.mark.parametrize(
    "command",
    ["fire m1 i0 range=20 aimed dice=1", "covering m1 area=road range=20", "move m1 15 run", "embark m1 hummer"],
)
def test_in_panic_no_action_but_the_crawl(tmp_path, monkeypatch, command):
    """§10.0: a man who failed his test "cannot perform any actions apart from moving up to
    10cm": after his failed test (a 4 for a Trained man, 3) he neither fires, covers,
    runs 15 cm, nor gets into a vehicle this turn."""
    units = SQUADS + unit("hummer", "regulars", "protected", "Motor", kind="vehicle", weapons=("HMG",))
    g = new_game(tmp_path, monkeypatch, units)
    g.execute("mark m1 suppressed", role=REFEREE)
    (test,) = rolls(g.execute("rally m1 dice=4", role="regulars"))
    assert test.outcome.startswith("fails")
    with pytest.raises(Refused) as no:
        g.execute(command, role="regulars")
    names(no.value, "SUP-4")


# ------------------------------------------------------------------ §12.0: the shaken team


def _shaken(tmp_path, monkeypatch):
    """The Militia lose two men and fail morale (1,1,1,1 against 2) while the Regulars hold
    more Defeat Points: the team starts turn 2 suppressed and retreating."""
    g = game(tmp_path, monkeypatch)
    play(
        g,
        "dp regulars 50 other",
        "@regulars fire m0 i0 range=20 aimed dice=6,1",
        "@regulars fire m1 i1 range=20 aimed dice=6,1",
        "next",
    )
    (test,) = rolls(g.execute("next dice=1,1,1,1", role=REFEREE))
    assert test.outcome == "failed" and not g.state.vars.get("game_over")
    g.execute("next dice=1,1,6,6", role=REFEREE)
    assert g.state.active_side == "irregulars"
    return g


@pytest.mark.audits("MOR-6", "SUP-4")
def test_a_shaken_man_who_passes_acts_normally(tmp_path, monkeypatch):
    """§12.0: the failing team "will start the next turn suppressed"; a figure that passes its
    test acts normally: the Militiaman (4) rolls a 1 and walks 10 cm."""
    g = _shaken(tmp_path, monkeypatch)
    assert moved(g.execute("move i2 10 dice=1", role="irregulars")) == [10]


@pytest.mark.audits("MOR-6", "T-04")
def test_a_shaken_man_who_fails_falls_back_15_and_may_fire(tmp_path, monkeypatch):
    """§12.0: failing (a 6) "each figure, once activated, must move back at least 15cm";
    "whilst retreating they may fire": his AR at 20 cm after a move over 5 cm needs 4."""
    g = _shaken(tmp_path, monkeypatch)
    refused(g, "@irregulars move i2 10 dice=6", rule="MOR-6")
    assert moved(g.execute("move i2 15 dice=6", role="irregulars")) == [15]
    (shot,) = rolls(g.execute("fire i2 m0 range=20 aimed dice=1", role="irregulars"))
    assert shot.target == 4


# ------------------------------------------------------------------ §8.3: the area's turn


@pytest.mark.audits("COV-5", "COV-6", "MOV-6")
def test_a_dodge_in_the_covered_area_tests_first_and_is_lost(g):
    """§6.5: in a covered area "the test must be taken before moving"; two ARs at 20 cm (3
    each) and the Trained group's 1: 7.  The dodging Militiaman rolls 3,3 = 6: one hit; he
    saves (6) and is suppressed: his dodge is lost."""
    play(g, "@regulars covering m0 m1 area=road range=20", "@regulars move m2 10 run")
    test, save = rolls(g.execute("react-dodge i0 3 area=road dice=3,3,6", role="irregulars"))
    assert test.target == 7 and save.outcome.startswith("saved")
    assert "suppressed" in status(g, "i0")
    refused(g, "@irregulars react-fire i0 m2 range=20 aimed dice=6", rule="SUP-2")


@pytest.mark.audits("COV-5")
def test_the_covered_area_ends_with_the_turn(g):
    """AMB-33d: covering fire lasts until the end of the turn: in turn 2 a Militiaman in the
    road fires at a moving Ranger without a covering-fire test."""
    g.execute("covering m0 m1 area=road range=20", role="regulars")
    next_turn(g, "regulars")
    g.execute("move m2 10", role="regulars")
    (shot,) = rolls(g.execute("react-fire i0 m2 range=20 aimed dice=1", role="irregulars"))
    assert "covering" not in str(shot.purpose)


# ------------------------------------------------------------------ §9.3: the wounded over turns


@pytest.mark.audits("WND-1", "T-15")
def test_a_man_with_three_turns_dies_at_the_end_of_turn_four(tmp_path, monkeypatch):
    """§9.3 (AMB-47): wounded in turn 1 with a 3, he dies at the end of turn 1 + 3 = 4: still
    wounded at the start of turn 4, dead of his wounds in turn 5."""
    g = game(tmp_path, monkeypatch, options=("wounded",))
    g.execute("blast m1 source=grenade by=irregulars dice=1,3", role=REFEREE)
    next_turn(g, "regulars", "6,6,6")
    next_turn(g, "regulars")
    next_turn(g, "regulars")
    assert g.state.turn == 4 and out(g, "m1").startswith("wounded")
    next_turn(g, "regulars")
    assert "died" in out(g, "m1")


@pytest.mark.audits("WND-2", "DP-5", "WND-3")
def test_the_medic_and_the_comrade_save_the_regulars_their_points(tmp_path, monkeypatch):
    """§9.3: the medic reaches one wounded man (stabilised); a comrade carries the other (10 −
    a 4 = 6 cm) and he is evacuated: "a stabilised soldier ... doesn't count as Defeat
    Points".  At the end of turn 2 the Regulars hold no points for either."""
    g = game(tmp_path, monkeypatch, options=("wounded",))
    play(g, "blast m1 source=grenade by=irregulars dice=1,3", "blast m2 source=grenade by=irregulars dice=1,5")
    next_turn(g, "regulars", "6,6,6")
    g.execute("medic doc m1", role="regulars")
    (carry,) = rolls(g.execute("carry m0 m2 dice=4", role="regulars"))
    assert carry.outcome == "6 cm"
    play(g, "@regulars evacuate m2", "next", "next")
    assert dp(g, "regulars") == 0


# ------------------------------------------------------------------ Extras: Civilians


@pytest.mark.audits("EXT-11", "T-04")
@pytest.mark.parametrize(("die", "mover"), [(1, "regulars"), (2, "irregulars")])
def test_the_civilians_roll_beats_negotiation_one(g, die, mover):
    """Extras, Civilians: the Irregular player "must roll higher than the opponent's
    Negotiation value" (at least 1): a 1 gives them to the Regulars, a 2 keeps them; they
    move up to 15 cm, not 16."""
    (roll,) = rolls(g.execute(f"civilians dice={die}", role=REFEREE))
    assert mover in str(roll.outcome)
    with pytest.raises(Refused) as no:
        g.execute("move civ 16", role=mover)
    names(no.value, "EXT-11")
    g.execute("move civ 15", role=mover)


@pytest.mark.audits("EXT-11", "T-16", "DP-1")
def test_a_civilian_killed_by_the_regulars_costs_them_5(g):
    """§14.0: "each civilian killed" 5 DP to the Regulars (Regulars against Irregulars); the
    shot is also the first fire, 5 more: 10."""
    play(g, "@regulars fire m0 civ range=20 aimed dice=6,1", "next")
    assert dp(g, "regulars") == 10


# ------------------------------------------------------------------ §8.8: the driver


@pytest.mark.audits("VF-2")
def test_a_vehicle_that_lost_its_driver_is_not_driven_at_will(tmp_path, monkeypatch):
    """§8.8 (VF-2): "If the driver is hit and fails his save, the vehicle continues for a whole move
    and then stops": the Hummer's driver is killed (a 6 hits him in the Hummer, 4+ with
    cover; his 1 fails).  Next turn the Regulars cannot drive it 20 cm where they like:
    nobody is at the wheel."""
    units = (
        unit("hummer", "regulars", "protected", "Motor", kind="vehicle", weapons=("HMG",))
        + unit("driver", "regulars", "R4", "Motor", roles=("driver",))
        + 'aboard = "hummer"\n'
        + SQUADS
    )
    g = new_game(tmp_path, monkeypatch, units, active="irregulars")
    g.execute("fire i0 driver range=20 aimed dice=6,1", role="irregulars")
    assert out(g, "driver")
    next_turn(g, "regulars", "6,6,6")
    refused(g, "@regulars move hummer 20 dice=3,3", rule="VF-2")


# ------------------------------------------------------------------ §8.3 with §9.2: a vehicle in the area

ARMOUR = (
    unit("tank", "regulars", "tank", "Armour", kind="vehicle", weapons=("TANKGUN", "HMG"), roles=("tracked",))
    + unit("puma", "regulars", "light", "Motor", kind="vehicle", weapons=("HMG",))
    + SQUADS
)
irr = table(ARMOUR, "irr", active="irregulars")


@pytest.mark.audits("COV-6", "VSAVE-2", "OPP-1")
def test_a_tank_in_the_covered_area_still_fires(irr):
    """§8.3: the reacting model that fails the test "receives a hit before firing"; §9.2:
    "Tanks are immune to light weapons": the Militiaman's AR covering the road (3 at 20 cm,
    and the Hardened Militia's 1: 4) puts a hit on the tank (1,1), which does nothing to it.
    Nothing suppresses it (§10.0 is a soldier's): its HMG answers the move at 30 cm (5+)."""
    play(irr, "@irregulars covering i0 area=road range=20", "@irregulars move i3 10")
    rolled = rolls(irr.execute("react-fire tank i3 range=30 weapon=HMG area=road dice=1,1,1,1,1,1,1", role="regulars"))
    assert [str(r.purpose).split(" ")[0] for r in rolled][:2] == ["covering-fire", "fire"]


@pytest.mark.audits("COV-6", "VSAVE-1", "OPP-1")
def test_a_puma_that_saves_the_covering_hit_still_fires(irr):
    """§8.3, §9.2: the Puma in the covered road takes the hit (1,1 under 4) and saves it, 3+
    against light weapons (a 5): "Pass: no effect".  It answers the move with its HMG."""
    play(irr, "@irregulars covering i0 area=road range=20", "@irregulars move i3 10")
    rolled = rolls(irr.execute("react-fire puma i3 range=30 area=road dice=1,1,5,1,1,1,1,1", role="regulars"))
    assert rolled[1].outcome == "saved" and str(rolled[2].purpose).startswith("fire")
    assert not irr.state.units["puma"].out


# ------------------------------------------------------------------ §8.2 with §8.8: riding a moving Hummer


@pytest.mark.audits("OPP-2", "VF-1")
def test_the_man_riding_a_moving_hummer_is_answered(tmp_path, monkeypatch):
    """§8.2: opportunity fire answers "any enemy model or unit that moves"; §8.8: the men of a
    protected vehicle are "subject to small arms fire", behind cover.  The Hummer drives 30
    cm with a Trained man aboard: the Militiaman answers at the man, 30 cm, 4 + 1 = 5 (a 5
    hits); his 4+ save with +1 for cover passes on a 3: suppressed, still aboard."""
    units = (
        unit("hummer", "regulars", "protected", "Motor", kind="vehicle", weapons=("HMG",))
        + unit("rider", "regulars", "R4", "Motor")
        + 'aboard = "hummer"\n'
        + SQUADS
    )
    g = new_game(tmp_path, monkeypatch, units)
    g.execute("move hummer 30 dice=3,3", role="regulars")
    shot, save = rolls(g.execute("react-fire i0 rider range=30 aimed dice=5,3", role="irregulars"))
    assert shot.target == 5 and shot.outcome == "1 hit" and save.outcome.startswith("saved")
    assert {"suppressed", "in-vehicle"} <= set(status(g, "rider"))


# ------------------------------------------------------------------ §9.3 with §10.0: a suppressed medic


@pytest.mark.audits("WND-2", "SUP-3")
def test_a_suppressed_medic_tests_before_he_reaches_the_wounded(tmp_path, monkeypatch):
    """§10.0: a suppressed man, "before making any action he must pass a test"; §9.3: the
    medic must reach the wounded man.  The suppressed Trained medic (3) rolls a 6: he fails
    and the wounded man is not stabilised."""
    g = game(tmp_path, monkeypatch, options=("wounded",))
    play(g, "blast m1 source=grenade by=irregulars dice=1,4", "mark doc suppressed")
    (test,) = rolls(g.execute("medic doc m1 dice=6", role="regulars"))
    assert test.outcome.startswith("fails")
    assert "stabilised" not in out(g, "m1")


# ------------------------------------------------------------------ §6.1: the Centauro is an armoured car


@pytest.mark.audits("T-05", "MOV-3")
def test_the_centauro_fires_its_gun_on_the_move(tmp_path, monkeypatch):
    """§6.1: "All tanks can either fire their main gun or move. Armoured cars can fire whilst
    moving with a penalty"; §9.2 lists the Centauro among "Heavily armoured vehicles", not
    tanks.  It drives 20 cm and fires its gun at 30 cm: 4 + 1 = 5, a 4 misses."""
    units = unit("cent", "regulars", "heavy", "Motor", kind="vehicle", weapons=("TANKGUN", "HMG")) + SQUADS
    g = new_game(tmp_path, monkeypatch, units)
    g.execute("move cent 20 dice=3,3", role="regulars")
    (shot,) = rolls(g.execute("fire cent i0 range=30 weapon=TANKGUN dice=4", role="regulars"))
    assert shot.target == 5 and shot.outcome == "miss"
