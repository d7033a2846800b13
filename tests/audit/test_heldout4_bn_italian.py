"""Fourth held-out audit of Breaking News played as its Italian draft of 9 December 2009
(``variant = "it-2009-12-09"``), where a difference of the digest's §6 meets a vehicle, a
suppressed man, the ammunition rule or a civilian: the "Milan e simili" row against
armour (DIFF-24), the men of an exploding tank (DIFF-38), the SMG's three equal dice in an
opportunity shot (DIFF-31), friendly fire on civilians only from Regulars (DIFF-56) and a
civilian "colpito" (DIFF-46).  Each played both ways where the English outcome differs.
Given these faces, the draft's outcome."""

from __future__ import annotations

import pytest
from audit_bn_late import new_game, out, play, refused, rolls, status, unit
from playing import names

from core.ruleset import Refused

IT = "it-2009-12-09"

MEN = (
    unit("tank", "regulars", "tank", "Armour", kind="vehicle", weapons=("TANKGUN", "HMG"), roles=("tracked",))
    + unit("trider", "regulars", "R4", "Charlie")
    + 'aboard = "tank"\n'
    + unit("cent", "regulars", "heavy", "Motor", kind="vehicle", weapons=("TANKGUN", "HMG"))
    + unit("smg", "regulars", "R4", "Alpha", weapons=("SMG",))
    + unit("m0", "regulars", "R4", "Alpha")
    + unit("imilan", "irregulars", "Irr1", "Cell", weapons=("ATH",))
    + unit("i0", "irregulars", "Irr1", "Cell")
    + unit("i1", "irregulars", "Irr1", "Cell")
    + unit("civ", "irregulars", "", "Civilians", kind="civilian")
)


def game(tmp_path, monkeypatch, variant="", active="irregulars", **kw):
    return new_game(tmp_path, monkeypatch, MEN, active=active, variant=variant, **kw)


@pytest.mark.audits("T-08", "T-14")
@pytest.mark.parametrize(("variant", "need"), [("", 5), (IT, 4)])
def test_the_milan_at_40_cm_against_the_centauro(tmp_path, monkeypatch, variant, need):
    """§8.0: [EN] "Heavy anti tank (Milan etc)" 4/5/6/6, [IT] "Milan e simili" 4/4/5/6: at
    40 cm the English Milan needs 5, the Italian 4.  A 4 misses in English; in Italian it
    hits and the Centauro saves 5+ against it (a 5 saves)."""
    g = game(tmp_path, monkeypatch, variant)
    rolled = rolls(
        g.execute("fire imilan cent range=40 dice=4,5", role="irregulars")
        if need == 4
        else g.execute("fire imilan cent range=40 dice=4", role="irregulars")
    )
    assert rolled[0].target == need
    assert [r.outcome for r in rolled] == (["1 hit", "saved"] if need == 4 else ["miss"])
    assert not out(g, "cent")


@pytest.mark.audits("SAVE-6", "VSAVE-1")
def test_the_tank_crew_saves_on_2_in_the_italian_draft(tmp_path, monkeypatch):
    """§9.1 [IT]: "2+ se entro veicolo pesantemente blindato o Tank": the Milan at the tank's
    flank (5+) and a 2 blow it up; the Trained man inside saves on a 2 and is placed
    beside the wreck, suppressed."""
    g = game(tmp_path, monkeypatch, IT)
    rolled = rolls(g.execute("fire imilan tank range=20 flank dice=6,2,2", role="irregulars"))
    assert [r.outcome for r in rolled][1] == "explodes"
    assert not out(g, "trider") and "suppressed" in status(g, "trider")
    assert "in-vehicle" not in status(g, "trider")


@pytest.mark.audits("FIRE-12", "OPP-4")
@pytest.mark.parametrize(("variant", "badge"), [("", "empty-mag"), (IT, "no-ammo")])
def test_three_equal_dice_of_an_smg_answering_a_move(tmp_path, monkeypatch, variant, badge):
    """§8.0.3: three equal dice: [IT] "any other weapon (SMG) cannot fire any more"; [EN]
    says nothing of the SMG beyond the double's empty magazine.  The SMG answers the
    Militiaman's move by opportunity with 2,2,2 at 20 cm (4+: no hit)."""
    g = game(tmp_path, monkeypatch, variant, options=("ammo",))
    play(g, "@irregulars move i0 10", "@regulars react-fire smg i0 range=20 dice=2,2,2")
    assert badge in status(g, "smg")


@pytest.mark.audits("FF-1", "EXT-11")
@pytest.mark.parametrize("variant", ["", IT])
def test_a_civilian_in_the_line_of_irregular_fire(tmp_path, monkeypatch, variant):
    """Extras, Civilians: [EN] "Rules for friendly fire are applied to the civilians"; [IT]
    "se proviene da forze regolari".  The Militiaman misses the Ranger (a 1) with a
    civilian in his line: in English the civilian saves against it (+1); the Italian draft
    has no such save."""
    g = game(tmp_path, monkeypatch, variant)
    command = "fire i0 m0 range=20 aimed line=civ dice=1,6"
    if variant:
        with pytest.raises(Refused) as no:
            g.execute(command, role="irregulars")
        names(no.value, "DIFF-56")
        g.execute("fire i0 m0 range=20 aimed dice=1", role="irregulars")
    else:
        rolled = rolls(g.execute(command, role="irregulars"))
        assert len(rolled) == 2 and rolled[1].outcome.startswith("saved")


@pytest.mark.audits("T-16", "EXT-11")
@pytest.mark.parametrize(("variant", "points"), [("", 5), (IT, 10)])
def test_a_civilian_hit_and_saved(tmp_path, monkeypatch, variant, points):
    """§14.0: [EN] 5 DP "for every civilian killed", [IT] "per ogni civile colpito": the
    Regulars' AR hits the civilian and he saves (a 6).  Their points: 5 for firing first,
    and in Italian 5 more for the civilian hit."""
    g = game(tmp_path, monkeypatch, variant, active="regulars")
    play(g, "@regulars fire m0 civ range=20 aimed dice=6,6", "next")
    assert g.state.sides["regulars"].defeat_points == points


@pytest.mark.audits("SUP-2", "MOV-6")
@pytest.mark.parametrize("variant", ["", IT])
def test_a_suppressed_man_does_not_dodge(tmp_path, monkeypatch, variant):
    """§10.0: [IT] "Le figure soppresse non possono reagire"; [EN] "cannot react by
    opportunity", the digest's AMB-49 reading both as no reaction at all: the suppressed
    Ranger neither dodges nor fires back at the Militiaman."""
    g = game(tmp_path, monkeypatch, variant)
    play(g, "mark m0 suppressed", "@irregulars move i0 10")
    refused(g, "@regulars react-dodge m0 3", rule="SUP-2")
    refused(g, "@regulars react-fire m0 i0 range=20 aimed dice=6", rule="SUP-2")
