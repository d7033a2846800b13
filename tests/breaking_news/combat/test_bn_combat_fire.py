"""Breaking News fire through the command line, with exact dice: to-hit, saves,
suppression, bursts, groups, areas, friendly fire and the optional rules (§8–§10)."""

from __future__ import annotations

import pytest
from bn_combat_support import facts, new_game, next_turn, rolls, status
from playing import refused

from core.dice.faces import NeedDice
from core.language.i18n import plain
from core.log import events as ev
from core.log.views import REFEREE


def test_hit_failed_save_puts_him_out(rng):
    """§8.0, §9.0: Sgt Stone's aimed AR at 30 cm needs 4: a 4 hits; Kalash (Irr2) saves on 5+ (§3.0): a 2
    fails and he is out.

    Digest: FIRE-14, SAVE-1, T-01.
    """
    out = rng.execute("fire sarge kalash range=30 aimed dice=4,2", role="regulars")
    to_hit, save = rolls(out)
    assert (to_hit.target, to_hit.faces, to_hit.outcome) == (4, (4,), "1 hit")
    assert (save.target, save.faces) == (5, (2,))  # Irr2 saves on 5+
    assert plain(rng.state.units["kalash"].out) == "killed by regulars"
    assert rng.state.vars["first_fire"] == "regulars"
    assert "fired" in status(rng, "sarge")


def test_saved_hit_suppresses_and_in_cover_he_drops_out_of_sight(rng):
    """§9.0, §10.0: Kalash saves Sgt Stone's hit (a 5): suppressed; Rocket, behind cover, is hit on a 5 (4
    + 1) and saves with +1 (a 4): suppressed, and as he was in cover he drops out of the regulars' sight.

    Digest: AMB-61, SAVE-5, SUP-1, SUP-2.
    """
    rng.execute("fire sarge kalash range=30 dice=4,5", role="regulars")
    assert "suppressed" in status(rng, "kalash") and "hidden" not in status(rng, "kalash")
    out = rng.execute("fire m4 rocket range=30 cover dice=5,4", role="regulars")
    to_hit, save = rolls(out)
    assert to_hit.target == 5 and [m.label for m in to_hit.mods] == ["target behind cover"]
    assert save.target == 5 and [m.value for m in save.mods] == [1]  # behind protection
    assert {"suppressed", "hidden"} <= set(status(rng, "rocket"))
    assert "rocket" not in rng.view("regulars").units
    assert "rocket" in rng.view("irregulars").units


def test_natural_one_kills_even_a_leader_in_cover(rng):
    """§9.0: Omar, the leader, behind cover, saves 4+ with +1, but a natural 1 kills him all the same.

    Digest: SAVE-2.
    """
    rng.execute("fire sarge omar range=10 cover dice=4,1", role="regulars")
    assert plain(rng.state.units["omar"].out).startswith("killed")


def test_split_burst_rolls_per_target(rng):
    """§8.0: Spc Saw's LMG burst at 20 cm split 3 and 1: 4,4,1 on Kalash is two hits (4 needed), 6 on
    Rocket one; Kalash saves both (5,6), Rocket fails; a split must add up to the weapon's dice.

    Digest: AMB-28, FIRE-7, FIRE-8.
    """
    out = rng.execute("fire saw kalash rocket range=20 split=3,1 dice=4,4,1,6,5,6,1", role="regulars")
    r = rolls(out)
    assert [x.faces for x in r[:2]] == [(4, 4, 1), (6,)]
    assert [x.outcome for x in r[:2]] == ["2 hits", "1 hit"]
    assert r[2].faces == (5, 6) and "suppressed" in status(rng, "kalash")
    assert plain(rng.state.units["rocket"].out).startswith("killed")
    refused(rng, "@regulars fire m4 kalash kid range=20 burst split=2,2 dice=1,1,1", "split", rule="FIRE-8")


def test_single_shot_cannot_split(rng):
    """§8.0: only a burst may be split between targets; an aimed shot is refused.

    Digest: FIRE-3.
    """
    refused(rng, "@regulars fire sarge kalash kid range=20 aimed", "burst", rule="FIRE-8")


def test_ex02_kalashnikov_burst_at_a_dodger(tmp_path, monkeypatch):
    """EX-02 through the commands: an Irr2 AK burst at 40 cm at a dodging Ranger rolls
    one die needing 6.

    Digest: AMB-25, DIFF-04, FIRE-4, FIRE-5, MOV-6, T-09.
    """
    g = new_game(tmp_path, "combat", active="irregulars", monkeypatch=monkeypatch)
    g.execute("react-dodge sarge 3", role="regulars")
    assert "dodging" in status(g, "sarge")
    out = g.execute("fire kalash sarge range=40 burst dice=6,3", role="irregulars")
    to_hit, save = rolls(out)
    assert len(to_hit.faces) == 1 and to_hit.target == 6
    assert {m.label for m in to_hit.mods} == {"Irr2 firing", "target dodges", "burst loses 2 dice"}
    assert save.target == 3 and "suppressed" in status(g, "sarge") and "dodging" not in status(g, "sarge")


def test_group_fire_is_one_action_of_one_team(rng):
    """§8.1: Sgt Stone and Emfour, of one fire team, fire at Kalash as one action (two rolls, one action);
    another team's man cannot join.

    Digest: ACT-3, FIRE-13, PLT-3.
    """
    out = rng.execute("fire sarge kalash range=30 with=m4 dice=1,2", role="regulars")
    assert len(rolls(out)) == 2 and rng.state.vars["action"] == "1:1:sarge,m4:1"
    assert "fired" in status(rng, "m4")
    refused(rng, "@regulars fire saw kalash range=30 with=rook", "fire team", rule="ACT-3")


def test_move_then_fire_penalty_and_limits(rng):
    """§5.0, §6.1: Emfour moves 12 cm and fires his AR at 20 cm with +1 (needs 4: a 3 misses); a man who
    ran cannot fire; a launcher fires only after 5 cm or less; one action a turn.

    Digest: ACT-1, AMB-15, DIFF-10, FIRE-1, MOV-1, MOV-3, T-03, T-05.
    """
    rng.execute("move m4 12", role="regulars")
    assert "moved" in status(rng, "m4")
    out = rng.execute("fire m4 kalash range=20 dice=3", role="regulars")
    assert rolls(out)[0].target == 4 and rolls(out)[0].mods[0].label == "firer moved"
    rng.execute("move sarge 20 run", role="regulars")
    refused(rng, "@regulars fire sarge kalash range=20", "ran", rule="MOV-3")
    rng.execute("move rook 10 shoot", role="regulars")
    refused(rng, "@regulars fire rook kalash range=20 weapon=GL", "5 cm or less", rule="MOV-3")
    refused(rng, "@regulars move rook 2", "already acted", rule="MOV-1")


def test_obstacles(rng):
    """§6.2: a run over a level-2 obstacle goes 5 cm at most; level 3 needs help; Spc Saw climbs a level-1
    obstacle with a move and shoot (5 cm) and fires his LMG with the +1: 5 needed.

    Digest: MOV-4, T-06.
    """
    refused(rng, "@regulars move m4 6 run obstacle=2", "5 cm", rule="MOV-4")
    refused(rng, "@regulars move m4 4 run obstacle=3", "help", rule="T-06")
    rng.execute("move saw 5 shoot obstacle=1", role="regulars")
    out = rng.execute("fire saw kalash range=20 dice=1,1,1,1", role="regulars")
    assert rolls(out)[0].target == 5  # the level-1 climb fires with the +1


def test_suppressed_firer_tests_first_with_a_leader(rng):
    """§10.0: a suppressed man tests before he fires: Emfour (R2, suppression 4) with Sgt Stone's
    leadership 2 needs 6 or less, never a 6: a 5 passes, and his shot and Kalash's save follow.

    Digest: SUP-3, SUP-4, SUP-5, T-02.
    """
    rng.execute("mark m4 suppressed", role=REFEREE)
    out = rng.execute("fire m4 kalash range=30 leader=sarge dice=5,4,6", role="regulars")
    test, to_hit, save = rolls(out)
    # R2 4 + leadership 2, rolled under; a 6 always fails, so it reads "5 or less" (exact odds)
    assert (test.target, test.under, test.outcome) == (5, True, "passes")
    assert "suppressed" not in status(rng, "m4") and "suppressed" in status(rng, "kalash")


def test_failed_suppression_test_leaves_him_in_panic(rng):
    """§10.0: suppressed Emfour rolls a 6 (always a failure): he stays in panic and may only crawl up to
    10 cm to cover.

    Digest: SUP-3, SUP-4.
    """
    rng.execute("mark m4 suppressed", role=REFEREE)
    out = rng.execute("fire m4 kalash range=30 leader=sarge dice=6", role="regulars")
    assert rolls(out)[0].outcome.startswith("fails")  # a 6 always fails
    assert {"suppressed", "panicked"} <= set(status(rng, "m4"))
    assert not facts(out, ev.Moved)
    refused(rng, "@regulars move m4 12", "10 cm", rule="SUP-4")
    rng.execute("move m4 8", role="regulars")
    assert rng.state.units["m4"].moved_cm == 8


def test_leader_cannot_help_himself(rng):
    """§10.0 (ruling BN-C-SUP-LEADER): Sgt Stone cannot add his own leadership to his test.

    Digest: AMB-48, SUP-5.
    """
    rng.execute("mark sarge suppressed", role=REFEREE)
    refused(rng, "@regulars rally sarge leader=sarge dice=3", "own leadership", rule="SUP-5")


def test_hits_in_the_burst_area(rng):
    """§8.0.1: Rook's launcher at 30 cm needs 5 (no class +1 for a launcher): a 5 hits Kalash (saves, 6:
    suppressed), and Rocket in the area takes a hit too (1: out).

    Digest: FIRE-10, T-10.
    """
    out = rng.execute("fire rook kalash range=30 weapon=GL also=rocket dice=5,6,1", role="regulars")
    assert rolls(out)[0].target == 5  # no class +1 for grenade launchers
    assert "suppressed" in status(rng, "kalash")
    assert plain(rng.state.units["rocket"].out).startswith("killed")


def test_friendly_fire_for_every_missed_die(rng):
    """§8.7: Spc Saw's burst misses with 3 of 4 dice; Emfour in the line of fire saves once per missed die
    with +1: 2,2,1 — the 1 kills him.

    Digest: AMB-38, FF-1, FIRE-14.
    """
    out = rng.execute("fire saw kalash range=20 line=m4 dice=1,1,1,4,6,2,2,1", role="regulars")
    r = rolls(out)
    assert r[0].outcome == "1 hit"
    friendly = r[2]
    assert friendly.faces == (2, 2, 1) and [m.label for m in friendly.mods] == ["friendly fire"]
    assert plain(rng.state.units["m4"].out) == "killed by regulars"  # the natural 1


def test_missed_grenade_deviates_under_the_option(tmp_path, monkeypatch):
    """§8.0.2 (optional): Rook's launcher at 30 cm needs 5 and rolls 3; the direction die, 4, is right on
    the grenade row: 6 cm right.  An LMG, no area weapon, does not deviate.

    Digest: FIRE-11, T-11.
    """
    g = new_game(tmp_path, "combat", monkeypatch=monkeypatch, options=("deviation",))
    out = g.execute("fire rook kalash range=30 weapon=GL dice=3,4", role="regulars")
    note = facts(out, ev.Noted)[-1].text
    assert "6 cm right" in note
    out = g.execute("fire saw kalash range=30 dice=1,1,1,1", role="regulars")
    assert not any("lands" in n.text for n in facts(out, ev.Noted))  # only area weapons deviate


def test_rpg_dud_on_a_one(tmp_path, monkeypatch):
    """§8.0.2: an RPG to-hit roll of 1 is a round that did not fire: no deviation.

    Digest: FIRE-11.
    """
    g = new_game(tmp_path, "combat", active="irregulars", monkeypatch=monkeypatch, options=("deviation",))
    out = g.execute("fire rocket sarge range=40 dice=1", role="irregulars")
    assert "did not fire" in facts(out, ev.Noted)[-1].text


def test_ammunition_option(tmp_path, monkeypatch):
    """§8.0.3 (optional): Sgt Stone's burst rolls 3,3,1, a double: his magazine is empty until he reloads
    (his whole turn); Op Delta (Special Forces) is exempt; Emfour's 2,2,2 leaves him on aimed fire, and a
    later 1 exhausts his AR.

    Digest: AMB-31, FIRE-12.
    """
    g = new_game(tmp_path, "combat", monkeypatch=monkeypatch, options=("ammo",))
    g.execute("fire sarge kalash range=20 burst dice=3,3,1", role="regulars")
    assert "empty-mag" in status(g, "sarge")
    g.execute("fire delta kalash range=20 burst dice=2,2,1", role="regulars")
    assert "empty-mag" not in status(g, "delta")  # not for Special Forces
    g.execute("fire m4 kalash range=20 burst dice=2,2,2", role="regulars")
    assert {"empty-mag", "low-ammo"} <= set(status(g, "m4"))
    g.execute("next", role=REFEREE)
    g.execute("next", role=REFEREE)
    from bn_combat_support import to_activation

    to_activation(g, "regulars")
    refused(g, "@regulars fire sarge kalash range=20", "change magazine", rule="FIRE-12")
    g.execute("reload sarge", role="regulars")
    assert "empty-mag" not in status(g, "sarge") and "reloading" in status(g, "sarge")
    refused(g, "@regulars fire sarge kalash range=20", "magazine", rule="FIRE-12")
    g.execute("reload m4", role="regulars")
    next_turn(g, "regulars")
    refused(g, "@regulars fire m4 kalash range=20 burst", "aimed fire only", rule="FIRE-12")
    g.execute("fire m4 kalash range=20 aimed dice=1", role="regulars")
    assert "no-ammo" in status(g, "m4")


def test_italian_ammunition_counts_bursts_only(tmp_path, monkeypatch):
    """§8.0.3, Italian draft (DIFF-31): Kid's SMG burst rolls 1,1,1: three of a kind, it cannot fire
    again.

    Digest: FIRE-12.
    """
    g = new_game(
        tmp_path, "combat", variant="it-2009-12-09", active="irregulars", monkeypatch=monkeypatch, options=("ammo",)
    )
    g.execute("fire kid sarge range=20 dice=1,1,1", role="irregulars")
    assert "no-ammo" in status(g, "kid")  # an SMG with three of a kind cannot fire again


def test_speculative_fire_saves_at_plus_two(rng):
    """§7.0, §8.6: hidden Shadow cannot be fired at, only speculatively: Rook's launcher hits (5) and his
    save has +2 (a 2 + 2 passes: suppressed); a permission roll of 4 is refused and spends nothing; fire
    at an empty position is rolled like any shot.

    Digest: AMB-18, AMB-37, AMB-42, DIFF-21, SAVE-3, SPEC-1, SPOT-2.
    """
    refused(rng, "fire rook shadow range=40 weapon=GL", "hidden", rule="MOV-7")
    out = rng.execute("speculative rook shadow range=40 weapon=GL dice=5,2", role=REFEREE)
    assert rolls(out)[1].mods[0].value == 2
    assert "suppressed" in status(rng, "shadow")
    out = rng.execute("speculative m4 range=45 permission dice=4", role=REFEREE)
    assert rolls(out)[0].outcome == "not allowed" and "fired" not in status(rng, "m4")
    out = rng.execute("speculative m4 range=45 dice=4", role=REFEREE)  # nobody there: rolled like any shot
    assert rolls(out)[0].outcome == "1 hit" and "a suspect position" in rolls(out)[0].purpose
    assert "fired" in status(rng, "m4")


def test_manual_dice_must_cover_every_roll(rng):
    with pytest.raises(NeedDice):
        rng.execute("fire sarge kalash range=30 dice=4", role="regulars")
    assert "kalash" in rng.state.units and not plain(rng.state.units["kalash"].out)


def test_a_retreating_man_who_fails_falls_back_and_may_fire(rng):
    """§12.0 (ruling BN-C-RETREAT): Emfour, retreating, fails his test (a 6): he must fall back at least
    15 cm, and may still fire.

    Digest: DIFF-67, MOR-6.
    """
    rng.execute("mark m4 suppressed", role=REFEREE)
    rng.execute("mark m4 retreating", role=REFEREE)
    refused(rng, "@regulars move m4 10 dice=6", "15 cm", rule="MOR-6")
    out = rng.execute("move m4 15 dice=6", role="regulars")
    assert rolls(out)[0].outcome.startswith("fails") and facts(out, ev.Moved)[0].cm == 15
    assert "falling-back" in status(rng, "m4")
    rng.execute("fire m4 kalash range=20 dice=1", role="regulars")  # no second test


def test_a_retreating_man_who_passes_is_himself_again(rng):
    """§12.0: a retreating man who passes his test (a 2) is neither suppressed nor retreating any more.

    Digest: MOR-6, SUP-4.
    """
    rng.execute("mark m4 suppressed", role=REFEREE)
    rng.execute("mark m4 retreating", role=REFEREE)
    rng.execute("rally m4 dice=2", role="regulars")
    assert not {"suppressed", "retreating"} & set(status(rng, "m4"))


def test_civilians_hit_by_regulars_are_recorded_for_defeat_points(demo):
    demo.execute("fire rossi civ1 range=20 dice=3,2", role="regulars")
    assert plain(demo.state.units["civ1"].out) == "killed by regulars"
    assert any(e.category for e in demo.history.store.slice(0, demo.log_length) if isinstance(e, ev.DefeatPoints))


def test_ex03_abu_al_khair_rpg_deviates(tmp_path, monkeypatch):
    """EX-03 through the command: an RPG needing 5 rolls 3, then 4 for the direction:
    6 cm, to the left by the rule's table (ruling BN-C-RPG-DIRECTION).

    Digest: AMB-30, FIRE-11.
    """
    g = new_game(tmp_path, "combat", active="irregulars", monkeypatch=monkeypatch, options=("deviation",))
    out = g.execute("fire rocket sarge range=40 dice=3,4", role="irregulars")
    to_hit, direction = rolls(out)
    assert to_hit.target == 5 and direction.faces == (4,)
    assert "lands 6 cm left of Sgt Stone" in facts(out, ev.Noted)[-1].text


def test_figures_off_the_table_cannot_be_reached(rng):
    assert "off-table" in status(rng, "lurker")
    refused(rng, "@regulars fire sarge lurker range=20", "not on the table", rule="DEP-3")
    refused(rng, "blast lurker source=grenade by=regulars", "not on the table", rule="DEP-3")
