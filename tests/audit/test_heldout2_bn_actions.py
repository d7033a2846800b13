"""Second held-out audit of Breaking News: what one action is (§5.0, §6.0–§6.5), crossed with
what came before it in the activation and with the figure's status (suppressed, in panic,
hidden, aboard), and a dodge meeting each weapon's own notes.  Written from the rulebook
(1.5.1) and its digest alone, after the two earlier audits and apart from them: given these
faces, the book's outcome."""

from __future__ import annotations

import pytest
from audit_bn_early import MEN, allowed, is_out, refused, rolls, shot, status, table, to_hit
from audit_common import cases

from core.log.views import REFEREE

#: The range's figures, and a suppressed Veteran of Bravo, a suppressed Elite of the Alpha
#: fire team, and a suppressed Hardened Militiaman in the open.
MORE = (
    *MEN,
    ("supp", "regulars", "Bravo", "R3", "AR", "", "suppressed"),
    ("asupp", "regulars", "Alpha", "R2", "AR", "", "suppressed"),
    ("isupp", "irregulars", "Cell", "Irr1", "AR", "", "suppressed"),
)


g = table(men=MORE)
#: The Irregulars active.
irr = table("irr", active="irregulars", men=MORE)


def suppression_tests(out, unit: str) -> list:
    return [r for r in rolls(out) if r.unit == unit and "suppression" in r.purpose]


# ------------------------------------------------------------------ §10.0 before every action


@pytest.mark.audits("SUP-3", "SUP-4", "MOV-5", "COV-1", "SMK-1", "SPEC-1")
@pytest.mark.parametrize(
    ("command", "done"),
    [
        ("embark supp hummer", "in-vehicle"),
        ("covering supp area=door range=20", "covering"),
        ("smoke supp range=8", "fired"),
        ("speculative supp range=30", "fired"),
    ],
)
def test_a_suppressed_man_tests_before_every_kind_of_action(g, command, done):
    """§10.0: a suppressed soldier, "before making any action he must pass a test"; a 6
    always fails, and then "he cannot perform any actions apart from moving up to 10cm to
    take cover".  Getting into a vehicle (§6.3, "a complete move"), covering fire (§5.0 d),
    a smoke grenade (§8.9) and speculative fire (§8.6) are actions: each is tested, and on
    a 6 none is carried out (no other die is rolled) and he stays suppressed."""
    out = g.execute(f"{command} dice=6", role=REFEREE)
    assert [(r.unit, r.faces) for r in rolls(out)] == [("supp", (6,))]
    assert suppression_tests(out, "supp")
    assert "suppressed" in status(g, "supp") and done not in status(g, "supp")


@pytest.mark.audits("SUP-4", "T-04")
@pytest.mark.parametrize(("cm", "ok"), [("10", True), ("10.5", False)])
def test_a_man_in_panic_may_still_crawl_up_to_10_cm_to_cover(g, cm, ok):
    """§10.0: having failed his test (a 6) on an order to fire, the soldier "remains
    suppressed (in panic) ... and he cannot perform any actions apart from moving up to
    10cm to take cover": 10 cm is allowed, 10.5 is not."""
    g.execute("fire supp irr1 range=20 dice=6", role=REFEREE)
    assert not is_out(g, "irr1") and "suppressed" not in status(g, "irr1")
    allowed(g, f"move supp {cm}", ok, rule="SUP-4")
    if ok:
        assert "suppressed" in status(g, "supp")


@pytest.mark.audits("ACT-3", "SUP-3")
def test_a_suppressed_man_in_a_group_move_tests_and_stays_if_he_fails(g):
    """§6.4, §10.0: the Alpha fire team moves 5 cm as a group; its suppressed member must
    pass his test before the action like any suppressed man; on a 6 he stays put,
    suppressed."""
    out = g.execute("move elite 5 elite2 asupp dice=6", role=REFEREE)
    (test,) = suppression_tests(out, "asupp")
    assert test.faces == (6,)
    assert "suppressed" in status(g, "asupp")
    assert not {"crept", "moved", "ran"} & set(status(g, "asupp"))


# ------------------------------------------------------------------ §6.1: the edges of a move


@pytest.mark.audits("MOV-3", "T-05")
@pytest.mark.parametrize(("cm", "need"), [("5", 3), ("5.5", None)])
def test_a_sniper_fires_after_5_cm_but_not_after_more(g, cm, need):
    """§6.1: snipers "can fire only if they move 5cm or less", and 5 cm is a cautious move
    with no penalty: the precision rifle at 30 cm needs 3.  After 5.5 cm he may not fire."""
    g.execute(f"move snipe {cm}", role=REFEREE)
    if need:
        assert shot(g, "fire snipe irr1 range=30 dice=1").need == need
    else:
        refused(g, "fire snipe irr1 range=30 dice=1", rule="MOV-3")


@pytest.mark.audits("MOV-1", "T-03", "T-09")
@pytest.mark.parametrize(("cm", "need"), [("15", 5), ("15.5", None)])
def test_a_rifleman_fires_after_15_cm_with_the_penalty_but_not_after_a_run(g, cm, need):
    """§6.0, §5.0 b): "Move 15cm maximum, shoot with penalty": after 15 cm the AR at 30 cm
    needs 4 + 1 = 5; 15.5 cm is more than a move and shoot allows, a run, and a run
    does not fire."""
    g.execute(f"move elite {cm}", role=REFEREE)
    if need:
        assert shot(g, "fire elite irr1 range=30 dice=1").need == need
    else:
        refused(g, "fire elite irr1 range=30 dice=1", rule="MOV-3")


# ------------------------------------------------------------------ §6.3: getting in and out


@pytest.mark.audits("MOV-5", "T-03")
@pytest.mark.parametrize(
    "before",
    ["fire trained irr1 range=20 dice=1", "covering trained area=door range=20", "embark trained hummer"],
)
def test_getting_in_needs_the_whole_move_so_not_after_another_action(g, before):
    """§6.3: entering or leaving a vehicle "requires a complete move", the figure's whole
    action of the turn (§5.0: one action each).  A man who has fired, given covering fire,
    or already got in this turn cannot then get in (or out)."""
    g.execute(before, role=REFEREE)
    after = "disembark trained" if before.startswith("embark") else "embark trained hummer"
    refused(g, after, rule="MOV-5")


@pytest.mark.audits("MOV-5", "VF-1", "OPP-2")
def test_a_man_who_got_into_an_armoured_car_cannot_be_answered_by_rifle_fire(g):
    """§6.3, §8.8: only the occupants of a vehicle "protected but not armoured" are subject
    to small arms fire.  A man who got into the Puma (light armoured) is out of the
    enemy's rifles' reach: opportunity fire at him is refused."""
    g.execute("embark trained puma", role=REFEREE)
    refused(g, "react-fire irr1 trained range=20 dice=1", rule="VF-1")


# ------------------------------------------------------------------ §7.0: a hidden man's fire


@pytest.mark.audits("SPOT-7", "COV-1")
def test_a_hidden_man_giving_covering_fire_is_sighted(irr):
    """§7.0: hidden troops who want to stay hidden "do not fire, otherwise they are
    automatically sighted"; covering fire is fire (§8.3: "those performing covering
    fire")."""
    irr.execute("covering ghost area=road range=20", role=REFEREE)
    assert "hidden" not in status(irr, "ghost")


# ------------------------------------------------------------------ §5.0: only the active side acts


@pytest.mark.audits("ACT-1", "ACT-2")
@pytest.mark.parametrize(
    "command",
    [
        "embark irr1 techie",
        "covering irr1 area=road range=20",
        "smoke irr1 range=8",
        "speculative irr1 range=30",
        "hide irr1",
    ],
)
def test_the_reacting_side_takes_no_action_of_the_four(g, command):
    """§5.0: the Active Player's figures perform the actions; "Each miniature that belongs
    to the reacting side can react using opportunity" (§6.5 dodge, §7.0 sighting, §8.2
    fire) and nothing more: in the Regulars' activation the Militia cannot get into a
    vehicle, give covering fire, throw smoke, fire speculatively or declare a man hidden."""
    refused(g, f"@irregulars {command}", rule="ACT-2")


# ------------------------------------------------------------------ §6.5: a dodge against each weapon


@pytest.mark.audits("MOV-6", "T-09", "MORT-1")
@pytest.mark.parametrize(
    ("line", "need"),
    cases(
        {
            # §8.0: a grenade at 8 cm needs 4; cover "not applicable to ... grenades", but "+1 If
            # the enemy dodges" has no such exception (only sniper fire cannot be dodged): 5.
            "§8.0: a grenade": ("fire bomber irr1 range=8 cover dice=1", 5),
            # §8.0: a flamethrower at 10 cm needs 4; cover does not count against it, a dodge does: 5.
            "§8.0: a flamethrower": ("fire flamer irr1 range=10 cover dice=1", 5),
            # §8.0: the Tank/mortars row at 30 cm needs 4; cover is not excused for mortars (only
            # snipers, grenades, RPGs and flamethrowers are), and the dodge is +1: 6.
            "§8.0 MORT-1: a light mortar counts the cover too": ("fire mortar irr1 range=30 cover dice=1", 6),
        }
    ),
)
def test_cover_and_the_dodge_against_weapons_that_ignore_cover(g, line, need):
    g.execute("react-dodge irr1 2", role="irregulars")
    assert shot(g, line).need == need


@pytest.mark.audits("MOV-6", "FIRE-6", "T-09")
def test_a_dodge_puts_a_long_rpg_shot_past_six(g):
    """§8.0: an RPG at 60 cm needs 6; the target dodges, +1: 7.  A single shot cannot roll
    over 6 (digest FIRE-6): it cannot hit, and the man is neither hit nor suppressed."""
    g.execute("react-dodge irr1 2", role="irregulars")
    out = g.execute("fire rpg irr1 range=60", role=REFEREE)
    assert all(not r.outcome.startswith(("1 hit", "hit")) for r in to_hit(out))
    assert not is_out(g, "irr1") and "suppressed" not in status(g, "irr1")


@pytest.mark.audits("MOV-6", "ART-6", "FIRE-5")
def test_a_dodge_costs_the_gunship_a_die(g):
    """§8.4: the helicopter fires its HMG "at maximum distance", the last column, 6; the
    target dodges: 7 on a burst is one die lost, four of the HMG's five dice needing 6."""
    g.execute("react-dodge irr1 2", role="irregulars")
    (r,) = to_hit(g.execute("fire heli irr1 range=40 dice=1,1,1,1", role=REFEREE))
    assert (len(r.faces), r.need) == (4, 6)


# ------------------------------------------------------------------ §10.0: in cover beyond 25 cm


@pytest.mark.audits("SUP-2", "T-09")
@pytest.mark.parametrize(("weapon", "need"), [("mortar", 5), ("rpg", 5)])
def test_a_suppressed_man_in_the_open_is_in_cover_only_for_weapons_that_count_it(g, weapon, need):
    """§10.0: a suppressed man in the open "is considered in cover beyond 25cm".  At 30 cm
    a light mortar needs 4, and the cover counts: 5; an RPG needs 5, and cover is "not
    applicable to ... RPG": still 5."""
    assert shot(g, f"fire {weapon} isupp range=30 dice=1").need == need
