"""Fourth held-out audit of Breaking News: the digest's §5 ambiguity list against the product,
one case for each proposal a referee meets often where earlier rounds left no case (AMB-53 a
platoon of mixed classes, AMB-39 the technical and its crew, AMB-34 who calls support,
AMB-24 a shot needing 1 or less, AMB-33 covering fire tested before a reaction move).  Each
case follows the digest's proposal, or the ruling that keeps the book's own words where they
clearly differ (docs/rulings.md).  Given these faces, that outcome."""

from __future__ import annotations

import pytest
from audit_bn_late import new_game, play, refused, rolls, status, table, unit

from core.log import events as ev
from core.log.views import REFEREE


def _morale(out) -> ev.Rolled:
    (found,) = [e for e in out.events if isinstance(e, ev.Rolled) and "morale" in str(e.roll.purpose)]
    return found


@pytest.mark.audits("PLT-4", "MOR-2")
def test_a_platoon_of_mixed_classes_rolls_its_lowest_morale(tmp_path, monkeypatch):
    """AMB-53: "Mixed classes: use the lowest Morale value in the platoon".  Two Veteran squads
    (Morale 4, the commander's among them) and a Trained section of two (3): one Veteran
    lost, no team at half: 3 + 3 teams = 6 dice, not 4 + 3 = 7."""
    men = ""
    for t, cls, size in ((1, "R3", 4), (2, "R3", 4), (3, "R4", 2)):
        for i in range(1, size + 1):
            roles = ("commander",) if (t, i) == (1, 1) else ()
            men += unit(f"t{t}m{i}", "regulars", cls, f"team{t}", roles=roles, lead=1 if roles else 0)
    men += unit("m1", "irregulars", "Irr3", "C")
    g = new_game(tmp_path, monkeypatch, men, head='platoon = ["regulars"]')
    play(g, "out t1m2 killed", "next")
    roll = _morale(g.execute("next dice=1,1,1,1,1,2", role=REFEREE))
    assert len(roll.roll.faces) == 6


TECH = (
    unit("lmg", "regulars", "R4", "Alpha", weapons=("LMG",))
    + unit("hmg", "regulars", "R4", "Alpha", weapons=("HMG",))
    + unit("ar", "regulars", "R4", "Alpha")
    + unit("techie", "irregulars", "unprotected", "Wheels", kind="vehicle", weapons=("HMG",))
    + unit("gunman", "irregulars", "Irr1", "Wheels")
    + 'aboard = "techie"\n'
    + unit("i0", "irregulars", "Irr1", "Cell")
)
g = table(TECH)


@pytest.mark.audits("VSAVE-1", "T-14")
def test_an_lmg_does_not_stop_a_technical_an_hmg_does(g):
    """AMB-39: an unprotected vehicle "is knocked out by any hit from an HMG, AT, IED or tank
    gun, and occupants take normal hits": the LMG's hit leaves the technical running; the
    HMG's hit knocks it out."""
    g.execute("fire lmg techie range=20 dice=6,1,1,1", role="regulars")
    assert not g.state.units["techie"].out
    g.execute("fire hmg techie range=20 dice=6,1,1,1,1,6", role="regulars")
    assert g.state.units["techie"].out


@pytest.mark.audits("ART-1", "MORT-3")
def test_irregulars_without_mortars_call_no_support(tmp_path, monkeypatch):
    """AMB-34: "Regular players may call once per turn; Irregular players only with
    Mortars": the Militia, who did not buy them, cannot call; the Regulars can (a 4)."""
    g = new_game(tmp_path, monkeypatch, TECH, active=None)
    g.execute("next", role=REFEREE)
    refused(g, "@irregulars call-support dice=6", rule="MORT-3")
    (call,) = rolls(g.execute("call-support dice=4", role="regulars"))
    assert call.outcome == "granted"


@pytest.mark.audits("T-08", "T-09", "FIRE-7")
def test_a_special_forces_sniper_needing_one_hits_on_a_one(tmp_path, monkeypatch):
    """AMB-24: "T ≤ 1 (for example an SF sniper at ≤ 25 cm: 2 − 1 = 1) hits on any roll
    (literal reading)": the die's 1 hits."""
    men = unit("sfs", "regulars", "R1", "Delta", weapons=("SNIPER",), roles=("sniper",)) + TECH
    g = new_game(tmp_path, monkeypatch, men)
    shot, _save = rolls(g.execute("fire sfs i0 range=20 dice=1,6", role="regulars"))
    assert shot.target == 1 and shot.outcome == "1 hit"


@pytest.mark.audits("COV-5", "MOV-6")
def test_a_dodge_passed_in_the_covered_area_goes_ahead(g):
    """AMB-33a: the covering-fire test comes before a reaction move too: the AR at 20 cm (3)
    and the Trained bonus (1) make 4; the Militiaman's 3 + 2 = 5 is over it, and his dodge
    stands: the LMG's shot at him at 20 cm needs 4 + 1 = 5."""
    g.execute("covering ar area=yard range=20", role="regulars")
    (test,) = rolls(g.execute("react-dodge i0 3 area=yard dice=3,2", role="irregulars"))
    assert test.target == 4 and "suppressed" not in status(g, "i0")
    (shot,) = rolls(g.execute("fire lmg i0 range=20 dice=1,1,1,1", role="regulars"))
    assert shot.target == 5
