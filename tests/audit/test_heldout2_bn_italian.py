"""Second held-out audit of Breaking News played as its Italian draft of 9 December 2009
(``variant = "it-2009-12-09"``), written from that draft and the digest's list of differences
alone, where a difference meets another rule: the Italian Milan row at its band edges and with
the Special Forces' −1, the Italian ammunition rule in opportunity fire and for Special Forces,
a shaken team's reactions where the Italian draft lets no suppressed man react, a tank's crew
and its leader, civilians hit under the Rules of Engagement with journalists, a negotiation
broken by covering fire, a secondary objective, and a civilian in an opportunity shot's line.
Each played both ways where the English outcome differs.  Given these faces, the draft's
outcome."""

from __future__ import annotations

import pytest
from audit_bn_early import MEN, play, refused, rolls, status
from audit_bn_early import new_game as new_table
from audit_bn_late import extras, ledger, new_game, next_turn, out, to_activation, unit
from audit_bn_late import final_count as _final_count
from playing import names

from core.log.views import REFEREE
from core.ruleset import Refused

IT = "it-2009-12-09"

SQUADS = (
    unit("sgt", "regulars", "R4", "Alpha", lead=1, roles=("commander", "leader"))
    + "".join(unit(f"m{i}", "regulars", "R4", "Alpha") for i in range(4))
    + unit("boss", "irregulars", "Irr3", "Cell", lead=1, roles=("commander", "leader"))
    + "".join(unit(f"i{i}", "irregulars", "Irr3", "Cell") for i in range(4))
)


def _to_hit(out) -> list:
    return [r for r in rolls(out) if r.purpose.startswith(("fire", "opportunity"))]


# ------------------------------------------------------------------------ §8.0: Milan e simili


@pytest.mark.audits("T-08", "FIRE-2")
@pytest.mark.parametrize(("variant", "cm", "need"), [(IT, "100", 5), (IT, "100.5", 6), ("", "100", 6)])
def test_the_italian_milan_row_at_its_third_band_edge(tmp_path, variant, cm, need):
    """§8.0: "Milan e simili" 4/4/5/6 [IT] against 4/5/6/6 [EN]: at 100 cm the third column,
    5 in Italian (6 in English); past 100 cm the fourth, 6."""
    g = new_table(tmp_path, variant=variant)
    (r,) = _to_hit(g.execute(f"fire milan techie range={cm} dice=1", role=REFEREE))
    assert r.need == need


@pytest.mark.audits("T-08", "T-09", "FIRE-4")
@pytest.mark.parametrize(("variant", "need"), [(IT, 3), ("", 4)])
def test_an_italian_special_forces_milan_at_50_cm(tmp_path, variant, need):
    """§8.0: "-1 Se tirano le Forze Speciali su tiro non a raffica": a Milan shot is single.
    At 50 cm the Italian row's 4 less 1 is 3; the English row's 5 less 1 is 4."""
    g = new_table(tmp_path, variant=variant, men=(*MEN, ("sfmilan", "regulars", "Delta", "R1", "ATH", "", "")))
    (r,) = _to_hit(g.execute("fire sfmilan techie range=50 dice=1", role=REFEREE))
    assert r.need == need


# ------------------------------------------------------------------------ §8.0.3


@pytest.mark.audits("FIRE-12", "OPP-2")
@pytest.mark.parametrize(("variant", "dry"), [(IT, True), ("", False)])
def test_an_smg_rolling_three_alike_by_opportunity(tmp_path, variant, dry):
    """§8.0.3 (optional) [IT]: three equal dice and the weapon "se è un AR può sparare solo a
    colpo singolo, altrimenti non spara più": an SMG answering a move with 3, 3, 3 (all misses at 20 cm) fires no
    more.  [EN] three equal dice only change an AR; for an SMG it is a double, an empty
    magazine."""
    men = (*MEN, ("ismg", "irregulars", "Cell", "Irr1", "SMG", "", ""))
    g = new_table(tmp_path, variant=variant, options=("ammo",), men=men)
    play(g, "move vet 10 shoot", "react-fire ismg vet range=20 dice=3,3,3")
    assert ("no-ammo" in status(g, "ismg")) is dry
    assert "empty-mag" in status(g, "ismg") or dry


@pytest.mark.audits("FIRE-12")
def test_italian_special_forces_never_run_dry_either(tmp_path):
    """§8.0.3 [IT]: "La regola non si applica alle Forze Speciali": a Special Forces SMG
    burst of 3, 3, 3 leaves its magazine as it was."""
    men = (*MEN, ("sfsmg", "regulars", "Delta", "R1", "SMG", "", ""))
    g = new_table(tmp_path, variant=IT, options=("ammo",), men=men)
    g.execute("fire sfsmg irr1 range=20 dice=3,3,3", role=REFEREE)
    assert not {"empty-mag", "low-ammo", "no-ammo"} & set(status(g, "sfsmg"))


# ------------------------------------------------------------------------ §10.0 with §12.0


def _shaken_militia(tmp_path, monkeypatch, variant):
    """The Militia lose two men in turn 1 and fail their morale test (two 1s against two
    losses) with fewer defeat points than the Regulars (10 against the Rules of Engagement's
    30 for the first shot): they are not routed but shaken.  Turn 2, the Regulars active."""
    units = SQUADS + unit("ghost", "regulars", "R4", "Bravo", status=("hidden",))
    head = extras("regulars", rules_of_engagement=True)
    g = new_game(tmp_path, monkeypatch, units, head=head, variant=variant)
    play(
        g,
        "@regulars fire m0 i3 range=30 aimed dice=1",
        "out i0 killed by regulars",
        "out i1 killed by regulars",
        "next",
        "@irregulars morale irregulars dice=1,1",
    )
    assert not g.state.vars.get("game_over")
    g.execute("next", role=REFEREE)
    to_activation(g, "regulars")
    return g


@pytest.mark.audits("MOR-6", "SUP-2", "SPOT-4")
def test_an_italian_shaken_man_still_sights_as_a_reaction(tmp_path, monkeypatch):
    """§12.0 [IT]: a team that fails without losing takes the suppression test "durante la
    successiva attivazione", and "Figure in fase di disingaggio ... reagiscono normalmente
    se non sono attive"; sighting is a reaction (§5.0 3: "reagire di opportunità muovendo,
    avvistando o sparando").  Before their own activation the Militia may try to sight."""
    g = _shaken_militia(tmp_path, monkeypatch, IT)
    (r,) = rolls(g.execute("react-spot i2 ghost range=20 dice=6", role=REFEREE))
    assert r.outcome == "sighted"


@pytest.mark.audits("MOR-6", "OPP-1")
@pytest.mark.parametrize("variant", [IT, ""])
def test_a_shaken_man_still_fires_by_opportunity(tmp_path, monkeypatch, variant):
    """§12.0: "Figures that are retreating react as normal" ([IT] "se non sono attive"): a
    shaken Militiaman answers a Regular's move."""
    g = _shaken_militia(tmp_path, monkeypatch, variant)
    g.execute("move m1 3", role="regulars")
    assert _to_hit(g.execute("react-fire i2 m1 range=20 aimed dice=1", role="irregulars"))


# ------------------------------------------------------------------------ §9.1 with §9.0


@pytest.mark.audits("SAVE-6", "SAVE-3", "SAVE-2")
@pytest.mark.parametrize(("variant", "face", "killed"), [(IT, 1, True), ("", 2, False), ("", 1, True)])
def test_a_tank_leaders_save_when_it_explodes(tmp_path, monkeypatch, variant, face, killed):
    """§9.1, §9.0: the tank's front fails its 4+ against a tank gun with a 1, by 3: it
    explodes.  Its crew leader tests at 2+ [IT] ("o Tank") or 3+ [EN], +1 as team leader;
    "Con un risultato di 1, i fanti sono sempre eliminati": a 1 kills him even at 2+ with
    +1.  In English his 2 + 1 = 3 saves."""
    units = unit("t", "regulars", "tank", "Motor", kind="vehicle", weapons=("TANKGUN", "HMG"))
    units += unit("cdr", "regulars", "R4", "Alpha", lead=1, roles=("leader",))
    units += unit("boss", "irregulars", "Irr1", "Cell")
    g = new_game(tmp_path, monkeypatch, units, variant=variant)
    play(g, "@regulars embark cdr t", f"blast t source=tank by=irregulars dice=1,{face}")
    assert out(g, "t")
    assert bool(out(g, "cdr")) is killed


# ------------------------------------------------------------------------ §14.0, Extras


@pytest.mark.audits("T-16", "DP-2", "DP-3", "T-20")
@pytest.mark.parametrize(("variant", "civilians"), [(IT, 10), ("", 0)])
def test_a_civilian_hit_under_the_rules_of_engagement_with_embedded_press(tmp_path, monkeypatch, variant, civilians):
    """§14.0 [IT]: 5 "per ogni civile colpito", 10 under the Rules of Engagement; [EN]
    "killed".  A Regular's shot hits a civilian who saves (a 6): 10 in Italian, nothing in
    English.  At the final count embedded journalists triple it, and double the rest: the
    first shot under the Rules of Engagement, 30, is 60."""
    units = SQUADS + unit("civ", "irregulars", "", "Civilians", kind="civilian")
    units += unit("lupo", "regulars", "", "Press", kind="journalist", roles=("embedded",))
    head = extras("regulars", rules_of_engagement=True)
    g = new_game(tmp_path, monkeypatch, units, head=head, variant=variant)
    g.execute("fire m0 civ range=20 aimed dice=6,6", role="regulars")
    assert not out(g, "civ")
    g.execute("next", role=REFEREE)
    assert ledger(g, "regulars").get("civilians", 0) == civilians
    assert f"= {60 + 3 * civilians} defeat points" in _final_count(g)


@pytest.mark.audits("EXT-12", "DP-4", "COV-1", "FIRE-15")
@pytest.mark.parametrize(("variant", "paid"), [(IT, 10), ("", 15)])
def test_covering_fire_breaks_a_negotiation(tmp_path, monkeypatch, variant, paid):
    """Extras: Negotiation: if the opponent "fires first" he takes 10 and the negotiator's
    points are struck off; [EN] plus 5 for firing first, [IT] "salvo ... negoziazione" no 5.
    Covering fire is firing (§8.3): the Militia's covering fire in turn 2 breaks it."""
    head = extras("regulars", negotiation=3)
    g = new_game(tmp_path, monkeypatch, SQUADS, head=head, variant=variant, active=None)
    if variant:  # [IT] "deve essere giocata al primo turno"
        g.execute("next", role=REFEREE)
        to_activation(g, "regulars")
        g.execute("negotiate regulars", role="regulars")
    else:  # [EN] "at the start of the game, before the initiative is resolved"
        play(g, "@regulars negotiate regulars", "next")
        to_activation(g, "regulars")
    next_turn(g, "irregulars")
    assert ledger(g, "regulars") == {"negotiation": 15}
    play(g, "@irregulars covering i0 i1 area=road range=20", "next")
    assert ledger(g, "regulars") == {}
    assert sum(ledger(g, "irregulars").values()) == paid


@pytest.mark.audits("OBJ-6", "T-16", "T-20")
def test_an_italian_secondary_objective_costs_nothing_even_with_journalists(tmp_path, monkeypatch):
    """§14.0 [IT] lists only "50 punti per perdita obiettivo da difendere": a secondary
    objective lost costs nothing, and twice nothing is nothing."""
    units = SQUADS + unit("lupo", "regulars", "", "Press", kind="journalist", roles=("embedded",))
    g = new_game(tmp_path, monkeypatch, units, variant=IT)
    refused(g, "score secondary-objective regulars", rule="DP-1")
    assert ledger(g, "regulars") == {}
    assert "= 0 defeat points" in _final_count(g)


@pytest.mark.audits("FF-1", "EXT-11")
@pytest.mark.parametrize(("variant", "allowed"), [(IT, False), ("", True)])
def test_an_irregulars_opportunity_shot_past_a_civilian(tmp_path, monkeypatch, variant, allowed):
    """§8.7, Civilians: [EN] "Rules for friendly fire are applied to the civilians"; [IT]
    only "se questo proviene dalle forze regolari".  A Militiaman's opportunity shot with a
    civilian in its line: in Italian the civilian is not at risk from it (he cannot be put
    in the line); in English he saves for the miss (4+ with +1: a 3 saves)."""
    units = SQUADS + unit("civ", "irregulars", "", "Civilians", kind="civilian")
    g = new_game(tmp_path, monkeypatch, units, variant=variant)
    g.execute("move m0 3", role="regulars")
    command = "react-fire i0 m0 range=20 aimed line=civ dice=1,3"
    if not allowed:
        with pytest.raises(Refused) as no:
            g.execute(command, role="irregulars")
        names(no.value, "DIFF-56")
        return
    g.execute(command, role="irregulars")
    assert not out(g, "civ")
