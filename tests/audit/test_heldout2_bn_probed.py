"""Second held-out audit of Breaking News: the cases aimed after trying the engine by hand,
where the blind cases (test_heldout2_bn_actions.py, _fire.py, _after.py, _italian.py) pointed:
a man aboard a vehicle, support fire called turn after turn, smoke thrown by a hidden man,
covering fire after a short move, and a blast over a protected vehicle.  Each outcome is
still the book's (1.5.1, and the digest), not the engine's: given these faces, the book's
outcome."""

from __future__ import annotations

import pytest
from audit_bn_late import new_game, next_turn, status, unit

from core.ruleset import Refused

#: A Hummer with a Trained man aboard for each side's turn, the Militia's technical with a
#: Militiaman aboard, and men on foot.
CONVOY = (
    unit("hummer", "regulars", "protected", "Motor", kind="vehicle", weapons=("HMG",))
    + unit("rider", "regulars", "R4", "Alpha")
    + 'aboard = "hummer"\n'
    + unit("sgt", "regulars", "R4", "Alpha", lead=1, roles=("commander", "leader"))
    + unit("m0", "regulars", "R4", "Alpha")
    + unit("techie", "irregulars", "unprotected", "Wheels", kind="vehicle", weapons=("HMG",))
    + unit("gunman", "irregulars", "Irr1", "Cell")
    + 'aboard = "techie"\n'
    + unit("boss", "irregulars", "Irr1", "Cell", lead=1, roles=("commander", "leader"))
    + unit("i0", "irregulars", "Irr1", "Cell")
)


# ------------------------------------------------------------------ §6.3: a man aboard


@pytest.mark.audits("MOV-5", "T-03")
@pytest.mark.parametrize(
    "command",
    [
        "move rider 10",
        "move rider 25 run",
        "melee rider i0 dice=6,1",
        "storm rider against=i0 dice=1,1,1,1,1",
    ],
)
def test_a_man_aboard_gets_out_before_he_goes_anywhere_on_foot(tmp_path, monkeypatch, command):
    """§6.3 (MOV-5): "The action requires a complete move ... If the figure gets out it must be
    placed adjacent to the vehicle": a man aboard leaves the vehicle only by getting out,
    his whole move.  He cannot walk, run, charge into hand-to-hand or storm a
    building from his seat; he is still aboard afterwards."""
    g = new_game(tmp_path, monkeypatch, CONVOY)
    with pytest.raises(Refused):
        g.execute(command, role="regulars")
    assert "in-vehicle" in status(g, "rider") and not {"moved", "ran", "crept", "acted"} & set(status(g, "rider"))


@pytest.mark.audits("MOV-5", "MOV-6")
@pytest.mark.parametrize("reaction", ["react-dodge gunman 3", "react-ground gunman"])
def test_a_man_aboard_cannot_dodge_out_of_the_vehicle(tmp_path, monkeypatch, reaction):
    """§6.5, §6.3: a dodge is a move of up to 5 cm into cover, going to ground is throwing
    himself down where he stands: neither is open to a man who must first get out of the
    vehicle he sits in, which is a complete move."""
    g = new_game(tmp_path, monkeypatch, CONVOY)
    g.execute("fire m0 gunman range=20 aimed dice=1", role="regulars")
    with pytest.raises(Refused):
        g.execute(reaction, role="irregulars")
    assert "in-vehicle" in status(g, "gunman") and "suppressed" not in status(g, "gunman")


@pytest.mark.audits("MOV-5", "T-03")
def test_a_man_aboard_gets_out_and_that_is_his_move(tmp_path, monkeypatch):
    """§6.3: getting out is the action; he is then on foot beside the vehicle, and next turn
    he moves as any man."""
    g = new_game(tmp_path, monkeypatch, CONVOY)
    g.execute("disembark rider", role="regulars")
    assert "in-vehicle" not in status(g, "rider")
    next_turn(g, "regulars")
    g.execute("move rider 25 run", role="regulars")
    assert "ran" in status(g, "rider")
