"""Third held-out audit of Breaking News: the rulebook's own worked examples that the other
files of this round do not play (the digest's §7: EX-02 the Kalashnikov burst, EX-03 the RPG
that misses, EX-04 and EX-08 covering fire worth 9), each with the faces the digest adds.
EX-01, EX-05, EX-06 and EX-07 are in test_heldout3_bn_setup.py, _melee.py, _morale.py and
_points.py.  Written from the rulebook (1.5.1) and its digest alone: given these faces, the
book's outcome."""

from __future__ import annotations

import pytest
from audit_bn_late import facts, new_game, next_turn, rolled, table, unit

from core.log import events as ev
from core.log.views import REFEREE

MEN = (
    unit("m4", "regulars", "R2", "Rangers")
    + unit("saw", "regulars", "R2", "Rangers", weapons=("LMG",))
    + unit("rg", "regulars", "R2", "Rangers")
    + unit("ak", "irregulars", "Irr3", "C")
    + unit("abu", "irregulars", "Irr3", "C", weapons=("RPG",))
    + unit("mg", "irregulars", "Irr1", "B", weapons=("MMG",))
)


def said(out) -> str:
    return " ".join(str(e.text) for e in facts(out, ev.Noted))


deviating = table(MEN, "deviating", head='options = ["deviation"]', active="irregulars")


@pytest.mark.audits("EX-02", "FIRE-5", "T-09", "MOV-6")
@pytest.mark.parametrize(("face", "hits"), [(6, 1), (5, 0)])
def test_the_kalashnikov_burst_at_a_dodging_ranger(tmp_path, monkeypatch, face, hits):
    """§8.0 example: a burst at 40 cm needs 6; the Militiaman's +1 and the dodge's +1 would
    make 8: "the value stays 6 but only one die is rolled" (3 − 2)."""
    g = new_game(tmp_path, monkeypatch, MEN, active="irregulars")
    g.execute("react-dodge rg 4", role=REFEREE)
    out = g.execute(f"fire ak rg range=40 burst dice={face}" + (",5" if hits else ""), role=REFEREE)
    shot = rolled(out, "fire")[0]
    assert len(shot.roll.faces) == 1 and shot.roll.check.face == 6
    assert len(rolled(out, "save")) == hits


@pytest.mark.audits("EX-03", "FIRE-11", "T-11", "T-11a")
def test_abu_al_khairs_rpg_lands_6_cm_left(deviating):
    """§8.0.2 example: the RPG needs 5+ and rolls 3: off by (5 − 3) × 3 = 6 cm; the direction
    die 4 is "left" on row a) (the digest, AMB-30: the table over the example's "right")."""
    out = deviating.execute("fire abu rg range=40 dice=3,4", role=REFEREE)
    assert rolled(out, "fire")[0].roll.check.face == 5
    direction = rolled(out, "direction")
    assert direction and "left" in str(direction[0].roll.outcome)
    assert "6 cm left" in said(out)


@pytest.mark.audits("EX-03", "FIRE-11")
def test_an_rpg_that_rolls_a_one_did_not_fire(deviating):
    """§8.0.2: "a roll of 1 means that the weapon did not fire": no direction die, no
    landing."""
    out = deviating.execute("fire abu rg range=40 dice=1", role=REFEREE)
    assert not rolled(out, "direction")
    assert "lands" not in said(out)


def covered(tmp_path, monkeypatch):
    """§8.3 example: the M4 (an AR, 2 at 32 cm) and the SAW (an LMG, 4) of an Elite group
    (+3) cover the bunker: 9; a Ranger then moves in front of it."""
    g = new_game(tmp_path, monkeypatch, MEN, active="irregulars")
    next_turn(g, "regulars")
    out = g.execute("covering m4 saw area=bunker range=32", role=REFEREE)
    g.execute("move rg 10 shoot", role=REFEREE)
    return g, out


@pytest.mark.audits("EX-04", "COV-3", "T-12")
def test_the_rangers_covering_fire_is_worth_nine(tmp_path, monkeypatch):
    """§8.3 example: "2 (M4) + 4 (SAW) + 3 (Elite) = 9"."""
    _, out = covered(tmp_path, monkeypatch)
    assert "worth 9" in said(out)


@pytest.mark.audits("EX-04", "COV-5", "COV-6")
def test_the_mg_in_the_bunker_rolling_nine_on_three_dice_is_hit_first(tmp_path, monkeypatch):
    """§8.3 example: the MG in the bunker rolls 3d6; "with 9 or less" it takes a hit before
    firing: 3+3+3, then its save (a 1) fails and it never fires."""
    g, _ = covered(tmp_path, monkeypatch)
    out = g.execute("react-fire mg rg range=30 area=bunker bunker dice=3,3,3,1", role=REFEREE)
    test = rolled(out, "covering")[0]
    assert len(test.roll.faces) == 3
    assert g.state.units["mg"].out
    assert not rolled(out, "fire with")


@pytest.mark.audits("EX-04", "COV-5")
def test_the_mg_in_the_bunker_rolling_ten_fires(tmp_path, monkeypatch):
    """§8.3 example: 4+3+3 = 10 is more than 9: it fires normally (four dice at 5+ at 30 cm)."""
    g, _ = covered(tmp_path, monkeypatch)
    out = g.execute("react-fire mg rg range=30 area=bunker bunker dice=4,3,3,1,1,1,1", role=REFEREE)
    assert not g.state.units["mg"].out
    assert len(rolled(out, "fire with")[0].roll.faces) == 4


@pytest.mark.audits("EX-08", "COV-5")
@pytest.mark.parametrize("faces", ["5,5", "6,5", "6,6"])
def test_out_of_a_bunker_ten_or_more_on_two_dice_always_passes(tmp_path, monkeypatch, faces):
    """§8.3: "the maximum value is 9": a man outside a bunker, on 2d6, passes on 10, 11 or 12
    whatever the covering fire."""
    g, _ = covered(tmp_path, monkeypatch)
    out = g.execute(f"react-fire mg rg range=30 area=bunker dice={faces},1,1,1,1", role=REFEREE)
    assert len(rolled(out, "covering")[0].roll.faces) == 2
    assert not g.state.units["mg"].out and rolled(out, "fire with")
