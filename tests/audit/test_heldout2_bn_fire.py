"""Second held-out audit of Breaking News §7–§8: sighting where three modifiers meet at a
band's edge, the fire modifiers two and three at once, a burst area and a firing line with
friends in them, opportunity and covering fire at their limits, speculative fire after a
move, the gunship, and the ammunition rule meeting group fire and a split burst.  Written
from the rulebook (1.5.1) and its digest alone, after the two earlier audits and apart from
them: given these faces, the book's outcome."""

from __future__ import annotations

import pytest
from audit_bn_early import MEN, is_out, new_game, play, refused, rolls, shot, status, table, to_hit

from core.log.views import REFEREE

MORE = (
    *MEN,
    ("r5snipe", "regulars", "Bravo", "R5", "SNIPER", "sniper", ""),
    ("sfsmg", "regulars", "Delta", "R1", "SMG", "", ""),
    ("i3pistol", "irregulars", "Cell", "Irr3", "PISTOL", "", ""),
    ("i3smg", "irregulars", "Cell", "Irr3", "SMG", "", ""),
)


g = table(men=MORE)
#: The Irregulars active.
irr = table("irr", active="irregulars", men=MORE)


def sighting(g, command: str):
    (r,) = [x for x in rolls(g.execute(command, role=REFEREE)) if "sighting" in x.purpose]
    return r


# ------------------------------------------------------------------ §7.0: three modifiers at an edge


@pytest.mark.audits("T-07", "SPOT-3", "T-01")
@pytest.mark.parametrize(("cm", "need"), [("20", 5), ("20.5", None)])
def test_a_recruit_sighting_special_forces_in_the_open(g, cm, need):
    """§7.0: up to 20 cm a sighting needs 3, up to 50 cm 5; +2 the target is Special Forces,
    −1 the target is in the open, +1 the Green Recruit's spotting.  At 20 cm: 5.  At 20.5
    cm: 7, which no die shows, so nothing is tried."""
    if need:
        r = sighting(g, f"react-spot recruit hsf range={cm} open dice=5")
        assert (r.need, r.outcome) == (need, "sighted")
    else:
        refused(g, f"react-spot recruit hsf range={cm} open dice=6", rule="SPOT-4")


@pytest.mark.audits("T-07", "SPOT-3")
@pytest.mark.parametrize(("cm", "need"), [("20", 5), ("20.5", None)])
def test_a_sniper_sighting_a_sniper_in_the_jungle(g, cm, need):
    """§7.0: +2 the target in jungle, +1 the target is a sniper, −1 the spotter is a sniper.
    At 20 cm: 3 + 2 = 5; past 20 cm: 5 + 2 = 7, out of reach."""
    if need:
        r = sighting(g, f"react-spot snipe hsnipe range={cm} night dice=4")
        assert (r.need, r.outcome) == (need, "not sighted")
    else:
        refused(g, f"react-spot snipe hsnipe range={cm} night dice=6", rule="SPOT-4")


@pytest.mark.audits("T-07", "SPOT-3", "T-01")
@pytest.mark.parametrize(("cm", "need"), [("5", 5), ("5.5", None)])
def test_within_5_cm_the_zero_still_takes_its_modifiers(g, cm, need):
    """§7.0: within 5 cm the table reads 0; a Special Forces target (+2) in jungle (+2)
    sighted by a Green Recruit (+1): 5.  Just past 5 cm the 20 cm column's 3 makes it 8."""
    if need:
        assert sighting(g, f"react-spot recruit hsf range={cm} night dice=5").need == need
    else:
        refused(g, f"react-spot recruit hsf range={cm} night dice=6", rule="SPOT-4")


# ------------------------------------------------------------------ §8.0: modifiers together


@pytest.mark.audits("T-09", "T-01", "FIRE-4")
def test_a_recruit_sniper_pays_his_class_but_not_the_cover(g):
    """§8.0: a precision rifle at 60 cm needs 4; cover is "not applicable to snipers", the
    recruit's +1 is for "small arms", which a rifle is: 5."""
    assert shot(g, "fire r5snipe irr1 range=60 cover dice=1").need == 5


@pytest.mark.audits("T-09", "T-08", "FIRE-2")
@pytest.mark.parametrize(("cm", "need"), [("10", 5), ("10.5", None)])
def test_a_militiamans_pistol_into_cover_at_its_reach(irr, cm, need):
    """§8.0: a pistol needs 3 "(max 10cm)"; a Militiaman (Irr3) +1, the target behind cover
    +1: 5 at 10 cm, and no shot at 10.5 cm."""
    if need:
        assert shot(irr, f"fire i3pistol trained range={cm} cover dice=1").need == need
    else:
        refused(irr, f"fire i3pistol trained range={cm} cover dice=1", rule="T-08")


@pytest.mark.audits("T-09", "FIRE-5")
def test_an_smg_burst_at_a_sniper_at_50_cm_loses_a_die(g):
    """§8.0: an SMG at 50 cm needs 6 with 3 dice; the target is a sniper, +1: 7, so one die
    is lost and 2 dice need 6."""
    (r,) = to_hit(g.execute("fire smg isnipe range=50 dice=1,1", role=REFEREE))
    assert (len(r.faces), r.need) == (2, 6)


@pytest.mark.audits("T-09", "FIRE-5", "T-01")
def test_a_militiamans_smg_at_a_sniper_at_50_cm_keeps_one_die(irr):
    """§8.0: the same burst by a Militiaman (+1 on small arms): 8, two dice lost, one left
    needing 6."""
    (r,) = to_hit(irr.execute("fire i3smg snipe range=50 dice=1", role=REFEREE))
    assert (len(r.faces), r.need) == (1, 6)


@pytest.mark.audits("T-09", "FIRE-4")
def test_special_forces_aimed_at_a_sniper_behind_cover(g):
    """§8.0: an AR aimed at 40 cm needs 4; cover +1, target a sniper +1, Special Forces −1
    (not a burst): 5."""
    assert shot(g, "fire sf isnipe range=40 aimed cover dice=1").need == 5


@pytest.mark.audits("T-09", "FIRE-3")
def test_special_forces_get_no_minus_one_with_an_smg(g):
    """§8.0, digest FIRE-3: the SMG fires bursts only, and the Special Forces' −1 is "not
    burst fire": at 20 cm it needs the table's 4."""
    assert shot(g, "fire sfsmg irr1 range=20 dice=1,1,1").need == 4


# ------------------------------------------------------------------ §8.0.1, §8.7: friends at risk


@pytest.mark.audits("FIRE-10", "T-10")
def test_a_grenade_that_hits_hits_a_friend_in_its_area_too(g):
    """§8.0.1: grenades have a 5 cm burst area; "If a target is hit then all models within
    this range are also hit and must make a saving throw", friend or foe.  Both save (6s)
    and are suppressed."""
    out = g.execute("fire bomber irr1 range=8 also=elite dice=4,6,6", role=REFEREE)
    saves = [r for r in rolls(out) if "save" in r.purpose]
    assert {r.unit for r in saves} == {"irr1", "elite"}
    assert "suppressed" in status(g, "elite") and "suppressed" in status(g, "irr1")


@pytest.mark.audits("FF-1", "OPP-2", "FIRE-14")
@pytest.mark.parametrize(("face", "killed"), [(4, False), (3, True)])
def test_an_opportunity_shot_that_misses_puts_the_firers_friends_at_risk(g, face, killed):
    """§8.7: "For every missed shot you must perform a Saving Throw for friendly models who
    are in the firing line", with +1; opportunity fire is fire.  A Fanatic (5+) in the line
    of a Militiaman's missed shot: a 4 saves (5), a 3 does not."""
    play(g, "move elite 3", f"@irregulars react-fire irr1 elite range=20 line=irr2 dice=1,{face}")
    assert is_out(g, "irr2") is killed


# ------------------------------------------------------------------ §8.2, §8.3: limits


@pytest.mark.audits("OPP-3", "ART-6")
def test_the_gunships_opportunity_fire_at_men_is_held_to_50_cm(irr):
    """§8.2: "Opportunity fire against men is allowed only within 50cm"; no limit "when
    firing at vehicles or if the shooter is a sniper".  The gunship is neither a sniper nor
    firing at a vehicle: at 60 cm from the man who moved it may not answer."""
    irr.execute("move irr1 3", role=REFEREE)
    refused(irr, "@regulars react-fire heli irr1 range=60 dice=1,1,1,1,1", rule="OPP-3")


@pytest.mark.audits("COV-1", "T-03")
def test_no_covering_fire_after_more_than_5_cm(g):
    """§5.0 d): "Perform covering fire (you can also move up to 5cm)": after 5.5 cm the man
    may no longer give covering fire."""
    g.execute("move elite 5.5", role=REFEREE)
    refused(g, "covering elite area=door range=20", rule="COV-1")


@pytest.mark.audits("COV-3", "T-12")
def test_an_rpg_has_no_covering_value(g):
    """§8.3: covering fire is the values of the table (pistol, rifle, AR, SMG, LMG, MMG,
    HMG); an RPG has no line there, so a man with only an RPG gives no covering fire."""
    refused(g, "covering rpg area=door range=20", rule="T-12")


@pytest.mark.audits("OPP-7", "COV-5")
def test_covering_fire_ends_with_the_turn(tmp_path):
    """§8.3, digest COV-7: covering fire lasts its turn.  The next turn there is no covering
    fire on that area to name, and the Militiaman there who fires by opportunity takes no
    test: his only roll is his shot."""
    g = new_game(tmp_path, men=MORE)
    play(g, "covering elite elite2 area=door range=20", "next", "next", "next dice=6,6,1,1")
    assert g.state.turn == 2 and g.state.active_side == "regulars"
    g.execute("move vet 3", role=REFEREE)
    assert "no covering fire on 'door'" in refused(
        g, "@irregulars react-fire irr1 vet range=20 area=door dice=1", rule="OPP-7"
    )
    out = g.execute("react-fire irr1 vet range=20 dice=1", role="irregulars")
    assert [r.purpose for r in rolls(out)] == [to_hit(out)[0].purpose]


# ------------------------------------------------------------------ §8.4: the gunship into cover


@pytest.mark.audits("ART-6", "FIRE-5", "T-09")
@pytest.mark.parametrize(("target", "dice"), [("irr1", 4), ("isnipe", 3)])
def test_the_gunships_last_column_into_cover(g, target, dice):
    """§8.4: the gunship fires its HMG at maximum distance, 6; behind cover +1: 7, one of
    five dice lost; a sniper behind cover, 8, two lost."""
    (r,) = to_hit(g.execute(f"fire heli {target} range=30 cover dice={','.join(['1'] * dice)}", role=REFEREE))
    assert (len(r.faces), r.need) == (dice, 6)


# ------------------------------------------------------------------ §8.6: one action


@pytest.mark.audits("SPEC-1", "T-03", "T-05")
@pytest.mark.parametrize("move", ["move vet 20 run", "move mmg 2"])
def test_no_speculative_fire_after_a_move_that_allows_no_fire(g, move):
    """§8.6: speculative fire "is performed like normal fire", so it follows §6.1: nothing
    fires after a run, and an MMG fires only if it did not move."""
    g.execute(move, role=REFEREE)
    unit = move.split()[1]
    refused(g, f"speculative {unit} range=30 dice=1", rule="SPEC-1")


@pytest.mark.audits("SPEC-1", "FIRE-15", "T-16")
def test_speculative_fire_at_an_empty_position_is_the_first_fire(g):
    """§14.0: 5 points "for whoever fires first"; a speculative shot at a suspect position
    is fire even where nobody was: the Regulars fire first."""
    play(g, "speculative vet range=30 dice=1", "next")
    assert g.state.sides["regulars"].dp_by_category.get("first-fire") == 5
    assert not g.state.sides["irregulars"].dp_by_category.get("first-fire")


# ------------------------------------------------------------------ §8.0.3 with §8.0 and §8.1


@pytest.mark.audits("FIRE-12", "FIRE-8")
def test_a_double_across_a_split_burst_empties_the_magazine(tmp_path):
    """§8.0.3 (optional): "everytime an Assault Rifle ... rolls a double the magazine is
    emptied".  A burst split 2 and 1 is one roll of three dice: a 3 on each share is a
    double."""
    g = new_game(tmp_path, men=MORE, options=("ammo",))
    g.execute("fire elite irr1 irr2 range=20 burst split=2,1 dice=3,1,3", role=REFEREE)
    assert "empty-mag" in status(g, "elite")


@pytest.mark.audits("FIRE-12", "FIRE-13")
@pytest.mark.parametrize(
    ("dice", "empty"),
    [("3,3,1,1,2,4", {"elite"}), ("3,1,2,3,4,5", set())],
)
def test_in_group_fire_each_rifle_reads_its_own_dice_for_a_double(tmp_path, dice, empty):
    """§8.0.3, §8.1: two Elite ARs of one fire team fire a burst together; each man's
    weapon rolls its own three dice.  A double among one man's dice empties his magazine
    only; a 3 in each man's dice is no double of either rifle."""
    g = new_game(tmp_path, men=MORE, options=("ammo",))
    g.execute(f"fire elite irr1 range=40 burst with=elite2 dice={dice}", role=REFEREE)
    assert {u for u in ("elite", "elite2") if "empty-mag" in status(g, u)} == empty
