"""Second held-out audit of Breaking News: the cases aimed after trying the engine by hand,
where the blind cases (test_heldout2_bn_actions.py, _fire.py, _after.py, _italian.py) pointed:
a man aboard a vehicle, support fire called turn after turn, smoke thrown by a hidden man,
covering fire after a short move, and a blast over a protected vehicle.  Each outcome is
still the book's (1.5.1, and the digest), not the engine's: given these faces, the book's
outcome."""

from __future__ import annotations

import pytest
from audit_bn_late import new_game, next_turn, out, play, refused, rolls, status, table, to_activation, unit
from playing import names

from core.log.views import REFEREE
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

g = table(CONVOY)


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
def test_a_man_aboard_gets_out_before_he_goes_anywhere_on_foot(g, command):
    """§6.3 (MOV-5): "The action requires a complete move ... If the figure gets out it must be
    placed adjacent to the vehicle": a man aboard leaves the vehicle only by getting out,
    his whole move.  He cannot walk, run, charge into hand-to-hand or storm a
    building from his seat; he is still aboard afterwards."""
    with pytest.raises(Refused) as no:
        g.execute(command, role="regulars")
    names(no.value, "MOV-5")
    assert "in-vehicle" in status(g, "rider") and not {"moved", "ran", "crept", "acted"} & set(status(g, "rider"))


@pytest.mark.audits("MOV-5", "WND-3")
def test_a_man_aboard_cannot_carry_a_wounded_comrade(tmp_path, monkeypatch):
    """§9.3, §6.3 (MOV-5): "A wounded model can be moved with the aid of a comrade moving
    10cm-1d6": the comrade moves with him, and a man aboard moves nowhere on foot before he
    gets out."""
    g = new_game(tmp_path, monkeypatch, CONVOY, options=("wounded",))
    g.execute("blast m0 source=grenade by=irregulars dice=1,4", role=REFEREE)
    assert out(g, "m0").startswith("wounded")
    refused(g, "@regulars carry rider m0 dice=1", rule="MOV-5")
    assert "in-vehicle" in status(g, "rider")


@pytest.mark.audits("MOV-5", "MOV-6")
@pytest.mark.parametrize("reaction", ["react-dodge gunman 3", "react-ground gunman"])
def test_a_man_aboard_cannot_dodge_out_of_the_vehicle(g, reaction):
    """§6.5, §6.3: a dodge is a move of up to 5 cm into cover, going to ground is throwing
    himself down where he stands: neither is open to a man who must first get out of the
    vehicle he sits in, which is a complete move."""
    g.execute("fire m0 gunman range=20 aimed dice=1", role="regulars")
    with pytest.raises(Refused) as no:
        g.execute(reaction, role="irregulars")
    names(no.value, "MOV-5")
    assert "in-vehicle" in status(g, "gunman") and "suppressed" not in status(g, "gunman")


@pytest.mark.audits("MOV-5", "T-03")
def test_a_man_aboard_gets_out_and_that_is_his_move(g):
    """§6.3: getting out is the action; he is then on foot beside the vehicle, and next turn
    he moves as any man."""
    g.execute("disembark rider", role="regulars")
    assert "in-vehicle" not in status(g, "rider")
    next_turn(g, "regulars")
    g.execute("move rider 25 run", role="regulars")
    assert "ran" in status(g, "rider")


# ------------------------------------------------------------------ §8.4: a call every turn


def _at_initiative(tmp_path, monkeypatch):
    g = new_game(tmp_path, monkeypatch, CONVOY, head="[extras.irregulars]\nmortars = true\n", active=None)
    g.execute("next", role=REFEREE)
    return g


@pytest.mark.audits("ART-1", "MORT-3")
@pytest.mark.parametrize(("side", "kind", "fail", "win"), [("regulars", "", 3, 4), ("irregulars", "mortar", 4, 5)])
def test_one_call_a_turn_whatever_the_die(tmp_path, monkeypatch, side, kind, fail, win):
    """§8.4: "At the start of the turn the player calls for support by rolling a 4, 5 or 6
    on 1d6" (the Militia's mortar: "a roll of 5 or 6"): one roll a turn.  A call that fails
    is not rolled again until the next turn."""
    g = _at_initiative(tmp_path, monkeypatch)
    (call,) = rolls(g.execute(f"call-support {kind} dice={fail}", role=side))
    assert call.outcome == "refused"
    with pytest.raises(Refused) as no:
        g.execute(f"call-support {kind} dice={win}", role=side)
    names(no.value, "ART-2")
    to_activation(g, "regulars")
    play(g, "next", "next")
    (call,) = rolls(g.execute(f"call-support {kind} dice={win}", role=side))
    assert call.outcome == "granted"


@pytest.mark.audits("ART-1", "ART-2")
def test_the_artillery_is_called_again_the_turn_it_lands(tmp_path, monkeypatch):
    """§8.4: called on a 4 at the start of turn 1, the bombing "occurs at the start of the
    next turn, before deciding initiative"; at the start of turn 2 the Regulars call again
    (a 5), and that call lands at the start of turn 3."""
    g = _at_initiative(tmp_path, monkeypatch)
    g.execute("call-support dice=4", role="regulars")
    to_activation(g, "regulars")
    play(g, "next", "next")
    (call,) = rolls(g.execute("call-support dice=5", role="regulars"))
    assert call.outcome == "granted"
    landing = g.execute("next dice=1,2,3,4,6,6,1,1", role=REFEREE)
    assert [r.faces for r in rolls(landing)][0] == (1, 2, 3, 4)
    play(g, "next", "next")
    landing = g.execute("next dice=4,3,2,1,6,6,1,1", role=REFEREE)
    assert g.state.turn == 3 and [r.faces for r in rolls(landing)][0] == (4, 3, 2, 1)


@pytest.mark.audits("MORT-3", "MORT-1")
def test_the_militias_mortar_is_called_again_the_turn_it_fires(tmp_path, monkeypatch):
    """Extras: Mortars: "Support Fire can be called with a roll of 5 or 6 and comes next
    turn": called at the start of turn 1, it fires in turn 2, where the Militia call it
    again (a 6) for turn 3, and it fires again then."""
    g = _at_initiative(tmp_path, monkeypatch)
    g.execute("call-support mortar dice=5", role="irregulars")
    to_activation(g, "regulars")
    play(g, "next", "next")
    (call,) = rolls(g.execute("call-support mortar dice=6", role="irregulars"))
    assert call.outcome == "granted"
    to_activation(g, "irregulars")
    g.execute("mortar range=40 dice=4", role="irregulars")
    next_turn(g, "irregulars")
    (shot,) = rolls(g.execute("mortar range=40 dice=4", role="irregulars"))
    assert shot.target == 4


# ------------------------------------------------------------------ §7.0 with §8.9


@pytest.mark.audits("SPOT-7", "SMK-1", "OPP-2")
@pytest.mark.parametrize("weapon", ["", "weapon=GL"])
def test_a_hidden_man_who_throws_smoke_is_sighted(tmp_path, monkeypatch, weapon):
    """§7.0: hidden troops who want to stay hidden "do not fire, otherwise they are
    automatically sighted"; §8.9: smoke is a grenade thrown, or a grenade launcher fired.
    The hidden Militiaman who puts down smoke is sighted, and his throw is an action the
    Regulars may answer by opportunity."""
    units = CONVOY + unit("ghost", "irregulars", "Irr1", "Cell", weapons=("AR", "GL"), status=("hidden",))
    g = new_game(tmp_path, monkeypatch, units, active="irregulars")
    g.execute(f"smoke ghost range=8 {weapon} dice=4", role="irregulars")
    assert "hidden" not in status(g, "ghost")
    g.execute("react-fire m0 ghost range=20 aimed dice=1", role="regulars")


# ------------------------------------------------------------------ §5.0 d): covering after a short move


@pytest.mark.audits("COV-1", "T-03", "OPP-4")
@pytest.mark.parametrize("move", ["move m0 5", "move m0 3 cautious"])
def test_covering_fire_after_a_move_of_5_cm_or_less_is_one_action(g, move):
    """§5.0: "d) Perform covering fire (you can also move up to 5cm)": a man who has moved
    5 cm or less and then covers an area has performed action d), one action; each enemy
    figure answers it once (§8.2), at the move or at the covering fire."""
    g.execute(move, role="regulars")
    g.execute("covering m0 area=road range=20", role="regulars")
    assert g.state.vars["covering"] == "road=4"  # an AR at 20 cm, 3, and a Trained group's 1
    g.execute("react-fire i0 m0 range=20 aimed dice=1", role="irregulars")
    refused(g, "@irregulars react-fire i0 m0 range=20 aimed dice=1", rule="OPP-4")


@pytest.mark.audits("COV-1", "T-03")
def test_no_covering_fire_after_a_cautious_move_and_a_shot(g):
    """§5.0: one action: a man who crept 3 cm and fired has fired; he gives no covering fire
    after it."""
    play(g, "@regulars move m0 3", "@regulars fire m0 i0 range=20 aimed dice=1")
    refused(g, "@regulars covering m0 area=road range=20", rule="COV-1")


# ------------------------------------------------------------------ §8.8 with §8.0.1, §8.4, §8.5


@pytest.mark.audits("VF-1", "FIRE-10", "ART-4", "EXT-9")
@pytest.mark.parametrize("source", ["grenade", "mortar", "bombardment", "ied"])
def test_a_template_over_a_hummer_hits_the_hummer_not_the_men_inside(g, source):
    """§8.8: the occupants of a vehicle "protected but not armoured are subject to small
    arms fire"; a grenade's, a mortar's, a bombardment's or an IED's template is no small
    arms fire: under it the Hummer takes the hit (§9.2), not the man inside, who saves only
    if it explodes.  The man cannot be named under the template."""
    refused(g, f"blast rider source={source} by=irregulars dice=1", rule="VF-1")
    assert not out(g, "rider") and "suppressed" not in status(g, "rider")


@pytest.mark.audits("VF-1", "FIRE-10")
def test_a_grenade_burst_area_does_not_reach_into_a_hummer(tmp_path, monkeypatch):
    """§8.0.1, §8.8: the Militia's grenade hits the man beside the Hummer; its 5 cm burst
    area does not reach the man inside, whom only small arms may hit."""
    units = CONVOY + unit("bomber", "irregulars", "Irr1", "Cell", weapons=("GRENADE",))
    g = new_game(tmp_path, monkeypatch, units, active="irregulars")
    refused(g, "@irregulars fire bomber m0 range=8 also=rider dice=4,6,6", rule="VF-1")
    g.execute("fire bomber m0 range=8 dice=4,6", role="irregulars")
    assert "suppressed" in status(g, "m0") and "suppressed" not in status(g, "rider")


# ------------------------------------------------------------------ §11.1: one roll a turn


@pytest.mark.audits("BLD-3", "BLD-1")
def test_a_building_is_stormed_in_one_roll_a_turn(tmp_path, monkeypatch):
    """§11.1: "Each model rolls as many dice as he has Close Combat bonus. Resolve the
    combat in a single combat (roll)", and the example's next round comes "Next turn".  Two
    Rangers storming the house one after the other in the same turn would make its
    defender roll his dice twice: the second storm is refused (every attacker is in the one
    roll); next turn the second round is fought."""
    units = CONVOY + unit("r1", "regulars", "R2", "Rangers") + unit("r2", "regulars", "R2", "Rangers")
    units += unit("taliban", "irregulars", "Irr3", "House")
    g = new_game(tmp_path, monkeypatch, units)
    g.execute("storm r1 against=taliban dice=1,1,1,1,1", role="regulars")
    refused(g, "@regulars storm r2 against=taliban dice=1,1,1,1,1", rule="BLD-1")
    next_turn(g, "regulars")
    a, d = rolls(g.execute("storm r1 r2 against=taliban dice=1,1,1,1,1,1,1,1,1", role="regulars"))
    assert (len(a.faces), len(d.faces)) == (8, 1)
