"""Audit of Linea di Tiro's anti-tank fire (C.6) from the book alone: every cell of the
AT table through a game, each column's edge, the long-range note, the two modifiers,
front against side protection, the results applied at once, replies and ambushes."""

from __future__ import annotations

import pytest
from audit_lt_table import ALTERNATE, add, at_book, game_with, has, moved, out, outcome, play, refused, rolled, said

from core.refusal import TYPING

LETTER = {"D": "D: destroyed", "R": "R: routs without a test", "T": "T: morale test", "-": "no effect"}


def _faces(total: int) -> str:
    """Two d6 that sum to ``total`` (2..12)."""
    return f"{min(total - 1, 6) if total <= 7 else total - 6},{1 if total <= 7 else 6}"


def _shoot(tmp_path, attack: int, protection: int, dice: str, flags: str = "", name: str = "a.ft"):
    """A fresh game: a US gun (attack ``attack`` at both ranges) fires at a German tank
    (front ``protection``, side 1) under the first card; returns the game and the facts."""
    g = game_with(tmp_path, ALTERNATE, name)
    add(g, "gun", "us", "sherman", team="X", stats={"at": attack, "at_long": attack})
    add(g, "tank", "german", "pz4", team="Y", stats={"front": protection, "side": 1, "morale": 4, "speed": 30})
    play(g, "next", "@us activate gun A4 prepare=0")
    return g, play(g, f"@us at gun tank {flags} dice={dice}")


@pytest.mark.audits("LT-R050")
@pytest.mark.parametrize("diff", [-4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6])
def test_every_cell_of_the_at_table(tmp_path, diff):
    """C.6: diff = attack - protection picks the column, the 2d6 the row; every row
    2..12 of every column (both sides of each column edge: -3|-2, +2|+3, +4|+5)."""
    for total in range(2, 13):
        g, facts = _shoot(tmp_path, 6 + diff, 6, _faces(total), name=f"{total}.ft")
        want = at_book(diff, total)
        assert outcome(facts).endswith(LETTER[want]), (diff, total, outcome(facts))
        assert out(g, "tank") == (want == "D")
        assert has(g, "tank", "retreating") == (want == "R")


@pytest.mark.audits("LT-R050", "LT-AMB-13", "LT-AMB-16")
@pytest.mark.parametrize("diff", [-3, -1, 0, 2, 5])
def test_long_range_has_no_effect_above_6_and_reads_the_table_at_6_or_less(tmp_path, diff):
    """C.6 note: at long range, no effect with a result > 6 (the modified one, LT-AMB-16);
    the long-range attack value is the piece's own (LT-AMB-13)."""
    for total in range(2, 13):
        g, facts = _shoot(tmp_path, 6 + diff, 6, _faces(total), "long", name=f"{total}.ft")
        want = at_book(diff, total, long_range=True)
        assert outcome(facts).endswith(LETTER[want]), (diff, total, outcome(facts))
    # the modified result counts: 6,1 = 7 is no effect at long range, but 7 - 1 (close) = 6 reads the table
    g, facts = _shoot(tmp_path, 11, 6, "6,1", "long close", name="mod.ft")
    assert outcome(facts) == "modified total 6, column ≥+5: D: destroyed"
    g, facts = _shoot(tmp_path, 11, 6, "5,1", "long hulldown", name="mod2.ft")
    assert outcome(facts) == "modified total 7, column ≥+5: no effect"


@pytest.mark.audits("LT-AMB-13")
def test_long_range_uses_the_long_range_attack_value(lt):
    add(lt, "gun", "us", "sherman", team="X", stats={"at": 8, "at_long": 5})
    add(lt, "tank", "german", "pz4", team="Y", stats={"front": 5, "side": 1})
    play(lt, "next", "@us activate gun A4 prepare=0")
    assert "column 0" in outcome(play(lt, "@us at gun tank long dice=6,6"))
    assert "column +3,+4" in outcome(play(lt, "@us at gun tank dice=6,6"))


@pytest.mark.audits("LT-R050", "LT-AMB-15")
def test_the_two_die_modifiers_and_that_each_pair_is_one_modifier(tmp_path):
    """Hull down or prepared cover +1; range <= 5 cm or ambush -1; each pair once."""
    # diff 0: 6 is T, 7 is no effect, 5 is T, 4 is R
    g, facts = _shoot(tmp_path, 6, 6, "3,3", "hulldown", "h.ft")
    assert outcome(facts) == "modified total 7, column 0: no effect"
    g, facts = _shoot(tmp_path, 6, 6, "3,2", "close", "c.ft")
    assert outcome(facts) == "modified total 4, column 0: R: routs without a test"
    g, facts = _shoot(tmp_path, 6, 6, "3,3", "hulldown close", "hc.ft")
    assert outcome(facts) == "modified total 6, column 0: T: morale test"
    assert sorted(m.value for m in rolled(facts)[0].mods) == [-1, 1]
    # row 1 exists only with the -1: 1,1 - 1 at -3 is R, at -2 D
    g, facts = _shoot(tmp_path, 3, 6, "1,1", "close", "r1.ft")
    assert outcome(facts) == "modified total 1, column ≤-3: R: routs without a test"
    g, facts = _shoot(tmp_path, 4, 6, "1,1", "close", "r2.ft")
    assert outcome(facts) == "modified total 1, column -2: D: destroyed"
    # a result above 12 (6,6 + 1) is still "8+": no effect, even in the >= +5 column
    g, facts = _shoot(tmp_path, 12, 6, "6,6", "hulldown", "r13.ft")
    assert outcome(facts) == "modified total 13, column ≥+5: no effect"


@pytest.mark.audits("LT-R050")
def test_a_shot_from_the_side_meets_the_side_protection(lt):
    add(lt, "gun", "us", "sherman", team="X", stats={"at": 6, "at_long": 6})
    add(lt, "tank", "german", "pz4", team="Y", stats={"front": 6, "side": 3})
    play(lt, "next", "@us activate gun A4 prepare=0")
    assert outcome(play(lt, "@us at gun tank dice=6,1")) == "modified total 7, column 0: no effect"
    assert outcome(play(lt, "@us at gun tank flank dice=6,1")) == "modified total 7, column +3,+4: T: morale test"


@pytest.mark.audits("LT-R051", "LT-AMB-22")
def test_an_r_routs_at_once_without_a_test_and_the_fleeing_piece_does_not_fire(lt):
    """R: flees its full move, back to the enemy, loses its ready shots (LT-R080's flee),
    at once: it may neither answer nor fire under its own activation."""
    add(lt, "gun", "us", "sherman", team="X", stats={"at": 6, "at_long": 6})
    add(lt, "tank", "german", "pz4", team="Y", status=("ready-2",), stats={"front": 6, "side": 1, "speed": 24})
    play(lt, "next", "@us activate gun A4 prepare=0")
    facts = play(lt, "@us at gun tank dice=2,2")  # diff 0, 4: R
    assert outcome(facts).endswith("R: routs without a test")
    assert not rolled(facts)[1:]  # no morale die
    assert moved(facts) == [24] and has(lt, "tank", "retreating")
    assert not has(lt, "tank", "ready-1") and not has(lt, "tank", "ready-2")
    refused(lt, "@german at tank gun ready dice=6,6", rule="LT-R051")


@pytest.mark.audits("LT-R050", "LT-AMB-17")
def test_a_t_calls_for_a_morale_test_which_has_the_morale_outcomes(tmp_path):
    g, facts = _shoot(tmp_path, 6, 6, "3,3")  # diff 0, 6: T
    assert outcome(facts).endswith("T: morale test") and not out(g, "tank")
    assert "must test morale" in said(facts)
    # the tank (morale 4) fails with 8 = 2 x 4: it flees its full move (30)
    facts = play(g, "@german morale tank plus=2 dice=6")
    assert outcome(facts) == "modified total 8: flee"
    assert moved(facts) == [30] and has(g, "tank", "retreating")


@pytest.mark.audits("LT-R052")
def test_the_target_that_survives_answers_its_attacker_once_with_a_prepared_attack(lt):
    add(lt, "gun", "us", "sherman", team="X", stats={"at": 6, "front": 6, "side": 6})
    add(lt, "other", "us", "sherman", team="X2", stats={"front": 6, "side": 6})
    add(lt, "tank", "german", "pz4", team="Y", status=("ready-2",), stats={"at": 6, "front": 6, "side": 1})
    play(lt, "next", "@us activate gun A4 prepare=0")
    refused(lt, "@german at tank gun ready dice=6,6", rule="LT-R052")  # nothing to answer yet
    play(lt, "@us at gun tank dice=6,6")  # 12: no effect
    refused(lt, "@german at tank other ready dice=6,6", rule="LT-R052")  # only the attacker is answered
    facts = play(lt, "@german at tank gun ready dice=6,6")
    assert outcome(facts) == "modified total 12, column 0: no effect"
    assert has(lt, "tank", "ready-1") and not has(lt, "tank", "ready-2")  # it spent one
    refused(lt, "@german at tank gun ready dice=6,6", rule="LT-R052")  # one attack, one reply
    play(lt, "@us at gun tank dice=4,2")  # 6: T, it survives
    play(lt, "@german morale tank dice=1")  # the T's test comes first (LT-R051): steady
    play(lt, "@german at tank gun ready dice=6,6")
    assert not has(lt, "tank", "ready-1")


@pytest.mark.audits("LT-R052")
def test_a_destroyed_target_answers_nothing(lt):
    add(lt, "gun", "us", "sherman", team="X", stats={"at": 6})
    add(lt, "tank", "german", "pz4", team="Y", status=("ready-2",), stats={"front": 6, "side": 1})
    play(lt, "next", "@us activate gun A4 prepare=0", "@us at gun tank dice=1,2")  # 3 at 0: D
    assert out(lt, "tank")
    # the reply rule refuses it (issue #91), not the AT table's legend that destroyed it
    refused(lt, "@german at tank gun ready dice=6,6", "out of action", rule="LT-R052")


@pytest.mark.audits("LT-AMB-10")
def test_no_reply_at_an_attacker_the_target_has_not_spotted(lt):
    add(lt, "tank", "us", "sherman", team="X", status=("ready-1",), stats={"at": 6, "front": 6, "side": 6})
    add(lt, "sniper", "german", "pz4", team="Y", status=("hidden",), stats={"at": 6, "front": 6})
    play(lt, "next", "next", "@german activate sniper A4 prepare=0", "@german at sniper tank dice=6,6")
    refused(lt, "@us at tank sniper ready dice=6,6", rule=TYPING)
    assert has(lt, "tank", "ready-1")


@pytest.mark.audits("LT-R053", "LT-AMB-15")
def test_a_spotted_piece_fires_its_prepared_attack_at_its_first_spotter_at_minus_one(lt):
    add(lt, "spotter", "us", "sherman", team="X", stats={"front": 6, "side": 6})
    add(lt, "second", "us", "sherman", team="X2", stats={"front": 6, "side": 6})
    add(lt, "hunter", "german", "pz4", team="Y", status=("hidden", "ready-1"), stats={"at": 6, "front": 6})
    play(lt, "next", "spot hunter by=spotter at=10 state=still-cover")
    refused(lt, "@german at hunter second ambush dice=3,3", rule="LT-R053")  # at the first enemy that spots it only
    facts = play(lt, "@german at hunter spotter ambush close dice=3,3")  # the -1 counted once
    assert outcome(facts) == "modified total 5, column 0: T: morale test"
    assert [m.value for m in rolled(facts)[0].mods] == [-1]
    assert not has(lt, "hunter", "ready-1")
